// dcache: O_CREAT with the parent lock shared -- the in-lookup protocol.
// The model's shared header: its configuration, its kernel objects and
// one execution's state (DcacheRun), whose functions live in the files
// named after the kernel files they follow:
//   dcache.cpp  fs/dcache.c (and include/linux/dcache.h)
//   namei.cpp   fs/namei.c
//   nfs.cpp     the filesystem side (fs/nfs) and its server
//   model.cpp   the declaration table, prepare(), the ops and the invariants
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
#pragma once

#include <string>

#include "contract/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace dcache {

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
    int nops[kMaxScenarioThreads] = {};
    OpKind op[kMaxScenarioThreads][kMaxOps] = {};
    int op_name[kMaxScenarioThreads][kMaxOps] = {};
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
    WaitQ* wq[kMaxScenarioThreads];

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
    int inflight[kMaxScenarioThreads];      // create-exclusion: server entry of a running O_CREAT call, or -1
    int inflight_ev[kMaxScenarioThreads];
    int inflight_name[kMaxScenarioThreads];
    // Ghost: the thread is inside __d_add's i_dir_seq section
    // (start_dir_add .. end_dir_add) for an in-lookup dentry. Names that
    // section in the trace of the steps inside it.
    bool in_dir_add[kMaxScenarioThreads] = {};

    bool broken(DcacheBug b) const { return cfg.broken.has(b); }

    explicit DcacheRun(const DcacheCfg& c);

    // fs/dcache.c, include/linux/dcache.h: dcache.cpp
    Dentry* new_dentry(int name, int count, int flags, int ino, int hashed);
    Dentry* D(int id) const { return id >= 0 ? by_id[id] : nullptr; }
    WaitQ* wq_by_id(int id) const;
    const char* nm(int name) const { return cfg.names[name]; }
    const char* me() const { return thread_name(this_thread()); }

    // rcu_dereference() of a main-hash link: an address dependency, modelled
    // as acquire (the layer has no dependencies). Broken: a plain READ_ONCE.
    int rcu_dereference(kfield<int>& f, SrcLoc at = SrcLoc()) {
        return broken(HASH_WALK_READ_ONCE) ? READ_ONCE(f, at) : smp_load_acquire(f, at);
    }

    const char* rehash_context(Dentry* d) const;
    const char* unhash_context(Dentry* d) const;

    // include/linux/dcache.h
    bool d_in_lookup(Dentry* d) { return plain_load(d->d_flags) & DCACHE_PAR_LOOKUP; }
    bool d_unhashed(Dentry* d) { return plain_load(d->d_hash_pprev) == 0; }
    bool d_really_is_negative(Dentry* d) { return plain_load(d->d_inode) < 0; }

    Dentry* d_alloc(int name, int flags);
    int d_lookup_rcu_(int name, unsigned* dseq);
    Dentry* d_lookup(int name);
    void d_rehash_(Dentry* d);
    void d_drop_(Dentry* d);
    void d_rehash(Dentry* d);
    void d_drop(Dentry* d);
    void d_invalidate(Dentry* d);
    unsigned start_dir_add(DirInode* d);
    void end_dir_add(DirInode* d, unsigned n, int wqid);
    void hlist_bl_del_in_lookup(HashBucket* b, Dentry* d);
    int d_lookup_unhash_(Dentry* d);
    void d_lookup_done(Dentry* d);
    void d_set_inode_and_type_(Dentry* d, int ino);
    void d_add_(Dentry* d, int ino);
    void d_add(Dentry* d, int ino);
    Dentry* d_splice_alias(int ino, Dentry* d);
    void d_instantiate(Dentry* d, int ino);
    Dentry* d_add_ci(Dentry* d, int ino, int ci);
    void dput(Dentry* d);
    void dentry_kill_(Dentry* d);
    void d_wait_lookup(Dentry* d);
    void check_dap_result(Dentry* d, bool hashed, const char* what);
    Dentry* d_alloc_parallel(int name, int wqid);

    // The filesystem (NFS-like) and its server: nfs.cpp
    int d_revalidate(Dentry* d, int flags);
    void create_begin(Dentry* d, int ev);
    void create_end() { inflight[this_thread()] = -1; }
    const char* server_entry(Dentry* d) const { return cfg.class_name[cfg.fold[d->d_name]]; }
    int server_rpc(int name, bool create, const char* what, bool* failed);
    Dentry* nfs_publish(Dentry* d, int ino, int sname);
    int nfs_atomic_open(Dentry* d, bool creat, Dentry** res);
    Dentry* nfs_lookup(Dentry* d);
    void fs_call_enter(Dentry* d, const char* call);
    void fs_call_exit(Dentry* d);
    void nfs_create(Dentry* d);
    void op_set_names_collide();

    // fs/namei.c: namei.cpp
    bool atomic_open_create_shared();
    Dentry* atomic_open(Dentry* d, bool creat, int* err);
    void lock_parent(bool shared);
    void unlock_parent(bool shared);
    void put_rejected(Dentry* d);
    Dentry* lookup_open(int name, bool creat);
    Dentry* lookup_fast(int name);
    Dentry* lookup_slow_(int name);
    Dentry* lookup_slow(int name);
    void op_open(int name, bool creat);
    void op_lookup(int name);

    // The ops and the invariants: model.cpp
    void thread(int t) override;
    void check_step() override;
    void check_final() override;
    void final_state(std::string& out) const override;
};

}  // namespace dcache
}  // namespace vfsmc
