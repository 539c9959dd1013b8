// The 2-thread dcache world of scenarios/dcache/shared-create-vs-open.json
// written directly against Relacy (rl::atomic, rl::var), with no vfsmc layer:
// the baseline that shows what the layer costs per execution on a real
// protocol (issue 10, "Per-execution cost"). Like raw_toy.cpp, this is a file
// outside the layer and the engine that spells rl::, because measuring raw
// Relacy is its purpose.
//
// What it models, step for step as models/dcache/ does for that scenario
// (config o_creat_lock shared; publish d_splice_alias, revalidate nfs,
// ->atomic_open, the correct protocol), one name "foo", an empty directory
// and an empty server:
//   P0: open("foo", O_CREAT) with i_rwsem shared (atomic_open_create_shared
//       reads sb->s_iflags), P1: open("foo") without O_CREAT; each then
//       closes (dput).
//   lookup_open: down_read, d_lookup (rcu walk + d_lock + d_unhashed),
//   d_alloc_parallel (i_dir_seq sample with acquire, __d_lookup_rcu with
//   d_seq, lockref_get_not_dead, read_seqcount_retry, parity, in-lookup
//   bucket bit lock, i_dir_seq re-check, chain scan, d_wait_lookup on the
//   owner's wait queue, the d_unhashed re-check, publish), d_revalidate
//   (nfs: a negative is valid for LOOKUP_CREATE only), the seed's rejection
//   of a valid hashed negative under the shared lock (d_invalidate + dput),
//   nfs_atomic_open (one server RPC step; d_drop + d_splice_alias on
//   success, d_drop + d_splice_alias(NULL) on -ENOENT), __d_add
//   (start_dir_add, __d_lookup_unhash, d_set_inode under d_seq, __d_rehash,
//   end_dir_add with its wake), d_lookup_done, dput (lockref fast path,
//   retain a hashed dentry, __dentry_kill of an unhashed one), up_read.
//   Under the `kernel` memory model the orders are those of vfsmc's table
//   (READ_ONCE relaxed, value-returning atomics seq_cst between two seq_cst
//   fences, locks acquire/release, lockref's cmpxchg relaxed, rcu_read_lock
//   and unlock as acquire/release RMWs of a grace-period word); under `sc`
//   every access is seq_cst, as the layer's `sc` column has it.
//   Every marked access and every atomic RMW is one scheduling point, as in
//   the layer; plain accesses are not (rl::var where only plain accesses
//   touch a field; a relaxed load or store with preemption disabled where a
//   field is accessed both ways), and a lockref cmpxchg loop is one step.
//
// What it leaves out (cheaper than the layer, or not needed to compare
// the cost of one execution):
//   - Blocking is coarser: a lock, start_dir_add, d_wait_lookup and the
//     d_alloc_parallel `goto retry` loop park the thread until the other
//     thread writes anything (the layer: until it writes what the waiter
//     read), or spin once when the other thread is parked or done; so an
//     execution with contention may take a few more steps than the layer's
//     (the bench prints the steps per execution of both).
//   - i_rwsem is a reader count taken with fetch_add (both threads take it
//     shared, so no writer ever waits).
//   - Dentries come from a fixed pool reset in before() (no kalloc/kfree of
//     Relacy atomics); freeing is one store to a `freed` word after the RCU
//     grace period (a grace period is not waited for: the reader that could
//     still be inside its section is the other thread, and the step is the
//     same). No use-after-free check.
//   - Invariants: only those that cost nothing when they hold: the double
//     insertion of __d_rehash, the ref underflow of dput, a leaked
//     reference or in-lookup dentry at the end (RL_ASSERT). vfsmc also
//     checks one-hashed-dentry-per-name after every step, LKMM data races
//     on every plain access, create-exclusion, and records the trace, the
//     reads-from of every read and the step's dependencies.
//   - No trace, no object names, no coverage, no outcome hashing.
#include <chrono>
#include <ctime>
#include <fstream>

#pragma GCC diagnostic push  // Relacy's warnings are not ours (see checker/kernel/kernel.h)
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <relacy/relacy.hpp>
#pragma GCC diagnostic pop

