// vfsmc litmus: the table of final states one search saw, each with the
// number of distinct executions (rf, co) that end in it and whether it
// satisfies the condition. Fixed-size (nothing is allocated inside the
// simulation) and indexed by a hash of the state, so that a test with
// thousands of final states costs a lookup per execution, not a scan.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace vfsmc {
namespace litmus {

constexpr int kMaxObserved = 16;     // registers and locations a state names
constexpr int kMaxStates = 1 << 16;  // distinct final states; more is an error of the test

struct StateTable {
    int nobs = 0;  // values per state
    int nstates = 0;
    int32_t key[kMaxStates][kMaxObserved];
    uint64_t count[kMaxStates];
    bool sat[kMaxStates];
    bool overflow = false;  // a state came after kMaxStates others: it is not kept

    // Forget every state; states of `n` values from now on.
    void reset(int n) {
        nobs = n;
        if (nstates) std::fill(slot_, slot_ + kSlots, 0);
        nstates = 0;
        overflow = false;
    }
    // One more execution ends in state `k`, which satisfies the condition
    // when `s`.
    void add(const int32_t* k, bool s) {
        size_t at = home(k);
        for (; slot_[at]; at = (at + 1) & (kSlots - 1)) {
            int i = slot_[at] - 1;
            if (std::equal(k, k + nobs, key[i])) {
                count[i]++;
                return;
            }
        }
        if (nstates >= kMaxStates) {
            overflow = true;
            return;
        }
        std::copy(k, k + nobs, key[nstates]);
        count[nstates] = 1;
        sat[nstates] = s;
        slot_[at] = ++nstates;
    }

private:
    static constexpr size_t kSlots = size_t(kMaxStates) * 2;  // open addressing, at most half full
    size_t home(const int32_t* k) const {
        uint64_t h = 0x9e3779b97f4a7c15ull;
        for (int i = 0; i < nobs; i++) h = (h ^ (uint32_t)k[i]) * 0x100000001b3ull;
        return (size_t)(h ^ h >> 29) & (kSlots - 1);
    }
    int32_t slot_[kSlots] = {};  // each state's index + 1 by its hash; 0: empty
};

}  // namespace litmus
}  // namespace vfsmc
