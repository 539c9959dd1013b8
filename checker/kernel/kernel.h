// vfsmc kernel-vocabulary layer.
//
// The only header a model includes. It defines, once, over Relacy, the
// kernel primitives the models are written in, grouped as the kernel groups
// them: <linux/compiler.h> and <asm/barrier.h>, <linux/atomic.h> and
// <linux/refcount.h>, <linux/spinlock.h> and <linux/bit_spinlock.h>,
// <linux/mutex.h>, <linux/rwsem.h>, <linux/seqlock.h>, <linux/lockref.h>,
// <linux/rcupdate.h>, <linux/wait.h>, <linux/slab.h>. It is written over
// the simulation shim explore/sim.h and never spells `rl::`: only
// checker/explore/ does.
//
// Every primitive is one step of the execution: it has exactly one scheduling
// point (before it), runs atomically after it, and names itself in the trace
// through the one hook, log_event() (checker/runtime.h). A plain access is
// part of the step before it; kfree() checks that every other thread's plain
// access to the object happens before the free (kfree_id, issue 11 item 13),
// so the step a plain access shares cannot hide a use after free. The memory order of
// each primitive comes from kMemoryModelTable below, for the scenario's
// memory model (`sc` or `kernel`); docs/memory-model.md is generated from
// that table.
//
// Shared state lives in kfield<T>: a word that records which write every
// read saw, whether that write was the latest in modification order, and,
// for plain (unmarked) accesses, LKMM data races. Every access also tells the
// explorer which location it touched (explore/deps.h), for DPOR.
//
// Blocking is not spinning: a thread whose wait condition is false parks
// until another thread writes a location the condition read, and only then
// evaluates it again; a kernel retry loop whose pass read nothing new and
// changed nothing parks the same way (retry_loop). Deadlocks (every live
// thread parked) and lost wakeups (a sleeper whose real condition holds) are
// detected and named by the layer, not by Relacy.
//
// Include this header last: Relacy's macros are undefined again at its end,
// but Relacy itself must come after the standard headers.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <utility>

#include "kernel/invariants.h"
#include "explore/deps.h"
#include "kernel/mutations.h"
#include "explore/runtime.h"
#include "explore/sim.h"

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
    {Acc::Plain, "plain load/store", MemOrder::relaxed, MemOrder::seq_cst, "checked for LKMM data races as well"},
    {Acc::ReadOnce, "READ_ONCE", MemOrder::relaxed, MemOrder::seq_cst, "no ordering; address dependencies are not modelled"},
    {Acc::WriteOnce, "WRITE_ONCE", MemOrder::relaxed, MemOrder::seq_cst, "no ordering"},
    {Acc::LoadAcquire, "smp_load_acquire", MemOrder::acquire, MemOrder::seq_cst, "pairs with smp_store_release"},
    {Acc::StoreRelease, "smp_store_release", MemOrder::release, MemOrder::seq_cst, "pairs with smp_load_acquire"},
    {Acc::AtomicRead, "atomic_read", MemOrder::relaxed, MemOrder::seq_cst, "like READ_ONCE"},
    {Acc::AtomicSet, "atomic_set", MemOrder::relaxed, MemOrder::seq_cst, "like WRITE_ONCE"},
    {Acc::AtomicRmwVoid, "atomic_inc/atomic_dec", MemOrder::relaxed, MemOrder::seq_cst, "non-value-returning RMWs are unordered"},
    {Acc::AtomicRmwFull, "value-returning atomics", MemOrder::seq_cst, MemOrder::seq_cst, "fully ordered (memory-barriers.txt)"},
    {Acc::LockrefCas, "lockref cmpxchg", MemOrder::relaxed, MemOrder::seq_cst, "try_cmpxchg64_relaxed in CMPXCHG_LOOP"},
    {Acc::LockAcquire, "lock acquire", MemOrder::acquire, MemOrder::seq_cst, "ACQUIRE of the lock word"},
    {Acc::LockRelease, "lock release", MemOrder::release, MemOrder::seq_cst, "RELEASE of the lock word"},
    {Acc::FenceMb, "smp_mb", MemOrder::seq_cst, MemOrder::seq_cst, "full fence"},
    {Acc::FenceRmb, "smp_rmb", MemOrder::acquire, MemOrder::seq_cst, "approximated by an acquire fence"},
    {Acc::FenceWmb, "smp_wmb", MemOrder::release, MemOrder::seq_cst, "approximated by a release fence"},
    {Acc::AtomicRmwRelaxed, "_relaxed atomics", MemOrder::relaxed, MemOrder::seq_cst, "value-returning, unordered"},
    {Acc::AtomicRmwAcquire, "_acquire atomics", MemOrder::acquire, MemOrder::seq_cst, "ACQUIRE of the read"},
    {Acc::AtomicRmwRelease, "_release atomics", MemOrder::release, MemOrder::seq_cst, "RELEASE of the write"},
    {Acc::RcuDereference, "rcu_dereference", MemOrder::relaxed, MemOrder::seq_cst, "like READ_ONCE; the address dependency is not modelled"},
    {Acc::RcuAssignPointer, "rcu_assign_pointer", MemOrder::release, MemOrder::seq_cst, "like smp_store_release"},
    {Acc::RefcountInc, "refcount_inc/refcount_inc_not_zero", MemOrder::relaxed, MemOrder::seq_cst,
     "unordered (refcount-vs-atomic.rst); the control dependency of a successful inc_not_zero is not modelled"},
    {Acc::RefcountDec, "refcount_dec/refcount_dec_and_test", MemOrder::release, MemOrder::seq_cst, "RELEASE (refcount-vs-atomic.rst)"},
    {Acc::RefcountDecAcq, "refcount_dec_and_test success", MemOrder::acquire, MemOrder::seq_cst,
     "an ACQUIRE fence when the count reaches zero (refcount-vs-atomic.rst)"},
    {Acc::RcuLock, "rcu_read_lock", MemOrder::acquire, MemOrder::seq_cst,
     "no fence: an acquire RMW of the reader's own grace-period word, so a section sees what preceded every grace period that began before it (under sc too: happens-before only)"},
    {Acc::RcuUnlock, "rcu_read_unlock", MemOrder::release, MemOrder::seq_cst,
     "a release RMW of the reader's own grace-period word, which the grace period's end acquires (under sc too: happens-before only)"},
    {Acc::RcuGp, "grace-period start/end", MemOrder::acq_rel, MemOrder::seq_cst,
     "call_rcu/synchronize_rcu: at both ends, an acquire and then a release RMW of every reader's grace-period word (under sc too: happens-before only)"},
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

