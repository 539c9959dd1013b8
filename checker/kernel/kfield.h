// vfsmc kernel vocabulary: kfield<T>: one word of shared state, the access every primitive is made of
// (which write each read saw, LKMM data races, DPOR keys).
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "kernel/slab.h"
#include "contract/mutations.h"

namespace vfsmc {

// Barriers that order a thread's earlier reads before its later ones
// (smp_mb, smp_rmb, value-returning atomics), counted per thread, for the
// race check's LKMM bound on plain reads (kfield::race_check).
unsigned read_fence_count(int t);
void note_read_fence();
// A load of a word declared read by RMWs only (kfield::adds_commute): an
// internal error, the run aborts.
[[noreturn]] void load_of_rmw_only_word(int owner, const char* name);

// Dependencies between a thread's accesses (the LKMM's addr, data and
// ctrl). The running thread's loads are numbered 0, 1, ... in program
// order; loads_done() is the number the next one gets. A front end that
// knows which loads the next access depends on says so
// (access_depends_on: bit k for load k, k < 64), and the access is ordered
// after what the stores those loads read published, as far as which store
// it may read, or where its store may go in coherence, is concerned
// (substrate/sim.h). Without that, the layer finds address dependencies
// itself: an access of a field of an object whose pointer a load of the
// thread returned depends on that load; and a store depends on every
// earlier load of its thread. `ctrl`: loads the access depends on by
// control only, which order an RMW's store and not its load. `addr`: of
// `loads`, those its address was computed from (a plain access with an
// address dependency on a marked load is bounded by it in the LKMM's
// data-race check).
unsigned loads_done();
void access_depends_on(uint64_t loads, uint64_t ctrl = 0, uint64_t addr = 0);
// Under load buffering, the running thread's next load makes no promise
// (on), or may again (off): a front end says so for a load whose thread's
// next operation is a full barrier (sim::next_load_makes_no_promise()).
void next_load_before_full_barrier(bool on);
// The running thread's next load would like to return `v` (a litmus
// test's condition asks it of the register the load goes to), or no
// longer (on = false). A sampling search favours the choice that returns
// it (sim::detail::g_wants); an exhaustive one explores as before.
void next_load_wants(bool on, long v);
void note_pointer_load(int t, int64_t obj);
// Thread t took (acquire) or released a spinlock, for the barriers that
// name a lock operation (smp_mb__after_spinlock, smp_mb__after_unlock_lock).
// `read_store`: the acquire read a store of the word other than its first.
void note_spinlock_op(int t, bool acquire, bool read_store);
// A spinlock's release is about to store (its state then: the before side
// of smp_mb__after_unlock_lock()).
void note_spin_unlock_begin(int t);
void describe_dependency(int t, int obj);
// Load buffering, for a front end that knows the values each location may
// hold (kfield::promisable): under `kernel`, a marked or plain load (not
// an acquire) may then return a value a later store of another thread
// writes, if that store is not ordered after the load. Called before the
// threads run, in each execution. An execution in which some such load's
// value was never written is not allowed: promises_kept() says so at its
// end.
void allow_load_buffering();
bool promises_kept();
// The program's plain accesses are scheduling points of their own, so
// that the outcomes of a program that races are all explored (a litmus
// test's, as herd7 lists them). Without it a plain access is part of the
// step before it (kfield::sched_before). Called before the threads run,
// in each execution.
void plain_accesses_interleave();
bool plain_accesses_are_steps();
// The program makes no C plain access and frees no object (a front end
// that knows its whole program says so): for dpor's observed-fence-order
// rule, a marked load of an initial value, or a read of an object's
// liveness, then bounds no access of any thread (search/fence_order.h).
// Called before the threads run, in each execution.
void accesses_all_marked();

// ------------------------------------------------------------------------
// kfield<T>: one word of shared state.
// ------------------------------------------------------------------------
template <class T>
class kfield {
    static_assert(sizeof(T) <= 4, "kfield holds a value of at most 32 bits");
    mutable sim::atomic<uint64_t> cell_;
    int16_t owner_;
    const char* name_;
    int64_t shadow_;       // latest value in modification order
    uint32_t shadow_tag_;  // write tag of the latest write (0 = initial)
    Word word_ = Word::Number;  // what its values are, for the trace (substrate/trace.h)
    mutable bool visible_ = false;  // the model's every-step invariant reads it
    bool deferred_ = false;         // built with deferred_init, init() not yet called
    bool adds_commute_ = false;     // read by RMWs only: its blind adds commute (adds_commute())
    Key key_;              // this field, for DPOR and watch sets (substrate/deps.h)
    Key alive_;            // its object's liveness
    // LKMM race bookkeeping: clock of each thread's last access of each kind.
    sim::timestamp_t plain_load_[kMaxThreads] = {}, plain_store_[kMaxThreads] = {};
    sim::timestamp_t marked_store_[kMaxThreads] = {}, marked_load_[kMaxThreads] = {};
    int32_t plain_load_ev_[kMaxThreads], plain_store_ev_[kMaxThreads];
    int32_t marked_store_ev_[kMaxThreads], marked_load_ev_[kMaxThreads];
    // Each thread's last kRecentLoads marked loads, under `kernel`: the
    // clock of each in the memory model, whether it acquires, its event
    // (sim::load_xb_before()).
    static constexpr unsigned kRecentLoads = 4;
    struct RecentLoad {
        sim::timestamp_t at;
        bool acq;
        int32_t ev;
    };
    RecentLoad recent_[kMaxThreads][kRecentLoads];
    uint32_t recent_n_[kMaxThreads] = {};
    // LKMM's bounding of a plain read (r-pre-bounded): a marked read of
    // this word that read thread rf_from_'s marked store (clock rf_stamp_),
    // then a full or read barrier in the reading thread, orders a later
    // plain read of the word after that store, although C++11 sees no
    // happens-before (the marked pair is relaxed).
    int8_t rf_from_[kMaxThreads];
    sim::timestamp_t rf_stamp_[kMaxThreads] = {};
    unsigned rf_fence_[kMaxThreads] = {};

