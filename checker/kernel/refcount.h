// vfsmc kernel vocabulary: <linux/refcount.h>: refcount_t (and kref).
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/refcount.h>
// ------------------------------------------------------------------------
// refcount_t: the kernel's saturating counter. Misuse is reported under the
// invariant the model names for the object (for a kref: kref-underflow).
struct refcount_t {
    kfield<int> refs;
    const char* underflow_inv;
    refcount_t(const kobj* o, const char* name, int v, const char* underflow_invariant)
        : refs(o, name, v), underflow_inv(underflow_invariant) {
        refs.counts_refs();
    }
    int peek() const { return refs.peek(); }
};
inline int refcount_read(refcount_t& r, SrcLoc at = SrcLoc()) { here(at); return r.refs.load(Acc::AtomicRead); }
// refcount_inc: "addition on 0; use-after-free" when it was 0.
void refcount_inc(refcount_t& r, SrcLoc at = SrcLoc());
bool refcount_inc_not_zero(refcount_t& r, SrcLoc at = SrcLoc());
bool refcount_dec_and_test(refcount_t& r, SrcLoc at = SrcLoc());
void refcount_dec(refcount_t& r, SrcLoc at = SrcLoc());

}  // namespace vfsmc
