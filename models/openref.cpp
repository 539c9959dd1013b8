// openref: who owns the dentry and mount references of an open, from the
// RCU path walk to the last fput, with and without seed 000.
//
// Follows (paraphrased in ../shared/reference/open-refs-and-chrdev.md,
// sections A1-A9, B1-B3, D "Seed 000" and E):
//   fs/namei.c      do_file_open (RCU, then ref-walk on -ECHILD), path_openat,
//                   path_init, link_path_walk (only the crossing into the
//                   mount), open_last_lookups (and, for an ->atomic_open
//                   filesystem, lookup_open and atomic_open) / lookup_last, lookup_fast,
//                   step_into, complete_walk, try_to_unlazy, leave_rcu,
//                   __legitimize_path, terminate_walk, path_lookupat,
//                   do_o_path (as it is; with vfs_open_consume; with a
//                   consuming helper that does not clear the caller's path;
//                   without the path_put), do_open in three versions
//                   (unpatched; v4: no mntget for truncate, shape (b) of A8:
//                   the mount saved without a reference; v5: the seed),
//                   handle_truncate, filename_unlinkat (reduced), path_get,
//                   path_put
//   fs/open.c       vfs_open, vfs_open_consume, finish_open (v5: its own
//                   path_get; reached through ->atomic_open), do_dentry_open (unpatched:
//                   it starts with path_get; v4/v5: it consumes the caller's
//                   reference) with three outcomes: success, failure before
//                   FMODE_OPENED (cleanup_file path_put), failure after it
//                   (O_DIRECT without FMODE_CAN_ODIRECT), file_get_write_access,
//                   put_file_access
//   fs/file_table.c alloc_empty_file, fput, fput_close, __fput_deferred,
//                   __fput (deferred to the return to user space), file_free
//   fs/dcache.c     dput, fast_dput, retain_dentry, lock_for_kill,
//                   __dentry_kill (reduced as reference B2 says: mark dead,
//                   LRU del, __d_drop, dentry_unlink_inode, free via RCU),
//                   __d_drop, d_delete, dentry_unlink_inode, __d_lookup,
//                   __d_lookup_rcu, dget, dget_dlock (6.8+ layout)
//   lib/lockref.c   through the layer (kernel.h): lockref_get,
//                   lockref_get_not_dead, lockref_put_return, mark_dead
//   fs/namespace.c  __legitimize_mnt / legitimize_mnt (with the
//                   SYNC_UMOUNT|DOOMED check under mount_lock, upstream
//                   250cf3693060), lookup_mnt, mntget, mntput,
//                   mntput_no_expire (fast path through mnt_ns under RCU;
//                   slow path under mount_lock with the smp_mb pairing),
//                   cleanup_mnt (task_work, then RCU free), mnt_want_write,
//                   mnt_drop_write, mnt_get_write_access,
//                   mnt_put_write_access, do_umount(MNT_DETACH) with
//                   umount_tree and namespace_unlock (synchronize_rcu, then
//                   the namespace's mntput)
//   fs/inode.c      ihold, iput, iput_final, evict (reduced to the RCU free)
// Motivated by seed 000 (../shared/seeds/000_ec8b663e10eb7bf9.txt, "[PATCH
// v5] fs: avoid spurious dentry ref/unref cycle on open", Mateusz Guzik),
// Jori Koolstra's "Is this needed?" about the v5 mntget and Mateusz's answer
// ("do_dentry_open() whacks the ref on failure"), and Jori's do_o_path
// remark ("path_put(&path); // Not needed?").
//
// Objects: one mount "mnt" (a tmpfs-like filesystem mounted in
// init_mnt_ns), its superblock, one regular file "f" on it: dentry "f" and
// inode "f", and the dentry hash bucket that holds "f". mnt_count is
// per-CPU as in the kernel (one slot per thread), summed by
// mntput_no_expire under mount_lock. With `init.pwd_in_mnt` the threads
// share an fs_struct whose pwd is inside mnt: a walk then starts in mnt
// (no mount crossing) and `chdir` drops pwd's mount reference. With
// `init.fd_mount: bind` the file open before the scenario was opened
// through "mnt2", a bind mount of the same superblock elsewhere in
// init_mnt_ns that no walk of the scenario reaches. A struct path holds the
// mount and dentry objects its pointers were loaded as, and path_get,
// path_put and __fput act on those.
//
// Left out, and what that could hide:
// - The walk above "f": the root, the cwd, the mountpoint and the directory
//   "f" lives in hold no references in the model (complete_walk clears
//   nd->root; the parent's legitimization in try_to_unlazy and the parent
//   reference __dentry_kill drops are not modelled). A bug in the parent's
//   reference would not be seen.
// - A miss in the dcache is -ENOENT at once: lookup_slow, d_alloc_parallel
//   and ->lookup (which would allocate a new dentry for the name) are not
//   modelled, nor O_CREAT or O_TMPFILE. ->atomic_open is modelled only as an
//   NFS-like open of the existing "f" (lookup_open -> atomic_open ->
//   finish_open), for the `i_op: atomic_open` knob.
// - The mount hash has one bucket, holding "mnt"; the mountpoint it is
//   hashed on is not modelled.
// - mnt_want_write: no remount read-only, so no MNT_WRITE_HOLD wait and no
//   -EROFS; the superblock's freeze protection is one counter
//   (sb->s_writers) and the superblock is never freed (cleanup_mnt's
//   deactivate_super and dput(mnt_root) are not modelled).
// - The inode's i_readcount/i_writecount (get_write_access) and ->open, the
//   permission checks of may_open (only its "negative dentry is -ENOENT"),
//   security_file_post_open (it succeeds), fsnotify and audit.
// - One unlinker (the parent's i_rwsem is not modelled) and one umounter
//   (namespace_sem is not modelled).
// - d_seq: d_inode, d_hash and d_flags are written with WRITE_ONCE and read
//   with READ_ONCE outside d_lock. The kernel writes them plainly under
//   d_lock; the lockless readers are seqcount readers or retain_dentry's
//   documented racy check, which KCSAN treats as marked. Marking them keeps
//   `data-race` reports about the protocol, not about those idioms.
// - lock_for_kill's i_lock retry is modelled but no scenario reaches it:
//   with one dentry, nobody else holds inode->i_lock when its last dput
//   runs (d_delete needs the unlinker's own reference).
// RCU: the layer's (checker/kernel: rcu_read_lock/unlock with one
// grace-period word per reader, synchronize_rcu, call_rcu_free). The model
// had its own read-section count and synchronize_rcu over one global RCU
// key, which made every two read sections of different threads dependent
// for DPOR; the layer's sections commute, as in the LKMM (issue 15 item 3;
// issue 10: o-path-v5 1 621 108 -> 121 322 dpor executions, every verdict
// the same). namespace_unlock's synchronize_rcu is a KFUNC around the
// layer's, which waits for the readers inside a section when it starts.
// legitimize-stale-dentry: dropping the d_seq check of __legitimize_path
// breaks no reference count (lockref_get_not_dead and lock_for_kill's
// locked recheck keep those right); it breaks the binding of the walk to
// what it looked up. The ghost check: at the lockref_get_not_dead that takes
// the walk's reference (from there on the reference pins the dentry, so
// that is where the lookup must still be valid), compare the dentry's ghost
// version (dver: bumped where the model unhashes it, turns it negative in
// place or marks it dead; never derived from d_seq, so a broken d_seq
// writer cannot blind the check) with the version the walk's lookup found;
// if it moved and try_to_unlazy still returns true, KWARN_ON. Every change
// is under d_lock and the get is an RMW of the d_lock word followed by
// read_seqcount_retry's smp_rmb, so a d_seq write ordered before the get is
// visible to the recheck: with the check on (and write_seqcount_invalidate
// intact: mutation no-write-seqcount-invalidate), the KWARN_ON cannot fire. Not modelled: try_to_unlazy's
// BUG_ON(nd->inode != parent->d_inode) (the parent is not modelled).
// Ghost state (never read by the kernel code): who owns each reference
// (nd->path, do_o_path's path, do_open's local mnt, each file, the
// namespace or the umounter), for mnt-drop-write-unowned and the end
// balance (ref-leak); and the lockref-update count for the metric.
#include <cstdio>

#include "contract/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace {

constexpr int NONE = -1;  // a NULL pointer field

// errno values (negated, as the kernel returns them).
constexpr int kENOENT = 2;
constexpr int kECHILD = 10;
constexpr int kEACCES = 13;
constexpr int kEINVAL = 22;

// include/linux/namei.h
constexpr int LOOKUP_RCU = 1;
// Flag bits of include/linux/fs.h (f_mode), include/linux/dcache.h
// (d_flags) and include/linux/mount.h (mnt_flags): only the ones the model
// tests, with small values of the model's own so that traces stay short.
constexpr int FMODE_READ = 1;
constexpr int FMODE_WRITE = 2;
constexpr int FMODE_OPENED = 4;
constexpr int FMODE_PATH = 8;
constexpr int FMODE_WRITER = 16;
constexpr int DCACHE_LRU_LIST = 1;
constexpr int DCACHE_REFERENCED = 2;
constexpr int MNT_DOOMED = 1;
constexpr int MNT_SYNC_UMOUNT = 2;

enum OpenFlags : int { O_RDONLY_, O_WRONLY_TRUNC_, O_PATH_ };
enum Op : int { OP_OPEN, OP_CLOSE, OP_UNLINK, OP_UMOUNT, OP_CHDIR };
enum DoOpen : int { UNPATCHED, V4, V5 };
enum Outcome : int { SUCCESS, FAIL_BEFORE_OPENED, FAIL_AFTER_OPENED };
enum OPath : int { OPATH_AS_IS, OPATH_CONSUME, OPATH_CONSUME_NO_CLEAR, OPATH_NO_PUT };

constexpr int kMaxOps = 8;
constexpr int kMaxFiles = 16;

const char* errname(int e) {
    switch (-e) {
        case kENOENT: return "-ENOENT";
        case kECHILD: return "-ECHILD";
        case kEACCES: return "-EACCES";
        case kEINVAL: return "-EINVAL";
    }
    return "an error";
}
const char* flags_name(int f) { return f == O_PATH_ ? "O_PATH" : f == O_WRONLY_TRUNC_ ? "O_WRONLY|O_TRUNC" : "O_RDONLY"; }

// The lockref metric, across the executions of one scenario.
struct Stats {
    long executions = 0;
    double sum = 0, min = 0, max = 0;
};

// The deliberately broken variants a scenario can select with a knob (broken()).
enum OpenrefBug {
    LEGITIMIZE_LOCKREF_GET,  // legitimize lockref_get: __legitimize_path revives a dead dentry
    NO_D_SEQ_CHECK,          // d_seq_check off: __legitimize_path skips read_seqcount_retry
};

struct OpenrefCfg {
    // knobs
    int do_open = V5;
    int outcome = SUCCESS;
    int o_path = OPATH_AS_IS;
    BrokenSet<OpenrefBug> broken;
    bool atomic_open = false;
    // init
    int dentry_extra = 0;
    bool hashed = true;
    bool lru_referenced = true;
    bool attached = true;
    int mnt_extra = 0;
    int fd_thread = NONE;
    int fd_flags = O_RDONLY_;
    bool fd_bind = false;
    bool pwd_in_mnt = false;
    // threads
    int nthreads = 0;
    int nops[kMaxScenarioThreads] = {};
    int ops[kMaxScenarioThreads][kMaxOps] = {};
    int args[kMaxScenarioThreads][kMaxOps] = {};
    Stats* stats = nullptr;
};

// ---- the objects ---------------------------------------------------------------
struct MntNamespace : kobj {
    MntNamespace() : kobj("mnt_namespace", "init_mnt_ns") {}
};

// fs/namespace.c: seqlock_t mount_lock (lock_mount_hash = write_seqlock).
struct MountLock : kobj {
    seqcount_t seqcount;
    spinlock_t lock;
    MountLock() : kobj("seqlock", "mount_lock"), seqcount(this, "seqcount"), lock(this, "lock") {}
};

// struct super_block: only the freeze protection sb_start_write takes.
struct SuperBlock : kobj {
    atomic_t s_writers;
    SuperBlock() : kobj("super_block", "sb"), s_writers(this, "s_writers", 0) {}
};

