// The scenario loader: one test per class of bad input. Every error is one
// line: the file, the JSON path, the bad value and what is accepted. The
// scenarios use the test-only models (toy-lock, toy-mp) and, for typed
// fields the toys lack, a spec-only model registered only while a test runs.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "contract/invariants.h"
#include "base/printable.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"

using namespace vfsmc;
using json = nlohmann::json;

namespace {

// A valid toy-lock scenario; each test breaks one thing.
json base() {
    return json::parse(R"({
  "name": "t",
  "doc": "two threads in the broken toy lock",
  "model": "toy-lock",
  "memory_model": "kernel",
  "config": {"variant": "broken"},
  "threads": [
    {"name": "P0", "ops": ["critical_section"]},
    {"name": "P1", "ops": ["critical_section", "critical_section", {"op": "critical_section"}]}
  ],
  "search": {"strategy": "bounded", "preemption_bound": 2},
  "expect": {"verdict": "violated", "invariant": "toy-mutual-exclusion"}
})");
}

// A valid toy-mp scenario with an `order` constraint.
json mp() {
    return json::parse(R"({
  "name": "t",
  "doc": "message passing once produce() has completed",
  "model": "toy-mp",
  "memory_model": "kernel",
  "config": {"ordering": "once"},
  "threads": [{"name": "P0", "ops": ["produce"]}, {"name": "P1", "ops": ["consume"]}],
  "order": [{"before": {"thread": "P0", "step": "produce"}, "after": {"thread": "P1", "step": "consume"}}],
  "expect": {"verdict": "violated", "invariant": "toy-message-passing"}
})");
}

// The loader's one line for this text, or "(loaded)".
std::string error_of(const std::string& text, const std::string& file) {
    try {
        parse_scenario(file, text);
    } catch (const LoadError& e) {
        return e.what();
    }
    return "(loaded)";
}
std::string error_of(const json& j) { return error_of(j.dump(2), "t.json"); }
std::string text_error(const std::string& text) { return error_of(text, "t.json"); }

// Every error is one line.
#define CHECK_ERROR(expr, expected)                                 \
    do {                                                            \
        std::string got_ = (expr);                                  \
        CHECK(got_ == (expected));                                  \
        CHECK(got_.find('\n') == std::string::npos);                \
    } while (0)

// A model with typed fields (int, bool, enum, string; required and
// defaulted) for the loader only: it is registered for the duration of a
// test and never run.
struct FieldsModel : Model {
    ModelSpec s;
    FieldsModel() {
        s.name = "toy-fields";
        s.doc = "test-only: typed knobs, init fields and op arguments for the loader tests";
        s.follows = "nothing; never run";
        FieldSpec depth{"depth", ArgType::Int, {}, false, "2", "how deep", 1, 8};
        FieldSpec fast{"fast", ArgType::Bool, {}, false, "false", "take the fast path"};
        FieldSpec kind{"kind", ArgType::Enum, {"file", "dir"}, true, "", "the inode type"};
        FieldSpec label{"label", ArgType::Str, {}, false, "x", "a label"};
        FieldSpec name{"name", ArgType::Str, {}, true, "", "the name to open"};
        FieldSpec flags{"flags", ArgType::Int, {}, false, "0", "open flags", 0, 3};
        s.knobs = {depth, fast};
        s.init = {kind, label};
        s.ops = {{"open", "open a name", {name, flags}}, {"close", "close it", {}}};
        s.invariants = {"ref-leak"};
        s.steps = {"open", "close", "open:lookup"};
        s.min_threads = 1;
        s.max_threads = 3;
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario&) override {}
    ModelRun* start() override { return nullptr; }
};

struct WithFieldsModel {
    FieldsModel m;
    WithFieldsModel() { models().push_back(&m); }
    ~WithFieldsModel() { models().erase(std::find(models().begin(), models().end(), &m)); }
};

json fields() {
    return json::parse(R"({
  "name": "t",
  "doc": "typed fields",
  "model": "toy-fields",
  "config": {"depth": 3, "fast": true},
  "init": {"kind": "dir"},
  "threads": [{"name": "P0", "ops": [{"op": "open", "name": "foo", "flags": 1}, "close"]}],
  "expect": "holds"
})");
}

}  // namespace

TEST_CASE("a valid scenario loads, with defaults filled in", "[loader]") {
    Scenario s = parse_scenario("dir/t.json", base().dump());
    CHECK(s.name == "t");
    CHECK(s.model == "toy-lock");
    CHECK(s.threads.size() == 2);
    CHECK(s.threads[1].ops.size() == 3);
    CHECK(s.knob("variant").s == "broken");
    CHECK(s.search.strategy == Strategy::bounded);
    CHECK(s.search.preemption_bound == 2);
    // The default invariants: the engine's and the model's.
    CHECK(std::find(s.invariants.begin(), s.invariants.end(), "deadlock") != s.invariants.end());
    CHECK(std::find(s.invariants.begin(), s.invariants.end(), "toy-mutual-exclusion") != s.invariants.end());

    WithFieldsModel wf;
    Scenario f = parse_scenario("t.json", fields().dump());
    CHECK(f.knob("depth").i == 3);
    CHECK(f.knob("fast").b);
    CHECK(f.init_field("kind").s == "dir");
    CHECK(f.init_field("label").s == "x");  // default
    REQUIRE(f.threads[0].ops[0].args.size() == 2);
    CHECK(f.threads[0].ops[0].args[0].s == "foo");
    CHECK(f.threads[0].ops[0].args[1].i == 1);
}

