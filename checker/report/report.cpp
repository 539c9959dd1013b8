// vfsmc reports (see report.h). Objects are printed by name, never by
// address; every read says which write it saw.
#include "report/report.h"

#include <cstdarg>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>

#include "kernel/invariants.h"
#include "report/detail.h"

namespace vfsmc {

namespace {

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

}  // namespace

namespace report_detail {

std::string obj_name(const ExecRecord& rec, int id) {
    if (id < 0 || id >= rec.nobjects) return "";
    return rec.objects[id].name;
}

std::string field_name(const ExecRecord& rec, const Event& e) {
    std::string o = obj_name(rec, e.obj);
    if (!e.field || !*e.field) return o;  // a word that is the whole object (a litmus location)
    return o.empty() ? e.field : o + "." + e.field;
}

std::string paragraph(const Scenario& s, const RunResult& r) {
    std::string p = "Running the " + s.model + " model under the " + r.memory_model +
                    " memory model, vfsmc found an execution in which " + r.message + ".";
    if (const InvariantInfo* inv = find_invariant(r.invariant.c_str()))
        p += " " + r.invariant + " " + inv->verb + ": " + inv->doc + ".";
    p += " The execution has " + std::to_string(trace_lines(r).size()) + " steps and " + preemption_text(r.preemptions) + ".";
    if (r.minimized) p += " " + minimality_text(r);
    return p;
}


}  // namespace report_detail

namespace {

bool shown(const Event& e) { return e.kind != Ev::Enter; }

}  // namespace

using namespace report_detail;

std::string strprintf(const char* f, ...) {
    va_list ap, ap2;
    va_start(ap, f);
    va_copy(ap2, ap);
    int n = vsnprintf(nullptr, 0, f, ap);
    va_end(ap);
    std::string out(n > 0 ? (size_t)n : 0, '\0');
    if (n > 0) vsnprintf(&out[0], out.size() + 1, f, ap2);
    va_end(ap2);
    return out;
}

static bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == ':'; }

std::vector<std::string> vacuous_steps(const Scenario& s, const RunResult& r) {
    std::vector<std::string> out;
    if (r.verdict != "holds") return out;
    Model* m = find_model(s.model);
    if (!m) return out;
    for (const auto& st : m->spec().steps) {
        bool named = false;
        for (const auto& kv : s.config) named |= kv.second.s == st;
        // In the doc, a step claimed as exercised is written as a call: `d_wait_lookup()`.
        std::string call = st + "()";
        for (size_t p = s.doc.find(call); p != std::string::npos && !named; p = s.doc.find(call, p + 1))
            named = p == 0 || !ident_char(s.doc[p - 1]);
        if (named && std::find(r.coverage.begin(), r.coverage.end(), st) == r.coverage.end()) out.push_back(st);
    }
    return out;
}

std::string override_note(const ReportOptions& o) {
    if (o.overrides.empty()) return "";
    std::string t;
    for (const auto& x : o.overrides) t += (t.empty() ? "" : " ") + x;
    return "note: not the scenario's own result: changed on the command line with " + t +
           "; the scenario's expect was written for its own search and config.";
}

std::string preemption_text(int n) { return std::to_string(n) + (n == 1 ? " preemption" : " preemptions"); }

std::string pruned_label(const Scenario& s) {
    // An execution is pruned when it cannot meet the `order` constraints
    // (blocking waits replaced spinning, so nothing else prunes; dpor's
    // redundant executions are counted apart, as sleep-blocked).
    (void)s;
    return "pruned by order";
}

