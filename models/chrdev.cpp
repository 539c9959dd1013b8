// chrdev: opening a character device node, against the lifetimes of the
// inode (evict, cd_forget) and of the cdev (cdev_del, the kobject release
// and cdev_purge).
//
// Follows (paraphrased in ../shared/reference/open-refs-and-chrdev.md,
// sections C1-C7, D "Seed 002" and E):
//   fs/char_dev.c   chrdev_open (before seed 002, fully under cdev_lock; and
//                   seed 002 v2, with the READ_ONCE fast path and the
//                   WRITE_ONCE install), cdev_get (post-5.6:
//                   try_module_get + kobject_get_unless_zero; and the
//                   pre-5.6 kobject_get), cdev_put, cd_forget /
//                   inode_cdev_forget, cdev_purge, cdev_del,
//                   cdev_dynamic_release / cdev_default_release, exact_lock
//   drivers/base/map.c  kobj_lookup, kobj_unmap (under chrdevs_lock)
//   lib/kobject.c   kobject_get, kobject_get_unless_zero, kobject_put,
//                   kobject_release (reduced to the ktype's release)
//   fs/open.c       do_dentry_open (the f_op swap, the ->open call, the
//                   fops_put on failure, FMODE_OPENED)
//   fs/file_table.c __fput (cdev_put(inode->i_cdev), fops_put)
//   fs/inode.c      iput, iput_final, inode_lru_isolate (prune_icache_sb),
//                   evict, destroy_inode (torvalds/linux @003a6607, which
//                   still calls cd_forget; inode_state_* helpers: WRITE_ONCE
//                   under i_lock, inode_state_read_once = READ_ONCE)
//   kernel/module/main.c  try_module_get, module_put, delete_module,
//                   try_stop_module, try_release_module_ref
// Motivated by seed 002 (../shared/seeds/002_48634ab378f180fb.txt,
// "[PATCH v2] fs: scale opening of character devices", Mateusz Guzik,
// 2025-11-21), which drops cdev_lock from chrdev_open's fast path, claiming
// the lock is needed only against cd_forget(), which only evict() calls.
// Jan Kara's review (reference C6) points out cdev_purge().
//
// Left out, and what that could hide:
// - One device node: one inode, one device number, one owner module, one
//   fops. At most two cdevs: the one the scenario starts with and one the
//   driver registers again on the same device number (`cdev_add`). Two
//   inodes on one cdev's list (a devtmpfs node and a mknod copy) would
//   exercise cdev_purge's loop more than once; each is the same step.
// - The inode reference an opener holds is modelled as one i_count
//   reference per opening thread (`opener_holds_inode_ref`); in the kernel it
//   is the positive dentry's single reference, pinned by the opener's path
//   (reference C5). Dentries, path walk and the inode hash lookup
//   (find_inode, __iget) are not modelled: a cached inode is never revived.
// - iput's I_DIRTY_TIME handling, iput_final's I_WILL_FREE/write_inode_now,
//   evict's writeback waits and inode_sb_list_del, the I_REFERENCED second
//   chance in inode_lru_isolate, and the list_lru locks: none of them
//   touches i_cdev or the cdev.
// - kobject parents (kobject_put(parent) in the release), sysfs, uevents and
//   CONFIG_DEBUG_KOBJECT_RELEASE's delayed release.
// - kobj_lookup's base probe (request_module of a missing driver) and its
//   retry: a failed exact_lock returns NULL here.
// - delete_module's module_mutex (one unloader per scenario), forced unload,
//   and free_module (module memory is never freed).
// - The module's `state` is read and written with READ_ONCE/WRITE_ONCE; the
//   kernel uses plain accesses there (a benign race, outside this seed), so
//   `data-race` reports stay about inode->i_cdev.
// - The driver's ->release and file->f_mapping; the driver ->open is one
//   nondeterministic step.
// Engine notes:
// - The v2 fast path's READ_ONCE(inode->i_cdev) and cdev_get()'s plain load
//   of p->owner run in one step; a cdev_purge + kfree that the load does
//   not happen before is reported by the free (kfree's race check), so no
//   scheduling point between them is needed.
// - The race check is C++11 happens-before plus one LKMM rule (kernel.h,
//   kfield::race_check): a plain read after a marked read of the same
//   store and a barrier is ordered after that store. A v2 fast-path opener
//   that read another opener's WRITE_ONCE install and then closes loads
//   inode->i_cdev plainly in __fput: ordered by fput's task_work atomics
//   (the smp_mb in fput_final), not a race (concurrent-first-open-v2-close).
#include <cerrno>
#include <cstdio>

#include "contract/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace {

// include/linux/fs.h inode state bits (the values do not matter, only the
// bits the model tests).
constexpr int I_WILL_FREE = 1 << 4;
constexpr int I_FREEING = 1 << 5;
constexpr int I_CLEAR = 1 << 6;
constexpr int I_REFERENCED = 1 << 8;

// include/linux/module.h
constexpr int MODULE_STATE_LIVE = 0;
constexpr int MODULE_STATE_GOING = 2;
constexpr int MODULE_REF_BASE = 1;

