// vfsmc: the one table of invariant names.
//
// Every invariant has one stable kebab-case name. Scenarios name it in
// `invariants` and `expect`, models raise it, reports print it, tests and
// docs quote it. Add a row here before using a new name anywhere; the loader
// rejects names that are not in this table (tests add their toy models'
// rows with ExtraInvariants).
#pragma once

#include <cstring>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace vfsmc {

struct InvariantInfo {
    const char* name;
    const char* owner;  // "engine" or the model that raises it
    const char* doc;
    // How the doc reads: "requires" (doc states what must hold) or
    // "forbids" (doc describes the bad event itself).
    const char* verb = "forbids";
};

inline constexpr InvariantInfo kInvariants[] = {
    // Raised by the engine and the kernel-vocabulary layer for every model.
    {"deadlock", "engine", "every live thread waits on a lock or condition that no thread can release"},
    {"lost-wakeup", "engine", "a thread sleeps on a condition that is already true, and nothing is left to wake it"},
    {"livelock", "engine", "the execution ran past its step limit without finishing (Relacy's livelock)"},
    {"data-race", "engine", "a plain access and a conflicting access with no happens-before between them (LKMM: at least one plain)"},
    {"use-after-free", "engine", "a freed model object is accessed (objects of a named kind use <kind>-use-after-free)"},
    {"double-free", "engine", "a model object is freed twice"},
    {"lock-misuse", "engine", "a lock released by a thread that does not hold it, or taken twice by its holder"},
    {"relacy-check", "engine", "any other failure Relacy reports (uninitialised access, leaked resource)"},

    // dcache: O_CREAT with the parent lock shared (seed 001).
    {"one-hashed-dentry-per-name", "dcache", "at most one dentry per (parent, name) is in the main dentry hash, at every step", "requires"},
    {"create-exclusion", "dcache", "no two O_CREAT ->atomic_open calls overlap on names the filesystem treats as one entry", "requires"},
    {"atomic-open-in-lookup", "dcache", "->atomic_open with O_CREAT under a shared parent lock is handed an in-lookup dentry (the seed's VFS_WARN_ON_ONCE)", "requires"},
    {"d-alloc-parallel-result", "dcache", "d_alloc_parallel returns a dentry that is hashed, or in-lookup and published by the caller (else: a spurious -ENOENT or a create that never happened)", "requires"},
    {"one-fs-call-per-dentry", "dcache", "no two threads run ->lookup or ->atomic_open on one dentry at once (only the in-lookup owner may)", "requires"},
    {"dentry-use-after-free", "dcache,openref", "a freed dentry is accessed"},
    {"dentry-ref-underflow", "dcache,openref", "a dentry's lockref count goes below zero (or is put when dead)"},
    {"ref-leak", "dcache,openref", "a reference count does not balance once every thread has finished"},

    // chrdev: chrdev_open without cdev_lock (seed 002).
    {"cdev-use-after-free", "chrdev", "a freed cdev is accessed (cdev_get after the release freed it)"},
    {"kref-underflow", "chrdev", "a cdev kobject kref is put below zero, or taken from zero (kobject_get on a released kobject)"},
    {"kref-balance", "chrdev", "at the end the cdev kref is one per open file, plus one while registered", "requires"},
    {"inode-on-freed-cdev-list", "chrdev", "an inode is still on a cdev's list when the cdev is freed, or freed while still on a list"},
    {"cdev-list-double-add", "chrdev", "an inode is list_add()ed to a cdev's list while it is already on one (CONFIG_DEBUG_LIST's check; a second install)", "forbids"},
    {"chrdev-open-icount", "chrdev", "the seed's assertion: icount_read(inode) >= 1 in chrdev_open", "requires"},
    {"cdev-forget-freeing", "chrdev", "the seed's assertion: I_FREEING is set in inode_cdev_forget", "requires"},
    {"module-freed-while-referenced", "chrdev", "delete_module frees the module (free_module) while references on it remain: the files' fops and cdev owner pointers then name freed module memory"},

    // openref: dentry and mount references on open (seed 000).
    {"mount-use-after-free", "openref", "a freed mount is accessed"},
    {"mount-ref-underflow", "openref", "a mount's mnt_count goes below zero"},
    {"dead-dentry-revived", "openref", "a dentry marked dead (lockref -128) gets a reference again"},
    {"mnt-drop-write-unowned", "openref", "mnt_drop_write is called by a thread that holds no reference on the mount"},
    {"legitimize-stale-dentry", "openref", "a path walk leaves RCU mode holding a dentry that changed after its lookup found it (unhashed, killed or its inode changed), without noticing; judged by a ghost version, not by d_seq"},

    // litmus: a herd7 C litmus test run by `vfsmc litmus --witness`.
    {"litmus-condition", "litmus", "no execution ends in a state that satisfies the litmus test's condition (the witness is one that does)"},
};

// Every invariant a run may name: the table above, then the rows a test
// binary adds for its own toy models (ExtraInvariants); vfsmc adds none.
inline std::vector<InvariantInfo>& invariant_rows() {
    static std::vector<InvariantInfo> rows(std::begin(kInvariants), std::end(kInvariants));
    return rows;
}
// A test binary's rows, added at its start (a static object).
struct ExtraInvariants {
    ExtraInvariants(std::initializer_list<InvariantInfo> l) {
        for (const auto& i : l) invariant_rows().push_back(i);
    }
};

inline const InvariantInfo* find_invariant(const char* name) {
    for (const auto& i : invariant_rows())
        if (std::strcmp(i.name, name) == 0) return &i;
    return nullptr;
}

}  // namespace vfsmc