    static uint64_t enc(uint32_t tag, T v) { return ((uint64_t)tag << 32) | (uint32_t)(int32_t)v; }
    static T dec(uint64_t w) { return (T)(int32_t)(uint32_t)w; }
    static uint32_t tag_of(uint64_t w) { return (uint32_t)(w >> 32); }

    // Write tags are event indices + 1; tag 0 is the initial value, and
    // kPromiseTag a value a later store must write (promisable).
    static constexpr uint32_t kPromiseTag = 0xffffffffu;
    static int ev_of_tag(uint32_t tag) { return tag == kPromiseTag ? -1 : (int)tag - 1; }

    // `bound`: what the access is ordered after through its address
    // dependencies on marked loads (sim::pre_bound()), or null.
    // `loaded`: a load's check, made after its access (sim::last_load_stamp()
    // is the load's), which read the store of trace event `read_ev`.
    void race_check(bool store, bool marked, const sim::timestamp_t* bound = nullptr, bool loaded = false, int read_ev = -1) {
        int me = sim::thread_index();
        int n = rt().nthreads;
        bool wmb_bounds = store && MUTATION("wmb-bounds-plain-accesses");
        auto knows = [&](int t) {
            sim::timestamp_t k = store ? sim::acquired_clock(t) : sim::load_clock(t);
            if (bound) k = std::max(k, bound[t]);
            if (marked) k = std::max(k, sim::marked_clock(t));
            return k;
        };
        auto conflict = [&](const sim::timestamp_t* ts, const int32_t* evs, const char* what) {
            bool post_bounded = store && !wmb_bounds && (ts == plain_store_ || ts == plain_load_);
            // A marked load and this plain store, under the LKMM: its own
            // question (sim::load_xb_before()).
            bool load_xb = ts == marked_load_ && rt().mm == MemModel::kernel;
            for (int i = 0; i < n; i++) {
                if (i == me || ts[i] == 0) continue;
                sim::timestamp_t known = knows(i);
                // A plain access is ordered before another thread's store
                // only through a release or a strong fence after it
                // (linux-kernel.cat's rw-xbstar), not through an smp_wmb().
                bool before = known >= ts[i] && (!post_bounded || sim::post_bound(i, ts[i]) <= known);
                int cause = evs[i];
                if (load_xb && !(before && MUTATION("wmb-bounds-marked-loads"))) {
                    // Each of the thread's last marked loads of the word:
                    // a later one may be ordered where an earlier is not.
                    before = true;
                    unsigned recent = MUTATION("race-check-last-marked-load-only") ? 1 : kRecentLoads;
                    for (unsigned k = 0; k < recent && k < recent_n_[i] && before; k++) {
                        const RecentLoad& l = recent_[i][(recent_n_[i] - 1 - k) % kRecentLoads];
                        before = sim::load_xb_before(i, l.at, l.acq, static_cast<const void*>(&cell_), n, knows,
                                                     !MUTATION("marked-load-rfe-unordered"));
                        cause = l.ev;
                    }
                }
                if (!before && ts == marked_store_ && rt().mm == MemModel::kernel && read_before(i, store, bound, marked))
                    continue;
                if (!before) {
                    if (!store && !marked && ts == marked_store_ && rf_from_[me] == i && rf_stamp_[me] >= ts[i] &&
                        read_fence_count(me) > rf_fence_[me])
                        continue;  // bounded by the marked read and the barrier after it (LKMM)
                    char msg[192];
                    std::snprintf(msg, sizeof msg, "%s %s.%s races with %s by %s (no happens-before)",
                                  marked ? (store ? "marked store to" : "marked load of") : (store ? "plain store to" : "plain load of"),
                                  object_name(owner_), name_, what, rt().thread_names[i]);
                    // A store whose race is with an access of thread i that
                    // ran early: the keep of i's promise decides (the store's
                    // own tick comes after its check). A load's race stays:
                    // a store's publication orders the loads before it by
                    // clock, not by barrier.
                    if (store && rt().mm == MemModel::kernel && sim::defer_race(i, cause, me, sim::clock_now() + 1, msg))
                        continue;
                    bool final_race = rt().mm == MemModel::kernel && sim::race_is_final(i, cause, me);
                    // A load, its race with an access that ran early
                    // bounded by a buffered load: the keep decides too (the
                    // load may be ordered before the store that keeps it,
                    // and so before the early access). When the load read
                    // that access, a keep that would order the two breaks
                    // plain coherence (wr-incoh), and is refused.
                    if (loaded && !final_race && rt().mm == MemModel::kernel) {
                        bool acq;
                        sim::timestamp_t ls = sim::last_load_stamp(&acq);
                        bool read = read_ev == cause && !MUTATION("early-load-race-read-deferred");
                        if (sim::defer_load_race(i, cause, me, ls, acq, static_cast<const void*>(&cell_), !marked, read, msg))
                            continue;
                    }
                    int c[1] = {cause};
                    if (!final_race) sim::note_flagged(i, cause);
                    violate(me, "data-race", c, 1, "%s", msg);
                    return true;
                }
            }
            return false;
        };
        if (!marked || store) {
            // Plain accesses conflict with everything; marked stores with plain loads.
            if (!marked && conflict(marked_store_, marked_store_ev_, "a marked store")) return;
            if (conflict(plain_store_, plain_store_ev_, "a plain store")) return;
            if (store && conflict(plain_load_, plain_load_ev_, "a plain load")) return;
            if (!marked && store && conflict(marked_load_, marked_load_ev_, "a marked load")) return;
        } else {
            if (conflict(plain_store_, plain_store_ev_, "a plain store")) return;
        }
    }
    // Under the LKMM a marked store happens before what happens after a
    // read of it by a third thread (rfe is in hb): is thread i's latest
    // marked store to this field (while the history keeps it) read by a
    // thread other than i and this one, at a point this access is ordered
    // after? A vector clock that knew the store would know everything
    // before it in its thread, so the race check asks the store's readers.
    bool read_before(int i, bool store, const sim::timestamp_t* bound, bool marked) const {
        int me = sim::thread_index();
        uint32_t tag = (uint32_t)(marked_store_ev_[i] + 1);
        if (marked_store_ev_[i] < 0) return false;
        const sim::timestamp_t* seen = cell_.first_seen_where([&](uint64_t w) { return tag_of(w) == tag; });
        if (!seen) return false;
        for (int j = 0; j < rt().nthreads; j++) {
            if (j == i || j == me || seen[j] == (sim::timestamp_t)-1) continue;
            sim::timestamp_t known = store ? sim::acquired_clock(j) : sim::load_clock(j);
            if (bound) known = std::max(known, bound[j]);
            if (marked) known = std::max(known, sim::marked_clock(j));
            if (known >= seen[j]) return true;
        }
        return false;
    }
    // The access's own clock tick, taken before the Relacy access, so that a
    // release the access performs carries it (a tick taken after would be
    // one past what the release published, and an acquirer would see a
    // race that is not there).
    static sim::timestamp_t race_stamp() { return sim::tick(); }
    void race_note(bool store, bool marked, int ev, sim::timestamp_t now) {
        int me = sim::thread_index();
        if (store) {
            (marked ? marked_store_ : plain_store_)[me] = now;
            (marked ? marked_store_ev_ : plain_store_ev_)[me] = ev;
        } else {
            (marked ? marked_load_ : plain_load_)[me] = now;
            (marked ? marked_load_ev_ : plain_load_ev_)[me] = ev;
            if (marked && rt().mm == MemModel::kernel) {
                RecentLoad& l = recent_[me][recent_n_[me]++ % kRecentLoads];
                l.at = sim::last_load_stamp(&l.acq);
                l.ev = ev;
            }
        }
    }
    void alive() const { check_alive(owner_, name_); }
    // The races with early accesses that the promise keep just made left
    // standing (sim::flag_due_races()).
    static void flag_due_races() {
        sim::flag_due_races([](int thread, int cause, const char* msg) { violate(thread, "data-race", &cause, 1, "%s", msg); });
    }
    StaleValue stale_value(int t, uint32_t read_tag) const { return {t, key_, owner_, name_, read_tag, shadow_tag_}; }
    // For DPOR: the running step reads (or writes) this field. A write to a
    // field the every-step invariant reads is also a write of kKeyVisible,
    // so that the explorer keeps every order of such writes.
    // `init`: a marked load that read the setup's store
    // (sim::load_read_setup()).
    void note_read(int t, int64_t seen, bool init = false) const {
        note_access(key_, false, init ? kQuietAll : kQuietNone);
        note_access(alive_, false, kQuietReads);
        watch_read(t, key_, &shadow_, seen);
    }
    void note_write(int t, int64_t before) {
        note_access(key_, true);
        note_access(alive_, false, kQuietReads);
        if (visible_) note_access(kKeyVisible, true);
        watch_own_write(t, key_, &shadow_, before);
        if (blocking().nparked) wake_watchers(t, key_);
    }
    static bool marked(Acc a) { return a != Acc::Plain; }
    // A C plain access, as the memory model sees it (sim::atomic::set_plain()).
    static bool plain_in_sim(Acc a) { return !marked(a) && !MUTATION("plain-rf-orders-others"); }
    // Every marked access is a step of its own; a plain access is part of
    // the step before it (see object_freeable above for why that hides no
    // use after free), unless the program asked for its plain accesses to
    // interleave (plain_accesses_interleave()).
    static bool sched_before(Acc a) { return marked(a) || plain_accesses_are_steps(); }
    void note_plain(bool store, int ev, sim::timestamp_t stamp) const {
        if (object_freeable(owner_)) note_plain_access(owner_, name_, store, ev, (uint64_t)stamp);
    }

public:
    kfield(const kobj* owner, const char* name, T init = T())
        : owner_(owner->id), name_(name), shadow_((int64_t)init), shadow_tag_(0),
          key_(field_key(owner->id, name)), alive_(alive_key(owner->id)) {
        cell_.store(enc(0, init), MemOrder::relaxed);
        for (int i = 0; i < kMaxThreads; i++) {
            plain_load_ev_[i] = plain_store_ev_[i] = marked_store_ev_[i] = marked_load_ev_[i] = -1;
            rf_from_[i] = -1;
        }
    }
    kfield(const kobj* owner, const char* name, deferred_init_t)
        : owner_(owner->id), name_(name), shadow_(0), shadow_tag_(0),
          key_(field_key(owner->id, name)), alive_(alive_key(owner->id)) {
        deferred_ = true;
        for (int i = 0; i < kMaxThreads; i++) {
            plain_load_ev_[i] = plain_store_ev_[i] = marked_store_ev_[i] = marked_load_ev_[i] = -1;
            rf_from_[i] = -1;
        }
    }
    // The first value of a field built with deferred_init: its initial
    // store, once, before any thread runs.
    void init(T v) {
        if (!deferred_ || rt().in_thread) throw std::logic_error("kfield::init: only once, on a deferred field, before the threads run");
        deferred_ = false;
        shadow_ = (int64_t)v;
        cell_.store(enc(0, v), MemOrder::relaxed);
    }
    kfield(const kfield&) = delete;

