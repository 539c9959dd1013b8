// chrdev model, fs/open.c and fs/file_table.c: do_dentry_open (the f_op
// swap, the ->open call, fops_put on failure, FMODE_OPENED), fops_put, and
// the deferred final fput, __fput. See chrdev.h for what the model
// follows and leaves out.

#include "chrdev.h"

namespace vfsmc {
namespace chrdev {

void ChrdevRun::do_dentry_open(int t) {
    KFUNC("do_dentry_open");
    // f->f_op = fops_get(inode->i_fop): def_chr_fops, no owner (NULL
    // here: fops_put of it does nothing).
    Fops* f_op = nullptr;
    // def_chr_fops.open: the chrdev_open of the scenario's version,
    // which replaces f_op with the driver's.
    int err = cfg.v2 ? chrdev_open_v2(&f_op) : chrdev_open_pre_seed(&f_op);
    if (err) {
        // cleanup_all: fops_put(f->f_op), the driver's if it was swapped in.
        fops_put(f_op);
        kstep("do_dentry_open:failed", inode->id, "open fails: %d", err);
        return;
    }
    // FMODE_OPENED: the file now holds whatever chrdev_open left it.
    // prepare() keeps the opens of a thread within kMaxFiles.
    file_fop[t][nfiles[t]] = f_op;
    file_cdev[t][nfiles[t]] = opened_cdev[t];
    nfiles[t]++;
    kstep("do_dentry_open:opened", inode->id, "file opened on %s", inode->name());
}

void ChrdevRun::fops_put(Fops* f) {
    KFUNC("fops_put");
    if (f) module_put(plain_load(f->owner));
}

// __fput (the deferred final fput) of the thread's last file, or of one
// of the files open before the scenario.
void ChrdevRun::fput_final(int t) {
    {
        // fput -> task_work_add(current, &file->f_task_work) and, on the
        // return to user space, task_work_run: a try_cmpxchg and an xchg
        // of current->task_works, both fully ordered. They order the
        // opener's READ_ONCE(inode->i_cdev) before __fput's plain load
        // of it (LKMM: the plain read is bounded by the marked read of
        // the same store and this barrier; reference C7 calls it benign).
        KFUNC("fput");
        if (!MUTATION("fput-no-task-work-mb")) smp_mb();
    }
    KFUNC("__fput");
    Fops* f_op;
    if (nfiles[t] > 0) {
        nfiles[t]--;
        f_op = file_fop[t][nfiles[t]];
    } else if (pre_files > 0) {
        pre_files--;
        f_op = fops;
    } else {
        // The open failed: no FMODE_OPENED, __fput skips the release.
        kstep("__fput:not-opened", inode->id, "no open file: nothing to release");
        return;
    }
    // f_op->release: the driver's, not modelled.
    // The file's cdev reference is found through inode->i_cdev, read
    // without cdev_lock: the reference keeps it stable (reference C7).
    if (!MUTATION("fput-no-cdev-put") && plain_load(inode->i_cdev) != NONE) cdev_put(cdev_read(plain_load(inode->i_cdev)));
    fops_put(f_op);
    // dput/mntput: the path's references are the `iput` op.
}

}  // namespace chrdev
}  // namespace vfsmc
