// vfsmc command line: run, check, replay, list, validate.
#include "cli/cli.h"

#include <fcntl.h>
#include <poll.h>
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
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "kernel/invariants.h"
#include "report/report.h"
#include "scenario/printable.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"

namespace vfsmc {

namespace fs = std::filesystem;

bool as_expected(const Scenario& s, const RunResult& r) {
    if (r.verdict != s.expect.verdict) return false;
    if (r.verdict == "violated") return r.invariant == s.expect.invariant;
    return true;
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

static bool ident(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == ':'; }

std::vector<std::string> vacuous_steps(const Scenario& s, const RunResult& r) {
    std::vector<std::string> out;
    if (r.verdict != "holds") return out;
    Model* m = find_model(s.model);
    if (!m) return out;
    for (const auto& st : m->spec().steps) {
        bool named = false;
        for (const auto& kv : s.config) named |= kv.second.s == st;
        // In the doc, a step claimed as exercised is written as a call: `d_wait_lookup()`.
        std::string call = st + "()";
        for (size_t p = s.doc.find(call); p != std::string::npos && !named; p = s.doc.find(call, p + 1))
            named = p == 0 || !ident(s.doc[p - 1]);
        if (named && std::find(r.coverage.begin(), r.coverage.end(), st) == r.coverage.end()) out.push_back(st);
    }
    return out;
}

std::string replay_command(const Scenario& s, const RunResult& r) {
    return "vfsmc replay " + s.file + " " + r.token;
}

namespace {

struct RunFlags {
    bool json = false;
    bool stable = false;
    bool progress = true;
    bool coverage = false;
    bool first = false;       // no search for the shortest counterexample
    std::string format = "text";
    std::string html;
    std::string email;        // also write the email form to this file
};

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

// Everything for stdout goes through here: a failed write (a full disk,
// a closed pipe end) is an error, never a silent exit 0.
void out_text(const std::string& text) {
    errno = 0;
    std::cout << text;
    std::cout.flush();
    if (!std::cout) write_failed("stdout", errno);
}

void print_result(const Scenario& s, const RunResult& r, const RunFlags& f) {
    ReportOptions o;
    o.stable = f.stable;
    o.replay_cmd = replay_command(s, r);
    // Terminal text (text and email) is made printable line by line: names,
    // docs and op arguments come from the scenario file. JSON and HTML
    // escape for themselves.
    if (!f.html.empty()) write_file(f.html, html_report(s, r, o));
    if (!f.email.empty()) write_file(f.email, printable_lines(email_report(s, r, o)));
    std::vector<std::string> vac = vacuous_steps(s, r);
    if (f.json || f.format == "json") {
        nlohmann::json j = json_report(s, r, o);
        j["vacuous_steps"] = vac;
        out_text(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    } else if (f.format == "email") {
        out_text(printable_lines(email_report(s, r, o)));
    } else {
        std::string text = text_report(s, r, o);
        if (r.verdict == "violated") text += summary_line(s, r, f.stable) + "\n";
        out_text(printable_lines(text));
    }
    std::string file = printable(s.file, kMaxShownFile);
    for (const auto& st : vac)
        std::cerr << file << ": warning: vacuous: the scenario names step " << st
                  << " but no explored execution reached it\n";
    // An interrupted search says so itself (run_one): one line, not two.
    if (!as_expected(s, r) && !stop_requested) {
        std::cerr << file << ": expected " << s.expect.verdict
                  << (s.expect.invariant.empty() ? "" : " " + s.expect.invariant) << ", got " << r.verdict
                  << (r.invariant.empty() ? "" : " " + r.invariant) << "\n";
    }
}

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

// In a child just forked: die with the parent (`sig`), even if the parent
// died before the prctl.
void die_with_parent(pid_t parent, int sig) {
    prctl(PR_SET_PDEATHSIG, sig);
    if (getppid() != parent) _exit(3);
}

int run_one(const std::string& file, const RunFlags& f) {
    Scenario s = load_scenario(file);
    RunOptions opt;
    opt.progress = f.progress && isatty(2);
    opt.minimize = !f.first;
    RunResult r = run_scenario(s, opt);
    print_result(s, r, f);
    if (f.coverage) {
        Model* m = find_model(s.model);
        std::vector<std::string> missing;
        for (const auto& st : m->spec().steps)
            if (std::find(r.coverage.begin(), r.coverage.end(), st) == r.coverage.end()) missing.push_back(st);
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
            std::fprintf(stderr, "%s\n", printable(e.what(), 4000).c_str());
            rc = 2;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "internal error: %s\n", printable(e.what(), 4000).c_str());
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
        std::string got = r.verdict + (r.invariant.empty() ? "" : " " + r.invariant);
        std::string want = s.expect.verdict + (s.expect.invariant.empty() ? "" : " " + s.expect.invariant);
        std::string text = std::string(ok && vac.empty() ? "ok    " : "FAIL  ") + shown + ": " + got +
                           (ok ? "" : " (expected " + want + ")") + " [" + std::to_string(r.executions) + " executions, " +
                           std::to_string((long)(r.seconds * 1000)) + " ms]";
        for (const auto& v : vac) text += "\n      vacuous: names step " + v + " but no explored execution reached it";
        if (!ok && r.verdict == "violated") text += "\n      replay: " + printable(replay_command(s, r), 4000);
        // A count cut by a time limit is not repeatable: no oracle for it.
        rec["status"] = ok && vac.empty() ? "pass" : "fail";
        rec["name"] = s.name;
        rec["count"] = s.search.time_limit_s > 0 ? nlohmann::json() : nlohmann::json(r.executions);
        rec["text"] = text + "\n";
    } catch (const LoadError& e) {
        rec = {{"status", "error"}, {"text", printable(e.what(), 4000) + "\n"}};
    } catch (const std::exception& e) {
        rec = {{"status", "internal"}, {"text", "internal error: " + shown + ": " + printable(e.what(), 4000) + "\n"}};
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
            errno = 0;
            std::ifstream in(path);
            if (!in) {
                int e = errno;
                // Out of descriptors is the checker's failure, not the input's.
                if (e == EMFILE || e == ENFILE) throw std::runtime_error("cannot open " + shown + ": " + std::strerror(e));
                throw LoadError(shown + ": cannot read (" + std::strerror(e ? e : EIO) + "); accepted: " + kLockAccepted);
            }
            try {
                j = nlohmann::json::parse(in);
            } catch (const std::exception&) {
                throw LoadError(shown + ": invalid JSON; accepted: " + kLockAccepted);
            }
            if (!j.is_object()) throw LoadError(shown + ": not an object; accepted: " + kLockAccepted);
        }
        return by_dir[dir] = j;
    }
};

// A recorded count: a whole number (nlohmann keeps non-negative integers
// unsigned; -1, 1.5, 1e30, strings and null are not).
bool lock_count(const nlohmann::json& v, unsigned long long& out) {
    if (!v.is_number_unsigned()) return false;
    out = v.get<unsigned long long>();
    return true;
}

int cmd_check(const std::vector<std::string>& paths, int jobs, bool update_counts) {
    std::vector<ScenarioEntry> files = find_scenarios(paths);
    if (files.empty()) throw LoadError("check: no scenario files (*.json) found; accepted: a directory of scenarios");
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
                    mark_failed("no recorded exploration count (record it with `vfsmc check --update-counts`)");
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
        out_text(text);
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
            // Keep entries of scenarios not run this time.
            nlohmann::json merged = locks.of((fs::path(kv.first) / "x.json").string());
            for (auto it = kv.second.begin(); it != kv.second.end(); ++it) merged[it.key()] = it.value();
            std::string path = (fs::path(kv.first) / "explorations.lock").string();
            write_file(path, merged.dump(2) + "\n");
            out_text("recorded " + std::to_string(kv.second.size()) + " exploration counts in " + printable(path, kMaxShownFile) + "\n");
        }
    }
    out_text(std::to_string(passed) + " passed, " + std::to_string(failed + errors + internal) + " failed\n");
    if (internal) return 3;
    if (errors) return 2;
    return failed ? 1 : 0;
}