// struct mount: mnt_pcp->mnt_count (per-CPU: one slot per thread, each
// thread on a CPU of its own; the references held at the start sit in
// P0's slot), mnt_writers, mnt_ns (NULL once umount_tree detached it),
// mnt_flags (MNT_DOOMED, under mount_lock), mnt.mnt_sb. A slot alone
// means nothing (it goes negative when a thread puts a reference another
// CPU took); only mnt_get_count's sum does.
inline const char* const kPcpCountName[kMaxScenarioThreads] = {"mnt_pcp[cpu0].mnt_count", "mnt_pcp[cpu1].mnt_count",
                                                       "mnt_pcp[cpu2].mnt_count", "mnt_pcp[cpu3].mnt_count"};
static_assert(kMaxScenarioThreads == 4, "one mnt_pcp slot name per thread");
struct Mount : kobj {
    kfield<int> mnt_pcp[kMaxScenarioThreads];
    atomic_t mnt_writers;
    kfield<int> mnt_ns;
    kfield<int> mnt_flags;
    kfield<int> mnt_sb;
    Mount(const char* name, int count, int ns, int sb)
        : kobj("mount", "%s", name),
          mnt_pcp{{this, kPcpCountName[0], count}, {this, kPcpCountName[1], 0}, {this, kPcpCountName[2], 0},
                  {this, kPcpCountName[3], 0}},
          mnt_writers(this, "mnt_writers", 0),
          mnt_ns(this, "mnt_ns", ns),
          mnt_flags(this, "mnt_flags", 0),
          mnt_sb(this, "mnt_sb", sb) {
        for (auto& c : mnt_pcp) c.counts_refs();
        mnt_ns.pointer();
        mnt_sb.pointer();
    }
    // The sum of the slots, latest values (for invariants and the final state).
    int peek_count() const {
        int n = 0;
        for (const auto& c : mnt_pcp) n += c.peek();
        return n;
    }
};

// struct fs_struct shared by the scenario's threads (CLONE_FS): seq, lock
// and pwd (its mnt; the directory's dentry is not modelled). NULL stands for
// a pwd outside mnt (a directory with no "f" in it).
struct FsStruct : kobj {
    seqcount_t seq;
    spinlock_t lock;
    kfield<int> pwd_mnt;
    explicit FsStruct(int pwd) : kobj("fs_struct", "fs"), seq(this, "seq"), lock(this, "lock"), pwd_mnt(this, "pwd.mnt", pwd) {
        pwd_mnt.pointer();
    }
};

struct Inode : kobj {
    atomic_t i_count;
    kfield<int> i_nlink;
    spinlock_t i_lock;
    Inode() : kobj("inode", "inode \"f\""), i_count(this, "i_count", 1), i_nlink(this, "i_nlink", 1), i_lock(this, "i_lock") {
        i_count.counts_refs();
    }
};

// struct dentry: d_lockref {d_lock, count}, d_seq, d_hash (hashed: 1),
// d_flags (LRU, REFERENCED), d_inode.
struct Dentry : kobj {
    lockref d_lockref;
    seqcount_t d_seq;
    kfield<int> d_hash;
    kfield<int> d_flags;
    kfield<int> d_inode;
    Dentry(int count, bool hashed, int flags, int inode)
        : kobj("dentry", "dentry \"f\""),
          d_lockref(this, "d_lockref", count, "dentry-ref-underflow", "dead-dentry-revived"),
          d_seq(this, "d_seq"),
          d_hash(this, "d_hash", hashed ? 1 : 0),
          d_flags(this, "d_flags", flags),
          d_inode(this, "d_inode", inode) {
        d_inode.pointer();
    }
};

// The bucket of mount_hashtable that holds "mnt" (hashed on its
// mountpoint): what __lookup_mnt walks under RCU or mount_lock.
struct MountHash : kobj {
    kfield<int> first;
    explicit MountHash(int first_id) : kobj("hlist_head", "mount_hashtable[mnt]"), first(this, "first", first_id) {
        first.pointer();
    }
};

// One bucket of dentry_hashtable: the chain RCU walkers and __d_lookup read.
struct HashBucket : kobj {
    bit_spinlock_t lock;
    kfield<int> first;
    explicit HashBucket(int first_id) : kobj("hlist_bl_head", "dentry_hashtable[\"f\"]"), lock(this, "bit_lock"), first(this, "first", first_id) {
        first.pointer();
    }
};

// struct file: f_ref, f_mode, f_path {mnt, dentry}.
struct File : kobj {
    atomic_t f_ref;
    kfield<int> f_mode;
    kfield<int> f_path_mnt;
    kfield<int> f_path_dentry;
    int idx;    // the run's ghost record of this file
    int flags;  // f_flags (O_RDONLY, O_WRONLY|O_TRUNC, O_PATH): set once, read by the owner
    File(int n, int fmode, int open_flags, int mnt_id, int dentry_id)
        : kobj("file", "file#%d", n + 1),
          f_ref(this, "f_ref", 1),
          f_mode(this, "f_mode", fmode),
          f_path_mnt(this, "f_path.mnt", mnt_id),
          f_path_dentry(this, "f_path.dentry", dentry_id),
          idx(n),
          flags(open_flags) {
        f_ref.counts_refs();
        f_path_mnt.pointer();
        f_path_dentry.pointer();
    }
};

// struct path, thread-local: the kernel's {mnt, dentry} pointers (NULL or
// the object loaded from shared state). own_d and own_m are ghost state:
// whether this copy owns the references it points at (what path_put would
// be entitled to drop).
struct Mount;
struct Dentry;
struct Path {
    Mount* mnt = nullptr;
    Dentry* dentry = nullptr;
    bool own_d = false;
    bool own_m = false;
};

struct NameiData {
    Path path;
    int inode = NONE;  // nd->inode: the inode step_into read
    int flags = 0;
    unsigned seq = 0, next_seq = 0, m_seq = 0;
    bool pwd_elsewhere = false;  // init.pwd_in_mnt: the walk started in a pwd outside mnt
};

// Ghost record of a file.
struct FileGhost {
    File* f = nullptr;
    int owner = NONE;
    bool live = false;     // not yet file_free'd
    bool own_d = false;    // f_path owns a dentry reference
    bool own_m = false;    // f_path owns a mount reference
    bool cycle = false;    // opened by an `open` op of this scenario (for the metric)
};

struct ThreadState {
    NameiData nd;
    Path opath;               // do_o_path's `struct path path`
    bool local_mnt = false;   // do_open's `mnt` (v4/v5)
    bool local_mnt_ref = false;  // ghost: v5's mntget
    int fds[kMaxFiles];       // open files (fd table), as ghost indices
    int nfds = 0;
    int work[kMaxFiles];      // task_work: >= 0 a file's __fput, -2 cleanup_mnt
    int nwork = 0;
    bool in_open_close = false;  // for the metric
    int leaked_d = 0, leaked_m = 0;  // references a `path` still owned when it went out of scope
    // legitimize-stale-dentry: dentry "f" as it was when __legitimize_path's
    // lockref_get_not_dead took the walk's reference, if its d_seq had moved
    // since the walk's sample.
    bool stale = false;
    int dver_sample = 0;      // dver of dentry "f" as __d_lookup_rcu found it
    int stale_ver = 0, stale_hashed = 0, stale_inode = NONE, stale_count = 0;
};

constexpr int kNsOwner = -2;      // the namespace holds the mount's reference
constexpr int kWorkCleanupMnt = -2;  // cleanup_mnt of mnt; -3 of mnt2

struct OpenrefRun : ModelRun {
    const OpenrefCfg& cfg;
    MntNamespace* ns = nullptr;
    MountLock* mount_lock = nullptr;
    SuperBlock* sb = nullptr;
    Mount* mnt = nullptr;
    Mount* mnt2 = nullptr;  // init.fd_mount bind: a second mount of sb, elsewhere in init_mnt_ns
    MountHash* mount_hash = nullptr;
    Inode* inode = nullptr;
    Dentry* dentry = nullptr;
    HashBucket* bucket = nullptr;
    FsStruct* fs = nullptr;

    // Ghost state: what the checker knows, never read by the kernel code.
    ThreadState th[kMaxScenarioThreads];
    FileGhost files[kMaxFiles];
    int nfiles = 0;
    int unown_ev[kMaxScenarioThreads][2];  // per thread: the v4 save of mnt, the put that dropped the last owned reference
    int ns_ref_owner = NONE;     // kNsOwner, a thread (umount between detach and mntput), or NONE
    bool pwd_ref = false;        // fs->pwd still holds its mount reference
    long lockref_updates = 0;    // dentry reference count changes (the seed's metric)
    // legitimize-stale-dentry, without d_seq: dver counts the changes of
    // dentry "f" a walk's lookup depends on (unhashed, turned negative,
    // marked dead), bumped where the model makes them, under d_lock.
    // dver_unhashed is dver just before the unhash, for a walker whose
    // hash-chain read returned "f" after it left the chain.
    int dver = 0, dver_unhashed = 0;
    int cycles = 0;              // open + close cycles completed

    bool broken(OpenrefBug b) const { return cfg.broken.has(b); }

    explicit OpenrefRun(const OpenrefCfg& c) : cfg(c) {
        for (auto& e : unown_ev) e[0] = e[1] = NONE;
        ns = kalloc_static<MntNamespace>();
        mount_lock = kalloc_static<MountLock>();
        sb = kalloc_static<SuperBlock>();
        bool fd = cfg.fd_thread != NONE;
        int mcount = (cfg.attached ? 1 : 0) + cfg.mnt_extra + (fd ? 1 : 0) + (cfg.pwd_in_mnt ? 1 : 0);
        bool fd_bind = fd && cfg.fd_bind;
        if (fd_bind) mcount--;
        mnt = kalloc<Mount>("mnt", mcount, cfg.attached ? (int)ns->id : NONE, (int)sb->id);
        // The bind mount: the namespace's reference and the file's.
        if (fd_bind) mnt2 = kalloc<Mount>("mnt2", 2, (int)ns->id, (int)sb->id);
        mount_hash = kalloc_static<MountHash>(cfg.attached ? (int)mnt->id : NONE);
        inode = kalloc<Inode>();
        dentry = kalloc<Dentry>(cfg.dentry_extra + (fd ? 1 : 0), cfg.hashed,
                                cfg.lru_referenced ? DCACHE_LRU_LIST | DCACHE_REFERENCED : 0, (int)inode->id);
        bucket = kalloc_static<HashBucket>(cfg.hashed ? (int)dentry->id : NONE);
        ns_ref_owner = cfg.attached ? kNsOwner : NONE;
        fs = kalloc_static<FsStruct>(cfg.pwd_in_mnt ? (int)mnt->id : NONE);
        pwd_ref = cfg.pwd_in_mnt;
        if (fd) {
            // A file opened before the scenario, holding one reference on
            // each of mnt and dentry "f".
            int fmode = FMODE_OPENED | (cfg.fd_flags == O_PATH_ ? FMODE_PATH : FMODE_READ);
            int i = new_file(cfg.fd_thread, fmode, cfg.fd_flags, fd_bind ? mnt2->id : mnt->id, dentry->id);
            files[i].own_d = files[i].own_m = true;
            ThreadState& ts = th[cfg.fd_thread];
            ts.fds[ts.nfds++] = i;
        }
    }

    int new_file(int owner, int fmode, int flags, int mnt_id = NONE, int dentry_id = NONE) {
        int i = nfiles++;
        files[i].f = kalloc<File>(i, fmode, flags, mnt_id, dentry_id);
        files[i].owner = owner;
        files[i].live = true;
        return i;
    }
    FileGhost& ghost(File* f) { return files[f->idx]; }
    // The objects a pointer field's value names (NULL for NONE).
    Mount* M(int id) const { return id == NONE ? nullptr : mnt2 && id == mnt2->id ? mnt2 : mnt; }
    Dentry* D(int id) const { return id == NONE ? nullptr : dentry; }
    // What path_get, path_put and __fput act on: the object the path
    // names, or, under the mutation openref-ignore-value-read, mnt and
    // dentry "f" whatever it names (a model that uses what it assumes
    // instead of what it read).
    Mount* path_mnt(Mount* m) const { return m && MUTATION("openref-ignore-value-read") ? mnt : m; }
    Dentry* path_dentry(Dentry* d) const { return d && MUTATION("openref-ignore-value-read") ? dentry : d; }
    bool freed(const kobj* o) const { return o->is_freed(); }
    // The metric counts the updates made by open and by the close of what
    // it opened, not unlink's, nor the close of a file opened before.
    void lockref_updated() {
        if (th[this_thread()].in_open_close) lockref_updates++;
    }

