// vfsmc: the simulation shim the kernel vocabulary (checker/kernel/) is
// written over: a shared atomic cell, fences, the running thread, its
// scheduling point, a preemption-free region, a nondeterministic choice,
// parking, and the happens-before clocks the race check reads. It is the
// vocabulary's only view of Relacy: checker/search/ and this header are the
// only code that spells `rl::`, and this header is where the vocabulary meets it.
//
// Include it after the standard headers: Relacy's macros (new, delete,
// malloc, free, assert ...) are undefined again at its end.
#pragma once

#include <algorithm>
#include <stdexcept>

#include "substrate/deps.h"
#include "substrate/order.h"

// Relacy's headers trip warnings that are not ours (-Warray-bounds on its
// fixed-size thread arrays once inlined, deprecated declarations, unused
// parameters): silenced here, for Relacy only, not for our code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <relacy/relacy.hpp>
#pragma GCC diagnostic pop

#undef new
#undef delete
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef assert
#undef errno

namespace vfsmc {
namespace sim {

inline rl::memory_order rl_order(MemOrder o) {
    switch (o) {
        case MemOrder::relaxed: return rl::mo_relaxed;
        case MemOrder::consume: return rl::mo_consume;
        case MemOrder::acquire: return rl::mo_acquire;
        case MemOrder::release: return rl::mo_release;
        case MemOrder::acq_rel: return rl::mo_acq_rel;
        case MemOrder::seq_cst: return rl::mo_seq_cst;
    }
    return rl::mo_seq_cst;
}

// The running thread's happens-before clocks, as Relacy keeps them: what it
// has acquired of each thread (`acq_rel`), what an acquire fence would
// acquire (`acq_fence`, from relaxed reads), what its relaxed stores
// release (`rel_fence`, as of its last release fence), its own clock and
// where its last cpu_relax() was.
// How many stores of a location are kept: a load may choose among the
// latest and the kHistory - 1 before it, those it is not ordered after.
inline constexpr unsigned kHistory = 16;
inline constexpr int kMaxSimThreads = 8;

struct Clocks {
    rl::timestamp_t* acq_rel;
    rl::timestamp_t* acq_fence;
    rl::timestamp_t* rel_fence;
    // Under the LKMM, the part of acq_rel (glob) and of acq_fence
    // (glob_pend) that is known to have reached every thread: what
    // happens-before carries on through a plain store (publish()).
    rl::timestamp_t* glob;
    rl::timestamp_t* glob_pend;
    rl::timestamp_t* own;
    rl::timestamp_t last_yield;
    int index;
    int nthreads;
};

namespace detail {
inline rl::timestamp_t g_glob[kMaxSimThreads][kMaxSimThreads];
inline rl::timestamp_t g_glob_pend[kMaxSimThreads][kMaxSimThreads];
// Under the LKMM, what smp_rmb() orders the thread's later loads after
// (its earlier loads' acq_fence at the barrier), and the part of it that
// reached every thread (glob_pend): the LKMM's rmb orders loads only, so
// this joins no clock a store reads (read_fence()).
inline rl::timestamp_t g_rd[kMaxSimThreads][kMaxSimThreads];
inline rl::timestamp_t g_rd_glob[kMaxSimThreads][kMaxSimThreads];
// Under the LKMM, what a spinlock taken after the thread's own unlock
// orders the thread's later marked accesses after (the acq_fence of its
// loads before the unlock, spin_locked()): po-unlock-lock-po is in ppo,
// between marked accesses only, and bounds no plain access.
inline rl::timestamp_t g_ul[kMaxSimThreads][kMaxSimThreads];
// What the thread's loads read (their acq_fence part, and the part that
// reached every thread), but for the loads of non-value-returning RMWs
// (atomic_inc(), atomic_add(): the LKMM's Noreturn events, which smp_rmb()
// does not order): what the next smp_rmb() orders later loads after.
inline rl::timestamp_t g_ld[kMaxSimThreads][kMaxSimThreads];
inline rl::timestamp_t g_ld_glob[kMaxSimThreads][kMaxSimThreads];
// How many loads the thread had made at its last smp_rmb(): its later
// loads are ordered after loads number 0 to g_rd_loads - 1.
inline unsigned g_rd_loads[kMaxSimThreads];
template <int N>
Clocks clocks_of(rl::thread_info_base* b) {
    auto* t = static_cast<rl::thread_info<N>*>(b);
    int i = (int)t->index_;
    return {t->acq_rel_order_, t->acquire_fence_order_, t->release_fence_order_, g_glob[i], g_glob_pend[i],
            &t->own_acq_rel_order_, t->last_yield_, i, N};
}
// The thread count of the running suite (search/suite.h sets it before each
// execution): Relacy's thread records are sized by it.
inline Clocks (*g_clocks)(rl::thread_info_base*) = nullptr;
}  // namespace detail

template <int N>
void bind_thread_count() {
    detail::g_clocks = &detail::clocks_of<N>;
}



namespace detail {
inline unsigned g_load_window = 1;
// A preference among a data choice's values, which only a sampling
// scheduler reads (search/pct.h favours it); the exhaustive searches
// ignore it, so it moves no choice of theirs. A front end marks the
// running thread's next load as wanting a value (g_wants[t], compared by
// g_wanted_value), and the load's choices name the one that returns it:
// g_preferred_choice, -1 for none, set only around the rand() call.
inline bool g_wants[kMaxSimThreads] = {};
inline bool (*g_wanted_value)(int thread, uint64_t value) = nullptr;
inline int g_preferred_choice = -1;
inline unsigned rand_preferring(unsigned n, int preferred) {
    g_preferred_choice = preferred;
    unsigned r = rl::ctx().rand(n, rl::sched_type_atomic_load);
    g_preferred_choice = -1;
    return r;
}
inline bool g_lkmm = false;
// Under the LKMM, the points of each thread's clock at which all of its
// earlier accesses, plain ones and loads included, are ordered before
// what it publishes from there on (linux-kernel.cat's r-post-bounded: a
// strong fence or po-rel to a marked access): its release stores and
// release RMWs, its full fences. An smp_wmb() is none: what a store after
// it publishes orders the thread's earlier stores before another thread's
// loads (w-post-bounded ; vis) and not before another thread's store
// (rw-xbstar), so the race check asks for one of these points
// (post_bound()). A point p covers the accesses of clock <= p. Each
// thread's points are kept sorted, the last kPostPoints of them; the
// largest one dropped is kept too.
constexpr unsigned kPostPoints = 128;
inline rl::timestamp_t g_post[kMaxSimThreads][kPostPoints];
inline unsigned g_npost[kMaxSimThreads];
inline rl::timestamp_t g_post_dropped[kMaxSimThreads];
inline void note_post_bound(int me, rl::timestamp_t p) {
    if (!g_lkmm) return;
    rl::timestamp_t* v = g_post[me];
    unsigned& n = g_npost[me];
    unsigned at = n;
    while (at > 0 && v[at - 1] > p) at--;
    if (at > 0 && v[at - 1] == p) return;
    if (n == kPostPoints) {
        if (at == 0) {  // older than every point kept: dropped
            g_post_dropped[me] = std::max(g_post_dropped[me], p);
            return;
        }
        g_post_dropped[me] = std::max(g_post_dropped[me], v[0]);
        for (unsigned k = 1; k < at; k++) v[k - 1] = v[k];
        v[at - 1] = p;
        return;
    }
    for (unsigned k = n; k > at; k--) v[k] = v[k - 1];
    v[at] = p;
    n++;
}
// Under the LKMM a marked load is ordered before another thread's store
// (linux-kernel.cat's rw-xbstar: a marked load is its own r-post-bounded,
// then xbstar) only through what orders it before a marked access of its
// own thread (ppo): a dependency, smp_rmb() then a load that something
// depends on, an acquire, a strong fence, a release after it, a store to
// its location; then that access's rfe, hb onwards. A vector clock that
// knew a store of the thread would know every load before it, so the race
// check asks these records (sim::load_xb_before()). Each thread's own
// clock at its last strong fence (its accesses of clock <= it are before
// every later one), at its last smp_rmb() or strong fence (its loads of
// clock <= it are before every later load), joined over its acquire loads
// (its loads of clock <= the acquire's rmb cover are before everything
// after the acquire), and at its last smp_wmb() or strong fence (its
// stores of clock <= it are before every later store).
inline rl::timestamp_t g_mb_cover[kMaxSimThreads];
inline rl::timestamp_t g_rmb_cover[kMaxSimThreads];
inline rl::timestamp_t g_acq_cover[kMaxSimThreads];
inline rl::timestamp_t g_wmb_cover[kMaxSimThreads];
// A marked store, for that check: its clock (Rec::stamp); the loads of its
// thread it is ordered after: all of clock <= `all`, and the `ndep` in
// `dep` (the loads its description names; kMarkDeps of them, the rest
// counted in `all`); the stores of its thread before it: all of clock <=
// `wmb`; its location; and who read it (`seen_by`: whether thread `reader`
// read it by a marked load, at what clock; false once the store is gone
// from its location's history). The last kStoreMarks of each thread.
constexpr unsigned kMarkDeps = 8;
constexpr unsigned kStoreMarks = 64;
struct StoreMark {
    rl::timestamp_t stamp, all, wmb;
    const void* obj;
    bool (*seen_by)(const void* obj, int thread, rl::timestamp_t stamp, int reader, rl::timestamp_t* at);
    unsigned ndep;
    rl::timestamp_t dep[kMarkDeps];
};
inline StoreMark g_mark[kMaxSimThreads][kStoreMarks];
inline unsigned g_nmark[kMaxSimThreads];
// The running marked store's mark while it keeps promises (its stamp the
// largest clock until it has one), for a race its keep decides
// (load_race_ordered()); null otherwise.
inline const StoreMark* g_storing = nullptr;
inline void note_strong_fence(int me, rl::timestamp_t at) {
    g_mb_cover[me] = std::max(g_mb_cover[me], at);
    g_rmb_cover[me] = std::max(g_rmb_cover[me], at);
    g_wmb_cover[me] = std::max(g_wmb_cover[me], at);
}
inline bool g_setup = false;   // the model's setup is running (before its threads)
// The running thread's last load read a store of the model's setup (not a
// promise, not an RMW's); and some access of this execution was a C plain
// one (load_read_setup(), plain_access_seen()).
inline bool g_load_read_setup = false;
inline bool g_plain_access = false;
// The program makes no C plain access: its front end said so for this
// execution (declare_marked_only()).
inline bool g_marked_only = false;
inline uint64_t g_reads_cut = 0;
}
// Loads, since the last call, that could have read a store older than the
// kept history: each is a reads-from choice the search did not explore.
inline uint64_t take_reads_cut() {
    uint64_t n = detail::g_reads_cut;
    detail::g_reads_cut = 0;
    return n;
}
// How many stores back from the latest a load may read (1 to kHistory - 1),
// for the execution about to run: the search sets it from the memory model.
inline void set_load_window(unsigned n) { detail::g_load_window = n; }
// Whether the execution about to run follows the LKMM rather than C++:
// a plain store may take a place in its location's modification order
// before stores it is not ordered after (the LKMM's coherence order is
// free there; otherwise every store goes last, in the order the stores
// ran), and what a store publishes is what happens before it (publish()).
inline void set_lkmm(bool on) { detail::g_lkmm = on; }
// The model's setup runs, or has ended: its stores happen before every
// thread's accesses, and no store takes a place before them.
inline void set_setup(bool on) { detail::g_setup = on; }


// Dependencies. Each thread's loads are numbered in program order (0, 1,
// ...), and the last kDepReads keep the clock their store published. An
// access that depends on some of them (an address computed from, a value
// computed from, or a branch taken on what they returned) is told so
// before it runs (depend_on); it is then ordered after what those stores
// published, as a load that acquired them would be, but for that access
// alone: the LKMM's dependencies order the dependent access, nothing
// after it. A store no one described depends on every earlier load of
// its thread, as kernel code's stores after a read usually do (a branch
// on it). With no description a load depends on nothing.
inline constexpr unsigned kDepReads = 64;
namespace detail {
struct ReadMsg {
    rl::timestamp_t c[kMaxSimThreads];
    rl::timestamp_t g[kMaxSimThreads];       // the part of c that reached every thread (Clocks::glob)
    rl::timestamp_t cause[kMaxSimThreads];   // the loads it is ordered after (promises, below)
    rl::timestamp_t carried_me;              // of cause, its own thread's part without the load itself (carry-dep)
    int from;                                // the thread whose store it read (-1: a promise not kept yet)
    bool plain;                              // a plain C load (note_plain_load()), not a marked one
    // A load of its own thread's store that depends by data on marked
    // loads (Rec::has_bound): what those loads bound, carried through the
    // store (linux-kernel.cat's carry-dep), so that a plain access with an
    // address dependency on this load is bounded by them (pre_bound()).
    bool carried;
    rl::timestamp_t carried_c[kMaxSimThreads];
    // For the race check of a marked load (load_xb_before()): the load's
    // own clock, what an smp_rmb() or a strong fence before it orders it
    // after (its thread's loads of clock <= rmb), whether it acquires, its
    // location, and the store it read (from, from_stamp; 0: a promise).
    rl::timestamp_t stamp;
    rl::timestamp_t rmb;
    bool acq;
    const void* obj;
    rl::timestamp_t from_stamp;
};
// What a load an access depends on bounds it by for the race check (null:
// nothing): a marked load by what it is ordered after, a plain one by what
// it carried from marked loads through a store of the thread's own
// (`carried` false: nothing, the mutation plain-rfi-carries-no-bound), a
// load no longer kept (null msg) by nothing, the stronger check.
inline const rl::timestamp_t* race_bound_of(const ReadMsg* msg, bool carried = true) {
    if (!msg) return nullptr;
    if (!msg->plain) return msg->c;
    return carried && msg->carried ? msg->carried_c : nullptr;
}
inline ReadMsg g_read_msg[kMaxSimThreads][kDepReads];
inline unsigned g_nreads[kMaxSimThreads];
inline uint64_t g_dep_mask[kMaxSimThreads];   // bit k: load number g_dep_base + k
inline unsigned g_dep_base[kMaxSimThreads];
inline bool g_dep_told[kMaxSimThreads];
inline uint64_t g_dep_ctrl[kMaxSimThreads];   // of g_dep_mask, the bits an RMW's load does not depend on
inline uint64_t g_dep_addr[kMaxSimThreads];   // of g_dep_mask, the address dependencies
// Visit the loads of thread `me` that `mask` names (bit k: load number
// g_dep_base + k), oldest first: f(msg, number), with a null msg for a load
// no longer kept (more than kDepReads back). Stops at a load not made yet,
// or when f returns false.
template <class F>
inline void for_each_dep_read(int me, uint64_t mask, F f) {
    unsigned base = g_dep_base[me], done = g_nreads[me];
    for (uint64_t bits = mask; bits; bits &= bits - 1) {  // the set bits, lowest first
        unsigned n = base + (unsigned)__builtin_ctzll(bits);
        if (n >= done) return;  // not made yet, nor any after it
        if (!f(n + kDepReads < done ? nullptr : &g_read_msg[me][n % kDepReads], n)) return;
    }
}
}  // namespace detail
// Load buffering: a load may return a value a store will write later (a
// promise), when its location has a set of values it may hold
// (atomic::set_promisable) and the execution runs with promises
// (set_promises). The store that keeps the promise must come from another
// thread, must not be ordered after the load (by dependencies, fences,
// acquires and the reads-from between them: the loads each access is
// ordered after are tracked as clocks of load times, `cause`), and the
// reading thread must not have read the location since, nor made an RMW
// of it; a store of its own there bounds the promise (Promise::bound),
// and the keeping store goes before that store. An execution
// that ends with a promise not kept is not one the memory model allows.
// An unconditional RMW's load may promise too (atomic::rmw_placed()): its
// store goes last at once, and the store that keeps the promise takes its
// coherence place right before it, so that nothing comes between the RMW
// and the store it read.
inline constexpr int kMaxPromises = 32;
// The most values a location's promises may name.
inline constexpr unsigned kMaxDomain = 64;
namespace detail {
struct Promise {
    const void* loc;
    uint64_t value;       // compared under `mask`
    uint64_t mask;
    int reader;
    rl::timestamp_t at;   // the reader's clock at the load
    int event;            // the load's trace event (note_promise_event)
    unsigned number;      // the load's number among its thread's
    Key key;              // the location's dependency key (substrate/deps.h)
    bool touched;         // refused: the reader read the location or made an RMW of it, or ordered something after the load, since
    bool kept;
    bool rmw;                   // an RMW's load made it
    rl::timestamp_t rmw_stamp;  // and the stamp of the RMW's store
    rl::timestamp_t kept_cause[kMaxSimThreads];  // kept: the loads the keeping store is ordered after
    // What the load was ordered after, of each thread's clock (its own:
    // `at`): a store it knew of cannot follow the store that keeps the
    // promise in coherence order (atomic::readers_allow()).
    rl::timestamp_t known[kMaxSimThreads];
    // The threads whose stores may write the promised value, and those
    // that can no longer store it to the location (atomic::close_stores(),
    // atomic::close_value()): when every one of the first is among the
    // second or has ended, the promise can never be kept (doomed()).
    uint32_t writers;
    uint32_t closed;
    // The stamp of the reader's first store to the location after the
    // load (0: none yet). The store that keeps the promise goes before it
    // in coherence order (CoRW: the load reads a store coherence-before
    // its thread's later store), and only a store that may take that
    // place keeps it (atomic::keep_promises()).
    rl::timestamp_t bound;
};
inline bool g_promises = false;
// The threads that have ended: they write nothing more, so no promise
// names a value only they could write.
inline uint32_t g_done_mask = 0;
// The threads whose next load makes no promise (next_load_makes_no_promise()).
inline uint32_t g_no_promise_mask = 0;
inline Promise g_promise[kMaxPromises];
inline int g_npromises = 0;
// Whether promise p can no longer be kept: every thread that may write its
// value has ended or can no longer store it to its location.
inline bool doomed(const Promise& p) { return !(p.writers & ~g_done_mask & ~p.closed); }
// Refuses the open promises that can no longer be kept (doomed()): the
// running step made it so (a thread ended, or closed a location or a
// value there), and for
// dpor's refused-promise rule it is the step that refused them.
inline void refuse_doomed() {
    for (int i = 0; i < g_npromises; i++) {
        Promise& p = g_promise[i];
        if (p.kept || p.touched || !doomed(p)) continue;
        p.touched = true;
        note_access(p.key, false);
    }
}
// What is ordered after the loads in `cause` (each thread's latest, by
// its clock) is also ordered after what the stores that kept their
// promises were ordered after, and so on: `cause` grows to that closure.
inline void close_causes(rl::timestamp_t* cause, int nthreads) {
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < g_npromises; i++) {
            const Promise& p = g_promise[i];
            if (!p.kept || cause[p.reader] < p.at) continue;
            for (int t = 0; t < nthreads; t++)
                if (p.kept_cause[t] > cause[t]) {
                    cause[t] = p.kept_cause[t];
                    grew = true;
                }
        }
    }
}
inline bool g_promise_overflow = false;
// Per thread: the loads everything after the current point is ordered
// after (acquires, full fences), and all its loads so far.
inline rl::timestamp_t g_cause_full[kMaxSimThreads][kMaxSimThreads];
inline rl::timestamp_t g_cause_all[kMaxSimThreads][kMaxSimThreads];
// The trace events of the loads whose promises the last store kept.
inline int g_kept_events[kMaxPromises];
inline int g_nkept = 0;
// What kept promises published, for their readers' next step.
inline rl::timestamp_t g_kept_join[kMaxSimThreads][kMaxSimThreads];
inline rl::timestamp_t g_kept_gjoin[kMaxSimThreads][kMaxSimThreads];
inline bool g_kept_pending[kMaxSimThreads];
// Thread `me` orders an access after its load number `number` (all of
// its loads if `all`): a promise that load made can no longer be kept, as
// the access ran without what the keeping store would have published.
// `rmw_only`: an access that may run before the promise is kept (Early,
// below) refuses only an RMW's.
inline void order_after_loads(int me, bool all, unsigned number = 0, bool rmw_only = false, const Promise* own = nullptr) {
    for (int i = 0; i < g_npromises; i++) {
        Promise& p = g_promise[i];
        if (p.reader != me || p.kept || p.touched || !(all || p.number == number) || (rmw_only && !p.rmw) || &p == own)
            continue;
        // Whether the promise is kept now depends on the order of this
        // step and the store that would keep it: for dpor, the step reads
        // the location.
        p.touched = true;
        note_access(p.key, false);
    }
}
// Set while the running thread makes a release whose ordering of its
// earlier loads an acquire of it takes up later (deferred_load_order).
inline bool g_release_defers = false;
// Thread `me`'s next access is ordered after its loads numbered below
// `n`: their promises not kept by now can no longer be (as
// order_after_loads()). After an smp_rmb() (read_fence()), a load is
// ordered after the loads before the barrier (order_after_read_fence()).
inline void order_after_loads_before(int me, unsigned n, bool rmw_only = false) {
    for (int i = 0; i < g_npromises; i++) {
        Promise& p = g_promise[i];
        if (p.reader != me || p.kept || p.touched || p.number >= n || (rmw_only && !p.rmw)) continue;
        p.touched = true;
        note_access(p.key, false);
    }
}
inline void order_after_read_fence(int me, bool rmw_only = false) { order_after_loads_before(me, g_rd_loads[me], rmw_only); }
// What thread `me`'s loads numbered below `n` read, joined into `acq` (and
// `gp`, the part that reached every thread, unless null), for those whose
// promises were kept since (not in `skip`): what the keeping store
// published is what the load read (keep()); a load whose record is gone,
// everything the thread read (`th`'s clocks: more ordering, never less).
inline void join_kept_loads(const Clocks& th, unsigned n, uint64_t skip, rl::timestamp_t* acq, rl::timestamp_t* gp) {
    int me = th.index;
    for (int i = 0; i < g_npromises; i++) {
        const Promise& p = g_promise[i];
        if (p.reader != me || !p.kept || (skip >> i & 1) || p.number >= n) continue;
        bool held = g_nreads[me] - p.number <= kDepReads;
        const ReadMsg& msg = g_read_msg[me][p.number % kDepReads];
        for (int t = 0; t < th.nthreads; t++) {
            acq[t] = std::max(acq[t], held ? msg.c[t] : th.acq_fence[t]);
            if (gp) gp[t] = std::max(gp[t], held ? msg.g[t] : th.glob_pend[t]);
        }
    }
}
// Load buffering past a dependency. An access of a promise's reader that
// is ordered after the promised load only by a dependency (a load: or by
// an smp_rmb()) may run while the promise is open ("early"), with what
// its thread knew then. Had the keeping store come first, the access
// would also have been ordered after what that store published (`pub`).
// So the store keeps the promise only when, for each early access:
// - its choice still holds with `pub` joined to what it was ordered after
//   (Early::recheck: the store a load read is one it may still read, the
//   coherence place a store took one it may still take);
// - no data race was flagged since it began (its race check, and theirs
//   against it, ran without `pub`);
// and when no thread but the reader has seen anything ordered after the
// load (the causes of its loads), which would have run without `pub` too.
// Once kept, what the access hands on gets `pub` (Early::kept). A release
// store, and the store of a release RMW (spin_unlock() too), is early in
// the same way: it is ordered after every earlier load of its thread and
// orders nothing after itself. Any other ordering (a fence, an acquire, a
// fully ordered RMW, an RMW's data dependency, a lock after the thread's
// unlock) refuses the promise (order_after_loads()). A choice the search
// explores is never made here: a refused keep only leaves an execution out.
// The rules of early accesses, of where a keeping store goes and of what a
// keep is refused by, each one a layer mutation when false (set_promises()).
struct EarlyRules {
    bool on = true;        // false: a dependency refuses the promise (no early access)
    bool recheck = true;   // the early access's choice is checked again at the keep
    bool wmb = true;       // smp_wmb() after an early store refuses its promises
    bool races = true;     // a data race of the early access refuses the keep
    bool races_own = true;  // only one of its own (false: any flagged since it began)
    bool observed = true;  // another thread having seen what is ordered after the load refuses the keep
    bool hand_on = true;   // once kept, the early access hands on what the keeping store published
    bool kept_free = true;  // a store that keeps a promise may take a free coherence place (readers_allow())
    bool plain_rf_unordered = true;  // a load of a plain store is not ordered after the loads that store was (Rec::cause)
    bool plain_seen_keeps = true;    // a read with a plain end of a waiting RMW's store, or a later one, leaves its promise keepable (may_keep_rmw())
    bool kept_rmw_carries = true;    // an RMW that keeps a promise hands on what the store it read published (rmw-sequence)
    bool plain_ctrl_unordered = true;  // a control dependency on a plain load orders nothing after it (dependency())
    bool release_early = true;         // a release store may run before the promises of its thread's earlier loads are kept
    bool same_location = true;         // a marked store after an early marked access to its location is ordered after its loads
    bool own_store = true;             // a store of the reader to a promise's location leaves the promise open (bounded, below)
    bool own_store_bound = true;       // and the store that keeps it goes before the reader's store in coherence order
    bool nested = true;                // a load that runs early may promise too (Early::promise)
    bool nested_known = true;          // and once the outer promise is kept, its own is kept only by a store it may read then
    bool defer_races = true;           // a race against an early access waits for the keep (PendingRace)
    bool defer_checks = true;          // and the keep drops it only when the keeping store orders the two
    bool defer_load_races = true;      // a marked load's race against a bounded early access waits for the keep too
    bool defer_plain_load_races = true;  // and so does a plain load's
    bool read_race_waits = true;         // and a load's that read the early access (the keep is refused only if the load is ordered before the keeping store)
    bool plain_load_post_bound = true;   // a plain load is ordered before a store of its thread by a fence or a release only (load_before_mark())
    bool release_rmw_own = true;       // a release RMW leaves its own load's promise open (as a relaxed one does)
    bool release_rmw_early = true;     // a release RMW's store may run before the promises of its thread's earlier loads are kept
    bool unlock_lock_refuses = true;   // a lock after the thread's unlock refuses the promises of the loads before the unlock
    bool unbounded_kept_race = true;   // a keep never drops a race of an early access its loads do not bound (Early::bounded)
    bool unbounded_race_final = true;  // and a load's race with one is flagged without refusing the keep (race_is_final())
};
inline EarlyRules g_early_rules;
struct Early {
    uint32_t mask;  // the promises (by index) it ran before
    int thread;
    bool store;
    bool wmb_orders;  // a store an smp_wmb() after it orders later stores after (refuse_early_stores())
    bool release;     // a release store: once kept, it carries what the load read (A-cumulativity)
    bool marked;      // a marked access (not a C plain one)
    // The loads it depends on bound it (linux-kernel.cat's w-pre-bounded
    // and r-pre-bounded: a marked access, a plain one with an address
    // dependency, a plain load after smp_rmb()): only then may a keep of
    // their promises order it after another thread's access it races
    // with. A control or data dependency orders a plain access for
    // coherence, not for the race check.
    bool bounded;
    const void* obj;
    // A load: the store it read; a store: itself (thread, stamp).
    int rthread;
    rl::timestamp_t rstamp;
    // A load that made a promise itself: the promise (by index, -1: none).
    // Its store is rthread/rstamp once a store keeps it (atomic::keep());
    // while it is open, rthread is -1.
    int promise = -1;
    int event = -1;    // its trace event (note_early_event())
    unsigned number;   // a load: its number among its thread's loads
    uint64_t flagged;  // g_flagged when it began
    // g_flagged when it ended (note_early_event(); kFlaggedOpen: not
    // known, and every race flagged since it began counts as its own),
    // and whether a race with it was flagged since (note_flagged()).
    uint64_t flagged_end;
    bool raced;
    rl::timestamp_t known[kMaxSimThreads];  // what it was ordered after, of each thread's clock
    bool (*recheck)(const void* obj, const Early& e, const rl::timestamp_t* pub, int nthreads);
    void (*kept)(void* obj, const Early& e, const rl::timestamp_t* pub, const rl::timestamp_t* gpub, int nthreads);
};
inline constexpr int kMaxEarly = 32;
inline Early g_early[kMaxEarly];
inline int g_nearly = 0;
// Data races flagged in the execution so far (note_flagged()), and how
// many there were when the running access began (access_begins()): its
// own race check may come before its load or store.
inline uint64_t g_flagged = 0;
inline uint64_t g_flagged_at_access = 0;
inline constexpr uint64_t kFlaggedOpen = ~(uint64_t)0;
// A data race between an early access (entry `early`) and a later store
// of thread `thread` (its clock `stamp`), not flagged yet: had the stores
// that keep the early access's promises come first, the early access
// would be ordered after what they published, and so maybe after the
// store. A keep that orders the two drops it (early_kept()); the last
// keep of the entry's promises that does not makes it due, and the layer
// flags it then (flag_due_races()). An execution whose promises are not
// all kept is none the memory model allows, so a race still pending at
// its end needs no flag.
struct PendingRace {
    int early;  // -1: dropped or flagged
    bool due;
    int thread;
    rl::timestamp_t stamp;
    int cause;      // the early access's trace event
    char msg[192];  // the race, as the layer words it
    // A marked load's race (defer_load_race()): the keep decides by
    // `ordered`, asked with what the keeping store published.
    bool (*ordered)(const PendingRace& r, const rl::timestamp_t* pub);
    rl::timestamp_t lstamp;  // the load's clock (its ReadMsg::stamp)
    bool acq;
    const void* obj;         // its location
    bool plain;              // a plain C load (load_before_mark())
    // The load read the early access: a keep whose store the load is
    // ordered before is refused (the early access would be ordered after
    // the load that read it: linux-kernel.cat's wr-incoh), not dropping
    // the race (early_allows()).
    bool read;
};
inline constexpr int kMaxPendingRaces = 32;
inline PendingRace g_pending_race[kMaxPendingRaces];
inline int g_npending_races = 0;
// The early entry the running access made (note_early()), or -1.
inline int g_early_noted = -1;
// The promises of thread `me` an access ordered after its loads by
// `cause` (and, `rmb`, a load after an smp_rmb()) runs before; `self`: the
// access's own promise, left out.
inline uint32_t early_mask(int me, const rl::timestamp_t* cause, bool rmb, int self = -1) {
    uint32_t m = 0;
    for (int i = 0; i < g_npromises; i++) {
        const Promise& p = g_promise[i];
        if (i == self || p.reader != me || p.kept || p.touched || p.rmw) continue;
        if ((cause && cause[me] >= p.at) || (rmb && p.number < g_rd_loads[me])) m |= 1u << i;
    }
    return m;
}
// Refuses the promises in `mask` (the access cannot run early).
inline void refuse_promises(uint32_t mask) {
    for (int i = 0; i < g_npromises; i++)
        if ((mask >> i & 1) && !g_promise[i].touched) {
            g_promise[i].touched = true;
            note_access(g_promise[i].key, false);
        }
}
// Thread `me` runs smp_wmb(): its later stores are ordered after its
// earlier ones, and so after the loads its early marked stores depend on
// (the LKMM's hb through ppo and the fence), and those a plain store
// depends on by address (linux-kernel.cat's to-w: addr ; [Plain] ; wmb).
// The promises those stores ran before are refused.
inline void refuse_early_stores(int me) {
    if (!g_early_rules.wmb) return;
    for (int k = 0; k < g_nearly; k++)
        if (g_early[k].thread == me && g_early[k].wmb_orders) refuse_promises(g_early[k].mask);
}
// Records an early access (`e`, but its mask and flag count) before the
// promises in `mask`; refuses them when the table is full. For dpor the
// access reads their locations: whether it ran before the keeping store
// decides what it was ordered after.
inline void note_early(uint32_t mask, const Early& e) {
    if (!mask) return;
    if (g_nearly == kMaxEarly) {
        refuse_promises(mask);
        return;
    }
    g_early_noted = g_nearly;
    Early& r = g_early[g_nearly++];
    r = e;
    r.mask = mask;
    r.flagged = g_flagged_at_access;
    r.flagged_end = kFlaggedOpen;
    r.raced = false;
    for (int i = 0; i < g_npromises; i++)
        if (mask >> i & 1) note_access(g_promise[i].key, false);
}
// The promises still open that thread `me`'s earlier marked early
// accesses to location `obj` ran before (to-w's overwrite & int orders a
// later marked store of the location after them).
inline uint32_t early_here(int me, const void* obj) {
    if (!g_early_rules.same_location) return 0;
    uint32_t m = 0;
    for (int k = 0; k < g_nearly; k++)
        if (g_early[k].thread == me && g_early[k].obj == obj && g_early[k].marked) m |= g_early[k].mask;
    return m;
}
// Does a store that published `pub` order pending race r: the early
// access, ordered after what that store published, after the later one?
// (A store's publication orders the stores before it: a fence that
// orders stores does.)
inline bool orders_pending(const PendingRace& r, const rl::timestamp_t* pub) {
    if (!g_early_rules.defer_checks) return true;
    if (r.ordered) return r.ordered(r, pub);
    if (!g_early[r.early].bounded && g_early_rules.unbounded_kept_race) return false;
    return std::max(g_early[r.early].known[r.thread], pub[r.thread]) >= r.stamp;
}
// May a store that published `pub` keep promise i, given its early
// accesses? For dpor the keep then depends on every location (the
// rechecks read the early accesses' locations and who read what).
inline bool early_allows(int i, const rl::timestamp_t* pub, int nthreads) {
    bool any = false;
    for (int k = 0; k < g_nearly && !any; k++) any = g_early[k].mask >> i & 1;
    if (!any) return true;
    note_access(kKeyAll, false);
    const Promise& p = g_promise[i];
    for (int u = 0; u < nthreads && g_early_rules.observed; u++)
        if (u != p.reader && g_cause_all[u][p.reader] >= p.at) return false;
    for (int k = 0; k < g_nearly; k++) {
        const Early& e = g_early[k];
        if (!(e.mask >> i & 1)) continue;
        // A race the early access took part in: its race check ran
        // without what the keeping store publishes. Another race, of two
        // accesses neither of which is ordered after the load (those are
        // early, or refuse the promise), is the same whichever store keeps
        // it.
        bool own = e.flagged_end == kFlaggedOpen || !g_early_rules.races_own ? e.flagged != g_flagged
                                                                             : e.flagged != e.flagged_end || e.raced;
        if (g_early_rules.races && own) return false;
        if (g_early_rules.recheck && !e.recheck(e.obj, e, pub, nthreads)) return false;
    }
    for (int k = 0; k < g_npending_races; k++) {
        const PendingRace& r = g_pending_race[k];
        if (r.read && r.early >= 0 && !r.due && (g_early[r.early].mask >> i & 1) && r.ordered(r, pub)) return false;
    }
    return true;
}
// Promise i is kept by a store that published `pub` (`gpub`): its early
// accesses hand that on from now on.
inline void early_kept(int i, const rl::timestamp_t* pub, const rl::timestamp_t* gpub, int nthreads) {
    for (int k = 0; k < g_npending_races; k++) {
        PendingRace& r = g_pending_race[k];
        if (r.early < 0 || r.due || !(g_early[r.early].mask >> i & 1)) continue;
        if (orders_pending(r, pub)) r.early = -1;
        else if (g_early[r.early].mask == (1u << i)) r.due = true;
    }
    for (int k = 0; k < g_nearly; k++) {
        Early& e = g_early[k];
        if (!(e.mask >> i & 1)) continue;
        e.mask &= ~(1u << i);
        if (g_early_rules.hand_on) e.kept(const_cast<void*>(e.obj), e, pub, gpub, nthreads);
    }
}
// An early load, once the promise is kept: what the accesses that depend
// on it are ordered after (ReadMsg::c, ::g), and the race bound it carried
// from a store of its thread (ReadMsg::carried_c), take what the keeping
// store published.
inline void early_load_kept(void*, const Early& e, const rl::timestamp_t* pub, const rl::timestamp_t* gpub,
                            int nthreads) {
    if (g_nreads[e.thread] - e.number > kDepReads) return;
    ReadMsg& msg = g_read_msg[e.thread][e.number % kDepReads];
    for (int t = 0; t < nthreads; t++) {
        msg.c[t] = std::max(msg.c[t], pub[t]);
        msg.g[t] = std::max(msg.g[t], gpub[t]);
        if (msg.carried) msg.carried_c[t] = std::max(msg.carried_c[t], pub[t]);
    }
    // Its own promise, still open, is kept only by a store its load may
    // read with `pub` joined (atomic::readers_allow()).
    if (e.promise >= 0 && !g_promise[e.promise].kept && g_early_rules.nested_known)
        for (int t = 0; t < nthreads; t++)
            if (t != e.thread) g_promise[e.promise].known[t] = std::max(g_promise[e.promise].known[t], pub[t]);
}
// A kept promise's store is read by its load: the reader, at its next
// step, has what that store published, as its relaxed loads do.
inline bool apply_kept(int me, rl::timestamp_t* acq_fence, rl::timestamp_t* glob_pend, int n) {
    if (!g_kept_pending[me]) return false;
    g_kept_pending[me] = false;
    for (int t = 0; t < n; t++) {
        acq_fence[t] = std::max(acq_fence[t], g_kept_join[me][t]);
        glob_pend[t] = std::max(glob_pend[t], g_kept_gjoin[me][t]);
        g_ld[me][t] = std::max(g_ld[me][t], g_kept_join[me][t]);
        g_ld_glob[me][t] = std::max(g_ld_glob[me][t], g_kept_gjoin[me][t]);
    }
    return true;
}
}  // namespace detail
// The LKMM's po-unlock-lock-po (lock.cat): a spinlock taken after a
// spinlock's release, by the same thread (po) or by reading the release
// (rf), orders for every thread the taker's later stores after the
// releasing thread's own stores before that release, as a release fence at
// the unlock would for them (linux-kernel.cat's cumul-fence), and after
// what was so ordered before those (its rel_fence: an earlier handover to
// it, its smp_wmb()s). It is not A-cumulative: what the releasing thread
// had only read is not ordered so (the IRIW shapes with two critical
// sections of one lock), but what had reached every thread (`glob`) stays
// so. The releasing thread's own part is the clock of its last store
// before the unlock, not its clock at the unlock: a thread that knows a
// later point of it would be taken to know what it had read there
// (atomic::may_pass's read-read coherence).
namespace detail {
// Each thread's last two stores' clocks (the unlock's own store is the last).
inline rl::timestamp_t g_store_stamp[kMaxSimThreads][2];
struct UnlockView {
    const void* lock;  // the lock word released
    rl::timestamp_t view[kMaxSimThreads];
    unsigned loads;  // the releasing thread's loads before it (g_nreads)
    rl::timestamp_t acq_fence[kMaxSimThreads];  // what they read
};
// Each thread's last unlock (the po case), and its last kUnlocks unlocks
// by lock word (the rf case: the taker reads the releaser's).
inline constexpr int kUnlocks = 4;
inline UnlockView g_unlock_last[kMaxSimThreads];
inline UnlockView g_unlock_by_lock[kMaxSimThreads][kUnlocks];
inline unsigned g_nunlocks[kMaxSimThreads];
inline void note_store_stamp(int me, rl::timestamp_t stamp) {
    g_store_stamp[me][0] = g_store_stamp[me][1];
    g_store_stamp[me][1] = stamp;
}
}  // namespace detail
inline void note_unlock(const Clocks& c, const void* lock) {
    detail::UnlockView& v = detail::g_unlock_last[c.index];
    v.lock = lock;
    v.loads = detail::g_nreads[c.index];
    for (int t = 0; t < c.nthreads; t++) v.acq_fence[t] = c.acq_fence[t];
    for (int t = 0; t < c.nthreads; t++) {
        v.view[t] = std::max(c.rel_fence[t], std::max(c.glob[t], c.glob_pend[t]));
        if (t == c.index) v.view[t] = std::max(v.view[t], detail::g_store_stamp[c.index][0]);
    }
    detail::g_unlock_by_lock[c.index][detail::g_nunlocks[c.index]++ % detail::kUnlocks] = v;
}

