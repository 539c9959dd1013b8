// The engine, on the test-only protocols of tests/toy_models.cpp.
#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <string>

#include "search/engine.h"
#include "substrate/runtime.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace vfsmc;

static Scenario toy(const std::string& model, const std::string& knob, const std::string& value, int threads,
                    const std::string& search) {
    std::string ops = model == "toy-lock" ? "[\"critical_section\"]" : "";
    std::string th;
    for (int i = 0; i < threads; i++) {
        std::string op = model == "toy-lock" ? "critical_section" : (i == 0 ? "produce" : "consume");
        th += std::string(i ? "," : "") + "{\"name\":\"P" + std::to_string(i) + "\",\"ops\":[\"" + op + "\"]}";
    }
    std::string inv = model == "toy-lock" ? "toy-mutual-exclusion" : "toy-message-passing";
    std::string text = "{\"name\":\"t\",\"doc\":\"test\",\"memory_model\":\"kernel\",\"model\":\"" + model + "\",\"config\":{\"" + knob + "\":\"" +
                       value + "\"},\"threads\":[" + th + "],\"search\":" + search +
                       ",\"expect\":{\"verdict\":\"violated\",\"invariant\":\"" + inv + "\"}}";
    return parse_scenario("t.json", text);
}

TEST_CASE("every search strategy catches the broken toy lock", "[engine]") {
    for (const char* search : {"{\"strategy\":\"exhaustive\"}", "{\"strategy\":\"bounded\",\"preemption_bound\":2}",
                               "{\"strategy\":\"random\",\"iterations\":2000,\"seed\":1}"}) {
        Scenario s = toy("toy-lock", "variant", "broken", 2, search);
        RunResult r = run_scenario(s, RunOptions());
        INFO(search);
        CHECK(r.verdict == Verdict::violated);
        CHECK(r.invariant == "toy-mutual-exclusion");
        CHECK(r.trace);
        CHECK(!r.token.empty());
    }
}

TEST_CASE("every search strategy passes the correct toy lock", "[engine]") {
    for (const char* search : {"{\"strategy\":\"exhaustive\"}", "{\"strategy\":\"bounded\",\"preemption_bound\":2}",
                               "{\"strategy\":\"random\",\"iterations\":500,\"seed\":1}"}) {
        Scenario s = toy("toy-lock", "variant", "correct", 2, search);
        RunResult r = run_scenario(s, RunOptions());
        INFO(search);
        CHECK(r.verdict == Verdict::holds);
        CHECK(r.executions > 1);
    }
}

TEST_CASE("replay reproduces the counterexample exactly", "[engine]") {
    for (const char* search : {"{\"strategy\":\"exhaustive\"}", "{\"strategy\":\"bounded\",\"preemption_bound\":2}",
                               "{\"strategy\":\"random\",\"iterations\":2000,\"seed\":3}"}) {
        Scenario s = toy("toy-lock", "variant", "broken", 2, search);
        RunResult r = run_scenario(s, RunOptions());
        REQUIRE(r.verdict == Verdict::violated);
        RunResult again = replay_scenario(s, r.token);
        INFO(search);
        REQUIRE(again.verdict == Verdict::violated);
        CHECK(again.invariant == r.invariant);
        auto a = trace_lines(r), b = trace_lines(again);
        REQUIRE(a.size() == b.size());
        for (size_t i = 0; i < a.size(); i++) CHECK(a[i].text == b[i].text);
    }
}

