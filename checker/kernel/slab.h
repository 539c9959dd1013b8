// vfsmc kernel vocabulary: <linux/slab.h>: model objects (kobj), kalloc and kfree.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>

#include "kernel/core.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/slab.h>: model objects.
// ------------------------------------------------------------------------
// Every model object derives from kobj. Its id names it in the trace
// ("dentry \"foo\"#2"); its kind names its use-after-free invariant.
struct kobj {
    int16_t id;
    template <class... A>
    kobj(const char* kind, const char* fmt, A... a) {
        id = (int16_t)register_object(kind, fmt, a...);
    }
    kobj(const kobj&) = delete;
    kobj& operator=(const kobj&) = delete;
    const char* name() const { return object_name(id); }
    // kfree'd (or freed after its grace period).
    bool is_freed() const { return rt().rec->objects[id].freed; }
};

// A field whose first value is given after its object is built, by
// kfield::init: for objects that point at each other from the start (a
// cdev and its inode), so that no id is predicted.
struct deferred_init_t {};
constexpr deferred_init_t deferred_init{};

// Check that `id` is alive before a thread touches it.
void check_alive_slow(int id, const char* field);
inline void check_alive(int id, const char* field) {
    ExecRecord* rec = rt().rec;
    if (!rec || id < 0 || id >= rec->nobjects || !rec->objects[id].freed) return;
    check_alive_slow(id, field);
}

// Objects allocated with kalloc() are the ones that can be freed (kfree,
// call_rcu_free). A plain access is no scheduling point of its own: it runs
// in one step with the marked access before it, so a free by another thread
// cannot fall in between. What such a free would show is caught at the free
// instead: the layer keeps, per freeable object and thread, the clock of
// the thread's last plain access to it, and kfree_id() reports
// <kind>-use-after-free when one of them does not happen before the free
// (without that happens-before, the access can run after
// the free). Objects that are members of the model run (a static table, a
// global lock) and objects allocated with kalloc_static() are never freed:
// their plain accesses are not recorded, and kfree of one is a model error
// (kfree_id aborts naming it).
bool object_freeable(int id);
// Made before the threads started (the model's setup): shared from the
// start, unlike an object a thread allocates (dpor's identical-threads
// rule: note_next_access, substrate/deps.h).
bool made_at_setup(int id);
void mark_freeable(int id);
void mark_static(int id);
// A plain access by the running thread to freeable object `id` (its clock
// tick `stamp`, its event `ev`), for kfree_id's check.
void note_plain_access(int id, const char* field, bool store, int ev, uint64_t stamp);

struct Heap {
    struct Slot {
        void* mem;
        void (*destroy)(void*);
        int id;
        bool live;
    };
    static constexpr int kMax = 256;
    Slot slots[kMax];
    int n = 0;
};
Heap& heap();
// A kalloc past Heap::kMax: an internal error (the run aborts), never an
// object the engine would not destroy.
[[noreturn]] void heap_full();
bool in_setup();

// kmalloc + constructor. The memory stays mapped until the execution ends,
// so a use after kfree() is always seen (first by check_alive(), which names
// the object, then by Relacy's signature check on the freed atomics).
template <class T, class... A>
T* kalloc(A&&... a) {
    void* mem = std::malloc(sizeof(T));
    // A new object is private to its thread until it is published: its
    // construction is one step (its fields' initial stores are not
    // scheduling points).
    T* p;
    if (in_setup()) {
        p = new (mem) T(std::forward<A>(a)...);
    } else {
        no_preempt np;
        p = new (mem) T(std::forward<A>(a)...);
    }
    Heap& h = heap();
    if (h.n >= Heap::kMax) heap_full();
    h.slots[h.n++] = {mem, [](void* q) { static_cast<T*>(q)->~T(); }, p->id, true};
    mark_freeable(p->id);
    if (!in_setup()) {
        int ev = log_event(this_thread(), Ev::Alloc, p->id, "alloc", nullptr, 0, 0, "%s allocated", p->name());
        rt().rec->objects[p->id].alloc_event = ev;
    }
    return p;
}

// An object that lives as long as the execution (a superblock, a hash
// table's bucket, a wait queue head, a module): allocated like kalloc, but
// never freed. Its plain accesses are not recorded for kfree's check (see
// object_freeable); kfree of it is a model error.
template <class T, class... A>
T* kalloc_static(A&&... a) {
    T* p = kalloc<T>(std::forward<A>(a)...);
    mark_static(p->id);
    return p;
}

// kfree: destroys the object now (its Relacy atomics die with it).
void kfree_id(int id, SrcLoc at = SrcLoc());
template <class T>
void kfree(T* p, SrcLoc at = SrcLoc()) {
    if (p) kfree_id(p->id, at);
}

}  // namespace vfsmc
