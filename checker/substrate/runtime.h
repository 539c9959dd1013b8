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

#include "substrate/trace.h"

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
    // The run's mutation (RunOptions::mutation, contract/mutations.h): the
    // name MUTATION() compares with; nullptr: none.
    const char* mutation = nullptr;
    int nthreads = 0;
    const char* thread_names[kMaxThreads] = {};
    int norder = 0;
    OrderConstraint order[kMaxOrder];
    bool (*inv_enabled)(const char* name) = nullptr;
    void (*check_step)() = nullptr;     // model's every-step invariants (peek only)
    void (*check_free)(int id) = nullptr;  // model's invariants on an object at its free (peek only)
    void (*fail)(const char* desc) = nullptr;  // ends the execution as failed (Relacy)

    // Per execution.
    ExecRecord* rec = nullptr;
    const char* fstack[kMaxThreads][kMaxFuncDepth];
    int fdepth[kMaxThreads];
    TState tstate[kMaxThreads];
    const char* wait_what[kMaxThreads];    // what the waiter waits for ("spin_lock", "d_wait_lookup" ...)
    int wait_obj[kMaxThreads];
    bool wait_sleeping[kMaxThreads];       // asleep on a wait queue (vs spinning on a lock)
    bool wait_cond_true[kMaxThreads];      // a sleeper whose condition already holds
    bool wait_order[kMaxThreads];          // waiting on an `order` constraint
    bool in_wait_cond[kMaxThreads];        // evaluating a wait_until() condition (its lock acquires wait)
    bool order_done[kMaxOrder];            // before-step reached
    bool pruned = false;
    bool order_cut = false;                // pruned by an `order` constraint
    // Invariants the scenario does not judge that broke in this execution
    // (violate() records their names, and nothing else): the first four.
    const char* unjudged[4] = {};
    int nunjudged = 0;
    bool sleep_blocked = false;            // dpor abandoned this execution as redundant
    bool duplicate = false;                // cut at a stale read another branch covers (search/stale_cut.h)
    bool in_thread = false;                // the simulated threads are running (this_thread() is valid)
    bool in_check = false;                 // model's every-step check is running
    bool quiet = false;                    // re-checks in a wait loop: reads are not logged
    bool defer_check = false;              // log_access(): the check waits for access_logged()
    // Per thread: the model source line of its latest call into the
    // vocabulary (kernel/core.h, here()); each event logged takes it.
    const char* src_file[kMaxThreads] = {};
    int src_line[kMaxThreads] = {};
    int quiet_thread = -1;                 // whose wait re-check is quiet (another thread may run inside it)

    // Across executions of one scenario.
    int ncoverage = 0;
    const char* coverage[kMaxCoverage];
    // Step pointer hash -> the coverage entry (same text) it was found as,
    // valid while coverage[idx] is still that entry (ncoverage is reset per scenario).
    struct CoverHint {
        const char* step;
        const char* entry;
        int16_t idx;
    };
    CoverHint coverage_hint[1024];
    uint64_t executions = 0;
    uint64_t pruned_executions = 0;        // stopped unjudged: by `order` constraints, or at a check turned off
    uint64_t order_pruned_executions = 0;  // of those, cut by `order` constraints
    uint64_t sleep_blocked_executions = 0; // dpor: redundant (every enabled thread asleep)
    uint64_t duplicate_executions = 0;     // cut at a stale read another branch covers (StaleCut)
    uint64_t sched_points = 0;             // scheduling points taken, never reset (bench: steps per execution)

    void begin_execution(ExecRecord* r);
};

extern Runtime g_runtime;
inline Runtime& rt() { return g_runtime; }

// The log. Returns the index of the new event, or -1 if the log is full.
// The narrative `fmt` is formatted only when the record is copied out (see
// Event::fmt).
int log_event(int thread, Ev kind, int obj, const char* action, const char* field,
              int64_t before, int64_t after, const char* fmt = nullptr, ...)
    __attribute__((format(printf, 8, 9)));
// An access of a shared word: logged as log_event() logs it, but the
// every-step invariant check waits until the caller has filled in what the
// access is (its word, order, lock or reference change, the write it read
// from) and calls access_logged(): a violation found at this access is
// then reported with the access complete.
int log_access(int thread, Ev kind, int obj, const char* action, const char* field, int64_t before, int64_t after);
void access_logged(Ev kind);
// A step name "func:point" as its function and its point (a point of
// nullptr: the name is a function's). Split once per name.
void split_step(const char* step, const char** func, const char** point);
inline Event* event_at(int idx) {
    ExecRecord* rec = g_runtime.rec;
    if (!rec || idx < 0 || idx >= rec->nevents) return nullptr;
    return &rec->events[idx];
}

// Objects.
int register_object(const char* kind, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
const char* object_name(int obj);

// Coverage: a named step was reached.
void cover_slow(const char* step);
inline void cover(const char* step) {
    Runtime& r = g_runtime;
    // Step names are string literals: the same pointer almost always.
    const Runtime::CoverHint& h = r.coverage_hint[((uintptr_t)step * 0x9E3779B97F4A7C15ULL) >> 54];
    if (h.step == step && h.idx < r.ncoverage && r.coverage[h.idx] == h.entry) return;
    cover_slow(step);
}

// Kernel function stack of a thread (for the trace and coverage).
inline void enter_func(int thread, const char* func) {
    Runtime& r = g_runtime;
    if (r.fdepth[thread] < kMaxFuncDepth) r.fstack[thread][r.fdepth[thread]] = func;
    r.fdepth[thread]++;
    cover(func);
}
inline void leave_func(int thread) {
    Runtime& r = g_runtime;
    if (r.fdepth[thread] > 0) r.fdepth[thread]--;
}
inline const char* current_func(int thread) {
    Runtime& r = g_runtime;
    int d = r.fdepth[thread];
    if (d <= 0) return "";
    if (d > kMaxFuncDepth) d = kMaxFuncDepth;
    return r.fstack[thread][d - 1];
}

// Raise an invariant. Returns only if the scenario disabled that invariant
// (or the execution is pruned); otherwise the execution ends here.
void violate(int thread, const char* invariant, const int* conflicts, int nconflicts,
             const char* fmt, ...) __attribute__((format(printf, 5, 6)));

// `order` support: called at step entry and at step completion.
void order_step_done(int thread, const char* step);
// Is `thread` allowed to start `step` now?
bool order_may_start(int thread, const char* step);

// Wait bookkeeping (called by the layer): what a waiting thread waits for,
// for the deadlock and lost-wakeup reports.
void wait_begin(int thread, const char* what, int obj, bool sleeping, bool order);
void wait_end(int thread);

}  // namespace vfsmc
