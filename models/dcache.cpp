// dcache: O_CREAT with the parent lock shared -- the in-lookup protocol.
//
// Follows (see ../shared/reference/dcache-in-lookup.md, section by section):
//   fs/dcache.c, mainline v6.17..v7.0 ("wq variant": d_alloc_parallel(parent,
//     name, wq), the owner's wait queue in ->d_wait, the wake inside
//     end_dir_add(), DCACHE_PAR_LOOKUP set before the dentry is visible,
//     e95db51c81f5): d_alloc_parallel, d_wait_lookup, __d_lookup_rcu,
//     d_lookup/__d_lookup, start_dir_add, end_dir_add, __d_lookup_unhash,
//     __d_lookup_unhash_wake (d_lookup_done), __d_add, d_add,
//     d_splice_alias, d_add_ci, d_instantiate, d_rehash/__d_rehash,
//     d_drop/__d_drop, d_invalidate, dput/fast_dput/__dentry_kill (ref 1-5);
//   fs/namei.c lookup_open() after NeilBrown's ddb6e6c72a0a (the lock is
//     taken inside lookup_open), atomic_open(), lookup_fast/lookup_slow/
//     __lookup_slow (ref 6.1, 6.2);
//   seed 001_106d92534a2f77c4 ("vfs: allow the parent lock to be shared for
//     O_CREAT"): atomic_open_create_shared() with SB_I_NAMES_COLLIDE read
//     once per pass with READ_ONCE, the rejection of a revalidated hashed
//     negative dentry, the VFS_WARN_ON_ONCE before ->atomic_open (ref 6.3);
//   fs/nfs/dir.c, fs/nfs/nfs4proc.c as the filesystem side: nfs_atomic_open
//     (an OPEN round trip with a gap between sending it and the reply; the
//     "switch" to d_alloc_parallel for a non-O_CREAT open of a hashed
//     dentry; d_drop + d_splice_alias(NULL) on -ENOENT), the publish of
//     _nfs4_open_and_get_state (d_drop + d_splice_alias), nfs_lookup,
//     nfs_create/nfs_instantiate, and ->d_revalidate for negative dentries
//     (nfs_neg_need_reval: trusted for LOOKUP_CREATE, not for LOOKUP_OPEN
//     alone, as the seed's locking.rst describes) (ref 7).
//
// The server is a directory table, one entry per name as the server
// compares names (byte-exact, or case-folding): each RPC is one atomic step
// on it, so that the round trip of one opener can overlap another's.
//
// Invariants: one-hashed-dentry-per-name (INV-1 of ref section 8, checked
// after every step), create-exclusion (INV-2: no two O_CREAT ->atomic_open
// or ->create calls overlap on names the server treats as one entry),
// atomic-open-in-lookup (the seed's VFS_WARN_ON_ONCE), dentry-ref-underflow
// (fast_dput's WARN_ON_ONCE(count <= 0)), ref-leak (every dentry's count is
// back to zero at the end, and nothing is left in-lookup or unhashed and
// unfreed), and the engine's deadlock, lost-wakeup, data-race and
// dentry-use-after-free.
//
// Left out, and what that could hide:
// - rename_lock and d_move/__d_move (no rename, and only regular files, so
//   d_splice_alias never finds a directory alias): a dentry's parent and
//   name never change, so the re-validation after d_wait_lookup reduces to
//   d_unhashed(). Races with rename are not explored.
// - One directory, no mounts, no ->d_hash/->d_compare (NFS has none): the
//   dcache compares names byte for byte; each name has its own main-hash and
//   in-lookup bucket, so hash collisions between different names are not
//   explored (they only lengthen the chains the scans skip over).
// - The parent's d_lock, d_children and the reference a child holds on its
//   parent; inode->i_lock and the inode's alias list (i_dentry); the LRU;
//   mnt_want_write; fsnotify; security hooks; delegations (the retry loop
//   of lookup_open never runs); preempt_disable_nested() in start_dir_add.
// - Directories: no d_invalidate of a positive dentry with children.
// - No unlink, rename, mkdir, link or dentry_create (nfsd) ops: the seed's
//   claim that they still take the parent exclusive is not exercised.
// - may_o_create/-EROFS (create_error), O_EXCL, O_TRUNC, LOOKUP_DIRECTORY:
//   every create is allowed and opens the file.
// - __d_lookup_rcu's address dependency (rcu_dereference) is modelled as an
//   acquire load, since the layer does not model dependencies; the
//   `hash_walk` knob makes it a plain READ_ONCE to show what the
//   dependency orders.
// - retain_dentry()'s lockless pre-check in fast_dput: the locked check
//   that follows it decides, as the kernel's does for a dentry not yet on
//   the LRU.
// - The 7.x variant (DCACHE_LOOKUP_WAITERS, wait_var_event_spinlock): the
//   ordering argument is the same, the wait queue is not.
#include <cctype>
#include <cstring>
#include <string>

#include "kernel/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace {

constexpr int kMaxNames = 4;
constexpr int kMaxOps = 6;
constexpr int kMaxDentries = 64;
constexpr int kNameMax = 16;

// The one bit of d_flags and of s_iflags the model keeps, as 1 so that traces
// read "d_flags: 1 -> 0" (the kernel's DCACHE_PAR_LOOKUP is 0x10000000 and
// SB_I_NAMES_COLLIDE 0x00010000).
constexpr int DCACHE_PAR_LOOKUP = 1;
constexpr int SB_I_NAMES_COLLIDE = 1;
// nd->flags (include/linux/namei.h).
constexpr int LOOKUP_OPEN = 0x0100;
constexpr int LOOKUP_CREATE = 0x0200;

enum OpKind { OP_OPEN_CREAT, OP_OPEN, OP_LOOKUP, OP_SET_NAMES_COLLIDE };
enum Publish { PUB_SPLICE, PUB_D_ADD, PUB_D_ADD_CI, PUB_D_REHASH, PUB_REHASH_EARLY };
enum Collide { COLLIDE_OFF, COLLIDE_ON, COLLIDE_SET_DURING_RUN };
enum Revalidate { REVAL_NFS, REVAL_ALWAYS };
// The deliberately broken variants a scenario can select with a knob, each
// marked in the code with broken(): the knob and value that select it.
enum DcacheBug {
    NO_DIR_SEQ_RECHECK,     // dir_seq_recheck false: d_alloc_parallel's re-check of i_dir_seq under the bucket lock
    NO_WAIT_REVALIDATE,     // wait_revalidate false: the d_unhashed() re-check after d_wait_lookup
    NO_PARITY_CHECK,        // parity_check false: the retry on an odd i_dir_seq sample
    DIR_SEQ_READ_RELAXED,   // dir_seq_read relaxed: READ_ONCE instead of smp_load_acquire
    DIR_SEQ_WRITE_RELAXED,  // dir_seq_write relaxed: WRITE_ONCE instead of smp_store_release in end_dir_add
    HASH_WALK_READ_ONCE,    // hash_walk read_once: main-hash walkers without the dependency (acquire)
    MISSING_DPUT,           // dput_bug missing-dput
    DPUT_BEFORE_INVALIDATE, // dput_bug dput-before-invalidate
    DOUBLE_DPUT,            // dput_bug double-dput
    D_LOOKUP_DONE_NO_WAKE,  // d_lookup_done_wakes false
    LOOKUP_BEFORE_LOCK,     // lookup_open_order lookup-first: d_alloc_parallel before i_rwsem in lookup_open
};

