// vfsmc: the reorder cut, a test-only and unsound stale-read cut of dpor.
//
// Taken only under StaleCut::reorder (VFSMC_TEST_STALE_CUT=reorder), at the
// close of a step, from the candidate the stale-read policy keeps
// (stale_cut.h): the step's marked load (READ_ONCE, smp_load_acquire,
// rcu_dereference) or failing lockref update read a stale value. It ends
// the execution as a duplicate when no step of the reading thread is in S,
// the steps from the store it missed on that depend on that store (by
// program order, or a shared key with one of them writing), and the step's
// other accesses do not depend on S.
//
// Its argument: moving the step before the store gives an interleaving with
// one stale read fewer in which the read sees the same value as the latest
// one; the read races with the store, so dpor reverses that race and
// explores the moved interleaving; so this execution is a duplicate. Unlike
// the two cuts of stale_cut.h the argument is not local: it leans on dpor's
// completeness for an execution dpor never finishes. dpor's guarantee (one
// execution per Mazurkiewicz trace of the *maximal* executions) is argued
// from races found in executions that run to the end; an execution ended
// early contributes only the races of its prefix, and the traces the cut
// hands to "the moved interleaving" are reached only through races its
// dropped suffix would show. On openref's rcu-legitimize-vs-kill under the
// mutation d-lookup-rcu-no-unhashed-test, every execution in which P0's RCU
// walk reads the hash chain after P1's __d_drop() unhashed "f" is ended by
// it, and the violation (P0's try_to_unlazy() legitimizes the unhashed
// dentry) is in no explored execution: dpor answers `holds (complete)`
// where the bounded search at 3 preemptions finds the 49-step
// counterexample. The cut exists so that the tests show that the
// bounded-search oracle (tests/mutation_oracle.py) catches an unsound cut.
#pragma once

#include "search/dpor_step.h"
#include "search/stale_cut.h"

namespace vfsmc {

class ReorderCut {
public:
    // Does the cut end the execution at the close of steps[n - 1], the
    // running step, whose stale read is `c`?
    bool cuts(const DporStep* steps, int n, const StaleCutPolicy::Candidate& c);

private:
    // S commutes with the running step's accesses besides the stale word
    // `key`, and holds no step of its thread; `newer` is the event index of
    // the first store the read missed.
    bool stale_explained(const DporStep* steps, int n, int newer, Key key);
    AccSet set_, cur_;  // S, and the running step's other accesses
};

}  // namespace vfsmc