// ------------------------------------------------------------------------
// Threads, steps and the trace hook.
// ------------------------------------------------------------------------
inline int this_thread() { return sim::thread_index(); }

// What a model may ask of the run, without reaching into the runtime:
// a thread's name as the scenario gives it, whether it has finished, the
// index of the last event logged (for a report that points back at a step).
inline const char* thread_name(int t) { return t >= 0 && t < kMaxThreads ? rt().thread_names[t] : "?"; }
inline bool thread_done(int t) { return rt().tstate[t] == TState::Done; }
inline int last_event() { return rt().rec ? rt().rec->nevents - 1 : -1; }

// One scheduling point: other threads may run here. An execution that the
// explorer abandoned (pruned) unwinds from here.
inline void sched_point() {
    rt().sched_points++;
    sim::sched();
    if (rt().pruned) throw Pruned();
}

// Run the rest of a step without a scheduling point.
using no_preempt = sim::no_preempt;

// A nondeterministic choice the model explores (an RPC outcome, a driver's
// ->open succeeding or failing): every value in [0, n) is tried.
inline unsigned kchoose(unsigned n) { return n <= 1 ? 0 : sim::choose(n); }

// Ends a thread that the `order` constraints cannot be satisfied in (the
// execution is counted as pruned, not judged).
[[noreturn]] inline void prune_execution() {
    rt().pruned = true;
    throw Pruned();
}

// Blocking (kernel.cpp). park_on() parks the running thread until another
// thread writes a key of `ws`; before it parks it checks whether every other
// live thread is parked too (a deadlock or a lost wakeup, named by the
// layer). A set whose reads are already stale is not parked on: the thread
// looks again at once, and cannot read an older value than it saw (a
// cpu_relax bounds staleness).
struct RealCond {
    bool (*fn)(const void*) = nullptr;
    const void* ctx = nullptr;
    bool operator()() const { return fn && fn(ctx); }
};
void park_on(int t, const WatchSet& ws, RealCond real);
// Another thread may be waiting on `key` (a global key: RCU, order, exit).
void kick(Key key);
// Thread t wrote field `key`: wake the threads parked on it.
void wake_watchers(int t, Key key);
// Thread t reads a global key (in a wait condition, or for DPOR).
inline void read_global(int t, Key key) {
    note_access(key, false);
    watch_read(t, key, nullptr, 0);
}
inline void write_global(Key key) {
    note_access(key, true);
    if (deps().nparked) kick(key);
}

void wait_stuck_report(int t);
void set_quiet(bool q);

// Wait for `cond` to become true. `cond` is evaluated, and if false the
// thread parks on the locations it read until one of them is written by
// another thread. `real` is what a sleeper is really waiting for (used only
// to tell a lost wakeup from a deadlock). The re-evaluations are quiet: their
// reads are not in the trace.
template <class Cond, class Real>
inline void wait_until(const char* what, int obj, bool sleeping, Cond cond, Real real) {
    int t = this_thread();
    WatchSet& ws = deps().wait_ws[t];
    ws.clear();
    ws.active = true;
    begin_await();
    bool ok = cond();
    ws.active = false;
    if (ok) {
        deps().await_set = false;
        return;
    }
    wait_begin(t, what, obj, sleeping, false);
    log_event(t, Ev::Wait, obj, what, nullptr, 0, 0, nullptr);
    RealCond rc;
    rc.ctx = &real;
    rc.fn = [](const void* c) { return (*static_cast<const Real*>(c))(); };
    for (;;) {
        park_on(t, ws, rc);
        ws.clear();
        ws.active = true;
        set_quiet(true);
        begin_await();
        ok = cond();
        set_quiet(false);
        ws.active = false;
        if (ok) break;
    }
    deps().await_set = false;
    wait_end(t);
}
template <class Cond>
inline void wait_until(const char* what, int obj, bool sleeping, Cond cond) {
    wait_until(what, obj, sleeping, cond, [] { return false; });
}

// A kernel retry loop (`goto retry`, a cmpxchg or seqcount retry that starts
// over): a pass that read the same values as the last one and left every
// location it wrote as it found it adds nothing, so the thread parks until
// one of the locations the pass read is written by another thread.
//
//     retry_loop retry;
//     for (bool again = false;; again = true) {
//         if (again) retry.again();
//         ...
//     }
class retry_loop {
    int t_;

public:
    retry_loop();
    ~retry_loop();
    retry_loop(const retry_loop&) = delete;
    retry_loop& operator=(const retry_loop&) = delete;
    void again();
};

