// Test-only protocols for the engine's own tests and the benchmark: a lock
// (correct, and a broken test-then-set) and message passing (with and
// without release/acquire). They are not kernel models and are linked only
// into the test and bench binaries.
#include <algorithm>

#include "contract/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace {

// A toy's config keeps each thread's first eight ops by index.
template <class Cfg>
void take_ops(Cfg& cfg, const Scenario& sc) {
    for (size_t t = 0; t < sc.threads.size(); t++) {
        cfg.nops[t] = (int)std::min<size_t>(8, sc.threads[t].ops.size());
        for (int i = 0; i < cfg.nops[t]; i++) cfg.ops[t][i] = sc.threads[t].ops[i].op;
    }
}

// The toy models' invariants: rows of the test binary's own, not of the
// production table (contract/invariants.h).
const ExtraInvariants kToyInvariants = {
    {"toy-mutual-exclusion", "test", "test-only: two threads inside the toy critical section at once"},
    {"toy-message-passing", "test", "test-only: the consumer saw the flag but not the data"},
    {"toy-lost-update", "test", "test-only: an increment of the toy counter was lost", "forbids"},
    {"toy-store-buffering", "test", "test-only: in the store-buffering shape both threads read the other's flag as 0", "forbids"},
    {"toy-first-ends-last", "test", "test-only: a ticket thread that started first ended last", "forbids"},
};

// ---- toy-lock --------------------------------------------------------------
struct ToyLockCfg {
    bool broken = false;
};

struct ToyLockRun : ModelRun {
    const ToyLockCfg& cfg;
    kobj box{"toy", "box"};
    spinlock_t lock{&box, "lock"};
    kfield<int> flag{&box, "flag", 0};
    kfield<int> inside{&box, "inside", 0};
    explicit ToyLockRun(const ToyLockCfg& c) : cfg(c) {}

    void critical_section() {
        KFUNC("critical_section");
        if (!cfg.broken) {
            spin_lock(lock);
        } else {
            // Broken: test, then set, as two steps.
            wait_until("test_then_set", box.id, false, [&] { return READ_ONCE(flag) == 0; });
            WRITE_ONCE(flag, 1);
        }
        int n = READ_ONCE(inside);
        WRITE_ONCE(inside, n + 1);
        KWARN_ON(inside.peek() != 1, "toy-mutual-exclusion", "two threads are inside the critical section");
        WRITE_ONCE(inside, READ_ONCE(inside) - 1);
        if (!cfg.broken) spin_unlock(lock);
        else WRITE_ONCE(flag, 0);
    }
    void thread(int) override { critical_section(); }
    void check_step() override {
        if (inside.peek() > 1)
            violate(this_thread(), "toy-mutual-exclusion", nullptr, 0, "inside = %d", inside.peek());
    }
    void final_state(std::string& out) const override {
        out += "box: inside " + std::to_string(inside.peek()) + ", flag " + std::to_string(flag.peek()) + "\n";
    }
};

struct ToyLock : Model {
    ModelSpec s;
    ToyLockCfg cfg;
    ToyLock() {
        s.name = "toy-lock";
        s.doc = "test-only: a critical section under a spinlock, or under a broken test-then-set";
        s.follows = "nothing in the kernel; a test protocol for the engine";
        s.ops = {{"critical_section", "enter and leave the critical section", {}}};
        FieldSpec v;
        v.name = "variant";
        v.type = ArgType::Enum;
        v.allowed = {"correct", "broken"};
        v.def = "correct";
        v.doc = "spin_lock, or test-then-set";
        s.knobs = {v};
        s.invariants = {"toy-mutual-exclusion"};
        s.steps = {"critical_section"};
        s.min_threads = 1;
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario& sc) override { cfg.broken = sc.knob("variant").s == "broken"; }
    ModelRun* start() override { return make_run<ToyLockRun>(cfg); }
};

// ---- toy-mp: message passing -------------------------------------------------
struct ToyMpCfg {
    bool ordered = true;
    int nops[kMaxThreads] = {};
    int ops[kMaxThreads][8] = {};  // 0 produce, 1 consume
};

