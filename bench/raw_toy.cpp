// The toy lock of tests/toy_models.cpp written directly against Relacy,
// with no vfsmc layer: the baseline that shows what the layer costs. This is
// the one file outside the layer and the engine that spells rl::, because
// measuring raw Relacy is its purpose.
#include <chrono>
#include <fstream>

#pragma GCC diagnostic push  // Relacy's warnings are not ours (see checker/kernel/kernel.h)
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <relacy/relacy.hpp>
#pragma GCC diagnostic pop

#undef new
#undef delete

namespace {

template <int N>
struct RawLock : rl::test_suite<RawLock<N>, N> {
    rl::atomic<int> lock;
    rl::atomic<int> inside;
    void before() {
        lock.store(0, rl::mo_relaxed, RL_INFO);
        inside.store(0, rl::mo_relaxed, RL_INFO);
    }
    void thread(unsigned) {
        for (;;) {
            int expected = 0;
            if (lock.compare_exchange_strong(expected, 1, rl::mo_acquire, RL_INFO)) break;
            rl::yield(1, RL_INFO);
        }
        int n = inside.load(rl::mo_relaxed, RL_INFO);
        inside.store(n + 1, rl::mo_relaxed, RL_INFO);
        RL_ASSERT(inside.load(rl::mo_relaxed, RL_INFO) == 1);
        inside.store(inside.load(rl::mo_relaxed, RL_INFO) - 1, rl::mo_relaxed, RL_INFO);
        lock.store(0, rl::mo_release, RL_INFO);
    }
};

}  // namespace

// Runs the raw toy lock with `threads` threads under a preemption bound and
// returns executions and seconds.
void raw_toy_lock(int threads, unsigned bound, unsigned long long& executions, double& seconds) {
    static std::ofstream devnull("/dev/null");
    rl::test_params p;
    p.output_stream = &devnull;
    p.progress_stream = &devnull;
    p.search_type = rl::sched_bound;
    p.context_bound = bound;
    p.execution_depth_limit = 200000;
    auto t0 = std::chrono::steady_clock::now();
    if (threads == 2) rl::simulate<RawLock<2>>(p);
    else rl::simulate<RawLock<3>>(p);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    executions = p.stop_iteration;
}