// The kernel function a model function mirrors: `KFUNC("d_alloc_parallel");`
// at the top of the model function. It names the steps inside it in the
// trace, and it is a step for `order` and coverage.
struct kfunc_scope {
    int t;
    const char* name;
    explicit kfunc_scope(const char* n) : t(this_thread()), name(n) {
        Runtime& r = rt();
        if (r.norder) read_global(t, kKeyOrder);
        if (r.norder && !order_may_start(t, n)) {
            wait_begin(t, "order", -1, false, true);
            for (int i = 0; i < r.norder; i++)
                if (!r.order_done[i] && r.order[i].after_thread == t && std::strcmp(r.order[i].after_step, n) == 0) {
                    log_event(t, Ev::Wait, -1, "order", nullptr, 0, 0, "%s waits until %s completes %s (order constraint)",
                              n, r.thread_names[r.order[i].before_thread], r.order[i].before_step);
                    break;
                }
            for (;;) {
                // Parks until another thread completes a step or finishes.
                WatchSet& ws = deps().wait_ws[t];
                ws.clear();
                ws.add(kKeyOrder, nullptr, 0);
                for (int u = 0; u < r.nthreads; u++) ws.add(exit_key(u), nullptr, 0);
                // The thread it waits for finished without the step.
                bool blocked = true;
                for (int i = 0; i < r.norder; i++)
                    if (!r.order_done[i] && r.order[i].after_thread == t &&
                        std::strcmp(r.order[i].after_step, n) == 0 &&
                        r.tstate[r.order[i].before_thread] != TState::Done)
                        blocked = false;
                if (blocked) prune_execution();
                park_on(t, ws, RealCond());
                read_global(t, kKeyOrder);
                if (order_may_start(t, n)) break;
            }
            wait_end(t);
        }
        enter_func(t, n);
        log_event(t, Ev::Enter, -1, n, nullptr, 0, 0, nullptr);
    }
    ~kfunc_scope() {
        if (rt().pruned) return;
        leave_func(t);
        if (rt().norder) {
            order_step_done(t, name);
            write_global(kKeyOrder);
        }
    }
};
#define VFS_CAT2(a, b) a##b
#define VFS_CAT(a, b) VFS_CAT2(a, b)
#define KFUNC(name) ::vfsmc::kfunc_scope VFS_CAT(kfunc_, __LINE__)(name)

// A named point inside a function, for `order`, coverage and the trace:
// `kstep("d_alloc_parallel:publish", obj, "dentry %s -> in-lookup hash", ...)`.
inline void kstep_done(const char* step) {
    cover(step);
    if (rt().norder) {
        order_step_done(this_thread(), step);
        write_global(kKeyOrder);
    }
}
#define kstep(step, obj, ...)                                                   \
    do {                                                                         \
        ::vfsmc::kfunc_scope VFS_CAT(kstep_, __LINE__)(step);                    \
        ::vfsmc::log_event(::vfsmc::this_thread(), ::vfsmc::Ev::Step, (obj), step, \
                           nullptr, 0, 0, __VA_ARGS__);                           \
    } while (0)

// A kernel WARN_ON / VFS_BUG_ON turned into an invariant.
#define KWARN_ON(cond, invariant, ...)                                            \
    do {                                                                          \
        if (cond) ::vfsmc::violate(::vfsmc::this_thread(), invariant, nullptr, 0, __VA_ARGS__); \
    } while (0)

// ------------------------------------------------------------------------
// <linux/slab.h>: model objects.
// ------------------------------------------------------------------------
// Every model object derives from kobj. Its id names it in the trace
// ("dentry \"foo\"#2"); its kind names its use-after-free invariant.
struct kobj {
    int16_t id;
    template <class... A>
    kobj(const char* kind, const char* fmt, A... a) {
        id = (int16_t)register_object(kind, fmt, a...);
    }
    kobj(const kobj&) = delete;
    kobj& operator=(const kobj&) = delete;
    const char* name() const { return object_name(id); }
    // kfree'd (or freed after its grace period).
    bool is_freed() const { return rt().rec->objects[id].freed; }
};

// A field whose first value is given after its object is built, by
// kfield::init: for objects that point at each other from the start (a
// cdev and its inode), so that no id is predicted.
struct deferred_init_t {};
constexpr deferred_init_t deferred_init{};

// Check that `id` is alive before a thread touches it.
void check_alive_slow(int id, const char* field);
inline void check_alive(int id, const char* field) {
    ExecRecord* rec = rt().rec;
    if (!rec || id < 0 || id >= rec->nobjects || !rec->objects[id].freed) return;
    check_alive_slow(id, field);
}

// Objects allocated with kalloc() are the ones that can be freed (kfree,
// call_rcu_free). A plain access is no scheduling point of its own: it runs
// in one step with the marked access before it, so a free by another thread
// cannot fall in between. What such a free would show is caught at the free
// instead: the layer keeps, per freeable object and thread, the clock of
// the thread's last plain access to it, and kfree_id() reports
// <kind>-use-after-free when one of them does not happen before the free
// (issue 11 item 13: without that happens-before, the access can run after
// the free). Objects that are members of the model run (a static table, a
// global lock) and objects allocated with kalloc_static() are never freed:
// their plain accesses are not recorded, and kfree of one is a model error
// (kfree_id aborts naming it).
bool object_freeable(int id);
void mark_freeable(int id);
void mark_static(int id);
// A plain access by the running thread to freeable object `id` (its clock
// tick `stamp`, its event `ev`), for kfree_id's check.
void note_plain_access(int id, const char* field, bool store, int ev, uint64_t stamp);

struct Heap {
    struct Slot {
        void* mem;
        void (*destroy)(void*);
        int id;
        bool live;
    };
    static constexpr int kMax = 256;
    Slot slots[kMax];
    int n = 0;
};
Heap& heap();
bool in_setup();