TEST_CASE("a scenario may carry $schema for editors, and 3.0 is the integer 3 as in JSON Schema", "[loader]") {
    json j = base();
    j["$schema"] = "../../docs/scenario.schema.json";
    j["search"]["preemption_bound"] = 3.0;
    Scenario s = parse_scenario("t.json", j.dump());
    CHECK(s.search.preemption_bound == 3);
    j["$schema"] = 1;
    CHECK_ERROR(error_of(j), "t.json: $schema: bad value 1; accepted: a string: the path or URL of docs/scenario.schema.json");
}

TEST_CASE("invalid JSON is reported with its line and column", "[loader]") {
    CHECK_ERROR(text_error("{\n  \"name\": \"t\",\n  \"doc\": }\n"),
                "t.json: line 3, column 10: invalid JSON: syntax error while parsing value - unexpected '}'; "
                "expected '[', '{', or a literal");
    CHECK_ERROR(text_error("{\"name\": \"t\",}"),
                "t.json: line 1, column 14: invalid JSON: syntax error while parsing object key - unexpected '}'; "
                "expected string literal");
    CHECK_ERROR(text_error("{\"name\": \"t\"} trailing"),
                "t.json: line 1, column 17: invalid JSON: syntax error while parsing value - invalid literal; "
                "last read: '\"t\"} tra'; expected end of input");
    CHECK_ERROR(text_error(""), "t.json: line 1, column 1: invalid JSON: the file is empty; accepted: a JSON object");
    CHECK_ERROR(text_error(" \n\t"), "t.json: line 1, column 1: invalid JSON: the file is empty; accepted: a JSON object");
    CHECK_ERROR(text_error("[1, 2]"),
                "t.json: (top level): bad value [1,2]; accepted: a JSON object with fields name, doc, model, threads, expect, ...");
}

TEST_CASE("weird input never crashes, hangs or escapes as an internal error", "[loader]") {
    // Nesting deep enough to overflow the stack in a recursive dump.
    std::string deep = "{\"name\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    CHECK_ERROR(text_error(deep),
                "t.json: line 1, column 41: invalid JSON: nested deeper than 32 levels; accepted: a scenario object (5 levels deep)");
    // A number beyond double: nlohmann throws out_of_range, not parse_error.
    CHECK_ERROR(text_error("{\"name\": 1e999}"), "t.json: line 1, column 14: invalid JSON: number overflow parsing '1e999'");
    // Huge integers are integers out of range, not wrapped around.
    json j = base();
    j["search"]["preemption_bound"] = json::parse("18446744073709551615");
    CHECK_ERROR(error_of(j), "t.json: search.preemption_bound: bad value 18446744073709551615; accepted: an integer from 0 to 20");
    j["search"]["preemption_bound"] = json::parse("-9223372036854775808");
    CHECK_ERROR(error_of(j), "t.json: search.preemption_bound: bad value -9223372036854775808; accepted: an integer from 0 to 20");
    j["search"]["preemption_bound"] = 1e300;
    CHECK_ERROR(error_of(j), "t.json: search.preemption_bound: bad value 1e+300; accepted: an integer from 0 to 20");
    // Bytes that are not UTF-8 are shown escaped, so the line stays printable.
    CHECK_ERROR(text_error("{\"name\": \"\xff\xfe\"}"),
                "t.json: line 1, column 11: invalid JSON: syntax error while parsing value - invalid string: "
                "ill-formed UTF-8 byte; last read: '\"\\xff'");
    CHECK_ERROR(text_error("\xef\xbb\xbf{\x01}"),
                "t.json: line 1, column 5: invalid JSON: syntax error while parsing object key - invalid literal; "
                "last read: '\\xef\\xbb\\xbf{<U+0001>'; expected string literal");
    // A long bad value is cut, and non-ASCII is escaped, so the line stays short.
    j = base();
    j["doc"] = json::array({std::string(200, 'x'), "\xc3\xa9"});
    CHECK_ERROR(error_of(j), "t.json: doc: bad value [\"" + std::string(55, 'x') + "...; "
                             "accepted: a paragraph saying what the scenario asks and which patch or claim it comes from");

    // Every prefix of a valid scenario, and every one-byte change to it,
    // either loads or is one LoadError line naming the file.
    WithFieldsModel wf;
    int loaded = 0, rejected = 0;
    auto judge = [&](const std::string& text) {
        try {
            parse_scenario("t.json", text);
            loaded++;
        } catch (const LoadError& e) {
            std::string w = e.what();
            INFO(text);
            REQUIRE(w.compare(0, 8, "t.json: ") == 0);
            REQUIRE(w.find('\n') == std::string::npos);
            rejected++;
        }
    };
    const char subst[] = {'"', '{', '}', '[', ']', ',', ':', '0', '9', '.', '-', 'e', 'x', '\\', '\0', '\xff'};
    for (const std::string& good : {mp().dump(1), fields().dump(1)}) {
        for (size_t n = 0; n < good.size(); n++) judge(good.substr(0, n));
        for (size_t i = 0; i < good.size(); i++)
            for (char ch : subst) {
                std::string t = good;
                t[i] = ch;
                judge(t);
            }
    }
    CHECK(rejected > 5000);
    CHECK(loaded > 0);  // a changed letter in `doc` still loads
}

