#!/usr/bin/env bats
# The reviewer's and CI's command line (issue 14): --version and --help,
# "did you mean", changing the search without editing JSON, replay against a
# changed config, the email form, JUnit XML and GitHub annotations.
# Run by CTest (label "cli"):  VFSMC=... SRC=... bats tests/review.bats

setup() {
  : "${VFSMC:?set VFSMC to the vfsmc binary}" "${SRC:?set SRC to the source tree}"
  cd "$SRC"
  tmp=$(mktemp -d)
  flagship=scenarios/dcache/shared-d-rehash-notes-race.json
  small=scenarios/dcache/broken-double-dput.json
}

teardown() { rm -rf "$tmp"; }

# A copy of scenario $1 under $tmp/<dir>/ with its explorations.lock entry.
copy_scenario() {
  local d
  d=$tmp/$(basename "$(dirname "$1")")
  mkdir -p "$d"
  cp "$1" "$d/"
  cp "$(dirname "$1")/explorations.lock" "$d/"
  echo "$d/$(basename "$1")"
}

@test "--version prints the project version and the commit it was built from" {
  run "$VFSMC" --version
  [ "$status" -eq 0 ]
  [[ $output =~ ^vfsmc\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{12}(-dirty)?|unknown)\)$ ]]
  if git -C "$SRC" rev-parse HEAD >/dev/null 2>&1; then
    [[ $output == *"(commit $(git -C "$SRC" rev-parse --short=12 HEAD)"* ]]
  fi
}

@test "--help shows examples and the exit codes" {
  run "$VFSMC" --help
  [ "$status" -eq 0 ]
  [[ $output == *"Examples:"* ]]
  [[ $output == *"vfsmc run --format email --brief FILE"* ]]
  [[ $output == *"Exit codes:"* ]]
}

@test "a misspelt step says which one was meant instead of listing every step" {
  sed 's/"d_alloc_parallel:lookup"/"d_alloc_paralel:lookup"/' "$flagship" > "$tmp/shared-d-rehash-notes-race.json"
  run "$VFSMC" validate "$tmp/shared-d-rehash-notes-race.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == *'did you mean "d_alloc_parallel:lookup"? accepted: one of '*' steps of the dcache model (`vfsmc list` shows them)' ]]
}

@test "a misspelt op and a misspelt field are corrected too" {
  sed 's/"open_creat"/"open_creta"/' "$flagship" > "$tmp/shared-d-rehash-notes-race.json"
  run "$VFSMC" validate "$tmp/shared-d-rehash-notes-race.json"
  [ "$status" -eq 2 ]
  [[ $output == *'did you mean "open_creat"?'* ]]
  sed 's/"threads"/"thread"/' "$flagship" > "$tmp/shared-d-rehash-notes-race.json"
  run "$VFSMC" validate "$tmp/shared-d-rehash-notes-race.json"
  [ "$status" -eq 2 ]
  [[ $output == *'unknown field; did you mean "threads"?'* ]]
}

@test "run --bound changes the search and says the result is not the scenario's own" {
  run "$VFSMC" run --no-progress --first --bound 0 --json "$small"
  [[ $output == *'"overrides": ['* ]]
  [[ $output == *'"--bound 0"'* ]]
  [[ $output == *'"preemption_bound": 0'* ]]
  run "$VFSMC" run --no-progress --first --strategy exhaustive "$small"
  [[ ${lines[0]} == "note: not the scenario's own result: changed on the command line with --strategy exhaustive;"* ]]
  [[ $output == *"every interleaving (plain search)"* ]]
}

@test "run --no-symmetry runs dpor without its identical-threads rule, and the description says which threads it folds" {
  f=$SRC/scenarios/chrdev/concurrent-first-open-v2.json
  run "$VFSMC" run --no-progress --json "$f"
  [ "$status" -eq 0 ]
  [[ $output == *'and up to a permutation of the identical threads P0, P1"'* ]]
  [[ $output == *'"executions": 29'* ]]
  run "$VFSMC" run --no-progress --json --no-symmetry "$f"
  [ "$status" -eq 0 ]
  [[ $output != *'identical threads'* ]]
  [[ $output == *'"executions": 61'* ]]
  VFSMC_TEST_SYMMETRY=sideways run "$VFSMC" run --no-progress "$f"
  [ "$status" -eq 2 ]
  [[ $output == *'VFSMC_TEST_SYMMETRY: unknown value "sideways"; accepted: off, mutant (test-only), or unset'* ]]
}

