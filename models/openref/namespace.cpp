// openref model, fs/namespace.c: mount references (mntget, mntput,
// mntput_no_expire, cleanup_mnt), __legitimize_mnt / legitimize_mnt,
// lookup_mnt, mnt_want_write / mnt_drop_write, and do_umount(MNT_DETACH)
// with umount_tree and namespace_unlock. See openref.h for what the model
// follows and leaves out (here: one mount hash bucket, no remount
// read-only, one umounter).

#include "openref.h"

namespace vfsmc {
namespace openref {

// namespace_unlock's: waits for the readers inside a section when it
// starts; its grace-period words order what they did before what
// follows, and every store before it before a section that starts after.
void OpenrefRun::synchronize_rcu() {
    KFUNC("synchronize_rcu");
    vfsmc::synchronize_rcu();
}

void OpenrefRun::lock_mount_hash() {
    KFUNC("lock_mount_hash");
    // write_seqlock(&mount_lock): every lockless mount walker that
    // sampled the sequence before this will fail its read_seqretry.
    spin_lock(mount_lock->lock);
    write_seqcount_begin(mount_lock->seqcount);
}

void OpenrefRun::unlock_mount_hash() {
    KFUNC("unlock_mount_hash");
    write_seqcount_end(mount_lock->seqcount);
    spin_unlock(mount_lock->lock);
}

// mnt_add_count: this_cpu_add(mnt->mnt_pcp->mnt_count, n), unordered,
// on this CPU's slot only: a walker's increment and another CPU's
// decrement land on different words, and nothing orders them but the
// smp_mb pair of __legitimize_mnt and mntput_no_expire.
void OpenrefRun::mnt_add_count(Mount* m, int n) {
    m->mnt_pcp[this_thread()].rmw(Acc::AtomicRmwVoid, "this_cpu_add", [n](int& v) { v += n; return true; });
    // Only a put can take the sum below zero. The sum reads every CPU's
    // slot (for DPOR, a read of each: a get need not depend on them).
    if (n >= 0) return;
    int c = m->peek_count();
    if (c < 0)
        violate(this_thread(), "mount-ref-underflow", nullptr, 0, "%s's mnt_count (the sum of its per-CPU slots) goes below zero (%d -> %d)",
                m->name(), c - n, c);
}

// mnt_get_count: the sum of every CPU's slot. The kernel reads them
// with plain loads under lock_mount_hash (racing with lockless
// this_cpu_add on the other CPUs); here they are marked (relaxed) so
// that the race check stays about the protocol.
int OpenrefRun::mnt_get_count(Mount* m) {
    int n = 0;
    for (int u = 0; u < cfg.nthreads; u++) n += m->mnt_pcp[u].load(Acc::AtomicRead);
    return n;
}

void OpenrefRun::mntget(Mount* m) {
    KFUNC("mntget");
    if (m) mnt_add_count(m, 1);
}

void OpenrefRun::mntput(Mount* m) {
    KFUNC("mntput");
    if (m) mntput_no_expire(m);
}

void OpenrefRun::mntput_no_expire(Mount* m) {
    KFUNC("mntput_no_expire");
    rcu_read_lock();
    if (READ_ONCE(m->mnt_ns) != NONE) {
        // Attached: the namespace's reference is dropped only after an
        // RCU grace period that follows clearing mnt_ns, so this put
        // (inside this read section) cannot be the final one.
        mnt_add_count(m, -1);
        rcu_read_unlock();
        return;
    }
    lock_mount_hash();
    // Pairs with __legitimize_mnt's smp_mb: either the walker sees
    // mount_lock taken, or this sees the walker's increment.
    if (!MUTATION("mntput-no-expire-no-smp-mb")) smp_mb();
    mnt_add_count(m, -1);
    int count = mnt_get_count(m);
    if (count != 0) {
        // WARN_ON(count < 0): mnt_add_count reported it.
        rcu_read_unlock();
        unlock_mount_hash();
        return;
    }
    if (!MUTATION("mntput-no-expire-no-doomed-test") && (plain_load(m->mnt_flags) & MNT_DOOMED)) {
        rcu_read_unlock();
        unlock_mount_hash();
        return;
    }
    // The last reference: nobody can legitimize it any more.
    plain_store(m->mnt_flags, plain_load(m->mnt_flags) | MNT_DOOMED);
    rcu_read_unlock();
    // list_del(&mnt->mnt_instance), the children: not modelled.
    unlock_mount_hash();
    // task_work_add(current, &mnt->mnt_rcu, __cleanup_mnt): runs on the
    // return to user space.
    kstep("mntput_no_expire:doomed", m->id, "%s is MNT_DOOMED; cleanup_mnt queued as task_work", m->name());
    ThreadState& ts = th[this_thread()];
    ts.work[ts.nwork++] = m == mnt2 ? kWorkCleanupMnt - 1 : kWorkCleanupMnt;
}

void OpenrefRun::cleanup_mnt(Mount* m) {
    KFUNC("cleanup_mnt");
    // fsnotify_vfsmount_delete, dput(mnt_root), deactivate_super: not
    // modelled. The struct mount goes after a grace period.
    call_rcu_free(m->id);  // call_rcu(&mnt->mnt_rcu, delayed_free_vfsmnt)
}

// Returns 0 (a reference is held), 1 (none held) or -1 (held, but the
// mount_lock sequence moved: the caller must mntput it).
int OpenrefRun::legitimize_mnt_(Mount* m, unsigned seq) {
    KFUNC("__legitimize_mnt");
    if (read_seqcount_retry(mount_lock->seqcount, seq)) return 1;
    if (!m) return 0;
    mnt_add_count(m, 1);
    if (!MUTATION("legitimize-mnt-no-smp-mb")) smp_mb();  // see mntput_no_expire() and do_umount()
    if (MUTATION("legitimize-mnt-no-seq-recheck") || !read_seqcount_retry(mount_lock->seqcount, seq)) return 0;
    lock_mount_hash();
    if (!MUTATION("legitimize-mnt-no-doomed-test") && (plain_load(m->mnt_flags) & (MNT_SYNC_UMOUNT | MNT_DOOMED))) {
        // The final mntput has run (or a sync umount): undo, under
        // mount_lock, the increment on a mount nobody may revive.
        mnt_add_count(m, -1);
        unlock_mount_hash();
        return 1;
    }
    unlock_mount_hash();
    return -1;  // caller will mntput()
}

bool OpenrefRun::legitimize_mnt(Mount* m, unsigned seq) {
    KFUNC("legitimize_mnt");
    int res = legitimize_mnt_(m, seq);
    if (res == 0) return true;
    if (res < 0) {
        rcu_read_unlock();
        mntput(m);
        rcu_read_lock();
    }
    return false;
}

// lookup_mnt: the mount on the mountpoint, with a reference (ref-walk).
Mount* OpenrefRun::lookup_mnt() {
    KFUNC("lookup_mnt");
    rcu_read_lock();
    Mount* m;
    do {
        unsigned seq = read_seqcount_begin(mount_lock->seqcount);  // read_seqbegin(&mount_lock)
        // __lookup_mnt: the mount hashed on the mountpoint, if any.
        m = M(READ_ONCE(mount_hash->first));
        if (legitimize_mnt(m, seq)) break;
    } while (true);
    rcu_read_unlock();
    return m;
}

// mnt_want_write: freeze protection, then a writer on the mount. It
// does not pin the mount: the caller's reference must.
int OpenrefRun::mnt_want_write(Mount* m) {
    KFUNC("mnt_want_write");
    SuperBlock* s = plain_load(m->mnt_sb) == sb->id ? sb : nullptr;
    atomic_inc(s->s_writers);  // sb_start_write
    mnt_get_write_access(m);
    return 0;
}

void OpenrefRun::mnt_get_write_access(Mount* m) {
    KFUNC("mnt_get_write_access");
    atomic_inc(m->mnt_writers);  // mnt_inc_writers
    // Pairs with mnt_make_readonly's MNT_WRITE_HOLD: no remount here, so
    // the wait and the read-only check are not modelled.
    if (!MUTATION("mnt-get-write-access-no-smp-mb")) smp_mb();
}

void OpenrefRun::mnt_put_write_access(Mount* m) {
    KFUNC("mnt_put_write_access");
    atomic_dec(m->mnt_writers);  // mnt_dec_writers
}

void OpenrefRun::mnt_drop_write(Mount* m) {
    KFUNC("mnt_drop_write");
    int t = this_thread();
    // Both mnt_dec_writers and sb_end_write(mnt->mnt_sb) dereference the
    // mount: the caller must own a reference on it (reference A4).
    if (!thread_owns_mnt(t)) {
        int c[2], n = 0;
        for (int e : unown_ev[t])
            if (e >= 0) c[n++] = e;
        violate(t, "mnt-drop-write-unowned", c, n,
                "%s calls mnt_drop_write(%s) holding no reference on it (nd->path, its files and do_open's local mnt own none)",
                thread_name(t), m->name());
    }
    mnt_put_write_access(m);
    SuperBlock* s = plain_load(m->mnt_sb) == sb->id ? sb : nullptr;
    atomic_dec(s->s_writers);  // sb_end_write
}

// do_umount(mnt, MNT_DETACH): umount -l.
void OpenrefRun::do_umount() {
    KFUNC("do_umount");
    // namespace_lock(): one umounter, not modelled.
    lock_mount_hash();
    if (plain_load(mnt->mnt_ns) == NONE) {
        unlock_mount_hash();
        kstep("do_umount:not-mounted", mnt->id, "%s is not mounted: -EINVAL", mnt->name());
        return;
    }
    {
        KFUNC("umount_tree");
        // umount_mnt -> unhash_mnt: new walkers no longer find it (the
        // ones already on it hold rcu_read_lock, which delays its free).
        WRITE_ONCE(mount_hash->first, NONE);
        // p->mnt_ns = NULL: mntput takes the slow path from now on.
        // Lazy: no MNT_SYNC_UMOUNT.
        WRITE_ONCE(mnt->mnt_ns, NONE);
        ns_ref_owner = this_thread();
        kstep("umount_tree:detach", mnt->id, "%s detached from %s; its reference now waits in the umount list",
              mnt->name(), ns->name());
    }
    unlock_mount_hash();
    {
        KFUNC("namespace_unlock");
        // Every mntput that saw mnt_ns set under rcu_read_lock finishes
        // before the namespace's reference goes.
        if (!MUTATION("namespace-unlock-no-synchronize-rcu")) synchronize_rcu();
        mntput(mnt);
        ns_ref_owner = NONE;
    }
}

// Ghost: does thread t own a reference on the mount?
bool OpenrefRun::thread_owns_mnt(int t) const {
    const ThreadState& ts = th[t];
    if (ts.nd.path.mnt && ts.nd.path.own_m) return true;
    if (ts.opath.mnt && ts.opath.own_m) return true;
    if (ts.local_mnt && ts.local_mnt_ref) return true;
    if (ns_ref_owner == t) return true;
    for (int i = 0; i < nfiles; i++)
        if (files[i].live && files[i].owner == t && files[i].own_m) return true;
    return false;
}

}  // namespace openref
}  // namespace vfsmc
