// chrdev: opening a character device node, against the lifetimes of the
// inode (evict, cd_forget) and of the cdev (cdev_del, the kobject release
// and cdev_purge).
//
// The model's shared header: its configuration, its kernel objects and
// one execution's state (ChrdevRun), whose functions live in the files
// named after the kernel files they follow:
//   char_dev.cpp  fs/char_dev.c with drivers/base/map.c and lib/kobject.c:
//                 chrdev_open, cdev_get/cdev_put, cdev_purge, cd_forget,
//                 cdev_del/cdev_add, kobj_lookup
//   open.cpp      fs/open.c and fs/file_table.c: do_dentry_open, __fput
//   inode.cpp     fs/inode.c: iput, iput_final, prune_icache_sb, evict
//   module.cpp    kernel/module/main.c and the driver: try_module_get,
//                 module_put, delete_module, the driver's ->open and free
//   model.cpp     the declaration table, prepare(), the ops, the invariants
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
//   and module memory: free_module frees nothing here; it checks that no
//   reference on the module remains (module-freed-while-referenced), so a
//   use of the module's memory after it is not itself seen.
// - The module's `state` is read and written with READ_ONCE/WRITE_ONCE; the
//   kernel uses plain accesses there (a benign race, outside this seed), so
//   `data-race` reports stay about inode->i_cdev.
// - The driver's ->release and file->f_mapping; the driver ->open is one
//   nondeterministic step.
// Where a free can land, and what the race check orders:
// - The v2 fast path's READ_ONCE(inode->i_cdev) and cdev_get()'s plain load
//   of p->owner run in one step (a plain access is no scheduling point of
//   its own). A cdev_purge + kfree that the load does not happen before is
//   reported at the free: kfree checks that every other thread's last plain
//   access to the object happens before it (checker/kernel/slab.h).
// - The race check is C++11 happens-before plus LKMM's bound on plain reads
//   (r-pre-bounded; checker/kernel/kfield.h, kfield::race_check): a plain
//   read after a marked read of the same store and a barrier is ordered
//   after that store. A v2 fast-path opener that read another opener's
//   WRITE_ONCE install and then closes loads inode->i_cdev plainly in
//   __fput: ordered by fput's task_work atomics (the smp_mb in fput_final),
//   not a race (concurrent-first-open-v2-close).
#pragma once

#include <string>

#include "contract/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace chrdev {

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

    // ---- fs/char_dev.c, drivers/base/map.c, lib/kobject.c (char_dev.cpp)
    void kobject_release(Cdev* p);
    void kobject_put(Cdev* p);
    void kfree_cdev(Cdev* p);
    bool cdev_get(Cdev* p);
    void cdev_put(Cdev* p);
    void list_del_init_i_devices();
    void clear_i_cdev();
    void cdev_purge(Cdev* p);
    void cd_forget();
    void inode_cdev_forget();
    void forget_cdev();
    Cdev* kobj_lookup();
    void kobj_unmap();
    void kobj_map(Cdev* p);
    void cdev_del();
    void cdev_add();
    Fops* fops_get(Cdev* p);
    int chrdev_open_pre_seed(Fops** f_op);
    int chrdev_open_v2(Fops** f_op);
    void cdev_put_new(Cdev* nw);
    void install_list_add(Cdev* p);

    // ---- fs/open.c, fs/file_table.c (open.cpp)
    void do_dentry_open(int t);
    void fops_put(Fops* f);
    void fput_final(int t);

    // ---- fs/inode.c (inode.cpp)
    void iput();
    void iput_final();
    void prune_icache_sb();
    void evict();
    void destroy_inode();

    // ---- kernel/module/main.c and the driver (module.cpp)
    bool try_module_get(int owner);
    void module_put(int owner);
    int drv_open();
    void delete_module();
    void driver_free();

    // ---- the execution, the ops and the invariants (model.cpp)
    explicit ChrdevRun(const ChrdevCfg& c);
    void thread(int t) override;
    int open_files() const;
    int open_files_on(int c) const;
    int open_fops_refs() const;
    void check_free(int id) override;
    void check_final() override;
    void final_state(std::string& out) const override;
};

}  // namespace chrdev
}  // namespace vfsmc