#undef new
#undef delete

namespace {

bool g_sc = true;               // memory model: sc, or kernel
unsigned long long g_steps = 0;  // scheduling points taken, over the whole run
// Blocking: a waiting thread parks until the other thread writes anything.
unsigned g_parked = 0;           // bitmask of parked threads
unsigned g_done = 0;             // bitmask of finished threads

rl::memory_order M(rl::memory_order kernel) { return g_sc ? rl::mo_seq_cst : kernel; }

using A = rl::atomic<int>;
using V = rl::var<int>;

int me() { return (int)rl::ctx().threadx_->index_; }

// A write: parked threads look again.
void wake_all() {
    for (unsigned m = g_parked; m; m &= m - 1) rl::ctx().unpark_thread((rl::thread_id_t)__builtin_ctz(m), false, RL_INFO);
    g_parked = 0;
}
// cpu_relax: a later load may not return a value older than one seen
// before this point (as the layer's relax()).
void relax() {
    rl::thread_info_base& th = *rl::ctx().threadx_;
    th.last_yield_ = th.own_acq_rel_order_;
}
// The waiting thread's condition is false: park until the other thread
// writes (every wait here waits for a write of the other thread). If the
// other thread is finished or parked itself (a stale read can make a thread
// wait for what already happened), spin once instead.
void block() {
    relax();
    unsigned other = 1u << (1 - me());
    if ((g_done | g_parked) & other) {
        g_steps++;
        rl::yield(1, RL_INFO);
    } else {
        g_parked |= 1u << me();
        rl::ctx().park_current_thread(false, false, false, RL_INFO);
    }
    relax();
}

// A scheduling point, for an access done with preemption disabled (a
// conditional RMW or a cmpxchg loop that is one step, as in the layer).
void step() {
    g_steps++;
    rl::ctx().sched();
}
// One scheduling point each.
int ld(A& a, rl::memory_order mo) {
    g_steps++;
    return a.load(M(mo), RL_INFO);
}
void st(A& a, int v, rl::memory_order mo) {
    g_steps++;
    a.store(v, M(mo), RL_INFO);
    wake_all();
}
// A value-returning atomic: fully ordered (smp_mb before and after) under
// the kernel model.
template <class F>
int rmw_full(A& a, F f) {
    step();
    rl::preemption_disabler pd(rl::ctx());
    if (!g_sc) rl::atomic_thread_fence(rl::mo_seq_cst, RL_INFO);
    int old = f(a, rl::mo_seq_cst);
    if (!g_sc) rl::atomic_thread_fence(rl::mo_seq_cst, RL_INFO);
    wake_all();
    return old;
}
// A plain access to a field that is also accessed marked: no scheduling point.
int pl(A& a) {
    rl::preemption_disabler pd(rl::ctx());
    return a.load(M(rl::mo_relaxed), RL_INFO);
}
void pst(A& a, int v) {
    rl::preemption_disabler pd(rl::ctx());
    a.store(v, M(rl::mo_relaxed), RL_INFO);
    wake_all();
}
void fence(rl::memory_order kernel) { rl::atomic_thread_fence(M(kernel), RL_INFO); }

constexpr int DCACHE_PAR_LOOKUP = 1;
constexpr int LOOKUP_OPEN = 0x0100;
constexpr int LOOKUP_CREATE = 0x0200;
constexpr int LOCKREF_DEAD = -128;
constexpr int kPool = 8;
constexpr int kFoo = 0;  // the one name

// A spin lock word: 0 free, 1 held.
struct SpinLock {
    A word;
    void lock() {
        for (;;) {
            int exp = 0;
            g_steps++;
            if (word.compare_exchange_strong(exp, 1, M(rl::mo_acquire), RL_INFO)) return wake_all();
            block();
        }
    }
    void unlock() {
        g_steps++;
        word.exchange(0, M(rl::mo_release), RL_INFO);
        wake_all();
    }
};

struct Dentry {
    V d_name_hash;
    A d_lockref;  // count * 2 + locked
    V d_flags;
    V d_inode;    // -1: negative
    A d_seq;
    A d_hash_pprev;  // != 0: hashed
    A d_hash_next;
    V d_in_lookup_next;
    V d_wait;     // the owner thread's wait queue, or -1
    A freed;
};

struct WaitQueue {
    A waiters;  // bitmask of threads
    A woken;
};

template <int N>
struct RawDcache : rl::test_suite<RawDcache<N>, N> {
    A s_iflags;
    A i_rwsem;
    A i_dir_seq;
    SpinLock main_lock;  // dentry_hashtable["foo"] bit lock
    A main_first;
    SpinLock inl_lock;   // in_lookup_hashtable["foo"] bit lock
    V inl_first;
    A server_entry;      // the inode of "foo" on the server, or -1
    A gp;                // the grace-period word (kernel model only)
    WaitQueue wq[N];
    Dentry pool[kPool];
    int ndentries;
    int rcu_nest[N];

