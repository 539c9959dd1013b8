// vfsmc: dynamic partial-order reduction, as a Relacy scheduler.
//
// Source-set DPOR with sleep sets (Flanagan and Godefroid, POPL 2005;
// Abdulla, Aronis, Jonsson and Sagonas, "Optimal dynamic partial order
// reduction", POPL 2014, Algorithm 1). It explores at least one execution of
// every Mazurkiewicz trace of the scenario: two interleavings that differ
// only in the order of independent steps are one trace.
//
// - A step is what a thread does from one scheduling point to its next; the
//   layer reports the keys it touched (substrate/deps.h). Steps of different
//   threads are dependent when they share a key and one of them writes it.
// - The search is a depth-first walk over a tree of choice nodes, replayed
//   from the root for every execution (Relacy runs each execution from the
//   start). A thread-choice node has a backtrack set, a done set and a sleep
//   set; a data node (a kchoose, or which store a relaxed load reads under
//   the `kernel` memory model) is explored in full, like the plain search.
// - After each execution, every race (two dependent steps of different
//   threads with no happens-before between them but the race itself) adds
//   to the backtrack set of the node before the first step an initial of
//   the reversed sequence: notdep(e, E).e'.
// - Sleep sets: after a thread was explored from a node, it sleeps in the
//   sibling subtrees until a step dependent with the step it took there
//   runs. An execution whose every enabled thread sleeps is redundant and is
//   abandoned (counted as sleep-blocked, not as an execution of its own).
//
// A parked thread (parking.h) is not enabled; it becomes enabled when a
// write wakes it, and that write is dependent with the re-evaluation it
// wakes, so the races around a wait are reversed like any other (but see
// the failed-await marks below).
//
// Wakeup sequences: a thread added to a backtrack set keeps the
// thread order of the race reversal that added it (u first, then the
// rest of notdep(e, E).e'), and the next execution follows it past the
// replayed prefix while its threads are awake, as Optimal-DPOR's wakeup
// trees do; most sleep-blocked executions came from leaving that order
// at once. Any awake thread is a sound choice at a new node, so following
// it costs no soundness.
//
// What is left out: full wakeup trees (Optimal-DPOR: one sequence per
// backtrack thread is kept, truncated at kMaxWake, and a later reversal
// with an initial already in the backtrack set is not merged into it), so
// sleep-blocked executions remain; plain accesses that race are reported
// as data races by the layer rather than reversed.
//
// Six extensions, each in a file of its own with its argument, and
// called here where it acts:
// - the failed-await marks (await_marks.h): a wait condition that failed
//   and parked is no event of its own, so its reads are marked and
//   analyze() orders such a read before another thread's write without
//   reversing it (await_race); close_step() marks the earlier steps of a
//   retry pass that failed (mark_failed_pass);
// - the lock handoff rule (handoff.h): a waiting acquire after an exclusive
//   release races with the acquire the release ends (handoff_race, in
//   analyze());
// - the reorder cut (reorder_cut.h): an execution ended at the close of a
//   step whose stale read could run before the store it missed
//   (reorder_cut());
// - the identical-threads rule (symmetry.h): a thread of a class of
//   identical threads is not enabled (choose()) for a step that starts
//   with a write before the next lower one of its class has taken such a
//   step or ended, and analyze() orders the step that released it before
//   the thread's own first such step;
// - the refused-promise rule (refused.h): a thread whose load-buffering
//   promise was refused is not enabled (choose(); under the test-only
//   `end`, the refusing step ends the execution, dependent with every step
//   of the other threads: end_at_refusal());
// - the needless-promise cut (kept_cut.h): take() counts each thread's
//   steps, and the search's policy ends an execution whose promise is kept
//   before its reader took another step.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>

#include "search/await_marks.h"
#include "search/dpor_link.h"
#include "search/commute.h"
#include "search/dpor_step.h"
#include "search/fence_order.h"
#include "search/handoff.h"
#include "search/policies.h"
#include "search/refused.h"
#include "search/reorder_cut.h"
#include "search/symmetry.h"
#include "substrate/deps.h"
#include "substrate/runtime.h"
#include "substrate/sim.h"

namespace vfsmc {

// What a DPOR search did, across its executions.
struct DporStats {
    uint64_t sleep_blocked = 0;   // executions abandoned as redundant
    uint64_t races = 0;           // races found (backtrack candidates)
    uint64_t max_depth = 0;       // deepest choice path
    bool replay_mismatch = false; // a replayed path did not fit the execution
    double explored_share = 0;    // the share of the tree explored, read off the last path (explored_share())
};
// The running search's statistics, handoff rule and commuting-adds rule
// (engine.cpp: the search object of the run owns them).
DporStats& dpor_stats();
Handoff dpor_handoff();
Commute dpor_commute();
FenceOrder dpor_fence_order();
// The running search's classes of identical threads (symmetry.h), or null
// when the rule is off or no two threads are of one class.
const ThreadClasses* dpor_symmetry();
RefusedPromise dpor_refused();

template <rl::thread_id_t N>
class dpor_scheduler : public rl::scheduler<dpor_scheduler<N>, rl::scheduler_thread_info, N> {
public:
    typedef rl::scheduler<dpor_scheduler<N>, rl::scheduler_thread_info, N> base_t;
    typedef typename base_t::thread_info_t thread_info_t;
    typedef typename base_t::shared_context_t shared_context_t;
    struct task_t {};

