// lkmm: the events of a herd7 C litmus test and one candidate execution
// over them, as linux-kernel.bell, linux-kernel.def and lock.cat name them.
//
// A thread's run (threads.cpp) is the list of events one path through its
// body performs, given the values its reads return, with the dependencies
// between them. A candidate execution (oracle.cpp) picks one run per thread
// and adds rf and co; the model (model.cpp) then judges it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lkmm/relation.h"

namespace vfsmc {
namespace lkmm {

// What an event is. R and W are memory accesses (`M`); lock.cat's lock
// events are reads (LKR, LF, RU) and writes (LKW, UL) of the lock's word;
// srcu_read_lock() is a read and srcu_read_unlock() a write of the
// srcu_struct (linux-kernel.def); a fence and synchronize_srcu() are not
// accesses (synchronize_srcu() has a location, for the `& loc` of rcu-order).
enum class Kind : uint8_t { R, W, F, SyncSrcu };

enum class LockOp : uint8_t { None, LKR, LKW, UL, LF, RU };

// The annotations of linux-kernel.bell's `Accesses` and `Barriers` enums,
// as written by the .def file (the syntactic tags, before the bell filters
// them: Acquire on a store, Mb on a failed RMW).
enum Tag : uint32_t {
    ONCE = 1u << 0, ACQUIRE = 1u << 1, RELEASE = 1u << 2, MB = 1u << 3, NORETURN = 1u << 4,
    RMW = 1u << 5,          // an event of an RMW instruction, successful or not
    SRCU_LOCK = 1u << 6, SRCU_UNLOCK = 1u << 7,
    // fences
    F_RMB = 1u << 8, F_WMB = 1u << 9, F_BARRIER = 1u << 10, F_RCU_LOCK = 1u << 11, F_RCU_UNLOCK = 1u << 12,
    F_SYNC_RCU = 1u << 13, F_BEFORE_ATOMIC = 1u << 14, F_AFTER_ATOMIC = 1u << 15, F_AFTER_SPINLOCK = 1u << 16,
    F_AFTER_UNLOCK_LOCK = 1u << 17, F_AFTER_SRCU_READ_UNLOCK = 1u << 18,
    // smp_mb() is F with MB
};

struct Event {
    Kind kind = Kind::F;
    LockOp lock = LockOp::None;
    uint32_t tags = 0;
    int thread = -1;        // -1: an initial write
    int loc = -1;           // the location (variable index), -1 for a fence
    long value = 0;         // read or written
    int line = 0;           // source line
    std::string what;       // the primitive, for traces
};

// One path through one thread's body.
struct Run {
    std::vector<Event> events;                     // in program order
    std::vector<std::pair<int, int>> addr, data, ctrl, rmw;  // local indices
    std::vector<long> regs;                        // the final register values
    bool valid = true;                             // false: the path dereferenced a non-location
};

// A candidate execution: the initial writes (one per location, events
// 0..nlocs-1), then each thread's events; rf and co over them.
struct Execution {
    int n = 0;
    int nlocs = 0;
    std::vector<Event> ev;
    std::vector<int> pos;           // index in its thread's program order
    Rel addr, data, ctrl, rmw;      // rmw: the instructions' pairs (lock.cat adds lk-rmw)
    Rel rf, co;                     // as lock.cat finally defines them (UL in co, LKR in rf)
};

}  // namespace lkmm
}  // namespace vfsmc
