// vfsmc reports: the text report for humans, the versioned JSON result,
// the 72-column email form and the self-contained HTML swimlane page.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "search/engine.h"
#include "contract/model.h"
#include "report/trace_view.h"

namespace vfsmc {

constexpr const char* kResultSchema = "vfsmc-result/2";

// The command that replays a counterexample, in its parts: a renderer
// puts another token in (the first counterexample's) or wraps the token,
// without cutting the command text apart.
struct ReplayCommand {
    std::string head;   // "vfsmc replay scenarios/x.json"
    std::string token;  // the replay token; empty for a command without one
    std::string tail;   // options after the token (" --config version=v1"), or empty
    std::string text() const { return text_with(token); }
    std::string text_with(const std::string& tok) const { return head + (tok.empty() ? "" : " " + tok) + tail; }
};

struct ReportOptions {
    bool stable = false;       // leave out timings and rates (golden files)
    ReplayCommand replay;      // the command that replays it
    bool brief = false;        // leave out the full interleaving (email, text)
    bool source = false;       // text, DOT: each step's model source location (JSON and HTML always carry it)
    // Command-line changes to the scenario's search or config ("--bound 1"):
    // the result is then not the scenario's own, and every report says so.
    std::vector<std::string> overrides;
    // Non-empty: the execution is a witness, not a violation (a litmus
    // test's execution that satisfies its condition), and this says what it
    // satisfies ("the exists clause"). The reports frame it so.
    std::string witness;
};
// The subject line of a violated result: "[counterexample] NAME: INV
// violated", or for a witness "[witness] NAME: an execution satisfying ...".
std::string subject_line(const Scenario& s, const RunResult& r, const ReportOptions& o);

// The shown lines of r's trace (TraceView::of(r).lines).
std::vector<TraceLine> trace_lines(const RunResult& r);

std::string text_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
// At most 72 columns, one column per thread, for a patch review email.
std::string email_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
// One self-contained HTML page: a lane per thread, time flowing down.
std::string html_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
nlohmann::json json_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
// The reported execution (the counterexample, or a holds verdict's sample)
// as a Graphviz digraph: steps as nodes, po, rf and the conflict as edges.
std::string dot_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
// "models/dcache/dcache.cpp:160": where the model made the call that logged
// e, relative to the source tree; "" when not known.
std::string source_location(const Event& e);

// A `holds` verdict is vacuous when the scenario names a model step that no
// explored execution reached: in a config value, or in the doc as a call
// (`d_wait_lookup()`). Returns those steps.
std::vector<std::string> vacuous_steps(const Scenario& s, const RunResult& r);

// run --coverage: the model's steps that no explored execution reached,
// in two kinds. A step the scenario selects away is one it rules out:
// - a step the model's step needs name (ModelSpec::step_needs) whose need
//   the scenario does not meet: a knob or init field set otherwise
//   (`server:error` needs config.rpc_error true), or an op no thread calls
//   (`walk_component` needs a thread that calls lookup);
// - a step without such a row that bears the name of a choice the
//   scenario did not make: a value of an enum knob its config sets
//   otherwise (the step `d_splice_alias`, or a point of it,
//   `d_splice_alias:...`, while `publish` is "d_rehash"), or an op no
//   thread calls (`set_names_collide`).
// The rest are missed: nothing the model declares rules them out, so they
// need another schedule, or a condition the declarations do not state.
// A step reached although one of its needs is unmet is in against_needs:
// the model's declaration is wrong there (`check` fails the scenario).
// Under a mutation the step needs are not used.
struct StepCoverage {
    struct SelectedAway {
        std::string step;
        std::string why;  // `config.publish is "d_rehash"`, `needs config.rpc_error=true`, `no thread calls lookup`
    };
    size_t total = 0, reached = 0;
    std::vector<SelectedAway> selected_away;
    std::vector<std::string> missed;
    std::vector<SelectedAway> against_needs;  // why: "the model declares that it needs config.rpc_error=true"
};
StepCoverage step_coverage(const Scenario& s, const RunResult& r);

// An `order` constraint restricts the schedule; it creates no
// happens-before (docs/scenario-format.md). A violated verdict depends on
// that when, in the counterexample, the after-thread, from the start of its
// constrained step on, reads a value older than a store the before-thread
// made earlier in the execution: a constraint that synchronized would have
// made that store visible. Returns one warning per such read.
std::vector<std::string> order_without_hb(const Scenario& s, const RunResult& r);

// printf into a std::string of any length (no fixed buffer, nothing cut).
std::string strprintf(const char* f, ...) __attribute__((format(printf, 1, 2)));
// "1 preemption", "2 preemptions".
std::string preemption_text(int n);
// "1 execution", "2 executions".
std::string executions_text(uint64_t n);
// What r's pruned executions were stopped by (RunResult::pruned).
std::string pruned_label(const RunResult& r);
// The minimal-counterexample sentence(s), in shown steps.
std::string minimality_text(const RunResult& r);

// "note: not the scenario's own result: ..." for ReportOptions::overrides.
std::string override_note(const ReportOptions& o);

// One line for `run` and `check`: "holds: name (N executions, ...)".
std::string summary_line(const Scenario& s, const RunResult& r, bool stable);

}  // namespace vfsmc
