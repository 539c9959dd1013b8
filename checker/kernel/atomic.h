// vfsmc kernel vocabulary: <linux/atomic.h>: atomic_t.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/atomic.h>
// ------------------------------------------------------------------------
struct atomic_t {
    kfield<int> counter;
    atomic_t(const kobj* o, const char* name, int v = 0) : counter(o, name, v) {}
    int peek() const { return counter.peek(); }
    // An atomic_t the kernel uses as a reference count (i_count, a module's
    // refcnt): declared so, the report draws its reference spans.
    atomic_t& counts_refs() {
        counter.counts_refs();
        return *this;
    }
    // Read by RMWs only, never by atomic_read (kfield::adds_commute): its
    // atomic_inc and atomic_dec may commute in dpor (search/commute.h).
    atomic_t& adds_commute() {
        counter.adds_commute();
        return *this;
    }
};
inline int atomic_read(atomic_t& a, SrcLoc at = SrcLoc()) { here(at); return a.counter.load(Acc::AtomicRead); }
inline void atomic_set(atomic_t& a, int v, SrcLoc at = SrcLoc()) { here(at); a.counter.store(v, Acc::AtomicSet); }
// atomic_inc, atomic_dec: blind adds (no return value; kfield::blind_add).
inline void atomic_inc(atomic_t& a, SrcLoc at = SrcLoc()) { here(at); a.counter.blind_add(Acc::AtomicRmwVoid, "atomic_inc", 1); }
inline void atomic_dec(atomic_t& a, SrcLoc at = SrcLoc()) { here(at); a.counter.blind_add(Acc::AtomicRmwVoid, "atomic_dec", -1); }
inline int atomic_inc_return(atomic_t& a, SrcLoc at = SrcLoc()) { here(at); return a.counter.rmw(Acc::AtomicRmwFull, "atomic_inc_return", [](int& v) { v++; return true; }, nullptr, LockClass::None, false, true) + 1; }
inline bool atomic_dec_and_test(atomic_t& a, SrcLoc at = SrcLoc()) { here(at); return a.counter.rmw(Acc::AtomicRmwFull, "atomic_dec_and_test", [](int& v) { v--; return true; }, nullptr, LockClass::None, false, true) == 1; }
// atomic_add_unless(v, a, u): add a unless the value is u; true if added.
inline bool atomic_add_unless(atomic_t& at, int a, int u, SrcLoc loc = SrcLoc()) {
    here(loc);
    bool w = false;
    at.counter.rmw(Acc::AtomicRmwFull, "atomic_add_unless", [&](int& v) { if (v == u) return false; v += a; return true; }, &w);
    return w;
}
// cmpxchg: returns the old value; stores new only if old == expected.
inline int atomic_cmpxchg(atomic_t& at, int expected, int nv, SrcLoc loc = SrcLoc()) {
    here(loc);
    return at.counter.rmw(Acc::AtomicRmwFull, "cmpxchg", [&](int& v) { if (v != expected) return false; v = nv; return true; });
}
// cmpxchg(&word, old, new) on a plain kernel word (<asm/cmpxchg.h>, as
// start_dir_add uses it on i_dir_seq): fully ordered, returns the old value.
inline int cmpxchg(kfield<int>& f, int old, int nv, SrcLoc at = SrcLoc()) {
    here(at);
    return f.rmw(Acc::AtomicRmwFull, "cmpxchg", [&](int& v) { if (v != old) return false; v = nv; return true; });
}

}  // namespace vfsmc
