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
    rl::timestamp_t* own;
    rl::timestamp_t last_yield;
    int index;
    int nthreads;
};

namespace detail {
template <int N>
Clocks clocks_of(rl::thread_info_base* b) {
    auto* t = static_cast<rl::thread_info<N>*>(b);
    return {t->acq_rel_order_, t->acquire_fence_order_, t->release_fence_order_, &t->own_acq_rel_order_,
            t->last_yield_,    (int)t->index_,          N};
}
// The thread count of the running suite (search/suite.h sets it before each
// execution): Relacy's thread records are sized by it.
inline Clocks (*g_clocks)(rl::thread_info_base*) = nullptr;
}  // namespace detail

template <int N>
void bind_thread_count() {
    detail::g_clocks = &detail::clocks_of<N>;
}

inline Clocks running_clocks() { return detail::g_clocks(rl::ctx().threadx_); }

namespace detail {
inline unsigned g_load_window = 1;
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
        int thread;
        rl::timestamp_t stamp;                      // the writer's clock at the store
        rl::timestamp_t released[kMaxSimThreads];   // what a reader that synchronizes acquires
        rl::timestamp_t first_seen[kMaxSimThreads]; // each thread's clock when it first read it
    };
    // Store number n (1, 2, ...) is hist_[n % kHistory] while it is one of
    // the last kHistory; 0 is the state before the first store, which no
    // load may read.
    Rec hist_[kHistory];
    unsigned cur_ = 0;
    bool initialized_ = false;

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
    bool may_pass(const Clocks& th, MemOrder mo, unsigned index) const {
        const Rec* r = rec(index);
        if (!r) uninitialized();
        const Rec* prev = rec(index - 1);
        if (prev && prev->first_seen[th.index] <= th.last_yield) return false;
        if (mo == MemOrder::seq_cst && r->seq_cst) return false;
        if (th.acq_rel[r->thread] >= r->stamp) return false;
        for (int t = 0; t < th.nthreads; t++)
            if (th.acq_rel[t] >= r->first_seen[t]) return false;
        return true;
    }
    unsigned load_index(const Clocks& th, MemOrder mo, bool rmw) const {
        unsigned index = cur_;
        if (!rmw) {
            unsigned limit = detail::g_load_window;
            unsigned i = 0;
            for (; i != limit; ++i, --index)
                if (!may_pass(th, mo, index) || rl::ctx().rand(2, rl::sched_type_atomic_load) == 0) break;
            // Came back as far as the window goes, and an older store it
            // could read is out of reach: the execution says so.
            if (i == limit && limit == kHistory - 1 && index > 1 && may_pass(th, mo, index)) detail::g_reads_cut++;
        }
        if (!rec(index)) uninitialized();
        return index;
    }
    // The load's effect on the reader's clocks.
    const Rec& do_load(const Clocks& th, MemOrder mo, bool rmw) {
        Rec& r = hist_[load_index(th, mo, rmw) % kHistory];
        *th.own += 1;
        if (r.first_seen[th.index] == (rl::timestamp_t)-1) r.first_seen[th.index] = *th.own;
        rl::timestamp_t* into = acquires(mo) ? th.acq_rel : th.acq_fence;
        for (int t = 0; t < th.nthreads; t++) into[t] = std::max(into[t], r.released[t]);
        return r;
    }
    // A new store at the end of the modification order. A release store
    // publishes the writer's clock, a relaxed one what its last release
    // fence did; an RMW, or a store of the thread that wrote the previous
    // value, also carries what the previous store published (a release
    // sequence).
    void do_store(const Clocks& th, T v, MemOrder mo, bool rmw) {
        unsigned n = ++cur_;
        const Rec* prev = rec(n - 1);
        Rec& r = hist_[n % kHistory];
        rl::timestamp_t carried[kMaxSimThreads] = {};
        bool preserve = prev && (rmw || prev->thread == th.index);
        if (preserve)
            for (int t = 0; t < th.nthreads; t++) carried[t] = prev->released[t];
        r.value = v;
        r.thread = th.index;
        r.seq_cst = mo == MemOrder::seq_cst;
        *th.own += 1;
        r.stamp = *th.own;
        for (int t = 0; t < th.nthreads; t++) r.first_seen[t] = (rl::timestamp_t)-1;
        r.first_seen[th.index] = *th.own;
        const rl::timestamp_t* from = releases(mo) ? th.acq_rel : th.rel_fence;
        for (int t = 0; t < th.nthreads; t++) r.released[t] = preserve ? std::max(carried[t], from[t]) : from[t];
        initialized_ = true;
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

public:
    atomic() = default;
    atomic(const atomic&) = delete;
    // Would an RMW of the running thread with order `o`, now, take no
    // clock into the thread's own and give its store exactly the clock
    // the store before it carries? Then two such RMWs of different threads
    // leave every clock the same in either order (search/commute.h,
    // condition 3).
    bool rmw_publishes_nothing(MemOrder o) const {
        const Rec* prev = rec(cur_);
        if (!prev || acquires(o)) return false;
        Clocks th = running_clocks();
        const rl::timestamp_t* from = releases(o) ? th.acq_rel : th.rel_fence;
        for (int t = 0; t < th.nthreads; t++)
            if (from[t] > prev->released[t]) return false;
        return true;
    }
    T load(MemOrder o) {
        rl::context& c = rl::ctx();
        c.sched();
        if (c.invariant_executing) {
            if (!initialized_) uninitialized();
            return latest();
        }
        return do_load(running_clocks(), o, false).value;
    }
    void store(T v, MemOrder o) {
        rl::ctx().sched();
        do_store(running_clocks(), v, o, false);
    }
    T fetch_add(T v, MemOrder o) {
        rl::ctx().sched();
        if (!initialized_) uninitialized();
        Clocks th = running_clocks();
        T prev = do_load(th, o == MemOrder::release ? MemOrder::relaxed : o, true).value;
        do_store(th, (T)(prev + v), o, true);
        return prev;
    }
    bool compare_exchange_strong(T& expected, T desired, MemOrder o) {
        rl::ctx().sched();
        if (!initialized_) uninitialized();
        Clocks th = running_clocks();
        T current = latest();
        if (current == expected) {
            do_load(th, o == MemOrder::release ? MemOrder::relaxed : o, true);
            do_store(th, desired, o, true);
            return true;
        }
        do_load(th, failure_order(o), true);
        expected = current;
        return false;
    }
};

inline void fence(MemOrder o) { rl::atomic_thread_fence(rl_order(o), RL_INFO); }

// The running simulated thread.
inline int thread_index() { return (int)rl::ctx().threadx_->index_; }
// A scheduling point: other threads may run here.
inline void sched() { rl::ctx().sched(); }
// Every value in [0, n) is explored.
inline unsigned choose(unsigned n) { return rl::ctx().rand(n, rl::sched_type_user); }

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
// The clock of thread `i` as the running thread has acquired it.
inline timestamp_t acquired_clock(int i) { return rl::ctx().threadx_->acq_rel_order_[i]; }
// cpu_relax(): a load cannot return a value older than one the thread saw
// before this point.
inline void relax() {
    rl::thread_info_base& th = *rl::ctx().threadx_;
    th.last_yield_ = th.own_acq_rel_order_;
}

// Parks the running thread until unpark(it).
inline void park() { rl::ctx().park_current_thread(false, false, false, RL_INFO); }
inline void unpark(int t) { rl::ctx().unpark_thread((rl::thread_id_t)t, false, RL_INFO); }

}  // namespace sim
}  // namespace vfsmc
