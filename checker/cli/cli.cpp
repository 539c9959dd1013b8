// vfsmc command line: run, check, replay, list, validate.
#include "cli/cli.h"
#include "kernel/mutations.h"

#include <sys/wait.h>
#include <unistd.h>

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
#include "scenario/scenario.h"
#include "scenario/schema.h"

namespace vfsmc {

namespace fs = std::filesystem;

bool as_expected(const Scenario& s, const RunResult& r) {
    if (r.verdict != s.expect.verdict) return false;
    if (r.verdict == "violated") return r.invariant == s.expect.invariant;
    return true;
}

std::vector<std::string> collect_scenarios(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            for (auto it = fs::recursive_directory_iterator(p, ec); it != fs::recursive_directory_iterator(); ++it) {
                const fs::path& f = it->path();
                if (it->is_regular_file() && f.extension() == ".json") out.push_back(f.string());
            }
        } else if (fs::exists(p, ec)) {
            out.push_back(p);
        } else {
            throw LoadError(p + ": no such file or directory; accepted: scenario files (*.json) or directories of them");
        }
    }
    std::sort(out.begin(), out.end());
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

void print_result(const Scenario& s, const RunResult& r, const RunFlags& f) {
    ReportOptions o;
    o.stable = f.stable;
    o.replay_cmd = replay_command(s, r);
    if (!f.html.empty()) {
        std::ofstream out(f.html);
        if (!out) throw LoadError(f.html + ": cannot write the HTML page; accepted: a writable file path");
        out << html_report(s, r, o);
    }
    if (!f.email.empty()) {
        std::ofstream out(f.email);
        if (!out) throw LoadError(f.email + ": cannot write the email report; accepted: a writable file path");
        out << email_report(s, r, o);
    }
    std::vector<std::string> vac = vacuous_steps(s, r);
    if (f.json || f.format == "json") {
        nlohmann::json j = json_report(s, r, o);
        j["vacuous_steps"] = vac;
        std::cout << j.dump(2) << "\n";
    } else if (f.format == "email") {
        std::cout << email_report(s, r, o);
    } else {
        std::cout << text_report(s, r, o);
        if (r.verdict == "violated") std::cout << summary_line(s, r, f.stable) << "\n";
    }
    for (const auto& st : vac)
        std::cerr << s.file << ": warning: vacuous: the scenario names step " << st
                  << " but no explored execution reached it\n";
    if (!as_expected(s, r)) {
        std::cerr << s.file << ": expected " << s.expect.verdict
                  << (s.expect.invariant.empty() ? "" : " " + s.expect.invariant) << ", got " << r.verdict
                  << (r.invariant.empty() ? "" : " " + r.invariant) << "\n";
    }
}

int cmd_run(const std::vector<std::string>& files, const RunFlags& f) {
    int rc = 0;
    for (const auto& file : collect_scenarios(files)) {
        Scenario s = load_scenario(file);
        for (const auto& w : s.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
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
            std::cout << "coverage: " << (m->spec().steps.size() - missing.size()) << " of "
                      << m->spec().steps.size() << " model steps reached\n";
            for (const auto& st : missing) std::cout << "  never reached: " << st << "\n";
        }
        if (!as_expected(s, r)) rc = std::max(rc, 1);
    }
    return rc;
}

