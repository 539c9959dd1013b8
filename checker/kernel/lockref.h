// vfsmc kernel vocabulary: <linux/lockref.h>: {spinlock, count} in one word.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/lockref.h>: {spinlock, count} in one word, value = count*2 + locked.
// The lock is the object's spinlock (d_lock for a dentry).
// ------------------------------------------------------------------------
struct lockref {
    kfield<int> lock_count;
    int holder = -1;
    const char* underflow_inv;  // e.g. dentry-ref-underflow
    const char* revive_inv;     // e.g. dead-dentry-revived (lockref_get on a dead count)
    lockref(const kobj* o, const char* name, int count, const char* underflow_invariant,
            const char* revive_invariant)
        : lock_count(o, name, count * 2), underflow_inv(underflow_invariant), revive_inv(revive_invariant) {
        lock_count.lockref_word();
    }
    int peek_count() const { return lock_count.peek() >> 1; }
    bool peek_locked() const { return lock_count.peek() & 1; }
};
constexpr int LOCKREF_DEAD = -128;
void lockref_lock(lockref& l, SrcLoc at = SrcLoc());     // spin_lock(&lockref->lock)
void lockref_unlock(lockref& l, SrcLoc at = SrcLoc());
void lockref_get(lockref& l, SrcLoc at = SrcLoc());
bool lockref_get_not_zero(lockref& l, SrcLoc at = SrcLoc());
bool lockref_get_not_dead(lockref& l, SrcLoc at = SrcLoc());
int lockref_put_return(lockref& l, SrcLoc at = SrcLoc());          // -1 when the fast path cannot
bool lockref_put_or_lock(lockref& l, SrcLoc at = SrcLoc());        // false: returns with the lock held, count <= 1
void lockref_mark_dead(lockref& l, SrcLoc at = SrcLoc());          // lock held
bool lockref_is_dead_locked(lockref& l, SrcLoc at = SrcLoc());     // lock held
int lockref_count_locked(lockref& l, SrcLoc at = SrcLoc());        // lock held: the count
void lockref_set_count_locked(lockref& l, int count, SrcLoc at = SrcLoc());  // lock held: count++ / count-- as in dget_dlock

}  // namespace vfsmc
