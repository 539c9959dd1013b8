// vfsmc reports: the text report for humans, the versioned JSON result,
// the 72-column email form and the self-contained HTML swimlane page.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "explore/engine.h"
#include "kernel/model.h"

namespace vfsmc {

constexpr const char* kResultSchema = "vfsmc-result/1";

struct ReportOptions {
    bool stable = false;       // leave out timings and rates (golden files)
    std::string replay_cmd;    // the command that replays it
};

// One shown line of a trace.
struct TraceLine {
    int number;          // 1-based, among shown lines
    int event;           // index into the record
    int thread;
    std::string func;
    std::string text;    // action and state change
    bool conflict;       // a step the violation conflicts with (or the violation itself)
    bool stale;
    std::string rf;      // "P0 #12" or "the initial state"
    std::string latest;  // stale reads: the latest write
};
std::vector<TraceLine> trace_lines(const RunResult& r);

std::string text_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
// At most 72 columns, one column per thread, for a patch review email.
std::string email_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
// One self-contained HTML page: a lane per thread, time flowing down.
std::string html_report(const Scenario& s, const RunResult& r, const ReportOptions& o);
nlohmann::json json_report(const Scenario& s, const RunResult& r, const ReportOptions& o);

// One line for `run` and `check`: "holds: name (N executions, ...)".
std::string summary_line(const Scenario& s, const RunResult& r, bool stable);

}  // namespace vfsmc
