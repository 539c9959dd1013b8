// vfsmc replay: a counterexample again from its token, or its schedule
// against the scenario with another config (`replay --config`).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "report/report.h"
#include "base/printable.h"
#include "scenario/scenario.h"

namespace vfsmc {

namespace {

// `replay --config KEY=VALUE`: the scenario with config KEY set to VALUE
// (JSON if it parses as JSON, else a string), loaded and checked as a file
// with that config would be.
Scenario with_config(const std::string& file, const std::vector<std::string>& sets) {
    std::ifstream in(file);
    if (!in) throw LoadError(file + ": cannot read; accepted: a scenario file");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.str());
    } catch (const std::exception&) {
        return load_scenario(file);  // the loader's own one-line error
    }
    if (!j.is_object()) return load_scenario(file);
    for (const auto& kv : sets) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw LoadError("vfsmc replay: --config: bad value \"" + printable(kv, kMaxShownValue) + "\"; accepted: KEY=VALUE, a knob of the scenario's model (`vfsmc list`)");
        std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
        nlohmann::json v = nlohmann::json::parse(value, nullptr, false);
        if (v.is_discarded()) v = value;
        if (!j.contains("config") || !j["config"].is_object()) j["config"] = nlohmann::json::object();
        j["config"][key] = v;
    }
    return parse_scenario(file, j.dump());
}

// The schedule as turns: the threads in the order they ran, a run of steps
// by one thread counted once (as replay_on compares them), each with the
// event that starts it.
struct Turn {
    int thread;
    int event;
};
std::vector<Turn> turns_of(const ExecRecord& rec) {
    std::vector<Turn> t;
    for (int i = 0; i < std::min(rec.nevents, kMaxEvents); i++) {
        const Event& e = rec.events[i];
        if (e.kind == Ev::Enter) continue;
        if (t.empty() || t.back().thread != e.thread) t.push_back({e.thread, i});
    }
    return t;
}

// The config the command line set, as a scenario file would write it:
// "version": "pre-seed".
std::string config_json(const std::vector<std::string>& sets) {
    std::string out;
    for (const auto& kv : sets) {
        auto eq = kv.find('=');
        nlohmann::json v = nlohmann::json::parse(kv.substr(eq + 1), nullptr, false);
        if (v.is_discarded()) v = kv.substr(eq + 1);
        out += (out.empty() ? "" : ", ") + nlohmann::json(kv.substr(0, eq)).dump() + ": " +
               v.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    }
    return out;
}

// `replay --config` whose schedule the changed code does not take: where
// it leaves the schedule (the step, the turn, which thread the schedule
// runs there and which the changed code runs), the changed code's steps up
// to there, and how to judge the changed code instead. `orig` is the
// token's execution on the scenario itself, `r` the changed code's. Shown
// as text (divergence_text) or in the JSON result (replay_json).
struct Divergence {
    std::string config;  // " --config publish=d_splice_alias"
    std::string why;     // the engine's note: the turn the two part at
    std::string advice;  // how to judge the changed code instead
    bool traced = false;  // both executions have a trace: the rest is set
    std::string schedule_turns, changed_turns;  // "P0 1-4, P1 5-9, ..."
    std::string schedule_invariant, changed_invariant;  // changed: empty when it broke none
    int schedule_steps = 0, changed_steps = 0;
    std::string where;  // where the two part, one sentence
    int off = 0;        // the changed code's first step off the schedule; 0: none (the replay stopped first)
    int followed = 0;   // the changed code's steps the replay shows
    std::vector<TraceLine> steps;  // those steps
    std::vector<std::string> threads;
};