constexpr int NONE = -1;  // a NULL pointer field

enum Op : int {
    OP_OPEN,
    OP_CLOSE,
    OP_IPUT,
    OP_PRUNE_ICACHE,
    OP_CDEV_DEL,
    OP_DELETE_MODULE,
    OP_DRIVER_FREE,
    OP_CD_FORGET,
    OP_CDEV_ADD,
};

// The deliberately broken variants a scenario can select (broken()).
enum ChrdevBug {
    V1_NO_NEW_NULL,     // version v1: seed 002 v1 lost `new = NULL` after the install
    SKIP_CDEV_PUT_NEW,  // mutation skip-cdev-put-new: no cdev_put(new) after a lost install race
};


enum DriverOpen : int { OPEN_SUCCEED, OPEN_FAIL, OPEN_EITHER };

constexpr int kMaxOps = 8;
constexpr int kMaxFiles = 8;
constexpr int kMaxCdevs = 2;  // the initial cdev and one cdev_add
// A thread opens at most once per op: its files fit in kMaxFiles.
static_assert(kMaxFiles >= kMaxOps, "one file slot per op of a thread");

struct ChrdevCfg {
    // knobs
    bool v2 = false;  // seed 002's chrdev_open and inode_cdev_forget (else before the seed)
    BrokenSet<ChrdevBug> broken;
    bool historic_get = false;
    int driver_open = OPEN_SUCCEED;
    bool opener_ref = true;
    bool embedded = false;
    bool clear_once = false;
    // init
    bool installed = false;
    bool registered = true;
    int open_files = 0;
    int i_count = 0;
    int i_nlink = 1;
    bool cdev_owner = false;
    bool fops_owner = false;
    // threads
    int nthreads = 0;
    int nops[kMaxScenarioThreads] = {};
    int ops[kMaxScenarioThreads][kMaxOps] = {};
};

// struct module: state and refcnt (MODULE_REF_BASE while loaded).
struct Module : kobj {
    kfield<int> state;
    atomic_t refcnt;
    Module(int refs) : kobj("module", "module \"drv\""), state(this, "state", MODULE_STATE_LIVE), refcnt(this, "refcnt", refs) {
        refcnt.counts_refs();
    }
};

// The driver's struct file_operations: its owner never changes.
struct Fops : kobj {
    kfield<int> owner;
    Fops(int owner_id) : kobj("fops", "drv_fops"), owner(this, "owner", owner_id) { owner.pointer(); }
};

// struct cdev: kobj.kref, owner, ops, and the list of inodes whose i_cdev
// points here (list.next: the one inode of the model, or NULL when empty).
struct Cdev : kobj {
    refcount_t kref;
    kfield<int> owner;
    kfield<int> ops;
    kfield<int> list;
    // The scenario's cdev: list.next is given by the caller once the inode
    // exists (kfield::init).
    Cdev(int n, int refs, int owner_id, int ops_id)
        : kobj("cdev", "cdev#%d", n),
          kref(this, "kobj.kref", refs, "kref-underflow"),
          owner(this, "owner", owner_id),
          ops(this, "ops", ops_id),
          list(this, "list.next", deferred_init) {
        owner.pointer();
        ops.pointer();
        list.pointer();
    }
    // A cdev allocated during the run (cdev_alloc): its list is empty.
    Cdev(int n, int refs, int owner_id, int ops_id, int list_next)
        : kobj("cdev", "cdev#%d", n),
          kref(this, "kobj.kref", refs, "kref-underflow"),
          owner(this, "owner", owner_id),
          ops(this, "ops", ops_id),
          list(this, "list.next", list_next) {
        owner.pointer();
        ops.pointer();
        list.pointer();
    }
};

// struct inode of the device node: i_count, i_state, i_lock, i_cdev (a
// pointer that holds no reference), i_devices (which cdev's list it is on:
// NULL is list_empty), and whether it sits on the sb's LRU.
struct Inode : kobj {
    atomic_t i_count;
    kfield<int> i_state;
    spinlock_t i_lock;
    kfield<int> i_cdev;
    kfield<int> i_devices;
    kfield<int> i_lru;
    kfield<int> i_nlink;
    Inode(int count, int cdev_id, int nlink, bool lru)
        : kobj("inode", "inode \"foo\""),
          i_count(this, "i_count", count),
          i_state(this, "i_state", 0),
          i_lock(this, "i_lock"),
          i_cdev(this, "i_cdev", cdev_id),
          i_devices(this, "i_devices", cdev_id),
          i_lru(this, "i_lru", lru ? 1 : 0),
          i_nlink(this, "i_nlink", nlink) {
        i_count.counts_refs();
        i_cdev.pointer();
        i_devices.pointer();
    }
};

