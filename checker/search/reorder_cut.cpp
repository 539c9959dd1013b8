// vfsmc: the reorder cut (reorder_cut.h).
#include "search/reorder_cut.h"

#include "substrate/runtime.h"
#include "substrate/sim.h"

namespace vfsmc {

namespace {
uint8_t bit(int t) { return (uint8_t)(1u << t); }
}  // namespace

bool ReorderCut::cuts(const DporStep* steps, int n, const StaleCutPolicy::Candidate& c, StaleCut variant) {
    if (n == 0 || steps[n - 1].thread != c.thread) return false;
    const ExecRecord* rec = rt().rec;
    if (!rec || rec->truncated || c.newer < 0 || c.read_ev < 0 || c.read_ev >= rec->nevents) return false;
    // Declined when the step touches the word again after the stale read.
    const Event& re = rec->events[c.read_ev];
    for (int i = c.read_ev + 1; i < rec->nevents && variant != StaleCut::reorder_step; i++)
        if (rec->events[i].obj == re.obj && rec->events[i].field == re.field) return false;
    // Declined for a wait condition's read: a thread that parks on the
    // stale value after the store it missed is woken by no later write,
    // where the moved read parks before the store, which wakes it.
    const Deps& d = deps();
    for (int i = 0; i < d.nstep && variant != StaleCut::reorder_await; i++)
        if (d.step[i].await) return false;
    // Declined once a load has read from a later store (load buffering):
    // what the promise's thread may do next rests on the store that keeps
    // it, an order the steps' accesses do not show.
    if (variant != StaleCut::reorder_promises && sim::promises_made() > 0) return false;
    return stale_explained(steps, n, c.newer, re.rf, c.key, variant);
}

bool ReorderCut::stale_explained(const DporStep* steps, int n, int newer, int source, Key key, StaleCut variant) {
    int cur = n - 1;
    if (cur < 1) return false;
    // kx: the step of the store the read missed.
    int kx = -1;
    for (int k = cur; k >= 0; k--)
        if (steps[k].first_ev <= newer) {
            kx = k;
            break;
        }
    if (kx < 0 || kx == cur) return false;
    // The store read is the initial value (-1) or ran before the step of
    // the one it missed: moved before that step, the read still finds it.
    // Under `kernel` a store that ran later may come first in modification
    // order, and the moved read would run before it.
    if (source >= steps[kx].first_ev && variant != StaleCut::reorder_source) return false;
    int u = steps[cur].thread;
    AccSet& S = set_;
    S.clear();
    uint8_t threads = 0;
    for (int k = kx; k < cur; k++) {
        const DporStep& st = steps[k];
        if (k != kx && !(threads & bit(st.thread)) && !st.acc.dependent(S, Commute::off)) continue;
        if (st.thread == u && variant != StaleCut::reorder_unsound) return false;
        threads |= bit(st.thread);
        S.add(st.acc);
        if (S.all) return false;
    }
    AccSet& c = cur_;
    c.clear();
    const Deps& d = deps();
    if (d.step_overflow) return false;
    for (int i = 0; i < d.nstep; i++) {
        if (d.step[i].key == key) {
            if (d.step[i].write && variant != StaleCut::reorder_step) return false;
            continue;
        }
        c.add(d.step[i].key, d.step[i].write);
    }
    return variant == StaleCut::reorder_step || !c.dependent(S, Commute::off);
}

}  // namespace vfsmc
