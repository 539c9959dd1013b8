// Report rendering on the test-only protocols: the text report's subject
// line, steps, conflict marks, stale reads, names instead of addresses and
// replay command; the JSON result against docs/result-format.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "search/engine.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace vfsmc;
using json = nlohmann::json;

namespace vfsmc {
Model* toy_race_model();  // tests/toy_race.cpp
}

namespace {

// toy-race is registered only while a test uses it.
struct WithToyRace {
    WithToyRace() { models().push_back(toy_race_model()); }
    ~WithToyRace() { models().erase(std::find(models().begin(), models().end(), toy_race_model())); }
};

Scenario load(const std::string& name, const std::string& model, const std::string& config,
              const std::vector<std::string>& ops, const std::string& search, const std::string& expect,
              const std::string& extra = "") {
    std::string th;
    for (size_t i = 0; i < ops.size(); i++)
        th += std::string(i ? "," : "") + "{\"name\":\"P" + std::to_string(i) + "\",\"ops\":[\"" + ops[i] + "\"]}";
    return parse_scenario(name + ".json", "{\"name\":\"" + name + "\",\"doc\":\"report test\",\"model\":\"" + model +
                                              "\",\"memory_model\":\"kernel\",\"config\":" + config +
                                              ",\"threads\":[" + th + "],\"search\":" + search + extra +
                                              ",\"expect\":" + expect + "}");
}

Scenario lock_broken() {
    return load("lock-broken", "toy-lock", "{\"variant\":\"broken\"}", {"critical_section", "critical_section"},
                "{\"strategy\":\"bounded\",\"preemption_bound\":2}",
                "{\"verdict\":\"violated\",\"invariant\":\"toy-mutual-exclusion\"}");
}
Scenario mp_once() {
    return load("mp-once", "toy-mp", "{\"ordering\":\"once\"}", {"produce", "consume"}, "{\"strategy\":\"exhaustive\"}",
                "{\"verdict\":\"violated\",\"invariant\":\"toy-message-passing\"}");
}
Scenario race() {
    return load("race", "toy-race", "{}", {"bump", "bump"}, "{\"strategy\":\"exhaustive\"}",
                "{\"verdict\":\"violated\",\"invariant\":\"data-race\"}");
}

struct Report {
    Scenario s;
    RunResult r;
    std::string text;
    json j;
    std::vector<std::string> lines;
};

Report report(const Scenario& s, bool stable = false) {
    Report out{s, run_scenario(s, RunOptions()), "", json(), {}};
    ReportOptions o;
    o.stable = stable;
    o.replay = replay_command(out.s, out.r);
    out.text = text_report(out.s, out.r, o);
    out.j = json_report(out.s, out.r, o);
    std::istringstream in(out.text);
    for (std::string l; std::getline(in, l);) out.lines.push_back(l);
    return out;
}

// The lines of the "Interleaving:" section.
std::vector<std::string> interleaving(const Report& rep) {
    std::vector<std::string> out;
    bool in = false;
    for (const auto& l : rep.lines) {
        if (l == "Interleaving:") {
            in = true;
            continue;
        }
        if (in && l.empty()) break;
        if (in) out.push_back(l);
    }
    return out;
}

std::string last_nonempty(const std::vector<std::string>& lines) {
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
        if (!it->empty()) return *it;
    return "";
}

// Every key of a result, flattened: "counts.executions", "trace[].n".
void keys(const json& j, const std::string& prefix, std::set<std::string>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            std::string k = prefix.empty() ? it.key() : prefix + "." + it.key();
            out.insert(k);
            keys(it.value(), k, out);
        }
    } else if (j.is_array()) {
        for (const auto& e : j)
            if (e.is_object()) keys(e, prefix + "[]", out);
    }
}

// The fields docs/result-format.md documents: the first cell of its table rows.
std::set<std::string> documented_fields() {
    std::ifstream in(std::string(VFSMC_SOURCE_DIR) + "/docs/result-format.md");
    std::set<std::string> out;
    std::regex row("^\\| `([a-z_.\\[\\]]+)` \\|");
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_search(l, m, row)) out.insert(m[1]);
    }
    return out;
}

}  // namespace