    const char* name() const { return name_; }
    int owner() const { return owner_; }
    // This field holds object ids (a kernel pointer; -1 is NULL): the trace
    // prints the object's name.
    kfield& pointer() {
        word_ = Word::Pointer;
        return *this;
    }
    // The values this field may hold, as promise_value() encodes them, for
    // load buffering (allow_load_buffering); `values` must outlive the
    // execution.
    static uint64_t promise_value(T v) { return enc(kPromiseTag, v); }
    // The values thread t's loads may promise (those the other threads' stores may write).
    void promisable(int t, const uint64_t* values, const uint32_t* writers, unsigned n) {
        cell_.set_promisable(t, values, writers, n, 0xffffffffULL);
    }
    // The running thread will store to this field no more: a promise on a
    // value only such threads could write is refused (sim::atomic::close_stores()).
    void no_more_stores() { cell_.close_stores(this_thread()); }
    // The running thread will store `v` to this field no more: a promise
    // of `v` that only such threads could keep is refused
    // (sim::atomic::close_value()).
    void no_more_stores_of(T v) { cell_.close_value(this_thread(), promise_value(v)); }
    // Whether the running thread said so of `v` (no_more_stores_of()).
    bool stores_closed(T v) const { return cell_.value_closed(this_thread(), promise_value(v)); }
    // This field is a lockref word (count * 2 + locked): the trace prints
    // "count 1, locked", and its count is a reference count.
    kfield& lockref_word() {
        word_ = Word::Lockref;
        return *this;
    }
    // This field counts references (refcount_t and kref declare it; an
    // atomic_t or a plain counter that the kernel uses as a reference count,
    // such as i_count, declares it with counts_refs()): the report draws
    // its changes and the spans in which it is above zero.
    kfield& counts_refs() {
        word_ = Word::Refcount;
        return *this;
    }
    Word word() const { return word_; }
    // Every thread reads this word only by atomic RMWs, which read its
    // latest store (atomic_inc, atomic_dec, atomic_add_unless,
    // atomic_dec_and_test, ...; the final state and the checks peek): the
    // model's promise, which load() holds it to. Its blind adds may then
    // commute in dpor's dependency relation (search/commute.h, condition 2).
    kfield& adds_commute() {
        adds_commute_ = true;
        return *this;
    }