@test "run --strategy takes the loader's names and corrects a typo" {
  run "$VFSMC" run --no-progress --strategy boundd "$small"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$output" = 'error: vfsmc run: --strategy: bad value "boundd"; accepted: did you mean "bounded"? dpor, exhaustive, bounded, random, pct' ]
}

@test "run --without leaves an invariant out, and rejects one the scenario does not enable" {
  run "$VFSMC" run --no-progress --first --without dentry-ref-underflow --json "$small"
  [[ $output == *'"--without dentry-ref-underflow"'* ]]
  [[ $output != *'"invariant": "dentry-ref-underflow"'* ]]
  run "$VFSMC" run --no-progress --without dentry-ref-undreflow "$small"
  [ "$status" -eq 2 ]
  [[ $output == *'did you mean "dentry-ref-underflow"?'* ]]
}

@test "run --memory-model, --seed and --time-limit are taken and reported" {
  run "$VFSMC" run --no-progress --first --memory-model kernel --seed 3 --time-limit 20 --json "$small"
  [[ $output == *'"memory_model": "kernel"'* ]]
  [[ $output == *'"strategy": "random"'* ]]
  [[ $output == *'"--seed 3"'* ]]
  [[ $output == *'"--time-limit 20"'* ]]
  run "$VFSMC" run --no-progress --strategy exhaustive --seed 3 "$small"
  [ "$status" -eq 2 ]
}

@test "replay --config replays a counterexample's schedule against another version" {
  f=scenarios/chrdev/v2-fast-path-vs-last-close.json
  token=$("$VFSMC" run --no-progress --first --json "$f" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["replay_token"])')
  run "$VFSMC" replay "$f" "$token" --config version=pre-seed
  [[ $output == *"--config version=pre-seed"* ]]
  # This schedule cannot be followed on the pre-seed code: the output says
  # where the two part, shows the changed code's steps up to there, and
  # what to run instead.
  [ "$status" -eq 1 ]
  [[ ${lines[0]} == "The token's schedule cannot be followed with --config version=pre-seed." ]]
  [[ ${lines[1]} == "  the schedule's turns (the scenario itself): P0 1-"*"; it breaks cdev-use-after-free at step "* ]]
  [[ ${lines[2]} == "  the changed code's turns:"*"P0 1-"* ]]
  [[ $output == *"The changed code's steps up to there"* ]]
  [[ $output == *$'\n     1 [P0] chrdev_open(): '* ]]
  [[ $output == *"The replay shows nothing about the changed code beyond step "* ]]
  [[ $output == *'set "config": {"version": "pre-seed"} in a copy of '"$f"* ]]
  run "$VFSMC" replay "$f" "$token" --config version=pre_sed
  [ "$status" -eq 2 ]
  [[ $output == *'did you mean "pre-seed"?'* ]]
}

@test "replay --config --json prints one JSON object when the schedule is followed, broken along, or cannot be followed" {
  # json_only STATUS ARGS...: vfsmc's stdout is one JSON object (python3 -m
  # json.tool refuses anything after it), stderr is empty, and the exit
  # status is STATUS; prints the object.
  json_only() {
    local want=$1 rc=0
    shift
    "$VFSMC" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq "$want" ] || { echo "exit $rc, expected $want"; cat "$tmp/out" "$tmp/err"; return 1; }
    [ ! -s "$tmp/err" ] || { echo "stderr:"; cat "$tmp/err"; return 1; }
    /usr/bin/python3 -m json.tool "$tmp/out" >/dev/null || { cat "$tmp/out"; return 1; }
    cat "$tmp/out"
  }
  field() { /usr/bin/python3 -c 'import json, sys; j = json.load(sys.stdin)
for k in sys.argv[1].split("."): j = j[int(k)] if isinstance(j, list) else j[k]
print(json.dumps(j))' "$1"; }
  token=$("$VFSMC" run --json --stable --no-progress "$small" | field replay_token | tr -d '"')
  # Followed to its end, no invariant broken: the changed code's one execution.
  out=$(json_only 0 replay --json --stable "$small" "$token" --config dput_bug=none)
  [ "$(field verdict <<<"$out")" = '"holds"' ]
  [ "$(field scope <<<"$out")" = '"sampled"' ]
  [ "$(field replay.followed <<<"$out")" = true ]
  [ "$(field replay.config <<<"$out")" = '["dput_bug=none"]' ]
  [[ $out != *"The schedule was followed"* ]]
  # Broken along the schedule: the counterexample.
  out=$(json_only 0 replay --json --stable "$small" "$token" --config dput_bug=missing-dput)
  [ "$(field verdict <<<"$out")" = '"violated"' ]
  [ "$(field replay.followed <<<"$out")" = true ]
  # Not followed: no verdict on the changed code, and where the two part.
  f=scenarios/chrdev/v2-fast-path-vs-last-close.json
  token=$("$VFSMC" run --no-progress --first --json "$f" | field replay_token | tr -d '"')
  out=$(json_only 1 replay --json "$f" "$token" --config version=pre-seed)
  [ "$(field verdict <<<"$out")" = '"error"' ]
  [ "$(field replay.followed <<<"$out")" = false ]
  [[ "$(field replay.schedule_turns <<<"$out")" == '"P0 1-'* ]]
  [[ "$(field replay.where <<<"$out")" == '"The replay of the changed code stops after step '* ]]
  [ "$(field replay.steps.0.n <<<"$out")" = 1 ]
  [[ $out != *"cannot be followed"* ]]
  # The text form still tells it in words.
  run "$VFSMC" replay "$f" "$token" --config version=pre-seed
  [ "$status" -eq 1 ]
  [[ ${lines[0]} == "The token's schedule cannot be followed with --config version=pre-seed." ]]
}