// The running thread's clocks (with what promises it made that were kept
// since its last step published).
inline Clocks running_clocks() {
    Clocks c = detail::g_clocks(rl::ctx().threadx_);
    detail::apply_kept(c.index, c.acq_fence, c.glob_pend, c.nthreads);
    return c;
}

// What thread `t` knows as it stops at a scheduling point, for dpor's
// observed-fence-order rule (search/fence_order.h): its own clock (the
// stamp of its latest load or store) and, of each thread, the latest event
// it knows (its acquired and acquire-fence clocks joined). False, and
// nothing read, when `t` is not the running thread (the end of an
// execution runs on no thread).
inline bool running_knowledge(int t, uint64_t& own, uint64_t* know) {
    rl::thread_info_base* b = rl::ctx().threadx_;
    if (!b || (int)b->index_ != t) return false;
    Clocks c = detail::g_clocks(b);
    own = *c.own;
    for (int u = 0; u < c.nthreads; u++) know[u] = std::max(c.acq_rel[u], c.acq_fence[u]);
    for (int u = c.nthreads; u < kMaxSimThreads; u++) know[u] = 0;
    return true;
}
// Whether the running thread's last load read a store the model's setup
// made (an initial value: first in its location's coherence order), and
// whether any access of this execution so far was a C plain one: for
// dpor's observed-fence-order rule (search/fence_order.h).
inline bool load_read_setup() { return detail::g_load_read_setup; }
inline bool plain_access_seen() { return detail::g_plain_access; }
// The running program makes no C plain access and frees no object, in
// this execution or any other (its front end knows its whole program):
// declare_marked_only(); marked_only() also checks that no plain access
// ran. (promises_made(), below: the promises of this execution so far; a
// thread's knowledge may grow when another thread keeps one.)
inline void declare_marked_only() { detail::g_marked_only = true; }
inline bool marked_only() { return detail::g_marked_only && !detail::g_plain_access; }
// The seq_cst fence order's clock: what the strong fences so far knew.
inline void fence_order_clock(uint64_t* out, int n) {
    const rl::timestamp_t* g = rl::ctx().seq_cst_fence_order_;
    for (int u = 0; u < n; u++) out[u] = g[u];
    for (int u = n; u < kMaxSimThreads; u++) out[u] = 0;
}
// A spinlock released (its release store just made), and one taken (its
// acquire just made, its load the thread's latest): po-unlock-lock-po,
// above. `lock`: the lock word.
inline void spin_unlocked(const void* lock) {
    if (!detail::g_lkmm) return;
    note_unlock(running_clocks(), lock);
}
// `orders_loads`: the po case orders the later accesses after the loads
// before the unlock too (false: a layer mutation).
inline void spin_locked(const void* lock, bool orders_loads = true) {
    if (!detail::g_lkmm) return;
    Clocks c = running_clocks();
    unsigned nr = detail::g_nreads[c.index];
    const detail::ReadMsg* taken = nr ? &detail::g_read_msg[c.index][(nr - 1) % kDepReads] : nullptr;
    // The releasing thread's unlock of this lock word: the latest one it
    // made (the lock word's latest store, which the acquire read). Not
    // among its last kUnlocks: everything the release published, as
    // A-cumulative (more ordering: misses, never false alarms).
    const rl::timestamp_t* rf_view = nullptr;
    if (taken && taken->from >= 0 && taken->from != c.index) {
        int q = taken->from;
        unsigned n = detail::g_nunlocks[q];
        for (unsigned k = 0; k < (unsigned)detail::kUnlocks && k < n && !rf_view; k++) {
            const detail::UnlockView& v = detail::g_unlock_by_lock[q][(n - 1 - k) % detail::kUnlocks];
            if (v.lock == lock) rf_view = v.view;
        }
        if (!rf_view) rf_view = taken->c;
    }
    for (int t = 0; t < c.nthreads; t++) {
        c.rel_fence[t] = std::max(c.rel_fence[t], detail::g_unlock_last[c.index].view[t]);
        if (rf_view) c.rel_fence[t] = std::max(c.rel_fence[t], rf_view[t]);
    }
    // The po case also orders the taker's later marked accesses after its
    // loads before its unlock (po-unlock-lock-po is in ppo): after what
    // they read (those whose promises were kept since, what the keeping
    // store published; detail::g_ul), and the promises an early unlock
    // left open can no longer be kept.
    const detail::UnlockView& own = detail::g_unlock_last[c.index];
    if (!own.lock) return;
    if (detail::g_early_rules.unlock_lock_refuses) detail::order_after_loads_before(c.index, own.loads);
    if (!orders_loads) return;
    rl::timestamp_t acq[kMaxSimThreads];
    for (int t = 0; t < c.nthreads; t++) acq[t] = own.acq_fence[t];
    detail::join_kept_loads(c, own.loads, 0, acq, nullptr);
    for (int t = 0; t < c.nthreads; t++) detail::g_ul[c.index][t] = std::max(detail::g_ul[c.index][t], acq[t]);
}

