// vfsmc command line: the options of every command (cli_main), `run` and
// `validate`, and what the commands share: finding scenario files, writing
// output, signals. `check` is in check.cpp, `replay` in replay.cpp, `list`
// in list.cpp, `litmus` in litmus_cmd.cpp.
#include "cli/cli.h"
#include "contract/mutations.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "contract/invariants.h"
#include "report/report.h"
#include "base/printable.h"
#include "commit.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"
#include "search/parallel.h"

namespace vfsmc {

namespace fs = std::filesystem;

bool as_expected(const Scenario& s, const RunResult& r) { return judge(r, s.expect); }

std::string expected_text(const Scenario& s) {
    return std::string(verdict_name(s.expect.verdict)) + (s.expect.invariant.empty() ? "" : " " + s.expect.invariant) +
           (s.expect.scope.empty() ? "" : " (" + s.expect.scope + ")");
}

namespace {

bool is_json_name(const fs::path& f) { return f.extension() == ".json"; }

// Walk a directory: every *.json entry that is (or links to) a regular
// file, and one entry with an error for what cannot be read: an unreadable
// subdirectory, a *.json symlink that loops or dangles, a *.json that is
// not a regular file. Directory symlinks are not followed (as
// recursive_directory_iterator), so a loop of them cannot recurse.
void walk(const fs::path& dir, std::vector<ScenarioEntry>& out) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
        out.push_back({dir.string(), printable(dir.string(), kMaxShownFile) + ": cannot read the directory (" + ec.message() +
                                         "); accepted: a readable directory of scenario files"});
        return;
    }
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const fs::path& f = it->path();
        std::error_code e1, e2;
        fs::file_status ls = it->symlink_status(e1);
        if (e1) continue;  // gone since listed
        if (fs::is_directory(ls)) {
            walk(f, out);
            continue;
        }
        if (!is_json_name(f)) continue;
        fs::file_status st = fs::status(f, e2);
        std::string shown = printable(f.string(), kMaxShownFile);
        if (e2)
            out.push_back({f.string(), shown + ": " + e2.message() + "; accepted: a scenario file (a symlink must resolve to one)"});
        else if (!fs::is_directory(st))
            out.push_back({f.string(), ""});  // the loader rejects what is not a regular file, with its kind
    }
    if (ec)
        out.push_back({dir.string(), printable(dir.string(), kMaxShownFile) + ": cannot read the directory (" + ec.message() +
                                         "); accepted: a readable directory of scenario files"});
}

}  // namespace

std::vector<ScenarioEntry> find_scenarios(const std::vector<std::string>& paths) {
    std::vector<ScenarioEntry> out;
    for (const auto& p : paths) {
        std::error_code ec;
        fs::file_status st = fs::status(p, ec);
        std::string shown = printable(p, kMaxShownFile);
        if (ec) {
            // ELOOP is not "no such file".
            throw LoadError(shown + ": " + (ec == std::errc::no_such_file_or_directory ? std::string("no such file or directory")
                                                                                        : ec.message()) +
                            "; accepted: scenario files (*.json) or directories of them");
        }
        if (fs::is_directory(st)) {
            size_t before = out.size();
            walk(p, out);
            if (out.size() == before)
                throw LoadError(shown + ": no scenario files (*.json) found; accepted: a directory of scenarios");
        } else {
            out.push_back({p, ""});
        }
    }
    std::sort(out.begin(), out.end(), [](const ScenarioEntry& a, const ScenarioEntry& b) { return a.file < b.file; });
    return out;
}

std::vector<std::string> collect_scenarios(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& e : find_scenarios(paths)) {
        if (!e.error.empty()) throw LoadError(e.error);
        out.push_back(e.file);
    }
    return out;
}

ReplayCommand replay_command(const Scenario& s, const RunResult& r) {
    // A mutation changes the model's code: the token is only valid with it
    // (token.cpp hashes it), so the command names it.
    return {"vfsmc replay " + shell_word(s.file), r.token, r.mutation.empty() ? "" : " --mutation " + shell_word(r.mutation)};
}

