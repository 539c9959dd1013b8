// vfsmc kernel vocabulary: <linux/rwsem.h>: rw_semaphore.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/rwsem.h>
// ------------------------------------------------------------------------
struct rw_semaphore {
    kfield<int> count;  // -1 writer, n readers
    int writer = -1;
    // The wait list, in arrival order: a new reader queues behind a writer
    // that is already waiting (as the kernel's rwsem does once a writer
    // waits), so a recursive down_read with a writer in between deadlocks
    // here as it can in the kernel.
    unsigned arrivals = 0;
    unsigned writer_ticket[kMaxThreads] = {};  // 0: not waiting
    rw_semaphore(const kobj* o, const char* name) : count(o, name, 0) {}
    int peek() const { return count.peek(); }
};
void down_read(rw_semaphore& s, SrcLoc at = SrcLoc());
void up_read(rw_semaphore& s, SrcLoc at = SrcLoc());
void down_write(rw_semaphore& s, SrcLoc at = SrcLoc());
void up_write(rw_semaphore& s, SrcLoc at = SrcLoc());
// inode_lock / inode_lock_shared spell these for an inode's i_rwsem.

}  // namespace vfsmc
