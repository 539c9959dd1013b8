// vfsmc: blocking waits: what a waiting thread waits on.
//
// wait_until and retry loops (checker/kernel/core.h): a thread
// whose wait condition is false, or whose retry pass read the same values as
// the last one and changed nothing, parks with a watch set, the keys it
// read. A write to one of them by another thread unparks it, and only then
// does it evaluate its condition again. GenMC calls this spin-assume, Nidhugg
// await.
//
#pragma once

#include <cstdint>

#include "substrate/deps.h"

namespace vfsmc {

constexpr int kMaxWatch = 64;          // per watch set; more parks on kKeyAll

// The keys a waiting thread read, with the value each had when it was
// first read.
struct WatchSet {
    struct Entry {
        Key key;
        const int64_t* value;   // the field's latest value (null: a global key)
        int64_t first;          // its value when this wait or pass first read it
    };
    Entry e[kMaxWatch];
    int n = 0;
    bool overflow = false;
    bool active = false;
    void clear() { n = 0; overflow = false; }
    void add(Key key, const int64_t* value, int64_t first) {
        for (int i = 0; i < n; i++)
            if (e[i].key == key) return;
        if (n < kMaxWatch) e[n++] = {key, value, first};
        else overflow = true;
    }
    bool has(Key key) const {
        if (overflow) return true;
        for (int i = 0; i < n; i++)
            if (e[i].key == key) return true;
        return false;
    }
    // A location read here holds another value than it did when it was
    // first read: looking again could see something new. (Values, not
    // writes: a pass is a function of the values it reads.)
    bool stale() const {
        for (int i = 0; i < n; i++)
            if (e[i].value && *e[i].value != e[i].first) return true;
        return false;
    }
};

// A retry pass's own writes: the pass changed nothing if every location it
// wrote holds the value it held before the pass.
struct PassWrites {
    struct Entry {
        const int64_t* value;
        int64_t before;
    };
    Entry e[16];
    int n = 0;
    bool overflow = false;
    void clear() { n = 0; overflow = false; }
    void add(const int64_t* value, int64_t before) {
        for (int i = 0; i < n; i++)
            if (e[i].value == value) return;
        if (n < 16) e[n++] = {value, before};
        else overflow = true;
    }
    bool net_zero() const {
        if (overflow) return false;
        for (int i = 0; i < n; i++)
            if (*e[i].value != e[i].before) return false;
        return true;
    }
};

// Each thread's watch sets, and who is parked on which.
struct Blocking {
    WatchSet wait_ws[kMaxThreads];     // a wait_until condition's reads
    WatchSet pass_ws[kMaxThreads];     // a retry pass's reads
    PassWrites pass_writes[kMaxThreads];
    const WatchSet* parked_on[kMaxThreads] = {};
    int nparked = 0;

    void begin_execution();
};

extern Blocking g_blocking;
inline Blocking& blocking() { return g_blocking; }

// Thread t read `key` (a field with its latest value, or a global key with
// null) and saw `seen`: it goes into the watch sets that are collecting.
inline void watch_read(int t, Key key, const int64_t* latest, int64_t seen) {
    Blocking& d = blocking();
    if (d.wait_ws[t].active) d.wait_ws[t].add(key, latest, seen);
    if (d.pass_ws[t].active) d.pass_ws[t].add(key, latest, seen);
}
// Thread t wrote `key`, which held `before`: a retry pass notes the value
// before its first write.
inline void watch_own_write(int t, Key key, const int64_t* value, int64_t before) {
    Blocking& d = blocking();
    if (d.pass_ws[t].active) {
        d.pass_ws[t].add(key, value, before);
        d.pass_writes[t].add(value, before);
    }
}

}  // namespace vfsmc
