// vfsmc command line: run, check, replay, list, validate.
#include "cli/cli.h"
#include "kernel/mutations.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
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
#include <regex>
#include <iostream>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "kernel/invariants.h"
#include "report/report.h"
#include "scenario/printable.h"
#include "commit.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"

namespace vfsmc {

namespace fs = std::filesystem;

bool as_expected(const Scenario& s, const RunResult& r) { return judge(r, s.expect); }

static std::string expected_text(const Scenario& s) {
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
    // (token.cpp hashes it), so the command sets it.
    const char* m = active_mutation();
    return {(m ? std::string("VFSMC_MUTATION=") + shell_word(m) + " " : std::string()) + "vfsmc replay " + shell_word(s.file),
            r.token, ""};
}

namespace {

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
};

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

}  // namespace

// A write that failed: one line, exit 2 (the path the user gave, or stdout,
// cannot take the output).
[[noreturn]] static void write_failed(const std::string& where, int err) {
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

// The model's steps that no explored execution reached (run --coverage).
std::vector<std::string> never_reached(const Scenario& s, const RunResult& r) {
    std::vector<std::string> missing;
    if (Model* m = find_model(s.model))
        for (const auto& st : m->spec().steps)
            if (std::find(r.coverage.begin(), r.coverage.end(), st) == r.coverage.end()) missing.push_back(st);
    return missing;
}

void print_result(const Scenario& s, const RunResult& r, const RunFlags& f,
                  const std::vector<std::string>& overrides = {}) {
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
        if (f.coverage) j["never_reached"] = never_reached(s, r);
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
    // An interrupted search says so itself (run_one): one line, not two.
    if (!as_expected(s, r) && !stop_requested) {
        std::cerr << file << ": expected " << printable(expected_text(s), kMaxShownValue) << ", got " << verdict_with_scope(r)
                  << (r.invariant.empty() ? "" : " " + r.invariant) << "\n";
    }
}

}  // namespace

// SIGINT and SIGTERM: the engine stops at its next execution (item 12 of
// issue 13), `check` kills its children and prints what had finished.
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

