// vfsmc: dpor's commuting-adds rule: two blind adds of one word are
// independent (Nidhugg's commuting RMWs, restricted to what this layer's
// memory models let it prove).
//
// The rule. Two accesses of one key commute when both are blind adds. Two
// steps of different threads are dependent when they share a key, one of
// them writes it, and the two accesses of it do not commute
// (AccSet::dependent_besides, dpor_step.h). Everything else stays
// dependent: a blind add against a load, a store, a failed or successful
// RMW whose result is used (atomic_dec_and_test, atomic_add_unless,
// cmpxchg, a lock word), a wait condition that reads the word, and a step
// that touches the word in any other way besides its add.
//
// What a blind add is: the layer marks a step's access of a key as one
// (substrate/deps.h, Access::add; kfield::blind_add in kernel/kfield.h)
// only when all of these hold, and the argument below needs each:
//  1. it is an unconditional add of a constant (atomic_inc, atomic_dec)
//     whose old value neither the caller nor the layer uses: the thread's
//     next state is the same whichever value it read;
//  2. every thread reads the word only by atomic RMWs, which read the
//     latest store (the model declares it, kfield::adds_commute(), and the
//     layer refuses a load of such a word): no load can read the
//     intermediate store, the one value the two orders leave different
//     (a+v in one order, b+v in the other; under `kernel` a relaxed load
//     could read either from the store history, substrate/sim.h);
//  3. its store publishes no clock its predecessor store did not already
//     carry, and it acquires into no clock other than the thread's pending
//     acquire-fence clock (sim::atomic::rmw_publishes_nothing): the
//     store's clock is then the same as the one before it, so each of the
//     two adds reads the same clock in either order, and the orders leave
//     every thread's clocks the same (no happens-before, no data race and
//     no fence synchronization depends on their order). Under `sc` every
//     RMW is seq_cst and publishes the thread's whole clock, so no add
//     qualifies and the rule never applies there;
//  4. it runs outside a wait condition, and the step touched the key only
//     by blind adds before it.
// Given 1-4, running the two adds in either order leaves the same memory
// (the same final value; the intermediate store is never read), the same
// clocks and the same thread states, which is what independence asks of
// two steps in a Mazurkiewicz trace. The every-step invariant reads a
// word through kKeyVisible, which each write also writes: the adds stay
// dependent through that key when the invariant could see the
// intermediate value. A parked thread that watches the word is woken by
// either add, and its re-evaluation reads the word: dependent with both.
//
// The race analysis (dpor.h, analyze()) keeps, per key, the blind adds
// since the last other write, one per thread: a later load or other write
// is ordered after (and races with) each of them, a later blind add only
// after the last other write and the reads since, not after the other adds.
//
// Commute::off leaves the rule out (the tests compare the two), and
// Commute::mutant is a test-only, unsound mutation: a blind add also
// commutes with any other write of the word (a value-returning
// atomic_dec_and_test, a store), which the tests must catch.
#pragma once

#include <cstdint>

#include "substrate/deps.h"

namespace vfsmc {

enum class Commute : uint8_t {
    on,      // the default: two blind adds commute
    off,     // no two writes commute: for the tests that compare the two
    mutant,  // a blind add commutes with every other write too: unsound, for the test that shows the comparison notices
};

// Do two accesses of one key (by steps of different threads) commute?
inline bool commutes(Commute c, const Access& x, const Access& y) {
    switch (c) {
        case Commute::on: return x.add && y.add;
        case Commute::mutant: return (x.add && y.write) || (y.add && x.write);
        case Commute::off: break;
    }
    return false;
}

}  // namespace vfsmc