    // ---- <linux/rcupdate.h> --------------------------------------------------------
    // The layer's read sections and grace periods (checker/kernel).
    void rcu_read_lock() { vfsmc::rcu_read_lock(); }
    void rcu_read_unlock() { vfsmc::rcu_read_unlock(); }
    // namespace_unlock's: waits for the readers inside a section when it
    // starts; its grace-period words order what they did before what
    // follows, and every store before it before a section that starts after.
    void synchronize_rcu() {
        KFUNC("synchronize_rcu");
        vfsmc::synchronize_rcu();
    }

    // ---- fs/namespace.c: mount references --------------------------------------------
    void lock_mount_hash() {
        KFUNC("lock_mount_hash");
        // write_seqlock(&mount_lock): every lockless mount walker that
        // sampled the sequence before this will fail its read_seqretry.
        spin_lock(mount_lock->lock);
        write_seqcount_begin(mount_lock->seqcount);
    }
    void unlock_mount_hash() {
        KFUNC("unlock_mount_hash");
        write_seqcount_end(mount_lock->seqcount);
        spin_unlock(mount_lock->lock);
    }
    // mnt_add_count: this_cpu_add(mnt->mnt_pcp->mnt_count, n), unordered,
    // on this CPU's slot only: a walker's increment and another CPU's
    // decrement land on different words, and nothing orders them but the
    // smp_mb pair of __legitimize_mnt and mntput_no_expire.
    void mnt_add_count(Mount* m, int n) {
        m->mnt_pcp[this_thread()].rmw(Acc::AtomicRmwVoid, "this_cpu_add", [n](int& v) { v += n; return true; });
        // Only a put can take the sum below zero. The sum reads every CPU's
        // slot (for DPOR, a read of each: a get need not depend on them).
        if (n >= 0) return;
        int c = m->peek_count();
        if (c < 0)
            violate(this_thread(), "mount-ref-underflow", nullptr, 0, "%s's mnt_count (the sum of its per-CPU slots) goes below zero (%d -> %d)",
                    m->name(), c - n, c);
    }
    // mnt_get_count: the sum of every CPU's slot. The kernel reads them
    // with plain loads under lock_mount_hash (racing with lockless
    // this_cpu_add on the other CPUs); here they are marked (relaxed) so
    // that the race check stays about the protocol.
    int mnt_get_count(Mount* m) {
        int n = 0;
        for (int u = 0; u < cfg.nthreads; u++) n += m->mnt_pcp[u].load(Acc::AtomicRead);
        return n;
    }
    void mntget(Mount* m) {
        KFUNC("mntget");
        if (m) mnt_add_count(m, 1);
    }
    void mntput(Mount* m) {
        KFUNC("mntput");
        if (m) mntput_no_expire(m);
    }
    void mntput_no_expire(Mount* m) {
        KFUNC("mntput_no_expire");
        rcu_read_lock();
        if (READ_ONCE(m->mnt_ns) != NONE) {
            // Attached: the namespace's reference is dropped only after an
            // RCU grace period that follows clearing mnt_ns, so this put
            // (inside this read section) cannot be the final one.
            mnt_add_count(m, -1);
            rcu_read_unlock();
            return;
        }
        lock_mount_hash();
        // Pairs with __legitimize_mnt's smp_mb: either the walker sees
        // mount_lock taken, or this sees the walker's increment.
        if (!MUTATION("mntput-no-expire-no-smp-mb")) smp_mb();
        mnt_add_count(m, -1);
        int count = mnt_get_count(m);
        if (count != 0) {
            // WARN_ON(count < 0): mnt_add_count reported it.
            rcu_read_unlock();
            unlock_mount_hash();
            return;
        }
        if (!MUTATION("mntput-no-expire-no-doomed-test") && (plain_load(m->mnt_flags) & MNT_DOOMED)) {
            rcu_read_unlock();
            unlock_mount_hash();
            return;
        }
        // The last reference: nobody can legitimize it any more.
        plain_store(m->mnt_flags, plain_load(m->mnt_flags) | MNT_DOOMED);
        rcu_read_unlock();
        // list_del(&mnt->mnt_instance), the children: not modelled.
        unlock_mount_hash();
        // task_work_add(current, &mnt->mnt_rcu, __cleanup_mnt): runs on the
        // return to user space.
        kstep("mntput_no_expire:doomed", m->id, "%s is MNT_DOOMED; cleanup_mnt queued as task_work", m->name());
        ThreadState& ts = th[this_thread()];
        ts.work[ts.nwork++] = m == mnt2 ? kWorkCleanupMnt - 1 : kWorkCleanupMnt;
    }
    void cleanup_mnt(Mount* m) {
        KFUNC("cleanup_mnt");
        // fsnotify_vfsmount_delete, dput(mnt_root), deactivate_super: not
        // modelled. The struct mount goes after a grace period.
        call_rcu_free(m->id);  // call_rcu(&mnt->mnt_rcu, delayed_free_vfsmnt)
    }
    // Returns 0 (a reference is held), 1 (none held) or -1 (held, but the
    // mount_lock sequence moved: the caller must mntput it).
    int legitimize_mnt_(Mount* m, unsigned seq) {
        KFUNC("__legitimize_mnt");
        if (read_seqcount_retry(mount_lock->seqcount, seq)) return 1;
        if (!m) return 0;
        mnt_add_count(m, 1);
        if (!MUTATION("legitimize-mnt-no-smp-mb")) smp_mb();  // see mntput_no_expire() and do_umount()
        if (MUTATION("legitimize-mnt-no-seq-recheck") || !read_seqcount_retry(mount_lock->seqcount, seq)) return 0;
        lock_mount_hash();
        if (!MUTATION("legitimize-mnt-no-doomed-test") && (plain_load(m->mnt_flags) & (MNT_SYNC_UMOUNT | MNT_DOOMED))) {
            // The final mntput has run (or a sync umount): undo, under
            // mount_lock, the increment on a mount nobody may revive.
            mnt_add_count(m, -1);
            unlock_mount_hash();
            return 1;
        }
        unlock_mount_hash();
        return -1;  // caller will mntput()
    }
    bool legitimize_mnt(Mount* m, unsigned seq) {
        KFUNC("legitimize_mnt");
        int res = legitimize_mnt_(m, seq);
        if (res == 0) return true;
        if (res < 0) {
            rcu_read_unlock();
            mntput(m);
            rcu_read_lock();
        }
        return false;
    }
    // lookup_mnt: the mount on the mountpoint, with a reference (ref-walk).
    Mount* lookup_mnt() {
        KFUNC("lookup_mnt");
        rcu_read_lock();
        Mount* m;
        do {
            unsigned seq = read_seqcount_begin(mount_lock->seqcount);  // read_seqbegin(&mount_lock)
            // __lookup_mnt: the mount hashed on the mountpoint, if any.
            m = M(READ_ONCE(mount_hash->first));
            if (legitimize_mnt(m, seq)) break;
        } while (true);
        rcu_read_unlock();
        return m;
    }

    // mnt_want_write: freeze protection, then a writer on the mount. It
    // does not pin the mount: the caller's reference must.
    int mnt_want_write(Mount* m) {
        KFUNC("mnt_want_write");
        SuperBlock* s = plain_load(m->mnt_sb) == sb->id ? sb : nullptr;
        atomic_inc(s->s_writers);  // sb_start_write
        mnt_get_write_access(m);
        return 0;
    }
    void mnt_get_write_access(Mount* m) {
        KFUNC("mnt_get_write_access");
        atomic_inc(m->mnt_writers);  // mnt_inc_writers
        // Pairs with mnt_make_readonly's MNT_WRITE_HOLD: no remount here, so
        // the wait and the read-only check are not modelled.
        if (!MUTATION("mnt-get-write-access-no-smp-mb")) smp_mb();
    }
    void mnt_put_write_access(Mount* m) {
        KFUNC("mnt_put_write_access");
        atomic_dec(m->mnt_writers);  // mnt_dec_writers
    }
    void mnt_drop_write(Mount* m) {
        KFUNC("mnt_drop_write");
        int t = this_thread();
        // Both mnt_dec_writers and sb_end_write(mnt->mnt_sb) dereference the
        // mount: the caller must own a reference on it (reference A4).
        if (!thread_owns_mnt(t)) {
            int c[2], n = 0;
            for (int e : unown_ev[t])
                if (e >= 0) c[n++] = e;
            violate(t, "mnt-drop-write-unowned", c, n,
                    "%s calls mnt_drop_write(%s) holding no reference on it (nd->path, its files and do_open's local mnt own none)",
                    thread_name(t), m->name());
        }
        mnt_put_write_access(m);
        SuperBlock* s = plain_load(m->mnt_sb) == sb->id ? sb : nullptr;
        atomic_dec(s->s_writers);  // sb_end_write
    }

    // do_umount(mnt, MNT_DETACH): umount -l.
    void do_umount() {
        KFUNC("do_umount");
        // namespace_lock(): one umounter, not modelled.
        lock_mount_hash();
        if (plain_load(mnt->mnt_ns) == NONE) {
            unlock_mount_hash();
            kstep("do_umount:not-mounted", mnt->id, "%s is not mounted: -EINVAL", mnt->name());
            return;
        }
        {
            KFUNC("umount_tree");
            // umount_mnt -> unhash_mnt: new walkers no longer find it (the
            // ones already on it hold rcu_read_lock, which delays its free).
            WRITE_ONCE(mount_hash->first, NONE);
            // p->mnt_ns = NULL: mntput takes the slow path from now on.
            // Lazy: no MNT_SYNC_UMOUNT.
            WRITE_ONCE(mnt->mnt_ns, NONE);
            ns_ref_owner = this_thread();
            kstep("umount_tree:detach", mnt->id, "%s detached from %s; its reference now waits in the umount list",
                  mnt->name(), ns->name());
        }
        unlock_mount_hash();
        {
            KFUNC("namespace_unlock");
            // Every mntput that saw mnt_ns set under rcu_read_lock finishes
            // before the namespace's reference goes.
            if (!MUTATION("namespace-unlock-no-synchronize-rcu")) synchronize_rcu();
            mntput(mnt);
            ns_ref_owner = NONE;
        }
    }

    // Ghost: does thread t own a reference on the mount?
    bool thread_owns_mnt(int t) const {
        const ThreadState& ts = th[t];
        if (ts.nd.path.mnt && ts.nd.path.own_m) return true;
        if (ts.opath.mnt && ts.opath.own_m) return true;
        if (ts.local_mnt && ts.local_mnt_ref) return true;
        if (ns_ref_owner == t) return true;
        for (int i = 0; i < nfiles; i++)
            if (files[i].live && files[i].owner == t && files[i].own_m) return true;
        return false;
    }

    // ---- fs/inode.c ---------------------------------------------------------------------
    void ihold(Inode* i) {
        KFUNC("ihold");
        atomic_inc(i->i_count);
    }
    void iput(Inode* i) {
        KFUNC("iput");
        if (atomic_add_unless(i->i_count, -1, 1)) return;
        spin_lock(i->i_lock);
        if (!atomic_dec_and_test(i->i_count)) {
            spin_unlock(i->i_lock);
            return;
        }
        iput_final(i);
    }
    void iput_final(Inode* i) {
        KFUNC("iput_final");
        if (READ_ONCE(i->i_nlink)) {
            spin_unlock(i->i_lock);
            kstep("iput_final:cached", i->id, "%s stays cached with i_count 0", i->name());
            return;
        }
        // I_FREEING, then evict: no links and no references left.
        spin_unlock(i->i_lock);
        KFUNC("evict");
        call_rcu_free(i->id);  // destroy_inode -> i_callback after a grace period
    }

