// dcache model, the filesystem side: an NFS-like filesystem and its server.
//
// Follows fs/nfs/dir.c and fs/nfs/nfs4proc.c (ref 7): nfs_atomic_open (an
// OPEN round trip with a gap between sending it and the reply; the
// "switch" to d_alloc_parallel for a non-O_CREAT open of a hashed dentry;
// d_drop + d_splice_alias(NULL) on -ENOENT), the publish of
// _nfs4_open_and_get_state (d_drop + d_splice_alias, or the `publish`
// knob's alternatives), nfs_lookup, nfs_create/nfs_instantiate, and
// ->d_revalidate for negative dentries (nfs4_lookup_revalidate ->
// nfs_neg_need_reval: trusted for LOOKUP_CREATE, not for LOOKUP_OPEN
// alone, as the seed's locking.rst describes).
//
// The server is a directory table, one entry per name as the server
// compares names (byte-exact, or case-folding): each RPC is one atomic step
// on it, so that the round trip of one opener can overlap another's.
//
// Left out here: the NFS client's caches other than the dcache, open
// state and delegations, ->d_hash/->d_compare (NFS has none), and the
// server's errors other than one failure per call (`rpc_error`).
#include "dcache.h"

namespace vfsmc {
namespace dcache {

// -----------------------------------------------------------------------
// The filesystem (NFS-like).
// -----------------------------------------------------------------------
// ->d_revalidate (nfs4_lookup_revalidate), as far as it concerns names:
// a positive dentry is valid; a negative one is trusted for a create
// (nfs_neg_need_reval tests LOOKUP_CREATE first) and, per the seed's
// locking.rst, not for an open without O_CREAT. "always-valid" is a
// filesystem without ->d_revalidate.
int DcacheRun::d_revalidate(Dentry* d, int flags) {
    KFUNC("d_revalidate");
    if (cfg.revalidate == REVAL_ALWAYS) return 1;
    if (!d_really_is_negative(d)) return 1;
    if (flags & LOOKUP_CREATE) return 1;
    if (flags & LOOKUP_OPEN) return 0;
    return 1;
}

// INV-2 bookkeeping: an O_CREAT call into the filesystem starts (`ev`,
// the caller's kstep that says so) / ends.
void DcacheRun::create_begin(Dentry* d, int ev) {
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

// One RPC, handled by the server in one step. Returns the entry's inode
// or -1; *failed when the server reports an error (-EIO, -EDQUOT...).
int DcacheRun::server_rpc(int name, bool create, const char* what, bool* failed) {
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
Dentry* DcacheRun::nfs_publish(Dentry* d, int ino, int sname) {
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
int DcacheRun::nfs_atomic_open(Dentry* d, bool creat, Dentry** res) {
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
Dentry* DcacheRun::nfs_lookup(Dentry* d) {
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
void DcacheRun::fs_call_enter(Dentry* d, const char* call) {
    int t = this_thread();
    if (d->fs_call >= 0 && d->fs_call != t)
        violate(t, "one-fs-call-per-dentry", nullptr, 0, "%s runs %s on %s while %s is inside %s on it", me(), call,
                d->name(), thread_name(d->fs_call), d->fs_call_name);
    d->fs_call = t;
    d->fs_call_name = call;
}

void DcacheRun::fs_call_exit(Dentry* d) {
    if (d->fs_call == this_thread()) d->fs_call = -1;
}

// ->create (nfs_create -> nfs_instantiate).
void DcacheRun::nfs_create(Dentry* d) {
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

void DcacheRun::op_set_names_collide() {
    KFUNC("set_names_collide");
    // The filesystem learns that the server does not tell these names
    // apart: sb->s_iflags |= SB_I_NAMES_COLLIDE.
    WRITE_ONCE(sb->s_iflags, plain_load(sb->s_iflags) | SB_I_NAMES_COLLIDE);
}

}  // namespace dcache
}  // namespace vfsmc
