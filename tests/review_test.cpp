// Review output: the shortest counterexample, the email form, the HTML page,
// vacuous verdicts and the memory-model table (issues "review-ready
// counterexamples" and "memory model per scenario").
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cli/cli.h"
#include "contract/invariants.h"
#include "search/engine.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace vfsmc;

namespace {

Scenario toy_lock_broken(int threads, const std::string& search) {
    std::string th;
    for (int i = 0; i < threads; i++)
        th += std::string(i ? "," : "") + "{\"name\":\"P" + std::to_string(i) + "\",\"ops\":[\"critical_section\"]}";
    return parse_scenario("toy.json", "{\"name\":\"toy\",\"doc\":\"broken test-then-set\",\"memory_model\":\"sc\","
                                      "\"model\":\"toy-lock\",\"config\":{\"variant\":\"broken\"},\"threads\":[" + th +
                                          "],\"search\":" + search +
                                          ",\"expect\":{\"verdict\":\"violated\",\"invariant\":\"toy-mutual-exclusion\"}}");
}

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
}

}  // namespace

TEST_CASE("the shortest counterexample has no more preemptions or steps than the first one found", "[review]") {
    Scenario s = toy_lock_broken(3, "{\"strategy\":\"exhaustive\",\"max_executions\":100000}");
    RunOptions first_only;
    first_only.minimize = false;
    RunResult first = run_scenario(s, first_only);
    RunResult mini = run_scenario(s, RunOptions());
    REQUIRE(first.verdict == Verdict::violated);
    REQUIRE(mini.verdict == Verdict::violated);
    REQUIRE(mini.minimized);
    CHECK(mini.invariant == first.invariant);
    CHECK(mini.minimal_bound <= first.preemptions);
    CHECK(mini.steps <= first.steps);
    CHECK(mini.first.steps == first.steps);
    CHECK(mini.first.token == first.token);
    // It is what replay reproduces.
    RunResult again = replay_scenario(s, mini.token);
    CHECK(again.verdict == Verdict::violated);
    CHECK(again.steps == mini.steps);
    // And the text report says it is minimal, and under which bound.
    ReportOptions o;
    o.replay = replay_command(s, mini);
    std::string text = text_report(s, mini, o);
    CHECK_THAT(text, Catch::Contains("minimal counterexample"));
}