struct ToyMpRun : ModelRun {
    const ToyMpCfg& cfg;
    kobj box{"toy", "msg"};
    kfield<int> data{&box, "data", 0};
    kfield<int> flag{&box, "flag", 0};
    explicit ToyMpRun(const ToyMpCfg& c) : cfg(c) {}

    void produce() {
        KFUNC("produce");
        WRITE_ONCE(data, 42);
        if (cfg.ordered) smp_store_release(flag, 1);
        else WRITE_ONCE(flag, 1);
    }
    void consume() {
        KFUNC("consume");
        int f = cfg.ordered ? smp_load_acquire(flag) : READ_ONCE(flag);
        if (!f) return;
        int d = READ_ONCE(data);
        KWARN_ON(d != 42, "toy-message-passing", "the consumer saw flag = 1 but data = %d", d);
    }
    void thread(int t) override {
        for (int i = 0; i < cfg.nops[t]; i++) {
            if (cfg.ops[t][i] == 0) produce();
            else consume();
        }
    }
    void final_state(std::string& out) const override {
        out += "msg: data " + std::to_string(data.peek()) + ", flag " + std::to_string(flag.peek()) + "\n";
    }
};

struct ToyMp : Model {
    ModelSpec s;
    ToyMpCfg cfg;
    ToyMp() {
        s.name = "toy-mp";
        s.doc = "test-only: message passing, thread 0 produces, the others consume";
        s.follows = "the LKMM MP litmus test";
        s.ops = {{"produce", "WRITE_ONCE(data, 42); publish flag", {}}, {"consume", "read flag, then data", {}}};
        FieldSpec v;
        v.name = "ordering";
        v.type = ArgType::Enum;
        v.allowed = {"release-acquire", "once"};
        v.def = "release-acquire";
        v.doc = "smp_store_release/smp_load_acquire, or WRITE_ONCE/READ_ONCE";
        s.knobs = {v};
        s.invariants = {"toy-message-passing"};
        s.steps = {"produce", "consume"};
        s.min_threads = 2;
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario& sc) override {
        cfg.ordered = sc.knob("ordering").s == "release-acquire";
        take_ops(cfg, sc);
    }
    ModelRun* start() override { return make_run<ToyMpRun>(cfg); }
};

// ---- toy-layer: shapes that pin down the layer's orders (issue 11) --------------
// Each op is one side of a litmus shape over the layer's primitives:
//   read_twice / write:     a recursive down_read with a writer in between
//                           (items 7: readers queue behind a waiting writer);
//   sb_left / sb_right:     store buffering around rcu_read_lock (item 12:
//                           rcu_read_lock is not a full fence);
//   ref_get / ref_put_both: a store before refcount_inc_not_zero, read by
//                           the thread whose refcount_dec_and_test reaches
//                           zero (item 11: inc_not_zero is unordered);
//   ref_put / ref_put_last: a store before a refcount_dec_and_test, read by
//                           the thread whose dec_and_test reaches zero
//                           (release, then acquire on success: ordered).
//   uaf_reader / uaf_freer: p = READ_ONCE(ptr), then a plain load of p->val,
//                           in one step, against WRITE_ONCE(ptr, NULL);
//                           kfree(p) (item 13: the load does not happen
//                           before the free, and kfree reports it);
//   uaf_reader_release / uaf_freer_acquire: the reader then publishes
//                           smp_store_release(done, 1); the freer frees only
//                           after smp_load_acquire(done) reads 1 (ordered).
struct ToyObj : kobj {
    kfield<int> val;
    ToyObj() : kobj("toy", "obj"), val(this, "val", 7) {}
};

struct ToyLayerRun : ModelRun {
    const std::vector<std::vector<int>>& ops;
    kobj box{"toy", "box"};
    rw_semaphore sem{&box, "sem"};
    kfield<int> x{&box, "x", 0};
    kfield<int> y{&box, "y", 0};
    kfield<int> data{&box, "data", 0};
    // Two references for ref_put/ref_put_last (each drops one), one for
    // ref_get/ref_put_both. A misuse would be a test bug: no invariant of its own.
    refcount_t ref{&box, "ref", init_refs(), "toy-message-passing"};
    ToyObj* obj = kalloc<ToyObj>();
    kfield<int> ptr{&box, "ptr", obj->id};
    kfield<int> done{&box, "done", 0};
    int r0 = -1, r1 = -1;
    int init_refs() const {
        for (const auto& t : ops)
            for (int o : t)
                if (o == 6) return 2;
        return 1;
    }
    explicit ToyLayerRun(const std::vector<std::vector<int>>& o) : ops(o) {}

