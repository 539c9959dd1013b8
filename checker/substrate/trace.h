// vfsmc: the record of one execution, as the kernel-vocabulary layer names it.
//
// This header has no Relacy in it. The layer (checker/kernel/) writes these
// records while an execution runs; the engine copies them out when the
// execution is the counterexample; the report renders them. Everything here
// is plain data in fixed-size arrays, because nothing may be allocated from
// inside a simulated thread (Relacy replaces operator new there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace vfsmc {

// The engine's capacity. A scenario has at most kMaxScenarioThreads
// threads (contract/model.h); a litmus test up to kMaxThreads.
constexpr int kMaxThreads = 8;
constexpr int kMaxScenarioThreads = 4;
// SRCU domains (srcu_structs) besides RCU: kernel/rcupdate.h.
constexpr int kMaxSrcu = 4;
constexpr int kRcuDomains = 1 + kMaxSrcu;
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
    Read,       // a load of a shared field (also a conditional RMW that did not write: a failed trylock, cmpxchg)
    Write,      // a store to a shared field
    Rmw,        // an atomic read-modify-write (cmpxchg, inc, dec_and_test ...)
    Lock,       // rcu_read_lock (an outermost read section begins); see Sync for every lock
    Unlock,     // rcu_read_unlock (an outermost read section ends)
    Wait,       // a thread starts to sleep/spin on a condition
    Wake,       // a wake_up
    Fence,      // smp_mb / smp_rmb / smp_wmb
    Alloc,      // a model object is allocated
    Free,       // a model object is freed
    Violation,  // an invariant broke here
};

const char* ev_name(Ev e);

// What the word an access touches is, as the layer declares it by type when
// the field is built (kfield::pointer, refcount_t, lockref ...): how its
// values print, and whether they count references.
enum class Word : uint8_t {
    Number,    // a plain integer
    Pointer,   // object ids (a kernel pointer): printed by name, -1 is NULL
    Refcount,  // a reference count (refcount_t, kref, an atomic_t or counter declared with counts_refs())
    Lockref,   // a lockref word: count * 2 + locked; a reference count and a spinlock in one
};
inline bool counts_refs(Word w) { return w == Word::Refcount || w == Word::Lockref; }
// The reference count a value of a counting word stands for.
inline int64_t ref_count_of(Word w, int64_t v) { return w == Word::Lockref ? (v >> 1) : v; }

// What an event does to a lock or a reference count, beyond its memory
// access. Set by the layer from the primitive, never from a name.
enum class Sync : uint8_t {
    None,
    Acquire,    // a lock was taken (a failed trylock is a Read with Sync::None)
    Release,    // a lock was released
    RefChange,  // a write that changed a reference count (before/after are the raw word values)
};

// Which lock an Acquire/Release is: the lock word is the event's obj.field,
// except for RCU, which has no word.
enum class LockClass : uint8_t { None, Spinlock, Mutex, RwsemShared, RwsemExclusive, Lockref, Rcu };
const char* lock_class_name(LockClass c);

struct Event {
    Ev kind;
    uint8_t thread;        // index into the scenario's threads
    uint8_t marked;        // 1 for READ_ONCE/atomics/acquire..., 0 for a plain access
    uint8_t stale;         // a read that did not see the latest write in modification order
    Word word;             // what the field's values are (read, write, rmw)
    Sync sync;             // lock acquire/release, refcount change
    LockClass lock;        // for Sync::Acquire/Release: which kind of lock
    int16_t obj;           // object id (see ObjInfo), -1 for none
    const char* step;      // the innermost KFUNC or kstep name (static string): what `order` and coverage name
    const char* func;      // the kernel function it is shown under: `step`, or for a kstep point, its function part
    const char* point;     // a kstep's named point inside func ("publish" of "d_alloc_parallel:publish"), or nullptr
    const char* action;    // what was done: "READ_ONCE", "spin_lock", "d_rehash", ...
    const char* field;     // field of obj, or nullptr
    const char* order;     // memory order used ("relaxed", "acquire", "seq_cst" ...) or nullptr
    int64_t before;        // value before (writes, rmw) / value read (reads)
    int64_t after;         // value after (writes, rmw)
    int32_t rf;            // reads: index of the event it read from; -1 = initial value
    int32_t latest;        // stale reads: index of the latest write; -1 = initial value
    // Where the model made the call that logged it (the file as compiled,
    // absolute; reports show it relative to the source tree), or null.
    const char* src_file;
    int32_t src_line;
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