// kmalloc + constructor. The memory stays mapped until the execution ends,
// so a use after kfree() is always seen (first by check_alive(), which names
// the object, then by Relacy's signature check on the freed atomics).
template <class T, class... A>
T* kalloc(A&&... a) {
    void* mem = std::malloc(sizeof(T));
    // A new object is private to its thread until it is published: its
    // construction is one step (its fields' initial stores are not
    // scheduling points).
    T* p;
    if (in_setup()) {
        p = new (mem) T(std::forward<A>(a)...);
    } else {
        no_preempt np;
        p = new (mem) T(std::forward<A>(a)...);
    }
    Heap& h = heap();
    if (h.n < Heap::kMax) h.slots[h.n++] = {mem, [](void* q) { static_cast<T*>(q)->~T(); }, p->id, true};
    mark_freeable(p->id);
    if (!in_setup()) {
        int ev = log_event(this_thread(), Ev::Alloc, p->id, "alloc", nullptr, 0, 0, "%s allocated", p->name());
        rt().rec->objects[p->id].alloc_event = ev;
    }
    return p;
}

// An object that lives as long as the execution (a superblock, a hash
// table's bucket, a wait queue head, a module): allocated like kalloc, but
// never freed. Its plain accesses are not recorded for kfree's check (see
// object_freeable); kfree of it is a model error.
template <class T, class... A>
T* kalloc_static(A&&... a) {
    T* p = kalloc<T>(std::forward<A>(a)...);
    mark_static(p->id);
    return p;
}

// kfree: destroys the object now (its Relacy atomics die with it).
void kfree_id(int id);
template <class T>
void kfree(T* p) {
    if (p) kfree_id(p->id);
}

// Barriers that order a thread's earlier reads before its later ones
// (smp_mb, smp_rmb, value-returning atomics), counted per thread, for the
// race check's LKMM bound on plain reads (kfield::race_check).
unsigned read_fence_count(int t);
void note_read_fence();

// ------------------------------------------------------------------------
// kfield<T>: one word of shared state.
// ------------------------------------------------------------------------
template <class T>
class kfield {
    static_assert(sizeof(T) <= 4, "kfield holds a value of at most 32 bits");
    mutable sim::atomic<uint64_t> cell_;
    int16_t owner_;
    const char* name_;
    int64_t shadow_;       // latest value in modification order
    uint32_t shadow_tag_;  // write tag of the latest write (0 = initial)
    Word word_ = Word::Number;  // what its values are, for the trace (explore/trace.h)
    mutable bool visible_ = false;  // the model's every-step invariant reads it
    bool deferred_ = false;         // built with deferred_init, init() not yet called
    Key key_;              // this field, for DPOR and watch sets (explore/deps.h)
    Key alive_;            // its object's liveness
    // LKMM race bookkeeping: clock of each thread's last access of each kind.
    sim::timestamp_t plain_load_[kMaxThreads] = {}, plain_store_[kMaxThreads] = {};
    sim::timestamp_t marked_store_[kMaxThreads] = {}, marked_load_[kMaxThreads] = {};
    int32_t plain_load_ev_[kMaxThreads], plain_store_ev_[kMaxThreads];
    int32_t marked_store_ev_[kMaxThreads], marked_load_ev_[kMaxThreads];
    // LKMM's bounding of a plain read (r-pre-bounded): a marked read of
    // this word that read thread rf_from_'s marked store (clock rf_stamp_),
    // then a full or read barrier in the reading thread, orders a later
    // plain read of the word after that store, although C++11 sees no
    // happens-before (the marked pair is relaxed).
    int8_t rf_from_[kMaxThreads];
    sim::timestamp_t rf_stamp_[kMaxThreads] = {};
    unsigned rf_fence_[kMaxThreads] = {};

    static uint64_t enc(uint32_t tag, T v) { return ((uint64_t)tag << 32) | (uint32_t)(int32_t)v; }
    static T dec(uint64_t w) { return (T)(int32_t)(uint32_t)w; }
    static uint32_t tag_of(uint64_t w) { return (uint32_t)(w >> 32); }

    // Write tags are event indices + 1; tag 0 is the initial value.
    static int ev_of_tag(uint32_t tag) { return (int)tag - 1; }

