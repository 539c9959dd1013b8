// vfsmc: the record of one execution, as the kernel-vocabulary layer names it.
//
// This header has no Relacy in it. The layer (checker/kernel.h) writes these
// records while an execution runs; the engine copies them out when the
// execution is the counterexample; the report renders them. Everything here
// is plain data in fixed-size arrays, because nothing may be allocated from
// inside a simulated thread (Relacy replaces operator new there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace vfsmc {

constexpr int kMaxThreads = 4;
constexpr int kMaxEvents = 4096;
constexpr int kMaxObjects = 256;
constexpr int kMaxFuncDepth = 16;
constexpr int kTextLen = 112;
constexpr int kNameLen = 48;
constexpr int kLazyArgs = 6;   // arguments of a narrative kept for formatting later

// What one event is. Reads and writes of shared state carry a value and, for
// reads, the write they read from.
enum class Ev : uint8_t {
    Enter,      // a kernel function is entered (for the trace and coverage)
    Step,       // a named model step, with a narrative ("dentry "foo"#2 -> main hash")
    Read,       // a load of a shared field
    Write,      // a store to a shared field
    Rmw,        // an atomic read-modify-write (cmpxchg, inc, dec_and_test ...)
    Lock,       // a lock acquired
    Unlock,     // a lock released
    Wait,       // a thread starts to sleep/spin on a condition
    Wake,       // a wake_up
    Fence,      // smp_mb / smp_rmb / smp_wmb
    Alloc,      // a model object is allocated
    Free,       // a model object is freed
    Violation,  // an invariant broke here
};

const char* ev_name(Ev e);

struct Event {
    Ev kind;
    uint8_t thread;        // index into the scenario's threads
    uint8_t marked;        // 1 for READ_ONCE/atomics/acquire..., 0 for a plain access
    uint8_t stale;         // a read that did not see the latest write in modification order
    uint8_t ref;           // the values are object ids (a pointer field): print names, -1 = NULL
    int16_t obj;           // object id (see ObjInfo), -1 for none
    const char* func;      // innermost kernel function of the thread (static string)
    const char* action;    // what was done: "READ_ONCE", "spin_lock", "d_rehash", ...
    const char* field;     // field of obj, or nullptr
    const char* order;     // memory order used ("relaxed", "acquire", "seq_cst" ...) or nullptr
    int64_t before;        // value before (writes, rmw) / value read (reads)
    int64_t after;         // value after (writes, rmw)
    int32_t rf;            // reads: index of the event it read from; -1 = initial value
    int32_t latest;        // stale reads: index of the latest write; -1 = initial value
    // The narrative. With `fmt` null, `text` is it. Otherwise it is not
    // formatted yet: `fmt` (static storage) with its arguments in `args`,
    // the strings among them copied into `text` (an argument is their
    // offset there). format_text() formats it; copying an ExecRecord does.
    const char* fmt;
    int64_t args[kLazyArgs];
    char text[kTextLen];
};

// Formats a lazy narrative into e.text (runtime.cpp).
void format_text(Event& e);

struct ObjInfo {
    char name[kNameLen];   // "dentry \"foo\"#2", "dir", "cdev#1"
    const char* name_fmt;  // the format and a hash of the arguments `name` was made from: an object
    uint64_t name_sig;     // registered alike in the next execution keeps its name unformatted
    const char* kind;      // "dentry", "cdev", "mount", ... (used for <kind>-use-after-free)
    int alloc_event;       // -1 when part of the initial state
    int free_event;        // -1 while alive
    bool freed;
    bool rcu_pending;      // call_rcu() issued, grace period not over
};

struct Violation {
    bool set = false;
    const char* invariant = nullptr;  // stable name, from checker/invariants.h
    char message[256] = {0};
    int event = -1;                   // the event at which it was detected
    int conflict[4] = {-1, -1, -1, -1}; // earlier events that conflict with it
};

// One execution's record. The layer writes it; it is reset when an execution
// starts. A copy (the counterexample, the sample an engine keeps) holds the
// events and objects in use, with every narrative formatted.
struct ExecRecord {
    int nevents = 0;
    bool truncated = false;
    Event events[kMaxEvents];
    int nobjects = 0;
    ObjInfo objects[kMaxObjects];
    Violation violation;
    ExecRecord() = default;
    ExecRecord(const ExecRecord& o) { *this = o; }
    ExecRecord& operator=(const ExecRecord& o) {
        if (this == &o) return *this;
        nevents = o.nevents;
        truncated = o.truncated;
        std::copy(o.events, o.events + std::max(0, std::min(nevents, kMaxEvents)), events);
        nobjects = o.nobjects;
        std::copy(o.objects, o.objects + std::max(0, std::min(nobjects, kMaxObjects)), objects);
        violation = o.violation;
        for (int i = 0; i < nevents && i < kMaxEvents; i++) format_text(events[i]);
        return *this;
    }
    void reset() {
        nevents = 0;
        truncated = false;
        nobjects = 0;
        violation = Violation();
    }
};

}  // namespace vfsmc
