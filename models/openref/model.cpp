// openref model: the construction of one execution, the ops, the
// invariants (the end balance ref-leak) and the final state, the
// declaration table and prepare(). See openref.h for what the model
// follows and leaves out.

#include <cstdio>
#include <map>
#include <string>

#include "openref.h"

namespace vfsmc {
namespace openref {

OpenrefRun::OpenrefRun(const OpenrefCfg& c) : cfg(c) {
    for (auto& e : unown_ev) e[0] = e[1] = NONE;
    ns = kalloc_static<MntNamespace>();
    mount_lock = kalloc_static<MountLock>();
    sb = kalloc_static<SuperBlock>();
    bool fd = cfg.fd_thread != NONE;
    int mcount = (cfg.attached ? 1 : 0) + cfg.mnt_extra + (fd ? 1 : 0) + (cfg.pwd_in_mnt ? 1 : 0);
    bool fd_bind = fd && cfg.fd_bind;
    bool pwd_bind = cfg.pwd_in_mnt && cfg.pwd_bind;
    if (fd_bind) mcount--;
    if (pwd_bind) mcount--;
    mnt = kalloc<Mount>("mnt", mcount, cfg.attached ? (int)ns->id : NONE, (int)sb->id);
    // The bind mount: the namespace's reference, the file's and pwd's.
    if (fd_bind || pwd_bind)
        mnt2 = kalloc<Mount>("mnt2", 1 + (fd_bind ? 1 : 0) + (pwd_bind ? 1 : 0), (int)ns->id, (int)sb->id);
    mount_hash = kalloc_static<MountHash>(cfg.attached ? (int)mnt->id : NONE);
    inode = kalloc<Inode>();
    dentry = kalloc<Dentry>(cfg.dentry_extra + (fd ? 1 : 0), cfg.hashed,
                            cfg.lru_referenced ? DCACHE_LRU_LIST | DCACHE_REFERENCED : 0, (int)inode->id);
    bucket = kalloc_static<HashBucket>(cfg.hashed ? (int)dentry->id : NONE);
    ns_ref_owner = cfg.attached ? kNsOwner : NONE;
    fs = kalloc_static<FsStruct>(!cfg.pwd_in_mnt ? NONE : pwd_bind ? (int)mnt2->id : (int)mnt->id);
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

int OpenrefRun::new_file(int owner, int fmode, int flags, int mnt_id, int dentry_id) {
    int i = nfiles++;
    files[i].f = kalloc<File>(i, fmode, flags, mnt_id, dentry_id);
    files[i].owner = owner;
    files[i].live = true;
    return i;
}

void OpenrefRun::thread(int t) {
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

int OpenrefRun::live_file_refs(bool d) const {
    int n = 0;
    for (int i = 0; i < nfiles; i++)
        if (files[i].live && (d ? files[i].own_d : files[i].own_m)) n++;
    return n;
}

// The mount references live files own on m: those of the files whose
// f_path.mnt is m.
int OpenrefRun::live_file_mnt_refs(const Mount* m) const {
    int n = 0;
    for (int i = 0; i < nfiles; i++)
        if (files[i].live && files[i].own_m && files[i].f->f_path_mnt.peek() == m->id) n++;
    return n;
}

// check_final runs inside the execution: no std::string there.
const char* OpenrefRun::leaks(bool d, char* buf, int size) const {
    int n = 0;
    buf[0] = 0;
    for (int u = 0; u < cfg.nthreads && n < size; u++) {
        int k = d ? th[u].leaked_d : th[u].leaked_m;
        if (k) n += std::snprintf(buf + n, size - n, "; %s's do_o_path path went out of scope owning %d", thread_name(u), k);
    }
    return buf;
}

void OpenrefRun::check_final() {
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
    bool pwd2 = pwd_ref && cfg.pwd_bind;  // pwd's reference is on mnt2
    if (mnt2) {
        // The bind mount: its namespace reference, its files' and pwd's.
        int on2 = live_file_mnt_refs(mnt2);
        mfiles -= on2;
        int want2 = 1 + on2 + (pwd2 ? 1 : 0);
        if (freed(mnt2)) {
            violate(t, "ref-leak", nullptr, 0, "%s was freed but %d reference(s) are still owned", mnt2->name(), want2);
        } else if (mnt2->peek_count() != want2) {
            violate(t, "ref-leak", nullptr, 0, "%s.mnt_count ends at %d, expected %d (%s, %d open file(s)%s)", mnt2->name(),
                    mnt2->peek_count(), want2, ns->name(), on2, pwd2 ? ", pwd" : "");
        } else if (mnt2->mnt_writers.peek() != 0) {
            violate(t, "ref-leak", nullptr, 0, "%s.mnt_writers ends at %d, expected 0", mnt2->name(), mnt2->mnt_writers.peek());
        }
    }
    int mwant = cfg.mnt_extra + mfiles + (ns_ref ? 1 : 0) + (pwd_ref && !pwd2 ? 1 : 0);
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

void OpenrefRun::final_state(std::string& out) const {
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
                    "init_mnt_ns (which holds a reference on it) that no walk reaches unless init.pwd_mount is bind"),
         [](C& c, V v) { c.fd_bind = v.s == "bind"; }},
        {bool_field("pwd_in_mnt", "false",
                    "the threads share an fs_struct whose pwd is mnt's root, holding one mount reference: open walks \"f\" from "
                    "pwd without a mount crossing (RCU: no reference until __legitimize_mnt)"),
         [](C& c, V v) { c.pwd_in_mnt = v.b; }},
        {enum_field("pwd_mount", {"mnt", "bind"}, "mnt",
                    "with init.pwd_in_mnt, the mount whose root pwd is: mnt, or mnt2, a bind mount of the same filesystem "
                    "elsewhere in init_mnt_ns (which holds a reference on it): open then walks \"f\" in mnt2, whose path "
                    "path_get and path_put act on"),
         [](C& c, V v) { c.pwd_bind = v.s == "bind"; }},
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
     "umount_tree:detach", "namespace_unlock", "synchronize_rcu", "set_fs_pwd", "set_fs_pwd:put-old"},
    // step needs: the knob values and ops (with their flags) each of these
    // steps needs before any execution can reach it (StepNeeds, run
    // --coverage), read off the code that logs it
    {
        {{"set_fs_pwd", "set_fs_pwd:put-old"}, {calls({"chdir"})}},
        {{"do_umount", "do_umount:not-mounted", "umount_tree", "umount_tree:detach", "namespace_unlock", "synchronize_rcu"},
         {calls({"umount_lazy"})}},
        {{"filename_unlinkat", "filename_unlinkat:enoent", "filename_unlinkat:done", "vfs_unlink", "ihold", "d_delete",
          "d_delete:negative"},
         {calls({"unlink"})}},
        // Write access: an open for writing (a file opened before the
        // scenario is O_RDONLY or O_PATH).
        {{"handle_truncate", "handle_truncate:truncate", "mnt_want_write", "mnt_drop_write", "mnt_get_write_access",
          "mnt_put_write_access"},
         {calls_with("open", "flags", {"O_WRONLY|O_TRUNC"})}},
        {{"do_open:v4-save-mnt"}, {knob_is("do_open", {"v4"}), calls_with("open", "flags", {"O_WRONLY|O_TRUNC"})}},
        {{"do_o_path", "path_lookupat", "lookup_last", "do_dentry_open:o_path"}, {calls_with("open", "flags", {"O_PATH"})}},
        {{"do_o_path:path_put", "vfs_open_consume:not-cleared"},
         {knob_is("do_o_path", {"consume-no-clear"}), calls_with("open", "flags", {"O_PATH"})}},
        {{"do_o_path:no-path_put"}, {knob_is("do_o_path", {"no-put"}), calls_with("open", "flags", {"O_PATH"})}},
        // vfs_open: do_open before the series, or do_o_path's as-is and no-put.
        {{"vfs_open"},
         {any_of({knob_is("do_open", {"unpatched"}), knob_is("do_o_path", {"as-is", "no-put"})}),
          any_of({knob_is("do_open", {"unpatched"}), calls_with("open", "flags", {"O_PATH"})})}},
        // vfs_open_consume: do_open v4 and v5, or do_o_path's consume
        // (which clears the caller's path) and consume-no-clear.
        {{"vfs_open_consume"},
         {any_of({knob_is("do_open", {"v4", "v5"}), knob_is("do_o_path", {"consume", "consume-no-clear"})}),
          any_of({knob_is("do_open", {"v4", "v5"}), calls_with("open", "flags", {"O_PATH"})})}},
        {{"vfs_open_consume:moved"},
         {any_of({knob_is("do_open", {"v4", "v5"}), knob_is("do_o_path", {"consume"})}),
          any_of({knob_is("do_open", {"v4", "v5"}), calls_with("open", "flags", {"O_PATH"})})}},
        {{"do_dentry_open:fail-before-opened", "do_dentry_open:cleanup_file"},
         {knob_is("do_dentry_open", {"fail-before-opened"}), calls_with("open", "flags", {"O_RDONLY", "O_WRONLY|O_TRUNC"})}},
        {{"do_dentry_open:fail-after-opened"},
         {knob_is("do_dentry_open", {"fail-after-opened"}), calls_with("open", "flags", {"O_RDONLY", "O_WRONLY|O_TRUNC"})}},
        {{"__legitimize_path:no-d_seq-check"}, {knob_is("d_seq_check", {"off"})}},
        {{"open_last_lookups:atomic-opened", "lookup_open", "atomic_open", "atomic_open:error", "finish_open"},
         {knob_is("i_op", {"atomic_open"}), calls_with("open", "flags", {"O_RDONLY", "O_WRONLY|O_TRUNC"})}},
    }
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
        if (cfg.pwd_bind && !cfg.pwd_in_mnt)
            throw ModelError("init.pwd_mount", "bad value \"bind\" without init.pwd_in_mnt (pwd is not in a mount of the scenario); accepted: mnt, or init.pwd_in_mnt true");
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

namespace {
ModelRegistrar reg(new OpenrefModel);
}  // namespace

}  // namespace openref
}  // namespace vfsmc