// The running thread's later accesses are ordered after all its earlier
// loads: their promises not kept by now can no longer be.
inline void order_after_earlier_loads() {
    if (detail::g_promises) detail::order_after_loads(rl::ctx().threadx_->index_, true);
}

// A release that orders the running thread's earlier loads only for the
// acquires that read it, not for the thread's own later accesses: the end
// of an RCU read-side section, which orders the section's loads before a
// grace period that reads it and before nothing the thread does next
// (the LKMM's rcu_read_unlock() is no barrier). While one is alive, a
// release store leaves the thread's open promises open; open() gives
// them, for take() in the acquiring thread.
class deferred_load_order {
public:
    // `on` false: a plain release.
    explicit deferred_load_order(bool on = true) : on_(on) { detail::g_release_defers = on; }
    ~deferred_load_order() { detail::g_release_defers = false; }
    deferred_load_order(const deferred_load_order&) = delete;
    deferred_load_order& operator=(const deferred_load_order&) = delete;
    // The running thread's promises (by index) so far, but those refused:
    // the loads the release orders, whose promises it leaves open and
    // whose causes it does not carry (so the thread's own later acquire of
    // the word, its next rcu_read_lock(), is not ordered after them).
    uint32_t open() const {
        if (!on_ || !detail::g_promises) return 0;
        int me = rl::ctx().threadx_->index_;
        uint32_t m = 0;
        for (int i = 0; i < detail::g_npromises; i++) {
            const detail::Promise& p = detail::g_promise[i];
            if (p.reader == me && (p.kept || !p.touched)) m |= 1u << i;
        }
        return m;
    }
    // The running thread has just acquired a release that left `promises`
    // open: it is ordered after those loads, and after what the stores
    // that kept them were ordered after (their causes). One not kept by
    // now can no longer be (as order_after_loads(); for dpor this step
    // reads its location). What a keeping store published is what its
    // load read, and the release would have carried it had it come first:
    // the acquire takes it (the whole of what the reader's kept promises
    // published if that load's record is gone: more ordering, never less).
    static void take(uint32_t promises) {
        if (!promises || !detail::g_promises) return;
        Clocks th = running_clocks();
        int me = th.index;
        for (int i = 0; i < detail::g_npromises; i++) {
            if (!(promises >> i & 1)) continue;
            detail::Promise& p = detail::g_promise[i];
            rl::timestamp_t& full = detail::g_cause_full[me][p.reader];
            rl::timestamp_t& all = detail::g_cause_all[me][p.reader];
            full = std::max(full, p.at);
            all = std::max(all, p.at);
            if (!p.kept) {
                if (!p.touched) {
                    p.touched = true;
                    note_access(p.key, false);
                }
                continue;
            }
            bool held = detail::g_nreads[p.reader] - p.number <= kDepReads;
            const detail::ReadMsg& msg = detail::g_read_msg[p.reader][p.number % kDepReads];
            for (int t = 0; t < th.nthreads; t++) {
                th.acq_rel[t] = std::max(th.acq_rel[t], held ? msg.c[t] : detail::g_kept_join[p.reader][t]);
                if (detail::g_lkmm)
                    th.glob[t] = std::max(th.glob[t], held ? msg.g[t] : detail::g_kept_gjoin[p.reader][t]);
                detail::g_cause_full[me][t] = std::max(detail::g_cause_full[me][t], p.kept_cause[t]);
                detail::g_cause_all[me][t] = std::max(detail::g_cause_all[me][t], p.kept_cause[t]);
            }
        }
    }

private:
    bool on_;
};

// Of the promises in `mask` (by index), those still open: not kept, and
// not refused (a promise refused can no longer be kept).
inline uint32_t promises_open(uint32_t mask) {
    uint32_t m = 0;
    for (int i = 0; i < detail::g_npromises; i++)
        if ((mask >> i & 1) && !detail::g_promise[i].kept && !detail::g_promise[i].touched) m |= 1u << i;
    return m;
}
// The dependency key of promise i's location (a store there may keep it).
inline Key promise_key(int i) { return detail::g_promise[i].key; }
// Thread t has ended (its function returned).
inline void thread_done(int t) {
    detail::g_done_mask |= 1u << t;
    if (detail::g_promises) detail::refuse_doomed();
}
// Thread t's next load makes no promise (on), or may again (off). A front
// end says so for a load whose thread's next operation is a full barrier:
// such a promise is kept before the barrier, while the reader has taken no
// step since the load, or refused by it, and an execution of the first
// kind is one where the load runs after the keeping store and reads it
// (search/kept_cut.h), which a complete search explores too.
inline void next_load_makes_no_promise(int t, bool on) {
    if (t < 0 || t >= kMaxSimThreads) return;
    if (on) detail::g_no_promise_mask |= 1u << t;
    else detail::g_no_promise_mask &= ~(1u << t);
}
// Whether loads may make promises, for the execution under way (off at
// the start of each; a front end whose locations have domains turns it on
// before its threads run).
inline bool promises_on() { return detail::g_promises; }
// The promises the execution has made so far, kept or not.
inline int promises_made() { return detail::g_npromises; }
// `rules`: what an access ordered after a promised load by a dependency
// may do (detail::Early).
inline void set_promises(bool on, const detail::EarlyRules& rules = {}) {
    detail::g_promises = on;
    detail::g_early_rules = rules;
    for (int t = 0; t < kMaxSimThreads; t++)
        for (int u = 0; u < kMaxSimThreads; u++)
            detail::g_cause_full[t][u] = detail::g_cause_all[t][u] = detail::g_kept_join[t][u] = detail::g_kept_gjoin[t][u] = 0;
}

// Before each execution.
inline void begin_execution_deps() {
    for (int t = 0; t < kMaxSimThreads; t++) {
        detail::g_nreads[t] = 0;
        detail::g_dep_told[t] = false;
    }
    detail::g_npromises = 0;
    detail::g_load_read_setup = false;
    detail::g_plain_access = false;
    detail::g_marked_only = false;
    detail::g_nearly = 0;
    detail::g_npending_races = 0;
    detail::g_early_noted = -1;
    detail::g_flagged = detail::g_flagged_at_access = 0;
    detail::g_done_mask = 0;
    detail::g_no_promise_mask = 0;
    detail::g_promise_overflow = false;
    detail::g_nkept = 0;
    detail::g_promises = false;
    for (int t = 0; t < kMaxSimThreads; t++) {
        detail::g_npost[t] = 0;
        detail::g_post_dropped[t] = 0;
        detail::g_nmark[t] = 0;
        detail::g_storing = nullptr;
        detail::g_mb_cover[t] = detail::g_rmb_cover[t] = detail::g_acq_cover[t] = detail::g_wmb_cover[t] = 0;
        detail::g_unlock_last[t] = {};
        detail::g_nunlocks[t] = 0;
        detail::g_store_stamp[t][0] = detail::g_store_stamp[t][1] = 0;
    }
    for (int t = 0; t < kMaxSimThreads; t++) detail::g_kept_pending[t] = false;
    for (int t = 0; t < kMaxSimThreads; t++) detail::g_rd_loads[t] = 0;
    for (int t = 0; t < kMaxSimThreads; t++)
        for (int u = 0; u < kMaxSimThreads; u++)
            detail::g_glob[t][u] = detail::g_glob_pend[t][u] = detail::g_rd[t][u] = detail::g_rd_glob[t][u] =
                detail::g_ld[t][u] = detail::g_ld_glob[t][u] = detail::g_ul[t][u] = 0;
}
// The layer flagged a data race in the running execution (early accesses
// ran their race checks without what a promise's store would publish:
// detail::Early): the running access's, with thread `other`'s access of
// trace event `ev` when that one is known (an early access then took part
// in it: Early::raced).
inline void note_flagged(int other = -1, int ev = -1);
// The layer begins a load or a store of a location, before its race check.
inline void access_begins() {
    detail::g_flagged_at_access = detail::g_flagged;
    detail::g_early_noted = -1;
}
// The trace event of the running access, which may have run early, once
// its race check is done.
inline void note_early_event(int ev) {
    if (detail::g_early_noted >= 0) {
        detail::g_early[detail::g_early_noted].event = ev;
        detail::g_early[detail::g_early_noted].flagged_end = detail::g_flagged;
    }
    detail::g_early_noted = -1;
}
namespace detail {
// The entry of thread `other`'s access of trace event `ev` while it is
// early, its promises open (-1: none).
inline int early_entry(int other, int ev) {
    if (ev < 0) return -1;
    for (int k = 0; k < g_nearly; k++)
        if (g_early[k].thread == other && g_early[k].event == ev && g_early[k].mask) return k;
    return -1;
}
}  // namespace detail
inline void note_flagged(int other, int ev) {
    detail::g_flagged++;
    int k = other < 0 ? -1 : detail::early_entry(other, ev);
    if (k >= 0) detail::g_early[k].raced = true;
}
// The running access of thread `me` races with thread `other`'s access,
// trace event `ev`. True when that access ran early and the loads it
// depends on do not bound it (detail::Early::bounded), and `me` has no
// promise open: no keep can then order the two (the LKMM orders a plain
// access after another thread's by an address dependency or a fence, not
// by a control or data one), so the race stands in every execution that
// keeps the promises, and the layer flags it without refusing the keep
// (no note_flagged()). An execution whose promises are not kept drops
// its flags.
inline bool race_is_final(int other, int ev, int me) {
    if (!detail::g_early_rules.unbounded_race_final || ev < 0) return false;
    bool found = false;
    for (int k = 0; k < detail::g_nearly; k++) {
        const detail::Early& e = detail::g_early[k];
        if (e.thread != other || e.event != ev || !e.mask) continue;
        if (e.bounded) return false;
        found = true;
    }
    if (!found) return false;
    for (int i = 0; i < detail::g_npromises; i++) {
        const detail::Promise& p = detail::g_promise[i];
        if (p.reader == me && !p.kept && !p.touched) return false;
    }
    return true;
}
// The running access of thread `me` (its clock `stamp`) races with
// thread `other`'s access, trace event `ev`: when that access ran early
// with a promise of its thread still open, the race waits for the keep
// (detail::PendingRace) and this returns true; false: flag it now.
// `msg`: the race, as the layer words it.
inline bool defer_race(int other, int ev, int me, rl::timestamp_t stamp, const char* msg) {
    if (!detail::g_early_rules.defer_races) return false;
    int k = detail::early_entry(other, ev);
    if (k < 0 || detail::g_npending_races == detail::kMaxPendingRaces) return false;
    detail::PendingRace& r = detail::g_pending_race[detail::g_npending_races++];
    r = {k, false, me, stamp, ev, {}, nullptr, 0, false, nullptr, false, false};
    std::snprintf(r.msg, sizeof r.msg, "%s", msg);
    return true;
}
// The deferred races the last keep left standing: f(thread, cause event,
// message) flags each one, once.
template <class F>
inline void flag_due_races(F f) {
    for (int k = 0; k < detail::g_npending_races; k++) {
        detail::PendingRace& r = detail::g_pending_race[k];
        if (r.early < 0 || !r.due) continue;
        r.early = -1;
        note_flagged();
        f(r.thread, r.cause, r.msg);
    }
}
// The trace event of the load that just made a promise, and its
// location's dependency key.
inline void note_promise(int ev, Key key) {
    if (detail::g_npromises == 0) return;
    detail::g_promise[detail::g_npromises - 1].event = ev;
    detail::g_promise[detail::g_npromises - 1].key = key;
}
// The events of the loads whose promises the last store kept (taken once).
inline int take_kept_promises(const int** events) {
    *events = detail::g_kept_events;
    int n = detail::g_nkept;
    detail::g_nkept = 0;
    return n;
}
// The threads with a promise that was refused (it can no longer be
// kept), as a mask by thread index.
inline uint32_t refused_readers() {
    uint32_t m = 0;
    for (int i = 0; i < detail::g_npromises; i++) {
        const detail::Promise& p = detail::g_promise[i];
        if (p.touched && !p.kept) m |= 1u << p.reader;
    }
    return m;
}
// Promises of this execution that no store kept.
inline int promises_broken() {
    int n = 0;
    for (int i = 0; i < detail::g_npromises; i++) n += !detail::g_promise[i].kept;
    return n;
}
// How many loads the running thread has made: the next one is number
// loads_done().
inline unsigned loads_done() { return detail::g_nreads[rl::ctx().threadx_->index_]; }
// The running thread's next access depends on the loads whose numbers are
// the set bits of `mask` (bit k: load number base + k; no bit: it depends
// on nothing). Loads more than kDepReads back are no longer kept: an
// access that depends on one depends on every earlier load. `ctrl`: the
// bits of `mask` that are control dependencies only, which order an RMW's
// store but not its load (linux-kernel.cat: rwdep, ctrl to a write).
// `addr`: the bits of `mask` that are address dependencies (pre_bound()).
inline void depend_on(uint64_t mask, unsigned base = 0, uint64_t ctrl = 0, uint64_t addr = 0) {
    int t = (int)rl::ctx().threadx_->index_;
    detail::g_dep_mask[t] = mask;
    detail::g_dep_ctrl[t] = ctrl & mask;
    detail::g_dep_addr[t] = addr & mask;
    detail::g_dep_base[t] = base;
    detail::g_dep_told[t] = true;
}

// One simulated atomic location: its stores in modification order (the
// order they ran in), the last kHistory kept, each with the clocks that
// decide which loads may still read it. The rules are Relacy's own
// (relacy/thread.hpp: get_load_index, atomic_load, atomic_store,
// atomic_rmw), over the running thread's clocks; the location keeps its own
// history so that its depth is ours to choose. Every choice of a store
// to read is a nondeterministic choice of Relacy's scheduler, which the
// tree searches explore one branch at a time.
template <class T>
class atomic {
    // Left uninitialized: a record is read only once a store has written it.
    struct Rec {
        T value;
        bool seq_cst;
        bool rmw;                                   // it read the store before it in the order
        bool setup;                                 // made by the model's setup
        int thread;
        rl::timestamp_t stamp;                      // the writer's clock at the store
        rl::timestamp_t released[kMaxSimThreads];   // what a reader that synchronizes acquires
        rl::timestamp_t glob[kMaxSimThreads];       // the part of it that reached every thread (LKMM)
        rl::timestamp_t first_seen[kMaxSimThreads]; // each thread's clock when it first read it
        // Under the LKMM: a C plain store (set_plain()), and the threads
        // whose first read of it (first_seen) was a plain load or read this
        // plain store: the LKMM's prop and hb take rfe and fre only between
        // marked accesses, so such a read orders no other thread's access
        // after it (note_sighting(), orders_others()).
        bool plain;
        uint32_t plain_seen;
        rl::timestamp_t cause[kMaxSimThreads];      // the loads it is ordered after (with promises)
        // Under the LKMM, what the loads its value or address depends on
        // are ordered after (and the part that reached every thread): a
        // load of its own thread that reads it is ordered after those
        // loads too (linux-kernel.cat's to-r: dep ; [Marked] ; rfi).
        bool has_dep;
        rl::timestamp_t dep_c[kMaxSimThreads];
        rl::timestamp_t dep_g[kMaxSimThreads];
        // Under the LKMM, what the marked loads its value depends on bound
        // for the race check, directly or carried through an earlier store
        // and load of the thread (ReadMsg::carried): carry-dep ; addr from
        // a marked load is r-pre-bounded and w-pre-bounded.
        bool has_bound;
        rl::timestamp_t bound_c[kMaxSimThreads];
    };
    // The values a promise may name (set_promisable), compared under the mask.
    // By reading thread, each value with the threads that may write it.
    const T* domain_[kMaxSimThreads] = {};
    const uint32_t* writers_[kMaxSimThreads] = {};
    unsigned ndomain_[kMaxSimThreads] = {};
    bool any_domain_ = false;
    // The threads that will store to this location no more (close_stores()).
    uint32_t closed_ = 0;
    // The values some thread will store here no more (close_value()), as
    // promise values compare (under domain_mask_), each with those threads.
    uint64_t vclosed_value_[kMaxDomain];
    uint32_t vclosed_by_[kMaxDomain];
    unsigned nvclosed_ = 0;
    // The threads that will store `v` here no more, by location or value.
    uint32_t closed_for(uint64_t v) const {
        uint32_t m = closed_;
        for (unsigned i = 0; i < nvclosed_; i++)
            if (vclosed_value_[i] == (v & domain_mask_)) m |= vclosed_by_[i];
        return m;
    }
    uint64_t domain_mask_ = ~0ULL;
    // Store number n (1, 2, ...) is hist_[n % kHistory] while it is one of
    // the last kHistory; 0 is the state before the first store, which no
    // load may read.
    Rec hist_[kHistory];
    unsigned cur_ = 0;
    bool initialized_ = false;
    // An unconditional RMW under the LKMM (rmw_placed()): its load may
    // read an older store, and its store then goes right after that one.
    bool place_rmw_ = false;
    unsigned rmw_read_ = 0;   // the store the running RMW's load read
    bool rmw_promised_ = false;  // the running RMW's load made a promise
    bool rmw_data_ = false;      // the running RMW's write is computed from what it read
    // A conditional RMW under the LKMM (rmw_cond()): bit d of cond_pass_
    // says whether store cur_ - d passes its condition; cond_older_pass_
    // whether a passing store older than the latest may be read;
    // cond_passed_ whether the store its load read passes.
    bool cond_ = false;
    bool cond_older_pass_ = false;
    bool cond_only_pass_ = false;
    bool cond_only_fail_ = false;  // reads only a store, or promises only a value, that fails
    // The running RMW returns no value (set_noreturn()): smp_rmb() orders
    // its load neither after the loads before it nor before those after.
    bool noreturn_ = false;
    bool plain_ = false;  // the running access is a C plain one (set_plain())
    bool rmw_release_orders_loads_ = true;
    bool cond_passed_ = false;
    uint64_t cond_pass_ = 0;
    uint64_t cond_dom_pass_ = 0;  // bit k: the running thread's domain value k passes
    // What the running RMW's store depends on (rmw_store_dep()), for where
    // it may go: its load may depend on less (a control dependency).
    const rl::timestamp_t* place_dep_ = nullptr;
    rl::timestamp_t place_dep_buf_[kMaxSimThreads];

