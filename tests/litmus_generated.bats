#!/usr/bin/env bats
# The `kernel` model against the executable LKMM on the whole generated set
# (label "long"; tests/cli.bats checks every 8th test of it in the default
# suite): every test agrees. docs/memory-model.md gives the figures.
#   VFSMC=... SRC=... bats tests/litmus_generated.bats

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

@test "litmus --check on the generated set: the kernel model agrees with the oracle on every test" {
  vf litmus --generate "$tmp/gen"
  [ "$rc" -eq 0 ] || { echo "got exit $rc: $err"; return 1; }
  vf litmus --check -j2 "$tmp/gen"
  [ "$rc" -eq 0 ] && [ "$(tail -1 <<<"$out")" == "6996 agree, 0 differ (0 misses, 0 false alarms), 0 unsupported, 0 parse errors, 0 inconclusive" ] || {
    echo "got exit $rc: $(grep -v '^agree' <<<"$out" | head) $err"; return 1; }
}
