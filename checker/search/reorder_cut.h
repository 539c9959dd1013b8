// vfsmc: the reorder cut, dpor's stale-read cut.
//
// Taken under StaleCut::reorder (the default of dpor), at the close of a
// step, from the candidate the stale-read policy keeps (stale_cut.h): the
// step's marked load (READ_ONCE, smp_load_acquire, rcu_dereference) or
// failing lockref update read a stale value s, older in modification order
// than a store that ran before it. Let W be the store after s in
// modification order, kx the step that made W, and S the steps from kx on
// that happen after it (a step of a thread already in S, or one that shares
// a key with S with one of them writing). The cut ends the execution as a
// duplicate (counted, never judged) when all of these hold:
//  1. s is a store of the log that ran before kx (not an initial value and
//     not a store without an event, whose place in the run the log does
//     not give);
//  2. no step of the reading thread is in S;
//  3. the step's other accesses do not depend on S, and it does not touch
//     the word again after the stale read;
//  4. the step has no wait condition's read (a thread that parks on the
//     stale value after W is woken by no later write; moved before W, W's
//     write wakes it).
//
// The argument. Call the execution E1 = u.kx.v.R, R the reading step.
// Move R, and the steps of v that happen before it (none of S, by 2 and
// 3), before kx: E2 = u.v'.R.kx.v'' is an interleaving of the same steps
// in which every pair of dependent steps keeps its order but R against S,
// and R still reads s: s ran before kx (1), the thread's earlier reads and
// what it knows are the same, and the store history it reads from holds
// fewer stores. R is a read, so S runs after it as it ran before it: the
// same memory, the same clocks, the same choices. So E2 reaches every
// state E1 reaches once R has run, with one stale read fewer against S.
// The premises depend only on the order of dependent steps (s and W are
// stores of one word, S is what happens after kx), so they hold in every
// interleaving of E1's trace, and an execution dpor runs is ended only
// where every interleaving of its trace would be. Repeating the move ends
// (each move takes a read before a store it ran after), at a trace the
// cut never ends, which dpor explores: R races with W, and the reversal
// of that race is found in E1's prefix, which runs to R.
//
// Premise 1 is what the first version of this cut lacked. Under `kernel` a
// store that runs after W may take a place before it in modification
// order, and a store without an event (an initial value, a field the layer
// sets without logging) may be one of those; moved before kx, R runs
// before the store it read. On openref's rcu-legitimize-vs-kill under the
// mutation d-lookup-rcu-no-unhashed-test that version ended every
// execution in which P0's RCU walk reads the hash chain after P1's
// __d_drop() unhashed "f", and dpor answered `holds (complete)` where the
// bounded search at 3 preemptions finds the 49-step counterexample. It is
// kept as StaleCut::reorder_unsound (VFSMC_TEST_STALE_CUT=reorder-unsound),
// test-only, so that the tests show that the bounded-search oracle
// (tests/mutation_oracle.py) catches it.
#pragma once

#include "search/dpor_step.h"
#include "search/stale_cut.h"

namespace vfsmc {

class ReorderCut {
public:
    // Does the cut end the execution at the close of steps[n - 1], the
    // running step, whose stale read is `c`?
    // `unsound`: without the premise that the store read ran before the
    // one it missed (StaleCut::reorder_unsound, test-only).
    bool cuts(const DporStep* steps, int n, const StaleCutPolicy::Candidate& c, bool unsound);

private:
    // S commutes with the running step's accesses besides the stale word
    // `key`, and holds no step of its thread; `newer` is the event index of
    // the first store the read missed.
    // `source`: the event of the store the read read (-1: the initial value).
    bool stale_explained(const DporStep* steps, int n, int newer, int source, Key key, bool unsound);
    AccSet set_, cur_;  // S, and the running step's other accesses
};

}  // namespace vfsmc
