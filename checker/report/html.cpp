// vfsmc HTML report: one self-contained swimlane page (see report.h).
#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "kernel/invariants.h"
#include "report/detail.h"
#include "report/report.h"

namespace vfsmc {

using namespace report_detail;

namespace {

// Locks each thread holds after each event (for the swimlane spans).
// rcu_read_lock/unlock are events of their own kinds (Ev::Lock, Ev::Unlock).
// The lock words (spinlocks, mutexes, rwsems, bit spinlocks, lockrefs) are
// atomic read-modify-writes: the event does not say which acquire or
// release, so they are known by the lock function named as the action.

bool is_lock_word_acquire(const std::string& a) {
    return a == "spin_lock" || a == "mutex_lock" || a == "down_read" || a == "down_write" || a == "spin_trylock";
}
bool is_lock_word_release(const std::string& a) {
    return a == "spin_unlock" || a == "mutex_unlock" || a == "up_read" || a == "up_write";
}

std::string lock_name(const ExecRecord& rec, const Event& e) {
    if (e.kind == Ev::Lock || e.kind == Ev::Unlock) return "rcu_read_lock";
    std::string o = obj_name(rec, e.obj);
    return e.field && *e.field ? o + "." + e.field : o;
}

// held[t] after each shown line, as a sorted list.
std::vector<std::vector<std::vector<std::string>>> held_by_line(const RunResult& r, const std::vector<TraceLine>& lines) {
    const ExecRecord& rec = *r.trace;
    int nt = (int)r.thread_names.size();
    std::vector<std::map<std::string, int>> held(nt);
    std::vector<std::vector<std::vector<std::string>>> out;
    for (const auto& L : lines) {
        const Event& e = rec.events[L.event];
        std::string a = e.action ? e.action : "";
        bool acquire = e.kind == Ev::Lock || (e.kind == Ev::Rmw && is_lock_word_acquire(a));
        bool release = e.kind == Ev::Unlock || (e.kind == Ev::Rmw && is_lock_word_release(a));
        if (e.thread < nt) {
            if (acquire) held[e.thread][lock_name(rec, e)]++;
            else if (release) {
                auto it = held[e.thread].find(lock_name(rec, e));
                if (it != held[e.thread].end() && --it->second <= 0) held[e.thread].erase(it);
            }
        }
        std::vector<std::vector<std::string>> row(nt);
        for (int t = 0; t < nt; t++)
            for (const auto& kv : held[t]) row[t].push_back(kv.first);
        out.push_back(row);
    }
    return out;
}

std::string esc(const std::string& s) {
    std::string o;
    for (char c : s) {
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

// The step's text with every "P0 #82" it names (read from, latest write)
// made a link to that row.
std::string linked_text(const std::string& text) {
    static const std::regex ref("([A-Za-z_][A-Za-z0-9_-]*) #([0-9]+)");
    std::string e = esc(text), out;
    auto begin = std::sregex_iterator(e.begin(), e.end(), ref);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        out += e.substr(last, m.position(0) - last);
        out += step_link(std::stoi(m[2]), m[0]);
        last = m.position(0) + m.length(0);
    }
    return out + e.substr(last);
}

// A step that does not bear on the conflict and can be folded away: rcu
// lock/unlock, a store that leaves its value as it was, a load of an object
// the conflict does not touch.
bool is_noise(const ExecRecord& rec, const TraceLine& L, const std::set<int>& conflict_objs, const std::set<int>& keep) {
    const Event& e = rec.events[L.event];
    if (L.conflict || L.stale || keep.count(L.event)) return false;
    std::string a = e.action ? e.action : "";
    if (e.kind == Ev::Lock || e.kind == Ev::Unlock) return true;  // rcu_read_lock/unlock
    if (e.obj >= 0 && conflict_objs.count(e.obj)) return false;
    if ((e.kind == Ev::Write || e.kind == Ev::Rmw) && e.before == e.after) return true;
    if (e.kind == Ev::Read) return true;
    // Locks and fences on objects the conflict does not touch.
    if (e.kind == Ev::Lock || e.kind == Ev::Unlock || e.kind == Ev::Fence) return true;
    // Bit spinlocks and rwsems are read-modify-writes; a wait for a lock is
    // logged under the lock function's name.
    if (is_lock_word_acquire(a) || is_lock_word_release(a)) return true;
    return false;
}

std::string thread_name(const RunResult& r, int t) {
    return t >= 0 && t < (int)r.thread_names.size() ? r.thread_names[t] : "?";
}

// The swimlane of an execution: rows, lanes, folded runs, reads-from and
// order marks, lock spans.
void swimlane(std::ostringstream& h, const Scenario& s, const RunResult& r, const std::vector<TraceLine>& lines) {
    const ExecRecord& rec = *r.trace;
    int nt = (int)r.thread_names.size();
    auto held = held_by_line(r, lines);
    std::map<int, int> number;  // event -> line number
    std::map<int, size_t> line_of;
    for (size_t i = 0; i < lines.size(); i++) {
        number[lines[i].event] = lines[i].number;
        line_of[lines[i].event] = i;
    }
    // The objects of the conflict, and the writes conflicting reads read from.
    std::set<int> conflict_objs, keep;
    for (const auto& L : lines) {
        if (!L.conflict) continue;
        const Event& e = rec.events[L.event];
        if (e.obj >= 0) conflict_objs.insert(e.obj);
        if (e.rf >= 0) keep.insert(e.rf);
        if (e.latest >= 0) keep.insert(e.latest);
    }
    // Reads-from marks: a read of another thread's write gets a mark in the
    // writer's lane; the write, one in each reader's lane.
    std::map<size_t, std::map<int, std::string>> marks;  // line -> lane -> html
    std::set<size_t> order_rows;  // rows with an `order` mark: never folded
    for (size_t i = 0; i < lines.size(); i++) {
        const Event& e = rec.events[lines[i].event];
        if ((e.kind != Ev::Read && e.kind != Ev::Rmw) || e.rf < 0 || !number.count(e.rf)) continue;
        const Event& w = rec.events[e.rf];
        if (w.thread == e.thread) continue;
        int wn = number[e.rf];
        marks[i][w.thread] += "<span class=\"rf-mark\">reads " + step_link(wn, esc(thread_name(r, w.thread)) + " #" + std::to_string(wn)) + "</span>";
        marks[line_of[e.rf]][e.thread] += "<span class=\"rf-out\">read by " +
            step_link(lines[i].number, esc(thread_name(r, e.thread)) + " #" + std::to_string(lines[i].number)) + "</span>";
    }
    // `order` constraints: the after step starts once the before step is done.
    for (const auto& oc : s.order) {
        int last_before = -1, first_after = -1;
        for (size_t i = 0; i < lines.size(); i++) {
            const Event& e = rec.events[lines[i].event];
            std::string f = e.func ? e.func : "";
            if (e.thread == oc.before_t && f == oc.before_step) last_before = (int)i;
            if (e.thread == oc.after_t && f == oc.after_step && first_after < 0) first_after = (int)i;
        }
        if (last_before < 0 || first_after < 0) continue;
        order_rows.insert(first_after);
        order_rows.insert(last_before);
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
                  << esc(r.thread_names[t]) << "\">";
                if (L.conflict) o << "<span class=\"badge conflict\">CONFLICT</span>";
                if (L.stale) o << "<span class=\"badge stale\">STALE READ</span>";
                if (!L.func.empty()) o << "<span class=\"func\">" << esc(L.func) << "()</span> ";
                o << "<span class=\"text\">" << linked_text(L.text) << "</span>" << mk;
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
    const size_t kMinFold = 3;
    for (size_t i = 0; i < lines.size();) {
        size_t j = i;
        // A fold may hold reads-from marks (a link into it opens it), but
        // not an `order` mark.
        while (j < lines.size() && !order_rows.count(j) && is_noise(rec, lines[j], conflict_objs, keep)) j++;
        if (j - i >= kMinFold) {
            h << "<tr class=\"collapsed\"><td class=\"num\"></td><td colspan=\"" << nt << "\"><details><summary>" << (j - i)
              << " steps (" << lines[i].number << "&ndash;" << lines[j - 1].number
              << ") that do not touch the conflict's objects: rcu_read_lock/unlock, stores that leave the value as it was, other loads"
              << "</summary><table class=\"swimlane folded\">" << colgroup() << "<tbody>\n";
            for (size_t k = i; k < j; k++) h << row(k);
            h << "</tbody></table></details></td></tr>\n";
            i = j;
        } else {
            j = std::max(j, i + 1);
            for (size_t k = i; k < j; k++) h << row(k);
            i = j;
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
      << "<div><span class=\"key\">&larr; reads #n</span>this step read the value written at step n, in that thread's lane</div>\n"
      << "<div><span class=\"key\">&rarr; read by #n</span>this write was read at step n</div>\n"
      << "<div><span class=\"key\" style=\"color:#806\">order:</span>an <code>order</code> constraint of the scenario</div>\n"
      << "<div><span class=\"key\" style=\"background:#f6f6f6\">&#9656;</span>folded steps that do not touch the conflict's objects (click to open)</div>\n"
      << "</div>\n";
}

// Reference counts: every change of a counting field, and the step ranges
// in which each count was above zero, for every count the execution touched.
void references(std::ostringstream& h, const RunResult& r, const std::vector<TraceLine>& lines) {
    const ExecRecord& rec = *r.trace;
    auto counting = [&](const Event& e) {
        if (value_format(e) == ValueFormat::LockrefWord) return true;
        if (!e.field) return false;
        std::string f = e.field;
        for (const char* k : {"count", "kref", "refs", "f_ref", "refcount"})
            if (f.find(k) != std::string::npos) return true;
        return false;
    };
    auto count_of = [&](const Event& e, int64_t v) { return value_format(e) == ValueFormat::LockrefWord ? (v >> 1) : v; };
    std::map<int, int> number;
    for (const auto& L : lines) number[L.event] = L.number;
    // Where a count begins: the step that allocated its object, or the start.
    auto origin = [&](const Event& e) -> std::string {
        if (e.obj < 0 || e.obj >= rec.nobjects) return "start";
        int a = rec.objects[e.obj].alloc_event;
        if (a >= 0 && number.count(a)) return std::to_string(number[a]);
        return "start";
    };
    std::map<std::string, std::vector<std::string>> spans;
    std::map<std::string, std::string> held_from;  // count -> step it went above zero
    std::map<std::string, int64_t> last;           // count -> its value as last seen
    std::vector<std::string> order_seen;
    std::ostringstream rows;
    int nrows = 0;
    for (const auto& L : lines) {
        const Event& e = rec.events[L.event];
        if ((e.kind != Ev::Rmw && e.kind != Ev::Write && e.kind != Ev::Read) || !counting(e)) continue;
        std::string key = field_name(rec, e);
        int64_t b = count_of(e, e.before), a = e.kind == Ev::Read ? b : count_of(e, e.after);
        if (!last.count(key)) {
            order_seen.push_back(key);
            if (b > 0) held_from[key] = origin(e);
        }
        last[key] = a;
        if (a == b) continue;
        rows << "<tr class=\"refcount\"><td>" << step_link(L.number, std::to_string(L.number)) << "</td><td>"
             << esc(r.thread_names[L.thread]) << "</td><td>" << esc(key) << "</td><td>" << b << " &rarr; " << a << "</td></tr>\n";
        nrows++;
        if (b <= 0 && a > 0) held_from[key] = std::to_string(L.number);
        if (b > 0 && a <= 0) {
            std::string from = held_from.count(key) ? held_from[key] : "start";
            spans[key].push_back(from + "&ndash;" + std::to_string(L.number));
            held_from.erase(key);
        }
    }
    if (order_seen.empty()) return;
    h << "<h2 id=\"references\">References</h2>\n";
    if (nrows)
        h << "<table class=\"spans refs\"><tr><th>step</th><th>thread</th><th>count</th><th>change</th></tr>\n" << rows.str()
          << "</table>\n";
    h << "<ul class=\"ref-spans\">\n";
    for (const auto& key : order_seen) {
        if (held_from.count(key)) spans[key].push_back(held_from[key] + "&ndash;end");
        h << "<li class=\"ref-span\">" << esc(key) << ": ";
        if (spans[key].empty()) h << "never above zero";
        else {
            h << "above zero at steps ";
            for (size_t i = 0; i < spans[key].size(); i++) h << (i ? ", " : "") << spans[key][i];
        }
        h << "; ends at " << last[key] << "</li>\n";
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
      << "</b>: " << esc(r.completeness) << "; memory model " << esc(r.memory_model) << ".</li>\n"
      << "<li class=\"executions\">" << r.executions << " executions explored";
    if (r.pruned) h << ", " << r.pruned << " of them " << esc(pruned_label(s));
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
        auto lines = trace_lines(sr);
        h << "<h2 id=\"sample\">One execution that was checked</h2>\n<p class=\"sample-note\">The last execution explored, "
          << lines.size() << " steps" << (r.sample_pruned ? "; it was " + esc(pruned_label(s)) + ", so not judged" : "; every invariant held in it")
          << ".</p>\n";
        legend(h);
        swimlane(h, s, sr, lines);
    }
    h << "</body></html>\n";
}

}  // namespace

std::string html_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    std::ostringstream h;
    std::string title = r.verdict == Verdict::violated ? r.invariant + " violated" : std::string(verdict_name(r.verdict));
    h << "<!DOCTYPE html>\n<!-- generated by vfsmc; do not edit -->\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      << "<title>" << esc(s.name) << ": " << esc(title) << "</title>\n<style>\n" << kStyle << "</style></head><body>\n";
    if (r.verdict != Verdict::violated || !r.trace) {
        holds_page(h, s, r, o);
        return h.str();
    }
    auto lines = trace_lines(r);
    h << "<h1 class=\"subject verdict-violated\">[counterexample] " << esc(s.name) << ": " << esc(r.invariant) << " violated</h1>\n";
    if (!o.overrides.empty()) h << "<p class=\"override\">" << esc(override_note(o)) << "</p>\n";
    // In short first: the named steps and the conflict, each linked to its row.
    h << "<h2 id=\"in-short\">In short</h2>\n<ol class=\"in-short\">\n";
    for (const auto& L : lines) {
        const Event& e = r.trace->events[L.event];
        if (e.kind != Ev::Step && e.kind != Ev::Violation && !L.conflict) continue;
        h << "<li" << (L.conflict ? " class=\"conflict\"" : "") << ">" << (L.conflict ? "&gt;&gt; " : "")
          << step_link(L.number, "#" + std::to_string(L.number)) << " [" << esc(thread_name(r, L.thread)) << "] "
          << (L.func.empty() ? "" : "<span class=\"func\">" + esc(L.func) + "()</span>: ") << linked_text(L.text) << "</li>\n";
    }
    h << "</ol>\n";
    h << "<p class=\"summary\">" << esc(paragraph(s, r)) << "</p>\n";
    h << "<p class=\"nav\">Jump to: <a href=\"#interleaving\">the interleaving</a> &middot; <a href=\"#locks\">locks held</a> &middot; "
         "<a href=\"#references\">references</a> &middot; <a href=\"#final-state\">final state</a> &middot; <a href=\"#replay\">replay</a></p>\n";
    h << "<p class=\"doc\">Scenario: " << esc(s.doc) << "</p>\n";
    legend(h);
    h << "<h2 id=\"interleaving\">The interleaving</h2>\n";
    swimlane(h, s, r, lines);
    // Lock spans, as a table too.
    int nt = (int)r.thread_names.size();
    auto held = held_by_line(r, lines);
    h << "<h2 id=\"locks\">Locks held</h2>\n<table class=\"spans\"><tr><th>thread</th><th>lock</th><th>from step</th><th>to step</th></tr>\n";
    for (int t = 0; t < nt; t++) {
        std::map<std::string, int> open;
        for (size_t i = 0; i < lines.size(); i++) {
            std::map<std::string, bool> now;
            for (const auto& x : held[i][t]) now[x] = true;
            for (const auto& x : held[i][t])
                if (!open.count(x)) open[x] = lines[i].number;
            for (auto it = open.begin(); it != open.end();) {
                if (!now.count(it->first)) {
                    h << "<tr class=\"span\"><td>" << esc(r.thread_names[t]) << "</td><td>" << esc(it->first) << "</td><td>"
                      << step_link(it->second, std::to_string(it->second)) << "</td><td>"
                      << step_link(lines[i].number, std::to_string(lines[i].number)) << "</td></tr>\n";
                    it = open.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (const auto& kv : open)
            h << "<tr class=\"span\"><td>" << esc(r.thread_names[t]) << "</td><td>" << esc(kv.first) << "</td><td>"
              << step_link(kv.second, std::to_string(kv.second)) << "</td><td>(end)</td></tr>\n";
    }
    h << "</table>\n";
    references(h, r, lines);
    h << "<h2 id=\"final-state\">Final state</h2>\n<pre class=\"final-state\">" << esc(r.final_state) << "</pre>\n";
    h << "<p class=\"counts\">" << r.executions << " executions";
    if (r.pruned) h << " (" << r.pruned << " " << esc(pruned_label(s)) << ")";
    h << "; " << esc(r.completeness) << "; memory model " << esc(r.memory_model) << ".</p>\n";
    h << "<h2 id=\"replay\">Replay</h2>\n<pre class=\"replay\">" << esc(o.replay_cmd) << "</pre>\n</body></html>\n";
    return h.str();
}

}  // namespace vfsmc
