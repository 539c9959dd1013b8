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
    uint8_t await;   // only read by a wait condition that failed and parked (see mark_failed_await)
    uint8_t lk;      // kLk* bits
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

    // Where thread t's running wait_until() condition began (a step and
    // the number of accesses it had then), for mark_failed_await(). Per
    // thread: a condition's first access is a scheduling point, and other
    // threads' waits run before it goes on.
    uint64_t await_steps[kMaxThreads] = {};
    int await_n[kMaxThreads] = {};
    bool await_set[kMaxThreads] = {};

    // Retry passes (mark_failed_pass): the DPOR scheduler keeps `cur_step`
    // at the index of the running step in its execution; each thread's
    // running pass began in step pass_step[t], after pass_n[t] of its
    // accesses. A failed pass leaves a request the scheduler takes when
    // the step closes (the pass's earlier steps are the scheduler's).
    int cur_step = -1;
    int pass_step[kMaxThreads] = {};
    int pass_n[kMaxThreads] = {};
    struct PassMark {
        int thread = -1, step = -1, n = 0;
    } failed_pass;

    void begin_execution();
};

extern Deps g_deps;
inline Deps& deps() { return g_deps; }

// The running thread's current step touches `key`.
inline void note_access(Key key, bool write) {
    Deps& d = deps();
    if (!d.enabled) return;
    for (int i = 0; i < d.nstep; i++)
        if (d.step[i].key == key) {
            d.step[i].write |= write;
            d.step[i].lk &= (uint8_t)~kLkLastRelease;  // an access after the release
            return;
        }
    if (d.nstep < kMaxStepAccesses) d.step[d.nstep++] = {key, (uint8_t)write, 0, 0};
    else d.step_overflow = true;
}
// Does the running step touch `key` yet?
inline bool step_touches(Key key) {
    const Deps& d = deps();
    for (int i = 0; i < d.nstep; i++)
        if (d.step[i].key == key) return true;
    return false;
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

// A wait condition is about to be evaluated.
inline void begin_await(int t) {
    Deps& d = deps();
    d.await_steps[t] = d.steps;
    d.await_n[t] = d.nstep;
    d.await_set[t] = true;
}
// The condition was false and the thread parks: the keys the condition
// alone read in the running step are marked `await`. A failed await is no
// event of its own (GenMC leaves blocked awaits out of the execution
// graph): it changed nothing, and the thread stays parked until another
// thread writes one of the keys it read. DPOR still reverses a write
// followed by such a read (the waiter may come first and succeed), but not
// the read followed by a write: running the write first gives what the
// wakeup gives, the waiter trying after the write.
inline void mark_failed_await(int t) {
    Deps& d = deps();
    if (!d.await_set[t]) return;
    d.await_set[t] = false;
    int from = d.steps == d.await_steps[t] ? d.await_n[t] : 0;  // the step began inside the condition
    for (int i = from; i < d.nstep; i++)
        if (!d.step[i].write) d.step[i].await = 1;
}

// A retry pass of the running thread t begins here.
inline void begin_pass(int t) {
    Deps& d = deps();
    d.pass_step[t] = d.cur_step;
    d.pass_n[t] = d.nstep;
}
// The pass read the same values as the last one, changed nothing, and the
// thread parks (retry_loop::again): the pass is a failed await spread over
// several steps, and its reads are marked `await` like a failed wait
// condition's (mark_failed_await). Only the reads the pass alone made: in
// the step it began in, a key read before the pass keeps an ordinary read,
// and that step, if it closed already, is left as it is (more reversals,
// never fewer). The scheduler marks the pass's earlier steps when the
// running step closes.
inline void mark_failed_pass(int t) {
    Deps& d = deps();
    if (!d.enabled || d.pass_step[t] < 0) return;
    d.failed_pass.thread = t;
    d.failed_pass.step = d.pass_step[t];
    d.failed_pass.n = d.pass_n[t];
}

}  // namespace vfsmc