TEST_CASE("a missing required field names its path and what is accepted", "[loader]") {
    for (const char* f : {"name", "doc", "model", "threads", "expect"}) {
        json j = base();
        j.erase(f);
        INFO(f);
        CHECK(error_of(j).find(std::string("t.json: ") + f + ": missing required field; accepted: ") == 0);
    }
    json j = base();
    j.erase("threads");
    CHECK_ERROR(error_of(j), "t.json: threads: missing required field; accepted: an array of 1 to 4 threads");
    j = base();
    j["threads"][1].erase("ops");
    CHECK_ERROR(error_of(j), "t.json: threads[1].ops: missing required field; accepted: a non-empty array of ops");
    j = base();
    j["threads"][1]["ops"][2] = json::object();
    CHECK_ERROR(error_of(j), "t.json: threads[1].ops[2].op: missing required field; accepted: critical_section");
    j = base();
    j["search"].erase("strategy");
    CHECK_ERROR(error_of(j), "t.json: search.strategy: missing required field; accepted: dpor, exhaustive, bounded, random, pct");
    j = mp();
    j["order"][0]["after"].erase("step");
    CHECK_ERROR(error_of(j), "t.json: order[0].after.step: missing required field; accepted: produce, consume");
    j = base();
    j["expect"].erase("invariant");
    CHECK_ERROR(error_of(j), "t.json: expect.invariant: missing required field of a violated expectation; accepted: "
                             "deadlock, lost-wakeup, livelock, data-race, use-after-free, double-free, lock-misuse, "
                             "relacy-check, toy-mutual-exclusion");

    WithFieldsModel wf;
    j = fields();
    j["init"].erase("kind");
    CHECK_ERROR(error_of(j), "t.json: init.kind: missing required init field of model toy-fields; accepted: file, dir");
    j = fields();
    j["threads"][0]["ops"][0].erase("name");
    CHECK_ERROR(error_of(j), "t.json: threads[0].ops[0].name: missing required argument of op open; accepted: a string");
}

TEST_CASE("a mistyped field names its path, its value and the accepted type", "[loader]") {
    json j = base();
    j["doc"] = 3;
    CHECK_ERROR(error_of(j), "t.json: doc: bad value 3; accepted: a paragraph saying what the scenario asks and which "
                             "patch or claim it comes from");
    j = base();
    j["doc"] = "";
    CHECK_ERROR(error_of(j), "t.json: doc: bad value \"\"; accepted: a paragraph saying what the scenario asks and "
                             "which patch or claim it comes from");
    j = base();
    j["threads"] = "P0";
    CHECK_ERROR(error_of(j), "t.json: threads: bad value \"P0\"; accepted: an array of 1 to 4 threads");
    j = base();
    j["threads"][1]["ops"] = "critical_section";
    CHECK_ERROR(error_of(j), "t.json: threads[1].ops: bad value \"critical_section\"; accepted: a non-empty array of ops");
    j = base();
    j["threads"][1]["ops"][2] = 7;
    CHECK_ERROR(error_of(j), "t.json: threads[1].ops[2]: bad value 7; accepted: an op name or an object {\"op\": name, args...}");
    j = base();
    j["config"] = json::array({"broken"});
    CHECK_ERROR(error_of(j), "t.json: config: bad value [\"broken\"]; accepted: an object of knob of model toy-lock (variant)");
    j = base();
    j["search"]["max_executions"] = "100";
    CHECK_ERROR(error_of(j), "t.json: search.max_executions: bad value \"100\"; accepted: an integer from 1 to 1000000000");
    j = base();
    j["memory_model"] = "tso";
    CHECK_ERROR(error_of(j), "t.json: memory_model: bad value \"tso\"; accepted: sc, kernel");
    j = base();
    j["threads"][0]["name"] = "P 0";
    CHECK_ERROR(error_of(j), "t.json: threads[0].name: bad value \"P 0\"; accepted: a thread name of 1 to 16 letters, "
                             "digits, '_' or '-', such as \"P0\"");
    j = base();
    j["name"] = "other";
    CHECK_ERROR(error_of(j), "t.json: name: bad value \"other\"; accepted: the file stem \"t\"");
    CHECK(error_of(base().dump(), "scenarios/toy/t.json") == "(loaded)");
    j = base();
    j["threads"][0]["stack"] = 1;
    CHECK_ERROR(error_of(j), "t.json: threads[0].stack: unknown field; accepted: name, ops");
    // A key that is not a plain name is quoted in the path, so the line stays one line.
    j = base();
    j["config"]["c\nfig"] = 1;
    CHECK_ERROR(error_of(j), "t.json: config[\"c\\nfig\"]: unknown knob of model toy-lock; accepted: variant");
    j = base();
    j["expected"] = "holds";
    CHECK_ERROR(error_of(j), "t.json: expected: unknown field; did you mean \"expect\"? accepted: $schema, name, doc, model, memory_model, config, "
                             "init, threads, invariants, without, search, order, expect");
}

