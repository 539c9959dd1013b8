// vfsmc engine adapter: the only place besides the kernel-vocabulary layer
// that drives Relacy. One Relacy test suite per thread count (1..kMaxThreads), so a
// scenario runs with exactly its own threads; the suite builds the model's
// state in before(), runs each thread's ops in thread(), and checks the final
// invariants in after(). The search strategy is a Relacy scheduler: Relacy's
// own full, context-bound and random schedulers, or ours (dpor.h, pct.h).
#include "search/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "base/errors.h"
#include "base/printable.h"
#include "contract/mutations.h"
#include "search/replay_sched.h"
#include "search/token.h"
#include "kernel/kernel.h"
#include "search/dpor.h"
#include "search/pct.h"
#include "search/policies.h"
#include "search/strategies.h"
#include "search/suite.h"

namespace vfsmc {

volatile std::sig_atomic_t stop_requested = 0;

void layer_begin_execution();
void layer_setup_done();
void layer_end_execution();
void layer_thread_exit(int t);

namespace {

using clk = std::chrono::steady_clock;

// One run's search: built by run_with() from the run's options, it owns
// its settings (the stale-read policy, dpor's handoff, commuting-adds and identical-threads rules, PCT's
// configuration), its statistics and its best counterexample. The Relacy
// callbacks reach the running one through `g`.
struct EngineState {
    EngineState(StaleCut cut, bool dpor_search, Handoff h, Commute c, FenceOrder f, ThreadClasses tc, RefusedPromise rp,
                KeptCut kc, const MutationInfo* m)
        : policies(cut, dpor_search, kc), handoff(h), commute(c), fence_order(f), classes(tc), refused(rp), mutation(m) {}
    SearchPolicies policies;
    Handoff handoff;
    Commute commute;
    FenceOrder fence_order;        // dpor's observed-fence-order rule (fence_order.h)
    ThreadClasses classes;         // dpor's identical-threads rule (symmetry.h): none when off
    RefusedPromise refused;        // dpor's refused-promise rule (refused.h)
    const MutationInfo* mutation;  // the models' mutation (nullptr: none), installed as Runtime::mutation
    PctConfig pct;
    DporStats dpor_stats;
    const Scenario* sc = nullptr;
    Model* model = nullptr;
    ModelRun* run = nullptr;
    ExecRecord* rec = nullptr;
    rl::test_params* params = nullptr;
    bool replay = false;
    uint64_t sim_executions = 0;   // executions in this simulate() call
    uint64_t reads_cut = 0;        // loads that could have read a store older than the kept history
    uint64_t max_executions = 0;
    uint64_t total_executions = 0; // the search's size when known (random, max_executions), for progress
    bool dpor = false;
    // dpor: (executions, estimated total), sampled every `estimate_every`
    // executions, for the estimate of an unfinished search
    // (RunResult::estimate). A fixed array (the engine's callbacks run on
    // Relacy's per-execution heap): when full, every other sample goes and
    // the interval doubles.
    static constexpr int kEstimates = 1024;
    std::pair<uint64_t, double> estimates[kEstimates];
    int nestimates = 0;
    uint64_t estimate_every = 64;
    double time_limit = 0;
    clk::time_point start, last_progress;
    bool progress = false;
    bool limit_hit = false;
    const char* limit = nullptr;
    bool replay_overrun = false;
    // A random search of one iteration from iteration 0: Relacy needs an
    // iteration count above 0 (it divides by it), so a second iteration is
    // started and cut here, silently: the search ran its one iteration.
    uint64_t exact_runs = 0;
    bool capped = false;
    std::vector<bool> inv_on;      // by invariant_rows() index
    // Collect mode (shortest counterexample): a violation of `collect_inv`
    // is recorded and its execution abandoned, and the search goes on; the
    // execution numbered `fail_at` fails for real.
    bool collect = false;
    std::string collect_inv;
    uint64_t fail_at = 0;
    bool in_after = false;
    bool collect_outcomes = false;
    std::shared_ptr<ExecRecord> best;
    std::shared_ptr<ExecRecord> replayed;  // replay: the replayed execution, kept when it ends without a violation
    // A search's sample (RunResult::sample): the first judged execution in
    // which a thread was preempted, else the first judged one. Copied at
    // most twice per search.
    ExecRecord* sample = nullptr;
    bool sample_kept = false;
    int sample_preemptions = 0;
    uint64_t best_k = 0;
    int best_steps = 0;
};
EngineState* g = nullptr;  // the running search
DporLink* g_link = nullptr;  // run_piece(): the piece's link (dpor_link())

// The outcomes of a search (RunOptions::collect_outcomes): a fixed table, so
// that recording one allocates nothing inside the simulation.
struct Outcomes {
    static constexpr size_t kCap = 1 << 16;
    uint64_t* slot = nullptr;
    size_t n = 0;
    void reset() {
        if (!slot) slot = new uint64_t[kCap];  // outside the simulation
        std::fill(slot, slot + kCap, 0);
        n = 0;
    }
    void add(uint64_t h) {
        if (!h) h = 1;
        for (size_t i = h & (kCap - 1), k = 0; k < kCap; k++, i = (i + 1) & (kCap - 1)) {
            if (slot[i] == h) return;
            if (!slot[i]) {
                slot[i] = h;
                n++;
                return;
            }
        }
    }
};
Outcomes g_outcomes;

// Relacy's simulated heap takes every allocation inside an execution; the
// outcome text is built on the real heap instead (context::disable_alloc_).
struct ctx_access : rl::context {
    static int& disable_alloc(rl::context& c) { return c.*(&ctx_access::disable_alloc_); }
};

void record_outcome(const char* violated) {
    int& da = ctx_access::disable_alloc(rl::ctx());
    da++;
    {
        std::string st;
        g->run->final_state(st);
        if (violated) st += std::string("|violated ") + violated;
        uint64_t h = 1469598103934665603ULL;
        for (unsigned char c : st) {
            h ^= c;
            h *= 1099511628211ULL;
        }
        g_outcomes.add(h);
    }
    da--;
}

bool inv_enabled(const char* name) {
    int i = 0;
    for (const auto& inv : invariant_rows()) {
        if (std::strcmp(inv.name, name) == 0) return g->inv_on[i];
        i++;
    }
    return true;
}

void check_step_hook() {
    // A replay that left its token's recorded choices ends here
    // (replay_sched.h); the engine reports the token as not matching.
    if (g->replay && replay_guard().off && !g->in_after) rl::ctx().rl_until("replay token does not match", RL_INFO);
    if (g->run) g->run->check_step();
}

void check_free_hook(int id) {
    if (g->run) g->run->check_free(id);
}

int shown_steps(const ExecRecord& rec) {
    int n = 0;
    for (int i = 0; i < rec.nevents; i++) n += rec.events[i].kind != Ev::Enter;
    return n;
}

void fail_hook(const char* desc) {
    bool history_run = g->params && g->params->collect_history;
    if (g->collect && g->sim_executions != g->fail_at && !history_run) {
        Runtime& r = rt();
        const Violation& v = g->rec->violation;
        if (v.set && g->collect_inv == v.invariant) {
            int steps = shown_steps(*g->rec);
            if (!g->best_k || steps < g->best_steps) {
                *g->best = *g->rec;  // allocated before the search: no new in here
                g->best_k = g->sim_executions;
                g->best_steps = steps;
            }
        }
        // Abandon the rest of this execution; the search goes on.
        r.pruned = true;
        if (!g->in_after) throw Pruned();
        return;
    }
    rl::ctx().fail_test(desc, rl::test_result_user_assert_failed, RL_INFO);
}

// A progress line on stderr. Where the size of the search is known (a
// random search's iterations, max_executions, a time limit) it says how far
// along it is and when it will end; an exhaustive or bounded search's size is
// not known in advance, so it says so.
void print_progress(double el) {
    double rate = g->sim_executions / el;
    double eta = -1, frac = -1;
    if (g->total_executions > 0) {
        frac = (double)g->sim_executions / g->total_executions;
        eta = rate > 0 ? (g->total_executions - (double)g->sim_executions) / rate : -1;
    }
    if (g->dpor && g->nestimates > 0) {
        double total = g->estimates[g->nestimates - 1].second;
        std::fprintf(stderr, "vfsmc: %s: %llu executions, %.0f/s, %.1fs elapsed, about %.3g executions in all by the path estimate, about %.0fs left\n",
                     g->sc->name.c_str(), (unsigned long long)g->sim_executions, rate, el, total,
                     rate > 0 && total > g->sim_executions ? (total - (double)g->sim_executions) / rate : 0.0);
        return;
    }
    if (g->time_limit > 0) {
        double left = g->time_limit - el;
        if (eta < 0 || left < eta) {
            eta = left;
            frac = el / g->time_limit;
        }
    }
    if (eta >= 0)
        std::fprintf(stderr, "vfsmc: %s: %llu executions, %.0f/s, %.1fs elapsed, %.0f%%, about %.0fs left\n",
                     g->sc->name.c_str(), (unsigned long long)g->sim_executions, rate, el, frac * 100, eta < 0 ? 0 : eta);
    else
        std::fprintf(stderr, "vfsmc: %s: %llu executions, %.0f/s, %.1fs elapsed (search size not known in advance)\n",
                     g->sc->name.c_str(), (unsigned long long)g->sim_executions, rate, el);
}

}  // namespace

void engine_before() {
    Runtime& r = rt();
    // Under `kernel` a load may read any store a location keeps that it is
    // not ordered after (sim.h), under every search: the LKMM lets it. Under
    // `sc` every access is seq_cst and reads the latest store; the window is
    // Relacy's own (one store back, two under its random scheduler), which
    // only the relaxed initializing store of a field is ever read through.
    g->reads_cut += sim::take_reads_cut();
    sim::set_load_window(r.mm == MemModel::kernel ? sim::kHistory - 1 : rl::ctx().is_random_sched() ? 2 : 1);
    sim::set_lkmm(r.mm == MemModel::kernel);
    g->sim_executions++;
    r.executions++;
    bool history_run = g->params && g->params->collect_history;
    // Relacy replays the execution at which the search stopped, to record
    // it: a search stopped by a limit must stop at the same place again.
    if (g->limit_hit || g->replay_overrun || g->capped) rl::ctx().rl_until("search limit", RL_INFO);
    if (!g->replay && !history_run && g->exact_runs && g->sim_executions > g->exact_runs) {
        g->capped = true;
        rl::ctx().rl_until("search limit", RL_INFO);
    }
    if (stop_requested && !g->replay && !history_run) {
        g->limit_hit = true;
        g->limit = "interrupt";
        rl::ctx().rl_until("search limit", RL_INFO);
    }
    if (g->replay && g->sim_executions > 1 && !history_run) {
        if (g->replayed && !g->replay_overrun) *g->replayed = *g->rec;  // allocated before the search
        g->replay_overrun = true;
        rl::ctx().rl_until("replay token did not reproduce", RL_INFO);
    }
    if (!g->replay && !history_run && g->max_executions && g->sim_executions > g->max_executions) {
        // Exact: the execution past the limit does not run.
        g->limit_hit = true;
        g->limit = "max_executions";
        rl::ctx().rl_until("search limit", RL_INFO);
    }
    if (!g->replay && !history_run && (g->sim_executions & 63) == 0) {
        if (g->dpor && dpor_stats().explored_share > 0 && g->sim_executions % g->estimate_every == 0) {
            if (g->nestimates == EngineState::kEstimates) {
                for (int i = 0; i < EngineState::kEstimates / 2; i++) g->estimates[i] = g->estimates[2 * i + 1];
                g->nestimates = EngineState::kEstimates / 2;
                g->estimate_every *= 2;
            }
            g->estimates[g->nestimates++] = {g->sim_executions - 1, (double)(g->sim_executions - 1) / dpor_stats().explored_share};
        }
        auto now = clk::now();
        double el = std::chrono::duration<double>(now - g->start).count();
        if (g->time_limit > 0 && el > g->time_limit) {
            g->limit_hit = true;
            g->limit = "time limit";
        }
        if (g->limit_hit) rl::ctx().rl_until("search limit", RL_INFO);
        if (g->progress && el > 2.0 && std::chrono::duration<double>(now - g->last_progress).count() > 1.0) {
            g->last_progress = now;
            print_progress(el);
        }
    }
    r.begin_execution(g->rec);
    search_observer().begin_execution();
    layer_begin_execution();
    g->run = g->model->start();
    layer_setup_done();
}

void engine_thread(unsigned i) {
    Runtime& r = rt();
    try {
        g->run->thread((int)i);
    } catch (const Pruned&) {
        r.pruned = true;
    }
    try {
        layer_thread_exit((int)i);
    } catch (const Pruned&) {
        r.pruned = true;
    }
}

// A judged execution that ended without a violation: kept as the sample
// while none is kept yet, or while the kept one has no preemption.
void keep_sample() {
    Runtime& r = rt();
    if (!g->sample || g->rec->violation.set || r.pruned || g->rec->truncated) return;
    if (g->sample_kept && g->sample_preemptions > 0) return;
    int n = count_preemptions(*g->rec);
    if (g->sample_kept && n == 0) return;
    *g->sample = *g->rec;  // allocated before the search: no new in here
    g->sample_kept = true;
    g->sample_preemptions = n;
}

void engine_after() {
    Runtime& r = rt();
    g->in_after = true;
    if (r.sleep_blocked) {
        r.sleep_blocked_executions++;
    } else if (r.duplicate) {
        r.duplicate_executions++;
    } else if (r.pruned) {
        r.pruned_executions++;
        if (r.order_cut) r.order_pruned_executions++;
    } else {
        // The last thread is done: final invariants (balances, leaks).
        // No simulated thread runs now: what they peek is no read of the
        // last step for DPOR (the final state is the same in every order
        // of independent steps).
        r.in_check = false;
        r.in_thread = false;
        if (g->collect_outcomes) record_outcome(nullptr);
        g->run->check_final();
        keep_sample();
    }
    r.check_step = nullptr;
    r.check_free = nullptr;
    destroy_run(g->run);
    g->run = nullptr;
    layer_end_execution();
    r.check_step = check_step_hook;
    r.check_free = check_free_hook;
    g->in_after = false;
}

namespace {

// Relacy's output goes nowhere: the report is ours. (An ostringstream
// double-frees under Relacy; a file stream does not.)
std::ostream& null_stream() {
    static std::ofstream devnull("/dev/null");
    return devnull;
}

// A replay follows its token under replay_scheduler (replay_sched.h), which
// checks every recorded choice; then, as rl::simulate does, a failing
// execution is run once more to record its history.
template <int N>
rl::test_result_e replay_n(rl::test_params& p) {
    p.test_name = "vfsmc replay";
    rl::ostringstream oss;
    rl::test_result_e res = rl::run_test<Suite<N>, replay_scheduler<N>>(p, oss, false);
    p.test_result = res;
    if (res != rl::test_result_success && !replay_guard().off) {
        p.initial_state = oss.str();
        p.final_state = oss.str();
        p.collect_history = true;
        rl::ostringstream oss2;
        rl::run_test<Suite<N>, replay_scheduler<N>>(p, oss2, true);
        p.test_result = res;
    }
    return res;
}

// The number in a token's search field: the preemption bound, or PCT's depth.
int strategy_param(const SearchSpec& ss) {
    switch (strategy_row(ss.strategy).param) {
        case StrategyParam::preemption_bound: return ss.preemption_bound;
        case StrategyParam::depth: return ss.depth;
        case StrategyParam::none: break;
    }
    return 0;
}

rl::test_result_e replay_threads(int n, rl::test_params& p) {
    switch (n) {
        case 1: return replay_n<1>(p);
        case 2: return replay_n<2>(p);
        case 3: return replay_n<3>(p);
        case 4: return replay_n<4>(p);
        case 5: return replay_n<5>(p);
        case 6: return replay_n<6>(p);
        case 7: return replay_n<7>(p);
        default: return replay_n<8>(p);
    }
}

const char* mutation_name(const MutationInfo* m) { return m ? m->name : nullptr; }

std::string make_token(const Scenario& sc, const SearchSpec& ss, const std::string& state) {
    return encode_token(sc, mutation_name(g->mutation), ss.strategy, strategy_param(ss), sc.memory_model, state);
}

const char* relacy_invariant(rl::test_result_e r) {
    switch (r) {
        case rl::test_result_access_to_freed_memory: return "use-after-free";
        case rl::test_result_double_free: return "double-free";
        case rl::test_result_deadlock: return "deadlock";
        case rl::test_result_livelock: return "livelock";
        case rl::test_result_data_race: return "data-race";
        default: return "relacy-check";
    }
}

void setup_runtime(const Scenario& s, Model* m) {
    Runtime& r = rt();
    r.mm = s.memory_model;
    r.mutation = mutation_name(g->mutation);
    r.nthreads = (int)s.threads.size();
    for (int i = 0; i < kMaxThreads; i++) r.thread_names[i] = i < r.nthreads ? s.threads[i].name.c_str() : "?";
    r.norder = 0;
    for (const auto& o : s.order) {
        r.order[r.norder++] = {o.before_t, o.before_step.c_str(), o.after_t, o.after_step.c_str()};
    }
    g->inv_on.clear();
    for (const auto& inv : invariant_rows()) {
        bool on = false;
        for (const auto& n : s.invariants) on |= n == inv.name;
        // Use-after-free of a named kind follows the generic switch.
        std::string nm = inv.name;
        if (!on && nm.size() > 15 && nm.compare(nm.size() - 15, 15, "-use-after-free") == 0)
            for (const auto& n : s.invariants) on |= n == "use-after-free";
        g->inv_on.push_back(on);
    }
    r.inv_enabled = inv_enabled;
    r.check_step = check_step_hook;
    r.check_free = check_free_hook;
    r.fail = fail_hook;
    r.ncoverage = 0;
    r.executions = 0;
    r.pruned_executions = 0;
    r.order_pruned_executions = 0;
    r.sleep_blocked_executions = 0;
    r.duplicate_executions = 0;
    g->sc = &s;
    g->model = m;
    m->prepare(s);
}

RunResult finish(const Scenario& s, const SearchSpec& ss, rl::test_params& p, rl::test_result_e res, double secs) {
    Runtime& r = rt();
    RunResult out;
    out.memory_model = mem_model_name(s.memory_model);
    if (g->mutation) out.mutation = g->mutation->name;
    out.strategy = strategy_name(ss.strategy);
    out.preemption_bound = strategy_row(ss.strategy).param == StrategyParam::preemption_bound ? ss.preemption_bound : -1;
    out.relacy_result = rl::test_result_str(res);
    out.seconds = secs;
    out.thread_names.clear();
    for (const auto& t : s.threads) out.thread_names.push_back(t.name);
    bool failed = res != rl::test_result_success && res != rl::test_result_until_condition_hit;
    // A search stopped by a limit stopped at the start of an execution that
    // did not run.
    out.executions = g->sim_executions - (res == rl::test_result_until_condition_hit ? 1 : 0);
    out.pruned = r.pruned_executions;
    out.pruned_by_order = r.order_pruned_executions;
    out.sleep_blocked = r.sleep_blocked_executions;
    out.duplicates = r.duplicate_executions;
    out.execs_per_sec = secs > 0 ? out.executions / secs : 0;
    out.limit_hit = g->limit_hit;
    out.limit = g->limit ? g->limit : "";
    const StrategyRow& row = strategy_row(ss.strategy);
    bool full = row.scope == Scope::complete;
    out.complete = full && !g->limit_hit && !failed;
    for (int i = 0; i < r.ncoverage; i++) out.coverage.push_back(r.coverage[i]);
    out.metrics = g->model->metrics();
    if (ss.strategy == Strategy::dpor) {
        out.metrics["dpor.sleep_blocked"] = (double)dpor_stats().sleep_blocked;
        out.metrics["dpor.races"] = (double)dpor_stats().races;
        out.metrics["dpor.max_depth"] = (double)dpor_stats().max_depth;
        if (g->limit_hit && g->nestimates > 0) {
            out.estimate = g->estimates[g->nestimates - 1].second;
            out.estimate_low = out.estimate_high = out.estimate;
            uint64_t half = g->estimates[g->nestimates - 1].first / 2;
            for (int i = 0; i < g->nestimates; i++)
                if (g->estimates[i].first >= half) {
                    out.estimate_low = std::min(out.estimate_low, g->estimates[i].second);
                    out.estimate_high = std::max(out.estimate_high, g->estimates[i].second);
                }
        }
    }
    // A load that could have read a store older than the history a
    // location keeps (sim.h) is a reads-from choice no search explored: a
    // full search that met one is not complete, and says so as a limit.
    g->reads_cut += sim::take_reads_cut();
    out.reads_past_history = g->reads_cut;
    if (g->reads_cut && full && !failed && !g->limit_hit) {
        g->limit_hit = true;
        g->limit = "store history";
        out.limit_hit = true;
        out.limit = g->limit;
        out.complete = false;
    }
    out.completeness = row.phrase(ss, pct_config().horizon);
    if (g->limit_hit) out.completeness += std::string(", cut short by the ") + out.limit + " (incomplete)";
    // The scope of a verdict that found nothing.
    out.scope = g->limit_hit ? Scope::inconclusive : row.scope;
    if (failed) {
        out.verdict = Verdict::violated;
        out.trace = std::make_shared<ExecRecord>(*g->rec);
        if (g->rec->violation.set) {
            out.invariant = g->rec->violation.invariant;
            out.message = g->rec->violation.message;
        } else {
            out.invariant = relacy_invariant(res);
            out.message = std::string("Relacy reports ") + rl::test_result_str(res);
            // Record it in the trace too.
            Violation& v = out.trace->violation;
            v.set = true;
            v.invariant = nullptr;
            std::snprintf(v.message, sizeof v.message, "%s", out.message.c_str());
        }
        out.token = make_token(s, ss, std::string(p.final_state.c_str()));
        out.preemptions = count_preemptions(*out.trace);
        out.steps = shown_steps(*out.trace);  // the numbered lines a report shows
        if (g->run) {
            // The failing execution stopped where it failed: its objects are
            // still there to be read (peek only).
            g->run->final_state(out.final_state);
            g->run = nullptr;  // left to the process: Relacy's context is gone
        }
    } else if (g->limit_hit && out.limit == "interrupt") {
        out.verdict = Verdict::inconclusive;
    } else if (!s.order.empty() && out.executions > 0 && out.pruned >= out.executions - out.sleep_blocked - out.duplicates &&
               !g->limit_hit) {
        out.verdict = Verdict::unsatisfiable;
    } else if (g->limit_hit) {
        // A search cut short is never `holds`.
        out.verdict = Verdict::inconclusive;
    } else {
        out.verdict = Verdict::holds;
    }
    if (!failed && !g->collect && !g->replay && g->sample_kept) {
        // One execution that was judged, for the reports of a verdict
        // without a counterexample.
        out.sample = std::make_shared<ExecRecord>(*g->sample);
        out.sample_preemptions = g->sample_preemptions;
    } else if (!failed && !g->collect && !g->replay && g->rec && g->rec->nevents > 0) {
        // None was judged: the last one explored, and what cut it.
        out.sample = std::make_shared<ExecRecord>(*g->rec);
        out.sample_preemptions = count_preemptions(*out.sample);
        out.sample_pruned = true;
        out.sample_cut = r.sleep_blocked ? "abandoned as redundant (a dpor sleep set)"
                         : r.duplicate ? "cut as a duplicate (a stale read another branch covers)"
                         : r.order_cut ? "pruned by order"
                         : r.pruned    ? "stopped at a check the scenario turned off"
                                       : "stopped by the search limit before it ended";
    }
    return out;
}

// What a run leaves besides its result: the shortest-counterexample
// search's pick, and a replay's execution.
struct RunExtras {
    uint64_t best_k = 0;                    // collect mode: the execution of the shortest counterexample
    std::shared_ptr<ExecRecord> replayed;   // replay: the replayed execution, violated or not
};

// The search's settings from the run's options.
struct SearchSettings {
    StaleCut stale_cut = StaleCut::reorder;
    Handoff handoff = Handoff::on;
    Commute commute = Commute::on;
    FenceOrder fence_order = FenceOrder::observed;
    Symmetry symmetry = Symmetry::on;
    RefusedPromise refused = RefusedPromise::stop;
    KeptCut kept_cut = KeptCut::on;
    const MutationInfo* mutation = nullptr;
};

// RunOptions::mutation as its row of the table (nullptr: none).
const MutationInfo* mutation_of(const std::string& name) {
    if (name.empty()) return nullptr;
    if (const MutationInfo* m = find_mutation(name.c_str())) return m;
    throw LoadError("mutation: unknown mutation \"" + printable(name, kMaxShownValue) +
                    "\"; accepted: a name of contract/mutations.h's table (vfsmc list --mutations)");
}

// The Relacy parameters of a search of `ss`, or of the replay of `token`.
void set_relacy_params(rl::test_params& p, const SearchSpec& ss, const ReplayToken* token) {
    const bool replay = token != nullptr;
    p.output_stream = &null_stream();
    p.progress_stream = &null_stream();
    p.execution_depth_limit = 200000;
    // Relacy reads search_type only to choose how far back a relaxed load
    // may read: the tree searches (ours too) read the latest store or the one
    // before it, the random one further back.
    const StrategyRow& row = strategy_row(ss.strategy);
    p.search_type = row.seeded ? rl::sched_random : rl::sched_full;
    if (row.param == StrategyParam::preemption_bound) {
        p.search_type = rl::sched_bound;
        p.context_bound = (unsigned)ss.preemption_bound;
    }
    // The scheduler's state: a replayed token's, or where a seeded search
    // starts. Every number is bounded (schema.h, token.h): no overflow.
    std::string state;
    if (ss.strategy == Strategy::random || ss.strategy == Strategy::pct) {
        uint64_t start = replay ? token->iteration : (uint64_t)ss.seed * (uint64_t)ss.iterations;
        state = std::to_string(start);
        if (replay && ss.strategy == Strategy::pct) state += " " + std::to_string(token->horizon);
        // Relacy's random scheduler runs iterations start..iteration_count
        // inclusive; PCT's stops before iteration_count.
        uint64_t n = replay ? 1 : (uint64_t)ss.iterations;
        p.iteration_count = ss.strategy == Strategy::random ? start + n - 1 : start + n;
        if (p.iteration_count == 0) {
            // Relacy divides by it: run iteration 1 too, cut at its start
            // (a replay by replay_overrun, a search by exact_runs).
            p.iteration_count = 1;
            g->exact_runs = n;
        }
    } else if (replay) {
        state = token->relacy_state();
    }
    p.initial_state = state.c_str();
}

// PCT's probe: one execution without change points measures k, the number
// of steps the change points are drawn from. The search's counts start
// after it.
void pct_probe(const Scenario& s, const SearchSpec& ss, const rl::test_params& p) {
    rl::test_params pp = p;
    pp.iteration_count = (uint64_t)ss.seed * (uint64_t)ss.iterations + 1;
    pct_config().probe = true;
    pct_config().probe_steps = 0;
    strategy_row(ss.strategy).simulate((int)s.threads.size(), pp);
    rt().in_thread = false;
    pct_config().probe = false;
    pct_config().horizon = std::max<uint64_t>(1, pct_config().probe_steps);
    g->sim_executions = 0;
    g->run = nullptr;
    rt().executions = 0;
    rt().pruned_executions = 0;
    rt().order_pruned_executions = 0;
    g->sample_kept = false;
    rt().sleep_blocked_executions = 0;
    rt().duplicate_executions = 0;
}

// A replay's result is an error where the token does not fit the scenario
// or does not reproduce a violation.
void judge_replay(RunResult& out, const SearchSpec& ss) {
    if (replay_guard().off) {
        out.verdict = Verdict::error;
        out.message = std::string("the token does not match this scenario: ") + replay_guard().why;
    } else if (ss.strategy == Strategy::dpor && dpor_stats().replay_mismatch) {
        out.verdict = Verdict::error;
        out.message = "the token does not match this scenario: a recorded choice differs from the one the execution asks for";
    } else if (g->replay_overrun || out.verdict != Verdict::violated) {
        out.verdict = Verdict::error;
        out.message = "the replay token did not reproduce a violation";
    }
}

// `token`: replay that token (one execution), or null for a search.
RunResult run_with(const Scenario& s, const SearchSpec& ss, const SearchSettings& set, const ReplayToken* token,
                   bool progress, const std::string& collect_inv = "", uint64_t fail_at = 0, bool collect_outcomes = false,
                   RunExtras* extras = nullptr) {
    const bool replay = token != nullptr;
    Model* m = find_model(s.model);
    static ExecRecord rec;  // large: keep it off the stack
    static ExecRecord sample_rec;
    // Only a search that explores every reads-from choice cuts a duplicate
    // one: random and PCT sample, a replay follows its token.
    // The identical-threads rule and the needless-promise cut apply to a
    // dpor search, never to a replay (a token is a path of the plain system).
    const Symmetry sym = ss.strategy == Strategy::dpor && !replay ? set.symmetry : Symmetry::off;
    const KeptCut kept = ss.strategy == Strategy::dpor && !replay ? set.kept_cut : KeptCut::off;
    EngineState search(strategy_row(ss.strategy).every_rf && !replay ? set.stale_cut : StaleCut::none, ss.strategy == Strategy::dpor,
                       set.handoff, set.commute, set.fence_order, thread_classes(s, sym), set.refused, kept, set.mutation);
    sim::take_reads_cut();  // none left over from an earlier run
    struct Running {
        explicit Running(EngineState* e) {
            g = e;
            SearchPolicies::install(&e->policies);
        }
        ~Running() {
            SearchPolicies::install(nullptr);
            g = nullptr;
        }
    } running(&search);
    g->collect = !collect_inv.empty();
    g->collect_inv = collect_inv;
    g->fail_at = fail_at;
    g->collect_outcomes = collect_outcomes;
    if (collect_outcomes) g_outcomes.reset();
    if (g->collect) g->best = std::make_shared<ExecRecord>();
    if (replay) g->replayed = std::make_shared<ExecRecord>();
    g->rec = &rec;
    if (!replay && collect_inv.empty()) g->sample = &sample_rec;
    setup_runtime(s, m);
    rl::test_params p;
    set_relacy_params(p, ss, token);
    const StrategyRow& row = strategy_row(ss.strategy);
    g->dpor = ss.strategy == Strategy::dpor && !replay;
    if (ss.strategy == Strategy::dpor) {
        deps().enabled = true;
    } else {
        deps().enabled = false;
    }
    if (ss.strategy == Strategy::pct) {
        pct_config().depth = ss.depth;
        pct_config().probe = false;
    }
    g->params = &p;
    g->replay = replay;
    g->progress = progress;
    g->max_executions = (uint64_t)ss.max_executions;
    g->total_executions = g->max_executions;
    if (ss.strategy == Strategy::random && (g->total_executions == 0 || (uint64_t)ss.iterations < g->total_executions))
        g->total_executions = (uint64_t)ss.iterations;
    g->time_limit = ss.time_limit_s;
    g->start = g->last_progress = clk::now();
    replay_guard() = ReplayGuard();
    if (ss.strategy == Strategy::pct && !replay) pct_probe(s, ss, p);
    // A token of a Relacy tree search is followed by the checking
    // scheduler (replay_sched.h); dpor checks its own replayed path, PCT and
    // random are seeded by the iteration.
    bool guarded = replay && token->tree && ss.strategy != Strategy::dpor;
    rl::test_result_e res = guarded ? replay_threads((int)s.threads.size(), p)
                                    : (rl::test_result_e)row.simulate((int)s.threads.size(), p);
    rt().in_thread = false;  // a failed execution ends without after(): no simulated thread runs now
    double secs = std::chrono::duration<double>(clk::now() - g->start).count();
    RunResult out = finish(s, ss, p, res, secs);
    if (g->classes.any()) {
        std::string ph = symmetry_phrase(s, sym);
        size_t cut = out.completeness.find(", cut short by");
        out.completeness.insert(cut == std::string::npos ? out.completeness.size() : cut, " " + ph);
    }
    // A replay is one execution (Relacy's rerun that records a failing
    // execution's history is not another).
    if (replay) out.executions = std::min<uint64_t>(out.executions, 1);
    deps().enabled = false;
    if (collect_outcomes) {
        for (size_t i = 0; i < Outcomes::kCap; i++)
            if (g_outcomes.slot[i]) out.outcomes.push_back(g_outcomes.slot[i]);
        std::sort(out.outcomes.begin(), out.outcomes.end());
    }
    if (extras) {
        extras->best_k = g->best_k;
        if (replay) extras->replayed = g->replay_overrun && g->replayed ? g->replayed : std::make_shared<ExecRecord>(*g->rec);
    }
    if (replay) judge_replay(out, ss);
    return out;
}

}  // namespace

DporStats& dpor_stats() { return g->dpor_stats; }
DporLink* dpor_link() { return g && g->dpor ? g_link : nullptr; }
RealHeap::RealHeap() { ctx_access::disable_alloc(rl::ctx())++; }
RealHeap::~RealHeap() { ctx_access::disable_alloc(rl::ctx())--; }
Handoff dpor_handoff() { return g->handoff; }
Commute dpor_commute() { return g->commute; }
FenceOrder dpor_fence_order() { return g->fence_order; }
const ThreadClasses* dpor_symmetry() { return g->classes.any() ? &g->classes : nullptr; }
RefusedPromise dpor_refused() { return g->refused; }
PctConfig& pct_config() { return g->pct; }

// How many executions the shortest-counterexample search explores at each
// preemption bound at most.
constexpr long kMinimizeExecutionsPerBound = 20000;

RunResult run_piece(const Scenario& s, const RunOptions& opt, DporLink* link) {
    const SearchSpec& ss = opt.override_search ? opt.search : s.search;
    const SearchSettings set{opt.stale_cut, opt.handoff, opt.commute, opt.fence_order, opt.symmetry, opt.refused, opt.kept_cut, mutation_of(opt.mutation)};
    struct Linked {
        explicit Linked(DporLink* l) { g_link = l; }
        ~Linked() { g_link = nullptr; }
    } linked(link);
    return run_with(s, ss, set, nullptr, false, "", 0, opt.collect_outcomes);
}

RunResult run_scenario(const Scenario& s, const RunOptions& opt) {
    const SearchSpec& ss = opt.override_search ? opt.search : s.search;
    const SearchSettings set{opt.stale_cut, opt.handoff, opt.commute, opt.fence_order, opt.symmetry, opt.refused, opt.kept_cut, mutation_of(opt.mutation)};
    RunResult first = run_with(s, ss, set, nullptr, opt.progress, "", 0, opt.collect_outcomes);
    return minimize_counterexample(s, opt, first);
}

RunResult minimize_counterexample(const Scenario& s, const RunOptions& opt, RunResult first) {
    const SearchSpec& ss = opt.override_search ? opt.search : s.search;
    const SearchSettings set{opt.stale_cut, opt.handoff, opt.commute, opt.fence_order, opt.symmetry, opt.refused, opt.kept_cut, mutation_of(opt.mutation)};
    if (!opt.minimize || stop_requested || first.verdict != Verdict::violated || first.invariant == "relacy-check" ||
        first.invariant == "livelock")
        return first;
    first.first.preemptions = first.preemptions;
    first.first.steps = first.steps;
    first.first.token = first.token;
    // Shortest counterexample: the fewest preemptions, by raising the bound
    // from 0, then the fewest steps at that bound.
    auto t0 = std::chrono::steady_clock::now();
    int max_bound = ss.strategy == Strategy::bounded ? ss.preemption_bound : std::max(first.preemptions, 3);
    uint64_t explored = 0;
    std::vector<int> cut_bounds;  // bounds whose search was cut short without a counterexample
    for (int b = 0; b <= max_bound && !stop_requested; b++) {
        SearchSpec mb;
        mb.strategy = Strategy::bounded;
        mb.preemption_bound = b;
        // Deterministic caps, so golden reports do not depend on the machine.
        mb.max_executions = kMinimizeExecutionsPerBound;
        RunExtras found;
        RunResult c = run_with(s, mb, set, nullptr, false, first.invariant, 0, false, &found);
        explored += c.executions;
        if (!found.best_k) {
            if (c.limit_hit) cut_bounds.push_back(b);
            continue;
        }
        uint64_t k = found.best_k;
        RunResult m = run_with(s, mb, set, nullptr, false, first.invariant, k);
        if (m.verdict != Verdict::violated) break;  // not reproduced: keep the first
        // The scenario's own search stays the result (counts, coverage,
        // metrics); only the counterexample is replaced by the minimal one.
        RunResult out = first;
        out.invariant = m.invariant;
        out.message = m.message;
        out.token = m.token;
        out.trace = m.trace;
        out.final_state = m.final_state;
        out.preemptions = m.preemptions;
        out.steps = m.steps;
        out.minimized = true;
        out.minimal_bound = b;
        out.minimal_cut_bounds = cut_bounds;
        out.minimize_executions = explored;
        out.minimize_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return out;
    }
    return first;
}

namespace {
RunResult replay_impl(const Scenario& s, const Scenario& run_on, const std::string& token, const RunOptions& opt,
                      bool allow_holds);
}

// A replay explores no interleavings: its scope is the one execution the
// token records.
static RunResult replayed(RunResult r) {
    r.completeness = "the one execution its replay token records (from a " + r.strategy + " search)";
    return r;
}

RunResult replay_scenario(const Scenario& s, const std::string& token, const RunOptions& opt) {
    return replayed(replay_impl(s, s, token, opt, false));
}

RunResult replay_on(const Scenario& checked, const Scenario& run_on, const std::string& token, const RunOptions& opt) {
    return replayed(replay_impl(checked, run_on, token, opt, true));
}

namespace {
RunResult replay_impl(const Scenario& s, const Scenario& run_on, const std::string& token, const RunOptions& opt,
                      bool allow_holds) {
    SearchSettings set;
    set.mutation = mutation_of(opt.mutation);
    ReplayToken t = decode_token(s, token, mutation_name(set.mutation));  // throws LoadError: one line, exit 2
    SearchSpec ss = s.search;
    ss.strategy = t.strategy;
    ss.preemption_bound = t.preemption_bound;
    if (t.strategy == Strategy::pct) ss.depth = t.depth;
    ss.max_executions = 0;
    ss.time_limit_s = 0;
    Scenario s2 = run_on;
    s2.memory_model = t.memory_model;
    if (!allow_holds) return run_with(s2, ss, set, &t, false);
    // The schedule as turns: the threads in the order they ran, a run of
    // steps by one thread counted once. The changed code follows the token's
    // schedule when it takes the same turns (up to its violation, if any).
    auto turns = [](const ExecRecord& rec) {
        std::vector<int> t;
        for (int i = 0; i < rec.nevents; i++)
            if (rec.events[i].kind != Ev::Enter && (t.empty() || t.back() != rec.events[i].thread)) t.push_back(rec.events[i].thread);
        return t;
    };
    Scenario orig = s;
    orig.memory_model = s2.memory_model;
    RunResult o = run_with(orig, ss, set, &t, false);
    if (o.verdict != Verdict::violated || !o.trace) {
        o.replay_followed = false;
        o.replay_note = "the token does not reproduce its violation on the scenario itself";
        return o;
    }
    std::vector<int> want = turns(*o.trace);
    RunExtras ran;
    RunResult r = run_with(s2, ss, set, &t, false, "", 0, false, &ran);
    std::vector<int> got;
    if (r.verdict == Verdict::violated && r.trace) {
        got = turns(*r.trace);
    } else if (r.verdict == Verdict::error && ran.replayed) {
        // No violation: the one replayed execution ran to its end (a random
        // replay stops there; the others start a second one, cut at once).
        r.trace = ran.replayed;
        got = turns(*r.trace);
        r.verdict = Verdict::holds;
        r.message.clear();
        r.executions = 1;
    } else {
        r.replay_followed = false;
        r.replay_note = "the replay stopped before the changed code finished";
        return r;
    }
    auto name = [&](int t) { return t >= 0 && t < (int)s.threads.size() ? s.threads[t].name : std::string("?"); };
    bool prefix = got.size() <= want.size() && std::equal(got.begin(), got.end(), want.begin());
    bool ok = r.verdict == Verdict::violated ? prefix : got == want;
    if (!ok) {
        size_t k = 0;
        while (k < got.size() && k < want.size() && got[k] == want[k]) k++;
        r.replay_followed = false;
        r.replay_note = "the token's schedule gives turn " + std::to_string(k + 1) + " to " +
                        (k < want.size() ? name(want[k]) : std::string("no thread (it has ended)")) +
                        ", but the changed code ran " + (k < got.size() ? name(got[k]) : std::string("no thread (it had ended)")) +
                        " there (" + std::to_string(want.size()) + " turns in the token's schedule, " +
                        std::to_string(got.size()) + " taken)";
    }
    return r;
}
}  // namespace

}  // namespace vfsmc
