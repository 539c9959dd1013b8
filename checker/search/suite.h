// vfsmc: the Relacy test suite every search runs (one per thread count, so
// that a scenario runs with exactly its own threads), and the one way a
// scheduler runs it. The suite's callbacks are the engine's (engine.cpp):
// before() builds the model's state, thread() runs a thread's ops, after()
// checks the final invariants.
#pragma once

#include "substrate/sim.h"

namespace vfsmc {

void engine_before();
void engine_thread(unsigned i);
void engine_after();

template <int N>
struct Suite : rl::test_suite<Suite<N>, N> {
    void before() {
        sim::bind_thread_count<N>();
        engine_before();
    }
    void thread(unsigned i) { engine_thread(i); }
    void after() { engine_after(); }
};

// rl::simulate, for any scheduler: one run, no second run to collect
// Relacy's history (the trace is ours, recorded as the execution runs). On
// a failure, params.final_state is the iteration and the scheduler's state.
template <class Test, class Sched>
rl::test_result_e simulate_with(rl::test_params& p) {
    rl::ostringstream oss;
    p.test_name = "vfsmc";
    rl::test_result_e res = rl::run_test<Test, Sched>(p, oss, false);
    if (res != rl::test_result_success) p.final_state = oss.str().c_str();
    p.test_result = res;
    return res;
}

// A scheduler's search over the suite with `n` threads (1..8).
template <template <rl::thread_id_t> class Sched>
int simulate_threads(int n, rl::test_params& p) {
    switch (n) {
        case 1: return simulate_with<Suite<1>, Sched<1>>(p);
        case 2: return simulate_with<Suite<2>, Sched<2>>(p);
        case 3: return simulate_with<Suite<3>, Sched<3>>(p);
        case 4: return simulate_with<Suite<4>, Sched<4>>(p);
        case 5: return simulate_with<Suite<5>, Sched<5>>(p);
        case 6: return simulate_with<Suite<6>, Sched<6>>(p);
        case 7: return simulate_with<Suite<7>, Sched<7>>(p);
        default: return simulate_with<Suite<8>, Sched<8>>(p);
    }
}

}  // namespace vfsmc
