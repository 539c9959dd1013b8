// run --coverage splits the steps no execution reached: those the scenario
// selects away (a need of the step, declared by its model, that the
// scenario does not meet; or a name rule) and those never reached. The
// results here are built by hand (the coverage a search would have found),
// so each case says exactly which step is reached; tests/review.bats runs
// the same split on real searches. Last, `check` fails a scenario in which
// a step is reached against the needs its model declares.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/cli.h"
#include "kernel/kernel.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace vfsmc;

namespace {

Scenario scenario(const std::string& rel) { return load_scenario(std::string(VFSMC_SOURCE_DIR) + "/" + rel); }

void set(std::map<std::string, Value>& fields, const std::string& k, const std::string& v) {
    Value x;
    x.s = v;
    x.b = v == "true";
    x.i = std::atol(v.c_str());
    fields[k] = x;
}

// Why `step` is selected away, "" when it is not; never reached or not.
std::string away(const StepCoverage& c, const std::string& step) {
    for (const auto& a : c.selected_away)
        if (a.step == step) return a.why;
    return "";
}
bool missed(const StepCoverage& c, const std::string& step) {
    return std::find(c.missed.begin(), c.missed.end(), step) != c.missed.end();
}

}  // namespace

TEST_CASE("a step whose bool knob is set the other way is selected away, with the knob it needs", "[coverage]") {
    // rpc_error true: the server may fail a call (server:error).
    Scenario s = scenario("scenarios/dcache/shared-create-error-waiter-retries.json");
    REQUIRE(s.config.at("rpc_error").s == "true");
    RunResult r;
    StepCoverage c = step_coverage(s, r);
    CHECK(missed(c, "server:error"));
    CHECK(away(c, "server:error").empty());
    CHECK(c.reached + c.selected_away.size() + c.missed.size() == c.total);

    set(s.config, "rpc_error", "false");
    c = step_coverage(s, r);
    CHECK(away(c, "server:error") == "needs config.rpc_error=true");
    CHECK(!missed(c, "server:error"));
    // wait_revalidate: the default, true, rules out the broken variant's
    // step and leaves the correct one's to the search.
    CHECK(away(c, "d_alloc_parallel:no-revalidate") == "needs config.wait_revalidate=false");
    CHECK(missed(c, "d_alloc_parallel:mismatch"));
    set(s.config, "wait_revalidate", "false");
    c = step_coverage(s, r);
    CHECK(away(c, "d_alloc_parallel:mismatch") == "needs config.wait_revalidate=true");
    CHECK(missed(c, "d_alloc_parallel:no-revalidate"));

    // Reached: counted as reached whatever the config.
    r.coverage = {"d_alloc_parallel:no-revalidate"};
    c = step_coverage(s, r);
    CHECK(c.reached == 1);
    CHECK(away(c, "d_alloc_parallel:no-revalidate").empty());
    CHECK(!missed(c, "d_alloc_parallel:no-revalidate"));
    CHECK(c.against_needs.empty());
}

TEST_CASE("a step's row replaces the name rules: an enum value the step does not bear, and a second caller", "[coverage]") {
    RunResult r;
    // publish d_rehash-early calls d_rehash too: not selected away by the
    // name d_rehash.
    Scenario s = scenario("scenarios/dcache/shared-d-rehash-early.json");
    REQUIRE(s.config.at("publish").s == "d_rehash-early");
    StepCoverage c = step_coverage(s, r);
    CHECK(missed(c, "d_rehash"));
    CHECK(missed(c, "nfs_atomic_open:rehash-early"));
    CHECK(away(c, "d_add") == "config.publish is \"d_rehash-early\"");  // the name rule, for a step without a row
    set(s.config, "publish", "d_splice_alias");
    c = step_coverage(s, r);
    CHECK(away(c, "d_rehash") == "needs config.publish=d_rehash or d_rehash-early");
    CHECK(away(c, "nfs_atomic_open:rehash-early") == "needs config.publish=d_rehash-early");

    // chrdev: evict calls inode_cdev_forget as well as the op of that
    // name, and only in v1 and v2.
    Scenario e = scenario("scenarios/chrdev/evict-vs-opener-pre-seed.json");
    REQUIRE(e.config.at("version").s == "pre-seed");
    c = step_coverage(e, r);
    CHECK(away(c, "inode_cdev_forget") == "needs config.version=v1 or v2");
    CHECK(missed(c, "cd_forget"));
    set(e.config, "version", "v2");
    c = step_coverage(e, r);
    CHECK(missed(c, "inode_cdev_forget"));
    CHECK(away(c, "cd_forget") == "needs config.version=pre-seed");
}