// Apply `run --strategy/--bound/--memory-model/--without/--seed/--time-limit`
// to a loaded scenario. Returns the changes as "--flag value" words (empty:
// the scenario's own search). Bad values: LoadError, one line.
std::vector<std::string> apply_overrides(Scenario& s, const RunFlags& f) {
    std::vector<std::string> changed;
    auto bad = [&](const std::string& flag, const std::string& value, const std::string& accepted) {
        throw LoadError("vfsmc run: " + flag + ": bad value \"" + printable(value, kMaxShownValue) + "\"; accepted: " + accepted);
    };
    if (!f.strategy.empty()) {
        Strategy st;
        if (!parse_strategy(f.strategy, st)) {
            std::string hint = suggest_name(f.strategy, strategy_list());
            bad("--strategy", f.strategy, (hint.empty() ? "" : "did you mean \"" + hint + "\"? ") + strategy_names());
        }
        s.search.strategy = st;
        changed.push_back("--strategy " + f.strategy);
    }
    if (f.bound >= 0) {
        if (f.strategy.empty()) s.search.strategy = Strategy::bounded;
        if (s.search.strategy != Strategy::bounded)
            bad("--bound", std::to_string(f.bound), "a preemption bound only with --strategy bounded");
        s.search.preemption_bound = f.bound;
        changed.push_back("--bound " + std::to_string(f.bound));
    }
    if (f.seed >= 0) {
        if (f.strategy.empty()) s.search.strategy = Strategy::random;
        if (s.search.strategy != Strategy::random) bad("--seed", std::to_string(f.seed), "a seed only with --strategy random");
        s.search.seed = f.seed;
        changed.push_back("--seed " + std::to_string(f.seed));
    }
    if (f.time_limit > 0) {
        s.search.time_limit_s = f.time_limit;
        changed.push_back("--time-limit " + strprintf("%g", f.time_limit));
    }
    if (!f.memory_model.empty()) {
        if (!parse_memory_model(f.memory_model, s.memory_model)) bad("--memory-model", f.memory_model, "sc, kernel");
        changed.push_back("--memory-model " + f.memory_model);
    }
    std::vector<std::string> left_out;
    for (const auto& w : f.without) {
        auto it = std::find(s.invariants.begin(), s.invariants.end(), w);
        if (it == s.invariants.end()) {
            std::string hint = suggest_name(w, s.invariants);
            std::string acc;
            for (const auto& i : s.invariants) acc += (acc.empty() ? "" : ", ") + i;
            bad("--without", w, (hint.empty() ? "" : "did you mean \"" + hint + "\"? ") + "an invariant the scenario enables: " + acc);
        }
        s.invariants.erase(it);
        changed.push_back("--without " + w);
        left_out.push_back(w);
    }
    // The invariants checked decide where a search stops and what it
    // reports: a token found without some is valid only without them (its
    // hash covers the behaviour key), so `replay` takes the same --without.
    std::sort(left_out.begin(), left_out.end());
    for (const auto& w : left_out) s.behaviour += "|without:" + w;
    if (!changed.empty() && s.invariants.empty())
        throw LoadError("vfsmc run: --without: every invariant left out; accepted: leave at least one enabled");
    return changed;
}

// A write that failed: one line, exit 2 (the path the user gave, or stdout,
// cannot take the output).
[[noreturn]] void write_failed(const std::string& where, int err) {
    throw LoadError(printable(where, kMaxShownFile) + ": cannot write (" + std::strerror(err ? err : EIO) +
                    "); accepted: a writable " + (where == "stdout" ? "standard output" : "file path"));
}

void write_file(const std::string& path, const std::string& text) {
    errno = 0;
    std::ofstream out(path, std::ios::binary);
    if (!out) write_failed(path, errno);
    out << text;
    out.flush();
    int e = errno;
    out.close();
    if (out.fail()) write_failed(path, e ? e : errno);
}

std::string bad_input_line(const std::string& what) { return "error: " + error_line(what); }

// Everything for stdout goes through here: a failed write (a full disk,
// a closed pipe end) is an error, never a silent exit 0.
void out_text(const std::string& text) {
    errno = 0;
    std::cout << text;
    std::cout.flush();
    if (!std::cout) write_failed("stdout", errno);
}

namespace {

// run --coverage in text: the count, the steps the scenario selects away
// (grouped by why), then the steps missed.
std::string coverage_text(StepCoverage c) {
    std::stable_sort(c.selected_away.begin(), c.selected_away.end(),
                     [](const StepCoverage::SelectedAway& a, const StepCoverage::SelectedAway& b) { return a.why < b.why; });
    std::string t = "coverage: " + std::to_string(c.reached) + " of " + std::to_string(c.total) + " model steps reached";
    if (!c.selected_away.empty()) t += "; " + std::to_string(c.selected_away.size()) + " selected away by the scenario";
    t += "; " + std::to_string(c.missed.size()) + " never reached\n";
    for (size_t i = 0; i < c.selected_away.size();) {
        const auto& a = c.selected_away[i];
        std::string steps;
        for (; i < c.selected_away.size() && c.selected_away[i].why == a.why; i++)
            steps += (steps.empty() ? "" : ", ") + c.selected_away[i].step;
        t += "  selected away (" + a.why + "): " + steps + "\n";
    }
    for (const auto& st : c.missed) t += "  never reached: " + st + "\n";
    return t;
}

}  // namespace

