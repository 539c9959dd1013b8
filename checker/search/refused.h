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
// Two rules, each sound by the argument below it; `stop` is the default.
//
// `stop`: a thread with a refused promise is not enabled (dpor.h,
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
// What `stop` still pays for is every interleaving of the other threads'
// steps after the refusal: dpor reverses their races with each other
// although every execution below the refusal is thrown away. In a test of
// several threads with RMWs (whose promises an early access after them
// refuses) that is nearly all of the search.
//
// `end`: the execution ends with the refusing step R (dpor.h,
// end_at_refusal()), and R is dependent with every step of every other
// thread: analyze() races it with each earlier step that does not happen
// before it, and the next step of each other thread enabled where R was
// chosen goes into that node's backtrack set. The argument: take the
// transition system in which a state with a refused promise is final.
//  a. Its executions that end with every promise kept are those of the
//     scenario: by 1, no such execution passes a refusal.
//  b. In it, R disables every other thread's next step, so R is dependent
//     with each step of another thread it is co-enabled with, before it or
//     after it; every other pair of steps is dependent exactly as before
//     (a step refuses a promise or not by the order of the store that
//     would keep it, a dependent pair by 2).
//  c. dpor with a dependency relation that holds for the system explores
//     one execution of each of its traces (Flanagan and Godefroid; Abdulla
//     et al.). R's races with the steps before it are analyze()'s races of
//     a step dependent with everything; its races with the steps after it
//     have no second step in the execution, so they are reversed at once,
//     one backtrack entry per other enabled thread, as a race with a step
//     that disables them would be.
// So every execution with all its promises kept is still reached; what
// `end` leaves out is every order of the steps after a refusal. What it
// adds is the reversal of R with every earlier step of another thread,
// each an execution that reaches a refusal again. Measured on the corpus
// (bench/results.md) that costs more than it saves: `end` takes twice the
// CPU of `stop`, and wins only on tests of several RMWs whose refusals
// leave long suffixes. So `stop` is the default, and `end` a test-only
// alternative (VFSMC_TEST_REFUSED=end) that cli.bats holds to the same
// states.
// tests/cli.bats compares the states of every corpus test with the rule
// `off`, byte for byte, and shows that the comparison notices `mutant`,
// which ends the whole execution at the refusal with neither: then the
// keeping store of another thread never runs before it, and kept
// executions are lost.
#pragma once

#include <cstdint>

namespace vfsmc {

enum class RefusedPromise : uint8_t {
    stop,    // the default: a thread with a refused promise is not enabled
    end,     // the refusing step is dependent with every step, and the execution ends with it
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
