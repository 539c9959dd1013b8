// vfsmc: the stale-read cuts of the full searches (search/stale_cut.h
// gives the argument for each).
#include "search/stale_cut.h"

#include "substrate/runtime.h"

namespace vfsmc {

namespace {

// Ends an execution that a full search explores in another branch: counted
// as a duplicate, not judged.
[[noreturn]] void cut_duplicate_execution() {
    rt().duplicate = true;
    rt().pruned = true;
    throw Pruned();
}

bool is_store_of(const Event& e, const StaleValue& v) {
    return (e.kind == Ev::Write || e.kind == Ev::Rmw) && e.obj == v.owner && e.field == v.field;
}

// Is a store of the window after the one read, up to the latest, locked
// too? Every store between the one read and the latest is a value the read
// could return, and a locked value sends CMPXCHG_LOOP to the slow path
// whatever its count. Stores are events (their tags are event indices + 1):
// the events after the one read are scanned; a truncated log cuts nothing.
bool newer_store_locked(const StaleValue& v) {
    const ExecRecord* rec = rt().rec;
    if (!rec || rec->truncated) return false;
    int last = (int)v.latest_tag - 1;
    for (int i = (int)v.read_tag; i <= last && i < rec->nevents; i++)
        if (is_store_of(rec->events[i], v) && (rec->events[i].after & 1)) return true;
    return false;
}

// The event index of the first store of the word logged after the one
// read (its successor in modification order: Relacy orders a location's
// stores as they run); -1 when the log cannot tell (truncated).
int next_store(const StaleValue& v) {
    const ExecRecord* rec = rt().rec;
    if (!rec || rec->truncated) return -1;
    int last = (int)v.latest_tag - 1;
    for (int i = (int)v.read_tag; i < last && i < rec->nevents; i++)
        if (is_store_of(rec->events[i], v)) return i;
    return last;
}

}  // namespace

void StaleCutPolicy::begin_execution() {
    for (auto& k : lock_next_) k = 0;
    pending_newer_ = -1;
    candidate_ = Candidate();
}

// The locked-value cut is taken at the thread's next access, and only when
// that access is spin_lock on the same word: the branch that read the newer
// locked store comes to the same spin_lock with the same state. Any other
// access in between (a field, a fence, an RCU or rwsem-queue key, the
// thread's exit) drops the pending cut and the branch runs.
void StaleCutPolicy::before_access(int t, Key key, bool lock_acquire) {
    if (t < 0 || !lock_next_[t]) return;
    bool at_lock = lock_acquire && lock_next_[t] == key;
    lock_next_[t] = 0;
    if (at_lock) cut_duplicate_execution();
}

void StaleCutPolicy::stale_update(const StaleValue& v, bool succeeds, bool locked) {
    pending_newer_ = -1;
    if (cut_ == StaleCut::none) return;
    // The succeeding-update cut (every stale value, under the test-only
    // every_stale).
    if (cut_ == StaleCut::every_stale || succeeds) cut_duplicate_execution();
    // The locked-value cut, pending until the thread's next access.
    if (locked && newer_store_locked(v)) lock_next_[v.thread] = v.key;
    else if (reorder()) pending_newer_ = next_store(v);
}

void StaleCutPolicy::stale_read_logged(const StaleValue& v, bool load, int ev) {
    if (!reorder() || ev < 0) return;
    // A load is a candidate even when the log cannot tell its first missed
    // store (the cut then declines it); an update only with one.
    int newer = load ? next_store(v) : pending_newer_;
    pending_newer_ = -1;
    if (load || newer >= 0) candidate_ = {v.thread, newer, ev, v.key};
}

StaleCutPolicy::Candidate StaleCutPolicy::take_candidate() {
    Candidate c = candidate_;
    candidate_ = Candidate();
    return c;
}

}  // namespace vfsmc