    void before() {
        rl::preemption_disabler pd(rl::ctx());
        s_iflags.store(0, rl::mo_relaxed, RL_INFO);
        i_rwsem.store(0, rl::mo_relaxed, RL_INFO);
        i_dir_seq.store(0, rl::mo_relaxed, RL_INFO);
        main_lock.word.store(0, rl::mo_relaxed, RL_INFO);
        main_first.store(-1, rl::mo_relaxed, RL_INFO);
        inl_lock.word.store(0, rl::mo_relaxed, RL_INFO);
        inl_first(RL_INFO) = -1;
        server_entry.store(-1, rl::mo_relaxed, RL_INFO);
        gp.store(0, rl::mo_relaxed, RL_INFO);
        for (int t = 0; t < N; t++) {
            wq[t].waiters.store(0, rl::mo_relaxed, RL_INFO);
            wq[t].woken.store(0, rl::mo_relaxed, RL_INFO);
            rcu_nest[t] = 0;
        }
        ndentries = 0;
        g_parked = 0;
        g_done = 0;
    }

    void after() {
        // ref-leak: every dentry ends with no reference and not in-lookup.
        for (int i = 0; i < ndentries; i++) {
            Dentry& d = pool[i];
            if (d.freed.load(rl::mo_relaxed, RL_INFO)) continue;
            int w = d.d_lockref.load(rl::mo_relaxed, RL_INFO);
            RL_ASSERT(w >> 1 == 0);
            RL_ASSERT((d.d_flags(RL_INFO).load() & DCACHE_PAR_LOOKUP) == 0);
        }
    }


    // <linux/rcupdate.h>: acquire/release RMWs of the grace-period word
    // under the kernel model, inside the step that contains them.
    void rcu_read_lock() {
        if (rcu_nest[me()]++ == 0 && !g_sc) {
            rl::preemption_disabler pd(rl::ctx());
            gp.fetch_add(0, rl::mo_acquire, RL_INFO);
        }
    }
    void rcu_read_unlock() {
        if (--rcu_nest[me()] == 0 && !g_sc) {
            rl::preemption_disabler pd(rl::ctx());
            gp.fetch_add(0, rl::mo_release, RL_INFO);
        }
    }