TEST_CASE("an unknown model is named with the models there are", "[loader]") {
    json j = base();
    j["model"] = "toy-rcu";
    std::string e = error_of(j);
    CHECK(e.find("t.json: model: bad value \"toy-rcu\"; accepted: ") == 0);
    CHECK(e.find("toy-lock") != std::string::npos);
    CHECK(e.find("toy-mp") != std::string::npos);
    CHECK(e.find('\n') == std::string::npos);
}

TEST_CASE("an unknown op is named by its JSON path, with the model's ops", "[loader]") {
    json j = base();
    j["threads"][1]["ops"][2]["op"] = "critical_sectoin";
    CHECK_ERROR(error_of(j), "t.json: threads[1].ops[2].op: bad value \"critical_sectoin\"; did you mean \"critical_section\"? accepted: critical_section");
    j = base();
    j["threads"][1]["ops"][1] = "produce";
    CHECK_ERROR(error_of(j), "t.json: threads[1].ops[1].op: bad value \"produce\"; accepted: critical_section");
    j = base();
    j["threads"][1]["ops"][2]["arg"] = 1;
    CHECK_ERROR(error_of(j), "t.json: threads[1].ops[2].arg: unknown argument of op critical_section; accepted: none");

    WithFieldsModel wf;
    j = fields();
    j["threads"][0]["ops"][0]["mode"] = "r";
    CHECK_ERROR(error_of(j), "t.json: threads[0].ops[0].mode: unknown argument of op open; accepted: name, flags");
    j = fields();
    j["threads"][0]["ops"][0]["flags"] = 4;
    CHECK_ERROR(error_of(j), "t.json: threads[0].ops[0].flags: bad value 4; accepted: an integer from 0 to 3");
    j = fields();
    j["threads"][0]["ops"][0] = "open";  // a bare name cannot give the required argument
    CHECK_ERROR(error_of(j), "t.json: threads[0].ops[0].name: missing required argument of op open; accepted: a string");
}

TEST_CASE("an unknown knob or init field is named with the model's knobs", "[loader]") {
    json j = base();
    j["config"] = {{"varient", "broken"}};
    CHECK_ERROR(error_of(j), "t.json: config.varient: unknown knob of model toy-lock; did you mean \"variant\"? accepted: variant");
    j = base();
    j["init"] = {{"inside", 1}};
    CHECK_ERROR(error_of(j), "t.json: init.inside: unknown init field of model toy-lock; accepted: none");
}

TEST_CASE("a bad knob value is named with the values the knob accepts", "[loader]") {
    json j = base();
    j["config"]["variant"] = "fast";
    CHECK_ERROR(error_of(j), "t.json: config.variant: bad value \"fast\"; accepted: correct, broken");
    j["config"]["variant"] = true;
    CHECK_ERROR(error_of(j), "t.json: config.variant: bad value true; accepted: correct, broken");

    WithFieldsModel wf;
    j = fields();
    j["config"]["depth"] = 9;
    CHECK_ERROR(error_of(j), "t.json: config.depth: bad value 9; accepted: an integer from 1 to 8");
    j["config"]["depth"] = 2.5;
    CHECK_ERROR(error_of(j), "t.json: config.depth: bad value 2.5; accepted: an integer from 1 to 8");
    j = fields();
    j["config"]["fast"] = "yes";
    CHECK_ERROR(error_of(j), "t.json: config.fast: bad value \"yes\"; accepted: true or false");
    j = fields();
    j["init"]["kind"] = "symlink";
    CHECK_ERROR(error_of(j), "t.json: init.kind: bad value \"symlink\"; accepted: file, dir");
    j = fields();
    j["init"]["label"] = json::object();
    CHECK_ERROR(error_of(j), "t.json: init.label: bad value {}; accepted: a string");
}

