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
//  1. s is the initial value or a store that ran before kx;
//  2. no step of the reading thread is in S;
//  3. the step's other accesses do not depend on S, and it does not touch
//     the word again after the stale read;
//  4. the step has no wait condition's read (a thread that parks on the
//     stale value after W is woken by no later write; moved before W, W's
//     write wakes it);
//  5. no load of the execution has read from a later store (a promise,
//     under load buffering: kernel/kfield.h). A promise is kept by a store
//     that may be in S, and what its thread does after the load (ending a
//     read-side section that a grace period waits for, say) is ordered
//     after that store by the layer, not by the steps' accesses: moving
//     such a step before kx can leave the promise open where E1 kept it.
//
// The argument. Call the execution E1 = u.kx.v.R, R the reading step.
// Move R, and the steps of v that happen before it (none of S, by 2 and
// 3), before kx: E2 = u.v'.R.kx.v'' is an interleaving of the same steps
// in which every pair of dependent steps keeps its order but R against S,
// and R still reads s: s ran before kx (1; under `kernel` a store that ran
// after W may still come before it in modification order, and moved before
// kx, R would run before the store it read), the thread's earlier reads and
// what it knows are the same, and the store history it reads from holds
// fewer stores. R is a read, so S runs after it as it ran before it: the
// same memory, the same clocks, the same choices. So E2 reaches every
// state E1 reaches once R has run, with fewer (read, missed store) pairs.
// The premises depend only on the order of dependent steps (s and W are
// stores of one word, S is what happens after kx), so they hold in every
// interleaving of E1's trace, and an execution dpor runs is ended only
// where every interleaving of its trace would be. Repeating the move ends
// at a trace the cut never ends, which dpor explores: R races with W, and
// the reversal of that race is found in E1's prefix, which runs to R.
//
// "The same state" covers what the model's checks see only if they see
// what the steps did: a ghost the model keeps for an invariant must change
// in the step of the access it records (docs/adding-a-model.md). A ghost
// sampled one step late makes E1 and E2 judge differently, and then this
// cut, like dpor itself, loses the execution only E1 shows.
//
// Test-only variants drop a premise each (VFSMC_TEST_STALE_CUT names
// them: reorder-source, reorder-unsound, reorder-step, reorder-await and
// reorder-promises for premises 1 to 5). Premises 3 and 4 decline no cut
// that matters on any input of the repository: without each, the 101
// scenarios, the litmus corpus and the generated set give the same
// verdicts, final states and counts (bench/results.md), so no test shows
// yet what each of them keeps. Premise 4 guards a case the parking rule
// (parking.h) does not let happen today: a failed wait parks only when
// every location it read still holds the value it read (WatchSet::stale()),
// so it never parks on a stale value that the missed store changed; the
// premise keeps the cut's argument from resting on that rule. Premise 3
// needs a step that accesses something besides its stale read, and a
// litmus step is one primitive (plain accesses are steps of their own
// there), so only a protocol model, whose steps run several accesses, can
// reach it.
// StaleCut::reorder_source
// (VFSMC_TEST_STALE_CUT=reorder-source) drops premise 1: the corpus test
// litmus/S+poonceonces+acquire-ctrl+acquire-observer, where the store read
// ran after the one missed, becomes a miss (tests/cli.bats). StaleCut::reorder_promises
// (VFSMC_TEST_STALE_CUT=reorder-promises) drops premise 5: the corpus test
// litmus/ISA2+rcuwrites+rcuonces+gp becomes a miss under the layer
// mutation gp-end-orders-every-section (tests/cli.bats). On the real
// layer its outcome has a second execution the cut leaves alone (a section
// inside the grace period, not waited for), so no input of the repository
// shows yet what premise 5 keeps there.
// StaleCut::reorder_unsound (VFSMC_TEST_STALE_CUT=reorder-unsound) drops
// premise 2: the reading thread's own earlier reads of S's
// stores then stay after kx while R moves before it. The litmus corpus
// shows the outcomes it loses (tests/cli.bats), and the bounded-search
// oracle the i_dir_seq violation it loses (tests/CMakeLists.txt).
#pragma once

#include "search/dpor_step.h"
#include "search/stale_cut.h"

namespace vfsmc {

class ReorderCut {
public:
    // Does the cut end the execution at the close of steps[n - 1], the
    // running step, whose stale read is `c`?
    // `variant`: StaleCut::reorder, or a test-only one without premise 1
    // (reorder_source), 2 (reorder_unsound), 3 (reorder_step), 4
    // (reorder_await) or 5 (reorder_promises).
    bool cuts(const DporStep* steps, int n, const StaleCutPolicy::Candidate& c, StaleCut variant);

private:
    // S commutes with the running step's accesses besides the stale word
    // `key`, and holds no step of its thread; `newer` is the event index of
    // the first store the read missed.
    // `source`: the event of the store the read read (-1: the initial value).
    bool stale_explained(const DporStep* steps, int n, int newer, int source, Key key, StaleCut variant);
    AccSet set_, cur_;  // S, and the running step's other accesses
};

}  // namespace vfsmc