    void op(int o) {
        switch (o) {
            case 0: {  // read_twice
                KFUNC("read_twice");
                down_read(sem);
                down_read(sem);
                up_read(sem);
                up_read(sem);
                break;
            }
            case 1: {  // write
                KFUNC("write");
                down_write(sem);
                up_write(sem);
                break;
            }
            case 2: {  // sb_left
                KFUNC("sb_left");
                WRITE_ONCE(x, 1);
                rcu_read_lock();
                r0 = READ_ONCE(y);
                rcu_read_unlock();
                break;
            }
            case 3: {  // sb_right
                KFUNC("sb_right");
                WRITE_ONCE(y, 1);
                rcu_read_lock();
                r1 = READ_ONCE(x);
                rcu_read_unlock();
                break;
            }
            case 4: {  // ref_get
                KFUNC("ref_get");
                WRITE_ONCE(data, 42);
                refcount_inc_not_zero(ref);
                break;
            }
            case 5: {  // ref_put_both: put the initial reference, then the one ref_get took
                KFUNC("ref_put_both");
                if (refcount_dec_and_test(ref)) break;  // ref_get has not run: nothing to see
                if (refcount_dec_and_test(ref)) {
                    int d = READ_ONCE(data);
                    KWARN_ON(d != 42, "toy-message-passing", "the last put saw ref_get's increment but data = %d", d);
                }
                break;
            }
            case 6: {  // ref_put
                KFUNC("ref_put");
                WRITE_ONCE(data, 42);
                refcount_dec_and_test(ref);
                break;
            }
            case 7: {  // ref_put_last
                KFUNC("ref_put_last");
                if (refcount_dec_and_test(ref)) {
                    int d = READ_ONCE(data);
                    KWARN_ON(d != 42, "toy-message-passing", "the last put saw the other put but data = %d", d);
                }
                break;
            }
            case 8: {  // uaf_reader
                KFUNC("uaf_reader");
                int p = READ_ONCE(ptr);
                if (p >= 0) r0 = plain_load(obj->val);
                break;
            }
            case 9: {  // uaf_freer
                KFUNC("uaf_freer");
                WRITE_ONCE(ptr, -1);
                kfree(obj);
                break;
            }
            case 10: {  // uaf_reader_release
                KFUNC("uaf_reader_release");
                int p = READ_ONCE(ptr);
                if (p >= 0) r0 = plain_load(obj->val);
                smp_store_release(done, 1);
                break;
            }
            case 11: {  // uaf_freer_acquire
                KFUNC("uaf_freer_acquire");
                if (smp_load_acquire(done) == 1) {
                    WRITE_ONCE(ptr, -1);
                    kfree(obj);
                }
                break;
            }
        }
    }
    void thread(int t) override {
        for (int o : ops[t]) op(o);
    }
    void check_final() override {
        KWARN_ON(r0 == 0 && r1 == 0, "toy-store-buffering", "both sides read 0 (rcu_read_lock ordered nothing)");
    }
    void final_state(std::string& out) const override {
        out += "box: r0 " + std::to_string(r0) + ", r1 " + std::to_string(r1) + ", ref " + std::to_string(ref.peek()) + "\n";
    }
};

struct ToyLayer : Model {
    ModelSpec s;
    std::vector<std::vector<int>> ops;
    ToyLayer() {
        s.name = "toy-layer";
        s.doc = "test-only: litmus shapes over the layer's rwsem, RCU and refcount_t orders";
        s.follows = "Documentation/core-api/refcount-vs-atomic.rst; the rwsem wait list; RCU read sections";
        for (const char* n : {"read_twice", "write", "sb_left", "sb_right", "ref_get", "ref_put_both", "ref_put", "ref_put_last",
                              "uaf_reader", "uaf_freer", "uaf_reader_release", "uaf_freer_acquire"})
            s.ops.push_back({n, "see tests/toy_models.cpp", {}});
        s.invariants = {"toy-store-buffering", "toy-message-passing"};
        s.steps = {"read_twice", "write", "sb_left", "sb_right", "ref_get", "ref_put_both", "ref_put", "ref_put_last",
                   "uaf_reader", "uaf_freer", "uaf_reader_one_step"};
        s.min_threads = 1;
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario& sc) override {
        ops.assign(sc.threads.size(), {});
        for (size_t t = 0; t < sc.threads.size(); t++)
            for (const auto& o : sc.threads[t].ops) ops[t].push_back(o.op);
    }
    ModelRun* start() override { return make_run<ToyLayerRun>(ops); }
};

