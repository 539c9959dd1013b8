// openref model, fs/open.c: vfs_open, vfs_open_consume, do_dentry_open
// (with its three outcomes), put_file_access, and close(2). See openref.h
// for what the model follows and leaves out.

#include "openref.h"

namespace vfsmc {
namespace openref {

void OpenrefRun::set_f_path(File* f, const Path& p) {
    f->f_path_mnt.store(p.mnt ? (int)p.mnt->id : NONE, Acc::Plain);
    f->f_path_dentry.store(p.dentry ? (int)p.dentry->id : NONE, Acc::Plain);
}

Path OpenrefRun::f_path(File* f) {
    Path p;
    p.mnt = M(plain_load(f->f_path_mnt));
    p.dentry = D(plain_load(f->f_path_dentry));
    p.own_d = ghost(f).own_d;
    p.own_m = ghost(f).own_m;
    return p;
}

void OpenrefRun::put_file_access(File* f) {
    KFUNC("put_file_access");
    int mode = plain_load(f->f_mode);
    // FMODE_READ only: i_readcount_dec (not modelled).
    // put_write_access(inode): not modelled.
    if (mode & FMODE_WRITER) mnt_put_write_access(M(plain_load(f->f_path_mnt)));
}

// do_dentry_open(): unpatched, it takes the file's references itself;
// v4/v5 consume the caller's. Either way, a failure before
// FMODE_OPENED drops them (cleanup_file), because file_free never
// looks at f_path.
int OpenrefRun::do_dentry_open(File* f) {
    KFUNC("do_dentry_open");
    FileGhost& g = ghost(f);
    if (cfg.do_open == UNPATCHED) {
        Path p = f_path(f);
        path_get(p);
        g.own_d = p.dentry != nullptr;
        g.own_m = p.mnt != nullptr;
    }
    // f_inode, f_mapping, f_wb_err: not modelled.
    if (f->flags == O_PATH_) {
        plain_store(f->f_mode, FMODE_PATH | FMODE_OPENED);
        kstep("do_dentry_open:o_path", f->id, "%s: FMODE_PATH|FMODE_OPENED, it owns its f_path references", f->name());
        return 0;
    }
    int mode = plain_load(f->f_mode);
    int error = 0;
    if (mode & FMODE_WRITE) {
        // file_get_write_access: get_write_access(inode) is not modelled.
        mnt_get_write_access(M(plain_load(f->f_path_mnt)));
        plain_store(f->f_mode, mode | FMODE_WRITER);
    }
    // fops_get, security_file_open, fsnotify_open_perm, break_lease,
    // ->open: the configured outcome.
    if (cfg.outcome == FAIL_BEFORE_OPENED) {
        kstep("do_dentry_open:fail-before-opened", f->id, "security_file_open fails: -EACCES before FMODE_OPENED");
        error = -kEACCES;
        // cleanup_all:
        put_file_access(f);
        // cleanup_file: "whacks the ref" (Mateusz).
        Path p = f_path(f);
        if (!MUTATION("cleanup-file-no-path-put")) path_put(p);
        set_f_path(f, Path());
        g.own_d = g.own_m = false;
        unown_ev[this_thread()][1] =
            kstep_ev("do_dentry_open:cleanup_file", f->id, "%s: f_path references dropped, f_path = {NULL, NULL}", f->name());
        return error;
    }
    plain_store(f->f_mode, plain_load(f->f_mode) | FMODE_OPENED);
    if (cfg.outcome == FAIL_AFTER_OPENED) {
        // O_DIRECT without FMODE_CAN_ODIRECT: the error comes with
        // FMODE_OPENED set, and the references stay in the file.
        kstep("do_dentry_open:fail-after-opened", f->id, "O_DIRECT unsupported: -EINVAL with FMODE_OPENED set; %s keeps its references", f->name());
        return -kEINVAL;
    }
    return 0;
}

int OpenrefRun::vfs_open(Path& path, File* f) {
    KFUNC("vfs_open");
    set_f_path(f, path);  // file->__f_path = *path
    if (cfg.do_open != UNPATCHED) {
        // v4/v5 moved the path_get here from do_dentry_open.
        Path p = f_path(f);
        path_get(p);
        ghost(f).own_d = p.dentry != nullptr;
        ghost(f).own_m = p.mnt != nullptr;
    }
    return do_dentry_open(f);  // fsnotify_open on success: not modelled
}

// vfs_open_consume(): the caller's references move into the file, and
// the caller's path is cleared so that its path_put is a no-op.
int OpenrefRun::vfs_open_consume(Path& path, File* f, bool clear) {
    KFUNC("vfs_open_consume");
    set_f_path(f, path);
    FileGhost& g = ghost(f);
    g.own_d = path.own_d;
    g.own_m = path.own_m;
    path.own_d = path.own_m = false;
    if (clear) {
        path.mnt = nullptr;
        path.dentry = nullptr;
        kstep("vfs_open_consume:moved", f->id, "the caller's references move into %s; the caller's path = {NULL, NULL}", f->name());
    } else {
        kstep("vfs_open_consume:not-cleared", f->id,
              "variant: the references move into %s, but the caller's path still points at {%s, %s}", f->name(),
              path.mnt->name(), path.dentry->name());
    }
    return do_dentry_open(f);
}

void OpenrefRun::close_fd() {
    KFUNC("close_fd");
    ThreadState& ts = th[this_thread()];
    if (ts.nfds == 0) {
        kstep("close_fd:ebadf", dentry->id, "no open file to close (the open failed): -EBADF");
        return;
    }
    int i = ts.fds[--ts.nfds];
    kstep("close_fd:close", files[i].f->id, "close(%s)", files[i].f->name());
    fput(files[i].f, "fput");
}

}  // namespace openref
}  // namespace vfsmc
