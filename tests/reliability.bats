#!/usr/bin/env bats
# Hostile input around names, the litmus reader and interpreter, replay
# commands, the exploration-count lock and output errors: every bad input is
# exit 2 and one printable line, nothing crashes, hangs or prints a raw
# control character, and a printed replay command replays what was printed.
# Run by CTest (label "cli"):  VFSMC=... SRC=... bats tests/reliability.bats

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
# No byte below 0x20 but newline and tab, no DEL, no C1 (C2 80..9F), no
# U+202A..U+202E / U+2066..U+2069 in the file.
no_raw_control() {
  ! LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$1"
}

# A copy of the seed-001 race with every op's name set to NAME (JSON text).
race_with_name() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
s = json.load(open('scenarios/dcache/shared-d-rehash-notes-race.json'))
for th in s['threads']:
    for op in th['ops']:
        if isinstance(op, dict) and 'name' in op:
            op['name'] = json.loads(sys.argv[2])
json.dump(s, open(sys.argv[1], 'w'))
EOF
}

# --- names ---------------------------------------------------------------

@test "a dcache name with a NUL: exit 2 at validate and at run, one line with the JSON path" {
  mkdir "$tmp/d"
  race_with_name "$tmp/d/shared-d-rehash-notes-race.json" '"foo\u0000"'
  local f="$tmp/d/shared-d-rehash-notes-race.json"
  local want="error: $f: threads[0].ops[0].name: bad value \"foo\\u0000\"; accepted: a string without control or bidirectional formatting characters"
  vf validate "$f"
  [ "$rc" -eq 2 ] && [ "$err" = "$want" ] && [ -z "$out" ] || { echo "validate: rc $rc err $err"; return 1; }
  vf run --no-progress "$f"
  [ "$rc" -eq 2 ] && [ "$err" = "$want" ] && [ -z "$out" ] || { echo "run: rc $rc err $err out $out"; return 1; }
}

