# Writes the man page OUT (vfsmc.1) with help2man from VFSMC's --help-man
# (--help without its examples) and --version, adding an EXAMPLES section whose scenario paths are under
# DATADIR (where the scenarios are installed: DATADIR/vfsmc/scenarios) and
# a SUBCOMMANDS section with each subcommand's own --help. Run at build
# time (the build tree's page) and again at install time, when the prefix
# is known (cmake --install --prefix).
#   cmake -DVFSMC=... -DHELP2MAN=... -DDATADIR=... -DOUT=... -P cmake/man.cmake
set(sc "${DATADIR}/vfsmc/scenarios")
set(inc "${OUT}.h2m")
set(text "[EXAMPLES]\n.nf\n")
foreach(line
    "vfsmc run ${sc}/dcache/shared-d-rehash-notes-race.json"
    "vfsmc run --format email --brief ${sc}/dcache/shared-d-rehash-notes-race.json"
    "vfsmc run --html page.html ${sc}/chrdev/evict-vs-opener-pre-seed.json"
    "vfsmc run --strategy bounded --bound 1 ${sc}/dcache/shared-d-rehash-notes-race.json"
    "vfsmc check ${sc}/chrdev -j2 --junit results.xml"
    "vfsmc list --model dcache")
  string(APPEND text "${line}\n")
endforeach()
string(APPEND text ".fi\nThe scenarios installed with vfsmc are under ${sc}; a counterexample ends with the `vfsmc replay` command that replays it.\n")
string(APPEND text "[SUBCOMMANDS]\n")
foreach(sub run check replay list validate schema litmus)
  execute_process(COMMAND "${VFSMC}" ${sub} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${VFSMC} ${sub} --help failed")
  endif()
  string(REPLACE "\\" "\\\\" help "${help}")
  string(APPEND text ".SS ${sub}\n.nf\n${help}.fi\n")
endforeach()
file(WRITE "${inc}" "${text}")
execute_process(COMMAND "${HELP2MAN}" --no-info --section=1 --help-option=--help-man --name "a concurrency model checker for Linux VFS protocols"
                        --include "${inc}" --output "${OUT}" "${VFSMC}"
                RESULT_VARIABLE rc)
file(REMOVE "${inc}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed for ${OUT}")
endif()
