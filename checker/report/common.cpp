// vfsmc reports: what every format shares (see report.h and detail.h): the
// minimality and override sentences, vacuous steps.
// Objects are printed by name, never by address; every read says which
// write it saw. The formats: text.cpp, json.cpp, email.cpp, html.cpp.
#include "report/report.h"

#include <cstdarg>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>

#include "contract/invariants.h"
#include "report/detail.h"

namespace vfsmc {

namespace report_detail {

std::string run_conditions(const RunResult& r) {
    std::string s = "memory model " + r.memory_model;
    if (!r.mutation.empty()) s += "; mutation " + r.mutation + " (a line of the model deleted, VFSMC_MUTATION)";
    return s;
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

std::string paragraph(const Scenario& s, const RunResult& r, const TraceView& v, bool witness) {
    std::string p = "Running the " + s.model + " model under the " + r.memory_model +
                    " memory model, vfsmc found an execution in which " + r.message + ".";
    const InvariantInfo* inv = find_invariant(r.invariant.c_str());
    if (inv && !witness) p += " " + r.invariant + " " + inv->verb + ": " + inv->doc + ".";
    p += " The execution has " + std::to_string(v.lines.size()) + " steps and " + preemption_text(r.preemptions) + ".";
    if (r.minimized) {
        std::string m = minimality_text(r);
        for (size_t at; witness && (at = m.find("counterexample")) != std::string::npos;) m.replace(at, 14, "witness");
        p += " " + m;
    }
    return p;
}


}  // namespace report_detail

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

// A call the doc denies rather than claims: its clause (from the last
// punctuation mark before it) says "not", "never", "without", "no" or "n't"
// ("P1 does not call d_instantiate()").
static bool denied(const std::string& doc, size_t at) {
    size_t from = at == 0 ? std::string::npos : doc.find_last_of(".;:,!?", at - 1);
    size_t start = from == std::string::npos ? 0 : from + 1;
    std::string clause = " " + doc.substr(start, at - start) + " ";
    for (auto& c : clause) c = (char)std::tolower((unsigned char)c);
    for (const char* w : {" not ", "n't ", " never ", " without ", " no "})
        if (clause.find(w) != std::string::npos) return true;
    return false;
}

std::vector<std::string> vacuous_steps(const Scenario& s, const RunResult& r) {
    std::vector<std::string> out;
    if (r.verdict != Verdict::holds) return out;
    Model* m = find_model(s.model);
    if (!m) return out;
    for (const auto& st : m->spec().steps) {
        bool named = false;
        for (const auto& kv : s.config) named |= kv.second.s == st;
        // In the doc, a step claimed as exercised is written as a call: `d_wait_lookup()`.
        std::string call = st + "()";
        for (size_t p = s.doc.find(call); p != std::string::npos && !named; p = s.doc.find(call, p + 1))
            named = (p == 0 || !ident_char(s.doc[p - 1])) && !denied(s.doc, p);
        if (named && std::find(r.coverage.begin(), r.coverage.end(), st) == r.coverage.end()) out.push_back(st);
    }
    return out;
}

namespace {

std::string joined(const std::vector<std::string>& v, const char* sep) {
    std::string t;
    for (const auto& x : v) t += (t.empty() ? "" : sep) + x;
    return t;
}

bool need_met(const Scenario& s, const ModelSpec& spec, const StepNeed& n) {
    auto one_of = [](const std::vector<std::string>& vs, const std::string& v) {
        return std::find(vs.begin(), vs.end(), v) != vs.end();
    };
    switch (n.kind) {
        case StepNeed::Kind::config:
        case StepNeed::Kind::init: {
            const auto& fields = n.kind == StepNeed::Kind::config ? s.config : s.init;
            auto it = fields.find(n.field);
            return it != fields.end() && one_of(n.values, it->second.s);
        }
        case StepNeed::Kind::call:
            for (const auto& t : s.threads)
                for (const auto& call : t.ops) {
                    if (!one_of(n.ops, call.name)) continue;
                    if (n.field.empty()) return true;
                    const auto& args = call.op >= 0 && call.op < (int)spec.ops.size() ? spec.ops[call.op].args
                                                                                      : std::vector<FieldSpec>();
                    for (size_t a = 0; a < args.size() && a < call.args.size(); a++)
                        if (args[a].name == n.field && one_of(n.values, call.args[a].s)) return true;
                }
            return false;
        case StepNeed::Kind::any:
            for (const auto& a : n.any)
                if (need_met(s, spec, a)) return true;
            return false;
    }
    return false;
}

// The ops of a call need, with the argument: "open or open_creat",
// "open with flags O_PATH".
std::string called(const StepNeed& n) {
    return joined(n.ops, " or ") + (n.field.empty() ? "" : " with " + n.field + " " + joined(n.values, " or "));
}

// The need in words: "config.rpc_error=true", "init.i_nlink=0",
// "a thread that calls open with flags O_PATH", "config.do_open=v4 or v5,
// or a thread that calls lookup".
std::string need_phrase(const StepNeed& n) {
    switch (n.kind) {
        case StepNeed::Kind::config: return "config." + n.field + "=" + joined(n.values, " or ");
        case StepNeed::Kind::init: return "init." + n.field + "=" + joined(n.values, " or ");
        case StepNeed::Kind::call: return "a thread that calls " + called(n);
        case StepNeed::Kind::any: {
            std::vector<std::string> alts;
            for (const auto& a : n.any) alts.push_back(need_phrase(a));
            return joined(alts, ", or ");
        }
    }
    return "";
}

// Why a step whose need is unmet is selected away: "needs
// config.rpc_error=true"; for an op, as the rule by name says it, "no
// thread calls lookup".
std::string unmet_why(const StepNeed& n) {
    return n.kind == StepNeed::Kind::call ? "no thread calls " + called(n) : "needs " + need_phrase(n);
}

}  // namespace

StepCoverage step_coverage(const Scenario& s, const RunResult& r) {
    StepCoverage c;
    Model* m = find_model(s.model);
    if (!m) return c;
    const ModelSpec& spec = m->spec();
    c.total = spec.steps.size();
    // The model's step needs, by step. A run under a mutation (a line of
    // the model deleted) leaves them out: they were read off the code as
    // it is.
    std::map<std::string, const StepNeeds*> row;
    if (r.mutation.empty())
        for (const auto& n : spec.step_needs)
            for (const auto& st : n.steps) row[st] = &n;
    for (const auto& st : spec.steps) {
        bool reached = std::find(r.coverage.begin(), r.coverage.end(), st) != r.coverage.end();
        auto it = row.find(st);
        if (it != row.end()) {
            const StepNeed* unmet = nullptr;
            for (const auto& n : it->second->needs)
                if (!unmet && !need_met(s, spec, n)) unmet = &n;
            if (reached) {
                c.reached++;
                if (unmet) c.against_needs.push_back({st, "the model declares that it needs " + need_phrase(*unmet)});
            } else if (unmet) {
                c.selected_away.push_back({st, unmet_why(*unmet)});
            } else {
                c.missed.push_back(st);
            }
            continue;
        }
        if (reached) {
            c.reached++;
            continue;
        }
        auto names = [&](const std::string& v) { return st == v || st.compare(0, v.size() + 1, v + ":") == 0; };
        std::string why;
        for (const auto& k : spec.knobs) {
            if (k.type != ArgType::Enum || !why.empty()) continue;
            auto kv = s.config.find(k.name);
            std::string chosen = kv != s.config.end() ? kv->second.s : k.def;
            for (const auto& v : k.allowed)
                if (v != chosen && names(v)) {
                    why = "config." + k.name + " is \"" + chosen + "\"";
                    break;
                }
        }
        for (const auto& op : spec.ops) {
            if (!why.empty() || !names(op.name)) continue;
            bool called = false;
            for (const auto& t : s.threads)
                for (const auto& call : t.ops) called |= call.name == op.name;
            if (!called) why = "no thread calls " + op.name;
        }
        if (why.empty()) c.missed.push_back(st);
        else c.selected_away.push_back({st, why});
    }
    return c;
}

std::vector<std::string> order_without_hb(const Scenario& s, const RunResult& r) {
    std::vector<std::string> out;
    if (r.verdict != Verdict::violated || !r.trace || s.order.empty()) return out;
    const ExecRecord& x = *r.trace;
    int n = std::min(x.nevents, kMaxEvents);
    for (size_t k = 0; k < s.order.size(); k++) {
        const OrderSpec& c = s.order[k];
        int start = -1;
        for (int i = 0; i < n && start < 0; i++) {
            const Event& e = x.events[i];
            if (e.thread == c.after_t && ((e.step && c.after_step == e.step) || (e.func && c.after_step == e.func))) start = i;
        }
        if (start < 0) continue;
        for (int i = start; i < n; i++) {
            const Event& e = x.events[i];
            if (e.thread != c.after_t || !e.stale || e.latest < 0 || e.latest >= start) continue;
            if (e.kind != Ev::Read && e.kind != Ev::Rmw) continue;
            const Event& w = x.events[e.latest];
            if (w.thread != c.before_t) continue;
            const char* obj = e.obj >= 0 && e.obj < x.nobjects ? x.objects[e.obj].name : "?";
            out.push_back(strprintf("order[%zu]: the counterexample depends on `order` creating no happens-before: %s's %s "
                                    "of %s.%s in %s() reads a value older than %s's store in %s(), which comes before "
                                    "%s starts %s; a constraint that synchronized would have shown it that store",
                                    k, c.after_thread.c_str(), e.action ? e.action : "read", obj, e.field ? e.field : "?",
                                    e.func ? e.func : "?", c.before_thread.c_str(), w.func ? w.func : "?",
                                    c.after_thread.c_str(), c.after_step.c_str()));
        }
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

std::string source_location(const Event& e) {
    if (!e.src_file || !*e.src_file) return "";
#ifdef VFSMC_SOURCE_ROOT
    const char* root = VFSMC_SOURCE_ROOT;
    size_t n = std::strlen(root);
    const char* f = std::strncmp(e.src_file, root, n) == 0 ? e.src_file + n : e.src_file;
#else
    const char* f = e.src_file;
#endif
    return std::string(f) + ":" + std::to_string(e.src_line);
}

std::string preemption_text(int n) { return std::to_string(n) + (n == 1 ? " preemption" : " preemptions"); }
std::string executions_text(uint64_t n) { return std::to_string(n) + (n == 1 ? " execution" : " executions"); }

std::string pruned_label(const RunResult& r) {
    // An execution is pruned, not judged, when it cannot meet the `order`
    // constraints, or when it stops at a check the scenario turned off (a
    // deadlock while `deadlock` is not checked). dpor's redundant executions
    // and the duplicate cuts are counted apart.
    uint64_t other = r.pruned - std::min(r.pruned, r.pruned_by_order);
    if (other == 0) return "pruned by order";
    if (r.pruned_by_order == 0) return "stopped at a check the scenario turned off";
    return "pruned (" + std::to_string(r.pruned_by_order) + " by order, " + std::to_string(other) +
           " stopped at a check the scenario turned off)";
}

std::string minimality_text(const RunResult& r) {
    if (!r.minimized) return "";
    std::string t;
    // The bounded search's bound is not the preemption count of the report:
    // it counts every switch the scheduler makes away from a runnable
    // thread. It is named "switch bound" so the two numbers never meet in
    // one phrase.
    if (r.minimal_bound == 0)
        t = "It is a minimal counterexample: the bounded search finds it with a switch bound of 0 (no switch away "
            "from a runnable thread), and it is the shortest found there";
    else
        t = "It is a minimal counterexample: the bounded search finds none with a switch bound of " +
            (r.minimal_bound == 1 ? std::string("0") : "at most " + std::to_string(r.minimal_bound - 1)) +
            ", and this is the shortest it finds with a switch bound of " + std::to_string(r.minimal_bound) +
            " (that bound counts every switch the scheduler makes away from a runnable thread, which includes "
            "switches not counted here as preemptions)";
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

}  // namespace vfsmc