@test "names with ESC, DEL, C1 or a right-to-left override are rejected too" {
  mkdir "$tmp/d"
  local f="$tmp/d/shared-d-rehash-notes-race.json" n
  for n in '"a\u001b[31m"' '"a\u007f"' '"a\u0085"' '"a\u202eb"' '"\u2066x"'; do
    race_with_name "$f" "$n"
    vf validate "$f"
    [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [[ $err == *"accepted: a string without control"* ]] || {
      echo "$n: rc $rc err $err"; return 1; }
    no_raw_control "$tmp/err" || { echo "$n: raw control character in: $err"; return 1; }
  done
}

@test "a 4 KB name: one short line that still ends with what is accepted" {
  mkdir "$tmp/d"
  local f="$tmp/d/shared-d-rehash-notes-race.json"
  race_with_name "$f" "\"$(head -c 4096 /dev/zero | tr '\0' a)\""
  vf validate "$f"
  [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [ "${#err}" -le 1000 ] || { echo "rc $rc, ${#err} bytes: $err"; return 1; }
  [[ $err == *"; accepted: a name of 1 to 15 characters" ]] || { echo "$err"; return 1; }
}

@test "validate A B C: one line for each bad file, valid ones listed, exit 2" {
  mkdir "$tmp/d"
  race_with_name "$tmp/d/shared-d-rehash-notes-race.json" '"foo\u0000"'
  printf '{' >"$tmp/d/broken.json"
  local good=scenarios/dcache/shared-d-rehash-notes-race.json
  vf validate "$tmp/d/broken.json" "$good" "$tmp/nonexistent.json" "$tmp/d/shared-d-rehash-notes-race.json"
  [ "$rc" -eq 2 ] || { echo "rc $rc"; return 1; }
  [ "$(nlines "$err")" -eq 3 ] || { echo "want 3 lines, got: $err"; return 1; }
  [[ $err == *"broken.json: line 1"* && $err == *"nonexistent.json: no such file"* && $err == *"ops[0].name"* ]] || { echo "$err"; return 1; }
  [ "$out" = "valid: $good" ] || { echo "stdout: $out"; return 1; }
}

# --- write errors ------------------------------------------------------

@test "--version, --help and litmus --witness --html to a full device: exit 2, one line" {
  local a
  for a in --version --help "litmus --help"; do
    "$VFSMC" $a >/dev/full 2>"$tmp/err" && rc=0 || rc=$?
    err=$(<"$tmp/err")
    [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [[ $err == "error: stdout: cannot write"* ]] || { echo "$a: rc $rc err $err"; return 1; }
  done
  vf litmus --witness --html /dev/full litmus/SB+poonceonces.litmus
  [ "$rc" -eq 2 ] && [ "$err" = "error: /dev/full: cannot write (No space left on device); accepted: a writable file path" ] || {
    echo "rc $rc err $err"; return 1; }
}

# --- the litmus reader -------------------------------------------------

@test "litmus reads regular files only: a FIFO, /dev/zero and /dev/urandom are one line, at once" {
  mkfifo "$tmp/fifo.litmus"
  local f
  for f in "$tmp/fifo.litmus" /dev/zero /dev/urandom; do
    "$VFSMC" litmus "$f" >"$tmp/out" 2>"$tmp/err" & local pid=$!
    local waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 50 ]; do sleep 0.1; waited=$((waited + 1)); done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; echo "$f: still running after 5 s"; return 1; fi
    wait "$pid" && rc=0 || rc=$?
    err=$(<"$tmp/err")
    [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [[ $err == "error: $f: is a "*"; accepted: a herd7 C litmus test"* ]] || {
      echo "$f: rc $rc err $err"; return 1; }
  done
}

@test "a litmus test over 256 KiB: one line naming the cap" {
  { printf 'C big\n(*'; head -c 300000 /dev/zero | tr '\0' x; printf '*)\n{}\nP0(int *x)\n{\n WRITE_ONCE(*x, 1);\n}\nexists (x=1)\n'; } >"$tmp/big.litmus"
  vf litmus "$tmp/big.litmus"
  [ "$rc" -eq 2 ] && [ "$err" = "error: $tmp/big.litmus: file too large; accepted: a herd7 C litmus test (*.litmus) of at most 256 KiB" ] || {
    echo "rc $rc err $err"; return 1; }
}

@test "30 KB after Result: or an unclosed vfsmc: Never ( in a comment: read without a crash" {
  { printf 'C long-comment\n(* Result: Sometimes '; head -c 30000 /dev/zero | tr '\0' a; printf ' *)\n(* vfsmc: Never ('; head -c 30000 /dev/zero | tr '\0' b;
    printf ' *)\n{}\nP0(int *x)\n{\n WRITE_ONCE(*x, 1);\n}\nexists (x=1)\n'; } >"$tmp/c.litmus"
  vf litmus --check "$tmp/c.litmus"
  [ "$rc" -eq 1 ] && [[ $out == *"Always (LKMM Sometimes)"* ]] || { echo "rc $rc out $out err $err"; return 1; }
}

@test "deep nesting in a litmus test: one line naming the limit, for every construct" {
  python3 - "$tmp" <<'EOF'
import sys
d = sys.argv[1]
def w(n, body, cond='exists (x=0)'):
    open(f'{d}/{n}.litmus', 'w').write('C deep\n{}\nP0(int *x)\n{\n int r0;\n' + body + '\n}\n' + cond + '\n')
w('parens', ' r0 = ' + '(' * 10000 + '1' + ')' * 10000 + ';')
w('unary', ' r0 = ' + '! ' * 10000 + '1;')
w('ifs', ' ' + 'if (1) ' * 10000 + 'r0 = 1;')
w('blocks', ' ' + '{' * 10000 + 'r0 = 1;' + '}' * 10000)
w('chain', ' r0 = ' + '+'.join(['r0'] * 1400) + ';')
w('derefs', ' r0 = READ_ONCE(' + '*' * 10000 + 'x);')
w('cond', ' r0 = 1;', 'exists (' + ' /\\ '.join(['x=0'] * 1400) + ')')
w('not', ' r0 = 1;', 'exists (' + '~' * 10000 + 'x=0)')
EOF
  local n
  for n in parens unary ifs blocks chain derefs cond not; do
    vf litmus "$tmp/$n.litmus"
    [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [[ $err == "error: $tmp/$n.litmus:"*" nested deeper than "*" levels; accepted: at most "*" levels" ]] || {
      echo "$n: rc $rc err $err"; return 1; }
  done
}

@test "a litmus test at every nesting limit runs (the interpreter fits the fiber stack)" {
  python3 - "$tmp" <<'EOF'
import sys
d = sys.argv[1]
# 15 ifs inside one another (the 16th level is the assignment), each
# condition and the assigned value an expression tree 48 deep whose deepest
# leaf is a load (the interpreter's deepest recursion). The loads are
# acquires: an acquire makes no load-buffering promise, so the test has 17
# executions. With READ_ONCE() each of the 16 loads of x may also promise
# x = 1, and the search would walk 3^16 branches, nearly all of them ended
# by a later load of x that breaks the promise.
deep = 'smp_load_acquire(x)' + ' + 0' * 46
body = ' ' + ''.join(f'if ({"smp_load_acquire(x)" + " + 0" * 45} == 0) ' for _ in range(15)) + 'r0 = ' + deep + ';'
cond = 'exists (' + ' /\\ '.join(['0:r0=0'] * 48) + ')'
open(f'{d}/limits.litmus', 'w').write('C limits\n{}\nP0(int *x)\n{\n int r0;\n' + body + '\n}\nP1(int *x)\n{\n WRITE_ONCE(*x, 1);\n}\n' + cond + '\n')
EOF
  vf litmus --stable "$tmp/limits.litmus"
  [ "$rc" -eq 0 ] && [[ $out == *"Observation limits Sometimes"* ]] || { echo "rc $rc out $out err $err"; return 1; }
}

# --- litmus values -----------------------------------------------------

@test "litmus arithmetic: overflow, division by zero, INT_MIN / -1 and shifts are one clear line" {
  local e
  while IFS='|' read -r expr want; do
    printf 'C arith\n{}\nP0(int *x)\n{\n int r0;\n r0 = %s;\n WRITE_ONCE(*x, r0);\n}\nexists (x=0)\n' "$expr" >"$tmp/a.litmus"
    vf litmus "$tmp/a.litmus"
    [ "$rc" -eq 2 ] && [ "$err" = "error: $tmp/a.litmus:6: P0 $want" ] || { echo "$expr: rc $rc err $err"; return 1; }
  done <<'EOF'
-2147483648 / -1|computes -2147483648 / -1, which overflows the 32 bits of a location; accepted: results from -2147483648 to 2147483647
-2147483648 % -1 + 5 / 0|divides by zero (5 / 0); accepted: a nonzero divisor
7 % 0|divides by zero (7 % 0); accepted: a nonzero divisor
1 << 70|shifts by 70 (1 << 70); accepted: a shift count from 0 to 31
2147483647 * 3|computes 2147483647 * 3, which overflows the 32 bits of a location; accepted: results from -2147483648 to 2147483647
2147483647 + 1|computes 2147483647 + 1, which overflows the 32 bits of a location; accepted: results from -2147483648 to 2147483647
EOF
}

@test "litmus pointers: a dereference of an int, an address past the test's locations, a spinlock or an srcu_struct is one clear line; a location's kind is its use" {
  local body want
  while IFS='|' read -r body want; do
    printf 'C ptr\n{}\nP0(int *x, spinlock_t *l, struct srcu_struct *s)\n{\n int r0;\n r0 = %s;\n WRITE_ONCE(*x, r0);\n spin_lock(l);\n spin_unlock(l);\n synchronize_srcu(s);\n}\nexists (x=0)\n' "$body" >"$tmp/p.litmus"
    vf litmus "$tmp/p.litmus"
    [ "$rc" -eq 2 ] && [ "$err" = "error: $tmp/p.litmus:6: P0 dereferences $want, which is not a location of the test; accepted: a location parameter or a pointer register holding one" ] || {
      echo "$body: rc $rc err $err"; return 1; }
  done <<'EOF'
*(int *)1|1
*(int *)(x + 3)|16777219
*(int *)l|l (a spinlock_t)
*(int *)s|s (an srcu_struct)
EOF
  # The address of x is x itself, not the int 1 a pointer register may hold.
  printf 'C ok\n{}\nP0(int *x)\n{\n int *r0;\n r0 = x;\n WRITE_ONCE(*r0, 1);\n}\nexists (x=1 /\\ 0:r0=x /\\ ~0:r0=1)\n' >"$tmp/ok.litmus"
  vf litmus --stable "$tmp/ok.litmus"
  [ "$rc" -eq 0 ] && [[ $out == *"Observation ok Always 1 0"* ]] || { echo "rc $rc out $out err $err"; return 1; }
  # A location is a spinlock_t or an srcu_struct by its use, not by a
  # parameter's type (herd7 gives types no meaning): both uses is an error,
  # and a declared lock no spin_* names is an int location.
  printf 'C both\n{}\nP0(struct srcu_struct *s)\n{\n synchronize_srcu(s);\n}\nP1(spinlock_t *s)\n{\n spin_lock(s);\n spin_unlock(s);\n}\nexists (s=0)\n' >"$tmp/both.litmus"
  vf litmus "$tmp/both.litmus"
  [ "$rc" -eq 2 ] && [ "$err" = "error: $tmp/both.litmus:9: \`s\` is used both as a spinlock_t and as an srcu_struct; accepted: one of the two" ] || {
    echo "rc $rc err $err"; return 1; }
  printf 'C lockint\n{}\nP0(spinlock_t *l)\n{\n WRITE_ONCE(*l, 3);\n}\nP1(spinlock_t *l)\n{\n int r0;\n r0 = READ_ONCE(*l);\n}\nexists (1:r0=3)\n' >"$tmp/li.litmus"
  vf litmus --stable "$tmp/li.litmus"
  [ "$rc" -eq 0 ] && [[ $out == *"Observation lockint Sometimes 1 1"* ]] || { echo "rc $rc out $out err $err"; return 1; }
}

@test "litmus registers: one that only locations [...] names prints as 0; in the condition it is one clear line" {
  printf 'C loc\n{}\nP0(int *x)\n{\n int r2;\n r2 = READ_ONCE(*x);\n}\nP1(int *x)\n{\n int r1;\n WRITE_ONCE(*x, 1);\n r1 = 5;\n}\nlocations [0:r1]\nexists (0:r2=1)\n' >"$tmp/loc.litmus"
  vf litmus --stable "$tmp/loc.litmus"
  [ "$rc" -eq 0 ] && [[ $out == *"0:r1=0; 0:r2=0;"* ]] && [[ $out == *"0:r1=0; 0:r2=1;"* ]] &&
    [[ $out == *"Observation loc Sometimes 1 1"* ]] || { echo "rc $rc out $out err $err"; return 1; }
  # Without the locations entry, the condition may not name it.
  sed -i 's/^exists (0:r2=1)$/exists (0:r1=1)/; /^locations/d' "$tmp/loc.litmus"
  vf litmus "$tmp/loc.litmus"
  [ "$rc" -eq 2 ] && [ "$err" = "error: $tmp/loc.litmus:14: bad register \`0:r1\`: P0 declares no such register; accepted: r2" ] || {
    echo "rc $rc err $err"; return 1; }
}

@test "litmus constants that do not fit a location are rejected, -2147483648 is not" {
  local c
  for c in 4294967296 99999999999999999999 0x100000000 2147483648; do
    printf 'C big\n{}\nP0(int *x)\n{\n WRITE_ONCE(*x, %s);\n}\nexists (x=0)\n' "$c" >"$tmp/b.litmus"
    vf litmus "$tmp/b.litmus"
    [ "$rc" -eq 2 ] && [[ $err == "error: $tmp/b.litmus:5: bad number \`$c\`; accepted: decimal or 0x hexadecimal integers from -2147483648 to 2147483647" ]] || {
      echo "$c: rc $rc err $err"; return 1; }
  done
  printf 'C min\n{ x=-2147483648; }\nP0(int *x)\n{\n WRITE_ONCE(*x, -2147483648);\n}\nexists (x=-2147483648)\n' >"$tmp/m.litmus"
  vf litmus --stable "$tmp/m.litmus"
  [ "$rc" -eq 0 ] && [[ $out == *"Observation min Always 1 0"* ]] || { echo "rc $rc out $out err $err"; return 1; }
}

# --- escaping ----------------------------------------------------------

@test "a litmus test named with ESC, U+202E and NUL: escaped in the verdict, the witness and its JSON" {
  printf 'C a\033[31mb\xe2\x80\xaec\x00d\x7f\n{}\nP0(int *x)\n{\n WRITE_ONCE(*x, 1);\n}\nexists (x=1)\n' >"$tmp/e.litmus"
  local fmt
  for fmt in text email json; do
    vf litmus --witness --stable --format "$fmt" --html "$tmp/e.html" "$tmp/e.litmus"
    [ "$rc" -eq 0 ] || { echo "$fmt: rc $rc err $err"; return 1; }
    no_raw_control "$tmp/out" || { echo "$fmt: raw control character in the output"; cat -v "$tmp/out"; return 1; }
    no_raw_control "$tmp/e.html" || { echo "$fmt: raw control character in the HTML page"; return 1; }
    [[ $out == *'a\x1b[31mb'* || $out == *'a\u001b[31mb'* ]] || { echo "$fmt: the name is not shown escaped: $out"; return 1; }
  done
}

@test "a scenario file named with ESC and U+202E: escaped in text, JSON, JUnit and GitHub annotations" {
  local d="$tmp/d" name=$'v1\e[2Jx\u202e'
  mkdir "$d"
  python3 - "$d" "$name" <<'EOF'
import json, sys
s = json.load(open('scenarios/chrdev/v1-open-close-no-race.json'))
s['name'] = sys.argv[2]
s['expect'] = 'unsatisfiable'  # without order constraints: a one-line load error
json.dump(s, open(f'{sys.argv[1]}/{sys.argv[2]}.json', 'w'))
EOF
  vf check "$d" --junit "$tmp/j.xml" --format github
  [ "$rc" -eq 2 ] || { echo "rc $rc out $out"; return 1; }
  no_raw_control "$tmp/out" && no_raw_control "$tmp/j.xml" || { echo "raw control character"; cat -v "$tmp/out" "$tmp/j.xml"; return 1; }
  [[ $out == *"::error file="*'\x1b[2Jx\u{202E}'* ]] || { echo "no escaped annotation: $out"; return 1; }
  grep -q 'x\\u{202E}' "$tmp/j.xml" || { cat "$tmp/j.xml"; return 1; }
  python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/j.xml"
  # A violated copy under the odd name: its text and JSON reports.
  python3 - "$d" "$name" <<'EOF'
import json, sys, os
os.remove(f'{sys.argv[1]}/{sys.argv[2]}.json')
s = json.load(open('scenarios/chrdev/kref-balance-skip-cdev-put-new.json'))
s['name'] = sys.argv[2]
json.dump(s, open(f'{sys.argv[1]}/{sys.argv[2]}.json', 'w'))
EOF
  vf run --no-progress --stable "$d/$name.json"
  no_raw_control "$tmp/out" && no_raw_control "$tmp/err" || { echo "text: raw control character"; return 1; }
  vf run --no-progress --stable --json "$d/$name.json"
  no_raw_control "$tmp/out" || { echo "json: raw control character"; return 1; }
  # The same value, escaped: the JSON still holds the name exactly.
  python3 - "$tmp/out" "$name" <<'EOF'
import json, sys
def strings(v):
    if isinstance(v, str): yield v
    elif isinstance(v, dict): yield from (x for k in v.values() for x in strings(k))
    elif isinstance(v, list): yield from (x for k in v for x in strings(k))
assert sys.argv[2] in strings(json.load(open(sys.argv[1])))
EOF
}

# A test-only switch with a bad value, raw control bytes in it: the command
# exits 2, prints nothing on stdout and one escaped line on stderr, `expected`.
bad_switch() {
  local var=$1 value=$2 expected=$3
  shift 3
  declare -x "$var=$value"
  vf "$@"
  [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [ -z "$out" ] || { echo "rc $rc out $out err $err"; return 1; }
  [ "$err" = "$expected" ] || { echo "got: $err"; return 1; }
  no_raw_control "$tmp/err"
}

@test "a test-only stale-cut switch with an unknown value, raw control bytes in it: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_STALE_CUT $'sideways\x1b[31m' \
    'error: VFSMC_TEST_STALE_CUT: unknown cut "sideways\x1b[31m"; accepted: local, reorder-source, reorder-unsound, reorder-step, reorder-await or reorder-promises (test-only), or unset' \
    run --no-progress scenarios/dcache/shared-d-add.json
}

@test "the test-only grace-period switch with a bad value: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_GP_WORDS $'yes\x1b[31m' \
    'error: VFSMC_TEST_GP_WORDS: bad value "yes\x1b[31m"; accepted: 1 (test-only), or unset' \
    litmus litmus/MP+sync+noreader.litmus
}

@test "the test-only refused-promise switch with an unknown value: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_REFUSED $'on\x1b[31m' \
    'error: VFSMC_TEST_REFUSED: unknown value "on\x1b[31m"; accepted: off, end, mutant (test-only), or unset' \
    litmus litmus/LB+fencembonceonce+poonceonce.litmus
}

@test "the test-only closings switch with an unknown value: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_CLOSE $'on\x1b[31m' \
    'error: VFSMC_TEST_CLOSE: unknown value "on\x1b[31m"; accepted: off, locations, value-mutant, mutant (test-only), or unset' \
    litmus litmus/LB+fencembonceonce+poonceonce.litmus
}

@test "the test-only needless-promise switch with an unknown value: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_KEPT_CUT $'on\x1b[31m' \
    'error: VFSMC_TEST_KEPT_CUT: unknown value "on\x1b[31m"; accepted: off, mutant (test-only), or unset' \
    litmus litmus/LB+poonceonces.litmus
}

@test "the test-only fence-order switch with an unknown value: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_FENCE_ORDER $'off\x1b[31m' \
    'error: VFSMC_TEST_FENCE_ORDER: unknown value "off\x1b[31m"; accepted: all, mutant (test-only), or unset' \
    litmus litmus/MP+po-mbtrail+mb.litmus
}

@test "the test-only barrier-promise switch with an unknown value: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_MB_PROMISE $'on\x1b[31m' \
    'error: VFSMC_TEST_MB_PROMISE: unknown value "on\x1b[31m"; accepted: off, mutant (test-only), or unset' \
    litmus litmus/LB+rmbonceonces.litmus
}

@test "the test-only grace-period-end switch with a bad value: exit 2, one escaped line" {
  bad_switch VFSMC_TEST_GP_END $'two\x1b[31m' \
    'error: VFSMC_TEST_GP_END: bad value "two\x1b[31m"; accepted: split (test-only), or unset' \
    litmus litmus/MP+sync+noreader.litmus
}

# --- replay commands ---------------------------------------------------

# The replay command of a report (the line after "Replay:"), run as printed
# with the binary under test.
replay_line() { printf '%s\n' "$1" | sed -n '/^Replay:/{n;s/^ *//;p;q}'; }
run_printed() {
  local cmd=$1
  cmd=${cmd/vfsmc /\"\$VFSMC\" }
  eval "$cmd" >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
  out=$(<"$tmp/out")
  err=$(<"$tmp/err")
}

@test "run --without: the printed replay command carries it and replays the same counterexample" {
  local s=scenarios/openref/o-path-consume-no-clear.json
  vf run --no-progress --stable --without dentry-ref-underflow "$s"
  [ "$rc" -eq 1 ] && [[ $out == *"[counterexample] o-path-consume-no-clear: ref-leak violated"* ]] || { echo "rc $rc out $out"; return 1; }
  local cmd steps
  cmd=$(replay_line "$out")
  steps=$(printf '%s\n' "$out" | grep -o 'The execution has [0-9]* steps' | head -1)
  [[ $cmd == *" --without dentry-ref-underflow" ]] || { echo "command: $cmd"; return 1; }
  run_printed "$cmd --stable"
  [ "$rc" -eq 1 ] && [[ $out == *"ref-leak violated"* && $out == *"$steps"* ]] || { echo "replayed: rc $rc $out"; return 1; }
  # Without --without the token is refused with one line naming the cause.
  local tok=${cmd#* "$s" }
  tok=${tok%% *}
  vf replay "$s" "$tok"
  [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [[ $err == *"printed by a run with --without dentry-ref-underflow; replay it with the same"* ]] || {
    echo "rc $rc err $err"; return 1; }
}

@test "run --memory-model and --strategy: the printed command replays the same counterexample" {
  local s=scenarios/openref/o-path-consume-no-clear.json
  vf run --no-progress --stable --memory-model kernel --strategy exhaustive "$s"
  [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || { echo "rc $rc err $err"; return 1; }
  local cmd subject
  cmd=$(replay_line "$out")
  subject=$(printf '%s\n' "$out" | grep '^\[counterexample\]')
  steps=$(printf '%s\n' "$out" | grep -o 'The execution has [0-9]* steps' | head -1)
  run_printed "$cmd --stable"
  [[ $out == *"$subject"* && $out == *"$steps"* && $out == *"memory model kernel"* ]] || { echo "replayed: rc $rc $out $err"; return 1; }
}

@test "a token found under VFSMC_MUTATION: the printed command names the mutation; without it the token is refused" {
  local s=scenarios/openref/o-path-consume-no-clear.json m=v5-no-mntget
  VFSMC_MUTATION=$m "$VFSMC" run --no-progress --stable "$s" >"$tmp/out" 2>"$tmp/err" || true
  out=$(<"$tmp/out")
  local cmd
  cmd=$(replay_line "$out")
  [[ $cmd == "vfsmc replay $s v1:"*" --mutation $m" ]] || { echo "command: $cmd"; return 1; }
  local tok=${cmd#* "$s" }
  tok=${tok%% *}
  vf replay "$s" "$tok"
  [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [[ $err == *"printed under the mutation $m; replay it with --mutation $m"* ]] || {
    echo "rc $rc err $err"; return 1; }
  run_printed "$cmd --stable"
  [ "$rc" -le 1 ] && [[ $out == *"[counterexample]"* ]] || { echo "replayed: rc $rc $out $err"; return 1; }
  # The result and the reports say which mutation the run ran under.
  [[ $(<"$tmp/out") == *"; mutation $m (a line of the model deleted, VFSMC_MUTATION)"* ]] || { echo "text: $(<"$tmp/out")"; return 1; }
  VFSMC_MUTATION=$m "$VFSMC" run --json --no-progress "$s" >"$tmp/json" 2>/dev/null || true
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(j.get("mutation") != sys.argv[2])' "$tmp/json" "$m" ||
    { echo "json: $(head -c 300 "$tmp/json")"; return 1; }
  "$VFSMC" run --json --no-progress "$s" >"$tmp/json" 2>/dev/null || true
  python3 -c 'import json,sys; sys.exit("mutation" in json.load(open(sys.argv[1])))' "$tmp/json" || { echo "a mutation without one"; return 1; }
}

@test "run --mutation: a counterexample only the mutation shows; its printed replay command reproduces it, step for step" {
  # chrdev_open v2 holds; without its re-read of inode->i_cdev it breaks.
  local s=scenarios/chrdev/concurrent-first-open-v2.json m=v2-no-i-cdev-recheck
  vf run --no-progress --stable "$s"
  [ "$rc" -eq 0 ] && [[ $out == "holds (complete)"* ]] || { echo "unmutated: rc $rc $out"; return 1; }
  for how in flag env; do
    if [ $how = flag ]; then vf run --no-progress --stable --mutation $m "$s"; else VFSMC_MUTATION=$m vf run --no-progress --stable "$s"; fi
    [ "$rc" -eq 1 ] && [[ $out == *"[counterexample] concurrent-first-open-v2: cdev-list-double-add violated"* ]] || {
      echo "$how: rc $rc $out $err"; return 1; }
    local first=$out cmd
    cmd=$(replay_line "$out")
    [[ $cmd == "vfsmc replay $s v1:"*" --mutation $m" ]] || { echo "$how: command: $cmd"; return 1; }
    # The same steps, as the run printed them (the replay's counts and
    # replay lines differ: it runs one execution).
    steps() { printf '%s\n' "$1" | grep -E '^(>>)? *[0-9]+ \['; }
    run_printed "$cmd --stable"
    [ "$rc" -eq 1 ] && [[ $out == *"[counterexample] concurrent-first-open-v2: cdev-list-double-add violated"* ]] &&
      [ -n "$(steps "$first")" ] && [ "$(steps "$out")" = "$(steps "$first")" ] || { echo "$how: replayed: rc $rc $out $err"; return 1; }
    # The command carries the mutation itself: a shell that exports another
    # one does not change what it replays.
    VFSMC_MUTATION=smp-mb-no-op run_printed "$cmd --stable"
    [ "$rc" -eq 1 ] && [ "$(steps "$out")" = "$(steps "$first")" ] || { echo "$how: with another exported: rc $rc $err"; return 1; }
  done
  # An unknown name: one line, exit 2, nothing run.
  vf run --no-progress --mutation v2-no-i-cdev-rechek "$s"
  [ "$rc" -eq 2 ] && [ "$(nlines "$err")" -eq 1 ] && [ -z "$out" ] &&
    [[ $err == 'error: --mutation: unknown mutation "v2-no-i-cdev-rechek"; did you mean "v2-no-i-cdev-recheck"?'* ]] || {
    echo "rc $rc err $err"; return 1; }
}

@test "litmus --witness: the printed replay command runs and prints the same witness" {
  local f=litmus/MP+poonceonces.litmus
  vf litmus --witness --stable "$f"
  [ "$rc" -eq 0 ] || { echo "rc $rc err $err"; return 1; }
  local first=$out cmd
  cmd=$(replay_line "$out")
  [[ $cmd == "vfsmc litmus --witness $f --replay v1:"* ]] || { echo "command: $cmd"; return 1; }
  run_printed "$cmd --stable"
  # The replay prints the witness alone (no herd7 lines), with the same steps.
  steps() { printf '%s\n' "$1" | grep -E '^(>>)? *[0-9]+ '; }
  [ "$rc" -eq 0 ] && [ -n "$(steps "$first")" ] && [ "$(steps "$out")" = "$(steps "$first")" ] || {
    echo "rc $rc err $err"; diff <(steps "$first") <(steps "$out"); return 1; }
}

# --- the exploration-count lock ----------------------------------------

@test "two check --update-counts on one folder at once keep every count (flock)" {
  local d="$tmp/d" i n
  mkdir "$d"
  cp scenarios/chrdev/{v1-open-close-no-race,v2-cdev-forget-outside-evict,v2-fast-path-vs-last-close-ordered,v2-opener-without-inode-ref}.json "$d/"
  for i in 1 2 3 4 5 6 7 8; do
    echo '{}' >"$d/explorations.lock"
    "$VFSMC" check --update-counts "$d/v1-open-close-no-race.json" "$d/v2-cdev-forget-outside-evict.json" >/dev/null &
    "$VFSMC" check --update-counts "$d/v2-fast-path-vs-last-close-ordered.json" "$d/v2-opener-without-inode-ref.json" >/dev/null &
    wait
    n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$d/explorations.lock")
    [ "$n" -eq 4 ] || { echo "round $i: $n of 4 counts kept"; cat "$d/explorations.lock"; return 1; }
  done
}

# --- litmus time limit and signals -------------------------------------

# Four threads of six stores and loads each: minutes of exhaustive search.
long_litmus() {
  python3 - "$1" <<'EOF'
import sys
procs = []
for p in range(4):
    body = ''.join(f' WRITE_ONCE(*x, {i + 1}); r{i} = READ_ONCE(*y);\n' for i in range(6))
    procs.append(f'P{p}(int *x, int *y)\n{{\n int r0, r1, r2, r3, r4, r5;\n{body}}}\n')
open(sys.argv[1], 'w').write('C long\n{}\n' + '\n'.join(procs) + 'exists (x=1)\n')
EOF
}

@test "litmus --time-limit: the states so far, inconclusive, one line on stderr, exit 1" {
  long_litmus "$tmp/long.litmus"
  SECONDS=0
  vf litmus --time-limit 0.5 "$tmp/long.litmus"
  [ "$SECONDS" -le 10 ] || { echo "took $SECONDS s"; return 1; }
  [ "$rc" -eq 1 ] && [[ $out == *"Observation long inconclusive"* ]] && [ "$(nlines "$err")" -eq 1 ] &&
    [[ $err == "$tmp/long.litmus: stopped by the time limit: the result above is inconclusive, "*" executions explored" ]] || {
      echo "rc $rc out $out err $err"; return 1; }
  vf litmus --check --time-limit 0.5 "$tmp/long.litmus"
  [ "$rc" -eq 1 ] && [[ $out == *"INCONC $tmp/long.litmus: inconclusive (stopped by the time limit"* && $out == *", 1 inconclusive"* ]] || {
    echo "check: rc $rc out $out err $err"; return 1; }
}

@test "litmus under SIGINT and SIGTERM: the partial result, inconclusive, exit 128 + signal" {
  long_litmus "$tmp/long.litmus"
  local sig num
  for sig in INT TERM; do
    "$VFSMC" litmus "$tmp/long.litmus" >"$tmp/out" 2>"$tmp/err" & local pid=$!
    sleep 1
    kill -s "$sig" "$pid"
    wait "$pid" && rc=0 || rc=$?
    out=$(<"$tmp/out"); err=$(<"$tmp/err")
    [ "$sig" = INT ] && num=2 || num=15
    [ "$rc" -eq $((128 + num)) ] && [[ $out == *"Observation long inconclusive"* ]] &&
      [[ $err == "$tmp/long.litmus: interrupted by signal $num: the result above is inconclusive, "* ]] || {
        echo "$sig: rc $rc out $out err $err"; return 1; }
  done
  "$VFSMC" litmus --check "$tmp/long.litmus" litmus/MP+poonceonces.litmus >"$tmp/out" 2>"$tmp/err" & pid=$!
  sleep 1
  kill -INT "$pid"
  wait "$pid" && rc=0 || rc=$?
  out=$(<"$tmp/out")
  [ "$rc" -eq 130 ] && [[ $out == *"not run: interrupted by signal 2" ]] || { echo "check: rc $rc out $out"; return 1; }
}
