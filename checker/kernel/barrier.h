// vfsmc kernel vocabulary: <asm/barrier.h>: smp_load_acquire, smp_store_release, smp_mb and friends.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"
#include "contract/mutations.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <asm/barrier.h>
// ------------------------------------------------------------------------
template <class T> inline T smp_load_acquire(kfield<T>& f, SrcLoc at = SrcLoc()) {
    here(at);
    return f.load(MUTATION("smp-load-acquire-relaxed") ? Acc::ReadOnce : Acc::LoadAcquire);
}
template <class T, class V> inline void smp_store_release(kfield<T>& f, V v, SrcLoc at = SrcLoc()) {
    here(at);
    f.store((T)v, MUTATION("smp-store-release-relaxed") ? Acc::WriteOnce : Acc::StoreRelease);
}
// A fence of kind `a`, logged as `name`. `since`: a full fence whose before
// side is the thread's state at an earlier operation (sim::fence_since():
// the special-purpose barriers below).
void fence(Acc a, const char* name, const sim::FenceMark* since = nullptr);
inline void smp_mb(SrcLoc at = SrcLoc()) {
    here(at);
    if (!MUTATION("smp-mb-no-op")) fence(Acc::FenceMb, "smp_mb");
}
inline void smp_rmb(SrcLoc at = SrcLoc()) { here(at); fence(Acc::FenceRmb, "smp_rmb"); }
inline void smp_wmb(SrcLoc at = SrcLoc()) { here(at); fence(Acc::FenceWmb, "smp_wmb"); }
// The LKMM's special-purpose full barriers, which order only in
// combination with the operation they name (linux-kernel.cat's mb).
// smp_mb__before_atomic orders what precedes it only with the next atomic
// RMW and what follows that RMW: its full fence is deferred to that RMW
// (atomic_rmw_hook), and with none it orders nothing. The others are a
// full fence when the thread has done the operation they name before them,
// and nothing otherwise: smp_mb__after_atomic an atomic RMW,
// smp_mb__after_spinlock a spin_lock(), smp_mb__after_unlock_lock a lock
// taken after its thread released that lock (po-unlock-lock-po), and
// smp_mb__after_srcu_read_unlock an srcu_read_unlock(). Each orders the
// accesses up to the operation it names (smp_mb__before_atomic: up to the
// barrier; smp_mb__after_unlock_lock: up to the unlock, and what the
// unlock its lock read released) with those after it, and not the
// accesses in between, as the LKMM does (sim::fence_since() with the
// thread's state at that point).
// The program about to run uses these barriers: the layer keeps each
// thread's state at the operations they name (their before sides), which
// costs work at every atomic RMW and spinlock operation. A model's setup
// calls it, each execution; a special-purpose barrier in a program that
// did not is an internal error.
void use_special_barriers();
void smp_mb__before_atomic(SrcLoc at = SrcLoc());
void smp_mb__after_atomic(SrcLoc at = SrcLoc());
void smp_mb__after_spinlock(SrcLoc at = SrcLoc());
void smp_mb__after_unlock_lock(SrcLoc at = SrcLoc());
void smp_mb__after_srcu_read_unlock(SrcLoc at = SrcLoc());
// smp_store_mb: WRITE_ONCE, then smp_mb().
template <class T, class V> inline void smp_store_mb(kfield<T>& f, V v) {
    f.store((T)v, Acc::WriteOnce);
    smp_mb();
}
// <linux/compiler.h>'s barrier(): a compiler barrier. The layer's accesses
// are never reordered by a compiler, so it orders nothing a CPU does (the
// LKMM's barrier fence orders no hardware accesses either); it is a step in
// the trace.
void barrier();

}  // namespace vfsmc
