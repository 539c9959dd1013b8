// The executable LKMM (checker/lkmm): its answers on the corpora, each
// rule deciding some test, herd7's counts and flags, and bad input. This
// file links the lkmm library alone (no Relacy, no engine).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "litmus/parser.h"
#include "lkmm/oracle.h"
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
    // The one test the parser refuses on purpose (litmus/SB+storembs).
    CHECK(c.unsupported == std::vector<std::string>{"SB+storembs.litmus"});
    for (size_t i = 0; i < c.tests.size(); i++) {
        const auto& t = c.tests[i];
        INFO(t.file);
        OracleOutcome o = oracle_run(t);
        REQUIRE(o.error.empty());
        REQUIRE(t.expected != litmus::Answer::None);
        CHECK(answer(o) == std::string(litmus::answer_name(t.expected)) + (c.race[i] ? " DATARACE" : ""));
        CHECK(o.seconds < 1.0);
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