struct DcacheCfg {
    // Filesystem and VFS variant.
    bool create_shared_flag = false;   // IOPF_ATOMIC_OPEN_CREATE_SHARED in ->iop_flags
    bool has_atomic_open = true;       // ->atomic_open provided
    Publish publish = PUB_SPLICE;
    bool reject_hashed_negative = true;
    Collide names_collide = COLLIDE_OFF;
    bool server_fold_case = false;
    Revalidate revalidate = REVAL_NFS;
    bool rpc_error = false;
    BrokenSet<DcacheBug> broken;
    // Names: the dcache's (byte-exact) and the server's classes.
    int nnames = 0;
    char names[kMaxNames][kNameMax] = {};
    int fold[kMaxNames] = {};          // name -> server entry
    int nclasses = 0;
    char class_name[kMaxNames][kNameMax] = {};
    bool cached_negative[kMaxNames] = {};
    int server_initial[kMaxNames] = {};  // per entry: the stored name, or -1
    // Threads.
    int nthreads = 0;
    int nops[kMaxThreads] = {};
    OpKind op[kMaxThreads][kMaxOps] = {};
    int op_name[kMaxThreads][kMaxOps] = {};
    // init, as written (prepare() resolves the names once the threads' are known).
    std::string cached_negative_list, server_files_list;
};

// ---------------------------------------------------------------------------
// Kernel objects.
// ---------------------------------------------------------------------------
struct SuperBlock : kobj {
    kfield<int> s_iflags;
    explicit SuperBlock(int flags) : kobj("super_block", "sb"), s_iflags(this, "s_iflags", flags) {}
};

// The directory inode: i_rwsem and i_dir_seq (odd while an add is in progress).
struct DirInode : kobj {
    rw_semaphore i_rwsem;
    kfield<int> i_dir_seq;
    DirInode() : kobj("inode", "dir"), i_rwsem(this, "i_rwsem"), i_dir_seq(this, "i_dir_seq", 0) {}
};

// A regular file's inode, as the server hands it out (named only).
struct FileInode : kobj {
    explicit FileInode(const char* n) : kobj("inode", "inode \"%s\"", n) {}
};

// One hlist_bl bucket: a bit spinlock and the first entry.
struct HashBucket : kobj {
    bit_spinlock_t lock;
    kfield<int> first;
    HashBucket(const char* table, const char* n, int first_id)
        : kobj("hlist_bl", "%s[\"%s\"]", table, n), lock(this, "bit_lock"), first(this, "first", first_id) {
        first.pointer();
    }
};

// The on-stack wait queue of one thread's lookup_open/lookup_slow
// (DECLARE_WAIT_QUEUE_HEAD_ONSTACK(wq)), handed to d_alloc_parallel.
struct WaitQ : kobj {
    wait_queue_head wq;
    explicit WaitQ(const char* thread) : kobj("wait_queue", "wq@%s", thread), wq(this, "head") {}
};

struct Dentry : kobj {
    const int d_name;  // index into the scenario's names; d_parent is `dir`: neither changes here
    kfield<int> d_name_hash;    // d_name.hash_len as walkers compare it (the name's index stands for its hash)
    const int gi;    // index in the run's dentry table
    lockref d_lockref;          // d_lock + d_count
    kfield<int> d_flags;        // DCACHE_PAR_LOOKUP
    kfield<int> d_inode;        // NULL (-1): negative
    seqcount_t d_seq;
    kfield<int> d_hash_pprev;   // != 0 iff hashed (d_unhashed() tests d_hash.pprev)
    kfield<int> d_hash_next;    // main-hash chain
    kfield<int> d_in_lookup_next;  // d_u.d_in_lookup_hash chain
    kfield<int> d_wait;         // the in-lookup owner's wait queue
    int publisher = -1;         // ghost: the thread whose d_alloc_parallel put it on the in-lookup hash
    int fs_call = -1;           // ghost: the thread inside ->lookup/->atomic_open on it
    const char* fs_call_name = "";
    Dentry(const char* nm, int name_, int seq, int gi_, int count, int flags, int inode, int hashed)
        : kobj("dentry", "dentry \"%s\"#%d", nm, seq),
          d_name(name_),
          d_name_hash(this, "d_name.hash_len", name_),
          gi(gi_),
          d_lockref(this, "d_lockref", count, "dentry-ref-underflow", nullptr),
          d_flags(this, "d_flags", flags),
          d_inode(this, "d_inode", inode),
          d_seq(this, "d_seq"),
          d_hash_pprev(this, "d_hash.pprev", hashed),
          d_hash_next(this, "d_hash.next", -1),
          d_in_lookup_next(this, "d_in_lookup_hash.next", -1),
          d_wait(this, "d_wait", -1) {
        d_inode.pointer();
        d_hash_next.pointer();
        d_in_lookup_next.pointer();
        d_wait.pointer();
    }
};

// The server: its directory table, one word per entry as it compares names
// (the inode of the entry, or NULL).
struct Server : kobj {
    kfield<int>* entry[kMaxNames] = {};
    Server() : kobj("nfs_server", "server") {}
};
struct ServerEntry : kobj {
    kfield<int> ino;
    explicit ServerEntry(const char* n, int init) : kobj("nfs_server", "server[\"%s\"]", n), ino(this, "entry", init) {
        ino.pointer();
    }
};

// A step with a narrative that returns its event index (for `conflicts`).
template <class... A>
int kstep_ev(const char* step, int obj, const char* fmt, A... a) {
    kfunc_scope s(step);
    return log_event(this_thread(), Ev::Step, obj, step, nullptr, 0, 0, fmt, a...);
}

// cmpxchg(&word, old, new) on a plain kernel word: fully ordered, returns the old value.
inline int cmpxchg(kfield<int>& f, int old, int nv) {
    return f.rmw(Acc::AtomicRmwFull, "cmpxchg", [&](int& v) {
        if (v != old) return false;
        v = nv;
        return true;
    });
}

// ---------------------------------------------------------------------------
// One execution.
// ---------------------------------------------------------------------------
struct DcacheRun : ModelRun {
    const DcacheCfg& cfg;
    SuperBlock* sb;
    DirInode* dir;
    HashBucket* mainb[kMaxNames];   // dentry_hashtable, one bucket per name
    HashBucket* inlb[kMaxNames];    // in_lookup_hashtable, one bucket per name
    FileInode* inode[kMaxNames];    // per server entry
    ServerEntry* srv[kMaxNames];
    WaitQ* wq[kMaxThreads];

    // Bookkeeping outside the kernel's state (plain C++, read by the checks).
    struct Ghost {
        Dentry* d;
        bool killed;    // __dentry_kill ran: memory may be gone, never peek it
        int hash_ev;    // the step that last hashed it
        int alloc_ev;
    };
    Ghost ghost[kMaxDentries];
    int ndentries = 0;
    Dentry* by_id[kMaxObjects] = {};
    int server_name[kMaxNames];     // the name each server entry is stored under
    int inflight[kMaxThreads];      // create-exclusion: server entry of a running O_CREAT call, or -1
    int inflight_ev[kMaxThreads];
    int inflight_name[kMaxThreads];
    // Ghost: the thread is inside __d_add's i_dir_seq section
    // (start_dir_add .. end_dir_add) for an in-lookup dentry. Names that
    // section in the trace of the steps inside it.
    bool in_dir_add[kMaxThreads] = {};

