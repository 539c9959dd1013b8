// openref: who owns the dentry and mount references of an open, from the
// RCU path walk to the last fput, with and without seed 000.
//
// The model's shared header: its configuration, its kernel objects and
// one execution's state (OpenrefRun), whose functions live in the files
// named after the kernel files they follow:
//   namei.cpp       fs/namei.c: the walk, do_open, do_o_path, path_openat, unlink
//   open.cpp        fs/open.c: vfs_open, vfs_open_consume, do_dentry_open, close
//   file_table.cpp  fs/file_table.c: alloc_empty_file, fput, __fput
//   dcache.cpp      fs/dcache.c: dget, dput, __dentry_kill, d_delete, the lookups
//   inode.cpp       fs/inode.c: ihold, iput
//   namespace.cpp   fs/namespace.c: mount references, legitimize_mnt, umount -l
//   model.cpp       the declaration table, prepare(), the ops, the invariants
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
//   lib/lockref.c   through the layer (checker/kernel/lockref.h): lockref_get,
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
// init_mnt_ns that no walk of the scenario reaches, unless `init.pwd_mount:
// bind` puts pwd at mnt2's root: the walks then start in mnt2 and reach "f"
// there (the same dentry: a bind mount shares its superblock's dentries),
// so path_get and path_put act on a mount other than mnt. A struct path holds the
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
// RCU: the layer's (checker/kernel/rcupdate.h: rcu_read_lock/unlock with
// one grace-period word per reader, synchronize_rcu, call_rcu_free), whose
// read sections of different threads commute, as in the LKMM.
// namespace_unlock's synchronize_rcu is a KFUNC around the layer's, which
// waits for the readers inside a section when it starts.
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
#pragma once

#include <string>

#include "contract/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace openref {

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

inline const char* errname(int e) {
    switch (-e) {
        case kENOENT: return "-ENOENT";
        case kECHILD: return "-ECHILD";
        case kEACCES: return "-EACCES";
        case kEINVAL: return "-EINVAL";
    }
    return "an error";
}
inline const char* flags_name(int f) { return f == O_PATH_ ? "O_PATH" : f == O_WRONLY_TRUNC_ ? "O_WRONLY|O_TRUNC" : "O_RDONLY"; }

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
    bool pwd_bind = false;  // init.pwd_mount bind: pwd is mnt2's root
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
// s_writers is read by RMWs only (sb_start_write, sb_end_write), so its
// blind adds commute (kfield::adds_commute).
struct SuperBlock : kobj {
    atomic_t s_writers;
    SuperBlock() : kobj("super_block", "sb"), s_writers(this, "s_writers", 0) { s_writers.adds_commute(); }
};

// struct mount: mnt_pcp->mnt_count (per-CPU: one slot per thread, each
// thread on a CPU of its own; the references held at the start sit in
// P0's slot), mnt_writers, mnt_ns (NULL once umount_tree detached it),
// mnt_flags (MNT_DOOMED, under mount_lock), mnt.mnt_sb. A slot alone
// means nothing (it goes negative when a thread puts a reference another
// CPU took); only mnt_get_count's sum does. mnt_writers is read by RMWs
// only (mnt_inc_writers, mnt_dec_writers): its adds commute.
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
        mnt_writers.adds_commute();
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

