// vfsmc reports: the text report for humans and the one-line summary of
// `run` and `check` (see report.h).
#include "report/report.h"

#include <sstream>

#include "contract/invariants.h"
#include "report/detail.h"

namespace vfsmc {

std::string summary_line(const Scenario& s, const RunResult& r, bool stable) {
    std::string head = r.verdict == Verdict::violated ? std::string("violated ") + r.invariant : verdict_with_scope(r);
    std::string counts = executions_text(r.executions);
    if (r.pruned) counts += strprintf(", %llu %s", (unsigned long long)r.pruned, pruned_label(r).c_str());
    if (r.sleep_blocked) counts += strprintf(", %llu redundant (dpor sleep sets)", (unsigned long long)r.sleep_blocked);
    if (r.duplicates) counts += strprintf(", %llu duplicate (stale read)", (unsigned long long)r.duplicates);
    if (!stable) counts += strprintf(", %.0f/s, %.2fs", r.execs_per_sec, r.seconds);
    return head + ": " + s.name + " (" + counts + "; " + r.completeness + "; " + report_detail::run_conditions(r) + ")";
}

// run --jobs (search/parallel.h): how the search was split; empty for a
// serial search.
static std::string parallel_line(const RunResult& r) {
    const ParallelStats& ps = r.parallel;
    if (ps.workers == 0) return "";
    std::ostringstream os;
    os << "Parallel: " << ps.workers << " workers, " << ps.pieces << " pieces (" << ps.pieces_from_upward
       << " from upward backtrack points), " << ps.upward << " upward backtrack points (" << ps.upward_applied
       << " added to the owner's search), " << ps.duplicates << " duplicate executions (a trace explored twice)";
    if (ps.workers_lost) os << ", " << ps.workers_lost << " workers lost";
    os << "; executions per worker:";
    for (const auto& w : ps.per_worker) os << " " << w.executions;
    os << ".\n";
    return os.str();
}

std::string subject_line(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    if (!o.witness.empty()) return "[witness] " + s.name + ": an execution satisfying " + o.witness;
    return "[counterexample] " + s.name + ": " + r.invariant + " violated";
}

std::string text_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    std::ostringstream os;
    if (r.verdict != Verdict::violated) {
        os << summary_line(s, r, o.stable) << "\n" << parallel_line(r);
        if (r.verdict == Verdict::unsatisfiable)
            os << "No explored execution satisfies the scenario's `order` constraints: the claimed race is not reachable.\n";
        return os.str();
    }
    const InvariantInfo* inv = find_invariant(r.invariant.c_str());
    os << subject_line(s, r, o) << "\n\n";
    std::string threads;
    for (size_t i = 0; i < r.thread_names.size(); i++) threads += (i ? ", " : "") + r.thread_names[i];
    os << "With threads " << threads << " running the " << s.model << " model under the " << r.memory_model
       << " memory model, vfsmc found an execution in which " << r.message << ".";
    if (inv && o.witness.empty()) os << " The invariant " << r.invariant << " " << inv->verb << ": " << inv->doc << ".";
    const TraceView v = TraceView::of(r, &s);
    const std::vector<TraceLine>& all = v.lines;
    os << " The execution has " << all.size()
       << (o.brief ? " steps (In short below numbers them as the full interleaving does) and " : " steps (the numbered lines below) and ")
       << preemption_text(r.preemptions)
       << (o.witness.empty() ? "; lines marked >> are the violation and the steps it conflicts with"
                             : "; the line marked >> is where its final state is judged");
    if (v.any_stale) os << ", and STALE marks a read that did not see the latest write";
    os << ".";
    if (r.minimized) {
        std::string m = minimality_text(r);
        // A witness is no counterexample: the same sentence, named so.
        for (size_t at; !o.witness.empty() && (at = m.find("counterexample")) != std::string::npos;) m.replace(at, 14, "witness");
        os << " " << m;
    }
    os << "\n\n";
    os << "Scenario: " << s.doc << "\n\n";
    // The story: the model's named steps only, as a reviewer would tell it.
    if (v.named_steps > 0) {
        os << (o.brief ? "In short (the model's named steps; the replay command below prints the full interleaving):\n"
                       : "In short (the model's named steps; the full interleaving follows):\n");
        for (size_t i : v.in_short) {
            const TraceLine& L = all[i];
            std::string tn = L.thread < (int)r.thread_names.size() ? r.thread_names[L.thread] : "?";
            os << (L.conflict ? ">>" : "  ") << strprintf("%4d", L.number) << " [" << tn << "] "
               << (L.func.empty() ? "" : L.func + "(): ") << L.text << "\n";
        }
        os << "\n";
    }
    if (o.brief) {
        os << "(The full interleaving, " << all.size() << " steps, is left out: run the replay command.)\n";
    } else {
        os << "Interleaving:\n";
        for (const auto& L : all) {
            std::string tn = L.thread < (int)r.thread_names.size() ? r.thread_names[L.thread] : "?";
            os << (L.conflict ? ">>" : "  ") << strprintf("%4d", L.number) << " [" << tn << "] "
               << (L.func.empty() ? "" : L.func + "(): ") << L.text;
            if (o.source && !L.source.empty()) os << "  at " << L.source;
            os << "\n";
        }
    }
    if (r.trace && r.trace->truncated) os << "  (the trace was truncated at " << kMaxEvents << " events)\n";
    os << "\nFinal state:\n";
    if (r.final_state.empty()) os << "  (none recorded)\n";
    else {
        std::istringstream fs(r.final_state);
        std::string line;
        while (std::getline(fs, line)) os << "  " << line << "\n";
    }
    os << "\nCounts: " << executions_text(r.executions);
    if (r.pruned) os << " (" << r.pruned << " " << pruned_label(r) << ")";
    if (r.sleep_blocked) os << " (" << r.sleep_blocked << " redundant, dpor sleep sets)";
    if (r.duplicates) os << " (" << r.duplicates << " duplicate, stale read)";
    if (!o.stable) os << strprintf(" in %.3f s (%.0f executions/s)", r.seconds, r.execs_per_sec);
    os << "; " << r.completeness << "; " << report_detail::run_conditions(r) << ".\n";
    os << parallel_line(r);
    // A command without a token cannot replay the first one.
    if (r.minimized && r.first.token != r.token && !o.replay.token.empty()) {
        os << "\nThe first " << (o.witness.empty() ? "counterexample" : "witness") << " found had " << preemption_text(r.first.preemptions) << " and " << r.first.steps
           << " steps; it replays with:\n  " << o.replay.text_with(r.first.token) << "\n";
    }
    os << "\nReplay:\n  " << o.replay.text() << "\n";
    return os.str();
}

}  // namespace vfsmc
