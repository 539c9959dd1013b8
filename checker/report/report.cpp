// vfsmc reports (see report.h). Objects are printed by name, never by
// address; every read says which write it saw.
#include "report/report.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "kernel/invariants.h"

namespace vfsmc {

namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

std::string value_text(const ExecRecord& rec, const Event& e, int64_t v) {
    if (e.ref == 2) {  // lockref word: count * 2 + locked
        int64_t count = v >> 1;
        std::string c = count < 0 ? "dead (" + std::to_string(count) + ")" : "count " + std::to_string(count);
        return (v & 1) ? c + " locked" : c;
    }
    if (!e.ref) return std::to_string(v);
    if (v < 0 || v >= rec.nobjects) return "NULL";
    return rec.objects[v].name;
}

std::string obj_name(const ExecRecord& rec, int id) {
    if (id < 0 || id >= rec.nobjects) return "";
    return rec.objects[id].name;
}

std::string field_name(const ExecRecord& rec, const Event& e) {
    std::string o = obj_name(rec, e.obj);
    if (!e.field || !*e.field) return o;  // a word that is the whole object (a litmus location)
    return o.empty() ? e.field : o + "." + e.field;
}

bool shown(const Event& e) { return e.kind != Ev::Enter; }

}  // namespace

std::vector<TraceLine> trace_lines(const RunResult& r) {
    std::vector<TraceLine> out;
    if (!r.trace) return out;
    const ExecRecord& rec = *r.trace;
    std::map<int, int> number;  // event -> shown line number
    int n = 0;
    for (int i = 0; i < rec.nevents; i++)
        if (shown(rec.events[i])) number[i] = ++n;
    auto ref = [&](int ev) -> std::string {
        if (ev < 0) return "the initial state";
        if (ev >= rec.nevents) return "an unrecorded write";
        const Event& w = rec.events[ev];
        std::string t = w.thread < r.thread_names.size() ? r.thread_names[w.thread] : "?";
        return t + " #" + std::to_string(number.count(ev) ? number[ev] : 0);
    };
    const Violation& v = rec.violation;
    for (int i = 0; i < rec.nevents; i++) {
        const Event& e = rec.events[i];
        if (!shown(e)) continue;
        TraceLine L;
        L.number = number[i];
        L.event = i;
        L.thread = e.thread;
        L.func = e.func && *e.func ? e.func : "";
        L.stale = e.stale;
        L.conflict = (i == v.event);
        for (int c : v.conflict) L.conflict |= (c == i && c >= 0);
        std::string t;
        switch (e.kind) {
            case Ev::Read:
                t = fmt("%s %s = %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str());
                L.rf = ref(e.rf);
                t += " (read from " + L.rf + ")";
                if (e.stale) {
                    L.latest = ref(e.latest);
                    t += " STALE: the latest write is " + L.latest;
                }
                break;
            case Ev::Write:
                t = fmt("%s %s: %s -> %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str(),
                        value_text(rec, e, e.after).c_str());
                break;
            case Ev::Rmw:
                t = fmt("%s %s: %s -> %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str(),
                        value_text(rec, e, e.after).c_str());
                L.rf = ref(e.rf);
                break;
            case Ev::Lock: case Ev::Unlock:
                t = std::string(e.action) + (e.obj >= 0 ? " " + obj_name(rec, e.obj) : "");
                break;
            case Ev::Wait:
                t = e.text[0] ? std::string(e.text) : fmt("waits in %s on %s", e.action, obj_name(rec, e.obj).c_str());
                break;
            case Ev::Fence:
                t = fmt("%s (%s fence)", e.action, e.order ? e.order : "");
                break;
            case Ev::Violation:
                t = fmt("!! %s: %s", e.action, e.text);
                L.conflict = true;
                break;
            case Ev::Step: case Ev::Alloc: case Ev::Free: case Ev::Wake: case Ev::Enter:
                t = e.text[0] ? std::string(e.action) + ": " + e.text : std::string(e.action);
                break;
        }
        if ((e.kind == Ev::Step || e.kind == Ev::Alloc || e.kind == Ev::Free) && e.text[0]) t = e.text;
        // A named point inside a function ("d_alloc_parallel:publish") is
        // shown under its function, labelled with the point.
        if (auto colon = L.func.find(':'); colon != std::string::npos) {
            std::string point = L.func.substr(colon + 1);
            L.func = L.func.substr(0, colon);
            if (e.kind == Ev::Step) t = "[" + point + "] " + t;
        }
        L.text = t;
        out.push_back(L);
    }
    return out;
}

std::string summary_line(const Scenario& s, const RunResult& r, bool stable) {
    std::string head = r.verdict == "violated" ? r.verdict + " " + r.invariant : verdict_with_scope(r);
    std::string counts = fmt("%llu executions", (unsigned long long)r.executions);
    if (r.pruned) counts += fmt(", %llu pruned by order", (unsigned long long)r.pruned);
    if (r.sleep_blocked) counts += fmt(", %llu redundant (dpor sleep sets)", (unsigned long long)r.sleep_blocked);
    if (!stable) counts += fmt(", %.0f/s, %.2fs", r.execs_per_sec, r.seconds);
    return head + ": " + s.name + " (" + counts + "; " + r.completeness + "; memory model " + r.memory_model + ")";
}

std::string text_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    std::ostringstream os;
    if (r.verdict != "violated") {
        os << summary_line(s, r, o.stable) << "\n";
        if (r.verdict == "unsatisfiable")
            os << "No explored execution satisfies the scenario's `order` constraints: the claimed race is not reachable.\n";
        return os.str();
    }
    const InvariantInfo* inv = find_invariant(r.invariant.c_str());
    os << "[counterexample] " << s.name << ": " << r.invariant << " violated\n\n";
    std::string threads;
    for (size_t i = 0; i < r.thread_names.size(); i++) threads += (i ? ", " : "") + r.thread_names[i];
    os << "With threads " << threads << " running the " << s.model << " model under the " << r.memory_model
       << " memory model, vfsmc found an execution in which " << r.message << ".";
    if (inv) os << " The invariant " << r.invariant << " requires: " << inv->doc << ".";
    os << " The execution has " << trace_lines(r).size() << " steps and " << r.preemptions
       << (r.preemptions == 1 ? " preemption" : " preemptions") << "; lines marked >> are the violation and the steps it conflicts with";
    bool any_stale = false;
    for (const auto& L : trace_lines(r)) any_stale |= L.stale;
    if (any_stale) os << ", and STALE marks a read that did not see the latest write";
    os << ".";
    if (r.minimized) {
        if (r.minimal_bound == 0)
            os << " It is a minimal counterexample: it needs no preemption, and it is the shortest found without one";
        else
            os << " It is a minimal counterexample: none exists with a preemption bound below " << r.minimal_bound
               << ", and it is the shortest found under a bound of " << r.minimal_bound;
        os << " (the first counterexample found had " << r.first.steps << " steps).";
        if (!r.minimal_cut_bounds.empty()) {
            os << " The search at preemption bound";
            for (size_t i = 0; i < r.minimal_cut_bounds.size(); i++) os << (i ? ", " : " ") << r.minimal_cut_bounds[i];
            os << " was capped, so a counterexample with fewer preemptions may exist.";
        }
    }
    os << "\n\n";
    os << "Scenario: " << s.doc << "\n\n";
    // The story: the model's named steps only, as a reviewer would tell it.
    std::vector<TraceLine> all = trace_lines(r);
    int story = 0;
    for (const auto& L : all) story += r.trace->events[L.event].kind == Ev::Step;
    if (story > 0) {
        os << "In short (the model's named steps; the full interleaving follows):\n";
        for (const auto& L : all) {
            const Event& e = r.trace->events[L.event];
            if (e.kind != Ev::Step && e.kind != Ev::Violation && !L.conflict) continue;
            std::string tn = L.thread < (int)r.thread_names.size() ? r.thread_names[L.thread] : "?";
            os << (L.conflict ? ">>" : "  ") << fmt("%4d", L.number) << " [" << tn << "] "
               << (L.func.empty() ? "" : L.func + "(): ") << L.text << "\n";
        }
        os << "\n";
    }
    os << "Interleaving:\n";
    std::string last_func[kMaxThreads];
    for (const auto& L : trace_lines(r)) {
        std::string tn = L.thread < (int)r.thread_names.size() ? r.thread_names[L.thread] : "?";
        os << (L.conflict ? ">>" : "  ") << fmt("%4d", L.number) << " [" << tn << "] "
           << (L.func.empty() ? "" : L.func + "(): ") << L.text << "\n";
    }
    if (r.trace && r.trace->truncated) os << "  (the trace was truncated at " << kMaxEvents << " events)\n";
    os << "\nFinal state:\n";
    if (r.final_state.empty()) os << "  (none recorded)\n";
    else {
        std::istringstream fs(r.final_state);
        std::string line;
        while (std::getline(fs, line)) os << "  " << line << "\n";
    }
    os << "\nCounts: " << r.executions << " executions";
    if (r.pruned) os << " (" << r.pruned << " pruned by order)";
    if (r.sleep_blocked) os << " (" << r.sleep_blocked << " redundant, dpor sleep sets)";
    if (!o.stable) os << fmt(" in %.3f s (%.0f executions/s)", r.seconds, r.execs_per_sec);
    os << "; " << r.completeness << "; memory model " << r.memory_model << ".\n";
    if (r.minimized && r.first.token != r.token) {
        std::string first_cmd = o.replay_cmd.substr(0, o.replay_cmd.rfind(' ') + 1) + r.first.token;
        os << "\nThe first counterexample found had " << r.first.preemptions << " preemptions and " << r.first.steps
           << " steps; it replays with:\n  " << first_cmd << "\n";
    }
    os << "\nReplay:\n  " << o.replay_cmd << "\n";
    return os.str();
}

