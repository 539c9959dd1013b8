// vfsmc: per-execution bookkeeping (see runtime.h).
#include "substrate/runtime.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/types.h>

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

const char* lock_class_name(LockClass c) {
    switch (c) {
        case LockClass::None: return "";
        case LockClass::Spinlock: return "spinlock";
        case LockClass::Mutex: return "mutex";
        case LockClass::RwsemShared: return "rwsem (shared)";
        case LockClass::RwsemExclusive: return "rwsem (exclusive)";
        case LockClass::Lockref: return "lockref";
        case LockClass::Rcu: return "rcu";
    }
    return "?";
}

Runtime g_runtime;

// ---------------------------------------------------------------------------
// Narratives, formatted lazily. Almost no execution is ever reported, so an
// event keeps its printf format and arguments (strings copied into its text
// buffer, so that nothing they point to need outlive the call) and is
// formatted only when its record is copied out of the execution
// (ExecRecord's copy, below). What the capture does not handle (`*` widths,
// long double, too many arguments, strings that do not fit, a format not in
// static storage) is formatted at once, as before.
// ---------------------------------------------------------------------------
extern "C" char __executable_start;
extern "C" char edata;

namespace {

// Length modifiers.
enum : uint8_t { LM_NONE, LM_HH, LM_H, LM_L, LM_LL, LM_Z, LM_J, LM_T };
// Argument classes.
enum : uint8_t { AC_SIGNED, AC_UNSIGNED, AC_STRING, AC_POINTER, AC_DOUBLE };

struct Spec {
    uint8_t lm = LM_NONE;
    uint8_t ac = AC_SIGNED;
};

// `p` is at a '%' that starts a conversion (not "%%"). Returns the end of
// the conversion, or nullptr for one the capture does not handle.
const char* parse_spec(const char* p, Spec& s) {
    p++;
    while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0' || *p == '\'') p++;
    if (*p == '*') return nullptr;
    while (*p >= '0' && *p <= '9') p++;
    if (*p == '.') {
        p++;
        if (*p == '*') return nullptr;
        while (*p >= '0' && *p <= '9') p++;
    }
    s.lm = LM_NONE;
    switch (*p) {
        case 'h': s.lm = p[1] == 'h' ? LM_HH : LM_H; p += p[1] == 'h' ? 2 : 1; break;
        case 'l': s.lm = p[1] == 'l' ? LM_LL : LM_L; p += p[1] == 'l' ? 2 : 1; break;
        case 'z': s.lm = LM_Z; p++; break;
        case 'j': s.lm = LM_J; p++; break;
        case 't': s.lm = LM_T; p++; break;
        case 'L': return nullptr;
        default: break;
    }
    switch (*p) {
        case 'd': case 'i': case 'c': s.ac = AC_SIGNED; break;
        case 'u': case 'o': case 'x': case 'X': s.ac = AC_UNSIGNED; break;
        case 's': if (s.lm != LM_NONE) return nullptr; s.ac = AC_STRING; break;
        case 'p': s.ac = AC_POINTER; break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': s.ac = AC_DOUBLE; break;
        default: return nullptr;
    }
    return p + 1;
}

int64_t take_signed(uint8_t lm, va_list& ap) {
    switch (lm) {
        case LM_L: return va_arg(ap, long);
        case LM_LL: return va_arg(ap, long long);
        case LM_Z: return va_arg(ap, ssize_t);
        case LM_J: return va_arg(ap, intmax_t);
        case LM_T: return va_arg(ap, ptrdiff_t);
        default: return va_arg(ap, int);
    }
}
uint64_t take_unsigned(uint8_t lm, va_list& ap) {
    switch (lm) {
        case LM_L: return va_arg(ap, unsigned long);
        case LM_LL: return va_arg(ap, unsigned long long);
        case LM_Z: return va_arg(ap, size_t);
        case LM_J: return va_arg(ap, uintmax_t);
        case LM_T: return (uint64_t)va_arg(ap, ptrdiff_t);
        default: return va_arg(ap, unsigned);
    }
}

