// vfsmc: per-execution bookkeeping (see runtime.h).
#include "explore/runtime.h"

#include <cstdio>
#include <cstring>

namespace vfsmc {

const char* mem_model_name(MemModel m) { return m == MemModel::sc ? "sc" : "kernel"; }

const char* ev_name(Ev e) {
    switch (e) {
        case Ev::Enter: return "enter";
        case Ev::Step: return "step";
        case Ev::Read: return "read";
        case Ev::Write: return "write";
        case Ev::Rmw: return "rmw";
        case Ev::Lock: return "lock";
        case Ev::Unlock: return "unlock";
        case Ev::Wait: return "wait";
        case Ev::Wake: return "wake";
        case Ev::Fence: return "fence";
        case Ev::Alloc: return "alloc";
        case Ev::Free: return "free";
        case Ev::Violation: return "violation";
    }
    return "?";
}

static Runtime g_rt;
Runtime& rt() { return g_rt; }

void Runtime::begin_execution(ExecRecord* r) {
    rec = r;
    rec->reset();
    for (int t = 0; t < kMaxThreads; t++) {
        fdepth[t] = 0;
        tstate[t] = TState::Running;
        wait_what[t] = nullptr;
        wait_obj[t] = -1;
        wait_sleeping[t] = false;
        wait_cond_true[t] = false;
        wait_order[t] = false;
    }
    for (int i = 0; i < kMaxOrder; i++) order_done[i] = false;
    pruned = false;
    sleep_blocked = false;
    in_thread = false;
    in_check = false;
    quiet = false;
}

// Events that change shared state (after them the every-step invariants
// run).
static bool changes_state(Ev k) {
    switch (k) {
        case Ev::Write: case Ev::Rmw: case Ev::Lock: case Ev::Unlock: case Ev::Wake:
        case Ev::Alloc: case Ev::Free:
            return true;
        default:
            return false;
    }
}

// Events after which the model's every-step invariants run: state changes,
// and the model's named steps (which may change its ghost state).
static bool checks_invariants(Ev k) { return changes_state(k) || k == Ev::Step; }

int log_event(int thread, Ev kind, int obj, const char* action, const char* field,
              int64_t before, int64_t after, const char* fmt, ...) {
    Runtime& r = g_rt;
    if (r.quiet && kind == Ev::Read) return -1;
    ExecRecord* rec = r.rec;
    if (!rec) return -1;
    if (rec->nevents >= kMaxEvents) {
        rec->truncated = true;
        return -1;
    }
    int idx = rec->nevents++;
    Event& e = rec->events[idx];
    e.kind = kind;
    e.thread = (uint8_t)thread;
    e.marked = 0;
    e.stale = 0;
    e.ref = 0;
    e.obj = (int16_t)obj;
    e.func = current_func(thread);
    e.action = action;
    e.field = field;
    e.order = nullptr;
    e.before = before;
    e.after = after;
    e.rf = -1;
    e.latest = -1;
    e.text[0] = 0;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e.text, sizeof e.text, fmt, ap);
        va_end(ap);
    }
    if (checks_invariants(kind) && r.check_step && !r.in_check && !r.pruned) {
        r.in_check = true;
        r.check_step();
        r.in_check = false;
    }
    return idx;
}

Event* event_at(int idx) {
    if (!g_rt.rec || idx < 0 || idx >= g_rt.rec->nevents) return nullptr;
    return &g_rt.rec->events[idx];
}

int register_object(const char* kind, const char* fmt, ...) {
    ExecRecord* rec = g_rt.rec;
    if (!rec || rec->nobjects >= kMaxObjects) return -1;
    int id = rec->nobjects++;
    ObjInfo& o = rec->objects[id];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o.name, sizeof o.name, fmt, ap);
    va_end(ap);
    o.kind = kind;
    o.alloc_event = -1;
    o.free_event = -1;
    o.freed = false;
    o.rcu_pending = false;
    return id;
}

const char* object_name(int obj) {
    ExecRecord* rec = g_rt.rec;
    if (!rec || obj < 0 || obj >= rec->nobjects) return "?";
    return rec->objects[obj].name;
}

void enter_func(int thread, const char* func) {
    Runtime& r = g_rt;
    if (r.fdepth[thread] < kMaxFuncDepth) r.fstack[thread][r.fdepth[thread]] = func;
    r.fdepth[thread]++;
    cover(func);
}

void leave_func(int thread) {
    Runtime& r = g_rt;
    if (r.fdepth[thread] > 0) r.fdepth[thread]--;
}

const char* current_func(int thread) {
    Runtime& r = g_rt;
    int d = r.fdepth[thread];
    if (d <= 0) return "";
    if (d > kMaxFuncDepth) d = kMaxFuncDepth;
    return r.fstack[thread][d - 1];
}

void cover(const char* step) {
    Runtime& r = g_rt;
    // Step names are string literals: the same pointer almost always, so
    // look for it first and compare text only for a new pointer.
    for (int i = 0; i < r.ncoverage; i++)
        if (r.coverage[i] == step) return;
    for (int i = 0; i < r.ncoverage; i++)
        if (std::strcmp(r.coverage[i], step) == 0) return;
    if (r.ncoverage < kMaxCoverage) r.coverage[r.ncoverage++] = step;
}

void violate(int thread, const char* invariant, const int* conflicts, int nconflicts,
             const char* fmt, ...) {
    Runtime& r = g_rt;
    if (r.pruned) return;
    if (r.inv_enabled && !r.inv_enabled(invariant)) return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    Violation& v = r.rec->violation;
    if (!v.set) {
        v.set = true;
        v.invariant = invariant;
        std::snprintf(v.message, sizeof v.message, "%s", msg);
        for (int i = 0; i < 4; i++) v.conflict[i] = i < nconflicts ? conflicts[i] : -1;
        v.event = log_event(thread, Ev::Violation, -1, invariant, nullptr, 0, 0, "%s", msg);
    }
    if (r.fail) r.fail(invariant);
}

static bool step_matches(const char* want, const char* step) {
    return want && step && std::strcmp(want, step) == 0;
}

void order_step_done(int thread, const char* step) {
    Runtime& r = g_rt;
    for (int i = 0; i < r.norder; i++)
        if (!r.order_done[i] && r.order[i].before_thread == thread &&
            step_matches(r.order[i].before_step, step))
            r.order_done[i] = true;
}

bool order_may_start(int thread, const char* step) {
    Runtime& r = g_rt;
    for (int i = 0; i < r.norder; i++)
        if (!r.order_done[i] && r.order[i].after_thread == thread &&
            step_matches(r.order[i].after_step, step))
            return false;
    return true;
}

void wait_begin(int thread, const char* what, int obj, bool sleeping, bool order) {
    Runtime& r = g_rt;
    r.tstate[thread] = TState::Waiting;
    r.wait_what[thread] = what;
    r.wait_obj[thread] = obj;
    r.wait_sleeping[thread] = sleeping;
    r.wait_order[thread] = order;
    r.wait_cond_true[thread] = false;
}

void wait_end(int thread) {
    Runtime& r = g_rt;
    r.tstate[thread] = TState::Running;
    r.wait_what[thread] = nullptr;
    r.wait_order[thread] = false;
    r.wait_sleeping[thread] = false;
}

}  // namespace vfsmc
