// chrdev model, kernel/module/main.c: try_module_get, module_put,
// delete_module with try_stop_module; and the driver module itself: its
// ->open, its exit (cdev_del) and the free of an embedded cdev. See
// chrdev.h for what the model follows and leaves out (here: one
// unloader, no forced unload, module memory not modelled: free_module
// only checks that no reference on the module remains).

#include <cerrno>

#include "chrdev.h"

namespace vfsmc {
namespace chrdev {

bool ChrdevRun::try_module_get(int owner) {
    if (owner == NONE) return true;  // built-in: no module to pin
    KFUNC("try_module_get");
    // module_is_live(): a module being unloaded takes no new references.
    if (!MUTATION("try-module-get-no-going-test") && READ_ONCE(mod->state) == MODULE_STATE_GOING) return false;
    // atomic_inc_not_zero: try_stop_module may have taken the count to 0.
    return atomic_add_unless(mod->refcnt, 1, 0);
}

void ChrdevRun::module_put(int owner) {
    if (owner == NONE) return;
    KFUNC("module_put");
    // atomic_dec_if_positive; the kernel WARNs when it fails. The end
    // balance (kref-balance) reports a module reference put twice.
    atomic_add_unless(mod->refcnt, -1, 0);
}

// The driver's ->open.
int ChrdevRun::drv_open() {
    KFUNC("drv_open");
    bool fail = cfg.driver_open == OPEN_FAIL || (cfg.driver_open == OPEN_EITHER && kchoose(2) == 1);
    if (fail) {
        kstep("drv_open:fail", inode->id, "the driver's ->open fails: -EIO");
        return -EIO;
    }
    return 0;
}

void ChrdevRun::delete_module() {
    KFUNC("delete_module");
    if (READ_ONCE(mod->state) != MODULE_STATE_LIVE) return;  // -EBUSY
    {
        KFUNC("try_stop_module");
        // try_release_module_ref: drop MODULE_REF_BASE; if references
        // remain, put it back unless the count reached 0 meanwhile.
        bool zero = atomic_dec_and_test(mod->refcnt);
        if (!zero && !MUTATION("try-stop-module-no-busy-check") && atomic_add_unless(mod->refcnt, MODULE_REF_BASE, 0)) {
            kstep("try_stop_module:busy", mod->id, "%s is in use: -EWOULDBLOCK", mod->name());
            return;
        }
        module_loaded = false;
        WRITE_ONCE(mod->state, MODULE_STATE_GOING);
    }
    // mod->exit(): the driver unregisters its device.
    KFUNC("drv_exit");
    cdev_del();
    // free_module: the module's memory (its fops, the struct module that
    // every cdev->owner and fops->owner points at) goes. Module memory is
    // not modelled, so its precondition is checked here instead, on the
    // latest count (a ghost read): try_stop_module's busy check and
    // try_module_get's inc_not_zero leave nobody holding a reference.
    int refs = mod->refcnt.peek();
    if (refs != 0)
        violate(this_thread(), "module-freed-while-referenced", nullptr, 0,
                "free_module(%s) with refcnt %d: %d reference(s) taken through it (open files' fops and cdev owner) outlive it",
                mod->name(), refs, refs);
}

// The driver frees the structure its cdev is embedded in (cdev_init'ed
// cdevs): correct only once the kobject release has run.
void ChrdevRun::driver_free() {
    KFUNC("drv_free");
    kfree_cdev(drv_cdev);
}

}  // namespace chrdev
}  // namespace vfsmc
