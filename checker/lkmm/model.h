// lkmm: the Linux-kernel memory model (tools/memory-model/linux-kernel.cat,
// linux-kernel.bell and lock.cat, mainline) as C++ over one candidate
// execution. model.cpp writes each relation under its cat name, with the
// cat definition beside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lkmm/execution.h"

namespace vfsmc {
namespace lkmm {

// A deliberate weakening of one rule, for the test that shows each rule
// decides some test of the corpus. Passed by value to judge(); None is the
// LKMM.
enum class Mutation {
    None,
    NoCoherence,        // drop `acyclic po-loc | com as coherence`
    NoAtomicity,        // drop `empty rmw & (fre ; coe) as atomic`
    NoHappensBefore,    // drop `acyclic hb as happens-before`
    NoPropagation,      // drop `acyclic pb as propagation`
    NoRcu,              // drop `irreflexive rb as rcu`
    NoPlainCoherence,   // drop `empty (wr-incoh | rw-incoh | ww-incoh) as plain-coherence`
    NoRfeInHb,          // hb = [Marked] ; (ppo | (prop \ id) & int) ; [Marked]
    NoGpInStrongFence,  // strong-fence = mb
    NoACumul,           // A-cumul(r) = r
    NoPoRelInCumulFence,// cumul-fence without po-rel
    NoDepInPpo,         // to-w without rwdep, to-r without addr and dep ; rfi
    NoFenceInPpo,       // ppo without (fence & int)
    NoRmwMb,            // mb without the Mb tags of full-barrier RMWs
    NoUnlockLockPo,     // po-unlock-lock-po empty
    NoLockAcquire,      // LKR not Acquire, UL not Release
    NoRcuReadSection,   // rcu-order without the read-side critical sections
    NoSrcuLoc,          // rcu-order's SRCU terms without `& loc`
};

struct MutationName {
    Mutation m;
    const char* name;
};
extern const std::vector<MutationName> kMutations;

// herd7's flags (`Flag <name>` lines) this model can raise.
enum Flag : uint32_t {
    FLAG_DATA_RACE = 1u << 0,
    FLAG_MIXED_ACCESSES = 1u << 1,
    FLAG_UNMATCHED_UNLOCK = 1u << 2,
    FLAG_UNMATCHED_RCU_LOCK = 1u << 3,
    FLAG_UNMATCHED_RCU_UNLOCK = 1u << 4,
    FLAG_UNMATCHED_SRCU_LOCK = 1u << 5,
    FLAG_UNMATCHED_SRCU_UNLOCK = 1u << 6,
    FLAG_MULTIPLE_SRCU_MATCHES = 1u << 7,
    FLAG_INVALID_SLEEP = 1u << 8,
    FLAG_SRCU_BAD_VALUE_MATCH = 1u << 9,
    FLAG_MIXED_LOCK_ACCESSES = 1u << 10,
};
std::vector<std::string> flag_names(uint32_t flags);

struct Judgement {
    bool allowed = false;
    const char* failed = "";  // the first axiom that forbids it
    uint32_t flags = 0;       // raised in an allowed execution
    Rel rf, co;               // as lock.cat finally defines them
};

// Judge a candidate: `x.rf` gives every read's source except spin_lock()'s
// lock read (lock.cat derives it from co), `x.co` orders each location's
// writes except unlocks, initial write first.
Judgement judge(const Execution& x, Mutation m = Mutation::None);

}  // namespace lkmm
}  // namespace vfsmc
