// Replay tokens (issue 13): what a token hashes, and what the decoder and
// the replay scheduler refuse. The fuzz over random tokens is
// tests/token_fuzz.py (label cli).
#include <catch2/catch.hpp>

#include "base/errors.h"
#include "search/engine.h"
#include "search/token.h"
#include "scenario/scenario.h"

using namespace vfsmc;

namespace {

std::string lock_text(const std::string& doc, const std::string& variant, const std::string& search,
                      const std::string& expect_inv = "toy-mutual-exclusion") {
    return "{\"name\":\"t\",\"doc\":\"" + doc + "\",\"memory_model\":\"kernel\",\"model\":\"toy-lock\",\"config\":{\"variant\":\"" +
           variant + "\"},\"threads\":[{\"name\":\"P0\",\"ops\":[\"critical_section\"]},{\"name\":\"P1\",\"ops\":[\"critical_section\"]}]," +
           "\"search\":" + search + ",\"expect\":{\"verdict\":\"violated\",\"invariant\":\"" + expect_inv + "\"}}";
}

// A token for `s` with any search field and state, and a checksum that
// passes (the hash is unkeyed: anyone can do this).
std::string forge(const Scenario& s, const std::string& head, const std::string& state) {
    return sign_token_body(s, head + ":" + state);
}

}  // namespace

TEST_CASE("issue 13: editing doc keeps a replay token valid, editing config does not", "[token]") {
    const std::string search = "{\"strategy\":\"exhaustive\",\"max_executions\":1000}";
    Scenario s = parse_scenario("t.json", lock_text("first wording", "broken", search));
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    // doc, and a search limit, are not behaviour.
    Scenario edited = parse_scenario("t.json", lock_text("second wording, typo fixed",  "broken",
                                                         "{\"strategy\":\"exhaustive\",\"max_executions\":5}"));
    RunResult again = replay_scenario(edited, r.token);
    CHECK(again.verdict == Verdict::violated);
    CHECK(again.invariant == "toy-mutual-exclusion");
    Scenario other = parse_scenario("t.json", lock_text("first wording", "correct", search));
    CHECK_THROWS_WITH(replay_scenario(other, r.token), Catch::Contains("checksum mismatch"));
}

TEST_CASE("issue 13: a token with a valid checksum but a state that breaks the rules is rejected before Relacy sees it",
          "[token]") {
    Scenario s = parse_scenario("t.json", lock_text("d", "broken", "{\"strategy\":\"exhaustive\"}"));
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    struct Case {
        const char* head;
        const char* state;
        const char* says;
    } cases[] = {
        {"e0k", "43-1-4-3-4-5-1-1-5-1-5-5-0-", "choices announced"},  // issue 13's segfault, re-signed
        {"e0k", "0-1-3-0-0-", "out of range 1..2"},                   // 3 threads in a 2-thread scenario
        {"e0k", "0-1-2-2-0-", "not below its count"},
        {"e0k", "0-1-2-0-9-", "unknown choice type"},
        {"e0k", "0-99999999-", "too many choices"},
        {"e0k", "0-", "no choice count"},
        {"e0k", "0--1-", "malformed state"},
        {"e0k", "0-1-2-0-0", "ends in '-'"},
        {"e1k", "0-0-", "a bound with a strategy that has none"},
        {"b99k", "0-0-", "out of range 0..20"},
        {"r0k", "99999999999999999999999-", "malformed state"},
        {"r0k", "9223372036854775807-", "out of range"},
        {"r0k", "-", "malformed state"},
    };
    for (const auto& c : cases) {
        INFO(c.head << ":" << c.state);
        std::string t = forge(s, c.head, c.state);
        CHECK_THROWS_WITH(replay_scenario(s, t), Catch::Contains(c.says) && Catch::Contains("accepted"));
    }
    // Raw text a token cannot have (the checksum fails first): the message
    // stays one printable line.
    try {
        replay_scenario(s, "v1:00000000:e0k:\n\x1b[31m-");
        FAIL("accepted");
    } catch (const LoadError& e) {
        std::string w = e.what();
        CHECK(w.find('\n') == std::string::npos);
        CHECK(w.find('\x1b') == std::string::npos);
    }
}

TEST_CASE("issue 13: a well-formed token whose choices do not match the execution ends as 'does not match'",
          "[token]") {
    Scenario s = parse_scenario("t.json", lock_text("d", "broken", "{\"strategy\":\"exhaustive\"}"));
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    // Every choice a thread choice of 1 option: the execution asks for 2.
    RunResult a = replay_scenario(s, forge(s, "e0k", "0-3-1-0-0-1-0-0-1-0-0-"));
    CHECK(a.verdict == Verdict::error);
    CHECK_THAT(a.message, Catch::Contains("does not match"));
    // Too few choices recorded.
    RunResult b = replay_scenario(s, forge(s, "e0k", "0-1-2-0-0-"));
    CHECK(b.verdict == Verdict::error);
}