// ---- toy-dpor: small programs whose Mazurkiewicz traces the DPOR test counts ----
// write_own: WRITE_ONCE(x[t], 1) (a location of the thread's own);
// write_shared: WRITE_ONCE(y, t + 1); locked_inc: spin_lock(l); c = READ_ONCE(cnt);
// WRITE_ONCE(cnt, c + 1); spin_unlock(l); rcu_reader: rcu_read_lock();
// WRITE_ONCE(x[t], 1); rcu_read_unlock(); rcu_read_y: rcu_read_lock();
// WRITE_ONCE(x[t], READ_ONCE(y) + 10); rcu_read_unlock(); sync_rcu:
// WRITE_ONCE(y, t + 1); synchronize_rcu(); WRITE_ONCE(y, t + 5); retry_y:
// a retry loop whose pass reads y and cnt (two steps) and starts over while
// y is 0, then WRITE_ONCE(x[t], y * 10 + cnt); rcu_use_ptr: rcu_read_lock();
// p = rcu_dereference(ptr); a plain load of p->val if p; WRITE_ONCE(x[t], ...);
// rcu_read_unlock(); rcu_use_after_unlock: the same with the load after
// rcu_read_unlock() (a use after free once a grace period may have ended);
// call_rcu_unpublish: rcu_assign_pointer(ptr, NULL); call_rcu(p) (free);
// lockref_get_set_y: lockref_get(lr); WRITE_ONCE(y, t + 1);
// read_y_get_not_zero: v = READ_ONCE(y); ok = lockref_get_not_zero(lr);
// WRITE_ONCE(x[t], v * 10 + ok) (under `kernel` it may see y = 1 and still
// read lr's count stale, 0: the fast path gives up and so does the slow one's
// test, x = 10); lockref_get_put: lockref_get(lr), then lockref_put_return(lr)
// or, when its fast path cannot, the count dropped under the lock;
// lockref_locked_twice: spin_lock; count++; spin_unlock, then spin_lock;
// count--; spin_unlock (four locked stores a stale lockref read can see);
// wq_wait: prepare_to_wait(wq); if (!READ_ONCE(y)) schedule(); finish_wait(wq);
// wq_wake: WRITE_ONCE(y, 1); smp_mb(); if (waitqueue_active(wq)) wake_up_all(wq)
// (wq_has_sleeper()); wq_wake_no_mb: the same without smp_mb() (the waker's
// load of the list may pass its store of y: a lost wakeup under `kernel`);
// locked_set_y: spin_lock(l); WRITE_ONCE(y, t + 1); spin_unlock(l) (the
// order of the critical sections is the final y); atomic_inc_n,
// atomic_dec_n: atomic_inc(n), atomic_dec(n), blind adds of a counter read
// by RMWs only (search/commute.h); dec_and_test_n:
// WRITE_ONCE(x[t], atomic_dec_and_test(n) ? 1 : 2), whose result is used;
// mb_inc_n: smp_mb(); atomic_inc(n) (the add's store publishes the barrier).
struct ToyDporCfg {
    int nops[kMaxThreads] = {};
    int ops[kMaxThreads][8] = {};
};