    void race_check(bool store, bool marked) {
        int me = sim::thread_index();
        int n = rt().nthreads;
        auto conflict = [&](const sim::timestamp_t* ts, const int32_t* evs, const char* what) {
            for (int i = 0; i < n; i++) {
                if (i == me || ts[i] == 0) continue;
                if (sim::acquired_clock(i) < ts[i]) {
                    if (!store && !marked && ts == marked_store_ && rf_from_[me] == i && rf_stamp_[me] >= ts[i] &&
                        read_fence_count(me) > rf_fence_[me])
                        continue;  // bounded by the marked read and the barrier after it (LKMM)
                    int c[1] = {evs[i]};
                    violate(me, "data-race", c, 1, "%s %s.%s races with %s by %s (no happens-before)",
                            marked ? (store ? "marked store to" : "marked load of") : (store ? "plain store to" : "plain load of"),
                            object_name(owner_), name_, what, rt().thread_names[i]);
                    return true;
                }
            }
            return false;
        };
        if (!marked || store) {
            // Plain accesses conflict with everything; marked stores with plain loads.
            if (!marked && conflict(marked_store_, marked_store_ev_, "a marked store")) return;
            if (conflict(plain_store_, plain_store_ev_, "a plain store")) return;
            if (store && conflict(plain_load_, plain_load_ev_, "a plain load")) return;
            if (!marked && store && conflict(marked_load_, marked_load_ev_, "a marked load")) return;
        } else {
            if (conflict(plain_store_, plain_store_ev_, "a plain store")) return;
        }
    }
    // The access's own clock tick, taken before the Relacy access, so that a
    // release the access performs carries it (a tick taken after would be
    // one past what the release published, and an acquirer would see a
    // race that is not there).
    static sim::timestamp_t race_stamp() { return sim::tick(); }
    void race_note(bool store, bool marked, int ev, sim::timestamp_t now) {
        int me = sim::thread_index();
        if (store) {
            (marked ? marked_store_ : plain_store_)[me] = now;
            (marked ? marked_store_ev_ : plain_store_ev_)[me] = ev;
        } else {
            (marked ? marked_load_ : plain_load_)[me] = now;
            (marked ? marked_load_ev_ : plain_load_ev_)[me] = ev;
        }
    }
    void alive() const { check_alive(owner_, name_); }
    // For DPOR: the running step reads (or writes) this field. A write to a
    // field the every-step invariant reads is also a write of kKeyVisible,
    // so that the explorer keeps every order of such writes.
    void note_read(int t, int64_t seen) const {
        note_access(key_, false);
        note_access(alive_, false);
        watch_read(t, key_, &shadow_, seen);
    }
    void note_write(int t, int64_t before) {
        note_access(key_, true);
        note_access(alive_, false);
        if (visible_) note_access(kKeyVisible, true);
        watch_own_write(t, key_, &shadow_, before);
        if (deps().nparked) wake_watchers(t, key_);
    }
    static bool marked(Acc a) { return a != Acc::Plain; }
    // Every marked access is a step of its own; a plain access is part of
    // the step before it (see object_freeable above for why that hides no
    // use after free).
    static bool sched_before(Acc a) { return marked(a); }
    void note_plain(bool store, int ev, sim::timestamp_t stamp) const {
        if (object_freeable(owner_)) note_plain_access(owner_, name_, store, ev, (uint64_t)stamp);
    }

public:
    kfield(const kobj* owner, const char* name, T init = T())
        : owner_(owner->id), name_(name), shadow_((int64_t)init), shadow_tag_(0),
          key_(field_key(owner->id, name)), alive_(alive_key(owner->id)) {
        cell_.store(enc(0, init), MemOrder::relaxed);
        for (int i = 0; i < kMaxThreads; i++) {
            plain_load_ev_[i] = plain_store_ev_[i] = marked_store_ev_[i] = marked_load_ev_[i] = -1;
            rf_from_[i] = -1;
        }
    }
    kfield(const kobj* owner, const char* name, deferred_init_t)
        : owner_(owner->id), name_(name), shadow_(0), shadow_tag_(0),
          key_(field_key(owner->id, name)), alive_(alive_key(owner->id)) {
        deferred_ = true;
        for (int i = 0; i < kMaxThreads; i++) {
            plain_load_ev_[i] = plain_store_ev_[i] = marked_store_ev_[i] = marked_load_ev_[i] = -1;
            rf_from_[i] = -1;
        }
    }
    // The first value of a field built with deferred_init: its initial
    // store, once, before any thread runs.
    void init(T v) {
        if (!deferred_ || rt().in_thread) throw std::logic_error("kfield::init: only once, on a deferred field, before the threads run");
        deferred_ = false;
        shadow_ = (int64_t)v;
        cell_.store(enc(0, v), MemOrder::relaxed);
    }
    kfield(const kfield&) = delete;

    const char* name() const { return name_; }
    int owner() const { return owner_; }
    // This field holds object ids (a kernel pointer; -1 is NULL): the trace
    // prints the object's name.
    kfield& pointer() {
        word_ = Word::Pointer;
        return *this;
    }
    // This field is a lockref word (count * 2 + locked): the trace prints
    // "count 1, locked", and its count is a reference count.
    kfield& lockref_word() {
        word_ = Word::Lockref;
        return *this;
    }
    // This field counts references (refcount_t and kref declare it; an
    // atomic_t or a plain counter that the kernel uses as a reference count,
    // such as i_count, declares it with counts_refs()): the report draws
    // its changes and the spans in which it is above zero.
    kfield& counts_refs() {
        word_ = Word::Refcount;
        return *this;
    }
    Word word() const { return word_; }

    // The latest value in modification order, without a simulated access:
    // for invariant checks, wait conditions and the final-state dump. Inside
    // the every-step invariant it marks the field visible; inside a thread
    // it counts as a read for DPOR and for a wait condition's watch set.
    T peek() const {
        Runtime& r = rt();
        if (r.in_check) visible_ = true;
        else if (r.in_thread) note_read(this_thread(), shadow_);
        return (T)shadow_;
    }

    T load(Acc a) {
        int t = this_thread();
        if (sched_before(a)) sched_point();
        no_preempt np;
        alive();
        sim::timestamp_t stamp = race_stamp();
        uint64_t w = cell_.load(mo_for(a));
        if (!marked(a) || rt().mm == MemModel::kernel) race_check(false, marked(a));
        T v = dec(w);
        uint32_t tag = tag_of(w);
        int ev = log_event(t, Ev::Read, owner_, marked(a) ? acc_name(a) : "load", name_, (int64_t)v, (int64_t)v, nullptr);
        if (marked(a)) {
            // Which marked store did this marked read read? (For the LKMM bound above.)
            int wev = ev_of_tag(tag);
            rf_from_[t] = -1;
            for (int u = 0; u < kMaxThreads && wev >= 0; u++)
                if (u != t && marked_store_ev_[u] == wev) {
                    rf_from_[t] = (int8_t)u;
                    rf_stamp_[t] = marked_store_[u];
                    rf_fence_[t] = read_fence_count(t);
                }
        }
        if (Event* e = event_at(ev)) {
            e->marked = marked(a);
            e->word = word_;
            e->order = mo_name(mo_for(a));
            e->rf = ev_of_tag(tag);
            if (tag != shadow_tag_) {
                e->stale = 1;
                e->latest = ev_of_tag(shadow_tag_);
            }
        }
        race_note(false, marked(a), ev, stamp);
        if (!marked(a)) note_plain(false, ev, stamp);
        note_read(t, (int64_t)v);
        return v;
    }

