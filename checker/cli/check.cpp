// vfsmc check: the regression run. Every scenario runs in a child process
// of its own, at most --jobs at a time, and is judged by its `expect` and by
// the exploration count recorded beside it (check_lock.cpp); the results
// are printed in file order, and --junit and --format github
// (check_output.cpp) carry them to CI.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/check.h"
#include "cli/cli.h"
#include "report/report.h"
#include "base/printable.h"
#include "scenario/scenario.h"

namespace vfsmc {

namespace fs = std::filesystem;

namespace {

// One scenario of `check`, in a child process. Writes one record to `fd`, a
// JSON object {status, name, count, text} on one line, status pass, fail,
// error or internal. (JSON, so a tab or newline in a file name cannot break
// the record.)
void check_child(const ScenarioEntry& entry, const CheckOptions& o, int fd) {
    nlohmann::json rec;
    const std::string& file = entry.file;
    std::string shown = printable(file, kMaxShownFile);
    try {
        if (!entry.error.empty()) throw LoadError(entry.error);
        Scenario s = load_scenario(file);
        RunOptions opt;
        opt.minimize = false;  // the verdict and the count are what check judges
        opt.mutation = o.mutation;
        RunResult r = run_scenario(s, opt);
        bool ok = as_expected(s, r);
        std::vector<std::string> vac = vacuous_steps(s, r);
        // A step reached against the needs its model declares: the
        // declaration is wrong, and --coverage would misreport it.
        std::vector<StepCoverage::SelectedAway> against = step_coverage(s, r).against_needs;
        bool pass = ok && vac.empty() && against.empty();
        std::string got = verdict_with_scope(r) + (r.invariant.empty() ? "" : " " + r.invariant);
        std::string want = expected_text(s);
        std::string text = std::string(pass ? "ok    " : "FAIL  ") + shown + ": " + got +
                           (ok ? "" : " (expected " + want + ")") + " [" + std::to_string(r.executions) + " executions, " +
                           std::to_string((long)(r.seconds * 1000)) + " ms]";
        for (const auto& v : vac) text += "\n      vacuous: names step " + v + " but no explored execution reached it";
        for (const auto& a : against)
            text += "\n      step needs: " + a.step + " was reached, but " + a.why + " (models/" + s.model + ")";
        for (const auto& w : s.warnings) text += "\n      warning: " + printable(w, 4000);
        for (const auto& w : order_without_hb(s, r)) text += "\n      warning: " + printable(w, 4000);
        if (!ok && r.verdict == Verdict::violated) text += "\n      replay: " + printable(replay_command(s, r).text(), 4000);
        // A count cut by a time limit is not repeatable: no oracle for it.
        rec["status"] = pass ? "pass" : "fail";
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

// A child running one scenario, and what it has written so far.
struct Job {
    pid_t pid;
    int fd;
    size_t idx;  // into the files
    std::string out;
    bool eof = false;
};

// One `check` run: the scenario files, the children running them, the
// counts read and found, and the records judged so far.
class CheckRun {
public:
    CheckRun(std::vector<ScenarioEntry> files, const CheckOptions& o) : files_(std::move(files)), o_(o) {
        for (const auto& f : files_) {
            if (!f.error.empty()) continue;
            locks_.of(f.file);
            fresh_locks_.by_dir[fs::path(f.file).parent_path().string()] = nlohmann::json::object();
        }
    }
    // An error here (stdout full) leaves no child behind either.
    ~CheckRun() {
        for (auto& j : running_) {
            kill(j.pid, SIGKILL);
            waitpid(j.pid, nullptr, 0);
            close(j.fd);
        }
    }
    int run();

private:
    void start_jobs(pid_t parent);
    bool drain(Job& j, bool block);
    void judge(Job& j, int st);
    void check_count(const std::string& file, const std::string& name, unsigned long long count, std::string& status,
                     std::string& text);
    int stop_all();
    int judged() const { return passed_ + failed_ + errors_ + internal_; }

    std::vector<ScenarioEntry> files_;
    CheckOptions o_;
    CountLocks locks_, fresh_locks_;
    std::vector<Job> running_;
    size_t next_ = 0;
    int passed_ = 0, failed_ = 0, errors_ = 0, internal_ = 0;
    std::vector<CheckRecord> records_;
};

void CheckRun::start_jobs(pid_t parent) {
    int jobs = o_.jobs < 1 ? 1 : o_.jobs;
    while (next_ < files_.size() && (int)running_.size() < jobs && !stop_requested) {
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
            for (const auto& j : running_) close(j.fd);
            check_child(files_[next_], o_, p[1]);
            close(p[1]);
            _exit(0);
        }
        close(p[1]);
        running_.push_back({pid, p[0], next_, "", false});
        next_++;
    }
}

// Reads what the child wrote so far; true at end of file.
bool CheckRun::drain(Job& j, bool block) {
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
}

// A passing scenario's count against the one recorded beside it: a new
// scenario, a bad entry or a count that moved fails it.
void CheckRun::check_count(const std::string& file, const std::string& name, unsigned long long count, std::string& status,
                           std::string& text) {
    auto mark_failed = [&](const std::string& why) {
        status = "fail";
        text = "FAIL  " + text.substr(6);
        text.pop_back();
        text += "\n      " + why + "\n";
    };
    unsigned long long want = 0;
    nlohmann::json& lock = locks_.of(file);
    fresh_locks_.of(file)[name] = count;
    if (o_.update_counts) return;
    std::string lock_path = printable((fs::path(file).parent_path() / "explorations.lock").string(), kMaxShownFile);
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

// The record a finished child wrote (or the way it died), judged, counted
// and printed.
void CheckRun::judge(Job& j, int st) {
    const std::string& file = files_[j.idx].file;
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
    if (status == "pass" && rec.contains("count") && rec["count"].is_number_unsigned())
        check_count(file, name, rec["count"].get<unsigned long long>(), status, text);
    if (status == "pass") passed_++;
    else if (status == "fail") failed_++;
    else if (status == "error") errors_++;
    else internal_++;
    records_.push_back({file, name, status, text, rec.value("seconds", 0.0)});
    out_text(text);
    if (o_.format == "github" && status != "pass") out_text(github_annotation(records_.back()) + "\n");
}

// Interrupted: no child outlives this run. What had finished is printed, in
// order; the rest is counted as not run.
int CheckRun::stop_all() {
    for (auto& j : running_) kill(j.pid, SIGKILL);
    for (auto& j : running_) {
        int st = 0;
        while (waitpid(j.pid, &st, 0) < 0 && errno == EINTR) {
        }
        drain(j, false);
        close(j.fd);
        if (!j.out.empty() && j.out.back() == '\n') judge(j, st);
    }
    running_.clear();
    size_t not_run = files_.size() - (size_t)judged();
    out_text(std::to_string(passed_) + " passed, " + std::to_string(failed_ + errors_ + internal_) + " failed, " +
             std::to_string(not_run) + " not run: interrupted by signal " + std::to_string((int)stop_requested) + "\n");
    return stopped_status();
}

int CheckRun::run() {
    catch_stop_signals();
    pid_t parent = getpid();
    while (next_ < files_.size() || !running_.empty()) {
        start_jobs(parent);
        if (stop_requested) return stop_all();
        // Reap in submission order so the output is stable; wait in short
        // polls so that a signal is acted on at once.
        Job& j = running_.front();
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
        running_.erase(running_.begin());
        judge(done, st);
    }
    if (o_.update_counts) {
        for (auto& kv : fresh_locks_.by_dir) {
            std::string path = (fs::path(kv.first) / "explorations.lock").string();
            update_lock_file(path, kv.second);
            out_text("recorded " + std::to_string(kv.second.size()) + " exploration counts in " + printable(path, kMaxShownFile) + "\n");
        }
    }
    out_text(std::to_string(passed_) + " passed, " + std::to_string(failed_ + errors_ + internal_) + " failed\n");
    if (!o_.junit.empty()) write_junit(o_.junit, records_);
    if (internal_) return 3;
    if (errors_) return 2;
    return failed_ ? 1 : 0;
}

}  // namespace

int cmd_check(const std::vector<std::string>& paths, const CheckOptions& o) {
    std::vector<ScenarioEntry> files = find_scenarios(paths);
    if (files.empty()) throw LoadError("check: no scenario files (*.json) found; accepted: a directory of scenarios");
    if (!o.shard.empty()) {
        CountLocks locks;
        size_t all = files.size();
        files = shard_of(std::move(files), o.shard, locks);
        out_text("shard " + o.shard + ": " + std::to_string(files.size()) + " of " + std::to_string(all) + " scenarios\n");
    }
    if (!o.junit.empty()) {
        // An unwritable --junit path is an error before the run, not after it.
        errno = 0;
        std::ofstream probe(o.junit, std::ios::app);
        if (!probe) write_failed(o.junit, errno);
    }
    CheckRun run(std::move(files), o);
    return run.run();
}

}  // namespace vfsmc
