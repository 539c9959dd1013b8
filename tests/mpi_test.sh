#!/usr/bin/env bash
# run --mpi (checker/search/parallel.h) through mpirun on this machine:
# rank 0 coordinates, the other ranks search. The serial count at least, the
# same verdict, a violation found with a token plain `replay` follows, and
# one rank alone refused in one line. CTest label "mpi", registered only in
# a -DVFSMC_MPI=ON build where mpirun exists.
#   tests/mpi_test.sh MPIRUN VFSMC SOURCE_DIR
set -uo pipefail
mpirun=$1
vfsmc=$2
src=$3
cd "$src" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
mpi=("$mpirun" --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
field() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

f=scenarios/chrdev/concurrent-first-open-v2-third-opener.json
n=$(python3 -c 'import json; print(json.load(open("scenarios/chrdev/explorations.lock"))["concurrent-first-open-v2-third-opener"])')
for ranks in 2 4; do
  timeout 300 "${mpi[@]}" -n $ranks "$vfsmc" run --mpi --json --no-progress "$f" >"$tmp/r.json" 2>"$tmp/err" ||
    { fail "-n $ranks: exit $?: $(head -c 300 "$tmp/err")"; continue; }
  [ "$(field "$tmp/r.json" 'j["verdict"], j["scope"]')" = "('holds', 'complete')" ] || fail "-n $ranks: not holds (complete)"
  [ "$(field "$tmp/r.json" 'j["counts"]["executions"] >= '"$n")" = True ] || fail "-n $ranks: fewer executions than the serial $n"
  [ "$(field "$tmp/r.json" 'j["parallel"]["workers"]')" = $((ranks - 1)) ] || fail "-n $ranks: not $((ranks - 1)) workers"
  [ "$(field "$tmp/r.json" 'j["parallel"]["pieces"] == j["parallel"]["pieces_finished"]')" = True ] || fail "-n $ranks: a piece unfinished"
done

v=scenarios/chrdev/cdev-del-vs-concurrent-opens-v2.json
timeout 300 "${mpi[@]}" -n 3 "$vfsmc" run --mpi --strategy dpor --json --no-progress "$v" >"$tmp/v.json" 2>"$tmp/err"
[ "$(field "$tmp/v.json" 'j["verdict"], j["invariant"]')" = "('violated', 'cdev-use-after-free')" ] || fail "violation not found"
token=$(field "$tmp/v.json" 'j["replay_token"]')
"$vfsmc" replay "$v" "$token" >"$tmp/replay" 2>&1 || true
grep -q '^\[counterexample\] cdev-del-vs-concurrent-opens-v2: cdev-use-after-free violated' "$tmp/replay" || fail "the token does not replay"

timeout 60 "${mpi[@]}" -n 1 "$vfsmc" run --mpi "$f" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qx 'error: --mpi: bad number of ranks 1; accepted: 2 or more (mpirun -n N: rank 0 coordinates, the others search)' "$tmp/err" ||
  fail "-n 1: exit $rc, stderr $(head -c 300 "$tmp/err")"

echo "mpi: $fails failed"
[ $fails -eq 0 ]
