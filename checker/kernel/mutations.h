// vfsmc: the one table of mutations, for scripts/mutate.
//
// A mutation deletes one line of a correct code path (a barrier, a
// re-check, a reference) to prove that some scenario notices: its verdict
// must change. The models mark each deletion where it happens with
//
//     if (!MUTATION("legitimize-mnt-no-smp-mb")) smp_mb();
//
// A run selects at most one mutation through the environment variable
// VFSMC_MUTATION; scenarios cannot select one (a mutation is not a knob: it
// is never the code a scenario describes). Unset, every MUTATION() is false
// and the models are the correct code. scripts/mutate runs `vfsmc check
// scenarios` once per row and prints which verdicts changed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vfsmc {

struct MutationInfo {
    const char* name;
    const char* model;  // the model (or "layer") whose code it deletes
    const char* doc;
};

inline constexpr MutationInfo kMutations[] = {
    {"legitimize-mnt-no-smp-mb", "openref", "__legitimize_mnt: the smp_mb() between mnt_add_count(mnt, 1) and read_seqretry(&mount_lock)"},
    {"d-wait-lookup-no-revalidate", "dcache", "d_alloc_parallel: the d_unhashed() re-validation (and retry) after d_wait_lookup()"},
    {"pre-seed-no-i-cdev-recheck", "chrdev", "chrdev_open before seed 002: the re-check of inode->i_cdev after kobj_lookup, under cdev_lock"},
    {"no-write-seqcount-invalidate", "layer", "write_seqcount_invalidate() is a no-op (__d_drop's d_seq invalidation)"},
    {"no-i-dir-seq-recheck", "dcache", "d_alloc_parallel: the re-check of i_dir_seq under the in-lookup bucket lock"},
    {"no-start-dir-add", "dcache", "__d_add: start_dir_add()/end_dir_add() around moving the dentry to the main hash"},
    {"cdev-get-no-unless-zero", "chrdev", "cdev_get: kobject_get() instead of kobject_get_unless_zero()"},
    {"v5-no-mntget", "openref", "do_open v5: the mntget(mnt) for O_TRUNC (and its mntput)"},
    {"lockref-get-not-dead-no-dead-test", "layer", "lockref_get_not_dead: the dead test (it takes a reference from a dead count)"},
    {"waiter-no-dput-new", "dcache", "d_alloc_parallel: the waiter's dput(new) after it found the in-lookup dentry"},
    {"d-lookup-rcu-no-unhashed-test", "dcache,openref", "__d_lookup_rcu: the d_unhashed() test after the name match"},
    {"no-free-race-check", "layer", "kfree: no check that every other thread's plain access to the object happens before the free"},
    {"openref-ignore-value-read", "openref", "path_get, path_put and __fput act on mnt and dentry \"f\" whatever mount and dentry the path (or the file's f_path) names"},
    {"chrdev-ignore-value-read", "chrdev", "every load of a cdev pointer (inode->i_cdev in chrdev_open and __fput, the probe in kobj_lookup) is used as the cdev the scenario started with, not the cdev it returned"},
};

// The mutation this process runs with, or nullptr. Bad input (a name not in
// the table) is rejected by the command line before anything runs.
inline const char* active_mutation() {
    static const char* sel = [] {
        const char* s = std::getenv("VFSMC_MUTATION");
        return s && *s ? s : nullptr;
    }();
    return sel;
}
inline const MutationInfo* find_mutation(const char* name) {
    for (const auto& m : kMutations)
        if (std::strcmp(m.name, name) == 0) return &m;
    return nullptr;
}
// True when the deletion `name` is selected. `name` must be in kMutations.
inline bool MUTATION(const char* name) {
    // `name` is a literal: each pointer is looked up in the table once.
    static const char* known[64] = {};
    const char*& k = known[((uintptr_t)name >> 3) & 63];
    if (k != name) {
        if (!find_mutation(name)) {
            std::fprintf(stderr, "internal error: MUTATION(\"%s\") is not in kMutations\n", name);
            std::abort();
        }
        k = name;
    }
    const char* sel = active_mutation();
    return sel && std::strcmp(sel, name) == 0;
}

}  // namespace vfsmc
