// vfsmc kernel vocabulary: the memory-model table: the C++11 order each kind of access gets under
// `sc` and `kernel` (docs/memory-model.md is generated from it). No Relacy:
// `vfsmc list` includes this alone.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include <cstddef>
#include <cstdint>

#include "substrate/order.h"
#include "substrate/runtime.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// The memory-model table: one row per kind of access, the C++11 order it
// gets under each memory model. docs/memory-model.md is generated from it
// (`vfsmc list --memory-model`) and a test checks the two agree.
// ------------------------------------------------------------------------
enum class Acc : uint8_t {
    Plain,          // a plain C load or store
    ReadOnce,       // READ_ONCE
    WriteOnce,      // WRITE_ONCE
    LoadAcquire,    // smp_load_acquire
    StoreRelease,   // smp_store_release
    AtomicRead,     // atomic_read / refcount_read
    AtomicSet,      // atomic_set
    AtomicRmwVoid,  // atomic_inc, atomic_dec (no return value)
    AtomicRmwFull,  // value-returning atomics: cmpxchg, inc_not_zero, dec_and_test, add_unless
    LockrefCas,     // lockref's lockless cmpxchg fast path (try_cmpxchg64_relaxed)
    LockAcquire,    // spin_lock, bit_spin_lock, mutex_lock, down_read/down_write
    LockRelease,    // spin_unlock, bit_spin_unlock, mutex_unlock, up_read/up_write
    FenceMb,        // smp_mb
    FenceRmb,       // smp_rmb
    FenceWmb,       // smp_wmb
    AtomicRmwRelaxed,  // value-returning _relaxed atomics: atomic_add_return_relaxed, xchg_relaxed, cmpxchg_relaxed
    AtomicRmwAcquire,  // value-returning _acquire atomics
    AtomicRmwRelease,  // value-returning _release atomics
    RcuDereference,    // rcu_dereference
    RcuAssignPointer,  // rcu_assign_pointer
    RefcountInc,    // refcount_inc, refcount_inc_not_zero
    RefcountDec,    // refcount_dec, refcount_dec_and_test
    RefcountDecAcq, // refcount_dec_and_test, when it returns true
    RcuLock,        // rcu_read_lock (outermost)
    RcuUnlock,      // rcu_read_unlock (outermost)
    RcuGp,          // a grace period's start (call_rcu, synchronize_rcu) and end
    WaitQueueLock,  // a wait-queue list update under wq_head->lock (finish_wait's list_del_init)
    TaskStateSet,   // set_current_state's store of the task state (prepare_to_wait)
    TaskRunning,    // try_to_wake_up's store of TASK_RUNNING (wake_up_all)
    ScheduleReturn, // the woken task's return from schedule()
    kCount
};

struct MemoryModelRow {
    Acc acc;
    const char* kernel_name;
    MemOrder kernel;
    MemOrder sc;
    const char* why;
};