    // ---- fs/dcache.c ---------------------------------------------------------------------
    void dget(Dentry* d) {
        KFUNC("dget");
        lockref_get(d->d_lockref);
        lockref_updated();
    }
    // retain_dentry(): should a dentry whose count reached 0 stay cached?
    // Unlocked, the answer holds only "at some point after we dropped the
    // reference"; that is enough because a cached dentry at 0 stays valid.
    bool retain_dentry(Dentry* d, bool locked) {
        KFUNC("retain_dentry");
        smp_rmb();
        int flags = READ_ONCE(d->d_flags);
        if (!MUTATION("retain-dentry-no-unhashed-test") && !READ_ONCE(d->d_hash)) return false;  // d_unhashed: nobody can find it
        // DISCONNECTED, OP_DELETE, DONTCACHE: not set on "f".
        if (!(flags & DCACHE_LRU_LIST)) {
            if (!locked) return false;
            WRITE_ONCE(d->d_flags, flags | DCACHE_LRU_LIST);  // d_lru_add
        } else if (!(flags & DCACHE_REFERENCED)) {
            if (!locked) return false;
            WRITE_ONCE(d->d_flags, flags | DCACHE_REFERENCED);
        }
        return true;
    }
    // fast_dput(): true when the put is done; false with d_lock held and
    // the count at 0 on a dentry that must be killed.
    bool fast_dput(Dentry* d) {
        KFUNC("fast_dput");
        int ret = lockref_put_return(d->d_lockref);
        if (ret < 0) {
            // The lockless put could not run: the lock is held, or the
            // count is <= 0.
            lockref_lock(d->d_lockref);  // spin_lock(&dentry->d_lock)
            int c = lockref_count_locked(d->d_lockref);
            if (c <= 0) {
                // WARN_ON_ONCE(dentry->d_lockref.count <= 0): the put is ignored.
                violate(this_thread(), "dentry-ref-underflow", nullptr, 0, "%s puts %s whose d_lockref.count is already %d%s",
                        thread_name(this_thread()), d->name(), c, c == LOCKREF_DEAD ? " (dead: a put after __dentry_kill)" : "");
                lockref_unlock(d->d_lockref);
                return true;
            }
            lockref_set_count_locked(d->d_lockref, c - 1);
            lockref_updated();
        } else {
            lockref_updated();
            if (ret) return true;
            if (retain_dentry(d, false)) return true;
            lockref_lock(d->d_lockref);
        }
        // locked: somebody may have taken a reference meanwhile, or made it
        // worth keeping; only then is the count stable (every lockless
        // update fails while d_lock is held).
        if ((!MUTATION("fast-dput-no-locked-recheck") && lockref_count_locked(d->d_lockref)) || retain_dentry(d, true)) {
            lockref_unlock(d->d_lockref);
            return true;
        }
        return false;
    }
    void dput(Dentry* d) {
        KFUNC("dput");
        if (!d) return;
        rcu_read_lock();
        if (fast_dput(d)) {
            rcu_read_unlock();
            return;
        }
        while (lock_for_kill(d)) {
            rcu_read_unlock();
            dentry_kill_(d);
            // __dentry_kill returns the parent if its count dropped to 0:
            // the parent is not modelled.
            return;
        }
        rcu_read_unlock();
        lockref_unlock(d->d_lockref);
    }
    // lock_for_kill(): d_lock held and count 0. Take inode->i_lock too; if
    // that needs d_lock dropped, recheck that the count is still 0.
    bool lock_for_kill(Dentry* d) {
        KFUNC("lock_for_kill");
        int in = plain_load(d->d_inode);
        if (lockref_count_locked(d->d_lockref)) return false;
        if (in == NONE || spin_trylock(inode->i_lock)) return true;
        do {
            lockref_unlock(d->d_lockref);
            spin_lock(inode->i_lock);
            lockref_lock(d->d_lockref);
            if (in == plain_load(d->d_inode)) break;
            spin_unlock(inode->i_lock);
            in = plain_load(d->d_inode);
        } while (in != NONE);
        if (!lockref_count_locked(d->d_lockref)) return true;
        kstep("lock_for_kill:revived", d->id, "%s got a reference while d_lock was dropped: not killed", d->name());
        if (in != NONE) spin_unlock(inode->i_lock);
        return false;
    }
    // __d_drop(): unhash, and invalidate d_seq so that RCU walkers that
    // found the dentry fail their seqcount check.
    void d_drop_(Dentry* d) {
        KFUNC("__d_drop");
        if (!plain_load(d->d_hash)) return;
        bit_spin_lock(bucket->lock);  // hlist_bl_lock(b)
        dver_unhashed = dver++;
        WRITE_ONCE(bucket->first, NONE);  // hlist_bl_del_rcu: new walkers miss it
        bit_spin_unlock(bucket->lock);
        WRITE_ONCE(d->d_hash, 0);  // dentry->d_hash.pprev = NULL
        write_seqcount_invalidate(d->d_seq);
        kstep("__d_drop:unhashed", d->id, "%s unhashed, d_seq invalidated", d->name());
    }
    // dentry_unlink_inode(): d_lock and i_lock held; releases both.
    void dentry_unlink_inode(Dentry* d) {
        KFUNC("dentry_unlink_inode");
        dver++;
        write_seqcount_begin(d->d_seq);  // raw_write_seqcount_begin
        WRITE_ONCE(d->d_inode, NONE);    // __d_clear_type_and_inode
        write_seqcount_end(d->d_seq);
        lockref_unlock(d->d_lockref);
        spin_unlock(inode->i_lock);
        iput(inode);
    }
    // __dentry_kill(), reduced (reference B2).
    void dentry_kill_(Dentry* d) {
        KFUNC("__dentry_kill");
        // The dentry is now unrecoverably dead to the world: every
        // lockref_get_not_dead fails from here on.
        if (!MUTATION("dentry-kill-no-mark-dead")) lockref_mark_dead(d->d_lockref);
        dver++;
        int flags = plain_load(d->d_flags);
        if (flags & DCACHE_LRU_LIST) WRITE_ONCE(d->d_flags, flags & ~DCACHE_LRU_LIST);  // d_lru_del
        d_drop_(d);
        if (plain_load(d->d_inode) != NONE) dentry_unlink_inode(d);
        else lockref_unlock(d->d_lockref);
        // d_release: none. The parent's d_lock and count: not modelled.
        lockref_lock(d->d_lockref);
        // dentry_unlist: no children. Not on a shrink list: free it.
        lockref_unlock(d->d_lockref);
        kstep("__dentry_kill:free", d->id, "%s is dead; dentry_free after a grace period", d->name());
        call_rcu_free(d->id);  // dentry_free: call_rcu(&dentry->d_u.d_rcu, __d_free)
    }
    // d_delete(): unlink's dcache side. The only user turns it negative in
    // place; otherwise it is unhashed and killed by its last dput.
    void d_delete(Dentry* d) {
        KFUNC("d_delete");
        spin_lock(inode->i_lock);
        lockref_lock(d->d_lockref);
        if (lockref_count_locked(d->d_lockref) == 1) {
            kstep("d_delete:negative", d->id, "%s: the unlinker is the only user; it turns negative in place", d->name());
            dentry_unlink_inode(d);
        } else {
            d_drop_(d);
            lockref_unlock(d->d_lockref);
            spin_unlock(inode->i_lock);
        }
    }
    // __d_lookup(): ref-walk lookup of "f" in the hash, dget_dlock'ed.
    Dentry* d_lookup_() {
        KFUNC("__d_lookup");
        rcu_read_lock();
        Dentry* found = nullptr;
        Dentry* d = D(READ_ONCE(bucket->first));  // hlist_bl_for_each_entry_rcu
        if (d) {
            lockref_lock(d->d_lockref);
            if (MUTATION("d-lookup-no-unhashed-test") || plain_load(d->d_hash)) {  // !d_unhashed: unhashed (and dead) ones are skipped
                // dget_dlock: count++ under d_lock.
                lockref_set_count_locked(d->d_lockref, lockref_count_locked(d->d_lockref) + 1);
                lockref_updated();
                found = d;
            }
            lockref_unlock(d->d_lockref);
        }
        rcu_read_unlock();
        return found;
    }
    // __d_lookup_rcu(): no reference; the d_seq sample validates it later.
    Dentry* d_lookup_rcu_(unsigned* seqp) {
        KFUNC("__d_lookup_rcu");
        Dentry* d = D(READ_ONCE(bucket->first));
        if (!d) return nullptr;
        // Ghost: the version the walk is looking at. A chain read that
        // returned "f" after it left the chain sees it as it was before.
        bool chain_stale = bucket->first.peek() != d->id;
        unsigned seq = raw_read_seqcount(d->d_seq) & ~1u;  // raw_seqcount_begin
        th[this_thread()].dver_sample = chain_stale ? dver_unhashed : dver;
        // d_unhashed() after the name match: a chain read may still return
        // a dentry __d_drop took off the chain; if the d_seq sample is the
        // invalidated one, only this test (ordered by __d_drop's smp_wmb
        // and the sample's acquire) keeps the walk off it.
        if (!MUTATION("d-lookup-rcu-no-unhashed-test") && !READ_ONCE(d->d_hash)) return nullptr;
        *seqp = seq;
        return d;
    }

