// lkmm: the paths through one thread of a litmus test (see execution.h).
// Each read returns, in turn, every value of its location's domain; each
// spin_trylock() succeeds or fails and each spin_is_locked() says true or
// false. The runs are what herd7 calls the thread's possible executions
// before rf and co are chosen.
#pragma once

#include <string>
#include <vector>

#include "litmus/ast.h"
#include "lkmm/execution.h"

namespace vfsmc {
namespace lkmm {

// A location's address as a value: distinct from every small integer, so
// that a register holding &x prints as `x`.
constexpr long kAddressBase = 1L << 40;
inline long address_of(int var) { return kAddressBase + var; }
inline bool is_address(long v) { return v >= kAddressBase && v < kAddressBase + 4096; }

// The values each location may hold, by variable index.
using Domains = std::vector<std::vector<long>>;

// Every path of P<proc> (invalid ones included, marked). A path that takes
// more than `max_runs` choices' worth of runs stops the enumeration and
// sets `error`. `both_branches`: each branch whose condition is computed
// from a read is also taken the other way, whatever the value read (paths
// that herd7's symbolic values reach with a value no domain holds yet:
// for growing the domains, not for executions).
std::vector<Run> thread_runs(const litmus::Test& t, int proc, const Domains& dom, size_t max_runs, std::string& error,
                             bool both_branches = false);

}  // namespace lkmm
}  // namespace vfsmc