    // The latest value in modification order, without a simulated access:
    // for invariant checks, wait conditions and the final-state dump. Inside
    // the every-step invariant it marks the field visible; inside a thread
    // it counts as a read for DPOR and for a wait condition's watch set.
    T peek() const {
        Runtime& r = rt();
        if (r.in_check) visible_ = true;
        else if (r.in_thread) note_read(this_thread(), shadow_);
        return (T)shadow_;
    }

    T load(Acc a) {
        if (adds_commute_) load_of_rmw_only_word(owner_, name_);
        int t = this_thread();
        search_observer().before_access(t, key_, false);
        if (sched_before(a)) {
            note_next_access(t, false);
            sched_point();
        }
        no_preempt np;
        alive();
        sim::access_begins();
        sim::timestamp_t stamp = race_stamp();
        describe_dependency(t, owner_);
        sim::timestamp_t bound[kMaxThreads];
        bool bounded = !marked(a) && sim::pre_bound(bound, rt().nthreads, !MUTATION("plain-rfi-carries-no-bound"));
        cell_.set_plain(plain_in_sim(a));
        uint64_t w = cell_.load(mo_for(a));
        cell_.set_plain(false);
        if (!marked(a)) sim::note_plain_load();
        if (word_ == Word::Pointer) note_pointer_load(t, (int64_t)dec(w));
        bool promised = tag_of(w) == kPromiseTag;
        if (!marked(a) || rt().mm == MemModel::kernel)
            race_check(false, marked(a), bounded ? bound : nullptr, true, promised ? -1 : ev_of_tag(tag_of(w)));
        T v = dec(w);
        uint32_t tag = tag_of(w);
        int ev = log_access(t, Ev::Read, owner_, marked(a) ? acc_name(a) : "load", name_, (int64_t)v, (int64_t)v);
        sim::note_early_event(ev);
        if (marked(a)) {
            // Which marked store did this marked read read? (For the LKMM bound above.)
            int wev = ev_of_tag(tag);
            rf_from_[t] = -1;
            for (int u = 0; u < kMaxThreads && wev >= 0; u++)
                if (u != t && marked_store_ev_[u] == wev) {
                    rf_from_[t] = (int8_t)u;
                    rf_stamp_[t] = marked_store_[u];
                    rf_fence_[t] = read_fence_count(t);
                }
        }
        if (Event* e = event_at(ev)) {
            e->marked = marked(a);
            e->word = word_;
            e->order = mo_name(mo_for(a));
            e->rf = ev_of_tag(tag);
            if (tag != shadow_tag_ && !promised) {
                e->stale = 1;
                e->latest = ev_of_tag(shadow_tag_);
            }
        }
        if (promised) {
            sim::note_promise(ev, key_);  // its rf is the store that keeps the promise
            search_observer().promise_made(ev);
        }
        if (ev >= 0) access_logged(Ev::Read);
        // A marked load that read a value a newer store overwrote: the search decides.
        if (tag != shadow_tag_ && !promised && marked(a) && ev >= 0)
            search_observer().stale_read_logged(stale_value(t, tag), true, ev);
        race_note(false, marked(a), ev, stamp);
        if (!marked(a)) note_plain(false, ev, stamp);
        note_read(t, (int64_t)v, !promised && marked(a) && sim::load_read_setup());
        return v;
    }

