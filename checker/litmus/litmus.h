// vfsmc litmus: run a parsed herd7 C litmus test exhaustively under the
// `kernel` memory model, through the engine, and judge it as herd7 does
// (Always / Sometimes / Never).
//
// A test becomes a Model registered at run time (interp.cpp): each thread
// interprets its P body on the kernel-vocabulary layer (every location is a
// kfield, every primitive the layer's own), and every finished execution
// records its final state. The search is Relacy's exhaustive one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "explore/engine.h"
#include "litmus/ast.h"

namespace vfsmc {
namespace litmus {

struct State {
    std::string text;       // "1:r0=0; 1:r1=1; x=2;" as herd7 prints a state
    uint64_t executions = 0;
    bool satisfies = false; // the condition's proposition holds in it
};

struct Outcome {
    Answer answer = Answer::None;   // of the condition's proposition
    bool validated = false;         // herd7's Ok/No: the quantifier holds
    uint64_t positive = 0;          // executions whose final state satisfies the proposition
    uint64_t negative = 0;
    std::vector<State> states;      // sorted by text
    RunResult run;                  // the counting search (executions, time)
    bool inconclusive = false;      // the search was cut (time limit, SIGINT/SIGTERM): states so far
    std::string error;              // non-empty: the test is ill-formed (one line)
    bool has_witness = false;
    RunResult witness;              // with --witness: an execution satisfying the proposition
                                    // (for forall: one that does not)
    Scenario scenario;              // what the reports need (name, threads, model)
};

struct Options {
    bool witness = false;
    bool minimize = true;           // the shortest witness
    double time_limit = 0;          // seconds for each search; 0: none
};

Outcome run(const Test& t, const std::string& text, const Options& o);

// herd7's lines for one test: Test, States, Ok/No, Witnesses, Positive/
// Negative, Condition, Observation (and Time unless stable).
std::string herd_report(const Test& t, const Outcome& o, bool stable);

}  // namespace litmus
}  // namespace vfsmc