struct ToyDporRun : ModelRun {
    const ToyDporCfg& cfg;
    kobj box{"toy", "box"};
    kfield<int> x0{&box, "x0", 0}, x1{&box, "x1", 0}, x2{&box, "x2", 0}, x3{&box, "x3", 0};
    kfield<int> y{&box, "y", 0};
    kfield<int> cnt{&box, "cnt", 0};
    spinlock_t l{&box, "l"};
    ToyObj* obj = kalloc<ToyObj>();
    kfield<int> ptr{&box, "ptr", obj->id};
    lockref lr{&box, "lr", 0, nullptr, nullptr};
    wait_queue_head wq{&box, "wq"};
    atomic_t n{&box, "n", 0};
    explicit ToyDporRun(const ToyDporCfg& c) : cfg(c) {
        ptr.pointer();
        n.adds_commute();
    }
    void rcu_use(int t, bool after_unlock) {
        rcu_read_lock();
        int p = rcu_dereference(ptr);
        int v = -1;
        if (!after_unlock && p >= 0) v = plain_load(obj->val);
        rcu_read_unlock();
        if (after_unlock && p >= 0) v = plain_load(obj->val);
        WRITE_ONCE(own(t), v + 20);
    }
    kfield<int>& own(int t) { return t == 0 ? x0 : t == 1 ? x1 : t == 2 ? x2 : x3; }

    void thread(int t) override {
        for (int i = 0; i < cfg.nops[t]; i++) {
            switch (cfg.ops[t][i]) {
                case 0: WRITE_ONCE(own(t), 1); break;
                case 1: WRITE_ONCE(y, t + 1); break;
                case 3:
                    rcu_read_lock();
                    WRITE_ONCE(own(t), 1);
                    rcu_read_unlock();
                    break;
                case 4: {
                    rcu_read_lock();
                    int v = READ_ONCE(y);
                    WRITE_ONCE(own(t), v + 10);
                    rcu_read_unlock();
                    break;
                }
                case 5:
                    WRITE_ONCE(y, t + 1);
                    synchronize_rcu();
                    WRITE_ONCE(y, t + 5);
                    break;
                case 6: {
                    retry_loop retry;
                    for (bool again = false;; again = true) {
                        if (again) retry.again();
                        int v = READ_ONCE(y);
                        int c = READ_ONCE(cnt);
                        if (!v) continue;
                        WRITE_ONCE(own(t), v * 10 + c);
                        break;
                    }
                    break;
                }
                case 7: rcu_use(t, false); break;
                case 8: rcu_use(t, true); break;
                case 9:
                    rcu_assign_pointer(ptr, -1);
                    call_rcu_free(obj->id);
                    break;
                case 10:
                    lockref_get(lr);
                    WRITE_ONCE(y, t + 1);
                    break;
                case 11: {
                    int v = READ_ONCE(y);
                    bool ok = lockref_get_not_zero(lr);
                    WRITE_ONCE(own(t), v * 10 + (ok ? 1 : 0));
                    break;
                }
                case 12: {
                    lockref_get(lr);
                    int c = lockref_put_return(lr);
                    if (c < 0) {
                        lockref_lock(lr);
                        lockref_set_count_locked(lr, lockref_count_locked(lr) - 1);
                        lockref_unlock(lr);
                    }
                    break;
                }
                case 13:
                    for (int d : {1, -1}) {
                        lockref_lock(lr);
                        lockref_set_count_locked(lr, lockref_count_locked(lr) + d);
                        lockref_unlock(lr);
                    }
                    break;
                case 14:
                    prepare_to_wait(wq);
                    if (!READ_ONCE(y)) schedule_on(wq, "toy_wait", box.id, [&]() { return y.peek() != 0; });
                    finish_wait(wq);
                    break;
                case 15:
                case 16:
                    WRITE_ONCE(y, 1);
                    if (cfg.ops[t][i] == 15) smp_mb();
                    if (waitqueue_active(wq)) wake_up_all(wq);
                    break;
                case 17:
                    spin_lock(l);
                    WRITE_ONCE(y, t + 1);
                    spin_unlock(l);
                    break;
                case 18: atomic_inc(n); break;
                case 19: atomic_dec(n); break;
                case 20: WRITE_ONCE(own(t), atomic_dec_and_test(n) ? 1 : 2); break;
                case 21:
                    smp_mb();
                    atomic_inc(n);
                    break;
                default: {
                    spin_lock(l);
                    int c = READ_ONCE(cnt);
                    WRITE_ONCE(cnt, c + 1);
                    spin_unlock(l);
                }
            }
        }
    }
    void check_final() override {
        int want = 0;
        for (int t = 0; t < rt().nthreads; t++)
            for (int i = 0; i < cfg.nops[t]; i++) want += cfg.ops[t][i] == 2;
        if (cnt.peek() != want) violate(0, "toy-lost-update", nullptr, 0, "cnt = %d, want %d", cnt.peek(), want);
    }
    void final_state(std::string& out) const override {
        out += "y " + std::to_string(y.peek()) + ", cnt " + std::to_string(cnt.peek()) + ", x " + std::to_string(x0.peek()) +
                " " + std::to_string(x1.peek()) + " " + std::to_string(x2.peek()) + " " + std::to_string(x3.peek()) +
               ", lr " + std::to_string(lr.peek_count()) + ", n " + std::to_string(n.peek()) + "\n";
    }
};

