// dcache model, fs/dcache.c: the dcache side of the in-lookup protocol.
//
// Follows fs/dcache.c, mainline v6.17..v7.0 ("wq variant": d_alloc_parallel
// (parent, name, wq), the owner's wait queue in ->d_wait, the wake inside
// end_dir_add(), DCACHE_PAR_LOOKUP set before the dentry is visible,
// e95db51c81f5), as ../shared/reference/dcache-in-lookup.md sections 1-5
// paraphrase it: __d_alloc (d_alloc), __d_lookup_rcu, d_lookup/__d_lookup,
// __d_rehash/d_rehash, __d_drop/d_drop, d_invalidate, start_dir_add,
// end_dir_add, __d_lookup_unhash, __d_lookup_unhash_wake (d_lookup_done),
// __d_set_inode_and_type, __d_add, d_add, d_splice_alias, d_instantiate,
// d_add_ci, dput/fast_dput/__dentry_kill, d_wait_lookup, d_alloc_parallel;
// and include/linux/dcache.h's d_in_lookup, d_unhashed,
// d_really_is_negative.
//
// Left out here (see dcache.h for the whole model):
// - rename_lock and d_move: d_alloc_parallel's rename_lock sample and
//   read_seqretry, d_lookup's retry loop; after d_wait_lookup only
//   d_unhashed() is re-validated (parent and name cannot change).
// - The parent's d_lock, d_children and the child's reference on its
//   parent; the inode's alias list (i_dentry) and i_lock; the LRU;
//   preempt_disable_nested() in start_dir_add.
// - __d_lookup_rcu's address dependency is an acquire load (the layer has
//   no dependencies); retain_dentry()'s lockless pre-check in fast_dput.
// - d_splice_alias's BUG_ON(!d_unhashed(dentry)) and directory aliases.
#include "dcache.h"