void print_result(const Scenario& s, const RunResult& r, const RunFlags& f, const std::vector<std::string>& overrides) {
    ReportOptions o;
    o.stable = f.stable;
    o.brief = f.brief;
    o.source = f.source;
    o.overrides = overrides;
    o.replay = replay_command(s, r);
    for (const auto& w : overrides)
        if (w.compare(0, 10, "--without ") == 0) o.replay.tail += " " + w;
    // Terminal text (text and email) is made printable line by line: names,
    // docs and op arguments come from the scenario file. JSON and HTML
    // escape for themselves.
    if (!f.html.empty()) write_file(f.html, html_report(s, r, o));
    if (!f.email.empty()) write_file(f.email, printable_lines(email_report(s, r, o)));
    if (!f.dot.empty()) write_file(f.dot, dot_report(s, r, o));
    std::vector<std::string> vac = vacuous_steps(s, r);
    if (!overrides.empty() && !(f.json || f.format == "json")) out_text(printable_lines(override_note(o) + "\n\n"));
    if (f.json || f.format == "json") {
        nlohmann::json j = json_report(s, r, o);
        if (f.coverage) {
            StepCoverage c = step_coverage(s, r);
            j["never_reached"] = c.missed;
            j["selected_away"] = nlohmann::json::array();
            for (const auto& a : c.selected_away)
                j["selected_away"].push_back({{"step", a.step}, {"why", a.why}});
        }
        out_text(json_printable(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n");
    } else if (f.format == "email") {
        out_text(printable_lines(email_report(s, r, o)));
    } else {
        std::string text = text_report(s, r, o);
        if (r.verdict == Verdict::violated) text += summary_line(s, r, f.stable) + "\n";
        out_text(printable_lines(text));
    }
    std::string file = printable(s.file, kMaxShownFile);
    for (const auto& st : vac)
        std::cerr << file << ": warning: vacuous: the scenario names step " << st
                  << " but no explored execution reached it\n";
    for (const auto& w : order_without_hb(s, r)) std::cerr << file << ": warning: " << printable(w, 4000) << "\n";
    if (f.coverage)
        for (const auto& a : step_coverage(s, r).against_needs)
            std::cerr << file << ": warning: step needs: " << a.step << " was reached, but " << a.why << " (models/"
                      << printable(s.model, kMaxShownValue) << ")\n";
    // An interrupted search says so itself (run_one): one line, not two.
    if (!as_expected(s, r) && !stop_requested) {
        std::cerr << file << ": expected " << printable(expected_text(s), kMaxShownValue) << ", got " << verdict_with_scope(r)
                  << (r.invariant.empty() ? "" : " " + r.invariant) << "\n";
    }
}

// SIGINT and SIGTERM: the engine stops at its next execution, `check`
// kills its children and prints what had finished.
extern "C" void on_stop_signal(int sig) { stop_requested = sig; }

void catch_stop_signals() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocking wait returns EINTR
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

// The exit status of a run cut short by a signal, as a shell reports it.
int stopped_status() { return 128 + (int)stop_requested; }

void die_with_parent(pid_t parent, int sig) {
    prctl(PR_SET_PDEATHSIG, sig);
    if (getppid() != parent) _exit(3);
}

namespace {

// The test-only values of VFSMC_TEST_STALE_CUT (search/stale_cut.h):
// `local`, the cuts of one data node only, which the benchmarks compare
// with; the reorder cut without one of its premises (search/reorder_cut.h):
// `reorder-source` (1, the store read ran before the missed one's step),
// `reorder-unsound` (2, no step of the reading thread follows the missed
// store), `reorder-step` (3, the step's other accesses commute with what
// follows the missed store), `reorder-await` (4, no wait condition's read),
// `reorder-promises` (5, no promise made). tests/cli.bats catches the
// variants of premises 1, 2 and 5, and tests/mutation_oracle.py that of 2;
// those of 3 and 4 change nothing on any input of the repository yet
// (bench/results.md).
struct NamedCut {
    const char* name;
    StaleCut cut;
};
constexpr NamedCut kTestStaleCuts[] = {
    {"local", StaleCut::duplicates},          {"reorder-source", StaleCut::reorder_source},
    {"reorder-unsound", StaleCut::reorder_unsound}, {"reorder-step", StaleCut::reorder_step},
    {"reorder-await", StaleCut::reorder_await},     {"reorder-promises", StaleCut::reorder_promises}};

const NamedCut* named_stale_cut(const char* c) {
    for (const NamedCut& n : kTestStaleCuts)
        if (std::strcmp(c, n.name) == 0) return &n;
    return nullptr;
}

}  // namespace

// The stale-read cut of `run` and `litmus`: dpor's default, or the
// test-only one VFSMC_TEST_STALE_CUT names (checked at start-up,
// check_environment()).
StaleCut test_stale_cut() {
    const char* c = std::getenv("VFSMC_TEST_STALE_CUT");
    const NamedCut* n = c ? named_stale_cut(c) : nullptr;
    return n ? n->cut : StaleCut::reorder;
}

// dpor's observed-fence-order rule for `run` and `litmus`
// (search/fence_order.h): observed, or VFSMC_TEST_FENCE_ORDER=all to order
// every two strong fences, or =mutant, the test-only unsound mutation.
// Checked at start-up (check_environment()).
FenceOrder test_fence_order() {
    const char* c = std::getenv("VFSMC_TEST_FENCE_ORDER");
    if (!c || !*c) return FenceOrder::observed;
    return std::strcmp(c, "all") == 0 ? FenceOrder::all : FenceOrder::mutant;
}

namespace {

// `run --jobs N`: the parallel search's options, with its test-only
// switches from the environment (checked at start-up, check_environment):
// VFSMC_TEST_DROP_UPWARD=1 drops the backtrack points found above a
// piece's root (the mutation tests/parallel.bats shows is caught),
// VFSMC_TEST_KILL_WORKER=N kills a busy worker with SIGKILL after N
// executions, VFSMC_TEST_WORKER_EXIT=I makes worker I (from 0) exit
// before it is ready.
ParallelOptions parallel_options(const RunFlags& f) {
    ParallelOptions p;
    p.jobs = f.jobs;
    p.progress = f.progress && isatty(2);
    const char* d = std::getenv("VFSMC_TEST_DROP_UPWARD");
    p.drop_upward = d && std::strcmp(d, "1") == 0;
    if (const char* k = std::getenv("VFSMC_TEST_KILL_WORKER"); k && *k) p.kill_worker_after = std::strtoull(k, nullptr, 10);
    if (const char* w = std::getenv("VFSMC_TEST_WORKER_EXIT"); w && *w) p.fail_worker = std::atoi(w);
    return p;
}

// dpor's commuting-adds rule for `run` (search/commute.h): on, or
// VFSMC_TEST_COMMUTE=off to measure a search without it, or =mutant, the
// test-only unsound mutation. Checked at start-up (cli_main).
Commute test_commute() {
    const char* c = std::getenv("VFSMC_TEST_COMMUTE");
    if (!c || !*c) return Commute::on;
    return std::strcmp(c, "off") == 0 ? Commute::off : Commute::mutant;
}

// dpor's identical-threads rule for `run` (search/symmetry.h): on, or off
// with --no-symmetry (or VFSMC_TEST_SYMMETRY=off), or =mutant, the test-only
// unsound mutation. The variable is checked at start-up (cli_main).
Symmetry run_symmetry(const RunFlags& f) {
    if (f.no_symmetry) return Symmetry::off;
    const char* c = std::getenv("VFSMC_TEST_SYMMETRY");
    if (!c || !*c) return Symmetry::on;
    return std::strcmp(c, "off") == 0 ? Symmetry::off : Symmetry::mutant;
}

// `run --estimate`: how large is the dpor search of this scenario? A probe
// of --time-limit seconds (10 by default) prints the estimated number of
// executions of the whole search and the time it would take at the probe's
// rate, with the spread of the estimate over the probe's second half
// (dpor.h, explored_share). A search that ends within the probe prints its
// verdict and exact count as `run` does.
constexpr double kEstimateProbeSeconds = 10;

int estimate_one(const std::string& file, Scenario& s, const RunFlags& f, const std::vector<std::string>& overrides) {
    if (f.jobs > 0) throw LoadError("--jobs: not with --estimate; accepted: --estimate alone (its probe runs on one core)");
    if (f.mpi) throw LoadError("--mpi: not with --estimate; accepted: --estimate alone (its probe runs on one core)");
    if (s.search.strategy != Strategy::dpor)
        throw LoadError(printable(file, kMaxShownFile) + ": search.strategy: --estimate: bad value \"" +
                        std::string(strategy_name(s.search.strategy)) +
                        "\"; accepted: a dpor search (the scenario's own, or --strategy dpor)");
    if (f.time_limit <= 0) s.search.time_limit_s = kEstimateProbeSeconds;
    s.search.max_executions = 0;
    RunOptions opt;
    opt.progress = f.progress && isatty(2);
    opt.minimize = false;
    opt.stale_cut = test_stale_cut();
    opt.commute = test_commute();
    opt.fence_order = test_fence_order();
    opt.symmetry = run_symmetry(f);
    opt.mutation = f.mutation;
    RunResult r = run_scenario(s, opt);
    if (!r.limit_hit || r.estimate <= 0) {
        print_result(s, r, f, overrides);
        return as_expected(s, r) ? 0 : 1;
    }
    double rate = r.execs_per_sec;
    auto secs = [&](double n) { return rate > 0 ? n / rate : 0.0; };
    auto count = [](double n) {
        if (n >= 1e9) return strprintf("%.3g billion", n / 1e9);
        if (n >= 1e6) return strprintf("%.3g million", n / 1e6);
        if (n >= 1e4) return strprintf("%.3g thousand", n / 1e3);
        return strprintf("%.0f", n);
    };
    out_text(strprintf("estimate: %s: about %s executions in the whole dpor search (%s to %s over the second half of the "
                       "probe), about %.0f s (%.0f to %.0f s) at the probe's %.0f executions/s; the probe ran %llu "
                       "executions in %.1f s, so its own verdict is inconclusive (memory model %s)\n",
                       printable(s.name, kMaxShownValue).c_str(), count(r.estimate).c_str(), count(r.estimate_low).c_str(),
                       count(r.estimate_high).c_str(), secs(r.estimate), secs(r.estimate_low), secs(r.estimate_high), rate,
                       (unsigned long long)r.executions, r.seconds, r.memory_model.c_str()));
    return 0;
}

int run_one(const std::string& file, const RunFlags& f) {
    Scenario s = load_scenario(file);
    std::vector<std::string> overrides = apply_overrides(s, f);
    if (f.estimate) return estimate_one(file, s, f, overrides);
    for (const auto& w : s.warnings) std::fprintf(stderr, "warning: %s\n", printable(w, 4000).c_str());
    RunOptions opt;
    opt.progress = f.progress && isatty(2);
    opt.minimize = !f.first;
    opt.stale_cut = test_stale_cut();
    opt.commute = test_commute();
    opt.fence_order = test_fence_order();
    opt.symmetry = run_symmetry(f);
    opt.mutation = f.mutation;
    if (f.mpi && f.jobs > 0)
        throw LoadError("--mpi: not with --jobs; accepted: one of them (under MPI the ranks are the workers: mpirun -n N)");
    bool mpi_worker = false;
    RunResult r = f.mpi ? run_mpi(s, opt, parallel_options(f), mpi_worker)
                  : f.jobs > 0 ? run_parallel(s, opt, parallel_options(f))
                               : run_scenario(s, opt);
    print_result(s, r, f, overrides);
    // With --json the coverage is in the JSON object (never_reached): one
    // JSON document on stdout.
    if (f.coverage && !(f.json || f.format == "json")) out_text(coverage_text(step_coverage(s, r)));
    if (stop_requested) {
        std::cerr << printable(file, kMaxShownFile) << ": interrupted by signal " << (int)stop_requested
                  << ": the result above is inconclusive, " << r.executions << " executions explored\n";
        return stopped_status();
    }
    return as_expected(s, r) ? 0 : 1;
}

// `run` over several files: each scenario in a process of its own, as in
// `check`, so that memory Relacy keeps per simulation (about 340 KiB per
// violated scenario) goes back with the process instead of growing over
// hundreds of files.
int run_each_in_a_child(const std::string& file, const RunFlags& f) {
    std::cout.flush();
    std::cerr.flush();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        die_with_parent(parent, SIGTERM);  // prints its partial result
        int rc;
        try {
            rc = run_one(file, f);
        } catch (const LoadError& e) {
            std::fprintf(stderr, "%s\n", bad_input_line(e.what()).c_str());
            rc = 2;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "internal error: %s\n", error_line(e.what()).c_str());
            rc = 3;
        }
        std::cout.flush();
        std::fflush(nullptr);
        _exit(rc);
    }
    int st = 0;
    bool forwarded = false;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
        // A signal to this process alone: pass it on, the child prints its
        // partial result.
        if (stop_requested && !forwarded) {
            kill(pid, (int)stop_requested);
            forwarded = true;
        }
    }
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    if (stop_requested) return stopped_status();
    throw std::runtime_error(printable(file, kMaxShownFile) + ": the checker died (signal " + std::to_string(WTERMSIG(st)) + ")");
}

}  // namespace

