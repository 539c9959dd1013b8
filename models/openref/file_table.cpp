// openref model, fs/file_table.c: alloc_empty_file, fput / fput_close,
// __fput_deferred, __fput (deferred to the return to user space, with
// the task_work run) and file_free. See openref.h for what the model
// follows and leaves out.

#include "openref.h"

namespace vfsmc {
namespace openref {

File* OpenrefRun::alloc_empty_file(int flags) {
    KFUNC("alloc_empty_file");
    int fmode = flags == O_PATH_ ? 0 : flags == O_WRONLY_TRUNC_ ? FMODE_WRITE : FMODE_READ;
    int i = new_file(this_thread(), fmode, flags);
    return files[i].f;
}

void OpenrefRun::file_free(File* f) {
    KFUNC("file_free");
    FileGhost& g = ghost(f);
    // A file that never opened owns no references: file_free does not
    // look at f_path (reference A5).
    g.live = false;
    g.own_d = g.own_m = false;
    kfree(f);
}

void OpenrefRun::fput_deferred_(File* f) {
    KFUNC("__fput_deferred");
    if (!(plain_load(f->f_mode) & FMODE_OPENED)) {
        file_free(f);
        return;
    }
    // task_work_add(task, &file->f_task_work, ____fput): __fput runs on
    // the return to user space.
    ThreadState& ts = th[this_thread()];
    ts.work[ts.nwork++] = f->idx;
}

void OpenrefRun::fput(File* f, const char* kname) {
    KFUNC(kname);
    if (atomic_dec_and_test(f->f_ref)) fput_deferred_(f);
}

void OpenrefRun::fput_(File* f) {
    KFUNC("__fput");
    FileGhost& g = ghost(f);
    Path p = f_path(f);
    // fsnotify_close, eventpoll_release, locks, ->release, fops_put: not modelled.
    put_file_access(f);
    if (p.dentry) dput(path_dentry(p.dentry));
    if (p.mnt) mntput(path_mnt(p.mnt));
    g.own_d = g.own_m = false;
    if (g.cycle) cycles++;
    file_free(f);
}

void OpenrefRun::task_work_run() {
    ThreadState& ts = th[this_thread()];
    for (int k = 0; k < ts.nwork; k++) {
        int w = ts.work[k];
        if (w == kWorkCleanupMnt) cleanup_mnt(mnt);
        else if (w == kWorkCleanupMnt - 1) cleanup_mnt(mnt2);
        else fput_(files[w].f);
    }
    ts.nwork = 0;
}

}  // namespace openref
}  // namespace vfsmc
