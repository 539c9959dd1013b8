// vfsmc replay: a counterexample again from its token, or its schedule
// against the scenario with another config (`replay --config`).
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "report/report.h"
#include "scenario/printable.h"
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

}  // namespace

int cmd_replay(const std::string& file, const std::string& token, const RunFlags& f,
               const std::vector<std::string>& config) {
    Scenario s = load_scenario(file);
    std::vector<std::string> without = apply_overrides(s, f);  // --without only
    if (!config.empty()) {
        Scenario changed = with_config(file, config);
        apply_overrides(changed, f);
        RunResult r = replay_on(s, changed, token);
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
        if (!r.replay_followed) {
            out_text(printable("The schedule of this token cannot be followed with" + cfg + ": " + r.replay_note, 4000) +
                     ". The changed code takes other steps, so the replay shows nothing about it.\n");
            return 1;
        }
        bool json = f.json || f.format == "json";
        if (!json) out_text(printable_lines(override_note(o) + "\n\n"));
        if (r.verdict == Verdict::violated) {
            if (json) out_text(json_printable(json_report(changed, r, o).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n");
            else if (f.format == "email") out_text(printable_lines(email_report(changed, r, o)));
            else out_text(printable_lines(text_report(changed, r, o)));
        } else {
            out_text(printable_lines("The schedule was followed to its end with" + cfg + " and no invariant broke: " +
                                     "the changed code survives this interleaving (" + std::to_string(r.executions) +
                                     " execution replayed).\n"));
        }
        return 0;
    }
    RunResult r = replay_scenario(s, token);
    if (r.verdict == Verdict::error) {
        std::cerr << bad_input_line(file + ": replay token: " + r.message) << "\n";
        return 2;
    }
    r.token = token;
    print_result(s, r, f, without);
    return as_expected(s, r) ? 0 : 1;
}

}  // namespace vfsmc
