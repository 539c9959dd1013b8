// vfsmc kernel vocabulary: what every primitive shares: the running thread, its scheduling point,
// blocking waits (wait_until, retry_loop), KFUNC, kstep and KWARN_ON.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include <cstring>

#include "substrate/blocking.h"
#include "substrate/deps.h"
#include "substrate/observer.h"
#include "substrate/runtime.h"
#include "substrate/sim.h"
#include "kernel/memory_model.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// Threads, steps and the trace hook.
// ------------------------------------------------------------------------
inline int this_thread() { return sim::thread_index(); }

// A place in the source: every vocabulary function the models call takes
// one as its last parameter, defaulted to the place of the call
// (`SrcLoc at = SrcLoc()`: GCC evaluates __builtin_FILE and __builtin_LINE
// in a default argument at the caller), and passes it to here().
struct SrcLoc {
    const char* file;
    int line;
    SrcLoc(const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};

// Whether a file is the vocabulary's or the litmus interpreter's. A file
// name comes from __builtin_FILE, a string literal, so one pointer stands
// for one file: the answer is kept per pointer in a small direct-mapped
// table (a collision only recomputes it).
inline bool layer_file(const char* file) {
    struct Slot {
        const char* file;
        bool layer;
    };
    static Slot slots[64];
    Slot& s = slots[((uintptr_t)file >> 4) & 63];
    if (s.file != file) {
        s.file = file;
        s.layer = std::strstr(file, "checker/kernel/") || std::strstr(file, "checker/litmus/");
    }
    return s.layer;
}

// Records `at` as the running thread's current model source line, which
// the events logged from now on carry (Event::src_file). A call made from
// inside the vocabulary or the litmus interpreter keeps the model's line:
// the location shown is the model's call, not the layer's.
inline void here(const SrcLoc& at) {
    Runtime& r = rt();
    if (!r.in_thread || !at.file || layer_file(at.file)) return;
    int t = this_thread();
    if (t < 0 || t >= kMaxThreads) return;
    r.src_file[t] = at.file;
    r.src_line[t] = at.line;
}

// What a model may ask of the run, without reaching into the runtime:
// a thread's name as the scenario gives it, the index of the last event
// logged (for a report that points back at a step).
inline const char* thread_name(int t) { return t >= 0 && t < kMaxThreads ? rt().thread_names[t] : "?"; }
inline int last_event() { return rt().rec ? rt().rec->nevents - 1 : -1; }

// One scheduling point: other threads may run here. An execution that the
// explorer abandoned (pruned) unwinds from here.
inline void sched_point() {
    rt().sched_points++;
    sim::sched();
    if (rt().pruned) throw Pruned();
}

// Run the rest of a step without a scheduling point.
using no_preempt = sim::no_preempt;

// A nondeterministic choice the model explores (an RPC outcome, a driver's
// ->open succeeding or failing): every value in [0, n) is tried.
inline unsigned kchoose(unsigned n) { return n <= 1 ? 0 : sim::choose(n); }

// Ends an execution without judging it (counted as pruned): one that the
// `order` constraints cannot be satisfied in, or one stopped at a check the
// scenario turned off (a deadlock when `deadlock` is not checked).
[[noreturn]] inline void prune_execution() {
    rt().pruned = true;
    throw Pruned();
}
[[noreturn]] inline void prune_execution_by_order() {
    rt().order_cut = true;
    prune_execution();
}

// Blocking (kernel.cpp). park_on(): the running thread's wait condition is
// false, with `ws` the keys it read. The layer reports it to the search,
// which answers whether the thread parks until another thread writes a key
// of `ws` or looks again at once (search/parking.h), and does what it says:
// before it parks it checks whether every other live thread is parked too
// (a deadlock or a lost wakeup, named by the layer); when it looks again, a
// cpu_relax bounds staleness (it cannot read an older value than it saw).
// That bound holds for the wait condition's evaluations (and a retry loop's
// passes) alone, so that a woken waiter sees what woke it: when the wait
// ends, the bound the thread had before it comes back (relax_restore(),
// none outside a retry loop), and its loads may read any store they are
// not ordered after again. The memory model allows a load after the wait
// to read a store older than one the thread saw before it (thread 0 wrote
// the initial values, so it counts as having seen each of them).
struct RealCond {
    bool (*fn)(const void*) = nullptr;
    const void* ctx = nullptr;
    bool operator()() const { return fn && fn(ctx); }
};
void park_on(int t, const WatchSet& ws, RealCond real);
// The running thread's wait (or retry loop) is over: its cpu_relax() bound
// goes back to `mark` (sim::relax_mark() when it began).
void relax_restore(sim::timestamp_t mark);
// A wait or a retry loop of the running thread: the cpu_relax() bound
// taken inside it ends with it (relax_restore()).
class relax_scope {
    sim::timestamp_t mark_ = sim::relax_mark();

public:
    relax_scope() = default;
    relax_scope(const relax_scope&) = delete;
    relax_scope& operator=(const relax_scope&) = delete;
    ~relax_scope() { relax_restore(mark_); }
};
// Another thread may be waiting on `key` (a global key: RCU, order, exit).
void kick(Key key);
// Thread t wrote field `key`: wake the threads parked on it.
void wake_watchers(int t, Key key);
// Thread t reads a global key (in a wait condition, or for DPOR).
inline void read_global(int t, Key key) {
    search_observer().before_access(t, key, false);
    note_access(key, false);
    watch_read(t, key, nullptr, 0);
}
inline void write_global(Key key) {
    if (rt().in_thread) search_observer().before_access(this_thread(), key, false);
    note_access(key, true);
    if (blocking().nparked) kick(key);
}

void wait_stuck_report(int t);
void set_quiet(bool q);

// Wait for `cond` to become true. `cond` is evaluated, and if false the
// thread parks on the locations it read until one of them is written by
// another thread (park_on: the search decides). `real` is what a sleeper is really waiting for (used only
// to tell a lost wakeup from a deadlock). The re-evaluations are quiet: their
// reads are not in the trace.
template <class Cond, class Real>
inline void wait_until(const char* what, int obj, bool sleeping, Cond cond, Real real) {
    int t = this_thread();
    relax_scope relaxed;
    WatchSet& ws = blocking().wait_ws[t];
    ws.clear();
    ws.active = true;
    search_observer().await_begin(t);
    rt().in_wait_cond[t] = true;
    bool ok = cond();
    rt().in_wait_cond[t] = false;
    ws.active = false;
    if (ok) {
        search_observer().await_end(t);
        return;
    }
    wait_begin(t, what, obj, sleeping, false);
    log_event(t, Ev::Wait, obj, what, nullptr, 0, 0, nullptr);
    RealCond rc;
    rc.ctx = &real;
    rc.fn = [](const void* c) { return (*static_cast<const Real*>(c))(); };
    for (;;) {
        park_on(t, ws, rc);
        ws.clear();
        ws.active = true;
        set_quiet(true);
        search_observer().await_begin(t);
        rt().in_wait_cond[t] = true;
        ok = cond();
        rt().in_wait_cond[t] = false;
        set_quiet(false);
        ws.active = false;
        if (ok) break;
    }
    search_observer().await_end(t);
    wait_end(t);
}
template <class Cond>
inline void wait_until(const char* what, int obj, bool sleeping, Cond cond) {
    wait_until(what, obj, sleeping, cond, [] { return false; });
}

// A kernel retry loop (`goto retry`, a cmpxchg or seqcount retry that starts
// over). At the end of each pass the layer reports what the pass read and
// wrote, and the search answers (search/parking.h): a pass that read the
// same values as the last one and left every location it wrote as it found
// it adds nothing, so the thread parks until one of the locations the pass
// read is written by another thread; one that changed something retries.
//
//     retry_loop retry;
//     for (bool again = false;; again = true) {
//         if (again) retry.again();
//         ...
//     }
class retry_loop {
    int t_;
    relax_scope relaxed_;  // the cpu_relax() bound of its passes ends with it

public:
    retry_loop();
    ~retry_loop();
    retry_loop(const retry_loop&) = delete;
    retry_loop& operator=(const retry_loop&) = delete;
    void again();
};

// The kernel function a model function mirrors: `KFUNC("d_alloc_parallel");`
// at the top of the model function. It names the steps inside it in the
// trace, and it is a step for `order` and coverage.
struct kfunc_scope {
    int t;
    const char* name;
    explicit kfunc_scope(const char* n, SrcLoc at = SrcLoc()) : t(this_thread()), name(n) {
        here(at);
        Runtime& r = rt();
        if (r.norder) read_global(t, kKeyOrder);
        if (r.norder && !order_may_start(t, n)) {
            relax_scope relaxed;
            wait_begin(t, "order", -1, false, true);
            for (int i = 0; i < r.norder; i++)
                if (!r.order_done[i] && r.order[i].after_thread == t && std::strcmp(r.order[i].after_step, n) == 0) {
                    log_event(t, Ev::Wait, -1, "order", nullptr, 0, 0, "%s waits until %s completes %s (order constraint)",
                              n, r.thread_names[r.order[i].before_thread], r.order[i].before_step);
                    break;
                }
            for (;;) {
                // Parks until another thread completes a step or finishes.
                WatchSet& ws = blocking().wait_ws[t];
                ws.clear();
                ws.add(kKeyOrder, nullptr, 0);
                for (int u = 0; u < r.nthreads; u++) ws.add(exit_key(u), nullptr, 0);
                // The thread it waits for finished without the step.
                bool blocked = true;
                for (int i = 0; i < r.norder; i++)
                    if (!r.order_done[i] && r.order[i].after_thread == t &&
                        std::strcmp(r.order[i].after_step, n) == 0 &&
                        r.tstate[r.order[i].before_thread] != TState::Done)
                        blocked = false;
                if (blocked) prune_execution_by_order();
                park_on(t, ws, RealCond());
                read_global(t, kKeyOrder);
                if (order_may_start(t, n)) break;
            }
            wait_end(t);
        }
        enter_func(t, n);
        log_event(t, Ev::Enter, -1, n, nullptr, 0, 0, nullptr);
    }
    ~kfunc_scope() {
        if (rt().pruned) return;
        leave_func(t);
        if (rt().norder) {
            order_step_done(t, name);
            write_global(kKeyOrder);
        }
    }
};
#define VFS_CAT2(a, b) a##b
#define VFS_CAT(a, b) VFS_CAT2(a, b)
#define KFUNC(name) ::vfsmc::kfunc_scope VFS_CAT(kfunc_, __LINE__)(name)

// A named point inside a function, for `order`, coverage and the trace:
// `kstep("d_alloc_parallel:publish", obj, "dentry %s -> in-lookup hash", ...)`.
#define kstep(step, obj, ...)                                                   \
    do {                                                                         \
        ::vfsmc::kfunc_scope VFS_CAT(kstep_, __LINE__)(step);                    \
        ::vfsmc::log_event(::vfsmc::this_thread(), ::vfsmc::Ev::Step, (obj), step, \
                           nullptr, 0, 0, __VA_ARGS__);                           \
    } while (0)
// kstep that returns the index of the event it logged, for a report that
// points back at the step (`conflicts`): `ev = kstep_ev("d_add", obj, ...)`.
template <class... A>
int kstep_ev_at(SrcLoc at, const char* step, int obj, const char* fmt, A... a) {
    kfunc_scope s(step, at);
    return log_event(this_thread(), Ev::Step, obj, step, nullptr, 0, 0, fmt, a...);
}
#define kstep_ev(...) ::vfsmc::kstep_ev_at(::vfsmc::SrcLoc(), __VA_ARGS__)

// A kernel WARN_ON / VFS_BUG_ON turned into an invariant.
#define KWARN_ON(cond, invariant, ...)                                            \
    do {                                                                          \
        if (cond) ::vfsmc::violate(::vfsmc::this_thread(), invariant, nullptr, 0, __VA_ARGS__); \
    } while (0)

}  // namespace vfsmc