namespace {

// In a child just forked: die with the parent (`sig`), even if the parent
// died before the prctl.
void die_with_parent(pid_t parent, int sig) {
    prctl(PR_SET_PDEATHSIG, sig);
    if (getppid() != parent) _exit(3);
}

// The stale-read cut of `run`: the default, or the test-only reorder cut
// (explore/stale_cut.h) that tests/mutation_oracle.py selects to show that
// the oracle catches it. Checked at start-up (cli_main).
StaleCut test_stale_cut() {
    const char* c = std::getenv("VFSMC_TEST_STALE_CUT");
    return c && std::strcmp(c, "reorder") == 0 ? StaleCut::reorder : StaleCut::duplicates;
}

// `run --estimate`: how large is the dpor search of this scenario? A probe
// of --time-limit seconds (10 by default) prints the estimated number of
// executions of the whole search and the time it would take at the probe's
// rate, with the spread of the estimate over the probe's second half
// (dpor.h, explored_share). A search that ends within the probe prints its
// verdict and exact count as `run` does.
constexpr double kEstimateProbeSeconds = 10;

int estimate_one(const std::string& file, Scenario& s, const RunFlags& f, const std::vector<std::string>& overrides) {
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
    RunResult r = run_scenario(s, opt);
    print_result(s, r, f, overrides);
    // With --json the coverage is in the JSON object (never_reached): one
    // JSON document on stdout.
    if (f.coverage && !(f.json || f.format == "json")) {
        Model* m = find_model(s.model);
        std::vector<std::string> missing = never_reached(s, r);
        std::string text = "coverage: " + std::to_string(m->spec().steps.size() - missing.size()) + " of " +
                           std::to_string(m->spec().steps.size()) + " model steps reached\n";
        for (const auto& st : missing) text += "  never reached: " + st + "\n";
        out_text(text);
    }
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

// One scenario of `check`, in a child process. Writes one record to `fd`, a
// JSON object {status, name, count, text} on one line, status pass, fail,
// error or internal. (JSON, so a tab or newline in a file name cannot break
// the record.)
void check_child(const ScenarioEntry& entry, int fd) {
    nlohmann::json rec;
    const std::string& file = entry.file;
    std::string shown = printable(file, kMaxShownFile);
    try {
        if (!entry.error.empty()) throw LoadError(entry.error);
        Scenario s = load_scenario(file);
        RunOptions opt;
        opt.minimize = false;  // the verdict and the count are what check judges
        RunResult r = run_scenario(s, opt);
        bool ok = as_expected(s, r);
        std::vector<std::string> vac = vacuous_steps(s, r);
        std::string got = verdict_with_scope(r) + (r.invariant.empty() ? "" : " " + r.invariant);
        std::string want = expected_text(s);
        std::string text = std::string(ok && vac.empty() ? "ok    " : "FAIL  ") + shown + ": " + got +
                           (ok ? "" : " (expected " + want + ")") + " [" + std::to_string(r.executions) + " executions, " +
                           std::to_string((long)(r.seconds * 1000)) + " ms]";
        for (const auto& v : vac) text += "\n      vacuous: names step " + v + " but no explored execution reached it";
        for (const auto& w : s.warnings) text += "\n      warning: " + printable(w, 4000);
        for (const auto& w : order_without_hb(s, r)) text += "\n      warning: " + printable(w, 4000);
        if (!ok && r.verdict == Verdict::violated) text += "\n      replay: " + printable(replay_command(s, r).text(), 4000);
        // A count cut by a time limit is not repeatable: no oracle for it.
        rec["status"] = ok && vac.empty() ? "pass" : "fail";
        rec["name"] = s.name;
        rec["count"] = s.search.time_limit_s > 0 || r.verdict == Verdict::inconclusive ? nlohmann::json() : nlohmann::json(r.executions);
        rec["seconds"] = r.seconds;
        rec["text"] = text + "\n";
    } catch (const LoadError& e) {
        rec = {{"status", "error"}, {"text", bad_input_line(e.what()) + "\n"}};
    } catch (const std::exception& e) {
        rec = {{"status", "internal"}, {"text", "internal error: " + shown + ": " + error_line(e.what()) + "\n"}};
    }
    std::string line = rec.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace) + "\n";
    for (size_t off = 0; off < line.size();) {
        ssize_t n = write(fd, line.data() + off, line.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(3);
        off += (size_t)n;
    }
}

const char* kLockAccepted = "an object of scenario name -> executions (rewrite it with --update-counts)";

// The exploration-count oracle: each directory of scenarios keeps an
// explorations.lock beside them, a JSON object of scenario name ->
// executions explored.
struct CountLocks {
    std::map<std::string, nlohmann::json> by_dir;  // directory -> lock contents
    nlohmann::json& of(const std::string& file) {
        std::string dir = fs::path(file).parent_path().string();
        auto it = by_dir.find(dir);
        if (it != by_dir.end()) return it->second;
        nlohmann::json j = nlohmann::json::object();
        std::string path = (fs::path(dir) / "explorations.lock").string();
        std::error_code ec;
        if (fs::exists(path, ec)) {
            std::string shown = printable(path, kMaxShownFile);
            if (!fs::is_regular_file(path, ec))
                throw LoadError(shown + ": not a regular file; accepted: " + kLockAccepted);
            // Read under a shared flock: `check --update-counts` rewrites
            // the file under an exclusive one.
            int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
            if (fd < 0) {
                int e = errno;
                // Out of descriptors is the checker's failure, not the input's.
                if (e == EMFILE || e == ENFILE) throw std::runtime_error("cannot open " + shown + ": " + std::strerror(e));
                throw LoadError(shown + ": cannot read (" + std::strerror(e ? e : EIO) + "); accepted: " + kLockAccepted);
            }
            while (flock(fd, LOCK_SH) != 0 && errno == EINTR && !stop_requested) {
            }
            std::string text;
            char buf[65536];
            for (;;) {
                ssize_t n = ::read(fd, buf, sizeof buf);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) break;
                text.append(buf, (size_t)n);
            }
            ::close(fd);
            j = nlohmann::json::parse(text, nullptr, false);
            if (j.is_discarded()) throw LoadError(shown + ": invalid JSON; accepted: " + kLockAccepted);
            if (!j.is_object()) throw LoadError(shown + ": not an object; accepted: " + kLockAccepted);
        }
        return by_dir[dir] = j;
    }
};

// `check --update-counts`: merge `fresh` into the lock file under an
// exclusive flock, read and written through one descriptor, so that two
// runs on one directory serialize here and each keeps the other's counts
// (entries of scenarios not run this time are kept).
void update_lock_file(const std::string& path, const nlohmann::json& fresh) {
    std::string shown = printable(path, kMaxShownFile);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) write_failed(path, errno);
    struct FdCloser {
        int fd;
        ~FdCloser() { ::close(fd); }  // releases the lock
    } closer{fd};
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) throw LoadError(shown + ": not a regular file; accepted: " + kLockAccepted);
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) throw LoadError(shown + ": cannot lock (" + std::strerror(errno) + "); accepted: a lockable file");
        if (stop_requested) throw LoadError(shown + ": interrupted while waiting for another run's lock; accepted: one run at a time");
    }
    std::string text;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw LoadError(shown + ": cannot read (" + std::strerror(errno) + "); accepted: " + kLockAccepted);
        if (n == 0) break;
        text.append(buf, (size_t)n);
    }
    nlohmann::json merged = nlohmann::json::object();
    if (text.find_first_not_of(" \t\r\n") != std::string::npos) {
        merged = nlohmann::json::parse(text, nullptr, false);
        if (merged.is_discarded() || !merged.is_object()) throw LoadError(shown + ": invalid JSON; accepted: " + kLockAccepted);
    }
    for (auto it = fresh.begin(); it != fresh.end(); ++it) merged[it.key()] = it.value();
    std::string out = merged.dump(2) + "\n";
    if (ftruncate(fd, 0) != 0) write_failed(path, errno);
    for (size_t off = 0; off < out.size();) {
        ssize_t n = pwrite(fd, out.data() + off, out.size() - off, (off_t)off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) write_failed(path, n < 0 ? errno : EIO);
        off += (size_t)n;
    }
}

