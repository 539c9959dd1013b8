// vfsmc: the search's policies on the layer's accesses, put together as
// the one observer the engine installs for a run (substrate/observer.h):
// the stale-read cuts (stale_cut.h), the parking rule (parking.h),
// dpor's failed-await marks (await_marks.h) and its needless-promise cut
// (kept_cut.h). A new policy is a file of its own and a member here.
#pragma once

#include "search/await_marks.h"
#include "search/kept_cut.h"
#include "search/parking.h"
#include "search/stale_cut.h"
#include "substrate/observer.h"

namespace vfsmc {

class SearchPolicies : public SearchObserver {
public:
    SearchPolicies(StaleCut cut, bool dpor, KeptCut kept = KeptCut::off) : stale_(cut, dpor), awaits_(dpor), kept_(kept) {}

    void begin_execution() override {
        stale_.begin_execution();
        awaits_.begin_execution();
        kept_.begin_execution();
    }
    void before_access(int t, Key key, bool lock_acquire) override { stale_.before_access(t, key, lock_acquire); }
    void stale_update(const StaleValue& v, bool succeeds, bool locked) override { stale_.stale_update(v, succeeds, locked); }
    void stale_read_logged(const StaleValue& v, bool load, int ev) override { stale_.stale_read_logged(v, load, ev); }
    void await_begin(int t) override { awaits_.await_begin(t); }
    void await_end(int t) override { awaits_.await_end(t); }
    // A wait that parks is marked; one that looks again ends, its reads
    // ordinary reads.
    Blocked await_fails(int t, const WatchSet& ws) override {
        Blocked b = parking_.await_fails(ws);
        if (b == Blocked::park) awaits_.await_parks(t);
        else awaits_.await_end(t);
        return b;
    }
    void pass_begin(int t) override { awaits_.pass_begin(t); }
    Blocked pass_ends(int t, const WatchSet& ws, const PassWrites& writes) override {
        Blocked b = parking_.pass_ends(ws, writes);
        if (b == Blocked::park) awaits_.pass_parks(t);
        return b;
    }

    void promise_made(int load_ev) override { kept_.made(load_ev); }
    void promise_kept(int load_ev) override { kept_.kept(load_ev); }

    StaleCutPolicy& stale() { return stale_; }
    KeptPromises& kept() { return kept_; }
    AwaitMarks& awaits() { return awaits_; }

    // The running run's policies, for the scheduler (dpor.h); the engine
    // installs them with install() for the length of a run.
    static SearchPolicies& running();
    static void install(SearchPolicies* p);

private:
    StaleCutPolicy stale_;
    ParkingRule parking_;
    AwaitMarks awaits_;
    KeptPromises kept_;
};

}  // namespace vfsmc
