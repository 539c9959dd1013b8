// vfsmc: the stale-read cuts of the full searches, and why each is sound.
//
// Under `kernel` a lockref operation starts from a READ_ONCE of the
// {lock, count} word (CMPXCHG_LOOP), which may return an older value than
// the latest one in modification order. A search that explores every
// reads-from choice (dpor, exhaustive, bounded: each read is a data node
// over the values it may return) meets the same behaviour twice when a
// stale value leads the thread to exactly the steps the latest value
// leads it to. Two cuts end such a branch as a duplicate (counted in
// `duplicates`, never judged). Each is local: it compares two sibling
// branches of one data node, with the same prefix, and needs nothing from
// the rest of the search.
//
// The succeeding-update cut (StaleCutPolicy::stale_update; the layer's
// kfield::rmw reports the stale value before its compare-exchange). The stale value S satisfies
// the update (f(S) is true). The compare-exchange then fails, because the
// word holds the latest value L, and the failed compare-exchange returns
// L; the loop computes f(L) and tries again, all inside the one step (the
// loop has no scheduling point). The sibling branch that read L computes
// f(L) and tries the same compare-exchange. Both branches perform the
// same compare-exchange on the same value, log the same events and leave
// the same state; the stale value itself is seen by nobody (no event, no
// state, no clock). So the stale branch is a copy of its sibling, step for
// step, and may end. Premises: (1) the read and the compare-exchange are
// one step: no other thread runs between them (kfield::rmw holds
// no_preempt); (2) the failed compare-exchange reads the latest value
// (an RMW always does); (3) the sibling exists: the data node offers the
// latest value, which every reads-from choice includes.
//
// The locked-value cut (StaleCutPolicy::stale_update and before_access). The stale value is locked, so the
// update fails and the thread goes to lockref's slow path, spin_lock on
// the same word. A newer store in the window the read could return
// (every store between the one read and the latest) is locked too. The
// sibling branch that read that newer locked value takes the same slow
// path. The cut is taken only at the thread's next access, and only when
// that access is spin_lock on this word: spin_lock's RMW reads the latest
// value in both branches, and what differs between them before it (which
// older store the READ_ONCE read) is visible to nobody but a later
// acquire fence of the thread, which the spin_lock's acquire of the
// latest value covers. Any other access in between drops the pending cut.
// Premises: (1) nothing of the thread happens between the stale read and
// spin_lock (before_access drops the pending cut); (2) the newer locked store is a reads-from
// choice of the same data node (it lies in the window).
//
// The reorder cut (reorder_cut.h) is dpor's: it reads the candidates this
// policy keeps under StaleCut::reorder, the stale reads of the running step
// (a marked load, or an update that failed on a stale value). Unlike the two
// cuts above its argument is not local: it moves the reading step before the
// store it missed, and leans on dpor reversing that race.
#pragma once

#include <cstdint>

#include "substrate/observer.h"

namespace vfsmc {

// How a full search treats a stale read under `kernel`.
enum class StaleCut : uint8_t {
    none,             // run every branch
    duplicates,       // the succeeding-update cut and the locked-value cut above
    every_stale,      // test-only, unsound: cut every stale lockref read
    reorder,          // the default of the full searches: duplicates plus, under dpor, the reorder cut
    reorder_unsound,  // test-only, unsound: reorder without its premise that no step of the reading thread follows the missed store
    reorder_promises,  // test-only, unsound: reorder without its premise that the execution made no promise
    reorder_source,    // test-only, unsound: reorder without its premise that the store read ran before the missed one's step
    reorder_step,      // test-only, unsound: reorder without its premise that the step's other accesses commute with S
    reorder_await,     // test-only, unsound: reorder without its premise that the step reads no wait condition
};

// The stale-read cuts, one of the search's policies on the layer's
// accesses (policies.h).
// The engine builds one per run from the run's StaleCut (none for a search
// that does not explore every reads-from choice, and for a replay).
class StaleCutPolicy {
public:
    // A stale read of the running step, for dpor's reorder cut: its
    // thread, the event index of the first store it missed (the one after
    // the store it read in modification order), the read's own event and
    // the word's key. thread -1: none.
    struct Candidate {
        int thread = -1, newer = -1, read_ev = -1;
        Key key = 0;
    };

    StaleCutPolicy(StaleCut cut, bool dpor) : cut_(cut), dpor_(dpor) {}
    void begin_execution();
    void before_access(int t, Key key, bool lock_acquire);
    void stale_update(const StaleValue& v, bool succeeds, bool locked);
    void stale_read_logged(const StaleValue& v, bool load, int ev);

    // The running step's reorder-cut candidate, taken (dpor.h, when the
    // step closes).
    Candidate take_candidate();

private:
    bool reorder() const {
        switch (cut_) {
            case StaleCut::reorder: case StaleCut::reorder_unsound: case StaleCut::reorder_promises:
            case StaleCut::reorder_source: case StaleCut::reorder_step: case StaleCut::reorder_await:
                return dpor_;
            case StaleCut::none: case StaleCut::duplicates: case StaleCut::every_stale: break;
        }
        return false;
    }
public:
    // The cut, for the reorder cut's test-only variants.
    StaleCut cut() const { return cut_; }

private:
    StaleCut cut_;
    bool dpor_;
    // The locked-value cut pending at each thread's next access: the key
    // of the word whose stale locked value it read; 0 when none.
    Key lock_next_[kMaxThreads] = {};
    // The first store the pending stale update missed (reorder cut), -1: none.
    int pending_newer_ = -1;
    Candidate candidate_;
};

}  // namespace vfsmc