    void store(T v, Acc a) {
        int t = this_thread();
        if (sched_before(a)) sched_point();
        no_preempt np;
        alive();
        race_check(true, marked(a));
        int ev_idx = rt().rec->nevents;  // the event about to be logged
        uint32_t tag = (uint32_t)(ev_idx + 1);
        int64_t before = shadow_;
        sim::timestamp_t stamp = race_stamp();
        cell_.store(enc(tag, v), mo_for(a));
        shadow_ = (int64_t)v;
        shadow_tag_ = tag;
        note_write(t, before);
        int ev = log_event(t, Ev::Write, owner_, marked(a) ? acc_name(a) : "store", name_, before, (int64_t)v, nullptr);
        if (Event* e = event_at(ev)) {
            e->marked = marked(a);
            e->word = word_;
            e->order = mo_name(mo_for(a));
            if (::vfsmc::counts_refs(word_) && ref_count_of(word_, before) != ref_count_of(word_, (int64_t)v)) e->sync = Sync::RefChange;
        }
        race_note(true, marked(a), ev, stamp);
        if (!marked(a)) note_plain(true, ev, stamp);
    }

    // An atomic read-modify-write: new = f(old), or no write when f returns
    // false. Returns the old value. Always reads the latest value.
    // A lock word's acquire (Acc::LockAcquire) or release (Acc::LockRelease)
    // names the kind of lock in `lock` for the trace.
    template <class F>
    T rmw(Acc a, const char* action, F f, bool* wrote = nullptr, LockClass lock = LockClass::None) {
        int t = this_thread();
        sched_point();
        no_preempt np;
        alive();
        if (is_atomic_rmw(a)) atomic_rmw_hook(t);
        if (a == Acc::AtomicRmwFull && rt().mm == MemModel::kernel) {
            sim::fence(MemOrder::seq_cst);
            note_access(kKeyScFence, true);
        }
        // As a cmpxchg loop does: read, compute, try; a failed try sees the
        // latest value. The whole loop is one step (no scheduling point).
        // lockref's CMPXCHG_LOOP starts from a READ_ONCE, which may be stale;
        // an atomic instruction (cmpxchg, lock word, inc) reads the latest.
        uint64_t cur = a == Acc::LockrefCas ? cell_.load(MemOrder::relaxed)
                                             : cell_.fetch_add(0, MemOrder::relaxed);
        T nv{};
        bool w = false;
        uint32_t tag = 0;
        for (;;) {
            nv = dec(cur);
            w = f(nv);
            if (!w) break;  // the condition failed: no write, like a failed cmpxchg
            tag = (uint32_t)(rt().rec->nevents + 1);
            uint64_t expect = cur;
            if (cell_.compare_exchange_strong(expect, enc(tag, nv), mo_for(a))) break;
            cur = expect;
        }
        // A value-returning atomic is fully ordered in the LKMM: smp_mb()
        // before and after it, which a seq_cst RMW alone is not (a later
        // relaxed load could still read a stale value).
        if (a == Acc::AtomicRmwFull && rt().mm == MemModel::kernel) {
            sim::fence(MemOrder::seq_cst);
            note_access(kKeyScFence, true);
        }
        T old = dec(cur);
        uint32_t old_tag = tag_of(cur);
        if (w && a == Acc::AtomicRmwFull) note_read_fence();  // a successful value-returning atomic is a full barrier
        if (w) {
            int64_t before = shadow_;
            shadow_ = (int64_t)nv;
            shadow_tag_ = tag;
            note_read(t, (int64_t)old);
            note_write(t, before);
        } else {
            note_read(t, (int64_t)old);
        }
        int ev = log_event(t, w ? Ev::Rmw : Ev::Read, owner_, action, name_, (int64_t)old,
                           (int64_t)(w ? nv : old), nullptr);
        if (Event* e = event_at(ev)) {
            e->marked = 1;
            e->word = word_;
            e->order = mo_name(w ? mo_for(a) : MemOrder::relaxed);
            if (w && (a == Acc::LockAcquire || a == Acc::LockRelease)) {
                e->sync = a == Acc::LockAcquire ? Sync::Acquire : Sync::Release;
                e->lock = lock;
            } else if (w && ::vfsmc::counts_refs(word_) && ref_count_of(word_, (int64_t)old) != ref_count_of(word_, (int64_t)nv)) {
                e->sync = Sync::RefChange;
            }
            e->rf = ev_of_tag(old_tag);
            if (!w && old_tag != shadow_tag_) {
                e->stale = 1;
                e->latest = ev_of_tag(shadow_tag_);
            }
        }
        if (wrote) *wrote = w;
        return old;
    }
};

// READ_ONCE / WRITE_ONCE and friends, spelled as in the kernel.
template <class T> inline T READ_ONCE(kfield<T>& f) { return f.load(Acc::ReadOnce); }
template <class T, class V> inline void WRITE_ONCE(kfield<T>& f, V v) { f.store((T)v, Acc::WriteOnce); }
template <class T> inline T smp_load_acquire(kfield<T>& f) { return f.load(Acc::LoadAcquire); }
template <class T, class V> inline void smp_store_release(kfield<T>& f, V v) { f.store((T)v, Acc::StoreRelease); }
// Plain C accesses (`x = f` and `f = x` in the kernel source).
template <class T> inline T plain_load(kfield<T>& f) { return f.load(Acc::Plain); }
template <class T, class V> inline void plain_store(kfield<T>& f, V v) { f.store((T)v, Acc::Plain); }