struct ToyDpor : Model {
    ModelSpec s;
    ToyDporCfg cfg;
    ToyDpor() {
        s.name = "toy-dpor";
        s.doc = "test-only: writers, a locked counter and RCU readers, for counting Mazurkiewicz traces";
        s.follows = "the DPOR literature's standard examples";
        s.ops = {{"write_own", "WRITE_ONCE(x[t], 1)", {}},
                 {"write_shared", "WRITE_ONCE(y, t + 1)", {}},
                 {"locked_inc", "spin_lock(l); cnt++; spin_unlock(l)", {}},
                 {"rcu_reader", "rcu_read_lock(); WRITE_ONCE(x[t], 1); rcu_read_unlock()", {}},
                 {"rcu_read_y", "rcu_read_lock(); WRITE_ONCE(x[t], READ_ONCE(y) + 10); rcu_read_unlock()", {}},
                 {"sync_rcu", "WRITE_ONCE(y, t + 1); synchronize_rcu(); WRITE_ONCE(y, t + 5)", {}},
                 {"retry_y", "retry: v = READ_ONCE(y); c = READ_ONCE(cnt); if (!v) goto retry; WRITE_ONCE(x[t], v * 10 + c)", {}},
                 {"rcu_use_ptr", "rcu_read_lock(); p = rcu_dereference(ptr); WRITE_ONCE(x[t], p ? p->val + 20 : 19); rcu_read_unlock()", {}},
                 {"rcu_use_after_unlock", "rcu_read_lock(); p = rcu_dereference(ptr); rcu_read_unlock(); WRITE_ONCE(x[t], p ? p->val + 20 : 19)", {}},
                 {"call_rcu_unpublish", "rcu_assign_pointer(ptr, NULL); call_rcu(p, free)", {}},
                 {"lockref_get_set_y", "lockref_get(lr); WRITE_ONCE(y, t + 1)", {}},
                 {"read_y_get_not_zero", "v = READ_ONCE(y); ok = lockref_get_not_zero(lr); WRITE_ONCE(x[t], v * 10 + ok)", {}},
                 {"lockref_get_put", "lockref_get(lr); if (lockref_put_return(lr) < 0) { spin_lock; count--; spin_unlock }", {}},
                 {"lockref_locked_twice", "spin_lock; count++; spin_unlock; spin_lock; count--; spin_unlock", {}},
                 {"wq_wait", "prepare_to_wait(wq); if (!READ_ONCE(y)) schedule(); finish_wait(wq)", {}},
                 {"wq_wake", "WRITE_ONCE(y, 1); smp_mb(); if (waitqueue_active(wq)) wake_up_all(wq)", {}},
                 {"wq_wake_no_mb", "WRITE_ONCE(y, 1); if (waitqueue_active(wq)) wake_up_all(wq)", {}},
                 {"locked_set_y", "spin_lock(l); WRITE_ONCE(y, t + 1); spin_unlock(l)", {}},
                 {"atomic_inc_n", "atomic_inc(n)", {}},
                 {"atomic_dec_n", "atomic_dec(n)", {}},
                 {"dec_and_test_n", "WRITE_ONCE(x[t], atomic_dec_and_test(n) ? 1 : 2)", {}},
                 {"mb_inc_n", "smp_mb(); atomic_inc(n)", {}}};
        s.invariants = {"toy-lost-update"};
        s.min_threads = 1;
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario& sc) override {
        take_ops(cfg, sc);
    }
    ModelRun* start() override { return make_run<ToyDporRun>(cfg); }
};