struct ChrdevRun : ModelRun {
    const ChrdevCfg& cfg;
    // Globals of fs/char_dev.c and drivers/base/map.c.
    kobj char_dev{"char_dev", "char_dev"};
    spinlock_t cdev_lock{&char_dev, "cdev_lock"};
    kobj cdev_map{"cdev_map", "cdev_map"};
    mutex chrdevs_lock{&cdev_map, "chrdevs_lock"};
    kfield<int> probe;  // probes[MAJOR(dev)]: the cdev mapped for the device number
    Module* mod = nullptr;
    Fops* fops = nullptr;
    Cdev* cdev = nullptr;      // cdev#1, the cdev the scenario starts with
    Cdev* drv_cdev = nullptr;  // the driver's cdev (what its cdev_del names)
    Inode* inode = nullptr;
    // Every cdev of the run, to find one by the id a pointer field holds.
    Cdev* cdevs[kMaxCdevs] = {};
    int ncdevs = 0;

    // Each thread's open files as chrdev_open left them: the f_op
    // replace_fops installed (fops_get's result, or NULL for def_chr_fops,
    // which has no owner). Thread-local, like the struct file.
    Fops* file_fop[kMaxScenarioThreads][kMaxFiles] = {};

    // Ghost state: what the checker knows, never read by the kernel code.
    bool registered[kMaxCdevs] = {};  // the registration reference is still held
    bool module_loaded = true;      // MODULE_REF_BASE still held
    bool cdev_freed[kMaxCdevs] = {};
    bool inode_freed = false;
    int pre_files = 0;              // initial open files not closed yet
    int nfiles[kMaxScenarioThreads] = {};   // files opened (FMODE_OPENED) by each thread
    int file_cdev[kMaxScenarioThreads][kMaxFiles] = {};  // index in cdevs of the cdev each file holds a reference on
    int opened_cdev[kMaxScenarioThreads] = {};  // the cdev a successful chrdev_open took its reference on
    int list_add_ev = -1;           // the event that put the inode on the list
    int skipped_put_ev = -1;        // mutation skip-cdev-put-new: where the lookup reference leaked

    // The cdev, its inode and the probe point at each other from the start:
    // their pointer fields get their first values once all three exist.
    bool broken(ChrdevBug b) const { return cfg.broken.has(b); }

    // The cdev a pointer field's value names (NULL for NONE).
    Cdev* C(int id) const {
        for (int i = 0; i < ncdevs; i++)
            if (cdevs[i]->id == id) return cdevs[i];
        return nullptr;
    }
    int cdev_index(const Cdev* p) const {
        for (int i = 0; i < ncdevs; i++)
            if (cdevs[i] == p) return i;
        return 0;
    }
    // The cdev a load of a pointer field returned. Under the mutation
    // chrdev-ignore-value-read it is the cdev the scenario started with,
    // whatever the load returned: a model that uses what it assumes
    // instead of what it read.
    Cdev* cdev_read(int id) const {
        if (MUTATION("chrdev-ignore-value-read") && id != NONE) return cdev;
        return C(id);
    }

    explicit ChrdevRun(const ChrdevCfg& c) : cfg(c), probe(&cdev_map, "probes[dev]", deferred_init) {
        probe.pointer();
        int per_file = (cfg.cdev_owner ? 1 : 0) + (cfg.fops_owner ? 1 : 0);
        mod = kalloc_static<Module>(MODULE_REF_BASE + cfg.open_files * per_file);
        fops = kalloc_static<Fops>(cfg.fops_owner ? (int)mod->id : NONE);
        int refs = (cfg.registered ? 1 : 0) + cfg.open_files;
        cdev = kalloc<Cdev>(1, refs, cfg.cdev_owner ? (int)mod->id : NONE, (int)fops->id);
        cdevs[ncdevs++] = cdev;
        drv_cdev = cdev;
        int total = cfg.i_count;
        if (cfg.opener_ref)
            for (int t = 0; t < cfg.nthreads; t++)
                for (int k = 0; k < cfg.nops[t]; k++)
                    if (cfg.ops[t][k] == OP_OPEN) {
                        total++;
                        break;
                    }
        inode = kalloc<Inode>(total, cfg.installed ? (int)cdev->id : NONE, cfg.i_nlink, total == 0);
        cdev->list.init(cfg.installed ? (int)inode->id : NONE);
        probe.init(cfg.registered ? (int)cdev->id : NONE);
        registered[0] = cfg.registered;
        pre_files = cfg.open_files;
    }

    // ---- kernel/module/main.c ------------------------------------------------
    bool try_module_get(int owner) {
        if (owner == NONE) return true;  // built-in: no module to pin
        KFUNC("try_module_get");
        // module_is_live(): a module being unloaded takes no new references.
        if (!MUTATION("try-module-get-no-going-test") && READ_ONCE(mod->state) == MODULE_STATE_GOING) return false;
        // atomic_inc_not_zero: try_stop_module may have taken the count to 0.
        return atomic_add_unless(mod->refcnt, 1, 0);
    }
    void module_put(int owner) {
        if (owner == NONE) return;
        KFUNC("module_put");
        // atomic_dec_if_positive; the kernel WARNs when it fails. The end
        // balance (kref-balance) reports a module reference put twice.
        atomic_add_unless(mod->refcnt, -1, 0);
    }