TEST_CASE("a counterexample report opens with the subject line and ends with the replay command", "[report]") {
    for (const Scenario& s : {lock_broken(), mp_once()}) {
        Report rep = report(s);
        REQUIRE(rep.r.verdict == Verdict::violated);
        INFO(rep.text);
        CHECK(rep.lines.at(0) == "[counterexample] " + s.name + ": " + rep.r.invariant + " violated");
        CHECK(rep.lines.at(1).empty());
        // A paragraph in words, then the scenario, the interleaving, the final state and the counts.
        CHECK(rep.lines.at(2).rfind("With threads P0, P1 running the " + s.model + " model", 0) == 0);
        for (const char* section : {"Interleaving:", "Final state:", "Replay:"})
            CHECK(std::count(rep.lines.begin(), rep.lines.end(), section) == 1);
        std::string last = last_nonempty(rep.lines);
        CHECK(last == "  vfsmc replay " + s.name + ".json " + rep.r.token);
        CHECK(rep.lines.at(rep.lines.size() - 2) == "Replay:");
        // The command it prints replays the same counterexample.
        RunResult again = replay_scenario(s, rep.r.token);
        CHECK(again.verdict == Verdict::violated);
        CHECK(again.invariant == rep.r.invariant);
    }
}

TEST_CASE("every step of the interleaving names its thread and kernel function", "[report]") {
    Report rep = report(mp_once());
    auto steps = interleaving(rep);
    INFO(rep.text);
    REQUIRE(steps.size() == trace_lines(rep.r).size());
    std::regex step("^(>>|  ) *([0-9]+) \\[(P0|P1)\\] (produce|consume)\\(\\): .+$");
    for (size_t i = 0; i < steps.size(); i++) {
        std::smatch m;
        REQUIRE(std::regex_match(steps[i], m, step));
        CHECK(std::stoul(m[2]) == i + 1);
        // P0 produces and P1 consumes.
        CHECK((m[3] == "P0") == (m[4] == "produce"));
    }
    // The accesses name the object and field, and what they did to it.
    CHECK(std::count_if(steps.begin(), steps.end(), [](const std::string& l) {
              return l.find("[P0] produce(): WRITE_ONCE msg.data: 0 -> 42") != std::string::npos;
          }) == 1);
}

TEST_CASE("the violation and the steps it conflicts with are marked >>", "[report]") {
    SECTION("a data race marks both racing accesses") {
        WithToyRace with;
        Report rep = report(race());
        REQUIRE(rep.r.verdict == Verdict::violated);
        REQUIRE(rep.r.invariant == "data-race");
        INFO(rep.text);
        auto steps = interleaving(rep);
        auto tl = trace_lines(rep.r);
        REQUIRE(steps.size() == tl.size());
        std::set<std::string> marked_threads;
        int marked = 0;
        for (size_t i = 0; i < steps.size(); i++) {
            bool mark = steps[i].rfind(">>", 0) == 0;
            CHECK(mark == tl[i].conflict);
            CHECK(mark == rep.j["trace"][i]["conflict"].get<bool>());
            if (!mark) continue;
            marked++;
            marked_threads.insert(steps[i].substr(steps[i].find('['), 4));
        }
        CHECK(marked >= 2);
        // The violation line and an access of the other thread.
        CHECK(marked_threads.size() == 2);
        CHECK(std::any_of(steps.begin(), steps.end(), [](const std::string& l) {
            return l.rfind(">>", 0) == 0 && l.find("!! data-race") != std::string::npos;
        }));
        CHECK(std::any_of(steps.begin(), steps.end(), [](const std::string& l) {
            return l.rfind(">>", 0) == 0 && l.find("counter.hits") != std::string::npos;
        }));
        CHECK(rep.text.find("lines marked >> are the violation and the steps it conflicts with") != std::string::npos);
    }
    SECTION("an invariant raised with no conflicting steps marks only itself") {
        Report rep = report(lock_broken());
        auto steps = interleaving(rep);
        INFO(rep.text);
        std::vector<std::string> marked;
        for (const auto& l : steps)
            if (l.rfind(">>", 0) == 0) marked.push_back(l);
        REQUIRE(marked.size() == 1);
        CHECK(marked[0].find("!! toy-mutual-exclusion: inside = 2") != std::string::npos);
    }
}