    static bool acquires(MemOrder o) { return o == MemOrder::acquire || o == MemOrder::acq_rel || o == MemOrder::seq_cst || o == MemOrder::consume; }
    static bool releases(MemOrder o) { return o == MemOrder::release || o == MemOrder::acq_rel || o == MemOrder::seq_cst; }
    // Store n, if the history still holds it.
    const Rec* rec(unsigned n) const {
        if (n == 0 || n > cur_ || cur_ - n >= kHistory) return nullptr;
        return &hist_[n % kHistory];
    }
    [[noreturn]] static void uninitialized() {
        rl::ctx().fail_test("", rl::test_result_unitialized_access, RL_INFO);
        throw std::logic_error("unreachable");
    }

    // Which store a load reads: the latest, or (a plain load, not an RMW)
    // one further back while the load is not ordered after the newer one:
    // not by a seq_cst pair, not by happens-before of the newer store, not
    // by read-read coherence (a thread that has seen a newer store, or
    // happens after one that has), not by the reader's last cpu_relax().
    // May a load that has come back to store `index` read an older one?
    // `dep`: what the access is ordered after by its dependencies (or null).
    // What the running access is ordered after, of thread t's clock: what
    // happens before it, what its dependencies order it after, and for a
    // load, what an smp_rmb() before it orders it after.
    static rl::timestamp_t known(const Clocks& th, const rl::timestamp_t* dep, int t, bool load, bool marked = false) {
        rl::timestamp_t k = dep ? std::max(th.acq_rel[t], dep[t]) : th.acq_rel[t];
        if (marked) k = std::max(k, detail::g_ul[th.index][t]);
        return load ? std::max(k, detail::g_rd[th.index][t]) : k;
    }
    // Thread t's first read of store r: it orders the running thread `me`
    // (coherence through happens-before: CoRR, CoRW) unless it was a read
    // only the reader's own program order sees, one with a C plain access
    // at either end (Rec::plain_seen).
    static bool orders_others(const Rec& r, int t, int me) { return t == me || !((r.plain_seen >> t) & 1); }
    // The running load reads another thread's store r with a C plain
    // access at either end, under the LKMM.
    bool plain_read(const Rec& r, const Clocks& th) const {
        return detail::g_lkmm && (plain_ || r.plain) && r.thread != th.index;
    }
    // The running thread reads store r (not a promise): its first read of
    // it, or its first marked read of a marked store after plain ones.
    void note_sighting(Rec& r, const Clocks& th) const {
        uint32_t bit = 1u << th.index;
        bool own = plain_read(r, th);
        if (r.first_seen[th.index] == (rl::timestamp_t)-1) {
            r.first_seen[th.index] = *th.own;
            if (own) r.plain_seen |= bit;
        } else if (!own && (r.plain_seen & bit)) {
            r.first_seen[th.index] = *th.own;
            r.plain_seen &= ~bit;
        }
    }
    // Whether an access of thread `me`, ordered after `k(t)` of each thread
    // t's clock, knows of store r: the store happens before it, or a first
    // read of the store that orders `me` does (orders_others()). A load
    // that knows of a store cannot read an older one (CoRR, CoWR); a store
    // that knows of one cannot go before it (CoWW, CoRW).
    template <class K>
    static bool knows(const Rec& r, int me, int nthreads, K k) {
        if (k(r.thread) >= r.stamp) return true;
        for (int t = 0; t < nthreads; t++)
            if (orders_others(r, t, me) && k(t) >= r.first_seen[t]) return true;
        return false;
    }
    bool may_pass(const Clocks& th, MemOrder mo, unsigned index, const rl::timestamp_t* dep) const {
        const Rec* r = rec(index);
        if (!r) uninitialized();
        const Rec* prev = rec(index - 1);
        if (prev && prev->first_seen[th.index] <= th.last_yield) return false;
        if (mo == MemOrder::seq_cst && r->seq_cst) return false;
        return !knows(*r, th.index, th.nthreads, [&](int t) { return known(th, dep, t, !noreturn_, !plain_); });
    }
    // What the running access depends on (depend_on), into `buf`: null
    // for nothing. A store without a description depends on every
    // earlier load of its thread.
    // With promises on, `cause` gets the loads the access is ordered
    // after: those it depends on, what they were ordered after, and what
    // the thread's acquires and full fences order everything after.
    // Under the LKMM, `*gdep` gets the part of it that reached every thread
    // (ReadMsg::g; the thread's glob_pend for every earlier load).
    // `early`: the access may run before the promises of the loads it
    // depends on are kept (detail::Early), so it refuses only an RMW's.
    static const rl::timestamp_t* dependency(const Clocks& th, bool store, rl::timestamp_t* buf,
                                             rl::timestamp_t* gbuf, const rl::timestamp_t** gdep,
                                             rl::timestamp_t* cause = nullptr, bool early = false) {
        int me = th.index;
        *gdep = nullptr;
        if (cause)
            for (int t = 0; t < th.nthreads; t++) cause[t] = detail::g_cause_full[me][t];
        auto all = [&] {
            if (cause)
                for (int t = 0; t < th.nthreads; t++) cause[t] = std::max(cause[t], detail::g_cause_all[me][t]);
            detail::order_after_loads(me, true);
            *gdep = th.glob_pend;
            return th.acq_fence;
        };
        if (!detail::g_dep_told[me]) return store && detail::g_lkmm ? all() : nullptr;
        detail::g_dep_told[me] = false;
        if (!detail::g_lkmm) return nullptr;  // C++ orders nothing by dependencies
        uint64_t m = detail::g_dep_mask[me];
        if (!m) return nullptr;
        for (int t = 0; t < th.nthreads; t++) buf[t] = gbuf[t] = 0;
        *gdep = gbuf;
        bool gone = false;
        const uint64_t ctrl = detail::g_dep_ctrl[me];
        const unsigned base = detail::g_dep_base[me];
        detail::for_each_dep_read(me, m, [&](const detail::ReadMsg* msg, unsigned n) {
            if (!msg) return !(gone = true);  // no longer kept: every earlier load
            // A control dependency on a plain load does not order the
            // access after the load (the LKMM's ppo is in hb between
            // marked accesses only, and a branch makes no value up): the
            // load's promise stays open, the access does not run early
            // before it, and only what the load carried from a store of
            // its own thread (carry-dep) orders the access. A data or
            // address dependency on it still refuses its promise: the
            // value or location the access takes could then come from the
            // value it promises, which herd7 never makes up.
            bool unordered = msg->plain && (ctrl >> (n - base) & 1) && detail::g_early_rules.plain_ctrl_unordered;
            if (!unordered) detail::order_after_loads(me, false, n, early);
            for (int t = 0; t < th.nthreads; t++) {
                buf[t] = std::max(buf[t], msg->c[t]);
                gbuf[t] = std::max(gbuf[t], msg->g[t]);
                if (cause) cause[t] = std::max(cause[t], unordered && t == me ? msg->carried_me : msg->cause[t]);
            }
            return true;
        });
        return gone ? all() : buf;
    }
    // What the running access's address and data dependencies (the
    // description's loads, without its control dependencies) order it
    // after, into c and g (ReadMsg::c and ::g); false for none. Only an
    // access the model described (the litmus interpreter): a protocol
    // model's store depends on every earlier load by control.
    static bool data_dependency(const Clocks& th, rl::timestamp_t* c, rl::timestamp_t* g) {
        int me = th.index;
        if (!detail::g_lkmm || !detail::g_dep_told[me]) return false;
        uint64_t m = detail::g_dep_mask[me] & ~detail::g_dep_ctrl[me];
        if (!m) return false;
        for (int t = 0; t < th.nthreads; t++) c[t] = g[t] = 0;
        detail::for_each_dep_read(me, m, [&](const detail::ReadMsg* msg, unsigned) {
            // A load no longer kept: every earlier load.
            const rl::timestamp_t* mc = msg ? msg->c : th.acq_fence;
            const rl::timestamp_t* mg = msg ? msg->g : th.glob_pend;
            for (int t = 0; t < th.nthreads; t++) {
                c[t] = std::max(c[t], mc[t]);
                g[t] = std::max(g[t], mg[t]);
            }
            return msg != nullptr;
        });
        return true;
    }
    // What the loads the running store's value depends on (those of
    // data_dependency()) bound for the race check (Rec::bound_c,
    // detail::race_bound_of()), into c; false for none.
    static bool data_bound(const Clocks& th, rl::timestamp_t* c) {
        int me = th.index;
        if (!detail::g_lkmm || !detail::g_dep_told[me]) return false;
        uint64_t m = detail::g_dep_mask[me] & ~detail::g_dep_ctrl[me];
        bool any = false;
        for (int t = 0; t < th.nthreads; t++) c[t] = 0;
        detail::for_each_dep_read(me, m, [&](const detail::ReadMsg* msg, unsigned) {
            const rl::timestamp_t* b = detail::race_bound_of(msg);
            if (!b) return true;
            for (int t = 0; t < th.nthreads; t++) c[t] = std::max(c[t], b[t]);
            any = true;
            return true;
        });
        return any;
    }
    unsigned load_index(const Clocks& th, MemOrder mo, bool rmw, const rl::timestamp_t* dep) {
        unsigned index = cur_;
        if (rmw && place_rmw_) {
            // Past each newer store the load may pass and the RMW's store
            // may precede, one choice at a time; past an RMW chain whole
            // (precede_past: nothing comes between an RMW and the store
            // it read).
            for (unsigned k; (k = precede_past(th, mo, index, place_dep_, true, dep)) != 0 &&
                             rl::ctx().rand(2, rl::sched_type_atomic_load) == 1;)
                index = k - 1;
            rmw_read_ = index;
        }
        if (cond_) return cond_index(th, mo, dep);
        if (!rmw) {
            unsigned limit = detail::g_load_window;
            unsigned i = 0;
            // Choice 0 reads this store, 1 looks one further back.
            for (; i != limit; ++i, --index)
                if (!may_pass(th, mo, index, dep) ||
                    detail::rand_preferring(2, !wants(th.index) ? -1 : wanted(th.index, hist_[index % kHistory].value) ? 0 : 1) == 0)
                    break;
            // Came back as far as the window goes, and an older store it
            // could read is out of reach: the execution says so.
            if (i == limit && limit == kHistory - 1 && index > 1 && may_pass(th, mo, index, dep)) detail::g_reads_cut++;
        }
        if (!rec(index)) uninitialized();
        return index;
    }
    // Which store a conditional RMW's load reads (rmw_cond()): one a
    // relaxed load may read when its value fails the condition (the RMW is
    // then a read and nothing more); one whose value passes when the RMW's
    // store may take its place right after it, before every newer store
    // (may_pass and may_precede under the RMW's own order, as
    // rmw_placed's), and it is the latest or cond_older_pass_ allows it.
    // Each store it may read is one choice of one data node, the latest
    // first. Sets rmw_read_ and cond_passed_.
    unsigned cond_index(const Clocks& th, MemOrder mo, const rl::timestamp_t* dep) {
        unsigned cand[kHistory];
        unsigned nc = 0;
        // The RMW's store may go before every store newer than k (past
        // an RMW chain whole: nothing comes between an RMW and the store
        // it read), so right after store k when store k + 1 is not glued.
        bool place = true;
        unsigned k = cur_;
        for (;;) {
            bool passes = (cond_pass_ >> (cur_ - k)) & 1;
            bool here = place && (k == cur_ || (cond_older_pass_ && !glued(k + 1)));
            if (cond_only_pass_ ? passes && here : cond_only_fail_ ? !passes : !passes || here) cand[nc++] = k;
            if (k <= 1 || cur_ - k + 2 >= kHistory) {
                if (k > 1 && may_pass(th, MemOrder::relaxed, k, dep)) detail::g_reads_cut++;
                break;
            }
            if (!may_pass(th, MemOrder::relaxed, k, dep)) break;
            place = place && may_pass(th, mo, k, dep) && may_precede(th, mo, k, place_dep_, true);
            k--;
        }
        // Only passing stores, and none can be read (the barrier taken
        // for it ordered the load after them): the latest, which fails,
        // as without the barrier, which the RMW keeps (stronger, never
        // weaker).
        if (nc == 0) cand[nc++] = cur_;
        unsigned index = cand[nc > 1 ? rl::ctx().rand(nc, rl::sched_type_atomic_load) : 0];
        if (!rec(index)) uninitialized();
        rmw_read_ = index;
        cond_passed_ = (cond_pass_ >> (cur_ - index)) & 1;
        return index;
    }
    // Whether a store whose value fails the running conditional RMW's
    // condition (cond_pass_) is one its load, as a relaxed read with the
    // dependencies `dep`, may read: the latest, or an older one
    // cond_index()'s walk reaches.
    bool fail_store_readable(const Clocks& th, const rl::timestamp_t* dep) const {
        if (!(cond_pass_ & 1)) return true;
        for (unsigned k = cur_; k > 1 && cur_ - k + 2 < kHistory && may_pass(th, MemOrder::relaxed, k, dep);) {
            k--;
            if (!((cond_pass_ >> (cur_ - k)) & 1)) return true;
        }
        return false;
    }
    // A load that reads another thread's store `index`, after the running
    // thread's earlier loads read older stores of other threads (still
    // kept): each of those loads is from-read before that store, which
    // the new load reads from (linux-kernel.cat: prop's fre then rfe,
    // within one thread, is hb). So what is ordered after the new load is
    // ordered after those loads too, and after what their stores
    // published: joined into `rel` and `glob`.
    void earlier_reads(const Clocks& th, unsigned index, rl::timestamp_t* rel, rl::timestamp_t* glob) const {
        for (unsigned k = index - 1; k >= 1 && index - k < kHistory; k--) {
            const Rec* e = rec(k);
            if (!e) break;
            if (e->thread == th.index || e->first_seen[th.index] == (rl::timestamp_t)-1) continue;
            for (int t = 0; t < th.nthreads; t++) {
                rel[t] = std::max(rel[t], e->released[t]);
                glob[t] = std::max(glob[t], e->glob[t]);
            }
        }
    }
    // The load's effect on the reader's clocks.
    // The running thread touches this location: its promises on it can
    // no longer be kept.
    // An RMW's promise is not: the RMW's store fixes the place of the
    // thread's later accesses to the location after the store that keeps it.
    // A promise bounded by a store of its reader (Promise::bound) is not
    // touched: a later access of the reader comes after that store, which
    // the keeping store goes before.
    void touch(int me) const {
        for (int i = 0; i < detail::g_npromises; i++) {
            detail::Promise& p = detail::g_promise[i];
            if (p.loc == this && p.reader == me && !p.rmw && !p.bound) p.touched = true;
        }
    }
    // The running thread's store (`stamp`, not an RMW's) to this location,
    // which may run before its loads' promises here are kept: each one not
    // bounded yet is bounded by it (Promise::bound). A marked store is
    // ordered after those loads (linux-kernel.cat's to-w: overwrite & int):
    // `cause` gets them, so that it runs early (detail::Early).
    void bound_promises(int me, rl::timestamp_t stamp, rl::timestamp_t* cause) const {
        for (int i = 0; i < detail::g_npromises; i++) {
            detail::Promise& p = detail::g_promise[i];
            if (p.loc != this || p.reader != me || p.rmw || p.kept || p.touched) continue;
            if (!p.bound) p.bound = stamp;
            if (!plain_) cause[me] = std::max(cause[me], p.at);
        }
    }
    bool promising() const { return detail::g_promises && any_domain_; }
    // The running load of thread t wants a value (detail::g_wants), and v is it.
    static bool wants(int t) { return std::is_same_v<T, uint64_t> && detail::g_wants[t] && detail::g_wanted_value; }
    static bool wanted(int t, T v) {
        if constexpr (std::is_same_v<T, uint64_t>) return wants(t) && detail::g_wanted_value(t, v);
        else return false;
    }
    // Thread `me` has a load's promise on this location not kept yet.
    bool pending(int me) const {
        for (int i = 0; i < detail::g_npromises; i++) {
            const detail::Promise& p = detail::g_promise[i];
            if (p.loc == this && p.reader == me && !p.rmw && !p.kept && !p.touched && !p.bound) return true;
        }
        return false;
    }
    T do_load(const Clocks& th, MemOrder mo, bool rmw) {
        rl::timestamp_t buf[kMaxSimThreads], gbuf[kMaxSimThreads], cause[kMaxSimThreads];
        bool causes = detail::g_promises;
        // A relaxed load, not an RMW's, may run before the promises it is
        // ordered after are kept (detail::Early).
        bool early = causes && detail::g_lkmm && !rmw && !acquires(mo) && detail::g_early_rules.on;
        bool rmb = early && detail::g_rd_loads[th.index] != 0;
        // smp_rmb() orders no Noreturn RMW (atomic_inc(), atomic_add():
        // linux-kernel.cat's R4rmb), whose load leaves the promises open.
        bool rmb_orders = !(rmw && noreturn_);
        if (causes && detail::g_rd_loads[th.index] && rmb_orders) detail::order_after_read_fence(th.index, early);
        bool addr_dep = detail::g_dep_told[th.index] && detail::g_dep_addr[th.index];
        const rl::timestamp_t* gdep;
        const rl::timestamp_t* dep = dependency(th, false, buf, gbuf, &gdep, causes ? cause : nullptr, early);
        int read_thread = -1;
        rl::timestamp_t read_stamp = 0;
        unsigned& nr = detail::g_nreads[th.index];
        detail::ReadMsg& msg = detail::g_read_msg[th.index][nr % kDepReads];
        nr++;
        msg.plain = false;
        msg.carried = false;
        // A promise: a relaxed load returns a value of the location's
        // domain that a later store must write.
        unsigned pick = 0;
        unsigned eligible[kMaxDomain];
        unsigned nd = 0;
        T value;
        // A conditional acquire RMW (cmpxchg_acquire()) that fails is no
        // acquire (linux-kernel.bell: Acquire excludes FailedRMW): it may
        // promise a value that fails its condition.
        bool fail_only = cond_only_fail_ || (cond_ && mo == MemOrder::acquire);
        bool may_promise = (!rmw || place_rmw_ || cond_) && (!acquires(mo) || (cond_ && mo == MemOrder::acquire)) &&
                           promising() && (rmw || !(detail::g_no_promise_mask >> th.index & 1));
        if (!rmw) detail::g_no_promise_mask &= ~(1u << th.index);
        if (may_promise) {
            // The values a thread that has not ended, nor closed the
            // location, may still write.
            for (unsigned k = 0; k < ndomain_[th.index]; k++)
                if ((writers_[th.index][k] & ~detail::g_done_mask & ~closed_for((uint64_t)domain_[th.index][k])) &&
                    !(fail_only && ((cond_dom_pass_ >> k) & 1)))
                    eligible[nd++] = k;
            if (nd && detail::g_npromises >= kMaxPromises) {
                detail::g_reads_cut++;  // a choice the search did not explore
                nd = 0;
            }
        }
        // A load after a promise of its thread on this location that is not
        // kept yet may not read a store there is: the store that keeps the
        // earlier promise will come after it in coherence order (CoRR). A
        // plain or marked load then promises too (kept no earlier than the
        // earlier one: keep_promises()); anything else refuses the earlier
        // promise (touch()).
        bool follow = nd && !rmw && pending(th.index);
        if (promising() && !follow) touch(th.index);
        // A conditional RMW that must fail and can read no store that
        // fails promises (fails_readable() made sure it can).
        bool must = cond_only_fail_ && !fail_store_readable(th, dep);
        if (must && !nd) throw std::logic_error("rmw_cond: a failing conditional RMW with nothing it may read");
        // Choice 0 makes no promise, j + 1 promises eligible[j]: the
        // preferred one promises the wanted value when the latest store
        // does not hold it.
        int preferred = -1;
        if (nd && !rmw && wants(th.index) && !wanted(th.index, hist_[cur_ % kHistory].value))
            for (unsigned j = 0; j < nd && preferred < 0; j++)
                if (wanted(th.index, domain_[th.index][eligible[j]])) preferred = (int)j + 1;
        if (follow || must) pick = nd > 1 ? 1 + detail::rand_preferring(nd, preferred > 0 ? preferred - 1 : -1) : 1;
        else if (nd) pick = detail::rand_preferring(nd + 1, preferred);
        if (pick) {
            *th.own += 1;
            for (int t = 0; t < th.nthreads; t++) msg.c[t] = msg.g[t] = 0;
            msg.from = -1;
            detail::Promise& p = detail::g_promise[detail::g_npromises++];
            T promised = domain_[th.index][eligible[pick - 1]];
            // A conditional RMW whose promised value fails its condition
            // is a load's promise: it writes nothing (rmw_cond()).
            bool writes = rmw;
            if (cond_) {
                cond_passed_ = (cond_dom_pass_ >> eligible[pick - 1]) & 1;
                writes = cond_passed_;
                rmw_read_ = 0;
                if (!cond_passed_) mo = MemOrder::relaxed;  // a failed RMW orders nothing
            }
            p = {this, (uint64_t)promised, domain_mask_, th.index, *th.own, -1, nr - 1, kKeyAll, false, false, writes, 0};
            p.writers = writers_[th.index][eligible[pick - 1]];
            p.closed = closed_for(p.value);
            for (int t = 0; t < th.nthreads; t++) p.known[t] = t == th.index ? p.at : known(th, dep, t, true, !plain_);
            value = promised;
            rmw_promised_ = writes;
            detail::g_load_read_setup = false;
        } else {
            unsigned index = load_index(th, mo, rmw, dep);
            // A conditional RMW that fails is a relaxed read (rmw_cond()).
            if (cond_ && !cond_passed_) mo = MemOrder::relaxed;
            Rec& r = hist_[index % kHistory];
            value = r.value;
            detail::g_load_read_setup = r.setup && !rmw;
            read_thread = r.thread;
            read_stamp = r.stamp;
            // What the load is ordered after: what its store published,
            // and under the LKMM what the thread's earlier loads of the
            // location read, when it reads another thread's store after
            // theirs (earlier_reads()). Under the LKMM nothing, when the
            // load or the store is a C plain access: hb, prop and
            // cumul-fence take rfe between marked accesses only.
            rl::timestamp_t rel[kMaxSimThreads], glob[kMaxSimThreads];
            bool plain_rfe = plain_read(r, th);
            for (int t = 0; t < th.nthreads; t++) {
                rel[t] = plain_rfe ? 0 : r.released[t];
                glob[t] = plain_rfe ? 0 : r.glob[t];
            }
            if (detail::g_lkmm && r.thread != th.index && !plain_rfe) earlier_reads(th, index, rel, glob);
            // An access ordered after this load is ordered after what it
            // read, and after what an smp_rmb() ordered the load after.
            for (int t = 0; t < th.nthreads; t++) msg.c[t] = std::max(rel[t], detail::g_rd[th.index][t]);
            // A load of the thread's own store is ordered after the loads
            // that store depends on (Rec::dep_c).
            bool own_dep = detail::g_lkmm && r.thread == th.index && r.has_dep;
            if (own_dep)
                for (int t = 0; t < th.nthreads; t++) msg.c[t] = std::max(msg.c[t], r.dep_c[t]);
            msg.from = r.thread;
            if (detail::g_lkmm && r.thread == th.index && r.has_bound) {
                msg.carried = true;
                for (int t = 0; t < th.nthreads; t++) msg.carried_c[t] = r.bound_c[t];
            }
            *th.own += 1;
            note_sighting(r, th);
            rl::timestamp_t* into = acquires(mo) ? th.acq_rel : th.acq_fence;
            for (int t = 0; t < th.nthreads; t++) into[t] = std::max(into[t], rel[t]);
            if (!noreturn_)
                for (int t = 0; t < th.nthreads; t++) {
                    detail::g_ld[th.index][t] = std::max(detail::g_ld[th.index][t], rel[t]);
                    detail::g_ld_glob[th.index][t] = std::max(detail::g_ld_glob[th.index][t], glob[t]);
                }
            if (detail::g_lkmm) {
                // What reached every thread stays so; an access ordered
                // after this load (and what it depends on) is after it.
                rl::timestamp_t* ginto = acquires(mo) ? th.glob : th.glob_pend;
                for (int t = 0; t < th.nthreads; t++) {
                    msg.g[t] = std::max(gdep ? std::max(glob[t], gdep[t]) : glob[t], detail::g_rd_glob[th.index][t]);
                    if (own_dep) msg.g[t] = std::max(msg.g[t], r.dep_g[t]);
                    ginto[t] = std::max(ginto[t], glob[t]);
                }
            }
            // The loads the store was ordered after, for a promise's
            // keep: none through a plain access, as for what it published
            // (hb takes rfe between marked accesses only).
            if (causes && (!plain_rfe || !detail::g_early_rules.plain_rf_unordered))
                for (int t = 0; t < th.nthreads; t++) cause[t] = std::max(cause[t], r.cause[t]);
        }
        // The promises of its thread this load runs before (detail::Early).
        // A load that promises too is early as well (Early::promise); with
        // the rule off (EarlyRules::nested) it refuses them.
        uint32_t early_before = early ? detail::early_mask(th.index, cause, rmb, pick ? detail::g_npromises - 1 : -1) : 0;
        if (early_before && pick && !detail::g_early_rules.nested) {
            detail::refuse_promises(early_before);
            early_before = 0;
        }
        if (early_before) {
            // What depends on this load is ordered after those loads too.
            for (int i = 0; i < detail::g_npromises; i++)
                if (early_before >> i & 1) cause[th.index] = std::max(cause[th.index], detail::g_promise[i].at);
            detail::Early e{};
            e.thread = th.index;
            e.store = false;
            e.obj = this;
            e.rthread = pick ? -1 : read_thread;
            e.rstamp = pick ? 0 : read_stamp;
            e.promise = pick ? detail::g_npromises - 1 : -1;
            e.marked = !plain_;
            e.bounded = !plain_ || addr_dep || rmb;
            e.number = nr - 1;
            for (int t = 0; t < th.nthreads; t++) e.known[t] = known(th, dep, t, true, !plain_);
            e.recheck = &recheck_early;
            e.kept = &detail::early_load_kept;
            detail::note_early(early_before, e);
        }
        if (causes) {
            // A promise: what is ordered after this load is after it. A
            // load that read a store adds nothing of its own thread's: the
            // loads each access is ordered after matter only as promises,
            // and an acquire orders what follows it after itself, not
            // after the earlier loads of its thread.
            msg.carried_me = cause[th.index];
            if (pick) cause[th.index] = std::max(cause[th.index], *th.own);
            int me = th.index;
            for (int t = 0; t < th.nthreads; t++) {
                msg.cause[t] = cause[t];
                detail::g_cause_all[me][t] = std::max(detail::g_cause_all[me][t], cause[t]);
                if (acquires(mo)) detail::g_cause_full[me][t] = std::max(detail::g_cause_full[me][t], cause[t]);
            }
        }
        if (detail::g_lkmm) {
            msg.stamp = *th.own;
            msg.rmb = rmb_orders ? detail::g_rmb_cover[th.index] : detail::g_mb_cover[th.index];
            msg.acq = acquires(mo);
            msg.obj = this;
            msg.from_stamp = pick ? 0 : read_stamp;
            if (msg.acq) detail::g_acq_cover[th.index] = std::max(detail::g_acq_cover[th.index], msg.rmb);
        }
        return value;
    }
    // May a new store of the running thread take its place in the
    // modification order just before store `index`, which then follows it?
    // Not when the thread is ordered after that store: it wrote it, or
    // happens after it, or happens after a load that read it (CoWW, CoRW);
    // not before the location's first store (its initial value) or a store
    // of the model's setup, nor before
    // a seq_cst store when it is one too, nor between an RMW and the store
    // the RMW read. An RMW whose load promised a value read no store yet
    // (awaiting()): a store may go before it, and the one that keeps the
    // promise will come between.
    // `past`: the new store is to go before the store this one read too,
    // when it is an RMW that read a store (glued()).
    bool may_precede(const Clocks& th, MemOrder mo, unsigned index, const rl::timestamp_t* dep,
                     bool past = false) const {
        const Rec* r = rec(index);
        if (!r || index < 2 || (!past && glued(index)) || r->setup) return false;
        if (mo == MemOrder::seq_cst && r->seq_cst) return false;
        return !knows(*r, th.index, th.nthreads, [&](int t) { return known(th, dep, t, false, !plain_); });
    }
    // Store `index` is an RMW's that read store index - 1 (not a promise):
    // nothing comes between the two, so a store that goes before it goes
    // before index - 1 too, and an RMW that reads index - 1 cannot write
    // right after it.
    bool glued(unsigned index) const {
        const Rec* r = rec(index);
        return r && r->rmw && !awaiting(index);
    }
    // The store a new store may go before, past store `index` and the
    // stores glued to it (an RMW chain: each RMW read the store before it),
    // when it may precede each of them (may_precede, under `dep`): its
    // index, or 0. `rmw`: the new store is an RMW's, whose load must pass
    // each of them too (may_pass, under `load_dep`) and read the store
    // before the one returned, which the history must still hold.
    // `keepers`: the promises (by index) the new store keeps, whose loads
    // must not have known a store it goes before (readers_allow()).
    unsigned precede_past(const Clocks& th, MemOrder mo, unsigned index, const rl::timestamp_t* dep,
                          bool rmw = false, const rl::timestamp_t* load_dep = nullptr, uint32_t keepers = 0) const {
        for (unsigned k = index; k + kHistory > cur_ + 1 + rmw; k--) {
            if (rmw && (k <= 1 || !may_pass(th, mo, k, load_dep))) return 0;
            if (!may_precede(th, mo, k, dep, true)) return 0;
            if (keepers && !readers_allow(th, k, keepers)) return 0;
            if (!glued(k)) return k;
        }
        return 0;
    }
    // The promise of the RMW whose store is store `index`, when its load
    // promised a value that no store has written yet (load buffering
    // through an RMW); null otherwise.
    detail::Promise* awaiting(unsigned index) const {
        const Rec* r = rec(index);
        if (!r || !r->rmw || !promising()) return nullptr;
        for (int i = 0; i < detail::g_npromises; i++) {
            detail::Promise& p = detail::g_promise[i];
            if (p.loc == this && p.rmw && p.rmw_stamp == r->stamp && p.reader == r->thread && !p.kept && !p.touched) return &p;
        }
        return nullptr;
    }
    // May a store of the running thread with the value `v` keep promise
    // `p` of the RMW whose store is store `k`, taking its place right before
    // it? Its value is the one promised, it may precede store k and every
    // store after it, and no thread but the RMW's has read store k or a
    // later one (what they read would then carry what the new store
    // publishes through the RMW), nor is the new store ordered after such
    // a read. A read with a C plain access at either end counts for
    // neither: it carries nothing and orders no other thread
    // (orders_others(), as knows() has it). Nor a store ordered after the
    // RMW's load (`cause`, as keep_promises() asks): a fence, an acquire or a
    // dependency in the RMW's thread refused the promise when it ran
    // (`touched`), but a load of that thread that read the RMW's own store
    // is ordered after the RMW's load when the RMW's write is computed
    // from what it read (rmw_data_), and what is ordered after that load
    // is too.
    bool may_keep_rmw(const Clocks& th, MemOrder mo, T v, const detail::Promise& p, unsigned k,
                      const rl::timestamp_t* dep, const rl::timestamp_t* cause) const {
        if (p.reader == th.index || ((uint64_t)v & p.mask) != (p.value & p.mask)) return false;
        if (cause && cause[p.reader] >= p.at) return false;
        if (cur_ - k + 2 >= kHistory) return false;
        for (unsigned j = k; j <= cur_; j++) {
            const Rec* r = rec(j);
            if (!r || r->setup || (mo == MemOrder::seq_cst && r->seq_cst)) return false;
            if (known(th, dep, r->thread, false, !plain_) >= r->stamp) return false;
            for (int t = 0; t < th.nthreads; t++) {
                if (!orders_others(*r, t, th.index) && detail::g_early_rules.plain_seen_keeps) continue;
                if (known(th, dep, t, false, !plain_) >= r->first_seen[t]) return false;
                if (t != p.reader && t != r->thread && r->first_seen[t] != (rl::timestamp_t)-1) return false;
            }
        }
        return true;
    }
    // Where a new plain store goes in the modification order: last, or
    // (free coherence) before as many of the last stores as it may
    // precede, each place a choice the search explores. The stores after
    // it move up one place.
    // A store that keeps promises (`keepers`) may go before the stores
    // their loads did not know of (readers_allow()).
    // `must`: the store goes at or before store `must` (0: anywhere), as
    // a bounded promise it keeps asks (keep_promises() made sure it can).
    unsigned store_place(const Clocks& th, MemOrder mo, const rl::timestamp_t* after, uint32_t keepers = 0,
                         unsigned must = 0) {
        unsigned n = cur_ + 1;
        unsigned at = must ? place_by(th, mo, after, must, keepers) : n;
        if (!at) throw std::logic_error("store_place: a kept promise's bound it cannot go before");
        for (unsigned k; (k = precede_past(th, mo, at - 1, after, false, nullptr, keepers)) != 0 &&
                         rl::ctx().rand(2, rl::sched_type_atomic_load) == 1;)
            at = k;
        for (unsigned i = n; i > at; i--) hist_[i % kHistory] = hist_[(i - 1) % kHistory];
        return at;
    }
    // What a new store publishes: what a load that reads it (and the
    // accesses ordered after that load) are then ordered after.
    // - C++ (`sc`, and the layer's own words): a release store publishes the
    //   writer's clock, a relaxed one what its last release fence did.
    // - The LKMM (`kernel`): what propagates to every thread before the
    //   store does (linux-kernel.cat's cumul-fence). A release store
    //   publishes the writer's clock and what its earlier loads read
    //   (A-cumulativity). A plain store publishes the writer's own accesses
    //   that a release fence (smp_wmb(), smp_mb()) ordered before it, and
    //   of what happens before it (an acquire load or a lock orders
    //   everything after it, a dependency the access that depends) only
    //   the part that reached every thread (`glob`: through a strong fence
    //   on the way, pb in linux-kernel.cat). What a third thread saw
    //   before the writer read it is not published: the LKMM is not
    //   multicopy-atomic (the ISA2, Z6.2 and IRIW shapes).
    //   `gout` gets the part of `out` that reached every thread.
    //   A relaxed RMW publishes what C++ gives it (the non-value-returning
    //   atomics' "Noreturn" events order nothing of their own), so that two
    //   blind adds stay interchangeable (search/commute.h).
    static void publish(const Clocks& th, MemOrder mo, bool rmw, const rl::timestamp_t* dep,
                        const rl::timestamp_t* gdep, rl::timestamp_t* out, rl::timestamp_t* gout) {
        bool rel = releases(mo);
        bool lkmm = detail::g_lkmm && (rel || !rmw);
        for (int t = 0; t < th.nthreads; t++) {
            gout[t] = 0;
            if (!lkmm) out[t] = rel ? th.acq_rel[t] : th.rel_fence[t];
            else if (rel) {
                out[t] = std::max(th.acq_rel[t], th.acq_fence[t]);
                if (dep) out[t] = std::max(out[t], dep[t]);
                gout[t] = std::max(th.glob[t], th.glob_pend[t]);
            } else {
                gout[t] = gdep ? std::max(th.glob[t], gdep[t]) : th.glob[t];
                out[t] = std::max(th.rel_fence[t], gout[t]);
            }
        }
    }
    // A new store in the modification order (store_place), publishing what
    // publish() says; an RMW, or a store of the thread that wrote the
    // previous value, also carries what the previous store published (a
    // release sequence).
    // Which promises on this location the new store `v` of the running
    // thread keeps (each one it may keep is a choice), by index.
    // A bounded promise (Promise::bound) is kept only by a store that
    // takes a free place (`after`, as store_place() has it) and may go
    // before the reader's store, with every promise it keeps: `*must`
    // gets the index it must go at or before. An RMW placed after the
    // store it read (`fixed`, its index; rmw_placed()) keeps a promise
    // whose load knew of no store it goes before, at or before the bound.
    // Any other store goes last.
    uint32_t keep_promises(const Clocks& th, MemOrder mo, T v, const rl::timestamp_t* cause, const rl::timestamp_t* pub,
                           const rl::timestamp_t* gpub, rl::timestamp_t* first_seen, const rl::timestamp_t* after,
                           unsigned fixed, unsigned* must) {
        uint32_t any = 0;
        *must = 0;
        for (int i = 0; i < detail::g_npromises; i++) {
            detail::Promise& p = detail::g_promise[i];
            if (p.kept || p.loc != this || p.reader == th.index || p.touched || p.rmw) continue;
            if (((uint64_t)v & p.mask) != (p.value & p.mask)) continue;
            if (cause[p.reader] >= p.at) continue;  // the store is ordered after the load
            if (earlier_unkept(i)) continue;  // a later load may not read an earlier store (CoRR)
            unsigned m = *must;
            if (p.bound && detail::g_early_rules.own_store_bound) {
                unsigned b = after || fixed ? find(p.reader, p.bound) : 0;
                if (!b || (fixed && fixed > b)) continue;
                if (!m || b < m) m = b;
            }
            if (fixed) {
                bool allowed = true;
                for (unsigned k = fixed; k <= cur_ && allowed; k++) allowed = readers_allow(th, k, 1u << i);
                if (!allowed) continue;
            } else if (m && !place_by(th, mo, after, m, any | 1u << i)) {
                continue;
            }
            if (!detail::early_allows(i, pub, th.nthreads)) continue;
            if (rl::ctx().rand(2, rl::sched_type_atomic_load) == 0) continue;
            keep(th, p, pub, gpub, first_seen, cause);
            any |= 1u << i;
            *must = m;
        }
        return any;
    }
    // The first place at or before store `must` that a new store keeping
    // the promises `keepers` reaches by going before each store after it
    // (store_place()), or 0 when one of them is a store it may not precede.
    unsigned place_by(const Clocks& th, MemOrder mo, const rl::timestamp_t* after, unsigned must,
                      uint32_t keepers) const {
        unsigned at = cur_ + 1;
        while (at > must)
            if (!(at = precede_past(th, mo, at - 1, after, false, nullptr, keepers))) return 0;
        return at;
    }
    // May a store that keeps the promises `keepers` go before store k in
    // coherence order? Not if one of their loads knew of store k: it
    // happened before the load, or a thread whose read of it the load is
    // ordered after read it (may_pass(), as of the load: a load that read
    // store k itself could not read an older one).
    bool readers_allow(const Clocks& th, unsigned k, uint32_t keepers) const {
        const Rec* r = rec(k);
        if (!r) return false;
        for (int i = 0; i < detail::g_npromises; i++) {
            if (!(keepers >> i & 1)) continue;
            const detail::Promise& p = detail::g_promise[i];
            if (knows(*r, p.reader, th.nthreads, [&](int t) { return p.known[t]; })) return false;
        }
        return true;
    }
    // Promise i's thread made an earlier load's promise on this location
    // that is not kept (here or by an earlier store).
    bool earlier_unkept(int i) const {
        const detail::Promise& p = detail::g_promise[i];
        for (int j = 0; j < i; j++) {
            const detail::Promise& q = detail::g_promise[j];
            if (q.loc == this && q.reader == p.reader && !q.rmw && !q.kept) return true;
        }
        return false;
    }
    // Promise `p` is kept by the running thread's new store, which
    // published `pub` (`gpub`): the reader is the first to have seen it
    // (`first_seen`, the store's), at its load, and has what it published.
    // What the store is ordered after (`cause`: the loads, with their
    // promises) the load now is too, and what depends on it: a promise
    // kept by a store that depends on it is thin air (keep_promises(),
    // may_keep_rmw()).
    static void keep(const Clocks& th, detail::Promise& p, const rl::timestamp_t* pub, const rl::timestamp_t* gpub,
                     rl::timestamp_t* first_seen, const rl::timestamp_t* cause) {
        p.kept = true;
        first_seen[p.reader] = std::min(first_seen[p.reader], p.at);
        // The reader's loads since an smp_rmb() after the promised load
        // are none yet (order_after_read_fence); those to come are ordered
        // after what this store published.
        if (p.number < detail::g_rd_loads[p.reader])
            for (int t = 0; t < th.nthreads; t++) {
                detail::g_rd[p.reader][t] = std::max(detail::g_rd[p.reader][t], pub[t]);
                detail::g_rd_glob[p.reader][t] = std::max(detail::g_rd_glob[p.reader][t], gpub[t]);
            }
        for (int t = 0; t < th.nthreads; t++) {
            detail::g_kept_join[p.reader][t] = std::max(detail::g_kept_join[p.reader][t], pub[t]);
            detail::g_kept_gjoin[p.reader][t] = std::max(detail::g_kept_gjoin[p.reader][t], gpub[t]);
            rl::timestamp_t& c = detail::g_read_msg[p.reader][p.number % kDepReads].c[t];
            rl::timestamp_t& g = detail::g_read_msg[p.reader][p.number % kDepReads].g[t];
            c = std::max(c, pub[t]);
            g = std::max(g, gpub[t]);
        }
        // An early load that made this promise now reads the new store,
        // whose stamp is the running thread's next.
        for (int k = 0; k < detail::g_nearly; k++) {
            detail::Early& e = detail::g_early[k];
            if (!e.store && e.promise == (int)(&p - detail::g_promise) && e.rthread < 0) {
                e.rthread = th.index;
                e.rstamp = *th.own + 1;
            }
        }
        detail::g_read_msg[p.reader][p.number % kDepReads].from = th.index;
        for (int t = 0; t < th.nthreads; t++) p.kept_cause[t] = cause ? cause[t] : 0;
        for (int t = 0; cause && t < th.nthreads; t++) {
            rl::timestamp_t& c = detail::g_read_msg[p.reader][p.number % kDepReads].cause[t];
            c = std::max(c, cause[t]);
            detail::g_cause_all[p.reader][t] = std::max(detail::g_cause_all[p.reader][t], cause[t]);
        }
        detail::g_kept_pending[p.reader] = true;
        if (detail::g_nkept < kMaxPromises) detail::g_kept_events[detail::g_nkept++] = p.event;
        detail::early_kept((int)(&p - detail::g_promise), pub, gpub, th.nthreads);
    }
    // The store numbered by (thread, stamp) in the history, or 0.
    unsigned find(int thread, rl::timestamp_t stamp) const {
        for (unsigned j = cur_; j >= 1 && cur_ - j < kHistory; j--) {
            const Rec* r = rec(j);
            if (r && r->thread == thread && r->stamp == stamp) return j;
        }
        return 0;
    }
    // What an early access (detail::Early) is ordered after once the store
    // that keeps the promise published `pub`, of thread t's clock. Its own
    // thread's part stays: what that store knew of the reader's thread may
    // come after the access in program order.
    static rl::timestamp_t early_known(const detail::Early& e, const rl::timestamp_t* pub, int t) {
        return t == e.thread ? e.known[t] : std::max(e.known[t], pub[t]);
    }
    // An early load still reads the store it read, and an early store
    // still takes its place, when each store after that one in the
    // modification order is one it may pass (may_pass) or precede
    // (may_precede) with `pub` joined.
    // An early load whose own promise is still open has read no store:
    // the store that keeps it later is checked against what the load then
    // knows, `pub` joined (Promise::known, detail::early_load_kept()).
    static bool recheck_early(const void* obj, const detail::Early& e, const rl::timestamp_t* pub, int nthreads) {
        const atomic& a = *static_cast<const atomic*>(obj);
        if (!e.store && e.promise >= 0 && e.rthread < 0) return true;
        unsigned i = a.find(e.rthread, e.rstamp);
        if (!i) return false;
        for (unsigned j = i + 1; j <= a.cur_; j++) {
            const Rec* r = a.rec(j);
            if (!r || knows(*r, e.thread, nthreads, [&](int t) { return early_known(e, pub, t); })) return false;
        }
        return true;
    }
    // An early store, once the promise is kept: it publishes what a store
    // that depends on the load does (publish()), a release what the load
    // read (A-cumulativity), a load of its thread that reads it is ordered
    // after that (Rec::dep_c), and bounded by it for the race check
    // (Rec::bound_c).
    static void early_store_kept(void* obj, const detail::Early& e, const rl::timestamp_t* pub,
                                 const rl::timestamp_t* gpub, int nthreads) {
        atomic& a = *static_cast<atomic*>(obj);
        unsigned i = a.find(e.rthread, e.rstamp);
        if (!i) return;
        Rec& r = a.hist_[i % kHistory];
        for (int t = 0; t < nthreads; t++) {
            r.released[t] = std::max(r.released[t], e.release ? pub[t] : gpub[t]);
            r.glob[t] = std::max(r.glob[t], gpub[t]);
            if (r.has_dep) {
                r.dep_c[t] = std::max(r.dep_c[t], pub[t]);
                r.dep_g[t] = std::max(r.dep_g[t], gpub[t]);
            }
            if (r.has_bound) r.bound_c[t] = std::max(r.bound_c[t], pub[t]);
        }
    }
    // The loads of its thread the running marked store is ordered after
    // (detail::StoreMark): those a strong fence, or an smp_rmb() before a
    // load an acquire or the store depends on, orders before it, and the
    // loads it depends on; every earlier one for a release, and for a
    // store no one described (dependency()). An RMW's own load is one.
    void mark_loads(const Clocks& th, MemOrder mo, bool rmw, detail::StoreMark& m) const {
        int me = th.index;
        m.obj = this;
        m.seen_by = &seen_by;
        m.ndep = 0;
        m.wmb = detail::g_wmb_cover[me];
        m.all = std::max(detail::g_mb_cover[me], detail::g_acq_cover[me]);
        if (releases(mo) || !detail::g_dep_told[me]) {
            m.all = *th.own;
            return;
        }
        auto add = [&](const detail::ReadMsg* msg) {
            m.all = std::max(m.all, msg->rmb);
            if (m.ndep < detail::kMarkDeps) m.dep[m.ndep++] = msg->stamp;
            else m.all = std::max(m.all, msg->stamp);
        };
        detail::for_each_dep_read(me, detail::g_dep_mask[me], [&](const detail::ReadMsg* msg, unsigned) {
            if (!msg) {  // no longer kept: every earlier load
                m.all = *th.own;
                return false;
            }
            // ppo is between marked accesses: a plain load orders nothing
            if (!msg->plain) add(msg);
            return true;
        });
        if (rmw && detail::g_nreads[me]) add(&detail::g_read_msg[me][(detail::g_nreads[me] - 1) % kDepReads]);
    }
    // StoreMark::seen_by: whether thread `reader` read store (thread,
    // stamp) of `obj` by a marked load, and its clock at its first read.
    static bool seen_by(const void* obj, int thread, rl::timestamp_t stamp, int reader, rl::timestamp_t* at) {
        const atomic& a = *static_cast<const atomic*>(obj);
        unsigned i = a.find(thread, stamp);
        if (!i) return false;
        const Rec& r = *a.rec(i);
        if (r.first_seen[reader] == (rl::timestamp_t)-1 || !orders_others(r, reader, -1)) return false;
        *at = r.first_seen[reader];
        return true;
    }
    // `rmw_writes`: an RMW that changes the value (a fetch_add(0) stands
    // for a failed conditional RMW, which writes nothing in the LKMM and
    // keeps no promise).
    unsigned do_store(const Clocks& th, T v, MemOrder mo, bool rmw, bool free = false, bool rmw_writes = false) {
        // A release orders every earlier access of its thread before it
        // (po-rel): a point of detail::g_post.
        if (releases(mo)) detail::note_post_bound(th.index, *th.own);
        detail::StoreMark mark;
        bool marking = detail::g_lkmm && !plain_ && (!rmw || rmw_writes);
        struct Storing {
            ~Storing() { detail::g_storing = nullptr; }
        } storing;
        detail::g_storing = nullptr;
        if (marking) {
            mark_loads(th, mo, rmw, mark);
            mark.stamp = (rl::timestamp_t)-1;
            detail::g_storing = &mark;
        }
        rl::timestamp_t dbuf[kMaxSimThreads], gbuf[kMaxSimThreads], cause[kMaxSimThreads];
        rl::timestamp_t ddc[kMaxSimThreads], ddg[kMaxSimThreads], dbound[kMaxSimThreads];
        bool dd = (!rmw || rmw_writes) && data_dependency(th, ddc, ddg);
        bool db = (!rmw || rmw_writes) && data_bound(th, dbound);
        if (rmw && rmw_writes && rmw_data_ && detail::g_lkmm) {
            // An add's write depends on its own read by data.
            const detail::ReadMsg& own = detail::g_read_msg[th.index][(detail::g_nreads[th.index] - 1) % kDepReads];
            if (!dd)
                for (int t = 0; t < th.nthreads; t++) ddc[t] = ddg[t] = 0;
            if (!db)
                for (int t = 0; t < th.nthreads; t++) dbound[t] = 0;
            for (int t = 0; t < th.nthreads; t++) {
                ddc[t] = std::max(ddc[t], own.c[t]);
                ddg[t] = std::max(ddg[t], own.g[t]);
                dbound[t] = std::max(dbound[t], own.c[t]);
            }
            dd = db = true;
        }
        bool causes = detail::g_promises;
        // A store may run before the promises it is ordered after are kept
        // (detail::Early): one (not an RMW's) that depends on the loads,
        // and a release store or release RMW's store, which is ordered
        // after every earlier load of its thread (po-rel) and orders
        // nothing after itself, so a store after it may be seen before
        // those loads are satisfied.
        bool release_rmw = rmw && mo == MemOrder::release && detail::g_early_rules.release_rmw_early;
        bool release_early = causes && detail::g_lkmm && (!rmw || release_rmw) && releases(mo) &&
                             !detail::g_release_defers && detail::g_early_rules.on && detail::g_early_rules.release_early;
        bool early = causes && detail::g_lkmm && !rmw && !releases(mo) && detail::g_early_rules.on;
        bool addr_dep = detail::g_dep_told[th.index] && detail::g_dep_addr[th.index];
        const rl::timestamp_t* gdep;
        const rl::timestamp_t* dep = dependency(th, true, dbuf, gbuf, &gdep, causes ? cause : nullptr, early || release_early);
        if (causes && releases(mo) && !detail::g_release_defers) {
            for (int t = 0; t < th.nthreads; t++) cause[t] = std::max(cause[t], detail::g_cause_all[th.index][t]);
            // early: an RMW's promises only. A release RMW's store is
            // ordered after its own load as any RMW's is: its promise stays
            // open, and the store goes right after the one that keeps it.
            const detail::Promise* own = rmw_promised_ && detail::g_early_rules.release_rmw_own
                                             ? &detail::g_promise[detail::g_npromises - 1]
                                             : nullptr;
            detail::order_after_loads(th.index, true, 0, release_early, own);
        }
        if (causes) {
            // An RMW that writes a value computed from the one it read (an
            // add, not an xchg or a cmpxchg) has a data dependency from its
            // read to its write: the store is ordered after what the read
            // was, and its promise, and so is a load of the thread that
            // reads it (linux-kernel.cat's to-r: dep ; rfi).
            if (rmw && rmw_data_) {
                const detail::ReadMsg& own = detail::g_read_msg[th.index][(detail::g_nreads[th.index] - 1) % kDepReads];
                for (int t = 0; t < th.nthreads; t++) cause[t] = std::max(cause[t], own.cause[t]);
            }
            // A marked store is ordered after its thread's earlier marked
            // accesses to the same location (linux-kernel.cat's to-w:
            // overwrite & int), so after the loads an early one of them
            // ran before: it runs early too, or refuses them.
            if (uint32_t over = detail::g_lkmm && !plain_ ? detail::early_here(th.index, this) : 0) {
                if (early || release_early) {
                    for (int i = 0; i < detail::g_npromises; i++)
                        if (over >> i & 1) cause[th.index] = std::max(cause[th.index], detail::g_promise[i].at);
                } else {
                    detail::refuse_promises(over);
                }
            }
            detail::close_causes(cause, th.nthreads);
        }
        rl::timestamp_t pub[kMaxSimThreads], gpub[kMaxSimThreads];
        publish(th, mo, rmw, dep, gdep, pub, gpub);
        rl::timestamp_t seen[kMaxSimThreads];
        for (int t = 0; t < th.nthreads; t++) seen[t] = (rl::timestamp_t)-1;
        uint32_t kept = 0;
        // An RMW placed before newer stores (rmw_placed()) keeps a load's
        // promise only where that load knew of none of them
        // (keep_promises()). An RMW whose load made a promise goes last
        // and keeps none.
        bool placed = rmw && place_rmw_ && !rmw_promised_ && rmw_read_ != cur_;
        // An RMW's promise this store keeps, by taking its place right
        // before the RMW's store (store `keep_at`).
        detail::Promise* rmw_keep = nullptr;
        unsigned keep_at = 0;
        // A store that takes a free place in the modification order goes
        // after `after` (store_place()), and at or before store `must`
        // when it keeps a bounded promise.
        bool place = free && !rmw && detail::g_lkmm;
        rl::timestamp_t after[kMaxSimThreads];
        if (place)
            for (int t = 0; t < th.nthreads; t++)
                after[t] = std::max(dep ? dep[t] : 0, releases(mo) ? th.acq_fence[t] : 0);
        unsigned must = 0;
        // What a load that reads the new store takes from it (Rec::released
        // and ::glob, below, which join the same for such an RMW), for the
        // promises it keeps (kpub, kgpub): an RMW placed last
        // also carries what the store it read published (rmw-sequence), so
        // the reader of its value is ordered after that store's release
        // (linux-kernel.cat: a release, then an RMW of the same location in
        // its thread, is ppo through overwrite & int).
        if (promising()) {
            rl::timestamp_t kpub[kMaxSimThreads], kgpub[kMaxSimThreads];
            const Rec* read_rec = rmw && !rmw_promised_ && detail::g_early_rules.kept_rmw_carries ? rec(placed ? rmw_read_ : cur_) : nullptr;
            for (int t = 0; t < th.nthreads; t++) {
                kpub[t] = read_rec ? std::max(pub[t], read_rec->released[t]) : pub[t];
                kgpub[t] = read_rec ? std::max(gpub[t], read_rec->glob[t]) : gpub[t];
            }
            if ((early || release_early) && detail::g_early_rules.own_store) {
                bound_promises(th.index, *th.own + 1, cause);
                detail::close_causes(cause, th.nthreads);
            }
            touch(th.index);
            if (placed) {
                // Right before an RMW that promised: this store is the one it reads.
                detail::Promise* p = awaiting(rmw_read_ + 1);
                if (p && may_keep_rmw(th, mo, v, *p, rmw_read_ + 1, dep, causes ? cause : nullptr) &&
                    rl::ctx().rand(2, rl::sched_type_atomic_load) == 1) {
                    rmw_keep = p;
                    keep_at = rmw_read_ + 1;
                }
            } else if (!rmw) {
                for (unsigned k = cur_; k >= 2 && cur_ - k + 2 < kHistory && !rmw_keep; k--) {
                    detail::Promise* p = awaiting(k);
                    if (p && may_keep_rmw(th, mo, v, *p, k, dep, causes ? cause : nullptr) && rl::ctx().rand(2, rl::sched_type_atomic_load) == 1) {
                        rmw_keep = p;
                        keep_at = k;
                    }
                }
            }
            if (rmw_keep) {
                keep(th, *rmw_keep, pub, gpub, seen, causes ? cause : nullptr);
            } else {
                const rl::timestamp_t* free_after = place && detail::g_early_rules.kept_free ? after : nullptr;
                kept = (!rmw || rmw_writes) && !rmw_promised_
                           ? keep_promises(th, mo, v, cause, kpub, kgpub, seen, free_after, placed ? rmw_read_ + 1 : 0, &must)
                           : 0;
            }
        }
        uint32_t early_before = early || release_early ? detail::early_mask(th.index, cause, false) : 0;
        unsigned n = cur_ + 1;
        if (placed || rmw_keep) {
            // Right after the store its load read (rmw_placed()), or right
            // before the RMW whose promise it keeps.
            n = placed ? rmw_read_ + 1 : keep_at;
            for (unsigned i = cur_ + 1; i > n; i--) hist_[i % kHistory] = hist_[(i - 1) % kHistory];
        }
        // A store that keeps a load's promise goes before no store that
        // load knew of (readers_allow()). One that keeps an RMW's goes
        // right before the RMW (above).
        // A release store is ordered after every earlier load of its
        // thread, and so after what the stores they read published (`after`).
        if (place && !rmw_keep && (!kept || detail::g_early_rules.kept_free)) n = store_place(th, mo, after, kept, must);
        ++cur_;
        const Rec* prev = rec(n - 1);
        Rec& r = hist_[n % kHistory];
        rl::timestamp_t carried[kMaxSimThreads] = {}, gcarried[kMaxSimThreads] = {};
        bool preserve = prev && ((rmw && !rmw_promised_) || prev->thread == th.index);
        if (preserve)
            for (int t = 0; t < th.nthreads; t++) {
                carried[t] = prev->released[t];
                gcarried[t] = prev->glob[t];
            }
        r.value = v;
        r.thread = th.index;
        r.plain = plain_;
        r.plain_seen = 0;
        r.seq_cst = mo == MemOrder::seq_cst;
        r.rmw = rmw;
        r.setup = detail::g_setup;
        *th.own += 1;
        r.stamp = *th.own;
        detail::note_store_stamp(th.index, r.stamp);
        if (marking) {
            mark.stamp = r.stamp;
            detail::g_mark[th.index][detail::g_nmark[th.index]++ % detail::kStoreMarks] = mark;
        }
        for (int t = 0; t < th.nthreads; t++) r.first_seen[t] = seen[t];
        r.first_seen[th.index] = *th.own;
        for (int t = 0; t < th.nthreads; t++) r.cause[t] = causes ? cause[t] : 0;
        r.has_dep = dd;
        r.has_bound = db;
        for (int t = 0; t < th.nthreads; t++) {
            r.dep_c[t] = dd ? ddc[t] : 0;
            r.dep_g[t] = dd ? ddg[t] : 0;
            r.bound_c[t] = db ? dbound[t] : 0;
        }
        // A failed conditional RMW's fetch_add(0) is no write in the LKMM:
        // who reads it reads the store before it, and is ordered after
        // what that store was.
        if (causes && rmw && !rmw_writes && prev)
            for (int t = 0; t < th.nthreads; t++) r.cause[t] = std::max(r.cause[t], prev->cause[t]);
        for (int t = 0; t < th.nthreads; t++) {
            r.released[t] = preserve ? std::max(carried[t], pub[t]) : pub[t];
            r.glob[t] = preserve ? std::max(gcarried[t], gpub[t]) : gpub[t];
        }
        if (rmw_keep) {
            // The RMW reads this store, and its store carries on what this
            // one published (rmw-sequence).
            Rec& m = hist_[(n + 1) % kHistory];
            for (int t = 0; t < th.nthreads; t++) {
                m.released[t] = std::max(m.released[t], pub[t]);
                m.glob[t] = std::max(m.glob[t], gpub[t]);
            }
        }
        if (rmw_promised_) detail::g_promise[detail::g_npromises - 1].rmw_stamp = r.stamp;
        if (early_before) {
            detail::Early e{};
            e.thread = th.index;
            e.store = true;
            e.wmb_orders = !plain_ || addr_dep;
            e.bounded = !plain_ || addr_dep;
            e.obj = this;
            e.rthread = th.index;
            e.rstamp = r.stamp;
            e.release = release_early;
            e.marked = !plain_;
            // A release's place is after what every earlier load of its
            // thread read (store_place()'s `after`).
            for (int t = 0; t < th.nthreads; t++) {
                rl::timestamp_t k = known(th, dep, t, false, !plain_);
                e.known[t] = release_early ? std::max(k, th.acq_fence[t]) : k;
            }
            e.recheck = &recheck_early;
            e.kept = &early_store_kept;
            detail::note_early(early_before, e);
        }
        initialized_ = true;
        return n;
    }
    T latest() const { return cur_ ? hist_[cur_ % kHistory].value : T(); }
    // A failed compare-exchange reads with its failure order.
    static MemOrder failure_order(MemOrder o) {
        switch (o) {
            case MemOrder::release: return MemOrder::relaxed;
            case MemOrder::acq_rel: return MemOrder::acquire;
            default: return o;
        }
    }

