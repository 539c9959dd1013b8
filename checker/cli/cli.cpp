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
    // A `holds` is only as good as its scope: the scenario may ask for at
    // least a given one (a cut search is inconclusive, never holds).
    if (r.verdict == "holds") return scope_at_least(r.scope, s.expect.scope);
    return true;
}

static std::string expected_text(const Scenario& s) {
    return s.expect.verdict + (s.expect.invariant.empty() ? "" : " " + s.expect.invariant) +
           (s.expect.scope.empty() ? "" : " (" + s.expect.scope + ")");
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

std::string replay_command(const Scenario& s, const RunResult& r) {
    return "vfsmc replay " + s.file + " " + r.token;
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
};

// Apply `run --strategy/--bound/--memory-model/--without/--seed/--time-limit`
// to a loaded scenario. Returns the changes as "--flag value" words (empty:
// the scenario's own search). Bad values: LoadError, one line.
std::vector<std::string> apply_overrides(Scenario& s, const RunFlags& f) {
    std::vector<std::string> changed;
    auto bad = [&](const std::string& flag, const std::string& value, const std::string& accepted) {
        throw LoadError("vfsmc run: " + flag + ": bad value \"" + value + "\"; accepted: " + accepted);
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
    }
    if (!changed.empty() && s.invariants.empty())
        throw LoadError("vfsmc run: --without: every invariant left out; accepted: leave at least one enabled");
    return changed;
}

void print_result(const Scenario& s, const RunResult& r, const RunFlags& f,
                  const std::vector<std::string>& overrides = {}) {
    ReportOptions o;
    o.stable = f.stable;
    o.brief = f.brief;
    o.overrides = overrides;
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
    if (!overrides.empty() && !(f.json || f.format == "json")) std::cout << override_note(o) << "\n\n";
    if (f.json || f.format == "json") {
        std::cout << json_report(s, r, o).dump(2) << "\n";
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
        std::cerr << s.file << ": expected " << expected_text(s) << ", got " << verdict_with_scope(r)
                  << (r.invariant.empty() ? "" : " " + r.invariant) << "\n";
    }
}

int cmd_run(const std::vector<std::string>& files, const RunFlags& f) {
    int rc = 0;
    for (const auto& file : collect_scenarios(files)) {
        Scenario s = load_scenario(file);
        std::vector<std::string> overrides = apply_overrides(s, f);
        for (const auto& w : s.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
        RunOptions opt;
        opt.progress = f.progress && isatty(2);
        opt.minimize = !f.first;
        RunResult r = run_scenario(s, opt);
        print_result(s, r, f, overrides);
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
// "<status>\t<name>\t<executions or ->\t<seconds>\t<text>" with status pass,
// fail, error or internal.
void check_child(const std::string& file, int fd) {
    std::string line;
    try {
        Scenario s = load_scenario(file);
        RunOptions opt;
        opt.minimize = false;  // the verdict and the count are what check judges
        RunResult r = run_scenario(s, opt);
        bool ok = as_expected(s, r);
        std::vector<std::string> vac = vacuous_steps(s, r);
        std::string got = verdict_with_scope(r) + (r.invariant.empty() ? "" : " " + r.invariant);
        std::string want = expected_text(s);
        std::string text = std::string(ok && vac.empty() ? "ok    " : "FAIL  ") + file + ": " + got +
                           (ok ? "" : " (expected " + want + ")") + " [" + std::to_string(r.executions) + " executions, " +
                           std::to_string((long)(r.seconds * 1000)) + " ms]";
        for (const auto& v : vac) text += "\n      vacuous: names step " + v + " but no explored execution reached it";
        for (const auto& w : s.warnings) text += "\n      warning: " + w;
        if (!ok && r.verdict == "violated") text += "\n      replay: " + replay_command(s, r);
        // A count cut by a time limit is not repeatable: no oracle for it.
        std::string count = s.search.time_limit_s > 0 || r.verdict == "inconclusive" ? "-" : std::to_string(r.executions);
        line = std::string(ok && vac.empty() ? "pass" : "fail") + "\t" + s.name + "\t" + count + "\t" +
               strprintf("%.3f", r.seconds) + "\t" + text;
    } catch (const LoadError& e) {
        line = std::string("error\t-\t-\t0\t") + e.what();
    } catch (const std::exception& e) {
        line = std::string("internal\t-\t-\t0\tinternal error: ") + file + ": " + e.what();
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

// One scenario's outcome in `check`, for --junit and --format github.
struct CheckRecord {
    std::string file, name, status, text;
    double seconds = 0;
};

std::string xml_esc(const std::string& s) {
    std::string o;
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
    std::ofstream out(path);
    if (!out) throw LoadError(path + ": cannot write the JUnit report; accepted: a writable file path");
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
}

// A GitHub Actions workflow command: `::error file=F,title=T::message`, with
// the characters GitHub reserves escaped (%, CR, LF; and , : in properties).
std::string gh_escape(const std::string& s, bool property) {
    std::string o;
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

std::string github_annotation(const CheckRecord& r) {
    std::string text = r.text;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    std::string title = "vfsmc: " + (r.name != "-" ? r.name : fs::path(r.file).stem().string());
    return "::error file=" + gh_escape(r.file, true) + ",line=1,title=" + gh_escape(title, true) + "::" + gh_escape(text, false);
}

int cmd_check(const std::vector<std::string>& paths, int jobs, bool update_counts, const std::string& junit,
              const std::string& format) {
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
    std::vector<CheckRecord> records;
    auto reap = [&](Job j) {
        std::string out;
        char buf[4096];
        ssize_t n;
        while ((n = read(j.fd, buf, sizeof buf)) > 0) out.append(buf, n);
        close(j.fd);
        int st = 0;
        waitpid(j.pid, &st, 0);
        if (out.empty()) out = "internal\t-\t-\t0\tinternal error: " + files[j.idx] + ": the checker died (status " + std::to_string(st) + ")\n";
        std::vector<std::string> f;
        size_t pos = 0;
        for (int k = 0; k < 4; k++) {
            size_t t = out.find('\t', pos);
            f.push_back(out.substr(pos, t - pos));
            pos = t + 1;
        }
        std::string status = f[0], name = f[1], count = f[2], text = out.substr(pos);
        double secs = std::atof(f[3].c_str());
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
        records.push_back({files[j.idx], name, status, text, secs});
        std::cout << text << std::flush;
        if (format == "github" && status != "pass") std::cout << github_annotation(records.back()) << "\n" << std::flush;
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
            throw LoadError("vfsmc replay: --config: bad value \"" + kv + "\"; accepted: KEY=VALUE, a knob of the scenario's model (`vfsmc list`)");
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
    if (!config.empty()) {
        Scenario changed = with_config(file, config);
        RunResult r = replay_on(s, changed, token);
        std::string cfg;
        for (const auto& c : config) cfg += " --config " + c;
        ReportOptions o;
        o.stable = f.stable;
        o.brief = f.brief;
        o.overrides = {cfg.substr(1)};
        o.replay_cmd = replay_command(s, r) + cfg;
        if (!r.replay_followed) {
            std::cout << "The schedule of this token cannot be followed with" << cfg << ": " << r.replay_note
                      << ". The changed code takes other steps, so the replay shows nothing about it.\n";
            return 1;
        }
        std::cout << override_note(o) << "\n\n";
        if (r.verdict == "violated") {
            if (f.json || f.format == "json") std::cout << json_report(changed, r, o).dump(2) << "\n";
            else if (f.format == "email") std::cout << email_report(changed, r, o);
            else std::cout << text_report(changed, r, o);
        } else {
            std::cout << "The schedule was followed to its end with" << cfg << " and no invariant broke: "
                      << "the changed code survives this interleaving (" << r.executions << " execution replayed).\n";
        }
        return 0;
    }
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
    app.set_version_flag("--version", std::string("vfsmc ") + VFSMC_VERSION);
    app.footer(
        "Examples:\n"
        "  vfsmc run scenarios/dcache/shared-d-rehash-notes-race.json\n"
        "  vfsmc run --format email --brief FILE      # In short, for a review email\n"
        "  vfsmc run --html page.html FILE            # the swimlane page\n"
        "  vfsmc run --strategy bounded --bound 1 FILE\n"
        "  vfsmc replay FILE TOKEN --config variant=pre_seed\n"
        "  vfsmc check scenarios/ -j2 --junit results.xml\n"
        "  vfsmc list\n"
        "\n"
        "Exit codes: 0 as expected, 1 a verdict differs, 2 bad input, 3 internal error.\n"
        "Docs: README.md, docs/scenario-format.md, docs/result-format.md; man vfsmc.");
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
    replay->add_option("--html", rf.html, "also write the HTML swimlane page to this file");
    replay->add_flag("--brief", rf.brief, "leave out the full interleaving");
    std::vector<std::string> replay_config;
    replay->add_option("--config", replay_config,
                       "KEY=VALUE: replay the schedule against the scenario with this config (repeatable)");

    auto* list = app.add_subcommand("list", "the models, with their ops, knobs and invariants");
    list->add_flag("--memory-model", mm, "print the memory-model table (docs/memory-model.md)");
    bool mutations = false;
    list->add_flag("--mutations", mutations, "print the deletions scripts/mutate selects with VFSMC_MUTATION");

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
    lit->add_option("--html", lf.html, "with --witness: also write the HTML swimlane page to this file");

    auto* schema = app.add_subcommand("schema", "print the JSON Schema of scenario files (docs/scenario.schema.json)");

    // An unknown command: say which one was meant.
    if (argc > 1 && argv[1][0] != '-') {
        std::vector<std::string> cmds = {"run", "check", "replay", "list", "validate", "schema", "litmus"};
        if (std::find(cmds.begin(), cmds.end(), argv[1]) == cmds.end()) {
            std::string hint = suggest_name(argv[1], cmds);
            throw LoadError(std::string("vfsmc: unknown command \"") + argv[1] + "\"" +
                            (hint.empty() ? ";" : "; did you mean \"" + hint + "\"?") +
                            " accepted: run, check, replay, list, validate, schema, litmus (vfsmc --help)");
        }
    }
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
    if (*check) return cmd_check(check_paths, jobs, update_counts, junit, check_format);
    if (*replay) return cmd_replay(replay_file, replay_token, rf, replay_config);
    if (*list) return cmd_list(mm, mutations);
    if (*lit) return cmd_litmus(litmus_paths, lf);
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
