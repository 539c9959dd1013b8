#!/usr/bin/env bats
# `vfsmc run --jobs N` on the command line: its errors, its JSON, and its
# faults (a worker that cannot start, a worker killed with SIGKILL, SIGINT
# and SIGTERM to the coordinator). tests/parallel_test.cpp compares its
# results with the serial search's.
# Run by CTest (label "cli"):  VFSMC=... SRC=... bats tests/parallel.bats

setup() {
  : "${VFSMC:?set VFSMC to the vfsmc binary}" "${SRC:?set SRC to the source tree}"
  cd "$SRC"
  tmp=$(mktemp -d)
}

teardown() { rm -rf "$tmp"; }

vf() {
  "$VFSMC" "$@" >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
  out=$(<"$tmp/out")
  err=$(<"$tmp/err")
}
nlines() { [ -z "$1" ] && echo 0 || printf '%s\n' "$1" | wc -l; }

# A dpor scenario of about a second, and its serial count (the lock file).
small=scenarios/openref/rcu-legitimize-vs-kill.json
small_count() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' scenarios/openref/explorations.lock rcu-legitimize-vs-kill; }
# Several seconds of dpor, and minutes.
medium=scenarios/dcache/shared-cached-negative-reject.json
medium_count() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' scenarios/dcache/explorations.lock shared-cached-negative-reject; }
long=scenarios/dcache/shared-create-vs-open-switch.json

# json_field FILE EXPR: a Python expression over the JSON document j.
json_field() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

@test "--jobs out of range or not a number: one line naming --jobs, the value and the range, exit 2" {
  local v
  for v in 0 65 abc -1; do
    vf run "$small" --jobs "$v"
    [ "$rc" -eq 2 ] && [ -z "$out" ] && [[ $err == "--jobs: Value $v not in range 1 to 64"* ]] || {
      echo "$v: rc $rc out $out err $err"; return 1; }
  done
}

