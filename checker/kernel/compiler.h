// vfsmc kernel vocabulary: <linux/compiler.h>: READ_ONCE, WRITE_ONCE, and plain accesses.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/compiler.h>
// ------------------------------------------------------------------------
// READ_ONCE / WRITE_ONCE and friends, spelled as in the kernel.
template <class T> inline T READ_ONCE(kfield<T>& f, SrcLoc at = SrcLoc()) { here(at); return f.load(Acc::ReadOnce); }
template <class T, class V> inline void WRITE_ONCE(kfield<T>& f, V v, SrcLoc at = SrcLoc()) { here(at); f.store((T)v, Acc::WriteOnce); }
// Plain C accesses (`x = f` and `f = x` in the kernel source).
template <class T> inline T plain_load(kfield<T>& f, SrcLoc at = SrcLoc()) { here(at); return f.load(Acc::Plain); }
template <class T, class V> inline void plain_store(kfield<T>& f, V v, SrcLoc at = SrcLoc()) { here(at); f.store((T)v, Acc::Plain); }

}  // namespace vfsmc
