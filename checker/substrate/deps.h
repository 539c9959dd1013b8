// vfsmc: what each step touches, for the exploration strategies (the
// blocking machinery, what a waiting thread waits on, is blocking.h).
//
// The kernel-vocabulary layer (checker/kernel/) calls note_access() for every
// shared location a step reads or writes (a step is what a thread does from
// one scheduling point to its next). The DPOR scheduler (dpor.h) turns these
// into the dependency relation: two steps of different threads are
// dependent when they touch one key and at least one writes it.
//
// Keys are logical, not addresses, so that they are the same in every
// execution of a scenario: a field is (owning object id, field name), an
// object's liveness is (object id, "alive"), and a few global keys stand for
// state that lives outside any field (RCU read sections, `order`
// constraints, the seq_cst fence order, the model's every-step invariants).
//
// No Relacy here.
#pragma once

#include <cstdint>

#include "substrate/trace.h"

namespace vfsmc {

using Key = uint32_t;

// Global keys (small numbers; field keys are hashed above them).
constexpr Key kKeyOrder = 2;      // `order` constraint progress
constexpr Key kKeyScFence = 3;    // the seq_cst fence order
constexpr Key kKeyVisible = 4;    // a location the model's every-step invariant reads
constexpr Key kKeyAll = 6;        // unknown: dependent with everything
// Thread t's RCU read-side state: inside an outermost section or not.
inline Key rcu_key(int t) { return (Key)(8 + t); }
// Thread t finished (order waits and grace periods wait on it).
inline Key exit_key(int t) { return (Key)(8 + kMaxThreads + t); }
// Thread t's read-side state in SRCU domain d (1..kMaxSrcu).
inline Key srcu_key(int d, int t) { return (Key)(8 + (1 + d) * kMaxThreads + t); }
// Global keys are below this; field keys are hashed above it.
constexpr Key kGlobalKeys = 8 + (2 + kMaxSrcu) * kMaxThreads;

Key field_key(int owner, const char* name);
Key alive_key(int owner);

// What a step did with a lock word (note_lock_op), for the lock handoff
// rule of the DPOR scheduler (dpor.h): bits of Access::lk.
enum : uint8_t {
    kLkFirstAcquire = 1,  // the step's first access of the key is a lock acquire that waited (wait_until): tried
                          // while the lock was held, it fails and parks, and is no event
    kLkLastRelease = 2,   // the step's last access of the key releases an exclusive hold
    kLkAcquired = 4,      // the step took the lock (a waiting acquire or a trylock)
};

struct Access {
    Key key;
    uint8_t write;
    uint8_t await;   // only read by a wait condition that failed and parked (search/await_marks.h)
    uint8_t lk;      // kLk* bits
    uint8_t add;     // every access of the key in the step is a blind add (note_blind_add, search/commute.h)
    uint8_t quiet;   // what knowing the step's read-only accesses of the key bounds: kQuiet* (search/fence_order.h)
};

// What knowing a read-only access bounds in another thread's accesses of
// its key, for dpor's observed-fence-order rule (search/fence_order.h):
// Access::quiet, the least of the step's accesses of the key (a write
// bounds everything).
enum : uint8_t {
    kQuietNone = 0,    // any access of the key
    kQuietReads = 1,   // its writes only: a read of an object's liveness (only a free checks what came before it)
    kQuietAll = 2,     // nothing, but for the race check of a C plain access: a marked load of a setup's store
                       // (an initial value, first in its location's coherence order)
};

constexpr int kMaxStepAccesses = 48;   // per step; more is folded into kKeyAll

struct Deps {
    bool enabled = false;              // a strategy wants the accesses (dpor)
    // The running step's accesses.
    Access step[kMaxStepAccesses];
    int nstep = 0;
    bool step_overflow = false;

    // Scheduling points in the running execution (the DPOR scheduler
    // counts them, so that a mark can tell whether a step ended since).
    uint64_t steps = 0;
    // The threads stopped at a scheduling point before a store, an RMW or a
    // free of an object the setup made: their next step starts with a
    // write of shared memory (note_next_access).
    uint8_t next_writes = 0;

    void begin_execution();
};

extern Deps g_deps;
inline Deps& deps() { return g_deps; }

// The running thread's current step touches `key`.
// `quiet`: what knowing this access bounds, when it reads (kQuiet*).
inline void note_access(Key key, bool write, uint8_t quiet = kQuietNone) {
    Deps& d = deps();
    if (!d.enabled) return;
    if (write) quiet = kQuietNone;
    for (int i = 0; i < d.nstep; i++)
        if (d.step[i].key == key) {
            d.step[i].write |= write;
            d.step[i].lk &= (uint8_t)~kLkLastRelease;  // an access after the release
            d.step[i].add = 0;                         // an access that is no blind add (note_blind_add sets it again)
            if (quiet < d.step[i].quiet) d.step[i].quiet = quiet;
            return;
        }
    if (d.nstep < kMaxStepAccesses) d.step[d.nstep++] = {key, (uint8_t)write, 0, 0, 0, quiet};
    else d.step_overflow = true;
}
// Thread t stops at the scheduling point before an access: a write of an
// object the setup made (shared from the start, not one a thread
// allocated), or not. The layer says so before each scheduling point of an
// access; a thread
// that stops at another kind (a park, a pass that starts over) has this
// bit cleared when its step begins. For dpor's identical-threads rule
// (search/symmetry.h).
inline void note_next_access(int t, bool write) {
    Deps& d = deps();
    if (write) d.next_writes |= (uint8_t)(1u << t);
    else d.next_writes &= (uint8_t)~(1u << t);
}

// Does the running step touch `key` yet?
inline bool step_touches(Key key) {
    const Deps& d = deps();
    for (int i = 0; i < d.nstep; i++)
        if (d.step[i].key == key) return true;
    return false;
}
// Blind adds, for dpor's commuting-adds rule (search/commute.h): the
// layer calls step_adds_only() before an atomic add whose result nobody
// uses and, when it said true and the add qualifies (kfield::blind_add),
// note_blind_add() after the add's own note_access() calls. A key the step
// touched otherwise than by blind adds is never marked.
inline bool step_adds_only(Key key) {
    const Deps& d = deps();
    for (int i = 0; i < d.nstep; i++)
        if (d.step[i].key == key) return d.step[i].add;
    return true;
}
inline void note_blind_add(Key key) {
    Deps& d = deps();
    if (!d.enabled) return;
    for (int i = 0; i < d.nstep; i++)
        if (d.step[i].key == key) {
            if (d.step[i].write) d.step[i].add = 1;
            return;
        }
}
// The lock operations, for the handoff rule (dpor.h). The access itself is
// noted already (an RMW of the lock word); `fresh`: the key was not touched
// in the step before it.
enum class LockOp : uint8_t { WaitAcquire, TryAcquire, ExclusiveRelease };
inline void note_lock_op(Key key, LockOp op, bool fresh) {
    Deps& d = deps();
    if (!d.enabled) return;
    for (int i = 0; i < d.nstep; i++)
        if (d.step[i].key == key) {
            uint8_t& lk = d.step[i].lk;
            if (op == LockOp::ExclusiveRelease) {
                lk |= kLkLastRelease;
            } else {
                lk |= kLkAcquired;
                if (op == LockOp::WaitAcquire && fresh) lk |= kLkFirstAcquire;
            }
            return;
        }
}

}  // namespace vfsmc
