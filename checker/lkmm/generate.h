// lkmm: a litmus-test generator in the spirit of diy7. Each cycle family
// (MP, SB, LB, R, S, 2+2W, WRC, ISA2, IRIW, RWC, W+RWC, Z6.0-Z6.3, 3.SB,
// 3.LB, 3.2W, CoRR, CoRW, CoWR, CoWW) is a list of threads, each one or
// two accesses; every thread's program-order edge is decorated in turn
// with each ordering that applies to it (ONCE, acquire/release, smp_mb,
// smp_rmb, smp_wmb, address/data/control dependencies, a critical section
// of one shared lock, an RCU read-side critical section, synchronize_rcu()),
// and the test is written in herd7's C syntax. The condition is the cycle's
// outcome; whether it can happen is for a model (the oracle) to say.
#pragma once

#include <string>
#include <vector>

namespace vfsmc {
namespace lkmm {

struct GeneratedTest {
    std::string name;                  // diy7-like: MP+wmb+rmb
    std::string family;                // MP
    std::vector<std::string> edges;    // one decoration per thread
    std::string text;                  // the herd7 C test, without a Result: line
    // Structural facts a model must respect:
    bool all_mb = false;       // every two-access thread has smp_mb() and no thread a lock or RCU section
    bool all_relaxed = false;  // every access ONCE, no fence, dependency, lock or RCU
    bool same_location = false;  // a Co* family: the cycle is on one location
};

// Every test of every family, in a fixed order.
std::vector<GeneratedTest> generate_tests();

// The same text with a `Result:` line (the answer a model gave) in its
// header comment.
std::string with_result(const GeneratedTest& t, const std::string& result);

}  // namespace lkmm
}  // namespace vfsmc