TEST_CASE("a stale read names the write it read from and the latest write it missed", "[report]") {
    Report rep = report(mp_once());
    INFO(rep.text);
    auto steps = interleaving(rep);
    std::regex stale("\\[P1\\] consume\\(\\): READ_ONCE msg\\.data = 0 \\(read from the initial state\\) "
                     "STALE: the latest write is P0 #([0-9]+)$");
    int found = 0;
    for (const auto& l : steps) {
        std::smatch m;
        if (!std::regex_search(l, m, stale)) continue;
        found++;
        // The write it missed is P0's store of 42 to the same field.
        unsigned n = std::stoul(m[1]);
        REQUIRE(n >= 1);
        REQUIRE(n <= steps.size());
        CHECK(steps[n - 1].find("[P0] produce(): WRITE_ONCE msg.data: 0 -> 42") != std::string::npos);
    }
    CHECK(found == 1);
    // Every read says which write it read from, and the flag read saw P0's store.
    for (const auto& l : steps)
        if (l.find("READ_ONCE") != std::string::npos) CHECK(l.find(" (read from ") != std::string::npos);
    CHECK(std::any_of(steps.begin(), steps.end(), [](const std::string& l) {
        return std::regex_search(l, std::regex("READ_ONCE msg\\.flag = 1 \\(read from P0 #[0-9]+\\)$"));
    }));
    CHECK(rep.text.find("STALE marks a read that did not see the latest write") != std::string::npos);
    // The JSON result says the same.
    int stale_steps = 0;
    for (const auto& st : rep.j["trace"])
        if (st.value("stale", false)) {
            stale_steps++;
            CHECK(st["read_from"] == "the initial state");
            CHECK(st["latest_write"].get<std::string>().rfind("P0 #", 0) == 0);
            CHECK(st["object"] == "msg");
            CHECK(st["field"] == "data");
            CHECK(st["value"] == 0);
        }
    CHECK(stale_steps == 1);
}

TEST_CASE("no report shows an address: objects are named", "[report]") {
    WithToyRace with;
    std::regex hex("0x[0-9a-fA-F]+");
    for (const Scenario& s : {lock_broken(), mp_once(), race()}) {
        Report rep = report(s);
        REQUIRE(rep.r.verdict == Verdict::violated);
        ReportOptions o;
        o.replay = replay_command(rep.s, rep.r);
        INFO(rep.text);
        CHECK_FALSE(std::regex_search(rep.text, hex));
        CHECK_FALSE(std::regex_search(rep.j.dump(), hex));
        CHECK_FALSE(std::regex_search(email_report(rep.s, rep.r, o), hex));
        CHECK_FALSE(std::regex_search(rep.r.final_state, hex));
        // Every step on an object names it.
        for (const auto& st : rep.j["trace"])
            if (st["kind"] == "read" || st["kind"] == "write") CHECK(!st["object"].get<std::string>().empty());
    }
}

