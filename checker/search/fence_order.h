// vfsmc: dpor's observed-fence-order rule: two strong fences of different
// threads are ordered for the race analysis only when the execution can
// tell their two orders apart.
//
// What the order of two strong fences changes. Every strong fence
// (smp_mb(), a grace period's full barrier, a fully ordered RMW, the
// special-purpose full barriers) joins the one seq_cst fence order
// (kKeyScFence, substrate/deps.h): it takes what the fences before it
// knew, and what its thread knew joins the order (Relacy's
// atomic_thread_fence_seq_cst: the thread's clock joins the order's clock,
// which becomes the thread's clock). Of two fences A (thread a) then B
// (thread b), only B learns what a knew at A; in the other order only A
// learns what b knew at B. Nothing else in either order differs: the
// memory and every thread's own state are the same, and the two fences
// differ only in what their threads know after them and in the clocks
// derived from that (substrate/sim.h, fence()).
//
// What it takes to tell them apart. A clock is read only by an access of a
// location (kernel/kfield.h, substrate/sim.h): which stores a load may
// read, where a store goes in its location's coherence order, whether a
// plain access races, whether a wait is over; every one of these is a key
// of the step that makes it (substrate/deps.h). What a fence passes on is
// a set of other threads' events, each in a step of its own; knowing an
// event changes only an access of a key that event's step touched, and
// only in a thread other than the event's own (a thread always knows its
// own earlier events). Knowing a read bounds less (Access::quiet): a
// marked load of a setup's store (an initial value, first in coherence
// order) bounds nothing, as no load can read before it and no store go
// before it, but for the race check of a C plain access (in an execution
// with one, sim::plain_access_seen(), it bounds writes); a read of an
// object's liveness bounds only a free (which checks what came before it),
// a write of that key.
//
// The other order of A and B (A's step j first, B's step i, as dpor would
// reverse them: notdep(j).i) runs before A the steps between them that do
// not happen after A, and B. So the two orders are told apart only by a
// step X of a thread other than S's with an access of a key that knowing
// step S bounds, where S's events one fence learns in one order and not in
// the other:
//   - B learns from A: S before A, with events A knew (by the close of its
//     step: at least what A put into the order) that b had not known by
//     the close of its step before B, nor the order before A's step (B has
//     those in either order); X from B on, or between A and B and
//     happening after A;
//   - A learns from B: S before B and not happening after A, with events B
//     knew (by the close of its step) that a had not known by the close of
//     its step before A, nor the order before A's step; X as above, or A's
//     own step.
// Each bound errs on the side that makes the sets larger. A step's events
// are those whose stamps in its thread's own clock lie between the close of
// that thread's previous step and its own (substrate/sim.h: every load and
// store of a thread takes the next stamp). Keys are compared through a
// 128-bit signature of each step's keys (KeySig), where two keys that
// share a bit count as one: more pairs ordered, never fewer.
//
// When no such X exists, the two orders lead to the same executions from
// there on (the same choices, the same values, the same verdict), and
// the two fences are independent for the race analysis (dpor.h,
// analyze(), which asks as it reaches B, when happens-before is known for
// the steps before it); otherwise they are dependent, as two writes of one
// key are. An execution with more than kMaxObservedFences fence steps
// keeps every pair dependent.
//
// The sleep sets must decide before the steps to come are known (dpor.h,
// fences_commute()). A thread asleep on a fence step stays asleep past
// another thread's fence step, dependent with it only through the fence
// order, when neither fence learns, in either order, an event whose
// knowledge bounds any access at all. That takes a program with no C plain
// access and no free (sim::marked_only(): its front end says so, as `vfsmc
// litmus` does for a test without a plain access), where a load of an
// initial value and a read of an object's liveness bound nothing, and an
// execution with no promise made so far, where what the sleeping thread
// knows has not changed since it was put to sleep. Otherwise the two stay
// dependent for the sleep sets, which only wakes more sleepers.
//
// FenceOrder::all orders every two fences (the tests compare the two), and
// FenceOrder::mutant is a test-only, unsound mutation: the race analysis
// orders no two fences, observed or not, which the tests must catch.
#pragma once

#include <cstdint>

namespace vfsmc {

enum class FenceOrder : uint8_t {
    observed,  // the default: two strong fences are ordered when a later step can tell their orders apart
    all,       // every two strong fences are ordered: for the tests that compare the two
    mutant,    // no two strong fences are ordered: unsound, for the test that shows the comparison notices
};

// More fence steps than this in one execution: every pair stays ordered
// (the analysis is quadratic in them).
constexpr int kMaxObservedFences = 16;

// A 128-bit signature of a set of keys. The analysis numbers the keys of
// an execution in the order they first appear (dpor.h, sig_bit()), key
// number i is bit i mod 128: exact up to 128 keys, and past that two keys
// may share a bit (more pairs ordered, never fewer). The numbering follows
// the execution, not the keys' values, so the search is the same whatever
// addresses a build gives the names keys are made of.
struct KeySig {
    uint64_t w[2] = {0, 0};
    void add(int bit) {
        if (bit < 0) fill();
        else w[(bit >> 6) & 1] |= uint64_t(1) << (bit & 63);
    }
    void fill() { w[0] = w[1] = ~uint64_t(0); }
    void join(const KeySig& o) {
        w[0] |= o.w[0];
        w[1] |= o.w[1];
    }
    bool meets(const KeySig& o) const { return (w[0] & o.w[0]) | (w[1] & o.w[1]); }
};

// The keys of some steps, as the rule reads them. Of steps that may tell
// the orders apart: the keys they touch (`any`) and those they write
// (`w`). Of a step whose events one fence learns: the keys whose knowledge
// bounds any access (`any`) and those whose knowledge bounds writes (`w`;
// Access::quiet).
struct KeySigs {
    KeySig any, w;
    void fill() {
        any.fill();
        w.fill();
    }
    void join(const KeySigs& o) {
        any.join(o.any);
        w.join(o.w);
    }
    // Knowing these steps bounds a step of `later`.
    bool tells(const KeySigs& later) const { return any.meets(later.any) || w.meets(later.w); }
};

}  // namespace vfsmc