    // <linux/lockref.h>
    void lockref_lock(Dentry& d) {
        for (;;) {
            {
                step();
                rl::preemption_disabler pd(rl::ctx());
                int v = d.d_lockref.fetch_add(0, rl::mo_relaxed, RL_INFO);
                if (!(v & 1) && d.d_lockref.compare_exchange_strong(v, v | 1, M(rl::mo_acquire), RL_INFO)) return wake_all();
            }
            block();
        }
    }
    void lockref_unlock(Dentry& d) {
        g_steps++;
        d.d_lockref.fetch_and(~1, M(rl::mo_release), RL_INFO);
        wake_all();
    }
    int lockref_count_locked(Dentry& d) { return pl(d.d_lockref) >> 1; }
    void lockref_set_count_locked(Dentry& d, int c) {
        RL_ASSERT(c >= 0);
        pst(d.d_lockref, c * 2 + 1);
    }
    // CMPXCHG_LOOP: one relaxed cmpxchg while unlocked, as one step.
    template <class Op>
    bool lockref_fast(Dentry& d, Op op, int* oldp) {
        step();
        rl::preemption_disabler pd(rl::ctx());
        int v = d.d_lockref.load(rl::mo_relaxed, RL_INFO);
        for (;;) {
            *oldp = v;
            if (v & 1) return false;
            int c = v >> 1;
            if (!op(c)) return false;
            if (d.d_lockref.compare_exchange_strong(v, c * 2, M(rl::mo_relaxed), RL_INFO)) {
                wake_all();
                return true;
            }
        }
    }
    bool lockref_get_not_dead(Dentry& d) {
        int old;
        if (lockref_fast(d, [](int& c) { if (c < 0) return false; c++; return true; }, &old)) return true;
        if (!(old & 1) && (old >> 1) < 0) return false;
        lockref_lock(d);
        bool ok = false;
        int c = lockref_count_locked(d);
        if (c >= 0) {
            lockref_set_count_locked(d, c + 1);
            ok = true;
        }
        lockref_unlock(d);
        return ok;
    }
    int lockref_put_return(Dentry& d) {
        int old;
        if (!lockref_fast(d, [](int& c) { if (c <= 0) return false; c--; return true; }, &old)) return -1;
        return (old >> 1) - 1;
    }

    // <linux/seqlock.h>
    void write_seqcount_begin(A& s) {
        st(s, pl(s) + 1, rl::mo_relaxed);
        fence(rl::mo_release);
    }
    void write_seqcount_end(A& s) {
        fence(rl::mo_release);
        st(s, pl(s) + 1, rl::mo_relaxed);
    }
    void write_seqcount_invalidate(A& s) {
        fence(rl::mo_release);
        st(s, pl(s) + 2, rl::mo_relaxed);
    }

    // <linux/wait.h>
    void wake_up_all(WaitQueue& q) {
        int w = rmw_full(q.waiters, [](A& a, rl::memory_order mo) { return a.exchange(0, mo, RL_INFO); });
        rmw_full(q.woken, [&](A& a, rl::memory_order mo) { return a.fetch_or(w, mo, RL_INFO); });
    }

    Dentry& d_alloc(int flags) {
        RL_ASSERT(ndentries < kPool);
        Dentry& d = pool[ndentries++];
        {
            rl::preemption_disabler pd(rl::ctx());  // private until published: one step with the caller's
            d.d_lockref.store(2, rl::mo_relaxed, RL_INFO);
            d.d_seq.store(0, rl::mo_relaxed, RL_INFO);
            d.d_hash_pprev.store(0, rl::mo_relaxed, RL_INFO);
            d.d_hash_next.store(-1, rl::mo_relaxed, RL_INFO);
            d.freed.store(0, rl::mo_relaxed, RL_INFO);
        }
        d.d_flags(RL_INFO) = flags;
        d.d_inode(RL_INFO) = -1;
        d.d_in_lookup_next(RL_INFO) = -1;
        d.d_wait(RL_INFO) = -1;
        d.d_name_hash(RL_INFO) = kFoo;
        return d;
    }
    int id(Dentry& d) const { return (int)(&d - pool); }
    Dentry* D(int i) { return i >= 0 ? &pool[i] : nullptr; }
    bool d_in_lookup(Dentry& d) { return d.d_flags(RL_INFO).load() & DCACHE_PAR_LOOKUP; }
    bool d_unhashed(Dentry& d) { return pl(d.d_hash_pprev) == 0; }
    bool d_really_is_negative(Dentry& d) { return d.d_inode(RL_INFO).load() < 0; }

    // __d_lookup_rcu, with rcu_dereference as acquire (the model's default).
    int d_lookup_rcu(unsigned* dseq) {
        for (int i = ld(main_first, rl::mo_acquire); i >= 0; i = ld(D(i)->d_hash_next, rl::mo_acquire)) {
            Dentry& d = pool[i];
            unsigned seq = (unsigned)ld(d.d_seq, rl::mo_acquire) & ~1u;
            if (d.d_name_hash(RL_INFO).load() != kFoo) continue;
            if (ld(d.d_hash_pprev, rl::mo_relaxed) == 0) continue;
            *dseq = seq;
            return i;
        }
        return -1;
    }