    // What the running RMW's store will depend on (dependency(), as
    // do_store() finds it), into place_dep_: computed before its load,
    // leaving what the thread was told as it was.
    // A release RMW's store is also ordered after every earlier load of
    // its thread (po-rel), and so after what the stores they read were
    // (their acq_fence part), as a release store's free place is
    // (do_store()).
    void rmw_store_dep(const Clocks& th, MemOrder mo) {
        int me = th.index;
        bool told = detail::g_dep_told[me];
        rl::timestamp_t buf[kMaxSimThreads], gbuf[kMaxSimThreads];
        const rl::timestamp_t* gdep;
        const rl::timestamp_t* dep = dependency(th, true, buf, gbuf, &gdep);
        detail::g_dep_told[me] = told;
        place_dep_ = nullptr;
        bool rel = releases(mo) && rmw_release_orders_loads_;
        if (!dep && !rel) return;
        for (int t = 0; t < th.nthreads; t++)
            place_dep_buf_[t] = std::max(dep ? dep[t] : 0, rel ? th.acq_fence[t] : 0);
        place_dep_ = place_dep_buf_;
    }
    // An RMW's store depends on what its load depends on (depend_on, told
    // once for the access), but for the control dependencies, which order
    // the store only: the load takes the description without them, and the
    // store is given it again whole.
    struct RmwDeps {
        int me;
        bool told;
        uint64_t mask;
        unsigned base;
        explicit RmwDeps(int t)
            : me(t), told(detail::g_dep_told[t]), mask(detail::g_dep_mask[t]), base(detail::g_dep_base[t]) {
            if (told) detail::g_dep_mask[t] &= ~detail::g_dep_ctrl[t];
        }
        void restore() const {
            if (!told) return;
            detail::g_dep_told[me] = true;
            detail::g_dep_mask[me] = mask;
            detail::g_dep_base[me] = base;
        }
    };

public:
    atomic() = default;
    atomic(const atomic&) = delete;
    // The values thread t's loads may promise (load buffering; see
    // set_promises): those another thread's stores may write, each with
    // the mask of the threads that may write it. At most kMaxDomain; the
    // arrays must outlive the execution.
    void set_promisable(int t, const T* values, const uint32_t* writers, unsigned n, uint64_t mask) {
        if (t < 0 || t >= kMaxSimThreads || n > kMaxDomain)
            throw std::logic_error("set_promisable: a thread index or a value count past the tables");
        domain_[t] = values;
        writers_[t] = writers;
        ndomain_[t] = n;
        any_domain_ = any_domain_ || n > 0;
        domain_mask_ = mask;
    }
    // Thread t will store to this location no more (a front end that knows
    // its program says so): no promise is made, or kept open, on a value
    // only such threads could write (refuse_doomed()).
    void close_stores(int t) {
        if (t < 0 || t >= kMaxSimThreads) return;
        closed_ |= 1u << t;
        close_promises(t, [](uint64_t) { return true; });
    }
    // Thread t will store `v` to this location no more (a front end that
    // knows its program says so): no promise of `v` is made, or kept
    // open, that only such threads could keep (refuse_doomed()).
    void close_value(int t, T v) {
        if (t < 0 || t >= kMaxSimThreads) return;
        uint64_t key = (uint64_t)v & domain_mask_;
        unsigned i = 0;
        while (i < nvclosed_ && vclosed_value_[i] != key) i++;
        if (i == nvclosed_) {
            if (nvclosed_ == kMaxDomain) return;  // a value no promise may name: nothing to refuse
            vclosed_value_[nvclosed_] = key;
            vclosed_by_[nvclosed_++] = 0;
        }
        vclosed_by_[i] |= 1u << t;
        close_promises(t, [key](uint64_t v) { return v == key; });
    }
    // Thread t can no longer keep this location's open promises whose
    // value (under their mask) `match` accepts; refuses those now doomed.
    template <class M>
    void close_promises(int t, M match) {
        for (int j = 0; j < detail::g_npromises; j++) {
            detail::Promise& p = detail::g_promise[j];
            if (p.loc == this && match(p.value & p.mask)) p.closed |= 1u << t;
        }
        if (detail::g_promises) detail::refuse_doomed();
    }
    // Whether thread t said it will store `v` here no more (close_value()).
    bool value_closed(int t, T v) const {
        return t >= 0 && t < kMaxSimThreads && (closed_for((uint64_t)v) >> t & 1);
    }
    // Would an RMW of the running thread with order `o`, now, take no
    // clock into the thread's own and give its store exactly the clock
    // the store before it carries? Then two such RMWs of different threads
    // leave every clock the same in either order (search/commute.h,
    // condition 3).
    bool rmw_publishes_nothing(MemOrder o) const {
        const Rec* prev = rec(cur_);
        if (!prev || acquires(o)) return false;
        Clocks th = running_clocks();
        rl::timestamp_t pub[kMaxSimThreads], gpub[kMaxSimThreads];
        publish(th, o, true, detail::g_lkmm ? th.acq_fence : nullptr, detail::g_lkmm ? th.glob_pend : nullptr, pub, gpub);
        for (int t = 0; t < th.nthreads; t++)
            if (pub[t] > prev->released[t]) return false;
        return true;
    }
    T load(MemOrder o) {
        rl::context& c = rl::ctx();
        c.sched();
        if (c.invariant_executing) {
            detail::g_dep_told[c.threadx_->index_] = false;
            if (!initialized_) uninitialized();
            return latest();
        }
        return do_load(running_clocks(), o, false);
    }
    void store(T v, MemOrder o) {
        rl::ctx().sched();
        do_store(running_clocks(), v, o, false);
    }
    // A store that may take a place before the latest stores (free
    // coherence, when the search runs with it): true when it went last;
    // otherwise `next` is the value of the store that follows it.
    bool store_coherent(T v, MemOrder o, T& next) {
        rl::ctx().sched();
        unsigned n = do_store(running_clocks(), v, o, false, true);
        if (n == cur_) return true;
        next = hist_[(n + 1) % kHistory].value;
        return false;
    }
    T fetch_add(T v, MemOrder o) {
        rl::ctx().sched();
        if (!initialized_) uninitialized();
        Clocks th = running_clocks();
        RmwDeps d(th.index);
        T prev = do_load(th, o == MemOrder::release ? MemOrder::relaxed : o, true);
        d.restore();
        do_store(th, (T)(prev + v), o, true, false, v != 0);
        return prev;
    }
    // An RMW that writes f(old) whatever old is (an xchg, an add): under
    // the LKMM its load may read a store older than the latest, one it is
    // not ordered after, and its store then takes its coherence place
    // right after that store, before the newer ones it may precede
    // (may_precede()). Or its load promises a value (load buffering) and
    // its store goes last, waiting for the store that keeps the promise
    // (awaiting()). `last`: it went last, and is the location's latest
    // value. Under C++ it reads the latest.
    template <class F>
    T rmw_placed(F f, MemOrder o, bool& last, bool data = false) {
        rl::ctx().sched();
        if (!initialized_) uninitialized();
        Clocks th = running_clocks();
        rmw_store_dep(th, o);
        RmwDeps d(th.index);
        place_rmw_ = detail::g_lkmm;
        rmw_promised_ = false;
        rmw_data_ = data;
        T prev = do_load(th, o == MemOrder::release ? MemOrder::relaxed : o, true);
        d.restore();
        unsigned n = do_store(th, f(prev), o, true, false, true);
        place_rmw_ = false;
        rmw_promised_ = false;
        rmw_data_ = false;
        last = n == cur_;
        return prev;
    }
    // A conditional RMW under the LKMM (a cmpxchg, an inc_not_zero):
    // `f(old, nv)` says whether it writes, and sets what. Its load may read
    // an older store than the latest (cond_index()). When that store's
    // value fails the condition, the RMW is a relaxed read of it; of the
    // latest, as under C++, a fetch_add(0) (an RMW that writes nothing new
    // and keeps no promise). When it passes, the RMW's store goes right
    // after that store, before the newer ones (`last`: it went last).
    // `older_pass`: a passing store older than the latest may be read
    // (false for a fully ordered RMW whose smp_mb() before it the caller
    // did not take, because the latest fails: its write would lack it).
    // Its load may promise a value, as a relaxed load does, when it is not
    // an acquire: a value that passes makes the RMW's store go last and
    // wait, as rmw_placed()'s; one that fails is a load's promise.
    // `only_pass`: it reads a passing store older than the latest
    // (older_passes(), and the caller chose to take the barrier for it).
    template <class F>
    T rmw_cond(F f, MemOrder o, bool older_pass, bool& wrote, bool& last, bool data = false, bool only_pass = false,
               bool only_fail = false) {
        rl::ctx().sched();
        if (!initialized_) uninitialized();
        Clocks th = running_clocks();
        cond_pass_ = 0;
        for (unsigned d = 0; d < kHistory && d < cur_; d++) {
            T nv{};
            if (f(hist_[(cur_ - d) % kHistory].value, nv)) cond_pass_ |= 1ull << d;
        }
        cond_dom_pass_ = 0;
        for (unsigned k = 0; promising() && k < ndomain_[th.index]; k++) {
            T nv{};
            if (f(domain_[th.index][k], nv)) cond_dom_pass_ |= 1ull << k;
        }
        cond_ = true;
        cond_older_pass_ = older_pass;
        cond_only_pass_ = only_pass;
        cond_only_fail_ = only_fail;
        rmw_promised_ = false;
        rmw_store_dep(th, o);
        RmwDeps d(th.index);
        T prev = do_load(th, o == MemOrder::release ? MemOrder::relaxed : o, true);
        cond_ = false;
        cond_only_pass_ = false;
        cond_only_fail_ = false;
        d.restore();
        last = true;
        T nv = prev;
        wrote = cond_passed_ && f(prev, nv);
        if (wrote) {
            place_rmw_ = true;
            rmw_data_ = data;
            last = do_store(th, nv, o, true, false, true) == cur_;
            place_rmw_ = false;
            rmw_data_ = false;
        } else if (rmw_read_ == cur_) {
            do_store(th, prev, MemOrder::relaxed, true, false, false);
        }
        rmw_promised_ = false;
        return prev;
    }
    // Whether a conditional RMW of order `mo` run now could read a kept
    // store older than the latest whose value `pass` accepts, and write
    // right after it (cond_index()'s test, without the RMW's
    // dependencies, which only order it after more).
    template <class P>
    bool older_passes(MemOrder mo, P pass) const {
        Clocks th = running_clocks();
        for (unsigned k = cur_ + 1; (k = precede_past(th, mo, k - 1, nullptr, true)) != 0;)
            if (pass(hist_[(k - 1) % kHistory].value)) return true;
        return false;
    }
    // The RMWs that follow, until set_noreturn(false), are the kernel's
    // non-value-returning atomics (the LKMM's Noreturn events).
    void set_noreturn(bool on) { noreturn_ = on; }
    // Whether a release RMW's placed store is ordered after what its
    // thread's earlier loads read (false: the layer mutation
    // rmw-release-ignores-loads).
    void set_rmw_release_orders_loads(bool on) { rmw_release_orders_loads_ = on; }
    // The running load or store is a C plain access, not a marked one.
    void set_plain(bool on) {
        plain_ = on;
        if (on) detail::g_plain_access = true;
    }
    // Whether a conditional RMW run now as a relaxed read could read a
    // store whose value `pass` refuses, or promise such a value: the
    // choices do_load() offers a failing one (rmw_cond() with only_fail),
    // with the load's dependencies, as it will find them. Sets cond_pass_,
    // which rmw_cond() sets again.
    template <class P>
    bool fails_readable(P pass) {
        Clocks th = running_clocks();
        cond_pass_ = 0;
        for (unsigned d = 0; d < kHistory && d < cur_; d++)
            if (pass(hist_[(cur_ - d) % kHistory].value)) cond_pass_ |= 1ull << d;
        if (!(cond_pass_ & 1)) return true;
        int me = th.index;
        bool told = detail::g_dep_told[me];
        uint64_t mask = detail::g_dep_mask[me];
        unsigned base = detail::g_dep_base[me];
        rl::timestamp_t buf[kMaxSimThreads], gbuf[kMaxSimThreads];
        const rl::timestamp_t* gdep;
        const rl::timestamp_t* dep;
        {
            RmwDeps d(me);
            dep = dependency(th, false, buf, gbuf, &gdep);
        }
        detail::g_dep_told[me] = told;
        detail::g_dep_mask[me] = mask;
        detail::g_dep_base[me] = base;
        if (fail_store_readable(th, dep)) return true;
        if (!promising()) return false;
        for (unsigned k = 0; k < ndomain_[me]; k++)
            if ((writers_[me][k] & ~detail::g_done_mask & ~closed_for((uint64_t)domain_[me][k])) && !pass(domain_[me][k])) {
                if (detail::g_npromises < kMaxPromises) return true;
                detail::g_reads_cut++;  // a choice the search did not explore
                return false;
            }
        return false;
    }
    // The first_seen clocks (each thread's clock when it first read it) of
    // the kept store whose value `match` accepts, or null.
    template <class P>
    const rl::timestamp_t* first_seen_where(P match) const {
        for (unsigned k = cur_; k >= 1 && cur_ - k < kHistory; k--)
            if (match(hist_[k % kHistory].value)) return hist_[k % kHistory].first_seen;
        return nullptr;
    }
    // The value of the store after the latest RMW's (when it did not go last).
    T after_placed() const { return hist_[(rmw_read_ + 2) % kHistory].value; }
    bool compare_exchange_strong(T& expected, T desired, MemOrder o) {
        rl::ctx().sched();
        if (!initialized_) uninitialized();
        Clocks th = running_clocks();
        T current = latest();
        if (current == expected) {
            RmwDeps d(th.index);
            do_load(th, o == MemOrder::release ? MemOrder::relaxed : o, true);
            d.restore();
            do_store(th, desired, o, true, false, true);
            return true;
        }
        do_load(th, failure_order(o), true);
        expected = current;
        return false;
    }
};