@test "the email form: In short first, 72 columns, --brief leaves the interleaving out" {
  run "$VFSMC" run --no-progress --stable --format email "$flagship"
  [[ ${lines[0]} == "[counterexample] shared-d-rehash-notes-race:" ]]
  [[ ${lines[1]} == "  one-hashed-dentry-per-name violated" ]]
  [[ ${lines[2]} == "In short"* ]]
  while IFS= read -r l; do [ "${#l}" -le 72 ] || { echo "too long: $l"; false; }; done <<<"$output"
  [[ $output == *"Interleaving (one column per thread):"* ]]
  full=${#lines[@]}
  run "$VFSMC" run --no-progress --stable --format email --brief "$flagship"
  [[ $output != *"Interleaving (one column per thread):"* ]]
  [[ $output == *"is left out: run the replay command"* ]]
  # What the brief refers to, it includes: every named step, and no
  # pointer to an interleaving it leaves out.
  [[ $output != *"see the interleaving"* && $output != *"left out here"* ]]
  [ "${#lines[@]}" -lt 80 ]
  [ "$((${#lines[@]} * 3))" -lt "$full" ]
  run "$VFSMC" run --no-progress --stable --brief "$flagship"
  [[ $output != *"full interleaving follows"* && $output != *"the numbered lines below"* ]]
  [[ $output == *"In short (the model's named steps; the replay command below prints the full interleaving):"* ]]
}

@test "the full email keeps object names whole: no line ends inside a name" {
  run "$VFSMC" run --no-progress --stable --format email "$flagship"
  # A name is never cut after its dot (`dentry_hashtable["foo"].` / `first`).
  [ -z "$(grep -E '(\]|"#[0-9]+|[a-z]+_[a-z_]*)\.$' <<<"$output")" ]
  # A kind stays with its quoted name (`dentry` / `"foo"#2`): no line
  # starts with a quoted name when the line before ends with a word.
  [ -z "$(awk 'prev ~ /[a-z]$/ && $0 ~ /^ *"[^"]*"#/ { print } { prev = $0 }' <<<"$output")" ]
  grep -q 'dentry_hashtable\["foo"\]\.first' <<<"$output"
}

@test "every golden email report keeps to 72 columns and never splits bit_lock" {
  for f in reports/*.email.txt; do
    while IFS= read -r l; do [ "${#l}" -le 72 ] || { echo "$f: too long: $l"; false; }; done < "$f"
    ! grep -q 'bit_lo$' "$f"
  done
}

@test "check --junit writes JUnit XML that validates against tests/junit.xsd" {
  command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
  pass=$(copy_scenario "$small")
  failing=$(copy_scenario scenarios/chrdev/evict-vs-opener-v2.json)
  sed -i 's/"expect": "holds"/"expect": {"verdict": "violated", "invariant": "kref-balance"}/' "$failing"
  run "$VFSMC" check --junit "$tmp/junit.xml" "$pass" "$failing"
  [ "$status" -eq 1 ]
  run xmllint --noout --schema tests/junit.xsd "$tmp/junit.xml"
  [ "$status" -eq 0 ]
  [ "$(grep -c '<testcase ' "$tmp/junit.xml")" -eq 2 ]
  [ "$(grep -c '<failure ' "$tmp/junit.xml")" -eq 1 ]
  grep -q '<testcase name="broken-double-dput"' "$tmp/junit.xml"
  grep -q 'failures="1"' "$tmp/junit.xml"
}

@test "the JUnit schema rejects what it should (the test can fail)" {
  command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
  printf '<testsuites name="x" tests="1" failures="0" errors="0" time="0"><testsuite name="s" tests="1" failures="0" errors="0" skipped="0" time="0"><testcase classname="c" time="0"/></testsuite></testsuites>\n' > "$tmp/bad.xml"
  run xmllint --noout --schema tests/junit.xsd "$tmp/bad.xml"
  [ "$status" -ne 0 ]
  [[ $output == *"attribute 'name' is required"* ]]
  [[ $output == *"fails to validate"* ]]
}

@test "check --format github prints an ::error annotation for each failing scenario" {
  pass=$(copy_scenario "$small")
  failing=$(copy_scenario scenarios/chrdev/evict-vs-opener-v2.json)
  sed -i 's/"expect": "holds"/"expect": {"verdict": "violated", "invariant": "kref-balance"}/' "$failing"
  run "$VFSMC" check --format github "$pass" "$failing"
  [ "$status" -eq 1 ]
  [ "$(grep -c '^::error ' <<<"$output")" -eq 1 ]
  line=$(grep -n '"expect"' "$failing" | head -1 | cut -d: -f1)
  grep -q "^::error file=$failing,line=$line,title=vfsmc%3A evict-vs-opener-v2::FAIL  $failing: holds (complete) (expected violated kref-balance)" <<<"$output"
}

@test "the catalogue test fails on a scenario with no entry" {
  mkdir -p "$tmp/src/scenarios/dcache"
  cp scenarios/README.md "$tmp/src/scenarios/"
  cp scenarios/dcache/*.json "$tmp/src/scenarios/dcache/"
  cp "$small" "$tmp/src/scenarios/dcache/uncatalogued.json"
  run /usr/bin/python3 tests/catalogue_test.py "$tmp/src"
  [ "$status" -eq 1 ]
  [[ $output == *"scenarios/dcache/uncatalogued.json: no entry"* ]]
  [[ $output == *"entry \`"*"names a file that does not exist"* ]]
}

@test "a misspelt command says which one was meant" {
  run "$VFSMC" chek "$small"
  [ "$status" -eq 2 ]
  [ "$output" = 'error: vfsmc: unknown command "chek"; did you mean "check"? accepted: run, check, replay, list, validate, schema, litmus (vfsmc --help)' ]
  run "$VFSMC" frobnicate
  [ "$status" -eq 2 ]
  [ "$output" = 'error: vfsmc: unknown command "frobnicate"; accepted: run, check, replay, list, validate, schema, litmus (vfsmc --help)' ]
}

@test "a long search shows progress, with percent and time left when its size is known" {
  command -v script >/dev/null || skip "script (util-linux) is not installed: progress needs a terminal"
  f=scenarios/dcache/three-shared-d-splice-alias.json
  run script -qec "'$VFSMC' run --strategy exhaustive --time-limit 3.5 $f" /dev/null
  [[ $output =~ vfsmc:\ three-shared-d-splice-alias:\ [0-9]+\ executions,\ [0-9]+/s,\ [0-9.]+s\ elapsed,\ [0-9]+%,\ about\ [0-9]+s\ left ]]
  run script -qec "'$VFSMC' run --no-progress --strategy exhaustive --time-limit 3.5 $f" /dev/null
  [[ $output != *"elapsed"* ]]
}

@test "issue 35: a new scenario without a recorded count is named as new, and --update-counts records it" {
  mkdir -p "$tmp/m"
  sed 's/"name": "broken-double-dput"/"name": "my-new-scenario"/' "$small" > "$tmp/m/my-new-scenario.json"
  echo '{}' > "$tmp/m/explorations.lock"
  run "$VFSMC" check "$tmp/m"
  [ "$status" -eq 1 ]
  [[ $output == *"new scenario: no recorded count in $tmp/m/explorations.lock"* ]]
  [[ $output == *"vfsmc check --update-counts\` records it"* ]]
  [[ $output != *"count changed"* ]]
  run "$VFSMC" check --update-counts "$tmp/m"
  [ "$status" -eq 0 ]
  grep -q '"my-new-scenario"' "$tmp/m/explorations.lock"
  run "$VFSMC" check "$tmp/m"
  [ "$status" -eq 0 ]
  # A count that moved is told apart from a new one.
  python3 -c 'import json,sys; p=sys.argv[1]; j=json.load(open(p)); j["my-new-scenario"]+=1; json.dump(j,open(p,"w"))' "$tmp/m/explorations.lock"
  run "$VFSMC" check "$tmp/m"
  [ "$status" -eq 1 ]
  [[ $output == *"exploration count changed"* ]]
  [[ $output != *"new scenario"* ]]
}

@test "issue 35: list --model shows one model, list --json all of them, and no text line is wider than 79 columns but the docs" {
  run "$VFSMC" list --model chrdev
  [ "$status" -eq 0 ]
  [[ $output == *"model chrdev:"* ]]
  [[ $output != *"model dcache:"* ]]
  run "$VFSMC" list --model dcach
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == *'--model: bad value "dcach"; did you mean "dcache"? accepted: chrdev, dcache, openref'* ]]
  "$VFSMC" list --json > "$tmp/list.json"
  python3 - "$tmp/list.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
names = [m["name"] for m in j["models"]]
assert {"chrdev", "dcache", "openref"} <= set(names), names
for m in j["models"]:
    assert m["steps"] and m["ops"] and m["invariants"] and m["threads"]["max"] >= 1, m["name"]
assert "deadlock" in j["engine_invariants"]
PY
  "$VFSMC" list --model dcache --json | python3 -c 'import json,sys; j=json.load(sys.stdin); assert [m["name"] for m in j["models"]] == ["dcache"]'
  # The invariants and steps lines wrap.
  "$VFSMC" list > "$tmp/list.txt"
  ! grep -E '^  (steps|invariants):' "$tmp/list.txt" | awk 'length > 79' | grep -q .
  ! awk '/^  (steps|invariants):/,/^  [a-z]|^$/' "$tmp/list.txt" | awk 'length > 79' | grep -q .
}

@test "issue 35: each step carries its model source location: JSON always, HTML as a tooltip, text with --source" {
  run "$VFSMC" run --json --stable --no-progress "$flagship"
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" > "$tmp/r.json"
  python3 - "$tmp/r.json" "$SRC" <<'PY'
import json, re, sys, os
j = json.load(open(sys.argv[1])); src = sys.argv[2]
steps = j["trace"]
assert steps, "no trace"
named = exact = 0
for st in steps:
    loc = st.get("source")
    assert loc, f"step {st['n']} has no source"
    m = re.fullmatch(r"((?:models|tests)/[A-Za-z0-9_./-]+):([0-9]+)", loc)
    assert m, f"step {st['n']}: {loc} is not a model file:line"
    lines = open(os.path.join(src, m.group(1))).read().split("\n")
    line = lines[int(m.group(2)) - 1]
    # An access named by its vocabulary call is on a line that makes it:
    # the call itself, or a model helper or vocabulary function that makes
    # it (rcu_dereference(), write_seqcount_begin()).
    if st["action"] in ("READ_ONCE", "WRITE_ONCE", "smp_store_release", "smp_load_acquire"):
        assert "(" in line, f"step {st['n']} {st['action']} at {loc}: {line.strip()}"
        named += 1
        if st["action"] + "(" in line or "rcu_dereference(" in line:
            exact += 1
assert named >= 5 and exact >= 0.7 * named, (named, exact)
PY
  "$VFSMC" run --stable --no-progress --html "$tmp/p.html" "$flagship" >/dev/null
  grep -Eq '<td class="step[^"]*" data-thread="P[01]" title="models/dcache/[a-z]+\.(cpp|h):[0-9]+">' "$tmp/p.html"
  run "$VFSMC" run --stable --no-progress --source "$flagship"
  [[ $output =~ \[P0\]\ d_alloc_parallel\(\):\ .*\ \ at\ models/dcache/[a-z]+\.cpp:[0-9]+ ]]
  run "$VFSMC" run --stable --no-progress "$flagship"
  [[ $output != *"  at models/"* ]]
}

@test "issue 35: --dot writes the reported execution as a graph: steps as nodes; po, rf and the conflict as edges" {
  run "$VFSMC" run --stable --no-progress --dot "$tmp/g.dot" --json "$flagship"
  [ "$status" -eq 0 ]
  steps=$(printf '%s\n' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["steps"])')
  head -1 "$tmp/g.dot" | grep -q 'generated by vfsmc; do not edit'
  grep -q '^digraph "shared-d-rehash-notes-race" {' "$tmp/g.dot"
  [ "$(grep -cE '^    s[0-9]+ \[label=' "$tmp/g.dot")" -eq "$steps" ]
  grep -q 'subgraph "cluster_P0"' "$tmp/g.dot"
  grep -q 'subgraph "cluster_P1"' "$tmp/g.dot"
  [ "$(grep -c '\[label="po"\]' "$tmp/g.dot")" -eq $((steps - 2)) ]
  grep -q 'label="rf"' "$tmp/g.dot"
  grep -Eq 's[0-9]+ -> s[0-9]+ \[label="conflict"' "$tmp/g.dot"
  grep -q 'd_alloc_parallel()' "$tmp/g.dot"
  ! grep -Eq '= [0-9]+ -> [0-9]+|0x[0-9a-f]{6,}' "$tmp/g.dot"
  # An unwritable path: one line, exit 2.
  run "$VFSMC" run --no-progress --dot "$tmp/no/such/dir/g.dot" "$small"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
}

@test "issue 35: the --dot graph renders with Graphviz" {
  command -v dot >/dev/null || skip "graphviz (dot) is not installed; scripts/test installs it"
  "$VFSMC" run --stable --no-progress --dot "$tmp/g.dot" "$flagship" >/dev/null
  dot -Tsvg "$tmp/g.dot" -o "$tmp/g.svg"
  grep -q '<svg' "$tmp/g.svg"
  grep -q 'd_alloc_parallel()' "$tmp/g.svg"
  "$VFSMC" run --stable --no-progress --dot "$tmp/h.dot" scenarios/chrdev/v2-opener-with-inode-ref.json >/dev/null
  dot -Tsvg "$tmp/h.dot" -o "$tmp/h.svg"
  grep -q 'one judged execution' "$tmp/h.svg"
}

@test "issue 35: an unwritable --junit path fails at once, before any scenario runs" {
  start=$(date +%s)
  run "$VFSMC" check --junit "$tmp/no/such/dir/results.xml" scenarios/chrdev
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == *"results.xml: cannot write"* ]]
  [[ $output != *"passed"* ]]
}

@test "issue 35: run --coverage --json prints one JSON document, with the steps never reached" {
  run "$VFSMC" run --coverage --json --stable --no-progress "$small"
  printf '%s\n' "$output" | python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); assert isinstance(j["never_reached"], list) and j["never_reached"], j.keys()'
  run "$VFSMC" run --coverage --stable --no-progress "$small"
  [[ $output == *"model steps reached"* ]]
}

@test "run --coverage separates the steps the scenario selects away from the steps never reached" {
  # The notes race publishes with d_rehash and calls no set_names_collide.
  run "$VFSMC" run --coverage --stable --no-progress "$flagship"
  [[ $output == *$'\n'"coverage: "*" model steps reached; 15 selected away by the scenario; "*" never reached"* ]]
  [[ $output == *$'\n  selected away (config.publish is "d_rehash"): d_add, d_splice_alias, d_add_ci\n'* ]]
  [[ $output == *$'\n  selected away (no thread calls set_names_collide): set_names_collide\n'* ]]
  [[ $output != *"never reached: d_splice_alias"* ]]
  [[ $output == *"never reached: d_wait_lookup"* ]]
  run "$VFSMC" run --coverage --json --stable --no-progress "$flagship"
  printf '%s\n' "$output" | python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
away = {a["step"]: a["why"] for a in j["selected_away"]}
assert away["d_splice_alias"] == "config.publish is \"d_rehash\"", away
assert "d_splice_alias" not in j["never_reached"] and "d_wait_lookup" in j["never_reached"], j["never_reached"]'
}

# with_value FILE SECTION FIELD VALUE: a copy of scenario FILE under $tmp
# with SECTION.FIELD (config or init) set to the JSON VALUE; prints its path.
with_value() {
  mkdir -p "$tmp/$2-$3"
  /usr/bin/python3 -c 'import json, sys
j = json.load(open(sys.argv[1])); j.setdefault(sys.argv[2], {})[sys.argv[3]] = json.loads(sys.argv[4])
json.dump(j, open(sys.argv[5], "w"))' "$1" "$2" "$3" "$4" "$tmp/$2-$3/$(basename "$1")"
  echo "$tmp/$2-$3/$(basename "$1")"
}

# step_state STEP < run --coverage --json: "reached", "away: WHY" or "never".
step_state() {
  /usr/bin/python3 -c 'import json, sys
j = json.loads(sys.stdin.read()); st = sys.argv[1]
away = {a["step"]: a["why"] for a in j["selected_away"]}
kinds = [k for k, hit in (("reached", st in j["coverage"]), ("away: " + away.get(st, ""), st in away),
                          ("never", st in j["never_reached"])) if hit]
assert len(kinds) == 1, (st, kinds)
print(kinds[0])' "$1"
}

@test "run --coverage: a bool knob set against a step selects it away; set for it, the step is reached or never reached" {
  # rpc_error true: the server may fail a call (server:error).
  f=scenarios/dcache/shared-create-error-waiter-retries.json
  out=$("$VFSMC" run --coverage --json --stable --no-progress "$f")
  [ "$(step_state server:error <<<"$out")" = reached ]
  off=$(with_value "$f" config rpc_error false)
  out=$("$VFSMC" run --coverage --json --stable --no-progress "$off")
  [ "$(step_state server:error <<<"$out")" = "away: needs config.rpc_error=true" ]
  run "$VFSMC" run --coverage --stable --no-progress "$off"
  [[ $output == *$'\n  selected away (needs config.rpc_error=true): server:error\n'* ]]
  [[ $output != *"never reached: server:error"* ]]

  # wait_revalidate false, the broken variant: its step is reached and the
  # correct code's re-check is selected away; true: the other way round.
  f=scenarios/dcache/broken-no-wait-revalidate.json
  out=$("$VFSMC" run --coverage --json --first --stable --no-progress "$f" || true)
  [ "$(step_state d_alloc_parallel:no-revalidate <<<"$out")" = reached ]
  [ "$(step_state d_alloc_parallel:mismatch <<<"$out")" = "away: needs config.wait_revalidate=true" ]
  on=$(with_value "$f" config wait_revalidate true)
  out=$("$VFSMC" run --coverage --json --first --stable --no-progress "$on" || true)
  [ "$(step_state d_alloc_parallel:no-revalidate <<<"$out")" = "away: needs config.wait_revalidate=false" ]
  [[ "$(step_state d_alloc_parallel:mismatch <<<"$out")" =~ ^(reached|never)$ ]]

  # reject_hashed_negative false: no open_creat rejects the cached negative
  # dentry (and no thread opens without O_CREAT); true: the first
  # execution rejects it (a probe of a second suffices).
  f=scenarios/dcache/shared-cached-negative-no-reject.json
  out=$("$VFSMC" run --coverage --json --first --stable --no-progress "$f" || true)
  [ "$(step_state lookup_open:reject <<<"$out")" = "away: needs config.reject_hashed_negative=true, or a thread that calls open" ]
  on=$(with_value "$f" config reject_hashed_negative true)
  out=$("$VFSMC" run --coverage --json --time-limit 1 --stable --no-progress "$on" || true)
  [ "$(step_state lookup_open:reject <<<"$out")" = reached ]
}

@test "run --coverage: chrdev's init i_nlink and openref's open flags select steps away" {
  # i_nlink 0: the last iput evicts; 1: the inode stays cached on the LRU.
  f=scenarios/chrdev/evict-vs-opener-pre-seed.json
  out=$("$VFSMC" run --coverage --json --stable --no-progress "$f")
  [ "$(step_state iput_final:I_FREEING <<<"$out")" = reached ]
  [ "$(step_state iput_final:cached <<<"$out")" = "away: needs init.i_nlink=1" ]
  # pre-seed: evict forgets with cd_forget; inode_cdev_forget is v2's
  # (its op of the same name is not what rules it out).
  [ "$(step_state cd_forget <<<"$out")" = reached ]
  [ "$(step_state inode_cdev_forget <<<"$out")" = "away: needs config.version=v1 or v2" ]
  cached=$(with_value "$f" init i_nlink 1)
  out=$("$VFSMC" run --coverage --json --stable --no-progress "$cached" 2>/dev/null || true)
  [ "$(step_state iput_final:cached <<<"$out")" = reached ]
  [ "$(step_state iput_final:I_FREEING <<<"$out")" = "away: needs init.i_nlink=0" ]
  # openref: two-openers-v5 opens nothing with O_PATH; o-path-consume does.
  out=$("$VFSMC" run --coverage --json --stable --no-progress scenarios/openref/two-openers-v5.json)
  [ "$(step_state do_o_path <<<"$out")" = "away: no thread calls open with flags O_PATH" ]
  out=$("$VFSMC" run --coverage --json --stable --no-progress scenarios/openref/o-path-consume.json)
  [ "$(step_state do_o_path <<<"$out")" = reached ]
  [ "$(step_state vfs_open_consume:not-cleared <<<"$out")" = "away: needs config.do_o_path=consume-no-clear" ]
}

@test "issue 35: a replay says it is one execution, and --help shows no {false}" {
  token=$("$VFSMC" run --json --no-progress "$small" | python3 -c 'import json,sys; print(json.load(sys.stdin)["replay_token"])')
  run "$VFSMC" replay --stable "$small" "$token"
  [[ $output == *"Counts: 1 execution; the one execution its replay token records"* ]]
  [[ $output != *"1 executions"* ]]
  run "$VFSMC" run --help
  [[ $output != *"{false}"* ]]
  [[ $output == *"--no-progress"* ]]
}

@test "issue 35: a GitHub annotation for a bad file is titled by the file and points at the bad field's line" {
  mkdir -p "$tmp/bad"
  python3 - "$small" "$tmp/bad/bad-field.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["name"] = "bad-field"; j["search"] = {"strategy": "bounded", "preemption_bound": "x"}
open(sys.argv[2], "w").write(json.dumps(j, indent=2) + "\n")
PY
  echo '{}' > "$tmp/bad/explorations.lock"
  run "$VFSMC" check --format github "$tmp/bad"
  [ "$status" -ne 0 ]
  line=$(grep -n '"search"' "$tmp/bad/bad-field.json" | cut -d: -f1)
  grep -q "^::error file=$tmp/bad/bad-field.json,line=$line,title=vfsmc%3A bad-field::$tmp/bad/bad-field.json: search" <<<"$output"
  # The result line has the bad-input prefix; the annotation, an error
  # already, does not repeat it.
  grep -q "^error: $tmp/bad/bad-field.json: search" <<<"$output"
}

@test "check --shard I/N: every scenario in exactly one share, the same verdicts, JUnit per share" {
  command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
  run "$VFSMC" check -j2 scenarios/chrdev
  [ "$status" -eq 0 ]
  all=$(printf '%s\n' "$output" | grep -E '^(ok|FAIL) ' | sed 's/ \[.*//' | sort)
  [ -n "$all" ]
  for n in 1 2 3 7; do
    : > "$tmp/union"
    for i in $(seq 1 "$n"); do
      run "$VFSMC" check -j2 --shard "$i/$n" --junit "$tmp/j$i.xml" scenarios/chrdev
      [ "$status" -eq 0 ]
      [[ ${lines[0]} == "shard $i/$n: "*" of $(printf '%s\n' "$all" | wc -l) scenarios" ]]
      printf '%s\n' "$output" | grep -E '^(ok|FAIL) ' | sed 's/ \[.*//' >> "$tmp/union" || true
      run xmllint --noout --schema tests/junit.xsd "$tmp/j$i.xml"
      [ "$status" -eq 0 ]
    done
    # The same scenarios with the same verdicts, none twice.
    [ "$(sort "$tmp/union")" = "$all" ]
    [ -z "$(sort "$tmp/union" | uniq -d)" ]
  done
}

@test "check --shard: the shares are balanced by the recorded counts" {
  mkdir -p "$tmp/s"
  for f in scenarios/chrdev/*.json; do cp "$f" "$tmp/s/"; done
  names=$(cd "$tmp/s" && ls *.json | sed 's/\.json$//')
  costly=$(printf '%s\n' "$names" | sed -n 5p)
  # One scenario recorded as a million executions, every other as one: the
  # costly one has a share to itself, the other share takes the rest.
  { echo "{"; printf '%s\n' "$names" | sed 's/.*/  "&": 1,/'; echo "  \"zzz\": 0"; echo "}"; } > "$tmp/s/explorations.lock"
  sed -i "s/\"$costly\": 1,/\"$costly\": 1000000,/" "$tmp/s/explorations.lock"
  run "$VFSMC" check --shard 1/2 -j2 "$tmp/s"
  [ "$(printf '%s\n' "$output" | grep -cE '^(ok|FAIL) ')" -eq 1 ]
  [[ $output == *"/$costly.json: "* ]]
  run "$VFSMC" check --shard 2/2 -j2 "$tmp/s"
  [ "$(printf '%s\n' "$output" | grep -cE '^(ok|FAIL) ')" -eq "$(( $(printf '%s\n' "$names" | wc -l) - 1 ))" ]
  [[ $output != *"/$costly.json: "* ]]
}

@test "check --shard: a bad value is one line, exit 2" {
  for bad in 0/3 4/3 3 x/y 1/0 /2 1/ 1/100000 "1/2/3" " 1/2"; do
    run "$VFSMC" check --shard "$bad" scenarios/chrdev
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ ${lines[0]} == "error: check: --shard: bad value "*"accepted: I/N with 1 <= I <= N"* ]]
  done
}