    Dentry* d_lookup() {
        Dentry* found = nullptr;
        rcu_read_lock();
        for (int i = ld(main_first, rl::mo_acquire); i >= 0; i = ld(D(i)->d_hash_next, rl::mo_acquire)) {
            Dentry& d = pool[i];
            if (d.d_name_hash(RL_INFO).load() != kFoo) continue;
            lockref_lock(d);
            if (d_unhashed(d)) {
                lockref_unlock(d);
                continue;
            }
            lockref_set_count_locked(d, lockref_count_locked(d) + 1);
            lockref_unlock(d);
            found = &d;
            break;
        }
        rcu_read_unlock();
        return found;
    }

    void d_rehash_locked(Dentry& d) {
        main_lock.lock();
        RL_ASSERT(d_unhashed(d));  // one-hashed-dentry-per-name: never added twice
        int first = pl(main_first);
        st(d.d_hash_next, first, rl::mo_relaxed);
        st(d.d_hash_pprev, 1, rl::mo_relaxed);
        st(main_first, id(d), rl::mo_release);
        main_lock.unlock();
    }

    void d_drop_locked(Dentry& d) {
        if (d_unhashed(d)) return;
        main_lock.lock();
        int next = pl(d.d_hash_next);
        int cur = pl(main_first);
        if (cur == id(d)) {
            st(main_first, next, rl::mo_relaxed);
        } else {
            while (cur >= 0) {
                int n = pl(D(cur)->d_hash_next);
                if (n == id(d)) {
                    st(D(cur)->d_hash_next, next, rl::mo_relaxed);
                    break;
                }
                cur = n;
            }
        }
        main_lock.unlock();
        st(d.d_hash_pprev, 0, rl::mo_relaxed);
        write_seqcount_invalidate(d.d_seq);
    }

    void d_drop(Dentry& d) {
        lockref_lock(d);
        d_drop_locked(d);
        lockref_unlock(d);
    }
    void d_invalidate(Dentry& d) {
        lockref_lock(d);
        if (d_unhashed(d)) {
            lockref_unlock(d);
            return;
        }
        d_drop_locked(d);
        lockref_unlock(d);
    }

    unsigned start_dir_add() {
        for (;;) {
            unsigned n = (unsigned)ld(i_dir_seq, rl::mo_relaxed);
            if (!(n & 1)) {
                int exp = (int)n;
                bool ok = rmw_full(i_dir_seq, [&](A& a, rl::memory_order mo) {
                    return (int)a.compare_exchange_strong(exp, (int)n + 1, mo, RL_INFO);
                });
                if (ok) return n;
            }
            block();
        }
    }
    void end_dir_add(unsigned n, int w) {
        st(i_dir_seq, (int)n + 2, rl::mo_release);
        if (w < 0) return;
        fence(rl::mo_seq_cst);
        if (ld(wq[w].waiters, rl::mo_relaxed) != 0) wake_up_all(wq[w]);
    }

    int d_lookup_unhash(Dentry& d) {
        inl_lock.lock();
        d.d_flags(RL_INFO) = d.d_flags(RL_INFO).load() & ~DCACHE_PAR_LOOKUP;
        int next = d.d_in_lookup_next(RL_INFO);
        int cur = inl_first(RL_INFO);
        if (cur == id(d)) {
            inl_first(RL_INFO) = next;
        } else {
            while (cur >= 0) {
                int nx = D(cur)->d_in_lookup_next(RL_INFO);
                if (nx == id(d)) {
                    D(cur)->d_in_lookup_next(RL_INFO) = next;
                    break;
                }
                cur = nx;
            }
        }
        int w = d.d_wait(RL_INFO);
        d.d_wait(RL_INFO) = -1;
        inl_lock.unlock();
        return w;
    }

    void d_lookup_done(Dentry& d) {
        if (!d_in_lookup(d)) return;
        lockref_lock(d);
        int w = d_lookup_unhash(d);
        if (w >= 0) wake_up_all(wq[w]);
        lockref_unlock(d);
    }

