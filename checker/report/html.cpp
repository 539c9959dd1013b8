// vfsmc HTML report: one self-contained swimlane page (see report.h).
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "contract/invariants.h"
#include "report/detail.h"
#include "report/report.h"
#include "base/printable.h"

namespace vfsmc {

using namespace report_detail;

namespace {

std::string esc(const std::string& s) {
    std::string o;
    for (char c : printable_lines(s, 0)) {
        switch (c) {
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '&': o += "&amp;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}


}  // namespace

namespace {

const char* kStyle =
    "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:110em}\n"
    "h1{font-size:1.2em;font-family:monospace}\n"
    "h2{font-size:1.05em;margin-top:1.4em}\n"
    ".verdict-violated{color:#a00}.verdict-holds{color:#070}\n"
    "p.override{background:#ffe9a8;padding:4px 8px;border-left:4px solid #c90}\n"
    "ol.in-short{font-family:monospace;font-size:13px;padding-left:1em;list-style:none}\n"
    "ol.in-short li{margin:2px 0}\n"
    "ol.in-short li.conflict{font-weight:bold;background:#fdd}\n"
    "a.step-link{color:#236;text-decoration:none;border-bottom:1px dotted #236}\n"
    ".legend{font-size:12px;border:1px solid #ccc;padding:6px 10px;display:inline-block;margin:0.5em 0}\n"
    ".legend span.key{display:inline-block;min-width:2.5em;padding:0 4px;margin-right:4px}\n"
    ".legend div{margin:2px 0}\n"
    "table.swimlane{border-collapse:collapse;font-family:monospace;font-size:12px;width:100%;table-layout:fixed}\n"
    "table.swimlane th{position:sticky;top:0;background:#eef;border-bottom:2px solid #88a;padding:4px}\n"
    "table.swimlane td{vertical-align:top;padding:2px 6px;border-left:6px solid transparent;overflow-wrap:anywhere}\n"
    "table.swimlane col.num{width:3.5em}\n"
    "td.num{color:#888;text-align:right}\n"
    "td.holding{border-left:6px solid #2a8a5a !important;background:#eef8f1}\n"
    "tr.conflict td.step{background:#fbb;font-weight:bold;outline:2px solid #c00}\n"
    "td.step.stale{background:#ffd27f}\n"
    ".badge{display:inline-block;font-size:10px;font-weight:bold;padding:0 4px;border-radius:3px;margin-right:4px}\n"
    ".badge.stale{background:#d60;color:#fff}.badge.conflict{background:#c00;color:#fff}\n"
    ".rf-mark,.rf-out,.order-mark{display:block;font-size:10px;color:#036}\n"
    ".rf-mark::before{content:'\\2190  '}.rf-out::before{content:'\\2192  '}\n"
    ".order-mark{color:#806;font-weight:bold}\n"
    ".func{color:#236}\n.held{color:#2a8a5a;font-size:10px}\n"
    "tr.collapsed td{background:#f6f6f6;color:#555}\n"
    "tr.collapsed summary{cursor:pointer}\n"
    "tr:target td{box-shadow:inset 0 0 0 2px #36c}\n"
    "pre.replay{background:#f4f4f4;padding:6px;white-space:pre-wrap;word-break:break-all}\n"
    "table.spans td,table.spans th{border:1px solid #ccc;padding:2px 6px;font-family:monospace;font-size:12px}\n"
    "p.no-steps{color:#a60}\n";

std::string step_link(int n, const std::string& text) {
    return "<a class=\"step-link\" href=\"#step-" + std::to_string(n) + "\">" + text + "</a>";
}

// The step's text, with the lines it names (read from, latest write) made
// links to those rows.
std::string linked_text(const TraceLine& L) {
    std::string out;
    for (const auto& p : L.parts) out += p.line > 0 ? step_link(p.line, esc(p.text)) : esc(p.text);
    return out;
}

std::string thread_name(const RunResult& r, int t) {
    return t >= 0 && t < (int)r.thread_names.size() ? r.thread_names[t] : "?";
}

// The swimlane of an execution: rows, lanes, folded runs, reads-from and
// order marks, lock spans.
void swimlane(std::ostringstream& h, const Scenario& s, const RunResult& r, const TraceView& v) {
    const std::vector<TraceLine>& lines = v.lines;
    int nt = (int)r.thread_names.size();
    const auto& held = v.held;
    // Reads-from marks: a read of another thread's write gets a mark in the
    // writer's lane; the write, one in each reader's lane.
    std::map<size_t, std::map<int, std::string>> marks;  // line -> lane -> html
    for (size_t i = 0; i < lines.size(); i++) {
        const TraceLine& L = lines[i];
        if (L.rf_line <= 0) continue;
        const TraceLine& W = lines[(size_t)L.rf_line - 1];
        if (W.thread == L.thread) continue;
        int wn = W.number;
        marks[i][W.thread] += "<span class=\"rf-mark\">reads " + step_link(wn, esc(thread_name(r, W.thread)) + " #" + std::to_string(wn)) + "</span>";
        marks[(size_t)wn - 1][L.thread] += "<span class=\"rf-out\">read by " +
            step_link(L.number, esc(thread_name(r, L.thread)) + " #" + std::to_string(L.number)) + "</span>";
    }
    // `order` constraints: the after step starts once the before step is done.
    for (const auto& om : v.order_marks) {
        const auto& oc = s.order[om.order];
        size_t last_before = om.last_before, first_after = om.first_after;
        marks[first_after][oc.after_t] += "<span class=\"order-mark\">order: " + esc(oc.after_step) + " starts after " +
            step_link(lines[last_before].number, esc(oc.before_thread) + " #" + std::to_string(lines[last_before].number)) +
            " ends " + esc(oc.before_step) + "</span>";
        marks[last_before][oc.before_t] += "<span class=\"order-mark\">order: " + esc(oc.before_step) + " done; " +
            step_link(lines[first_after].number, esc(oc.after_thread) + " #" + std::to_string(lines[first_after].number)) +
            " may start " + esc(oc.after_step) + "</span>";
    }
    auto row = [&](size_t i) {
        const auto& L = lines[i];
        std::ostringstream o;
        o << "<tr id=\"step-" << L.number << "\" class=\"step-row" << (L.conflict ? " conflict" : "") << (L.stale ? " stale" : "")
          << "\" data-step=\"" << L.number << "\"><td class=\"num\">" << L.number << "</td>";
        for (int t = 0; t < nt; t++) {
            bool holding = !held[i][t].empty();
            std::string heldtxt;
            for (const auto& x : held[i][t]) heldtxt += (heldtxt.empty() ? "" : ", ") + x;
            std::string mk = marks.count(i) && marks[i].count(t) ? marks[i][t] : "";
            if (t == L.thread) {
                o << "<td class=\"step" << (L.stale ? " stale" : "") << (holding ? " holding" : "") << "\" data-thread=\""
                  << esc(r.thread_names[t]) << "\"" << (L.source.empty() ? "" : " title=\"" + esc(L.source) + "\"") << ">";
                if (L.conflict) o << "<span class=\"badge conflict\">CONFLICT</span>";
                if (L.stale) o << "<span class=\"badge stale\">STALE READ</span>";
                if (!L.func.empty()) o << "<span class=\"func\">" << esc(L.func) << "()</span> ";
                o << "<span class=\"text\">" << linked_text(L) << "</span>" << mk;
                if (holding) o << "<div class=\"held\">holds " << esc(heldtxt) << "</div>";
                o << "</td>";
            } else {
                o << "<td class=\"idle" << (holding ? " holding" : "") << "\" data-thread=\"" << esc(r.thread_names[t]) << "\""
                  << (holding ? " title=\"holds " + esc(heldtxt) + "\"" : "") << ">" << mk << "</td>";
            }
        }
        o << "</tr>\n";
        return o.str();
    };
    auto colgroup = [&]() {
        std::string c = "<colgroup><col class=\"num\">";
        for (int t = 0; t < nt; t++) c += "<col>";
        return c + "</colgroup>";
    };
    h << "<table class=\"swimlane\">" << colgroup() << "<thead><tr><th>#</th>";
    for (int t = 0; t < nt; t++) h << "<th class=\"lane\" data-thread=\"" << esc(r.thread_names[t]) << "\">" << esc(r.thread_names[t]) << "</th>";
    h << "</tr></thead><tbody>\n";
    // Folded runs (TraceView::folds) may hold reads-from marks: a link into
    // one opens it.
    size_t next_fold = 0;
    for (size_t i = 0; i < lines.size();) {
        if (next_fold < v.folds.size() && v.folds[next_fold].first == i) {
            const Fold& f = v.folds[next_fold++];
            h << "<tr class=\"collapsed\"><td class=\"num\"></td><td colspan=\"" << nt << "\"><details><summary>"
              << (f.last - f.first + 1) << " steps (" << lines[f.first].number << "&ndash;" << lines[f.last].number
              << ") that touch none of the conflict's objects: " << esc(f.label)
              << "</summary><table class=\"swimlane folded\">" << colgroup() << "<tbody>\n";
            for (size_t k = f.first; k <= f.last; k++) h << row(k);
            h << "</tbody></table></details></td></tr>\n";
            i = f.last + 1;
        } else {
            h << row(i++);
        }
    }
    h << "</tbody></table>\n";
    // Threads that took no step.
    std::vector<bool> stepped(nt, false);
    for (const auto& L : lines)
        if (L.thread < nt) stepped[L.thread] = true;
    for (int t = 0; t < nt; t++)
        if (!stepped[t])
            h << "<p class=\"no-steps\">Thread " << esc(r.thread_names[t]) << " took no step in this execution.</p>\n";
}

void legend(std::ostringstream& h) {
    h << "<div class=\"legend\" id=\"legend\"><b>Legend</b>\n"
      << "<div><span class=\"key\" style=\"background:#fbb;outline:2px solid #c00\">&nbsp;</span>a conflicting step: the violation and the steps it conflicts with</div>\n"
      << "<div><span class=\"key\" style=\"background:#ffd27f\">&nbsp;</span>a stale read: it did not see the latest write</div>\n"
      << "<div><span class=\"key\" style=\"border-left:6px solid #2a8a5a;background:#eef8f1\">&nbsp;</span>the thread holds a lock (named under the step; hover an empty cell)</div>\n"
      << "<div><span class=\"key\">file:line</span>hover a step for the model source line that made it</div>\n"
      << "<div><span class=\"key\">&larr; reads #n</span>this step read the value written at step n, in that thread's lane</div>\n"
      << "<div><span class=\"key\">&rarr; read by #n</span>this write was read at step n</div>\n"
      << "<div><span class=\"key\" style=\"color:#806\">order:</span>an <code>order</code> constraint of the scenario</div>\n"
      << "<div><span class=\"key\" style=\"background:#f6f6f6\">&#9656;</span>folded steps that touch none of the conflict's objects, neither as the object accessed nor as a pointer's value; the fold says what it holds (click to open)</div>\n"
      << "</div>\n";
}

// Reference counts: every change of a count the layer declares as one,
// and the step ranges in which each count was above zero.
void references(std::ostringstream& h, const RunResult& r, const TraceView& v) {
    if (v.refs.empty()) return;
    h << "<h2 id=\"references\">References</h2>\n";
    if (!v.ref_changes.empty()) {
        h << "<table class=\"spans refs\"><tr><th>step</th><th>thread</th><th>count</th><th>change</th></tr>\n";
        for (const auto& c : v.ref_changes)
            h << "<tr class=\"refcount\"><td>" << step_link(c.line, std::to_string(c.line)) << "</td><td>"
              << esc(thread_name(r, c.thread)) << "</td><td>" << esc(c.count) << "</td><td>" << c.before << " &rarr; " << c.after
              << "</td></tr>\n";
        h << "</table>\n";
    }
    h << "<ul class=\"ref-spans\">\n";
    for (const auto& rc : v.refs) {
        h << "<li class=\"ref-span\">" << esc(rc.count) << ": ";
        if (rc.spans.empty()) h << "never above zero";
        else {
            h << "above zero at steps ";
            for (size_t i = 0; i < rc.spans.size(); i++) h << (i ? ", " : "") << rc.spans[i].first << "&ndash;" << rc.spans[i].second;
        }
        h << "; ends at " << rc.last << "</li>\n";
    }
    h << "</ul>\n<p class=\"ref-note\">A range starts at the step that allocated the object when the count was already above "
         "zero then, and at <i>start</i> for an object of the initial state.</p>\n";
}

// What a verdict without a counterexample covered: the scope, the counts,
// the coverage, and one execution that was checked.
void holds_page(std::ostringstream& h, const Scenario& s, const RunResult& r, const ReportOptions& o) {
    h << "<h1 class=\"subject verdict-" << esc(verdict_name(r.verdict)) << "\">" << esc(verdict_with_scope(r)) << ": " << esc(s.name) << "</h1>\n";
    if (!o.overrides.empty()) h << "<p class=\"override\">" << esc(override_note(o)) << "</p>\n";
    h << "<p class=\"doc\">Scenario: " << esc(s.doc) << "</p>\n";
    h << "<h2 id=\"scope\">What was checked</h2>\n<ul class=\"scope\">\n"
      << "<li class=\"scope-kind\">Scope: <b>" << scope_name(r.scope)
      << "</b>: " << esc(r.completeness) << "; " << esc(run_conditions(r)) << ".</li>\n"
      << "<li class=\"executions\">" << executions_text(r.executions) << " explored";
    if (r.pruned) h << ", " << r.pruned << " of them " << esc(pruned_label(r));
    if (!o.stable) h << strprintf(", in %.2f s", r.seconds);
    h << ".</li>\n<li class=\"invariants\">Invariants checked: ";
    for (size_t i = 0; i < s.invariants.size(); i++) h << (i ? ", " : "") << "<code>" << esc(s.invariants[i]) << "</code>";
    h << ".</li>\n";
    if (Model* m = find_model(s.model)) {
        const auto& steps = m->spec().steps;
        std::vector<std::string> missing;
        for (const auto& st : steps)
            if (std::find(r.coverage.begin(), r.coverage.end(), st) == r.coverage.end()) missing.push_back(st);
        h << "<li class=\"coverage\">Coverage: " << (steps.size() - missing.size()) << " of " << steps.size()
          << " model steps reached";
        if (!missing.empty()) {
            h << "; never reached: ";
            for (size_t i = 0; i < missing.size(); i++) h << (i ? ", " : "") << "<code>" << esc(missing[i]) << "</code>";
        }
        h << ".</li>\n";
    }
    h << "</ul>\n";
    if (r.verdict == Verdict::unsatisfiable)
        h << "<p>No explored execution satisfies the scenario's <code>order</code> constraints: the claimed race is not reachable.</p>\n";
    if (r.sample) {
        RunResult sr = r;
        sr.trace = r.sample;
        const TraceView v = TraceView::of(sr, &s);
        std::string pre = preemption_text(r.sample_preemptions);
        if (r.sample_pruned)
            h << "<h2 id=\"sample\">The last execution explored</h2>\n<p class=\"sample-note\">No execution was judged: every one "
                 "was stopped before its end. The last one explored, " << v.lines.size() << " steps and " << pre << ", was "
              << esc(r.sample_cut) << ", so not judged.</p>\n";
        else
            h << "<h2 id=\"sample\">One execution that was checked</h2>\n<p class=\"sample-note\">"
              << (r.sample_preemptions > 0 ? "The first judged execution in which a thread was preempted"
                                           : "The first judged execution (no judged execution preempted a thread)")
              << ": " << v.lines.size() << " steps and " << pre << ", every thread ran to its end, and every invariant held in it.</p>\n";
        legend(h);
        swimlane(h, s, sr, v);
    }
    h << "</body></html>\n";
}

}  // namespace

std::string html_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    std::ostringstream h;
    std::string title = r.verdict == Verdict::violated ? (o.witness.empty() ? r.invariant + " violated" : "witness")
                                                       : std::string(verdict_name(r.verdict));
    h << "<!DOCTYPE html>\n<!-- generated by vfsmc; do not edit -->\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      << "<title>" << esc(s.name) << ": " << esc(title) << "</title>\n<style>\n" << kStyle << "</style></head><body>\n";
    if (r.verdict != Verdict::violated || !r.trace) {
        holds_page(h, s, r, o);
        return h.str();
    }
    const TraceView v = TraceView::of(r, &s);
    const std::vector<TraceLine>& lines = v.lines;
    h << "<h1 class=\"subject verdict-violated\">" << esc(subject_line(s, r, o)) << "</h1>\n";
    if (!o.overrides.empty()) h << "<p class=\"override\">" << esc(override_note(o)) << "</p>\n";
    // In short first: the named steps and the conflict, each linked to its row.
    h << "<h2 id=\"in-short\">In short</h2>\n<ol class=\"in-short\">\n";
    for (size_t i : v.in_short) {
        const TraceLine& L = lines[i];
        h << "<li" << (L.conflict ? " class=\"conflict\"" : "") << ">" << (L.conflict ? "&gt;&gt; " : "")
          << step_link(L.number, "#" + std::to_string(L.number)) << " [" << esc(thread_name(r, L.thread)) << "] "
          << (L.func.empty() ? "" : "<span class=\"func\">" + esc(L.func) + "()</span>: ") << linked_text(L) << "</li>\n";
    }
    h << "</ol>\n";
    h << "<p class=\"summary\">" << esc(paragraph(s, r, v, !o.witness.empty())) << "</p>\n";
    h << "<p class=\"nav\">Jump to: <a href=\"#interleaving\">the interleaving</a> &middot; <a href=\"#locks\">locks held</a> &middot; "
         "<a href=\"#references\">references</a> &middot; <a href=\"#final-state\">final state</a> &middot; <a href=\"#replay\">replay</a></p>\n";
    h << "<p class=\"doc\">Scenario: " << esc(s.doc) << "</p>\n";
    legend(h);
    h << "<h2 id=\"interleaving\">The interleaving</h2>\n";
    swimlane(h, s, r, v);
    // Lock spans, as a table too.
    h << "<h2 id=\"locks\">Locks held</h2>\n<table class=\"spans\"><tr><th>thread</th><th>lock</th><th>from step</th><th>to step</th></tr>\n";
    for (const auto& sp : v.lock_spans)
        h << "<tr class=\"span\"><td>" << esc(thread_name(r, sp.thread)) << "</td><td>" << esc(sp.lock) << "</td><td>"
          << step_link(sp.from, std::to_string(sp.from)) << "</td><td>"
          << (sp.to ? step_link(sp.to, std::to_string(sp.to)) : std::string("(end)")) << "</td></tr>\n";
    h << "</table>\n";
    references(h, r, v);
    h << "<h2 id=\"final-state\">Final state</h2>\n<pre class=\"final-state\">" << esc(r.final_state) << "</pre>\n";
    h << "<p class=\"counts\">" << executions_text(r.executions);
    if (r.pruned) h << " (" << r.pruned << " " << esc(pruned_label(r)) << ")";
    h << "; " << esc(r.completeness) << "; " << esc(run_conditions(r)) << ".</p>\n";
    h << "<h2 id=\"replay\">Replay</h2>\n<pre class=\"replay\">" << esc(o.replay.text()) << "</pre>\n</body></html>\n";
    return h.str();
}

}  // namespace vfsmc