int cmd_run(const std::vector<std::string>& files, const RunFlags& f) {
    std::vector<std::string> all = collect_scenarios(files);
    catch_stop_signals();
    if (all.size() == 1) return run_one(all[0], f);
    int rc = 0;
    for (const auto& file : all) {
        int r = run_each_in_a_child(file, f);
        if (r >= 2) return r;  // bad input, an internal error, or interrupted: stop
        rc = std::max(rc, r);
        if (stop_requested) return stopped_status();
    }
    return rc;
}


std::string type_text(const FieldSpec& f) {
    switch (f.type) {
        case ArgType::Str: return "string";
        case ArgType::Int: return "int " + std::to_string(f.min) + ".." + std::to_string(f.max);
        case ArgType::Bool: return "bool";
        case ArgType::Enum: {
            std::string s;
            for (size_t i = 0; i < f.allowed.size(); i++) s += (i ? ", \"" : "one of \"") + f.allowed[i] + "\"";
            return s;
        }
    }
    return "?";
}

namespace {

// Every option of every command, as parsed: each command's flags travel as
// one value to the function that runs it.
struct Args {
    RunFlags rf;  // run and replay
    std::vector<std::string> run_files, check_paths, validate_files, litmus_paths, replay_config;
    CheckOptions check;
    std::string replay_file, replay_token;
    bool no_progress = false;
    ListOptions list;
    LitmusFlags lf;
    // --mutation, of the commands that run the models.
    std::string mutation;
    std::vector<CLI::Option*> mutation_options;
    // Options naming an output file: an empty name is refused.
    std::vector<CLI::Option*> file_options;
};

const char* const kMutationHelp = "run the models with this deletion (vfsmc list --mutations); default: VFSMC_MUTATION";

CLI::App* add_run(CLI::App& app, Args& a) {
    RunFlags& rf = a.rf;
    auto* run = app.add_subcommand("run", "run scenarios and print their verdicts and counterexamples");
    run->add_option("files", a.run_files, "scenario files or directories")->required();
    run->add_flag("--json", rf.json, "print the versioned JSON result instead of text");
    run->add_flag("--stable", rf.stable, "leave out timings (for golden files)");
    run->add_flag("--coverage", rf.coverage,
                  "list the model steps never reached, apart from those the scenario selects away (a step needs a knob or init value, or an op, it does not choose)");
    run->add_flag("--no-progress", a.no_progress, "no progress lines on stderr");
    run->add_option("--format", rf.format, "text, email (72 columns, one column per thread) or json")
        ->check(CLI::IsMember({"text", "email", "json"}));
    a.file_options.push_back(run->add_option("--html", rf.html, "also write a self-contained HTML swimlane page to this file"));
    a.file_options.push_back(run->add_option("--email", rf.email, "also write the 72-column email form to this file"));
    a.file_options.push_back(run->add_option(
        "--dot", rf.dot,
        "also write the reported execution as a Graphviz graph to this file (steps as nodes; po, rf, the conflict as edges)"));
    run->add_flag("--source", rf.source, "show each step's model source location (file:line) in the text report");
    run->add_flag("--first", rf.first, "report the first counterexample found, not the shortest");
    run->add_flag("--estimate", rf.estimate,
                  "estimate the size of the dpor search from a probe of --time-limit seconds (default 10)");
    run->add_flag("--brief", rf.brief, "leave out the full interleaving (In short, final state, counts, replay)");
    run->add_flag("--no-symmetry", rf.no_symmetry,
                  "dpor without its identical-threads rule: threads with the same ops start in any order");
    run->add_option("--strategy", rf.strategy, "search strategy instead of the scenario's: " + strategy_names());
    run->add_option("--bound", rf.bound, "preemption bound (implies --strategy bounded)")->check(CLI::Range(0L, kMaxPreemptionBound));
    run->add_option("--memory-model", rf.memory_model, "memory model instead of the scenario's: sc, kernel");
    run->add_option("--without", rf.without, "leave this invariant out (repeatable)");
    run->add_option("--seed", rf.seed, "random seed (implies --strategy random)")->check(CLI::Range(0L, kMaxSeed));
    run->add_option("--time-limit", rf.time_limit, "stop the search after this many seconds")->check(CLI::PositiveNumber);
    run->add_option("--jobs", rf.jobs,
                    "one dpor search over this many worker processes (1-64; the coordinator is one more, mostly idle). "
                    "`check -j` runs scenarios side by side instead: do not use both, or use j * jobs <= cores")
        ->check(CLI::Range(1, 64));
    run->add_flag("--mpi", rf.mpi,
                  std::string("the --jobs search over the ranks of an MPI job: mpirun -n N vfsmc run --mpi FILE (rank 0 coordinates)") +
                      (mpi_built() ? "" : "; this build has no MPI (cmake -DVFSMC_MPI=ON)"));
    a.mutation_options.push_back(run->add_option("--mutation", a.mutation, kMutationHelp));
    return run;
}

CLI::App* add_check(CLI::App& app, Args& a) {
    auto* check = app.add_subcommand("check", "the regression run: judge every scenario by its expect");
    check->add_option("paths", a.check_paths, "directories or files")->required();
    check->add_option("-j,--jobs", a.check.jobs, "scenarios run in parallel processes")->check(CLI::Range(1, 64));
    check->add_flag("--update-counts", a.check.update_counts,
                    "record each scenario's exploration count in <dir>/explorations.lock");
    check->add_option("--junit", a.check.junit, "also write JUnit XML (one test case per scenario) to this file");
    check->add_option("--format", a.check.format, "text, or github (::error annotations for GitHub Actions)")
        ->check(CLI::IsMember({"text", "github"}));
    check->add_option("--shard", a.check.shard,
                      "I/N: run only the I-th of N shares of the scenarios (a CI matrix or a job array; "
                      "the shares are balanced by the recorded counts)");
    a.mutation_options.push_back(check->add_option("--mutation", a.mutation, kMutationHelp));
    return check;
}

CLI::App* add_replay(CLI::App& app, Args& a) {
    RunFlags& rf = a.rf;
    auto* replay = app.add_subcommand("replay", "replay a counterexample from its token");
    replay->add_option("file", a.replay_file, "the scenario")->required();
    replay->add_option("token", a.replay_token, "the replay token printed with the counterexample")->required();
    replay->add_flag("--json", rf.json, "print the JSON result");
    replay->add_flag("--stable", rf.stable, "leave out timings");
    replay->add_option("--format", rf.format, "text, email or json")->check(CLI::IsMember({"text", "email", "json"}));
    a.file_options.push_back(replay->add_option("--html", rf.html, "also write the HTML swimlane page to this file"));
    a.file_options.push_back(replay->add_option("--dot", rf.dot, "also write the execution as a Graphviz graph to this file"));
    replay->add_flag("--source", rf.source, "show each step's model source location (file:line) in the text report");
    replay->add_flag("--brief", rf.brief, "leave out the full interleaving");
    replay->add_option("--without", rf.without, "leave this invariant out, as the run that printed the token did (repeatable)");
    replay->add_option("--config", a.replay_config,
                       "KEY=VALUE: replay the schedule against the scenario with this config (repeatable)");
    a.mutation_options.push_back(
        replay->add_option("--mutation", a.mutation, "the deletion the run that printed the token ran with (vfsmc list --mutations)"));
    return replay;
}

CLI::App* add_list(CLI::App& app, Args& a) {
    auto* list = app.add_subcommand("list", "the models, with their ops, knobs and invariants");
    list->add_flag("--memory-model", a.list.memory_model, "print the memory-model table (docs/memory-model.md)");
    list->add_flag("--mutations", a.list.mutations, "print the deletions --mutation (or VFSMC_MUTATION) selects");
    list->add_option("--model", a.list.model, "only this model");
    list->add_flag("--json", a.list.json, "the models as one JSON object: ops, knobs, init fields, invariants, steps");
    return list;
}

CLI::App* add_litmus(CLI::App& app, Args& a) {
    LitmusFlags& lf = a.lf;
    auto* lit = app.add_subcommand("litmus", "run herd7 C litmus tests under the kernel memory model (herd7's Always/Sometimes/Never)");
    lit->add_option("paths", a.litmus_paths, "litmus tests (*.litmus) or directories of them")->required();
    lit->add_flag("--check", lf.check, "compare each answer with the test's `Result:` line: N agree, N differ, N unsupported");
    lit->add_flag("--table", lf.table, "with --check: print the agreement table (docs/memory-model.md) instead of one line per test");
    lit->add_flag("--witness", lf.witness, "also print a trace of one execution satisfying the condition");
    lit->add_flag("--first", lf.first, "the first witness found, not the shortest");
    lit->add_flag("--stable", lf.stable, "leave out timings");
    lit->add_option("--format", lf.format, "the witness report: text, email (72 columns) or json")
        ->check(CLI::IsMember({"text", "email", "json"}));
    a.file_options.push_back(lit->add_option("--html", lf.html, "with --witness: also write the HTML swimlane page to this file"));
    lit->add_flag("--oracle", lf.oracle, "answer with the executable LKMM (linux-kernel.cat in C++), as herd7 does");
    lit->add_flag("--generate", lf.generate, "write the generated cycle tests (diy7-like) into the directory given, each with the oracle's Result:");
    lit->add_option("--strategy", lf.strategy, "the search: dpor (the default), exhaustive, bounded, random or pct")
        ->check(CLI::IsMember(strategy_list()));
    lit->add_option("--bound", lf.bound, "with --strategy bounded: the preemption bound")->check(CLI::Range(0, 100));
    lit->add_option("--time-limit", lf.time_limit,
                    "stop each test's search after this many seconds: `inconclusive` (default: none; 60 with --check)")
        ->check(CLI::PositiveNumber);
    lit->add_option("-j,--jobs", lf.jobs, "with --check: tests run in parallel processes")->check(CLI::Range(1, 64));
    a.file_options.push_back(
        lit->add_option("--junit", lf.junit, "with --check: also write JUnit XML (one test case per litmus test) to this file"));
    lit->add_option("--replay", lf.replay, "with --witness and one test: replay the witness with this token");
    a.mutation_options.push_back(lit->add_option("--mutation", a.mutation, kMutationHelp));
    return lit;
}

// An unknown command: say which one was meant.
void reject_unknown_command(int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return;
    std::vector<std::string> cmds = {"run", "check", "replay", "list", "validate", "schema", "litmus"};
    if (std::find(cmds.begin(), cmds.end(), argv[1]) != cmds.end()) return;
    std::string hint = suggest_name(argv[1], cmds);
    throw LoadError(std::string("vfsmc: unknown command \"") + printable(argv[1], kMaxShownValue) + "\"" +
                    (hint.empty() ? ";" : "; did you mean \"" + hint + "\"?") +
                    " accepted: run, check, replay, list, validate, schema, litmus (vfsmc --help)");
}

// A usage error: exit 2 after CLI11's message; --help and --version: exit
// 0 after theirs, on stdout, where a failed write is exit 2.
int parse_error(CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
    // A file whose name starts with '-' is read as an option: say so, and
    // how to pass it.
    for (int i = 1; i < argc && e.get_exit_code() != 0; i++) {
        std::error_code ec;
        if (argv[i][0] == '-' && std::strcmp(argv[i], "--") != 0 && fs::exists(argv[i], ec)) {
            std::string a = printable(argv[i], kMaxShownFile);
            throw LoadError(a + ": a file name that starts with '-' is read as an option; accepted: ./" + a +
                            ", or `--` before the file names");
        }
    }
    int code = app.exit(e);
    errno = 0;
    std::cout.flush();
    if (!std::cout) write_failed("stdout", errno);
    return code == 0 ? 0 : 2;
}

// The environment's switches, checked before anything runs.
void check_environment() {
    // The test-only stale-read cuts (test_stale_cut()).
    if (const char* c = std::getenv("VFSMC_TEST_STALE_CUT"); c && *c && !named_stale_cut(c)) {
        std::string accepted;
        for (const NamedCut& n : kTestStaleCuts)
            accepted += std::string(accepted.empty() ? "" : &n == std::end(kTestStaleCuts) - 1 ? " or " : ", ") + n.name;
        throw LoadError(std::string("VFSMC_TEST_STALE_CUT: unknown cut \"") + printable(c, kMaxShownValue) + "\"; accepted: " +
                        accepted + " (test-only), or unset");
    }
    // The parallel search's test-only switches (parallel_options()), and
    // litmus's grace periods with their words kept (litmus::Options::gp_words).
    for (const char* name : {"VFSMC_TEST_DROP_UPWARD", "VFSMC_TEST_GP_WORDS"})
        if (const char* c = std::getenv(name); c && *c && std::strcmp(c, "1") != 0)
            throw LoadError(std::string(name) + ": bad value \"" + printable(c, kMaxShownValue) +
                            "\"; accepted: 1 (test-only), or unset");
    // litmus's grace periods with their end and full barrier in two steps
    // (litmus::Options::gp_end_split).
    if (const char* c = std::getenv("VFSMC_TEST_GP_END"); c && *c && std::strcmp(c, "split") != 0)
        throw LoadError(std::string("VFSMC_TEST_GP_END: bad value \"") + printable(c, kMaxShownValue) +
                        "\"; accepted: split (test-only), or unset");
    for (const char* name : {"VFSMC_TEST_KILL_WORKER", "VFSMC_TEST_WORKER_EXIT"})
        if (const char* c = std::getenv(name); c && *c && std::strspn(c, "0123456789") != std::strlen(c))
            throw LoadError(std::string(name) + ": bad value \"" + printable(c, kMaxShownValue) +
                            "\"; accepted: a number (test-only), or unset");
    // dpor's test-only switches, each `off` (the search without the rule)
    // or `mutant` (the rule's unsound mutation, which the tests must
    // notice): VFSMC_TEST_COMMUTE (search/commute.h; `run`),
    // VFSMC_TEST_SYMMETRY (search/symmetry.h; off is `run --no-symmetry`),
    // VFSMC_TEST_REFUSED (search/refused.h; `litmus`; also `end`, the
    // rule that ends the execution at the refusal),
    // VFSMC_TEST_KEPT_CUT (search/kept_cut.h; `litmus`),
    // VFSMC_TEST_FENCE_ORDER (search/fence_order.h; `run` and `litmus`;
    // `all` rather than `off`: every two fences ordered),
    // VFSMC_TEST_CLOSE (litmus::Options::close_stores; `litmus`) and
    // VFSMC_TEST_MB_PROMISE (litmus::Options::barrier_promise; `litmus`).
    // Each switch with the values it accepts, in the order the error names them.
    struct Switch {
        const char* name;
        std::vector<const char*> values;
    };
    static const Switch kSwitches[] = {
        {"VFSMC_TEST_COMMUTE", {"off", "mutant"}},
        {"VFSMC_TEST_SYMMETRY", {"off", "mutant"}},
        {"VFSMC_TEST_REFUSED", {"off", "end", "mutant"}},
        {"VFSMC_TEST_KEPT_CUT", {"off", "mutant"}},
        {"VFSMC_TEST_FENCE_ORDER", {"all", "mutant"}},
        {"VFSMC_TEST_CLOSE", {"off", "locations", "value-mutant", "mutant"}},
        {"VFSMC_TEST_MB_PROMISE", {"off", "mutant"}},
    };
    for (const Switch& sw : kSwitches) {
        const char* c = std::getenv(sw.name);
        if (!c || !*c) continue;
        std::string accepted;
        bool known = false;
        for (const char* v : sw.values) {
            known |= std::strcmp(c, v) == 0;
            accepted += std::string(accepted.empty() ? "" : ", ") + v;
        }
        if (!known)
            throw LoadError(std::string(sw.name) + ": unknown value \"" + printable(c, kMaxShownValue) + "\"; accepted: " +
                            accepted + " (test-only), or unset");
    }
}

// The mutation the models run under (contract/mutations.h): --mutation, or
// else VFSMC_MUTATION, the way scripts/mutate and tests/mutation_oracle.py
// select one for a whole `check`. Checked against the table before anything
// runs, whatever the command; it travels in the run's options from here.
std::string chosen_mutation(const Args& a) {
    bool flag = false;
    for (const auto* o : a.mutation_options) flag |= o->count() > 0;
    const char* env = std::getenv("VFSMC_MUTATION");
    std::string name = flag ? a.mutation : env && *env ? env : "";
    if ((flag && name.empty()) || (!name.empty() && !find_mutation(name.c_str()))) {
        // The table is too long for one line: the hint, and where the names are.
        std::vector<std::string> names;
        for (const auto& k : kMutations) names.push_back(k.name);
        std::string hint = name.empty() ? "" : suggest_name(name, names);
        throw LoadError(std::string(flag ? "--mutation" : "VFSMC_MUTATION") + ": unknown mutation \"" +
                        printable(name, kMaxShownValue) + "\"; " + (hint.empty() ? "" : "did you mean \"" + hint + "\"? ") +
                        "accepted: one of the " + std::to_string(names.size()) + " names `vfsmc list --mutations` prints");
    }
    return name;
}

// `vfsmc validate`: every file is checked, one line for each bad one, exit
// 2 if any.
int cmd_validate(const std::vector<std::string>& paths) {
    int rc = 0;
    std::vector<ScenarioEntry> entries;
    for (const auto& p : paths) {
        try {
            for (auto& e : find_scenarios({p})) entries.push_back(std::move(e));
        } catch (const LoadError& err) {
            entries.push_back({p, err.what()});
        }
    }
    for (const auto& e : entries) {
        try {
            if (!e.error.empty()) throw LoadError(e.error);
            Scenario s = load_scenario(e.file);
            for (const auto& w : s.warnings) std::fprintf(stderr, "warning: %s\n", printable(w, 4000).c_str());
            out_text("valid: " + printable(e.file, kMaxShownFile) + "\n");
        } catch (const LoadError& err) {
            std::fprintf(stderr, "%s\n", bad_input_line(err.what()).c_str());
            rc = 2;
        }
    }
    return rc;
}

}  // namespace