@test "--jobs with a search that is not dpor, or with --estimate: one line, exit 2" {
  vf run "$small" --jobs 2 --strategy bounded
  [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(nlines "$err")" -eq 1 ] &&
    [[ $err == 'error: --jobs: bad strategy "bounded"; accepted: a dpor search'* ]] || { echo "rc $rc out $out err $err"; return 1; }
  vf run "$small" --jobs 2 --estimate
  [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(nlines "$err")" -eq 1 ] && [[ $err == "error: --jobs: not with --estimate; accepted: "* ]] || {
    echo "rc $rc out $out err $err"; return 1; }
}

@test "a worker that cannot start: one line, exit 2, no process left" {
  VFSMC_TEST_WORKER_EXIT=1 "$VFSMC" run "$small" --jobs 3 >"$tmp/out" 2>"$tmp/err" & local pid=$!
  wait "$pid" && rc=0 || rc=$?
  out=$(<"$tmp/out"); err=$(<"$tmp/err")
  [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(nlines "$err")" -eq 1 ] &&
    [[ $err == "error: --jobs: worker 2 of 3 could not start: it exited with status 1 before it was ready" ]] || {
      echo "rc $rc out $out err $err"; return 1; }
  [ -z "$(pgrep -P "$pid")" ]
  vf run "$small" --jobs 2 </dev/null
  [ "$rc" -eq 0 ]
  VFSMC_TEST_WORKER_EXIT=x vf run "$small" --jobs 2
  [ "$rc" -eq 2 ] && [[ $err == 'error: VFSMC_TEST_WORKER_EXIT: bad value "x"; accepted: a number (test-only), or unset' ]] || {
    echo "rc $rc err $err"; return 1; }
}

@test "run --jobs --json: the serial count at least, and how the work was split" {
  vf run "$small" --jobs 3 --json
  [ "$rc" -eq 0 ] || { echo "rc $rc err $err"; return 1; }
  printf '%s\n' "$out" >"$tmp/r.json"
  local n; n=$(small_count)
  [ "$(json_field "$tmp/r.json" 'j["verdict"], j["scope"]')" = "('holds', 'complete')" ]
  [ "$(json_field "$tmp/r.json" 'j["counts"]["executions"] >= '"$n")" = True ]
  [ "$(json_field "$tmp/r.json" 'j["parallel"]["workers"]')" = 3 ]
  [ "$(json_field "$tmp/r.json" 'len(j["parallel"]["per_worker"])')" = 3 ]
  [ "$(json_field "$tmp/r.json" 'sum(w["executions"] for w in j["parallel"]["per_worker"]) == j["counts"]["executions"]')" = True ]
  [ "$(json_field "$tmp/r.json" 'j["parallel"]["pieces"] == j["parallel"]["pieces_finished"] >= 1')" = True ]
  [ "$(json_field "$tmp/r.json" 'all(w["idle_seconds"] >= 0 for w in j["parallel"]["per_worker"])')" = True ]
}

@test "the test-only mutation that drops upward backtrack points loses executions the serial search has" {
  local n; n=$(small_count)
  vf run "$small" --jobs 3 --json
  printf '%s\n' "$out" >"$tmp/ok.json"
  [ "$(json_field "$tmp/ok.json" 'j["counts"]["executions"] >= '"$n")" = True ]
  VFSMC_TEST_DROP_UPWARD=1 vf run "$small" --jobs 3 --json
  printf '%s\n' "$out" >"$tmp/lost.json"
  [ "$(json_field "$tmp/lost.json" 'j["counts"]["executions"] < '"$n")" = True ] || {
    echo "with the mutation: $(json_field "$tmp/lost.json" 'j["counts"]["executions"]') executions, serial $n"; return 1; }
}

@test "a worker killed with SIGKILL mid-run: its piece runs again, the result is the fault-free one" {
  local n; n=$(medium_count)
  "$VFSMC" run "$medium" --jobs 2 --json >"$tmp/r.json" 2>"$tmp/err" & local pid=$!
  local kids="" i
  for i in $(seq 50); do
    kids=$(pgrep -P "$pid" | tr '\n' ' ')
    [ "$(wc -w <<<"$kids")" -eq 2 ] && break
    sleep 0.1
  done
  sleep 1.5
  local victim=${kids%% *}
  kill -9 "$victim"
  wait "$pid" && rc=0 || rc=$?
  [ "$rc" -eq 0 ] || { echo "rc $rc err $(<"$tmp/err")"; return 1; }
  [ "$(json_field "$tmp/r.json" 'j["verdict"], j["scope"]')" = "('holds', 'complete')" ]
  [ "$(json_field "$tmp/r.json" 'j["parallel"]["workers_lost"]')" = 1 ] || { cat "$tmp/r.json"; return 1; }
  [ "$(json_field "$tmp/r.json" 'j["counts"]["executions"] >= '"$n")" = True ]
  [ -z "$(pgrep -P "$pid")" ]
}

@test "SIGINT and SIGTERM to the coordinator: every worker stopped, the partial result inconclusive, exit 128 + signal" {
  local sig num
  for sig in INT TERM; do
    "$VFSMC" run "$long" --jobs 2 >"$tmp/out" 2>"$tmp/err" & local pid=$!
    local kids="" i
    for i in $(seq 50); do
      kids=$(pgrep -P "$pid" | tr '\n' ' ')
      [ "$(wc -w <<<"$kids")" -eq 2 ] && break
      sleep 0.1
    done
    sleep 1.5
    kill -s "$sig" "$pid"
    wait "$pid" && rc=0 || rc=$?
    out=$(<"$tmp/out"); err=$(<"$tmp/err")
    [ "$sig" = INT ] && num=2 || num=15
    [ "$rc" -eq $((128 + num)) ] && [[ $out == "inconclusive (stopped by the interrupt after "[1-9]*" executions)"* ]] &&
      [[ $err == "$long: interrupted by signal $num: the result above is inconclusive, "[1-9]*" executions explored" ]] || {
        echo "$sig: rc $rc out $out err $err"; return 1; }
    local k
    for k in $kids; do
      ! kill -0 "$k" 2>/dev/null || { echo "$sig: worker $k still runs"; return 1; }
    done
  done
}

@test "a --jobs run cut short estimates the whole search (JSON and progress line), within a factor of 4 of the serial count" {
  # The path estimate of each tree (the first piece's, and each one a piece
  # of upward points starts), its pieces weighted by the share of the tree
  # each stands for: near the recorded count, and never below what ran.
  # Six seconds: beside a loaded suite, a shorter run explores too little
  # of the tree for the estimate to come within the factor.
  local n; n=$(medium_count)
  vf run "$medium" --jobs 2 --time-limit 6 --json --no-progress
  [ "$rc" -eq 1 ] || { echo "rc $rc err $err"; return 1; }  # the scenario expects holds
  printf '%s\n' "$out" >"$tmp/r.json"
  [ "$(json_field "$tmp/r.json" 'j["verdict"]')" = inconclusive ]
  local e x; e=$(json_field "$tmp/r.json" 'j["parallel"]["estimated_executions"]'); x=$(json_field "$tmp/r.json" 'j["counts"]["executions"]')
  python3 -c "import sys; e,x,n=map(float,sys.argv[1:]); sys.exit(0 if e >= x and n/4 <= e <= 4*n else 1)" "$e" "$x" "$n" ||
    { echo "estimate $e after $x executions, serial count $n"; return 1; }
  # A complete run has nothing to estimate.
  vf run "$small" --jobs 2 --json
  printf '%s\n' "$out" >"$tmp/c.json"
  [ "$(json_field "$tmp/c.json" '"estimated_executions" in j["parallel"]')" = False ]
  # On a terminal the progress line carries the estimate (a line a second
  # after the first two seconds).
  script -qec "$VFSMC run $medium --jobs 2 --time-limit 4 --brief" /dev/null >"$tmp/tty" || true
  grep -Eq "executions, [0-9]+/s, .* workers busy, .*about [0-9.e+]+ (thousand |million )?executions in all by the path estimate, about [0-9]+s left" "$tmp/tty" ||
    { echo "no progress line with an estimate:"; cat -v "$tmp/tty"; return 1; }
}
