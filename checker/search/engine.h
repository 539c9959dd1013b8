// vfsmc engine adapter: runs a loaded scenario on Relacy and returns the
// verdict, the counts and, for a violation, the counterexample.
#pragma once

#include <csignal>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "contract/model.h"
#include "search/commute.h"
#include "search/fence_order.h"
#include "search/handoff.h"
#include "search/kept_cut.h"
#include "search/refused.h"
#include "search/symmetry.h"
#include "substrate/runtime.h"
#include "search/stale_cut.h"
#include "substrate/trace.h"

namespace vfsmc {

struct RunOptions {
    bool progress = false;          // progress lines on stderr for long searches
    bool minimize = true;           // search for the shortest counterexample after the first
    bool override_search = false;   // use `search` below instead of the scenario's
    bool collect_outcomes = false;  // record the outcome of every judged execution (tests)
    // A full search's stale reads (search/stale_cut.h): the
    // duplicates are cut, and under dpor the reorderable ones; tests
    // compare with `duplicates` and `none`.
    StaleCut stale_cut = StaleCut::reorder;
    // dpor's lock handoff rule (search/handoff.h): tests compare with `off`.
    Handoff handoff = Handoff::on;
    // dpor's commuting-adds rule (search/commute.h): tests compare with `off`.
    Commute commute = Commute::on;
    // dpor's observed-fence-order rule (search/fence_order.h): tests
    // compare with `all`.
    FenceOrder fence_order = FenceOrder::observed;
    // dpor's identical-threads rule (search/symmetry.h): `run --no-symmetry`
    // and the tests turn it off.
    Symmetry symmetry = Symmetry::on;
    // dpor's refused-promise rule (search/refused.h): tests compare with `off`.
    RefusedPromise refused = RefusedPromise::stop;
    // dpor's needless-promise cut (search/kept_cut.h): tests compare with `off`.
    KeptCut kept_cut = KeptCut::on;
    // The mutation the models run under (contract/mutations.h): a name of
    // kMutations, or empty for none. A token is valid only under the
    // mutation it was found with; a replay takes the same. Unknown: the run
    // throws LoadError.
    std::string mutation;
    SearchSpec search;
};

// What a verdict that found nothing covers.
enum class Scope { complete, bounded, sampled, inconclusive };
const char* scope_name(Scope s);

// How a parallel search (parallel.h) split its work. workers 0: a serial search.
struct ParallelWorkerStats {
    uint64_t executions = 0;   // in the pieces it finished (a lost worker's unfinished piece not counted)
    uint64_t pieces = 0;       // pieces it finished
    double idle_seconds = 0;   // time with no piece to explore
    bool lost = false;         // it died before the end
};
struct ParallelStats {
    int workers = 0;
    uint64_t pieces = 0;              // pieces handed out, the root piece included
    uint64_t pieces_finished = 0;
    uint64_t pieces_from_upward = 0;  // of those, made of upward backtrack points whose owner had moved on
    uint64_t upward = 0;              // backtrack points found above a piece's root, sent to the owner
    uint64_t upward_applied = 0;      // of those, added to the owner's running search
    uint64_t duplicates = 0;          // complete executions whose trace another one already covered
    uint64_t workers_lost = 0;        // workers that died; their pieces went back to the pool
    double estimate = 0;              // a search cut short: the path estimate of its executions in all (0: none)
    std::vector<ParallelWorkerStats> per_worker;
};

struct RunResult {
    ParallelStats parallel;
    Verdict verdict = Verdict::holds;
    std::string invariant;          // violated: the stable name
    std::string message;            // violated: one sentence from the detector
    std::string relacy_result;      // Relacy's own result text
    std::string strategy;           // "exhaustive", "bounded", "random", "dpor", "pct"
    Scope scope = Scope::inconclusive;
    int preemption_bound = -1;
    uint64_t executions = 0;        // explored (pruned ones included)
    uint64_t pruned = 0;            // stopped unjudged: cut by `order` constraints, or at a check the scenario turned off
    uint64_t pruned_by_order = 0;   // of those, the ones cut by `order` constraints
    uint64_t sleep_blocked = 0;     // dpor: abandoned as redundant (not in `executions` - pruned)
    uint64_t duplicates = 0;        // full searches: cut at a stale read another branch covers (StaleCut)
    uint64_t reads_past_history = 0;  // loads that could have read a store older than a location keeps (sim.h)
    double seconds = 0;
    double execs_per_sec = 0;
    bool complete = false;          // exhaustive and not cut by a limit
    bool limit_hit = false;
    std::string limit;              // "time limit" | "max_executions"
    std::string completeness;       // a phrase for humans
    std::string token;              // replay token (violated)
    std::shared_ptr<ExecRecord> trace;  // the counterexample (violated)
    // holds/unsatisfiable/inconclusive: one execution that was judged, as an
    // example of what was checked: the first one in which a thread was
    // preempted, else the first one judged. Where no execution was judged,
    // the last one explored, and sample_pruned says so.
    std::shared_ptr<ExecRecord> sample;
    int sample_preemptions = 0;
    bool sample_pruned = false;         // no execution was judged: the sample was cut, as sample_cut says
    std::string sample_cut;             // "pruned by order", "a duplicate (stale read)", ...
    std::vector<std::string> thread_names;
    std::string final_state;
    std::vector<std::string> coverage;  // steps reached in at least one execution
    std::map<std::string, double> metrics;
    // dpor cut short by a limit: the estimated size of the whole search
    // (executions / the share of the tree explored, dpor.h), and its lowest
    // and highest value over the second half of the run, sampled every 64
    // executions. 0 when not estimated.
    double estimate = 0, estimate_low = 0, estimate_high = 0;
    // RunOptions::collect_outcomes: a hash of each judged execution's final
    // state (the model's final_state() text), sorted, without repeats.
    std::vector<uint64_t> outcomes;
    int preemptions = -1;           // in the counterexample
    int steps = 0;                  // steps in the counterexample, as a report numbers them (Enter events left out)
    std::string memory_model;
    std::string mutation;           // the mutation the run ran under (RunOptions::mutation); empty: none
    bool replay_followed = true;    // replay_on: the token's schedule was followed to its end
    std::string replay_note;        // replay_on: why it was not