TEST_CASE("an unknown invariant is named with the invariants the model and the engine raise", "[loader]") {
    const std::string accepted = "deadlock, lost-wakeup, livelock, data-race, use-after-free, double-free, lock-misuse, "
                                 "relacy-check, toy-mutual-exclusion";
    json j = base();
    j["invariants"] = {"deadlock", "toy-deadlock"};
    CHECK_ERROR(error_of(j), "t.json: invariants[1]: bad value \"toy-deadlock\"; did you mean \"deadlock\"? accepted: " + accepted);
    // Another model's invariant is unknown here.
    j["invariants"] = {"toy-message-passing"};
    CHECK_ERROR(error_of(j), "t.json: invariants[0]: bad value \"toy-message-passing\"; accepted: " + accepted);
    j["invariants"] = json::array();
    CHECK_ERROR(error_of(j), "t.json: invariants: bad value []; accepted: a non-empty array of invariant names");
    j = base();
    j["expect"]["invariant"] = "mutual-exclusion";
    CHECK_ERROR(error_of(j), "t.json: expect.invariant: bad value \"mutual-exclusion\"; did you mean \"toy-mutual-exclusion\"? accepted: " + accepted);
    // Every name in the table is known to the loader for its owner.
    for (const auto& inv : invariant_rows()) CHECK(std::string(inv.name).find(' ') == std::string::npos);
    // The production table has no test-only row: the toy models' rows are
    // the test binary's own (ExtraInvariants), found all the same.
    for (const auto& inv : kInvariants) CHECK(std::string(inv.owner) != "test");
    REQUIRE(find_invariant("toy-mutual-exclusion"));
    CHECK(std::string(find_invariant("toy-mutual-exclusion")->owner) == "test");
}

TEST_CASE("a thread count outside the model's range is rejected with the range", "[loader]") {
    json j = mp();
    j["threads"] = json::array({j["threads"][0]});
    j.erase("order");
    CHECK_ERROR(error_of(j), "t.json: threads: thread count 1 out of range; accepted: 2 to 4 threads");
    j = base();
    for (int i = 2; i < 5; i++) j["threads"].push_back({{"name", "P" + std::to_string(i)}, {"ops", {"critical_section"}}});
    CHECK_ERROR(error_of(j), "t.json: threads: thread count 5 out of range; accepted: 1 to 4 threads");
    j["threads"] = json::array();
    CHECK_ERROR(error_of(j), "t.json: threads: thread count 0 out of range; accepted: 1 to 4 threads");
}

TEST_CASE("duplicate thread names are rejected at the second one", "[loader]") {
    json j = base();
    j["threads"][1]["name"] = "P0";
    CHECK_ERROR(error_of(j), "t.json: threads[1].name: bad value \"P0\"; accepted: a name no other thread has "
                             "(duplicate thread name)");
}

TEST_CASE("order naming a thread or a step that does not exist is rejected", "[loader]") {
    json j = mp();
    j["order"][0]["after"]["thread"] = "P2";
    CHECK_ERROR(error_of(j), "t.json: order[0].after.thread: bad value \"P2\"; accepted: P0, P1");
    j = mp();
    j["order"][0]["before"]["step"] = "smp_store_release";
    CHECK_ERROR(error_of(j), "t.json: order[0].before.step: bad value \"smp_store_release\"; accepted: produce, consume");
    j = mp();
    j["order"][0]["after"]["thread"] = "P0";
    CHECK_ERROR(error_of(j), "t.json: order[0]: before and after name the same thread P0; accepted: steps of two "
                             "different threads (program order already orders one thread)");
    j = mp();
    j["order"][0]["later"] = j["order"][0]["after"];
    CHECK_ERROR(error_of(j), "t.json: order[0].later: unknown field; accepted: before, after");
    j = mp();
    j["order"] = json::array();
    CHECK_ERROR(error_of(j), "t.json: order: bad value []; accepted: a non-empty array of {\"before\": {thread, step}, "
                             "\"after\": {thread, step}}");
    j = mp();
    for (int i = 0; i < 8; i++) j["order"].push_back(j["order"][0]);
    CHECK_ERROR(error_of(j), "t.json: order: too many constraints; accepted: at most 8");
}