    // __d_add via d_splice_alias.
    void d_splice_alias(int ino, Dentry& d) {
        lockref_lock(d);
        bool inl = d_in_lookup(d);
        unsigned n = 0;
        int w = -1;
        if (inl) {
            n = start_dir_add();
            w = d_lookup_unhash(d);
        }
        if (ino >= 0) {
            write_seqcount_begin(d.d_seq);
            d.d_inode(RL_INFO) = ino;
            write_seqcount_end(d.d_seq);
        }
        d_rehash_locked(d);
        if (inl) end_dir_add(n, w);
        lockref_unlock(d);
    }

    void dput(Dentry& d) {
        rcu_read_lock();
        int r = lockref_put_return(d);
        if (r > 0) {
            rcu_read_unlock();
            return;
        }
        if (r < 0) {
            lockref_lock(d);
            int c = lockref_count_locked(d);
            RL_ASSERT(c > 0);  // dentry-ref-underflow
            lockref_set_count_locked(d, c - 1);
        } else {
            lockref_lock(d);
        }
        if (lockref_count_locked(d) != 0 || !d_unhashed(d)) {
            lockref_unlock(d);
            rcu_read_unlock();
            return;
        }
        rcu_read_unlock();
        // __dentry_kill; dentry_free after a grace period.
        pst(d.d_lockref, LOCKREF_DEAD * 2 + 1);
        lockref_unlock(d);
        if (!g_sc) {
            rl::preemption_disabler pd(rl::ctx());
            gp.fetch_add(1, rl::mo_acq_rel, RL_INFO);
        }
        st(d.freed, 1, rl::mo_relaxed);  // kfree: its scheduling point
    }

    void d_wait_lookup(Dentry& d) {
        if (!d_in_lookup(d)) return;
        WaitQueue& q = wq[d.d_wait(RL_INFO).load()];
        int bit = 1 << me();
        do {
            rmw_full(q.woken, [&](A& a, rl::memory_order mo) { return a.fetch_and(~bit, mo, RL_INFO); });
            rmw_full(q.waiters, [&](A& a, rl::memory_order mo) { return a.fetch_or(bit, mo, RL_INFO); });
            lockref_unlock(d);
            // schedule(): until woken. The layer parks here; this spins.
            while (!(pl(q.woken) & bit)) block();
            rmw_full(q.woken, [&](A& a, rl::memory_order mo) { return a.fetch_and(~bit, mo, RL_INFO); });
            lockref_lock(d);
        } while (d_in_lookup(d));
        rmw_full(q.waiters, [&](A& a, rl::memory_order mo) { return a.fetch_and(~bit, mo, RL_INFO); });
    }

    Dentry& d_alloc_parallel() {
        Dentry& nw = d_alloc(DCACHE_PAR_LOOKUP);
        for (bool again = false;; again = true) {
            if (again) block();  // `goto retry`: the layer parks until what the pass read changes
            rcu_read_lock();
            unsigned seq = (unsigned)ld(i_dir_seq, rl::mo_acquire);
            unsigned dseq = 0;
            int hit = d_lookup_rcu(&dseq);
            if (hit >= 0) {
                Dentry& h = pool[hit];
                if (!lockref_get_not_dead(h)) {
                    rcu_read_unlock();
                    continue;
                }
                fence(rl::mo_acquire);  // read_seqcount_retry: smp_rmb
                if ((unsigned)ld(h.d_seq, rl::mo_relaxed) != dseq) {
                    rcu_read_unlock();
                    dput(h);
                    continue;
                }
                rcu_read_unlock();
                dput(nw);
                return h;
            }
            if (seq & 1) {
                rcu_read_unlock();
                continue;
            }
            inl_lock.lock();
            if ((unsigned)ld(i_dir_seq, rl::mo_relaxed) != seq) {
                inl_lock.unlock();
                rcu_read_unlock();
                continue;
            }
            Dentry* m = nullptr;
            for (int i = inl_first(RL_INFO); i >= 0; i = D(i)->d_in_lookup_next(RL_INFO))
                if (D(i)->d_name_hash(RL_INFO).load() == kFoo) {
                    m = D(i);
                    break;
                }
            if (m) {
                inl_lock.unlock();
                if (!lockref_get_not_dead(*m)) {
                    rcu_read_unlock();
                    continue;
                }
                rcu_read_unlock();
                lockref_lock(*m);
                d_wait_lookup(*m);
                if (d_unhashed(*m)) {
                    lockref_unlock(*m);
                    dput(*m);
                    continue;
                }
                lockref_unlock(*m);
                dput(nw);
                return *m;
            }
            rcu_read_unlock();
            nw.d_wait(RL_INFO) = me();
            nw.d_in_lookup_next(RL_INFO) = inl_first(RL_INFO).load();
            inl_first(RL_INFO) = id(nw);
            inl_lock.unlock();
            return nw;
        }
    }