Divergence divergence(const Scenario& changed, const RunResult& orig, const RunResult& r, const std::string& file,
                      const std::vector<std::string>& config) {
    Divergence d;
    for (const auto& c : config) d.config += " --config " + c;
    d.why = r.replay_note;
    d.advice = "To judge the changed code, search it: set \"config\": {" + config_json(config) + "} in a copy of " + file +
               " and run `vfsmc run` on the copy.";
    if (!orig.trace || !r.trace) return d;
    d.traced = true;
    d.threads = r.thread_names;
    std::vector<Turn> want = turns_of(*orig.trace), got = turns_of(*r.trace);
    size_t k = 0;
    while (k < want.size() && k < got.size() && want[k].thread == got[k].thread) k++;
    TraceView v = TraceView::of(r, &changed), vo = TraceView::of(orig);
    auto name = [&](int t) { return t >= 0 && t < (int)r.thread_names.size() ? r.thread_names[t] : std::string("?"); };
    // "P0 1-24, P1 25-27": each turn's thread and shown steps.
    auto turn_list = [&](const std::vector<Turn>& ts, const TraceView& tv) {
        std::string t;
        for (size_t i = 0; i < ts.size(); i++) {
            int from = tv.line_of(ts[i].event);
            int to = i + 1 < ts.size() ? tv.line_of(ts[i + 1].event) - 1 : (int)tv.lines.size();
            t += (i ? ", " : "") + name(ts[i].thread) + " " + std::to_string(from) +
                 (to > from ? "-" + std::to_string(to) : std::string());
        }
        return t;
    };
    d.off = k < got.size() ? v.line_of(got[k].event) : 0;
    d.followed = d.off ? d.off - 1 : (int)v.lines.size();
    d.schedule_turns = turn_list(want, vo);
    d.changed_turns = turn_list(got, v);
    d.schedule_invariant = orig.invariant;
    d.schedule_steps = (int)vo.lines.size();
    if (r.verdict == Verdict::violated) d.changed_invariant = r.invariant;
    d.changed_steps = (int)v.lines.size();
    if (k < want.size() && d.off)
        d.where = "They part at step " + std::to_string(d.off) + ", turn " + std::to_string(k + 1) + ": the schedule runs " +
                  name(want[k].thread) + " there, the changed code " + name(got[k].thread) + ".";
    else if (k < want.size())
        d.where = "The replay of the changed code stops after step " + std::to_string(d.followed) +
                  ": there it has run out of steps, or asks for a choice the token does not record, so turn " +
                  std::to_string(k + 1) + ", " + name(want[k].thread) + "'s, never comes.";
    else
        d.where = "The changed code takes the schedule's " + std::to_string(want.size()) +
                  (want.size() == 1 ? " turn" : " turns") + " without breaking an invariant; then, at step " +
                  std::to_string(d.off) + ", " + name(got[k].thread) + " takes a turn the schedule does not have.";
    for (const auto& L : v.lines)
        if (d.off ? L.number <= d.off : L.number <= d.followed) d.steps.push_back(L);
    return d;
}

std::string divergence_text(const Divergence& d, bool source) {
    std::string out = "The token's schedule cannot be followed with" + d.config + ".\n";
    if (!d.traced) return out + "Why: " + d.why + ".\n" + d.advice + "\n";
    auto name = [&](int t) { return t >= 0 && t < (int)d.threads.size() ? d.threads[t] : std::string("?"); };
    out += "  the schedule's turns (the scenario itself): " + d.schedule_turns + "; it breaks " + d.schedule_invariant +
           " at step " + std::to_string(d.schedule_steps) + "\n";
    out += "  the changed code's turns:                   " + d.changed_turns +
           (d.changed_invariant.empty() ? std::string()
                                        : "; it breaks " + d.changed_invariant + " at step " + std::to_string(d.changed_steps)) +
           "\n";
    out += d.where + "\n";
    out += "\nThe changed code's steps up to there" +
           std::string(d.off ? " (>> marks the first step off the schedule)" : "") + ":\n";
    for (const auto& L : d.steps)
        out += (L.number == d.off ? ">>" : "  ") + strprintf("%4d", L.number) + " [" + name(L.thread) + "] " +
               (L.func.empty() ? "" : L.func + "(): ") + L.text + (source && !L.source.empty() ? "  at " + L.source : "") + "\n";
    out += "\nThe replay shows nothing about the changed code beyond step " + std::to_string(d.followed) +
           (d.off ? ", where it leaves the token's schedule.\n" : ".\n") + d.advice + "\n";
    return out;
}