TEST_CASE("the email report fits in 72 columns with one column per thread and ends with the replay command", "[review]") {
    Scenario s = toy_lock_broken(3, "{\"strategy\":\"bounded\",\"preemption_bound\":2}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    ReportOptions o;
    o.replay = replay_command(s, r);
    o.replay.token += std::string(60, '0');  // force the command to wrap
    std::string mail = email_report(s, r, o);
    auto lines = lines_of(mail);
    for (const auto& l : lines) {
        INFO(l);
        CHECK(l.size() <= 72);
    }
    CHECK(lines.front() == "[counterexample] toy: toy-mutual-exclusion violated");
    // A header with one column per thread.
    bool header = false;
    for (const auto& l : lines) header |= std::regex_search(l, std::regex("^ +P0 +P1 +P2$"));
    CHECK(header);
    // Conflicting steps are marked.
    bool marked = false;
    for (const auto& l : lines) marked |= l.rfind(">>", 0) == 0;
    CHECK(marked);
    // The replay command is last, split so that a shell joins it back.
    size_t at = 0;
    for (size_t i = 0; i < lines.size(); i++)
        if (lines[i] == "Replay:") at = i + 1;
    REQUIRE(at > 0);
    std::string joined;
    for (size_t i = at; i < lines.size(); i++) {
        std::string l = lines[i];
        if (!l.empty() && l.back() == '\\') l.pop_back();
        joined += l;
    }
    joined = std::regex_replace(joined, std::regex("'"), "");
    joined = std::regex_replace(joined, std::regex(" +"), " ");
    CHECK(joined == o.replay.text());
}

TEST_CASE("the HTML page is one self-contained file with a lane per thread", "[review]") {
    Scenario s = toy_lock_broken(2, "{\"strategy\":\"bounded\",\"preemption_bound\":2}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    ReportOptions o;
    o.replay = replay_command(s, r);
    std::string html = html_report(s, r, o);
    CHECK_THAT(html, !Catch::Contains("<script") && !Catch::Contains("http://") && !Catch::Contains("https://") &&
                         !Catch::Contains("<link"));
    CHECK_THAT(html, Catch::Contains("class=\"lane\" data-thread=\"P0\"") && Catch::Contains("class=\"lane\" data-thread=\"P1\""));
    CHECK_THAT(html, Catch::Contains("step-row conflict"));
    CHECK_THAT(html, Catch::Contains(o.replay.text()));
    CHECK(!std::regex_search(html, std::regex("0x[0-9a-f]{6,}")));
}

TEST_CASE("a holds verdict on a scenario that names a step never reached is vacuous", "[review]") {
    // Only a producer: consume() is named in the doc but never runs.
    Scenario s = parse_scenario("mp.json", "{\"name\":\"mp\",\"doc\":\"checks that consume() sees the data\",\"model\":\"toy-mp\","
                                           "\"threads\":[{\"name\":\"P0\",\"ops\":[\"produce\"]},{\"name\":\"P1\",\"ops\":[\"produce\"]}],"
                                           "\"search\":{\"strategy\":\"exhaustive\"},\"expect\":\"holds\"}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::holds);
    CHECK(vacuous_steps(s, r) == std::vector<std::string>{"consume"});

    // The same doc with a consumer is not vacuous.
    Scenario t = parse_scenario("mp.json", "{\"name\":\"mp\",\"doc\":\"checks that consume() sees the data\",\"model\":\"toy-mp\","
                                           "\"threads\":[{\"name\":\"P0\",\"ops\":[\"produce\"]},{\"name\":\"P1\",\"ops\":[\"consume\"]}],"
                                           "\"search\":{\"strategy\":\"exhaustive\"},\"expect\":\"holds\"}");
    RunResult rt_ = run_scenario(t, RunOptions());
    REQUIRE(rt_.verdict == Verdict::holds);
    CHECK(vacuous_steps(t, rt_).empty());
}

TEST_CASE("docs/memory-model.md carries the layer's memory-model table", "[memory-model]") {
    std::ifstream in(std::string(VFSMC_SOURCE_DIR) + "/docs/memory-model.md");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string doc = ss.str();
    // The table as `vfsmc list --memory-model` prints it.
    std::string cmd = std::string(VFSMC_BINARY) + " list --memory-model";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string table;
    char buf[512];
    while (fgets(buf, sizeof buf, p)) table += buf;
    REQUIRE(pclose(p) == 0);
    REQUIRE(table.size() > 100);
    CHECK_THAT(doc, Catch::Contains(table));
}

TEST_CASE("every read in a kernel-model trace names the write it read from", "[memory-model]") {
    Scenario s = parse_scenario("mp.json", "{\"name\":\"mp\",\"doc\":\"MP without release/acquire\",\"model\":\"toy-mp\","
                                           "\"memory_model\":\"kernel\",\"config\":{\"ordering\":\"once\"},"
                                           "\"threads\":[{\"name\":\"P0\",\"ops\":[\"produce\"]},{\"name\":\"P1\",\"ops\":[\"consume\"]}],"
                                           "\"search\":{\"strategy\":\"exhaustive\"},"
                                           "\"expect\":{\"verdict\":\"violated\",\"invariant\":\"toy-message-passing\"}}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    ReportOptions o;
    o.replay = replay_command(s, r);
    auto j = json_report(s, r, o);
    int reads = 0, stale = 0;
    for (const auto& st : j["trace"]) {
        if (st["kind"] != "read") continue;
        reads++;
        CHECK(!st["read_from"].get<std::string>().empty());
        if (st["stale"].get<bool>()) {
            stale++;
            CHECK(st["latest_write"] == "P0 #1");
            CHECK(st["read_from"] == "the initial state");
        }
    }
    CHECK(reads == 2);
    CHECK(stale == 1);
    CHECK_THAT(text_report(s, r, o), Catch::Contains("STALE: the latest write is P0 #1"));
}

// Issue 14: what the reports say must be true.

TEST_CASE("issue 14: steps are counted one way: the first counterexample's count is the lines its replay shows", "[review]") {
    Scenario s = toy_lock_broken(3, "{\"strategy\":\"exhaustive\",\"max_executions\":100000}");
    RunOptions first_only;
    first_only.minimize = false;
    RunResult first = run_scenario(s, first_only);
    REQUIRE(first.verdict == Verdict::violated);
    CHECK(first.steps == (int)trace_lines(first).size());
    RunResult mini = run_scenario(s, RunOptions());
    REQUIRE(mini.minimized);
    CHECK(mini.first.steps == (int)trace_lines(first).size());
    ReportOptions o;
    o.replay = replay_command(s, mini);
    std::string text = text_report(s, mini, o);
    CHECK_THAT(text, Catch::Contains("The execution has " + std::to_string(trace_lines(mini).size()) + " steps"));
    CHECK_THAT(text, Catch::Contains("the first counterexample found had " + std::to_string(mini.first.steps) + " steps"));
    // The bound and the preemption count are not confused: the text says
    // what the bound counts.
    if (mini.minimal_bound > 0)
        CHECK_THAT(text, Catch::Contains("and this is the shortest it finds with a switch bound of " + std::to_string(mini.minimal_bound)));
    else CHECK_THAT(text, Catch::Contains("with a switch bound of 0 (no switch away from a runnable thread)"));
    // The preemption count and the bound never meet in one phrase.
    CHECK_THAT(text, !Catch::Contains("allowing at most"));
    CHECK_THAT(text, !Catch::Contains("none exists with a preemption bound"));
}

TEST_CASE("issue 14: an invariant that describes the bad event is said to forbid it", "[review]") {
    const InvariantInfo* race = find_invariant("data-race");
    REQUIRE(race);
    CHECK(std::string(race->verb) == "forbids");
    const InvariantInfo* one = find_invariant("one-hashed-dentry-per-name");
    REQUIRE(one);
    CHECK(std::string(one->verb) == "requires");
}

TEST_CASE("issue 14: only an order constraint prunes: a scenario without order has no pruned executions", "[review]") {
    // Blocking waits replaced spinning: no execution is pruned for spin
    // starvation any more, so "pruned by order" is the only label.
    Scenario s = toy_lock_broken(2, "{\"strategy\":\"bounded\",\"preemption_bound\":1}");
    CHECK(s.order.empty());
    RunOptions o;
    o.minimize = false;
    RunResult r = run_scenario(s, o);
    CHECK(r.pruned == 0);
    CHECK(summary_line(s, r, true).find("pruned") == std::string::npos);
    CHECK(r.pruned_by_order == 0);
}

TEST_CASE("issue 14: formatted report text is never cut at a fixed buffer size", "[review]") {
    std::string long_name(3000, 'x');
    CHECK(strprintf("%s = %d", long_name.c_str(), 7) == long_name + " = 7");
}

TEST_CASE("issue 14: the email opens with In short and the step number is on a wrapped step's first line", "[review]") {
    Scenario s = toy_lock_broken(3, "{\"strategy\":\"bounded\",\"preemption_bound\":2}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    ReportOptions o;
    o.replay = replay_command(s, r);
    auto lines = lines_of(email_report(s, r, o));
    REQUIRE(lines.size() > 3);
    CHECK(lines[2].rfind("In short", 0) == 0);
    // In the interleaving, a numbered line is never preceded by an
    // unnumbered continuation of the same step: numbers come first.
    auto trace = trace_lines(r);
    size_t numbered = 0;
    for (const auto& l : lines) numbered += std::regex_search(l, std::regex("^(>>|  ) ?[0-9]+ "));
    CHECK(numbered >= trace.size());
    o.brief = true;
    auto brief = lines_of(email_report(s, r, o));
    CHECK(brief.size() < lines.size());
    for (const auto& l : brief) CHECK(l.size() <= 72);
}

TEST_CASE("issue 14: a holds page shows its scope, counts, coverage and one checked execution", "[review]") {
    Scenario s = parse_scenario("toy-ok.json", "{\"name\":\"toy-ok\",\"doc\":\"correct lock\",\"model\":\"toy-lock\","
                                               "\"config\":{\"variant\":\"correct\"},\"threads\":[{\"name\":\"P0\",\"ops\":[\"critical_section\"]},"
                                               "{\"name\":\"P1\",\"ops\":[\"critical_section\"]}],\"search\":{\"strategy\":\"exhaustive\"},\"expect\":\"holds\"}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::holds);
    REQUIRE(r.sample);
    ReportOptions o;
    o.stable = true;
    std::string html = html_report(s, r, o);
    CHECK_THAT(html, Catch::Contains("Scope: <b>complete</b>"));
    CHECK_THAT(html, Catch::Contains(std::to_string(r.executions) + " executions explored"));
    CHECK_THAT(html, Catch::Contains("class=\"coverage\""));
    CHECK_THAT(html, Catch::Contains("One execution that was checked"));
    CHECK_THAT(html, Catch::Contains("step-row"));
}

namespace {

// A hand-made counterexample in which only P0 steps (P1 never runs): a
// write, a read of it, the violation.
RunResult one_thread_record() {
    RunResult r;
    r.verdict = Verdict::violated;
    r.invariant = "data-race";
    r.message = "P0 raced with itself";
    r.memory_model = "kernel";
    r.thread_names = {"P0", "P1"};
    r.preemptions = 0;
    r.trace = std::make_shared<ExecRecord>();
    ExecRecord& rec = *r.trace;
    std::snprintf(rec.objects[0].name, kNameLen, "%s", "obj");
    rec.objects[0].kind = "obj";
    rec.objects[0].alloc_event = -1;
    rec.objects[0].free_event = -1;
    rec.nobjects = 1;
    auto ev = [&](Ev k, const char* action, const char* field, int64_t before, int64_t after, int rf) {
        Event& e = rec.events[rec.nevents++];
        std::memset(&e, 0, sizeof e);
        e.kind = k;
        e.thread = 0;
        e.obj = 0;
        e.func = "f";
        e.action = action;
        e.field = field;
        e.before = before;
        e.after = after;
        e.rf = rf;
        e.latest = -1;
    };
    ev(Ev::Write, "WRITE_ONCE", "x", 0, 1, -1);
    ev(Ev::Read, "READ_ONCE", "x", 1, 0, 0);
    ev(Ev::Violation, "data-race", nullptr, 0, 0, -1);
    std::snprintf(rec.events[2].text, kTextLen, "%s", "raced");
    rec.violation.set = true;
    rec.violation.event = 2;
    return r;
}

}  // namespace

TEST_CASE("issue 14: the HTML page says a thread took no step, and links every read to its write", "[review]") {
    Scenario s = toy_lock_broken(2, "{\"strategy\":\"exhaustive\"}");
    RunResult r = one_thread_record();
    ReportOptions o;
    o.replay = {"vfsmc replay toy.json", "v1:x", ""};
    std::string html = html_report(s, r, o);
    CHECK_THAT(html, Catch::Contains("Thread P1 took no step in this execution."));
    CHECK_THAT(html, !Catch::Contains("Thread P0 took no step"));
    CHECK_THAT(html, Catch::Contains("(read from <a class=\"step-link\" href=\"#step-1\">P0 #1</a>)"));
    CHECK_THAT(html, Catch::Contains("id=\"step-1\""));
    CHECK_THAT(html, Catch::Contains("class=\"legend\""));
    // The conflict is listed first, in "In short", linked to its row.
    auto in_short = html.find("id=\"in-short\"");
    auto table = html.find("class=\"swimlane\"");
    auto conflict = html.find("<li class=\"conflict\">");
    REQUIRE(in_short != std::string::npos);
    CHECK(in_short < conflict);
    CHECK(conflict < table);
}

TEST_CASE("issue 35: a holds page shows a complete, judged execution and never blames order in a scenario without it", "[review]") {
    // Both end their searches on executions dpor abandons (a sleep set, a
    // duplicate cut): the page must not show those.
    for (const char* file : {"scenarios/dcache/mainline-exclusive-two-creates.json", "scenarios/chrdev/v2-opener-with-inode-ref.json"}) {
        Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/" + file);
        INFO(file);
        REQUIRE(s.order.empty());
        RunResult r = run_scenario(s, RunOptions());
        REQUIRE(r.verdict == Verdict::holds);
        REQUIRE(r.sample);
        CHECK_FALSE(r.sample_pruned);
        CHECK(r.pruned_by_order == 0);
        // Two threads: the sample shown is one in which they interleave.
        CHECK(r.sample_preemptions > 0);
        ReportOptions o;
        o.stable = true;
        std::string html = html_report(s, r, o);
        CHECK_THAT(html, !Catch::Contains("pruned by order"));
        CHECK_THAT(html, !Catch::Contains("so not judged"));
        CHECK_THAT(html, Catch::Contains("every thread ran to its end, and every invariant held in it"));
        // Every thread of a judged execution ran: each has a step in the sample.
        RunResult sr = r;
        sr.trace = r.sample;
        TraceView v = TraceView::of(sr, &s);
        std::set<int> threads;
        for (const auto& L : v.lines) threads.insert(L.thread);
        CHECK(threads.size() == s.threads.size());
        CHECK_FALSE(v.any_stale);
    }
}

TEST_CASE("issue 35: the pruned label names what cut the executions", "[review]") {
    RunResult r;
    r.pruned = 5;
    r.pruned_by_order = 5;
    CHECK(pruned_label(r) == "pruned by order");
    r.pruned_by_order = 0;
    CHECK(pruned_label(r) == "stopped at a check the scenario turned off");
    r.pruned_by_order = 2;
    CHECK(pruned_label(r) == "pruned (2 by order, 3 stopped at a check the scenario turned off)");
}

TEST_CASE("issue 35: a fold of the swimlane holds no step that touches the conflict's objects, and says what it holds", "[review]") {
    Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/dcache/shared-d-rehash-notes-race.json");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    TraceView v = TraceView::of(r, &s);
    const ExecRecord& rec = *r.trace;
    // A name inside a longer word names another object ("dir" in
    // "i_dir_seq", "dentry \"foo\"#1" in "...#12").
    auto word = [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '#'; };
    auto mentions = [&](const std::string& text, const std::string& n) {
        for (size_t at = text.find(n); at != std::string::npos; at = text.find(n, at + 1))
            if (!((at > 0 && word(text[at - 1])) || (at + n.size() < text.size() && word(text[at + n.size()])))) return true;
        return false;
    };
    // The conflict's objects, by name: what the conflicting lines access,
    // and the objects their text names (the violation names both dentries).
    std::set<std::string> names;
    for (const auto& L : v.lines) {
        if (!L.conflict) continue;
        const Event& e = rec.events[L.event];
        if (e.obj >= 0) names.insert(rec.objects[e.obj].name);
        for (int o = 0; o < rec.nobjects; o++)
            if (mentions(L.text, rec.objects[o].name)) names.insert(rec.objects[o].name);
    }
    REQUIRE_FALSE(names.empty());
    REQUIRE_FALSE(v.folds.empty());
    for (const auto& f : v.folds) {
        size_t loads = 0;
        for (size_t i = f.first; i <= f.last; i++) {
            const TraceLine& L = v.lines[i];
            INFO("folded step " << L.number << ": " << L.text);
            for (const auto& n : names) CHECK_FALSE(mentions(L.text, n));
            const Event& e = rec.events[L.event];
            if (e.kind == Ev::Read && e.sync == Sync::None && e.lock != LockClass::Rcu) loads++;
        }
        if (loads) CHECK_THAT(f.label, Catch::Contains(std::to_string(loads) + (loads == 1 ? " load" : " loads")));
        else CHECK_THAT(f.label, !Catch::Contains("load;"));
    }
    ReportOptions o;
    o.stable = true;
    std::string html = html_report(s, r, o);
    CHECK_THAT(html, !Catch::Contains("do not touch the conflict's objects: rcu_read_lock/unlock, stores"));
    CHECK_THAT(html, Catch::Contains("that touch none of the conflict's objects: "));
}

TEST_CASE("issue 35: a call the doc denies (\"does not call consume()\") is no claim that the step runs", "[review]") {
    for (const char* doc : {"P1 does not call consume()", "only producers, never consume()", "produce() twice, without consume()",
                            "no consumer calls consume()"}) {
        INFO(doc);
        Scenario s = parse_scenario("mp.json", std::string("{\"name\":\"mp\",\"doc\":\"") + doc + "\",\"model\":\"toy-mp\","
                                               "\"threads\":[{\"name\":\"P0\",\"ops\":[\"produce\"]},{\"name\":\"P1\",\"ops\":[\"produce\"]}],"
                                               "\"search\":{\"strategy\":\"exhaustive\"},\"expect\":\"holds\"}");
        RunResult r = run_scenario(s, RunOptions());
        REQUIRE(r.verdict == Verdict::holds);
        CHECK(vacuous_steps(s, r).empty());
    }
    // A claim after a denial in another clause is still a claim.
    Scenario s = parse_scenario("mp.json", "{\"name\":\"mp\",\"doc\":\"P0 does not wait, and P1 runs consume()\",\"model\":\"toy-mp\","
                                           "\"threads\":[{\"name\":\"P0\",\"ops\":[\"produce\"]},{\"name\":\"P1\",\"ops\":[\"produce\"]}],"
                                           "\"search\":{\"strategy\":\"exhaustive\"},\"expect\":\"holds\"}");
    RunResult r = run_scenario(s, RunOptions());
    CHECK(vacuous_steps(s, r) == std::vector<std::string>{"consume"});
}
