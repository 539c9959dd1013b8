// vfsmc kernel vocabulary: <linux/seqlock.h>: seqcount_t.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/seqlock.h>
// ------------------------------------------------------------------------
struct seqcount_t {
    kfield<int> sequence;
    seqcount_t(const kobj* o, const char* name) : sequence(o, name, 0) {}
};
unsigned read_seqcount_begin(seqcount_t& s, SrcLoc at = SrcLoc());      // waits while odd; acquire
unsigned raw_read_seqcount(seqcount_t& s, SrcLoc at = SrcLoc());        // no wait; acquire
bool read_seqcount_retry(seqcount_t& s, unsigned start, SrcLoc at = SrcLoc());  // smp_rmb; re-read
void write_seqcount_begin(seqcount_t& s, SrcLoc at = SrcLoc());         // caller holds the writer lock
void write_seqcount_end(seqcount_t& s, SrcLoc at = SrcLoc());
void write_seqcount_invalidate(seqcount_t& s, SrcLoc at = SrcLoc());    // +2 under the writer lock

}  // namespace vfsmc