// Formats one conversion `spec` (a NUL-terminated copy of it) with the stored
// value; `strs` holds the copied strings.
int format_one(char* out, size_t cap, const char* spec, const Spec& s, int64_t v, const char* strs) {
    switch (s.ac) {
        case AC_SIGNED:
            switch (s.lm) {
                case LM_L: return std::snprintf(out, cap, spec, (long)v);
                case LM_LL: return std::snprintf(out, cap, spec, (long long)v);
                case LM_Z: return std::snprintf(out, cap, spec, (ssize_t)v);
                case LM_J: return std::snprintf(out, cap, spec, (intmax_t)v);
                case LM_T: return std::snprintf(out, cap, spec, (ptrdiff_t)v);
                default: return std::snprintf(out, cap, spec, (int)v);
            }
        case AC_UNSIGNED:
            switch (s.lm) {
                case LM_L: return std::snprintf(out, cap, spec, (unsigned long)v);
                case LM_LL: return std::snprintf(out, cap, spec, (unsigned long long)v);
                case LM_Z: return std::snprintf(out, cap, spec, (size_t)v);
                case LM_J: return std::snprintf(out, cap, spec, (uintmax_t)v);
                case LM_T: return std::snprintf(out, cap, spec, (ptrdiff_t)v);
                default: return std::snprintf(out, cap, spec, (unsigned)v);
            }
        case AC_STRING: return std::snprintf(out, cap, spec, v < 0 ? (const char*)nullptr : strs + v);
        case AC_POINTER: return std::snprintf(out, cap, spec, (void*)(uintptr_t)v);
        case AC_DOUBLE: {
            double d;
            std::memcpy(&d, &v, sizeof d);
            return std::snprintf(out, cap, spec, d);
        }
    }
    return 0;
}

// Reads the arguments `fmt` asks for from `ap`. Strings are copied into
// `strs` (capacity `scap`) and stored as their offset, or, with `strs` null,
// hashed into *hash. Returns false for what it does not handle.
// What a format asks for, parsed once (formats are string literals): a
// direct-mapped cache by address.
struct FmtInfo {
    const char* fmt = nullptr;
    bool ok = false;
    uint8_t n = 0;
    Spec spec[8];
};
FmtInfo g_fmt_cache[512];

const FmtInfo& fmt_info(const char* fmt) {
    FmtInfo& f = g_fmt_cache[((uintptr_t)fmt * 0x9E3779B97F4A7C15ULL) >> 55];
    if (f.fmt == fmt) return f;
    f.fmt = fmt;
    f.ok = true;
    f.n = 0;
    for (const char* p = fmt; *p;) {
        if (*p != '%') {
            p++;
            continue;
        }
        if (p[1] == '%') {
            p += 2;
            continue;
        }
        Spec s;
        const char* q = parse_spec(p, s);
        if (!q || f.n >= 8) {
            f.ok = false;
            break;
        }
        f.spec[f.n++] = s;
        p = q;
    }
    return f;
}

bool capture_from(const FmtInfo& fi, va_list& ap, int64_t* slots, int maxslots, int* nslots, char* strs, int scap,
                  uint64_t* hash) {
    if (!fi.ok || fi.n > maxslots) return false;
    int used = 0;
    for (int i = 0; i < fi.n; i++) {
        const Spec& s = fi.spec[i];
        int64_t v = 0;
        switch (s.ac) {
            case AC_SIGNED: v = take_signed(s.lm, ap); break;
            case AC_UNSIGNED: v = (int64_t)take_unsigned(s.lm, ap); break;
            case AC_POINTER: v = (int64_t)(uintptr_t)va_arg(ap, void*); break;
            case AC_DOUBLE: {
                double d = va_arg(ap, double);
                std::memcpy(&v, &d, sizeof v);
                break;
            }
            case AC_STRING: {
                const char* str = va_arg(ap, const char*);
                if (!str) {
                    v = -1;
                } else if (strs) {
                    int len = (int)std::strlen(str);
                    if (used + len + 1 > scap) return false;
                    std::memcpy(strs + used, str, (size_t)len + 1);
                    v = used;
                    used += len + 1;
                } else {
                    for (const char* c = str; *c; c++) *hash = (*hash ^ (unsigned char)*c) * 1099511628211ULL;
                    v = 0x5eed;
                }
                break;
            }
        }
        if (hash) *hash = (*hash ^ (uint64_t)v) * 1099511628211ULL;
        slots[i] = v;
    }
    *nslots = fi.n;
    return true;
}

// The caller's `ap` is left as it was (a failed capture formats from it).
bool capture(const char* fmt, va_list ap, int64_t* slots, int maxslots, int* nslots, char* strs, int scap,
             uint64_t* hash) {
    va_list aq;
    va_copy(aq, ap);
    bool ok = capture_from(fmt_info(fmt), aq, slots, maxslots, nslots, strs, scap, hash);
    va_end(aq);
    return ok;
}

// The executable's code, read-only data and initialised data: string
// literals live there. (A format kept in a writable static array and changed
// later would be formatted with its later text; no caller does that.)
bool static_storage(const char* p) { return p >= &__executable_start && p < &edata; }

}  // namespace