// The JSON result's `replay` object (docs/result-format.md): `d` is
// null when the changed code followed the schedule.
nlohmann::json replay_json(const std::vector<std::string>& config, const Divergence* d) {
    nlohmann::json j;
    j["config"] = config;
    j["followed"] = d == nullptr;
    if (!d) return j;
    j["why"] = d->why;
    j["advice"] = d->advice;
    if (!d->traced) return j;
    j["schedule_turns"] = d->schedule_turns;
    j["changed_turns"] = d->changed_turns;
    j["where"] = d->where;
    j["off_schedule_step"] = d->off ? nlohmann::json(d->off) : nlohmann::json();
    j["followed_steps"] = d->followed;
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& L : d->steps) {
        nlohmann::json st;
        st["n"] = L.number;
        st["thread"] = L.thread >= 0 && L.thread < (int)d->threads.size() ? d->threads[L.thread] : "?";
        st["function"] = L.func;
        st["text"] = L.text;
        if (!L.source.empty()) st["source"] = L.source;
        st["off_schedule"] = L.number == d->off;
        steps.push_back(st);
    }
    j["steps"] = steps;
    return j;
}

}  // namespace

int cmd_replay(const std::string& file, const std::string& token, const RunFlags& f,
               const std::vector<std::string>& config) {
    Scenario s = load_scenario(file);
    std::vector<std::string> without = apply_overrides(s, f);  // --without only
    RunOptions opt;
    opt.mutation = f.mutation;
    if (!config.empty()) {
        Scenario changed = with_config(file, config);
        apply_overrides(changed, f);
        RunResult r = replay_on(s, changed, token, opt);
        std::string cfg;
        for (const auto& c : config) cfg += " --config " + c;
        ReportOptions o;
        o.stable = f.stable;
        o.brief = f.brief;
        o.overrides = without;
        o.overrides.push_back(cfg.substr(1));
        o.replay = replay_command(s, r);
        for (const auto& w : without) o.replay.tail += " " + w;
        o.replay.tail += cfg;
        bool json = f.json || f.format == "json";
        // A replay runs one execution: never the whole search, and a
        // schedule followed without a violation is a sample of one.
        auto print_json = [&](RunResult shown, const Divergence* d) {
            shown.complete = false;
            if (shown.verdict == Verdict::holds) shown.scope = Scope::sampled;
            nlohmann::json j = json_report(changed, shown, o);
            j["replay"] = replay_json(config, d);
            out_text(json_printable(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n");
        };
        if (!r.replay_followed) {
            // The token's own execution, on the scenario itself: where the
            // schedule goes.
            RunResult orig = replay_scenario(s, token, opt);
            Divergence d = divergence(changed, orig, r, file, config);
            if (!json) {
                out_text(printable_lines(divergence_text(d, f.source)));
                return 1;
            }
            // No verdict on the changed code: the replay does not fit it.
            RunResult shown = r;
            shown.verdict = Verdict::error;
            shown.scope = Scope::inconclusive;
            shown.invariant.clear();
            shown.message.clear();
            print_json(shown, &d);
            return 1;
        }
        if (json) {
            print_json(r, nullptr);
            return 0;
        }
        out_text(printable_lines(override_note(o) + "\n\n"));
        if (r.verdict == Verdict::violated) {
            if (f.format == "email") out_text(printable_lines(email_report(changed, r, o)));
            else out_text(printable_lines(text_report(changed, r, o)));
        } else {
            out_text(printable_lines("The schedule was followed to its end with" + cfg + " and no invariant broke: " +
                                     "the changed code survives this interleaving (" + std::to_string(r.executions) +
                                     " execution replayed).\n"));
        }
        return 0;
    }
    RunResult r = replay_scenario(s, token, opt);
    if (r.verdict == Verdict::error) {
        std::cerr << bad_input_line(file + ": replay token: " + r.message) << "\n";
        return 2;
    }
    r.token = token;
    print_result(s, r, f, without);
    return as_expected(s, r) ? 0 : 1;
}

}  // namespace vfsmc
