#!/usr/bin/env bash
# `cmake --install` into a temporary prefix gives a working vfsmc, its man
# page (man vfsmc), bash completion, the docs and the JSON Schema.
#   tests/install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmake --build "$build" --target vfsmc vfsmc_man >/dev/null
cmake --install "$build" --prefix "$prefix" >/dev/null
[ -x "$prefix/bin/vfsmc" ] || fail "no bin/vfsmc"
version=$("$prefix/bin/vfsmc" --version)
[[ $version =~ ^vfsmc\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ [0-9a-z-]+\)$ ]] || fail "vfsmc --version: $version"
(cd "$src" && "$prefix/bin/vfsmc" run --no-progress --first scenarios/dcache/broken-double-dput.json >/dev/null) ||
  fail "the installed vfsmc does not run a scenario"
page=$prefix/share/man/man1/vfsmc.1
[ -f "$page" ] || fail "no man page at share/man/man1/vfsmc.1"
man_out=$(MANPATH=$prefix/share/man MANPAGER=cat man -P cat vfsmc 2>/dev/null || man -l "$page" 2>/dev/null | cat)
grep -q "vfsmc" <<<"$man_out" || fail "man vfsmc shows nothing"
grep -qi "run" <<<"$man_out" || fail "man vfsmc does not describe the subcommands"
number=${version#vfsmc }
grep -q "${number%% *}" "$page" || fail "the man page does not carry the version"
# The man page's examples run as written, from anywhere: their scenarios
# are installed under share/vfsmc/scenarios.
examples=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$page" | grep '^vfsmc ' || true)
[ -n "$examples" ] || fail "the man page has no EXAMPLES section with commands"
grep -q "^vfsmc run $prefix/share/vfsmc/scenarios/" <<<"$examples" || fail "the man page's examples do not use the installed scenarios"
grep -q '^\.SS run' "$page" || fail "the man page does not cover the subcommands' options"
grep -q 'preemption bound' "$page" || fail "the man page does not show run's options"
work=$(mktemp -d)
while read -r cmd; do
  [ -n "$cmd" ] || continue
  set +e
  out=$(cd "$work" && PATH=$prefix/bin:$PATH eval "$cmd" 2>&1)
  rc=$?
  set -e
  [ $rc -le 1 ] || { rm -rf "$work"; fail "man page example exits $rc: $cmd: $out"; }
  case $cmd in
    "vfsmc run $prefix"*) grep -q '^\[counterexample\] shared-d-rehash-notes-race' <<<"$out" || fail "$cmd: no counterexample: $out" ;;
    *--brief*) grep -q 'In short' <<<"$out" || fail "$cmd: $out" ;;
    *--html*) grep -q '<!DOCTYPE html>' "$work/page.html" || fail "$cmd: no page" ;;
    *--junit*) grep -q '<testsuite' "$work/results.xml" || fail "$cmd: no JUnit XML" ;;
    *list*) grep -q '^model dcache' <<<"$out" || fail "$cmd: $out" ;;
  esac
done <<<"$examples"
rm -rf "$work"
for f in share/doc/vfsmc/README.md share/doc/vfsmc/result-format.md share/vfsmc/scenario.schema.json \
         share/vfsmc/scenarios/dcache/shared-d-rehash-notes-race.json share/vfsmc/scenarios/chrdev/explorations.lock; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
comp=$prefix/share/bash-completion/completions/vfsmc
[ -f "$comp" ] || fail "no bash completion"
# Complete `vfsmc ru` and `vfsmc run --str`, as bash would.
words=$(bash -c 'source "$1"; COMP_WORDS=(vfsmc ru); COMP_CWORD=1; _vfsmc; echo "${COMPREPLY[*]}"' _ "$comp")
[ "$words" = "run" ] || fail "completion of 'vfsmc ru': '$words'"
words=$(bash -c 'source "$1"; COMP_WORDS=(vfsmc run --str); COMP_CWORD=2; _vfsmc; echo "${COMPREPLY[*]}"' _ "$comp")
[ "$words" = "--strategy" ] || fail "completion of 'vfsmc run --str': '$words'"
words=$(bash -c 'source "$1"; COMP_WORDS=(vfsmc run --strategy b); COMP_CWORD=3; _vfsmc; echo "${COMPREPLY[*]}"' _ "$comp")
[ "$words" = "bounded" ] || fail "completion of 'vfsmc run --strategy b': '$words'"
# Every option --help lists is completed.
for sub in run check replay; do
  for opt in $("$prefix/bin/vfsmc" $sub --help | grep -o '^ *--[a-z-]*' | tr -d ' ' | sort -u); do
    grep -q -- "$opt" "$comp" || fail "completion does not know $sub $opt"
  done
done
echo "ok: installed into a temporary prefix: vfsmc $version, man page, completion, docs, schema"
