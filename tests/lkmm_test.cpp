// The executable LKMM (checker/lkmm): its answers on the corpora, each
// rule deciding some test, herd7's counts and flags, and bad input. This
// file links the lkmm library alone (no Relacy, no engine).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "litmus/parser.h"
#include "lkmm/generate.h"
#include "lkmm/oracle.h"
#include "lkmm/threads.h"
#include "scenario/scenario.h"

using namespace vfsmc;
using namespace vfsmc::lkmm;
namespace fs = std::filesystem;

namespace {

// Every test of litmus/ and litmus-lkmm/ the parser supports, parsed.
struct Corpus {
    std::vector<litmus::Test> tests;
    std::vector<bool> race;  // the test expects `Flag data-race`
    std::vector<std::string> unsupported;
};

const Corpus& corpus() {
    static Corpus c = [] {
        Corpus c;
        std::vector<std::string> files;
        for (const char* dir : {"litmus", "litmus-lkmm", "litmus-oracle"})
            for (const auto& e : fs::recursive_directory_iterator(fs::path(VFSMC_SOURCE_DIR) / dir))
                if (e.path().extension() == ".litmus") files.push_back(e.path().string());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            try {
                std::ifstream in(f);
                std::stringstream ss;
                ss << in.rdbuf();
                c.tests.push_back(litmus::parse(f, ss.str()));
                c.race.push_back(expects_data_race(ss.str()));
            } catch (const LoadError& e) {
                c.unsupported.push_back(fs::path(f).filename().string());
            }
        }
        return c;
    }();
    return c;
}

// What herd7 answers, in short: the condition's answer, and whether it
// flags a data race.
std::string answer(const OracleOutcome& o) {
    return std::string(litmus::answer_name(o.answer)) + (o.flags & FLAG_DATA_RACE ? " DATARACE" : "");
}

}  // namespace

TEST_CASE("the oracle gives the LKMM's answer for every test of litmus/, litmus-lkmm/ and litmus-oracle/, each within a second") {
    const Corpus& c = corpus();
    REQUIRE(c.tests.size() >= 133);
    // The parser takes every test, and the oracle knows every primitive
    // (smp_store_mb, barrier, atomic_add_unless, the bitwise atomics,
    // smp_mb__after_srcu_read_unlock, srcu_down_read included). Two
    // one-thread tests chain twenty RMWs each: more paths than the
    // oracle enumerates, which it says (docs/lkmm-oracle.md, Limits).
    CHECK(c.unsupported.empty());
    const std::set<std::string> too_many_paths = {"atomic-values+bitops.litmus", "atomic-values+returns.litmus"};
    for (size_t i = 0; i < c.tests.size(); i++) {
        const auto& t = c.tests[i];
        INFO(t.file);
        OracleOutcome o = oracle_run(t);
        if (too_many_paths.count(fs::path(t.file).filename().string())) {
            CHECK_THAT(o.error, Catch::Contains("paths; accepted:"));
            continue;
        }
        REQUIRE(o.error.empty());
        CHECK(o.seconds < 1.0);
        if (t.result_text == "DEADLOCK") {
            // judgelitmus.sh's DEADLOCK: no execution is allowed at all.
            CHECK(o.positive + o.negative == 0);
            CHECK(o.states.empty());
            continue;
        }
        REQUIRE(t.expected != litmus::Answer::None);
        CHECK(answer(o) == std::string(litmus::answer_name(t.expected)) + (c.race[i] ? " DATARACE" : ""));
    }
}

TEST_CASE("each rule of the LKMM decides some test of the corpus: weakening it changes an answer") {
    const Corpus& c = corpus();
    std::vector<std::string> lkmm;
    for (const auto& t : c.tests) lkmm.push_back(answer(oracle_run(t)));
    for (const auto& m : kMutations) {
        OracleOptions o;
        o.mutation = m.m;
        std::string caught;
        for (size_t i = 0; i < c.tests.size() && caught.empty(); i++)
            if (answer(oracle_run(c.tests[i], o)) != lkmm[i]) caught = c.tests[i].name;
        INFO("mutation " << m.name);
        CHECK(!caught.empty());
        if (!caught.empty()) WARN("mutation " << m.name << " changes " << caught);
    }
}

