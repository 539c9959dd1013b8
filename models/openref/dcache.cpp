// openref model, fs/dcache.c (6.8+ layout): dget, retain_dentry, fast_dput,
// dput, lock_for_kill, __d_drop, dentry_unlink_inode, __dentry_kill (reduced
// as reference B2 says), d_delete, __d_lookup and __d_lookup_rcu. See
// openref.h for what the model follows and leaves out (here: d_seq's
// marked accesses, lock_for_kill's unreached i_lock retry).

#include "openref.h"

namespace vfsmc {
namespace openref {

void OpenrefRun::dget(Dentry* d) {
    KFUNC("dget");
    lockref_get(d->d_lockref);
    lockref_updated();
}

// retain_dentry(): should a dentry whose count reached 0 stay cached?
// Unlocked, the answer holds only "at some point after we dropped the
// reference"; that is enough because a cached dentry at 0 stays valid.
bool OpenrefRun::retain_dentry(Dentry* d, bool locked) {
    KFUNC("retain_dentry");
    smp_rmb();
    int flags = READ_ONCE(d->d_flags);
    if (!MUTATION("retain-dentry-no-unhashed-test") && !READ_ONCE(d->d_hash)) return false;  // d_unhashed: nobody can find it
    // DISCONNECTED, OP_DELETE, DONTCACHE: not set on "f".
    if (!(flags & DCACHE_LRU_LIST)) {
        if (!locked) return false;
        WRITE_ONCE(d->d_flags, flags | DCACHE_LRU_LIST);  // d_lru_add
    } else if (!(flags & DCACHE_REFERENCED)) {
        if (!locked) return false;
        WRITE_ONCE(d->d_flags, flags | DCACHE_REFERENCED);
    }
    return true;
}

// fast_dput(): true when the put is done; false with d_lock held and
// the count at 0 on a dentry that must be killed.
bool OpenrefRun::fast_dput(Dentry* d) {
    KFUNC("fast_dput");
    int ret = lockref_put_return(d->d_lockref);
    if (ret < 0) {
        // The lockless put could not run: the lock is held, or the
        // count is <= 0.
        lockref_lock(d->d_lockref);  // spin_lock(&dentry->d_lock)
        int c = lockref_count_locked(d->d_lockref);
        if (c <= 0) {
            // WARN_ON_ONCE(dentry->d_lockref.count <= 0): the put is ignored.
            violate(this_thread(), "dentry-ref-underflow", nullptr, 0, "%s puts %s whose d_lockref.count is already %d%s",
                    thread_name(this_thread()), d->name(), c, c == LOCKREF_DEAD ? " (dead: a put after __dentry_kill)" : "");
            lockref_unlock(d->d_lockref);
            return true;
        }
        lockref_set_count_locked(d->d_lockref, c - 1);
        lockref_updated();
    } else {
        lockref_updated();
        if (ret) return true;
        if (retain_dentry(d, false)) return true;
        lockref_lock(d->d_lockref);
    }
    // locked: somebody may have taken a reference meanwhile, or made it
    // worth keeping; only then is the count stable (every lockless
    // update fails while d_lock is held).
    if ((!MUTATION("fast-dput-no-locked-recheck") && lockref_count_locked(d->d_lockref)) || retain_dentry(d, true)) {
        lockref_unlock(d->d_lockref);
        return true;
    }
    return false;
}

void OpenrefRun::dput(Dentry* d) {
    KFUNC("dput");
    if (!d) return;
    rcu_read_lock();
    if (fast_dput(d)) {
        rcu_read_unlock();
        return;
    }
    while (lock_for_kill(d)) {
        rcu_read_unlock();
        dentry_kill_(d);
        // __dentry_kill returns the parent if its count dropped to 0:
        // the parent is not modelled.
        return;
    }
    rcu_read_unlock();
    lockref_unlock(d->d_lockref);
}

// lock_for_kill(): d_lock held and count 0. Take inode->i_lock too; if
// that needs d_lock dropped, recheck that the count is still 0.
bool OpenrefRun::lock_for_kill(Dentry* d) {
    KFUNC("lock_for_kill");
    int in = plain_load(d->d_inode);
    if (lockref_count_locked(d->d_lockref)) return false;
    if (in == NONE || spin_trylock(inode->i_lock)) return true;
    do {
        lockref_unlock(d->d_lockref);
        spin_lock(inode->i_lock);
        lockref_lock(d->d_lockref);
        if (in == plain_load(d->d_inode)) break;
        spin_unlock(inode->i_lock);
        in = plain_load(d->d_inode);
    } while (in != NONE);
    if (!lockref_count_locked(d->d_lockref)) return true;
    kstep("lock_for_kill:revived", d->id, "%s got a reference while d_lock was dropped: not killed", d->name());
    if (in != NONE) spin_unlock(inode->i_lock);
    return false;
}

// __d_drop(): unhash, and invalidate d_seq so that RCU walkers that
// found the dentry fail their seqcount check.
void OpenrefRun::d_drop_(Dentry* d) {
    KFUNC("__d_drop");
    if (!plain_load(d->d_hash)) return;
    bit_spin_lock(bucket->lock);  // hlist_bl_lock(b)
    WRITE_ONCE(bucket->first, NONE);  // hlist_bl_del_rcu: new walkers miss it
    dver_unhashed = dver++;           // ghost, in the step of the store it counts
    bit_spin_unlock(bucket->lock);
    WRITE_ONCE(d->d_hash, 0);  // dentry->d_hash.pprev = NULL
    write_seqcount_invalidate(d->d_seq);
    kstep("__d_drop:unhashed", d->id, "%s unhashed, d_seq invalidated", d->name());
}

// dentry_unlink_inode(): d_lock and i_lock held; releases both.
void OpenrefRun::dentry_unlink_inode(Dentry* d) {
    KFUNC("dentry_unlink_inode");
    write_seqcount_begin(d->d_seq);  // raw_write_seqcount_begin
    WRITE_ONCE(d->d_inode, NONE);    // __d_clear_type_and_inode
    dver++;                          // ghost, in the step of the store it counts
    write_seqcount_end(d->d_seq);
    lockref_unlock(d->d_lockref);
    spin_unlock(inode->i_lock);
    iput(inode);
}

// __dentry_kill(), reduced (reference B2).
void OpenrefRun::dentry_kill_(Dentry* d) {
    KFUNC("__dentry_kill");
    // The dentry is now unrecoverably dead to the world: every
    // lockref_get_not_dead fails from here on.
    if (!MUTATION("dentry-kill-no-mark-dead")) lockref_mark_dead(d->d_lockref);
    dver++;
    int flags = plain_load(d->d_flags);
    if (flags & DCACHE_LRU_LIST) WRITE_ONCE(d->d_flags, flags & ~DCACHE_LRU_LIST);  // d_lru_del
    d_drop_(d);
    if (plain_load(d->d_inode) != NONE) dentry_unlink_inode(d);
    else lockref_unlock(d->d_lockref);
    // d_release: none. The parent's d_lock and count: not modelled.
    lockref_lock(d->d_lockref);
    // dentry_unlist: no children. Not on a shrink list: free it.
    lockref_unlock(d->d_lockref);
    kstep("__dentry_kill:free", d->id, "%s is dead; dentry_free after a grace period", d->name());
    call_rcu_free(d->id);  // dentry_free: call_rcu(&dentry->d_u.d_rcu, __d_free)
}

// d_delete(): unlink's dcache side. The only user turns it negative in
// place; otherwise it is unhashed and killed by its last dput.
void OpenrefRun::d_delete(Dentry* d) {
    KFUNC("d_delete");
    spin_lock(inode->i_lock);
    lockref_lock(d->d_lockref);
    if (lockref_count_locked(d->d_lockref) == 1) {
        kstep("d_delete:negative", d->id, "%s: the unlinker is the only user; it turns negative in place", d->name());
        dentry_unlink_inode(d);
    } else {
        d_drop_(d);
        lockref_unlock(d->d_lockref);
        spin_unlock(inode->i_lock);
    }
}

// __d_lookup(): ref-walk lookup of "f" in the hash, dget_dlock'ed.
Dentry* OpenrefRun::d_lookup_() {
    KFUNC("__d_lookup");
    rcu_read_lock();
    Dentry* found = nullptr;
    Dentry* d = D(READ_ONCE(bucket->first));  // hlist_bl_for_each_entry_rcu
    if (d) {
        lockref_lock(d->d_lockref);
        if (MUTATION("d-lookup-no-unhashed-test") || plain_load(d->d_hash)) {  // !d_unhashed: unhashed (and dead) ones are skipped
            // dget_dlock: count++ under d_lock.
            lockref_set_count_locked(d->d_lockref, lockref_count_locked(d->d_lockref) + 1);
            lockref_updated();
            found = d;
        }
        lockref_unlock(d->d_lockref);
    }
    rcu_read_unlock();
    return found;
}

// __d_lookup_rcu(): no reference; the d_seq sample validates it later.
Dentry* OpenrefRun::d_lookup_rcu_(unsigned* seqp) {
    KFUNC("__d_lookup_rcu");
    Dentry* d = D(READ_ONCE(bucket->first));
    if (!d) return nullptr;
    // Ghost: the version the walk is looking at. A chain read that
    // returned "f" after it left the chain sees it as it was before. It is
    // sampled in the chain read's step: the search orders steps, and a
    // sample taken in the d_seq read's step could follow an unhash that
    // the chain read preceded.
    bool chain_stale = bucket->first.peek() != d->id;
    th[this_thread()].dver_sample = chain_stale ? dver_unhashed : dver;
    unsigned seq = raw_read_seqcount(d->d_seq) & ~1u;  // raw_seqcount_begin
    // d_unhashed() after the name match: a chain read may still return
    // a dentry __d_drop took off the chain; if the d_seq sample is the
    // invalidated one, only this test (ordered by __d_drop's smp_wmb
    // and the sample's acquire) keeps the walk off it.
    if (!MUTATION("d-lookup-rcu-no-unhashed-test") && !READ_ONCE(d->d_hash)) return nullptr;
    *seqp = seq;
    return d;
}

}  // namespace openref
}  // namespace vfsmc