nlohmann::json json_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    using nlohmann::json;
    json j;
    j["schema"] = kResultSchema;
    j["scenario"] = s.name;
    j["file"] = s.file;
    j["model"] = s.model;
    j["memory_model"] = r.memory_model;
    j["verdict"] = r.verdict;
    j["expected"] = s.expect.verdict;
    if (!s.expect.invariant.empty()) j["expected_invariant"] = s.expect.invariant;
    if (!s.expect.scope.empty()) j["expected_scope"] = s.expect.scope;
    j["as_expected"] = r.verdict == s.expect.verdict && (r.verdict != "violated" || r.invariant == s.expect.invariant) &&
                       (r.verdict != "holds" || scope_at_least(r.scope, s.expect.scope));
    if (r.verdict != "violated") j["scope"] = scope_name(r.scope);
    if (r.verdict == "violated") {
        j["invariant"] = r.invariant;
        j["message"] = r.message;
        j["replay_token"] = r.token;
        j["replay_command"] = o.replay_cmd;
        j["preemptions"] = r.preemptions;
        j["steps"] = (int)trace_lines(r).size();
        json mini;
        mini["minimized"] = r.minimized;
        if (r.minimized) {
            mini["preemption_bound"] = r.minimal_bound;
            mini["executions"] = r.minimize_executions;
            json first;
            first["preemptions"] = r.first.preemptions;
            first["steps"] = r.first.steps;
            first["replay_token"] = r.first.token;
            mini["first"] = first;
        }
        j["minimal"] = mini;
        json steps = json::array();
        for (const auto& L : trace_lines(r)) {
            const Event& e = r.trace->events[L.event];
            json st;
            st["n"] = L.number;
            st["thread"] = r.thread_names[L.thread];
            st["function"] = L.func;
            st["kind"] = ev_name(e.kind);
            st["action"] = e.action ? e.action : "";
            if (e.obj >= 0) st["object"] = r.trace->objects[e.obj].name;
            if (e.field) st["field"] = e.field;
            if (e.order) st["order"] = e.order;
            if (e.kind == Ev::Read || e.kind == Ev::Rmw) {
                st["read_from"] = L.rf;
                st["stale"] = (bool)e.stale;
                if (e.stale) st["latest_write"] = L.latest;
            }
            if (e.kind == Ev::Write || e.kind == Ev::Rmw) {
                st["before"] = e.before;
                st["after"] = e.after;
            }
            if (e.kind == Ev::Read) st["value"] = e.before;
            st["text"] = L.text;
            st["conflict"] = L.conflict;
            steps.push_back(st);
        }
        j["trace"] = steps;
        j["final_state"] = r.final_state;
    }
    json search;
    search["strategy"] = r.strategy;
    if (r.preemption_bound >= 0) search["preemption_bound"] = r.preemption_bound;
    search["complete"] = r.complete;
    search["limit_hit"] = r.limit_hit;
    search["description"] = r.completeness;
    j["search"] = search;
    json counts;
    counts["executions"] = r.executions;
    counts["pruned"] = r.pruned;
    counts["sleep_blocked"] = r.sleep_blocked;
    if (!o.stable) {
        counts["seconds"] = r.seconds;
        counts["executions_per_second"] = r.execs_per_sec;
    }
    j["counts"] = counts;
    j["coverage"] = r.coverage;
    if (!r.metrics.empty()) j["metrics"] = r.metrics;
    return j;
}

}  // namespace vfsmc

