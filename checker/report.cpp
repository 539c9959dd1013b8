// vfsmc reports (see report.h). Objects are printed by name, never by
// address; every read says which write it saw.
#include "report.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "invariants.h"

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
    if (!e.field) return o;
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
                if (e.stale) t += " STALE: the latest write is " + ref(e.latest);
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
                t = fmt("waits in %s on %s", e.action, obj_name(rec, e.obj).c_str());
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
        L.text = t;
        out.push_back(L);
    }
    return out;
}

std::string summary_line(const Scenario& s, const RunResult& r, bool stable) {
    std::string head = r.verdict;
    if (r.verdict == "violated") head += " " + r.invariant;
    std::string counts = fmt("%llu executions", (unsigned long long)r.executions);
    if (r.pruned) counts += fmt(", %llu pruned by order", (unsigned long long)r.pruned);
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
       << " preemptions; lines marked >> are the violation and the steps it conflicts with";
    bool any_stale = false;
    for (const auto& L : trace_lines(r)) any_stale |= L.stale;
    if (any_stale) os << ", and STALE marks a read that did not see the latest write";
    os << ".\n\n";
    os << "Scenario: " << s.doc << "\n\n";
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
    if (!o.stable) os << fmt(" in %.3f s (%.0f executions/s)", r.seconds, r.execs_per_sec);
    os << "; " << r.completeness << "; memory model " << r.memory_model << ".\n";
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
    j["as_expected"] = r.verdict == s.expect.verdict && (r.verdict != "violated" || r.invariant == s.expect.invariant);
    if (r.verdict == "violated") {
        j["invariant"] = r.invariant;
        j["message"] = r.message;
        j["replay_token"] = r.token;
        j["replay_command"] = o.replay_cmd;
        j["preemptions"] = r.preemptions;
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