inline const MemoryModelRow kMemoryModelTable[] = {
    {Acc::Plain, "plain load/store", MemOrder::relaxed, MemOrder::seq_cst, "checked for LKMM data races as well; under kernel a read of another thread's store with a plain access at either end orders nothing of other threads (the LKMM's hb and prop take rfe between marked accesses only)"},
    {Acc::ReadOnce, "READ_ONCE", MemOrder::relaxed, MemOrder::seq_cst, "no ordering of its own; an access of an object whose pointer it returned is ordered after what the store it read published (address dependency)"},
    {Acc::WriteOnce, "WRITE_ONCE", MemOrder::relaxed, MemOrder::seq_cst, "no ordering"},
    {Acc::LoadAcquire, "smp_load_acquire", MemOrder::acquire, MemOrder::seq_cst, "pairs with smp_store_release"},
    {Acc::StoreRelease, "smp_store_release", MemOrder::release, MemOrder::seq_cst, "pairs with smp_load_acquire"},
    {Acc::AtomicRead, "atomic_read", MemOrder::relaxed, MemOrder::seq_cst, "like READ_ONCE"},
    {Acc::AtomicSet, "atomic_set", MemOrder::relaxed, MemOrder::seq_cst, "like WRITE_ONCE"},
    {Acc::AtomicRmwVoid, "atomic_inc/atomic_dec", MemOrder::relaxed, MemOrder::seq_cst, "non-value-returning RMWs are unordered"},
    {Acc::AtomicRmwFull, "value-returning atomics", MemOrder::seq_cst, MemOrder::seq_cst, "fully ordered when they write: smp_mb() before and after; a failed one (cmpxchg, add_unless) is an unordered read"},
    {Acc::LockrefCas, "lockref cmpxchg", MemOrder::relaxed, MemOrder::seq_cst, "try_cmpxchg64_relaxed in CMPXCHG_LOOP"},
    {Acc::LockAcquire, "lock acquire", MemOrder::acquire, MemOrder::seq_cst, "ACQUIRE of the lock word"},
    {Acc::LockRelease, "lock release", MemOrder::release, MemOrder::seq_cst, "RELEASE of the lock word"},
    {Acc::FenceMb, "smp_mb", MemOrder::seq_cst, MemOrder::seq_cst, "full fence"},
    {Acc::FenceRmb, "smp_rmb", MemOrder::acquire, MemOrder::seq_cst, "orders earlier loads before later loads, and before what depends on those (not later stores)"},
    {Acc::FenceWmb, "smp_wmb", MemOrder::release, MemOrder::seq_cst, "approximated by a release fence"},
    {Acc::AtomicRmwRelaxed, "_relaxed atomics", MemOrder::relaxed, MemOrder::seq_cst, "value-returning, unordered"},
    {Acc::AtomicRmwAcquire, "_acquire atomics", MemOrder::acquire, MemOrder::seq_cst, "ACQUIRE of the read"},
    {Acc::AtomicRmwRelease, "_release atomics", MemOrder::release, MemOrder::seq_cst, "RELEASE of the write"},
    {Acc::RcuDereference, "rcu_dereference", MemOrder::relaxed, MemOrder::seq_cst, "like READ_ONCE, with its address dependency"},
    {Acc::RcuAssignPointer, "rcu_assign_pointer", MemOrder::release, MemOrder::seq_cst, "like smp_store_release"},
    {Acc::RefcountInc, "refcount_inc/refcount_inc_not_zero", MemOrder::relaxed, MemOrder::seq_cst,
     "unordered (refcount-vs-atomic.rst); a later store is ordered after it, as after every earlier load of its thread (control dependency)"},
    {Acc::RefcountDec, "refcount_dec/refcount_dec_and_test", MemOrder::release, MemOrder::seq_cst, "RELEASE (refcount-vs-atomic.rst)"},
    {Acc::RefcountDecAcq, "refcount_dec_and_test success", MemOrder::acquire, MemOrder::seq_cst,
     "an ACQUIRE fence when the count reaches zero (refcount-vs-atomic.rst)"},
    {Acc::RcuLock, "rcu_read_lock", MemOrder::acquire, MemOrder::seq_cst,
     "no fence: an acquire RMW of the reader's own grace-period word, so a section sees what preceded every grace period that began before it (under sc too: happens-before only)"},
    {Acc::RcuUnlock, "rcu_read_unlock", MemOrder::release, MemOrder::seq_cst,
     "a release RMW of the reader's own grace-period word, which the grace period's end acquires (under sc too: happens-before only); the promises of the section's loads stay open until a grace period acquires it"},
    {Acc::RcuGp, "grace-period start/end", MemOrder::acq_rel, MemOrder::seq_cst,
     "call_rcu/synchronize_rcu start: an acquire and then a release RMW of every reader's grace-period word; synchronize_rcu end: the same of the words of the readers it waited for and its own (a section that began after the start is ordered after the start alone), and for synchronize_rcu/synchronize_srcu a seq_cst fence before the start and after the end (a full barrier, as smp_mb), the end and its fence one step (no other thread runs between them: cli.bats checks that every corpus and generated test with a section and a grace period prints the same with two steps, `VFSMC_TEST_GP_END=split`); call_rcu's end, before its free: an acquire of the words of the readers it waited for, nothing released (under sc too: happens-before only). In a domain that no thread opens a section of (declared by the program: `vfsmc litmus` does for a test without `rcu_read_lock()`, or without `srcu_read_lock()`/`srcu_down_read()` of an srcu_struct), a grace period is the seq_cst fence alone, one step, as the LKMM's strong-fence is all it is there; cli.bats checks that the herd7 output of every such corpus and generated test is the same with the words kept (`VFSMC_TEST_GP_WORDS=1`)"},
    {Acc::WaitQueueLock, "wait-queue list update", MemOrder::acq_rel, MemOrder::seq_cst,
     "spin_lock(&wq_head->lock); list_del_init(); spin_unlock(): the lock's ACQUIRE and RELEASE around the list word, no fence (finish_wait)"},
    {Acc::TaskStateSet, "set_current_state", MemOrder::relaxed, MemOrder::seq_cst,
     "smp_store_mb(): WRITE_ONCE of the task state, then smp_mb(); prepare_to_wait's list add, in the same step right after it, is a value-returning RMW and carries that smp_mb()"},
    {Acc::TaskRunning, "try_to_wake_up TASK_RUNNING", MemOrder::release, MemOrder::seq_cst,
     "WRITE_ONCE(p->__state, TASK_RUNNING) under p->pi_lock and the runqueue lock, whose RELEASE the woken task's return from schedule() acquires; the state read before it follows smp_mb__after_spinlock(), which wake_up_all's list RMW (value-returning) carries"},
    {Acc::ScheduleReturn, "schedule() return", MemOrder::acquire, MemOrder::seq_cst,
     "the woken task runs again only after the waker's TASK_RUNNING store: the runqueue lock's ACQUIRE"},
};
static_assert(sizeof(kMemoryModelTable) / sizeof(kMemoryModelTable[0]) == (size_t)Acc::kCount,
              "one kMemoryModelTable row per Acc, in enum order");

