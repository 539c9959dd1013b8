// vfsmc: dpor's lock handoff rule.
//
// The lock handoff rule of dpor (dpor.h, analyze()), what Nidhugg's trace builders do for
// pthread mutexes: the race is with the last preceding lock, the clock
// takes in the last access. A lock acquire that waited (the lock word
// RMW inside wait_until: spin_lock, mutex_lock, the lockref's spin_lock,
// down_read, down_write) and follows the release of an exclusive hold
// (spin_unlock, mutex_unlock, up_write) does not race with that release:
// tried before it, while the lock is held, the acquire fails and parks, and
// a failed await is no event, so the reversal gives the same trace again,
// with the whole subtree after it. It races with the acquire the release
// ends (the holder's, found as the last step that took the lock), and that
// race is reversed, unless the acquiring thread is ordered after that
// acquire anyway. Only when the lock word is all the two steps share: a
// release step that also writes something the acquiring step touches is
// reversed as any other race. A trylock is no waiting acquire (its failure is an
// event and a path of its own), and neither is up_read a release of an
// exclusive hold (other readers may hold the lock still). Deps records what
// a step did with a lock word (Access::lk, note_lock_op). The count test on
// a lock-protected counter (tests/dpor_test.cpp) shows it runs exactly one
// execution per trace where the release reversal ran more, and
// Handoff::drop, a test-only mutation that drops the race, loses traces.
#pragma once

#include <cstdint>

#include "search/dpor_step.h"

namespace vfsmc {

// Which race a waiting acquire after an exclusive release reverses.
enum class Handoff : uint8_t {
    on,    // the default: the acquire the release ends
    off,   // the release is reversed instead, as any other write: for the tests that compare the two
    drop,  // neither is reversed: unsound, for the test that shows the comparison notices
};

// The race analyze() reverses between step `s` and `j`, the last step
// before it that wrote the word `acc.key` (acc: s's access of it): j
// itself, or, where the rule applies, `acq`, the last step that took the
// lock, or -1 (none: Handoff::drop). `release`: j's last access of the word
// released an exclusive hold. `shared`: the analysis keeps the word's state
// together with other keys' (its table is full), and the rule is not
// applied. `c`: the commuting-adds rule (commute.h), for what the two
// steps share besides the word.
inline int handoff_race(Handoff h, Commute c, const DporStep* steps, const DporStep& s, const Access& acc, int j,
                        bool release, int acq, bool shared) {
    if (h == Handoff::off || !(acc.lk & kLkFirstAcquire) || !release || shared) return j;
    if (acq < 0 || acq > j || steps[acq].thread != steps[j].thread) return j;
    // Only when the lock word is all the two steps share.
    if (steps[j].acc.dependent_besides(s.acc, acc.key, c)) return j;
    return h == Handoff::drop ? -1 : acq;
}

}  // namespace vfsmc
