// openref model, fs/namei.c: the walk (path_init, link_path_walk's crossing
// into the mount, lookup_fast, step_into, open_last_lookups with
// lookup_open/atomic_open/finish_open, __legitimize_path, try_to_unlazy,
// complete_walk, terminate_walk, path_lookupat), then open (do_open in its
// three versions, do_o_path, path_openat, do_file_open) and unlink
// (filename_unlinkat, reduced). See openref.h for what the model follows
// and leaves out (here: the walk above "f", lookup_slow and O_CREAT).

#include "openref.h"

namespace vfsmc {
namespace openref {

void OpenrefRun::path_get(Path& p) {
    KFUNC("path_get");
    if (p.mnt) mntget(path_mnt(p.mnt, true));
    if (p.dentry) dget(path_dentry(p.dentry));
}

// path_put: dput + mntput of whatever the path points at. Ghost: a
// copy that did not own them drops someone else's references.
void OpenrefRun::path_put(Path& p) {
    KFUNC("path_put");
    if (p.dentry) dput(path_dentry(p.dentry));
    if (p.mnt) mntput(path_mnt(p.mnt));
    p.own_d = p.own_m = false;
}

void OpenrefRun::leave_rcu(NameiData& nd) {
    nd.flags &= ~LOOKUP_RCU;
    nd.seq = nd.next_seq = 0;
    rcu_read_unlock();
}

void OpenrefRun::path_init(NameiData& nd, int flags) {
    KFUNC("path_init");
    nd.flags = flags;
    nd.path = Path();
    if (flags & LOOKUP_RCU) rcu_read_lock();
    // nd->m_seq = __read_seqcount_begin(&mount_lock.seqcount); smp_rmb()
    nd.m_seq = read_seqcount_begin(mount_lock->seqcount);
    // The root: not modelled (no references on it). The cwd: only
    // with init.pwd_in_mnt; otherwise the walk starts outside mnt and
    // crosses into it in link_path_walk.
    if (!cfg.pwd_in_mnt) return;
    int pwd;
    if (flags & LOOKUP_RCU) {
        // nd->path = fs->pwd under fs->seq, without a reference: RCU
        // and nd->m_seq vouch for the mount until legitimize_mnt. The
        // kernel's loads are plain; the seqcount makes them retry.
        unsigned seq;
        do {
            seq = read_seqcount_begin(fs->seq);
            pwd = READ_ONCE(fs->pwd_mnt);
        } while (read_seqcount_retry(fs->seq, seq));
        nd.path.mnt = M(pwd);
    } else {
        // get_fs_pwd: path_get under fs->lock.
        spin_lock(fs->lock);
        pwd = plain_load(fs->pwd_mnt);
        if (pwd != NONE) mntget(M(pwd));
        spin_unlock(fs->lock);
        nd.path.mnt = M(pwd);
        nd.path.own_m = pwd != NONE;
    }
    nd.pwd_elsewhere = pwd == NONE;
}

// chdir(2) out of mnt: set_fs_pwd, then path_put of the old pwd, which
// may be the last reference on a lazily detached mount.
void OpenrefRun::set_fs_pwd() {
    KFUNC("set_fs_pwd");
    spin_lock(fs->lock);
    write_seqcount_begin(fs->seq);
    int old = plain_load(fs->pwd_mnt);
    WRITE_ONCE(fs->pwd_mnt, NONE);
    write_seqcount_end(fs->seq);
    spin_unlock(fs->lock);
    if (old == NONE) return;
    Mount* m = M(old);
    kstep("set_fs_pwd:put-old", m->id, "pwd leaves %s; the old pwd's reference is put", m->name());
    pwd_ref = false;
    mntput(m);  // path_put(&old_pwd): the dentry (mnt's root) is not modelled
}

// link_path_walk(): only its last mount crossing, into "mnt".
int OpenrefRun::link_path_walk(NameiData& nd) {
    KFUNC("link_path_walk");
    if (cfg.pwd_in_mnt) {
        // "f" is looked up in pwd: in mnt, or (after chdir) in a
        // directory without it.
        return nd.pwd_elsewhere ? -kENOENT : 0;
    }
    if (nd.flags & LOOKUP_RCU) {
        // __follow_mount_rcu -> __lookup_mnt: no reference; nd->m_seq
        // validates it at legitimize time.
        Mount* m = M(READ_ONCE(mount_hash->first));
        if (!m) return -kENOENT;
        nd.path.mnt = m;
        return 0;
    }
    // traverse_mounts -> lookup_mnt: a reference.
    Mount* m = lookup_mnt();
    if (!m) return -kENOENT;
    nd.path.mnt = m;
    nd.path.own_m = true;
    return 0;
}

Dentry* OpenrefRun::lookup_fast(NameiData& nd) {
    KFUNC("lookup_fast");
    if (nd.flags & LOOKUP_RCU) {
        Dentry* d = d_lookup_rcu_(&nd.next_seq);
        // The parent's d_seq recheck and d_revalidate: not modelled.
        return d;
    }
    return d_lookup_();
}

int OpenrefRun::step_into(NameiData& nd, Dentry* d) {
    KFUNC("step_into");
    // handle_mounts: nothing is mounted on "f".
    int in = READ_ONCE(d->d_inode);
    if (nd.flags & LOOKUP_RCU) {
        if (!MUTATION("step-into-no-d-seq-check") && read_seqcount_retry(d->d_seq, nd.next_seq)) return -kECHILD;
        if (in == NONE) return -kENOENT;
        nd.path.dentry = d;
        nd.inode = in;
        nd.seq = nd.next_seq;
        kstep("step_into:rcu", d->id, "nd->path = {%s, %s}, RCU: no references, nd->seq %u", nd.path.mnt->name(),
              d->name(), nd.seq);
        return 0;
    }
    if (in == NONE) {
        // traverse_mounts: negative -> -ENOENT; handle_mounts dputs it.
        dput(d);
        return -kENOENT;
    }
    // The parent's dput: not modelled.
    nd.path.dentry = d;
    nd.path.own_d = true;
    nd.inode = in;
    return 0;
}

// open_last_lookups / lookup_last: the last component, "f".
int OpenrefRun::last_component(NameiData& nd, const char* kname) {
    KFUNC(kname);
    Dentry* d = lookup_fast(nd);
    if (!d) return -kENOENT;  // lookup_slow/lookup_open: not modelled
    return step_into(nd, d);
}

int OpenrefRun::open_last_lookups(NameiData& nd, File* f) {
    if (!cfg.atomic_open) return last_component(nd, "open_last_lookups");
    KFUNC("open_last_lookups");
    // An ->atomic_open filesystem (NFS-like): its ->d_revalidate does not
    // trust a cached dentry for an open, so lookup_fast gives up and the
    // open goes to lookup_open in ref-walk mode.
    if (nd.flags & LOOKUP_RCU) {
        if (!try_to_unlazy(nd)) return -kECHILD;
    }
    // mnt_want_write for O_TRUNC and the directory's i_rwsem (shared):
    // not modelled.
    Dentry* d = lookup_open(nd, f);
    if (!d) return -kENOENT;
    // FMODE_OPENED: "dput(nd->path.dentry); nd->path.dentry = dentry;"
    // (the directory's dput: not modelled). The reference ->atomic_open
    // returned the dentry with now belongs to nd->path.
    nd.path.dentry = d;
    nd.path.own_d = true;
    kstep("open_last_lookups:atomic-opened", f->id, "%s opened by ->atomic_open; nd->path.dentry = %s with the lookup's reference",
          f->name(), d->name());
    return 0;
}

// lookup_open(): the dcache lookup, then ->atomic_open.
Dentry* OpenrefRun::lookup_open(NameiData& nd, File* f) {
    KFUNC("lookup_open");
    Dentry* d = d_lookup_();  // d_lookup: with a reference
    if (!d) return nullptr;   // d_alloc_parallel and a create: not modelled
    return atomic_open(nd, d, f);
}

// atomic_open(): calls the filesystem's ->atomic_open, which opens the
// file on the server and then calls finish_open().
Dentry* OpenrefRun::atomic_open(NameiData& nd, Dentry* d, File* f) {
    KFUNC("atomic_open");
    // file->__f_path.mnt = nd->path.mnt: borrowed, nd keeps owning it.
    f->f_path_mnt.store(nd.path.mnt->id, Acc::Plain);
    int error = READ_ONCE(d->d_inode) == NONE ? -kENOENT : finish_open(f, d);
    if (error) {
        dput(d);
        kstep("atomic_open:error", d->id, "->atomic_open fails: %s", errname(error));
        return nullptr;
    }
    return d;
}

// finish_open(): v4/v5 take the file's references here (v5 moved the
// path_get out of do_dentry_open); unpatched, do_dentry_open does.
int OpenrefRun::finish_open(File* f, Dentry* d) {
    KFUNC("finish_open");
    f->f_path_dentry.store(d->id, Acc::Plain);  // file->__f_path.dentry = dentry
    if (cfg.do_open != UNPATCHED) {
        Path p = f_path(f);
        path_get(p);
        ghost(f).own_d = p.dentry != nullptr;
        ghost(f).own_m = p.mnt != nullptr;
    }
    return do_dentry_open(f);
}

// __legitimize_path(): "path_put is needed afterwards regardless of
// success or failure".
bool OpenrefRun::legitimize_path_(Path& path, unsigned seq, unsigned mseq) {
    KFUNC("__legitimize_path");
    th[this_thread()].stale = false;
    int res = legitimize_mnt_(path.mnt, mseq);
    if (res) {
        if (res > 0) path.mnt = nullptr;
        else path.own_m = true;
        path.dentry = nullptr;
        return false;
    }
    path.own_m = path.mnt != nullptr;
    // nd->path.dentry is the directory (not modelled) when the walk
    // leaves RCU mode before the last component (open_last_lookups on
    // an ->atomic_open filesystem): only the mount is legitimized.
    if (!path.dentry) return true;
    Dentry* d = path.dentry;
    bool got;
    if (!broken(LEGITIMIZE_LOCKREF_GET)) {
        got = lockref_get_not_dead(d->d_lockref);
    } else {
        // Variant: lockref_get, which takes a reference even on a dead
        // (killed, awaiting RCU free) dentry.
        lockref_get(d->d_lockref);
        got = true;
    }
    if (!got) {
        path.dentry = nullptr;
        return false;
    }
    lockref_updated();
    path.own_d = true;
    note_stale_sample();
    if (broken(NO_D_SEQ_CHECK)) {
        kstep("__legitimize_path:no-d_seq-check", d->id, "variant: d_seq is not rechecked");
        return true;
    }
    // Did the dentry change (unhashed, moved, turned negative) since the
    // walk sampled it?
    return !read_seqcount_retry(d->d_seq, seq);
}

// Ghost, right after the reference is taken: has dentry "f" changed
// since the walk's lookup found it? Judged by dver (bumped where the
// model unhashes it, turns it negative or marks it dead), not by d_seq,
// the mechanism this check audits. peek() gives the latest values in
// modification order, not what this thread has seen.
void OpenrefRun::note_stale_sample() {
    ThreadState& ts = th[this_thread()];
    ts.stale = dver != ts.dver_sample;
    ts.stale_ver = ts.dver_sample;
    ts.stale_hashed = dentry->d_hash.peek();
    ts.stale_inode = dentry->d_inode.peek();
    ts.stale_count = dentry->d_lockref.peek_count();
}

// The legitimize-stale-dentry assertion, where the walk leaves RCU mode
// believing nd->path is what it looked up.
void OpenrefRun::check_not_stale(const NameiData& nd) {
    const ThreadState& ts = th[this_thread()];
    KWARN_ON(nd.path.dentry && ts.stale, "legitimize-stale-dentry",
             "try_to_unlazy succeeds with nd->path.dentry = %s, nd->inode = %s, but when __legitimize_path took its "
             "reference %s had changed %d time(s) since the walk's lookup found it: %s, d_inode %s%s",
             dentry->name(), nd.inode == NONE ? "NULL" : object_name(nd.inode), dentry->name(), dver - ts.stale_ver,
             ts.stale_hashed ? "hashed" : "unhashed",
             ts.stale_inode == NONE ? "NULL (negative)" : object_name(ts.stale_inode),
             ts.stale_count < 0 ? ", dead" : "");
}

bool OpenrefRun::try_to_unlazy(NameiData& nd) {
    KFUNC("try_to_unlazy");
    // Symlinks: none. legitimize_root: complete_walk cleared nd->root.
    if (!legitimize_path_(nd.path, nd.seq, nd.m_seq)) {
        leave_rcu(nd);
        kstep("try_to_unlazy:failed", dentry->id, "legitimize failed: nd->path keeps %s%s%s", nd.path.own_m ? "a mount reference" : "",
              nd.path.own_m && nd.path.own_d ? " and " : "", nd.path.own_d ? "a dentry reference" : (nd.path.own_m ? "" : "nothing"));
        return false;
    }
    leave_rcu(nd);
    kstep("try_to_unlazy:legitimized", dentry->id, "nd->path = {%s, %s} now owns a reference on each",
          nd.path.mnt ? nd.path.mnt->name() : "NULL", nd.path.dentry ? nd.path.dentry->name() : "NULL");
    check_not_stale(nd);
    return true;
}

int OpenrefRun::complete_walk(NameiData& nd) {
    KFUNC("complete_walk");
    if (nd.flags & LOOKUP_RCU) {
        if (!try_to_unlazy(nd)) return -kECHILD;
    }
    return 0;
}

void OpenrefRun::terminate_walk(NameiData& nd) {
    KFUNC("terminate_walk");
    if (!(nd.flags & LOOKUP_RCU) && !MUTATION("terminate-walk-no-path-put")) path_put(nd.path);
    else leave_rcu(nd);
    nd.path = Path();  // nd->path.mnt = NULL; nd->path.dentry = NULL
}

int OpenrefRun::path_lookupat(NameiData& nd, int flags, Path& out) {
    KFUNC("path_lookupat");
    path_init(nd, flags);
    int err = link_path_walk(nd);
    if (!err) err = last_component(nd, "lookup_last");
    if (!err) err = complete_walk(nd);
    if (!err) {
        // *path = nd->path; nd->path = {NULL, NULL}: the references move.
        out = nd.path;
        nd.path = Path();
    }
    terminate_walk(nd);
    return err;
}

void OpenrefRun::handle_truncate(File* f) {
    KFUNC("handle_truncate");
    // get_write_access, do_truncate (notify_change under i_rwsem),
    // put_write_access: through the opened file, which owns its path.
    kstep("handle_truncate:truncate", f->id, "%s truncated to 0 through %s", inode->name(), f->name());
}

// do_open(), the last step of path_openat for a regular open, in its
// three versions, chosen once per call: the kernel before the series,
// v4 (vfs_open_consume, `mnt` saved without a reference) and v5 (the
// merged fix: a dedicated mnt reference across the consume).
int OpenrefRun::do_open(NameiData& nd, File* f) {
    switch (cfg.do_open) {
        case UNPATCHED: return do_open_unpatched(nd, f);
        case V4: return do_open_v4(nd, f);
        default: return do_open_v5(nd, f);
    }
}

// Before the series: vfs_open takes its own path references, and
// nd->path keeps owning the mount across the truncate.
int OpenrefRun::do_open_unpatched(NameiData& nd, File* f) {
    KFUNC("do_open");
    int error;
    if (!(plain_load(f->f_mode) & FMODE_OPENED)) {
        error = complete_walk(nd);
        if (error) return error;
    }
    // audit_inode, O_CREAT, LOOKUP_DIRECTORY: not modelled.
    int in = READ_ONCE(nd.path.dentry->d_inode);  // d_is_reg(), and may_open's d_inode
    bool do_truncate = false;
    if (in != NONE && f->flags == O_WRONLY_TRUNC_) {
        error = mnt_want_write(nd.path.mnt);
        if (error) return error;
        do_truncate = true;
    }
    // may_open: a negative dentry is -ENOENT; the permission checks are
    // not modelled.
    error = in == NONE ? -kENOENT : 0;
    if (!error && !(plain_load(f->f_mode) & FMODE_OPENED)) error = vfs_open(nd.path, f);
    // security_file_post_open: succeeds.
    if (!error && do_truncate) handle_truncate(f);
    if (do_truncate) mnt_drop_write(nd.path.mnt);  // still owned by nd
    return error;
}

// v4: vfs_open_consume takes nd->path's references; `mnt` is saved
// for mnt_drop_write without a reference of its own (the bug v5 fixed).
int OpenrefRun::do_open_v4(NameiData& nd, File* f) {
    KFUNC("do_open");
    ThreadState& ts = th[this_thread()];
    int error;
    if (!(plain_load(f->f_mode) & FMODE_OPENED)) {
        error = complete_walk(nd);
        if (error) return error;
    }
    int in = READ_ONCE(nd.path.dentry->d_inode);
    bool do_truncate = false;
    Mount* lmnt = nullptr;  // do_open's `mnt`
    if (in != NONE && f->flags == O_WRONLY_TRUNC_) {
        error = mnt_want_write(nd.path.mnt);
        if (error) return error;
        lmnt = nd.path.mnt;
        ts.local_mnt = true;
        unown_ev[this_thread()][0] = kstep_ev("do_open:v4-save-mnt", lmnt->id, "v4: mnt = nd->path.mnt, saved without a reference");
        do_truncate = true;
    }
    error = in == NONE ? -kENOENT : 0;
    if (!error && !(plain_load(f->f_mode) & FMODE_OPENED)) error = vfs_open_consume(nd.path, f, true);
    if (!error && do_truncate) handle_truncate(f);
    if (do_truncate) {
        mnt_drop_write(lmnt);
        ts.local_mnt = false;
    }
    return error;
}

// v5 (merged): "A dedicated reference is needed because after the call
// to vfs_open_consume() we no longer own the reference in nd->path.mnt
// while we need to undo write access below."
int OpenrefRun::do_open_v5(NameiData& nd, File* f) {
    KFUNC("do_open");
    ThreadState& ts = th[this_thread()];
    int error;
    if (!(plain_load(f->f_mode) & FMODE_OPENED)) {
        error = complete_walk(nd);
        if (error) return error;
    }
    int in = READ_ONCE(nd.path.dentry->d_inode);
    bool do_truncate = false;
    Mount* lmnt = nullptr;  // do_open's `mnt`
    if (in != NONE && f->flags == O_WRONLY_TRUNC_) {
        error = mnt_want_write(nd.path.mnt);
        if (error) return error;
        lmnt = nd.path.mnt;
        ts.local_mnt = true;
        if (!MUTATION("v5-no-mntget")) {
            mntget(lmnt);  // mnt = mntget(nd->path.mnt)
            ts.local_mnt_ref = true;
        }
        do_truncate = true;
    }
    error = in == NONE ? -kENOENT : 0;
    if (!error && !(plain_load(f->f_mode) & FMODE_OPENED)) error = vfs_open_consume(nd.path, f, true);
    if (!error && do_truncate) handle_truncate(f);
    if (do_truncate) {
        mnt_drop_write(lmnt);
        mntput(lmnt);
        ts.local_mnt_ref = false;
        ts.local_mnt = false;
    }
    return error;
}

int OpenrefRun::do_o_path(NameiData& nd, int flags, File* f) {
    KFUNC("do_o_path");
    ThreadState& ts = th[this_thread()];
    Path& path = ts.opath;
    int error = path_lookupat(nd, flags, path);
    if (!error) {
        // audit_inode: not modelled.
        switch (cfg.o_path) {
            case OPATH_AS_IS:
                error = vfs_open(path, f);
                path_put(path);
                break;
            case OPATH_CONSUME:
                error = vfs_open_consume(path, f, true);
                path_put(path);  // {NULL, NULL}: a no-op
                break;
            case OPATH_CONSUME_NO_CLEAR:
                error = vfs_open_consume(path, f, false);
                kstep("do_o_path:path_put", f->id, "path_put(&path) puts {%s, %s}: references %s now owns",
                      path.mnt->name(), path.dentry->name(), f->name());
                path_put(path);  // drops the references the file now owns
                break;
            case OPATH_NO_PUT:
                error = vfs_open(path, f);
                kstep("do_o_path:no-path_put", f->id, "variant: the lookup's references are not put");
                break;
        }
    }
    // `path` goes out of scope: whatever it still owns is leaked.
    ts.leaked_d += path.own_d;
    ts.leaked_m += path.own_m;
    path = Path();
    return error;
}

// path_openat(): returns the opened file's ghost index, or an error.
int OpenrefRun::path_openat(int flags, int lookup_flags, int* fidx) {
    KFUNC("path_openat");
    ThreadState& ts = th[this_thread()];
    NameiData& nd = ts.nd;
    File* f = alloc_empty_file(flags);
    int error;
    if (flags == O_PATH_) {
        error = do_o_path(nd, lookup_flags, f);
    } else {
        path_init(nd, lookup_flags);
        error = link_path_walk(nd);
        if (!error) error = open_last_lookups(nd, f);
        if (!error) error = do_open(nd, f);
        terminate_walk(nd);
    }
    if (!error) {
        if (plain_load(f->f_mode) & FMODE_OPENED) {
            *fidx = f->idx;
            return 0;
        }
        error = -kEINVAL;  // WARN_ON(1)
    }
    fput(f, "fput_close");
    return error;
}

void OpenrefRun::do_file_open(int flags) {
    KFUNC("do_file_open");
    int fidx = NONE;
    int error = path_openat(flags, LOOKUP_RCU, &fidx);
    if (error == -kECHILD) {
        kstep("do_file_open:ref-walk", dentry->id, "-ECHILD: retry the walk in ref-walk mode");
        error = path_openat(flags, 0, &fidx);
    }
    ThreadState& ts = th[this_thread()];
    if (!error) {
        files[fidx].cycle = true;
        ts.fds[ts.nfds++] = fidx;  // fd_install
        kstep("do_file_open:fd", files[fidx].f->id, "open(\"f\", %s) = %s", flags_name(flags), files[fidx].f->name());
    } else {
        kstep("do_file_open:error", dentry->id, "open(\"f\", %s) = %s", flags_name(flags), errname(error));
    }
}

// filename_unlinkat(), reduced to the victim's side.
void OpenrefRun::filename_unlinkat() {
    KFUNC("filename_unlinkat");
    // filename_parentat, mnt_want_write of the parent's mount,
    // start_dirop's inode_lock(dir): not modelled (one unlinker).
    Dentry* d = d_lookup_();
    if (!d) {
        kstep("filename_unlinkat:enoent", dentry->id, "unlink(\"f\") = -ENOENT");
        return;
    }
    if (READ_ONCE(d->d_inode) == NONE) {
        dput(d);
        kstep("filename_unlinkat:enoent", dentry->id, "unlink(\"f\") = -ENOENT");
        return;
    }
    ihold(inode);
    {
        KFUNC("vfs_unlink");
        // ->unlink: drop_nlink under the inode lock.
        WRITE_ONCE(inode->i_nlink, READ_ONCE(inode->i_nlink) - 1);
        d_delete(d);
    }
    dput(d);       // end_dirop
    iput(inode);   // "truncate the inode here"
    kstep("filename_unlinkat:done", dentry->id, "unlink(\"f\") = 0");
}

}  // namespace openref
}  // namespace vfsmc
