// vfsmc: probabilistic concurrency testing (PCT), as a Relacy scheduler.
//
// Burckhardt, Kothari, Musuvathi and Nagarakatte, "A randomized scheduler
// with probabilistic guarantees of finding bugs", ASPLOS 2010. Each
// execution gives the threads random distinct priorities d..d+n-1 and picks
// d-1 random change points among the first k steps; the enabled thread of
// highest priority always runs, and at the i-th change point the running
// thread drops to priority d-i. A bug of depth d (d ordering constraints)
// is found in one execution with probability at least 1/(n k^(d-1)).
//
// Uniform random scheduling rarely stalls a thread long enough for a
// depth-2 bug in a long protocol; PCT stalls one thread for a whole random
// stretch. Data choices (kchoose, which store a relaxed load reads) are
// uniform, but for one that names a preferred value (rand_impl()). Every
// execution is seeded by its iteration number, so the seed and the
// iteration replay it; k is measured once per search by a probe execution
// and carried in the replay token.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>

#include "substrate/runtime.h"
#include "substrate/sim.h"

namespace vfsmc {

struct PctConfig {
    int depth = 3;          // d
    uint64_t horizon = 0;   // k: steps among which change points fall
    bool probe = false;     // a probe execution: no change points, counts steps
    uint64_t probe_steps = 0;
};
// The running PCT search's (engine.cpp: the search object of the run owns it).
PctConfig& pct_config();

template <rl::thread_id_t N>
class pct_scheduler : public rl::scheduler<pct_scheduler<N>, rl::scheduler_thread_info, N> {
public:
    typedef rl::scheduler<pct_scheduler<N>, rl::scheduler_thread_info, N> base_t;
    typedef typename base_t::thread_info_t thread_info_t;
    typedef typename base_t::shared_context_t shared_context_t;
    struct task_t {};

    pct_scheduler(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
        : base_t(params, ctx, dynamic_thread_count) {}

    rl::thread_id_t iteration_begin_impl() {
        const PctConfig& c = pct_config();
        rng_ = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)this->iter_ * 0xbf58476d1ce4e5b9ULL);
        next();
        // Random distinct priorities d .. d+n-1.
        int d = c.depth < 1 ? 1 : c.depth;
        int perm[N];
        for (int i = 0; i < (int)N; i++) perm[i] = i;
        for (int i = (int)N - 1; i > 0; i--) {
            int j = (int)(next() % (uint64_t)(i + 1));
            int tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        for (int i = 0; i < (int)N; i++) prio_[i] = d + perm[i];
        nchange_ = 0;
        if (!c.probe) {
            uint64_t k = c.horizon ? c.horizon : 1;
            for (int i = 0; i < d - 1 && i < kMaxChange; i++) change_[nchange_++] = 1 + next() % k;
        }
        step_ = 0;
        return pick();
    }

    rl::thread_id_t schedule_impl(rl::unpark_reason& reason, unsigned /*yield*/) {
        reason = rl::unpark_reason_normal;
        step_++;
        if (this->thread_) {
            int cur = (int)this->thread_->index_;
            for (int i = 0; i < nchange_; i++)
                if (change_[i] == step_) prio_[cur] = pct_config().depth - 1 - i;
        }
        if (pct_config().probe && step_ > pct_config().probe_steps) pct_config().probe_steps = step_;
        return pick();
    }

    // A data choice with a preferred value (sim::detail::g_preferred_choice:
    // a litmus test's load whose register the condition names) takes it
    // half the time, and a uniform choice otherwise.
    unsigned rand_impl(unsigned limit, rl::sched_type) {
        int p = sim::detail::g_preferred_choice;
        if (p >= 0 && (unsigned)p < limit && (next() & 1)) return (unsigned)p;
        return (unsigned)(next() % limit);
    }
    bool iteration_end_impl() { return this->iter_ + 1 >= this->params_.iteration_count; }
    rl::iteration_t iteration_count_impl() { return this->params_.iteration_count; }
    // The token carries k (the iteration is written before it by Relacy).
    void get_state_impl(std::ostream& ss) { ss << pct_config().horizon << " "; }
    void set_state_impl(std::istream& ss) {
        uint64_t k = 0;
        if (ss >> k) pct_config().horizon = k;
    }
    void on_thread_block(rl::thread_id_t, bool) {}

private:
    static constexpr int kMaxChange = 16;
    uint64_t rng_ = 1;
    int prio_[N];
    uint64_t change_[kMaxChange];
    int nchange_ = 0;
    uint64_t step_ = 0;

    uint64_t next() {
        uint64_t z = (rng_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    rl::thread_id_t pick() {
        rl::thread_id_t best = this->running_threads[0];
        for (rl::thread_id_t i = 1; i < this->running_threads_count; i++) {
            rl::thread_id_t t = this->running_threads[i];
            if (prio_[t] > prio_[best]) best = t;
        }
        return best;
    }
};

}  // namespace vfsmc