    // ---- lib/kobject.c on the cdev's kobject ------------------------------------
    // cdev_dynamic_release (cdev_alloc'ed cdevs) or cdev_default_release
    // (cdevs embedded in a driver structure, which the driver frees itself).
    void kobject_release(Cdev* p) {
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
    void kobject_put(Cdev* p) {
        KFUNC("kobject_put");
        // kref_put(&kobj->kref, kobject_release): the last reference runs the
        // release, which purges i_cdev back-pointers and frees the cdev.
        if (refcount_dec_and_test(p->kref)) kobject_release(p);
    }

    // The checker's free of a cdev: no inode may still be on its list (an
    // inode's i_cdev would then point to freed memory).
    void kfree_cdev(Cdev* p) {
        if (p->list.peek() != NONE) {
            int c[1] = {list_add_ev};
            violate(this_thread(), "inode-on-freed-cdev-list", c, list_add_ev >= 0 ? 1 : 0,
                    "%s is freed while %s is still on its list (i_cdev = %s)", p->name(),
                    object_name(p->list.peek()), object_name(inode->i_cdev.peek()));
        }
        cdev_freed[cdev_index(p)] = true;
        kfree(p);
    }

    // ---- fs/char_dev.c -------------------------------------------------------------
    // cdev_get: pin the owner module, then the kobject. Post-5.6 it uses
    // kobject_get_unless_zero, so a kobject whose release has begun (kref 0)
    // is refused; pre-5.6 kobject_get took a reference from 0 (Will Deacon's
    // syzbot fix, reference C1).
    bool cdev_get(Cdev* p) {
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
    void cdev_put(Cdev* p) {
        KFUNC("cdev_put");
        if (!p) return;
        // Read the owner first: after kobject_put the cdev may be gone.
        int owner = plain_load(p->owner);
        kobject_put(p);
        module_put(owner);
    }

    // list_del_init(&inode->i_devices): unlinks from whichever cdev's list
    // it is on (writing that cdev's list head); a no-op when already empty.
    void list_del_init_i_devices() {
        int on = plain_load(inode->i_devices);
        if (on == NONE) return;
        plain_store(C(on)->list, NONE);
        plain_store(inode->i_devices, NONE);
    }
    void clear_i_cdev() {
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
    void cdev_purge(Cdev* p) {
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
    void cd_forget() {
        KFUNC("cd_forget");
        spin_lock(cdev_lock);
        if (!MUTATION("cd-forget-no-list-del")) list_del_init_i_devices();
        clear_i_cdev();
        // inode->i_mapping = &inode->i_data: not modelled.
        spin_unlock(cdev_lock);
    }
    // inode_cdev_forget: seed 002's cd_forget, renamed, with an assertion
    // that only evict, after I_FREEING, calls it.
    void inode_cdev_forget() {
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
    void forget_cdev() {
        if (cfg.v2) inode_cdev_forget();
        else cd_forget();
    }

    // drivers/base/map.c kobj_lookup with cdev_add's exact_lock (cdev_get)
    // and exact_match: returns the cdev with a reference, or NULL.
    Cdev* kobj_lookup() {
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
    void kobj_unmap() {
        KFUNC("kobj_unmap");
        mutex_lock(chrdevs_lock);
        plain_store(probe, NONE);
        mutex_unlock(chrdevs_lock);
    }
    // kobj_map (cdev_add's): the device number's probe now gives p.
    void kobj_map(Cdev* p) {
        KFUNC("kobj_map");
        mutex_lock(chrdevs_lock);
        plain_store(probe, p->id);
        mutex_unlock(chrdevs_lock);
    }

    // cdev_del: no new lookups, then drop the registration reference. Open
    // files and inodes on the list may still point at the cdev.
    void cdev_del() {
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
    void cdev_add() {
        KFUNC("cdev_add");
        Cdev* p = kalloc<Cdev>(ncdevs + 1, 1, cfg.cdev_owner ? (int)mod->id : NONE, (int)fops->id, NONE);
        registered[ncdevs] = true;
        cdevs[ncdevs++] = p;
        drv_cdev = p;
        kobj_map(p);
    }

    // fops_get(p->ops): pins the fops owner module; NULL when it cannot.
    Fops* fops_get(Cdev* p) {
        KFUNC("fops_get");
        int ops = plain_load(p->ops);
        // The model's one struct file_operations is the only one a cdev's
        // ops can name.
        Fops* f = ops == fops->id ? fops : nullptr;
        if (!f) return nullptr;
        int owner = plain_load(f->owner);
        return try_module_get(owner) ? f : nullptr;
    }

    // The driver's ->open.
    int drv_open() {
        KFUNC("drv_open");
        bool fail = cfg.driver_open == OPEN_FAIL || (cfg.driver_open == OPEN_EITHER && kchoose(2) == 1);
        if (fail) {
            kstep("drv_open:fail", inode->id, "the driver's ->open fails: -EIO");
            return -EIO;
        }
        return 0;
    }

    // chrdev_open before seed 002 (fs/char_dev.c up to v6.18). Returns 0
    // or -errno; *fops_ref tells whether filp->f_op was replaced by the
    // driver's (holding a module reference). The read of inode->i_cdev and
    // cdev_get() happen under cdev_lock, and cdev_purge needs that lock
    // before the cdev can be freed, so p is valid memory for cdev_get.
    int chrdev_open_pre_seed(Fops** f_op) {
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
    int chrdev_open_v2(Fops** f_op) {
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
    void cdev_put_new(Cdev* nw) {
        if (!broken(SKIP_CDEV_PUT_NEW)) {
            cdev_put(nw);
        } else if (nw) {
            kstep("chrdev_open:skip-cdev-put-new", inode->id, "mutation: the lookup reference on %s is kept", nw->name());
            skipped_put_ev = last_event();
        }
    }
    void install_list_add(Cdev* p) {
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
        kstep("chrdev_open:install", inode->id, "i_cdev = %s; %s on %s's list", p->name(), inode->name(), p->name());
        list_add_ev = last_event();  // the install step, for the report
    }

    // ---- fs/open.c, fs/file_table.c ------------------------------------------------
    void do_dentry_open(int t) {
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
    void fops_put(Fops* f) {
        KFUNC("fops_put");
        if (f) module_put(plain_load(f->owner));
    }
    // __fput (the deferred final fput) of the thread's last file, or of one
    // of the files open before the scenario.
    void fput_final(int t) {
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

    // ---- fs/inode.c --------------------------------------------------------------------
    void iput() {
        KFUNC("iput");
        // Fast path: not the last reference.
        if (atomic_add_unless(inode->i_count, -1, 1)) return;
        // I_DIRTY_TIME (lazytime) retry: not modelled.
        spin_lock(inode->i_lock);
        if (!atomic_dec_and_test(inode->i_count)) {
            spin_unlock(inode->i_lock);
            return;
        }
        iput_final();
    }
    void iput_final() {
        KFUNC("iput_final");
        // generic_drop_inode: drop when unlinked (or unhashed).
        bool drop = plain_load(inode->i_nlink) == 0;
        if (!drop) {
            // Cached with count 0; i_cdev and the list membership stay.
            plain_store(inode->i_lru, 1);  // inode_add_lru
            kstep("iput_final:cached", inode->id, "%s cached on the LRU with i_count 0", inode->name());
            spin_unlock(inode->i_lock);
            return;
        }
        // I_WILL_FREE + write_inode_now for a clean drop: not modelled.
        if (!MUTATION("iput-final-no-i-freeing")) WRITE_ONCE(inode->i_state, plain_load(inode->i_state) | I_FREEING);  // inode_state_set
        kstep("iput_final:I_FREEING", inode->id, "%s: I_FREEING", inode->name());
        if (plain_load(inode->i_lru)) plain_store(inode->i_lru, 0);  // inode_lru_list_del
        spin_unlock(inode->i_lock);
        evict();
    }
    // prune_icache_sb -> list_lru walk -> inode_lru_isolate -> dispose_list.
    void prune_icache_sb() {
        KFUNC("prune_icache_sb");
        if (!spin_trylock(inode->i_lock)) return;  // LRU_SKIP
        if (!plain_load(inode->i_lru)) {  // not on the LRU: the walk does not see it
            spin_unlock(inode->i_lock);
            return;
        }
        // A referenced or busy inode is taken off the LRU, not freed: this
        // recheck under i_lock is what keeps an inode with i_count >= 1
        // away from evict.
        if ((!MUTATION("inode-lru-isolate-no-i-count-recheck") && atomic_read(inode->i_count)) || (plain_load(inode->i_state) & ~I_REFERENCED)) {
            plain_store(inode->i_lru, 0);
            spin_unlock(inode->i_lock);
            return;
        }
        WRITE_ONCE(inode->i_state, plain_load(inode->i_state) | I_FREEING);
        kstep("inode_lru_isolate:I_FREEING", inode->id, "%s: I_FREEING (i_count 0, on the LRU)", inode->name());
        plain_store(inode->i_lru, 0);
        spin_unlock(inode->i_lock);
        evict();  // dispose_list
    }
    void evict() {
        KFUNC("evict");
        // BUG_ON(!(inode_state_read_once(inode) & I_FREEING)): both callers set it.
        // inode_sb_list_del, writeback waits, truncate_inode_pages_final: not modelled.
        // clear_inode: no concurrent modifications to i_state once I_FREEING.
        WRITE_ONCE(inode->i_state, I_FREEING | I_CLEAR);
        // S_ISCHR(inode->i_mode) && inode->i_cdev: an unlocked plain read;
        // list_del_init makes a forget after a purge harmless (reference C4).
        if (plain_load(inode->i_cdev) != NONE) forget_cdev();
        // remove_inode_hash, wake_up_bit(__I_NEW): not modelled.
        destroy_inode();
    }
    void destroy_inode() {
        KFUNC("destroy_inode");
        if (inode->i_devices.peek() != NONE) {
            int c[1] = {list_add_ev};
            violate(this_thread(), "inode-on-freed-cdev-list", c, list_add_ev >= 0 ? 1 : 0,
                    "%s is freed while still on %s's list", inode->name(), object_name(inode->i_devices.peek()));
        }
        inode_freed = true;
        // i_callback after an RCU grace period; nobody here reads the inode
        // under rcu_read_lock, so it is freed at once.
        call_rcu_free(inode->id);
    }

    // ---- kernel/module/main.c: rmmod ---------------------------------------------------
    void delete_module() {
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
        // free_module: module memory is not modelled.
    }
    // The driver frees the structure its cdev is embedded in (cdev_init'ed
    // cdevs): correct only once the kobject release has run.
    void driver_free() {
        KFUNC("drv_free");
        kfree_cdev(drv_cdev);
    }

    void thread(int t) override {
        for (int k = 0; k < cfg.nops[t]; k++) {
            switch (cfg.ops[t][k]) {
                case OP_OPEN: do_dentry_open(t); break;
                case OP_CLOSE: fput_final(t); break;
                case OP_IPUT: iput(); break;
                case OP_PRUNE_ICACHE: prune_icache_sb(); break;
                case OP_CDEV_DEL: cdev_del(); break;
                case OP_DELETE_MODULE: delete_module(); break;
                case OP_DRIVER_FREE: driver_free(); break;
                case OP_CD_FORGET: forget_cdev(); break;
                case OP_CDEV_ADD: cdev_add(); break;
            }
        }
    }

    int open_files() const {
        int n = pre_files;
        for (int t = 0; t < cfg.nthreads; t++) n += nfiles[t];
        return n;
    }
    // Open files holding a reference on cdevs[c].
    int open_files_on(int c) const {
        int n = c == 0 ? pre_files : 0;
        for (int t = 0; t < cfg.nthreads; t++)
            for (int i = 0; i < nfiles[t]; i++) n += file_cdev[t][i] == c ? 1 : 0;
        return n;
    }
    int open_fops_refs() const {
        int n = cfg.fops_owner ? pre_files : 0;
        for (int t = 0; t < cfg.nthreads; t++)
            for (int i = 0; i < nfiles[t]; i++) n += file_fop[t][i] && cfg.fops_owner ? 1 : 0;
        return n;
    }

    void check_final() override {
        int files = open_files();
        for (int i = 0; i < ncdevs; i++) {
            Cdev* p = cdevs[i];
            int on = open_files_on(i);
            int want = on + (registered[i] ? 1 : 0);
            if (cdev_freed[i]) {
                if (want != 0)
                    violate(this_thread(), "kref-balance", nullptr, 0,
                            "%s was freed but %d open file(s)%s still count on a reference", p->name(), on,
                            registered[i] ? " and the registration" : "");
            } else {
                int kref = p->kref.peek();
                int c[1] = {skipped_put_ev};
                if (kref != want)
                    violate(this_thread(), "kref-balance", c, skipped_put_ev >= 0 ? 1 : 0,
                            "%s.kobj.kref ends at %d, expected %d (%d open file(s)%s)", p->name(), kref, want, on,
                            registered[i] ? " + the registration" : "");
            }
        }
        if (cfg.cdev_owner || cfg.fops_owner) {
            int mwant = (module_loaded ? MODULE_REF_BASE : 0) + (cfg.cdev_owner ? files : 0) + open_fops_refs();
            int refs = mod->refcnt.peek();
            if (refs != mwant)
                violate(this_thread(), "kref-balance", nullptr, 0,
                        "%s.refcnt ends at %d, expected %d (the cdev and fops references of %d open file(s)%s)",
                        mod->name(), refs, mwant, files, module_loaded ? " + MODULE_REF_BASE" : "");
        }
    }

    void final_state(std::string& out) const override {
        char buf[256];
        if (inode_freed) {
            out += std::string(inode->name()) + ": freed (evicted)\n";
        } else {
            std::snprintf(buf, sizeof buf, "%s: i_count %d, i_state%s%s, i_cdev %s, %s, %s\n", inode->name(),
                          inode->i_count.peek(), (inode->i_state.peek() & I_FREEING) ? " I_FREEING" : "",
                          (inode->i_state.peek() & ~I_FREEING) == I_CLEAR ? " I_CLEAR" : (inode->i_state.peek() ? "" : " 0"),
                          inode->i_cdev.peek() == NONE ? "NULL" : object_name(inode->i_cdev.peek()),
                          inode->i_devices.peek() == NONE ? "on no cdev list" : "on the cdev's list",
                          inode->i_lru.peek() ? "on the LRU" : "not on the LRU");
            out += buf;
        }
        for (int i = 0; i < ncdevs; i++) {
            const Cdev* p = cdevs[i];
            if (cdev_freed[i]) {
                out += std::string(p->name()) + ": freed\n";
            } else {
                std::snprintf(buf, sizeof buf, "%s: kobj.kref %d, %s, list %s\n", p->name(), p->kref.peek(),
                              registered[i] ? "registered" : "not registered (cdev_del'ed)",
                              p->list.peek() == NONE ? "empty" : object_name(p->list.peek()));
                out += buf;
            }
        }
        if (cfg.cdev_owner || cfg.fops_owner) {
            std::snprintf(buf, sizeof buf, "%s: %s, refcnt %d\n", mod->name(),
                          mod->state.peek() == MODULE_STATE_GOING ? "GOING" : "LIVE", mod->refcnt.peek());
            out += buf;
        }
        std::snprintf(buf, sizeof buf, "open files: %d\n", open_files());
        out += buf;
    }
};

// ---------------------------------------------------------------------------
// What the model declares, once: knobs and init fields (with how prepare()
// reads each into ChrdevCfg), invariants and steps.
// ---------------------------------------------------------------------------
using C = ChrdevCfg;
using V = const Value&;
const ModelDecl<ChrdevCfg> kDecl = {
    // knobs (`config`)
    {
        {enum_field("version", {"pre-seed", "v1", "v2"}, "v2",
                    "chrdev_open before seed 002 (all under cdev_lock), seed 002 v1 (v2 without `new = NULL` after the install) or v2 "
                    "(READ_ONCE fast path)"),
         [](C& c, V v) {
             c.v2 = v.s != "pre-seed";
             if (v.s == "v1") c.broken.set(V1_NO_NEW_NULL);
         }},
        {enum_field("cdev_get", {"get_unless_zero", "kobject_get"}, "get_unless_zero",
                    "kobject_get_unless_zero (post-5.6) or the historic kobject_get"),
         [](C& c, V v) { c.historic_get = v.s == "kobject_get"; }},
        {enum_field("driver_open", {"succeed", "fail", "either"}, "succeed", "the driver's ->open outcome (either: both explored)"),
         [](C& c, V v) { c.driver_open = v.s == "fail" ? OPEN_FAIL : v.s == "either" ? OPEN_EITHER : OPEN_SUCCEED; }},
        {bool_field("opener_holds_inode_ref", "true",
                    "each thread that opens holds an inode reference (its path's dentry) from the start; false is the mutation of reference D.4"),
         [](C& c, V v) { c.opener_ref = v.b; }},
        {enum_field("cdev_alloc", {"dynamic", "embedded"}, "dynamic",
                    "cdev_alloc (the release kfree()s it) or cdev_init in a driver structure (the release only purges)"),
         [](C& c, V v) { c.embedded = v.s == "embedded"; }},
        {enum_field("i_cdev_clear", {"plain", "WRITE_ONCE"}, "plain",
                    "how cdev_purge and cd_forget clear inode->i_cdev: the kernel's plain store, or C7's WRITE_ONCE"),
         [](C& c, V v) { c.clear_once = v.s == "WRITE_ONCE"; }},
        {enum_field("mutation", {"none", "skip-cdev-put-new"}, "none",
                    "skip-cdev-put-new: chrdev_open drops no lookup reference when it loses the install race (kref-balance demo)"),
         [](C& c, V v) {
             if (v.s == "skip-cdev-put-new") c.broken.set(SKIP_CDEV_PUT_NEW);
         }},
    },
    // init
    {
        {bool_field("i_cdev", "false", "inode->i_cdev already points to the cdev (an earlier open installed it; the inode is on its list)"),
         [](C& c, V v) { c.installed = v.b; }},
        {bool_field("registered", "true", "the cdev is still registered (in cdev_map, holding the registration reference)"),
         [](C& c, V v) { c.registered = v.b; }},
        {int_field("open_files", "0", 0, 4, "files already open on the node, each holding a cdev reference (needs i_cdev)"),
         [](C& c, V v) { c.open_files = (int)v.i; }},
        {int_field("i_count", "0", 0, 4, "inode references held besides the openers' (other paths, open files' dentries)"),
         [](C& c, V v) { c.i_count = (int)v.i; }},
        {int_field("i_nlink", "1", 0, 1, "0: the node is unlinked and the last iput evicts it; 1: it is cached on the LRU"),
         [](C& c, V v) { c.i_nlink = (int)v.i; }},
        {enum_field("cdev_owner", {"none", "module"}, "none", "cdev->owner: NULL (built-in, like /dev/null) or the driver module"),
         [](C& c, V v) { c.cdev_owner = v.s == "module"; }},
        {enum_field("fops_owner", {"none", "module"}, "none", "the driver fops' owner: NULL or the driver module"),
         [](C& c, V v) { c.fops_owner = v.s == "module"; }},
    },
    // invariants
    {"cdev-use-after-free", "kref-underflow", "kref-balance", "inode-on-freed-cdev-list", "cdev-list-double-add",
     "chrdev-open-icount", "cdev-forget-freeing"},
    // steps: every KFUNC and kstep name (tests/declare_test.cpp)
    {"fput", "do_dentry_open", "chrdev_open", "chrdev_open:fast-path", "chrdev_open:install",
     "chrdev_open:lost-race", "chrdev_open:v1-no-new-null", "chrdev_open:no-fops", "chrdev_open:skip-cdev-put-new", "do_dentry_open:opened", "do_dentry_open:failed",
     "kobj_lookup", "exact_lock", "kobj_unmap", "cdev_get", "kobject_get", "kobject_get_unless_zero",
     "cdev_put", "kobject_put", "kobject_release", "cdev_dynamic_release", "cdev_default_release",
     "cdev_purge", "cdev_purge:unlink", "cdev_del", "fops_get", "fops_put", "drv_open", "drv_open:fail",
     "__fput", "__fput:not-opened", "iput", "iput_final", "iput_final:cached", "iput_final:I_FREEING",
     "prune_icache_sb", "inode_lru_isolate:I_FREEING", "evict", "cd_forget", "inode_cdev_forget",
     "destroy_inode", "try_module_get", "module_put", "delete_module", "try_stop_module",
     "try_stop_module:busy", "drv_exit", "drv_free", "cdev_add", "kobj_map"}
};

struct ChrdevModel : Model {
    ModelSpec s;
    ChrdevCfg cfg;

    ChrdevModel() {
        s.name = "chrdev";
        s.doc = "chrdev_open with and without cdev_lock against evict/cd_forget and cdev_del/cdev_purge (seed 002)";
        s.follows =
            "fs/char_dev.c chrdev_open (before seed 002 and v2), cdev_get/cdev_put, cdev_purge, cd_forget/"
            "inode_cdev_forget, cdev_del; drivers/base/map.c kobj_lookup; fs/inode.c iput/iput_final/evict "
            "(@003a6607); fs/file_table.c __fput; kernel/module/main.c try_module_get/delete_module";
        s.ops = {
            {"open", "open the device node: do_dentry_open -> chrdev_open (then the driver's ->open)", {}},
            {"close", "fput -> __fput of this thread's last opened file (or a file open before the scenario): cdev_put(inode->i_cdev), fops_put", {}},
            {"iput", "drop one inode reference this thread holds (the path's dentry going away); the last one runs iput_final -> evict", {}},
            {"prune_icache_sb", "the inode shrinker: inode_lru_isolate (i_count 0, on the LRU) -> I_FREEING -> evict", {}},
            {"cdev_del", "the driver removes the device: kobj_unmap, then kobject_put of the registration reference", {}},
            {"delete_module", "rmmod of the owner module: try_stop_module (refused while referenced), GOING, then the module's exit calls cdev_del", {}},
            {"driver_free", "the driver kfree()s the structure its cdev is embedded in (cdev_alloc: embedded only)", {}},
            {"inode_cdev_forget", "mutation: a caller of cd_forget/inode_cdev_forget other than evict", {}},
            {"cdev_add", "the driver registers the device number again with a new cdev (cdev_alloc + cdev_add: kobj_map under chrdevs_lock); after a cdev_del in the same thread, or with init.registered false; once per scenario", {}},
        };
        kDecl.declare(s);
        s.min_threads = 1;
        s.max_threads = kMaxScenarioThreads;
        s.max_ops = kMaxOps;
    }
    const ModelSpec& spec() const override { return s; }

    void prepare(const Scenario& sc) override {
        cfg = ChrdevCfg();
        kDecl.read(sc, cfg);
        if (cfg.open_files > 0 && !cfg.installed)
            throw ModelError("init.open_files", "an open file implies init.i_cdev true; accepted: i_cdev true, or open_files 0");
        if (!cfg.registered && !cfg.installed && cfg.open_files == 0)
            throw ModelError("init.registered", "false with no i_cdev and no open file means the cdev is already gone; accepted: registered true, or i_cdev true");
        cfg.nthreads = (int)sc.threads.size();
        int adds = 0;
        for (int t = 0; t < cfg.nthreads; t++) {
            bool unmapped = !cfg.registered;
            const ThreadSpec& th = sc.threads[t];
            if ((int)th.ops.size() > kMaxOps)
                throw ModelError("threads[" + std::to_string(t) + "].ops", "too many ops; accepted: at most " +
                                std::to_string(kMaxOps));
            cfg.nops[t] = (int)th.ops.size();
            for (size_t k = 0; k < th.ops.size(); k++) {
                const std::string& n = th.ops[k].name;
                int op = n == "open" ? OP_OPEN : n == "close" ? OP_CLOSE : n == "iput" ? OP_IPUT
                       : n == "prune_icache_sb" ? OP_PRUNE_ICACHE : n == "cdev_del" ? OP_CDEV_DEL
                       : n == "delete_module" ? OP_DELETE_MODULE : n == "driver_free" ? OP_DRIVER_FREE
                       : n == "cdev_add" ? OP_CDEV_ADD : OP_CD_FORGET;
                std::string where = "threads[" + std::to_string(t) + "].ops[" + std::to_string(k) + "]";
                if (op == OP_CDEV_DEL) unmapped = true;
                if (op == OP_CDEV_ADD) {
                    if (!unmapped)
                        throw ModelError(where, "cdev_add while the device number is still mapped; accepted: cdev_add after a cdev_del in the same thread, or with init.registered false");
                    if (++adds > kMaxCdevs - 1)
                        throw ModelError(where, "a second cdev_add; accepted: at most " + std::to_string(kMaxCdevs - 1) + " cdev_add per scenario");
                    unmapped = false;
                }
                if (op == OP_DRIVER_FREE && !cfg.embedded)
                    throw ModelError("threads[" + std::to_string(t) + "].ops[" + std::to_string(k) + "]",
                                     "driver_free with config.cdev_alloc dynamic (the release frees a cdev_alloc'ed cdev); accepted: cdev_alloc embedded");
                cfg.ops[t][k] = op;
            }
        }
    }
    ModelRun* start() override { return make_run<ChrdevRun>(cfg); }
};

ModelRegistrar reg(new ChrdevModel);

}  // namespace
}  // namespace vfsmc