// A full fence orders every earlier load before everything after it.
inline void fence(MemOrder o) {
    // A seq_cst fence is a scheduling point of Relacy's: it is taken
    // first, so that a promise of this thread kept while others ran there
    // is applied before the fence acts (Relacy's fence, whose own
    // scheduling point then does not switch). With load buffering on, an
    // acquire fence (smp_rmb()) is one too: it refuses the thread's
    // promises not kept yet, so the stores that keep them must be able to
    // run before it.
    bool orders_loads = o != MemOrder::relaxed && o != MemOrder::release;
    if (o == MemOrder::seq_cst || (detail::g_promises && orders_loads)) rl::ctx().sched();
    Clocks th = running_clocks();
    {
        rl::preemption_disabler d(rl::ctx());
        rl::atomic_thread_fence(rl_order(o), RL_INFO);
    }
    if (detail::g_lkmm && o != MemOrder::relaxed && o != MemOrder::release)
        for (int t = 0; t < th.nthreads; t++) {
            // An acquire fence orders the loads before it, and what they
            // read, before everything after it. A full fence is a strong
            // fence (linux-kernel.cat's pb): whatever had reached this
            // thread, its own accesses included, has reached every thread
            // by the time anything after the fence happens.
            th.glob[t] = std::max(th.glob[t], th.glob_pend[t]);
            if (o == MemOrder::seq_cst) th.glob[t] = std::max(th.glob[t], th.acq_rel[t]);
        }
    if (detail::g_lkmm && o == MemOrder::seq_cst) th.glob[th.index] = std::max(th.glob[th.index], *th.own);
    if (o == MemOrder::seq_cst || o == MemOrder::acq_rel) detail::note_post_bound(th.index, *th.own);
    if (detail::g_lkmm) {
        if (o == MemOrder::seq_cst) detail::note_strong_fence(th.index, *th.own);
        if (o == MemOrder::acquire || o == MemOrder::acq_rel) detail::g_rmb_cover[th.index] = *th.own;
        if (o == MemOrder::release || o == MemOrder::acq_rel) detail::g_wmb_cover[th.index] = *th.own;
    }
    if (detail::g_promises && orders_loads) detail::order_after_loads(th.index, true);
    if (detail::g_promises && o == MemOrder::release) detail::refuse_early_stores(th.index);
    if (o == MemOrder::seq_cst && detail::g_promises) {
        int me = th.index;
        for (int t = 0; t < kMaxSimThreads; t++)
            detail::g_cause_full[me][t] = std::max(detail::g_cause_full[me][t], detail::g_cause_all[me][t]);
    }
}