    dpor_scheduler(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
        : base_t(params, ctx, dynamic_thread_count) {
        nodes_.reserve(512);
        steps_.reserve(512);
    }

    rl::thread_id_t iteration_begin_impl() {
        if (!seeded_) seed();
        sym_ = replay_ ? nullptr : dpor_symmetry();
        refused_ = dpor_refused();
        for (int u = 0; u < (int)N; u++) release_at_[u] = en_step_[u] = last_step_[u] = -1;
        deps().next_writes = 0;  // every thread at its start (the layer's reset runs after this first choice)
        SearchPolicies::running().stale().take_candidate();  // none carries over from the last execution
        follow_pos_ = 0;
        depth_ = 0;
        steps_.clear();
        step_data_.clear();
        data_before_ = 0;
        last_sched_ = -1;
        halted_ = false;
        deps().nstep = 0;
        return choose(true);
    }

    rl::thread_id_t schedule_impl(rl::unpark_reason& reason, unsigned /*yield*/) {
        reason = rl::unpark_reason_normal;
        reorder_cut();
        close_step();
        if (halted_ || rt().pruned) return any_running();
        return choose(false);
    }

    unsigned rand_impl(unsigned limit, rl::sched_type t) {
        if (halted_ || rt().pruned) return 0;
        if (depth_ < nodes_.size()) {
            Node& n = nodes_[depth_];
            if (n.sched || n.count != limit || n.index >= limit) return mismatch();
            depth_++;
            if (link_) note_data(n.index);
            return n.index;
        }
        if (replay_) return mismatch();
        Node n;
        n.sched = false;
        n.type = (uint8_t)t;
        n.count = (uint16_t)limit;
        n.end = (uint16_t)limit;
        n.index = 0;
        nodes_.push_back(n);
        depth_++;
        if (link_) note_data(0);
        return 0;
    }

    bool iteration_end_impl() {
        SearchPolicies::running().stale().take_candidate();  // none carries over from the last execution
        close_step();
        if (refused_ == RefusedPromise::end && !halted_ && !rt().pruned && sim::refused_readers()) end_at_refusal();
        if (depth_ > dpor_stats().max_depth) dpor_stats().max_depth = depth_;
        if (replay_) return true;
        if (nodes_.size() > depth_) nodes_.resize(depth_);  // a halted execution took fewer choices
        analyze();
        dpor_stats().explored_share = explored_share();
        if (link_) {
            RealHeap h;
            for (Given& g : given_)
                if (g.live) g.weight = branch_weight(g.depth);
            link_->explored(dpor_stats().explored_share, given_weights());
            if (!halted_ && !rt().pruned) link_->complete_execution(trace_hash());
            serve();
        }
        return !next_path();
    }

    rl::iteration_t iteration_count_impl() { return (rl::iteration_t)1 << 40; }

    // The token: the choice path of the running execution, in the format of
    // Relacy's tree schedulers: SIZE (COUNT INDEX TYPE)*. A thread choice is
    // COUNT = the thread count, INDEX = the thread.
    void get_state_impl(std::ostream& ss) {
        size_t n = depth_ < nodes_.size() ? depth_ : nodes_.size();
        ss << (unsigned)n << " ";
        for (size_t i = 0; i < n; i++) {
            const Node& x = nodes_[i];
            if (x.sched) ss << (unsigned)N << " " << (unsigned)x.chosen << " " << (unsigned)rl::sched_type_sched << " ";
            else ss << x.count << " " << x.index << " " << (unsigned)x.type << " ";
        }
    }
    void set_state_impl(std::istream& ss) {
        size_t size = 0;
        ss >> size;
        nodes_.clear();
        for (size_t i = 0; i < size && ss; i++) {
            unsigned count = 0, index = 0, type = 0;
            ss >> count >> index >> type;
            Node n;
            n.sched = type == (unsigned)rl::sched_type_sched;
            if (n.sched) n.chosen = (uint8_t)index;
            n.count = (uint16_t)count;
            n.index = (uint16_t)index;
            n.type = (uint8_t)type;
            nodes_.push_back(n);
        }
        replay_ = true;
    }

    void on_thread_block(rl::thread_id_t, bool) {}
    // A thread ends, in its last step (Relacy calls this on its fiber).
    void thread_finished_impl() {
        if (!steps_.empty()) note_clocks(steps_.back());
    }

private:
    static constexpr int kMaxWake = 48;   // longest wakeup sequence kept (a longer one is followed in part)
    // A user-provided constructor: a new node is built in place, its
    // AccSet arrays left unwritten (only their counts are set).
    struct Node {
        Node() {}
        bool sched = true;
        uint8_t type = 0;
        uint16_t count = 0, index = 0;     // data node
        uint8_t enabled = 0, chosen = 0, backtrack = 0, done = 0, sleep = 0;
        // A parallel piece (dpor_link.h): threads given away to other
        // pieces, explored there (never here, and never asleep here); a data
        // node explores its values below `end` (the rest were given away);
        // `shared`: a piece was given away at or below this node.
        uint8_t given = 0;
        bool shared = false;
        uint16_t end = 0;
        int16_t sleep_src[N];              // node whose explored[] holds a sleeper's step
        AccSet explored[N];                // each thread's step from here (union over its subtree)
        // The wakeup sequence of each thread added to the backtrack set:
        // the thread order of the reversed race, u first (see reverse()).
        uint8_t wake_len[N];
        uint8_t wake[N][kMaxWake];
    };
    using Step = DporStep;

    typename rl::vector<Node>::type nodes_;   // Relacy's raw allocator: the simulated heap is per execution
    typename rl::vector<Step>::type steps_;
    size_t depth_ = 0;
    int last_sched_ = -1;
    bool halted_ = false;
    bool replay_ = false;
    // The wakeup sequence being followed past the replayed prefix.
    uint8_t follow_[kMaxWake];
    int follow_len_ = 0, follow_pos_ = 0;
    // A parallel piece (dpor_link.h): the prefix's nodes 0..root_-1 are
    // fixed; null link: a serial search, root_ 0.
    DporLink* link_ = nullptr;
    bool seeded_ = false;
    size_t root_ = 0;
    typename rl::vector<uint64_t>::type step_data_;  // each step's data choices, hashed (trace_hash())
    typename rl::vector<uint16_t>::type path_;
    // The identical-threads rule (symmetry.h): its classes (null: off); of
    // each thread in this execution, its first step that started with a
    // write (-1: none yet), the step that enabled that one (the release of
    // the next lower thread of its class; -1: none), and its last step.
    const ThreadClasses* sym_ = nullptr;
    RefusedPromise refused_ = RefusedPromise::stop;
    int release_at_[N], en_step_[N], last_step_[N];

    static uint8_t bit(int t) { return (uint8_t)(1u << t); }

    uint8_t running_mask() const {
        uint8_t m = 0;
        for (rl::thread_id_t i = 0; i < this->running_threads_count; i++) m |= bit((int)this->running_threads[i]);
        return m;
    }
    rl::thread_id_t any_running() const {
        if (this->thread_ && this->thread_->state_ == rl::thread_state_running) return this->thread_->index_;
        return this->running_threads[0];
    }
    unsigned mismatch() {
        dpor_stats().replay_mismatch = true;
        halted_ = true;
        rt().pruned = true;
        return 0;
    }

    // The step that ran since the last thread choice is over.
    void close_step() {
        Deps& d = deps();
        if (last_sched_ >= 0 && !steps_.empty()) {
            AwaitMarks::PassMark m = SearchPolicies::running().awaits().take_failed_pass();
            if (m.thread >= 0) mark_failed_pass(m, steps_.data(), (int)steps_.size(), d);
            Step& s = steps_.back();
            if (!s.acc.assign_unique(d.step, d.nstep))  // a step closed twice, or with kKeyAll
                for (int i = 0; i < d.nstep; i++)
                    s.acc.add(d.step[i].key, d.step[i].write, d.step[i].await, d.step[i].lk, d.step[i].add, d.step[i].quiet);
            if (d.step_overflow) s.acc.all = true;
            note_clocks(s);
            AccSet& ex = nodes_[last_sched_].explored[s.thread];
            if (ex.n == 0 && !ex.all) ex = s.acc;
            else ex.add(s.acc);
        }
        d.nstep = 0;
        d.step_overflow = false;
        d.steps++;
    }

    // The clocks the observed-fence-order rule reads (fence_order.h), as
    // the step closes; its thread's are read while that thread runs (the
    // end of an execution runs on no thread: thread_finished_impl() read
    // them as the step's thread ended).
    void note_clocks(Step& s) {
        uint64_t own, know[kMaxThreads];
        if (sim::running_knowledge(s.thread, own, know)) {
            s.own_end = own;
            for (int u = 0; u < kMaxThreads; u++) s.know_end[u] = know[u];
        }
        sim::fence_order_clock(s.order_end, (int)N);
    }

    rl::thread_id_t choose(bool first) {
        uint8_t enabled = running_mask();
        if (!first) {
            // The refused-promise rule (refused.h). (At the first choice no
            // thread has run, and the layer's promises are the last
            // execution's.)
            bool end;
            uint8_t refused = (uint8_t)sim::refused_readers();
            if (refused_ == RefusedPromise::end && refused) {
                end_at_refusal();
                return any_running();
            }
            enabled = refused_rule(refused_, enabled, refused, end);
            if (end) {
                halted_ = true;
                rt().pruned = true;
                return any_running();
            }
        }
        if (sym_) {
            // S' of the identical-threads rule: a thread whose next step
            // starts with a write is not enabled while the next lower
            // thread of its class is not released. When that leaves no
            // thread (that one is parked), S' ends here; the search goes on
            // in S, which only adds executions.
            uint8_t b = sym_->blocked(released(), deps().next_writes);
            if (enabled & ~b) enabled &= (uint8_t)~b;
        }
        int prev = last_sched_;
        if (depth_ < nodes_.size()) {
            Node& n = nodes_[depth_];
            if (!n.sched || !(enabled & bit(n.chosen))) {
                mismatch();
                return any_running();
            }
            if (depth_ < root_) n.enabled = enabled;
            return take(n, depth_++, n.chosen);
        }
        if (replay_) {
            mismatch();
            return any_running();
        }
        nodes_.emplace_back();  // built in place: a Node is large
        Node& n = nodes_.back();
        n.sched = true;
        n.enabled = enabled;
        for (int u = 0; u < (int)N; u++) {
            n.sleep_src[u] = -1;
            n.wake_len[u] = 0;
        }
        if (!first && prev >= 0) {
            // Sleepers of the previous choice node, and the threads already
            // explored there, sleep on unless the step just taken is
            // dependent with the step they would take.
            const Node& a = nodes_[prev];
            const Step& s = steps_.back();
            const Commute commute = dpor_commute();
            for (int u = 0; u < (int)N; u++) {
                if (u == s.thread) continue;
                const AccSet* acc = nullptr;
                int src = -1;
                if (a.done & bit(u)) {
                    acc = &a.explored[u];
                    src = prev;
                } else if (a.sleep & bit(u)) {
                    src = a.sleep_src[u];
                    acc = &nodes_[src].explored[u];
                }
                if (acc && (!acc->dependent(s.acc, commute) || fences_commute(*acc, u, src, commute))) {
                    n.sleep |= bit(u);
                    n.sleep_src[u] = (int16_t)src;
                }
            }
        }
        uint8_t awake = enabled & ~n.sleep;
        if (!awake) {
            // Every enabled thread sleeps: an equivalent execution was explored.
            nodes_.pop_back();
            dpor_stats().sleep_blocked++;
            halted_ = true;
            rt().pruned = true;
            rt().sleep_blocked = true;
            return any_running();
        }
        // Follow the wakeup sequence of the branch taken at the last
        // backtrack point while its threads are awake; then stay on the
        // running thread when it may go on: fewer switches. (Any awake
        // thread is a sound choice at a new node.)
        int pick = -1;
        if (follow_pos_ < follow_len_) {
            int u = follow_[follow_pos_++];
            if (awake & bit(u)) pick = u;
            else follow_len_ = 0;
        }
        if (pick < 0 && !first && this->thread_ && (awake & bit((int)this->thread_->index_))) pick = (int)this->thread_->index_;
        for (int u = 0; pick < 0 && u < (int)N; u++)
            if (awake & bit(u)) pick = u;
        n.chosen = (uint8_t)pick;
        n.backtrack = bit(pick);
        return take(n, depth_++, n.chosen);
    }

    // The observed-fence-order rule for the sleep sets (fence_order.h):
    // thread u sleeps on its step `acc` from node `src`, a fence step, and
    // the step just closed is another thread's fence step, dependent with
    // it only through the fence order. The two fences' orders cannot be
    // told apart by any step to come when neither fence learns, in either
    // order, an event whose knowledge bounds an access (Access::quiet; in
    // a program with no C plain access and no free, a read of an initial
    // value or of an object's liveness bounds none): then u sleeps on.
    // Only in such a program (sim::marked_only()), and in an execution with
    // no promise so far, where what a thread knows changes only as it runs,
    // so that u knows now what it knew at src.
    bool fences_commute(const AccSet& acc, int u, int src, Commute commute) const {
        if (dpor_fence_order() != FenceOrder::observed || !sim::marked_only() || sim::promises_made() > 0) return false;
        const Step& b = steps_.back();
        if (acc.all || b.acc.all || !writes_fence(acc) || !writes_fence(b.acc) || acc.dependent_besides(b.acc, kKeyScFence, commute))
            return false;
        int last_u = -1, before_b = -1, at_src = -1;
        const int n = (int)steps_.size();
        for (int k = n - 2; k >= 0 && (last_u < 0 || before_b < 0 || at_src < 0); k--) {
            if (last_u < 0 && steps_[k].thread == u) last_u = k;
            if (before_b < 0 && steps_[k].thread == b.thread) before_b = k;
            if (steps_[k].node == src) at_src = k;
        }
        if (last_u < 0 || steps_[last_u].own_end == Step::kUnread || b.own_end == Step::kUnread) return false;
        const uint64_t* know_u = steps_[last_u].know_end;
        uint64_t lo1[N], hi1[N], lo2[N], hi2[N];
        for (int w = 0; w < (int)N; w++) {
            uint64_t order_src = at_src > 0 ? steps_[at_src - 1].order_end[w] : 0;
            uint64_t order_b = n > 1 ? steps_[n - 2].order_end[w] : 0;
            uint64_t b_before = before_b >= 0 && steps_[before_b].know_end[w] != Step::kUnread ? steps_[before_b].know_end[w] : 0;
            // B learns from A (A first, as explored from src).
            lo1[w] = std::max(b_before, order_src);
            hi1[w] = know_u[w];
            // A learns from B (B first, as here).
            lo2[w] = std::max(know_u[w], order_b);
            hi2[w] = b.know_end[w];
        }
        uint64_t own[N] = {};
        for (int k = 0; k < n; k++) {
            const Step& t = steps_[k];
            int w = t.thread;
            uint64_t start = own[w];
            if (t.own_end != Step::kUnread) own[w] = t.own_end;
            bool in1 = hi1[w] > lo1[w] && start < hi1[w] && t.own_end > lo1[w];
            bool in2 = hi2[w] > lo2[w] && start < hi2[w] && t.own_end > lo2[w];
            if ((in1 || in2) && bounds_any(t.acc)) return false;
        }
        return true;
    }
    static bool writes_fence(const AccSet& acc) {
        for (int a = 0; a < acc.n; a++)
            if (acc.a[a].key == kKeyScFence && acc.a[a].write) return true;
        return false;
    }
    // Knowing the step bounds some access (in a program with no C plain
    // access and no free): it has a key besides the fence order that it
    // writes, or reads with kQuietNone.
    static bool bounds_any(const AccSet& acc) {
        if (acc.all) return true;
        for (int a = 0; a < acc.n; a++)
            if (acc.a[a].key != kKeyScFence && (acc.a[a].write || acc.a[a].quiet == kQuietNone)) return true;
        return false;
    }

    // The refused-promise rule's `end` (refused.h): the step just closed
    // refused a promise. It is dependent with every step of every other
    // thread, those before it (analyze() races it with each) and the next
    // one of each thread enabled where it was chosen (added to that
    // node's backtrack set here); the execution ends with it, pruned.
    void end_at_refusal() {
        halted_ = true;
        rt().pruned = true;
        if (steps_.empty()) return;
        Step& s = steps_.back();
        s.acc.all = true;
        Node& a = nodes_[s.node];
        a.explored[s.thread].all = true;
        for (int u = 0; u < (int)N; u++) {
            if (u == s.thread || !(a.enabled & bit(u))) continue;
            uint8_t seq[1] = {(uint8_t)u};
            reverse_at(s.node, bit(u), seq, 1);
        }
    }
    // The identical-threads rule: the threads released (a step that started
    // with a write taken, or ended).
    uint8_t released() const {
        uint8_t m = 0;
        for (int u = 0; u < (int)N; u++)
            if (release_at_[u] >= 0 || this->threads_[u].state_ == rl::thread_state_finished) m |= bit(u);
        return m;
    }
    // Thread t's step about to begin: its first that starts with a write
    // releases it, and is enabled by the release of the thread before it
    // in its class (its step that did so, or its last if it ended).
    void note_release(uint8_t t) {
        Deps& d = deps();
        bool writes = (d.next_writes >> t) & 1;
        d.next_writes &= (uint8_t)~bit(t);
        int i = (int)steps_.size();
        if (writes && release_at_[t] < 0) {
            release_at_[t] = i;
            int q = sym_ ? sym_->prev[t] : -1;
            if (q >= 0)
                en_step_[t] = release_at_[q] >= 0                                           ? release_at_[q]
                              : this->threads_[q].state_ == rl::thread_state_finished ? last_step_[q]
                                                                                       : -1;
        }
        last_step_[t] = i;
    }

    rl::thread_id_t take(Node& n, size_t at, uint8_t t) {
        last_sched_ = (int)at;
        note_release(t);
        steps_.emplace_back();
        Step& s = steps_.back();
        s.thread = t;
        s.node = (int)at;
        s.first_ev = rt().rec ? rt().rec->nevents : 0;
        s.own_end = Step::kUnread;  // until close_step() reads them
        for (int u = 0; u < kMaxThreads; u++) {
            s.know_end[u] = Step::kUnread;
            s.order_end[u] = 0;
        }
        SearchPolicies::running().kept().step(t);
        if (link_) step_data_.push_back(0);
        SearchPolicies::running().awaits().set_cur_step((int)steps_.size() - 1);
        return (rl::thread_id_t)t;
    }

    // The reorder cut (reorder_cut.h), at the close of a step with a stale
    // read (StaleCut::reorder keeps the candidates).
    void reorder_cut() {
        StaleCutPolicy::Candidate c = SearchPolicies::running().stale().take_candidate();
        if (c.thread < 0 || halted_ || rt().pruned) return;
        if (!reorder_.cuts(steps_.data(), (int)steps_.size(), c, SearchPolicies::running().stale().cut()))
            return;
        rt().duplicate = true;
        rt().pruned = true;
    }
    ReorderCut reorder_;

    // Races of the finished execution: vector clocks over the steps, then,
    // for every race, an initial of the reversed sequence goes into the
    // backtrack set of the node before the first step.
    void analyze() {
        int n = (int)steps_.size();
        if (n < 2) return;
        const Handoff handoff = dpor_handoff();
        const Commute commute = dpor_commute();
        vc_.assign((size_t)n * N, 0);
        clk_.assign(n, 0);
        gen_++;
        overflow_.key = kKeyAll;
        overflow_.last_write = -1;
        overflow_.last_acq = -1;
        overflow_.last_write_release = false;
        overflow_.adds = false;
        overflow_.sig_bit = -1;
        for (int u = 0; u < (int)N; u++) {
            overflow_.last_read[u] = -1;
            overflow_.last_read_await[u] = 0;
            overflow_.last_add[u] = -1;
        }
        uint32_t local[N] = {};
        int last_of[N];
        for (int u = 0; u < (int)N; u++) last_of[u] = -1;
        int last_all = -1;  // last step dependent with everything
        races_.clear();
        const bool fence_rule = observe_fences(n);
        for (int i = 0; i < n; i++) {
            const Step& s = steps_[i];
            int p = s.thread;
            uint32_t* v = &vc_[(size_t)i * N];
            int prev = last_of[p];
            if (prev >= 0)
                for (int u = 0; u < (int)N; u++) v[u] = vc_[(size_t)prev * N + u];
            preds_.clear();
            KeyState* kss[kMaxStepAccesses];
            if (s.acc.all) {
                for (int j = 0; j < i; j++) preds_.push_back({j, j});
            } else {
                if (last_all >= 0) preds_.push_back({last_all, last_all});
                for (int a = 0; a < s.acc.n; a++) {
                    const Access& acc = s.acc.a[a];
                    if (fence_rule && acc.key == kKeyScFence) {
                        // The observed-fence-order rule (fence_order.h):
                        // the earlier fences this one is ordered after.
                        kss[a] = nullptr;
                        size_t first = preds_.size();
                        if (dpor_fence_order() == FenceOrder::observed)
                            for (int j : fence_steps_) {
                                if (j >= i) break;
                                if (steps_[j].thread != p && fence_observed(j, i)) preds_.push_back({j, j});
                            }
                        unrace_covered(first);
                        continue;
                    }
                    KeyState& ks = *(kss[a] = &key_state(acc.key));
                    size_t first = preds_.size();
                    if (ks.last_write >= 0 && !commutes(commute, acc, kOtherWrite)) {
                        int j = ks.last_write;
                        preds_.push_back({j, handoff_race(handoff, commute, steps_.data(), s, acc, j, ks.last_write_release,
                                                          ks.last_acq, &ks == &overflow_)});
                    }
                    // The blind adds since the last other write (commute.h).
                    if (ks.adds && !commutes(commute, acc, kBlindAdd))
                        for (int u = 0; u < (int)N; u++)
                            if (ks.last_add[u] >= 0) preds_.push_back({ks.last_add[u], ks.last_add[u]});
                    if (acc.write)
                        for (int u = 0; u < (int)N; u++)
                            if (ks.last_read[u] >= 0) preds_.push_back({ks.last_read[u], await_race(ks.last_read[u], ks.last_read_await[u])});
                    if (ks.adds) unrace_covered(first);
                }
            }
            // The identical-threads rule (symmetry.h): the step that
            // released the next lower thread of p's class enables p's first
            // step that starts with a write; ordered, never reversed. A
            // step that happens before it races with no step of p's from
            // that one on: p could not have run it before.
            int en = sym_ && i == release_at_[p] ? en_step_[p] : -1;
            if (en >= 0) preds_.push_back({en, -1});
            for (const Pred& pr : preds_) {
                int j = pr.step;
                int q = steps_[j].thread;
                if (q == p) continue;
                int r = pr.race;
                if (r >= 0 && en >= 0 && (r == en || vc_[(size_t)en * N + steps_[r].thread] >= clk_[r])) r = -1;
                if (r >= 0 && !(prev >= 0 && vc_[(size_t)prev * N + q] >= clk_[r])) races_.push_back({r, i});
                for (int u = 0; u < (int)N; u++) v[u] = std::max(v[u], vc_[(size_t)j * N + u]);
            }
            clk_[i] = ++local[p];
            v[p] = clk_[i];
            last_of[p] = i;
            if (s.acc.all) {
                last_all = i;
                continue;
            }
            for (int a = 0; a < s.acc.n; a++) {
                if (!kss[a]) continue;  // the fence order, under the observed-fence-order rule
                KeyState& ks = *kss[a];
                if (s.acc.a[a].write && s.acc.a[a].add && commute != Commute::off) {
                    // A blind add: the other threads' blind adds and the
                    // reads before it stay for a later add to be ordered by.
                    ks.last_add[p] = i;
                    ks.adds = true;
                } else if (s.acc.a[a].write) {
                    ks.last_write = i;
                    ks.last_write_release = s.acc.a[a].lk & kLkLastRelease;
                    if (s.acc.a[a].lk & kLkAcquired) ks.last_acq = i;
                    for (int u = 0; u < (int)N; u++) {
                        ks.last_read[u] = -1;
                        ks.last_add[u] = -1;
                    }
                    ks.adds = false;
                } else {
                    ks.last_read[p] = i;
                    ks.last_read_await[p] = s.acc.a[a].await;
                }
            }
        }
        dpor_stats().races += races_.size();
        for (const auto& r : races_) reverse(r.first, r.second);
    }

    bool hb(int a, int b) const { return vc_[(size_t)b * N + steps_[a].thread] >= clk_[a]; }

    // The observed-fence-order rule (fence_order.h), for the finished
    // execution: its fence steps, and what fence_observed() reads of each
    // step. False when the rule does not apply to this execution: every
    // two fences are then ordered, as by any key they both write.
    bool observe_fences(int n) {
        const FenceOrder rule = dpor_fence_order();
        if (rule == FenceOrder::all) return false;
        fence_steps_.clear();
        for (int i = 0; i < n; i++) {
            const AccSet& acc = steps_[i].acc;
            if (acc.all) continue;
            for (int a = 0; a < acc.n; a++)
                if (acc.a[a].key == kKeyScFence && acc.a[a].write) {
                    fence_steps_.push_back(i);
                    break;
                }
        }
        if (fence_steps_.size() > (size_t)kMaxObservedFences) return false;
        if (fence_steps_.size() < 2 || rule == FenceOrder::mutant) return true;
        // Each step's keys but the fence order's: those it touches and
        // those it writes (seen_: what can tell), and those whose knowledge
        // bounds any access and those whose knowledge bounds writes (told_:
        // Access::quiet; with a C plain access in the execution, a load of
        // a setup's store bounds the writes, for their race check); its
        // thread's own clock when its thread's step before it closed, and
        // that step.
        const uint8_t quiet_cap = sim::plain_access_seen() ? kQuietReads : kQuietAll;
        next_sig_bit_ = 0;
        seen_.assign(n, KeySigs{});
        told_.assign(n, KeySigs{});
        own_start_.assign(n, 0);
        prev_step_.assign(n, -1);
        int last[N];
        for (int u = 0; u < (int)N; u++) last[u] = -1;
        for (int i = 0; i < n; i++) {
            const Step& s = steps_[i];
            if (s.acc.all) {
                seen_[i].fill();
                told_[i].fill();
            } else {
                for (int a = 0; a < s.acc.n; a++) {
                    const Access& acc = s.acc.a[a];
                    if (acc.key == kKeyScFence) continue;
                    int bit = sig_bit(acc.key);
                    seen_[i].any.add(bit);
                    if (acc.write) seen_[i].w.add(bit);
                    uint8_t q = acc.write ? kQuietNone : std::min(acc.quiet, quiet_cap);
                    if (q == kQuietNone) told_[i].any.add(bit);
                    if (q <= kQuietReads) told_[i].w.add(bit);
                }
            }
            int p = last[s.thread];
            prev_step_[i] = p;
            own_start_[i] = p >= 0 && steps_[p].own_end != Step::kUnread ? steps_[p].own_end : 0;
            last[s.thread] = i;
        }
        // suffix_[i * N + u]: the keys of thread u's steps from step i on.
        suffix_.assign((size_t)(n + 1) * N, KeySigs{});
        for (int i = n - 1; i >= 0; i--) {
            for (int u = 0; u < (int)N; u++) suffix_[(size_t)i * N + u] = suffix_[(size_t)(i + 1) * N + u];
            suffix_[(size_t)i * N + steps_[i].thread].join(seen_[i]);
        }
        return true;
    }
    // The key's bit in the signatures (KeySig): the keys numbered in the
    // order they first appear in the execution; -1 (every bit) for a key
    // past the analysis table's room.
    int sig_bit(Key k) {
        KeyState& ks = key_state(k);
        if (&ks == &overflow_) return -1;
        if (ks.sig_bit < 0) ks.sig_bit = next_sig_bit_++;
        return ks.sig_bit & 127;
    }
    // What thread u was known by the thread of step i when its step before
    // i closed (at most what it knew at the fence of step i): 0 where not
    // read.
    uint64_t known_before(int i, int u) const {
        int p = prev_step_[i];
        if (p < 0 || steps_[p].know_end[u] == Step::kUnread) return 0;
        return steps_[p].know_end[u];
    }
    // Can a step tell apart the two orders of the fences of steps j (A)
    // and i (B), j first, of different threads? Called as step i is
    // analysed: happens-before is known for the steps before it. In the
    // other order, B and the steps before it that do not happen after A
    // run before A.
    bool fence_observed(int j, int i) const {
        int a = steps_[j].thread;
        // The steps that may run after the fence that learns, by the
        // thread they are not of: those from B on and those between A and
        // B that happen after A; and A's own step when A learns.
        KeySigs after[N], after_a[N], mid_of[N];
        for (int s = j + 1; s < i; s++)
            if (hb(j, s)) mid_of[steps_[s].thread].join(seen_[s]);
        for (int w = 0; w < (int)N; w++) {
            for (int u = 0; u < (int)N; u++)
                if (u != w) {
                    after[w].join(suffix_[(size_t)i * N + u]);
                    after[w].join(mid_of[u]);
                }
            after_a[w] = after[w];
            if (w != a) after_a[w].join(seen_[j]);
        }
        uint64_t order[N], lo[N], hi[N];
        for (int w = 0; w < (int)N; w++) order[w] = j > 0 ? steps_[j - 1].order_end[w] : 0;
        // B learns from A: the events A knew (by the close of A's step)
        // beyond what b knew before B and what the order held before A's
        // step, in the steps before A.
        for (int w = 0; w < (int)N; w++) {
            hi[w] = steps_[j].know_end[w];
            lo[w] = std::max(order[w], known_before(i, w));
        }
        for (int s = 0; s < j; s++)
            if (learned(s, lo, hi) && told_[s].tells(after[steps_[s].thread])) return true;
        // A learns from B: the events B knew (by the close of B's step)
        // beyond what a knew before A and what the order held before A's
        // step, in the steps that run before B in the other order.
        for (int w = 0; w < (int)N; w++) {
            hi[w] = steps_[i].know_end[w];
            lo[w] = std::max(order[w], known_before(j, w));
        }
        for (int s = 0; s < i; s++) {
            if (s >= j && (s == j || hb(j, s))) continue;
            if (learned(s, lo, hi) && told_[s].tells(after_a[steps_[s].thread])) return true;
        }
        return false;
    }
    // Has step s events in the window (lo, hi] of its thread's own clock?
    bool learned(int s, const uint64_t* lo, const uint64_t* hi) const {
        int w = steps_[s].thread;
        return hi[w] > lo[w] && own_start_[s] < hi[w] && steps_[s].own_end > lo[w];
    }

    // The commuting-adds rule keeps several predecessors of one key (the
    // blind adds of each thread, and the reads before them): one that
    // happens before another of them is ordered through it, no race.
    void unrace_covered(size_t first) {
        for (size_t x = first; x < preds_.size(); x++) {
            if (preds_[x].race < 0) continue;
            for (size_t y = first; y < preds_.size(); y++)
                if (preds_[y].step != preds_[x].step && hb(preds_[x].step, preds_[y].step)) {
                    preds_[x].race = -1;
                    break;
                }
        }
    }
    // The accesses a key's state stands for, as commutes() sees them.
    static constexpr Access kOtherWrite = {0, 1, 0, 0, 0, 0};
    static constexpr Access kBlindAdd = {0, 1, 0, 0, 1, 0};

    void reverse(int j, int i) {
        // v = notdep(j, E).i: the steps after j that do not happen after
        // it, then i. Its initials: each thread's first step in v with no
        // happens-before predecessor in v.
        uint8_t initials = 0, seen = 0;
        int first_in_v[N];
        for (int u = 0; u < (int)N; u++) first_in_v[u] = -1;
        int vlen = 0;
        for (int k = j + 1; k <= i; k++) {
            if (k != i && hb(j, k)) continue;
            int t = steps_[k].thread;
            if (vlen < kMaxWake) vseq_[vlen++] = (uint8_t)t;
            if (seen & bit(t)) continue;
            seen |= bit(t);
            bool initial = true;
            for (int u = 0; u < (int)N && initial; u++)
                if (u != t && first_in_v[u] >= 0 && hb(first_in_v[u], k)) initial = false;
            first_in_v[t] = k;
            if (initial) initials |= bit(t);
        }
        reverse_at(steps_[j].node, initials, vseq_, vlen);
    }

    // A race reversed at choice node `node`: one of `initials` goes into its
    // backtrack set, with the wakeup sequence `vseq`.
    void reverse_at(int node, uint8_t initials, const uint8_t* vseq, int vlen) {
        Node& A = nodes_[node];
        if ((size_t)node < root_) {
            // A fixed node of a parallel piece's prefix: its owner reverses
            // it (unless a thread of the initials was explored there before
            // this piece's branch, as a serial search would skip it).
            if (!(initials & (bit(A.chosen) | A.done))) {
                RealHeap h;
                link_->upward(node, initials, A.enabled, vseq, vlen);
            }
            return;
        }
        add_backtrack(A, initials, vseq, vlen);
    }

    void add_backtrack(Node& A, uint8_t initials, const uint8_t* vseq, int vlen) {
        if (initials & (A.backtrack | A.done | bit(A.chosen) | A.sleep)) return;
        uint8_t cand = initials & A.enabled;
        if (cand) {
            for (int u = 0; u < (int)N; u++)
                if (cand & bit(u)) {
                    A.backtrack |= bit(u);
                    // Its wakeup sequence: u, then v without u's first step.
                    int n = 0;
                    bool dropped = false;
                    A.wake[u][n++] = (uint8_t)u;
                    for (int k = 0; k < vlen && n < kMaxWake; k++) {
                        if (!dropped && vseq[k] == u) {
                            dropped = true;
                            continue;
                        }
                        A.wake[u][n++] = vseq[k];
                    }
                    A.wake_len[u] = (uint8_t)n;
                    return;
                }
        }
        A.backtrack |= A.enabled & ~A.sleep;
    }

    // The share of the whole tree explored once the execution that just
    // ended is counted, read off its path as Nidhugg's progress estimate
    // does: a node with t branches known so far (done, taken, pending in
    // its backtrack set; a data node's values) of which d are done stands
    // for d/t of its subtree, and the path's leaf for the product of 1/t
    // down to it. The share only shrinks as backtrack sets grow, so
    // executions / share is an estimate of the total that firms up as the
    // search goes on; it is exact at the end (share 1).
    // A parallel piece counts from its root: the nodes of its prefix are
    // another piece's.
    double explored_share() const {
        double weight = 1.0, share = 0.0;
        for (size_t k = root_; k < nodes_.size(); k++) {
            unsigned t, d;
            branches(nodes_[k], t, d);
            share += weight * d / t;
            weight /= t;
        }
        return share + weight;
    }

    // A node's branches known so far (t, at least 1) and those finished (d),
    // as explored_share counts them.
    static void branches(const Node& x, unsigned& t, unsigned& d) {
        if (x.sched) {
            uint8_t known = (uint8_t)(((x.backtrack | x.done) & x.enabled & ~x.sleep) | bit(x.chosen));
            t = (unsigned)__builtin_popcount(known);
            d = (unsigned)__builtin_popcount(x.done & known & ~bit(x.chosen));
        } else {
            t = x.count;
            d = x.index;
        }
        if (t == 0) t = 1;
    }

    // The share of this piece's tree that one branch of node `at` stands
    // for, by explored_share's weights: what a branch given away there
    // takes with it (DporPiece::weight). A branch given away stays among
    // its node's known branches and never counts as finished here, so the
    // shares of all pieces, each times its weight, add up to the whole.
    double branch_weight(size_t at) const {
        double weight = 1.0;
        for (size_t k = root_; k <= at; k++) {
            unsigned t, d;
            branches(nodes_[k], t, d);
            weight /= t;
        }
        return weight;
    }

    // The branches this piece gave away, in the order it offered them, with
    // their weight (branch_weight) kept up to date while their node is on
    // the path: a node's known branches can still grow then.
    struct Given {
        size_t depth;
        double weight;
        bool live;
    };
    std::vector<Given> given_;
    std::vector<double> given_weights() const {
        std::vector<double> w;
        for (const Given& g : given_) w.push_back(g.weight);
        return w;
    }
    // The search leaves the nodes below depth d: the weights of the branches
    // given away there are final.
    void leave_below(size_t d) {
        for (Given& g : given_)
            if (g.depth > d) g.live = false;
    }

    // The next path: the deepest node with an alternative left.
    bool next_path() {
        for (size_t d = nodes_.size(); d-- > root_;) {
            Node& x = nodes_[d];
            if (!x.sched) {
                if (x.index + 1u < x.end) {
                    x.index++;
                    leave_below(d);
                    nodes_.resize(d + 1);
                    follow_len_ = 0;
                    return true;
                }
                continue;
            }
            uint8_t cand = x.backtrack & x.enabled & ~x.done & ~bit(x.chosen) & ~x.sleep & ~x.given;
            if (!cand) {
                if (x.shared) {
                    // Its subtree is finished: the coordinator places the
                    // upward points other pieces report here from now on.
                    RealHeap h;
                    link_->node_done(path_to(d), (int)d, (uint8_t)(x.done | bit(x.chosen) | x.given | x.backtrack | x.sleep));
                }
                continue;
            }
            x.done |= bit(x.chosen);
            for (int u = 0; u < (int)N; u++)
                if (cand & bit(u)) {
                    x.chosen = (uint8_t)u;
                    x.backtrack |= bit(u);
                    // After the replayed prefix (which ends with u at this
                    // node), follow the rest of u's wakeup sequence.
                    follow_len_ = 0;
                    for (int k = 1; k < x.wake_len[u]; k++) follow_[follow_len_++] = x.wake[u][k];
                    break;
                }
            leave_below(d);
            nodes_.resize(d + 1);
            return true;
        }
        return false;
    }

    // ---- one piece of a parallel search (dpor_link.h) ----

    void seed() {
        seeded_ = true;
        if (replay_) return;  // a token's replay (Relacy's rerun of a failure too) follows the token alone
        link_ = dpor_link();
        if (!link_) return;
        const DporPiece& p = link_->piece();
        for (const DporPrefixNode& f : p.prefix) {
            nodes_.emplace_back();
            Node& n = nodes_.back();
            n.sched = f.sched;
            n.type = f.type;
            n.count = f.count;
            n.index = f.index;
            n.end = (uint16_t)(f.index + 1);
            n.chosen = f.chosen;
            n.backtrack = f.sched ? bit(f.chosen) : 0;
            for (int u = 0; u < (int)N; u++) {
                n.sleep_src[u] = -1;
                n.wake_len[u] = 0;
            }
        }
        root_ = nodes_.size();
        if (p.sleep_node >= 0 && (size_t)p.sleep_node < root_ && nodes_[p.sleep_node].sched) {
            Node& L = nodes_[p.sleep_node];
            for (const auto& w : p.sleepers) {
                if (w.first >= N || w.first == L.chosen) continue;
                L.done |= bit(w.first);
                L.explored[w.first] = w.second;
            }
        }
        follow_len_ = 0;
        for (size_t k = 0; k < p.wake.size() && k < (size_t)kMaxWake; k++) follow_[follow_len_++] = p.wake[k];
    }

    const uint16_t* path_to(size_t d) {
        path_.resize(d + 1);
        for (size_t k = 0; k < d; k++) path_[k] = nodes_[k].sched ? nodes_[k].chosen : nodes_[k].index;
        return path_.data();
    }

    void note_data(unsigned value) {
        uint64_t& h = steps_.empty() ? data_before_ : step_data_.back();
        h = (h ^ (value + 1)) * 1099511628211ULL;
    }
    uint64_t data_before_ = 0;

    static uint64_t mix(uint64_t h) {
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
        h *= 0xc4ceb53fe85a9ca3ULL;
        h ^= h >> 33;
        return h;
    }
    // The execution's trace: each step by its thread, its place in that
    // thread, its happens-before vector clock (analyze()) and the data
    // choices it made, summed (the order of independent steps is left out).
    uint64_t trace_hash() {
        uint64_t sum = mix(data_before_ + 0x9e3779b97f4a7c15ULL);
        data_before_ = 0;
        int n = (int)steps_.size();
        uint32_t local[N] = {};
        for (int i = 0; i < n; i++) {
            int p = steps_[i].thread;
            uint64_t h = mix(((uint64_t)p << 32) | ++local[p]);
            if (n >= 2)
                for (int u = 0; u < (int)N; u++) h = mix(h ^ ((uint64_t)u << 40) ^ vc_[(size_t)i * N + u]);
            h = mix(h ^ step_data_[i]);
            sum += h;
        }
        step_data_.clear();
        return sum;
    }

    // Between executions: the coordinator's requests.
    void serve() {
        if (!link_->due()) return;
        DporRequest r;
        while (link_->next_request(r)) {
            if (r.kind == DporRequest::add) {
                bool ok = r.depth >= (int)root_ && (size_t)r.depth < nodes_.size() && nodes_[r.depth].sched &&
                          r.path.size() >= (size_t)r.depth;
                for (int k = 0; ok && k < r.depth; k++)
                    ok = (nodes_[k].sched ? nodes_[k].chosen : nodes_[k].index) == r.path[k];
                if (ok) {
                    int vlen = (int)std::min<size_t>(r.vseq.size(), (size_t)kMaxWake);
                    add_backtrack(nodes_[r.depth], r.initials, r.vseq.data(), vlen);
                }
                link_->add_result(r, ok);
            } else if (r.kind == DporRequest::split) {
                give_away();
            }
        }
    }

    // A split: the shallowest branch of this piece not yet explored goes
    // to another piece (a data node's last value left, or a pending
    // backtrack thread with its wakeup sequence).
    void give_away() {
        for (size_t d = root_; d < nodes_.size(); d++) {
            Node& x = nodes_[d];
            DporPiece p;
            int u = -1;  // a thread given away; -1: a data value
            if (!x.sched) {
                if (x.index + 1u >= x.end) continue;
                x.end--;
                prefix_to(d, p);
                p.prefix.back().index = x.end;
            } else {
                uint8_t cand = x.backtrack & x.enabled & ~x.done & ~bit(x.chosen) & ~x.sleep & ~x.given;
                if (!cand) continue;
                u = __builtin_ctz(cand);
                x.given |= bit(u);
                prefix_to(d, p);
                p.prefix.back().chosen = (uint8_t)u;
                for (int k = 1; k < x.wake_len[u]; k++) p.wake.push_back(x.wake[u][k]);
            }
            // Its sleep set: at the thread-choice node the branch leaves
            // from (d itself, or the last one above a data node), the
            // threads explored or asleep there, the one running now included
            // when a thread is given away.
            int L = (int)d;
            while (L >= 0 && !nodes_[L].sched) L--;
            if (L >= 0 && u < 0) {
                // A value of a data choice inside the step of L's thread
                // goes elsewhere: that step's accesses here are no longer
                // the union over its subtree, so the thread never sleeps
                // after L in this piece (dependent with every step).
                nodes_[L].explored[nodes_[L].chosen].all = true;
            }
            if (L >= 0) {
                Node& a = nodes_[L];
                // The running thread sleeps in the branch given away only
                // once its step's accesses are final: no data choice of
                // that step is left to explore.
                bool running_final = u >= 0;
                for (size_t k = d + 1; running_final && k < nodes_.size() && !nodes_[k].sched; k++)
                    running_final = nodes_[k].index + 1u >= nodes_[k].end;
                uint8_t sl = (uint8_t)(a.done | a.sleep | (running_final ? bit(a.chosen) : 0));
                sl &= (uint8_t)~bit(u >= 0 ? u : a.chosen);
                p.sleep_node = L;
                for (int w = 0; w < (int)N; w++) {
                    if (!(sl & bit(w))) continue;
                    const AccSet* acc = (a.done & bit(w)) || w == a.chosen ? &a.explored[w]
                                        : a.sleep_src[w] >= 0                ? &nodes_[a.sleep_src[w]].explored[w]
                                                                             : nullptr;
                    if (acc) p.sleepers.push_back({(uint8_t)w, *acc});
                }
            }
            for (size_t k = root_; k <= d; k++) nodes_[k].shared = true;
            p.weight = branch_weight(d);
            given_.push_back({d, p.weight, true});
            link_->offer(p);
            return;
        }
        link_->no_offer();
    }

    void prefix_to(size_t d, DporPiece& p) {
        for (size_t k = 0; k <= d; k++) {
            const Node& x = nodes_[k];
            DporPrefixNode f;
            f.sched = x.sched;
            f.chosen = x.chosen;
            f.count = x.count;
            f.index = x.index;
            f.type = x.type;
            p.prefix.push_back(f);
        }
    }

    struct KeyState {
        Key key;
        int last_write;
        bool last_write_release;      // that write released an exclusive hold of a lock
        int last_acq;                 // the last step that took the lock
        int last_read[N];
        uint8_t last_read_await[N];   // that read was a failed await's
        int last_add[N];              // each thread's last blind add since the last other write (commute.h)
        bool adds;                    // some last_add is set
        int sig_bit;                  // its number for the observed-fence-order rule (sig_bit()), -1: none yet
    };
    // Per-key state of the analysis: an open-addressing table, cleared by
    // generation rather than by writing it.
    static constexpr size_t kTable = 4096;
    struct Slot {
        uint32_t gen = 0;
        KeyState ks;
    };
    typename rl::vector<Slot>::type table_;
    uint32_t gen_ = 0;
    KeyState overflow_;
    KeyState& key_state(Key k) {
        if (table_.empty()) table_.resize(kTable);
        size_t h = (k * 2654435761u) & (kTable - 1);
        for (size_t probe = 0; probe < kTable; probe++, h = (h + 1) & (kTable - 1)) {
            Slot& sl = table_[h];
            if (sl.gen != gen_) {
                sl.gen = gen_;
                sl.ks.key = k;
                sl.ks.last_write = -1;
                sl.ks.last_write_release = false;
                sl.ks.last_acq = -1;
                sl.ks.adds = false;
                sl.ks.sig_bit = -1;
                for (int u = 0; u < (int)N; u++) {
                    sl.ks.last_read[u] = -1;
                    sl.ks.last_read_await[u] = 0;
                    sl.ks.last_add[u] = -1;
                }
                return sl.ks;
            }
            if (sl.ks.key == k) return sl.ks;
        }
        // Table full: one shared state for the rest (more dependencies, never fewer).
        return overflow_;
    }
    rl::vector<uint32_t>::type vc_, clk_;
    // A happens-before predecessor of the step being analysed, and the
    // step whose race with it is reversed (-1: none; a failed await's read
    // before a write is ordered, not reversed).
    struct Pred {
        int step, race;
    };
    typename rl::vector<Pred>::type preds_;
    rl::vector<std::pair<int, int>>::type races_;
    uint8_t vseq_[kMaxWake];
    // The observed-fence-order rule's analysis (observe_fences()).
    rl::vector<int>::type fence_steps_, prev_step_;
    rl::vector<uint64_t>::type own_start_;
    typename rl::vector<KeySigs>::type seen_, told_, suffix_;
    int next_sig_bit_ = 0;
};

}  // namespace vfsmc
