// vfsmc: per-execution bookkeeping shared by the kernel-vocabulary layer and
// the engine adapter: the event log, the object registry, each thread's
// kernel-function stack, waiting threads (for deadlock and lost-wakeup
// detection), `order` constraints, step coverage and the raised violation.
//
// No Relacy here: the layer (kernel.h) does every simulated access and calls
// into this for the record. Everything is single-OS-threaded (Relacy runs its
// simulated threads as fibers), so plain globals are safe.
#pragma once

#include <cstdint>
#include <cstdarg>

#include "explore/trace.h"

namespace vfsmc {

enum class MemModel : uint8_t { sc, kernel };
const char* mem_model_name(MemModel m);

// One `order` constraint: thread `before_thread` completes step
// `before_step` before thread `after_thread` starts step `after_step`.
struct OrderConstraint {
    int before_thread;
    const char* before_step;
    int after_thread;
    const char* after_step;
};

constexpr int kMaxOrder = 8;
constexpr int kMaxCoverage = 512;

// Thrown inside a simulated thread when the execution cannot satisfy the
// scenario's `order` constraints: the thread unwinds and the execution is
// counted as pruned, not judged.
struct Pruned {};

enum class TState : uint8_t { Running, Waiting, Done };

struct Runtime {
    // Set once per scenario by the engine.
    MemModel mm = MemModel::kernel;
    int nthreads = 0;
    const char* thread_names[kMaxThreads] = {};
    int norder = 0;
    OrderConstraint order[kMaxOrder];
    bool (*inv_enabled)(const char* name) = nullptr;
    void (*check_step)() = nullptr;     // model's every-step invariants (peek only)
    void (*fail)(const char* desc) = nullptr;  // ends the execution as failed (Relacy)

    // Per execution.
    ExecRecord* rec = nullptr;
    const char* fstack[kMaxThreads][kMaxFuncDepth];
    int fdepth[kMaxThreads];
    TState tstate[kMaxThreads];
    uint64_t progress = 0;                 // bumped by every event that changes shared state
    uint64_t own_progress[kMaxThreads];    // the part of `progress` each thread made
    uint64_t spin_seen[kMaxThreads];       // others' progress at a thread's last futile spin
    int spins[kMaxThreads];                // futile spins in a row (no other thread moved)
    uint64_t wait_seen[kMaxThreads];       // progress value at a waiter's last failed check
    int wait_fails[kMaxThreads];           // failed checks since progress last moved
    const char* wait_what[kMaxThreads];    // what the waiter waits for ("spin_lock", "d_wait_lookup" ...)
    int wait_obj[kMaxThreads];
    bool wait_sleeping[kMaxThreads];       // asleep on a wait queue (vs spinning on a lock)
    bool wait_cond_true[kMaxThreads];      // a sleeper whose condition already holds
    bool wait_order[kMaxThreads];          // waiting on an `order` constraint
    bool order_done[kMaxOrder];            // before-step reached
    bool pruned = false;
    bool in_check = false;                 // model's every-step check is running
    bool quiet = false;                    // re-checks in a wait loop: reads are not logged

    // Across executions of one scenario.
    int ncoverage = 0;
    const char* coverage[kMaxCoverage];
    uint64_t executions = 0;
    uint64_t pruned_executions = 0;

    void begin_execution(ExecRecord* r);
};

Runtime& rt();

// The log. Returns the index of the new event, or -1 if the log is full.
int log_event(int thread, Ev kind, int obj, const char* action, const char* field,
              int64_t before, int64_t after, const char* fmt = nullptr, ...)
    __attribute__((format(printf, 8, 9)));
Event* event_at(int idx);

// Objects.
int register_object(const char* kind, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
const char* object_name(int obj);

// Kernel function stack of a thread (for the trace and coverage).
void enter_func(int thread, const char* func);
void leave_func(int thread);
const char* current_func(int thread);

// Coverage: a named step was reached.
void cover(const char* step);

// Raise an invariant. Returns only if the scenario disabled that invariant
// (or the execution is pruned); otherwise the execution ends here.
void violate(int thread, const char* invariant, const int* conflicts, int nconflicts,
             const char* fmt, ...) __attribute__((format(printf, 5, 6)));

// `order` support: called at step entry and at step completion.
void order_step_done(int thread, const char* step);
// Is `thread` allowed to start `step` now?
bool order_may_start(int thread, const char* step);

// A thread spins (cpu_relax, a retry, a wait loop). Returns 1 when it has
// spun kStarvedSpins times while another thread that could run made no
// progress: the search starved that thread (its preemption bound is used
// up), and the execution says nothing about the protocol. Returns 2 when it
// has spun kLivelockSpins times while every other thread is finished or
// waiting: a livelock.
constexpr int kStarvedSpins = 4;
constexpr int kLivelockSpins = 64;
int spin_check(int thread);

// Deadlock bookkeeping for a wait loop (called by the layer).
void wait_begin(int thread, const char* what, int obj, bool sleeping, bool order);
// A failed check of the wait condition. Returns true when every live thread
// is waiting and none of them can make progress.
bool wait_stuck(int thread, bool cond_true);
void wait_end(int thread);

}  // namespace vfsmc
