// vfsmc kernel-vocabulary layer: the layer's own state in one execution,
// shared by the files of the out-of-line primitives (kernel.cpp,
// rcupdate.cpp). Not for models.
#pragma once

#include "kernel/kernel.h"

namespace vfsmc {

constexpr int kMaxPendingFrees = 64;  // call_rcu_free()s waiting for a grace period

// Per-execution layer state.
struct LayerState {
    Heap heap;
    bool freeable[kMaxObjects] = {};  // allocated by kalloc() in this execution
    // Per freeable object and thread: the last plain access (its clock tick,
    // event, field and kind), for kfree_id's happens-before check.
    struct PlainAccess {
        uint64_t stamp;
        int ev;
        const char* field;
        bool store;
    };
    PlainAccess plain[kMaxObjects][kMaxThreads];
    bool setup = false;
    bool plain_steps = false;  // plain accesses are scheduling points (plain_accesses_interleave())
    int setup_objects = 0;  // objects the setup made (made_at_setup)
    // Per RCU domain (0: RCU, 1..kMaxSrcu: the srcu_structs) and thread.
    int rcu_nest[kRcuDomains][kMaxThreads] = {};
    int rcu_down[kRcuDomains][kMaxThreads] = {};  // of rcu_nest: opened by srcu_down_read, not yet upped
    unsigned read_fences[kMaxThreads] = {};
    int rcu_gen[kRcuDomains][kMaxThreads] = {};   // bumped when a thread leaves its outermost section
    // The promises (by index) that the releases into each reader's
    // grace-period word left open, for the grace periods that acquire it
    // (sim::deferred_load_order).
    uint32_t gp_open_promises[kRcuDomains][kMaxThreads] = {};
    // An SRCU domain's srcu_read_lock() sections, each in a slot of its
    // thread's (bit k: slot k is open), and each slot's generation (bumped
    // when its section ends): a grace period waits for the sections open
    // when it starts, not for sections that overlap them later.
    static constexpr int kSrcuSlots = 8;
    unsigned srcu_open[kRcuDomains][kMaxThreads] = {};
    int srcu_slot_gen[kRcuDomains][kMaxThreads][kSrcuSlots] = {};
    int srcu_slot_opened[kRcuDomains][kMaxThreads][kSrcuSlots] = {};  // when it opened (srcu_opens)
    int srcu_opens = 0;
    struct Pending {
        int id;
        int readers;  // bitmask of threads still inside a pre-existing read section
        int waited;   // the threads whose sections it waited for
    };
    Pending pending[kMaxPendingFrees];
    int npending = 0;
    RealCond real[kMaxThreads];   // what each parked thread really waits for
    bool special_barriers = false;         // the program uses them (use_special_barriers())
    bool no_sections[kRcuDomains] = {};    // no thread enters a section of the domain (rcu_domain_without_readers())
    bool gp_end_split = false;             // a grace period's end and its full barrier are two steps (rcu_grace_period_end_split())
    bool before_atomic[kMaxThreads] = {};  // smp_mb__before_atomic waits for the next atomic RMW
    sim::FenceMark before_atomic_at[kMaxThreads];  // ... with the thread's state at the barrier
    // The thread's state at its latest atomic RMW, spinlock taken, and SRCU read-side section left (unset: none yet): the before
    // side of a later smp_mb__after_atomic, __after_spinlock and
    // __after_srcu_read_unlock (sim::fence_since()).
    sim::FenceMark after_atomic[kMaxThreads];
    sim::FenceMark after_lock[kMaxThreads];
    sim::FenceMark after_srcu_unlock[kMaxThreads];
    // The thread's state right before its latest spinlock release, and the
    // before side of a later smp_mb__after_unlock_lock() (note_spinlock_op()).
    sim::FenceMark before_unlock[kMaxThreads];
    sim::FenceMark after_unlock_lock[kMaxThreads];
    // The grace-period words (see gp_rmw below), one per domain and reader:
    // Relacy atomics, constructed and destroyed inside each execution (an
    // SRCU domain's by init_srcu_struct).
    alignas(sim::atomic<int>) unsigned char gp_mem[kRcuDomains][kMaxThreads][sizeof(sim::atomic<int>)];
    sim::atomic<int>* gp[kRcuDomains][kMaxThreads] = {};
};
extern LayerState g_ls;

}  // namespace vfsmc
