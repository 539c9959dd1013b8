// vfsmc: dpor's needless-promise cut.
//
// Under load buffering (substrate/sim.h) a load may return the value of a
// store that another thread runs later: a promise, which that store keeps.
// A promise is needed only when the reader does something after the load
// before the store runs: then the load must come first in the
// interleaving, and a store after it in program order may be seen before
// the load is satisfied (the LB shapes). When the reader has taken no
// step between the step of its load and the step of the keeping store,
// the execution is one where the load simply runs after the store and
// reads it:
//
//   E  = a . L . b . K . c   (L: the reader's step with the load, which
//                             promised; b: other threads' steps; K: the
//                             step whose store keeps the promise)
//   E' = a . b . K . L' . c  (L': the same step, its load reading K's
//                             store, which is the latest store there)
//
// L is a load (not an RMW's: an RMW's promise fixes its store's place,
// and is not cut), and every access starts a step of its own, so L's step
// reads the location and nothing else the steps of b and K wrote. A step of b that
// writes the location goes before K's store in coherence order in both.
// What the promise's keep hands the reader at its next step (sim.h: the
// kept join) is what L' reads from K's store. So E and E' end in the same
// state, and E' makes one promise fewer; dpor explores a representative of
// E''s trace (the race of L with K is seen, since the cut comes after K's
// store ran, and reversed). An execution with k promises is so matched
// to one with fewer, down to one the cut leaves whole.
//
// The cut ends E in K's step, as a duplicate. The layer reports each
// promise a load makes and each one a store keeps (SearchObserver), and
// dpor each step it starts (dpor.h, take()); only a dpor search runs the
// cut (engine.cpp), since only dpor reorders L after K, and a replay
// follows its token whole. tests/cli.bats compares the states of
// every corpus test with the cut `off`, byte for byte, and shows that the
// comparison notices `mutant`, which cuts also when the reader took a step
// in between (the LB shapes' promises).
#pragma once

#include <cstdint>

#include "substrate/runtime.h"

namespace vfsmc {

enum class KeptCut : uint8_t {
    on,      // the default: a promise kept before its reader took another step ends the execution
    off,     // no cut: for the tests that compare the two (and every search but dpor, and replays)
    mutant,  // every kept promise of a load ends it: unsound, for the test that shows the comparison notices
};

class KeptPromises {
public:
    explicit KeptPromises(KeptCut mode) : mode_(mode) {}
    void begin_execution() {
        n_ = 0;
        for (uint32_t& s : steps_) s = 0;
    }
    // dpor starts a step of thread t.
    void step(int t) {
        if (t >= 0 && t < kMaxThreads) steps_[t]++;
    }
    // The load logged as event `ev` made a promise (in its thread's step
    // under way).
    void made(int ev) {
        const Event* e = event_at(ev);
        if (mode_ == KeptCut::off || !e || n_ >= kMax) return;
        made_[n_++] = {ev, e->thread, steps_[e->thread]};
    }
    // A store kept the promise of the load at event `ev`: a needless one
    // ends the execution (throws Pruned).
    void kept(int ev) {
        for (int i = 0; i < n_; i++) {
            if (made_[i].ev != ev) continue;
            if (mode_ == KeptCut::mutant || steps_[made_[i].thread] == made_[i].steps) {
                rt().duplicate = true;
                rt().pruned = true;
                throw Pruned();
            }
            return;
        }
    }

private:
    struct Made {
        int ev;
        int thread;
        uint32_t steps;  // the thread's steps when the load made it
    };
    static constexpr int kMax = 32;
    KeptCut mode_;
    uint32_t steps_[kMaxThreads] = {};
    Made made_[kMax];
    int n_ = 0;
};

}  // namespace vfsmc