TEST_CASE("a holds or unsatisfiable verdict is one summary line with the counts", "[report]") {
    Report holds = report(load("lock-correct", "toy-lock", "{\"variant\":\"correct\"}",
                               {"critical_section", "critical_section"}, "{\"strategy\":\"exhaustive\"}", "\"holds\""));
    REQUIRE(holds.r.verdict == Verdict::holds);
    REQUIRE(holds.lines.size() == 1);
    CHECK(std::regex_match(holds.lines[0], std::regex("holds \\(complete\\): lock-correct \\([0-9]+ executions, .*; every interleaving \\(plain search\\); "
                                                      "memory model kernel\\)")));
    CHECK(holds.text.find("[counterexample]") == std::string::npos);

    const std::string cycle =
        ",\"order\":[{\"before\":{\"thread\":\"P0\",\"step\":\"produce\"},\"after\":{\"thread\":\"P1\",\"step\":\"consume\"}},"
        "{\"before\":{\"thread\":\"P1\",\"step\":\"consume\"},\"after\":{\"thread\":\"P0\",\"step\":\"produce\"}}]";
    Report unsat = report(load("mp-cycle", "toy-mp", "{\"ordering\":\"once\"}", {"produce", "consume"},
                               "{\"strategy\":\"exhaustive\"}", "\"unsatisfiable\"", cycle));
    REQUIRE(unsat.r.verdict == Verdict::unsatisfiable);
    REQUIRE(unsat.lines.size() == 2);
    CHECK(unsat.lines[0].rfind("unsatisfiable (complete): mp-cycle (", 0) == 0);
    CHECK(unsat.lines[0].find(" pruned by order") != std::string::npos);
    CHECK(unsat.lines[1].find("order") != std::string::npos);
}

TEST_CASE("a stable report leaves out timings, so two runs give the same golden text", "[report]") {
    Report a = report(lock_broken(), true), b = report(lock_broken(), true);
    CHECK(a.text == b.text);
    CHECK(a.text.find("executions/s") == std::string::npos);
    CHECK(a.j["counts"].contains("executions"));
    CHECK_FALSE(a.j["counts"].contains("seconds"));
    Report c = report(lock_broken(), false);
    CHECK(c.text.find("executions/s") != std::string::npos);
    CHECK(c.j["counts"].contains("seconds"));
}

TEST_CASE("the JSON result carries its schema version and only fields docs/result-format.md documents", "[report]") {
    std::set<std::string> documented = documented_fields();
    REQUIRE(documented.size() > 40);
    WithToyRace with;
    const std::string cycle =
        ",\"order\":[{\"before\":{\"thread\":\"P0\",\"step\":\"produce\"},\"after\":{\"thread\":\"P1\",\"step\":\"consume\"}},"
        "{\"before\":{\"thread\":\"P1\",\"step\":\"consume\"},\"after\":{\"thread\":\"P0\",\"step\":\"produce\"}}]";
    std::vector<Scenario> all = {
        lock_broken(), mp_once(), race(),
        load("lock-correct", "toy-lock", "{\"variant\":\"correct\"}", {"critical_section", "critical_section"},
             "{\"strategy\":\"random\",\"iterations\":100,\"seed\":2}", "\"holds\""),
        load("mp-cycle", "toy-mp", "{\"ordering\":\"once\"}", {"produce", "consume"}, "{\"strategy\":\"exhaustive\"}",
             "\"unsatisfiable\"", cycle)};
    std::set<std::string> emitted;
    for (const Scenario& s : all) {
        for (bool stable : {false, true}) {
            Report rep = report(s, stable);
            const json& j = rep.j;
            INFO(s.name << "\n" << j.dump(2));
            CHECK(j["schema"] == "vfsmc-result/2");
            for (const char* k : {"scenario", "file", "model", "memory_model", "verdict", "expected", "as_expected",
                                  "search", "counts", "coverage"})
                CHECK(j.contains(k));
            CHECK(j["scenario"] == s.name);
            CHECK(j["verdict"] == verdict_name(rep.r.verdict));
            CHECK(j["as_expected"] == true);
            CHECK(j["counts"]["executions"] == rep.r.executions);
            if (rep.r.verdict == Verdict::violated) {
                CHECK(j["invariant"] == rep.r.invariant);
                CHECK(j["replay_token"] == rep.r.token);
                CHECK("  " + j["replay_command"].get<std::string>() == last_nonempty(rep.lines));
                CHECK(j["steps"] == j["trace"].size());
                for (const auto& st : j["trace"])
                    for (const char* k : {"n", "thread", "function", "kind", "action", "text", "conflict"}) CHECK(st.contains(k));
            }
            keys(j, "", emitted);
        }
    }
    for (const auto& k : emitted) {
        INFO("emitted but not documented in docs/result-format.md: " << k);
        CHECK(documented.count(k) == 1);
    }
}