    int d_revalidate(Dentry& d, int flags) {
        if (!d_really_is_negative(d)) return 1;
        if (flags & LOOKUP_CREATE) return 1;
        if (flags & LOOKUP_OPEN) return 0;
        return 1;
    }

    // One RPC: OPEN(CREATE) creates the entry when absent; OPEN reads it.
    int server_rpc(bool create) {
        const int ino = 100;
        return rmw_full(server_entry, [&](A& a, rl::memory_order mo) {
            int exp = -1;
            if (create && a.compare_exchange_strong(exp, ino, mo, RL_INFO)) return ino;
            return create ? exp : a.fetch_add(0, mo, RL_INFO);
        });
    }

    // nfs_atomic_open + atomic_open; returns the opened dentry or nullptr.
    Dentry* atomic_open(Dentry& d, bool creat) {
        int ino = server_rpc(creat);
        int err = 0;
        if (ino < 0) {
            d_drop(d);
            d_splice_alias(-1, d);
            err = -2;
        } else {
            d_drop(d);
            d_splice_alias(ino, d);
        }
        d_lookup_done(d);
        if (err) {
            dput(d);
            return nullptr;
        }
        return &d;
    }

    Dentry* lookup_open(bool creat) {
        int nd_flags = LOOKUP_OPEN | (creat ? LOOKUP_CREATE : 0);
        bool create_shared = creat && !(ld(s_iflags, rl::mo_relaxed) & 1);
        g_steps++;
        i_rwsem.fetch_add(1, M(rl::mo_acquire), RL_INFO);  // down_read
        Dentry* d = d_lookup();
        for (;;) {
            if (!d) d = &d_alloc_parallel();
            if (d_in_lookup(*d)) break;
            int r = d_revalidate(*d, nd_flags);
            if (r > 0 && (!create_shared || !d_really_is_negative(*d))) break;
            d_invalidate(*d);
            dput(*d);
            d = nullptr;
        }
        Dentry* ret = d;
        if (d_really_is_negative(*d)) ret = atomic_open(*d, creat);
        g_steps++;
        i_rwsem.fetch_sub(1, M(rl::mo_release), RL_INFO);
        wake_all();
        return ret;
    }

    void thread(unsigned t) {
        Dentry* d = lookup_open(t == 0);
        if (d) dput(*d);
        g_done |= 1u << t;
    }
};

}  // namespace

// Runs the raw dcache model under Relacy's random scheduler for `iterations`
// executions; returns the CPU seconds it took and the scheduling points per
// execution.
void raw_dcache(bool sc, unsigned long long iterations, double& cpu_seconds, double& steps_per_exec) {
    static std::ofstream devnull("/dev/null");
    g_sc = sc;
    g_steps = 0;
    rl::test_params p;
    p.output_stream = &devnull;
    p.progress_stream = &devnull;
    p.search_type = rl::sched_random;
    p.iteration_count = (int)iterations;
    p.execution_depth_limit = 200000;
    std::clock_t c0 = std::clock();
    bool ok = rl::simulate<RawDcache<2>>(p);
    cpu_seconds = double(std::clock() - c0) / CLOCKS_PER_SEC;
    steps_per_exec = iterations ? double(g_steps) / double(iterations) : 0;
    if (!ok) cpu_seconds = -1;  // an assertion failed: the model is wrong, not slow
}