TEST_CASE("a search that would explore nothing, or has bad limits, is rejected", "[loader]") {
    auto with = [](json search) {
        json j = base();
        j["search"] = std::move(search);
        return error_of(j);
    };
    CHECK_ERROR(with({{"strategy", "random"}, {"iterations", 0}}),
                "t.json: search.iterations: bad value 0; accepted: an integer from 1 to 100000000");
    CHECK_ERROR(with({{"strategy", "random"}}),
                "t.json: search.iterations: missing required field of a random search; accepted: an integer from 1 to 100000000");
    CHECK_ERROR(with({{"strategy", "exhaustive"}, {"max_executions", 0}}),
                "t.json: search.max_executions: bad value 0; accepted: an integer from 1 to 1000000000");
    CHECK_ERROR(with({{"strategy", "exhaustive"}, {"time_limit_s", 0}}),
                "t.json: search.time_limit_s: bad value 0; accepted: a number of seconds greater than 0, at most 86400");
    CHECK_ERROR(with({{"strategy", "exhaustive"}, {"time_limit_s", -1.5}}),
                "t.json: search.time_limit_s: bad value -1.5; accepted: a number of seconds greater than 0, at most 86400");
    CHECK_ERROR(with({{"strategy", "bounded"}, {"preemption_bound", -1}}),
                "t.json: search.preemption_bound: bad value -1; accepted: an integer from 0 to 20");
    CHECK_ERROR(with({{"strategy", "exhaustive"}, {"preemption_bound", 2}}),
                "t.json: search.preemption_bound: only meaningful with strategy \"bounded\"; accepted: omit it, or use \"bounded\"");
    CHECK_ERROR(with({{"strategy", "bounded"}, {"iterations", 10}}),
                "t.json: search.iterations: only meaningful with strategy \"random\" or \"pct\"; accepted: omit it, or use \"random\" or \"pct\"");
    CHECK_ERROR(with({{"strategy", "exhaustive"}, {"seed", 1}}),
                "t.json: search.seed: only meaningful with strategy \"random\" or \"pct\"; accepted: omit it, or use \"random\" or \"pct\"");
    CHECK_ERROR(with({{"strategy", "dfs"}}),
                "t.json: search.strategy: bad value \"dfs\"; accepted: dpor, exhaustive, bounded, random, pct");
    CHECK_ERROR(with({{"strategy", "random"}, {"iterations", 10}, {"seeds", 1}}),
                "t.json: search.seeds: unknown field; did you mean \"seed\"? accepted: strategy, preemption_bound, iterations, seed, depth, "
                "max_executions, time_limit_s");
    CHECK_ERROR(with({{"strategy", "pct"}, {"iterations", 10}, {"depth", 0}}),
                "t.json: search.depth: bad value 0; accepted: an integer from 1 to 16");
    CHECK_ERROR(with({{"strategy", "dpor"}, {"depth", 2}}),
                "t.json: search.depth: only meaningful with strategy \"pct\"; accepted: omit it, or use \"pct\"");
    CHECK_ERROR(with({{"strategy", "pct"}}),
                "t.json: search.iterations: missing required field of a pct search; accepted: an integer from 1 to 100000000");
    CHECK_ERROR(with("exhaustive"),
                "t.json: search: bad value \"exhaustive\"; accepted: an object {\"strategy\": dpor|exhaustive|bounded|random|pct, ...}");
    // A thread with no ops would explore nothing either.
    json j = base();
    j["threads"][0]["ops"] = json::array();
    CHECK_ERROR(error_of(j), "t.json: threads[0].ops: bad value []; accepted: a non-empty array of ops");
    // Limits that are fine.
    CHECK(with({{"strategy", "random"}, {"iterations", 10}, {"seed", 7}, {"max_executions", 5}, {"time_limit_s", 0.5}}) ==
          "(loaded)");
}

TEST_CASE("a bad expect is named with the verdicts there are", "[loader]") {
    json j = base();
    j["expect"] = "passes";
    CHECK_ERROR(error_of(j), "t.json: expect: bad value \"passes\"; accepted: holds, violated, unsatisfiable");
    j["expect"] = {{"verdict", "fails"}, {"invariant", "toy-mutual-exclusion"}};
    CHECK_ERROR(error_of(j), "t.json: expect.verdict: bad value \"fails\"; accepted: holds, violated, unsatisfiable");
    j["expect"] = 1;
    CHECK_ERROR(error_of(j), "t.json: expect: bad value 1; accepted: \"holds\", \"unsatisfiable\", or {\"verdict\": "
                             "\"violated\", \"invariant\": name}");
    j["expect"] = "violated";
    CHECK(error_of(j).find("t.json: expect.invariant: missing required field of a violated expectation; accepted: ") == 0);
    j["expect"] = {{"verdict", "holds"}, {"invariant", "toy-mutual-exclusion"}};
    CHECK_ERROR(error_of(j), "t.json: expect.invariant: only a violated expectation names an invariant; accepted: omit it");
    j["expect"] = {{"verdict", "holds"}, {"scope", "proven"}};
    CHECK_ERROR(error_of(j), "t.json: expect.scope: bad value \"proven\"; accepted: complete, bounded, sampled");
    j["expect"] = {{"verdict", "unsatisfiable"}, {"scope", "complete"}};
    CHECK_ERROR(error_of(j), "t.json: expect.scope: only a holds expectation states a scope; accepted: omit it");
    j["expect"] = "unsatisfiable";
    CHECK_ERROR(error_of(j), "t.json: expect: \"unsatisfiable\" needs `order` constraints; accepted: holds, violated");
    j = base();
    j["invariants"] = {"deadlock"};
    CHECK_ERROR(error_of(j), "t.json: expect.invariant: \"toy-mutual-exclusion\" is not among the enabled `invariants`, "
                             "so it can never be reported; accepted: deadlock");
    j = base();
    j.erase("memory_model");
    CHECK_ERROR(error_of(j), "t.json: memory_model: missing: a scenario that expects a violation states its memory "
                             "model; accepted: sc, kernel");
    j["expect"] = "holds";
    CHECK(error_of(j) == "(loaded)");
    j = mp();
    j["expect"] = {{"verdict", "unsatisfiable"}};
    CHECK(error_of(j) == "(loaded)");
}