int cmd_replay(const std::string& file, const std::string& token, const RunFlags& f) {
    Scenario s = load_scenario(file);
    RunResult r = replay_scenario(s, token);
    if (r.verdict == "error") {
        std::cerr << printable(file, kMaxShownFile) << ": replay token: " << r.message << "\n";
        return 2;
    }
    r.token = token;
    print_result(s, r, f);
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

int cmd_list(bool memory_model);  // list.cpp

int cli_main(int argc, char** argv) {
    CLI::App app{"vfsmc: a concurrency model checker for Linux VFS locking and reference counting"};
    app.require_subcommand(1);
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
    run->add_flag("!--no-progress", rf.progress, "no progress lines on stderr");
    run->add_option("--format", rf.format, "text, email (72 columns, one column per thread) or json")
        ->check(CLI::IsMember({"text", "email", "json"}));
    auto* run_html = run->add_option("--html", rf.html, "also write a self-contained HTML swimlane page to this file");
    auto* run_email = run->add_option("--email", rf.email, "also write the 72-column email form to this file");
    run->add_flag("--first", rf.first, "report the first counterexample found, not the shortest");

    auto* check = app.add_subcommand("check", "the regression run: judge every scenario by its expect");
    check->add_option("paths", check_paths, "directories or files")->required();
    check->add_option("-j,--jobs", jobs, "scenarios run in parallel processes")->check(CLI::Range(1, 64));
    bool update_counts = false;
    check->add_flag("--update-counts", update_counts, "record each scenario's exploration count in <dir>/explorations.lock");

    auto* replay = app.add_subcommand("replay", "replay a counterexample from its token");
    replay->add_option("file", replay_file, "the scenario")->required();
    replay->add_option("token", replay_token, "the replay token printed with the counterexample")->required();
    replay->add_flag("--json", rf.json, "print the JSON result");
    replay->add_flag("--stable", rf.stable, "leave out timings");
    replay->add_option("--format", rf.format, "text, email or json")->check(CLI::IsMember({"text", "email", "json"}));
    auto* replay_html = replay->add_option("--html", rf.html, "also write the HTML swimlane page to this file");

    auto* list = app.add_subcommand("list", "the models, with their ops, knobs and invariants");
    list->add_flag("--memory-model", mm, "print the memory-model table (docs/memory-model.md)");

    auto* validate = app.add_subcommand("validate", "check scenario files without running them");
    validate->add_option("files", validate_files, "scenario files or directories")->required();

    auto* schema = app.add_subcommand("schema", "print the JSON Schema of scenario files (docs/scenario.schema.json)");

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
        return code == 0 ? 0 : 2;
    }
    for (auto* o : {run_html, run_email, replay_html})
        if (o->count() && o->as<std::string>().empty())
            throw LoadError(o->get_name() + ": empty file name; accepted: a writable file path");

    int rc = 2;
    if (*run) rc = cmd_run(run_files, rf);
    else if (*check) rc = cmd_check(check_paths, jobs, update_counts);
    else if (*replay) rc = cmd_replay(replay_file, replay_token, rf);
    else if (*list) rc = cmd_list(mm);
    else if (*schema) {
        out_text(scenario_schema_text(models()));
        rc = 0;
    } else if (*validate) {
        for (const auto& f : collect_scenarios(validate_files)) {
            load_scenario(f);
            out_text("valid: " + printable(f, kMaxShownFile) + "\n");
        }
        rc = 0;
    }
    // Output written with std::cout elsewhere (list) is checked here.
    errno = 0;
    std::cout.flush();
    if (!std::cout) write_failed("stdout", errno);
    return rc;
}

}  // namespace vfsmc