// The LKMM's special-purpose full barriers (smp_mb__after_atomic() and the
// like) order the accesses up to an operation before them with everything
// after them, and not the accesses between the two (linux-kernel.cat's mb:
// [M] ; po? ; [RMW] ; fencerel(After-atomic) ; [M]). A FenceMark is the
// running thread's state at that operation (fence_mark()); fence_since()
// is the full fence whose before side it is.
struct FenceMark {
    bool set;
    rl::timestamp_t acq_rel[kMaxSimThreads];    // what the thread had acquired, its own stores included
    rl::timestamp_t acq_fence[kMaxSimThreads];  // what its relaxed loads had read
    rl::timestamp_t glob_pend[kMaxSimThreads];  // the part of that which had reached every thread
    rl::timestamp_t cause_all[kMaxSimThreads];  // the loads its accesses were ordered after (promises)
    unsigned nreads;                            // the loads it had made
    uint64_t kept;                              // of its promises (by index), those kept by then
};
// The running thread's state into `m`, in place (the layer takes it at
// every atomic RMW and spinlock operation of a program that uses these
// barriers). Under C++ (`sc`) only that it was taken: fence_since() is
// then a full fence.
inline void fence_mark(FenceMark& m) {
    m.set = true;
    if (!detail::g_lkmm) return;
    // The running clocks, with the promises kept by now that the thread's
    // next step will take in (apply_kept()), left to that step.
    Clocks th = detail::g_clocks(rl::ctx().threadx_);
    bool kept = detail::g_kept_pending[th.index];
    for (int t = 0; t < kMaxSimThreads; t++) {
        if (t >= th.nthreads) {
            m.acq_rel[t] = m.acq_fence[t] = m.glob_pend[t] = m.cause_all[t] = 0;
            continue;
        }
        m.acq_rel[t] = th.acq_rel[t];
        m.acq_fence[t] = kept ? std::max(th.acq_fence[t], detail::g_kept_join[th.index][t]) : th.acq_fence[t];
        m.glob_pend[t] = kept ? std::max(th.glob_pend[t], detail::g_kept_gjoin[th.index][t]) : th.glob_pend[t];
        m.cause_all[t] = detail::g_cause_all[th.index][t];
    }
    m.nreads = detail::g_nreads[th.index];
    m.kept = 0;
    for (int i = 0; i < detail::g_npromises; i++)
        if (detail::g_promise[i].reader == th.index && detail::g_promise[i].kept) m.kept |= 1ULL << i;
}
// Both before sides in `into`: `m`'s joined.
inline void fence_mark_join(FenceMark& into, const FenceMark& m) {
    if (!into.set || !detail::g_lkmm) {
        if (detail::g_lkmm) into = m;
        into.set = true;
        return;
    }
    for (int t = 0; t < kMaxSimThreads; t++) {
        into.acq_rel[t] = std::max(into.acq_rel[t], m.acq_rel[t]);
        into.acq_fence[t] = std::max(into.acq_fence[t], m.acq_fence[t]);
        into.glob_pend[t] = std::max(into.glob_pend[t], m.glob_pend[t]);
        into.cause_all[t] = std::max(into.cause_all[t], m.cause_all[t]);
    }
    into.nreads = std::max(into.nreads, m.nreads);
    into.kept |= m.kept;
}
// Joins into `into` the before side a lock acquisition brings in from the
// release it read: what the running thread's latest load is ordered after
// (ReadMsg::c and ::g), for smp_mb__after_unlock_lock().
inline void fence_mark_join_last_load(FenceMark& into) {
    if (!detail::g_lkmm) {
        into.set = true;
        return;
    }
    Clocks th = detail::g_clocks(rl::ctx().threadx_);
    if (!into.set) {
        into.set = true;
        into.nreads = 0;
        into.kept = 0;
        for (int t = 0; t < kMaxSimThreads; t++) into.acq_rel[t] = into.acq_fence[t] = into.glob_pend[t] = into.cause_all[t] = 0;
    }
    unsigned nr = detail::g_nreads[th.index];
    if (!nr) return;
    const detail::ReadMsg& msg = detail::g_read_msg[th.index][(nr - 1) % kDepReads];
    for (int t = 0; t < th.nthreads; t++) {
        into.acq_rel[t] = std::max(into.acq_rel[t], msg.c[t]);
        into.glob_pend[t] = std::max(into.glob_pend[t], msg.g[t]);
    }
}
// A full fence (fence(seq_cst)) whose before side is the state `m` took:
// Relacy's seq_cst fence and the LKMM's strong fence, done with m's clocks
// in place of the running ones. The accesses after it are ordered after
// the loads made by then and what they read; the stores after it publish
// what the thread had then; the loads made after `m` keep their promises.
// Under C++ (`sc`) every access is seq_cst, and it is fence(seq_cst).
inline void fence_since(const FenceMark& m) {
    if (!detail::g_lkmm) {
        fence(MemOrder::seq_cst);
        return;
    }
    rl::ctx().sched();
    Clocks th = running_clocks();
    rl::preemption_disabler d(rl::ctx());
    int me = th.index;
    rl::timestamp_t acq_fence[kMaxSimThreads], glob_pend[kMaxSimThreads];
    for (int t = 0; t < th.nthreads; t++) {
        acq_fence[t] = m.acq_fence[t];
        glob_pend[t] = m.glob_pend[t];
    }
    // A load made by `m` whose promise was kept since.
    detail::join_kept_loads(th, m.nreads, m.kept, acq_fence, glob_pend);
    rl::timestamp_t* order = rl::ctx().seq_cst_fence_order_;
    for (int t = 0; t < th.nthreads; t++) {
        rl::timestamp_t before = std::max(m.acq_rel[t], acq_fence[t]);
        // Acquire: the later accesses are ordered after what the loads
        // before `m` read. Seq_cst: the fences before this one in the
        // fence order are ordered before it, and it before the later ones
        // with what it orders. Release: the later stores publish it.
        th.acq_rel[t] = std::max(th.acq_rel[t], std::max(acq_fence[t], order[t]));
        order[t] = std::max(order[t], before);
        th.rel_fence[t] = std::max(th.rel_fence[t], std::max(before, order[t]));
        // The strong fence: what had reached this thread by `m` has reached
        // every thread by the time anything after the fence happens.
        th.glob[t] = std::max(th.glob[t], std::max(glob_pend[t], m.acq_rel[t]));
    }
    detail::note_post_bound(me, m.acq_rel[me]);
    detail::note_strong_fence(me, m.acq_rel[me]);
    if (detail::g_promises) {
        detail::order_after_loads_before(me, m.nreads);
        for (int t = 0; t < th.nthreads; t++)
            detail::g_cause_full[me][t] = std::max(detail::g_cause_full[me][t], m.cause_all[t]);
    }
}