TEST_CASE("issue 13: dpor and pct tokens are checked like the others, and replay what they recorded", "[token]") {
    // dpor: tree state, a thread choice written as COUNT = threads, INDEX = thread.
    RunOptions first;
    first.minimize = false;  // the search's own token, not the shortest (bounded) one
    Scenario d = parse_scenario("t.json", lock_text("d", "broken", "{\"strategy\":\"dpor\"}"));
    RunResult rd = run_scenario(d, first);
    REQUIRE(rd.verdict == Verdict::violated);
    REQUIRE(rd.token.find(":d0k:") != std::string::npos);
    RunResult again = replay_scenario(d, rd.token);
    CHECK(again.verdict == Verdict::violated);
    CHECK(again.executions == 1);
    // pct: ITER K, the depth in the bound slot.
    Scenario p = parse_scenario("t.json", lock_text("d", "broken", "{\"strategy\":\"pct\",\"iterations\":1000,\"depth\":2}"));
    RunResult rp = run_scenario(p, first);
    REQUIRE(rp.verdict == Verdict::violated);
    REQUIRE(rp.token.find(":p2k:") != std::string::npos);
    CHECK(replay_scenario(p, rp.token).verdict == Verdict::violated);
    struct Case {
        const Scenario* s;
        const char* head;
        const char* state;
        const char* says;
    } cases[] = {
        {&d, "d0k", "0-1-3-0-0-", "out of range 1..2"},  // thread 2 of a 2-thread scenario
        {&d, "d0k", "0-1-2-5-0-", "not below its count"},
        {&d, "d3k", "0-1-2-0-0-", "a bound with a strategy that has none"},
        {&d, "d0k", "0-99999999-", "too many choices"},
        {&p, "p0k", "0-5-", "depth 0 out of range"},
        {&p, "p99k", "0-5-", "depth 99 out of range"},
        {&p, "p2k", "0-", "an iteration and a step count"},
        {&p, "p2k", "0-0-", "step count 0 out of range"},
        {&p, "p2k", "0-999999999999-", "out of range"},
        {&p, "p2k", "0-5-7-", "an iteration and a step count"},
    };
    for (const auto& c : cases) {
        INFO(c.head << ":" << c.state);
        CHECK_THROWS_WITH(replay_scenario(*c.s, forge(*c.s, c.head, c.state)),
                          Catch::Contains(c.says) && Catch::Contains("accepted"));
    }
    // Well formed, but not this execution's choices: a thread choice where a
    // data choice comes, or fewer choices than the execution takes.
    RunResult m = replay_scenario(d, forge(d, "d0k", "0-1-2-1-0-"));
    CHECK(m.verdict == Verdict::error);
    CHECK_THAT(m.message, Catch::Contains("does not match"));
}

TEST_CASE("a counterexample found under a mutation replays under that mutation, and only under it", "[token]") {
    // chrdev_open v2 without the re-read of inode->i_cdev under cdev_lock:
    // the scenario holds on the real code and breaks under the mutation.
    Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/chrdev/concurrent-first-open-v2.json");
    REQUIRE(run_scenario(s, RunOptions()).verdict == Verdict::holds);
    RunOptions o;
    o.mutation = "v2-no-i-cdev-recheck";
    RunResult r = run_scenario(s, o);
    REQUIRE(r.verdict == Verdict::violated);
    CHECK(r.invariant == "cdev-list-double-add");
    CHECK(r.mutation == o.mutation);
    // The run's option is the replay's: the same execution, step for step.
    RunResult again = replay_scenario(s, r.token, o);
    REQUIRE(again.verdict == Verdict::violated);
    CHECK(again.invariant == r.invariant);
    CHECK(again.mutation == o.mutation);
    CHECK(again.steps == r.steps);
    REQUIRE(again.trace);
    REQUIRE(again.trace->nevents == r.trace->nevents);
    for (int i = 0; i < r.trace->nevents; i++) {
        INFO("event " << i);
        CHECK(again.trace->events[i].thread == r.trace->events[i].thread);
        CHECK(std::string(again.trace->events[i].action) == r.trace->events[i].action);
    }
    // Without it, or under another, the token is refused, naming the mutation.
    CHECK_THROWS_WITH(replay_scenario(s, r.token),
                      Catch::Contains("printed under the mutation v2-no-i-cdev-recheck; replay it with --mutation v2-no-i-cdev-recheck"));
    RunOptions other;
    other.mutation = "smp-mb-no-op";
    CHECK_THROWS_WITH(replay_scenario(s, r.token, other), Catch::Contains("printed under the mutation v2-no-i-cdev-recheck"));
    // A name not in the table is bad input.
    RunOptions bad;
    bad.mutation = "no-such-mutation";
    CHECK_THROWS_AS(run_scenario(s, bad), LoadError);
}
