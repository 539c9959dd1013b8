// vfsmc command line (see main.cpp for the exit codes).
#pragma once

#include <string>
#include <vector>

#include "explore/engine.h"
#include "kernel/model.h"
#include "report/report.h"  // vacuous_steps

namespace vfsmc {

int cli_main(int argc, char** argv);

// The verdict compared with `expect`.
bool as_expected(const Scenario& s, const RunResult& r);

// A scenario file found under the paths given, or (error set) an entry
// that cannot be read: an unreadable directory, a looping symlink.
struct ScenarioEntry {
    std::string file;
    std::string error;  // one printable line, or empty
};
// Every scenario under the given files and directories, sorted. A path
// that does not exist, or a directory with no *.json, throws LoadError.
std::vector<ScenarioEntry> find_scenarios(const std::vector<std::string>& paths);
// The same, but the first entry with an error throws it.
std::vector<std::string> collect_scenarios(const std::vector<std::string>& paths);

// The shell command that replays a counterexample.
ReplayCommand replay_command(const Scenario& s, const RunResult& r);

// Output shared by the commands: a failed write is exit 2 (LoadError, one
// line), never a silent exit 0.
void out_text(const std::string& text);
// The one line of a bad-input error (exit 2): "error: " and the message,
// made printable and cut (error_line). A checker bug is "internal error: ".
std::string bad_input_line(const std::string& what);
void write_file(const std::string& path, const std::string& text);
// SIGINT and SIGTERM stop the search (stop_requested); the status of a run
// they stopped, as a shell reports it.
void catch_stop_signals();
int stopped_status();

// `vfsmc litmus` (litmus_cmd.cpp).
struct LitmusFlags {
    bool check = false;    // judge each test against its Result: line
    bool witness = false;  // print a trace of one satisfying execution
    bool stable = false;   // no timings
    bool table = false;    // --check: the agreement table in Markdown
    bool first = false;    // the first witness, not the shortest
    bool oracle = false;   // answer with the executable LKMM (checker/lkmm), not the engine
    bool generate = false; // write the generated tests (checker/lkmm/generate.h) into the one path
    double time_limit = 0; // seconds for each search; 0: none
    std::string format = "text";
    std::string html;
};
int cmd_litmus(const std::vector<std::string>& paths, const LitmusFlags& f);
// `vfsmc litmus --oracle` over the files cmd_litmus found (litmus_oracle_cmd.cpp).
int cmd_litmus_oracle(const std::vector<std::string>& files, const LitmusFlags& f);
// `vfsmc litmus --generate DIR` (litmus_oracle_cmd.cpp).
int cmd_litmus_generate(const std::vector<std::string>& paths, const LitmusFlags& f);

// A field's accepted values, for `list` and error messages.
std::string type_text(const FieldSpec& f);

}  // namespace vfsmc
