// vfsmc kernel vocabulary: <linux/spinlock.h>, <linux/bit_spinlock.h>, <linux/mutex.h>.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/spinlock.h>, <linux/bit_spinlock.h>, <linux/mutex.h>
// ------------------------------------------------------------------------
// The lock word: 0 free, >0 readers (rwsem), -1 held exclusive.
struct spinlock_t {
    kfield<int> word;
    int holder = -1;  // for lock-misuse and the deadlock message
    spinlock_t(const kobj* o, const char* name) : word(o, name, 0) {}
    bool peek_locked() const { return word.peek() != 0; }
};
void spin_lock(spinlock_t& l, SrcLoc at = SrcLoc());
void spin_unlock(spinlock_t& l, SrcLoc at = SrcLoc());
bool spin_trylock(spinlock_t& l, SrcLoc at = SrcLoc());
// A read of the lock word (no ordering, like READ_ONCE).
bool spin_is_locked(spinlock_t& l, SrcLoc at = SrcLoc());
// A bit spinlock (hlist_bl bucket lock): the same protocol on its own word.
using bit_spinlock_t = spinlock_t;
inline void bit_spin_lock(bit_spinlock_t& l, SrcLoc at = SrcLoc()) { here(at); spin_lock(l); }
inline void bit_spin_unlock(bit_spinlock_t& l, SrcLoc at = SrcLoc()) { here(at); spin_unlock(l); }
// A sleeping mutex: same exclusion; the wait is a sleep.
using mutex = spinlock_t;
void mutex_lock(mutex& m, SrcLoc at = SrcLoc());
void mutex_unlock(mutex& m, SrcLoc at = SrcLoc());

}  // namespace vfsmc