// One scenario's outcome in `check`, for --junit and --format github.
struct CheckRecord {
    std::string file, name, status, text;
    double seconds = 0;
};

std::string xml_esc(const std::string& raw) {
    // Names and file names are untrusted: printable first (XML 1.0 allows no
    // C0 control but tab and newline; the rest would reach a terminal).
    std::string s = printable_lines(raw, 0), o;
    for (unsigned char c : s) {
        switch (c) {
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '&': o += "&amp;"; break;
            case '"': o += "&quot;"; break;
            default:
                if (c < 0x20 && c != '\n' && c != '\t') o += ' ';  // not allowed in XML 1.0
                else o += (char)c;
        }
    }
    return o;
}

// JUnit XML (the format GitLab, Jenkins and GitHub read): one testsuite per
// scenario directory, one testcase per scenario; tests/junit.xsd is its schema.
void write_junit(const std::string& path, const std::vector<CheckRecord>& recs) {
    std::map<std::string, std::vector<const CheckRecord*>> by_dir;
    for (const auto& r : recs) by_dir[fs::path(r.file).parent_path().string()].push_back(&r);
    std::ostringstream out;
    auto count = [](const std::vector<const CheckRecord*>& v, const char* st) {
        return std::count_if(v.begin(), v.end(), [&](const CheckRecord* r) { return r->status == st; });
    };
    double total = 0;
    long fails = 0, errs = 0;
    for (const auto& r : recs) {
        total += r.seconds;
        fails += r.status == "fail";
        errs += r.status == "error" || r.status == "internal";
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<testsuites name=\"vfsmc check\" tests=\"" << recs.size() << "\" failures=\"" << fails << "\" errors=\"" << errs
        << "\" time=\"" << strprintf("%.3f", total) << "\">\n";
    for (const auto& kv : by_dir) {
        double t = 0;
        for (const auto* r : kv.second) t += r->seconds;
        long e = count(kv.second, "error") + count(kv.second, "internal");
        out << "  <testsuite name=\"" << xml_esc(kv.first) << "\" tests=\"" << kv.second.size() << "\" failures=\""
            << count(kv.second, "fail") << "\" errors=\"" << e << "\" skipped=\"0\" time=\"" << strprintf("%.3f", t) << "\">\n";
        for (const auto* r : kv.second) {
            std::string name = r->name != "-" ? r->name : fs::path(r->file).stem().string();
            out << "    <testcase name=\"" << xml_esc(name) << "\" classname=\"" << xml_esc(kv.first) << "\" file=\""
                << xml_esc(r->file) << "\" time=\"" << strprintf("%.3f", r->seconds) << "\"";
            if (r->status == "pass") {
                out << "/>\n";
                continue;
            }
            std::string first = r->text.substr(0, r->text.find('\n'));
            const char* tag = r->status == "fail" ? "failure" : "error";
            out << ">\n      <" << tag << " message=\"" << xml_esc(first) << "\" type=\"" << r->status << "\">"
                << xml_esc(r->text) << "</" << tag << ">\n    </testcase>\n";
        }
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
    write_file(path, out.str());
}

// A GitHub Actions workflow command: `::error file=F,title=T::message`, with
// the characters GitHub reserves escaped (%, CR, LF; and , : in properties).
std::string gh_escape(const std::string& raw, bool property) {
    // printable first: GitHub's log shows the message on a terminal-like view.
    std::string s = printable_lines(raw, 0), o;
    for (char c : s) {
        if (c == '%') o += "%25";
        else if (c == '\r') o += "%0D";
        else if (c == '\n') o += "%0A";
        else if (property && c == ':') o += "%3A";
        else if (property && c == ',') o += "%2C";
        else o += c;
    }
    return o;
}

// The line of the file a message points at. Bad input: "line N, column M"
// for invalid JSON, else the first line holding the top-level field its
// path starts with ("threads[0].ops" -> "threads"). A verdict or a count
// that differs: the line of "expect", which states what was expected. 1
// when none is found (a missing field, an internal error).
int annotation_line(const CheckRecord& r, const std::string& text) {
    std::string path;
    if (r.status == "fail") {
        path = "expect";
    } else if (r.status == "error") {
        std::smatch m;
        if (std::regex_search(text, m, std::regex("line ([0-9]+), column [0-9]+"))) return std::stoi(m[1]);
        std::string prefix = r.file + ": ";
        size_t at = text.find(prefix);
        if (at == std::string::npos) return 1;
        path = text.substr(at + prefix.size());
        path = path.substr(0, path.find_first_of(":.[ "));
    }
    if (path.empty()) return 1;
    std::ifstream in(r.file);
    int n = 0;
    for (std::string l; std::getline(in, l);) {
        n++;
        if (l.find("\"" + path + "\"") != std::string::npos) return n;
    }
    return 1;
}

std::string github_annotation(const CheckRecord& r) {
    std::string text = r.text;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    // The annotation is an error already: its message without the prefix.
    if (r.status == "error" && text.compare(0, 7, "error: ") == 0) text.erase(0, 7);
    std::string name = r.name.empty() || r.name == "-" ? fs::path(r.file).stem().string() : r.name;
    std::string title = "vfsmc: " + name;
    return "::error file=" + gh_escape(r.file, true) + ",line=" + std::to_string(annotation_line(r, text)) +
           ",title=" + gh_escape(title, true) + "::" + gh_escape(text, false);
}

// A recorded count: a whole number (nlohmann keeps non-negative integers
// unsigned; -1, 1.5, 1e30, strings and null are not).
bool lock_count(const nlohmann::json& v, unsigned long long& out) {
    if (!v.is_number_unsigned()) return false;
    out = v.get<unsigned long long>();
    return true;
}

int cmd_check(const std::vector<std::string>& paths, int jobs, bool update_counts, const std::string& junit,
              const std::string& format) {
    std::vector<ScenarioEntry> files = find_scenarios(paths);
    if (files.empty()) throw LoadError("check: no scenario files (*.json) found; accepted: a directory of scenarios");
    if (!junit.empty()) {
        // An unwritable --junit path is an error before the run, not after it.
        errno = 0;
        std::ofstream probe(junit, std::ios::app);
        if (!probe) write_failed(junit, errno);
    }
    if (jobs < 1) jobs = 1;
    CountLocks locks, fresh_locks;
    for (const auto& f : files) {
        if (!f.error.empty()) continue;
        locks.of(f.file);
        fresh_locks.by_dir[fs::path(f.file).parent_path().string()] = nlohmann::json::object();
    }
    struct Job {
        pid_t pid;
        int fd;
        size_t idx;
        std::string out;
        bool eof = false;
    };
    std::vector<Job> running;
    size_t next = 0;
    int passed = 0, failed = 0, errors = 0, internal = 0;
    std::vector<CheckRecord> records;
    // Reads what the child wrote so far; true at end of file.
    auto drain = [&](Job& j, bool block) {
        char buf[4096];
        for (;;) {
            if (!block) {
                struct pollfd pfd = {j.fd, POLLIN, 0};
                if (poll(&pfd, 1, 0) <= 0) return j.eof;
            }
            ssize_t n = read(j.fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR) {
                if (stop_requested) return j.eof;
                continue;
            }
            if (n <= 0) return j.eof = true;
            j.out.append(buf, (size_t)n);
        }
    };
    auto judge = [&](Job& j, int st) {
        const std::string& file = files[j.idx].file;
        std::string shown = printable(file, kMaxShownFile);
        nlohmann::json rec;
        try {
            rec = nlohmann::json::parse(j.out);
        } catch (const std::exception&) {
            rec = {{"status", "internal"},
                   {"text", "internal error: " + shown + ": the checker died (" +
                                (WIFSIGNALED(st) ? "signal " + std::to_string(WTERMSIG(st)) : "status " + std::to_string(st)) + ")\n"}};
        }
        std::string status = rec.value("status", "internal"), text = rec.value("text", "internal error\n");
        std::string name = rec.value("name", "");
        auto mark_failed = [&](const std::string& why) {
            status = "fail";
            text = "FAIL  " + text.substr(6);
            text.pop_back();
            text += "\n      " + why + "\n";
        };
        if (status == "pass" && rec.contains("count") && rec["count"].is_number_unsigned()) {
            unsigned long long count = rec["count"].get<unsigned long long>(), want = 0;
            nlohmann::json& lock = locks.of(file);
            fresh_locks.of(file)[name] = count;
            std::string lock_path = printable((fs::path(file).parent_path() / "explorations.lock").string(), kMaxShownFile);
            if (!update_counts) {
                if (!lock.contains(name)) {
                    mark_failed("new scenario: no recorded count in " + lock_path + " (" + std::to_string(count) +
                                " executions now); `vfsmc check --update-counts` records it");
                } else if (!lock_count(lock[name], want)) {
                    std::string v = lock[name].dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
                    mark_failed(lock_path + ": " + name + ": bad value " + printable(v, kMaxShownValue) +
                                "; accepted: a whole number of executions (rewrite it with --update-counts)");
                } else if (want != count) {
                    mark_failed("exploration count changed: " + std::to_string(want) + " -> " + std::to_string(count) +
                                " executions; the model's state space moved (review it, then `vfsmc check --update-counts`)");
                }
            }
        }
        if (status == "pass") passed++;
        else if (status == "fail") failed++;
        else if (status == "error") errors++;
        else internal++;
        records.push_back({file, name, status, text, rec.value("seconds", 0.0)});
        out_text(text);
        if (format == "github" && status != "pass") out_text(github_annotation(records.back()) + "\n");
    };
    auto stop_all = [&]() {
        // Interrupted: no child outlives this run. What had finished is
        // printed, in order; the rest is counted as not run.
        for (auto& j : running) kill(j.pid, SIGKILL);
        size_t done = 0;
        for (auto& j : running) {
            int st = 0;
            while (waitpid(j.pid, &st, 0) < 0 && errno == EINTR) {
            }
            drain(j, false);
            close(j.fd);
            if (!j.out.empty() && j.out.back() == '\n') {
                judge(j, st);
                done++;
            }
        }
        size_t not_run = files.size() - (size_t)(passed + failed + errors + internal);
        out_text(std::to_string(passed) + " passed, " + std::to_string(failed + errors + internal) + " failed, " +
                 std::to_string(not_run) + " not run: interrupted by signal " + std::to_string((int)stop_requested) + "\n");
        (void)done;
        return stopped_status();
    };
    catch_stop_signals();
    pid_t parent = getpid();
    // An error here (stdout full) leaves no child behind either.
    struct KillOnThrow {
        std::vector<Job>& running;
        ~KillOnThrow() {
            for (auto& j : running) {
                kill(j.pid, SIGKILL);
                waitpid(j.pid, nullptr, 0);
                close(j.fd);
            }
        }
    } guard{running};
    while (next < files.size() || !running.empty()) {
        while (next < files.size() && (int)running.size() < jobs && !stop_requested) {
            int p[2];
            if (pipe(p) != 0) throw std::runtime_error("pipe failed");
            std::cout.flush();
            pid_t pid = fork();
            if (pid < 0) throw std::runtime_error("fork failed");
            if (pid == 0) {
                signal(SIGINT, SIG_DFL);
                signal(SIGTERM, SIG_DFL);
                die_with_parent(parent, SIGKILL);
                close(p[0]);
                for (const auto& j : running) close(j.fd);
                check_child(files[next], p[1]);
                close(p[1]);
                _exit(0);
            }
            close(p[1]);
            running.push_back({pid, p[0], next, "", false});
            next++;
        }
        if (stop_requested) {
            int rc = stop_all();
            running.clear();
            return rc;
        }
        // Reap in submission order so the output is stable; wait in short
        // polls so that a signal is acted on at once.
        Job& j = running.front();
        struct pollfd pfd = {j.fd, POLLIN, 0};
        int pr = poll(&pfd, 1, 200);
        if (pr < 0 && errno != EINTR) throw std::runtime_error("poll failed");
        if (pr <= 0) continue;
        if (!drain(j, false)) continue;
        close(j.fd);
        int st = 0;
        while (waitpid(j.pid, &st, 0) < 0 && errno == EINTR) {
        }
        Job done = j;
        running.erase(running.begin());
        judge(done, st);
    }
    if (update_counts) {
        for (auto& kv : fresh_locks.by_dir) {
            std::string path = (fs::path(kv.first) / "explorations.lock").string();
            update_lock_file(path, kv.second);
            out_text("recorded " + std::to_string(kv.second.size()) + " exploration counts in " + printable(path, kMaxShownFile) + "\n");
        }
    }
    out_text(std::to_string(passed) + " passed, " + std::to_string(failed + errors + internal) + " failed\n");
    if (!junit.empty()) write_junit(junit, records);
    if (internal) return 3;
    if (errors) return 2;
    return failed ? 1 : 0;
}

// `replay --config KEY=VALUE`: the scenario with config KEY set to VALUE
// (JSON if it parses as JSON, else a string), loaded and checked as a file
// with that config would be.
Scenario with_config(const std::string& file, const std::vector<std::string>& sets) {
    std::ifstream in(file);
    if (!in) throw LoadError(file + ": cannot read; accepted: a scenario file");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.str());
    } catch (const std::exception&) {
        return load_scenario(file);  // the loader's own one-line error
    }
    if (!j.is_object()) return load_scenario(file);
    for (const auto& kv : sets) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw LoadError("vfsmc replay: --config: bad value \"" + printable(kv, kMaxShownValue) + "\"; accepted: KEY=VALUE, a knob of the scenario's model (`vfsmc list`)");
        std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
        nlohmann::json v = nlohmann::json::parse(value, nullptr, false);
        if (v.is_discarded()) v = value;
        if (!j.contains("config") || !j["config"].is_object()) j["config"] = nlohmann::json::object();
        j["config"][key] = v;
    }
    return parse_scenario(file, j.dump());
}

