// chrdev model, fs/char_dev.c: chrdev_open (before seed 002, and seed 002
// v2 with its v1 variant), cdev_get/cdev_put, cdev_purge, cd_forget /
// inode_cdev_forget, cdev_del, cdev_add, fops_get; drivers/base/map.c
// kobj_lookup, kobj_map, kobj_unmap; lib/kobject.c kobject_put and the
// release. See chrdev.h for what the model follows and leaves out (here:
// one device number, at most two cdevs, no base probe).

#include <cerrno>

#include "chrdev.h"

namespace vfsmc {
namespace chrdev {

// cdev_dynamic_release (cdev_alloc'ed cdevs) or cdev_default_release
// (cdevs embedded in a driver structure, which the driver frees itself).
void ChrdevRun::kobject_release(Cdev* p) {
    KFUNC("kobject_release");
    if (!cfg.embedded) {
        KFUNC("cdev_dynamic_release");
        cdev_purge(p);
        kfree_cdev(p);
        // kobject_put(parent): no parent in the model.
    } else {
        KFUNC("cdev_default_release");
        cdev_purge(p);
    }
}

void ChrdevRun::kobject_put(Cdev* p) {
    KFUNC("kobject_put");
    // kref_put(&kobj->kref, kobject_release): the last reference runs the
    // release, which purges i_cdev back-pointers and frees the cdev.
    if (refcount_dec_and_test(p->kref)) kobject_release(p);
}

// The checker's free of a cdev (check_free() looks at its list in the
// free's step).
void ChrdevRun::kfree_cdev(Cdev* p) {
    cdev_freed[cdev_index(p)] = true;
    kfree(p);
}

// inode-on-freed-cdev-list, as the inode or a cdev is freed, in the step
// of the free: an inode still on a cdev's list would keep i_cdev pointing
// to freed memory, or the freed inode would stay on a live cdev's list.
// Judged here and not before the free's scheduling point, where an opener
// could still put the inode on the list before the free runs.
void ChrdevRun::check_free(int id) {
    int c[1] = {list_add_ev};
    if (id == inode->id && inode->i_devices.peek() != NONE) {
        violate(this_thread(), "inode-on-freed-cdev-list", c, list_add_ev >= 0 ? 1 : 0,
                "%s is freed while still on %s's list", inode->name(), object_name(inode->i_devices.peek()));
    } else if (Cdev* p = C(id); p && p->list.peek() != NONE) {
        violate(this_thread(), "inode-on-freed-cdev-list", c, list_add_ev >= 0 ? 1 : 0,
                "%s is freed while %s is still on its list (i_cdev = %s)", p->name(),
                object_name(p->list.peek()), object_name(inode->i_cdev.peek()));
    }
}

// cdev_get: pin the owner module, then the kobject. Post-5.6 it uses
// kobject_get_unless_zero, so a kobject whose release has begun (kref 0)
// is refused; pre-5.6 kobject_get took a reference from 0 (Will Deacon's
// syzbot fix, reference C1).
bool ChrdevRun::cdev_get(Cdev* p) {
    KFUNC("cdev_get");
    int owner = plain_load(p->owner);  // p must still be valid memory
    if (!MUTATION("cdev-get-no-try-module-get") && !try_module_get(owner)) return false;
    bool ok;
    if (cfg.historic_get || MUTATION("cdev-get-no-unless-zero")) {
        KFUNC("kobject_get");
        refcount_inc(p->kref);  // kref_get: "addition on 0; use-after-free"
        ok = true;
    } else {
        KFUNC("kobject_get_unless_zero");
        ok = refcount_inc_not_zero(p->kref);
    }
    if (!ok) module_put(owner);
    return ok;
}

void ChrdevRun::cdev_put(Cdev* p) {
    KFUNC("cdev_put");
    if (!p) return;
    // Read the owner first: after kobject_put the cdev may be gone.
    int owner = plain_load(p->owner);
    kobject_put(p);
    module_put(owner);
}

// list_del_init(&inode->i_devices): unlinks from whichever cdev's list
// it is on (writing that cdev's list head); a no-op when already empty.
void ChrdevRun::list_del_init_i_devices() {
    int on = plain_load(inode->i_devices);
    if (on == NONE) return;
    plain_store(C(on)->list, NONE);
    plain_store(inode->i_devices, NONE);
}

void ChrdevRun::clear_i_cdev() {
    // C7: the kernel clears i_cdev with a plain store; with a lockless
    // reader that is a data race. `i_cdev_clear: WRITE_ONCE` is the fix
    // the reference suggests.
    if (cfg.clear_once) WRITE_ONCE(inode->i_cdev, NONE);
    else plain_store(inode->i_cdev, NONE);
}

// cdev_purge, from the kobject release: under cdev_lock, take every inode
// off the list and clear its back-pointer, so no inode keeps pointing at
// the cdev about to be freed. Before the seed every reader of i_cdev held
// cdev_lock, so a reader either saw NULL or pinned the cdev first.
void ChrdevRun::cdev_purge(Cdev* p) {
    KFUNC("cdev_purge");
    if (!MUTATION("cdev-purge-no-cdev-lock")) spin_lock(cdev_lock);
    // The model's one inode is the only one a cdev's list can hold.
    while (plain_load(p->list) != NONE) {
        kstep("cdev_purge:unlink", inode->id, "%s off %s's list; i_cdev = NULL", inode->name(), p->name());
        list_del_init_i_devices();
        if (!MUTATION("cdev-purge-no-i-cdev-clear")) clear_i_cdev();
    }
    if (!MUTATION("cdev-purge-no-cdev-lock")) spin_unlock(cdev_lock);
}

// cd_forget, from evict (before seed 002).
void ChrdevRun::cd_forget() {
    KFUNC("cd_forget");
    spin_lock(cdev_lock);
    if (!MUTATION("cd-forget-no-list-del")) list_del_init_i_devices();
    clear_i_cdev();
    // inode->i_mapping = &inode->i_data: not modelled.
    spin_unlock(cdev_lock);
}

// inode_cdev_forget: seed 002's cd_forget, renamed, with an assertion
// that only evict, after I_FREEING, calls it.
void ChrdevRun::inode_cdev_forget() {
    KFUNC("inode_cdev_forget");
    // VFS_BUG_ON_INODE(!(inode_state_read_once(inode) & I_FREEING))
    int st = READ_ONCE(inode->i_state);
    KWARN_ON(!(st & I_FREEING), "cdev-forget-freeing",
             "inode_cdev_forget on %s without I_FREEING (i_state %#x)", inode->name(), st);
    spin_lock(cdev_lock);
    if (!MUTATION("cd-forget-no-list-del")) list_del_init_i_devices();
    clear_i_cdev();
    spin_unlock(cdev_lock);
}

// The version's forget, as evict calls it.
void ChrdevRun::forget_cdev() {
    if (cfg.v2) inode_cdev_forget();
    else cd_forget();
}

// drivers/base/map.c kobj_lookup with cdev_add's exact_lock (cdev_get)
// and exact_match: returns the cdev with a reference, or NULL.
Cdev* ChrdevRun::kobj_lookup() {
    KFUNC("kobj_lookup");
    if (!MUTATION("kobj-lookup-no-chrdevs-lock")) mutex_lock(chrdevs_lock);
    Cdev* p = cdev_read(plain_load(probe));
    Cdev* got = nullptr;
    // try_module_get(probe->owner): cdev_add maps with a NULL owner.
    if (p) {
        KFUNC("exact_lock");
        if (cdev_get(p)) got = p;
        // A failed exact_lock: `continue` to the base probe, whose
        // request_module is not modelled: NULL.
    }
    if (!MUTATION("kobj-lookup-no-chrdevs-lock")) mutex_unlock(chrdevs_lock);
    return got;
}

void ChrdevRun::kobj_unmap() {
    KFUNC("kobj_unmap");
    mutex_lock(chrdevs_lock);
    plain_store(probe, NONE);
    mutex_unlock(chrdevs_lock);
}

// kobj_map (cdev_add's): the device number's probe now gives p.
void ChrdevRun::kobj_map(Cdev* p) {
    KFUNC("kobj_map");
    mutex_lock(chrdevs_lock);
    plain_store(probe, p->id);
    mutex_unlock(chrdevs_lock);
}

// cdev_del: no new lookups, then drop the registration reference. Open
// files and inodes on the list may still point at the cdev.
void ChrdevRun::cdev_del() {
    KFUNC("cdev_del");
    Cdev* p = drv_cdev;
    kobj_unmap();
    registered[cdev_index(p)] = false;
    kobject_put(p);
}

// The driver registers its device number again with a new cdev
// (cdev_alloc, then cdev_add): kref 1, the registration's reference.
// kobj_map publishes it under chrdevs_lock, which orders its
// initialization before any kobj_lookup that finds it.
void ChrdevRun::cdev_add() {
    KFUNC("cdev_add");
    Cdev* p = kalloc<Cdev>(ncdevs + 1, 1, cfg.cdev_owner ? (int)mod->id : NONE, (int)fops->id, NONE);
    registered[ncdevs] = true;
    cdevs[ncdevs++] = p;
    drv_cdev = p;
    kobj_map(p);
}

// fops_get(p->ops): pins the fops owner module; NULL when it cannot.
Fops* ChrdevRun::fops_get(Cdev* p) {
    KFUNC("fops_get");
    int ops = plain_load(p->ops);
    // The model's one struct file_operations is the only one a cdev's
    // ops can name.
    Fops* f = ops == fops->id ? fops : nullptr;
    if (!f) return nullptr;
    int owner = plain_load(f->owner);
    return try_module_get(owner) ? f : nullptr;
}

// chrdev_open before seed 002 (fs/char_dev.c up to v6.18). Returns 0
// or -errno; *f_op is the driver's fops that replace_fops installed
// (holding a module reference through fops_get), or NULL. The read of inode->i_cdev and
// cdev_get() happen under cdev_lock, and cdev_purge needs that lock
// before the cdev can be freed, so p is valid memory for cdev_get.
int ChrdevRun::chrdev_open_pre_seed(Fops** f_op) {
    KFUNC("chrdev_open");
    *f_op = nullptr;
    Cdev* p = nullptr;
    int ret = 0;
    if (!MUTATION("pre-seed-open-no-cdev-lock")) spin_lock(cdev_lock);
    int cur = plain_load(inode->i_cdev);
    if (cur == NONE) {
        if (!MUTATION("pre-seed-open-no-cdev-lock")) spin_unlock(cdev_lock);
        Cdev* nw = kobj_lookup();
        if (!nw) return -ENXIO;
        spin_lock(cdev_lock);
        // Check i_cdev again: another opener may have installed it
        // while the lock was dropped.
        if (!MUTATION("pre-seed-no-i-cdev-recheck")) cur = plain_load(inode->i_cdev);
        if (cur == NONE) {
            plain_store(inode->i_cdev, nw->id);
            p = nw;
            install_list_add(p);
            nw = nullptr;  // the lookup reference becomes the file's
        } else {
            p = cdev_read(cur);
            kstep("chrdev_open:lost-race", inode->id, "i_cdev = %s installed by another opener", p->name());
            if (!cdev_get(p)) ret = -ENXIO;
        }
        spin_unlock(cdev_lock);
        cdev_put_new(nw);  // drop the lookup reference if we lost the race
    } else {
        p = cdev_read(cur);
        if (!cdev_get(p)) ret = -ENXIO;
        if (!MUTATION("pre-seed-open-no-cdev-lock")) spin_unlock(cdev_lock);
    }
    if (ret) return ret;

    ret = -ENXIO;  // fops_get failing below is -ENXIO
    {
        Fops* fops = fops_get(p);
        if (!fops) {
            kstep("chrdev_open:no-fops", inode->id, "fops_get fails (owner module going): return %d", ret);
            goto out_cdev_put;
        }
        // replace_fops(filp, fops)
        *f_op = fops;
    }
    ret = drv_open();
    if (ret) goto out_cdev_put;
    opened_cdev[this_thread()] = cdev_index(p);
    return 0;
out_cdev_put:
    cdev_put(p);
    return ret;
}

// chrdev_open of seed 002 v2: a READ_ONCE fast path without cdev_lock,
// and the install with WRITE_ONCE under it. v1 is this function without
// `new = NULL` after the install (marked below with broken()).
int ChrdevRun::chrdev_open_v2(Fops** f_op) {
    KFUNC("chrdev_open");
    *f_op = nullptr;
    Cdev* p = nullptr;
    int ret = 0;
    // icount >= 1 means evict (and so inode_cdev_forget) cannot run;
    // nothing here stops cdev_purge and the kfree.
    int cnt = atomic_read(inode->i_count);
    KWARN_ON(cnt < 1, "chrdev-open-icount", "chrdev_open on %s with i_count %d", inode->name(), cnt);
    int cur = READ_ONCE(inode->i_cdev);
    if (cur == NONE) {
        Cdev* nw = kobj_lookup();
        if (!nw) return -ENXIO;
        spin_lock(cdev_lock);
        if (!MUTATION("v2-no-i-cdev-recheck")) cur = plain_load(inode->i_cdev);
        if (cur == NONE) {
            p = nw;
            WRITE_ONCE(inode->i_cdev, p->id);  // pairs with the READ_ONCE above
            install_list_add(p);
            // v1 lost this line in the refactoring (v2: "add back
            // new = NULL"): cdev_put(new) below then drops the
            // reference the file was to keep.
            if (!broken(V1_NO_NEW_NULL)) nw = nullptr;
            else kstep("chrdev_open:v1-no-new-null", inode->id, "v1: new still points to %s after the install", p->name());
        } else {
            p = cdev_read(cur);
            kstep("chrdev_open:lost-race", inode->id, "i_cdev = %s installed by another opener", p->name());
            if (!cdev_get(p)) ret = -ENXIO;
        }
        spin_unlock(cdev_lock);
        cdev_put_new(nw);
    } else {
        // The fast path: p was read without cdev_lock and without a
        // reference; only kobject_get_unless_zero stands between it
        // and a cdev that cdev_purge + kfree may already have freed.
        kstep("chrdev_open:fast-path", inode->id,
              "p = %s read by READ_ONCE(inode->i_cdev), no cdev_lock, no reference", object_name(cur));
        p = cdev_read(cur);
        // cdev_get's first access, p->owner, is a plain load of
        // memory nothing pins: the release may purge and free p
        // before it. The load runs in one step with the READ_ONCE
        // above; a free it does not happen before is reported by the
        // free (kfree's race check).
        if (!cdev_get(p)) ret = -ENXIO;
    }
    if (ret) return ret;

    // The seed dropped `ret = -ENXIO;` here: ret stays 0 (reference C3).
    {
        Fops* fops = fops_get(p);
        if (!fops) {
            kstep("chrdev_open:no-fops", inode->id, "fops_get fails (owner module going): return %d", ret);
            goto out_cdev_put;
        }
        // replace_fops(filp, fops)
        *f_op = fops;
    }
    ret = drv_open();
    if (ret) goto out_cdev_put;
    opened_cdev[this_thread()] = cdev_index(p);
    return 0;
out_cdev_put:
    cdev_put(p);
    return ret;
}

// cdev_put(new): the lookup reference of an opener that lost the
// install race (cdev_put(NULL) does nothing: not called then).
void ChrdevRun::cdev_put_new(Cdev* nw) {
    if (!broken(SKIP_CDEV_PUT_NEW)) {
        cdev_put(nw);
    } else if (nw) {
        skipped_put_ev = kstep_ev("chrdev_open:skip-cdev-put-new", inode->id, "mutation: the lookup reference on %s is kept", nw->name());
    }
}

void ChrdevRun::install_list_add(Cdev* p) {
    // CONFIG_DEBUG_LIST's __list_add_valid: the entry must not already
    // be on a list (a second list_add of the same inode corrupts
    // p->list). A ghost read (peek): the check is the kernel's, not a
    // step of the protocol.
    KWARN_ON(inode->i_devices.peek() != NONE, "cdev-list-double-add",
             "list_add of %s onto %s's list, but it is already on %s's list (a second install)", inode->name(),
             p->name(), object_name(inode->i_devices.peek()));
    // list_add(&inode->i_devices, &p->list): cdev_purge finds the inode
    // through this list.
    plain_store(inode->i_devices, p->id);
    plain_store(p->list, inode->id);
    // The install step, for the report.
    list_add_ev = kstep_ev("chrdev_open:install", inode->id, "i_cdev = %s; %s on %s's list", p->name(), inode->name(), p->name());
}

}  // namespace chrdev
}  // namespace vfsmc