// One scenario of `check`, in a child process. Writes one record to `fd`:
// "<status>\t<name>\t<executions or ->\t<text>" with status pass, fail, error
// or internal.
void check_child(const std::string& file, int fd) {
    std::string line;
    try {
        Scenario s = load_scenario(file);
        RunOptions opt;
        opt.minimize = false;  // the verdict and the count are what check judges
        RunResult r = run_scenario(s, opt);
        bool ok = as_expected(s, r);
        std::vector<std::string> vac = vacuous_steps(s, r);
        std::string got = r.verdict + (r.invariant.empty() ? "" : " " + r.invariant);
        std::string want = s.expect.verdict + (s.expect.invariant.empty() ? "" : " " + s.expect.invariant);
        std::string text = std::string(ok && vac.empty() ? "ok    " : "FAIL  ") + file + ": " + got +
                           (ok ? "" : " (expected " + want + ")") + " [" + std::to_string(r.executions) + " executions, " +
                           std::to_string((long)(r.seconds * 1000)) + " ms]";
        for (const auto& v : vac) text += "\n      vacuous: names step " + v + " but no explored execution reached it";
        for (const auto& w : s.warnings) text += "\n      warning: " + w;
        if (!ok && r.verdict == "violated") text += "\n      replay: " + replay_command(s, r);
        // A count cut by a time limit is not repeatable: no oracle for it.
        std::string count = s.search.time_limit_s > 0 ? "-" : std::to_string(r.executions);
        line = std::string(ok && vac.empty() ? "pass" : "fail") + "\t" + s.name + "\t" + count + "\t" + text;
    } catch (const LoadError& e) {
        line = std::string("error\t-\t-\t") + e.what();
    } catch (const std::exception& e) {
        line = std::string("internal\t-\t-\tinternal error: ") + file + ": " + e.what();
    }
    line += "\n";
    if (write(fd, line.data(), line.size()) < 0) _exit(3);
}

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
        if (fs::exists(path)) {
            std::ifstream in(path);
            try {
                j = nlohmann::json::parse(in);
            } catch (const std::exception&) {
                throw LoadError(path + ": invalid JSON; accepted: an object of scenario name -> executions (rewrite it with --update-counts)");
            }
            if (!j.is_object())
                throw LoadError(path + ": not an object; accepted: an object of scenario name -> executions (rewrite it with --update-counts)");
        }
        return by_dir[dir] = j;
    }
};

int cmd_check(const std::vector<std::string>& paths, int jobs, bool update_counts) {
    std::vector<std::string> files = collect_scenarios(paths);
    if (files.empty()) throw LoadError(paths.empty() ? "check" : paths[0] + ": no scenario files (*.json) found; accepted: a directory of scenarios");
    if (jobs < 1) jobs = 1;
    CountLocks locks, fresh_locks;
    for (const auto& f : files) {
        locks.of(f);
        fresh_locks.by_dir[fs::path(f).parent_path().string()] = nlohmann::json::object();
    }
    struct Job {
        pid_t pid;
        int fd;
        size_t idx;
    };
    std::vector<Job> running;
    size_t next = 0;
    int passed = 0, failed = 0, errors = 0, internal = 0;
    auto reap = [&](Job j) {
        std::string out;
        char buf[4096];
        ssize_t n;
        while ((n = read(j.fd, buf, sizeof buf)) > 0) out.append(buf, n);
        close(j.fd);
        int st = 0;
        waitpid(j.pid, &st, 0);
        if (out.empty()) out = "internal\t-\t-\tinternal error: " + files[j.idx] + ": the checker died (status " + std::to_string(st) + ")\n";
        std::vector<std::string> f;
        size_t pos = 0;
        for (int k = 0; k < 3; k++) {
            size_t t = out.find('\t', pos);
            f.push_back(out.substr(pos, t - pos));
            pos = t + 1;
        }
        std::string status = f[0], name = f[1], count = f[2], text = out.substr(pos);
        if (status == "pass" && count != "-") {
            nlohmann::json& lock = locks.of(files[j.idx]);
            fresh_locks.of(files[j.idx])[name] = std::stoull(count);
            if (!update_counts) {
                if (!lock.contains(name)) {
                    status = "fail";
                    text = "FAIL  " + text.substr(6);
                    text.pop_back();
                    text += "\n      no recorded exploration count (record it with `vfsmc check --update-counts`)\n";
                } else if (lock[name].get<unsigned long long>() != std::stoull(count)) {
                    status = "fail";
                    text = "FAIL  " + text.substr(6);
                    text.pop_back();
                    text += "\n      exploration count changed: " + std::to_string(lock[name].get<unsigned long long>()) + " -> " +
                            count + " executions; the model's state space moved (review it, then `vfsmc check --update-counts`)\n";
                }
            }
        }
        if (status == "pass") passed++;
        else if (status == "fail") failed++;
        else if (status == "error") errors++;
        else internal++;
        std::cout << text << std::flush;
    };
    while (next < files.size() || !running.empty()) {
        while (next < files.size() && (int)running.size() < jobs) {
            int p[2];
            if (pipe(p) != 0) throw std::runtime_error("pipe failed");
            std::cout.flush();
            pid_t pid = fork();
            if (pid < 0) throw std::runtime_error("fork failed");
            if (pid == 0) {
                close(p[0]);
                check_child(files[next], p[1]);
                close(p[1]);
                _exit(0);
            }
            close(p[1]);
            running.push_back({pid, p[0], next});
            next++;
        }
        // Reap in submission order so the output is stable.
        Job j = running.front();
        running.erase(running.begin());
        reap(j);
    }
    if (update_counts) {
        for (auto& kv : fresh_locks.by_dir) {
            // Keep entries of scenarios not run this time.
            nlohmann::json merged = locks.of((fs::path(kv.first) / "x.json").string());
            for (auto it = kv.second.begin(); it != kv.second.end(); ++it) merged[it.key()] = it.value();
            std::string path = (fs::path(kv.first) / "explorations.lock").string();
            std::ofstream out(path);
            out << merged.dump(2) << "\n";
            std::cout << "recorded " << kv.second.size() << " exploration counts in " << path << "\n";
        }
    }
    std::cout << passed << " passed, " << (failed + errors + internal) << " failed\n";
    if (internal) return 3;
    if (errors) return 2;
    return failed ? 1 : 0;
}