    void store(T v, Acc a) {
        int t = this_thread();
        search_observer().before_access(t, key_, false);
        if (sched_before(a)) {
            note_next_access(t, made_at_setup(owner_));
            sched_point();
        }
        no_preempt np;
        alive();
        sim::access_begins();
        describe_dependency(t, owner_);
        {
            sim::timestamp_t bound[kMaxThreads];
            bool bounded = !marked(a) && sim::pre_bound(bound, rt().nthreads, !MUTATION("plain-rfi-carries-no-bound"));
            race_check(true, marked(a), bounded ? bound : nullptr);
        }
        int ev_idx = rt().rec->nevents;  // the event about to be logged
        uint32_t tag = (uint32_t)(ev_idx + 1);
        int64_t before = shadow_;
        sim::timestamp_t stamp = race_stamp();
        // Under `kernel` the store may take its place in the coherence
        // order before stores it is not ordered after (sim.h); the
        // location's latest value is then unchanged.
        uint64_t next = 0;
        cell_.set_plain(plain_in_sim(a));
        bool last = cell_.store_coherent(enc(tag, v), mo_for(a), next);
        cell_.set_plain(false);
        if (last) {
            shadow_ = (int64_t)v;
            shadow_tag_ = tag;
        }
        note_write(t, before);
        int ev = log_access(t, Ev::Write, owner_, marked(a) ? acc_name(a) : "store", name_, before, (int64_t)v);
        sim::note_early_event(ev);
        const int* kept;
        for (int i = 0, n = sim::take_kept_promises(&kept); i < n; i++) {
            if (Event* r = event_at(kept[i])) r->rf = ev;
            search_observer().promise_kept(kept[i]);
        }
        flag_due_races();
        if (Event* e = event_at(ev)) {
            if (!last) {
                e->stale = 1;
                e->latest = ev_of_tag(tag_of(next));
            }
            e->marked = marked(a);
            e->word = word_;
            e->order = mo_name(mo_for(a));
            if (::vfsmc::counts_refs(word_) && ref_count_of(word_, before) != ref_count_of(word_, (int64_t)v)) e->sync = Sync::RefChange;
        }
        if (ev >= 0) access_logged(Ev::Write);
        race_note(true, marked(a), ev, stamp);
        if (!marked(a)) note_plain(true, ev, stamp);
    }

