// The parallel dpor search (checker/search/parallel.h) loses nothing and
// invents nothing: with 1, 2, 3 and 7 worker processes it reaches the
// verdict and the final states of the serial dpor search, explores at least
// as many complete executions (one worker: exactly as many), finds every
// violation the serial search finds, with a token that replays, and gives
// the same result when a worker is killed mid-run. The test-only mutation
// that drops the backtrack points found above a piece's root makes it lose
// executions the serial search has.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli/cli.h"
#include "scenario/scenario.h"
#include "search/parallel.h"

using namespace vfsmc;

namespace {

using Threads = std::vector<std::vector<std::string>>;

Scenario toy(const Threads& threads, const std::string& mm = "sc") {
    std::string th;
    for (size_t i = 0; i < threads.size(); i++) {
        std::string ops;
        for (size_t k = 0; k < threads[i].size(); k++) ops += std::string(k ? "," : "") + "\"" + threads[i][k] + "\"";
        th += std::string(i ? "," : "") + "{\"name\":\"P" + std::to_string(i) + "\",\"ops\":[" + ops + "]}";
    }
    std::string text = "{\"name\":\"t\",\"doc\":\"test\",\"memory_model\":\"" + mm + "\",\"model\":\"toy-dpor\",\"threads\":[" + th +
                       "],\"search\":{\"strategy\":\"dpor\"},\"expect\":\"holds\"}";
    return parse_scenario("t.json", text);
}

Scenario scenario(const std::string& name) { return load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + name + ".json"); }

uint64_t complete_executions(const RunResult& r) { return r.executions - r.sleep_blocked - r.pruned; }

RunOptions dpor_options(const Scenario& s) {
    RunOptions o;
    o.minimize = false;
    o.collect_outcomes = true;
    o.override_search = true;
    o.search = s.search;
    o.search.strategy = Strategy::dpor;
    o.search.max_executions = 0;
    o.search.time_limit_s = 0;
    return o;
}

RunResult serial(const Scenario& s) { return run_scenario(s, dpor_options(s)); }

RunResult parallel(const Scenario& s, int jobs, ParallelOptions p = ParallelOptions()) {
    p.jobs = jobs;
    return run_parallel(s, dpor_options(s), p);
}

// The parallel result against the serial one.
void same_as_serial(const Scenario& s, const RunResult& ser, const RunResult& par, int jobs) {
    INFO(s.name << " with " << jobs << " workers: serial " << verdict_name(ser.verdict) << " " << ser.invariant << " in "
                << ser.executions << " executions (" << ser.outcomes.size() << " final states), parallel "
                << verdict_name(par.verdict) << " " << par.invariant << " in " << par.executions << " executions ("
                << par.outcomes.size() << " final states, " << par.parallel.pieces << " pieces, " << par.parallel.duplicates
                << " duplicates)");
    CHECK(par.parallel.workers == jobs);
    REQUIRE(par.verdict == ser.verdict);
    if (ser.verdict == Verdict::violated) {
        CHECK(par.invariant == ser.invariant);
        // Its token is a whole path from the root: a plain replay follows it.
        RunOptions ro;
        RunResult rp = replay_scenario(s, par.token, ro);
        CHECK(rp.verdict == Verdict::violated);
        CHECK(rp.invariant == par.invariant);
        return;
    }
    CHECK(par.scope == ser.scope);
    CHECK(par.complete == ser.complete);
    CHECK(par.parallel.pieces_finished == par.parallel.pieces);
    CHECK(par.outcomes == ser.outcomes);
    CHECK(complete_executions(par) >= complete_executions(ser));
    if (jobs == 1) CHECK(par.executions == ser.executions);
}

void check_all_jobs(const Scenario& s) {
    RunResult ser = serial(s);
    for (int jobs : {1, 2, 3, 7}) same_as_serial(s, ser, parallel(s, jobs), jobs);
}

}  // namespace