int cmd_replay(const std::string& file, const std::string& token, const RunFlags& f) {
    Scenario s = load_scenario(file);
    RunResult r = replay_scenario(s, token);
    if (r.verdict == "error") {
        std::cerr << file << ": replay token: " << r.message << "\n";
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

int cmd_list(bool memory_model, bool mutations);  // list.cpp

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
    run->add_option("--html", rf.html, "also write a self-contained HTML swimlane page to this file");
    run->add_option("--email", rf.email, "also write the 72-column email form to this file");
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
    replay->add_option("--html", rf.html, "also write the HTML swimlane page to this file");

    auto* list = app.add_subcommand("list", "the models, with their ops, knobs and invariants");
    list->add_flag("--memory-model", mm, "print the memory-model table (docs/memory-model.md)");
    bool mutations = false;
    list->add_flag("--mutations", mutations, "print the deletions scripts/mutate selects with VFSMC_MUTATION");

    auto* validate = app.add_subcommand("validate", "check scenario files without running them");
    validate->add_option("files", validate_files, "scenario files or directories")->required();

    auto* schema = app.add_subcommand("schema", "print the JSON Schema of scenario files (docs/scenario.schema.json)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    // scripts/mutate selects a deletion by VFSMC_MUTATION (checker/kernel/mutations.h).
    if (const char* m = active_mutation(); m && !find_mutation(m)) {
        std::string acc;
        for (const auto& k : kMutations) acc += std::string(acc.empty() ? "" : ", ") + k.name;
        throw LoadError(std::string("VFSMC_MUTATION: unknown mutation \"") + m + "\"; accepted: " + acc);
    }

    if (*run) return cmd_run(run_files, rf);
    if (*check) return cmd_check(check_paths, jobs, update_counts);
    if (*replay) return cmd_replay(replay_file, replay_token, rf);
    if (*list) return cmd_list(mm, mutations);
    if (*schema) {
        std::cout << scenario_schema_text(models());
        return 0;
    }
    if (*validate) {
        for (const auto& f : collect_scenarios(validate_files)) {
            Scenario s = load_scenario(f);
            for (const auto& w : s.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
            std::cout << "valid: " << f << "\n";
        }
        return 0;
    }
    return 2;
}

}  // namespace vfsmc
