// vfsmc: the seam between the kernel-vocabulary layer and the search.
//
// The layer performs every access and records it (the Relacy access, the
// race check, the event); what the search makes of an access is decided on
// the search's side of this interface. The layer calls the running
// search's observer at the points below, and an answer may end the
// execution ("cut here": the observer throws Pruned, as every cut does).
// The engine installs one observer per run (engine.cpp); the policies that
// implement it live in checker/search/, one file each (stale_cut.*,
// await_marks.*), and policies.h puts them together.
#pragma once

#include <cstdint>

#include "substrate/deps.h"

namespace vfsmc {

// A read that returned a value a newer store overwrote, in the terms of
// the word read: its key, its object and field (the event log names
// them), the write tag of the store read and that of the latest store
// (write tags are event indices + 1; 0 is the initial value).
struct StaleValue {
    int thread = -1;
    Key key = 0;
    int owner = -1;
    const char* field = nullptr;
    uint32_t read_tag = 0, latest_tag = 0;
};

class SearchObserver {
public:
    virtual ~SearchObserver() = default;
    // A new execution starts.
    virtual void begin_execution() {}
    // Thread t is about to access `key` (0: an access without a word of
    // its own: a fence, a global key); `lock_acquire`: the access acquires
    // the lock word `key`.
    virtual void before_access(int /*t*/, Key /*key*/, bool /*lock_acquire*/) {}
    // An atomic update (lockref's CMPXCHG_LOOP) starts from the stale value
    // `v`, before it tries its compare-exchange: `succeeds` says whether
    // the update succeeds on the stale value, `locked` whether the value is
    // a locked lockref word.
    virtual void stale_update(const StaleValue& /*v*/, bool /*succeeds*/, bool /*locked*/) {}
    // A stale read is in the log as event `ev`: a marked load (`load`), or
    // the update above, which failed on its value.
    virtual void stale_read_logged(const StaleValue& /*v*/, bool /*load*/, int /*ev*/) {}
    // Thread t evaluates a wait condition (wait_until): it begins, it ends
    // (true, or false with a watch set already stale: the thread looks
    // again at once), or it was false and the thread parks.
    virtual void await_begin(int /*t*/) {}
    virtual void await_end(int /*t*/) {}
    virtual void await_parks(int /*t*/) {}
    // Thread t begins a retry pass (retry_loop); the pass read nothing new,
    // changed nothing, and the thread parks.
    virtual void pass_begin(int /*t*/) {}
    virtual void pass_parks(int /*t*/) {}
};

// The running search's observer (a plain one when no search runs; the
// engine installs a run's: search/policies.h).
SearchObserver& search_observer();

}  // namespace vfsmc