TEST_CASE("a parallel dpor search explores every Mazurkiewicz trace of the toys with 1, 2, 3 and 7 workers", "[parallel]") {
    // N writers of one variable: N! traces, each its own final state.
    RunResult four = serial(toy(Threads(4, {"write_shared"})));
    REQUIRE(complete_executions(four) == 24);
    for (const Threads& th : std::vector<Threads>{
             Threads(4, {"write_shared"}),
             {{"write_shared", "write_shared"}, {"write_shared", "write_own"}, {"write_shared"}},
             {{"locked_inc"}, {"locked_inc"}, {"locked_inc"}},
             {{"rcu_read_y"}, {"sync_rcu"}, {"write_shared"}},
             {{"retry_y"}, {"locked_set_y"}, {"locked_inc"}}})
        check_all_jobs(toy(th));
    for (const Threads& th : std::vector<Threads>{{{"rcu_reader", "rcu_use_ptr"}, {"rcu_use_ptr", "rcu_reader"}, {"rcu_reader", "call_rcu_unpublish"}},
                                                  {{"read_y_get_not_zero"}, {"lockref_get_set_y"}, {"lockref_get_put"}}})
        check_all_jobs(toy(th, "kernel"));
}

TEST_CASE("a parallel dpor search finds the toys' violations with 1, 2, 3 and 7 workers", "[parallel]") {
    for (const Threads& th : std::vector<Threads>{{{"rcu_use_ptr"}, {"rcu_use_after_unlock"}, {"call_rcu_unpublish"}},
                                                  {{"rcu_reader", "rcu_use_after_unlock"}, {"rcu_reader", "call_rcu_unpublish"}}}) {
        Scenario s = toy(th, "kernel");
        RunResult ser = serial(s);
        REQUIRE(ser.verdict == Verdict::violated);
        for (int jobs : {1, 2, 3, 7}) same_as_serial(s, ser, parallel(s, jobs), jobs);
    }
}

TEST_CASE("a parallel dpor search reaches the verdicts and final states of the serial one on real scenarios", "[parallel]") {
    for (const char* f : {"chrdev/concurrent-first-open-v2-third-opener", "chrdev/rmmod-vs-open-v2",
                          "chrdev/concurrent-first-open-v2", "openref/two-openers-v5", "chrdev/pre-seed-opener-without-inode-ref"})
        check_all_jobs(scenario(f));
}

TEST_CASE("a parallel dpor search finds every violation of the chrdev and openref scenarios the serial dpor search finds", "[parallel]") {
    int found = 0;
    for (const char* f : {"chrdev/cdev-del-vs-concurrent-opens-v2", "chrdev/cdev-del-vs-reopen-v2",
                          "chrdev/embedded-cdev-freed-with-open-file", "chrdev/get-unless-zero-vs-release-v2",
                          "chrdev/historic-kobject-get-vs-release", "chrdev/kref-balance-skip-cdev-put-new"}) {
        Scenario s = scenario(f);
        REQUIRE(s.expect.verdict == Verdict::violated);
        RunResult ser = serial(s);
        if (ser.verdict != Verdict::violated) continue;  // beyond dpor's sc/kernel reach of this scenario
        found++;
        for (int jobs : {1, 2, 3, 7}) same_as_serial(s, ser, parallel(s, jobs), jobs);
    }
    CHECK(found >= 4);
}

TEST_CASE("a worker killed mid-run loses nothing: its piece goes back to the pool", "[parallel]") {
    // The worker killed had explored part of its piece; the piece runs
    // again on a new worker, its first run's executions not counted. With
    // one worker that is the whole search: the counts are the serial ones.
    Scenario s = scenario("chrdev/concurrent-first-open-v2-third-opener");
    RunResult ser = serial(s);
    for (uint64_t after : {500u, 1500u}) {  // of its 1,975 executions
        ParallelOptions p;
        p.kill_worker_after = after;
        for (int jobs : {1, 2, 3}) {
            RunResult par = parallel(s, jobs, p);
            INFO("killed after " << after << " executions");
            CHECK(par.parallel.workers_lost == 1);
            same_as_serial(s, ser, par, jobs);
        }
    }
}

TEST_CASE("dropping the backtrack points found above a piece's root loses executions (the test-only mutation)", "[parallel]") {
    Scenario s = scenario("openref/rcu-legitimize-vs-kill");
    RunResult ser = serial(s);
    ParallelOptions p;
    p.drop_upward = true;
    for (int jobs : {2, 3, 7}) {
        RunResult par = parallel(s, jobs, p);
        INFO(jobs << " workers: " << complete_executions(par) << " complete executions against " << complete_executions(ser));
        CHECK(par.verdict == Verdict::holds);  // it does not notice
        CHECK(complete_executions(par) < complete_executions(ser));
        CHECK(par.parallel.upward == 0);
    }
}
