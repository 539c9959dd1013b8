// vfsmc kernel vocabulary: <linux/rcupdate.h>: read-side sections, grace periods, rcu_dereference.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/rcupdate.h>
// ------------------------------------------------------------------------
// Grace periods are ordered against read sections without a fence in each
// rcu_read_lock (which would hide store-buffering races around sections):
// the layer keeps one grace-period word per reader; an outermost
// rcu_read_lock is an acquire RMW of the reader's word, an outermost
// rcu_read_unlock a release RMW of it, and a grace period's start and end
// each acquire every reader's word and then release into every word. RMWs
// read the latest value, so a section that starts after a grace period
// began (in the execution's order, the order in which the layer decides
// whom the grace period waits for) synchronizes with its start, and the end
// synchronizes with every section that ended before it. Two read sections
// of different threads do not synchronize with each other (nor do they in
// the LKMM), and their RCU steps commute for DPOR. Under `sc` none of this
// is needed.
void rcu_read_lock(SrcLoc at = SrcLoc());
void rcu_read_unlock(SrcLoc at = SrcLoc());
// For a model's own grace-period bookkeeping (openref's synchronize_rcu).
void rcu_gp_order(const char* why);
// Free `id` after a grace period: once every thread that was inside an RCU
// read-side section when call_rcu() ran has left it.
void call_rcu_free(int id, SrcLoc at = SrcLoc());
bool rcu_read_lock_held();
// Wait for a grace period: until every thread that was inside a read-side
// section when it started has left that section.
void synchronize_rcu(SrcLoc at = SrcLoc());
// <linux/srcu.h>: SRCU domains 1..kMaxSrcu, one per srcu_struct, each with
// the read sections and grace periods of RCU above on words of its own
// (domain 0 is RCU). init_srcu_struct sets a domain up, in a model's setup.
// srcu_down_read() begins a section that srcu_up_read(), in any thread,
// ends. srcu_read_lock() returns its section (the index the kernel's
// returns stands for it), and srcu_read_unlock() ends that section, or,
// given 0, the thread's latest open one: two sections of one thread may
// overlap without nesting, and stay two.
void init_srcu_struct(int domain);
int srcu_read_lock(int domain);
void srcu_read_unlock(int domain, int section = 0);
void srcu_down_read(int domain);
void srcu_up_read(int domain);
void synchronize_srcu(int domain);
// The program declares, in its setup, that no thread of this execution
// enters a read-side section of `domain` (0: RCU). Its grace periods then
// wait for nothing, and each is the full barrier the LKMM's strong-fence
// takes it for (one step, as smp_mb()), without the grace-period words that
// order sections; entering a section of the domain is an internal error.
// vfsmc litmus declares it for a test that has no section of a domain: its
// answers are the same either way (the corpus and the generated set, under
// VFSMC_TEST_GP_WORDS=1), and the search is smaller.
void rcu_domain_without_readers(int domain);
// A grace period's end (the release into the words of the readers it
// waited for) and the full barrier after it are one step (rcupdate.cpp,
// grace_period()). Declared in the setup, they are two, as a fence after a
// store is: for the tests that show the answers and states are the same
// either way (vfsmc litmus under VFSMC_TEST_GP_END=split).
void rcu_grace_period_end_split();
// Publish and read an RCU-protected pointer (a kfield that holds object ids).
template <class T> inline T rcu_dereference(kfield<T>& p, SrcLoc at = SrcLoc()) { here(at); return p.load(Acc::RcuDereference); }
template <class T, class V> inline void rcu_assign_pointer(kfield<T>& p, V v, SrcLoc at = SrcLoc()) { here(at); p.store((T)v, Acc::RcuAssignPointer); }

}  // namespace vfsmc
