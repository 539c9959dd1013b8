// vfsmc command line (see main.cpp for the exit codes).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "search/engine.h"
#include "contract/model.h"
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

// The shell command that replays a counterexample (with --mutation when
// the run ran under one: the token is valid only under it).
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
    std::string format = "text";
    std::string html;
    // The search: a strategy (empty: dpor), its bound, and a time limit per
    // test in seconds (negative: none, or 60 under --check).
    std::string strategy;
    int bound = -1;
    double time_limit = -1;
    int jobs = 1;          // --check: tests run in parallel processes
    std::string junit;     // --check: also write JUnit XML here
    std::string replay;    // with --witness: replay this witness token
    std::string mutation;  // the layer's mutation the searches run under (a name of kMutations); empty: none
};
// The stale-read cut the full searches take: dpor's default, or the
// test-only one VFSMC_TEST_STALE_CUT names (checked at start-up).
StaleCut test_stale_cut();
// dpor's observed-fence-order rule: the default, or the test-only one
// VFSMC_TEST_FENCE_ORDER names (checked at start-up).
FenceOrder test_fence_order();

int cmd_litmus(const std::vector<std::string>& paths, const LitmusFlags& f);
// `vfsmc litmus --oracle` over the files cmd_litmus found (litmus_oracle_cmd.cpp).
int cmd_litmus_oracle(const std::vector<std::string>& files, const LitmusFlags& f);
// `vfsmc litmus --generate DIR` (litmus_oracle_cmd.cpp).
int cmd_litmus_generate(const std::vector<std::string>& paths, const LitmusFlags& f);

// The options of `run` and `replay`.
struct RunFlags {
    // The search, changed on the command line (run): empty / -1 = the scenario's own.
    std::string strategy;
    int bound = -1;
    std::string memory_model;
    std::vector<std::string> without;
    long seed = -1;
    double time_limit = 0;
    bool brief = false;
    bool json = false;
    bool stable = false;
    bool progress = true;
    bool coverage = false;
    bool first = false;       // no search for the shortest counterexample
    std::string format = "text";
    std::string html;
    std::string email;        // also write the email form to this file
    bool estimate = false;    // a dpor probe of --time-limit seconds (default 10): the search's size
    std::string dot;          // also write the reported execution as a Graphviz graph to this file
    bool source = false;      // text: each step's model source location
    std::string mutation;     // the mutation the models run under (a name of kMutations); empty: none
    int jobs = 0;             // run --jobs: one dpor search over this many worker processes (0: serial)
    bool mpi = false;         // run --mpi: the same over the ranks of an MPI job (built with -DVFSMC_MPI=ON)
    bool no_symmetry = false; // run --no-symmetry: dpor without its identical-threads rule (search/symmetry.h)
};

// Apply `run --strategy/--bound/--memory-model/--without/--seed/--time-limit`
// to a loaded scenario. Returns the changes as "--flag value" words (empty:
// the scenario's own search). Bad values: LoadError, one line.
std::vector<std::string> apply_overrides(Scenario& s, const RunFlags& f);
// A result as `run` prints it (the format f asks for, the files it asks
// for), with its warnings and, when it is not as expected, one line saying
// so on stderr.
void print_result(const Scenario& s, const RunResult& r, const RunFlags& f, const std::vector<std::string>& overrides = {});
// The scenario's `expect`, in words ("violated ref-leak").
std::string expected_text(const Scenario& s);
// A write that failed: LoadError, one line (exit 2).
[[noreturn]] void write_failed(const std::string& where, int err);
// In a child just forked: die with the parent (`sig`), even if the parent
// died before the prctl.
void die_with_parent(pid_t parent, int sig);
// Text for an XML attribute or element (JUnit): printable, escaped, no C0
// control but tab and newline (check_output.cpp).
std::string xml_esc(const std::string& raw);

// `vfsmc run` (cli.cpp).
int cmd_run(const std::vector<std::string>& files, const RunFlags& f);

// `vfsmc check` (check.cpp).
struct CheckOptions {
    int jobs = 2;                // scenarios run in parallel processes
    bool update_counts = false;  // record the counts instead of judging them
    std::string junit;           // also write JUnit XML here
    std::string format = "text"; // text, or github (annotations)
    std::string shard;           // "I/N": run the I-th of N shares of the scenarios (check_shard.cpp)
    std::string mutation;        // the mutation the models run under (a name of kMutations); empty: none
};
int cmd_check(const std::vector<std::string>& paths, const CheckOptions& o);

// `vfsmc replay` (replay.cpp): with `config` (KEY=VALUE), the token's
// schedule against the scenario with that config.
int cmd_replay(const std::string& file, const std::string& token, const RunFlags& f, const std::vector<std::string>& config);

// `vfsmc list` (list.cpp).
struct ListOptions {
    bool memory_model = false;  // the memory-model table
    bool mutations = false;     // the deletions --mutation (or VFSMC_MUTATION) selects
    std::string model;          // only this model; empty: all
    bool json = false;
};
int cmd_list(const ListOptions& o);

// A field's accepted values, for `list` and error messages.
std::string type_text(const FieldSpec& f);

}  // namespace vfsmc