    // Shortest counterexample (RunOptions::minimize): the trace and token
    // above are then the minimal ones, found by raising the preemption bound
    // from 0; `first` is the counterexample the scenario's own search found.
    bool minimized = false;
    int minimal_bound = -1;          // the smallest preemption bound with a counterexample
    std::vector<int> minimal_cut_bounds;  // lower bounds searched only in part (capped)
    uint64_t minimize_executions = 0;
    double minimize_seconds = 0;
    struct First {
        int preemptions = -1;
        int steps = 0;
        std::string token;
    } first;
};

RunResult run_scenario(const Scenario& s, const RunOptions& opt);

// The shortest counterexample of a violated result `first` (RunOptions::
// minimize): run_scenario's second half, also used by the parallel search
// (parallel.h). Any other result is returned as it is.
RunResult minimize_counterexample(const Scenario& s, const RunOptions& opt, RunResult first);

class DporLink;
// One piece of a parallel dpor search (parallel.h): the scenario's dpor
// search below the piece's prefix, reporting to the coordinator through
// `link` (dpor_link.h). No shortest-counterexample search.
RunResult run_piece(const Scenario& s, const RunOptions& opt, DporLink* link);

// The one check of a result against a scenario's `expect`: the same
// verdict; for violated, the same invariant; for holds, at least the scope
// the scenario asks for (a cut search is inconclusive, never holds).
bool judge(const RunResult& r, const Expect& e);

// "holds (complete)", "holds (bounded 3: complete up to 3 preemptions)",
// "holds (sampled 10000 executions)", "inconclusive (stopped by the time
// limit after 5000 executions)": the verdict with its scope.
std::string verdict_with_scope(const RunResult& r);

// Does the result's scope meet the least scope a scenario accepts
// ("complete", "bounded", "sampled", or empty for any)?
bool scope_at_least(Scope got, const std::string& least);

// Set to the signal number by the command line's SIGINT/SIGTERM handler:
// the search stops before its next execution, and its result is
// "inconclusive", cut short by the interrupt, with the executions so far.
extern volatile std::sig_atomic_t stop_requested;

// Replay a token from a previous run. Throws LoadError for a token that is
// not well formed or not for this scenario. Of the options only `mutation`
// applies (the token says the search): the token's own, or the token is
// refused.
RunResult replay_scenario(const Scenario& s, const std::string& token, const RunOptions& opt = RunOptions());

// Replay a token checked against `checked` (its scenario) on `run_on`, the
// same scenario with another config (`replay --config`). The result may hold
// (no invariant broke along the schedule); replay_followed is false when the
// schedule could not be followed (replay_note says why).
RunResult replay_on(const Scenario& checked, const Scenario& run_on, const std::string& token,
                    const RunOptions& opt = RunOptions());

// Count the preemptions in a trace: switches away from a thread that could
// have gone on (it was not waiting and had more to do).
int count_preemptions(const ExecRecord& rec);

}  // namespace vfsmc