namespace vfsmc {

namespace {

// Word-wrap `text` to `width` columns.
std::vector<std::string> wrap(const std::string& text, size_t width) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string word, line;
    while (in >> word) {
        while (word.size() > width) {  // a word longer than the column: cut it
            if (!line.empty()) {
                out.push_back(line);
                line.clear();
            }
            out.push_back(word.substr(0, width));
            word = word.substr(width);
        }
        if (line.empty()) line = word;
        else if (line.size() + 1 + word.size() <= width) line += " " + word;
        else {
            out.push_back(line);
            line = word;
        }
    }
    if (!line.empty()) out.push_back(line);
    if (out.empty()) out.push_back("");
    return out;
}

std::string pad(const std::string& s, size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

// The replay command as shell lines of at most `width` columns: the token is
// cut into quoted pieces joined by backslash-newline, which the shell
// removes, so a pasted command still works.
std::vector<std::string> shell_lines(const std::string& cmd, size_t width) {
    std::vector<std::string> out;
    if (cmd.size() <= width) return {cmd};
    auto sp = cmd.rfind(' ');
    std::string head = cmd.substr(0, sp), token = cmd.substr(sp + 1);
    out.push_back(head + " \\");
    size_t piece = width - 5;  // "  '" + "'\"
    for (size_t i = 0; i < token.size(); i += piece) {
        std::string part = token.substr(i, piece);
        bool last = i + piece >= token.size();
        out.push_back((i == 0 ? "  '" : "'") + part + "'" + (last ? "" : "\\"));
    }
    return out;
}

// Locks each thread holds after each event (for the swimlane spans).
struct Held {
    std::vector<std::vector<std::string>> at;  // by event: "thread:lock" names held after it
};

bool is_acquire(const std::string& a) {
    return a == "spin_lock" || a == "mutex_lock" || a == "down_read" || a == "down_write" || a == "spin_trylock" ||
           a == "rcu_read_lock";
}
bool is_release(const std::string& a) {
    return a == "spin_unlock" || a == "mutex_unlock" || a == "up_read" || a == "up_write" || a == "rcu_read_unlock";
}

std::string lock_name(const ExecRecord& rec, const Event& e) {
    if (std::string(e.action) == "rcu_read_lock" || std::string(e.action) == "rcu_read_unlock") return "rcu_read_lock";
    std::string o = obj_name(rec, e.obj);
    if (e.field && std::string(e.field) == "lock_count") return o + ".d_lock";
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
        bool wrote = e.kind == Ev::Rmw || e.kind == Ev::Lock || e.kind == Ev::Unlock;
        if (wrote && e.thread < nt) {
            if (is_acquire(a)) held[e.thread][lock_name(rec, e)]++;
            else if (is_release(a)) {
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

std::string paragraph(const Scenario& s, const RunResult& r) {
    std::string p = "Running the " + s.model + " model under the " + r.memory_model +
                    " memory model, vfsmc found an execution in which " + r.message + ".";
    if (const InvariantInfo* inv = find_invariant(r.invariant.c_str())) p += " " + r.invariant + " requires: " + inv->doc + ".";
    if (r.minimized)
        p += " This is a minimal counterexample (" + std::to_string(r.preemptions) + " preemptions, found under preemption bound " +
             std::to_string(r.minimal_bound) + ").";
    return p;
}

}  // namespace

std::string email_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    const size_t W = 72;
    std::ostringstream os;
    if (r.verdict != "violated") {
        for (const auto& l : wrap(summary_line(s, r, o.stable), W)) os << l << "\n";
        return os.str();
    }
    os << "[counterexample] " << s.name << ": " << r.invariant << " violated\n\n";
    for (const auto& l : wrap(paragraph(s, r), W)) os << l << "\n";
    os << "\n";
    int nt = (int)r.thread_names.size();
    const size_t numw = 5;  // ">>12 "
    size_t colw = (W - numw - (nt - 1)) / nt;
    std::string header = pad("", numw);
    for (int t = 0; t < nt; t++) header += pad(r.thread_names[t], colw) + (t + 1 < nt ? " " : "");
    os << header.substr(0, header.find_last_not_of(' ') + 1) << "\n";
    std::string rule = pad("", numw);
    for (int t = 0; t < nt; t++) rule += std::string(colw, '-') + (t + 1 < nt ? " " : "");
    os << rule << "\n";
    std::vector<std::string> last_func(nt);
    for (const auto& L : trace_lines(r)) {
        std::vector<std::string> cell;
        if (L.func != last_func[L.thread] && !L.func.empty()) {
            for (const auto& w : wrap(L.func + "():", colw)) cell.push_back(w);
            last_func[L.thread] = L.func;
        }
        for (const auto& w : wrap("  " + L.text, colw)) cell.push_back(w);
        for (size_t i = 0; i < cell.size(); i++) {
            std::string num = i == cell.size() - 1 || (i == 0 && cell.size() == 1)
                                  ? (L.conflict ? ">>" : "  ") + pad(std::to_string(L.number), 3)
                                  : std::string(numw - 1, ' ');
            std::string line = pad(num, numw);
            for (int t = 0; t < nt; t++) {
                std::string c = t == L.thread ? cell[i] : "";
                line += pad(c, colw) + (t + 1 < nt ? " " : "");
            }
            os << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
        }
    }
    os << "\nFinal state:\n";
    std::istringstream fs(r.final_state);
    std::string line;
    while (std::getline(fs, line))
        for (const auto& w : wrap(line, W - 2)) os << "  " << w << "\n";
    os << "\n";
    std::string counts = "Counts: " + std::to_string(r.executions) + " executions; " + r.completeness + "; memory model " +
                         r.memory_model + ".";
    for (const auto& w : wrap(counts, W)) os << w << "\n";
    os << "\nReplay:\n";
    for (const auto& l : shell_lines(o.replay_cmd, W)) os << l << "\n";
    return os.str();
}

std::string html_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<!-- generated by vfsmc; do not edit -->\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      << "<title>" << esc(s.name) << ": " << esc(r.verdict == "violated" ? r.invariant + " violated" : r.verdict) << "</title>\n"
      << "<style>\n"
         "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
         "h1{font-size:1.2em;font-family:monospace}\n"
         "table.swimlane{border-collapse:collapse;font-family:monospace;font-size:12px;width:100%}\n"
         "table.swimlane th{position:sticky;top:0;background:#eef;border-bottom:2px solid #88a;padding:4px}\n"
         "table.swimlane td{vertical-align:top;padding:2px 6px;border-left:4px solid transparent}\n"
         "td.num{color:#888;text-align:right;width:3em}\n"
         "td.holding{border-left:4px solid #9bc}\n"
         "tr.conflict td.step{background:#fdd;font-weight:bold}\n"
         "td.step.stale .text{background:#ffd}\n"
         ".func{color:#236}\n.held{color:#579;font-size:10px}\n"
         "pre.replay{background:#f4f4f4;padding:6px;white-space:pre-wrap;word-break:break-all}\n"
         "table.spans td,table.spans th{border:1px solid #ccc;padding:2px 6px;font-family:monospace;font-size:12px}\n"
         "</style></head><body>\n";
    if (r.verdict != "violated") {
        h << "<h1>" << esc(summary_line(s, r, o.stable)) << "</h1>\n</body></html>\n";
        return h.str();
    }
    h << "<h1 class=\"subject\">[counterexample] " << esc(s.name) << ": " << esc(r.invariant) << " violated</h1>\n";
    h << "<p class=\"summary\">" << esc(paragraph(s, r)) << "</p>\n";
    h << "<p class=\"doc\">Scenario: " << esc(s.doc) << "</p>\n";
    int nt = (int)r.thread_names.size();
    auto lines = trace_lines(r);
    auto held = held_by_line(r, lines);
    h << "<table class=\"swimlane\"><thead><tr><th>#</th>";
    for (int t = 0; t < nt; t++) h << "<th class=\"lane\" data-thread=\"" << esc(r.thread_names[t]) << "\">" << esc(r.thread_names[t]) << "</th>";
    h << "</tr></thead><tbody>\n";
    for (size_t i = 0; i < lines.size(); i++) {
        const auto& L = lines[i];
        h << "<tr class=\"step-row" << (L.conflict ? " conflict" : "") << "\" data-step=\"" << L.number << "\"><td class=\"num\">"
          << L.number << "</td>";
        for (int t = 0; t < nt; t++) {
            bool holding = !held[i][t].empty();
            std::string heldtxt;
            for (const auto& x : held[i][t]) heldtxt += (heldtxt.empty() ? "" : ", ") + x;
            if (t == L.thread) {
                h << "<td class=\"step" << (L.stale ? " stale" : "") << (holding ? " holding" : "") << "\" data-thread=\""
                  << esc(r.thread_names[t]) << "\">";
                if (!L.func.empty()) h << "<span class=\"func\">" << esc(L.func) << "()</span> ";
                h << "<span class=\"text\">" << esc(L.text) << "</span>";
                if (holding) h << "<div class=\"held\">holds " << esc(heldtxt) << "</div>";
                h << "</td>";
            } else {
                h << "<td class=\"idle" << (holding ? " holding" : "") << "\" data-thread=\"" << esc(r.thread_names[t]) << "\""
                  << (holding ? " title=\"holds " + esc(heldtxt) + "\"" : "") << "></td>";
            }
        }
        h << "</tr>\n";
    }
    h << "</tbody></table>\n";
    // Lock spans, as a table too.
    h << "<h2>Locks held</h2>\n<table class=\"spans\"><tr><th>thread</th><th>lock</th><th>from step</th><th>to step</th></tr>\n";
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
                      << it->second << "</td><td>" << lines[i].number << "</td></tr>\n";
                    it = open.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (const auto& kv : open)
            h << "<tr class=\"span\"><td>" << esc(r.thread_names[t]) << "</td><td>" << esc(kv.first) << "</td><td>" << kv.second
              << "</td><td>(end)</td></tr>\n";
    }
    h << "</table>\n";
    // Reference counts: every change of a counting field, and the step
    // ranges in which each count was held above zero.
    {
        const ExecRecord& rec = *r.trace;
        auto counting = [&](const Event& e) {
            if (e.ref == 2) return true;  // a lockref word
            if (!e.field) return false;
            std::string f = e.field;
            for (const char* k : {"count", "kref", "refs", "f_ref", "refcount"})
                if (f.find(k) != std::string::npos) return true;
            return false;
        };
        auto count_of = [&](const Event& e, int64_t v) { return e.ref == 2 ? (v >> 1) : v; };
        std::map<std::string, std::vector<std::string>> spans;
        std::map<std::string, int> held_from;
        std::ostringstream rows;
        int nrows = 0;
        for (const auto& L : lines) {
            const Event& e = rec.events[L.event];
            if ((e.kind != Ev::Rmw && e.kind != Ev::Write) || !counting(e)) continue;
            int64_t b = count_of(e, e.before), a = count_of(e, e.after);
            if (a == b) continue;
            std::string key = field_name(rec, e);
            rows << "<tr class=\"refcount\"><td>" << L.number << "</td><td>" << esc(r.thread_names[L.thread]) << "</td><td>"
                 << esc(key) << "</td><td>" << b << " &rarr; " << a << "</td></tr>\n";
            nrows++;
            if (b <= 0 && a > 0) held_from[key] = L.number;
            if (b > 0 && a <= 0) {
                int from = held_from.count(key) ? held_from[key] : 0;
                spans[key].push_back((from ? std::to_string(from) : std::string("start")) + "&ndash;" + std::to_string(L.number));
                held_from.erase(key);
            }
        }
        for (const auto& kv : held_from) spans[kv.first].push_back(std::to_string(kv.second) + "&ndash;end");
        if (nrows) {
            h << "<h2>References</h2>\n<table class=\"spans refs\"><tr><th>step</th><th>thread</th><th>count</th><th>change</th></tr>\n"
              << rows.str() << "</table>\n<p class=\"ref-spans\">Held above zero: ";
            bool first = true;
            for (const auto& kv : spans) {
                h << (first ? "" : "; ") << esc(kv.first) << " steps ";
                for (size_t i = 0; i < kv.second.size(); i++) h << (i ? ", " : "") << kv.second[i];
                first = false;
            }
            h << ".</p>\n";
        }
    }
    h << "<h2>Final state</h2>\n<pre class=\"final-state\">" << esc(r.final_state) << "</pre>\n";
    h << "<p class=\"counts\">" << r.executions << " executions; " << esc(r.completeness) << "; memory model " << esc(r.memory_model)
      << ".</p>\n";
    h << "<h2>Replay</h2>\n<pre class=\"replay\">" << esc(o.replay_cmd) << "</pre>\n</body></html>\n";
    return h.str();
}

}  // namespace vfsmc
