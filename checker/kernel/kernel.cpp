// vfsmc kernel-vocabulary layer: the out-of-line primitives (see kernel.h),
// but for RCU and SRCU (rcupdate.cpp).
#include "kernel/kernel.h"
#include "kernel/layer_state.h"

namespace vfsmc {

LayerState g_ls;

Heap& heap() { return g_ls.heap; }
void heap_full() {
    std::fprintf(stderr, "internal error: more than %d kalloc'ed objects in one execution; accepted: at most %d\n", Heap::kMax,
                 Heap::kMax);
    std::abort();
}
bool in_setup() { return g_ls.setup; }
void set_quiet(bool q) {
    rt().quiet = q;
    rt().quiet_thread = q ? this_thread() : -1;
}

// Dependencies (kfield.h): what a front end told about the next access,
// and which load of each thread last returned a pointer to each object,
// valid in the execution whose generation it carries.
namespace {
struct PointerLoad {
    uint32_t generation;
    unsigned number;
};
uint32_t g_generation = 0;
PointerLoad g_pointer_load[kMaxThreads][kMaxObjects];
uint64_t g_told_mask[kMaxThreads];
uint64_t g_told_ctrl[kMaxThreads];
uint64_t g_told_addr[kMaxThreads];
bool g_told[kMaxThreads];
}  // namespace

// The threads that have a grace-period word in each RCU domain.
static int words_needed() { return std::min(std::max(rt().nthreads, 1), (int)kMaxThreads); }

void layer_begin_execution() {
    for (bool& w : sim::detail::g_wants) w = false;  // an execution cut inside a load that wanted a value
    g_ls.heap.n = 0;
    // An SRCU domain's words belong to one execution (init_srcu_struct()
    // makes them in its setup); those of an execution that did not reach
    // layer_end_execution() (a search stopped inside it) went with it.
    for (int d = 1; d < kRcuDomains; d++)
        for (int t = 0; t < kMaxThreads; t++) g_ls.gp[d][t] = nullptr;
    for (bool& f : g_ls.freeable) f = false;
    g_ls.plain_steps = false;
    g_ls.setup = true;
    sim::set_setup(true);
    for (auto& d : g_ls.rcu_nest)
        for (int& n : d) n = 0;
    for (auto& d : g_ls.rcu_down)
        for (int& n : d) n = 0;
    for (auto& d : g_ls.rcu_gen)
        for (int& n : d) n = 0;
    for (auto& d : g_ls.srcu_open)
        for (unsigned& n : d) n = 0;
    for (auto& d : g_ls.gp_open_promises)
        for (uint32_t& n : d) n = 0;
    for (auto& d : g_ls.srcu_slot_gen)
        for (auto& u : d)
            for (int& n : u) n = 0;
    g_ls.srcu_opens = 0;
    for (unsigned& n : g_ls.read_fences) n = 0;
    g_generation++;
    for (bool& b : g_told) b = false;
    sim::begin_execution_deps();
    g_ls.npending = 0;
    for (RealCond& r : g_ls.real) r = RealCond();
    deps().begin_execution();
    blocking().begin_execution();
    g_ls.special_barriers = false;
    for (bool& b : g_ls.no_sections) b = false;
    g_ls.gp_end_split = false;
    for (int t = 0; t < kMaxThreads; t++) {
        g_ls.before_atomic[t] = false;
        g_ls.after_atomic[t].set = g_ls.after_lock[t].set = g_ls.after_srcu_unlock[t].set = false;
        g_ls.before_unlock[t].set = g_ls.after_unlock_lock[t].set = false;
    }
    // A grace-period word for each thread of the run (rt().nthreads): the
    // read-side sections and grace periods touch no other, and an
    // sim::atomic is 8 KB to build.
    int n = words_needed();
    for (int t = 0; t < kMaxThreads; t++) {
        g_ls.gp[0][t] = t < n ? new (g_ls.gp_mem[0][t]) sim::atomic<int>() : nullptr;
        if (t < n) g_ls.gp[0][t]->store(0, MemOrder::relaxed);
    }
}

void init_srcu_struct(int d) {
    if (d < 1 || d >= kRcuDomains || !g_ls.setup || g_ls.gp[d][0])
        throw std::logic_error("init_srcu_struct: a domain 1.." + std::to_string(kRcuDomains - 1) + ", once, in setup");
    int n = words_needed();
    for (int t = 0; t < n; t++) {
        g_ls.gp[d][t] = new (g_ls.gp_mem[d][t]) sim::atomic<int>();
        g_ls.gp[d][t]->store(0, MemOrder::relaxed);
    }
}

void layer_setup_done() {
    g_ls.setup = false;
    g_ls.setup_objects = rt().rec ? rt().rec->nobjects : 0;
    sim::set_setup(false);
    rt().in_thread = true;
}

// Destroy every object still alive and give all model memory back. Runs in
// the engine's after(), inside the execution, so the Relacy atomics die
// within it.
void layer_end_execution() {
    g_ls.setup = true;
    rt().in_thread = false;
    for (int i = g_ls.heap.n - 1; i >= 0; i--) {
        Heap::Slot& s = g_ls.heap.slots[i];
        if (s.live) s.destroy(s.mem);
        s.live = false;
    }
    for (int i = 0; i < g_ls.heap.n; i++) std::free(g_ls.heap.slots[i].mem);
    g_ls.heap.n = 0;
    for (int d = 0; d < kRcuDomains; d++)
        for (int t = 0; t < kMaxThreads; t++) {
            if (g_ls.gp[d][t]) g_ls.gp[d][t]->~atomic();
            g_ls.gp[d][t] = nullptr;
        }
}

// The stable name of a use after free of `o`: <kind>-use-after-free when
// the model declares it, else the layer's use-after-free.
static const char* use_after_free_invariant(const ObjInfo& o) {
    char inv[64];
    std::snprintf(inv, sizeof inv, "%s-use-after-free", o.kind);
    const InvariantInfo* i = find_invariant(inv);
    return i ? i->name : "use-after-free";
}

void check_alive_slow(int id, const char* field) {
    ExecRecord* rec = rt().rec;
    ObjInfo& o = rec->objects[id];
    int c[1] = {o.free_event};
    violate(this_thread(), use_after_free_invariant(o), c, 1, "%s.%s is accessed after %s freed it", o.name, field,
            o.free_event >= 0 && event_at(o.free_event) ? rt().thread_names[event_at(o.free_event)->thread] : "?");
}

bool object_freeable(int id) { return id >= 0 && id < kMaxObjects && g_ls.freeable[id]; }
bool made_at_setup(int id) { return id >= 0 && id < g_ls.setup_objects; }
void mark_freeable(int id) {
    if (id < 0 || id >= kMaxObjects) return;
    g_ls.freeable[id] = true;
    for (auto& a : g_ls.plain[id]) a = {0, -1, nullptr, false};
}
void note_plain_access(int id, const char* field, bool store, int ev, uint64_t stamp) {
    g_ls.plain[id][this_thread()] = {stamp, ev, field, store};
}

// The free-time plain-access check. A plain access runs in one step with the marked access
// before it, so the search never puts another thread's free between the
// two. Such a free shows here instead: a plain access to the object by
// another thread that does not happen before this free could run after it
// (the thread's step split at the plain access, or the access reordered
// past what the freeing thread observed). Happens-before is the race
// check's (Relacy's thread clocks: locks, release/acquire, RCU grace
// periods, and every marked access under `sc`).
static bool free_races_plain_access(int id, int t) {
    if (MUTATION("no-free-race-check")) return false;
    ObjInfo& o = rt().rec->objects[id];
    for (int u = 0; u < rt().nthreads; u++) {
        const LayerState::PlainAccess& a = g_ls.plain[id][u];
        if (u == t || a.ev < 0 || sim::acquired_clock(u) >= a.stamp) continue;
        int c[1] = {a.ev};
        violate(t, use_after_free_invariant(o), c, 1, "%s frees %s, but %s's plain %s %s.%s does not happen before the free: it can run after it",
                rt().thread_names[t], o.name, rt().thread_names[u], a.store ? "store to" : "load of", o.name, a.field);
        return true;
    }
    return false;
}
void mark_static(int id) {
    if (id >= 0 && id < kMaxObjects) g_ls.freeable[id] = false;
}

void kfree_id(int id, SrcLoc at) {
    here(at);
    ExecRecord* rec = rt().rec;
    if (id < 0 || id >= rec->nobjects) return;
    ObjInfo& o = rec->objects[id];
    if (!g_ls.freeable[id]) {
        // Its plain accesses were not recorded (note_plain_access): freeing it
        // would skip the check that finds a use after free.
        std::fprintf(stderr, "internal error: kfree of %s, which is never freed (a member of the model run, or kalloc_static)\n",
                     o.name);
        std::abort();
    }
    int t = this_thread();
    if (o.freed) {
        int c[1] = {o.free_event};
        violate(t, "double-free", c, 1, "%s is freed twice", o.name);
        return;
    }
    note_next_access(t, made_at_setup(id));
    sched_point();
    note_access(alive_key(id), true);
    if (rt().check_free && !rt().in_check) {
        rt().in_check = true;
        rt().check_free(id);
        rt().in_check = false;
    }
    if (free_races_plain_access(id, t)) return;
    o.free_event = log_event(t, Ev::Free, id, "kfree", nullptr, 0, 0, "%s freed", o.name);
    o.freed = true;
    for (int i = 0; i < g_ls.heap.n; i++) {
        Heap::Slot& s = g_ls.heap.slots[i];
        if (s.live && s.id == id) {
            s.destroy(s.mem);  // Relacy atomics are destroyed: later access fails its signature check
            s.live = false;
        }
    }
}

unsigned loads_done() { return sim::loads_done(); }
void allow_load_buffering() {
    if (rt().mm != MemModel::kernel) return;
    sim::detail::EarlyRules r;
    r.on = !MUTATION("promise-refused-by-dependency");
    r.recheck = !MUTATION("early-access-not-rechecked");
    r.wmb = !MUTATION("early-store-wmb-orders-nothing");
    r.races = !MUTATION("early-access-ignores-races");
    r.observed = !MUTATION("early-access-seen-by-others");
    r.hand_on = !MUTATION("early-access-hands-on-nothing");
    r.kept_free = !MUTATION("promise-keeper-goes-last");
    r.plain_rf_unordered = !MUTATION("plain-store-read-orders");
    r.plain_seen_keeps = !MUTATION("rmw-keep-refused-by-plain-read");
    r.kept_rmw_carries = !MUTATION("kept-rmw-carries-nothing");
    r.plain_ctrl_unordered = !MUTATION("plain-ctrl-orders");
    r.release_early = !MUTATION("release-refuses-promises");
    r.same_location = !MUTATION("early-store-overwrite-unordered");
    r.own_store = !MUTATION("promise-refused-by-own-store");
    r.own_store_bound = !MUTATION("promise-keeper-passes-own-store");
    r.nested = !MUTATION("early-load-refuses-promises");
    r.nested_known = !MUTATION("early-load-promise-ignores-keep");
    r.defer_races = !MUTATION("early-race-flagged-at-once");
    r.defer_checks = !MUTATION("early-race-dropped-at-keep");
    r.release_rmw_own = !MUTATION("release-rmw-refuses-own-promise");
    r.release_rmw_early = !MUTATION("release-rmw-refuses-promises");
    r.unlock_lock_refuses = !MUTATION("unlock-lock-keeps-promises");
    r.unbounded_kept_race = !MUTATION("early-unbounded-race-dropped-at-keep");
    r.unbounded_race_final = !MUTATION("early-unbounded-race-refuses-keep");
    r.defer_load_races = !MUTATION("early-load-race-refuses-keep");
    r.defer_plain_load_races = !MUTATION("early-plain-load-race-refuses-keep");
    r.read_race_waits = !MUTATION("early-load-race-read-refuses-keep");
    r.races_own = !MUTATION("early-access-refused-by-any-race");
    r.plain_load_post_bound = !MUTATION("plain-load-ordered-as-marked");
    sim::set_promises(true, r);
}
void plain_accesses_interleave() { g_ls.plain_steps = !MUTATION("plain-accesses-glued"); }
bool plain_accesses_are_steps() { return g_ls.plain_steps; }
void accesses_all_marked() { sim::declare_marked_only(); }
bool promises_kept() { return sim::promises_broken() == 0; }
void next_load_before_full_barrier(bool on) { sim::next_load_makes_no_promise(this_thread(), on); }
namespace {
int32_t g_wanted[kMaxThreads];
// A stored word holds the value in its low 32 bits (kfield::enc()).
bool wanted_value(int t, uint64_t w) { return (int32_t)(uint32_t)w == g_wanted[t]; }
}  // namespace
void next_load_wants(bool on, long v) {
    int t = this_thread();
    g_wanted[t] = (int32_t)v;
    sim::detail::g_wanted_value = &wanted_value;
    sim::detail::g_wants[t] = on && !MUTATION("loads-want-no-value");
}
void access_depends_on(uint64_t loads, uint64_t ctrl, uint64_t addr) {
    int t = this_thread();
    g_told_mask[t] = loads | ctrl;
    g_told_ctrl[t] = ctrl & ~loads;
    g_told_addr[t] = addr & loads;
    g_told[t] = true;
}
void note_pointer_load(int t, int64_t obj) {
    if (obj < 0 || obj >= kMaxObjects) return;
    g_pointer_load[t][obj] = {g_generation, sim::loads_done() - 1};
}
void describe_dependency(int t, int obj) {
    if (g_told[t]) {
        g_told[t] = false;
        sim::depend_on(g_told_mask[t], 0, g_told_ctrl[t], g_told_addr[t]);
        return;
    }
    const PointerLoad& p = g_pointer_load[t][obj];
    if (p.generation == g_generation) sim::depend_on(1, p.number);
}
void load_of_rmw_only_word(int owner, const char* name) {
    std::fprintf(stderr, "internal error: a load of %s.%s, which the model declares read by RMWs only (adds_commute)\n",
                 object_name(owner), name);
    std::abort();
}

unsigned read_fence_count(int t) { return g_ls.read_fences[t]; }
void note_read_fence() { g_ls.read_fences[this_thread()]++; }

void fence(Acc a, const char* name, const sim::FenceMark* since) {
    int t = this_thread();
    search_observer().before_access(t, 0, false);
    if (a == Acc::FenceMb || a == Acc::FenceRmb) note_read_fence();
    if (since) sim::fence_since(*since);
    else if (a == Acc::FenceRmb && mo_for(a) == MemOrder::acquire) sim::read_fence();
    else sim::fence(mo_for(a));
    // A seq_cst fence joins the one global fence order; acquire and release
    // fences only move this thread's own clocks.
    if (mo_for(a) == MemOrder::seq_cst) note_strong_fence_order();
    int ev = log_event(t, Ev::Fence, -1, name, nullptr, 0, 0, nullptr);
    if (Event* e = event_at(ev)) e->order = mo_name(mo_for(a));
}

void use_special_barriers() { g_ls.special_barriers = true; }
// A special-purpose barrier runs: the program must have said so.
static void special_barrier_declared(const char* name) {
    if (g_ls.special_barriers) return;
    std::fprintf(stderr, "internal error: %s in a program whose setup did not call use_special_barriers() (kernel/barrier.h)\n", name);
    std::abort();
}

void smp_mb__before_atomic(SrcLoc at) {
    here(at);
    special_barrier_declared("smp_mb__before_atomic");
    int t = this_thread();
    g_ls.before_atomic[t] = true;
    sim::fence_mark(g_ls.before_atomic_at[t]);
    int ev = log_event(t, Ev::Fence, -1, "smp_mb__before_atomic", nullptr, 0, 0, "full fence at the next atomic RMW");
    if (Event* e = event_at(ev)) e->order = mo_name(mo_for(Acc::FenceMb));
}
// A special-purpose barrier: a full fence whose before side is the
// thread's state at the latest operation it names (barrier.h), else
// nothing. The layer mutation special-fence-orders-since-op makes it a
// full fence at the barrier, which also orders the accesses in between.
static void fence_after(const sim::FenceMark& op, const char* name, const char* none) {
    special_barrier_declared(name);
    if (!op.set) {
        log_event(this_thread(), Ev::Fence, -1, name, nullptr, 0, 0, none);
        return;
    }
    if (MUTATION("special-fence-orders-since-op")) {
        fence(Acc::FenceMb, name);
        return;
    }
    fence(Acc::FenceMb, name, &op);
}
void smp_mb__after_atomic(SrcLoc at) {
    here(at);
    fence_after(g_ls.after_atomic[this_thread()], "smp_mb__after_atomic", "no atomic RMW before it: orders nothing");
}
void smp_mb__after_spinlock(SrcLoc at) {
    here(at);
    fence_after(g_ls.after_lock[this_thread()], "smp_mb__after_spinlock", "no spin_lock() before it: orders nothing");
}
void smp_mb__after_unlock_lock(SrcLoc at) {
    here(at);
    fence_after(g_ls.after_unlock_lock[this_thread()], "smp_mb__after_unlock_lock",
                "no lock taken after its release before it: orders nothing");
}
void smp_mb__after_srcu_read_unlock(SrcLoc at) {
    here(at);
    fence_after(g_ls.after_srcu_unlock[this_thread()], "smp_mb__after_srcu_read_unlock",
                "no srcu_read_unlock() before it: orders nothing");
}
void note_srcu_unlock(int t) {
    if (g_ls.special_barriers) sim::fence_mark(g_ls.after_srcu_unlock[t]);
}
void note_atomic_rmw(int t) {
    if (g_ls.special_barriers) sim::fence_mark(g_ls.after_atomic[t]);
}
void note_spin_unlock_begin(int t) {
    if (g_ls.special_barriers) sim::fence_mark(g_ls.before_unlock[t]);
}
void note_spinlock_op(int t, bool acquire, bool read_store) {
    if (!acquire || !g_ls.special_barriers) return;
    sim::fence_mark(g_ls.after_lock[t]);
    // The before side of a later smp_mb__after_unlock_lock()
    // (linux-kernel.cat's mb: [M] ; po ; [UL] ; (co | po) ; [LKW] ;
    // fencerel(After-unlock-lock) ; [M]): the thread's accesses before an
    // unlock of its own earlier than this lock (any two locks), and those
    // before the unlock this lock read (this lock's, by any thread), which
    // its release published: any store the acquire read other than the
    // word's first.
    if (g_ls.before_unlock[t].set) sim::fence_mark_join(g_ls.after_unlock_lock[t], g_ls.before_unlock[t]);
    if (read_store && !MUTATION("unlock-lock-fence-own-unlock-only")) sim::fence_mark_join_last_load(g_ls.after_unlock_lock[t]);
}
void note_strong_fence_order() {
    if (!MUTATION("strong-fences-commute")) note_access(kKeyScFence, true);
}
void barrier() { log_event(this_thread(), Ev::Fence, -1, "barrier", nullptr, 0, 0, "a compiler barrier: orders no CPU access"); }

// Called by every atomic RMW (inside its step): the deferred fence of an
// smp_mb__before_atomic comes first.
void atomic_rmw_hook(int t) {
    if (!g_ls.before_atomic[t]) return;
    g_ls.before_atomic[t] = false;
    if (MUTATION("special-fence-orders-since-op")) sim::fence(mo_for(Acc::FenceMb));
    else sim::fence_since(g_ls.before_atomic_at[t]);
    note_strong_fence_order();
}

void wait_stuck_report(int t) {
    Runtime& r = rt();
    bool order_wait = false, lost = false;
    int lost_thread = -1;
    for (int u = 0; u < r.nthreads; u++) {
        if (r.tstate[u] != TState::Waiting) continue;
        if (r.wait_order[u]) order_wait = true;
        if (r.wait_sleeping[u] && r.wait_cond_true[u]) {
            lost = true;
            lost_thread = u;
        }
    }
    if (order_wait) prune_execution_by_order();
    char buf[220];
    int n = 0;
    for (int u = 0; u < r.nthreads && n < (int)sizeof buf - 70; u++)
        if (r.tstate[u] == TState::Waiting)
            n += std::snprintf(buf + n, sizeof buf - n, "%s%s waits in %s%s%s", n ? "; " : "",
                               r.thread_names[u], r.wait_what[u], r.wait_obj[u] >= 0 ? " on " : "",
                               r.wait_obj[u] >= 0 ? object_name(r.wait_obj[u]) : "");
    if (lost)
        violate(t, "lost-wakeup", nullptr, 0, "%s sleeps on a condition that already holds and nothing will wake it (%s)",
                r.thread_names[lost_thread], buf);
    else
        violate(t, "deadlock", nullptr, 0, "%s", buf);
    // Reached only when the scenario disabled the invariant: give up quietly.
    prune_execution();
}

// Blocking waits (kernel.h).
static void unpark(int u) {
    Blocking& b = blocking();
    b.parked_on[u] = nullptr;
    b.nparked--;
    sim::unpark(u);
}

void wake_watchers(int t, Key key) {
    Blocking& b = blocking();
    for (int u = 0; u < rt().nthreads && b.nparked; u++)
        if (u != t && b.parked_on[u] && b.parked_on[u]->has(key)) unpark(u);
}

void kick(Key key) {
    Blocking& b = blocking();
    for (int u = 0; u < rt().nthreads && b.nparked; u++)
        if (b.parked_on[u] && b.parked_on[u]->has(key)) unpark(u);
}

// Every thread that has not finished is parked: nothing can wake any of
// them. Named as a deadlock, or a lost wakeup when a sleeper's real
// condition already holds.
static void stuck(int t) {
    Runtime& r = rt();
    for (int u = 0; u < r.nthreads; u++)
        if (r.tstate[u] == TState::Waiting) r.wait_cond_true[u] = g_ls.real[u]();
    wait_stuck_report(t);
}

// cpu_relax(): the thread will look again, and a load cannot return a
// value older than one it saw before this point.
static void relax() {
    sim::relax();
}

void relax_restore(sim::timestamp_t mark) {
    if (MUTATION("wait-keeps-relax")) return;
    sim::relax_restore(mark);
}

// Thread t cannot go on, and the search answered `next` (search/parking.h):
// it looks again at once, or parks on `ws`.
static void obey(int t, Blocked next, const WatchSet& ws, RealCond real) {
    if (next == Blocked::look_again) {
        relax();
        return;
    }
    Runtime& r = rt();
    Blocking& b = blocking();
    g_ls.real[t] = real;
    bool other_live = false;
    for (int u = 0; u < r.nthreads; u++)
        if (u != t && r.tstate[u] != TState::Done && !b.parked_on[u]) other_live = true;
    if (!other_live) stuck(t);
    b.parked_on[t] = &ws;
    b.nparked++;
    sim::park();
    if (r.pruned) throw Pruned();
    relax();
}

void park_on(int t, const WatchSet& ws, RealCond real) {
    if (rt().pruned) throw Pruned();
    obey(t, search_observer().await_fails(t, ws), ws, real);
}

retry_loop::retry_loop() : t_(this_thread()) {
    Blocking& b = blocking();
    b.pass_ws[t_].clear();
    b.pass_ws[t_].active = true;
    b.pass_writes[t_].clear();
    search_observer().pass_begin(t_);
}
retry_loop::~retry_loop() { blocking().pass_ws[t_].active = false; }
void retry_loop::again() {
    Blocking& b = blocking();
    WatchSet& ws = b.pass_ws[t_];
    ws.active = false;
    Blocked next = search_observer().pass_ends(t_, ws, b.pass_writes[t_]);
    if (next == Blocked::go_on) {
        sched_point();
        relax();
    } else {
        // A pass that changed nothing waits as a false wait condition does.
        wait_begin(t_, current_func(t_), -1, false, false);
        if (rt().pruned) throw Pruned();
        obey(t_, next, ws, RealCond());
        wait_end(t_);
    }
    ws.clear();
    b.pass_writes[t_].clear();
    ws.active = true;
    search_observer().pass_begin(t_);
}

// A simulated thread finished (engine): its read sections end, threads that
// wait on its exit look again, and if every thread left is parked, nothing
// can wake them.
void rcu_thread_exit(int t);
static void unpark_all() {
    Blocking& b = blocking();
    for (int u = 0; u < rt().nthreads; u++)
        if (b.parked_on[u]) unpark(u);
}
void layer_thread_exit(int t) {
    Runtime& r = rt();
    sim::thread_done(t);
    if (r.pruned) {
        // The execution is abandoned: parked threads wake to unwind.
        r.tstate[t] = TState::Done;
        unpark_all();
        return;
    }
    try {
        rcu_thread_exit(t);
    } catch (const Pruned&) {
        r.pruned = true;
        r.tstate[t] = TState::Done;
        unpark_all();
        return;
    }
    r.tstate[t] = TState::Done;
    write_global(exit_key(t));
    Blocking& b = blocking();
    if (!b.nparked) return;
    int waiter = -1;
    for (int u = 0; u < r.nthreads; u++) {
        if (r.tstate[u] == TState::Done) continue;
        if (!b.parked_on[u]) return;
        if (waiter < 0) waiter = u;
    }
    if (waiter < 0) return;
    try {
        stuck(waiter);
    } catch (const Pruned&) {
        // An order constraint no execution can meet: the parked threads
        // wake to unwind.
        r.pruned = true;
        unpark_all();
    }
}

// <linux/refcount.h>
// Orders as Documentation/core-api/refcount-vs-atomic.rst gives them: inc
// and inc_not_zero unordered, dec and dec_and_test RELEASE, dec_and_test
// ACQUIRE as well when it returns true.
void refcount_inc(refcount_t& r, SrcLoc at) {
    here(at);
    int old = r.refs.rmw(Acc::RefcountInc, "refcount_inc", [](int& v) { v++; return true; }, nullptr, LockClass::None, false, true);
    KWARN_ON(old <= 0, r.underflow_inv, "refcount_inc on %s.%s = %d: addition on 0; use-after-free",
             object_name(r.refs.owner()), r.refs.name(), old);
}
bool refcount_inc_not_zero(refcount_t& r, SrcLoc at) {
    here(at);
    bool w = false;
    bool zero_test = !MUTATION("refcount-inc-not-zero-no-zero-test");
    r.refs.rmw(Acc::RefcountInc, "refcount_inc_not_zero", [&](int& v) { if (zero_test && v <= 0) return false; v++; return true; }, &w);
    return w;
}
bool refcount_dec_and_test(refcount_t& r, SrcLoc at) {
    here(at);
    int old = r.refs.rmw(Acc::RefcountDec, "refcount_dec_and_test", [](int& v) { v--; return true; }, nullptr, LockClass::None, false, true);
    KWARN_ON(old <= 0, r.underflow_inv, "refcount_dec_and_test on %s.%s = %d: underflow; use-after-free",
             object_name(r.refs.owner()), r.refs.name(), old);
    if (old == 1) {
        // The acquire on success, part of the same step.
        no_preempt np;
        sim::fence(mo_for(Acc::RefcountDecAcq));
    }
    return old == 1;
}
void refcount_dec(refcount_t& r, SrcLoc at) {
    here(at);
    int old = r.refs.rmw(Acc::RefcountDec, "refcount_dec", [](int& v) { v--; return true; }, nullptr, LockClass::None, false, true);
    KWARN_ON(old <= 1, r.underflow_inv, "refcount_dec on %s.%s = %d: decrement hit 0; leaking memory",
             object_name(r.refs.owner()), r.refs.name(), old);
}

// <linux/spinlock.h>
static void lock_word(kfield<int>& w, int& holder, const char* what, bool sleeping, LockClass lc) {
    int t = this_thread();
    if (holder == t) {
        violate(t, "lock-misuse", nullptr, 0, "%s takes %s.%s which it already holds", rt().thread_names[t],
                object_name(w.owner()), w.name());
    }
    wait_until(what, w.owner(), sleeping, [&]() {
        bool got = false;
        w.rmw(Acc::LockAcquire, what, [](int& v) { if (v != 0) return false; v = -1; return true; }, &got, lc);
        return got;
    });
    holder = t;
}
static void unlock_word(kfield<int>& w, int& holder, const char* what, LockClass lc) {
    int t = this_thread();
    if (holder != t) {
        violate(t, "lock-misuse", nullptr, 0, "%s releases %s.%s held by %s", rt().thread_names[t],
                object_name(w.owner()), w.name(), holder >= 0 ? rt().thread_names[holder] : "nobody");
    }
    holder = -1;
    w.rmw(Acc::LockRelease, what, [](int& v) { v = 0; return true; }, nullptr, lc);
}
void spin_lock(spinlock_t& l, SrcLoc at) { here(at); lock_word(l.word, l.holder, "spin_lock", false, LockClass::Spinlock); }
void spin_unlock(spinlock_t& l, SrcLoc at) { here(at); unlock_word(l.word, l.holder, "spin_unlock", LockClass::Spinlock); }
bool spin_trylock(spinlock_t& l, SrcLoc at) {
    here(at);
    bool got = false;
    l.word.rmw(Acc::LockAcquire, "spin_trylock", [](int& v) { if (v != 0) return false; v = -1; return true; }, &got,
               LockClass::Spinlock);
    if (got) l.holder = this_thread();
    return got;
}
bool spin_is_locked(spinlock_t& l, SrcLoc at) { here(at); return l.word.load(Acc::ReadOnce) != 0; }
void mutex_lock(mutex& m, SrcLoc at) { here(at); lock_word(m.word, m.holder, "mutex_lock", true, LockClass::Mutex); }
void mutex_unlock(mutex& m, SrcLoc at) { here(at); unlock_word(m.word, m.holder, "mutex_unlock", LockClass::Mutex); }

// <linux/rwsem.h>
// The arrival order and the writers' tickets are layer state outside any
// field; for DPOR and for blocking they are one key per semaphore, the wait
// queue: a writer's arrival and the clearing of its ticket write it, and a
// waiter that looks at the queue reads it (so clearing a ticket wakes a
// waiter queued behind it, and a writer's arrival order against any other
// arrival is a race DPOR reverses). A reader's arrival only reads it: two
// adjacent reader arrivals swap their numbers and nothing else, since
// only writer tickets are ever compared with an arrival.
static const char kRwsemQueue[] = "rwsem wait queue";
static Key rwsem_queue_key(const rw_semaphore& s) { return field_key(s.count.owner(), kRwsemQueue); }
static unsigned rwsem_arrive(rw_semaphore& s, bool writer) {
    if (writer) write_global(rwsem_queue_key(s));
    else note_access(rwsem_queue_key(s), false);
    return ++s.arrivals;
}
// Is a writer that arrived before ticket `mine` still waiting?
static bool writer_queued_before(const rw_semaphore& s, unsigned mine) {
    read_global(this_thread(), rwsem_queue_key(s));
    for (unsigned w : s.writer_ticket)
        if (w && w < mine) return true;
    return false;
}
void down_read(rw_semaphore& s, SrcLoc at) {
    here(at);
    unsigned mine = rwsem_arrive(s, false);
    wait_until("down_read", s.count.owner(), true, [&]() {
        if (writer_queued_before(s, mine)) return false;  // queued behind a waiting writer
        bool got = false;
        s.count.rmw(Acc::LockAcquire, "down_read", [](int& v) { if (v < 0) return false; v++; return true; }, &got,
                    LockClass::RwsemShared);
        return got;
    });
}
void up_read(rw_semaphore& s, SrcLoc at) {
    here(at);
    int old = s.count.rmw(Acc::LockRelease, "up_read", [](int& v) { v--; return true; }, nullptr, LockClass::RwsemShared);
    if (old <= 0)
        violate(this_thread(), "lock-misuse", nullptr, 0, "up_read on %s.%s not held shared",
                object_name(s.count.owner()), s.count.name());
}
void down_write(rw_semaphore& s, SrcLoc at) {
    here(at);
    int t = this_thread();
    unsigned mine = rwsem_arrive(s, true);
    s.writer_ticket[t] = mine;
    wait_until("down_write", s.count.owner(), true, [&]() {
        if (writer_queued_before(s, mine)) return false;  // writers are served in arrival order too
        bool got = false;
        s.count.rmw(Acc::LockAcquire, "down_write", [](int& v) { if (v != 0) return false; v = -1; return true; }, &got,
                    LockClass::RwsemExclusive);
        return got;
    });
    s.writer_ticket[t] = 0;
    write_global(rwsem_queue_key(s));
    s.writer = t;
}
void up_write(rw_semaphore& s, SrcLoc at) {
    here(at);
    if (s.writer != this_thread())
        violate(this_thread(), "lock-misuse", nullptr, 0, "up_write on %s.%s not held exclusive by this thread",
                object_name(s.count.owner()), s.count.name());
    s.writer = -1;
    s.count.rmw(Acc::LockRelease, "up_write", [](int& v) { v = 0; return true; }, nullptr, LockClass::RwsemExclusive);
}

// <linux/seqlock.h>
unsigned read_seqcount_begin(seqcount_t& s, SrcLoc at) {
    here(at);
    unsigned v = 0;
    wait_until("read_seqcount_begin", s.sequence.owner(), false, [&]() {
        v = (unsigned)s.sequence.load(Acc::LoadAcquire);
        return (v & 1) == 0;
    });
    return v;
}
unsigned raw_read_seqcount(seqcount_t& s, SrcLoc at) { here(at); return (unsigned)s.sequence.load(Acc::LoadAcquire); }
bool read_seqcount_retry(seqcount_t& s, unsigned start, SrcLoc at) {
    here(at);
    if (!MUTATION("read-seqcount-retry-no-smp-rmb")) smp_rmb();
    return (unsigned)s.sequence.load(Acc::ReadOnce) != start;
}
void write_seqcount_begin(seqcount_t& s, SrcLoc at) {
    here(at);
    s.sequence.store(s.sequence.load(Acc::Plain) + 1, Acc::WriteOnce);
    smp_wmb();
}
void write_seqcount_end(seqcount_t& s, SrcLoc at) {
    here(at);
    smp_wmb();
    s.sequence.store(s.sequence.load(Acc::Plain) + 1, Acc::WriteOnce);
}
void write_seqcount_invalidate(seqcount_t& s, SrcLoc at) {
    here(at);
    if (MUTATION("no-write-seqcount-invalidate")) return;
    smp_wmb();
    s.sequence.store(s.sequence.load(Acc::Plain) + 2, Acc::WriteOnce);
}

// <linux/lockref.h>. Value = count * 2 + locked.
static bool lr_locked(int v) { return v & 1; }
static int lr_count(int v) { return v >> 1; }
static int lr_make(int count, bool locked) { return count * 2 + (locked ? 1 : 0); }

void lockref_lock(lockref& l, SrcLoc at) {
    here(at);
    int t = this_thread();
    wait_until("spin_lock", l.lock_count.owner(), false, [&]() {
        bool got = false;
        l.lock_count.rmw(Acc::LockAcquire, "spin_lock", [](int& v) { if (lr_locked(v)) return false; v |= 1; return true; }, &got,
                         LockClass::Lockref);
        return got;
    });
    l.holder = t;
}
void lockref_unlock(lockref& l, SrcLoc at) {
    here(at);
    int t = this_thread();
    if (l.holder != t)
        violate(t, "lock-misuse", nullptr, 0, "spin_unlock of %s.d_lock by a thread that does not hold it",
                object_name(l.lock_count.owner()));
    l.holder = -1;
    l.lock_count.rmw(Acc::LockRelease, "spin_unlock", [](int& v) { v &= ~1; return true; }, nullptr, LockClass::Lockref);
}
int lockref_count_locked(lockref& l, SrcLoc at) { here(at); return lr_count(l.lock_count.load(Acc::Plain)); }
void lockref_set_count_locked(lockref& l, int count, SrcLoc at) {
    here(at);
    int old = lr_count(l.lock_count.load(Acc::Plain));
    if (old < 0 && count > old && l.revive_inv)
        violate(this_thread(), l.revive_inv, nullptr, 0, "%s gets a reference while dead (count %d)",
                object_name(l.lock_count.owner()), old);
    if (count < 0 && l.underflow_inv)
        violate(this_thread(), l.underflow_inv, nullptr, 0, "%s lockref count goes below zero (%d -> %d)",
                object_name(l.lock_count.owner()), old, count);
    l.lock_count.store(lr_make(count, true), Acc::Plain);
}

// The CMPXCHG_LOOP fast path: one relaxed cmpxchg while unlocked; `op`
// returns false to give up (the caller then takes the slow path or fails).
template <class Op>
static int lockref_fast(lockref& l, const char* what, Op op, bool* done) {
    bool w = false;
    int old = l.lock_count.rmw(Acc::LockrefCas, what, [&](int& v) {
        if (lr_locked(v)) return false;
        int c = lr_count(v);
        if (!op(c)) return false;
        v = lr_make(c, false);
        return true;
    }, &w);
    *done = w;
    return old;
}

void lockref_get(lockref& l, SrcLoc at) {
    here(at);
    bool done;
    int old = lockref_fast(l, "lockref_get", [](int& c) { c++; return true; }, &done);
    if (done) {
        if (lr_count(old) < 0 && l.revive_inv)
            violate(this_thread(), l.revive_inv, nullptr, 0, "lockref_get on dead %s (count %d)",
                    object_name(l.lock_count.owner()), lr_count(old));
        return;
    }
    lockref_lock(l);
    lockref_set_count_locked(l, lockref_count_locked(l) + 1);
    lockref_unlock(l);
}
bool lockref_get_not_zero(lockref& l, SrcLoc at) {
    here(at);
    bool done;
    int old = lockref_fast(l, "lockref_get_not_zero", [](int& c) { if (c <= 0) return false; c++; return true; }, &done);
    if (done) return true;
    if (!lr_locked(old) && lr_count(old) <= 0) return false;
    lockref_lock(l);
    bool ok = false;
    int c = lockref_count_locked(l);
    if (c > 0) {
        lockref_set_count_locked(l, c + 1);
        ok = true;
    }
    lockref_unlock(l);
    return ok;
}
bool lockref_get_not_dead(lockref& l, SrcLoc at) {
    here(at);
    bool done;
    // The dead test: a count below zero (LOCKREF_DEAD) is never revived.
    bool dead_test = !MUTATION("lockref-get-not-dead-no-dead-test");
    int old = lockref_fast(l, "lockref_get_not_dead", [&](int& c) { if (dead_test && c < 0) return false; c++; return true; }, &done);
    if (done) {
        if (lr_count(old) < 0 && l.revive_inv)
            violate(this_thread(), l.revive_inv, nullptr, 0, "lockref_get_not_dead on dead %s (count %d)",
                    object_name(l.lock_count.owner()), lr_count(old));
        return true;
    }
    if (dead_test && !lr_locked(old) && lr_count(old) < 0) return false;
    lockref_lock(l);
    bool ok = false;
    int c = lockref_count_locked(l);
    if (!dead_test || c >= 0) {
        lockref_set_count_locked(l, c + 1);
        ok = true;
    }
    lockref_unlock(l);
    return ok;
}
int lockref_put_return(lockref& l, SrcLoc at) {
    here(at);
    bool done;
    int old = lockref_fast(l, "lockref_put_return", [](int& c) { if (c <= 0) return false; c--; return true; }, &done);
    if (!done) return -1;
    return lr_count(old) - 1;
}
bool lockref_put_or_lock(lockref& l, SrcLoc at) {
    here(at);
    bool done;
    lockref_fast(l, "lockref_put_or_lock", [](int& c) { if (c <= 1) return false; c--; return true; }, &done);
    if (done) return true;
    lockref_lock(l);
    int c = lockref_count_locked(l);
    if (c <= 1) return false;
    lockref_set_count_locked(l, c - 1);
    lockref_unlock(l);
    return true;
}
void lockref_mark_dead(lockref& l, SrcLoc at) {
    here(at);
    l.lock_count.store(lr_make(LOCKREF_DEAD, true), Acc::Plain);
}
bool lockref_is_dead_locked(lockref& l, SrcLoc at) { here(at); return lockref_count_locked(l) < 0; }

// <linux/wait.h>
// The barriers are the kernel's (kernel/sched/wait.c, v6.18; kernel/sched/
// core.c try_to_wake_up), no more: a barrier the kernel does not have would
// hide the reorderings it allows, and each full barrier is one more step
// every other thread's full barriers are ordered against.
// prepare_to_wait: spin_lock(&wq_head->lock); __add_wait_queue();
// set_current_state() (smp_store_mb: a store and smp_mb()); spin_unlock().
// The task state (`woken`, this thread's bit) is set first here, so that a
// wakeup can only come after it (the kernel's wq_head->lock, which the
// layer does not model, keeps a waker out until both are done); the list
// add then carries set_current_state()'s full barrier (a value-returning
// RMW: the layer gives its fences only to that row).
void prepare_to_wait(wait_queue_head& wq, SrcLoc at) {
    here(at);
    int me = 1 << this_thread();
    wq.woken.rmw(Acc::TaskStateSet, "prepare_to_wait", [&](int& v) { v &= ~me; return true; });
    wq.waiters.rmw(Acc::AtomicRmwFull, "prepare_to_wait", [&](int& v) { v |= me; return true; });
}
// finish_wait: __set_current_state(TASK_RUNNING) (no barrier), then
// list_del_init() under wq_head->lock: an ACQUIRE and a RELEASE, no fence.
void finish_wait(wait_queue_head& wq, SrcLoc at) {
    here(at);
    int me = 1 << this_thread();
    wq.waiters.rmw(Acc::WaitQueueLock, "finish_wait", [&](int& v) { v &= ~me; return true; });
}
// wake_up_all: __wake_up() takes wq_head->lock and walks the list;
// try_to_wake_up() takes p->pi_lock and issues smp_mb__after_spinlock()
// before it reads the task state (the full barrier), then stores
// TASK_RUNNING and unlocks (a RELEASE the woken task acquires).
void wake_up_all(wait_queue_head& wq, SrcLoc at) {
    here(at);
    if (MUTATION("wake-up-all-no-op")) return;
    int w = wq.waiters.rmw(Acc::AtomicRmwFull, "wake_up_all", [](int& v) { v = 0; return true; });
    wq.woken.rmw(Acc::TaskRunning, "wake_up_all", [&](int& v) { v |= w; return true; });
}
bool waitqueue_active(wait_queue_head& wq, SrcLoc at) { here(at); return wq.waiters.load(Acc::ReadOnce) != 0; }

}  // namespace vfsmc