TEST_CASE("a file that cannot be read is one line, and the loader stops reading at 1 MiB", "[loader]") {
    CHECK_THROWS_WITH(load_scenario("/nonexistent/t.json"),
                      "/nonexistent/t.json: cannot read the file (No such file or directory); accepted: a readable JSON scenario file");
    CHECK_THROWS_WITH(load_scenario("/tmp"), "/tmp: is a directory; accepted: a JSON scenario file");
    CHECK_THROWS_WITH(load_scenario("/dev/zero"), "/dev/zero: is a device, not a regular file; accepted: a JSON scenario file");
    // A regular file past 1 MiB: refused without reading it all.
    char path[] = "/tmp/vfsmc-big-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    std::string chunk(1 << 16, ' ');
    for (int i = 0; i < 17; i++) REQUIRE(write(fd, chunk.data(), chunk.size()) == (ssize_t)chunk.size());
    close(fd);
    CHECK_THROWS_WITH(load_scenario(path), std::string(path) + ": file too large; accepted: a JSON scenario file of at most 1 MiB");
    unlink(path);
}

TEST_CASE("the schema carries each model's ops, argument types, knobs, invariants, steps and thread range", "[loader][schema]") {
    WithFieldsModel wf;
    auto schema = scenario_schema(models());
    CHECK(schema["$comment"] == "generated by vfsmc schema; do not edit");
    CHECK(schema.begin().key() == "$comment");
    const auto& defs = schema["$defs"];
    const auto& m = defs["model-toy-fields"]["properties"];
    CHECK(m["config"]["properties"]["depth"]["minimum"] == 1);
    CHECK(m["config"]["properties"]["depth"]["maximum"] == 8);
    CHECK(m["config"]["properties"]["depth"]["default"] == 2);
    CHECK(m["config"]["properties"]["fast"]["type"] == "boolean");
    CHECK(m["config"]["additionalProperties"] == false);
    CHECK(m["init"]["required"] == nlohmann::ordered_json::array({"kind"}));
    CHECK(m["threads"]["minItems"] == 1);
    CHECK(m["threads"]["maxItems"] == 3);
    CHECK(m["order"]["items"]["properties"]["before"]["properties"]["step"]["enum"] ==
          nlohmann::ordered_json::array({"open", "close", "open:lookup"}));
    auto invs = m["invariants"]["items"]["enum"].get<std::vector<std::string>>();
    CHECK(invs == scenario_invariants(wf.m.spec()));
    CHECK(invs.back() == "ref-leak");
    // "open" needs an argument, so only "close" may be written as a bare name.
    // Discriminated by type (if/then/else), so editors name the bad field.
    const auto& op = defs["op-toy-fields"];
    CHECK(op["if"] == nlohmann::ordered_json({{"type", "string"}}));
    CHECK(op["then"]["enum"] == nlohmann::ordered_json::array({"close"}));
    const auto& open_then = op["else"]["allOf"][0]["then"];
    CHECK(open_then["required"] == nlohmann::ordered_json::array({"name"}));
    CHECK(open_then["properties"]["flags"]["maximum"] == 3);
    CHECK(open_then["additionalProperties"] == false);
    // Every registered model has its rules, selected by `model`.
    for (Model* mod : models()) {
        INFO(mod->spec().name);
        CHECK(defs.contains("model-" + mod->spec().name));
        CHECK(defs.contains("op-" + mod->spec().name));
    }
    CHECK(schema["properties"]["model"]["enum"].size() == models().size());
}

TEST_CASE("issue 11 item 14: an order on a step logged after the access it reports is loaded with a warning", "[loader][order]") {
    auto load = [](const std::string& after_step) {
        return parse_scenario("t.json", R"({"name": "t", "doc": "order on a reporting step", "model": "dcache",
          "memory_model": "sc", "config": {"o_creat_lock": "shared"},
          "threads": [{"name": "P0", "ops": [{"op": "open_creat", "name": "foo"}]},
                      {"name": "P1", "ops": [{"op": "open_creat", "name": "foo"}]}],
          "order": [{"before": {"thread": "P0", "step": "d_alloc_parallel:publish"},
                     "after": {"thread": "P1", "step": ")" + after_step + R"("}}],
          "expect": "holds"})");
    };
    Scenario s = load("d_alloc_parallel:lookup");
    REQUIRE(s.warnings.size() == 1);
    CHECK(s.warnings[0] ==
          "t.json: order[0].after.step: \"d_alloc_parallel:lookup\" is logged after the access it reports (__d_lookup_rcu's "
          "read of the main-hash bucket): the constraint holds P1 back from the step on, not that access; to hold the access "
          "back too, name \"__d_lookup_rcu\"");
    CHECK(load("__d_lookup_rcu").warnings.empty());
}