namespace vfsmc {
namespace dcache {

Dentry* DcacheRun::new_dentry(int name, int count, int flags, int ino, int hashed) {
    // The slot is taken first: constructing the dentry's fields has
    // scheduling points, so another thread may allocate meanwhile. The
    // checks skip a slot whose dentry is not constructed yet.
    if (ndentries >= kMaxDentries) {
        violate(this_thread(), "relacy-check", nullptr, 0, "the dcache model's table of %d dentries is full", kMaxDentries);
        prune_execution();
    }
    int gi = ndentries++;
    ghost[gi] = {nullptr, false, -1, -1};
    Dentry* d = kalloc<Dentry>(cfg.names[name], name, gi + 1, gi, count, flags, ino, hashed);
    ghost[gi].d = d;
    by_id[d->id] = d;
    return d;
}

WaitQ* DcacheRun::wq_by_id(int id) const {
    for (int t = 0; t < cfg.nthreads; t++)
        if (wq[t]->id == id) return wq[t];
    return nullptr;
}

// The trace text of __d_rehash and __d_lookup_unhash: where the step
// runs, from ghost state and peek() only (no access).
const char* DcacheRun::rehash_context(Dentry* d) const {
    if (in_dir_add[this_thread()])
        return MUTATION("no-start-dir-add") ? " without the i_dir_seq window (mutation no-start-dir-add)"
                                            : " inside the i_dir_seq window";
    if (d->d_flags.peek() & DCACHE_PAR_LOOKUP) return ", still in-lookup: no i_dir_seq window, nobody woken";
    return ", not in-lookup: no i_dir_seq window";
}

const char* DcacheRun::unhash_context(Dentry* d) const {
    if (in_dir_add[this_thread()])
        return MUTATION("no-start-dir-add") ? " without the i_dir_seq window (mutation no-start-dir-add)"
                                            : " inside the i_dir_seq window";
    // __d_lookup_unhash_wake, under d_lock: d_hash.pprev cannot change.
    return d->d_hash_pprev.peek() == 0 ? " (d_lookup_done: unhashed, i_dir_seq untouched)"
                                       : " (d_lookup_done: i_dir_seq untouched)";
}

// -----------------------------------------------------------------------
// __d_alloc + the parent linking of d_alloc_parallel.
// -----------------------------------------------------------------------
Dentry* DcacheRun::d_alloc(int name, int flags) {
    // __d_alloc: refcount 1, unhashed, negative, on no chain. The parent's
    // d_lock, d_children and the reference on the parent: not modelled.
    Dentry* d = new_dentry(name, 1, flags, -1, 0);
    ghost[d->gi].alloc_ev = last_event();  // kalloc's Alloc event, for ref-leak
    // dentry->d_name.hash_len = name->hash_len: a plain store before the
    // dentry is published; walkers that reach it need what orders it.
    plain_store(d->d_name_hash, name);
    return d;
}

// -----------------------------------------------------------------------
// Main hash (ref 4): RCU walkers, writers under the bucket bit lock and
// the dentry's d_lock.
// -----------------------------------------------------------------------
// __d_lookup_rcu: a lockless walk of the bucket; the caller validates the
// result with d_seq (a dentry unhashed under the walker fails it).
int DcacheRun::d_lookup_rcu_(int name, unsigned* dseq) {
    KFUNC("__d_lookup_rcu");
    HashBucket* b = mainb[name];
    for (int id = rcu_dereference(b->first); id >= 0; id = rcu_dereference(D(id)->d_hash_next)) {
        Dentry* d = D(id);
        unsigned seq = raw_read_seqcount(d->d_seq) & ~1u;  // raw_seqcount_begin
        if (plain_load(d->d_name_hash) != name) continue;  // d_parent, hash_len and dentry_cmp
        // d_unhashed() after the name match: a walker still on a dentry
        // __d_drop took off the chain skips it (ordered by __d_drop's
        // smp_wmb before the d_seq bump, and __d_rehash's pprev store
        // before its rcu_assign_pointer).
        if (!MUTATION("d-lookup-rcu-no-unhashed-test") && READ_ONCE(d->d_hash_pprev) == 0) continue;
        *dseq = seq;
        return id;
    }
    return -1;
}

// d_lookup -> __d_lookup: walks the bucket and takes each candidate's
// d_lock to check it is still hashed before taking a reference. The
// rename_lock retry loop of d_lookup is left out (no rename).
Dentry* DcacheRun::d_lookup(int name) {
    KFUNC("d_lookup");
    HashBucket* b = mainb[name];
    Dentry* found = nullptr;
    rcu_read_lock();
    for (int id = rcu_dereference(b->first); id >= 0; id = rcu_dereference(D(id)->d_hash_next)) {
        Dentry* d = D(id);
        if (plain_load(d->d_name_hash) != name) continue;  // dentry->d_name.hash != hash
        lockref_lock(d->d_lockref);
        // d_unhashed under d_lock: it may have been dropped since the walk found it.
        if (!MUTATION("d-lookup-no-unhashed-test") && d_unhashed(d)) {
            lockref_unlock(d->d_lockref);
            continue;
        }
        lockref_set_count_locked(d->d_lockref, lockref_count_locked(d->d_lockref) + 1);
        lockref_unlock(d->d_lockref);
        found = d;
        break;
    }
    rcu_read_unlock();
    kstep("d_lookup", found ? found->id : -1, found ? "finds %s in the main hash" : "misses: no hashed dentry for \"%s\"",
          found ? found->name() : nm(name));
    return found;
}

// __d_rehash (caller holds d_lock): hlist_bl_add_head_rcu under the bucket lock.
void DcacheRun::d_rehash_(Dentry* d) {
    KFUNC("__d_rehash");
    HashBucket* b = mainb[d->d_name];
    bit_spin_lock(b->lock);
    if (!d_unhashed(d)) {
        // hlist_bl_add_head_rcu of a node already on the chain corrupts it.
        int c[1] = {ghost[d->gi].hash_ev};
        violate(this_thread(), "one-hashed-dentry-per-name", c, 1,
                "%s is added to the main hash while already in it: the chain now holds \"%s\" twice", d->name(),
                nm(d->d_name));
        bit_spin_unlock(b->lock);
        return;
    }
    int first = plain_load(b->first);
    // n->next = first: a plain store in the kernel; marked here because a
    // walker still on this dentry from before an earlier d_drop may read
    // it (the kernel validates such a walk with d_seq, not with this load).
    WRITE_ONCE(d->d_hash_next, first);
    // n->pprev = &h->first, before the publish: a walker that finds the
    // dentry through the chain tests d_unhashed() on it.
    WRITE_ONCE(d->d_hash_pprev, 1);
    // rcu_assign_pointer(h->first, n): publishes the initialised dentry to walkers.
    smp_store_release(b->first, d->id);
    ghost[d->gi].hash_ev = kstep_ev("__d_rehash", d->id, "%s -> main hash (dentry_hashtable[\"%s\"])%s", d->name(), nm(d->d_name),
                                   rehash_context(d));
    bit_spin_unlock(b->lock);
}

// __d_drop (caller holds d_lock): ___d_drop under the bucket lock, then
// d_hash.pprev = NULL and write_seqcount_invalidate(&d_seq), so that a
// walker that sampled d_seq before the unhash fails its retry check.
void DcacheRun::d_drop_(Dentry* d) {
    KFUNC("__d_drop");
    if (d_unhashed(d)) return;
    HashBucket* b = mainb[d->d_name];
    bit_spin_lock(b->lock);
    int next = plain_load(d->d_hash_next);
    int cur = plain_load(b->first);
    if (cur == d->id) {
        WRITE_ONCE(b->first, next);  // __hlist_bl_del: WRITE_ONCE(*pprev, next)
    } else {
        while (cur >= 0) {
            Dentry* c = D(cur);
            int n = plain_load(c->d_hash_next);
            if (n == d->id) {
                WRITE_ONCE(c->d_hash_next, next);
                break;
            }
            cur = n;
        }
    }
    // The removed dentry keeps its ->next, so walkers on it go on.
    bit_spin_unlock(b->lock);
    WRITE_ONCE(d->d_hash_pprev, 0);  // lockless readers: __d_lookup_rcu
    kstep("__d_drop", d->id, "%s leaves the main hash", d->name());
    write_seqcount_invalidate(d->d_seq);
}

void DcacheRun::d_rehash(Dentry* d) {
    KFUNC("d_rehash");
    // spin_lock(d_lock); __d_rehash: the name becomes findable. Nothing
    // else: PAR_LOOKUP stays set, no i_dir_seq window, no wakeup.
    lockref_lock(d->d_lockref);
    d_rehash_(d);
    lockref_unlock(d->d_lockref);
}

void DcacheRun::d_drop(Dentry* d) {
    KFUNC("d_drop");
    lockref_lock(d->d_lockref);
    d_drop_(d);
    lockref_unlock(d->d_lockref);
}

void DcacheRun::d_invalidate(Dentry* d) {
    KFUNC("d_invalidate");
    lockref_lock(d->d_lockref);
    if (d_unhashed(d)) {
        lockref_unlock(d->d_lockref);
        return;
    }
    d_drop_(d);
    lockref_unlock(d->d_lockref);
    // Negative dentries can be dropped without further checks; a
    // positive one would have its children shrunk and submounts detached:
    // regular files here have neither.
}

// -----------------------------------------------------------------------
// i_dir_seq (ref 2.1).
// -----------------------------------------------------------------------
unsigned DcacheRun::start_dir_add(DirInode* d) {
    KFUNC("start_dir_add");
    // Spin while another adder's window is open; the cmpxchg even -> odd
    // opens ours. It is fully ordered: it happens before the in-lookup
    // bucket lock/unlock that follows, which a d_alloc_parallel that
    // takes the same lock then sees (its re-check reads odd or +2).
    unsigned n = 0;
    wait_until("start_dir_add", d->id, false, [&]() {
        n = (unsigned)READ_ONCE(d->i_dir_seq);
        if (n & 1) return false;
        return (unsigned)cmpxchg(d->i_dir_seq, (int)n, (int)n + 1) == n;
    });
    return n;
}

void DcacheRun::end_dir_add(DirInode* d, unsigned n, int wqid) {
    KFUNC("end_dir_add");
    // smp_store_release(&dir->i_dir_seq, n + 2): pairs with the
    // smp_load_acquire in d_alloc_parallel, so a reader that samples the
    // closed value also sees the dentry in the main hash.
    if (!broken(DIR_SEQ_WRITE_RELAXED)) smp_store_release(d->i_dir_seq, (int)n + 2);
    else WRITE_ONCE(d->i_dir_seq, (int)n + 2);
    // wq_has_sleeper(d_wait): smp_mb(); waitqueue_active(); wake_up_all.
    WaitQ* q = wq_by_id(wqid);
    if (!q) return;
    if (!MUTATION("end-dir-add-no-smp-mb")) smp_mb();
    if (waitqueue_active(q->wq)) wake_up_all(q->wq);
}

// -----------------------------------------------------------------------
// Leaving the in-lookup state (ref 2.1, 3).
// -----------------------------------------------------------------------
void DcacheRun::hlist_bl_del_in_lookup(HashBucket* b, Dentry* d) {
    int next = plain_load(d->d_in_lookup_next);
    int cur = plain_load(b->first);
    if (cur == d->id) {
        plain_store(b->first, next);
    } else {
        while (cur >= 0) {
            Dentry* c = D(cur);
            int n = plain_load(c->d_in_lookup_next);
            if (n == d->id) {
                plain_store(c->d_in_lookup_next, next);
                break;
            }
            cur = n;
        }
    }
}

// __d_lookup_unhash (caller holds d_lock): under the in-lookup bucket
// lock, clear PAR_LOOKUP, leave the chain, take ->d_wait.
int DcacheRun::d_lookup_unhash_(Dentry* d) {
    KFUNC("__d_lookup_unhash");
    HashBucket* b = inlb[d->d_name];
    bit_spin_lock(b->lock);
    if (!MUTATION("d-lookup-unhash-no-par-lookup-clear")) plain_store(d->d_flags, plain_load(d->d_flags) & ~DCACHE_PAR_LOOKUP);
    hlist_bl_del_in_lookup(b, d);
    int w = plain_load(d->d_wait);
    plain_store(d->d_wait, -1);
    kstep("__d_lookup_unhash", d->id, "%s leaves the in-lookup hash; PAR_LOOKUP cleared%s", d->name(), unhash_context(d));
    bit_spin_unlock(b->lock);
    return w;
}

// d_lookup_done -> __d_lookup_unhash_wake: never touches i_dir_seq or
// the main hash.
void DcacheRun::d_lookup_done(Dentry* d) {
    KFUNC("d_lookup_done");
    if (!d_in_lookup(d)) return;
    lockref_lock(d->d_lockref);
    int w = d_lookup_unhash_(d);
    WaitQ* q = wq_by_id(w);
    if (q && !broken(D_LOOKUP_DONE_NO_WAKE)) wake_up_all(q->wq);
    lockref_unlock(d->d_lockref);
}

// -----------------------------------------------------------------------
// Publishing (ref 2.2-2.4, 5).
// -----------------------------------------------------------------------
void DcacheRun::d_set_inode_and_type_(Dentry* d, int ino) {
    // raw_write_seqcount_begin(&d_seq); __d_set_inode_and_type; end: lockless
    // readers see a consistent inode and type or retry.
    write_seqcount_begin(d->d_seq);
    plain_store(d->d_inode, ino);
    write_seqcount_end(d->d_seq);
}

// __d_add: only an in-lookup dentry gets the i_dir_seq window, and its
// leaving the chain, getting its inode and entering the main hash all
// happen inside it, under d_lock; the waiters are woken at its end.
void DcacheRun::d_add_(Dentry* d, int ino) {
    KFUNC("__d_add");
    lockref_lock(d->d_lockref);
    bool inl = d_in_lookup(d);
    unsigned n = 0;
    int w = -1;
    bool window = inl && !MUTATION("no-start-dir-add");
    if (inl) {
        in_dir_add[this_thread()] = true;  // ghost
        if (window) n = start_dir_add(dir);
        w = d_lookup_unhash_(d);
    }
    if (ino >= 0) d_set_inode_and_type_(d, ino);  // hlist_add_head(d_alias, &inode->i_dentry): not modelled
    d_rehash_(d);
    if (inl) in_dir_add[this_thread()] = false;  // ghost
    if (window) {
        end_dir_add(dir, n, w);
    } else if (WaitQ* q = inl ? wq_by_id(w) : nullptr) {
        // The mutation deletes the window, not end_dir_add's wakeup.
        smp_mb();
        if (waitqueue_active(q->wq)) wake_up_all(q->wq);
    }
    lockref_unlock(d->d_lockref);
}

void DcacheRun::d_add(Dentry* d, int ino) {
    KFUNC("d_add");
    // security_d_instantiate; spin_lock(&inode->i_lock): not modelled.
    d_add_(d, ino);
}

// d_splice_alias for a regular file (no directory alias to move). Its
// BUG_ON(!d_unhashed(dentry)) is not modelled: every caller d_drop()s
// first, as NFS does. Should another thread hash the dentry in between
// (two openers handed one hashed negative dentry, reference 8.2's
// variant), __d_rehash reports the double insertion.
Dentry* DcacheRun::d_splice_alias(int ino, Dentry* d) {
    KFUNC("d_splice_alias");
    d_add_(d, ino);
    return nullptr;
}

void DcacheRun::d_instantiate(Dentry* d, int ino) {
    KFUNC("d_instantiate");
    lockref_lock(d->d_lockref);
    d_set_inode_and_type_(d, ino);
    lockref_unlock(d->d_lockref);
}

// d_add_ci: publish the case-exact name `ci`; `d` (the user's case) is
// never hashed and stays in-lookup until its caller's d_lookup_done.
Dentry* DcacheRun::d_add_ci(Dentry* d, int ino, int ci) {
    KFUNC("d_add_ci");
    Dentry* found = d_lookup(ci);  // d_hash_and_lookup
    if (found) return found;       // iput(inode)
    if (d_in_lookup(d)) {
        found = d_alloc_parallel(ci, plain_load(d->d_wait));
        if (!d_in_lookup(found)) return found;
    } else {
        found = d_alloc(ci, 0);
    }
    Dentry* res = d_splice_alias(ino, found);
    if (res) {
        d_lookup_done(found);
        dput(found);
        return res;
    }
    return found;
}

// -----------------------------------------------------------------------
// dput (fast_dput, retain_dentry, __dentry_kill).
// -----------------------------------------------------------------------
void DcacheRun::dput(Dentry* d) {
    KFUNC("dput");
    // fast_dput runs under rcu_read_lock(): once the count is dropped,
    // another thread may kill the dentry, but cannot free it under us.
    rcu_read_lock();
    int r = lockref_put_return(d->d_lockref);
    if (r > 0) {
        rcu_read_unlock();
        return;
    }
    if (r < 0) {
        // The lockless decrement could not be done (locked, or count <= 0).
        lockref_lock(d->d_lockref);
        int c = lockref_count_locked(d->d_lockref);
        if (c <= 0) {
            // WARN_ON_ONCE(dentry->d_lockref.count <= 0)
            violate(this_thread(), "dentry-ref-underflow", nullptr, 0, "dput of %s with d_lockref.count = %d%s", d->name(),
                    c, c == LOCKREF_DEAD ? " (dead)" : "");
            lockref_unlock(d->d_lockref);
            rcu_read_unlock();
            return;
        }
        lockref_set_count_locked(d->d_lockref, c - 1);
    } else {
        // Went to zero. retain_dentry()'s lockless pre-check: left out.
        lockref_lock(d->d_lockref);
    }
    // Somebody got a reference meanwhile, or killed it (dead is -128:
    // non-zero), or retain_dentry(dentry, true): a hashed dentry stays
    // cached at count 0.
    if (lockref_count_locked(d->d_lockref) != 0 || !d_unhashed(d)) {
        lockref_unlock(d->d_lockref);
        rcu_read_unlock();
        return;
    }
    rcu_read_unlock();
    dentry_kill_(d);
}

void DcacheRun::dentry_kill_(Dentry* d) {
    KFUNC("__dentry_kill");
    lockref_mark_dead(d->d_lockref);
    ghost[d->gi].killed = true;
    kstep("__dentry_kill", d->id, "%s is killed (unhashed, no references)", d->name());
    lockref_unlock(d->d_lockref);
    // dentry_free: call_rcu(&dentry->d_u.d_rcu, __d_free)
    call_rcu_free(d->id);
}

// -----------------------------------------------------------------------
// d_alloc_parallel (ref 1), v6.17..7.0.
// -----------------------------------------------------------------------
void DcacheRun::d_wait_lookup(Dentry* d) {
    KFUNC("d_wait_lookup");
    // Called with d_lock held. The flag test and the enqueue are under
    // d_lock, and so are the owner's clear and wake: no wakeup is lost.
    if (!d_in_lookup(d)) return;
    WaitQ* q = wq_by_id(plain_load(d->d_wait));
    do {
        prepare_to_wait(q->wq);  // add_wait_queue + set_current_state(TASK_UNINTERRUPTIBLE)
        lockref_unlock(d->d_lockref);
        kstep("d_alloc_parallel:wait", d->id, "sleeps until %s leaves in-lookup", d->name());
        schedule_on(q->wq, "d_wait_lookup", d->id,
                    [&]() { return (d->d_flags.peek() & DCACHE_PAR_LOOKUP) == 0; });
        lockref_lock(d->d_lockref);
    } while (d_in_lookup(d));
    finish_wait(q->wq);
}

// d-alloc-parallel-result: what d_alloc_parallel returns is hashed (a
// lookup hit, or a dentry whose lookup completed while we waited), or
// in-lookup and published by the caller, who must now run ->lookup or
// ->atomic_open on it. Anything else is an unhashed negative dentry
// nobody will resolve: a spurious -ENOENT, or a create that never
// happened. `hashed` is judged where the caller pinned it.
void DcacheRun::check_dap_result(Dentry* d, bool hashed, const char* what) {
    if (hashed) return;
    bool own_inl = (d->d_flags.peek() & DCACHE_PAR_LOOKUP) && d->publisher == this_thread();
    KWARN_ON(!own_inl, "d-alloc-parallel-result",
             "d_alloc_parallel returns %s, %s: unhashed and not in-lookup for %s (%s)", d->name(), what, me(),
             (d->d_flags.peek() & DCACHE_PAR_LOOKUP) ? "in-lookup for another thread" : "negative, nobody will look it up");
}

Dentry* DcacheRun::d_alloc_parallel(int name, int wqid) {
    KFUNC("d_alloc_parallel");
    HashBucket* b = inlb[name];
    // e95db51c81f5: PAR_LOOKUP is set before the dentry is visible anywhere.
    Dentry* nw = d_alloc(name, DCACHE_PAR_LOOKUP);
    // `goto retry` makes this a busy loop until i_dir_seq, the hash or
    // the chain has moved: a pass that read nothing new and changed
    // nothing parks until another thread writes what it read.
    retry_loop retry;
    for (bool again = false;; again = true) {  // retry:
        if (again) retry.again();
        rcu_read_lock();
        // Step 2: sample i_dir_seq, unmasked. Acquire pairs with
        // end_dir_add's release: seeing a closed window means seeing
        // that add's dentry in the main hash.
        unsigned seq = (unsigned)(broken(DIR_SEQ_READ_RELAXED) ? READ_ONCE(dir->i_dir_seq) : smp_load_acquire(dir->i_dir_seq));
        kstep("d_alloc_parallel:sample", dir->id, "seq = %u", seq);
        // Step 3: r_seq = read_seqbegin(&rename_lock): left out (no rename).
        unsigned dseq = 0;
        int hit = d_lookup_rcu_(name, &dseq);
        Dentry* h = D(hit);
        kstep("d_alloc_parallel:lookup", hit, h ? "__d_lookup_rcu finds %s" : "__d_lookup_rcu misses \"%s\"",
              h ? h->name() : nm(name));
        if (h) {
            if (!lockref_get_not_dead(h->d_lockref)) {
                rcu_read_unlock();
                continue;
            }
            // Ghost: was it hashed when the reference pinned it? (A
            // d_drop after the get is a later unlink, not this lookup's.)
            bool hashed_at_get = h->d_hash_pprev.peek() != 0;
            if (!MUTATION("d-alloc-parallel-no-d-seq-retry") && read_seqcount_retry(h->d_seq, dseq)) {
                rcu_read_unlock();
                dput(h);
                continue;
            }
            rcu_read_unlock();
            check_dap_result(h, hashed_at_get, "the __d_lookup_rcu hit");
            dput(nw);
            return h;
        }
        // Step 6: read_seqretry(&rename_lock, r_seq): left out.
        // Step 7: an odd sample means an add was in progress: resample.
        if (!broken(NO_PARITY_CHECK) && (seq & 1)) {
            kstep("d_alloc_parallel:parity", dir->id, "seq %u is odd: an add is in progress, retry", seq);
            rcu_read_unlock();
            continue;
        }
        kstep("d_alloc_parallel:parity", dir->id, broken(NO_PARITY_CHECK) ? "seq %u: parity not checked (broken)" : "seq %u is even", seq);
        // Step 8: the in-lookup bucket lock. Every removal from the chain
        // takes it, so what the scan finds stays there until we unlock.
        bool bucket_lock = !MUTATION("d-alloc-parallel-no-in-lookup-bucket-lock");
        if (bucket_lock) bit_spin_lock(b->lock);
        // Step 9: re-check i_dir_seq under the bucket lock: an add that
        // took this name off the chain since the sample has moved it.
        if (!broken(NO_DIR_SEQ_RECHECK) && !MUTATION("no-i-dir-seq-recheck")) {
            unsigned now = (unsigned)READ_ONCE(dir->i_dir_seq);
            if (now != seq) {
                kstep("d_alloc_parallel:recheck", dir->id, "i_dir_seq moved %u -> %u: retry", seq, now);
                if (bucket_lock) bit_spin_unlock(b->lock);
                rcu_read_unlock();
                continue;
            }
            kstep("d_alloc_parallel:recheck", dir->id, "i_dir_seq still %u", seq);
        }
        // Step 10: scan the chain.
        Dentry* m = nullptr;
        for (int id = plain_load(b->first); id >= 0; id = plain_load(D(id)->d_in_lookup_next))
            if (plain_load(D(id)->d_name_hash) == name) {  // hash, d_parent, d_same_name
                m = D(id);
                break;
            }
        if (m) {
            kstep("d_alloc_parallel:scan", m->id, "finds %s in-lookup: somebody is resolving \"%s\"", m->name(), nm(name));
            if (bucket_lock) bit_spin_unlock(b->lock);
            if (!lockref_get_not_dead(m->d_lockref)) {
                rcu_read_unlock();
                continue;
            }
            rcu_read_unlock();
            lockref_lock(m->d_lockref);
            d_wait_lookup(m);
            // Not in-lookup any more: hashed means the lookup succeeded
            // (name and parent cannot have changed here).
            bool revalidate = !broken(NO_WAIT_REVALIDATE) && !MUTATION("d-wait-lookup-no-revalidate");
            if (revalidate && d_unhashed(m)) {
                kstep("d_alloc_parallel:mismatch", m->id, "%s is not hashed after the wait: retry", m->name());
                lockref_unlock(m->d_lockref);
                dput(m);
                continue;
            }
            if (!revalidate)
                kstep("d_alloc_parallel:no-revalidate", m->id, "broken: %s returned without the d_unhashed re-check", m->name());
            check_dap_result(m, !d_unhashed(m), "the in-lookup dentry it waited for");
            lockref_unlock(m->d_lockref);
            if (!MUTATION("waiter-no-dput-new")) dput(nw);
            return m;
        }
        kstep("d_alloc_parallel:scan", b->id, "no in-lookup dentry for \"%s\"", nm(name));
        rcu_read_unlock();
        // Step 12: publish.
        plain_store(nw->d_wait, wqid);
        plain_store(nw->d_in_lookup_next, plain_load(b->first));
        plain_store(b->first, nw->id);
        nw->publisher = this_thread();  // ghost
        kstep("d_alloc_parallel:publish", nw->id, "%s -> in-lookup hash", nw->name());
        if (bucket_lock) bit_spin_unlock(b->lock);
        check_dap_result(nw, false, "its own new dentry");
        return nw;
    }
}

}  // namespace dcache
}  // namespace vfsmc
