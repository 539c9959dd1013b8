// vfsmc: the parking rule: when a thread that cannot go on parks, and when
// it looks again.
//
// A thread cannot go on in two ways (kernel/core.h): its wait condition
// (wait_until, or a wait for an `order` step) is false, or its kernel retry
// loop (retry_loop) ends a pass and starts over. The layer reports either
// through the observer (substrate/observer.h) with the watch set of what
// the thread read (substrate/blocking.h), and does what this rule answers:
//
// - park: the thread is not enabled until another thread writes a location
//   of its watch set; then it evaluates its condition (runs its pass) again;
// - look again: it evaluates again at once, after a cpu_relax (a load then
//   cannot return a value older than one it saw);
// - go on: a retry pass that changed something retries as a step of its own,
//   after a scheduling point.
//
// The condition the rule relies on: a wait condition, and a retry pass, is
// a function of the values it reads (GenMC's spin-assume, Nidhugg's await).
// Evaluated again on the same values it does the same thing again, so while
// no location it read has changed, looking again adds no behaviour, and
// parking until another thread writes one of them loses none. So:
//
// - A false condition parks, unless its watch set is already stale: a
//   location it read holds another value than when it was first read
//   (another thread wrote it since). Parking would then wait for a write
//   that has already happened: the thread looks again.
// - A retry pass that left a location it wrote with another value than it
//   had before the pass is progress (the next pass starts from other
//   values): it goes on. A pass that changed nothing (every write undone,
//   or none) is a false condition spread over several steps, and is
//   answered as one: look again when stale, else park.
//
// A wait or pass that parks is no event of its own; what that means for
// dpor is in await_marks.h, whose marks the running search makes when this
// rule answers `park` (policies.h).
#pragma once

#include "substrate/blocking.h"
#include "substrate/observer.h"

namespace vfsmc {

struct ParkingRule {
    Blocked await_fails(const WatchSet& ws) const { return ws.stale() ? Blocked::look_again : Blocked::park; }
    Blocked pass_ends(const WatchSet& ws, const PassWrites& writes) const {
        if (!writes.net_zero()) return Blocked::go_on;
        return await_fails(ws);
    }
};

}  // namespace vfsmc
