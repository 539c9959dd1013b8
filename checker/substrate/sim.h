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

// One simulated atomic location. The debug info Relacy keeps for its own
// messages names this file; vfsmc reports name the model's fields instead.
template <class T>
class atomic {
    rl::atomic<T> a_;

public:
    atomic() = default;
    atomic(const atomic&) = delete;
    T load(MemOrder o) const { return a_.load(rl_order(o), RL_INFO); }
    void store(T v, MemOrder o) { a_.store(v, rl_order(o), RL_INFO); }
    T fetch_add(T v, MemOrder o) { return a_.fetch_add(v, rl_order(o), RL_INFO); }
    bool compare_exchange_strong(T& expected, T desired, MemOrder o) {
        return a_.compare_exchange_strong(expected, desired, rl_order(o), RL_INFO);
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

// How far back a load that is not ordered after a newer store may read.
// Relacy keeps each location's last three stores (rl::atomic_history_size)
// and lets such a load read the latest store or the one before it; only
// under its random scheduler does it offer the third, two stores back.
// That choice is a flag of the context, set from the search type when the
// context is built. widen_load_window() sets it for the running context,
// whatever the scheduler: every search then offers all three stores, one
// reads-from choice at a time (each a data node the tree searches explore).
// Nothing else of the context reads the flag but the compare-exchange's
// spurious failures (compare_exchange_weak, which the shim does not offer)
// and the deferral of Relacy's own frees (which the models do not call).
namespace detail {
// The flag is private to rl::context: its address is taken through an
// explicit instantiation, where access checking does not apply.
bool rl::context::*random_sched_flag();
template <bool rl::context::*Flag>
struct RandomSchedFlag {
    friend bool rl::context::*random_sched_flag() { return Flag; }
};
template struct RandomSchedFlag<&rl::context::is_random_sched_>;
}  // namespace detail
inline void widen_load_window() { rl::ctx().*detail::random_sched_flag() = true; }

// Parks the running thread until unpark(it).
inline void park() { rl::ctx().park_current_thread(false, false, false, RL_INFO); }
inline void unpark(int t) { rl::ctx().unpark_thread((rl::thread_id_t)t, false, RL_INFO); }

}  // namespace sim
}  // namespace vfsmc
