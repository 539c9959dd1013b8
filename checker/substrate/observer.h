// vfsmc: the seam between the kernel-vocabulary layer and the search.
//
// The layer performs every access and records it (the Relacy access, the
// race check, the event); what the search makes of an access is decided on
// the search's side of this interface. The layer calls the running
// search's observer at the points below, and an answer may end the
// execution ("cut here": the observer throws Pruned, as every cut does) or,
// for a thread that cannot go on, say what it does next (Blocked). The
// engine installs one observer per run (engine.cpp); the policies that
// implement it live in checker/search/, one file each (stale_cut.*,
// parking.h, await_marks.*, kept_cut.h), and policies.h puts them together.
#pragma once

#include <cstdint>

#include "substrate/deps.h"

namespace vfsmc {

struct WatchSet;
struct PassWrites;

// What a thread that cannot go on does next (search/parking.h decides, the
// layer obeys).
enum class Blocked : uint8_t {
    park,        // it parks until another thread writes a location it read
    look_again,  // it evaluates its condition (runs its pass) again at once
    go_on,       // a retry pass that changed something: it retries as a step of its own
};

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
    // Thread t evaluates a wait condition (wait_until): it begins, and it
    // ends true.
    virtual void await_begin(int /*t*/) {}
    virtual void await_end(int /*t*/) {}
    // Thread t's wait condition (wait_until), or its wait for an `order`
    // step, is false; `ws` holds what it read. The answer: park or
    // look_again.
    virtual Blocked await_fails(int t, const WatchSet& ws) = 0;
    // Thread t begins a retry pass (retry_loop).
    virtual void pass_begin(int /*t*/) {}
    // Thread t's retry pass ends and the thread starts over; `ws` holds what
    // the pass read, `writes` what it wrote. Any answer.
    virtual Blocked pass_ends(int t, const WatchSet& ws, const PassWrites& writes) = 0;
    // The load logged as event `load_ev` made a promise, and a store kept
    // it (load buffering, substrate/sim.h). The second may end the
    // execution.
    virtual void promise_made(int /*load_ev*/) {}
    virtual void promise_kept(int /*load_ev*/) {}
};

// The running search's observer (search/policies.h: the engine installs a
// run's; between runs, one that runs no policy).
SearchObserver& search_observer();

}  // namespace vfsmc