TEST_CASE("a branch on a read grows the value domains down both ways, as herd7's symbolic values do") {
    // P0 writes 2 to y only when it read 2 from x, which only P1's copy of
    // that store gives it (litmus/LB+ctrlreg-once+data): along the paths
    // the initial values take, 2 is never written.
    std::ifstream in(std::string(VFSMC_SOURCE_DIR) + "/litmus/LB+ctrlreg-once+data.litmus");
    std::stringstream ss;
    ss << in.rdbuf();
    litmus::Test t = litmus::parse("LB+ctrlreg-once+data.litmus", ss.str());
    Domains initial(t.vars.size(), std::vector<long>{0});
    int y = t.var_index("y");
    auto writes_two = [&](bool both) {
        std::string error;
        std::vector<Run> runs = thread_runs(t, 0, initial, 1000, error, both);
        REQUIRE(error.empty());
        for (const Run& r : runs)
            for (const lkmm::Event& e : r.events)
                if (e.kind == Kind::W && e.loc == y && e.value == 2) return true;
        return false;
    };
    CHECK_FALSE(writes_two(false));
    CHECK(writes_two(true));
    std::vector<std::vector<long>> dom;
    std::string error;
    REQUIRE(value_domains(t, dom, error));
    CHECK(std::count(dom[y].begin(), dom[y].end(), 2) == 1);
    OracleOutcome o = oracle_run(t);
    CHECK(o.answer == litmus::Answer::Sometimes);
    CHECK(o.positive == 1);
}

namespace {

// Every generated test judged once: name -> (test, answer).
struct Judged {
    GeneratedTest g;
    std::string answer;
    double seconds = 0;
};

const std::map<std::string, Judged>& generated() {
    static std::map<std::string, Judged> m = [] {
        std::map<std::string, Judged> m;
        for (auto& g : generate_tests()) {
            Judged j;
            litmus::Test t = litmus::parse(g.name + ".litmus", g.text);
            OracleOutcome o = oracle_run(t);
            INFO(g.name << ": " << o.error);
            REQUIRE(o.error.empty());
            j.answer = answer(o);
            j.seconds = o.seconds;
            j.g = std::move(g);
            m[j.g.name] = std::move(j);
        }
        return m;
    }();
    return m;
}

}  // namespace

// One test case, so that the generated set is judged once (each ctest
// entry is a process of its own).
TEST_CASE("the generator's thousands of herd7 C tests: each judged within a second, as any LKMM must answer") {
    SECTION("each parsed and judged within a second") {
        const auto& m = generated();
        CHECK(m.size() >= 5000);
        std::set<std::string> families;
        double slowest = 0;
        std::string slow;
        for (const auto& kv : m) {
            families.insert(kv.second.g.family);
            if (kv.second.seconds > slowest) {
                slowest = kv.second.seconds;
                slow = kv.first;
            }
        }
        for (const char* f : {"MP", "SB", "LB", "R", "S", "2+2W", "WRC", "ISA2", "IRIW", "Z6.0", "Z6.1", "Z6.2", "Z6.3",
                              "CoRR", "CoRW", "CoWR", "CoWW"})
            CHECK(families.count(f));
        INFO("slowest: " << slow);
        CHECK(slowest < 1.0);
        // with_result puts the answer where --check reads it
        const auto& g = m.at("MP+wmb+rmb").g;
        litmus::Test t = litmus::parse("MP+wmb+rmb.litmus", with_result(g, "Never"));
        CHECK(t.expected == litmus::Answer::Never);
    }

    SECTION("same-location cycles and cycles with smp_mb() on every edge are Never, wholly relaxed ones Sometimes") {
        int co = 0, mb = 0, relaxed = 0;
        for (const auto& kv : generated()) {
            const Judged& j = kv.second;
            INFO(j.g.name);
            if (j.g.same_location) {
                CHECK(j.answer == "Never");
                co++;
            } else if (j.g.all_mb) {
                CHECK(j.answer == "Never");
                mb++;
            }
            if (j.g.all_relaxed && !j.g.same_location) {
                CHECK(j.answer == "Sometimes");
                relaxed++;
            }
        }
        CHECK(co >= 40);
        CHECK(mb >= 20);
        CHECK(relaxed == 18);  // one per family that is not Co*
    }

    SECTION("strengthening one edge to smp_mb() never allows a forbidden outcome") {
        // Among tests without locks, RCU or grace periods (whose ordering
        // needs a partner in another thread), a Never stays Never when one
        // thread's ordering becomes smp_mb().
        const std::set<std::string> local = {"po",     "once", "rmb",  "wmb",  "acq", "rel",
                                             "acqrel", "ctrl", "data", "addr", "mb"};
        int compared = 0;
        for (const auto& kv : generated()) {
            const Judged& j = kv.second;
            if (j.answer != "Never") continue;
            bool ok = true;
            for (const auto& e : j.g.edges) ok = ok && local.count(e);
            if (!ok) continue;
            for (size_t t = 0; t < j.g.edges.size(); t++) {
                if (j.g.edges[t] == "mb") continue;
                std::string name = j.g.family;
                for (size_t u = 0; u < j.g.edges.size(); u++) name += "+" + (u == t ? std::string("mb") : j.g.edges[u]);
                auto it = generated().find(name);
                if (it == generated().end()) continue;  // a one-access thread has no smp_mb() variant
                INFO(j.g.name << " -> " << name);
                CHECK(it->second.answer == "Never");
                compared++;
            }
        }
        CHECK(compared >= 500);
    }
}