TEST_CASE("init values and op arguments select steps away; a need met leaves the step never reached", "[coverage]") {
    RunResult r;
    // i_nlink 0: the last iput evicts; the LRU is never used.
    Scenario e = scenario("scenarios/chrdev/evict-vs-opener-pre-seed.json");
    REQUIRE(e.init.at("i_nlink").s == "0");
    StepCoverage c = step_coverage(e, r);
    CHECK(away(c, "iput_final:cached") == "needs init.i_nlink=1");
    CHECK(missed(c, "iput_final:I_FREEING"));
    CHECK(away(c, "inode_lru_isolate:I_FREEING") == "no thread calls prune_icache_sb");
    CHECK(away(c, "try_module_get") == "needs init.cdev_owner=module, or init.fops_owner=module");
    set(e.init, "fops_owner", "module");
    c = step_coverage(e, r);
    CHECK(missed(c, "try_module_get"));

    // openref: no thread opens with O_PATH or for writing.
    Scenario o = scenario("scenarios/openref/two-openers-v5.json");
    for (const auto& t : o.threads)
        for (const auto& op : t.ops) REQUIRE((op.name != "open" || op.args.at(0).s == "O_RDONLY"));
    c = step_coverage(o, r);
    CHECK(away(c, "do_o_path") == "no thread calls open with flags O_PATH");
    CHECK(away(c, "handle_truncate") == "no thread calls open with flags O_WRONLY|O_TRUNC");
    CHECK(away(c, "vfs_open") == "needs config.do_open=unpatched, or a thread that calls open with flags O_PATH");
    CHECK(away(c, "do_umount") == "no thread calls umount_lazy");
    CHECK(missed(c, "vfs_open_consume"));
    o.threads[0].ops[0].args[0].s = "O_PATH";
    c = step_coverage(o, r);
    CHECK(missed(c, "do_o_path"));
    CHECK(missed(c, "vfs_open"));
}

TEST_CASE("a step reached against its declared needs is reported; under a mutation the needs are not used", "[coverage]") {
    Scenario s = scenario("scenarios/dcache/shared-create-error-waiter-retries.json");
    set(s.config, "rpc_error", "false");
    RunResult r;
    r.coverage = {"server:error", "walk_component"};
    StepCoverage c = step_coverage(s, r);
    REQUIRE(c.against_needs.size() == 2);
    CHECK(c.against_needs[0].step == "walk_component");
    CHECK(c.against_needs[0].why == "the model declares that it needs a thread that calls lookup");
    CHECK(c.against_needs[1].step == "server:error");
    CHECK(c.against_needs[1].why == "the model declares that it needs config.rpc_error=true");
    CHECK(c.reached == 2);
    // A mutation deletes a line of the model: its needs may not hold.
    r.mutation = "no-i-dir-seq-recheck";
    c = step_coverage(s, r);
    CHECK(c.against_needs.empty());
    r.coverage.clear();
    c = step_coverage(s, r);
    CHECK(missed(c, "server:error"));
    CHECK(missed(c, "d_alloc_parallel:no-revalidate"));
}

namespace {

// A model whose one step is logged whatever its knob says, and whose step
// needs claim otherwise: `check` must fail its scenario.
struct WrongNeedsRun : ModelRun {
    void thread(int) override { KFUNC("toy_step"); }
};
struct WrongNeeds : Model {
    ModelSpec s;
    WrongNeeds() {
        s.name = "toy-wrong-needs";
        s.doc = "test-only: a step needs table the model's code contradicts";
        s.ops = {{"go", "log toy_step", {}}};
        s.knobs = {bool_field("flag", "false", "claimed to gate toy_step")};
        s.steps = {"toy_step"};
        s.step_needs = {{{"toy_step"}, {knob_is("flag", {"true"})}}};
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario&) override {}
    ModelRun* start() override { return make_run<WrongNeedsRun>(); }
};

// `vfsmc check DIR`, in this process (its children are forks of it, with
// the runtime model registered): what it prints.
std::string check_output(const std::string& dir) {
    std::ostringstream out;
    std::streambuf* old = std::cout.rdbuf(out.rdbuf());
    CheckOptions o;
    o.jobs = 1;
    try {
        cmd_check({dir}, o);
    } catch (...) {
        std::cout.rdbuf(old);
        throw;
    }
    std::cout.rdbuf(old);
    return out.str();
}

}  // namespace

TEST_CASE("check fails a scenario that reaches a step against the needs its model declares", "[coverage][check]") {
    WrongNeeds m;
    register_runtime_model(&m);
    char tmpl[] = "/tmp/vfsmc-needs-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    std::string dir = tmpl, file = dir + "/wrong-needs.json";
    auto write = [&](const char* flag) {
        std::ofstream(file) << R"({"name": "wrong-needs", "doc": "test", "model": "toy-wrong-needs", "memory_model": "sc",)"
                            << R"( "config": {"flag": )" << flag << R"(}, "threads": [{"name": "P0", "ops": ["go"]}],)"
                            << R"( "search": {"strategy": "dpor"}, "expect": "holds"})";
    };
    write("false");
    std::string text = check_output(dir);
    write("true");
    std::string control = check_output(dir);
    unregister_runtime_model(&m);
    std::remove(file.c_str());
    rmdir(dir.c_str());
    INFO(text);
    // Failed by the judgement itself, not as a new scenario with no count.
    CHECK(text.find("FAIL  " + file + ": holds (complete)") != std::string::npos);
    CHECK(text.find("new scenario") == std::string::npos);
    CHECK(text.find("\n      step needs: toy_step was reached, but the model declares that it needs config.flag=true "
                    "(models/toy-wrong-needs)\n") != std::string::npos);
    // With the need met the scenario passes the judgement, and fails only
    // as a new scenario with no recorded count.
    INFO(control);
    CHECK(control.find("step needs") == std::string::npos);
    CHECK(control.find("new scenario: no recorded count") != std::string::npos);
}