void format_text(Event& e) {
    if (!e.fmt) return;
    char out[4 * kTextLen];
    size_t o = 0;
    const size_t cap = sizeof out;
    int ai = 0;
    for (const char* p = e.fmt; *p && o < cap - 1;) {
        if (*p != '%') {
            out[o++] = *p++;
            continue;
        }
        if (p[1] == '%') {
            out[o++] = '%';
            p += 2;
            continue;
        }
        Spec s;
        const char* q = parse_spec(p, s);  // handled when captured
        char spec[32];
        size_t sl = std::min((size_t)(q - p), sizeof spec - 1);
        std::memcpy(spec, p, sl);
        spec[sl] = 0;
        int w = format_one(out + o, cap - o, spec, s, e.args[ai++], e.text);
        if (w > 0) o += std::min((size_t)w, cap - 1 - o);
        p = q;
    }
    // As vsnprintf into text would have cut it.
    size_t n = std::min(o, sizeof e.text - 1);
    std::memcpy(e.text, out, n);
    e.text[n] = 0;
    e.fmt = nullptr;
}


namespace {

// Step names split into function and point, once per name: the split
// strings live here for the whole run, so a copied record may point at them.
struct StepSplit {
    const char* step;
    const char* point;
    char func[64];
};
StepSplit g_step_split[1024];

}  // namespace

void split_step(const char* step, const char** func, const char** point) {
    *func = step;
    *point = nullptr;
    if (!step || !*step) return;
    size_t n = sizeof g_step_split / sizeof g_step_split[0];
    size_t h = ((uintptr_t)step * 0x9E3779B97F4A7C15ULL) >> 54;
    for (size_t k = 0; k < n; k++) {
        StepSplit& s = g_step_split[(h + k) % n];
        if (!s.step) {
            // A new name. Step names are string literals, so the pointer
            // stands for the name.
            const char* colon = std::strchr(step, ':');
            size_t len = colon ? (size_t)(colon - step) : 0;
            if (colon && len >= sizeof s.func) colon = nullptr;  // too long to split: shown whole
            s.point = colon ? colon + 1 : nullptr;
            if (colon) {
                std::memcpy(s.func, step, len);
                s.func[len] = 0;
            }
            s.step = step;
        }
        if (s.step == step) {
            if (s.point) {
                *func = s.func;
                *point = s.point;
            }
            return;
        }
    }
}

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
        in_wait_cond[t] = false;
        src_file[t] = nullptr;
        src_line[t] = 0;
    }
    for (int i = 0; i < kMaxOrder; i++) order_done[i] = false;
    pruned = false;
    order_cut = false;
    nunjudged = 0;
    sleep_blocked = false;
    duplicate = false;
    in_thread = false;
    in_check = false;
    quiet = false;
    quiet_thread = -1;
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
    Runtime& r = g_runtime;
    if (r.quiet && kind == Ev::Read && thread == r.quiet_thread) return -1;
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
    e.word = Word::Number;
    e.sync = Sync::None;
    e.lock = LockClass::None;
    e.obj = (int16_t)obj;
    e.step = e.func = current_func(thread);
    e.point = nullptr;
    // A named step inside a function ("d_alloc_parallel:publish") is shown
    // under its function, labelled with its point.
    if (kind == Ev::Step) split_step(e.step, &e.func, &e.point);
    e.action = action;
    e.field = field;
    e.order = nullptr;
    e.before = before;
    e.after = after;
    e.rf = -1;
    e.latest = -1;
    bool known = thread >= 0 && thread < kMaxThreads;
    e.src_file = known ? r.src_file[thread] : nullptr;
    e.src_line = known ? r.src_line[thread] : 0;
    e.text[0] = 0;
    e.fmt = nullptr;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        int n = 0;
        if (static_storage(fmt) && capture_from(fmt_info(fmt), ap, e.args, kLazyArgs, &n, e.text, (int)sizeof e.text, nullptr)) {
            e.fmt = fmt;
        } else {
            // Not captured (the arguments may be consumed): format now.
            va_end(ap);
            va_start(ap, fmt);
            vsnprintf(e.text, sizeof e.text, fmt, ap);
        }
        va_end(ap);
    }
    if (!r.defer_check) access_logged(kind);
    return idx;
}

void access_logged(Ev kind) {
    Runtime& r = g_runtime;
    if (checks_invariants(kind) && r.check_step && !r.in_check && !r.pruned) {
        r.in_check = true;
        r.check_step();
        r.in_check = false;
    }
}