// ---- toy-sym: threads the identical-threads rule folds (search/symmetry.h) ----
// write_y: WRITE_ONCE(y, 1); inc_y: WRITE_ONCE(y, READ_ONCE(y) + 1) (two
// steps); read_z_write_y: READ_ONCE(z); WRITE_ONCE(y, 1) (a read before
// the first write); own_then_y: WRITE_ONCE(x[t], 1); WRITE_ONCE(y, 1) (a
// first write no other thread's conflicts with); ticket: s = atomic_inc_return(start);
// e = atomic_inc_return(end), and the final check fails when the thread
// that started first ended last (s == 1, e == the number of ticket
// takers); ticket_plain: the same tickets, never checked. No value written
// and no check names a thread: two threads with the same ops can swap.
struct ToySymCfg {
    int nthreads = 0;
    int nops[kMaxThreads] = {};
    int ops[kMaxThreads][8] = {};
};

struct ToySymRun : ModelRun {
    const ToySymCfg& cfg;
    kobj box{"toy", "box"};
    kfield<int> y{&box, "y", 0};
    kfield<int> z{&box, "z", 0};
    kfield<int> x0{&box, "x0", 0}, x1{&box, "x1", 0}, x2{&box, "x2", 0}, x3{&box, "x3", 0};
    atomic_t start{&box, "start", 0};
    atomic_t end{&box, "end", 0};
    int first[kMaxThreads] = {}, last[kMaxThreads] = {};  // ghost: each ticket thread's tickets
    explicit ToySymRun(const ToySymCfg& c) : cfg(c) {}
    void thread(int t) override {
        for (int i = 0; i < cfg.nops[t]; i++) {
            switch (cfg.ops[t][i]) {
                case 0: WRITE_ONCE(y, 1); break;
                case 1: WRITE_ONCE(y, READ_ONCE(y) + 1); break;
                case 2:
                    (void)READ_ONCE(z);
                    WRITE_ONCE(y, 1);
                    break;
                case 5:
                    WRITE_ONCE(t == 0 ? x0 : t == 1 ? x1 : t == 2 ? x2 : x3, 1);
                    WRITE_ONCE(y, 1);
                    break;
                default:
                    first[t] = atomic_inc_return(start);
                    last[t] = atomic_inc_return(end);
                    if (cfg.ops[t][i] == 4) first[t] = last[t] = 0;
                    break;
            }
        }
    }
    void check_final() override {
        int takers = end.counter.peek();
        for (int t = 0; t < cfg.nthreads; t++)
            if (first[t] == 1 && last[t] == takers)
                violate(t, "toy-first-ends-last", nullptr, 0, "%s started first and ended last", thread_name(t));
    }
    void final_state(std::string& out) const override { out += "y " + std::to_string(y.peek()) + "\n"; }
};

struct ToySym : Model {
    ModelSpec s;
    ToySymCfg cfg;
    ToySym() {
        s.name = "toy-sym";
        s.doc = "test-only: identical threads, for the identical-threads rule";
        s.follows = "symmetry reduction's standard examples";
        s.ops = {{"write_y", "WRITE_ONCE(y, 1)", {}},
                 {"inc_y", "WRITE_ONCE(y, READ_ONCE(y) + 1)", {}},
                 {"read_z_write_y", "READ_ONCE(z); WRITE_ONCE(y, 1)", {}},
                 {"ticket", "s = atomic_inc_return(start); e = atomic_inc_return(end); first started ends last: violated", {}},
                 {"ticket_plain", "s = atomic_inc_return(start); e = atomic_inc_return(end)", {}},
                 {"own_then_y", "WRITE_ONCE(x[t], 1); WRITE_ONCE(y, 1)", {}}};
        s.invariants = {"toy-first-ends-last"};
        s.interchangeable_threads = true;
        s.min_threads = 1;
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario& sc) override {
        cfg.nthreads = (int)sc.threads.size();
        take_ops(cfg, sc);
    }
    ModelRun* start() override { return make_run<ToySymRun>(cfg); }
};

ModelRegistrar reg_lock(new ToyLock);
ModelRegistrar reg_sym(new ToySym);
ModelRegistrar reg_dpor(new ToyDpor);
ModelRegistrar reg_layer(new ToyLayer);
ModelRegistrar reg_mp(new ToyMp);

}  // namespace
}  // namespace vfsmc
