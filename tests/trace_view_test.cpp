// The typed trace and the one view every renderer reads (issue 15 item 2):
// locks held after an acquire and after a failed trylock, lock spans, a
// reference span from refcount-change events, a named point inside a
// function, rf links as line numbers; then the layer's own tagging, on a
// toy model run.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <memory>

#include "search/engine.h"
#include "report/report.h"
#include "report/trace_view.h"
#include "scenario/scenario.h"

using namespace vfsmc;

namespace {

// P0 takes inode.i_lock; P1's spin_trylock of it fails; P0 gets a
// reference (i_count 1 -> 2), P1 reads it, P0 unlocks, P1 puts both
// references (2 -> 1 -> 0), P1 reaches the named point f:publish, and the
// violation follows.
RunResult hand_made() {
    RunResult r;
    r.verdict = Verdict::violated;
    r.invariant = "data-race";
    r.message = "a hand-made record";
    r.memory_model = "kernel";
    r.thread_names = {"P0", "P1"};
    r.trace = std::make_shared<ExecRecord>();
    ExecRecord& rec = *r.trace;
    std::snprintf(rec.objects[0].name, kNameLen, "%s", "inode");
    rec.objects[0].kind = "inode";
    rec.objects[0].alloc_event = -1;
    rec.objects[0].free_event = -1;
    rec.nobjects = 1;
    auto ev = [&](int thread, Ev k, const char* action, const char* field, int64_t before, int64_t after, int rf) -> Event& {
        Event& e = rec.events[rec.nevents++];
        std::memset(&e, 0, sizeof e);
        e.kind = k;
        e.thread = (uint8_t)thread;
        e.obj = 0;
        e.step = e.func = "f";
        e.action = action;
        e.field = field;
        e.before = before;
        e.after = after;
        e.rf = rf;
        e.latest = -1;
        return e;
    };
    ev(0, Ev::Enter, "f", nullptr, 0, 0, -1).obj = -1;                     // event 0: not shown
    Event& lock = ev(0, Ev::Rmw, "spin_lock", "i_lock", 0, -1, -1);         // 1
    lock.sync = Sync::Acquire;
    lock.lock = LockClass::Spinlock;
    ev(1, Ev::Read, "spin_trylock", "i_lock", -1, -1, 1);                   // 2: failed: a read
    Event& get = ev(0, Ev::Write, "store", "i_count", 1, 2, -1);            // 3
    get.word = Word::Refcount;
    get.sync = Sync::RefChange;
    ev(1, Ev::Read, "READ_ONCE", "i_count", 2, 2, 3).word = Word::Refcount; // 4
    Event& unlock = ev(0, Ev::Rmw, "spin_unlock", "i_lock", -1, 0, 1);      // 5
    unlock.sync = Sync::Release;
    unlock.lock = LockClass::Spinlock;
    for (int from = 2; from > 0; from--) {                                  // 6, 7
        Event& put = ev(1, Ev::Rmw, "atomic_dec", "i_count", from, from - 1, from == 2 ? 3 : 6);
        put.word = Word::Refcount;
        put.sync = Sync::RefChange;
    }
    Event& step = ev(1, Ev::Step, "f:publish", nullptr, 0, 0, -1);          // 8
    step.step = "f:publish";
    step.point = "publish";
    std::snprintf(step.text, kTextLen, "%s", "inode published");
    ev(1, Ev::Violation, "data-race", nullptr, 0, 0, -1).obj = -1;          // 9
    std::snprintf(rec.events[9].text, kTextLen, "%s", "raced");
    rec.violation.set = true;
    rec.violation.event = 9;
    rec.violation.conflict[0] = 3;
    return r;
}

}  // namespace

