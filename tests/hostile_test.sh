#!/usr/bin/env bash
# Hostile input around the loader (issue 13), one block per numbered item:
# tokens, processes and odd files in `check`, terminal text, write errors,
# interrupted runs, memory. (The replay-token fuzz is tests/token_fuzz.py;
# the bad scenario files of item 8 and 10 are in tests/bad/, run by
# tests/cli.bats.)
# Run by CTest (label "cli"):  tests/hostile_test.sh VFSMC SOURCE_DIR
set -uo pipefail
vfsmc=$1
src=$2
cd "$src" || exit 1
tmp=$(mktemp -d)
chmod 755 "$tmp"
cleanup() {
  chmod -R u+rwx "$tmp" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

passed=0
failed=0
fail() {
  echo "FAIL: $*" >&2
  failed=$((failed + 1))
}
ok() { passed=$((passed + 1)); }
# check NAME CONDITION...: one assertion.
check() {
  local name=$1
  shift
  if "$@"; then ok; else fail "$name (exit $rc; stdout: ${out:0:300}; stderr: ${err:0:300})"; fi
}
run() {
  timeout 60 "$vfsmc" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(<"$tmp/out")
  err=$(<"$tmp/err")
}
lines() { [ -z "$1" ] && echo 0 || printf '%s\n' "$1" | wc -l; }
one_error() { [ "$rc" -eq "$1" ] && [ "$(lines "$err")" -eq 1 ]; }
has() { [[ $1 == *"$2"* ]]; }

race=scenarios/dcache/shared-d-rehash-notes-race.json
quick=scenarios/dcache/broken-double-dput.json
slow_src=scenarios/chrdev/concurrent-first-open-v2.json

# A copy of scenario $1 named $2 in directory $3 (name = file stem).
copy_as() {
  mkdir -p "$3"
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["name"] = sys.argv[2]
json.dump(d, open(f"{sys.argv[3]}/{sys.argv[2]}.json", "w"), indent=2)
PY
}

# A slow scenario: concurrent-first-open-v2 under the plain exhaustive search
# (~900,000 executions: seconds to minutes; dpor needs 218).
mkdir -p "$tmp/s"
python3 - "$slow_src" "$tmp/s/concurrent-first-open-v2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["search"] = {"strategy": "exhaustive"}
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
slow=$tmp/s/concurrent-first-open-v2.json

# --- item 1-2: tokens. A raw newline or ESC in a token: one escaped line.
run replay "$race" $'v1:00000000:e0s:\n\x1b[31m1-'
check "token with a newline and ESC: exit 2, one line, no ESC" one_error 2
check "token with ESC: not echoed raw" bash -c '! grep -q $'"'"'\x1b'"'"' "$0"' "$tmp/err"
run replay "$race" "$(printf 'v1:%08d:r0s:99999999999999999999999-' 0)"
check "token with a huge number: exit 2" one_error 2
run replay "$race" "v1:$(head -c 120000 /dev/zero | tr '\0' 1)"
check "a 120 kB token: exit 2, one short line" bash -c '[ "$0" -eq 2 ] && [ "$(wc -c <"$1")" -lt 1000 ]' "$rc" "$tmp/err"

# --- item 3: editing doc keeps a token; editing config does not.
copy_as "$race" tok "$tmp/t"
run run --no-progress --first --json "$tmp/t/tok.json"
token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["replay_token"])' "$tmp/out")
python3 - "$tmp/t/tok.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["doc"] = "Reworded: " + d["doc"]
d["expect"] = "holds"
json.dump(d, open(sys.argv[1], "w"))
PY
run replay "$tmp/t/tok.json" "$token"
check "token still replays after doc and expect were edited" bash -c '[ "$0" -eq 1 ]' "$rc"
python3 - "$tmp/t/tok.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["publish"] = "d_splice_alias"
json.dump(d, open(sys.argv[1], "w"))
PY
run replay "$tmp/t/tok.json" "$token"
check "token rejected after config was edited" bash -c '[ "$0" -eq 2 ] && [[ $1 == *"checksum mismatch"* ]]' "$rc" "$err"