// <asm/barrier.h>
void fence(Acc a, const char* name);
inline void smp_mb() { fence(Acc::FenceMb, "smp_mb"); }
inline void smp_rmb() { fence(Acc::FenceRmb, "smp_rmb"); }
inline void smp_wmb() { fence(Acc::FenceWmb, "smp_wmb"); }
// The LKMM's special-purpose full barriers, which order only in
// combination with the access they name. The lock ones are full fences here
// (stronger than the LKMM when no lock operation is next to them).
// smp_mb__before_atomic orders what precedes it only with the next atomic
// RMW and what follows that RMW: its full fence is deferred to that RMW
// (atomic_rmw_hook), and with none it orders nothing. smp_mb__after_atomic
// is a full fence when the thread has done an atomic RMW before it, and
// nothing otherwise.
void smp_mb__before_atomic();
void smp_mb__after_atomic();
inline void smp_mb__after_spinlock() { fence(Acc::FenceMb, "smp_mb__after_spinlock"); }
inline void smp_mb__after_unlock_lock() { fence(Acc::FenceMb, "smp_mb__after_unlock_lock"); }

// ------------------------------------------------------------------------
// <linux/atomic.h>, <linux/refcount.h>
// ------------------------------------------------------------------------
struct atomic_t {
    kfield<int> counter;
    atomic_t(const kobj* o, const char* name, int v = 0) : counter(o, name, v) {}
    int peek() const { return counter.peek(); }
    // An atomic_t the kernel uses as a reference count (i_count, a module's
    // refcnt): declared so, the report draws its reference spans.
    atomic_t& counts_refs() {
        counter.counts_refs();
        return *this;
    }
};
inline int atomic_read(atomic_t& a) { return a.counter.load(Acc::AtomicRead); }
inline void atomic_set(atomic_t& a, int v) { a.counter.store(v, Acc::AtomicSet); }
inline void atomic_inc(atomic_t& a) { a.counter.rmw(Acc::AtomicRmwVoid, "atomic_inc", [](int& v) { v++; return true; }); }
inline void atomic_dec(atomic_t& a) { a.counter.rmw(Acc::AtomicRmwVoid, "atomic_dec", [](int& v) { v--; return true; }); }
inline int atomic_inc_return(atomic_t& a) { return a.counter.rmw(Acc::AtomicRmwFull, "atomic_inc_return", [](int& v) { v++; return true; }) + 1; }
inline bool atomic_dec_and_test(atomic_t& a) { return a.counter.rmw(Acc::AtomicRmwFull, "atomic_dec_and_test", [](int& v) { v--; return true; }) == 1; }
// atomic_add_unless(v, a, u): add a unless the value is u; true if added.
inline bool atomic_add_unless(atomic_t& at, int a, int u) {
    bool w = false;
    at.counter.rmw(Acc::AtomicRmwFull, "atomic_add_unless", [&](int& v) { if (v == u) return false; v += a; return true; }, &w);
    return w;
}
// cmpxchg: returns the old value; stores new only if old == expected.
inline int atomic_cmpxchg(atomic_t& at, int expected, int nv) {
    return at.counter.rmw(Acc::AtomicRmwFull, "cmpxchg", [&](int& v) { if (v != expected) return false; v = nv; return true; });
}

// refcount_t: the kernel's saturating counter. Misuse is reported under the
// invariant the model names for the object (for a kref: kref-underflow).
struct refcount_t {
    kfield<int> refs;
    const char* underflow_inv;
    refcount_t(const kobj* o, const char* name, int v, const char* underflow_invariant)
        : refs(o, name, v), underflow_inv(underflow_invariant) {
        refs.counts_refs();
    }
    int peek() const { return refs.peek(); }
};
inline int refcount_read(refcount_t& r) { return r.refs.load(Acc::AtomicRead); }
// refcount_inc: "addition on 0; use-after-free" when it was 0.
void refcount_inc(refcount_t& r);
bool refcount_inc_not_zero(refcount_t& r);
bool refcount_dec_and_test(refcount_t& r);
void refcount_dec(refcount_t& r);

// ------------------------------------------------------------------------
// <linux/spinlock.h>, <linux/bit_spinlock.h>, <linux/mutex.h>, <linux/rwsem.h>
// ------------------------------------------------------------------------
// The lock word: 0 free, >0 readers (rwsem), -1 held exclusive.
struct spinlock_t {
    kfield<int> word;
    int holder = -1;  // for lock-misuse and the deadlock message
    spinlock_t(const kobj* o, const char* name) : word(o, name, 0) {}
    bool peek_locked() const { return word.peek() != 0; }
};
void spin_lock(spinlock_t& l);
void spin_unlock(spinlock_t& l);
bool spin_trylock(spinlock_t& l);
// A read of the lock word (no ordering, like READ_ONCE).
bool spin_is_locked(spinlock_t& l);
// A bit spinlock (hlist_bl bucket lock): the same protocol on its own word.
using bit_spinlock_t = spinlock_t;
inline void bit_spin_lock(bit_spinlock_t& l) { spin_lock(l); }
inline void bit_spin_unlock(bit_spinlock_t& l) { spin_unlock(l); }
// A sleeping mutex: same exclusion; the wait is a sleep.
using mutex = spinlock_t;
void mutex_lock(mutex& m);
void mutex_unlock(mutex& m);

struct rw_semaphore {
    kfield<int> count;  // -1 writer, n readers
    int writer = -1;
    // The wait list, in arrival order: a new reader queues behind a writer
    // that is already waiting (as the kernel's rwsem does once a writer
    // waits), so a recursive down_read with a writer in between deadlocks
    // here as it can in the kernel.
    unsigned arrivals = 0;
    unsigned writer_ticket[kMaxThreads] = {};  // 0: not waiting
    rw_semaphore(const kobj* o, const char* name) : count(o, name, 0) {}
    int peek() const { return count.peek(); }
};
void down_read(rw_semaphore& s);
void up_read(rw_semaphore& s);
void down_write(rw_semaphore& s);
void up_write(rw_semaphore& s);
// inode_lock / inode_lock_shared spell these for an inode's i_rwsem.

