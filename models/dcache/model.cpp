// dcache model: the declaration table (knobs, init fields, invariants,
// steps), prepare(), the construction of one execution, the ops and the
// invariants (one-hashed-dentry-per-name, ref-leak). See dcache.h for what
// the model follows and leaves out.
#include <cctype>
#include <cstring>
#include <string>

#include "dcache.h"
#include "base/printable.h"

namespace vfsmc {
namespace dcache {

DcacheRun::DcacheRun(const DcacheCfg& c) : cfg(c) {
    sb = kalloc_static<SuperBlock>(cfg.names_collide == COLLIDE_ON ? SB_I_NAMES_COLLIDE : 0);
    dir = kalloc_static<DirInode>();
    for (int k = 0; k < cfg.nclasses; k++) {
        inode[k] = kalloc_static<FileInode>(cfg.class_name[k]);
        server_name[k] = cfg.server_initial[k];
        srv[k] = kalloc_static<ServerEntry>(cfg.class_name[k], cfg.server_initial[k] >= 0 ? (int)inode[k]->id : -1);
    }
    for (int n = 0; n < cfg.nnames; n++) {
        int first = -1;
        if (cfg.cached_negative[n]) {
            // A cached negative dentry: hashed, count 0 (on the LRU).
            Dentry* d = new_dentry(n, 0, 0, -1, 1);
            first = d->id;
        }
        mainb[n] = kalloc_static<HashBucket>("dentry_hashtable", cfg.names[n], first);
        inlb[n] = kalloc_static<HashBucket>("in_lookup_hashtable", cfg.names[n], -1);
    }
    for (int t = 0; t < cfg.nthreads; t++) {
        wq[t] = kalloc_static<WaitQ>(thread_name(t));
        inflight[t] = -1;
        inflight_ev[t] = -1;
        inflight_name[t] = -1;
    }
}

void DcacheRun::thread(int t) {
    for (int i = 0; i < cfg.nops[t]; i++) {
        int n = cfg.op_name[t][i];
        switch (cfg.op[t][i]) {
            case OP_OPEN_CREAT: op_open(n, true); break;
            case OP_OPEN: op_open(n, false); break;
            case OP_LOOKUP: op_lookup(n); break;
            case OP_SET_NAMES_COLLIDE: op_set_names_collide(); break;
        }
    }
}

// -----------------------------------------------------------------------
// Invariants.
// -----------------------------------------------------------------------
void DcacheRun::check_step() {
    // one-hashed-dentry-per-name: at most one dentry per name on its
    // main-hash chain (what a lookup can find). Judged by the chain, not
    // by d_hash.pprev: __d_drop clears pprev only after it has taken the
    // dentry off the chain and dropped the bucket lock, and __d_rehash
    // sets it before the publish.
    for (int n = 0; n < cfg.nnames; n++) {
        int first = -1;
        int hops = 0;
        for (int id = mainb[n]->first.peek(); id >= 0 && hops < kMaxDentries; id = D(id)->d_hash_next.peek(), hops++) {
            const Ghost& g = ghost[D(id)->gi];
            if (g.killed) break;  // never peek freed memory (a killed dentry is off every chain)
            int i = D(id)->gi;
            if (g.d->d_name != n) continue;
            if (first < 0) {
                first = i;
                continue;
            }
            int c[2] = {ghost[first].hash_ev, g.hash_ev};
            violate(this_thread(), "one-hashed-dentry-per-name", c, 2,
                    "%s and %s are both in the main hash for \"%s\"", ghost[first].d->name(), g.d->name(), nm(n));
            return;
        }
    }
}

void DcacheRun::check_final() {
    for (int i = 0; i < ndentries; i++) {
        const Ghost& g = ghost[i];
        if (!g.d || g.killed) continue;
        Dentry* d = g.d;
        int c = d->d_lockref.peek_count();
        int ev[1] = {g.alloc_ev};
        if (c != 0) {
            violate(0, "ref-leak", ev, g.alloc_ev >= 0 ? 1 : 0,
                    "%s ends with d_lockref.count = %d: a reference was taken and never put", d->name(), c);
            return;
        }
        if (d->d_flags.peek() & DCACHE_PAR_LOOKUP) {
            violate(0, "ref-leak", ev, g.alloc_ev >= 0 ? 1 : 0, "%s ends still in-lookup", d->name());
            return;
        }
        if (d->d_hash_pprev.peek() == 0) {
            violate(0, "ref-leak", ev, g.alloc_ev >= 0 ? 1 : 0,
                    "%s ends unhashed with no references but was never killed", d->name());
            return;
        }
    }
}

void DcacheRun::final_state(std::string& out) const {
    out += "dir: i_rwsem " + std::to_string(dir->i_rwsem.peek()) + ", i_dir_seq " +
           std::to_string(dir->i_dir_seq.peek()) + "\n";
    out += "sb: s_iflags " + std::string(sb->s_iflags.peek() & SB_I_NAMES_COLLIDE ? "SB_I_NAMES_COLLIDE" : "0") + "\n";
    for (int i = 0; i < ndentries; i++) {
        const Ghost& g = ghost[i];
        if (!g.d) continue;
        std::string s = std::string(g.d->name()) + ": ";
        if (g.killed) {
            s += "killed";
        } else {
            int ino = g.d->d_inode.peek();
            s += g.d->d_hash_pprev.peek() ? "hashed" : "unhashed";
            s += ino >= 0 ? std::string(", positive (") + object_name(ino) + ")" : ", negative";
            if (g.d->d_flags.peek() & DCACHE_PAR_LOOKUP) s += ", in-lookup";
            s += ", count " + std::to_string(g.d->d_lockref.peek_count());
        }
        out += s + "\n";
    }
    for (int k = 0; k < cfg.nclasses; k++) {
        int ino = srv[k]->ino.peek();
        out += std::string("server entry \"") + cfg.class_name[k] + "\": " +
               (ino >= 0 ? std::string(object_name(ino)) + " (stored as \"" + cfg.names[server_name[k]] + "\")" : "none") +
               "\n";
    }
}

namespace {

// ---------------------------------------------------------------------------
// The model.
// ---------------------------------------------------------------------------
std::vector<std::string> split_names(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',' || c == ' ') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// ---------------------------------------------------------------------------
// What the model declares, once: knobs and init fields (with how prepare()
// reads each into DcacheCfg), invariants and steps.
// ---------------------------------------------------------------------------
using C = DcacheCfg;
using V = const Value&;
const ModelDecl<DcacheCfg> kDecl = {
    // knobs (`config`)
    {
        {enum_field("o_creat_lock", {"exclusive", "shared"}, "exclusive",
                    "parent lock for O_CREAT: exclusive (mainline) or shared (the fs sets IOPF_ATOMIC_OPEN_CREATE_SHARED)"),
         [](C& c, V v) { c.create_shared_flag = v.s == "shared"; }},
        {bool_field("atomic_open", "true", "the filesystem provides ->atomic_open (else ->lookup + ->create)"),
         [](C& c, V v) { c.has_atomic_open = v.b; }},
        {enum_field("publish", {"d_splice_alias", "d_add", "d_add_ci", "d_rehash", "d_rehash-early"}, "d_splice_alias",
                    "how ->atomic_open publishes its dentry: d_splice_alias or d_add (correct), d_add_ci (case-exact name "
                    "from the server), d_rehash after d_instantiate (broken), or d_rehash-early: d_rehash of the still-negative "
                    "in-lookup dentry before the OPEN, d_instantiate after it (broken: H2)"),
         [](C& c, V v) {
             c.publish = v.s == "d_add" ? PUB_D_ADD : v.s == "d_add_ci" ? PUB_D_ADD_CI : v.s == "d_rehash" ? PUB_D_REHASH
                       : v.s == "d_rehash-early" ? PUB_REHASH_EARLY : PUB_SPLICE;
         }},
        {bool_field("reject_hashed_negative", "true", "the seed's rejection of a revalidated hashed negative dentry under create_shared"),
         [](C& c, V v) { c.reject_hashed_negative = v.b; }},
        {enum_field("names_collide", {"off", "on", "set-during-run"}, "off",
                    "SB_I_NAMES_COLLIDE: off, on from the start, or set during the run by the set_names_collide op"),
         [](C& c, V v) { c.names_collide = v.s == "on" ? COLLIDE_ON : v.s == "set-during-run" ? COLLIDE_SET_DURING_RUN : COLLIDE_OFF; }},
        {bool_field("server_fold_case", "false", "the server compares names case-insensitively"),
         [](C& c, V v) { c.server_fold_case = v.b; }},
        {enum_field("revalidate", {"nfs", "always-valid"}, "nfs",
                    "->d_revalidate for negative dentries: nfs (valid for LOOKUP_CREATE, invalid for LOOKUP_OPEN alone) "
                    "or always-valid (no ->d_revalidate)"),
         [](C& c, V v) { c.revalidate = v.s == "always-valid" ? REVAL_ALWAYS : REVAL_NFS; }},
        {bool_field("rpc_error", "false", "every server call may also fail (explored both ways)"),
         [](C& c, V v) { c.rpc_error = v.b; }},
        // The broken variants (DcacheBug, marked with broken() in the code).
        {bool_field("dir_seq_recheck", "true", "broken if false: no i_dir_seq re-check under the in-lookup bucket lock"),
         [](C& c, V v) {
             if (!v.b) c.broken.set(NO_DIR_SEQ_RECHECK);
         }},
        {bool_field("wait_revalidate", "true",
                    "broken if false: d_alloc_parallel returns the dentry it waited for without re-checking d_unhashed() (and retrying)"),
         [](C& c, V v) {
             if (!v.b) c.broken.set(NO_WAIT_REVALIDATE);
         }},
        {bool_field("parity_check", "true", "broken if false: an odd i_dir_seq sample is not retried"),
         [](C& c, V v) {
             if (!v.b) c.broken.set(NO_PARITY_CHECK);
         }},
        {enum_field("dir_seq_read", {"acquire", "relaxed"}, "acquire",
                    "d_alloc_parallel's i_dir_seq sample: smp_load_acquire, or READ_ONCE (broken, relaxed read side)"),
         [](C& c, V v) {
             if (v.s == "relaxed") c.broken.set(DIR_SEQ_READ_RELAXED);
         }},
        {enum_field("dir_seq_write", {"release", "relaxed"}, "release",
                    "end_dir_add's store: smp_store_release, or WRITE_ONCE (broken, relaxed write side)"),
         [](C& c, V v) {
             if (v.s == "relaxed") c.broken.set(DIR_SEQ_WRITE_RELAXED);
         }},
        {enum_field("hash_walk", {"rcu_dereference", "read_once"}, "rcu_dereference",
                    "main-hash walkers read the chain with rcu_dereference (dependency, modelled as acquire), or with a "
                    "READ_ONCE without acquire (broken)"),
         [](C& c, V v) {
             if (v.s == "read_once") c.broken.set(HASH_WALK_READ_ONCE);
         }},
        {enum_field("dput_bug", {"none", "missing-dput", "dput-before-invalidate", "double-dput"}, "none",
                    "broken: lookup_open's d_invalidate+dput of a rejected dentry misses the dput, puts it before "
                    "d_invalidate and again after, or puts it twice"),
         [](C& c, V v) {
             if (v.s == "missing-dput") c.broken.set(MISSING_DPUT);
             if (v.s == "dput-before-invalidate") c.broken.set(DPUT_BEFORE_INVALIDATE);
             if (v.s == "double-dput") c.broken.set(DOUBLE_DPUT);
         }},
        {bool_field("d_lookup_done_wakes", "true", "broken if false: d_lookup_done does not wake the waiters"),
         [](C& c, V v) {
             if (!v.b) c.broken.set(D_LOOKUP_DONE_NO_WAKE);
         }},
        {enum_field("lookup_open_order", {"lock-first", "lookup-first"}, "lock-first",
                    "lookup_open takes i_rwsem before d_alloc_parallel (mainline), or after it while lookup_slow still "
                    "takes it first (a partial inversion)"),
         [](C& c, V v) {
             if (v.s == "lookup-first") c.broken.set(LOOKUP_BEFORE_LOCK);
         }},
    },
    // init (the names are resolved by prepare(), after the threads' names)
    {
        {str_field("cached_negative", "", "names with a hashed negative dentry (count 0) in the dcache at the start, comma-separated"),
         [](C& c, V v) { c.cached_negative_list = v.s; }},
        {str_field("server_files", "", "names that exist on the server at the start, comma-separated (stored under that name)"),
         [](C& c, V v) { c.server_files_list = v.s; }},
    },
    // invariants
    {"one-hashed-dentry-per-name", "create-exclusion", "atomic-open-in-lookup", "d-alloc-parallel-result",
     "one-fs-call-per-dentry",
     "dentry-ref-underflow",       "ref-leak",         "dentry-use-after-free"},
    // steps: every KFUNC and kstep name (tests/declare_test.cpp)
    {"path_openat", "lookup_open", "lookup_open:lock", "lookup_open:reject", "atomic_open",
     "walk_component", "lookup_fast", "lookup_slow", "__lookup_slow", "set_names_collide",
     "d_lookup", "__d_lookup_rcu", "d_alloc_parallel", "d_alloc_parallel:sample",
     "d_alloc_parallel:lookup", "d_alloc_parallel:parity", "d_alloc_parallel:recheck",
     "d_alloc_parallel:scan", "d_alloc_parallel:wait", "d_alloc_parallel:mismatch", "d_alloc_parallel:no-revalidate", "nfs_atomic_open:rehash-early",
     "d_alloc_parallel:publish", "d_wait_lookup", "start_dir_add", "end_dir_add", "__d_lookup_unhash",
     "d_lookup_done", "__d_add", "d_add", "d_splice_alias", "d_add_ci", "d_instantiate", "d_rehash",
     "__d_rehash", "d_drop", "__d_drop", "d_invalidate", "dput", "__dentry_kill", "d_revalidate",
     "nfs_atomic_open", "nfs_atomic_open:rpc", "nfs_atomic_open:reply", "nfs_lookup", "nfs_create",
     "nfs_atomic_open:begin", "nfs_atomic_open:end", "nfs_create:begin",
     "nfs_create:end", "server:error"},
    // step needs: the knob values and ops each of these steps needs before
    // any execution can reach it (StepNeeds, run --coverage), read off the
    // code that logs it
    {
        {{"path_openat", "lookup_open", "lookup_open:lock"}, {calls({"open_creat", "open"})}},
        // lookup_open rejects a valid hashed negative dentry under the
        // shared O_CREAT lock (the seed), or a negative dentry that
        // ->d_revalidate refuses to an open without O_CREAT.
        {{"lookup_open:reject"},
         {calls({"open_creat", "open"}), any_of({knob_is("reject_hashed_negative", {"true"}), calls({"open"})}),
          any_of({knob_is("o_creat_lock", {"shared"}), calls({"open"})}),
          any_of({knob_is("atomic_open", {"true"}), calls({"open"})})}},
        // d_invalidate: a rejected dentry (above), or lookup_fast and
        // lookup_slow's invalid one.
        {{"d_invalidate"},
         {any_of({knob_is("reject_hashed_negative", {"true"}), calls({"open", "lookup"})}),
          any_of({knob_is("o_creat_lock", {"shared"}), calls({"open", "lookup"})})}},
        {{"atomic_open", "nfs_atomic_open", "nfs_atomic_open:rpc", "nfs_atomic_open:reply"},
         {knob_is("atomic_open", {"true"}), calls({"open_creat", "open"})}},
        {{"nfs_atomic_open:begin", "nfs_atomic_open:end"}, {knob_is("atomic_open", {"true"}), calls({"open_creat"})}},
        {{"nfs_atomic_open:rehash-early"}, {knob_is("publish", {"d_rehash-early"}), knob_is("atomic_open", {"true"})}},
        {{"d_rehash", "d_instantiate"}, {knob_is("publish", {"d_rehash", "d_rehash-early"}), knob_is("atomic_open", {"true"})}},
        {{"nfs_create", "nfs_create:begin", "nfs_create:end"}, {knob_is("atomic_open", {"false"}), calls({"open_creat"})}},
        {{"nfs_lookup"}, {any_of({knob_is("atomic_open", {"false"}), calls({"lookup"})})}},
        {{"walk_component", "lookup_fast", "lookup_slow", "__lookup_slow"}, {calls({"lookup"})}},
        {{"server:error"}, {knob_is("rpc_error", {"true"})}},
        {{"d_alloc_parallel:recheck"}, {knob_is("dir_seq_recheck", {"true"})}},
        {{"d_alloc_parallel:mismatch"}, {knob_is("wait_revalidate", {"true"})}},
        {{"d_alloc_parallel:no-revalidate"}, {knob_is("wait_revalidate", {"false"})}},
    }
};

struct DcacheModel : Model {
    ModelSpec s;
    DcacheCfg cfg;
    DcacheModel() {
        s.name = "dcache";
        // Threads are alike (ModelSpec::interchangeable_threads): each thread's wait queue is made alike at setup; the ghost state
        // (in_dir_add, inflight, publisher, fs_call) is indexed by the running thread only.
        s.interchangeable_threads = true;
        s.doc = "O_CREAT with the parent lock shared: d_alloc_parallel, the in-lookup hash, i_dir_seq and how a "
                "filesystem publishes its dentry (seed 001)";
        s.follows = "fs/dcache.c v6.17..v7.0 (wq variant: d_alloc_parallel, d_wait_lookup, __d_add, end_dir_add, "
                    "d_lookup_done, d_rehash, d_drop, d_invalidate, d_add_ci, dput); fs/namei.c lookup_open/atomic_open "
                    "after ddb6e6c72a0a with seed 001's create_shared; fs/nfs nfs_atomic_open, nfs_lookup, "
                    "nfs_neg_need_reval";
        FieldSpec name;
        name.name = "name";
        name.type = ArgType::Str;
        name.required = true;
        name.doc = "the last component, e.g. \"foo\" (at most 15 characters; at most 4 names per scenario)";
        s.ops = {{"open_creat", "open(name, O_CREAT): path_openat -> lookup_open -> ->atomic_open; then close", {name}},
                 {"open", "open(name) without O_CREAT, parent held shared; then close", {name}},
                 {"lookup", "a plain lookup of name: lookup_fast, then lookup_slow (parent held shared); then path_put", {name}},
                 {"set_names_collide", "the filesystem sets SB_I_NAMES_COLLIDE in sb->s_iflags", {}}};
        kDecl.declare(s);
        s.steps_after_access = {
            {"d_alloc_parallel:lookup", "__d_lookup_rcu's read of the main-hash bucket", "__d_lookup_rcu"},
            {"lookup_open:lock", "READ_ONCE(sb->s_iflags) of atomic_open_create_shared()", "lookup_open"},
        };
        s.min_threads = 1;
        s.max_threads = kMaxScenarioThreads;
        s.max_ops = kMaxOps;
    }
    const ModelSpec& spec() const override { return s; }