int cli_main(int argc, char** argv) {
    CLI::App app{"vfsmc: a concurrency model checker for Linux VFS locking and reference counting"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("vfsmc ") + VFSMC_VERSION + " (commit " + VFSMC_COMMIT + ")");
    // The man page (cmake/man.cmake) has its own EXAMPLES, with the
    // installed scenarios' paths: help2man reads `--help-man`, the help
    // without the examples.
    const std::string examples =
        "Examples:\n"
        "  vfsmc run scenarios/dcache/shared-d-rehash-notes-race.json\n"
        "  vfsmc run --format email --brief FILE      # In short, for a review email\n"
        "  vfsmc run --html page.html FILE            # the swimlane page\n"
        "  vfsmc run --strategy bounded --bound 1 FILE\n"
        "  vfsmc replay FILE TOKEN --config publish=d_splice_alias   # a dcache schedule against the fix\n"
        "  vfsmc run --source --dot graph.dot FILE    # source lines; the execution as a graph\n"
        "  vfsmc check scenarios/ -j2 --junit results.xml\n"
        "  vfsmc run --jobs 2 scenarios/chrdev/concurrent-first-open-v2-third-opener.json   # one dpor search, 2 processes\n"
        "  vfsmc list\n";
    const std::string exit_docs =
        "Exit codes: 0 as expected, 1 a verdict differs, 2 bad input, 3 internal error.\n"
        "Docs: README.md, docs/scenario-format.md, docs/result-format.md; man vfsmc.";
    bool for_man = argc == 2 && std::strcmp(argv[1], "--help-man") == 0;
    app.footer(for_man ? exit_docs : examples + "\n" + exit_docs);
    Args a;
    auto* run = add_run(app, a);
    auto* check = add_check(app, a);
    auto* replay = add_replay(app, a);
    auto* list = add_list(app, a);
    auto* validate = app.add_subcommand("validate", "check scenario files without running them");
    validate->add_option("files", a.validate_files, "scenario files or directories")->required();
    auto* lit = add_litmus(app, a);
    auto* schema = app.add_subcommand("schema", "print the JSON Schema of scenario files (docs/scenario.schema.json)");
    if (for_man) {
        out_text(app.help());
        return 0;
    }
    reject_unknown_command(argc, argv);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return parse_error(app, e, argc, argv);
    }
    check_environment();
    a.rf.mutation = a.check.mutation = a.lf.mutation = chosen_mutation(a);
    for (auto* o : a.file_options)
        if (o->count() && o->as<std::string>().empty())
            throw LoadError(o->get_name() + ": empty file name; accepted: a writable file path");

    int rc = 2;
    a.rf.progress = !a.no_progress;
    if (*run) rc = cmd_run(a.run_files, a.rf);
    else if (*check) rc = cmd_check(a.check_paths, a.check);
    else if (*replay) rc = cmd_replay(a.replay_file, a.replay_token, a.rf, a.replay_config);
    else if (*list) rc = cmd_list(a.list);
    else if (*lit) rc = cmd_litmus(a.litmus_paths, a.lf);
    else if (*validate) rc = cmd_validate(a.validate_files);
    else if (*schema) {
        out_text(scenario_schema_text(models()));
        rc = 0;
    }
    // Output written with std::cout elsewhere (list) is checked here.
    errno = 0;
    std::cout.flush();
    if (!std::cout) write_failed("stdout", errno);
    return rc;
}

}  // namespace vfsmc