std::string minimality_text(const RunResult& r) {
    if (!r.minimized) return "";
    std::string t;
    if (r.minimal_bound == 0)
        t = "It is a minimal counterexample: the bounded search finds it with no preemption allowed, and it is the "
            "shortest found there";
    else
        t = "It is a minimal counterexample: the bounded search finds none allowing at most " +
            preemption_text(r.minimal_bound - 1) + ", and this is the shortest it finds allowing " +
            std::to_string(r.minimal_bound) + " (the search's bound counts every switch its scheduler makes away "
            "from a runnable thread, so it can be higher than the preemptions counted here)";
    t += "; the first counterexample found had " + std::to_string(r.first.steps) + " steps and " +
         preemption_text(r.first.preemptions) + ".";
    if (!r.minimal_cut_bounds.empty()) {
        t += " The search allowing";
        for (size_t i = 0; i < r.minimal_cut_bounds.size(); i++)
            t += (i ? ", " : " ") + std::to_string(r.minimal_cut_bounds[i]);
        t += " preemptions was capped, so a counterexample with fewer preemptions may exist.";
    }
    return t;
}

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
                t = strprintf("%s %s = %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str());
                L.rf = ref(e.rf);
                t += " (read from " + L.rf + ")";
                if (e.stale) {
                    L.latest = ref(e.latest);
                    t += " STALE: the latest write is " + L.latest;
                }
                break;
            case Ev::Write:
                t = strprintf("%s %s: %s -> %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str(),
                        value_text(rec, e, e.after).c_str());
                break;
            case Ev::Rmw:
                t = strprintf("%s %s: %s -> %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str(),
                        value_text(rec, e, e.after).c_str());
                L.rf = ref(e.rf);
                break;
            case Ev::Lock: case Ev::Unlock:
                t = std::string(e.action) + (e.obj >= 0 ? " " + obj_name(rec, e.obj) : "");
                break;
            case Ev::Wait:
                t = e.text[0] ? std::string(e.text) : strprintf("waits in %s on %s", e.action, obj_name(rec, e.obj).c_str());
                break;
            case Ev::Fence:
                t = strprintf("%s (%s fence)", e.action, e.order ? e.order : "");
                break;
            case Ev::Violation:
                t = strprintf("!! %s: %s", e.action, e.text);
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
    std::string counts = strprintf("%llu executions", (unsigned long long)r.executions);
    if (r.pruned) counts += strprintf(", %llu %s", (unsigned long long)r.pruned, pruned_label(s).c_str());
    if (r.sleep_blocked) counts += strprintf(", %llu redundant (dpor sleep sets)", (unsigned long long)r.sleep_blocked);
    if (!stable) counts += strprintf(", %.0f/s, %.2fs", r.execs_per_sec, r.seconds);
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
    if (inv) os << " The invariant " << r.invariant << " " << inv->verb << ": " << inv->doc << ".";
    os << " The execution has " << trace_lines(r).size() << " steps (the numbered lines below) and "
       << preemption_text(r.preemptions) << "; lines marked >> are the violation and the steps it conflicts with";
    bool any_stale = false;
    for (const auto& L : trace_lines(r)) any_stale |= L.stale;
    if (any_stale) os << ", and STALE marks a read that did not see the latest write";
    os << ".";
    if (r.minimized) os << " " << minimality_text(r);
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
               << (L.func.empty() ? "" : L.func + "(): ") << L.text << "\n";
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
    os << "\nCounts: " << r.executions << " executions";
    if (r.pruned) os << " (" << r.pruned << " " << pruned_label(s) << ")";
    if (r.sleep_blocked) os << " (" << r.sleep_blocked << " redundant, dpor sleep sets)";
    if (!o.stable) os << strprintf(" in %.3f s (%.0f executions/s)", r.seconds, r.execs_per_sec);
    os << "; " << r.completeness << "; memory model " << r.memory_model << ".\n";
    if (r.minimized && r.first.token != r.token) {
        std::string first_cmd = o.replay_cmd.substr(0, o.replay_cmd.rfind(' ') + 1) + r.first.token;
        os << "\nThe first counterexample found had " << preemption_text(r.first.preemptions) << " and " << r.first.steps
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
    j["vacuous_steps"] = vacuous_steps(s, r);
    if (!o.overrides.empty()) j["overrides"] = o.overrides;
    return j;
}

}  // namespace vfsmc
