// vfsmc litmus: run a parsed herd7 C litmus test under the `kernel` memory
// model, through the engine, and judge it as herd7 does (Always /
// Sometimes / Never).
//
// A test becomes a Model registered at run time (interp.cpp): each thread
// interprets its P body on the kernel-vocabulary layer (every location is a
// kfield, every primitive the layer's own), and every finished execution
// records its final state. The search is the engine's dpor unless the
// options say otherwise; a search cut by its limit answers nothing
// (`inconclusive`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "search/engine.h"
#include "litmus/ast.h"

namespace vfsmc {
namespace litmus {

struct State {
    std::string text;       // "1:r0=0; 1:r1=1; x=2;" as herd7 prints a state
    uint64_t executions = 0;  // distinct executions (rf, co) that end in it
    bool satisfies = false; // the condition's proposition holds in it
};

struct Outcome {
    Answer answer = Answer::None;   // of the condition's proposition
    bool inconclusive = false;      // the search was cut (a limit, SIGINT/SIGTERM): no answer, states so far
    bool partial = false;           // cut, but it saw both kinds of outcome: Sometimes, from the states so far
    bool validated = false;         // herd7's Ok/No: the quantifier holds
    uint64_t positive = 0;          // distinct executions (rf, co) whose final state satisfies the proposition
    uint64_t negative = 0;
    bool data_race = false;         // some execution has a data race (herd7's `Flag data-race`)
    bool lock_misuse = false;       // some execution misuses a lock or an RCU/SRCU section (`Flag lock-misuse`)
    bool counts_exact = true;       // every execution's (rf, co) was told apart (no trace cut, no table full)
    std::vector<State> states;      // sorted by text
    RunResult run;                  // the counting search (executions, time)
    std::string error;              // non-empty: the test is ill-formed (one line)
    bool has_witness = false;
    std::string witness_search;     // non-empty: the search flags that found the witness (a partial
                                    // Sometimes's PCT search), for its replay command
    RunResult witness;              // with --witness: an execution satisfying the proposition
                                    // (for forall: one that does not)
    Scenario scenario;              // what the reports need (name, threads, model)
};

struct Options {
    bool witness = false;
    bool minimize = true;           // the shortest witness
    SearchSpec search;              // dpor unless told; time_limit_s > 0 cuts it (dpor: kDporShare of it, then
                                    // PCT for the outcome it has not seen, run())
    std::string mutation;           // the layer's mutation the searches run under (RunOptions::mutation); empty: none
    StaleCut stale_cut = StaleCut::reorder;  // the searches' stale-read cut (RunOptions::stale_cut)
    // dpor's refused-promise rule (RunOptions::refused). Test-only
    // (VFSMC_TEST_REFUSED=off): the answers and states must not differ.
    RefusedPromise refused = RefusedPromise::stop;
    // Each thread tells the layer where it is done with a location (after
    // the last statement that names it): no promise is made, or kept
    // open, on a value only threads done with the location could write
    // (kfield::no_more_stores(); it is refused when the last such thread
    // is done, and dpor's refused-promise rule stops its reader). Test-only
    // (VFSMC_TEST_CLOSE): `off`, and the answers and states must not
    // differ; `mutant` closes after the first statement that names it,
    // and must lose a state.
    // Before that, each thread tells the layer where it is done storing a
    // value to a location (after the last statement that may store it
    // there; kfield::no_more_stores_of()). Test-only: `locations` leaves
    // these out (the answers and states must not differ), and
    // `value-mutant` closes a value after the first statement that may
    // store it, and must lose a state.
    enum class CloseStores : uint8_t { on, off, mutant, locations, value_mutant } close_stores = CloseStores::on;
    // dpor's needless-promise cut (RunOptions::kept_cut). Test-only
    // (VFSMC_TEST_KEPT_CUT=off): the answers and states must not differ.
    KeptCut kept_cut = KeptCut::on;
    // dpor's observed-fence-order rule (RunOptions::fence_order). Test-only
    // (VFSMC_TEST_FENCE_ORDER=all): the answers and states must not differ.
    FenceOrder fence_order = FenceOrder::observed;
    // Grace periods of a domain that no thread enters a section of keep the
    // grace-period words (true) or are full barriers only (false, the
    // default: kernel/rcupdate.h rcu_domain_without_readers). Test-only
    // (VFSMC_TEST_GP_WORDS=1): the answers must not differ.
    bool gp_words = false;
    // A grace period's end and its full barrier are two steps (true) or one
    // (false, the default: kernel/rcupdate.h rcu_grace_period_end_split).
    // Test-only (VFSMC_TEST_GP_END=split): the answers and states must not
    // differ.
    bool gp_end_split = false;
    // A load whose thread's next operation is smp_mb(), synchronize_rcu()
    // or synchronize_srcu() makes no promise (on, the default: such a
    // promise is kept before the barrier, needlessly, or refused by it:
    // sim::next_load_makes_no_promise). Test-only (VFSMC_TEST_MB_PROMISE):
    // `off` lets it promise, and the answers and states must not differ;
    // `mutant` also takes a load before smp_rmb(), which lets its promise
    // be kept after it, and must lose a state. Off under a layer mutation,
    // which may take the barrier's effect away.
    enum class BarrierPromise : uint8_t { on, off, mutant } barrier_promise = BarrierPromise::on;
    // By thread and variable, the values that thread's stores may write
    // (lkmm::value_domains), as the interpreter's locations hold them (a
    // pointer to variable i is location_value(i)): a load may then return one that a
    // later store of another thread writes (load buffering,
    // kernel/kfield.h allow_load_buffering). Empty: loads read only stores
    // that ran before them.
    std::vector<std::vector<std::vector<long>>> written;
    // Non-empty: why the test's values could not be bounded, so that its
    // loads read only earlier stores. An answer that rests on no execution
    // reaching an outcome (Never, Always) is then inconclusive, with this
    // as its limit: load buffering might reach it.
    std::string no_load_buffering;
};

Outcome run(const Test& t, const std::string& text, const Options& o);

// The scenario of a test's witness search (what `--witness` runs and a
// witness token replays on), and the replay of such a token: the result
// shows the execution that satisfies the condition (forall: violates it).
Scenario witness_scenario(const Test& t, const std::string& text, const Options& o);
RunResult replay_witness(const Test& t, const std::string& text, const Options& o, const std::string& token);

// herd7's lines for one test: Test, States, Ok/No, Witnesses, Positive/
// Negative, Flag data-race, Condition, Observation, Hash (and Time unless
// stable). A search cut by its limit prints its states so far and
// `inconclusive` in place of Ok/No and the answer.
std::string herd_report(const Test& t, const Outcome& o, bool stable);

}  // namespace litmus
}  // namespace vfsmc