TEST_CASE("issue 35: a scenario's without leaves invariants out, as run --without does", "[loader]") {
    json j = base();
    j.erase("invariants");
    j["without"] = {"data-race"};
    Scenario s = parse_scenario("t.json", j.dump());
    CHECK(std::find(s.invariants.begin(), s.invariants.end(), "data-race") == s.invariants.end());
    CHECK(std::find(s.invariants.begin(), s.invariants.end(), "deadlock") != s.invariants.end());
    CHECK(std::find(s.invariants.begin(), s.invariants.end(), "toy-mutual-exclusion") != s.invariants.end());
    // A name it does not check: one line, with what it checks.
    j["without"] = {"data-rase"};
    std::string e = error_of(j);
    CHECK_THAT(e, Catch::StartsWith("t.json: without[0]: "));
    CHECK_THAT(e, Catch::Contains("did you mean \"data-race\"?"));
    CHECK(e.find('\n') == std::string::npos);
    j["without"] = json::array();
    CHECK_THAT(error_of(j), Catch::StartsWith("t.json: without: bad value []; accepted: a non-empty array of invariant names to leave out"));
    // Leaving out every invariant checked is refused.
    j["invariants"] = {"toy-mutual-exclusion"};
    j["without"] = {"toy-mutual-exclusion"};
    CHECK_THAT(error_of(j), Catch::Contains("accepted: a list that leaves at least one invariant checked"));
}

TEST_CASE("openref admits exactly the opens its file table holds: two files per open, one for init.fd_thread", "[loader]") {
    // Each open may allocate two struct files (its RCU walk and the
    // ref-walk retry after -ECHILD) and the file open before the scenario
    // one more; the model has 16.
    auto scenario = [](int p0_opens, int p1_opens, bool fd) {
        json open = {{"op", "open"}, {"flags", "O_RDONLY"}};
        json j = {{"name", "t"}, {"doc", "opens at the file table's limit"}, {"model", "openref"}, {"memory_model", "sc"},
                  {"threads", {{{"name", "P0"}, {"ops", json::array()}}, {{"name", "P1"}, {"ops", json::array()}}}},
                  {"expect", "holds"}};
        for (int i = 0; i < p0_opens; i++) j["threads"][0]["ops"].push_back(open);
        for (int i = 0; i < p1_opens; i++) j["threads"][1]["ops"].push_back(open);
        if (fd) j["init"] = {{"fd_thread", "P0"}};
        return j;
    };
    CHECK_ERROR(error_of(scenario(4, 4, false)), "(loaded)");
    CHECK_ERROR(error_of(scenario(5, 4, false)),
                "t.json: threads: too many opens (9); each may allocate two files (an RCU walk and its ref-walk retry) and the "
                "model has 16; accepted: at most 8 opens");
    CHECK_ERROR(error_of(scenario(4, 3, true)), "(loaded)");
    CHECK_ERROR(error_of(scenario(4, 4, true)),
                "t.json: threads: too many opens (8); each may allocate two files (an RCU walk and its ref-walk retry) besides "
                "init.fd_thread's and the model has 16; accepted: at most 7 opens with init.fd_thread");
}

TEST_CASE("an over-long error line is cut in the middle and still ends with what is accepted", "[loader][errors]") {
    std::string msg = "x.json: threads[0].ops[0].name: bad value \"" + std::string(5000, 'a') + "\x1b" +
                      "\"; accepted: a name of 1 to 15 characters";
    std::string line = error_line(msg);
    CHECK(line.size() <= kMaxErrorLine);
    CHECK(line.find("x.json: threads[0].ops[0].name: bad value \"aaa") == 0);
    CHECK(line.size() > 40);
    CHECK(line.substr(line.size() - 43) == "...; accepted: a name of 1 to 15 characters");
    CHECK(line.find('\x1b') == std::string::npos);
    CHECK(error_line("short; accepted: x") == "short; accepted: x");
}

TEST_CASE("json_printable escapes DEL, C1 and bidi characters and keeps the JSON value", "[loader][errors]") {
    nlohmann::json j = {{"name", "a\x7f" "b\xc2\x85" "c\xe2\x80\xae" "d\xc3\xa9"}};
    std::string text = json_printable(j.dump(-1, ' ', false));
    CHECK(text == "{\"name\":\"a\\u007fb\\u0085c\\u202ed\xc3\xa9\"}");
    CHECK(nlohmann::json::parse(text) == j);
}

TEST_CASE("a printed command quotes a file name a shell would split", "[loader]") {
    CHECK(shell_word("scenarios/dcache/x.json") == "scenarios/dcache/x.json");
    CHECK(shell_word("my file's.json") == "'my file'\\''s.json'");
    CHECK(shell_word("a\x1b" "b") == "'a\\x1bb'");
}