# --- item 4: killing check leaves no vfsmc process behind, and prints what
# had finished.
for i in 1 2 3; do copy_as "$slow" "slow$i" "$tmp/k"; done
copy_as "$quick" a-quick "$tmp/k"
alive() {  # live (not zombie) processes among $@
  local n=0 p
  for p in "$@"; do
    st=$(ps -o stat= -p "$p" 2>/dev/null) || continue
    [[ $st == Z* ]] || n=$((n + 1))
  done
  echo $n
}
for sig in TERM INT KILL; do
  "$vfsmc" check "$tmp/k" -j2 >"$tmp/out" 2>"$tmp/err" &
  parent=$!
  kids=""
  for _ in $(seq 50); do
    sleep 0.1
    kids=$(pgrep -P "$parent" | tr '\n' ' ')
    [ "$(echo $kids | wc -w)" -ge 2 ] && grep -q a-quick "$tmp/out" && break
  done
  kill -s "$sig" "$parent"
  wait "$parent"
  rc=$?
  sleep 0.5
  # shellcheck disable=SC2086
  check "check killed by SIG$sig: its children ($kids) are gone" [ "$(alive $kids)" -eq 0 ]
  out=$(<"$tmp/out")
  if [ "$sig" != KILL ]; then
    check "check killed by SIG$sig: prints what had finished" has "$out" "a-quick.json"
    check "check killed by SIG$sig: says it was interrupted" has "$out" "not run: interrupted by signal"
  fi
done

# --- item 5: a FIFO is rejected before it is read, by every command.
mkfifo "$tmp/fifo.json"
for cmd in "validate $tmp/fifo.json" "run $tmp/fifo.json" "replay $tmp/fifo.json v1:x" "check $tmp/fifo.json"; do
  # shellcheck disable=SC2086
  run $cmd
  [[ $cmd == check* ]] && err=$(printf '%s\n' "$out" | head -1) && [ "$rc" -eq 2 ] && rc=2
  check "$cmd: exit 2 at once, 'FIFO'" bash -c '[ "$0" -eq 2 ] && [[ $1 == *"FIFO"* ]]' "$rc" "$err"
done

# --- item 6: odd files in a check directory: one FAIL line each, the run
# goes on and counts them.
d=$tmp/odd
copy_as "$quick" good "$d"
copy_as "$quick" $'a\tb' "$d"
ln -s loop.json "$d/loop.json"
copy_as "$quick" hidden "$d/locked"
printf '{"good": "1", "a\\tb": null}\n' >"$d/explorations.lock"
chmod 000 "$d/locked"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  # root reads any directory: drop to nobody for this one.
  chmod -R o+rX "$tmp" 2>/dev/null
  chmod 000 "$d/locked"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
"${as_user[@]}" timeout 60 "$vfsmc" check "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
out=$(<"$tmp/out")
err=$(<"$tmp/err")
check "check over odd files: exit 2 (bad input), nothing on stderr" bash -c '[ "$0" -eq 2 ] && [ -z "$1" ]' "$rc" "$err"
check "a tab in a file name: its own line, escaped" has "$out" 'a\x09b.json: violated'
check "a tab in a file name: a null lock count is one FAIL" has "$out" 'bad value null; accepted: a whole number'
check "a string lock count is one FAIL" has "$out" 'good: bad value "1"'
check "a symlink loop is one line" has "$out" "loop.json: Too many levels of symbolic links"
check "an unreadable directory is one line" has "$out" "locked: cannot read the directory (Permission denied)"
check "the summary counts all four" has "$out" "0 passed, 4 failed"
chmod 755 "$d/locked"
for v in -1 1.5 1e30; do
  printf '{"good": %s}\n' "$v" >"$d/explorations.lock"
  run check "$d/good.json"
  check "lock count $v is rejected" has "$out" "good: bad value"
done

# --- item 7: an empty directory, a file named -x.json, a symlink loop given.
mkdir -p "$tmp/empty"
run validate "$tmp/empty"
check "validate on an empty directory: exit 2, one line" bash -c '[ "$0" -eq 2 ] && [[ $1 == *"no scenario files"* ]]' "$rc" "$err"
copy_as "$quick" -x "$tmp/dash"
(cd "$tmp/dash" && "$vfsmc" validate -x.json >"$tmp/out" 2>"$tmp/err")
rc=$?
err=$(<"$tmp/err")
check "a file named -x.json: exit 2, says how to pass it" bash -c '[ "$0" -eq 2 ] && [[ $1 == *"./-x.json, or \`--\`"* ]]' "$rc" "$err"
(cd "$tmp/dash" && "$vfsmc" validate -- -x.json >"$tmp/out" 2>"$tmp/err")
check "-- before -x.json validates it" [ "$?" -eq 0 ]
run validate "$d/loop.json"
check "a symlink loop is not 'no such file'" bash -c '[ "$0" -eq 2 ] && [[ $1 == *"symbolic links"* ]]' "$rc" "$err"