    // ---- fs/namei.c: the walk -------------------------------------------------------------
    void path_get(Path& p) {
        KFUNC("path_get");
        if (p.mnt) mntget(path_mnt(p.mnt));
        if (p.dentry) dget(path_dentry(p.dentry));
    }
    // path_put: dput + mntput of whatever the path points at. Ghost: a
    // copy that did not own them drops someone else's references.
    void path_put(Path& p) {
        KFUNC("path_put");
        if (p.dentry) dput(path_dentry(p.dentry));
        if (p.mnt) mntput(path_mnt(p.mnt));
        p.own_d = p.own_m = false;
    }
    void leave_rcu(NameiData& nd) {
        nd.flags &= ~LOOKUP_RCU;
        nd.seq = nd.next_seq = 0;
        rcu_read_unlock();
    }
    void path_init(NameiData& nd, int flags) {
        KFUNC("path_init");
        nd.flags = flags;
        nd.path = Path();
        if (flags & LOOKUP_RCU) rcu_read_lock();
        // nd->m_seq = __read_seqcount_begin(&mount_lock.seqcount); smp_rmb()
        nd.m_seq = read_seqcount_begin(mount_lock->seqcount);
        // The root: not modelled (no references on it). The cwd: only
        // with init.pwd_in_mnt; otherwise the walk starts outside mnt and
        // crosses into it in link_path_walk.
        if (!cfg.pwd_in_mnt) return;
        int pwd;
        if (flags & LOOKUP_RCU) {
            // nd->path = fs->pwd under fs->seq, without a reference: RCU
            // and nd->m_seq vouch for the mount until legitimize_mnt. The
            // kernel's loads are plain; the seqcount makes them retry.
            unsigned seq;
            do {
                seq = read_seqcount_begin(fs->seq);
                pwd = READ_ONCE(fs->pwd_mnt);
            } while (read_seqcount_retry(fs->seq, seq));
            nd.path.mnt = M(pwd);
        } else {
            // get_fs_pwd: path_get under fs->lock.
            spin_lock(fs->lock);
            pwd = plain_load(fs->pwd_mnt);
            if (pwd != NONE) mntget(M(pwd));
            spin_unlock(fs->lock);
            nd.path.mnt = M(pwd);
            nd.path.own_m = pwd != NONE;
        }
        nd.pwd_elsewhere = pwd == NONE;
    }
    // chdir(2) out of mnt: set_fs_pwd, then path_put of the old pwd, which
    // may be the last reference on a lazily detached mount.
    void set_fs_pwd() {
        KFUNC("set_fs_pwd");
        spin_lock(fs->lock);
        write_seqcount_begin(fs->seq);
        int old = plain_load(fs->pwd_mnt);
        WRITE_ONCE(fs->pwd_mnt, NONE);
        write_seqcount_end(fs->seq);
        spin_unlock(fs->lock);
        if (old == NONE) return;
        Mount* m = M(old);
        kstep("set_fs_pwd:put-old", m->id, "pwd leaves %s; the old pwd's reference is put", m->name());
        pwd_ref = false;
        mntput(m);  // path_put(&old_pwd): the dentry (mnt's root) is not modelled
    }
    // link_path_walk(): only its last mount crossing, into "mnt".
    int link_path_walk(NameiData& nd) {
        KFUNC("link_path_walk");
        if (cfg.pwd_in_mnt) {
            // "f" is looked up in pwd: in mnt, or (after chdir) in a
            // directory without it.
            return nd.pwd_elsewhere ? -kENOENT : 0;
        }
        if (nd.flags & LOOKUP_RCU) {
            // __follow_mount_rcu -> __lookup_mnt: no reference; nd->m_seq
            // validates it at legitimize time.
            Mount* m = M(READ_ONCE(mount_hash->first));
            if (!m) return -kENOENT;
            nd.path.mnt = m;
            return 0;
        }
        // traverse_mounts -> lookup_mnt: a reference.
        Mount* m = lookup_mnt();
        if (!m) return -kENOENT;
        nd.path.mnt = m;
        nd.path.own_m = true;
        return 0;
    }
    Dentry* lookup_fast(NameiData& nd) {
        KFUNC("lookup_fast");
        if (nd.flags & LOOKUP_RCU) {
            Dentry* d = d_lookup_rcu_(&nd.next_seq);
            // The parent's d_seq recheck and d_revalidate: not modelled.
            return d;
        }
        return d_lookup_();
    }
    int step_into(NameiData& nd, Dentry* d) {
        KFUNC("step_into");
        // handle_mounts: nothing is mounted on "f".
        int in = READ_ONCE(d->d_inode);
        if (nd.flags & LOOKUP_RCU) {
            if (!MUTATION("step-into-no-d-seq-check") && read_seqcount_retry(d->d_seq, nd.next_seq)) return -kECHILD;
            if (in == NONE) return -kENOENT;
            nd.path.dentry = d;
            nd.inode = in;
            nd.seq = nd.next_seq;
            kstep("step_into:rcu", d->id, "nd->path = {%s, %s}, RCU: no references, nd->seq %u", nd.path.mnt->name(),
                  d->name(), nd.seq);
            return 0;
        }
        if (in == NONE) {
            // traverse_mounts: negative -> -ENOENT; handle_mounts dputs it.
            dput(d);
            return -kENOENT;
        }
        // The parent's dput: not modelled.
        nd.path.dentry = d;
        nd.path.own_d = true;
        nd.inode = in;
        return 0;
    }
    // open_last_lookups / lookup_last: the last component, "f".
    int last_component(NameiData& nd, const char* kname) {
        KFUNC(kname);
        Dentry* d = lookup_fast(nd);
        if (!d) return -kENOENT;  // lookup_slow/lookup_open: not modelled
        return step_into(nd, d);
    }
    int open_last_lookups(NameiData& nd, File* f) {
        if (!cfg.atomic_open) return last_component(nd, "open_last_lookups");
        KFUNC("open_last_lookups");
        // An ->atomic_open filesystem (NFS-like): its ->d_revalidate does not
        // trust a cached dentry for an open, so lookup_fast gives up and the
        // open goes to lookup_open in ref-walk mode.
        if (nd.flags & LOOKUP_RCU) {
            if (!try_to_unlazy(nd)) return -kECHILD;
        }
        // mnt_want_write for O_TRUNC and the directory's i_rwsem (shared):
        // not modelled.
        Dentry* d = lookup_open(nd, f);
        if (!d) return -kENOENT;
        // FMODE_OPENED: "dput(nd->path.dentry); nd->path.dentry = dentry;"
        // (the directory's dput: not modelled). The reference ->atomic_open
        // returned the dentry with now belongs to nd->path.
        nd.path.dentry = d;
        nd.path.own_d = true;
        kstep("open_last_lookups:atomic-opened", f->id, "%s opened by ->atomic_open; nd->path.dentry = %s with the lookup's reference",
              f->name(), d->name());
        return 0;
    }
    // lookup_open(): the dcache lookup, then ->atomic_open.
    Dentry* lookup_open(NameiData& nd, File* f) {
        KFUNC("lookup_open");
        Dentry* d = d_lookup_();  // d_lookup: with a reference
        if (!d) return nullptr;   // d_alloc_parallel and a create: not modelled
        return atomic_open(nd, d, f);
    }
    // atomic_open(): calls the filesystem's ->atomic_open, which opens the
    // file on the server and then calls finish_open().
    Dentry* atomic_open(NameiData& nd, Dentry* d, File* f) {
        KFUNC("atomic_open");
        // file->__f_path.mnt = nd->path.mnt: borrowed, nd keeps owning it.
        f->f_path_mnt.store(nd.path.mnt->id, Acc::Plain);
        int error = READ_ONCE(d->d_inode) == NONE ? -kENOENT : finish_open(f, d);
        if (error) {
            dput(d);
            kstep("atomic_open:error", d->id, "->atomic_open fails: %s", errname(error));
            return nullptr;
        }
        return d;
    }
    // finish_open(): v4/v5 take the file's references here (v5 moved the
    // path_get out of do_dentry_open); unpatched, do_dentry_open does.
    int finish_open(File* f, Dentry* d) {
        KFUNC("finish_open");
        f->f_path_dentry.store(d->id, Acc::Plain);  // file->__f_path.dentry = dentry
        if (cfg.do_open != UNPATCHED) {
            Path p = f_path(f);
            path_get(p);
            ghost(f).own_d = p.dentry != nullptr;
            ghost(f).own_m = p.mnt != nullptr;
        }
        return do_dentry_open(f);
    }

    // __legitimize_path(): "path_put is needed afterwards regardless of
    // success or failure".
    bool legitimize_path_(Path& path, unsigned seq, unsigned mseq) {
        KFUNC("__legitimize_path");
        th[this_thread()].stale = false;
        int res = legitimize_mnt_(path.mnt, mseq);
        if (res) {
            if (res > 0) path.mnt = nullptr;
            else path.own_m = true;
            path.dentry = nullptr;
            return false;
        }
        path.own_m = path.mnt != nullptr;
        // nd->path.dentry is the directory (not modelled) when the walk
        // leaves RCU mode before the last component (open_last_lookups on
        // an ->atomic_open filesystem): only the mount is legitimized.
        if (!path.dentry) return true;
        Dentry* d = path.dentry;
        bool got;
        if (!broken(LEGITIMIZE_LOCKREF_GET)) {
            got = lockref_get_not_dead(d->d_lockref);
        } else {
            // Variant: lockref_get, which takes a reference even on a dead
            // (killed, awaiting RCU free) dentry.
            lockref_get(d->d_lockref);
            got = true;
        }
        if (!got) {
            path.dentry = nullptr;
            return false;
        }
        lockref_updated();
        path.own_d = true;
        note_stale_sample();
        if (broken(NO_D_SEQ_CHECK)) {
            kstep("__legitimize_path:no-d_seq-check", d->id, "variant: d_seq is not rechecked");
            return true;
        }
        // Did the dentry change (unhashed, moved, turned negative) since the
        // walk sampled it?
        return !read_seqcount_retry(d->d_seq, seq);
    }
    // Ghost, right after the reference is taken: has dentry "f" changed
    // since the walk's lookup found it? Judged by dver (bumped where the
    // model unhashes it, turns it negative or marks it dead), not by d_seq,
    // the mechanism this check audits. peek() gives the latest values in
    // modification order, not what this thread has seen.
    void note_stale_sample() {
        ThreadState& ts = th[this_thread()];
        ts.stale = dver != ts.dver_sample;
        ts.stale_ver = ts.dver_sample;
        ts.stale_hashed = dentry->d_hash.peek();
        ts.stale_inode = dentry->d_inode.peek();
        ts.stale_count = dentry->d_lockref.peek_count();
    }
    // The legitimize-stale-dentry assertion, where the walk leaves RCU mode
    // believing nd->path is what it looked up.
    void check_not_stale(const NameiData& nd) {
        const ThreadState& ts = th[this_thread()];
        KWARN_ON(nd.path.dentry && ts.stale, "legitimize-stale-dentry",
                 "try_to_unlazy succeeds with nd->path.dentry = %s, nd->inode = %s, but when __legitimize_path took its "
                 "reference %s had changed %d time(s) since the walk's lookup found it: %s, d_inode %s%s",
                 dentry->name(), nd.inode == NONE ? "NULL" : object_name(nd.inode), dentry->name(), dver - ts.stale_ver,
                 ts.stale_hashed ? "hashed" : "unhashed",
                 ts.stale_inode == NONE ? "NULL (negative)" : object_name(ts.stale_inode),
                 ts.stale_count < 0 ? ", dead" : "");
    }
    bool try_to_unlazy(NameiData& nd) {
        KFUNC("try_to_unlazy");
        // Symlinks: none. legitimize_root: complete_walk cleared nd->root.
        if (!legitimize_path_(nd.path, nd.seq, nd.m_seq)) {
            leave_rcu(nd);
            kstep("try_to_unlazy:failed", dentry->id, "legitimize failed: nd->path keeps %s%s%s", nd.path.own_m ? "a mount reference" : "",
                  nd.path.own_m && nd.path.own_d ? " and " : "", nd.path.own_d ? "a dentry reference" : (nd.path.own_m ? "" : "nothing"));
            return false;
        }
        leave_rcu(nd);
        kstep("try_to_unlazy:legitimized", dentry->id, "nd->path = {%s, %s} now owns a reference on each",
              nd.path.mnt ? nd.path.mnt->name() : "NULL", nd.path.dentry ? nd.path.dentry->name() : "NULL");
        check_not_stale(nd);
        return true;
    }
    int complete_walk(NameiData& nd) {
        KFUNC("complete_walk");
        if (nd.flags & LOOKUP_RCU) {
            if (!try_to_unlazy(nd)) return -kECHILD;
        }
        return 0;
    }
    void terminate_walk(NameiData& nd) {
        KFUNC("terminate_walk");
        if (!(nd.flags & LOOKUP_RCU) && !MUTATION("terminate-walk-no-path-put")) path_put(nd.path);
        else leave_rcu(nd);
        nd.path = Path();  // nd->path.mnt = NULL; nd->path.dentry = NULL
    }
    int path_lookupat(NameiData& nd, int flags, Path& out) {
        KFUNC("path_lookupat");
        path_init(nd, flags);
        int err = link_path_walk(nd);
        if (!err) err = last_component(nd, "lookup_last");
        if (!err) err = complete_walk(nd);
        if (!err) {
            // *path = nd->path; nd->path = {NULL, NULL}: the references move.
            out = nd.path;
            nd.path = Path();
        }
        terminate_walk(nd);
        return err;
    }

    // ---- fs/open.c -------------------------------------------------------------------------
    void set_f_path(File* f, const Path& p) {
        f->f_path_mnt.store(p.mnt ? (int)p.mnt->id : NONE, Acc::Plain);
        f->f_path_dentry.store(p.dentry ? (int)p.dentry->id : NONE, Acc::Plain);
    }
    Path f_path(File* f) {
        Path p;
        p.mnt = M(plain_load(f->f_path_mnt));
        p.dentry = D(plain_load(f->f_path_dentry));
        p.own_d = ghost(f).own_d;
        p.own_m = ghost(f).own_m;
        return p;
    }
    void put_file_access(File* f) {
        KFUNC("put_file_access");
        int mode = plain_load(f->f_mode);
        // FMODE_READ only: i_readcount_dec (not modelled).
        // put_write_access(inode): not modelled.
        if (mode & FMODE_WRITER) mnt_put_write_access(M(plain_load(f->f_path_mnt)));
    }
    // do_dentry_open(): unpatched, it takes the file's references itself;
    // v4/v5 consume the caller's. Either way, a failure before
    // FMODE_OPENED drops them (cleanup_file), because file_free never
    // looks at f_path.
    int do_dentry_open(File* f) {
        KFUNC("do_dentry_open");
        FileGhost& g = ghost(f);
        if (cfg.do_open == UNPATCHED) {
            Path p = f_path(f);
            path_get(p);
            g.own_d = p.dentry != nullptr;
            g.own_m = p.mnt != nullptr;
        }
        // f_inode, f_mapping, f_wb_err: not modelled.
        if (f->flags == O_PATH_) {
            plain_store(f->f_mode, FMODE_PATH | FMODE_OPENED);
            kstep("do_dentry_open:o_path", f->id, "%s: FMODE_PATH|FMODE_OPENED, it owns its f_path references", f->name());
            return 0;
        }
        int mode = plain_load(f->f_mode);
        int error = 0;
        if (mode & FMODE_WRITE) {
            // file_get_write_access: get_write_access(inode) is not modelled.
            mnt_get_write_access(M(plain_load(f->f_path_mnt)));
            plain_store(f->f_mode, mode | FMODE_WRITER);
        }
        // fops_get, security_file_open, fsnotify_open_perm, break_lease,
        // ->open: the configured outcome.
        if (cfg.outcome == FAIL_BEFORE_OPENED) {
            kstep("do_dentry_open:fail-before-opened", f->id, "security_file_open fails: -EACCES before FMODE_OPENED");
            error = -kEACCES;
            // cleanup_all:
            put_file_access(f);
            // cleanup_file: "whacks the ref" (Mateusz).
            Path p = f_path(f);
            if (!MUTATION("cleanup-file-no-path-put")) path_put(p);
            set_f_path(f, Path());
            g.own_d = g.own_m = false;
            kstep("do_dentry_open:cleanup_file", f->id, "%s: f_path references dropped, f_path = {NULL, NULL}", f->name());
            unown_ev[this_thread()][1] = last_event();
            return error;
        }
        plain_store(f->f_mode, plain_load(f->f_mode) | FMODE_OPENED);
        if (cfg.outcome == FAIL_AFTER_OPENED) {
            // O_DIRECT without FMODE_CAN_ODIRECT: the error comes with
            // FMODE_OPENED set, and the references stay in the file.
            kstep("do_dentry_open:fail-after-opened", f->id, "O_DIRECT unsupported: -EINVAL with FMODE_OPENED set; %s keeps its references", f->name());
            return -kEINVAL;
        }
        return 0;
    }
    int vfs_open(Path& path, File* f) {
        KFUNC("vfs_open");
        set_f_path(f, path);  // file->__f_path = *path
        if (cfg.do_open != UNPATCHED) {
            // v4/v5 moved the path_get here from do_dentry_open.
            Path p = f_path(f);
            path_get(p);
            ghost(f).own_d = p.dentry != nullptr;
            ghost(f).own_m = p.mnt != nullptr;
        }
        return do_dentry_open(f);  // fsnotify_open on success: not modelled
    }
    // vfs_open_consume(): the caller's references move into the file, and
    // the caller's path is cleared so that its path_put is a no-op.
    int vfs_open_consume(Path& path, File* f, bool clear) {
        KFUNC("vfs_open_consume");
        set_f_path(f, path);
        FileGhost& g = ghost(f);
        g.own_d = path.own_d;
        g.own_m = path.own_m;
        path.own_d = path.own_m = false;
        if (clear) {
            path.mnt = nullptr;
            path.dentry = nullptr;
            kstep("vfs_open_consume:moved", f->id, "the caller's references move into %s; the caller's path = {NULL, NULL}", f->name());
        } else {
            kstep("vfs_open_consume:not-cleared", f->id,
                  "variant: the references move into %s, but the caller's path still points at {%s, %s}", f->name(),
                  path.mnt->name(), path.dentry->name());
        }
        return do_dentry_open(f);
    }

