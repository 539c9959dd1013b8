// vfsmc: dpor's refused-promise rule.
//
// Under load buffering (substrate/sim.h) a load may return a value that a
// later store of another thread must write: a promise. Once a step orders
// something after the load while the promise is open (a fence, an
// acquire, a later access of the location: sim.h refuses the promise), the
// promise can never be kept, and the execution is not one the memory model
// allows: it is thrown away at its end (litmus: promises_kept()). Running
// it to that end costs every interleaving of the reader's remaining steps
// with the other threads', for nothing: most of the executions of a
// many-thread load-buffering test are such.
//
// The rule: a thread with a refused promise is not enabled (dpor.h,
// choose()), as a thread parked on a condition no write will make true;
// the other threads run on, and when no thread is left the execution ends,
// pruned. The argument:
//  1. Every execution below the refusal is thrown away in the plain search
//     too: a refused promise stays open (sim.h never keeps a promise it
//     refused), whatever runs after.
//  2. What decides whether an execution refuses the promise is the order
//     of the refusing step and the store that would keep it: sim.h records
//     the refusing step as a read of the promise's location (note_access),
//     and the keeping store writes it, so the two are dependent. The store
//     of the other thread is not held back (only the readers of refused
//     promises are), so when it runs after the refusal, the race is seen
//     and reversed, as a wait's condition against the write that would
//     make it true (dpor.h: a parked thread).
//  3. A store that only the stopped thread would have written after the
//     refusal keeps no promise of a kept execution: that execution would
//     contain the refusal before it, and so be thrown away by 1.
// So every execution with all its promises kept is still reached; the
// ones left out are thrown away in either search. tests/cli.bats compares
// the states of every corpus test with the rule `off`, byte for byte, and
// shows that the comparison notices `mutant`, which
// ends the whole execution at the refusal: then the keeping store of
// another thread never runs after it, its race is not seen, and kept
// executions are lost.
#pragma once

#include <cstdint>

namespace vfsmc {

enum class RefusedPromise : uint8_t {
    stop,    // the default: a thread with a refused promise is not enabled
    off,     // it runs on to the end of the execution: for the tests that compare the two
    mutant,  // the execution ends at the refusal: unsound, for the test that shows the comparison notices
};

// The threads of `enabled` the search may choose, given `refused`, the
// threads with a refused promise; `end` is set when the execution should
// end here (pruned).
inline uint8_t refused_rule(RefusedPromise r, uint8_t enabled, uint8_t refused, bool& end) {
    end = false;
    if (r == RefusedPromise::off || !refused) return enabled;
    if (r == RefusedPromise::mutant) {
        end = true;
        return enabled;
    }
    uint8_t left = enabled & (uint8_t)~refused;
    end = left == 0;
    return left;
}

}  // namespace vfsmc
