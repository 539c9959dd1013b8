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

// Parks the running thread until unpark(it).
inline void park() { rl::ctx().park_current_thread(false, false, false, RL_INFO); }
inline void unpark(int t) { rl::ctx().unpark_thread((rl::thread_id_t)t, false, RL_INFO); }

}  // namespace sim
}  // namespace vfsmc