// smp_rmb(). Under C++ an acquire fence (fence()). Under the LKMM it
// orders the thread's earlier loads before its later loads only
// (linux-kernel.cat's rmb, R to R): a later load, and an access that
// depends on one, is ordered after what the earlier loads read (g_rd,
// known()); a later store is not, so it may still take a coherence place
// before a store those loads only observed, and it publishes nothing more.
inline void read_fence() {
    if (!detail::g_lkmm) {
        fence(MemOrder::acquire);
        return;
    }
    Clocks th = running_clocks();
    for (int t = 0; t < th.nthreads; t++) {
        detail::g_rd[th.index][t] = std::max(detail::g_rd[th.index][t], detail::g_ld[th.index][t]);
        detail::g_rd_glob[th.index][t] = std::max(detail::g_rd_glob[th.index][t], detail::g_ld_glob[th.index][t]);
    }
    // A promise of an earlier load may still be kept until the thread's
    // next load (order_after_read_fence, keep_promises).
    detail::g_rd_loads[th.index] = detail::g_nreads[th.index];
    detail::g_rmb_cover[th.index] = *th.own;
}
// What the running thread's next load is ordered after, of thread i's
// clock: what it acquired, and what an smp_rmb() orders its loads after
// (the LKMM race check of a load).
inline rl::timestamp_t load_clock(int i) {
    rl::thread_info_base& th = *rl::ctx().threadx_;
    return std::max(th.acq_rel_order_[i], detail::g_rd[th.index_][i]);
}

// What the running thread's next marked access is ordered after, of
// thread i's clock, beyond what its acquires and barriers order every
// access after: a lock taken after its own unlock (detail::g_ul).
inline rl::timestamp_t marked_clock(int i) { return detail::g_ul[rl::ctx().threadx_->index_][i]; }

// What a thread must know of thread i's clock for thread i's access of
// clock `ts` to be ordered before its store, under the LKMM: the first
// point after the access at which thread i's accesses are ordered before
// what it publishes (detail::g_post); the largest clock when there is
// none yet. Under C++, `ts` itself.
inline rl::timestamp_t post_bound(int i, rl::timestamp_t ts) {
    if (!detail::g_lkmm) return ts;
    // A point at or after ts may have been dropped (more than kPostPoints
    // of them): ts, as an smp_wmb() would be taken to bound it.
    if (detail::g_post_dropped[i] >= ts) return ts;
    const rl::timestamp_t* v = detail::g_post[i];
    const rl::timestamp_t* at = std::lower_bound(v, v + detail::g_npost[i], ts);
    return at == v + detail::g_npost[i] ? (rl::timestamp_t)-1 : *at;
}

namespace detail {
// Thread t's load of clock ls, while its ReadMsg is kept (null: not).
inline const ReadMsg* read_msg_at(int t, rl::timestamp_t ls) {
    unsigned n = g_nreads[t];
    for (unsigned k = 0; k < n && k < kDepReads; k++) {
        const ReadMsg& m = g_read_msg[t][(n - 1 - k) % kDepReads];
        if (m.stamp == ls) return &m;
        if (m.stamp < ls) return nullptr;
    }
    return nullptr;
}
// A marked load of clock ls (`acq`: it acquires; `obj`: its location) is
// ordered before the marked store `m` of its thread by ppo, as the store's
// record has it (StoreMark). A plain load (`plain`) only through what
// orders every earlier load before the store (StoreMark::all: a strong
// fence, a release, an smp_rmb() before a marked load the store is
// ordered after; linux-kernel.cat's r-post-bounded for a plain load): a
// dependency on it, or the store's location, orders nothing.
inline bool load_before_mark(rl::timestamp_t ls, bool acq, const void* obj, const StoreMark& m, bool plain = false) {
    if (m.stamp <= ls) return false;
    if (plain && g_early_rules.plain_load_post_bound) return ls <= m.all;
    if (acq || ls <= m.all || obj == m.obj) return true;
    for (unsigned k = 0; k < m.ndep; k++)
        if (m.dep[k] == ls) return true;
    return false;
}
// The running thread's next access is ordered after its own marked load
// of clock y, which read store (wt, wstamp) (linux-kernel.cat's
// w-pre-bounded after xbstar): a strong fence since, the load acquires or
// an smp_rmb() orders it before an acquire since, or the access has an
// address dependency on it, on a load an smp_rmb() orders after it, or on
// another load of the same store.
inline bool mine_after(int me, rl::timestamp_t y, int wt, rl::timestamp_t wstamp) {
    if (g_mb_cover[me] >= y || g_acq_cover[me] >= y) return true;
    const ReadMsg* own = read_msg_at(me, y);
    if (own && own->acq) return true;
    if (!g_dep_told[me] || !g_dep_addr[me]) return false;
    bool found = false;
    for_each_dep_read(me, g_dep_addr[me], [&](const ReadMsg* msg, unsigned) {
        found = msg && !msg->plain && (msg->stamp == y || msg->rmb >= y || (msg->from == wt && msg->from_stamp == wstamp));
        return !found;
    });
    return found;
}
// One question of load_xb_before(): the loads asked about so far, each
// asked once.
struct XbQuery {
    int me, nthreads;
    bool reads;
    // The running thread's marked store the question is about, when it is
    // not its next access (null): a load of its own is ordered before it
    // as its mark says.
    const StoreMark* target = nullptr;
    unsigned nasked = 0;
    struct {
        int t;
        rl::timestamp_t ls;
    } asked[64];
    bool ask(int t, rl::timestamp_t ls) {
        for (unsigned k = 0; k < nasked; k++)
            if (asked[k].t == t && asked[k].ls == ls) return false;
        if (nasked == 64) return false;
        asked[nasked++] = {t, ls};
        return true;
    }
};
template <class K>
bool load_xb(XbQuery& q, int i, rl::timestamp_t ls, bool acq, const void* obj, K& known, bool plain = false) {
    if (i == q.me) return q.target && load_before_mark(ls, acq, obj, *q.target, plain);
    rl::timestamp_t k_i = known(i);
    if (k_i >= (acq ? ls : post_bound(i, ls))) return true;
    unsigned n = g_nmark[i], from = n > kStoreMarks ? n - kStoreMarks : 0;
    // Thread i's marks are in clock order: the ones after the load start
    // at `from` once the earlier are skipped (a binary search), and the
    // first one the load is ordered before is the earliest.
    for (unsigned lo = from, hi = n; lo < hi;) {
        unsigned mid = lo + (hi - lo) / 2;
        if (g_mark[i][mid % kStoreMarks].stamp <= ls) lo = from = mid + 1;
        else hi = mid;
    }
    rl::timestamp_t first = (rl::timestamp_t)-1;
    for (unsigned k = from; k < n && first == (rl::timestamp_t)-1; k++)
        if (load_before_mark(ls, acq, obj, g_mark[i][k % kStoreMarks], plain)) first = g_mark[i][k % kStoreMarks].stamp;
    if (k_i >= first) return true;
    if (!q.reads || first == (rl::timestamp_t)-1) return false;
    for (unsigned k = from; k < n; k++) {
        const StoreMark& m = g_mark[i][k % kStoreMarks];
        // Ordered before it directly, or through an smp_wmb() after the first.
        if (m.stamp < first || !(load_before_mark(ls, acq, obj, m, plain) || first <= m.wmb)) continue;
        for (int j = 0; j < q.nthreads; j++) {
            rl::timestamp_t at;
            if (j == i || !m.seen_by(m.obj, i, m.stamp, j, &at)) continue;
            if (j == q.me) {
                if (q.target) {
                    const ReadMsg* y = read_msg_at(j, at);
                    if (load_before_mark(at, y && y->acq, m.obj, *q.target)) return true;
                } else if (mine_after(j, at, i, m.stamp)) {
                    return true;
                }
                continue;
            }
            if (!q.ask(j, at)) continue;
            const ReadMsg* y = read_msg_at(j, at);
            if (load_xb(q, j, at, y && y->acq, m.obj, known)) return true;
        }
    }
    return false;
}
}  // namespace detail
// Under the LKMM, is thread i's marked load of clock `ls`
// (last_load_stamp(); `acq`: it acquires; `obj`: its location) ordered
// before the running thread's next access, a store (or `target`, the
// running thread's marked store being made: StoreMark), as the data-race
// check asks
// (linux-kernel.cat's rw-xbstar: a marked load is its own r-post-bounded,
// then xbstar ; w-pre-bounded)? `known(t)`: what the access is ordered
// after of thread t's clock. Through clocks: that reaches the load's
// first post-bound point (post_bound()), the first marked store of its
// thread the load is ordered before (detail::StoreMark; a later smp_wmb()
// publishes it), or the load itself when it acquires. Through reads
// (`reads`): a marked store of thread i that the load is ordered before
// was read by the running thread at a load its access is ordered after
// (detail::mine_after()), or by a third thread at a load that is, in
// turn, ordered before the access (asked the same, each load once).
// A plain load (`plain`) is asked the same, but for what orders it before
// a marked store of its own thread (detail::load_before_mark()).
template <class K>
bool load_xb_before(int i, rl::timestamp_t ls, bool acq, const void* obj, int nthreads, K known, bool reads = true,
                    const detail::StoreMark* target = nullptr, bool plain = false) {
    detail::XbQuery q;
    q.me = (int)rl::ctx().threadx_->index_;
    q.nthreads = nthreads;
    q.reads = reads;
    q.target = target;
    q.ask(i, ls);
    return detail::load_xb(q, i, ls, acq, obj, known, plain);
}
namespace detail {
// PendingRace::ordered for a load's race: the load is ordered
// before the store that keeps the promise (of thread r.thread's clock,
// what that store published or its thread acquired), so before the read
// that bounds the early access (linux-kernel.cat's rw-xbstar ends in
// w-pre-bounded).
inline bool load_race_ordered(const PendingRace& r, const rl::timestamp_t* pub) {
    Clocks th = g_clocks(rl::ctx().threadx_);
    return g_storing && load_xb_before(r.thread, r.lstamp, r.acq, r.obj, th.nthreads,
                                       [&](int t) { return std::max(th.acq_rel[t], pub[t]); }, true, g_storing, r.plain);
}
}  // namespace detail
// The running thread's load (its clock `ls`; `acq`: it acquires; `obj`:
// its location; `plain`: a plain C load) races with thread `other`'s
// access, trace event `ev`, which ran early, bounded by the loads whose
// promises are open (detail::Early::bounded): the keep decides, as for a
// store's race (defer_race()), whether the load is ordered before the
// early access. `read`: the load read that access; a keep that would
// order the two is refused instead (PendingRace::read). False: flag it
// now.
inline bool defer_load_race(int other, int ev, int me, rl::timestamp_t ls, bool acq, const void* obj, bool plain,
                            bool read, const char* msg) {
    const detail::EarlyRules& rules = detail::g_early_rules;
    if (!rules.defer_races || !rules.defer_load_races || (plain && !rules.defer_plain_load_races)) return false;
    if (read && !rules.read_race_waits) return false;
    int k = detail::early_entry(other, ev);
    if (k < 0 || !detail::g_early[k].bounded || detail::g_npending_races == detail::kMaxPendingRaces) return false;
    detail::PendingRace& r = detail::g_pending_race[detail::g_npending_races++];
    r = {k, false, me, ls, ev, {}, &detail::load_race_ordered, ls, acq, obj, plain, read};
    std::snprintf(r.msg, sizeof r.msg, "%s", msg);
    return true;
}
// The running thread's last load: its clock and whether it acquires (for
// load_xb_before()), under the LKMM.
inline rl::timestamp_t last_load_stamp(bool* acq) {
    int me = (int)rl::ctx().threadx_->index_;
    unsigned n = detail::g_nreads[me];
    if (!n) return *acq = false, 0;
    const detail::ReadMsg& m = detail::g_read_msg[me][(n - 1) % kDepReads];
    *acq = m.acq;
    return m.stamp;
}

// The running thread's last load was a plain C load: an access with an
// address dependency on it is not bounded by it (pre_bound()).
inline void note_plain_load() {
    int me = (int)rl::ctx().threadx_->index_;
    unsigned n = detail::g_nreads[me];
    if (n) detail::g_read_msg[me][(n - 1) % kDepReads].plain = true;
}
// Under the LKMM, what the running thread's next access is ordered after
// through its address dependencies on marked loads (the description of
// depend_on, not consumed): a plain access so bounded is ordered after
// what those loads are for the data-race check (linux-kernel.cat's
// w-pre-bounded and r-pre-bounded: [Marked] ; addr, where addr takes in
// carry-dep, so a plain load of a store of the thread's own bounds by what
// it carried: ReadMsg::carried). Into out[0..n); false for nothing.
// `carried` false: a plain load bounds by nothing (the mutation
// plain-rfi-carries-no-bound).
inline bool pre_bound(rl::timestamp_t* out, int n, bool carried = true) {
    int me = (int)rl::ctx().threadx_->index_;
    if (!detail::g_lkmm || !detail::g_dep_told[me] || !detail::g_dep_addr[me]) return false;
    bool any = false;
    for (int t = 0; t < n; t++) out[t] = 0;
    detail::for_each_dep_read(me, detail::g_dep_addr[me], [&](const detail::ReadMsg* msg, unsigned) {
        const rl::timestamp_t* b = detail::race_bound_of(msg, carried);
        if (!b) return true;
        any = true;
        for (int t = 0; t < n; t++) out[t] = std::max(out[t], b[t]);
        return true;
    });
    return any;
}

// The running simulated thread.
inline int thread_index() { return (int)rl::ctx().threadx_->index_; }
// A scheduling point: other threads may run here.
inline void sched() { rl::ctx().sched(); }
// Every value in [0, n) is explored.
inline unsigned choose(unsigned n) { return rl::ctx().rand(n, rl::sched_type_user); }
// A choice of which store a load reads, made before the load runs.
inline unsigned choose_read(unsigned n) { return rl::ctx().rand(n, rl::sched_type_atomic_load); }

// No scheduling point while it lives.
class no_preempt {
    rl::preemption_disabler d_;

public:
    no_preempt() : d_(rl::ctx()) {}
    no_preempt(const no_preempt&) = delete;
};

// Happens-before clocks, for the LKMM race check: a thread's own clock, and
// what it has acquired of each other thread's.
using timestamp_t = rl::timestamp_t;
// Ticks the running thread's own clock and returns the new value.
inline timestamp_t tick() { return ++rl::ctx().threadx_->own_acq_rel_order_; }
// The running thread's clock, as tick() last left it.
inline timestamp_t clock_now() { return rl::ctx().threadx_->own_acq_rel_order_; }
// The clock of thread `i` as the running thread has acquired it.
inline timestamp_t acquired_clock(int i) { return rl::ctx().threadx_->acq_rel_order_[i]; }
// cpu_relax(): a load cannot return a value older than one the thread saw
// before this point, until relax_restore().
inline void relax() {
    rl::thread_info_base& th = *rl::ctx().threadx_;
    th.last_yield_ = th.own_acq_rel_order_;
}
// The running thread's cpu_relax() point (0: none), taken when a wait or a
// retry loop begins, and given back to relax_restore() when it ends: the
// bound the wait took lasts as long as the wait, and an enclosing retry
// loop's bound comes back.
inline timestamp_t relax_mark() { return rl::ctx().threadx_->last_yield_; }
inline void relax_restore(timestamp_t mark) { rl::ctx().threadx_->last_yield_ = mark; }

// Parks the running thread until unpark(it).
inline void park() { rl::ctx().park_current_thread(false, false, false, RL_INFO); }
inline void unpark(int t) { rl::ctx().unpark_thread((rl::thread_id_t)t, false, RL_INFO); }

}  // namespace sim
}  // namespace vfsmc