inline MemOrder mo_for(Acc a) {
    const MemoryModelRow& r = kMemoryModelTable[(int)a];
    return rt().mm == MemModel::sc ? r.sc : r.kernel;
}

inline const char* acc_name(Acc a) { return kMemoryModelTable[(int)a].kernel_name; }

// The atomic_t/xchg/cmpxchg RMWs (not the lock words, not lockref): each
// calls atomic_rmw_hook() inside its step (smp_mb__before_atomic, below).
inline bool is_atomic_rmw(Acc a) {
    return a == Acc::AtomicRmwVoid || a == Acc::AtomicRmwFull || a == Acc::AtomicRmwRelaxed ||
           a == Acc::AtomicRmwAcquire || a == Acc::AtomicRmwRelease;
}
void atomic_rmw_hook(int t);
// The running step is a strong fence (smp_mb(), a grace period's full
// barrier, a fully ordered RMW, a special-purpose full barrier): it joins
// the one order of strong fences, so any two of them are dependent for the
// search. Their order decides which of the two threads takes what the
// other had seen (a seq_cst fence's join), and a later load can depend on
// that alone: litmus/MP+po-mbtrail+mb's outcome needs the reader's
// smp_mb() to come before the writer's trailing one, and nothing else
// puts it there.
void note_strong_fence_order();
// Thread t made an atomic RMW (one that failed included: the LKMM's
// cmpxchg-fail-ordered tests): the before side of a later
// smp_mb__after_atomic().
void note_atomic_rmw(int t);
// Thread t left an SRCU read-side section: the before side of a later
// smp_mb__after_srcu_read_unlock().
void note_srcu_unlock(int t);

}  // namespace vfsmc