    // ---- fs/file_table.c ---------------------------------------------------------------------
    File* alloc_empty_file(int flags) {
        KFUNC("alloc_empty_file");
        int fmode = flags == O_PATH_ ? 0 : flags == O_WRONLY_TRUNC_ ? FMODE_WRITE : FMODE_READ;
        int i = new_file(this_thread(), fmode, flags);
        return files[i].f;
    }
    void file_free(File* f) {
        KFUNC("file_free");
        FileGhost& g = ghost(f);
        // A file that never opened owns no references: file_free does not
        // look at f_path (reference A5).
        g.live = false;
        g.own_d = g.own_m = false;
        kfree(f);
    }
    void fput_deferred_(File* f) {
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
    void fput(File* f, const char* kname) {
        KFUNC(kname);
        if (atomic_dec_and_test(f->f_ref)) fput_deferred_(f);
    }
    void fput_(File* f) {
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
    void task_work_run() {
        ThreadState& ts = th[this_thread()];
        for (int k = 0; k < ts.nwork; k++) {
            int w = ts.work[k];
            if (w == kWorkCleanupMnt) cleanup_mnt(mnt);
            else if (w == kWorkCleanupMnt - 1) cleanup_mnt(mnt2);
            else fput_(files[w].f);
        }
        ts.nwork = 0;
    }

    // ---- fs/namei.c: open -----------------------------------------------------------------
    void handle_truncate(File* f) {
        KFUNC("handle_truncate");
        // get_write_access, do_truncate (notify_change under i_rwsem),
        // put_write_access: through the opened file, which owns its path.
        kstep("handle_truncate:truncate", f->id, "%s truncated to 0 through %s", inode->name(), f->name());
    }
    // do_open(), the last step of path_openat for a regular open, in its
    // three versions, chosen once per call: the kernel before the series,
    // v4 (vfs_open_consume, `mnt` saved without a reference) and v5 (the
    // merged fix: a dedicated mnt reference across the consume).
    int do_open(NameiData& nd, File* f) {
        switch (cfg.do_open) {
            case UNPATCHED: return do_open_unpatched(nd, f);
            case V4: return do_open_v4(nd, f);
            default: return do_open_v5(nd, f);
        }
    }
    // Before the series: vfs_open takes its own path references, and
    // nd->path keeps owning the mount across the truncate.
    int do_open_unpatched(NameiData& nd, File* f) {
        KFUNC("do_open");
        int error;
        if (!(plain_load(f->f_mode) & FMODE_OPENED)) {
            error = complete_walk(nd);
            if (error) return error;
        }
        // audit_inode, O_CREAT, LOOKUP_DIRECTORY: not modelled.
        int in = READ_ONCE(nd.path.dentry->d_inode);  // d_is_reg(), and may_open's d_inode
        bool do_truncate = false;
        if (in != NONE && f->flags == O_WRONLY_TRUNC_) {
            error = mnt_want_write(nd.path.mnt);
            if (error) return error;
            do_truncate = true;
        }
        // may_open: a negative dentry is -ENOENT; the permission checks are
        // not modelled.
        error = in == NONE ? -kENOENT : 0;
        if (!error && !(plain_load(f->f_mode) & FMODE_OPENED)) error = vfs_open(nd.path, f);
        // security_file_post_open: succeeds.
        if (!error && do_truncate) handle_truncate(f);
        if (do_truncate) mnt_drop_write(nd.path.mnt);  // still owned by nd
        return error;
    }
    // v4: vfs_open_consume takes nd->path's references; `mnt` is saved
    // for mnt_drop_write without a reference of its own (the bug v5 fixed).
    int do_open_v4(NameiData& nd, File* f) {
        KFUNC("do_open");
        ThreadState& ts = th[this_thread()];
        int error;
        if (!(plain_load(f->f_mode) & FMODE_OPENED)) {
            error = complete_walk(nd);
            if (error) return error;
        }
        int in = READ_ONCE(nd.path.dentry->d_inode);
        bool do_truncate = false;
        Mount* lmnt = nullptr;  // do_open's `mnt`
        if (in != NONE && f->flags == O_WRONLY_TRUNC_) {
            error = mnt_want_write(nd.path.mnt);
            if (error) return error;
            lmnt = nd.path.mnt;
            ts.local_mnt = true;
            kstep("do_open:v4-save-mnt", lmnt->id, "v4: mnt = nd->path.mnt, saved without a reference");
            unown_ev[this_thread()][0] = last_event();
            do_truncate = true;
        }
        error = in == NONE ? -kENOENT : 0;
        if (!error && !(plain_load(f->f_mode) & FMODE_OPENED)) error = vfs_open_consume(nd.path, f, true);
        if (!error && do_truncate) handle_truncate(f);
        if (do_truncate) {
            mnt_drop_write(lmnt);
            ts.local_mnt = false;
        }
        return error;
    }
    // v5 (merged): "A dedicated reference is needed because after the call
    // to vfs_open_consume() we no longer own the reference in nd->path.mnt
    // while we need to undo write access below."
    int do_open_v5(NameiData& nd, File* f) {
        KFUNC("do_open");
        ThreadState& ts = th[this_thread()];
        int error;
        if (!(plain_load(f->f_mode) & FMODE_OPENED)) {
            error = complete_walk(nd);
            if (error) return error;
        }
        int in = READ_ONCE(nd.path.dentry->d_inode);
        bool do_truncate = false;
        Mount* lmnt = nullptr;  // do_open's `mnt`
        if (in != NONE && f->flags == O_WRONLY_TRUNC_) {
            error = mnt_want_write(nd.path.mnt);
            if (error) return error;
            lmnt = nd.path.mnt;
            ts.local_mnt = true;
            if (!MUTATION("v5-no-mntget")) {
                mntget(lmnt);  // mnt = mntget(nd->path.mnt)
                ts.local_mnt_ref = true;
            }
            do_truncate = true;
        }
        error = in == NONE ? -kENOENT : 0;
        if (!error && !(plain_load(f->f_mode) & FMODE_OPENED)) error = vfs_open_consume(nd.path, f, true);
        if (!error && do_truncate) handle_truncate(f);
        if (do_truncate) {
            mnt_drop_write(lmnt);
            mntput(lmnt);
            ts.local_mnt_ref = false;
            ts.local_mnt = false;
        }
        return error;
    }
    int do_o_path(NameiData& nd, int flags, File* f) {
        KFUNC("do_o_path");
        ThreadState& ts = th[this_thread()];
        Path& path = ts.opath;
        int error = path_lookupat(nd, flags, path);
        if (!error) {
            // audit_inode: not modelled.
            switch (cfg.o_path) {
                case OPATH_AS_IS:
                    error = vfs_open(path, f);
                    path_put(path);
                    break;
                case OPATH_CONSUME:
                    error = vfs_open_consume(path, f, true);
                    path_put(path);  // {NULL, NULL}: a no-op
                    break;
                case OPATH_CONSUME_NO_CLEAR:
                    error = vfs_open_consume(path, f, false);
                    kstep("do_o_path:path_put", f->id, "path_put(&path) puts {%s, %s}: references %s now owns",
                          path.mnt->name(), path.dentry->name(), f->name());
                    path_put(path);  // drops the references the file now owns
                    break;
                case OPATH_NO_PUT:
                    error = vfs_open(path, f);
                    kstep("do_o_path:no-path_put", f->id, "variant: the lookup's references are not put");
                    break;
            }
        }
        // `path` goes out of scope: whatever it still owns is leaked.
        ts.leaked_d += path.own_d;
        ts.leaked_m += path.own_m;
        path = Path();
        return error;
    }
    // path_openat(): returns the opened file's ghost index, or an error.
    int path_openat(int flags, int lookup_flags, int* fidx) {
        KFUNC("path_openat");
        ThreadState& ts = th[this_thread()];
        NameiData& nd = ts.nd;
        File* f = alloc_empty_file(flags);
        int error;
        if (flags == O_PATH_) {
            error = do_o_path(nd, lookup_flags, f);
        } else {
            path_init(nd, lookup_flags);
            error = link_path_walk(nd);
            if (!error) error = open_last_lookups(nd, f);
            if (!error) error = do_open(nd, f);
            terminate_walk(nd);
        }
        if (!error) {
            if (plain_load(f->f_mode) & FMODE_OPENED) {
                *fidx = f->idx;
                return 0;
            }
            error = -kEINVAL;  // WARN_ON(1)
        }
        fput(f, "fput_close");
        return error;
    }
    void do_file_open(int flags) {
        KFUNC("do_file_open");
        int fidx = NONE;
        int error = path_openat(flags, LOOKUP_RCU, &fidx);
        if (error == -kECHILD) {
            kstep("do_file_open:ref-walk", dentry->id, "-ECHILD: retry the walk in ref-walk mode");
            error = path_openat(flags, 0, &fidx);
        }
        ThreadState& ts = th[this_thread()];
        if (!error) {
            files[fidx].cycle = true;
            ts.fds[ts.nfds++] = fidx;  // fd_install
            kstep("do_file_open:fd", files[fidx].f->id, "open(\"f\", %s) = %s", flags_name(flags), files[fidx].f->name());
        } else {
            kstep("do_file_open:error", dentry->id, "open(\"f\", %s) = %s", flags_name(flags), errname(error));
        }
    }
    void close_fd() {
        KFUNC("close_fd");
        ThreadState& ts = th[this_thread()];
        if (ts.nfds == 0) {
            kstep("close_fd:ebadf", dentry->id, "no open file to close (the open failed): -EBADF");
            return;
        }
        int i = ts.fds[--ts.nfds];
        kstep("close_fd:close", files[i].f->id, "close(%s)", files[i].f->name());
        fput(files[i].f, "fput");
    }
    // filename_unlinkat(), reduced to the victim's side.
    void filename_unlinkat() {
        KFUNC("filename_unlinkat");
        // filename_parentat, mnt_want_write of the parent's mount,
        // start_dirop's inode_lock(dir): not modelled (one unlinker).
        Dentry* d = d_lookup_();
        if (!d) {
            kstep("filename_unlinkat:enoent", dentry->id, "unlink(\"f\") = -ENOENT");
            return;
        }
        if (READ_ONCE(d->d_inode) == NONE) {
            dput(d);
            kstep("filename_unlinkat:enoent", dentry->id, "unlink(\"f\") = -ENOENT");
            return;
        }
        ihold(inode);
        {
            KFUNC("vfs_unlink");
            // ->unlink: drop_nlink under the inode lock.
            WRITE_ONCE(inode->i_nlink, READ_ONCE(inode->i_nlink) - 1);
            d_delete(d);
        }
        dput(d);       // end_dirop
        iput(inode);   // "truncate the inode here"
        kstep("filename_unlinkat:done", dentry->id, "unlink(\"f\") = 0");
    }

    void thread(int t) override {
        for (int k = 0; k < cfg.nops[t]; k++) {
            // The metric counts opens and the closes of files they opened.
            th[t].in_open_close = cfg.ops[t][k] == OP_OPEN ||
                                  (cfg.ops[t][k] == OP_CLOSE && th[t].nfds && files[th[t].fds[th[t].nfds - 1]].cycle);
            switch (cfg.ops[t][k]) {
                case OP_OPEN: do_file_open(cfg.args[t][k]); break;
                case OP_CLOSE: close_fd(); break;
                case OP_UNLINK: filename_unlinkat(); break;
                case OP_UMOUNT: do_umount(); break;
                case OP_CHDIR: set_fs_pwd(); break;
            }
            // Return to user space: task_work (__fput, cleanup_mnt).
            task_work_run();
        }
    }

    // ---- invariants ---------------------------------------------------------------------------
    int live_file_refs(bool d) const {
        int n = 0;
        for (int i = 0; i < nfiles; i++)
            if (files[i].live && (d ? files[i].own_d : files[i].own_m)) n++;
        return n;
    }
    // The mount references live files own on m: those of the files whose
    // f_path.mnt is m.
    int live_file_mnt_refs(const Mount* m) const {
        int n = 0;
        for (int i = 0; i < nfiles; i++)
            if (files[i].live && files[i].own_m && files[i].f->f_path_mnt.peek() == m->id) n++;
        return n;
    }
    // check_final runs inside the execution: no std::string there.
    const char* leaks(bool d, char* buf, int size) const {
        int n = 0;
        buf[0] = 0;
        for (int u = 0; u < cfg.nthreads && n < size; u++) {
            int k = d ? th[u].leaked_d : th[u].leaked_m;
            if (k) n += std::snprintf(buf + n, size - n, "; %s's do_o_path path went out of scope owning %d", thread_name(u), k);
        }
        return buf;
    }
    void check_final() override {
        int t = this_thread();
        char lbuf[160];
        // The lockref metric.
        if (cycles > 0 && cfg.stats) {
            Stats& s = *cfg.stats;
            double per = (double)lockref_updates / cycles;
            if (s.executions == 0 || per < s.min) s.min = per;
            if (s.executions == 0 || per > s.max) s.max = per;
            s.sum += per;
            s.executions++;
        }
        // Every count balances against the references live holders own.
        int dfiles = live_file_refs(true), mfiles = live_file_refs(false);
        int dwant = cfg.dentry_extra + dfiles;
        if (freed(dentry)) {
            if (dwant)
                violate(t, "ref-leak", nullptr, 0, "%s was freed but %d reference(s) are still owned (%d by open files)",
                        dentry->name(), dwant, dfiles);
        } else {
            int c = dentry->d_lockref.peek_count();
            if (c != dwant)
                violate(t, "ref-leak", nullptr, 0, "%s.d_lockref.count ends at %d, expected %d (%d outside the scenario, %d open file(s))%s",
                        dentry->name(), c, dwant, cfg.dentry_extra, dfiles, leaks(true, lbuf, sizeof lbuf));
        }
        bool ns_ref = ns_ref_owner == kNsOwner;
        if (mnt2) {
            // The bind mount: its namespace reference and its files'.
            int on2 = live_file_mnt_refs(mnt2);
            mfiles -= on2;
            int want2 = 1 + on2;
            if (freed(mnt2)) {
                violate(t, "ref-leak", nullptr, 0, "%s was freed but %d reference(s) are still owned", mnt2->name(), want2);
            } else if (mnt2->peek_count() != want2) {
                violate(t, "ref-leak", nullptr, 0, "%s.mnt_count ends at %d, expected %d (%s, %d open file(s))", mnt2->name(),
                        mnt2->peek_count(), want2, ns->name(), on2);
            }
        }
        int mwant = cfg.mnt_extra + mfiles + (ns_ref ? 1 : 0) + (pwd_ref ? 1 : 0);
        if (freed(mnt)) {
            if (mwant)
                violate(t, "ref-leak", nullptr, 0, "%s was freed but %d reference(s) are still owned", mnt->name(), mwant);
        } else {
            int c = mnt->peek_count();
            if (c != mwant)
                violate(t, "ref-leak", nullptr, 0, "%s.mnt_count ends at %d, expected %d (%d outside the scenario, %d open file(s)%s)%s",
                        mnt->name(), c, mwant, cfg.mnt_extra, mfiles, ns_ref ? ", the namespace" : "", leaks(false, lbuf, sizeof lbuf));
            else if (mnt->mnt_writers.peek() != 0)
                violate(t, "ref-leak", nullptr, 0, "%s.mnt_writers ends at %d, expected 0", mnt->name(), mnt->mnt_writers.peek());
            // Detached and unreferenced, the mount must have met its final
            // mntput (MNT_DOOMED, cleanup_mnt): otherwise nobody frees it.
            else if (c == 0 && mnt->mnt_ns.peek() == NONE && !(mnt->mnt_flags.peek() & MNT_DOOMED))
                violate(t, "ref-leak", nullptr, 0, "%s ends detached with mnt_count 0 but not MNT_DOOMED: no final mntput ran, nobody frees it",
                        mnt->name());
        }
        if (sb->s_writers.peek() != 0)
            violate(t, "ref-leak", nullptr, 0, "%s.s_writers ends at %d, expected 0", sb->name(), sb->s_writers.peek());
        if (!freed(inode)) {
            bool pinned = !freed(dentry) && dentry->d_inode.peek() == inode->id;
            int want = pinned ? 1 : 0;
            if (inode->i_count.peek() != want)
                violate(t, "ref-leak", nullptr, 0, "%s.i_count ends at %d, expected %d", inode->name(), inode->i_count.peek(), want);
        }
    }

    void final_state(std::string& out) const override {
        char buf[320];
        if (freed(dentry)) {
            out += std::string(dentry->name()) + ": freed\n";
        } else {
            int c = dentry->d_lockref.peek_count();
            int fl = dentry->d_flags.peek();
            std::snprintf(buf, sizeof buf, "%s: d_lockref.count %d%s%s, %s, d_flags %s%s%s, d_inode %s, d_seq %d\n",
                          dentry->name(), c, c == LOCKREF_DEAD ? " (dead)" : "",
                          dentry->d_lockref.peek_locked() ? " (d_lock held)" : "",
                          dentry->d_hash.peek() ? "hashed" : "unhashed", (fl & DCACHE_LRU_LIST) ? "LRU" : "",
                          (fl & DCACHE_LRU_LIST) && (fl & DCACHE_REFERENCED) ? "|" : "",
                          (fl & DCACHE_REFERENCED) ? "REFERENCED" : (fl & DCACHE_LRU_LIST ? "" : "0"),
                          dentry->d_inode.peek() == NONE ? "NULL (negative)" : object_name(dentry->d_inode.peek()),
                          dentry->d_seq.sequence.peek());
            out += buf;
        }
        if (freed(mnt)) {
            out += std::string(mnt->name()) + ": freed\n";
        } else {
            std::snprintf(buf, sizeof buf, "%s: mnt_count %d, mnt_writers %d, mnt_ns %s%s\n", mnt->name(), mnt->peek_count(),
                          mnt->mnt_writers.peek(), mnt->mnt_ns.peek() == NONE ? "NULL (detached)" : ns->name(),
                          (mnt->mnt_flags.peek() & MNT_DOOMED) ? ", MNT_DOOMED" : "");
            out += buf;
        }
        if (mnt2 && freed(mnt2)) {
            out += std::string(mnt2->name()) + ": freed\n";
        } else if (mnt2) {
            std::snprintf(buf, sizeof buf, "%s: mnt_count %d\n", mnt2->name(), mnt2->peek_count());
            out += buf;
        }
        if (freed(inode)) {
            out += std::string(inode->name()) + ": freed\n";
        } else {
            std::snprintf(buf, sizeof buf, "%s: i_count %d, i_nlink %d\n", inode->name(), inode->i_count.peek(), inode->i_nlink.peek());
            out += buf;
        }
        std::snprintf(buf, sizeof buf, "%s: s_writers %d\n", sb->name(), sb->s_writers.peek());
        out += buf;
        for (int i = 0; i < nfiles; i++) {
            const FileGhost& g = files[i];
            if (!g.live) continue;
            int m = g.f->f_mode.peek();
            std::snprintf(buf, sizeof buf, "%s (%s): f_ref %d, %s, f_path {%s, %s}\n", g.f->name(),
                          g.owner >= 0 ? thread_name(g.owner) : "?", g.f->f_ref.peek(),
                          (m & FMODE_OPENED) ? "FMODE_OPENED" : "not opened",
                          g.f->f_path_mnt.peek() == NONE ? "NULL" : object_name(g.f->f_path_mnt.peek()),
                          g.f->f_path_dentry.peek() == NONE ? "NULL" : dentry->name());
            out += buf;
        }
        std::string owners;
        if (ns_ref_owner == kNsOwner) owners += std::string(" ") + ns->name() + " (mnt)";
        for (int t = 0; t < cfg.nthreads; t++) {
            const ThreadState& ts = th[t];
            if (ts.nd.path.own_d || ts.nd.path.own_m)
                owners += std::string(" ") + thread_name(t) + " nd->path (" + (ts.nd.path.own_m ? "mnt" : "") +
                          (ts.nd.path.own_m && ts.nd.path.own_d ? ", " : "") + (ts.nd.path.own_d ? "dentry" : "") + ")";
            if (ts.local_mnt_ref) owners += std::string(" ") + thread_name(t) + " do_open's mnt";
            if (ns_ref_owner == t) owners += std::string(" ") + thread_name(t) + " umount (mnt)";
        }
        for (int i = 0; i < nfiles; i++)
            if (files[i].live && (files[i].own_d || files[i].own_m))
                owners += std::string(" ") + files[i].f->name() + " (" + (files[i].own_m ? "mnt" : "") +
                          (files[i].own_m && files[i].own_d ? ", " : "") + (files[i].own_d ? "dentry" : "") + ")";
        out += "references owned:" + (owners.empty() ? std::string(" none") : owners) + "\n";
        for (int t = 0; t < cfg.nthreads; t++)
            if (th[t].leaked_d || th[t].leaked_m)
                out += std::string("references leaked: ") + thread_name(t) + "'s do_o_path path (" +
                       (th[t].leaked_m ? "mnt" : "") + (th[t].leaked_m && th[t].leaked_d ? ", " : "") +
                       (th[t].leaked_d ? "dentry" : "") + ")\n";
    }
};

// ---------------------------------------------------------------------------
// What the model declares, once: knobs and init fields (with how prepare()
// reads each into OpenrefCfg), invariants and steps.
// ---------------------------------------------------------------------------
using C = OpenrefCfg;
using V = const Value&;
const ModelDecl<OpenrefCfg> kDecl = {
    // knobs (`config`)
    {
        {enum_field("do_open", {"unpatched", "v4", "v5"}, "v5",
                    "unpatched (vfs_open; do_dentry_open takes the file's references), v4 (vfs_open_consume; the truncate "
                    "path keeps the mount pointer without a reference) or v5 (vfs_open_consume plus a dedicated mntget)"),
         [](C& c, V v) { c.do_open = v.s == "unpatched" ? UNPATCHED : v.s == "v4" ? V4 : V5; }},
        {enum_field("do_dentry_open", {"success", "fail-before-opened", "fail-after-opened"}, "success",
                    "the outcome of do_dentry_open for a regular open: success; security_file_open failing before FMODE_OPENED "
                    "(cleanup_file drops the consumed references); O_DIRECT refused after FMODE_OPENED (the file keeps them)"),
         [](C& c, V v) {
             c.outcome = v.s == "fail-before-opened" ? FAIL_BEFORE_OPENED : v.s == "fail-after-opened" ? FAIL_AFTER_OPENED : SUCCESS;
         }},
        {enum_field("do_o_path", {"as-is", "consume", "consume-no-clear", "no-put"}, "as-is",
                    "as-is: vfs_open then path_put; consume: vfs_open_consume then the (now no-op) path_put; consume-no-clear: a "
                    "consuming helper that does not clear the caller's path, then path_put; no-put: vfs_open without the path_put"),
         [](C& c, V v) {
             c.o_path = v.s == "consume" ? OPATH_CONSUME : v.s == "consume-no-clear" ? OPATH_CONSUME_NO_CLEAR
                      : v.s == "no-put" ? OPATH_NO_PUT : OPATH_AS_IS;
         }},
        {enum_field("legitimize", {"get_not_dead", "lockref_get"}, "get_not_dead",
                    "__legitimize_path's dentry reference: lockref_get_not_dead, or lockref_get (broken: revives a dead dentry)"),
         [](C& c, V v) {
             if (v.s == "lockref_get") c.broken.set(LEGITIMIZE_LOCKREF_GET);
         }},
        {enum_field("d_seq_check", {"on", "off"}, "on", "__legitimize_path's read_seqcount_retry of d_seq (off: broken)"),
         [](C& c, V v) {
             if (v.s == "off") c.broken.set(NO_D_SEQ_CHECK);
         }},
        {enum_field("i_op", {"plain", "atomic_open"}, "plain",
                    "plain: the open completes the RCU walk and vfs_open(_consume)s it; atomic_open: an NFS-like filesystem whose "
                    "->atomic_open opens \"f\" from lookup_open and calls finish_open (do_open then skips vfs_open)"),
         [](C& c, V v) { c.atomic_open = v.s == "atomic_open"; }},
    },
    // init
    {
        {int_field("dentry_count", "0", 0, 4, "references on dentry \"f\" held outside the scenario's threads (never put)"),
         [](C& c, V v) { c.dentry_extra = (int)v.i; }},
        {bool_field("hashed", "true", "dentry \"f\" is in the dentry hash"), [](C& c, V v) { c.hashed = v.b; }},
        {bool_field("lru_referenced", "true", "dentry \"f\" is on the LRU and DCACHE_REFERENCED (so an unlocked dput may retain it)"),
         [](C& c, V v) { c.lru_referenced = v.b; }},
        {bool_field("mounted", "true", "mnt is attached to init_mnt_ns, which holds a reference on it"),
         [](C& c, V v) { c.attached = v.b; }},
        {int_field("mnt_count", "0", 0, 4, "references on mnt held outside the scenario's threads (never put)"),
         [](C& c, V v) { c.mnt_extra = (int)v.i; }},
        {enum_field("fd_thread", {"none", "P0", "P1", "P2", "P3"}, "none",
                    "a thread (by position: P0 is the first) that starts with \"f\" open, its file holding one dentry and one mount reference"),
         [](C& c, V v) { c.fd_thread = v.s == "none" ? NONE : v.s[1] - '0'; }},
        {enum_field("fd_flags", {"O_RDONLY", "O_PATH"}, "O_RDONLY", "the flags of that file"),
         [](C& c, V v) { c.fd_flags = v.s == "O_PATH" ? O_PATH_ : O_RDONLY_; }},
        {enum_field("fd_mount", {"mnt", "bind"}, "mnt",
                    "the mount that file was opened through: mnt, or mnt2, a bind mount of the same filesystem elsewhere in "
                    "init_mnt_ns (which holds a reference on it) that no walk of the scenario reaches"),
         [](C& c, V v) { c.fd_bind = v.s == "bind"; }},
        {bool_field("pwd_in_mnt", "false",
                    "the threads share an fs_struct whose pwd is mnt's root, holding one mount reference: open walks \"f\" from "
                    "pwd without a mount crossing (RCU: no reference until __legitimize_mnt)"),
         [](C& c, V v) { c.pwd_in_mnt = v.b; }},
    },
    // invariants
    {"dentry-ref-underflow", "mount-ref-underflow", "ref-leak", "dentry-use-after-free",
     "mount-use-after-free", "dead-dentry-revived", "mnt-drop-write-unowned",
     "legitimize-stale-dentry"},
    // steps: every KFUNC and kstep name (tests/declare_test.cpp)
    {"do_file_open", "do_file_open:ref-walk", "do_file_open:fd", "do_file_open:error", "path_openat",
     "alloc_empty_file", "path_init", "link_path_walk", "lookup_mnt", "legitimize_mnt", "__legitimize_mnt",
     "open_last_lookups", "open_last_lookups:atomic-opened", "lookup_open", "atomic_open", "atomic_open:error",
     "finish_open", "lookup_last", "lookup_fast", "__d_lookup_rcu", "__d_lookup", "step_into",
     "step_into:rcu", "complete_walk", "try_to_unlazy", "try_to_unlazy:failed", "try_to_unlazy:legitimized", "__legitimize_path",
     "__legitimize_path:no-d_seq-check", "terminate_walk", "path_lookupat", "path_get", "path_put",
     "do_open", "do_open:v4-save-mnt", "handle_truncate", "handle_truncate:truncate", "do_o_path",
     "do_o_path:no-path_put", "do_o_path:path_put", "vfs_open", "vfs_open_consume", "vfs_open_consume:moved",
     "vfs_open_consume:not-cleared", "do_dentry_open", "do_dentry_open:o_path",
     "do_dentry_open:fail-before-opened", "do_dentry_open:cleanup_file", "do_dentry_open:fail-after-opened",
     "put_file_access", "fput", "fput_close", "__fput_deferred", "__fput", "file_free", "close_fd",
     "close_fd:ebadf", "close_fd:close", "dget", "dput", "fast_dput", "retain_dentry", "lock_for_kill",
     "lock_for_kill:revived", "__dentry_kill", "__dentry_kill:free", "__d_drop", "__d_drop:unhashed", "dentry_unlink_inode",
     "d_delete", "d_delete:negative", "filename_unlinkat", "filename_unlinkat:enoent", "filename_unlinkat:done", "vfs_unlink", "ihold",
     "iput", "iput_final", "iput_final:cached", "evict", "mntget", "mntput", "mntput_no_expire",
     "mntput_no_expire:doomed", "cleanup_mnt", "lock_mount_hash", "unlock_mount_hash", "mnt_want_write", "mnt_get_write_access",
     "mnt_put_write_access", "mnt_drop_write", "do_umount", "do_umount:not-mounted", "umount_tree",
     "umount_tree:detach", "namespace_unlock", "synchronize_rcu", "set_fs_pwd", "set_fs_pwd:put-old"}
};

struct OpenrefModel : Model {
    ModelSpec s;
    OpenrefCfg cfg;
    Stats stats;

    OpenrefModel() {
        s.name = "openref";
        s.doc = "dentry and mount references on open: the RCU walk's legitimize, vfs_open_consume, the truncate mount "
                "reference, do_o_path, close, unlink and umount -l (seed 000)";
        s.follows =
            "fs/namei.c path_openat/do_open (unpatched, v4, v5)/do_o_path/__legitimize_path/try_to_unlazy/terminate_walk; "
            "fs/open.c vfs_open/vfs_open_consume/do_dentry_open; fs/file_table.c fput/__fput; fs/dcache.c dput/fast_dput/"
            "retain_dentry/lock_for_kill/__dentry_kill (6.8+); lib/lockref.c; fs/namespace.c __legitimize_mnt/mntput/"
            "mnt_want_write/mnt_drop_write/do_umount(MNT_DETACH)";
        FieldSpec flags = enum_field("flags", {"O_RDONLY", "O_WRONLY|O_TRUNC", "O_PATH"}, "O_RDONLY", "the open flags");
        s.ops = {
            {"open", "open(\"f\", flags): do_file_open -> path_openat in RCU mode, again in ref-walk mode on -ECHILD", {flags}},
            {"close", "close the thread's last opened file (or the one open before the scenario): fput -> __fput on the return to user space", {}},
            {"unlink", "unlink(\"f\"): __d_lookup, ihold, drop_nlink, d_delete, dput, iput", {}},
            {"umount_lazy", "umount -l: umount_tree clears mnt_ns under mount_lock, namespace_unlock waits for RCU and puts the namespace's reference", {}},
            {"chdir", "chdir out of mnt (needs init.pwd_in_mnt): set_fs_pwd under fs->lock and fs->seq, then path_put of the old pwd's mount reference", {}},
        };
        kDecl.declare(s);
        s.min_threads = 1;
        s.max_threads = kMaxScenarioThreads;
        s.max_ops = kMaxOps;
    }
    const ModelSpec& spec() const override { return s; }

    void prepare(const Scenario& sc) override {
        cfg = OpenrefCfg();
        stats = Stats();
        cfg.stats = &stats;
        kDecl.read(sc, cfg);
        if (cfg.do_open == UNPATCHED && (cfg.o_path == OPATH_CONSUME || cfg.o_path == OPATH_CONSUME_NO_CLEAR))
            throw ModelError("config.do_o_path", std::string("bad value \"") + (cfg.o_path == OPATH_CONSUME ? "consume" : "consume-no-clear") +
                            "\" with do_open \"unpatched\" (vfs_open_consume exists only with the patch, whose do_dentry_open consumes); "
                            "accepted: as-is, no-put, or do_open v4/v5");
        cfg.nthreads = (int)sc.threads.size();
        if (cfg.fd_thread >= cfg.nthreads)
            throw ModelError("init.fd_thread", "bad value \"P" + std::to_string(cfg.fd_thread) + "\": the scenario has " +
                            std::to_string(cfg.nthreads) + " thread(s); accepted: none, or P0..P" + std::to_string(cfg.nthreads - 1));
        for (int t = 0; t < cfg.nthreads; t++) {
            const ThreadSpec& th = sc.threads[t];
            if ((int)th.ops.size() > kMaxOps)
                throw ModelError("threads[" + std::to_string(t) + "].ops", "too many ops; accepted: at most " +
                                std::to_string(kMaxOps));
            cfg.nops[t] = (int)th.ops.size();
            for (size_t k = 0; k < th.ops.size(); k++) {
                const OpCall& c = th.ops[k];
                int op = c.name == "open" ? OP_OPEN : c.name == "close" ? OP_CLOSE : c.name == "unlink" ? OP_UNLINK
                       : c.name == "chdir" ? OP_CHDIR : OP_UMOUNT;
                if (op == OP_CHDIR && !cfg.pwd_in_mnt)
                    throw ModelError("threads[" + std::to_string(t) + "].ops[" + std::to_string(k) + "]",
                                     "chdir without init.pwd_in_mnt (pwd is not in mnt); accepted: init.pwd_in_mnt true");
                cfg.ops[t][k] = op;
                if (op == OP_OPEN) {
                    const std::string& fl = c.args[0].s;
                    cfg.args[t][k] = fl == "O_PATH" ? O_PATH_ : fl == "O_WRONLY|O_TRUNC" ? O_WRONLY_TRUNC_ : O_RDONLY_;
                }
            }
        }
        if (cfg.fd_bind && cfg.fd_thread == NONE)
            throw ModelError("init.fd_mount", "bad value \"bind\" with no file open before the scenario; accepted: mnt, or init.fd_thread set");
        // files[kMaxFiles]: every path_openat allocates a struct file that
        // keeps its slot (a failed one is freed, but its slot is not
        // reused), and an open whose RCU walk fails with -ECHILD retries in
        // ref-walk mode with a second one; the file open before the
        // scenario takes one more.
        int opens = 0;
        for (int t = 0; t < cfg.nthreads; t++)
            for (int k = 0; k < cfg.nops[t]; k++) opens += cfg.ops[t][k] == OP_OPEN;
        int fd = cfg.fd_thread != NONE ? 1 : 0;
        if (2 * opens + fd > kMaxFiles)
            throw ModelError("threads", "too many opens (" + std::to_string(opens) + "); each may allocate two files (an RCU walk and its ref-walk retry)" +
                                            (fd ? " besides init.fd_thread's" : "") + " and the model has " + std::to_string(kMaxFiles) +
                                            "; accepted: at most " + std::to_string((kMaxFiles - fd) / 2) + " opens" +
                                            (fd ? " with init.fd_thread" : ""));
    }
    ModelRun* start() override { return make_run<OpenrefRun>(cfg); }

    // Dentry lockref updates (gets and puts on d_lockref.count, lockless or
    // under d_lock) per open + close cycle, over the executions explored.
    std::map<std::string, double> metrics() const override {
        std::map<std::string, double> m;
        if (stats.executions == 0) return m;
        m["dentry_lockref_updates_per_open_close"] = stats.sum / stats.executions;
        m["dentry_lockref_updates_per_open_close_min"] = stats.min;
        m["dentry_lockref_updates_per_open_close_max"] = stats.max;
        return m;
    }
};

ModelRegistrar reg(new OpenrefModel);

}  // namespace
}  // namespace vfsmc
