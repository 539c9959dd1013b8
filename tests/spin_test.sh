#!/usr/bin/env bash
# The Promela model of bench/spin (bench/spin/dcache_shared_creat.pml) is not
# a toy: SPIN verifies the protocol at 2 and 3 threads (and at 2 with failing
# OPENs), and reports each broken variant, with the invariant it breaks; every
# invariant of the model fails in at least one variant. CTest label "spin",
# registered only where `spin` and a C compiler exist (Debian package spin).
#   tests/spin_test.sh SPIN CC SOURCE_DIR
set -uo pipefail
spin=$1
cc=$2
src=$3
model=$src/bench/spin/dcache_shared_creat.pml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# pan FLAGS...: generate, compile (-O0: the search is small) and run pan; its
# output in pan.out.
pan() {
  rm -f pan pan.c pan.out ./*.trail
  "$spin" -a "$@" "$model" >spin.out 2>&1 || { echo "spin -a $*: $(head -c 300 spin.out)" >pan.out; return; }
  "$cc" -O0 -w -DSAFETY -o pan pan.c 2>cc.out || { echo "cc: $(head -c 300 cc.out)" >pan.out; return; }
  ./pan -m1000000 >pan.out 2>&1
}

# holds FLAGS...: pan finds no error and searched the whole space.
holds() {
  pan "$@"
  grep -q "errors: 0" pan.out && ! grep -q "Search not completed" pan.out ||
    fail "$*: not verified: $(grep -E '^pan|errors' pan.out | head -3 | tr '\n' ' ')"
}

# breaks WHAT TEXT FLAGS...: pan reports an error whose first line has TEXT
# (the failed assertion's expression, or "invalid end state").
breaks() {
  local what=$1 text=$2
  shift 2
  pan "$@"
  local first
  first=$(grep -m1 '^pan:1:' pan.out)
  case "$first" in
    *"$text"*) ;;
    *) fail "$* ($what): expected an error with '$text', got: ${first:-$(grep errors pan.out)}" ;;
  esac
}

holds -DNTHREADS=2
holds -DNTHREADS=3
holds -DNTHREADS=2 -DRPC_ERROR

# invariant                      expression in the assertion     variant
breaks one-hashed-dentry-per-name "(nhashed<=1)"                  -DBROKEN
breaks one-hashed-dentry-per-name "(nhashed<=1)"                  -DBUG_NO_PARITY
breaks one-hashed-dentry-per-name "(nhashed<=1)"                  -DBUG_REHASH -DNO_INV_ONE_FS_CALL -DNO_INV_CREATE_EXCL
breaks create-exclusion          "(in_create==0)"                -DBROKEN -DNO_INV_ONE_HASHED -DNO_INV_ONE_INODE
breaks atomic-open-in-lookup     "d[dent].par_lookup"            -DBUG_EARLY_LOOKUP_DONE
breaks d-alloc-parallel-result   "(pinned||"                     -DBUG_NO_WAIT
breaks one-fs-call-per-dentry    "d[dent].fs_call"               -DBUG_REHASH
breaks dentry-ref-underflow      "(d[dent].cnt>0)"               -DBUG_DOUBLE_DPUT
breaks ref-leak                  "(d[i].cnt==0)"                 -DBUG_MISSING_DPUT
breaks dentry-use-after-free     "!(d[m].freed)"                 -DBUG_WAITER_NO_REF -DRPC_ERROR
breaks one-inode                 "(d[dent].positive&&server)"    -DBUG_PUBLISH_NEGATIVE -DMAXALLOC=3
breaks one-inode                 "(nhashed==1)"                  -DBROKEN -DNO_INV_ONE_HASHED
breaks lost-wakeup               "invalid end state"             -DBUG_NO_WAKE

[ $fails -eq 0 ] && echo "spin_test: all passed"
exit $((fails > 0))