    bool broken(DcacheBug b) const { return cfg.broken.has(b); }

    explicit DcacheRun(const DcacheCfg& c) : cfg(c) {
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

    Dentry* new_dentry(int name, int count, int flags, int ino, int hashed) {
        // The slot is taken first: constructing the dentry's fields has
        // scheduling points, so another thread may allocate meanwhile. The
        // checks skip a slot whose dentry is not constructed yet.
        if (ndentries >= kMaxDentries) {
            violate(this_thread(), "relacy-check", nullptr, 0, "the dcache model's table of %d dentries is full", kMaxDentries);
            prune_execution();
        }
        int gi = ndentries++;
        ghost[gi] = {nullptr, false, -1, -1};
        Dentry* d = kalloc<Dentry>(cfg.names[name], name, gi + 1, gi, count, flags, ino, hashed);
        ghost[gi].d = d;
        by_id[d->id] = d;
        return d;
    }
    Dentry* D(int id) const { return id >= 0 ? by_id[id] : nullptr; }
    WaitQ* wq_by_id(int id) const {
        for (int t = 0; t < cfg.nthreads; t++)
            if (wq[t]->id == id) return wq[t];
        return nullptr;
    }
    const char* nm(int name) const { return cfg.names[name]; }
    const char* me() const { return thread_name(this_thread()); }

    // rcu_dereference() of a main-hash link: an address dependency, modelled
    // as acquire (the layer has no dependencies). Broken: a plain READ_ONCE.
    int rcu_dereference(kfield<int>& f) { return broken(HASH_WALK_READ_ONCE) ? READ_ONCE(f) : smp_load_acquire(f); }

    // The trace text of __d_rehash and __d_lookup_unhash: where the step
    // runs, from ghost state and peek() only (no access).
    const char* rehash_context(Dentry* d) const {
        if (in_dir_add[this_thread()])
            return MUTATION("no-start-dir-add") ? " without the i_dir_seq window (mutation no-start-dir-add)"
                                                : " inside the i_dir_seq window";
        if (d->d_flags.peek() & DCACHE_PAR_LOOKUP) return ", still in-lookup: no i_dir_seq window, nobody woken";
        return ", not in-lookup: no i_dir_seq window";
    }
    const char* unhash_context(Dentry* d) const {
        if (in_dir_add[this_thread()])
            return MUTATION("no-start-dir-add") ? " without the i_dir_seq window (mutation no-start-dir-add)"
                                                : " inside the i_dir_seq window";
        // __d_lookup_unhash_wake, under d_lock: d_hash.pprev cannot change.
        return d->d_hash_pprev.peek() == 0 ? " (d_lookup_done: unhashed, i_dir_seq untouched)"
                                           : " (d_lookup_done: i_dir_seq untouched)";
    }
    // A plain load the kernel does not make here. The model made it to pick
    // the trace text, which now comes from ghost state (rehash_context,
    // unhash_context); the load stays because the explored interleavings
    // depend on it: removing it moves scenarios/dcache/explorations.lock.
    // Delete these calls in a commit that regenerates the counts.
    void trace_only_load(kfield<int>& f) { (void)plain_load(f); }

    // include/linux/dcache.h
    bool d_in_lookup(Dentry* d) { return plain_load(d->d_flags) & DCACHE_PAR_LOOKUP; }
    bool d_unhashed(Dentry* d) { return plain_load(d->d_hash_pprev) == 0; }
    bool d_really_is_negative(Dentry* d) { return plain_load(d->d_inode) < 0; }

    // -----------------------------------------------------------------------
    // __d_alloc + the parent linking of d_alloc_parallel.
    // -----------------------------------------------------------------------
    Dentry* d_alloc(int name, int flags) {
        // __d_alloc: refcount 1, unhashed, negative, on no chain. The parent's
        // d_lock, d_children and the reference on the parent: not modelled.
        Dentry* d = new_dentry(name, 1, flags, -1, 0);
        ghost[d->gi].alloc_ev = last_event();  // kalloc's Alloc event, for ref-leak
        // dentry->d_name.hash_len = name->hash_len: a plain store before the
        // dentry is published; walkers that reach it need what orders it.
        plain_store(d->d_name_hash, name);
        return d;
    }

    // -----------------------------------------------------------------------
    // Main hash (ref 4): RCU walkers, writers under the bucket bit lock and
    // the dentry's d_lock.
    // -----------------------------------------------------------------------
    // __d_lookup_rcu: a lockless walk of the bucket; the caller validates the
    // result with d_seq (a dentry unhashed under the walker fails it).
    int d_lookup_rcu_(int name, unsigned* dseq) {
        KFUNC("__d_lookup_rcu");
        HashBucket* b = mainb[name];
        for (int id = rcu_dereference(b->first); id >= 0; id = rcu_dereference(D(id)->d_hash_next)) {
            Dentry* d = D(id);
            unsigned seq = raw_read_seqcount(d->d_seq) & ~1u;  // raw_seqcount_begin
            if (plain_load(d->d_name_hash) != name) continue;  // d_parent, hash_len and dentry_cmp
            // d_unhashed() after the name match: a walker still on a dentry
            // __d_drop took off the chain skips it (ordered by __d_drop's
            // smp_wmb before the d_seq bump, and __d_rehash's pprev store
            // before its rcu_assign_pointer).
            if (!MUTATION("d-lookup-rcu-no-unhashed-test") && READ_ONCE(d->d_hash_pprev) == 0) continue;
            *dseq = seq;
            return id;
        }
        return -1;
    }

    // d_lookup -> __d_lookup: walks the bucket and takes each candidate's
    // d_lock to check it is still hashed before taking a reference. The
    // rename_lock retry loop of d_lookup is left out (no rename).
    Dentry* d_lookup(int name) {
        KFUNC("d_lookup");
        HashBucket* b = mainb[name];
        Dentry* found = nullptr;
        rcu_read_lock();
        for (int id = rcu_dereference(b->first); id >= 0; id = rcu_dereference(D(id)->d_hash_next)) {
            Dentry* d = D(id);
            if (plain_load(d->d_name_hash) != name) continue;  // dentry->d_name.hash != hash
            lockref_lock(d->d_lockref);
            // d_unhashed under d_lock: it may have been dropped since the walk found it.
            if (d_unhashed(d)) {
                lockref_unlock(d->d_lockref);
                continue;
            }
            lockref_set_count_locked(d->d_lockref, lockref_count_locked(d->d_lockref) + 1);
            lockref_unlock(d->d_lockref);
            found = d;
            break;
        }
        rcu_read_unlock();
        kstep("d_lookup", found ? found->id : -1, found ? "finds %s in the main hash" : "misses: no hashed dentry for \"%s\"",
              found ? found->name() : nm(name));
        return found;
    }

    // __d_rehash (caller holds d_lock): hlist_bl_add_head_rcu under the bucket lock.
    void d_rehash_(Dentry* d) {
        KFUNC("__d_rehash");
        HashBucket* b = mainb[d->d_name];
        bit_spin_lock(b->lock);
        if (!d_unhashed(d)) {
            // hlist_bl_add_head_rcu of a node already on the chain corrupts it.
            int c[1] = {ghost[d->gi].hash_ev};
            violate(this_thread(), "one-hashed-dentry-per-name", c, 1,
                    "%s is added to the main hash while already in it: the chain now holds \"%s\" twice", d->name(),
                    nm(d->d_name));
            bit_spin_unlock(b->lock);
            return;
        }
        int first = plain_load(b->first);
        // n->next = first: a plain store in the kernel; marked here because a
        // walker still on this dentry from before an earlier d_drop may read
        // it (the kernel validates such a walk with d_seq, not with this load).
        WRITE_ONCE(d->d_hash_next, first);
        // n->pprev = &h->first, before the publish: a walker that finds the
        // dentry through the chain tests d_unhashed() on it.
        WRITE_ONCE(d->d_hash_pprev, 1);
        // rcu_assign_pointer(h->first, n): publishes the initialised dentry to walkers.
        smp_store_release(b->first, d->id);
        ghost[d->gi].hash_ev = kstep_ev("__d_rehash", d->id, "%s -> main hash (dentry_hashtable[\"%s\"])%s", d->name(), nm(d->d_name),
                                       rehash_context(d));
        bit_spin_unlock(b->lock);
    }

    // __d_drop (caller holds d_lock): ___d_drop under the bucket lock, then
    // d_hash.pprev = NULL and write_seqcount_invalidate(&d_seq), so that a
    // walker that sampled d_seq before the unhash fails its retry check.
    void d_drop_(Dentry* d) {
        KFUNC("__d_drop");
        if (d_unhashed(d)) return;
        HashBucket* b = mainb[d->d_name];
        bit_spin_lock(b->lock);
        int next = plain_load(d->d_hash_next);
        int cur = plain_load(b->first);
        if (cur == d->id) {
            WRITE_ONCE(b->first, next);  // __hlist_bl_del: WRITE_ONCE(*pprev, next)
        } else {
            while (cur >= 0) {
                Dentry* c = D(cur);
                int n = plain_load(c->d_hash_next);
                if (n == d->id) {
                    WRITE_ONCE(c->d_hash_next, next);
                    break;
                }
                cur = n;
            }
        }
        // The removed dentry keeps its ->next, so walkers on it go on.
        bit_spin_unlock(b->lock);
        WRITE_ONCE(d->d_hash_pprev, 0);  // lockless readers: __d_lookup_rcu
        kstep("__d_drop", d->id, "%s leaves the main hash", d->name());
        write_seqcount_invalidate(d->d_seq);
    }

    void d_rehash(Dentry* d) {
        KFUNC("d_rehash");
        // spin_lock(d_lock); __d_rehash: the name becomes findable. Nothing
        // else: PAR_LOOKUP stays set, no i_dir_seq window, no wakeup.
        lockref_lock(d->d_lockref);
        trace_only_load(d->d_flags);  // was d_in_lookup(d), for the trace text
        d_rehash_(d);
        lockref_unlock(d->d_lockref);
    }

    void d_drop(Dentry* d) {
        KFUNC("d_drop");
        lockref_lock(d->d_lockref);
        d_drop_(d);
        lockref_unlock(d->d_lockref);
    }

    void d_invalidate(Dentry* d) {
        KFUNC("d_invalidate");
        lockref_lock(d->d_lockref);
        if (d_unhashed(d)) {
            lockref_unlock(d->d_lockref);
            return;
        }
        d_drop_(d);
        lockref_unlock(d->d_lockref);
        // Negative dentries can be dropped without further checks; a
        // positive one would have its children shrunk and submounts detached:
        // regular files here have neither.
    }

    // -----------------------------------------------------------------------
    // i_dir_seq (ref 2.1).
    // -----------------------------------------------------------------------
    unsigned start_dir_add(DirInode* d) {
        KFUNC("start_dir_add");
        // Spin while another adder's window is open; the cmpxchg even -> odd
        // opens ours. It is fully ordered: it happens before the in-lookup
        // bucket lock/unlock that follows, which a d_alloc_parallel that
        // takes the same lock then sees (its re-check reads odd or +2).
        unsigned n = 0;
        wait_until("start_dir_add", d->id, false, [&]() {
            n = (unsigned)READ_ONCE(d->i_dir_seq);
            if (n & 1) return false;
            return (unsigned)cmpxchg(d->i_dir_seq, (int)n, (int)n + 1) == n;
        });
        return n;
    }

    void end_dir_add(DirInode* d, unsigned n, int wqid) {
        KFUNC("end_dir_add");
        // smp_store_release(&dir->i_dir_seq, n + 2): pairs with the
        // smp_load_acquire in d_alloc_parallel, so a reader that samples the
        // closed value also sees the dentry in the main hash.
        if (!broken(DIR_SEQ_WRITE_RELAXED)) smp_store_release(d->i_dir_seq, (int)n + 2);
        else WRITE_ONCE(d->i_dir_seq, (int)n + 2);
        // wq_has_sleeper(d_wait): smp_mb(); waitqueue_active(); wake_up_all.
        WaitQ* q = wq_by_id(wqid);
        if (!q) return;
        smp_mb();
        if (waitqueue_active(q->wq)) wake_up_all(q->wq);
    }

    // -----------------------------------------------------------------------
    // Leaving the in-lookup state (ref 2.1, 3).
    // -----------------------------------------------------------------------
    void hlist_bl_del_in_lookup(HashBucket* b, Dentry* d) {
        int next = plain_load(d->d_in_lookup_next);
        int cur = plain_load(b->first);
        if (cur == d->id) {
            plain_store(b->first, next);
        } else {
            while (cur >= 0) {
                Dentry* c = D(cur);
                int n = plain_load(c->d_in_lookup_next);
                if (n == d->id) {
                    plain_store(c->d_in_lookup_next, next);
                    break;
                }
                cur = n;
            }
        }
    }

    // __d_lookup_unhash (caller holds d_lock): under the in-lookup bucket
    // lock, clear PAR_LOOKUP, leave the chain, take ->d_wait.
    int d_lookup_unhash_(Dentry* d) {
        KFUNC("__d_lookup_unhash");
        HashBucket* b = inlb[d->d_name];
        bit_spin_lock(b->lock);
        plain_store(d->d_flags, plain_load(d->d_flags) & ~DCACHE_PAR_LOOKUP);
        hlist_bl_del_in_lookup(b, d);
        int w = plain_load(d->d_wait);
        plain_store(d->d_wait, -1);
        kstep("__d_lookup_unhash", d->id, "%s leaves the in-lookup hash; PAR_LOOKUP cleared%s", d->name(), unhash_context(d));
        bit_spin_unlock(b->lock);
        return w;
    }

    // d_lookup_done -> __d_lookup_unhash_wake: never touches i_dir_seq or
    // the main hash.
    void d_lookup_done(Dentry* d) {
        KFUNC("d_lookup_done");
        if (!d_in_lookup(d)) return;
        lockref_lock(d->d_lockref);
        trace_only_load(d->d_hash_pprev);  // was d_unhashed(d), for the trace text
        int w = d_lookup_unhash_(d);
        WaitQ* q = wq_by_id(w);
        if (q && !broken(D_LOOKUP_DONE_NO_WAKE)) wake_up_all(q->wq);
        lockref_unlock(d->d_lockref);
    }

    // -----------------------------------------------------------------------
    // Publishing (ref 2.2-2.4, 5).
    // -----------------------------------------------------------------------
    void d_set_inode_and_type_(Dentry* d, int ino) {
        // raw_write_seqcount_begin(&d_seq); __d_set_inode_and_type; end: lockless
        // readers see a consistent inode and type or retry.
        write_seqcount_begin(d->d_seq);
        plain_store(d->d_inode, ino);
        write_seqcount_end(d->d_seq);
    }

    // __d_add: only an in-lookup dentry gets the i_dir_seq window, and its
    // leaving the chain, getting its inode and entering the main hash all
    // happen inside it, under d_lock; the waiters are woken at its end.
    void d_add_(Dentry* d, int ino) {
        KFUNC("__d_add");
        lockref_lock(d->d_lockref);
        bool inl = d_in_lookup(d);
        unsigned n = 0;
        int w = -1;
        bool window = inl && !MUTATION("no-start-dir-add");
        if (inl) {
            in_dir_add[this_thread()] = true;  // ghost
            if (window) n = start_dir_add(dir);
            w = d_lookup_unhash_(d);
        }
        if (ino >= 0) d_set_inode_and_type_(d, ino);  // hlist_add_head(d_alias, &inode->i_dentry): not modelled
        d_rehash_(d);
        if (inl) in_dir_add[this_thread()] = false;  // ghost
        if (window) {
            end_dir_add(dir, n, w);
        } else if (WaitQ* q = inl ? wq_by_id(w) : nullptr) {
            // The mutation deletes the window, not end_dir_add's wakeup.
            smp_mb();
            if (waitqueue_active(q->wq)) wake_up_all(q->wq);
        }
        lockref_unlock(d->d_lockref);
    }

    void d_add(Dentry* d, int ino) {
        KFUNC("d_add");
        // security_d_instantiate; spin_lock(&inode->i_lock): not modelled.
        d_add_(d, ino);
    }

    // d_splice_alias for a regular file (no directory alias to move). Its
    // BUG_ON(!d_unhashed(dentry)) is not modelled: every caller d_drop()s
    // first, as NFS does. Should another thread hash the dentry in between
    // (two openers handed one hashed negative dentry, reference 8.2's
    // variant), __d_rehash reports the double insertion.
    Dentry* d_splice_alias(int ino, Dentry* d) {
        KFUNC("d_splice_alias");
        d_add_(d, ino);
        return nullptr;
    }

    void d_instantiate(Dentry* d, int ino) {
        KFUNC("d_instantiate");
        lockref_lock(d->d_lockref);
        d_set_inode_and_type_(d, ino);
        lockref_unlock(d->d_lockref);
    }

    // d_add_ci: publish the case-exact name `ci`; `d` (the user's case) is
    // never hashed and stays in-lookup until its caller's d_lookup_done.
    Dentry* d_add_ci(Dentry* d, int ino, int ci) {
        KFUNC("d_add_ci");
        Dentry* found = d_lookup(ci);  // d_hash_and_lookup
        if (found) return found;       // iput(inode)
        if (d_in_lookup(d)) {
            found = d_alloc_parallel(ci, plain_load(d->d_wait));
            if (!d_in_lookup(found)) return found;
        } else {
            found = d_alloc(ci, 0);
        }
        Dentry* res = d_splice_alias(ino, found);
        if (res) {
            d_lookup_done(found);
            dput(found);
            return res;
        }
        return found;
    }

    // -----------------------------------------------------------------------
    // dput (fast_dput, retain_dentry, __dentry_kill).
    // -----------------------------------------------------------------------
    void dput(Dentry* d) {
        KFUNC("dput");
        // fast_dput runs under rcu_read_lock(): once the count is dropped,
        // another thread may kill the dentry, but cannot free it under us.
        rcu_read_lock();
        int r = lockref_put_return(d->d_lockref);
        if (r > 0) {
            rcu_read_unlock();
            return;
        }
        if (r < 0) {
            // The lockless decrement could not be done (locked, or count <= 0).
            lockref_lock(d->d_lockref);
            int c = lockref_count_locked(d->d_lockref);
            if (c <= 0) {
                // WARN_ON_ONCE(dentry->d_lockref.count <= 0)
                violate(this_thread(), "dentry-ref-underflow", nullptr, 0, "dput of %s with d_lockref.count = %d%s", d->name(),
                        c, c == LOCKREF_DEAD ? " (dead)" : "");
                lockref_unlock(d->d_lockref);
                rcu_read_unlock();
                return;
            }
            lockref_set_count_locked(d->d_lockref, c - 1);
        } else {
            // Went to zero. retain_dentry()'s lockless pre-check: left out.
            lockref_lock(d->d_lockref);
        }
        // Somebody got a reference meanwhile, or killed it (dead is -128:
        // non-zero), or retain_dentry(dentry, true): a hashed dentry stays
        // cached at count 0.
        if (lockref_count_locked(d->d_lockref) != 0 || !d_unhashed(d)) {
            lockref_unlock(d->d_lockref);
            rcu_read_unlock();
            return;
        }
        rcu_read_unlock();
        dentry_kill_(d);
    }

    void dentry_kill_(Dentry* d) {
        KFUNC("__dentry_kill");
        lockref_mark_dead(d->d_lockref);
        ghost[d->gi].killed = true;
        kstep("__dentry_kill", d->id, "%s is killed (unhashed, no references)", d->name());
        lockref_unlock(d->d_lockref);
        // dentry_free: call_rcu(&dentry->d_u.d_rcu, __d_free)
        call_rcu_free(d->id);
    }

    // -----------------------------------------------------------------------
    // d_alloc_parallel (ref 1), v6.17..7.0.
    // -----------------------------------------------------------------------
    void d_wait_lookup(Dentry* d) {
        KFUNC("d_wait_lookup");
        // Called with d_lock held. The flag test and the enqueue are under
        // d_lock, and so are the owner's clear and wake: no wakeup is lost.
        if (!d_in_lookup(d)) return;
        WaitQ* q = wq_by_id(plain_load(d->d_wait));
        do {
            prepare_to_wait(q->wq);  // add_wait_queue + set_current_state(TASK_UNINTERRUPTIBLE)
            lockref_unlock(d->d_lockref);
            kstep("d_alloc_parallel:wait", d->id, "sleeps until %s leaves in-lookup", d->name());
            schedule_on(q->wq, "d_wait_lookup", d->id,
                        [&]() { return (d->d_flags.peek() & DCACHE_PAR_LOOKUP) == 0; });
            lockref_lock(d->d_lockref);
        } while (d_in_lookup(d));
        finish_wait(q->wq);
    }

    // d-alloc-parallel-result: what d_alloc_parallel returns is hashed (a
    // lookup hit, or a dentry whose lookup completed while we waited), or
    // in-lookup and published by the caller, who must now run ->lookup or
    // ->atomic_open on it. Anything else is an unhashed negative dentry
    // nobody will resolve: a spurious -ENOENT, or a create that never
    // happened. `hashed` is judged where the caller pinned it.
    void check_dap_result(Dentry* d, bool hashed, const char* what) {
        if (hashed) return;
        bool own_inl = (d->d_flags.peek() & DCACHE_PAR_LOOKUP) && d->publisher == this_thread();
        KWARN_ON(!own_inl, "d-alloc-parallel-result",
                 "d_alloc_parallel returns %s, %s: unhashed and not in-lookup for %s (%s)", d->name(), what, me(),
                 (d->d_flags.peek() & DCACHE_PAR_LOOKUP) ? "in-lookup for another thread" : "negative, nobody will look it up");
    }

    Dentry* d_alloc_parallel(int name, int wqid) {
        KFUNC("d_alloc_parallel");
        HashBucket* b = inlb[name];
        // e95db51c81f5: PAR_LOOKUP is set before the dentry is visible anywhere.
        Dentry* nw = d_alloc(name, DCACHE_PAR_LOOKUP);
        // `goto retry` makes this a busy loop until i_dir_seq, the hash or
        // the chain has moved: a pass that read nothing new and changed
        // nothing parks until another thread writes what it read.
        retry_loop retry;
        for (bool again = false;; again = true) {  // retry:
            if (again) retry.again();
            rcu_read_lock();
            // Step 2: sample i_dir_seq, unmasked. Acquire pairs with
            // end_dir_add's release: seeing a closed window means seeing
            // that add's dentry in the main hash.
            unsigned seq = (unsigned)(broken(DIR_SEQ_READ_RELAXED) ? READ_ONCE(dir->i_dir_seq) : smp_load_acquire(dir->i_dir_seq));
            kstep("d_alloc_parallel:sample", dir->id, "seq = %u", seq);
            // Step 3: r_seq = read_seqbegin(&rename_lock): left out (no rename).
            unsigned dseq = 0;
            int hit = d_lookup_rcu_(name, &dseq);
            Dentry* h = D(hit);
            kstep("d_alloc_parallel:lookup", hit, h ? "__d_lookup_rcu finds %s" : "__d_lookup_rcu misses \"%s\"",
                  h ? h->name() : nm(name));
            if (h) {
                if (!lockref_get_not_dead(h->d_lockref)) {
                    rcu_read_unlock();
                    continue;
                }
                // Ghost: was it hashed when the reference pinned it? (A
                // d_drop after the get is a later unlink, not this lookup's.)
                bool hashed_at_get = h->d_hash_pprev.peek() != 0;
                if (read_seqcount_retry(h->d_seq, dseq)) {
                    rcu_read_unlock();
                    dput(h);
                    continue;
                }
                rcu_read_unlock();
                check_dap_result(h, hashed_at_get, "the __d_lookup_rcu hit");
                dput(nw);
                return h;
            }
            // Step 6: read_seqretry(&rename_lock, r_seq): left out.
            // Step 7: an odd sample means an add was in progress: resample.
            if (!broken(NO_PARITY_CHECK) && (seq & 1)) {
                kstep("d_alloc_parallel:parity", dir->id, "seq %u is odd: an add is in progress, retry", seq);
                rcu_read_unlock();
                continue;
            }
            kstep("d_alloc_parallel:parity", dir->id, broken(NO_PARITY_CHECK) ? "seq %u: parity not checked (broken)" : "seq %u is even", seq);
            // Step 8: the in-lookup bucket lock. Every removal from the chain
            // takes it, so what the scan finds stays there until we unlock.
            bit_spin_lock(b->lock);
            // Step 9: re-check i_dir_seq under the bucket lock: an add that
            // took this name off the chain since the sample has moved it.
            if (!broken(NO_DIR_SEQ_RECHECK) && !MUTATION("no-i-dir-seq-recheck")) {
                unsigned now = (unsigned)READ_ONCE(dir->i_dir_seq);
                if (now != seq) {
                    kstep("d_alloc_parallel:recheck", dir->id, "i_dir_seq moved %u -> %u: retry", seq, now);
                    bit_spin_unlock(b->lock);
                    rcu_read_unlock();
                    continue;
                }
                kstep("d_alloc_parallel:recheck", dir->id, "i_dir_seq still %u", seq);
            }
            // Step 10: scan the chain.
            Dentry* m = nullptr;
            for (int id = plain_load(b->first); id >= 0; id = plain_load(D(id)->d_in_lookup_next))
                if (plain_load(D(id)->d_name_hash) == name) {  // hash, d_parent, d_same_name
                    m = D(id);
                    break;
                }
            if (m) {
                kstep("d_alloc_parallel:scan", m->id, "finds %s in-lookup: somebody is resolving \"%s\"", m->name(), nm(name));
                bit_spin_unlock(b->lock);
                if (!lockref_get_not_dead(m->d_lockref)) {
                    rcu_read_unlock();
                    continue;
                }
                rcu_read_unlock();
                lockref_lock(m->d_lockref);
                d_wait_lookup(m);
                // Not in-lookup any more: hashed means the lookup succeeded
                // (name and parent cannot have changed here).
                bool revalidate = !broken(NO_WAIT_REVALIDATE) && !MUTATION("d-wait-lookup-no-revalidate");
                if (revalidate && d_unhashed(m)) {
                    kstep("d_alloc_parallel:mismatch", m->id, "%s is not hashed after the wait: retry", m->name());
                    lockref_unlock(m->d_lockref);
                    dput(m);
                    continue;
                }
                if (!revalidate)
                    kstep("d_alloc_parallel:no-revalidate", m->id, "broken: %s returned without the d_unhashed re-check", m->name());
                check_dap_result(m, !d_unhashed(m), "the in-lookup dentry it waited for");
                lockref_unlock(m->d_lockref);
                if (!MUTATION("waiter-no-dput-new")) dput(nw);
                return m;
            }
            kstep("d_alloc_parallel:scan", b->id, "no in-lookup dentry for \"%s\"", nm(name));
            rcu_read_unlock();
            // Step 12: publish.
            plain_store(nw->d_wait, wqid);
            plain_store(nw->d_in_lookup_next, plain_load(b->first));
            plain_store(b->first, nw->id);
            nw->publisher = this_thread();  // ghost
            kstep("d_alloc_parallel:publish", nw->id, "%s -> in-lookup hash", nw->name());
            bit_spin_unlock(b->lock);
            check_dap_result(nw, false, "its own new dentry");
            return nw;
        }
    }

    // -----------------------------------------------------------------------
    // The filesystem (NFS-like).
    // -----------------------------------------------------------------------
    // ->d_revalidate (nfs4_lookup_revalidate), as far as it concerns names:
    // a positive dentry is valid; a negative one is trusted for a create
    // (nfs_neg_need_reval tests LOOKUP_CREATE first) and, per the seed's
    // locking.rst, not for an open without O_CREAT. "always-valid" is a
    // filesystem without ->d_revalidate.
    int d_revalidate(Dentry* d, int flags) {
        KFUNC("d_revalidate");
        if (cfg.revalidate == REVAL_ALWAYS) return 1;
        if (!d_really_is_negative(d)) return 1;
        if (flags & LOOKUP_CREATE) return 1;
        if (flags & LOOKUP_OPEN) return 0;
        return 1;
    }

    // INV-2 bookkeeping: an O_CREAT call into the filesystem starts (`ev`,
    // the caller's kstep that says so) / ends.
    void create_begin(Dentry* d, int ev) {
        int t = this_thread();
        int cls = cfg.fold[d->d_name];
        for (int u = 0; u < cfg.nthreads; u++) {
            if (u == t || inflight[u] != cls) continue;
            int c[2] = {inflight_ev[u], ev};
            violate(t, "create-exclusion", c, 2,
                    "%s's O_CREAT call for \"%s\" runs while %s's for \"%s\" is still running, and the server treats "
                    "them as one entry",
                    me(), nm(d->d_name), thread_name(u), nm(inflight_name[u]));
        }
        inflight[t] = cls;
        inflight_ev[t] = ev;
        inflight_name[t] = d->d_name;
    }
    void create_end() { inflight[this_thread()] = -1; }
    const char* server_entry(Dentry* d) const { return cfg.class_name[cfg.fold[d->d_name]]; }

    // One RPC, handled by the server in one step. Returns the entry's inode
    // or -1; *failed when the server reports an error (-EIO, -EDQUOT...).
    int server_rpc(int name, bool create, const char* what, bool* failed) {
        int cls = cfg.fold[name];
        *failed = false;
        if (cfg.rpc_error && kchoose(2)) {
            *failed = true;
            kstep("server:error", srv[cls]->id, "the server fails %s \"%s\"", what, nm(name));
            return -1;
        }
        bool wrote = false;
        int want = inode[cls]->id;
        int old = srv[cls]->ino.rmw(Acc::AtomicRmwFull, what, [&](int& v) {
            if (v >= 0 || !create) return false;
            v = want;
            return true;
        }, &wrote);
        if (wrote) server_name[cls] = name;
        return wrote ? want : old;
    }

    // How the filesystem publishes the result of an open on `d`.
    Dentry* nfs_publish(Dentry* d, int ino, int sname) {
        switch (cfg.publish) {
            case PUB_SPLICE:
                // _nfs4_open_and_get_state: d_drop + d_splice_alias.
                d_drop(d);
                return d_splice_alias(ino, d);
            case PUB_D_ADD:
                d_drop(d);
                d_add(d, ino);
                return nullptr;
            case PUB_D_ADD_CI:
                // As a case-insensitive filesystem's lookup: the server's
                // case-exact name, if it differs, is published by d_add_ci.
                if (sname != d->d_name) return d_add_ci(d, ino, sname);
                d_drop(d);
                return d_splice_alias(ino, d);
            case PUB_D_REHASH:
                // Broken: the inode is attached and the name hashed, but the
                // in-lookup state does not end (no i_dir_seq window, no wake).
                d_drop(d);
                d_instantiate(d, ino);
                d_rehash(d);
                return nullptr;
            case PUB_REHASH_EARLY:
                // Hashed (still in-lookup) before the OPEN: only the inode now.
                d_instantiate(d, ino);
                return nullptr;
        }
        return nullptr;
    }

    // ->atomic_open (nfs_atomic_open). Returns 0 or an error; *res is a
    // different dentry the file was opened on (with a reference), or NULL.
    int nfs_atomic_open(Dentry* d, bool creat, Dentry** res) {
        KFUNC("nfs_atomic_open");
        *res = nullptr;
        bool switched = false;
        if (!creat && !d_in_lookup(d)) {
            // A hashed dentry without O_CREAT: drop it and look the name up
            // in-lookup from here ("switched").
            d_drop(d);
            switched = true;
            Dentry* nd = d_alloc_parallel(d->d_name, wq[this_thread()]->id);
            if (!d_in_lookup(nd)) {
                *res = nd;  // finish_no_open(file, dentry)
                return 0;
            }
            d = nd;
        }
        fs_call_enter(d, "->atomic_open");
        if (creat)
            create_begin(d, kstep_ev("nfs_atomic_open:begin", d->id, "->atomic_open(O_CREAT) of \"%s\" starts (server entry \"%s\")",
                                     nm(d->d_name), server_entry(d)));
        if (cfg.publish == PUB_REHASH_EARLY && d_in_lookup(d)) {
            // Broken (H2): the filesystem hashes the negative dentry while it
            // is still in-lookup; a lookup hit now finds it, and a second
            // opener takes its PAR_LOOKUP for its own.
            kstep("nfs_atomic_open:rehash-early", d->id, "%s hashed while negative and in-lookup", d->name());
            d_rehash(d);
        }
        kstep("nfs_atomic_open:rpc", d->id, "OPEN%s \"%s\" sent to the server", creat ? "(CREATE)" : "", nm(d->d_name));
        bool failed;
        int ino = server_rpc(d->d_name, creat, creat ? "OPEN(CREATE)" : "OPEN", &failed);
        kstep("nfs_atomic_open:reply", d->id, failed ? "error" : ino >= 0 ? "opened %s" : "-ENOENT",
              ino >= 0 ? object_name(ino) : "");
        int err = 0;
        if (failed) {
            d_drop(d);
            err = -5;  // -EIO
        } else if (ino < 0) {
            // -ENOENT: d_drop + d_splice_alias(NULL): a cached negative.
            d_drop(d);
            d_splice_alias(-1, d);
            err = -2;
        } else {
            *res = nfs_publish(d, ino, server_name[cfg.fold[d->d_name]]);
        }
        fs_call_exit(d);
        if (creat) {
            kstep("nfs_atomic_open:end", d->id, "->atomic_open(O_CREAT) of \"%s\" returns", nm(d->d_name));
            create_end();
        }
        if (switched) {
            d_lookup_done(d);
            if (err || *res) dput(d);
            else *res = d;
        }
        return err;
    }

    // ->lookup (nfs_lookup).
    Dentry* nfs_lookup(Dentry* d) {
        KFUNC("nfs_lookup");
        fs_call_enter(d, "->lookup");
        bool failed;
        int ino = server_rpc(d->d_name, false, "LOOKUP", &failed);
        Dentry* res = failed ? nullptr : d_splice_alias(ino, d);  // the error path leaves the dentry unhashed
        fs_call_exit(d);
        return res;
    }

    // one-fs-call-per-dentry: the in-lookup state gives its owner, alone,
    // the right to run ->lookup or ->atomic_open on the dentry. Ghost: who
    // is inside one of them on `d` now.
    void fs_call_enter(Dentry* d, const char* call) {
        int t = this_thread();
        if (d->fs_call >= 0 && d->fs_call != t)
            violate(t, "one-fs-call-per-dentry", nullptr, 0, "%s runs %s on %s while %s is inside %s on it", me(), call,
                    d->name(), thread_name(d->fs_call), d->fs_call_name);
        d->fs_call = t;
        d->fs_call_name = call;
    }
    void fs_call_exit(Dentry* d) {
        if (d->fs_call == this_thread()) d->fs_call = -1;
    }

    // ->create (nfs_create -> nfs_instantiate).
    void nfs_create(Dentry* d) {
        KFUNC("nfs_create");
        create_begin(d, kstep_ev("nfs_create:begin", d->id, "->create(O_CREAT) of \"%s\" starts (server entry \"%s\")",
                                 nm(d->d_name), server_entry(d)));
        bool failed;
        int ino = server_rpc(d->d_name, true, "CREATE", &failed);
        if (!failed && ino >= 0) {
            d_drop(d);
            d_splice_alias(ino, d);
        }
        kstep("nfs_create:end", d->id, "->create(O_CREAT) of \"%s\" returns", nm(d->d_name));
        create_end();
    }

    // -----------------------------------------------------------------------
    // fs/namei.c
    // -----------------------------------------------------------------------
    // atomic_open_create_shared (seed): ->atomic_open present, the ops opt
    // in, and the superblock's SB_I_NAMES_COLLIDE clear, read once, last.
    bool atomic_open_create_shared() {
        return cfg.has_atomic_open && cfg.create_shared_flag && !(READ_ONCE(sb->s_iflags) & SB_I_NAMES_COLLIDE);
    }

    Dentry* atomic_open(Dentry* d, bool creat, int* err) {
        KFUNC("atomic_open");
        Dentry* res = nullptr;
        *err = nfs_atomic_open(d, creat, &res);
        // Ends the in-lookup state as soon as the method returns.
        d_lookup_done(d);
        if (*err) {
            dput(d);
            return nullptr;
        }
        if (res) {
            // FMODE_OPENED on file->f_path.dentry, a different dentry.
            dput(d);
            d = res;
        }
        return d;
    }

    void lock_parent(bool shared) {
        if (shared) down_read(dir->i_rwsem);  // inode_lock_shared
        else down_write(dir->i_rwsem);        // inode_lock
    }
    void unlock_parent(bool shared) {
        if (shared) up_read(dir->i_rwsem);
        else up_write(dir->i_rwsem);
    }

    // d_invalidate + dput of a dentry lookup_open rejects (the dput_bug
    // knob's broken variants move or repeat the dput).
    void put_rejected(Dentry* d) {
        if (broken(DPUT_BEFORE_INVALIDATE)) dput(d);
        d_invalidate(d);
        if (!broken(MISSING_DPUT)) dput(d);
        if (broken(DOUBLE_DPUT)) dput(d);
    }

    // lookup_open: takes and drops the parent lock itself (ddb6e6c72a0a).
    // Returns the dentry of the last component with a reference, or NULL.
    Dentry* lookup_open(int name, bool creat) {
        KFUNC("lookup_open");
        int wqid = wq[this_thread()]->id;
        int nd_flags = LOOKUP_OPEN | (creat ? LOOKUP_CREATE : 0);
        // retry: (delegation retry: not modelled)
        // One evaluation decides the lock mode, the unlock and the
        // in-lookup guarantee owed to ->atomic_open.
        bool create_shared = creat && atomic_open_create_shared();
        bool shared = !creat || create_shared;  // shared_flag == LOOKUP_SHARED
        kstep("lookup_open:lock", dir->id, "%s, create_shared = %d: i_rwsem %s", creat ? "O_CREAT" : "no O_CREAT",
              (int)create_shared, shared ? "shared" : "exclusive");
        if (!broken(LOOKUP_BEFORE_LOCK)) lock_parent(shared);
        Dentry* d = d_lookup(name);
        for (;;) {
            if (!d) d = d_alloc_parallel(name, wqid);
            if (d_in_lookup(d)) break;  // we own it
            int r = d_revalidate(d, nd_flags);
            // The seed: under the shared lock a valid negative cannot end the
            // loop -- hashed and not in-lookup, it gives ->atomic_open no
            // exclusion for the name.
            if (r > 0 && (!create_shared || !cfg.reject_hashed_negative || !d_really_is_negative(d))) break;
            kstep("lookup_open:reject", d->id, r > 0 ? "%s is a valid hashed negative: rejected under the shared lock"
                                                     : "%s is not valid",
                  d->name());
            put_rejected(d);
            d = nullptr;
        }
        if (broken(LOOKUP_BEFORE_LOCK)) lock_parent(shared);
        Dentry* ret = d;
        if (!d_really_is_negative(d)) goto out;  // positive: opened later by f_op->open
        if (cfg.has_atomic_open) {
            // VFS_WARN_ON_ONCE(create_shared && !d_in_lookup(dentry))
            if (create_shared && !d_in_lookup(d))
                violate(this_thread(), "atomic-open-in-lookup", nullptr, 0,
                        "->atomic_open(O_CREAT) with i_rwsem shared is handed %s, which is not in-lookup", d->name());
            int err;
            ret = atomic_open(d, creat, &err);
        } else {
            if (d_in_lookup(d)) {
                Dentry* res = nfs_lookup(d);
                d_lookup_done(d);
                if (res) {
                    dput(d);
                    d = res;
                }
            }
            if (creat && d_really_is_negative(d)) nfs_create(d);
            ret = d;
        }
    out:
        unlock_parent(shared);
        return ret;
    }

    // walk_component for the last component: lookup_fast, then lookup_slow.
    Dentry* lookup_fast(int name) {
        KFUNC("lookup_fast");
        Dentry* d = d_lookup(name);
        if (!d) return nullptr;
        if (d_revalidate(d, 0) > 0) return d;
        d_invalidate(d);
        dput(d);
        return nullptr;
    }

    Dentry* lookup_slow_(int name) {
        KFUNC("__lookup_slow");
        for (;;) {  // again:
            Dentry* d = d_alloc_parallel(name, wq[this_thread()]->id);
            if (!d_in_lookup(d)) {
                if (d_revalidate(d, 0) > 0) return d;
                d_invalidate(d);
                dput(d);
                continue;
            }
            Dentry* old = nfs_lookup(d);
            d_lookup_done(d);
            if (old) {
                dput(d);
                d = old;
            }
            return d;
        }
    }

    Dentry* lookup_slow(int name) {
        KFUNC("lookup_slow");
        down_read(dir->i_rwsem);
        Dentry* d = lookup_slow_(name);
        up_read(dir->i_rwsem);
        return d;
    }

    // -----------------------------------------------------------------------
    // Ops.
    // -----------------------------------------------------------------------
    void op_open(int name, bool creat) {
        KFUNC("path_openat");
        Dentry* d = lookup_open(name, creat);
        if (!d) return;
        // The file is closed at once: __fput -> dput.
        dput(d);
    }

    void op_lookup(int name) {
        KFUNC("walk_component");
        Dentry* d = lookup_fast(name);
        if (!d) d = lookup_slow(name);
        if (d) dput(d);  // path_put
    }

    void op_set_names_collide() {
        KFUNC("set_names_collide");
        // The filesystem learns that the server does not tell these names
        // apart: sb->s_iflags |= SB_I_NAMES_COLLIDE.
        WRITE_ONCE(sb->s_iflags, plain_load(sb->s_iflags) | SB_I_NAMES_COLLIDE);
    }

    void thread(int t) override {
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
    void check_step() override {
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

    void check_final() override {
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

    void final_state(std::string& out) const override {
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
};

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
     "nfs_create:end", "server:error"}
};

struct DcacheModel : Model {
    ModelSpec s;
    DcacheCfg cfg;
    DcacheModel() {
        s.name = "dcache";
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
        s.max_threads = kMaxThreads;
        s.max_ops = kMaxOps;
    }
    const ModelSpec& spec() const override { return s; }

    // `path`: where the name is written, for the error line.
    int add_name(DcacheCfg& c, const std::string& n, const Scenario& sc, const std::string& path) {
        for (int i = 0; i < c.nnames; i++)
            if (n == c.names[i]) return i;
        if (c.nnames >= kMaxNames)
            throw ModelError(path, "name \"" + n + "\" is one more than " + std::to_string(kMaxNames) +
                                     " distinct names; accepted: at most 4 names per dcache scenario");
        if (n.empty() || n.size() >= (size_t)kNameMax)
            throw ModelError(path, "bad value \"" + n + "\"; accepted: a name of 1 to 15 characters");
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
}  // namespace vfsmc