int log_access(int thread, Ev kind, int obj, const char* action, const char* field, int64_t before, int64_t after) {
    Runtime& r = g_runtime;
    r.defer_check = true;
    int ev = log_event(thread, kind, obj, action, field, before, after, nullptr);
    r.defer_check = false;
    return ev;
}

int register_object(const char* kind, const char* fmt, ...) {
    ExecRecord* rec = g_runtime.rec;
    if (!rec) return -1;
    // An id past the table would alias NULL (-1) or another object: a
    // world this large is outside what the engine records, said loudly.
    if (rec->nobjects >= kMaxObjects) {
        std::fprintf(stderr, "internal error: more than %d objects in one execution (allocating a %s); accepted: at most %d\n",
                     kMaxObjects, kind, kMaxObjects);
        std::abort();
    }
    int id = rec->nobjects++;
    ObjInfo& o = rec->objects[id];
    va_list ap;
    va_start(ap, fmt);
    // The same object as in the last execution (same format, same
    // arguments): its name is already there.
    uint64_t sig = 1469598103934665603ULL ^ (uint64_t)(uintptr_t)fmt;
    int64_t args[8];
    int n = 0;
    bool same = static_storage(fmt) && capture(fmt, ap, args, 8, &n, nullptr, 0, &sig);
    if (!same || o.name_fmt != fmt || o.name_sig != sig) {
        vsnprintf(o.name, sizeof o.name, fmt, ap);
        o.name_fmt = same ? fmt : nullptr;
        o.name_sig = sig;
    }
    va_end(ap);
    o.kind = kind;
    o.alloc_event = -1;
    o.free_event = -1;
    o.freed = false;
    o.rcu_pending = false;
    return id;
}

const char* object_name(int obj) {
    ExecRecord* rec = g_runtime.rec;
    if (!rec || obj < 0 || obj >= rec->nobjects) return "?";
    return rec->objects[obj].name;
}

void cover_slow(const char* step) {
    Runtime& r = g_runtime;
    // Look for the pointer first and compare text only for a new pointer
    // (the same literal in another file). The hint remembers the entry.
    Runtime::CoverHint& hint = r.coverage_hint[((uintptr_t)step * 0x9E3779B97F4A7C15ULL) >> 54];
    auto found = [&](int i) {
        hint.step = step;
        hint.entry = r.coverage[i];
        hint.idx = (int16_t)i;
    };
    for (int i = 0; i < r.ncoverage; i++)
        if (r.coverage[i] == step) return found(i);
    for (int i = 0; i < r.ncoverage; i++)
        if (std::strcmp(r.coverage[i], step) == 0) return found(i);
    if (r.ncoverage < kMaxCoverage) {
        r.coverage[r.ncoverage++] = step;
        found(r.ncoverage - 1);
    }
}

void violate(int thread, const char* invariant, const int* conflicts, int nconflicts,
             const char* fmt, ...) {
    Runtime& r = g_runtime;
    if (r.pruned) return;
    if (r.inv_enabled && !r.inv_enabled(invariant)) {
        bool known = false;
        for (int i = 0; i < r.nunjudged; i++) known |= std::strcmp(r.unjudged[i], invariant) == 0;
        if (!known && r.nunjudged < 4) r.unjudged[r.nunjudged++] = invariant;
        return;
    }
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
    Runtime& r = g_runtime;
    for (int i = 0; i < r.norder; i++)
        if (!r.order_done[i] && r.order[i].before_thread == thread &&
            step_matches(r.order[i].before_step, step))
            r.order_done[i] = true;
}

bool order_may_start(int thread, const char* step) {
    Runtime& r = g_runtime;
    for (int i = 0; i < r.norder; i++)
        if (!r.order_done[i] && r.order[i].after_thread == thread &&
            step_matches(r.order[i].after_step, step))
            return false;
    return true;
}

void wait_begin(int thread, const char* what, int obj, bool sleeping, bool order) {
    Runtime& r = g_runtime;
    r.tstate[thread] = TState::Waiting;
    r.wait_what[thread] = what;
    r.wait_obj[thread] = obj;
    r.wait_sleeping[thread] = sleeping;
    r.wait_order[thread] = order;
    r.wait_cond_true[thread] = false;
}

void wait_end(int thread) {
    Runtime& r = g_runtime;
    r.tstate[thread] = TState::Running;
    r.wait_what[thread] = nullptr;
    r.wait_order[thread] = false;
    r.wait_sleeping[thread] = false;
}

}  // namespace vfsmc