TEST_CASE("issue 15: the TraceView derives locks, reference spans and rf lines from typed events", "[trace][report]") {
    RunResult r = hand_made();
    TraceView v = TraceView::of(r);
    REQUIRE(v.lines.size() == 9);  // the Enter event is not shown
    REQUIRE(v.held.size() == 9);
    // After P0's spin_lock (line 1) it holds inode.i_lock.
    CHECK(v.held[0][0] == std::vector<std::string>{"inode.i_lock"});
    CHECK(v.held[0][1].empty());
    // P1's failed spin_trylock (line 2) takes nothing.
    CHECK(v.held[1][1].empty());
    CHECK(v.held[1][0] == std::vector<std::string>{"inode.i_lock"});
    // After the unlock (line 5) nobody holds it; one span, lines 1 to 5.
    CHECK(v.held[3][0].size() == 1);
    CHECK(v.held[4][0].empty());
    REQUIRE(v.lock_spans.size() == 1);
    CHECK(v.lock_spans[0].thread == 0);
    CHECK(v.lock_spans[0].lock == "inode.i_lock");
    CHECK(v.lock_spans[0].from == 1);
    CHECK(v.lock_spans[0].to == 5);

    // The reference count: three changes, above zero from the start (an
    // object of the initial state) until line 7, ending at 0.
    REQUIRE(v.ref_changes.size() == 3);
    CHECK(v.ref_changes[0].line == 3);
    CHECK(v.ref_changes[0].before == 1);
    CHECK(v.ref_changes[0].after == 2);
    CHECK(v.ref_changes[2].line == 7);
    CHECK(v.ref_changes[2].after == 0);
    REQUIRE(v.refs.size() == 1);
    CHECK(v.refs[0].count == "inode.i_count");
    REQUIRE(v.refs[0].spans.size() == 1);
    CHECK(v.refs[0].spans[0] == std::make_pair(std::string("start"), std::string("7")));
    CHECK(v.refs[0].last == 0);

    // rf as line numbers: the read of i_count (line 4) read line 3; the
    // failed trylock (line 2) read line 1; the second put read line 6.
    CHECK(v.lines[3].rf_line == 3);
    CHECK(v.lines[3].rf == "P0 #3");
    CHECK(v.lines[1].rf_line == 1);
    CHECK(v.lines[6].rf_line == 6);
    bool linked = false;
    for (const auto& p : v.lines[3].parts) linked |= p.line == 3 && p.text == "P0 #3";
    CHECK(linked);
    CHECK(v.line_of(0) == 0);  // the Enter event
    CHECK(v.line_of(3) == 3);

    // The named point is shown under its function, labelled.
    CHECK(v.lines[7].func == "f");
    CHECK(v.lines[7].point == "publish");
    CHECK(v.lines[7].text == "[publish] inode published");

    // In short: the named step, the conflicting write and the violation.
    CHECK(v.in_short == std::vector<size_t>{2, 7, 8});
    CHECK(v.named_steps == 1);
    CHECK(v.conflict_objs.count(0) == 1);

    // The HTML draws it: the read links to line 3, the lock table has the
    // span, the reference span is listed.
    Scenario s = parse_scenario("toy.json",
                                "{\"name\":\"toy\",\"doc\":\"d\",\"model\":\"toy-lock\",\"memory_model\":\"sc\",\"threads\":[{\"name\":\"P0\",\"ops\":"
                                "[\"critical_section\"]},{\"name\":\"P1\",\"ops\":[\"critical_section\"]}],"
                                "\"expect\":{\"verdict\":\"violated\",\"invariant\":\"toy-mutual-exclusion\"}}");
    ReportOptions o;
    o.replay = {"vfsmc replay toy.json", "v1:x", ""};
    std::string html = html_report(s, r, o);
    CHECK_THAT(html, Catch::Contains("(read from <a class=\"step-link\" href=\"#step-3\">P0 #3</a>)"));
    CHECK_THAT(html, Catch::Contains("<tr class=\"span\"><td>P0</td><td>inode.i_lock</td><td><a class=\"step-link\" "
                                     "href=\"#step-1\">1</a></td><td><a class=\"step-link\" href=\"#step-5\">5</a></td></tr>"));
    CHECK_THAT(html, Catch::Contains("<li class=\"ref-span\">inode.i_count: above zero at steps start&ndash;7; ends at 0</li>"));
    CHECK_THAT(html, !Catch::Contains("<tr class=\"span\"><td>P1</td>"));
}

TEST_CASE("issue 15: the replay command is rebuilt from its parts, with options after the token", "[trace][report]") {
    ReplayCommand c{"vfsmc replay scenarios/x.json", "v1:abc", " --config version=v1"};
    CHECK(c.text() == "vfsmc replay scenarios/x.json v1:abc --config version=v1");
    CHECK(c.text_with("v1:def") == "vfsmc replay scenarios/x.json v1:def --config version=v1");
    ReplayCommand w{"vfsmc litmus --witness x.litmus", "", ""};
    CHECK(w.text() == "vfsmc litmus --witness x.litmus");
}

TEST_CASE("issue 15: the layer tags lock words and refcounts by type", "[trace][engine]") {
    // toy-lock (correct): spin_lock/spin_unlock of box.lock in both threads.
    Scenario s = parse_scenario("toy.json",
                                "{\"name\":\"toy\",\"doc\":\"d\",\"model\":\"toy-lock\",\"memory_model\":\"sc\",\"threads\":["
                                "{\"name\":\"P0\",\"ops\":[\"critical_section\"]},{\"name\":\"P1\",\"ops\":[\"critical_section\"]}],"
                                "\"search\":{\"strategy\":\"exhaustive\"},\"expect\":\"holds\"}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::holds);
    REQUIRE(r.sample);
    RunResult sr = r;
    sr.trace = r.sample;
    TraceView v = TraceView::of(sr);
    int acquires = 0, releases = 0;
    for (size_t i = 0; i < v.lines.size(); i++) {
        const Event& e = sr.trace->events[v.lines[i].event];
        if (e.sync == Sync::Acquire) {
            acquires++;
            CHECK(e.kind == Ev::Rmw);
            CHECK(e.lock == LockClass::Spinlock);
            CHECK(std::string(e.field) == "lock");
            CHECK(v.held[i][e.thread] == std::vector<std::string>{"box.lock"});
        }
        if (e.sync == Sync::Release) {
            releases++;
            CHECK(v.held[i][e.thread].empty());
        }
        // A failed attempt (the first look of a spin_lock that has to wait)
        // is a read of the word, never an acquire.
        if (e.kind == Ev::Read && e.field && std::string(e.field) == "lock") CHECK(e.sync == Sync::None);
        CHECK(e.word == Word::Number);  // no word of toy-lock counts references
    }
    CHECK(acquires == 2);
    CHECK(releases == 2);
    REQUIRE(v.lock_spans.size() == 2);
    CHECK(v.lock_spans[0].to > v.lock_spans[0].from);
    CHECK(v.refs.empty());
}