# --- item 9: terminal text is escaped and cut.
mkdir -p "$tmp/esc"
python3 - "$tmp/esc" <<'PY'
import json, sys
d = json.load(open("scenarios/dcache/broken-double-dput.json"))
d["name"] = "esc"
d["doc"] = "ESC \x1b[31mred\x1b[0m, RLO \u202e, NUL \u0000 end"
d["threads"][0]["name"] = "P\nX"
json.dump(d, open(sys.argv[1] + "/esc.json", "w"))
big = dict(d, doc="x" * 200000)
big["threads"] = json.load(open("scenarios/dcache/broken-double-dput.json"))["threads"]
big["name"] = "big"
big["k" * 900000] = 1
json.dump(big, open(sys.argv[1] + "/big.json", "w"))
PY
run validate "$tmp/esc/esc.json"
check "a newline in a thread name: one line" one_error 2
run validate "$tmp/esc/big.json"
check "a 900 kB unknown key: one short line" bash -c '[ "$0" -eq 2 ] && [ ${#1} -lt 400 ]' "$rc" "$err"
python3 - "$tmp/esc/esc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["threads"][0]["name"] = "P0"
json.dump(d, open(sys.argv[1], "w"))
PY
ln -s esc.json "$tmp/esc/"$'\x1b[31mred.json'
run run --no-progress --stable "$tmp/esc/esc.json"
check "doc with ESC, U+202E and NUL: run prints none of them raw" bash -c '! grep -qP "\x1b|\xe2\x80\xae|\x00" "$0" "$1"' "$tmp/out" "$tmp/err"
run run --no-progress --format email "$tmp/esc/esc.json"
check "email form: no ESC" bash -c '! grep -qP "\x1b" "$0"' "$tmp/out"
run check "$tmp/esc/"$'\x1b[31mred.json'
check "a file name with ESC: check prints it escaped" bash -c '! grep -qP "\x1b" "$0" && grep -q "x1b" "$0"' "$tmp/out"

# --- item 11: write errors are one line and a nonzero exit.
for cmd in "run --no-progress $race" "run --no-progress --json $race" "check $quick" "list" "schema"; do
  # shellcheck disable=SC2086
  timeout 60 "$vfsmc" $cmd >/dev/full 2>"$tmp/err"
  rc=$?
  err=$(<"$tmp/err")
  check "$cmd >/dev/full: exit 2, one line" bash -c '[ "$0" -eq 2 ] && [ "$(printf "%s\n" "$1" | wc -l)" -eq 1 ] && [[ $1 == "error: stdout: cannot write"* ]]' "$rc" "$err"
  # shellcheck disable=SC2086
  timeout 60 "$vfsmc" $cmd >&- 2>"$tmp/err"
  rc=$?
  err=$(<"$tmp/err")
  check "$cmd with stdout closed: exit 2, one line" bash -c '[ "$0" -eq 2 ] && [ "$1" = "error: stdout: closed; accepted: an open standard output" ]' "$rc" "$err"
done
for opt in --html --email; do
  run run --no-progress "$opt" /dev/full "$race"
  check "$opt /dev/full: exit 2, one line" bash -c '[ "$0" -eq 2 ] && [[ $1 == "error: /dev/full: cannot write"* ]]' "$rc" "$err"
  run run --no-progress "$opt" "" "$race"
  check "$opt \"\": exit 2, one line" bash -c '[ "$0" -eq 2 ] && [[ $1 == *"empty file name"* ]]' "$rc" "$err"
done

# --- item 12: a killed run prints its partial result.
for sig in INT TERM; do
  "$vfsmc" run --no-progress "$slow" >"$tmp/out" 2>"$tmp/err" &
  p=$!
  sleep 1
  kill -s "$sig" "$p"
  wait "$p"
  rc=$?
  out=$(<"$tmp/out")
  check "run killed by SIG$sig: prints inconclusive with its executions" bash -c '[[ $0 == "inconclusive ("*" executions"*"cut short by the interrupt"* ]]' "$out"
  check "run killed by SIG$sig: exits 128+signal" [ "$rc" -eq "$((128 + $(kill -l "$sig")))" ]
  err=$(<"$tmp/err")
  check "run killed by SIG$sig: one line on stderr" bash -c '[ "$(printf "%s\n" "$0" | wc -l)" -eq 1 ] && [[ $0 == *"interrupted by signal"* ]]' "$err"
done

# --- item 13: a multi-file run does not grow: each scenario in its own
# process. The parent's peak stays that of one scenario.
mkdir -p "$tmp/many"
for i in $(seq 40); do copy_as "$quick" "q$i" "$tmp/many"; done
/usr/bin/env python3 - "$vfsmc" "$tmp/many" <<'PY' >"$tmp/mem"
import resource, subprocess, sys, glob
files = sorted(glob.glob(sys.argv[2] + "/*.json"))
subprocess.run([sys.argv[1], "run", "--no-progress", "--first"] + files, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
one=$(python3 - "$vfsmc" "$tmp/many/q1.json" <<'PY'
import resource, subprocess, sys
subprocess.run([sys.argv[1], "run", "--no-progress", "--first", sys.argv[2]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
)
many=$(<"$tmp/mem")
check "run over 40 files peaks at one file's memory ($one KiB vs $many KiB)" [ "$many" -lt $((one + 4096)) ]

echo "hostile_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