int cmd_replay(const std::string& file, const std::string& token, const RunFlags& f,
               const std::vector<std::string>& config) {
    Scenario s = load_scenario(file);
    std::vector<std::string> without = apply_overrides(s, f);  // --without only
    if (!config.empty()) {
        Scenario changed = with_config(file, config);
        apply_overrides(changed, f);
        RunResult r = replay_on(s, changed, token);
        std::string cfg;
        for (const auto& c : config) cfg += " --config " + c;
        ReportOptions o;
        o.stable = f.stable;
        o.brief = f.brief;
        o.overrides = without;
        o.overrides.push_back(cfg.substr(1));
        o.replay = replay_command(s, r);
        for (const auto& w : without) o.replay.tail += " " + w;
        o.replay.tail += cfg;
        if (!r.replay_followed) {
            out_text(printable("The schedule of this token cannot be followed with" + cfg + ": " + r.replay_note, 4000) +
                     ". The changed code takes other steps, so the replay shows nothing about it.\n");
            return 1;
        }
        bool json = f.json || f.format == "json";
        if (!json) out_text(printable_lines(override_note(o) + "\n\n"));
        if (r.verdict == Verdict::violated) {
            if (json) out_text(json_printable(json_report(changed, r, o).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n");
            else if (f.format == "email") out_text(printable_lines(email_report(changed, r, o)));
            else out_text(printable_lines(text_report(changed, r, o)));
        } else {
            out_text(printable_lines("The schedule was followed to its end with" + cfg + " and no invariant broke: " +
                                     "the changed code survives this interleaving (" + std::to_string(r.executions) +
                                     " execution replayed).\n"));
        }
        return 0;
    }
    RunResult r = replay_scenario(s, token);
    if (r.verdict == Verdict::error) {
        std::cerr << bad_input_line(file + ": replay token: " + r.message) << "\n";
        return 2;
    }
    r.token = token;
    print_result(s, r, f, without);
    return as_expected(s, r) ? 0 : 1;
}

}  // namespace

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

int cmd_list(bool memory_model, bool mutations, const std::string& only, bool json);  // list.cpp


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
        "  vfsmc list\n";
    const std::string exit_docs =
        "Exit codes: 0 as expected, 1 a verdict differs, 2 bad input, 3 internal error.\n"
        "Docs: README.md, docs/scenario-format.md, docs/result-format.md; man vfsmc.";
    bool for_man = argc == 2 && std::strcmp(argv[1], "--help-man") == 0;
    app.footer(for_man ? exit_docs : examples + "\n" + exit_docs);
    RunFlags rf;
    std::vector<std::string> run_files, check_paths, validate_files;
    int jobs = 2;
    std::string replay_file, replay_token;
    bool mm = false;

    auto* run = app.add_subcommand("run", "run scenarios and print their verdicts and counterexamples");
    run->add_option("files", run_files, "scenario files or directories")->required();
    run->add_flag("--json", rf.json, "print the versioned JSON result instead of text");
    run->add_flag("--stable", rf.stable, "leave out timings (for golden files)");
    run->add_flag("--coverage", rf.coverage, "list the model steps never reached");
    bool no_progress = false;
    run->add_flag("--no-progress", no_progress, "no progress lines on stderr");
    run->add_option("--format", rf.format, "text, email (72 columns, one column per thread) or json")
        ->check(CLI::IsMember({"text", "email", "json"}));
    auto* run_html = run->add_option("--html", rf.html, "also write a self-contained HTML swimlane page to this file");
    auto* run_email = run->add_option("--email", rf.email, "also write the 72-column email form to this file");
    auto* run_dot = run->add_option("--dot", rf.dot, "also write the reported execution as a Graphviz graph to this file (steps as nodes; po, rf, the conflict as edges)");
    run->add_flag("--source", rf.source, "show each step's model source location (file:line) in the text report");
    run->add_flag("--first", rf.first, "report the first counterexample found, not the shortest");
    run->add_flag("--estimate", rf.estimate,
                  "estimate the size of the dpor search from a probe of --time-limit seconds (default 10)");
    run->add_flag("--brief", rf.brief, "leave out the full interleaving (In short, final state, counts, replay)");
    run->add_option("--strategy", rf.strategy, "search strategy instead of the scenario's: " + strategy_names());
    run->add_option("--bound", rf.bound, "preemption bound (implies --strategy bounded)")->check(CLI::Range(0L, kMaxPreemptionBound));
    run->add_option("--memory-model", rf.memory_model, "memory model instead of the scenario's: sc, kernel");
    run->add_option("--without", rf.without, "leave this invariant out (repeatable)");
    run->add_option("--seed", rf.seed, "random seed (implies --strategy random)")->check(CLI::Range(0L, kMaxSeed));
    run->add_option("--time-limit", rf.time_limit, "stop the search after this many seconds")->check(CLI::PositiveNumber);

    auto* check = app.add_subcommand("check", "the regression run: judge every scenario by its expect");
    check->add_option("paths", check_paths, "directories or files")->required();
    check->add_option("-j,--jobs", jobs, "scenarios run in parallel processes")->check(CLI::Range(1, 64));
    bool update_counts = false;
    check->add_flag("--update-counts", update_counts, "record each scenario's exploration count in <dir>/explorations.lock");
    std::string junit, check_format = "text";
    check->add_option("--junit", junit, "also write JUnit XML (one test case per scenario) to this file");
    check->add_option("--format", check_format, "text, or github (::error annotations for GitHub Actions)")
        ->check(CLI::IsMember({"text", "github"}));

    auto* replay = app.add_subcommand("replay", "replay a counterexample from its token");
    replay->add_option("file", replay_file, "the scenario")->required();
    replay->add_option("token", replay_token, "the replay token printed with the counterexample")->required();
    replay->add_flag("--json", rf.json, "print the JSON result");
    replay->add_flag("--stable", rf.stable, "leave out timings");
    replay->add_option("--format", rf.format, "text, email or json")->check(CLI::IsMember({"text", "email", "json"}));
    auto* replay_html = replay->add_option("--html", rf.html, "also write the HTML swimlane page to this file");
    auto* replay_dot = replay->add_option("--dot", rf.dot, "also write the execution as a Graphviz graph to this file");
    replay->add_flag("--source", rf.source, "show each step's model source location (file:line) in the text report");
    replay->add_flag("--brief", rf.brief, "leave out the full interleaving");
    std::vector<std::string> replay_config;
    replay->add_option("--without", rf.without, "leave this invariant out, as the run that printed the token did (repeatable)");
    replay->add_option("--config", replay_config,
                       "KEY=VALUE: replay the schedule against the scenario with this config (repeatable)");

    auto* list = app.add_subcommand("list", "the models, with their ops, knobs and invariants");
    list->add_flag("--memory-model", mm, "print the memory-model table (docs/memory-model.md)");
    bool mutations = false;
    list->add_flag("--mutations", mutations, "print the deletions scripts/mutate selects with VFSMC_MUTATION");
    std::string list_model;
    bool list_json = false;
    list->add_option("--model", list_model, "only this model");
    list->add_flag("--json", list_json, "the models as one JSON object: ops, knobs, init fields, invariants, steps");

    auto* validate = app.add_subcommand("validate", "check scenario files without running them");
    validate->add_option("files", validate_files, "scenario files or directories")->required();

    LitmusFlags lf;
    std::vector<std::string> litmus_paths;
    auto* lit = app.add_subcommand("litmus", "run herd7 C litmus tests under the kernel memory model (herd7's Always/Sometimes/Never)");
    lit->add_option("paths", litmus_paths, "litmus tests (*.litmus) or directories of them")->required();
    lit->add_flag("--check", lf.check, "compare each answer with the test's `Result:` line: N agree, N differ, N unsupported");
    lit->add_flag("--table", lf.table, "with --check: print the agreement table (docs/memory-model.md) instead of one line per test");
    lit->add_flag("--witness", lf.witness, "also print a trace of one execution satisfying the condition");
    lit->add_flag("--first", lf.first, "the first witness found, not the shortest");
    lit->add_flag("--stable", lf.stable, "leave out timings");
    lit->add_option("--format", lf.format, "the witness report: text, email (72 columns) or json")
        ->check(CLI::IsMember({"text", "email", "json"}));
    auto* lit_html = lit->add_option("--html", lf.html, "with --witness: also write the HTML swimlane page to this file");
    lit->add_flag("--oracle", lf.oracle, "answer with the executable LKMM (linux-kernel.cat in C++), as herd7 does");
    lit->add_flag("--generate", lf.generate, "write the generated cycle tests (diy7-like) into the directory given, each with the oracle's Result:");
    lit->add_option("--time-limit", lf.time_limit, "stop each search after this many seconds (the result is then inconclusive)")
        ->check(CLI::PositiveNumber);

    auto* schema = app.add_subcommand("schema", "print the JSON Schema of scenario files (docs/scenario.schema.json)");

    if (for_man) {
        out_text(app.help());
        return 0;
    }
    // An unknown command: say which one was meant.
    if (argc > 1 && argv[1][0] != '-') {
        std::vector<std::string> cmds = {"run", "check", "replay", "list", "validate", "schema", "litmus"};
        if (std::find(cmds.begin(), cmds.end(), argv[1]) == cmds.end()) {
            std::string hint = suggest_name(argv[1], cmds);
            throw LoadError(std::string("vfsmc: unknown command \"") + printable(argv[1], kMaxShownValue) + "\"" +
                            (hint.empty() ? ";" : "; did you mean \"" + hint + "\"?") +
                            " accepted: run, check, replay, list, validate, schema, litmus (vfsmc --help)");
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // A file whose name starts with '-' is read as an option: say so,
        // and how to pass it.
        for (int i = 1; i < argc && e.get_exit_code() != 0; i++) {
            std::error_code ec;
            if (argv[i][0] == '-' && std::strcmp(argv[i], "--") != 0 && fs::exists(argv[i], ec)) {
                std::string a = printable(argv[i], kMaxShownFile);
                throw LoadError(a + ": a file name that starts with '-' is read as an option; accepted: ./" + a +
                                ", or `--` before the file names");
            }
        }
        int code = app.exit(e);
        // --help and --version print on stdout: a failed write is exit 2.
        errno = 0;
        std::cout.flush();
        if (!std::cout) write_failed("stdout", errno);
        return code == 0 ? 0 : 2;
    }
    // tests/mutation_oracle.py selects the test-only reorder cut by
    // VFSMC_TEST_STALE_CUT=reorder (explore/stale_cut.h), to show that it
    // catches an unsound cut.
    if (const char* c = std::getenv("VFSMC_TEST_STALE_CUT"); c && *c && std::strcmp(c, "reorder") != 0)
        throw LoadError(std::string("VFSMC_TEST_STALE_CUT: unknown cut \"") + printable(c, kMaxShownValue) +
                        "\"; accepted: reorder (test-only), or unset");
    // scripts/mutate selects a deletion by VFSMC_MUTATION (checker/kernel/mutations.h).
    if (const char* m = active_mutation(); m && !find_mutation(m)) {
        std::string acc;
        for (const auto& k : kMutations) acc += std::string(acc.empty() ? "" : ", ") + k.name;
        throw LoadError(std::string("VFSMC_MUTATION: unknown mutation \"") + printable(m, kMaxShownValue) + "\"; accepted: " + acc);
    }

    for (auto* o : {run_html, run_email, run_dot, replay_html, replay_dot, lit_html})
        if (o->count() && o->as<std::string>().empty())
            throw LoadError(o->get_name() + ": empty file name; accepted: a writable file path");

    int rc = 2;
    rf.progress = !no_progress;
    if (*run) rc = cmd_run(run_files, rf);
    else if (*check) rc = cmd_check(check_paths, jobs, update_counts, junit, check_format);
    else if (*replay) rc = cmd_replay(replay_file, replay_token, rf, replay_config);
    else if (*list) rc = cmd_list(mm, mutations, list_model, list_json);
    else if (*lit) rc = cmd_litmus(litmus_paths, lf);
    else if (*schema) {
        out_text(scenario_schema_text(models()));
        rc = 0;
    } else if (*validate) {
        // Every file is checked: one line for each bad one, exit 2 if any.
        rc = 0;
        std::vector<ScenarioEntry> entries;
        for (const auto& p : validate_files) {
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
    }
    // Output written with std::cout elsewhere (list) is checked here.
    errno = 0;
    std::cout.flush();
    if (!std::cout) write_failed("stdout", errno);
    return rc;
}

}  // namespace vfsmc