TEST_CASE("a garbage replay token is rejected with a clear error", "[engine]") {
    Scenario s = toy("toy-lock", "variant", "broken", 2, "{\"strategy\":\"exhaustive\"}");
    RunResult r = run_scenario(s, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    CHECK_THROWS_WITH(replay_scenario(s, "garbage"), Catch::Contains("replay token") && Catch::Contains("accepted"));
    std::string damaged = r.token;
    damaged.back() = damaged.back() == '1' ? '2' : '1';
    CHECK_THROWS_WITH(replay_scenario(s, damaged), Catch::Contains("checksum"));
    Scenario other = toy("toy-lock", "variant", "correct", 2, "{\"strategy\":\"exhaustive\"}");
    CHECK_THROWS_WITH(replay_scenario(other, r.token), Catch::Contains("another scenario"));
}

TEST_CASE("message passing: the kernel memory model finds the stale read, sc does not", "[engine][memory-model]") {
    Scenario once = toy("toy-mp", "ordering", "once", 2, "{\"strategy\":\"exhaustive\"}");
    once.memory_model = MemModel::kernel;
    RunResult r = run_scenario(once, RunOptions());
    REQUIRE(r.verdict == Verdict::violated);
    CHECK(r.invariant == "toy-message-passing");
    bool stale = false;
    for (const auto& L : trace_lines(r)) stale |= L.stale && L.text.find("msg.data") != std::string::npos;
    CHECK(stale);

    once.memory_model = MemModel::sc;
    CHECK(run_scenario(once, RunOptions()).verdict == Verdict::holds);

    for (MemModel mm : {MemModel::sc, MemModel::kernel}) {
        Scenario ra = toy("toy-mp", "ordering", "release-acquire", 2, "{\"strategy\":\"exhaustive\"}");
        ra.memory_model = mm;
        CHECK(run_scenario(ra, RunOptions()).verdict == Verdict::holds);
    }
}

TEST_CASE("print a toy report (manual)", "[.print]") {
    Scenario s = toy("toy-mp", "ordering", "once", 2, "{\"strategy\":\"exhaustive\"}");
    RunResult r = run_scenario(s, RunOptions());
    ReportOptions o;
    o.replay = {"vfsmc replay t.json", r.token, ""};
    std::printf("%s\n", text_report(s, r, o).c_str());
    Scenario l = toy("toy-lock", "variant", "broken", 2, "{\"strategy\":\"bounded\",\"preemption_bound\":2}");
    RunResult r2 = run_scenario(l, RunOptions());
    std::printf("%s\n", text_report(l, r2, o).c_str());
    for (const char* srch : {"{\"strategy\":\"exhaustive\",\"max_executions\":200000}", "{\"strategy\":\"bounded\",\"preemption_bound\":2}", "{\"strategy\":\"bounded\",\"preemption_bound\":3}"}) {
        Scenario c = toy("toy-lock", "variant", "correct", 3, srch);
        RunResult r3 = run_scenario(c, RunOptions());
        std::printf("%s\n", summary_line(c, r3, false).c_str());
        fflush(stdout);
    }
}

static Scenario mp_with_order(const std::string& mm, const std::string& order, const std::string& expect) {
    return parse_scenario("mp.json", "{\"name\":\"mp\",\"doc\":\"order\",\"model\":\"toy-mp\",\"memory_model\":\"" + mm +
                                         "\",\"config\":{\"ordering\":\"once\"},"
                                         "\"threads\":[{\"name\":\"P0\",\"ops\":[\"produce\"]},{\"name\":\"P1\",\"ops\":[\"consume\"]}],"
                                         "\"search\":{\"strategy\":\"exhaustive\"},\"order\":" + order + ",\"expect\":" + expect + "}");
}

TEST_CASE("order constraints restrict the search to the claimed race", "[engine][order]") {
    const std::string produce_first =
        "[{\"before\":{\"thread\":\"P0\",\"step\":\"produce\"},\"after\":{\"thread\":\"P1\",\"step\":\"consume\"}}]";
    // Under sc, once produce() has completed, consume() sees the data.
    Scenario sc = mp_with_order("sc", produce_first, "\"holds\"");
    RunResult r = run_scenario(sc, RunOptions());
    CHECK(r.verdict == Verdict::holds);
    CHECK(r.executions > r.pruned);
    // Under the kernel model the stale read is still possible.
    Scenario k = mp_with_order("kernel", produce_first, "{\"verdict\":\"violated\",\"invariant\":\"toy-message-passing\"}");
    RunResult rk = run_scenario(k, RunOptions());
    CHECK(rk.verdict == Verdict::violated);
    // The counterexample obeys the constraint: P1 starts consume() after P0 finished produce().
    int last_p0 = -1, first_p1 = -1;
    for (int i = 0; i < rk.trace->nevents; i++) {
        const Event& e = rk.trace->events[i];
        if (e.thread == 0) last_p0 = i;
        if (e.thread == 1 && first_p1 < 0) first_p1 = i;
    }
    CHECK(last_p0 < first_p1);
}

TEST_CASE("order constraints that no execution can meet are answered unsatisfiable", "[engine][order]") {
    const std::string cycle =
        "[{\"before\":{\"thread\":\"P0\",\"step\":\"produce\"},\"after\":{\"thread\":\"P1\",\"step\":\"consume\"}},"
        "{\"before\":{\"thread\":\"P1\",\"step\":\"consume\"},\"after\":{\"thread\":\"P0\",\"step\":\"produce\"}}]";
    Scenario s = mp_with_order("sc", cycle, "\"unsatisfiable\"");
    RunResult r = run_scenario(s, RunOptions());
    CHECK(r.verdict == Verdict::unsatisfiable);
    CHECK(r.executions > 0);
    CHECK(r.pruned == r.executions);
}

// ---- issue 11: the layer's orders, on litmus shapes (tests/toy_models.cpp toy-layer) ----
static Scenario layer_shape(const std::string& mm, const std::string& p0, const std::string& p1,
                            const std::string& strategy = "exhaustive") {
    std::string text = "{\"name\":\"l\",\"doc\":\"layer\",\"model\":\"toy-layer\",\"memory_model\":\"" + mm +
                       "\",\"threads\":[{\"name\":\"P0\",\"ops\":[\"" + p0 + "\"]},{\"name\":\"P1\",\"ops\":[\"" + p1 +
                       "\"]}],\"search\":{\"strategy\":\"" + strategy + "\"},\"expect\":\"holds\"}";
    return parse_scenario("l.json", text);
}

TEST_CASE("issue 11 item 7: a reader queues behind a waiting writer, so a recursive down_read deadlocks", "[engine][layer]") {
    RunResult r = run_scenario(layer_shape("sc", "read_twice", "write"), RunOptions());
    CHECK(r.verdict == Verdict::violated);
    CHECK(r.invariant == "deadlock");
    // Without the writer in between the recursion is harmless.
    CHECK(run_scenario(layer_shape("sc", "read_twice", "read_twice"), RunOptions()).verdict == Verdict::holds);
}

TEST_CASE("issue 11 item 12: rcu_read_lock is not a full fence (store buffering around read sections)", "[engine][layer]") {
    RunResult r = run_scenario(layer_shape("kernel", "sb_left", "sb_right"), RunOptions());
    CHECK(r.verdict == Verdict::violated);
    CHECK(r.invariant == "toy-store-buffering");
    CHECK(run_scenario(layer_shape("sc", "sb_left", "sb_right"), RunOptions()).verdict == Verdict::holds);
}

TEST_CASE("issue 11 item 11: refcount_inc_not_zero is unordered; refcount_dec_and_test orders the last put", "[engine][layer]") {
    RunResult r = run_scenario(layer_shape("kernel", "ref_get", "ref_put_both"), RunOptions());
    CHECK(r.verdict == Verdict::violated);
    CHECK(r.invariant == "toy-message-passing");
    CHECK(run_scenario(layer_shape("sc", "ref_get", "ref_put_both"), RunOptions()).verdict == Verdict::holds);
    // dec_and_test: RELEASE, and ACQUIRE when it reaches zero.
    CHECK(run_scenario(layer_shape("kernel", "ref_put", "ref_put_last"), RunOptions()).verdict == Verdict::holds);
}

// Issue 10 (per-execution cost): narratives are formatted when a record is
// copied out of its execution, not when the event is logged.
TEST_CASE("issue 10: a lazily formatted narrative reads as vsnprintf would have printed it, from what the arguments were when it was logged", "[engine][trace]") {
    static ExecRecord rec;  // large: off the stack
    Runtime& r = rt();
    ExecRecord* saved = r.rec;
    void (*saved_check)() = r.check_step;
    r.check_step = nullptr;
    r.begin_execution(&rec);
    char local[32];
    std::snprintf(local, sizeof local, "%s", "dentry \"foo\"#2");
    log_event(0, Ev::Step, -1, "a", nullptr, 0, 0, "%s -> %d, %u, %x, %5.2f, %-4s| 100%%", local, -3, 7u, 255u, 1.5, "ab");
    std::snprintf(local, sizeof local, "%s", "overwritten");  // after the event: its narrative keeps the old text
    std::string longer(200, 'x');
    log_event(0, Ev::Step, -1, "b", nullptr, 0, 0, "%s", longer.c_str());  // does not fit: formatted at once
    log_event(0, Ev::Step, -1, "c", nullptr, 0, 0, "%*d", 5, 42);          // `*` width: formatted at once
    log_event(0, Ev::Step, -1, "d", nullptr, 0, 0, "no arguments");
    log_event(0, Ev::Step, -1, "e", nullptr, 0, 0, "%lld %c %ld", 1LL << 40, 'z', -5L);
    log_event(0, Ev::Step, -1, "f", nullptr, 0, 0, "%d%d%d%d%d%d%d", 1, 2, 3, 4, 5, 6, 7);  // more than kLazyArgs: at once
    CHECK(rec.events[0].fmt != nullptr);
    CHECK(rec.events[1].fmt == nullptr);
    CHECK(rec.events[2].fmt == nullptr);
    CHECK(rec.events[3].fmt != nullptr);
    CHECK(rec.events[4].fmt != nullptr);
    CHECK(rec.events[5].fmt == nullptr);
    auto copy = std::make_shared<ExecRecord>(rec);
    r.rec = saved;
    r.check_step = saved_check;
    char want[kTextLen];
    std::snprintf(want, sizeof want, "%s -> %d, %u, %x, %5.2f, %-4s| 100%%", "dentry \"foo\"#2", -3, 7u, 255u, 1.5, "ab");
    CHECK(std::string(copy->events[0].text) == want);
    CHECK(copy->events[0].fmt == nullptr);
    CHECK(std::string(copy->events[1].text) == longer.substr(0, kTextLen - 1));
    CHECK(std::string(copy->events[2].text) == "   42");
    CHECK(std::string(copy->events[3].text) == "no arguments");
    CHECK(std::string(copy->events[4].text) == "1099511627776 z -5");
    CHECK(std::string(copy->events[5].text) == "1234567");
}

TEST_CASE("issue 10: an object keeps its name from the last execution only when its format and arguments are the same", "[engine][trace]") {
    static ExecRecord rec;
    Runtime& r = rt();
    ExecRecord* saved = r.rec;
    r.begin_execution(&rec);
    int a = register_object("dentry", "dentry \"%s\"#%d", "foo", 1);
    r.begin_execution(&rec);
    int b = register_object("dentry", "dentry \"%s\"#%d", "foo", 1);
    CHECK(std::string(object_name(b)) == "dentry \"foo\"#1");
    r.begin_execution(&rec);
    int c = register_object("dentry", "dentry \"%s\"#%d", "bar", 1);
    CHECK(std::string(object_name(c)) == "dentry \"bar\"#1");
    r.begin_execution(&rec);
    int d = register_object("dentry", "dentry \"%s\"#%d", "bar", 2);
    CHECK(std::string(object_name(d)) == "dentry \"bar\"#2");
    CHECK(a == b);
    r.rec = saved;
}

TEST_CASE("issue 11 item 13: a free that a plain access by another thread does not happen before is a use after free", "[engine][layer]") {
    // P0: p = READ_ONCE(ptr); plain load of p->val, in one step. P1:
    // WRITE_ONCE(ptr, NULL); kfree(p). No interleaving puts the free
    // between P0's two loads, but the plain load does not happen before the
    // free: kfree reports it.
    for (const char* strategy : {"exhaustive", "dpor"}) {
        for (const char* mm : {"sc", "kernel"}) {
            INFO(strategy << " " << mm);
            RunResult r = run_scenario(layer_shape(mm, "uaf_reader", "uaf_freer", strategy), RunOptions());
            CHECK(r.verdict == Verdict::violated);
            CHECK(r.invariant == "use-after-free");
            // The same reader, publishing that it is done with a release
            // store that the freer acquires before it frees: ordered, holds.
            RunResult ok = run_scenario(layer_shape(mm, "uaf_reader_release", "uaf_freer_acquire", strategy), RunOptions());
            CHECK(ok.verdict == Verdict::holds);
            CHECK(ok.executions > 1);
        }
    }
}

TEST_CASE("an order constraint creates no happens-before, and a verdict that depends on that is warned about", "[engine][order]") {
    // MP with WRITE_ONCE/READ_ONCE: `order` puts the whole of produce()
    // before consume(), but the consumer may still read flag = 1 and a
    // stale data = 0. A constraint that synchronized would forbid that.
    auto mp = [](const std::string& mm) {
        return parse_scenario("t.json", R"({"name": "t", "doc": "MP with order", "model": "toy-mp", "memory_model": ")" + mm +
                                            R"(", "config": {"ordering": "once"},
          "threads": [{"name": "P0", "ops": ["produce"]}, {"name": "P1", "ops": ["consume"]}],
          "order": [{"before": {"thread": "P0", "step": "produce"}, "after": {"thread": "P1", "step": "consume"}}],
          "search": {"strategy": "exhaustive"}, "expect": "holds"})");
    };
    RunResult k = run_scenario(mp("kernel"), RunOptions());
    REQUIRE(k.verdict == Verdict::violated);
    CHECK(k.invariant == "toy-message-passing");
    std::vector<std::string> w = order_without_hb(mp("kernel"), k);
    REQUIRE(w.size() == 1);
    CHECK(w[0] ==
          "order[0]: the counterexample depends on `order` creating no happens-before: P1's READ_ONCE of msg.data in "
          "consume() reads a value older than P0's store in produce(), which comes before P1 starts consume; a constraint "
          "that synchronized would have shown it that store");
    // Under sc every read sees the latest store: nothing depends on it.
    RunResult sc = run_scenario(mp("sc"), RunOptions());
    CHECK(sc.verdict == Verdict::holds);
    CHECK(order_without_hb(mp("sc"), sc).empty());
}