    // An atomic read-modify-write: new = f(old), or no write when f returns
    // false (f must be a function of its argument: it is asked of several
    // values). Returns the old value: the latest, except under `kernel`
    // (below), where it may be an older one.
    // A lock word's acquire (Acc::LockAcquire) or release (Acc::LockRelease)
    // names the kind of lock in `lock` for the trace.
    // `blind`: an unconditional add whose old value nobody uses (blind_add()).
    // `unconditional`: f writes whatever the old value is (an xchg, an
    // add); under `kernel` such an RMW may read an older store and take
    // its coherence place right after it (sim::atomic::rmw_placed()).
    template <class F>
    T rmw(Acc a, const char* action, F f, bool* wrote = nullptr, LockClass lock = LockClass::None, bool blind = false,
          bool unconditional = false) {
        int t = this_thread();
        search_observer().before_access(t, key_, a == Acc::LockAcquire);
        note_next_access(t, made_at_setup(owner_));
        sched_point();
        no_preempt np;
        alive();
        describe_dependency(t, owner_);
        if (is_atomic_rmw(a)) atomic_rmw_hook(t);
        // An RMW is a marked read and, when it writes, a marked write (the
        // LKMM): its read races with another thread's plain store, its
        // write with a plain load too. The read is judged now, the write
        // once the RMW has written, after what its read acquired (the
        // write follows its own acquire). Not a lockref word: there the
        // model keeps the kernel's spinlock and count in one word, and the
        // plain accesses of the count under the lock touch no byte of the
        // lock that spin_lock() and spin_unlock() write.
        bool race_checked = word_ != Word::Lockref && !MUTATION("rmw-no-race-check");
        if (race_checked) race_check(false, true);
        sim::timestamp_t stamp = race_stamp();
        if (a == Acc::LockRelease && (lock == LockClass::Spinlock || lock == LockClass::Lockref)) note_spin_unlock_begin(t);
        // A blind add dpor may commute with another (search/commute.h:
        // conditions 2 to 4; the caller vouches for 1).
        blind = blind && adds_commute_ && deps().enabled && !rt().in_wait_cond[t] && step_adds_only(key_) &&
                cell_.rmw_publishes_nothing(mo_for(a));
        // A value-returning atomic is fully ordered in the LKMM when it
        // writes: smp_mb() before and after it, which a seq_cst RMW alone is
        // not (a later relaxed load could still read a stale value). One
        // that fails (a cmpxchg that does not match, an inc_not_zero of 0)
        // is a read with no ordering at all (memory-barriers.txt; the LKMM's
        // failed RMW is a plain R). An unconditional one always writes.
        // A conditional one under `kernel` may read an older store (below):
        // not lockref's loop, a word whose blind adds commute (they read
        // the latest: search/commute.h, condition 2), nor a lock word.
        // Whether it writes is then a choice made here, before the barrier
        // the writing branch takes: it writes when it may read a store that
        // passes its condition (the latest, or an older one: older_passes()),
        // and reads only such a store; it fails when it may read a store
        // that fails, or promise a value that fails (fails_readable()), and
        // then takes no barrier and reads, relaxed, only such a value.
        bool latest = a != Acc::LockrefCas || rt().mm == MemModel::sc;
        bool cond = !unconditional && latest && rt().mm == MemModel::kernel && !adds_commute_ &&
                    lock == LockClass::None && !MUTATION("cond-rmw-reads-latest");
        bool full_mb = false, older_mb = false, only_fail = false;
        if (a == Acc::AtomicRmwFull && rt().mm == MemModel::kernel) {
            T probe = (T)shadow_;
            full_mb = f(probe);
            auto pass = [&](uint64_t o) { T v = dec(o); return f(v); };
            if (cond && full_mb && !MUTATION("full-cond-rmw-fail-needs-latest")) {
                // The latest passes: it may still fail on an older store,
                // or on a promise.
                older_mb = true;
                if (cell_.fails_readable(pass) && sim::choose_read(2) == 1) full_mb = older_mb = false, only_fail = true;
            } else if (cond && !full_mb) {
                // The latest fails: it may still write on an older store.
                only_fail = !MUTATION("full-cond-rmw-fail-needs-latest");
                if (!MUTATION("full-cond-rmw-older-needs-latest") && cell_.older_passes(mo_for(a), pass) &&
                    sim::choose_read(2) == 1)
                    full_mb = older_mb = true, only_fail = false;
            }
        }
        if (full_mb) {
            sim::fence(MemOrder::seq_cst);
            note_strong_fence_order();
        }
        // As a cmpxchg loop does: read, compute, try; a failed try sees the
        // latest value. The whole loop is one step (no scheduling point).
        // lockref's CMPXCHG_LOOP starts from a READ_ONCE, which may be stale
        // under `kernel` (under `sc` every read sees the latest value);
        // an atomic instruction (cmpxchg, lock word, inc) reads the latest,
        // which is the shadow: the compare-exchange then succeeds at once,
        // one Relacy operation, and one that writes nothing is a
        // fetch_add(0), an RMW that reads the latest value.
        // A non-value-returning one (atomic_inc()) is a Noreturn event to
        // the LKMM: smp_rmb() does not order it.
        cell_.set_noreturn(a == Acc::AtomicRmwVoid && !MUTATION("rmb-orders-noreturn"));
        cell_.set_rmw_release_orders_loads(!MUTATION("rmw-release-ignores-loads"));
        uint64_t cur = latest ? enc(shadow_tag_, (T)shadow_) : cell_.load(MemOrder::relaxed);
        // A stale start: the search decides before the compare-exchange
        // (search/stale_cut.h), and hears of the read once it is logged.
        bool stale = !latest && tag_of(cur) != shadow_tag_;
        StaleValue sv;
        if (stale) {
            T seen = dec(cur);
            sv = stale_value(t, tag_of(cur));
            search_observer().stale_update(sv, f(seen), word_ == Word::Lockref && ((int64_t)seen & 1));
        }
        T nv{};
        bool w = false;
        uint32_t tag = 0;
        // Not a word whose blind adds commute (they read the latest:
        // search/commute.h, condition 2), nor a lock word.
        bool placed = unconditional && latest && rt().mm == MemModel::kernel && !adds_commute_ && lock == LockClass::None &&
                      !MUTATION("rmw-reads-latest");
        // A conditional RMW (sim::atomic::rmw_cond()) reads a passing
        // store older than the latest only when the smp_mb() of a fully
        // ordered one was taken above.
        bool went_last = true;
        uint64_t next = 0;
        // Whether the value it writes is computed from the one it read (a
        // data dependency in the LKMM: an add, not an xchg or a cmpxchg):
        // two old values that f lets write give two new values. Four probes,
        // so that a condition refusing one value (atomic_add_unless) still
        // leaves two.
        bool data = false;
        if (placed || cond) {
            bool have = false;
            T first{};
            for (int k = 1; k <= 4 && !data; k++) {
                T v = (T)k;
                if (!f(v)) continue;
                if (have && v != first) data = true;
                if (!have) first = v, have = true;
            }
        }
        if (cond) {
            tag = (uint32_t)(rt().rec->nevents + 1);
            cur = cell_.rmw_cond([&](uint64_t o, uint64_t& n) {
                T v = dec(o);
                bool ok = f(v);
                n = enc(tag, v);
                return ok;
            }, only_fail ? MemOrder::relaxed : mo_for(a), a != Acc::AtomicRmwFull || full_mb, w, went_last, data, older_mb,
               only_fail);
            if (w) {
                nv = dec(cur);
                f(nv);
            }
            if (!went_last) next = cell_.after_placed();
        }
        if (placed) {
            tag = (uint32_t)(rt().rec->nevents + 1);
            cur = cell_.rmw_placed([&](uint64_t o) { T v = dec(o); f(v); nv = v; return enc(tag, v); }, mo_for(a), went_last,
                                   data);
            if (!went_last) next = cell_.after_placed();
            w = true;
        }
        while (!placed && !cond) {
            nv = dec(cur);
            w = f(nv);
            if (!w) {
                // The condition failed: no write, like a failed cmpxchg.
                if (latest) cur = cell_.fetch_add(0, MemOrder::relaxed);
                break;
            }
            tag = (uint32_t)(rt().rec->nevents + 1);
            uint64_t expect = cur;
            if (cell_.compare_exchange_strong(expect, enc(tag, nv), mo_for(a))) break;
            cur = expect;
        }
        cell_.set_noreturn(false);
        if (full_mb) {
            sim::fence(MemOrder::seq_cst);
            note_strong_fence_order();
        }
        T old = dec(cur);
        uint32_t old_tag = tag_of(cur);
        if (w && a == Acc::AtomicRmwFull) note_read_fence();  // a successful value-returning atomic is a full barrier
        if (is_atomic_rmw(a)) note_atomic_rmw(t);
        bool spin = lock == LockClass::Spinlock || lock == LockClass::Lockref;
        if (w && spin && a == Acc::LockRelease) sim::spin_unlocked(&cell_);
        if (w && spin && a == Acc::LockAcquire) sim::spin_locked(&cell_, !MUTATION("unlock-lock-orders-no-loads"));
        if (w && spin && (a == Acc::LockAcquire || a == Acc::LockRelease))
            note_spinlock_op(t, a == Acc::LockAcquire, old_tag != 0);
        if (w) {
            int64_t before = shadow_;
            if (went_last) {
                shadow_ = (int64_t)nv;
                shadow_tag_ = tag;
            }
            bool fresh = deps().enabled && (a == Acc::LockAcquire || a == Acc::LockRelease) && !step_touches(key_);
            note_read(t, (int64_t)old);
            note_write(t, before);
            if (blind) note_blind_add(key_);
            // For dpor's lock handoff rule: an acquire inside a wait
            // condition (wait_until) parks when it fails; a trylock does
            // not. Only the lock classes known to be exclusive end a hold
            // another thread's acquire waits for (not up_read, and not a
            // lock word the layer does not know).
            if (a == Acc::LockAcquire)
                note_lock_op(key_, rt().in_wait_cond[t] ? LockOp::WaitAcquire : LockOp::TryAcquire, fresh);
            else if (a == Acc::LockRelease && (lock == LockClass::Spinlock || lock == LockClass::Mutex ||
                                               lock == LockClass::Lockref || lock == LockClass::RwsemExclusive))
                note_lock_op(key_, LockOp::ExclusiveRelease, fresh);
        } else {
            note_read(t, (int64_t)old);
        }
        if (w && race_checked) race_check(true, true);
        int ev = log_access(t, w ? Ev::Rmw : Ev::Read, owner_, action, name_, (int64_t)old, (int64_t)(w ? nv : old));
        if (old_tag == kPromiseTag) sim::note_promise(ev, key_);  // its rf is the store that keeps the promise
        const int* kept;
        for (int i = 0, n = sim::take_kept_promises(&kept); i < n; i++) {
            if (Event* r = event_at(kept[i])) r->rf = ev;  // a promise this RMW's store kept
            search_observer().promise_kept(kept[i]);
        }
        flag_due_races();
        if (Event* e = event_at(ev)) {
            e->marked = 1;
            e->word = word_;
            e->order = mo_name(w ? mo_for(a) : MemOrder::relaxed);
            if (w && (a == Acc::LockAcquire || a == Acc::LockRelease)) {
                e->sync = a == Acc::LockAcquire ? Sync::Acquire : Sync::Release;
                e->lock = lock;
            } else if (w && ::vfsmc::counts_refs(word_) && ref_count_of(word_, (int64_t)old) != ref_count_of(word_, (int64_t)nv)) {
                e->sync = Sync::RefChange;
            }
            e->rf = ev_of_tag(old_tag);
            if (!w && old_tag != shadow_tag_ && old_tag != kPromiseTag) {
                e->stale = 1;
                e->latest = ev_of_tag(shadow_tag_);
            }
            if (!went_last) {  // read an older store, and went before the newer ones
                e->stale = 1;
                e->latest = ev_of_tag(tag_of(next));
            }
        }
        if (ev >= 0) access_logged(w ? Ev::Rmw : Ev::Read);
        if (race_checked) {
            race_note(false, true, ev, stamp);
            if (w) race_note(true, true, ev, stamp);
        }
        if (stale && ev >= 0) search_observer().stale_read_logged(sv, false, ev);
        if (wrote) *wrote = w;
        return old;
    }

    // A blind add: v += delta, an atomic RMW whose old value neither the
    // caller nor the layer uses (atomic_inc, atomic_dec). On a word read by
    // RMWs only (adds_commute()) dpor may commute it with another.
    void blind_add(Acc a, const char* action, T delta) {
        rmw(a, action, [delta](T& v) { v += delta; return true; }, nullptr, LockClass::None, true);
    }
};

}  // namespace vfsmc
