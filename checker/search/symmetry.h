// vfsmc: dpor's identical-threads rule: threads that run the same ops in a
// model that treats threads alike first write shared memory in the order of
// their indices (symmetry reduction, as GenMC's SPORE does it, restricted to
// the first writes).
//
// What the rule needs of the scenario (scenario.h, interchangeable_threads):
// two threads are of one class when their op lists are the same (names
// left out), neither is named by an `order` constraint, and the model
// declares ModelSpec::interchangeable_threads: its setup makes the same
// per-thread objects for every thread, and no step, invariant, final check
// or wake-up choice reads a thread's index but to reach that thread's own
// objects or to name it. Then the system is symmetric under any permutation
// pi of a class: pi applied to an execution (each step of t run by pi(t),
// each per-thread object of t standing for pi(t)'s) is an execution from the
// same initial state, with the same verdict and the final state renamed.
//
// The rule. A write step of a thread is one that starts at the scheduling
// point before a store, an RMW or a free of an object the setup made (the
// layer says which, deps.h: note_next_access); a write of an object a
// thread allocated during the run is not one. Which steps are write steps
// depends only on what the thread did so far (the object it is about to
// write is one it holds), alike for identical threads (a thread's own
// setup objects are setup objects for every thread). A thread is released
// once it has taken a write step, or has ended. Of a class, a thread t may
// take no write step before the next lower thread of its class, prev(t),
// is released; its other steps are free. The search explores the system S'
// in which t's write step is not enabled before then.
//  1. Every execution E of S has a renaming in S'. Let pi sort each class
//     by the time of its threads' first write steps in E (threads with none
//     last, in index order). pi(E) is an execution of S by the symmetry
//     above, with the same verdict and the final state renamed, and in it
//     t's first write step follows prev(t)'s (threads with none sort last:
//     if prev(t) has none, neither has t). So pi(E) is one of S'. S' reaches every verdict S does, and every final state up to
//     renaming the threads of a class. Its counterexamples are executions
//     of S: a token replays with no rule at all.
//  2. dpor explores S' soundly when it knows S's dependencies and the new
//     one: the step that released prev(t) enables t's first write step.
//     So analyze() orders that step before it, a happens-before edge that
//     is never reversed (S' has no execution with the other order); t's
//     later steps follow in program order, so a step that happens before
//     the releasing step races with none of them. No other step's
//     enabledness changes: t's steps before its first write step are free.
//  3. Sleep sets: a thread asleep at a node was explored, with the same
//     next step, at a node above; a write step not enabled here was not
//     enabled there either (a release is for good), so it was never
//     explored, and no sleeper is a step S' does not enable. The releasing
//     step wakes no sleeper and puts none to sleep.
//  4. Backtrack sets: a node's enabled set is S''s (choose()). An initial
//     of a reversed race that is not enabled there cannot arise with the
//     edge of 2 (t's first write step would follow the releasing step in
//     the reversed sequence); if it did, add_backtrack() would add every
//     enabled thread, which is sound.
//  5. S' may end where S goes on: every thread not ended is parked or
//     waiting for a release (prev(t) parked before its first write). The
//     renaming of 1 never passes there, so nothing is lost; the search
//     then goes on as in S (choose()), which only adds executions of S.
// What it buys: one order for the first writes of a class, n! at most,
// where those writes conflict (a shared lock, a shared count). Reads and
// writes of new objects before a thread's first write step interleave
// freely, and two identical threads in the same state after their first
// write steps are not folded again: that needs their histories compared,
// which this rule leaves out.
//
// Symmetry::off leaves the rule out (`run --no-symmetry`; the tests compare
// the two), and Symmetry::mutant is a test-only, unsound mutation: every
// thread of a scenario is of one class, whatever its ops and whatever the
// model declares, which the tests must catch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vfsmc {

struct Scenario;

enum class Symmetry : uint8_t {
    on,      // the default: identical threads first write shared memory in index order
    off,     // no class: for the tests that compare the two
    mutant,  // every thread of one class: unsound, for the test that shows the comparison notices
};

// Of each thread, the next lower thread of its class, or -1.
struct ThreadClasses {
    static constexpr int kMax = 8;
    int8_t prev[kMax] = {-1, -1, -1, -1, -1, -1, -1, -1};
    bool any() const {
        for (int t = 0; t < kMax; t++)
            if (prev[t] >= 0) return true;
        return false;
    }
    // The threads not enabled in S': of those whose next step starts with
    // a write (`writes_next`), the ones whose next lower class mate is not
    // among `released`.
    uint8_t blocked(uint8_t released, uint8_t writes_next) const {
        uint8_t m = 0;
        for (int t = 0; t < kMax; t++)
            if (prev[t] >= 0 && (writes_next & (1u << t)) && !(released & (1u << prev[t]))) m |= (uint8_t)(1u << t);
        return m;
    }
};

// The classes the rule uses for a scenario (none when off).
ThreadClasses thread_classes(const Scenario& s, Symmetry sym);

// "and up to a permutation of the identical threads P0, P1, P2", or empty
// when no two threads are of one class.
std::string symmetry_phrase(const Scenario& s, Symmetry sym);

}  // namespace vfsmc
