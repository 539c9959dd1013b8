// vfsmc: the scheduler a replay runs under.
//
// A replay token records the choices of one execution (token.h). Relacy's
// own tree schedulers take such a state on trust: with RL_VERIFY compiled
// out, a choice whose count differs from what the execution asks for, or an
// index past it, indexes past the end of the running-thread array. This
// scheduler follows the recorded choices one by one and checks each against
// the choice the execution actually asks for (same type, same number of
// options). On the first mismatch, or when the execution asks for more
// choices than were recorded, it answers 0 (always a valid choice), sets
// replay_guard().off, and the engine ends the execution at its next step and
// reports "token does not match this scenario". It runs exactly one
// execution.
//
// Which points are choices depends on the strategy's policy: the exhaustive
// search may switch at every scheduling point; the bounded search only
// while preemptions remain (as rl::context_bound_scheduler). A new tree
// strategy adds its policy here.
#pragma once

#include <cstddef>

// Relacy's own warnings (-Warray-bounds on its fixed-size thread arrays
// once inlined, and the rest sim.h lists) are silenced for Relacy only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <relacy/relacy.hpp>
#pragma GCC diagnostic pop

namespace vfsmc {

struct ReplayGuard {
    bool off = false;        // the execution left the recorded choices
    const char* why = "";
    size_t depth = 0;        // choices followed so far
    size_t size = 0;         // choices recorded
};
inline ReplayGuard& replay_guard() {
    static ReplayGuard g;
    return g;
}

template <rl::thread_id_t thread_count>
class replay_scheduler
    : public rl::tree_search_scheduler<replay_scheduler<thread_count>,
                                       rl::context_bound_scheduler_thread_info<thread_count>, thread_count> {
public:
    typedef rl::tree_search_scheduler<replay_scheduler<thread_count>,
                                      rl::context_bound_scheduler_thread_info<thread_count>, thread_count>
        base_t;
    typedef typename base_t::thread_info_t thread_info_t;
    typedef typename base_t::shared_context_t shared_context_t;

    replay_scheduler(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
        : base_t(params, ctx, dynamic_thread_count) {}

    rl::thread_id_t iteration_begin_impl() {
        this->stree_depth_ = 0;
        bounded_ = this->params_.search_type == rl::sched_bound;
        switches_remain_ = this->params_.context_bound;
        ReplayGuard& g = replay_guard();
        g.off = false;
        g.why = "";
        g.depth = 0;
        g.size = this->stree_.size();
        unsigned const index = rand_impl(this->running_threads_count, rl::sched_type_sched);
        return this->running_threads[index];
    }

    // One execution only.
    bool iteration_end_impl() {
        ReplayGuard& g = replay_guard();
        if (!g.off && g.depth != g.size) leave("the execution ended before the recorded choices did");
        return true;
    }

    unsigned rand_impl(unsigned limit, rl::sched_type t) {
        ReplayGuard& g = replay_guard();
        if (g.off || limit == 0) return 0;
        if (this->stree_depth_ >= this->stree_.size()) {
            leave("the execution asks for more choices than were recorded");
            return 0;
        }
        const auto& n = this->stree_[this->stree_depth_];
        if (n.type_ != t || n.count_ != limit || n.index_ >= n.count_) {
            leave("a recorded choice differs from the one the execution asks for");
            return 0;
        }
        this->stree_depth_ += 1;
        g.depth = this->stree_depth_;
        return n.index_;
    }

    bool can_switch(thread_info_t& t) {
        t.sched_count_ += 1;
        return !bounded_ || switches_remain_ != 0;
    }

    void on_switch(thread_info_t& t) {
        if (!bounded_) return;
        if (t.state_ == rl::thread_state_running) {
            if (switches_remain_) switches_remain_ -= 1;
        } else {
            t.forced_context_switch_count_ += 1;
        }
    }

    double iteration_count_approx() { return 1.0; }

private:
    bool bounded_ = false;
    unsigned switches_remain_ = 0;

    void leave(const char* why) {
        ReplayGuard& g = replay_guard();
        g.off = true;
        g.why = why;
    }

    RL_NOCOPY(replay_scheduler);
};

}  // namespace vfsmc
