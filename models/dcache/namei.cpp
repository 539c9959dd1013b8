// dcache model, fs/namei.c: the VFS callers of the in-lookup protocol.
//
// Follows fs/namei.c after NeilBrown's ddb6e6c72a0a (lookup_open takes the
// parent lock itself): lookup_open, atomic_open, lookup_fast, lookup_slow,
// __lookup_slow, and path_openat / walk_component for the last component
// only (ref 6.1, 6.2); with seed 001_106d92534a2f77c4 ("vfs: allow the
// parent lock to be shared for O_CREAT"): atomic_open_create_shared() with
// SB_I_NAMES_COLLIDE read once with READ_ONCE, the rejection of a
// revalidated hashed negative dentry, and the VFS_WARN_ON_ONCE before
// ->atomic_open (ref 6.3).
//
// Left out here (see dcache.h for the whole model): the path walk above
// the last component; lookup_open's delegation retry; may_o_create and
// -EROFS, O_EXCL, O_TRUNC, LOOKUP_DIRECTORY (every create is allowed and
// opens the file); mnt_want_write; fsnotify and security hooks; the
// unlink, rename, mkdir, link and dentry_create ops (the seed's claim that
// they still take the parent exclusive is not exercised).
#include "dcache.h"

namespace vfsmc {
namespace dcache {

// -----------------------------------------------------------------------
// fs/namei.c
// -----------------------------------------------------------------------
// atomic_open_create_shared (seed): ->atomic_open present, the ops opt
// in, and the superblock's SB_I_NAMES_COLLIDE clear, read once, last.
bool DcacheRun::atomic_open_create_shared() {
    return cfg.has_atomic_open && cfg.create_shared_flag && !(READ_ONCE(sb->s_iflags) & SB_I_NAMES_COLLIDE);
}

Dentry* DcacheRun::atomic_open(Dentry* d, bool creat, int* err) {
    KFUNC("atomic_open");
    Dentry* res = nullptr;
    *err = nfs_atomic_open(d, creat, &res);
    // Ends the in-lookup state as soon as the method returns.
    d_lookup_done(d);
    if (*err) {
        dput(d);
        return nullptr;
    }
    if (res) {
        // FMODE_OPENED on file->f_path.dentry, a different dentry.
        dput(d);
        d = res;
    }
    return d;
}

void DcacheRun::lock_parent(bool shared) {
    if (shared) down_read(dir->i_rwsem);  // inode_lock_shared
    else down_write(dir->i_rwsem);        // inode_lock
}

void DcacheRun::unlock_parent(bool shared) {
    if (shared) up_read(dir->i_rwsem);
    else up_write(dir->i_rwsem);
}

// d_invalidate + dput of a dentry lookup_open rejects (the dput_bug
// knob's broken variants move or repeat the dput).
void DcacheRun::put_rejected(Dentry* d) {
    if (broken(DPUT_BEFORE_INVALIDATE)) dput(d);
    d_invalidate(d);
    if (!broken(MISSING_DPUT)) dput(d);
    if (broken(DOUBLE_DPUT)) dput(d);
}

// lookup_open: takes and drops the parent lock itself (ddb6e6c72a0a).
// Returns the dentry of the last component with a reference, or NULL.
Dentry* DcacheRun::lookup_open(int name, bool creat) {
    KFUNC("lookup_open");
    int wqid = wq[this_thread()]->id;
    int nd_flags = LOOKUP_OPEN | (creat ? LOOKUP_CREATE : 0);
    // retry: (delegation retry: not modelled)
    // One evaluation decides the lock mode, the unlock and the
    // in-lookup guarantee owed to ->atomic_open.
    bool create_shared = creat && atomic_open_create_shared();
    bool shared = !creat || create_shared;  // shared_flag == LOOKUP_SHARED
    kstep("lookup_open:lock", dir->id, "%s, create_shared = %d: i_rwsem %s", creat ? "O_CREAT" : "no O_CREAT",
          (int)create_shared, shared ? "shared" : "exclusive");
    if (!broken(LOOKUP_BEFORE_LOCK)) lock_parent(shared);
    Dentry* d = d_lookup(name);
    for (;;) {
        if (!d) d = d_alloc_parallel(name, wqid);
        if (d_in_lookup(d)) break;  // we own it
        int r = d_revalidate(d, nd_flags);
        // The seed: under the shared lock a valid negative cannot end the
        // loop -- hashed and not in-lookup, it gives ->atomic_open no
        // exclusion for the name.
        if (r > 0 && (!create_shared || !cfg.reject_hashed_negative || !d_really_is_negative(d))) break;
        kstep("lookup_open:reject", d->id, r > 0 ? "%s is a valid hashed negative: rejected under the shared lock"
                                                 : "%s is not valid",
              d->name());
        put_rejected(d);
        d = nullptr;
    }
    if (broken(LOOKUP_BEFORE_LOCK)) lock_parent(shared);
    Dentry* ret = d;
    if (!d_really_is_negative(d)) goto out;  // positive: opened later by f_op->open
    if (cfg.has_atomic_open) {
        // VFS_WARN_ON_ONCE(create_shared && !d_in_lookup(dentry))
        if (create_shared && !d_in_lookup(d))
            violate(this_thread(), "atomic-open-in-lookup", nullptr, 0,
                    "->atomic_open(O_CREAT) with i_rwsem shared is handed %s, which is not in-lookup", d->name());
        int err;
        ret = atomic_open(d, creat, &err);
    } else {
        if (d_in_lookup(d)) {
            Dentry* res = nfs_lookup(d);
            d_lookup_done(d);
            if (res) {
                dput(d);
                d = res;
            }
        }
        if (creat && d_really_is_negative(d)) nfs_create(d);
        ret = d;
    }
out:
    unlock_parent(shared);
    return ret;
}

// walk_component for the last component: lookup_fast, then lookup_slow.
Dentry* DcacheRun::lookup_fast(int name) {
    KFUNC("lookup_fast");
    Dentry* d = d_lookup(name);
    if (!d) return nullptr;
    if (d_revalidate(d, 0) > 0) return d;
    d_invalidate(d);
    dput(d);
    return nullptr;
}

Dentry* DcacheRun::lookup_slow_(int name) {
    KFUNC("__lookup_slow");
    for (;;) {  // again:
        Dentry* d = d_alloc_parallel(name, wq[this_thread()]->id);
        if (!d_in_lookup(d)) {
            if (d_revalidate(d, 0) > 0) return d;
            d_invalidate(d);
            dput(d);
            continue;
        }
        Dentry* old = nfs_lookup(d);
        d_lookup_done(d);
        if (old) {
            dput(d);
            d = old;
        }
        return d;
    }
}

Dentry* DcacheRun::lookup_slow(int name) {
    KFUNC("lookup_slow");
    down_read(dir->i_rwsem);
    Dentry* d = lookup_slow_(name);
    up_read(dir->i_rwsem);
    return d;
}

// -----------------------------------------------------------------------
// Ops.
// -----------------------------------------------------------------------
void DcacheRun::op_open(int name, bool creat) {
    KFUNC("path_openat");
    Dentry* d = lookup_open(name, creat);
    if (!d) return;
    // The file is closed at once: __fput -> dput.
    dput(d);
}

void DcacheRun::op_lookup(int name) {
    KFUNC("walk_component");
    Dentry* d = lookup_fast(name);
    if (!d) d = lookup_slow(name);
    if (d) dput(d);  // path_put
}

}  // namespace dcache
}  // namespace vfsmc
