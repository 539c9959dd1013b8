// vfsmc: what dpor (dpor.h) keeps of each step of an execution: its
// thread, the choice node that chose it, where its events begin in the log,
// and the set of its accesses (substrate/deps.h's keys). The extensions of
// the algorithm (await_marks.h, handoff.h, reorder_cut.h) read and mark
// these too.
#pragma once

#include <cstdint>

#include "search/commute.h"
#include "substrate/deps.h"

namespace vfsmc {

// A set of accesses (the union of a thread's step from one node).
struct AccSet {
    Access a[kMaxStepAccesses];
    uint8_t n = 0;
    bool all = false;   // overflowed or unknown: dependent with everything
    void clear() {
        n = 0;
        all = false;
    }
    void add(Key k, bool w, bool await = false, uint8_t lk = 0, bool blind_add = false, uint8_t quiet = kQuietNone) {
        if (w) quiet = kQuietNone;
        if (k == kKeyAll) {
            all = true;
            return;
        }
        for (int i = 0; i < n; i++)
            if (a[i].key == k) {
                a[i].write |= w;
                a[i].await &= (uint8_t)await;
                // A later access of the key: not first, and the last one's.
                a[i].lk = (uint8_t)((a[i].lk & ~kLkLastRelease) | (lk & (kLkLastRelease | kLkAcquired)));
                a[i].add &= (uint8_t)blind_add;  // a blind add only if every access of the key is one
                if (quiet < a[i].quiet) a[i].quiet = quiet;
                return;
            }
        if (n < kMaxStepAccesses) a[n++] = {k, (uint8_t)w, (uint8_t)(await && !w), lk, (uint8_t)(blind_add && w), quiet};
        else all = true;
    }
    // The accesses of a step, one entry per key already (note_access()
    // merges them): copied as add() would make them. False, and nothing
    // done, for a set that is not empty or a list with kKeyAll.
    bool assign_unique(const Access* src, int count) {
        if (n || all) return false;
        for (int i = 0; i < count; i++)
            if (src[i].key == kKeyAll) return false;
        for (int i = 0; i < count; i++)
            a[i] = {src[i].key, src[i].write, (uint8_t)(src[i].await && !src[i].write), src[i].lk, (uint8_t)(src[i].add && src[i].write),
                    (uint8_t)(src[i].write ? kQuietNone : src[i].quiet)};
        n = (uint8_t)count;
        return true;
    }
    void add(const AccSet& o) {
        if (o.all) all = true;
        for (int i = 0; i < o.n; i++) add(o.a[i].key, o.a[i].write, o.a[i].await, o.a[i].lk, o.a[i].add, o.a[i].quiet);
    }
    // Dependent through a key other than `k` (0, no key: through any): a
    // key both touch, one of them writes, and the two accesses do not
    // commute (the commuting-adds rule, commute.h).
    bool dependent_besides(const AccSet& o, Key k, Commute c) const {
        if ((all && (o.n || o.all)) || (o.all && n)) return true;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < o.n; j++)
                if (a[i].key == o.a[j].key && a[i].key != k && (a[i].write || o.a[j].write) && !commutes(c, a[i], o.a[j]))
                    return true;
        return false;
    }
    bool dependent(const AccSet& o, Commute c) const { return dependent_besides(o, 0, c); }
};

// One step of the running execution: what a thread did from one thread
// choice to the next. A user-provided constructor: a new step is built in
// place, its AccSet array left unwritten (only its count is set).
struct DporStep {
    DporStep() {}
    uint8_t thread;
    int node;      // the thread-choice node that chose it
    int first_ev;  // the index its first event has (or would have)
    AccSet acc;
    // For the observed-fence-order rule (fence_order.h), read when the
    // step closed: its thread's own clock and what that thread knew of
    // each thread (kUnread each when the step closed on no thread), and
    // the seq_cst fence order's clock.
    static constexpr uint64_t kUnread = ~uint64_t(0);
    uint64_t own_end;
    uint64_t know_end[kMaxThreads];
    uint64_t order_end[kMaxThreads];
};

}  // namespace vfsmc
