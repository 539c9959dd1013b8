// vfsmc kernel-vocabulary layer: the umbrella header.
//
// The only header a model includes. The kernel primitives the models are
// written in are defined once, one header per kernel header they mirror
// (below): <linux/compiler.h>, <asm/barrier.h>, <linux/atomic.h>,
// <linux/refcount.h>, <linux/spinlock.h> with <linux/bit_spinlock.h> and
// <linux/mutex.h>, <linux/rwsem.h>, <linux/seqlock.h>, <linux/lockref.h>,
// <linux/rcupdate.h>, <linux/wait.h>, <linux/slab.h>, over what they share
// (memory_model.h, core.h, kfield.h). They are written over the simulation
// shim substrate/sim.h and never spell `rl::`: only checker/search/ does.
// The out-of-line primitives are in kernel.cpp.
//
// Every primitive is one step of the execution: it has exactly one scheduling
// point (before it), runs atomically after it, and names itself in the trace
// through the one hook, log_event() (substrate/runtime.h). A plain access is
// part of the step before it; kfree() checks that every other thread's plain
// access to the object happens before the free (kfree_id: the free-time plain-access check),
// so the step a plain access shares cannot hide a use after free (slab.h).
// The memory order of each primitive comes from kMemoryModelTable
// (memory_model.h), for the scenario's memory model (`sc` or `kernel`);
// docs/memory-model.md is generated from that table.
//
// Shared state lives in kfield<T> (kfield.h): a word that records which
// write every read saw, whether that write was the latest in modification
// order, and, for plain (unmarked) accesses, LKMM data races. Every access
// also tells the explorer which location it touched (substrate/deps.h), for
// DPOR.
//
// Blocking is not spinning (core.h): a thread whose wait condition is false
// parks until another thread writes a location the condition read, and only
// then evaluates it again; a kernel retry loop whose pass read nothing new
// and changed nothing parks the same way (retry_loop). Deadlocks (every live
// thread parked) and lost wakeups (a sleeper whose real condition holds) are
// detected and named by the layer, not by Relacy.
//
// Include this header last: Relacy's macros are undefined again at the end
// of substrate/sim.h, but Relacy itself must come after the standard headers.
#pragma once

// The kernel headers it mirrors, one file each (checker/kernel/):
#include "kernel/memory_model.h"  // the order of each kind of access, per memory model
#include "kernel/core.h"          // threads, scheduling points, blocking waits, KFUNC, kstep, KWARN_ON
#include "kernel/slab.h"          // <linux/slab.h>: kobj, kalloc, kfree
#include "kernel/kfield.h"        // kfield<T>: one word of shared state
#include "kernel/compiler.h"      // <linux/compiler.h>: READ_ONCE, WRITE_ONCE, plain accesses
#include "kernel/barrier.h"       // <asm/barrier.h>: smp_load_acquire, smp_mb ...
#include "kernel/atomic.h"        // <linux/atomic.h>
#include "kernel/refcount.h"      // <linux/refcount.h>
#include "kernel/spinlock.h"      // <linux/spinlock.h>, <linux/bit_spinlock.h>, <linux/mutex.h>
#include "kernel/rwsem.h"         // <linux/rwsem.h>
#include "kernel/seqlock.h"       // <linux/seqlock.h>
#include "kernel/lockref.h"       // <linux/lockref.h>
#include "kernel/rcupdate.h"      // <linux/rcupdate.h>
#include "kernel/wait.h"          // <linux/wait.h>
#include "contract/invariants.h"
#include "contract/mutations.h"