    // `path`: where the name is written, for the error line.
    int add_name(DcacheCfg& c, const std::string& n, const Scenario& sc, const std::string& path) {
        // The loader has rejected control characters (a NUL would end the
        // name in names[]); the length is checked before the name is compared.
        if (n.empty() || n.size() >= (size_t)kNameMax)
            throw ModelError(path, "bad value \"" + printable(n, kMaxShownValue) + "\"; accepted: a name of 1 to 15 characters");
        for (int i = 0; i < c.nnames; i++)
            if (n == c.names[i]) return i;
        if (c.nnames >= kMaxNames)
            throw ModelError(path, "name \"" + printable(n, kMaxShownValue) + "\" is one more than " + std::to_string(kMaxNames) +
                                     " distinct names; accepted: at most 4 names per dcache scenario");
        std::snprintf(c.names[c.nnames], kNameMax, "%s", n.c_str());
        return c.nnames++;
    }

    void prepare(const Scenario& sc) override {
        DcacheCfg c;
        kDecl.read(sc, c);
        bool has_set = false;
        std::string set_at;  // the first set_names_collide
        c.nthreads = (int)sc.threads.size();
        for (int t = 0; t < c.nthreads; t++) {
            const ThreadSpec& th = sc.threads[t];
            if (th.ops.size() > (size_t)kMaxOps)
                throw ModelError("threads[" + std::to_string(t) + "].ops", std::to_string(th.ops.size()) +
                                         " ops; accepted: at most 6");
            c.nops[t] = (int)th.ops.size();
            for (size_t i = 0; i < th.ops.size(); i++) {
                const OpCall& oc = th.ops[i];
                const std::string& on = oc.name;
                c.op[t][i] = on == "open_creat" ? OP_OPEN_CREAT
                             : on == "open" ? OP_OPEN
                             : on == "lookup" ? OP_LOOKUP
                             : OP_SET_NAMES_COLLIDE;
                std::string at = "threads[" + std::to_string(t) + "].ops[" + std::to_string(i) + "]";
                if (c.op[t][i] == OP_SET_NAMES_COLLIDE) {
                    if (!has_set) set_at = at;
                    has_set = true;
                } else {
                    c.op_name[t][i] = add_name(c, oc.args.at(0).s, sc, at + ".name");
                }
            }
        }
        if (has_set && c.names_collide != COLLIDE_SET_DURING_RUN)
            throw ModelError(set_at, "op set_names_collide with config.names_collide \"" + std::string(c.names_collide == COLLIDE_ON ? "on" : "off") +
                                     "\"; accepted: names_collide \"set-during-run\"");
        if (!has_set && c.names_collide == COLLIDE_SET_DURING_RUN)
            throw ModelError("config.names_collide", "\"set-during-run\" but no thread runs "
                                     "set_names_collide; accepted: add the op, or names_collide \"off\"/\"on\"");
        for (const auto& n : split_names(c.cached_negative_list))
            c.cached_negative[add_name(c, n, sc, "init.cached_negative")] = true;
        std::vector<int> initial;
        for (const auto& n : split_names(c.server_files_list))
            initial.push_back(add_name(c, n, sc, "init.server_files"));

        // Server entries: names equal under the server's comparison share one.
        auto key = [&](const char* n) {
            std::string k = n;
            if (c.server_fold_case)
                for (char& ch : k) ch = (char)std::tolower((unsigned char)ch);
            return k;
        };
        for (int i = 0; i < c.nnames; i++) {
            std::string k = key(c.names[i]);
            int found = -1;
            for (int j = 0; j < c.nclasses; j++)
                if (k == c.class_name[j]) found = j;
            if (found < 0) {
                found = c.nclasses++;
                std::snprintf(c.class_name[found], kNameMax, "%s", k.c_str());
                c.server_initial[found] = -1;
            }
            c.fold[i] = found;
        }
        for (int n : initial) {
            if (c.server_initial[c.fold[n]] >= 0)
                throw ModelError("init.server_files", std::string("names \"") + c.names[n] +
                                         "\" and another name the server treats as the same entry; accepted: one "
                                         "name per entry");
            c.server_initial[c.fold[n]] = n;
        }
        cfg = c;
    }
    ModelRun* start() override { return make_run<DcacheRun>(cfg); }
};

ModelRegistrar reg(new DcacheModel);

}  // namespace

}  // namespace dcache
}  // namespace vfsmc
