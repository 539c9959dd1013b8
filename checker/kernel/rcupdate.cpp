// vfsmc kernel-vocabulary layer: the out-of-line RCU and SRCU primitives
// (see rcupdate.h).
#include "kernel/kernel.h"
#include "kernel/layer_state.h"

namespace vfsmc {

// <linux/rcupdate.h>, <linux/srcu.h>
// Domain 0 is RCU; domains 1..kMaxSrcu are SRCU's srcu_structs, each with
// read sections and grace periods of its own, ordered by the same rules on
// words of their own.
// For DPOR and blocking, each thread's read-side state in a domain is a key
// of its own (rcu_key, srcu_key: substrate/deps.h), written only when the
// thread enters or leaves its outermost section (a nested rcu_read_lock
// changes nothing a grace period looks at).
// The list of frees waiting for a grace period is no key: call_rcu() reads
// every reader's key, and a reader's rcu_read_unlock() writes its own before
// it ends the grace periods waiting for it, so each pair that touches one
// entry is ordered by that reader's key; two call_rcu()s only append, and
// two readers that end one grace period free its object at the later
// unlock in either order.
static Key domain_key(int d, int u) { return d == 0 ? rcu_key(u) : srcu_key(d, u); }
static void rcu_read_all(int t, int d = 0) {
    for (int u = 0; u < rt().nthreads; u++) read_global(t, domain_key(d, u));
}
static void gp_end(int waited);
// The running grace period has acquired reader u's word in domain d: it is
// ordered after the loads of the sections released into it, promises
// included (sim::deferred_load_order::take()); `mask`: of those promises,
// the ones it takes.
static void take_open_promises(int d, int u, uint32_t mask = ~0u) {
    if (MUTATION("gp-leaves-section-promises-open")) return;
    sim::deferred_load_order::take(g_ls.gp_open_promises[d][u] & mask);
}
static void rcu_process(int t) {
    for (int i = 0; i < g_ls.npending;) {
        LayerState::Pending& p = g_ls.pending[i];
        p.readers &= ~(1 << t);
        if (p.readers == 0) {
            // The grace period ends: it acquires every section it waited for.
            gp_end(p.waited);
            int id = p.id;
            g_ls.pending[i] = g_ls.pending[--g_ls.npending];
            ExecRecord* rec = rt().rec;
            rec->objects[id].rcu_pending = false;
            kfree_id(id);
        } else {
            i++;
        }
    }
}
// A grace period orders every update made before call_rcu()/
// synchronize_rcu() before every read-side section that the grace period
// does not wait for, and every section it waits for before what follows
// it. Modelled by RMWs of grace-period words (kernel.h), with no fence in
// the read side. The outermost lock is a scheduling point (section_enter);
// the outermost unlock is one under load buffering (section_leave).
//
// Each reader has a word of its own: its rcu_read_lock() is an acquire RMW
// and its rcu_read_unlock() a release RMW of that word, and a grace
// period's start first acquires every reader's word, then releases into
// every word (one step: the union of what it acquired reaches every later
// section); its end does the same with the words of the readers it waited
// for (grace_period()). Read
// sections of different threads do not order each other (they do not in
// the LKMM either), and for DPOR they touch different keys (rcu_gp_key),
// so two readers' rcu_read_lock()/rcu_read_unlock() commute; a grace
// period touches every reader's key. An srcu_up_read() ends a section that
// another thread's srcu_down_read() began: it releases into the word of
// that section's reader.
static Key rcu_gp_key(int d, int t) { return field_key(-2 - t - d * kMaxThreads, "rcu_gp"); }
// Under `sc` the words carry only happens-before (for the race check and
// kfree's free-time plain-access check): every access is sequentially consistent
// already, so they are no DPOR keys there.
// `take`: for a grace period (Acc::RcuGp), the promises it takes of each
// reader's word (take_open_promises()); null: all of them. `words`: the
// readers whose words it acquires and releases into (bit u: reader u).
static void gp_rmw(Acc a, int d = 0, int reader = -1, const uint32_t* take = nullptr, uint32_t words = ~0u) {
    if (!g_ls.gp[d][0]) return;
    bool keys = rt().mm == MemModel::kernel;
    no_preempt np;
    search_observer().before_access(this_thread(), 0, false);
    if (a != Acc::RcuGp) {
        int t = reader >= 0 ? reader : this_thread();
        // The word's RMW depends on no load: a section's start orders
        // nothing before it (so with load buffering an earlier load's
        // promise stays open past rcu_read_lock()). Its end releases the
        // section to the grace periods that read the word, and orders
        // nothing the thread does next: a promise of an earlier load stays
        // open past rcu_read_unlock() too, until a grace period acquires
        // the word (take_open_promises()).
        sim::depend_on(0);
        bool orders_later = a == Acc::RcuUnlock && MUTATION("rcu-unlock-orders-later-loads");
        sim::deferred_load_order deferred(a == Acc::RcuUnlock && !orders_later);
        g_ls.gp_open_promises[d][t] |= deferred.open();
        g_ls.gp[d][t]->fetch_add(0, mo_for(a));
        if (orders_later) sim::order_after_earlier_loads();
        if (keys) note_access(rcu_gp_key(d, t), true);
        return;
    }
    int n = rt().nthreads;
    for (int u = 0; u < n; u++) {
        if (!(words >> u & 1)) continue;
        g_ls.gp[d][u]->fetch_add(0, MemOrder::acquire);
        take_open_promises(d, u, take ? take[u] : ~0u);
    }
    for (int u = 0; u < n; u++) {
        if (!(words >> u & 1)) continue;
        g_ls.gp[d][u]->fetch_add(1, mo_for(a));
        if (keys) note_access(rcu_gp_key(d, u), true);
    }
}
static void gp_fence(int d = 0, const uint32_t* take = nullptr, uint32_t words = ~0u) { gp_rmw(Acc::RcuGp, d, -1, take, words); }
// The end of call_rcu()'s grace period, before its callback (the free): an
// acquire of the words of the readers it waited for, each of which released
// its section into its word when it left; call_rcu() released into every
// word, so the free also happens after call_rcu() (release sequence). What
// follows the end is the free alone, so it releases nothing, and it reads
// (for DPOR) only the waited readers' keys: a section of a thread it did
// not wait for is not ordered against it.
static void gp_end(int waited) {
    if (!g_ls.gp[0][0]) return;
    bool keys = rt().mm == MemModel::kernel;
    no_preempt np;
    for (int u = 0; u < rt().nthreads; u++)
        if (waited & (1 << u)) {
            g_ls.gp[0][u]->fetch_add(0, MemOrder::acquire);
            take_open_promises(0, u);
            if (keys) note_access(rcu_gp_key(0, u), false);
        }
}
void rcu_gp_order(const char*) { gp_rmw(Acc::RcuGp); }

// Enter a read section of domain d as thread t's (`reader`, for
// srcu_down_read: the section is the opener's until srcu_up_read ends it).
// `slotted`: an srcu_read_lock() section, a section of its own even inside
// another (srcu_read_lock()).
static void section_enter(int d, const char* what, bool slotted = false) {
    int t = this_thread();
    // The outermost lock starts the section in a step of its own: another
    // thread may run between the access before it and the section's start
    // (a grace period that begins after that thread saw the access, and
    // ends before the section, orders the section after it). So does every
    // srcu_read_lock(), whose section a grace period may or may not wait for.
    if (g_ls.no_sections[d])
        throw std::logic_error(std::string(what) + ": a read-side section of a domain declared without readers (rcu_domain_without_readers)");
    if (g_ls.rcu_nest[d][t] == 0 || slotted) sched_point();
    if (g_ls.rcu_nest[d][t]++ == 0 || slotted) {
        write_global(domain_key(d, t));
        gp_rmw(Acc::RcuLock, d);
        int ev = log_access(t, Ev::Lock, -1, what, nullptr, 0, 0);
        if (Event* e = event_at(ev)) {
            e->sync = Sync::Acquire;
            e->lock = LockClass::Rcu;
        }
        if (ev >= 0) access_logged(Ev::Lock);
    }
}
// Leave reader u's section of domain d (this thread is u, or ends u's
// srcu_down_read section).
// `slot`: the srcu_read_lock() section's slot, or -1.
static void section_leave(int d, int u, const char* what, bool log = true, int slot = -1) {
    int t = this_thread();
    if ((g_ls.rcu_nest[d][u] == 1 || slot >= 0) && sim::promises_on()) {
        // With load buffering on, the outermost unlock is a scheduling
        // point: a grace period may start between the section's last
        // access and its end, so that it waits for the section, and a
        // store that keeps a promise of the section's loads may run before
        // the grace period acquires the section (take_open_promises()).
        sched_point();
    }
    bool outer = --g_ls.rcu_nest[d][u] == 0;
    if (slot >= 0) {
        g_ls.srcu_open[d][u] &= ~(1u << slot);
        g_ls.srcu_slot_gen[d][u][slot]++;
    }
    if (outer || slot >= 0) {
        write_global(domain_key(d, u));
        gp_rmw(Acc::RcuUnlock, d, u);
        if (outer) g_ls.rcu_gen[d][u]++;
        int ev = log ? log_access(t, Ev::Unlock, -1, what, nullptr, 0, 0) : -1;
        if (Event* e = event_at(ev)) {
            e->sync = Sync::Release;
            e->lock = LockClass::Rcu;
        }
        if (ev >= 0) access_logged(Ev::Unlock);
        if (d == 0) rcu_process(u);
    }
}
void rcu_read_lock(SrcLoc at) {
    here(at);
    section_enter(0, "rcu_read_lock");
}
void rcu_read_unlock(SrcLoc at) {
    here(at);
    int t = this_thread();
    if (g_ls.rcu_nest[0][t] <= 0) {
        violate(t, "lock-misuse", nullptr, 0, "rcu_read_unlock without rcu_read_lock");
        return;
    }
    section_leave(0, t, "rcu_read_unlock");
}
bool rcu_read_lock_held() { return g_ls.rcu_nest[0][this_thread()] > 0; }
void call_rcu_free(int id, SrcLoc at) {
    here(at);
    int t = this_thread();
    gp_fence();
    rcu_read_all(t);
    int readers = 0;
    for (int u = 0; u < rt().nthreads; u++)
        if (g_ls.rcu_nest[0][u] > 0 && u != t) readers |= 1 << u;
    // The caller's own read section, if any, also delays the grace period.
    if (g_ls.rcu_nest[0][t] > 0) readers |= 1 << t;
    log_event(t, Ev::Step, id, "call_rcu", nullptr, 0, 0, "%s freed after a grace period", object_name(id));
    if (readers == 0) {
        kfree_id(id);
        return;
    }
    // A free past the table would have to happen at once, before the
    // readers leave: a world this large is refused loudly instead.
    if (g_ls.npending >= kMaxPendingFrees) {
        std::fprintf(stderr, "internal error: more than %d RCU frees pending in one execution; accepted: at most %d\n",
                     kMaxPendingFrees, kMaxPendingFrees);
        std::abort();
    }
    rt().rec->objects[id].rcu_pending = true;
    g_ls.pending[g_ls.npending++] = {id, readers, readers};
}
// synchronize_rcu() and synchronize_srcu() are full barriers at both ends
// (the LKMM's strong-fence = mb | gp): what the caller did before the grace
// period is ordered, for every thread, before what it does after, as
// smp_mb() orders it. Under `sc` every access is ordered already.
static void gp_full_barrier() {
    if (rt().mm != MemModel::kernel) return;
    sim::fence(MemOrder::seq_cst);
    note_read_fence();
    note_strong_fence_order();
}
static void grace_period(int d, const char* what) {
    int t = this_thread();
    if (g_ls.no_sections[d]) {
        gp_full_barrier();
        log_event(t, Ev::Step, -1, what, nullptr, 0, 0, "a grace period with no reader to wait for");
        return;
    }
    gp_full_barrier();
    // A reader's section ends, for the grace periods, when its loads are
    // satisfied: rcu_read_unlock() orders nothing the thread does next, so
    // a store after it may reach other threads while a load inside the
    // section still waits for the store it will read (load buffering; the
    // load's promise is open). A grace period that starts then waits for
    // that section as for one still running: its start leaves open
    // promises open (`late`), and it ends once they are kept, ordered
    // after those loads. The sections of other readers that began after
    // its start are not waited for, and their promises stay open past its
    // end. (Taken at the start instead, the promises would be refused: a
    // section that ended before the grace period, whatever it read.)
    int n = rt().nthreads;
    uint32_t late[kMaxThreads] = {}, take_start[kMaxThreads], take_end[kMaxThreads] = {};
    bool delay = !MUTATION("gp-refuses-late-section-end");
    for (int u = 0; u < n; u++) {
        if (delay && u != t) late[u] = sim::promises_open(g_ls.gp_open_promises[d][u]);
        take_start[u] = ~late[u];
    }
    gp_fence(d, delay ? take_start : nullptr);
    rcu_read_all(t, d);
    int readers = 0;
    for (int u = 0; u < n; u++)
        if (g_ls.rcu_nest[d][u] > 0 && u != t) readers |= 1 << u;
    if (g_ls.rcu_nest[d][t] > 0) {
        // It waits for its own section, which cannot end while it waits: a
        // deadlock, after the misuse is reported (herd7 finds no execution
        // of such a test: the kernel's judgelitmus.sh says DEADLOCK). The
        // layer mutation gp-in-own-section-returns returns at once instead.
        violate(t, "lock-misuse", nullptr, 0, "%s inside a read-side section of its own domain", what);
        if (MUTATION("gp-in-own-section-returns")) return;
        readers |= 1 << t;
    }
    log_event(t, Ev::Step, -1, what, nullptr, 0, 0, "waits for a grace period");
    if (d == 0 && MUTATION("synchronize-rcu-no-wait")) return;
    // Wait until every thread that was a reader when it started has left
    // its section (a thread that entered a new section since is not waited
    // for). An SRCU reader's srcu_read_lock() sections are waited for one
    // by one: those open at the start, not one that began since, even if
    // it overlaps them (srcu_read_lock()); its srcu_down_read() sections by
    // count, as RCU's.
    int gen[kMaxThreads];
    unsigned slots[kMaxThreads];
    int down[kMaxThreads];
    int sgen[kMaxThreads][LayerState::kSrcuSlots];
    for (int u = 0; u < kMaxThreads; u++) {
        gen[u] = g_ls.rcu_gen[d][u];
        slots[u] = g_ls.srcu_open[d][u];
        down[u] = g_ls.rcu_down[d][u];
        for (int k = 0; k < LayerState::kSrcuSlots; k++) sgen[u][k] = g_ls.srcu_slot_gen[d][u][k];
    }
    auto waits_for = [&](int u) {
        if (g_ls.rcu_nest[d][u] == 0 || g_ls.rcu_gen[d][u] != gen[u]) return false;
        if (d == 0 || (slots[u] == 0 && down[u] == 0)) return true;
        for (int k = 0; k < LayerState::kSrcuSlots; k++)
            if ((slots[u] >> k & 1) && (g_ls.srcu_open[d][u] >> k & 1) && g_ls.srcu_slot_gen[d][u][k] == sgen[u][k])
                return true;
        return down[u] > 0 && g_ls.rcu_down[d][u] > 0;
    };
    // A promise still open of a late section, or of a waited reader's
    // sections since: the grace period waits for a store to keep it (for
    // dpor and parking, it reads the promise's location).
    auto promises_wait = [&](int u) {
        uint32_t open = sim::promises_open(late[u] | ((readers >> u & 1) ? g_ls.gp_open_promises[d][u] : 0));
        for (int i = 0; open >> i; i++)
            if (open >> i & 1) read_global(t, sim::promise_key(i));
        return open != 0;
    };
    // The condition reads the word of each reader it waits for as it
    // looks at it, up to the first still in its section, and no other:
    // another thread's section boundaries change nothing in it.
    wait_until(what, -1, true, [&] {
        for (int u = 0; u < n; u++) {
            if (!(readers >> u & 1)) continue;
            if (!MUTATION("gp-wait-reads-no-reader-words")) read_global(t, domain_key(d, u));
            if (waits_for(u)) return false;
        }
        for (int u = 0; u < n && delay; u++)
            if (promises_wait(u)) return false;
        return true;
    });
    // Its end acquires the sections it waited for, and releases into
    // their words (and its own): a section that began after its start is
    // not ordered against its end (the LKMM orders such a section after
    // the start alone), and its boundaries commute with the end for dpor.
    uint32_t waited = 1u << t | readers;
    for (int u = 0; u < n; u++) {
        if (late[u]) waited |= 1u << u;
        take_end[u] = late[u] || (readers >> u & 1) ? ~0u : 0;
    }
    if (MUTATION("gp-end-orders-every-section")) waited = ~0u;
    // The end and the full barrier after it are one step: no other thread
    // runs between them. What another thread's step X could do there, it
    // does with no more constraint before the end, in the step of the
    // wait's last check:
    // - X touches nothing the end touches but a waited reader's word (its
    //   next section's rcu_read_lock()) or another grace period's word:
    //   before the end, X is not ordered after it, and the end is ordered
    //   after X only where the barrier after X's thread's grace period
    //   ordered it already (the full barriers of two grace periods are in
    //   one order);
    // - every other X commutes with the end, and its place against the
    //   barrier stays the same;
    // - X changes nothing the wait's last check reads: the readers it
    //   waited for have left, and a new section of theirs is not waited for;
    // - the barrier's own scheduling point (sim::fence()) applies this
    //   thread's kept promises, and it has none open: the full barrier at
    //   the start ordered its earlier loads.
    // Checked, not only argued: every corpus and generated test prints the
    // same output with the two steps (cli.bats, VFSMC_TEST_GP_END=split).
    if (g_ls.gp_end_split) {
        gp_fence(d, delay ? take_end : nullptr, waited);
        gp_full_barrier();
        return;
    }
    no_preempt np;
    gp_fence(d, delay ? take_end : nullptr, waited);
    gp_full_barrier();
}
void rcu_grace_period_end_split() {
    if (rt().in_thread) throw std::logic_error("rcu_grace_period_end_split: in the setup");
    g_ls.gp_end_split = true;
}
void rcu_domain_without_readers(int d) {
    if (d < 0 || d >= kRcuDomains || rt().in_thread) throw std::logic_error("rcu_domain_without_readers: a domain, in the setup");
    g_ls.no_sections[d] = true;
}
void synchronize_rcu(SrcLoc at) {
    here(at);
    grace_period(0, "synchronize_rcu");
}

static void srcu_domain_check(int d) {
    if (d < 1 || d >= kRcuDomains || !g_ls.gp[d][0])
        throw std::logic_error("srcu: domain " + std::to_string(d) + " was not set up by init_srcu_struct");
}
int srcu_read_lock(int d) {
    srcu_domain_check(d);
    int t = this_thread();
    int k = 0;
    while (k < LayerState::kSrcuSlots && (g_ls.srcu_open[d][t] >> k & 1)) k++;
    if (k == LayerState::kSrcuSlots) {
        violate(t, "lock-misuse", nullptr, 0, "more than %d srcu_read_lock() sections open in one thread",
                LayerState::kSrcuSlots);
        return 0;
    }
    section_enter(d, "srcu_read_lock", true);
    g_ls.srcu_open[d][t] |= 1u << k;
    g_ls.srcu_slot_opened[d][t][k] = ++g_ls.srcu_opens;
    return k + 1;
}
void srcu_read_unlock(int d, int section) {
    srcu_domain_check(d);
    int t = this_thread();
    unsigned open = g_ls.srcu_open[d][t];
    if (MUTATION("srcu-unlock-ignores-index")) section = 0;
    int k = section - 1;
    if (section == 0)  // not told which: the latest opened
        for (int j = 0; j < LayerState::kSrcuSlots; j++)
            if ((open >> j & 1) && (k < 0 || g_ls.srcu_slot_opened[d][t][j] > g_ls.srcu_slot_opened[d][t][k])) k = j;
    if (k < 0 || k >= LayerState::kSrcuSlots || !(open >> k & 1)) {
        violate(t, "lock-misuse", nullptr, 0,
                section ? "srcu_read_unlock of a section already ended" : "srcu_read_unlock without srcu_read_lock");
        return;
    }
    section_leave(d, t, "srcu_read_unlock", true, k);
    note_srcu_unlock(t);
}
void srcu_down_read(int d) {
    srcu_domain_check(d);
    section_enter(d, "srcu_down_read");
    g_ls.rcu_down[d][this_thread()]++;
}
void srcu_up_read(int d) {
    srcu_domain_check(d);
    int t = this_thread();
    // The section ended: this thread's own srcu_down_read one if it has
    // one, else the first other thread's.
    int u = g_ls.rcu_down[d][t] > 0 ? t : -1;
    for (int v = 0; v < rt().nthreads && u < 0; v++)
        if (g_ls.rcu_down[d][v] > 0) u = v;
    rcu_read_all(t, d);
    if (u < 0) {
        violate(t, "lock-misuse", nullptr, 0, "srcu_up_read without srcu_down_read");
        return;
    }
    g_ls.rcu_down[d][u]--;
    section_leave(d, u, "srcu_up_read");
    note_srcu_unlock(t);
}
void synchronize_srcu(int d) {
    srcu_domain_check(d);
    grace_period(d, "synchronize_srcu");
}

// A thread that finishes ends its read sections (it cannot hold one); an
// srcu_down_read section stays until an srcu_up_read ends it.
void rcu_thread_exit(int t) {
    for (int d = 0; d < kRcuDomains; d++) {
        int own = g_ls.rcu_nest[d][t] - g_ls.rcu_down[d][t];
        if (own == 0) continue;   // not a reader: nothing changes
        g_ls.rcu_nest[d][t] = g_ls.rcu_down[d][t] + 1;
        section_leave(d, t, nullptr, false);
    }
}

}  // namespace vfsmc
