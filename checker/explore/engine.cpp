// vfsmc engine adapter: the only place besides checker/kernel.h that drives
// Relacy. One Relacy test suite per thread count (1..4), so a scenario runs
// with exactly its own threads; the suite builds the model's state in
// before(), runs each thread's ops in thread(), and checks the final
// invariants in after().
#include "explore/engine.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "scenario/scenario.h"
#include "explore/replay_sched.h"
#include "explore/token.h"
#include "kernel/kernel.h"

namespace vfsmc {

volatile std::sig_atomic_t stop_requested = 0;

void layer_begin_execution();
void layer_setup_done();
void layer_end_execution();
void rcu_thread_exit(int t);

namespace {

using clk = std::chrono::steady_clock;

struct EngineState {
    const Scenario* sc = nullptr;
    Model* model = nullptr;
    ModelRun* run = nullptr;
    ExecRecord* rec = nullptr;
    rl::test_params* params = nullptr;
    bool replay = false;
    uint64_t sim_executions = 0;   // executions in this simulate() call
    uint64_t max_executions = 0;
    double time_limit = 0;
    clk::time_point start, last_progress;
    bool progress = false;
    bool limit_hit = false;
    const char* limit = nullptr;
    bool replay_overrun = false;
    std::vector<bool> inv_on;      // by kInvariants index
    // Collect mode (shortest counterexample): a violation of `collect_inv`
    // is recorded and its execution abandoned, and the search goes on; the
    // execution numbered `fail_at` fails for real.
    bool collect = false;
    std::string collect_inv;
    uint64_t fail_at = 0;
    bool in_after = false;
    std::shared_ptr<ExecRecord> best;
    uint64_t best_k = 0;
    int best_steps = 0;
};
EngineState g;

bool inv_enabled(const char* name) {
    int i = 0;
    for (const auto& inv : kInvariants) {
        if (std::strcmp(inv.name, name) == 0) return g.inv_on[i];
        i++;
    }
    return true;
}

void check_step_hook() {
    // A replay that left its token's recorded choices ends here
    // (replay_sched.h); the engine reports the token as not matching.
    if (g.replay && replay_guard().off && !g.in_after) rl::ctx().rl_until("replay token does not match", RL_INFO);
    if (g.run) g.run->check_step();
}

int shown_steps(const ExecRecord& rec) {
    int n = 0;
    for (int i = 0; i < rec.nevents; i++) n += rec.events[i].kind != Ev::Enter;
    return n;
}

void fail_hook(const char* desc) {
    bool history_run = g.params && g.params->collect_history;
    if (g.collect && g.sim_executions != g.fail_at && !history_run) {
        Runtime& r = rt();
        const Violation& v = g.rec->violation;
        if (v.set && g.collect_inv == v.invariant) {
            int steps = shown_steps(*g.rec);
            if (!g.best_k || steps < g.best_steps) {
                *g.best = *g.rec;  // allocated before the search: no new in here
                g.best_k = g.sim_executions;
                g.best_steps = steps;
            }
        }
        // Abandon the rest of this execution; the search goes on.
        r.pruned = true;
        if (!g.in_after) throw Pruned();
        return;
    }
    rl::ctx().fail_test(desc, rl::test_result_user_assert_failed, RL_INFO);
}

void engine_before() {
    Runtime& r = rt();
    g.sim_executions++;
    r.executions++;
    bool history_run = g.params && g.params->collect_history;
    // Relacy replays the execution at which the search stopped, to record
    // it: a search stopped by a limit must stop at the same place again.
    if (g.limit_hit || g.replay_overrun) rl::ctx().rl_until("search limit", RL_INFO);
    if (stop_requested && !g.replay && !history_run) {
        g.limit_hit = true;
        g.limit = "interrupt";
        rl::ctx().rl_until("search limit", RL_INFO);
    }
    if (g.replay && g.sim_executions > 1 && !history_run) {
        g.replay_overrun = true;
        rl::ctx().rl_until("replay token did not reproduce", RL_INFO);
    }
    if (!g.replay && !history_run && (g.sim_executions & 63) == 0) {
        auto now = clk::now();
        double el = std::chrono::duration<double>(now - g.start).count();
        if (g.max_executions && g.sim_executions > g.max_executions) {
            g.limit_hit = true;
            g.limit = "max_executions";
        } else if (g.time_limit > 0 && el > g.time_limit) {
            g.limit_hit = true;
            g.limit = "time limit";
        }
        if (g.limit_hit) rl::ctx().rl_until("search limit", RL_INFO);
        if (g.progress && el > 2.0 && std::chrono::duration<double>(now - g.last_progress).count() > 1.0) {
            g.last_progress = now;
            std::fprintf(stderr, "vfsmc: %s: %llu executions, %.0f/s, %.1fs elapsed\n", g.sc->name.c_str(),
                         (unsigned long long)g.sim_executions, g.sim_executions / el, el);
        }
    }
    r.begin_execution(g.rec);
    layer_begin_execution();
    g.run = g.model->start();
    layer_setup_done();
}

void engine_thread(unsigned i) {
    Runtime& r = rt();
    try {
        g.run->thread((int)i);
    } catch (const Pruned&) {
        r.pruned = true;
    }
    r.tstate[i] = TState::Done;
    rcu_thread_exit((int)i);
}

void engine_after() {
    Runtime& r = rt();
    g.in_after = true;
    if (r.pruned) {
        r.pruned_executions++;
    } else {
        // The last thread is done: final invariants (balances, leaks).
        r.in_check = false;
        g.run->check_final();
    }
    r.check_step = nullptr;
    destroy_run(g.run);
    g.run = nullptr;
    layer_end_execution();
    r.check_step = check_step_hook;
    g.in_after = false;
}

template <int N>
struct Suite : rl::test_suite<Suite<N>, N> {
    void before() { engine_before(); }
    void thread(unsigned i) { engine_thread(i); }
    void after() { engine_after(); }
};

// Relacy's output goes nowhere: the report is ours. (An ostringstream
// double-frees under Relacy; a file stream does not.)
std::ostream& null_stream() {
    static std::ofstream devnull("/dev/null");
    return devnull;
}

template <int N>
rl::test_result_e simulate_n(rl::test_params& p) {
    rl::simulate<Suite<N>>(p);
    return p.test_result;
}

rl::test_result_e simulate_threads(int n, rl::test_params& p) {
    switch (n) {
        case 1: return simulate_n<1>(p);
        case 2: return simulate_n<2>(p);
        case 3: return simulate_n<3>(p);
        default: return simulate_n<4>(p);
    }
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

rl::test_result_e replay_threads(int n, rl::test_params& p) {
    switch (n) {
        case 1: return replay_n<1>(p);
        case 2: return replay_n<2>(p);
        case 3: return replay_n<3>(p);
        default: return replay_n<4>(p);
    }
}

std::string make_token(const Scenario& sc, const SearchSpec& ss, const std::string& state) {
    return encode_token(sc, ss.strategy, ss.preemption_bound, sc.memory_model, state);
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
    r.nthreads = (int)s.threads.size();
    for (int i = 0; i < kMaxThreads; i++) r.thread_names[i] = i < r.nthreads ? s.threads[i].name.c_str() : "?";
    r.norder = 0;
    for (const auto& o : s.order) {
        r.order[r.norder++] = {o.before_t, o.before_step.c_str(), o.after_t, o.after_step.c_str()};
    }
    g.inv_on.clear();
    for (const auto& inv : kInvariants) {
        bool on = false;
        for (const auto& n : s.invariants) on |= n == inv.name;
        // Use-after-free of a named kind follows the generic switch.
        std::string nm = inv.name;
        if (!on && nm.size() > 15 && nm.compare(nm.size() - 15, 15, "-use-after-free") == 0)
            for (const auto& n : s.invariants) on |= n == "use-after-free";
        g.inv_on.push_back(on);
    }
    r.inv_enabled = inv_enabled;
    r.check_step = check_step_hook;
    r.fail = fail_hook;
    r.ncoverage = 0;
    r.executions = 0;
    r.pruned_executions = 0;
    g.sc = &s;
    g.model = m;
    m->prepare(s);
}

RunResult finish(const Scenario& s, const SearchSpec& ss, rl::test_params& p, rl::test_result_e res, double secs) {
    Runtime& r = rt();
    RunResult out;
    out.memory_model = mem_model_name(s.memory_model);
    out.strategy = ss.strategy == Strategy::exhaustive ? "exhaustive" : ss.strategy == Strategy::bounded ? "bounded" : "random";
    out.preemption_bound = ss.strategy == Strategy::bounded ? ss.preemption_bound : -1;
    out.relacy_result = rl::test_result_str(res);
    out.seconds = secs;
    out.thread_names.clear();
    for (const auto& t : s.threads) out.thread_names.push_back(t.name);
    bool failed = res != rl::test_result_success && res != rl::test_result_until_condition_hit;
    // Relacy re-runs a failing execution once to record it; do not count it twice.
    out.executions = g.sim_executions - (failed || res == rl::test_result_until_condition_hit ? 1 : 0);
    out.pruned = r.pruned_executions;
    out.execs_per_sec = secs > 0 ? out.executions / secs : 0;
    out.limit_hit = g.limit_hit;
    out.limit = g.limit ? g.limit : "";
    out.complete = ss.strategy == Strategy::exhaustive && !g.limit_hit && !failed;
    for (int i = 0; i < r.ncoverage; i++) out.coverage.push_back(r.coverage[i]);
    out.metrics = g.model->metrics();
    char buf[160];
    if (ss.strategy == Strategy::exhaustive)
        std::snprintf(buf, sizeof buf, "exhaustive search");
    else if (ss.strategy == Strategy::bounded)
        std::snprintf(buf, sizeof buf, "every interleaving with at most %d preemptions", ss.preemption_bound);
    else
        std::snprintf(buf, sizeof buf, "%ld random interleavings, seed %ld", ss.iterations, ss.seed);
    out.completeness = buf;
    if (g.limit_hit) out.completeness += std::string(", cut short by the ") + out.limit + " (incomplete)";
    if (failed) {
        out.verdict = "violated";
        out.trace = std::make_shared<ExecRecord>(*g.rec);
        if (g.rec->violation.set) {
            out.invariant = g.rec->violation.invariant;
            out.message = g.rec->violation.message;
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
        out.steps = out.trace->nevents;
        if (g.run) {
            // The failing execution stopped where it failed: its objects are
            // still there to be read (peek only).
            g.run->final_state(out.final_state);
            g.run = nullptr;  // left to the process: Relacy's context is gone
        }
    } else if (g.limit_hit && out.limit == "interrupt") {
        out.verdict = "inconclusive";
    } else if (!s.order.empty() && out.executions > 0 && out.pruned >= out.executions) {
        out.verdict = "unsatisfiable";
    } else {
        out.verdict = "holds";
    }
    return out;
}

// `token`: replay that token (one execution), or null for a search.
RunResult run_with(const Scenario& s, const SearchSpec& ss, const ReplayToken* token, bool progress,
                   const std::string& collect_inv = "", uint64_t fail_at = 0) {
    Model* m = find_model(s.model);
    static ExecRecord rec;  // large: keep it off the stack
    g = EngineState();
    g.collect = !collect_inv.empty();
    g.collect_inv = collect_inv;
    g.fail_at = fail_at;
    if (g.collect) g.best = std::make_shared<ExecRecord>();
    g.rec = &rec;
    setup_runtime(s, m);
    rl::test_params p;
    p.output_stream = &null_stream();
    p.progress_stream = &null_stream();
    p.execution_depth_limit = 200000;
    switch (ss.strategy) {
        case Strategy::exhaustive: p.search_type = rl::sched_full; break;
        case Strategy::bounded:
            p.search_type = rl::sched_bound;
            p.context_bound = (unsigned)ss.preemption_bound;
            break;
        case Strategy::random:
            p.search_type = rl::sched_random;
            break;
    }
    const bool replay = token != nullptr;
    std::string tree_state;
    if (ss.strategy == Strategy::random) {
        // Both bounded (schema.h; token.h): no overflow.
        uint64_t start = replay ? token->iteration : (uint64_t)ss.seed * (uint64_t)ss.iterations;
        p.initial_state = std::to_string(start).c_str();
        p.iteration_count = replay ? start + 1 : start + (uint64_t)ss.iterations;
    } else if (replay) {
        tree_state = token->relacy_state();
        p.initial_state = tree_state.c_str();
    }
    g.params = &p;
    g.replay = replay;
    g.progress = progress;
    g.max_executions = (uint64_t)ss.max_executions;
    g.time_limit = ss.time_limit_s;
    g.start = g.last_progress = clk::now();
    replay_guard() = ReplayGuard();
    rl::test_result_e res = replay && token->tree ? replay_threads((int)s.threads.size(), p)
                                                  : simulate_threads((int)s.threads.size(), p);
    double secs = std::chrono::duration<double>(clk::now() - g.start).count();
    RunResult out = finish(s, ss, p, res, secs);
    if (replay && replay_guard().off) {
        out.verdict = "error";
        out.message = std::string("the token does not match this scenario: ") + replay_guard().why;
    } else if (replay && (g.replay_overrun || out.verdict != "violated")) {
        out.verdict = "error";
        out.message = "the replay token did not reproduce a violation";
    }
    return out;
}

}  // namespace

int count_preemptions(const ExecRecord& rec) {
    int n = 0;
    for (int i = 1; i < rec.nevents; i++) {
        const Event& prev = rec.events[i - 1];
        const Event& cur = rec.events[i];
        if (cur.thread == prev.thread) continue;
        if (prev.kind == Ev::Wait) continue;
        // Did the previous thread have more to do?
        bool more = false;
        for (int k = i + 1; k < rec.nevents && !more; k++) more = rec.events[k].thread == prev.thread;
        if (more) n++;
    }
    return n;
}

// How many executions the shortest-counterexample search explores at each
// preemption bound at most.
constexpr long kMinimizeExecutionsPerBound = 20000;

RunResult run_scenario(const Scenario& s, const RunOptions& opt) {
    const SearchSpec& ss = opt.override_search ? opt.search : s.search;
    RunResult first = run_with(s, ss, nullptr, opt.progress);
    if (!opt.minimize || stop_requested || first.verdict != "violated" || first.invariant == "relacy-check" ||
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
        RunResult c = run_with(s, mb, nullptr, false, first.invariant);
        explored += c.executions;
        if (!g.best_k) {
            if (c.limit_hit) cut_bounds.push_back(b);
            continue;
        }
        uint64_t k = g.best_k;
        RunResult m = run_with(s, mb, nullptr, false, first.invariant, k);
        if (m.verdict != "violated") break;  // not reproduced: keep the first
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

RunResult replay_scenario(const Scenario& s, const std::string& token) {
    ReplayToken t = decode_token(s, token);  // throws LoadError: one line, exit 2
    SearchSpec ss = s.search;
    ss.strategy = t.strategy;
    ss.preemption_bound = t.preemption_bound;
    ss.max_executions = 0;
    ss.time_limit_s = 0;
    Scenario s2 = s;
    s2.memory_model = t.memory_model;
    return run_with(s2, ss, &t, false);
}

}  // namespace vfsmc