// i_count is read by RMWs only (ihold, iput's atomic_add_unless and
// atomic_dec_and_test): ihold's adds commute.
struct Inode : kobj {
    atomic_t i_count;
    kfield<int> i_nlink;
    spinlock_t i_lock;
    Inode() : kobj("inode", "inode \"f\""), i_count(this, "i_count", 1), i_nlink(this, "i_nlink", 1), i_lock(this, "i_lock") {
        i_count.counts_refs().adds_commute();
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
    Mount* mnt2 = nullptr;  // init.fd_mount or init.pwd_mount bind: a second mount of sb, elsewhere in init_mnt_ns
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

    FileGhost& ghost(File* f) { return files[f->idx]; }
    // The objects a pointer field's value names (NULL for NONE).
    Mount* M(int id) const { return id == NONE ? nullptr : mnt2 && id == mnt2->id ? mnt2 : mnt; }
    Dentry* D(int id) const { return id == NONE ? nullptr : dentry; }
    // What path_get, path_put and __fput act on: the object the path
    // names, or, under the mutation openref-ignore-value-read, mnt and
    // dentry "f" whatever it names (a model that uses what it assumes
    // instead of what it read); path-get-ignore-value-read does that in
    // path_get alone.
    Mount* path_mnt(Mount* m, bool get = false) const {
        return m && (MUTATION("openref-ignore-value-read") || (get && MUTATION("path-get-ignore-value-read"))) ? mnt : m;
    }
    Dentry* path_dentry(Dentry* d) const { return d && MUTATION("openref-ignore-value-read") ? dentry : d; }
    bool freed(const kobj* o) const { return o->is_freed(); }
    // The metric counts the updates made by open and by the close of what
    // it opened, not unlink's, nor the close of a file opened before.
    void lockref_updated() {
        if (th[this_thread()].in_open_close) lockref_updates++;
    }


    // ---- fs/namespace.c: mount references, legitimize_mnt, lookup_mnt, mnt_want_write, umount -l (namespace.cpp)
    void synchronize_rcu();
    void lock_mount_hash();
    void unlock_mount_hash();
    void mnt_add_count(Mount* m, int n);
    int mnt_get_count(Mount* m);
    void mntget(Mount* m);
    void mntput(Mount* m);
    void mntput_no_expire(Mount* m);
    void cleanup_mnt(Mount* m);
    int legitimize_mnt_(Mount* m, unsigned seq);
    bool legitimize_mnt(Mount* m, unsigned seq);
    Mount* lookup_mnt();
    int mnt_want_write(Mount* m);
    void mnt_get_write_access(Mount* m);
    void mnt_put_write_access(Mount* m);
    void mnt_drop_write(Mount* m);
    void do_umount();
    bool thread_owns_mnt(int t) const;

    // ---- fs/inode.c (inode.cpp)
    void ihold(Inode* i);
    void iput(Inode* i);
    void iput_final(Inode* i);

    // ---- fs/dcache.c (dcache.cpp)
    void dget(Dentry* d);
    bool retain_dentry(Dentry* d, bool locked);
    bool fast_dput(Dentry* d);
    void dput(Dentry* d);
    bool lock_for_kill(Dentry* d);
    void d_drop_(Dentry* d);
    void dentry_unlink_inode(Dentry* d);
    void dentry_kill_(Dentry* d);
    void d_delete(Dentry* d);
    Dentry* d_lookup_();
    Dentry* d_lookup_rcu_(unsigned* seqp);

    // ---- fs/namei.c: the walk, then open and unlink (namei.cpp)
    void path_get(Path& p);
    void path_put(Path& p);
    void leave_rcu(NameiData& nd);
    void path_init(NameiData& nd, int flags);
    void set_fs_pwd();
    int link_path_walk(NameiData& nd);
    Dentry* lookup_fast(NameiData& nd);
    int step_into(NameiData& nd, Dentry* d);
    int last_component(NameiData& nd, const char* kname);
    int open_last_lookups(NameiData& nd, File* f);
    Dentry* lookup_open(NameiData& nd, File* f);
    Dentry* atomic_open(NameiData& nd, Dentry* d, File* f);
    int finish_open(File* f, Dentry* d);
    bool legitimize_path_(Path& path, unsigned seq, unsigned mseq);
    void note_stale_sample();
    void check_not_stale(const NameiData& nd);
    bool try_to_unlazy(NameiData& nd);
    int complete_walk(NameiData& nd);
    void terminate_walk(NameiData& nd);
    int path_lookupat(NameiData& nd, int flags, Path& out);
    void handle_truncate(File* f);
    int do_open(NameiData& nd, File* f);
    int do_open_unpatched(NameiData& nd, File* f);
    int do_open_v4(NameiData& nd, File* f);
    int do_open_v5(NameiData& nd, File* f);
    int do_o_path(NameiData& nd, int flags, File* f);
    int path_openat(int flags, int lookup_flags, int* fidx);
    void do_file_open(int flags);
    void filename_unlinkat();

    // ---- fs/open.c (open.cpp)
    void set_f_path(File* f, const Path& p);
    Path f_path(File* f);
    void put_file_access(File* f);
    int do_dentry_open(File* f);
    int vfs_open(Path& path, File* f);
    int vfs_open_consume(Path& path, File* f, bool clear);
    void close_fd();

    // ---- fs/file_table.c (file_table.cpp)
    File* alloc_empty_file(int flags);
    void file_free(File* f);
    void fput_deferred_(File* f);
    void fput(File* f, const char* kname);
    void fput_(File* f);
    void task_work_run();

    // ---- the execution, the ops and the invariants (model.cpp)
    explicit OpenrefRun(const OpenrefCfg& c);
    int new_file(int owner, int fmode, int flags, int mnt_id = NONE, int dentry_id = NONE);
    void thread(int t) override;
    int live_file_refs(bool d) const;
    int live_file_mnt_refs(const Mount* m) const;
    const char* leaks(bool d, char* buf, int size) const;
    void check_final() override;
    void final_state(std::string& out) const override;
};

}  // namespace openref
}  // namespace vfsmc
