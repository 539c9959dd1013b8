// lkmm: the executable LKMM as a litmus oracle. oracle_run() enumerates a
// test's candidate executions as herd7 does (each thread's paths, then
// every rf and every co consistent with them), judges each with model.cpp,
// and counts the allowed ones by final state; oracle_report() prints what
// herd7 prints for the test. No Relacy, no engine: only the parsed test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litmus/ast.h"
#include "lkmm/model.h"

namespace vfsmc {
namespace lkmm {

struct OracleOptions {
    Mutation mutation = Mutation::None;
    uint64_t max_candidates = 50'000'000;  // beyond this the test is refused, not judged
    double time_limit = 120;                // seconds; beyond this too
};

struct OracleState {
    std::string text;      // "0:r0=1; 1:r0=0;" as herd7 prints a state
    uint64_t executions = 0;
    bool satisfies = false;
};

struct OracleOutcome {
    litmus::Answer answer = litmus::Answer::None;  // of the condition's proposition
    bool validated = false;   // herd7's Ok/No: the quantifier holds
    uint64_t positive = 0;    // allowed executions whose final state satisfies the proposition
    uint64_t negative = 0;
    std::vector<OracleState> states;  // in herd7's order
    uint32_t flags = 0;       // raised by some allowed execution
    uint64_t candidates = 0;  // candidate executions judged
    double seconds = 0;
    std::string error;        // non-empty: the test cannot be judged (one line)
};

// Whether a test's text says herd7 flags a data race for it: its `Result:`
// line ends with DATARACE (the convention of the kernel's judgelitmus.sh).
bool expects_data_race(const std::string& text);

OracleOutcome oracle_run(const litmus::Test& t, const OracleOptions& o = OracleOptions());

// The values each location of the test may hold, by variable index, as
// the oracle finds them (every value a write computes from values of the
// locations, to a fixed point; a pointer to variable i is i + 1). False,
// with `error`, past the oracle's limits. `written`, when given, gets by
// thread and variable the values that thread's writes may store.
bool value_domains(const litmus::Test& t, std::vector<std::vector<long>>& dom, std::string& error,
                   std::vector<std::vector<std::vector<long>>>* written = nullptr);

// herd7's lines: Test, States, Ok/No, Witnesses, Positive/Negative, Flag
// lines, Condition, Observation, and Time unless stable.
std::string oracle_report(const litmus::Test& t, const OracleOutcome& o, bool stable);

}  // namespace lkmm
}  // namespace vfsmc