// ------------------------------------------------------------------------
// <linux/seqlock.h>
// ------------------------------------------------------------------------
struct seqcount_t {
    kfield<int> sequence;
    seqcount_t(const kobj* o, const char* name) : sequence(o, name, 0) {}
};
unsigned read_seqcount_begin(seqcount_t& s);      // waits while odd; acquire
unsigned raw_read_seqcount(seqcount_t& s);        // no wait; acquire
bool read_seqcount_retry(seqcount_t& s, unsigned start);  // smp_rmb; re-read
void write_seqcount_begin(seqcount_t& s);         // caller holds the writer lock
void write_seqcount_end(seqcount_t& s);
void write_seqcount_invalidate(seqcount_t& s);    // +2 under the writer lock

// ------------------------------------------------------------------------
// <linux/lockref.h>: {spinlock, count} in one word, value = count*2 + locked.
// The lock is the object's spinlock (d_lock for a dentry).
// ------------------------------------------------------------------------
struct lockref {
    kfield<int> lock_count;
    int holder = -1;
    const char* underflow_inv;  // e.g. dentry-ref-underflow
    const char* revive_inv;     // e.g. dead-dentry-revived (lockref_get on a dead count)
    lockref(const kobj* o, const char* name, int count, const char* underflow_invariant,
            const char* revive_invariant)
        : lock_count(o, name, count * 2), underflow_inv(underflow_invariant), revive_inv(revive_invariant) {
        lock_count.lockref_word();
    }
    int peek_count() const { return lock_count.peek() >> 1; }
    bool peek_locked() const { return lock_count.peek() & 1; }
};
constexpr int LOCKREF_DEAD = -128;
void lockref_lock(lockref& l);     // spin_lock(&lockref->lock)
void lockref_unlock(lockref& l);
void lockref_get(lockref& l);
bool lockref_get_not_zero(lockref& l);
bool lockref_get_not_dead(lockref& l);
int lockref_put_return(lockref& l);          // -1 when the fast path cannot
bool lockref_put_or_lock(lockref& l);        // false: returns with the lock held, count <= 1
void lockref_mark_dead(lockref& l);          // lock held
bool lockref_is_dead_locked(lockref& l);     // lock held
int lockref_count_locked(lockref& l);        // lock held: the count
void lockref_set_count_locked(lockref& l, int count);  // lock held: count++ / count-- as in dget_dlock

// ------------------------------------------------------------------------
// <linux/rcupdate.h>
// ------------------------------------------------------------------------
// Grace periods are ordered against read sections without a fence in each
// rcu_read_lock (which would hide store-buffering races around sections):
// the layer keeps one grace-period word per reader; an outermost
// rcu_read_lock is an acquire RMW of the reader's word, an outermost
// rcu_read_unlock a release RMW of it, and a grace period's start and end
// each acquire every reader's word and then release into every word. RMWs
// read the latest value, so a section that starts after a grace period
// began (in the execution's order, the order in which the layer decides
// whom the grace period waits for) synchronizes with its start, and the end
// synchronizes with every section that ended before it. Two read sections
// of different threads do not synchronize with each other (nor do they in
// the LKMM), and their RCU steps commute for DPOR. Under `sc` none of this
// is needed.
void rcu_read_lock();
void rcu_read_unlock();
// For a model's own grace-period bookkeeping (openref's synchronize_rcu).
void rcu_gp_order(const char* why);
// Free `id` after a grace period: once every thread that was inside an RCU
// read-side section when call_rcu() ran has left it.
void call_rcu_free(int id);
bool rcu_read_lock_held();
// Wait for a grace period: until every thread that was inside a read-side
// section when it started has left that section.
void synchronize_rcu();
// Publish and read an RCU-protected pointer (a kfield that holds object ids).
template <class T> inline T rcu_dereference(kfield<T>& p) { return p.load(Acc::RcuDereference); }
template <class T, class V> inline void rcu_assign_pointer(kfield<T>& p, V v) { p.store((T)v, Acc::RcuAssignPointer); }

// ------------------------------------------------------------------------
// <linux/wait.h>
// ------------------------------------------------------------------------
// A wait queue: sleepers register, wake_up_all() wakes them. A sleeper
// whose waker never comes is a lost wakeup (or a deadlock).
struct wait_queue_head {
    kfield<int> waiters;   // bitmask of threads on the queue
    kfield<int> woken;     // bitmask of threads woken since they queued
    wait_queue_head(const kobj* o, const char* name) : waiters(o, name, 0), woken(o, "woken", 0) {}
};
// prepare_to_wait: put the current thread on the queue (under the caller's lock).
void prepare_to_wait(wait_queue_head& wq);
// schedule() after prepare_to_wait: sleep until woken. `cond` is the wait
// condition, used only to tell a lost wakeup from a deadlock.
template <class Cond>
void schedule_on(wait_queue_head& wq, const char* what, int obj, Cond cond) {
    int me = 1 << this_thread();
    // A sleeping thread notices only its own wakeup, never the condition.
    wait_until(what, obj, true, [&]() { return (wq.woken.peek() & me) != 0; }, cond);
    wq.woken.rmw(Acc::AtomicRmwFull, "finish_wait", [&](int& v) { v &= ~me; return true; });
}
void finish_wait(wait_queue_head& wq);
void wake_up_all(wait_queue_head& wq);
bool waitqueue_active(wait_queue_head& wq);

}  // namespace vfsmc
