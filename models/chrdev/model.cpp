// chrdev model: the construction of one execution, the ops, the
// invariants (the end balance kref-balance) and the final state, the
// declaration table and prepare(). See chrdev.h for what the model
// follows and leaves out.

#include <cstdio>
#include <string>

#include "chrdev.h"

namespace vfsmc {
namespace chrdev {

// The cdev, its inode and the probe point at each other from the start:
// their pointer fields get their first values once all three exist.
ChrdevRun::ChrdevRun(const ChrdevCfg& c) : cfg(c), probe(&cdev_map, "probes[dev]", deferred_init) {
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

void ChrdevRun::thread(int t) {
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

int ChrdevRun::open_files() const {
    int n = pre_files;
    for (int t = 0; t < cfg.nthreads; t++) n += nfiles[t];
    return n;
}

// Open files holding a reference on cdevs[c].
int ChrdevRun::open_files_on(int c) const {
    int n = c == 0 ? pre_files : 0;
    for (int t = 0; t < cfg.nthreads; t++)
        for (int i = 0; i < nfiles[t]; i++) n += file_cdev[t][i] == c ? 1 : 0;
    return n;
}

int ChrdevRun::open_fops_refs() const {
    int n = cfg.fops_owner ? pre_files : 0;
    for (int t = 0; t < cfg.nthreads; t++)
        for (int i = 0; i < nfiles[t]; i++) n += file_fop[t][i] && cfg.fops_owner ? 1 : 0;
    return n;
}

void ChrdevRun::check_final() {
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

void ChrdevRun::final_state(std::string& out) const {
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
     "chrdev-open-icount", "cdev-forget-freeing", "module-freed-while-referenced"},
    // steps: every KFUNC and kstep name (tests/declare_test.cpp)
    {"fput", "do_dentry_open", "chrdev_open", "chrdev_open:fast-path", "chrdev_open:install",
     "chrdev_open:lost-race", "chrdev_open:v1-no-new-null", "chrdev_open:no-fops", "chrdev_open:skip-cdev-put-new", "do_dentry_open:opened", "do_dentry_open:failed",
     "kobj_lookup", "exact_lock", "kobj_unmap", "cdev_get", "kobject_get", "kobject_get_unless_zero",
     "cdev_put", "kobject_put", "kobject_release", "cdev_dynamic_release", "cdev_default_release",
     "cdev_purge", "cdev_purge:unlink", "cdev_del", "fops_get", "fops_put", "drv_open", "drv_open:fail",
     "__fput", "__fput:not-opened", "iput", "iput_final", "iput_final:cached", "iput_final:I_FREEING",
     "prune_icache_sb", "inode_lru_isolate:I_FREEING", "evict", "cd_forget", "inode_cdev_forget",
     "destroy_inode", "try_module_get", "module_put", "delete_module", "try_stop_module",
     "try_stop_module:busy", "drv_exit", "drv_free", "cdev_add", "kobj_map"},
    // step needs: the knob and init values and ops each of these steps
    // needs before any execution can reach it (StepNeeds, run --coverage),
    // read off the code that logs it
    {
        {{"do_dentry_open", "do_dentry_open:opened", "do_dentry_open:failed", "chrdev_open", "chrdev_open:install",
          "chrdev_open:lost-race", "kobj_lookup", "exact_lock", "cdev_get", "fops_get", "drv_open"},
         {calls({"open"})}},
        {{"chrdev_open:fast-path"}, {knob_is("version", {"v1", "v2"}), calls({"open"})}},
        {{"chrdev_open:v1-no-new-null"}, {knob_is("version", {"v1"}), calls({"open"})}},
        {{"chrdev_open:skip-cdev-put-new"}, {knob_is("mutation", {"skip-cdev-put-new"}), calls({"open"})}},
        {{"kobject_get_unless_zero"}, {knob_is("cdev_get", {"get_unless_zero"}), calls({"open"})}},
        {{"drv_open:fail"}, {knob_is("driver_open", {"fail", "either"}), calls({"open"})}},
        // fops_get fails only when the fops' owner module is going.
        {{"chrdev_open:no-fops"}, {init_is("fops_owner", {"module"}), calls({"open"})}},
        // A module reference is taken or put only for an owner that is a module.
        {{"try_module_get"}, {any_of({init_is("cdev_owner", {"module"}), init_is("fops_owner", {"module"})}), calls({"open"})}},
        {{"module_put"}, {any_of({init_is("cdev_owner", {"module"}), init_is("fops_owner", {"module"})})}},
        {{"cdev_dynamic_release"}, {knob_is("cdev_alloc", {"dynamic"})}},
        {{"cdev_default_release"}, {knob_is("cdev_alloc", {"embedded"})}},
        {{"fput", "__fput", "__fput:not-opened"}, {calls({"close"})}},
        {{"iput_final"}, {calls({"iput"})}},
        {{"iput_final:cached"}, {init_is("i_nlink", {"1"}), calls({"iput"})}},
        {{"iput_final:I_FREEING"}, {init_is("i_nlink", {"0"}), calls({"iput"})}},
        {{"inode_lru_isolate:I_FREEING"}, {calls({"prune_icache_sb"})}},
        {{"evict", "destroy_inode"}, {calls({"iput", "prune_icache_sb"})}},
        // evict's forget, or the inode_cdev_forget op's: the version's.
        {{"cd_forget"}, {knob_is("version", {"pre-seed"}), calls({"iput", "prune_icache_sb", "inode_cdev_forget"})}},
        {{"inode_cdev_forget"}, {knob_is("version", {"v1", "v2"}), calls({"iput", "prune_icache_sb", "inode_cdev_forget"})}},
        {{"kobj_unmap"}, {calls({"cdev_del", "delete_module"})}},
        {{"try_stop_module", "try_stop_module:busy", "drv_exit"}, {calls({"delete_module"})}},
        {{"drv_free"}, {calls({"driver_free"})}},
        {{"kobj_map"}, {calls({"cdev_add"})}},
    }
};

struct ChrdevModel : Model {
    ModelSpec s;
    ChrdevCfg cfg;

    ChrdevModel() {
        s.name = "chrdev";
        // Threads are alike (ModelSpec::interchangeable_threads): each thread's open files are its own; the balances sum over every thread.
        s.interchangeable_threads = true;
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

namespace {
ModelRegistrar reg(new ChrdevModel);
}  // namespace

}  // namespace chrdev
}  // namespace vfsmc
