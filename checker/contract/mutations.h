// vfsmc: the one table of mutations, for scripts/mutate.
//
// A mutation deletes one line of a correct code path (a barrier, a
// re-check, a reference) to prove that some scenario notices: its verdict
// must change. The models mark each deletion where it happens with
//
//     if (!MUTATION("legitimize-mnt-no-smp-mb")) smp_mb();
//
// A run selects at most one mutation, as one of its options
// (RunOptions::mutation; on the command line `--mutation NAME`, or the
// environment variable VFSMC_MUTATION); scenarios cannot select one (a
// mutation is not a knob: it is never the code a scenario describes). The
// engine installs the run's mutation in the runtime (Runtime::mutation) for
// the length of the run, and MUTATION() reads it there; with none, every
// MUTATION() is false and the models are the correct code. scripts/mutate
// runs `vfsmc check scenarios` once per row and prints which verdicts
// changed.
//
// A row whose `equivalent` is set deletes a step that no verdict of the
// model's world can depend on; the string says why (what the step orders
// or guards that the model does not have). Every other row must change a
// verdict.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "substrate/runtime.h"

namespace vfsmc {

struct MutationInfo {
    const char* name;
    const char* model;  // the model (or "layer") whose code it deletes
    const char* doc;
    const char* equivalent = nullptr;  // why no verdict can change, or nullptr: one must
};

inline constexpr MutationInfo kMutations[] = {
    {"legitimize-mnt-no-smp-mb", "openref", "__legitimize_mnt: the smp_mb() between mnt_add_count(mnt, 1) and read_seqretry(&mount_lock)"},
    {"d-wait-lookup-no-revalidate", "dcache", "d_alloc_parallel: the d_unhashed() re-validation (and retry) after d_wait_lookup()"},
    {"pre-seed-no-i-cdev-recheck", "chrdev", "chrdev_open before seed 002: the re-check of inode->i_cdev after kobj_lookup, under cdev_lock"},
    {"no-write-seqcount-invalidate", "layer", "write_seqcount_invalidate() is a no-op (__d_drop's d_seq invalidation)"},
    {"no-i-dir-seq-recheck", "dcache", "d_alloc_parallel: the re-check of i_dir_seq under the in-lookup bucket lock"},
    {"no-start-dir-add", "dcache", "__d_add: start_dir_add()/end_dir_add() around moving the dentry to the main hash"},
    {"cdev-get-no-unless-zero", "chrdev", "cdev_get: kobject_get() instead of kobject_get_unless_zero()"},
    {"v5-no-mntget", "openref", "do_open v5: the mntget(mnt) for O_TRUNC (and its mntput)"},
    {"lockref-get-not-dead-no-dead-test", "layer", "lockref_get_not_dead: the dead test (it takes a reference from a dead count)"},
    {"waiter-no-dput-new", "dcache", "d_alloc_parallel: the waiter's dput(new) after it found the in-lookup dentry"},
    {"d-lookup-rcu-no-unhashed-test", "dcache,openref", "__d_lookup_rcu: the d_unhashed() test after the name match"},
    {"no-free-race-check", "layer", "kfree: no check that every other thread's plain access to the object happens before the free"},
    // The layer.
    {"smp-mb-no-op", "layer", "smp_mb() is a no-op (every full barrier a model spells smp_mb)"},
    {"smp-load-acquire-relaxed", "layer", "smp_load_acquire() is a READ_ONCE (no acquire)"},
    {"smp-store-release-relaxed", "layer", "smp_store_release() is a WRITE_ONCE (no release)"},
    {"refcount-inc-not-zero-no-zero-test", "layer", "refcount_inc_not_zero: the zero test (it takes a reference from 0)"},
    {"rmw-reads-latest", "layer", "an unconditional RMW (xchg, atomic add) under kernel always reads the latest store and goes last in its coherence order",
     "no scenario's counter has a store its RMWs are not ordered after (each is set before it is published), so no scenario's RMW reads an older store; litmus/MP+poonceonces+rmb-xchgrelaxed catches it (vfsmc litmus --check --mutation rmw-reads-latest)"},
    {"cond-rmw-reads-latest", "layer", "a conditional RMW (cmpxchg, inc_not_zero) under kernel always reads the latest store and, when it writes, goes last in its coherence order",
     "no scenario's verdict depends on a conditional RMW reading an older store: the models' cmpxchg loops retry on a failure and succeed on the latest value; litmus/MP+poacquireonce+cmpxchgrelaxed-older and -fail catch it (vfsmc litmus --check --mutation cond-rmw-reads-latest)"},
    {"full-cond-rmw-older-needs-latest", "layer", "a fully ordered conditional RMW (cmpxchg(), atomic_add_unless()) under kernel writes on an older store only when the latest passes its condition too",
     "no scenario's fully ordered conditional RMW could read an older store that passes behind a latest one that fails (the choice is never offered: no count moves with it); litmus/MP+poonceonces+cmpxchg-older and -addunless-older catch it (vfsmc litmus --check --mutation full-cond-rmw-older-needs-latest)"},
    {"full-cond-rmw-fail-needs-latest", "layer", "a fully ordered conditional RMW (cmpxchg(), atomic_add_unless()) under kernel fails without its smp_mb() only where the latest store fails its condition, and then never promises a value",
     "the model choices this deletes are a failing read that no scenario's verdict depends on (the models' cmpxchg loops retry on a failure, and their atomic_add_unless() words are read only by RMWs); litmus/LB+cmpxchg-fail+poacquireonce and the MP and SB -fail-older tests catch it (vfsmc litmus --check --mutation full-cond-rmw-fail-needs-latest)"},
    {"rmb-orders-noreturn", "layer", "smp_rmb() under kernel orders the load of a non-value-returning RMW (atomic_inc(), atomic_add()) as it orders a READ_ONCE()",
     "no scenario has an smp_rmb() next to a non-value-returning atomic of a word another thread writes; litmus/MP+wmbonceonce+inc-rmb-once catches it (vfsmc litmus --check --mutation rmb-orders-noreturn)"},
    {"srcu-unlock-ignores-index", "layer", "srcu_read_unlock ends the thread's latest open SRCU section, not the one its index names",
     "no scenario uses SRCU; litmus/SRCU+overlap+sync catches it (vfsmc litmus --check --mutation srcu-unlock-ignores-index)"},
    {"wait-keeps-relax", "layer", "the cpu_relax() bound of a wait condition outlives the wait: after it, no load of the thread may read a store older than one it saw before",
     "no scenario's verdict depends on it (the mutation only takes away stale reads after a wait: every scenario's verdict is the same under it, and eight scenarios run up to 9% fewer executions); litmus/RCU+po-writes+sections-after-wait and SRCU+po-writes+sections-after-wait catch it (vfsmc litmus --check --mutation wait-keeps-relax)"},
    {"plain-rfi-carries-no-bound", "layer", "under kernel, a plain load of the thread's own store carries no race-check bound from the marked loads that store's value depends on (carry-dep)",
     "no model passes a pointer through a store and load of its own thread: a protocol model's plain accesses are bounded by locks and their own marked loads; litmus/MP+porelease-plain+carrydep-plain, -carrydep2-plain and -carrydep-plainstore catch it (vfsmc litmus --check --mutation plain-rfi-carries-no-bound)"},
    {"rmw-no-race-check", "layer", "an atomic RMW (xchg, cmpxchg, an atomic add, a lock word's acquire) is not checked for data races: another thread's concurrent plain access of the same location goes unreported",
     "no model accesses a word both by an atomic RMW and by a plain access that is not ordered against it: the models' atomics and lock words are read and written by marked accesses only, and their plain fields under locks; litmus/RMW+inc+plainload, RMW+xchg+plainload and RMW+plainstore+inc catch it (vfsmc litmus --check --mutation rmw-no-race-check); RMW+cmpxchgfail+plainload keeps a failed cmpxchg, which writes nothing, from racing with a plain load"},
    {"plain-rf-orders-others", "layer", "under kernel, a read with a C plain access at either end (a plain load, or a read of a plain store) orders other threads' accesses after it, as a marked read of a marked store does (the LKMM's prop and hb take rfe and fre between marked accesses only)",
     "no model's verdict depends on it: a protocol model's plain accesses are ordered by locks and marked accesses, and a plain read that is not is a data race the scenarios report; litmus/WRC+plain+mbonce+acquires and WRC+plainonce+mbonce+acquires catch it (vfsmc litmus --check --mutation plain-rf-orders-others)"},
    {"rmw-release-ignores-loads", "layer", "under kernel, a release RMW (atomic_add_return_release(), xchg_release(), cmpxchg_release()) that reads an older store and takes its coherence place before newer ones is not ordered after what its thread's earlier loads read (po-rel)",
     "no model has a release RMW that may read an older store (the models' counters are set before they are published, and their cmpxchg loops read the latest); litmus/RMWPLACE+onceaddrelease+release+acquirembonce catches it (RMWPLACE+onceaddrelaxed+release+acquirembonce keeps a relaxed RMW free) (vfsmc litmus --check --mutation rmw-release-ignores-loads)"},
    {"promise-refused-by-dependency", "layer", "under kernel, an access ordered after a promised load by a dependency (a load: or by smp_rmb()) refuses the promise, so no load is buffered past an access that depends on it",
     "no model makes promises (only a litmus test's locations have the value domains promises need); litmus/LB+ctrlonce-once+data catches it (vfsmc litmus --check --mutation promise-refused-by-dependency)"},
    {"early-access-not-rechecked", "layer", "under kernel, an access that ran before the promise it depends on was kept is not checked again against what the keeping store published (the store it read, the coherence place it took)",
     "no model makes promises; litmus/LB+addronce-once+porelease catches it (vfsmc litmus --check --mutation early-access-not-rechecked)"},
    {"early-store-wmb-orders-nothing", "layer", "under kernel, smp_wmb() after a store that ran before the promise it depends on was kept leaves the promise open, so the stores after the barrier are not ordered after the promised load",
     "no model makes promises; litmus/LB+ctrlonce-wmb-once+data and LB+addrplain-wmb-once+release catch it (vfsmc litmus --check --mutation early-store-wmb-orders-nothing)"},
    {"early-access-ignores-races", "layer", "under kernel, a data race flagged after an access that ran before the promise it depends on was kept does not refuse the keep (the race checks ran without what the keeping store published)",
     "no model makes promises; litmus/LB+porelease-plain+addr-plain catches it (vfsmc litmus --check --mutation early-access-ignores-races)"},
    {"early-access-seen-by-others", "layer", "under kernel, a promise is kept even when another thread has seen what an early access of the promised load's thread did",
     "no model makes promises; litmus/LB+ctrlonce-wmb-once+data catches it: P1 buffers its load past its store to x, which P0 reads (vfsmc litmus --check --mutation early-access-seen-by-others)"},
    {"early-access-hands-on-nothing", "layer", "under kernel, an early access, once its promise is kept, hands on nothing of what the keeping store published (to the accesses that depend on it, and the race bound it carries)",
     "no model makes promises; litmus/MP+porelease-plain+carrydep-plain catches it (vfsmc litmus --check --mutation early-access-hands-on-nothing)"},
    {"promise-keeper-goes-last", "layer", "under kernel, a store that keeps a load's promise goes last in its location's coherence order, never before a store the load did not know of",
     "no model makes promises; litmus/LB+poonceonce+data-acquire-keeper+co catches it (vfsmc litmus --check --mutation promise-keeper-goes-last)"},
    {"plain-store-read-orders", "layer", "under kernel, a load that reads a plain store is ordered after the loads that store was ordered after, so a promise whose keeping store follows such a load is refused (the LKMM's hb takes rfe between marked accesses only)",
     "no model makes promises; litmus/LB+ctrlplain-wmb-once+rmbonce-porelease catches it (vfsmc litmus --check --mutation plain-store-read-orders)"},
    {"rmw-keep-refused-by-plain-read", "layer", "under kernel, a read with a plain end of a waiting RMW's store (or of a later store) refuses the keep of the RMW's promise, and a store that keeps it may not go before a store whose plain reader it is ordered after, as if the read were marked (the LKMM's hb and prop take rfe between marked accesses only)",
     "no model makes promises; litmus/LB+xchgrelaxed-plain+xchgrelaxed-sync-plain+plain-mb-once catches it (vfsmc litmus --check --mutation rmw-keep-refused-by-plain-read)"},
    {"plain-ctrl-orders", "layer", "under kernel, an access with a control dependency on a plain load is ordered after that load, so a store in a branch on a plain load refuses the load's promise (the LKMM's ppo is in hb between marked accesses only)",
     "no model makes promises; litmus/LB+ctrlplainload-once+once-mb-once catches it (vfsmc litmus --check --mutation plain-ctrl-orders)"},
    {"release-refuses-promises", "layer", "under kernel, a release store refuses the promises of its thread's earlier loads, as a fence does, so a store after the release is never seen before those loads are satisfied (a release orders nothing after itself)",
     "no model makes promises; litmus/LB+once-release-once+data catches it (vfsmc litmus --check --mutation release-refuses-promises)"},
    {"early-store-overwrite-unordered", "layer", "under kernel, a marked store after its thread's early marked access to the same location is not ordered after the loads that access ran before (to-w's overwrite & int), so another thread may see it before they are satisfied",
     "no model makes promises; litmus/LB+once-release-once2+acquire catches it (vfsmc litmus --check --mutation early-store-overwrite-unordered)"},
    {"promise-refused-by-own-store", "layer", "under kernel, a store of a load's thread to the load's location refuses the load's promise, so the load never reads a store that runs later yet goes before that store in coherence order (CoRW allows it)",
     "no model makes promises; litmus/CoRW+LB+acquire-keeper catches it (vfsmc litmus --check --mutation promise-refused-by-own-store)"},
    {"promise-keeper-passes-own-store", "layer", "under kernel, the store that keeps a load's promise may go after the load's thread's later store to the location in coherence order, which CoRW forbids",
     "no model makes promises; litmus/CoRW+LB+acquire-keeper+co catches it (vfsmc litmus --check --mutation promise-keeper-passes-own-store)"},
    {"early-load-refuses-promises", "layer", "under kernel, a load that runs before its thread's promise is kept (after smp_rmb(), or depending on the promised load) refuses that promise when it makes a promise of its own, so it never reads a store that only a later step of another thread writes",
     "no model makes promises; litmus/LB+rmb-nested+acquire-data catches it (vfsmc litmus --check --mutation early-load-refuses-promises)"},
    {"early-load-promise-ignores-keep", "layer", "under kernel, once the promise an early load ran before is kept, the load's own open promise may still be kept by a store it now knows to be older than one the keeping store published",
     "no model makes promises; litmus/LB+rmb-nested+wmb-co+acquire catches it (vfsmc litmus --check --mutation early-load-promise-ignores-keep)"},
    {"early-race-flagged-at-once", "layer", "under kernel, a store's data race against an access that ran before its thread's promise was kept is flagged at once, and so refuses the keep, although the store that keeps the promise may order the two",
     "no model makes promises; litmus/LB+rmb-nested-plain+wmb catches it (vfsmc litmus --check --mutation early-race-flagged-at-once)"},
    {"early-race-dropped-at-keep", "layer", "under kernel, a store's data race against an access that ran before its thread's promise was kept is dropped when the promise is kept, whether or not the keeping store orders the two",
     "no model makes promises; litmus/LB+ctrl-plainstores+wmb catches it: its only race is the deferred one (vfsmc litmus --check --mutation early-race-dropped-at-keep)"},
    {"release-rmw-refuses-own-promise", "layer", "under kernel, a release RMW whose load made a promise refuses it at its own store, as a release orders the thread's earlier loads, so the RMW never reads a store that runs later",
     "no model makes promises; litmus/LB+xchgrelease-once+ctrl catches it (vfsmc litmus --check --mutation release-rmw-refuses-own-promise)"},
    {"release-rmw-refuses-promises", "layer", "under kernel, a release RMW (spin_unlock() among them) refuses the promises of its thread's earlier loads, so a store after it is never seen before those loads are satisfied",
     "no model makes promises; litmus/LB+lock-once-unlock-once+ctrl catches it (vfsmc litmus --check --mutation release-rmw-refuses-promises)"},
    {"unlock-lock-keeps-promises", "layer", "under kernel, a spinlock taken after its thread's unlock leaves the promises of the loads before the unlock open, though po-unlock-lock-po orders the accesses after the lock after them",
     "no model makes promises; litmus-lkmm/LB+unlocklockonceonce+poacquireonce catches it (vfsmc litmus --check --mutation unlock-lock-keeps-promises)"},
    {"early-unbounded-race-dropped-at-keep", "layer", "under kernel, the keep of a promise drops a store's data race against an early access that only a control or data dependency orders after the promised load, when the keeping store orders the two for coherence, although such an access is not bounded for the race check (the LKMM's w-pre-bounded and r-pre-bounded take address dependencies and fences only)",
     "no model makes promises; litmus/LB+ctrlonce-wmb-once+ctrlplain-once catches it (vfsmc litmus --check --mutation early-unbounded-race-dropped-at-keep)"},
    {"early-unbounded-race-refuses-keep", "layer", "under kernel, a load's data race against an early access that only a control or data dependency orders after the promised load refuses the keep, as a race the keep could order would, so the execution that keeps the promise is lost with its race",
     "no model makes promises; litmus/LB+ctrlplain-barrier-once+once-data catches it (vfsmc litmus --check --mutation early-unbounded-race-refuses-keep)"},
    {"wmb-bounds-plain-accesses", "layer", "under kernel, an smp_wmb() after a plain access orders it before another thread's store that a store after the barrier reached, as a release would (the LKMM's rw-xbstar needs a release or a strong fence after a plain access: r-post-bounded)",
     "no scenario's verdict or count moves with it (no model's plain access before an smp_wmb() races with another thread's store); litmus/W+wmb-once+addr-plainstore catches it (vfsmc litmus --check --mutation wmb-bounds-plain-accesses)"},
    {"wmb-bounds-marked-loads", "layer", "under kernel, what a store after an smp_wmb() publishes orders the marked loads before the barrier before another thread's store, as a release would (the LKMM's rw-xbstar orders a marked load before a store of another thread only through ppo: a dependency, an acquire, a strong fence, a release)",
     "no scenario's verdict or count moves with it; litmus/R+once-wmb-once+addr-plainstore catches it (vfsmc litmus --check --mutation wmb-bounds-marked-loads)"},
    {"marked-load-rfe-unordered", "layer", "under kernel, a marked store that a marked load is ordered before (a dependency, an acquire) orders it before nothing another thread does after reading that store (rfe is in the LKMM's hb; the race check then asks the clocks only)",
     "no scenario's verdict or count moves with it; litmus/R+once-data-once+addr-plainstore catches it (vfsmc litmus --check --mutation marked-load-rfe-unordered)"},
    {"race-check-last-marked-load-only", "layer", "under kernel, a plain store's race check asks about each other thread's last marked load of the word only (an earlier load the thread's later accesses are not ordered after still races)",
     "no scenario's verdict or count moves with it; litmus/R+once-once-data-once-samelocation+acquire-plainstore catches it (vfsmc litmus --check --mutation race-check-last-marked-load-only)"},
    {"early-load-race-refuses-keep", "layer", "under kernel, a marked load's race with an access that ran early, bounded by a buffered load, refuses the keep of the promise (the execution is lost) instead of waiting for it: the keep orders the load before the early access only when the load is ordered before the keeping store",
     "no model makes promises; litmus/LB+ctrladdrplain-once+once-data+once catches it (vfsmc litmus --check --mutation early-load-race-refuses-keep)"},
    {"early-load-race-read-deferred", "layer", "under kernel, a marked load that read an early access it races with waits for the keep like any other (ordered before the keeping store, it breaks plain coherence: linux-kernel.cat's wr-incoh), instead of refusing the keep",
     "no model makes promises; litmus/LB+deref-addrplain+once-assign catches it (vfsmc litmus --check --mutation early-load-race-read-deferred)"},
    {"early-plain-load-race-refuses-keep", "layer", "under kernel, a plain load's race with an access that ran early, bounded by a buffered load, refuses the keep of the promise (the execution is lost) instead of waiting for it, as a marked load's does: the keep orders the load before the early access when a strong fence or a release after the load orders it before the keeping store",
     "no model makes promises; litmus/LB+ctrladdrplain-once+once-once-data+plain-mb-once-filter catches it (vfsmc litmus --check --mutation early-plain-load-race-refuses-keep)"},
    {"early-load-race-read-refuses-keep", "layer", "under kernel, a load that read an access that ran early, and races with it, refuses the keep of the promise (the execution is lost) even when the load is not ordered before the keeping store (only then would the early access be ordered after the load that read it: linux-kernel.cat's wr-incoh); otherwise the race is flagged at the keep",
     "no model makes promises; litmus/LB+ctrladdrplain-once+plain-data catches it (vfsmc litmus --check --mutation early-load-race-read-refuses-keep)"},
    {"early-access-refused-by-any-race", "layer", "under kernel, any data race flagged since an access ran early refuses the keep of its promises, not only a race the early access took part in (a race of two accesses neither of which is ordered after the buffered load is the same whichever store keeps the promise)",
     "no model makes promises; litmus/LB+acquire-porelease+once-porelease-plainstore catches it (vfsmc litmus --check --mutation early-access-refused-by-any-race)"},
    {"plain-load-ordered-as-marked", "layer", "under kernel, a plain load is ordered before a marked store of its thread as a marked load is, by a dependency or by the store's location too (linux-kernel.cat's r-post-bounded asks a plain load for a strong fence, a release, or an smp_rmb() before a marked load)",
     "no model makes promises; litmus/LB+ctrladdrplain-once+once-once-mb-once+once-plain-once-wmb-once-filter catches it (vfsmc litmus --check --mutation plain-load-ordered-as-marked)"},
    {"unlock-lock-orders-no-loads", "layer", "under kernel, a spinlock taken after its thread's unlock orders the later accesses after the thread's stores before the unlock only, not after its loads and what they read (po-unlock-lock-po orders both)",
     "litmus/CoWR+lock-rfe-release-unlock-lock.litmus catches it (vfsmc litmus --check --mutation unlock-lock-orders-no-loads)"},
    {"strong-fences-commute", "layer", "any two strong fences (smp_mb(), a grace period's full barrier, a fully ordered RMW, the special-purpose full barriers) are independent for the search, under either memory model, so dpor explores one order of each pair that nothing else orders, where the order decides which thread takes what the other had seen",
     "no scenario's verdict depends on it: the orders of their strong fences are reached through the accesses around them too (vfsmc check scenarios --mutation strong-fences-commute moves exploration counts, no verdict; bench/results.md has them); litmus/MP+po-mbtrail+mb, MP+po-synctrail+mb, MP+po-xchgtrail+mb, MP+po-mbtrail+sync and MP+po-mbtrail+xchg catch it (vfsmc litmus --check --mutation strong-fences-commute)"},
    {"loads-want-no-value", "layer", "a litmus test's load into a register the condition names does not tell the layer the value the condition asks, so PCT's data choices are uniform there",
     "a preference of the sampling search only: dpor and the other exhaustive searches explore the same choices in the same order either way, and no model names a wanted value; tests/litmus-cut/RCU-ring7 catches it (vfsmc litmus --strategy pct --mutation loads-want-no-value: inconclusive after 10000 executions, where PCT answers Sometimes without it)"},
    {"plain-accesses-glued", "layer", "a litmus test's plain accesses are part of the step before them, as a model's are, so no other thread runs between a thread's marked access and the plain accesses after it",
     "no model asks for its plain accesses to interleave (a model's racy plain access is reported as a data race in the interleaving it has); litmus/RMW+xchgrelaxed-plainstoreload+ctrl+acquire-cmpxchg catches it (vfsmc litmus --check --mutation plain-accesses-glued)"},
    {"special-fence-orders-since-op", "layer", "under kernel, smp_mb__before_atomic(), smp_mb__after_atomic(), smp_mb__after_spinlock(), smp_mb__after_unlock_lock() and smp_mb__after_srcu_read_unlock() are a full fence where they take effect, so they also order the accesses between the barrier and the operation it names",
     "no model uses these barriers; litmus/SB+mbonceonce+srcuunlock-once-aftersrcuunlock, -lock-once-afterspinlock, -inc-once-afteratomic, -beforeatomic-once-inc, -unlock-lock-once-afterunlocklock, -unlock-once-lock-afterunlocklock and LB+mbonceonce+inc-once-afteratomic catch it (vfsmc litmus --check --mutation special-fence-orders-since-op)"},
    {"unlock-lock-fence-own-unlock-only", "layer", "under kernel, the before side of smp_mb__after_unlock_lock() leaves out what the unlock its lock read released: another thread's accesses before that unlock",
     "no model uses smp_mb__after_unlock_lock(); litmus/Z6.0+pooncelock+poonceLock+pombonce and WRR+lockonce+lock-once-afterunlocklock+mbonceonce catch it (vfsmc litmus --check --mutation unlock-lock-fence-own-unlock-only)"},
    {"read-seqcount-retry-no-smp-rmb", "layer", "read_seqcount_retry: the smp_rmb() before the re-read of the sequence"},
    {"gp-in-own-section-returns", "layer", "a grace period started inside a read-side section of its own thread and domain returns at once after the lock-misuse report, where it waits for that section forever",
     "a model run ends at the lock-misuse report, which comes first either way; in litmus, where a report is a flag and the execution goes on, auto/C-RR-GR+RR-R-like tests catch it: litmus/RCU+sync-in-own-section and SRCU+sync-in-own-section (vfsmc litmus --check --mutation gp-in-own-section-returns)"},
    {"rcu-unlock-orders-later-loads", "layer", "under kernel with load buffering, the end of an RCU or SRCU read-side section orders the section's loads before the thread's later accesses (a release that refuses their open promises), where it orders them only for the grace periods that read it",
     "no model runs with load buffering; litmus/LB+rcuonce+poacquireonce, LB+srcuonce+poacquireonce and LB+srcudownup+rcuonce catch it (vfsmc litmus --check --mutation rcu-unlock-orders-later-loads)"},
    {"gp-leaves-section-promises-open", "layer", "under kernel with load buffering, a grace period that acquires an ended read-side section leaves the promises of the section's loads open, and takes nothing of what the stores that keep them later published",
     "no model runs with load buffering; litmus/RCU+section-reads-release+sync and SRCU+section-reads-release+sync catch it (vfsmc litmus --check --mutation gp-leaves-section-promises-open)"},
    {"gp-refuses-late-section-end", "layer", "under kernel with load buffering, a grace period that starts after a reader left its section, while a load inside it still has an open promise, refuses that promise (the section ended before it), where it waits for the promise to be kept (the section ends when its loads are satisfied)",
     "no model runs with load buffering; litmus/RCU+sections-end-late+sync catches it (vfsmc litmus --check --mutation gp-refuses-late-section-end)"},
    {"gp-wait-reads-no-reader-words", "layer", "a grace period's wait for its readers reads none of their read-side words, for dpor and parking, where it reads the words of the readers it waits for",
     "the umount's synchronize_rcu() then parks with nothing to wake it when its reader leaves: openref/bind-mount-close-vs-umount and every openref scenario with an umount report a false deadlock (cli.bats)"},
    {"gp-end-orders-every-section", "layer", "the end of synchronize_rcu()/synchronize_srcu() acquires the read-side word of every reader, so that it is ordered after a section that began after the grace period started and ended before it ended, where it acquires the words of the readers it waited for",
     "no model's verdict depends on it (every openref count stays); litmus/RCU+sync-end-after-unwaited-section and SRCU+sync-end-after-unwaited-section catch it (vfsmc litmus --check --mutation gp-end-orders-every-section)"},
    {"kept-rmw-carries-nothing", "layer", "under kernel with load buffering, an RMW that keeps a load's promise hands the load only what its own store published, not what the store it read published (a release before it in its thread, rmw-sequence), where a load that reads it directly takes both",
     "no model runs with load buffering; litmus/MP+release-inc+rmb catches it (vfsmc litmus --check --mutation kept-rmw-carries-nothing)"},
    {"synchronize-rcu-no-wait", "layer", "synchronize_rcu: the wait for the readers inside a section when it starts"},
    {"wake-up-all-no-op", "layer", "wake_up_all() wakes nobody"},
    // chrdev.
    {"try-module-get-no-going-test", "chrdev", "try_module_get: the module_is_live() test (a GOING module takes new references)",
     "a module turns GOING here only in delete_module, after try_stop_module took refcnt to 0, and try_module_get's atomic_inc_not_zero refuses 0 on its own; the test matters for a module whose init failed or that is force-unloaded, neither modelled"},
    {"cdev-get-no-try-module-get", "chrdev", "cdev_get: the try_module_get(p->owner) (and its failure exit)"},
    {"cdev-purge-no-cdev-lock", "chrdev", "cdev_purge: spin_lock(&cdev_lock) around the list walk and the i_cdev clears"},
    {"cdev-purge-no-i-cdev-clear", "chrdev", "cdev_purge: inode->i_cdev = NULL (the inode keeps pointing at the released cdev)"},
    {"cd-forget-no-list-del", "chrdev", "cd_forget / inode_cdev_forget: list_del_init(&inode->i_devices)"},
    {"kobj-lookup-no-chrdevs-lock", "chrdev", "kobj_lookup: mutex_lock(&chrdevs_lock) around the probe read and exact_lock's cdev_get"},
    {"pre-seed-open-no-cdev-lock", "chrdev", "chrdev_open before seed 002: cdev_lock around the first read of inode->i_cdev and cdev_get (seed 002's fast path, in the version that relies on the lock)"},
    {"v2-no-i-cdev-recheck", "chrdev", "chrdev_open v2: the re-read of inode->i_cdev under cdev_lock before the install"},
    {"fput-no-cdev-put", "chrdev", "__fput: cdev_put(inode->i_cdev), the file's cdev reference"},
    {"fput-no-task-work-mb", "chrdev", "fput: the fully ordered task_work atomics (smp_mb) before __fput's plain load of i_cdev"},
    {"iput-final-no-i-freeing", "chrdev", "iput_final: setting I_FREEING before evict",
     "I_FREEING keeps find_inode/__iget from reviving the inode, and the inode hash is not modelled; inside the model the inode_lru_list_del under the same i_lock already keeps the shrinker off it, and evict's clear_inode sets I_FREEING|I_CLEAR before inode_cdev_forget asserts it"},
    {"inode-lru-isolate-no-i-count-recheck", "chrdev", "inode_lru_isolate: the i_count recheck under i_lock",
     "an inode is put on the LRU only at i_count 0 and nothing in the model takes a reference from 0 (find_inode/__iget, which revives a cached inode, is not modelled), so an inode on the LRU always has i_count 0"},
    {"try-stop-module-no-busy-check", "chrdev", "try_stop_module: putting MODULE_REF_BASE back while references remain (-EWOULDBLOCK)"},
    // openref.
    {"mntput-no-expire-no-smp-mb", "openref", "mntput_no_expire: the smp_mb() after lock_mount_hash, paired with __legitimize_mnt's"},
    {"mntput-no-expire-no-doomed-test", "openref", "mntput_no_expire: the MNT_DOOMED test before dooming the mount (a second final put dooms it again)",
     "the sum reaches 0 under mount_lock at most once per mount here: __legitimize_mnt undoes its increment on a MNT_DOOMED mount itself, under mount_lock, not through mntput, and nothing else takes a reference from 0 (no MNT_SYNC_UMOUNT, no mount tree)"},
    {"legitimize-mnt-no-seq-recheck", "openref", "__legitimize_mnt: the read_seqretry(&mount_lock) after the increment and smp_mb"},
    {"legitimize-mnt-no-doomed-test", "openref", "__legitimize_mnt: the MNT_DOOMED/MNT_SYNC_UMOUNT test under mount_lock (the increment is kept and mntput'ed)"},
    {"namespace-unlock-no-synchronize-rcu", "openref", "namespace_unlock: synchronize_rcu() before putting the namespace's reference of a detached mount"},
    {"retain-dentry-no-unhashed-test", "openref", "retain_dentry: the d_unhashed() test (an unhashed dentry is kept at count 0)"},
    {"fast-dput-no-locked-recheck", "openref", "fast_dput: the count recheck under d_lock before killing"},
    {"dentry-kill-no-mark-dead", "openref", "__dentry_kill: lockref_mark_dead()"},
    {"step-into-no-d-seq-check", "openref", "step_into (RCU): the read_seqcount_retry of the dentry's d_seq after reading d_inode",
     "the walk's only later use of what step_into read is __legitimize_path, whose read_seqcount_retry checks the same d_seq sample before any reference is used; a NULL d_inode read returns -ENOENT, which the unlink that made it NULL makes a right answer (the kernel's check also guards the symlink and mount handling of the inode read, not modelled)"},
    {"terminate-walk-no-path-put", "openref", "terminate_walk: path_put(&nd->path) in ref-walk mode"},
    {"cleanup-file-no-path-put", "openref", "do_dentry_open's cleanup_file: path_put of the consumed references on a failure before FMODE_OPENED"},
    {"mnt-get-write-access-no-smp-mb", "openref", "mnt_get_write_access: the smp_mb() after mnt_inc_writers",
     "it orders mnt_inc_writers against the MNT_WRITE_HOLD read that follows, pairing with mnt_make_readonly's; the model has no remount read-only, so nothing reads or writes MNT_WRITE_HOLD"},
    {"d-lookup-no-unhashed-test", "dcache,openref", "__d_lookup: the d_unhashed() test under d_lock before taking the reference"},
    // dcache.
    {"end-dir-add-no-smp-mb", "dcache", "end_dir_add: wq_has_sleeper's smp_mb() between the i_dir_seq release and waitqueue_active()",
     "__d_add calls end_dir_add with the dentry's d_lock held, and d_wait_lookup tests d_in_lookup() and queues itself under that d_lock, so the lock already orders a waiter's queueing before waitqueue_active() or its test after __d_lookup_unhash's clear; the barrier is wq_has_sleeper's generic one"},
    {"d-lookup-unhash-no-par-lookup-clear", "dcache", "__d_lookup_unhash: clearing DCACHE_PAR_LOOKUP (the waiters' condition)"},
    {"d-alloc-parallel-no-d-seq-retry", "dcache", "d_alloc_parallel: the read_seqcount_retry of the hit's d_seq after lockref_get_not_dead"},
    {"d-alloc-parallel-no-in-lookup-bucket-lock", "dcache", "d_alloc_parallel: hlist_bl_lock of the in-lookup bucket around the re-check, the scan and the publish"},
    {"openref-ignore-value-read", "openref", "path_get, path_put and __fput act on mnt and dentry \"f\" whatever mount and dentry the path (or the file's f_path) names"},
    {"path-get-ignore-value-read", "openref", "path_get alone takes its mount reference on mnt whatever mount the path names (path_put and __fput still put the one it names)"},
    {"chrdev-ignore-value-read", "chrdev", "every load of a cdev pointer (inode->i_cdev in chrdev_open and __fput, the probe in kobj_lookup) is used as the cdev the scenario started with, not the cdev it returned"},
};

// The row of `name`, or nullptr. A name not in the table is bad input: the
// command line rejects it before anything runs, the engine refuses a run
// with it.
inline const MutationInfo* find_mutation(const char* name) {
    for (const auto& m : kMutations)
        if (std::strcmp(m.name, name) == 0) return &m;
    return nullptr;
}
// True when the deletion `name` is selected. `name` must be in kMutations.
inline bool MUTATION(const char* name) {
    // `name` is a literal: each pointer is looked up in the table once, and
    // kept in a set of the pointers seen (open addressing; the models and
    // the layer have fewer than 128 call sites).
    static const char* known[512] = {};
    static int nknown = 0;
    size_t at = (size_t)(((uintptr_t)name * 0x9E3779B97F4A7C15ULL) >> 55);
    while (known[at] && known[at] != name) at = (at + 1) & 511;
    if (!known[at]) {
        if (!find_mutation(name)) {
            std::fprintf(stderr, "internal error: MUTATION(\"%s\") is not in kMutations\n", name);
            std::abort();
        }
        if (nknown < 384) {  // beyond that, looked up every time (and the probe always ends)
            known[at] = name;
            nknown++;
        }
    }
    const char* sel = rt().mutation;
    return sel && std::strcmp(sel, name) == 0;
}

}  // namespace vfsmc
