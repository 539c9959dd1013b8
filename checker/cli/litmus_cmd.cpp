// vfsmc litmus: run herd7 C litmus tests (`vfsmc litmus FILE...`) and judge
// a corpus against the LKMM's recorded answers (`vfsmc litmus --check DIR`).
//
// --check compares vfsmc's answer with each test's `Result:` line. A
// difference is a *miss* (vfsmc Never, the LKMM Sometimes: the dangerous
// direction) or a *false alarm* (vfsmc Sometimes, the LKMM Never). A test
// whose difference is known says so in a `vfsmc: <answer> (<class>)` line;
// --check fails on a difference no test declares, and on a declared one that
// no longer happens (like the exploration-count oracle).
//
// Under --check every test runs in a process of its own (-jN at a time),
// with a time limit (60 s unless --time-limit says otherwise); its line is
// printed as soon as it finishes, and the summary counts every test: agree,
// differ, unsupported, parse error, inconclusive.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "litmus/litmus.h"
#include "litmus/parser.h"
#include "lkmm/oracle.h"
#include "report/report.h"
#include "base/printable.h"
#include "scenario/scenario.h"

namespace vfsmc {

namespace fs = std::filesystem;
using namespace litmus;

namespace {

constexpr double kCheckTimeLimit = 60;  // seconds per test under --check, unless told

std::string read_text(const std::string& file) { return read_test(file); }

// Every *.litmus under the paths, sorted. A *.litmus that is not a
// regular file is kept (its read says what it is: one line), a directory
// that cannot be read is one line; directory symlinks are not followed.
std::vector<std::string> collect_litmus(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& p : paths) {
        std::error_code ec;
        std::string shown = printable(p, kMaxShownFile);
        if (fs::is_directory(p, ec)) {
            fs::recursive_directory_iterator it(p, ec), end;
            for (; !ec && it != end; it.increment(ec)) {
                std::error_code e2;
                if (!it->is_directory(e2) && it->path().extension() == ".litmus") out.push_back(it->path().string());
            }
            if (ec)
                throw LoadError(shown + ": cannot read the directory (" + ec.message() +
                                "); accepted: a readable directory of litmus tests");
        } else if (fs::exists(fs::symlink_status(p, ec)) || fs::exists(p, ec)) {
            out.push_back(p);
        } else {
            throw LoadError(shown + ": no such file or directory; accepted: litmus tests (*.litmus) or directories of them");
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The search the flags ask for.
Options options_of(const LitmusFlags& f) {
    Options opt;
    opt.witness = f.witness;
    opt.minimize = !f.first;
    opt.mutation = f.mutation;
    opt.stale_cut = test_stale_cut();
    if (const char* g = std::getenv("VFSMC_TEST_GP_WORDS")) opt.gp_words = *g != 0;  // "1" (check_environment())
    if (const char* g = std::getenv("VFSMC_TEST_GP_END")) opt.gp_end_split = *g != 0;  // "split" (check_environment())
    if (const char* m = std::getenv("VFSMC_TEST_MB_PROMISE"); m && *m)  // off or mutant (check_environment())
        opt.barrier_promise = std::string(m) == "off" ? Options::BarrierPromise::off : Options::BarrierPromise::mutant;
    if (const char* r = std::getenv("VFSMC_TEST_REFUSED"); r && *r)  // off, end or mutant (check_environment())
        opt.refused = std::strcmp(r, "off") == 0    ? RefusedPromise::off
                      : std::strcmp(r, "end") == 0  ? RefusedPromise::end
                                                    : RefusedPromise::mutant;
    if (const char* c = std::getenv("VFSMC_TEST_CLOSE"); c && *c)  // off, locations, mutant or value-mutant (check_environment())
        opt.close_stores = std::strcmp(c, "off") == 0         ? Options::CloseStores::off
                           : std::strcmp(c, "locations") == 0 ? Options::CloseStores::locations
                           : std::strcmp(c, "mutant") == 0    ? Options::CloseStores::mutant
                                                              : Options::CloseStores::value_mutant;
    if (const char* k = std::getenv("VFSMC_TEST_KEPT_CUT"); k && *k)  // off or mutant (check_environment())
        opt.kept_cut = std::strcmp(k, "off") == 0 ? KeptCut::off : KeptCut::mutant;
    opt.fence_order = test_fence_order();
    if (!f.strategy.empty() && !parse_strategy(f.strategy, opt.search.strategy))
        throw LoadError("--strategy: bad value `" + f.strategy + "`; accepted: dpor, exhaustive, bounded, random, pct");
    if (f.bound >= 0) {
        if (opt.search.strategy != Strategy::bounded)
            throw LoadError("--bound: bad value `" + std::to_string(f.bound) + "`; accepted: a bound only with --strategy bounded");
        opt.search.preemption_bound = f.bound;
    }
    double limit = f.time_limit > 0 ? f.time_limit : f.check ? kCheckTimeLimit : 0;
    opt.search.time_limit_s = limit;
    return opt;
}

// The flags that choose the search, for a command that must search alike.
std::string search_flags(const LitmusFlags& f) {
    std::string s;
    if (!f.strategy.empty()) s += " --strategy " + f.strategy;
    if (f.bound >= 0) s += " --bound " + std::to_string(f.bound);
    return s;
}

// The options for one test: with the values its locations may hold, so
// that its loads may read stores that come later (load buffering). A test
// whose values the oracle cannot bound runs without, and its Never or
// Always is inconclusive (Options::no_load_buffering).
Options for_test(Options o, const Test& t) {
    std::string error;
    std::vector<std::vector<long>> domains;
    if (!lkmm::value_domains(t, domains, error, &o.written)) {
        if (error.compare(0, t.file.size() + 2, t.file + ": ") == 0) error.erase(0, t.file.size() + 2);
        // One thread reads only its own stores: nothing to buffer.
        if (t.procs.size() > 1) o.no_load_buffering = error;
    }
    return o;
}

// What a witness satisfies, for its report.
std::string witness_of(const Test& t) {
    return t.quant == Quant::Forall ? "the negation of the forall clause" : "the exists clause";
}

void print_witness(const Test& t, const Outcome& o, const RunResult& w, const LitmusFlags& f, const std::string& file) {
    ReportOptions ro;
    ro.stable = f.stable;
    ro.witness = witness_of(t);
    std::string flags = o.witness_search.empty() ? search_flags(f) : o.witness_search;
    ro.replay = {"vfsmc litmus --witness" + flags + " " + shell_word(file) + " --replay", w.token,
                 w.mutation.empty() ? "" : " --mutation " + shell_word(w.mutation)};
    // The test's name and text are untrusted: every line printed is made printable.
    if (f.format == "json")
        out_text(json_printable(json_report(o.scenario, w, ro).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n");
    else if (f.format == "email") out_text("\n" + printable_lines(email_report(o.scenario, w, ro)));
    else out_text("\n" + printable_lines(text_report(o.scenario, w, ro)));
    if (!f.html.empty()) write_file(f.html, html_report(o.scenario, w, ro));
}

// A search cut by the time limit or a signal: one line on stderr.
void say_inconclusive(const std::string& file, const Outcome& o) {
    std::string why = stop_requested ? "interrupted by signal " + std::to_string((int)stop_requested)
                                     : "stopped by the " + (o.run.limit.empty() ? std::string("time limit") : o.run.limit);
    std::cerr << printable(file, kMaxShownFile) << ": " << why << ": the result above is inconclusive, "
              << o.run.executions << " executions explored\n";
}

// `vfsmc litmus FILE...`: herd7's lines for each, and the witnesses.
int run_tests(const std::vector<std::string>& files, const LitmusFlags& f) {
    Options opt = options_of(f);
    if (!f.replay.empty()) {
        if (!f.witness || files.size() != 1)
            throw LoadError("--replay: bad use; accepted: `vfsmc litmus --witness FILE --replay TOKEN` with one test");
        const std::string& file = files[0];
        std::string text = read_text(file);
        Test t = parse(file, text);
        RunResult r = replay_witness(t, text, for_test(opt, t), f.replay);
        if (r.verdict == Verdict::error) throw LoadError(printable(file, kMaxShownFile) + ": --replay: " + r.message);
        if (r.verdict != Verdict::violated || r.invariant != "litmus-condition") {
            out_text("The token's execution does not satisfy the condition of " + printable(t.name, kMaxShownFile) + ".\n");
            return 1;
        }
        Outcome o;
        o.scenario = witness_scenario(t, text, for_test(opt, t));
        print_witness(t, o, r, f, file);
        return 0;
    }
    int rc = 0;
    for (const auto& file : files) {
        std::string text = read_text(file);
        Test t = parse(file, text);  // a LoadError is exit 2, one line
        Outcome o = run(t, text, for_test(opt, t));
        if (!o.error.empty()) throw LoadError(o.error);
        out_text(printable_lines(herd_report(t, o, f.stable)));
        if (o.partial)
            std::cerr << printable(file, kMaxShownFile) << ": stopped by the "
                      << (o.run.limit.empty() ? std::string("time limit") : o.run.limit) << " after " << o.run.executions
                      << " executions, which showed both kinds of outcome: Sometimes; the states and counts above are those seen\n";
        if (o.inconclusive) {
            say_inconclusive(file, o);
            if (stop_requested) return stopped_status();
            rc = std::max(rc, 1);
        }
        if (f.witness && !o.inconclusive) {
            if (!o.has_witness)
                out_text(o.witness.verdict == Verdict::inconclusive
                             ? std::string("No witness: the witness search was ") +
                                   (stop_requested ? "interrupted.\n" : "cut by the time limit.\n")
                             : std::string("No witness: no execution ") +
                                   (t.quant == Quant::Forall ? "violates" : "satisfies") + " the condition.\n");
            else
                print_witness(t, o, o.witness, f, file);
            if (stop_requested) {
                std::cerr << printable(file, kMaxShownFile) << ": interrupted by signal " << (int)stop_requested
                          << " during the witness search\n";
                return stopped_status();
            }
        }
        if (files.size() > 1) out_text("\n");
    }
    return rc;
}

enum class Judgement { Agree, Miss, FalseAlarm, Other, NoResult };

Judgement judge(Answer lkmm, Answer ours) {
    if (lkmm == Answer::None) return Judgement::NoResult;
    if (lkmm == ours) return Judgement::Agree;
    if (ours == Answer::Never && lkmm != Answer::Never) return Judgement::Miss;
    if (ours != Answer::Never && lkmm == Answer::Never) return Judgement::FalseAlarm;
    return Judgement::Other;  // Always vs Sometimes
}

const char* judgement_name(Judgement j) {
    switch (j) {
        case Judgement::Agree: return "agree";
        case Judgement::Miss: return "miss";
        case Judgement::FalseAlarm: return "false alarm";
        case Judgement::Other: return "differ";
        case Judgement::NoResult: return "no Result";
    }
    return "?";
}

// One test under --check. `kind` is what the summary counts it as: agree,
// miss, false alarm, differ, no Result, unsupported, parse error,
// inconclusive; `ok` is false when the corpus does not expect it.
struct CheckResult {
    std::string file, name, kind, line, lkmm, ours, cls;
    bool ok = true;
    uint64_t interleavings = 0;
    double seconds = 0;
};

nlohmann::json to_json(const CheckResult& r) {
    return {{"file", r.file}, {"name", r.name}, {"kind", r.kind}, {"line", r.line}, {"lkmm", r.lkmm}, {"ours", r.ours},
            {"cls", r.cls}, {"ok", r.ok}, {"interleavings", r.interleavings}, {"seconds", r.seconds}};
}

CheckResult from_json(const nlohmann::json& j) {
    CheckResult r;
    r.file = j.value("file", "");
    r.name = j.value("name", "");
    r.kind = j.value("kind", "parse error");
    r.line = j.value("line", "");
    r.lkmm = j.value("lkmm", "");
    r.ours = j.value("ours", "");
    r.cls = j.value("cls", "");
    r.ok = j.value("ok", false);
    r.interleavings = j.value("interleavings", (uint64_t)0);
    r.seconds = j.value("seconds", 0.0);
    return r;
}

CheckResult check_one(const std::string& file, const Options& opt) {
    CheckResult c;
    c.file = file;
    c.name = fs::path(file).stem().string();
    auto start = std::chrono::steady_clock::now();
    auto rejected = [&](const std::string& m) {
        bool unsup = m.find("unsupported construct") != std::string::npos;
        c.kind = unsup ? "unsupported" : "parse error";
        c.ok = unsup;
        c.line = std::string(unsup ? "UNSUP  " : "ERROR  ") + error_line(m);
    };
    std::string text;
    Test t;
    try {
        text = read_text(file);
        t = parse(file, text);
        c.name = t.name;
    } catch (const LoadError& e) {
        rejected(e.what());
        return c;
    }
    Outcome o;
    try {
        o = run(t, text, for_test(opt, t));
    } catch (const LoadError& e) {
        rejected(e.what());
        return c;
    }
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    c.interleavings = o.run.executions;
    c.lkmm = t.result_text;
    if (!o.error.empty()) {
        c.kind = "parse error";
        c.ok = false;
        c.line = "ERROR  " + error_line(o.error);
        return c;
    }
    if (o.inconclusive) {
        c.kind = "inconclusive";
        c.ok = false;
        c.ours = "inconclusive";
        c.line = "INCONC " + printable(file, kMaxShownFile) + ": inconclusive (stopped by the " + (o.run.limit.empty() ? "limit" : o.run.limit) +
                 " after " + std::to_string(o.run.executions) + " interleavings; LKMM " +
                 (t.result_text.empty() ? "-" : t.result_text) + ")";
        return c;
    }
    c.ours = answer_name(o.answer);
    Judgement j = judge(t.expected, o.answer);
    if (t.result_text == "DEADLOCK") {
        // `Result: DEADLOCK` (the kernel's judgelitmus.sh): no execution
        // exists at all, herd7's `Never 0 0`.
        bool none = o.positive + o.negative == 0;
        j = none ? Judgement::Agree : Judgement::Other;
        c.ours = none ? "DEADLOCK" : answer_name(o.answer);
    }
    // herd7's `Flag data-race` is part of the answer: a `Result: ...
    // DATARACE` line expects it, any other line its absence.
    bool race = o.data_race, want_race = lkmm::expects_data_race(text);
    if (j == Judgement::Agree && race != want_race) j = race ? Judgement::FalseAlarm : Judgement::Miss;
    if (race) c.ours += " DATARACE";
    if (want_race) c.lkmm += " DATARACE";
    c.kind = judgement_name(j);
    std::string line = printable(file, kMaxShownFile) + ": " + c.ours + " (LKMM " + (t.result_text.empty() ? "-" : t.result_text) +
                       (want_race ? " DATARACE" : "") + ")";
    bool declared = t.vfsmc_answer != Answer::None;
    c.cls = declared ? t.vfsmc_class : "";
    if (j == Judgement::NoResult) {
        c.ok = false;
        line += " [no `Result:` line]";
    } else if (j == Judgement::Agree && declared) {
        c.ok = false;
        line += " [the test declares `" + t.vfsmc_expected + "` but vfsmc now agrees with the LKMM: remove the line]";
    } else if (j != Judgement::Agree && !declared) {
        c.ok = false;
        line += " [undeclared difference: explain it with a `vfsmc: <answer> (<class>)` line, or fix the layer]";
    } else if (j != Judgement::Agree && t.vfsmc_answer != o.answer) {
        c.ok = false;
        line += " [the test declares `" + t.vfsmc_expected + "`]";
    } else if (j != Judgement::Agree) {
        line += " [" + c.cls + "]";
    }
    const char* tag = !c.ok ? "FAIL   " : j == Judgement::Agree ? "agree  " : j == Judgement::Miss ? "MISS   "
                    : j == Judgement::FalseAlarm ? "ALARM  " : "DIFFER ";
    c.line = tag + line + "  [" + std::to_string(o.positive + o.negative) + " executions" +
             (o.partial ? ", cut by the " + (o.run.limit.empty() ? std::string("limit") : o.run.limit) + ": Sometimes from those]" : "]");
    return c;
}


// JUnit XML, one test case per litmus test (tests/junit.xsd): an unexpected
// answer is a failure, a parse error or a cut search an error, an
// unsupported construct a skipped test.
void write_junit(const std::string& path, const std::vector<CheckResult>& rs) {
    long fails = 0, errs = 0, skipped = 0;
    double total = 0;
    for (const auto& r : rs) {
        total += r.seconds;
        if (r.kind == "unsupported") skipped++;
        else if (r.kind == "parse error" || r.kind == "inconclusive") errs++;
        else if (!r.ok) fails++;
    }
    std::ostringstream x;
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.3f", total);
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"vfsmc litmus --check\" tests=\"" << rs.size()
      << "\" failures=\"" << fails << "\" errors=\"" << errs << "\" time=\"" << secs << "\">\n"
      << "  <testsuite name=\"litmus\" tests=\"" << rs.size() << "\" failures=\"" << fails << "\" errors=\"" << errs
      << "\" skipped=\"" << skipped << "\" time=\"" << secs << "\">\n";
    for (const auto& r : rs) {
        std::snprintf(secs, sizeof secs, "%.3f", r.seconds);
        x << "    <testcase name=\"" << xml_esc(r.name) << "\" classname=\"litmus\" file=\"" << xml_esc(r.file)
          << "\" time=\"" << secs << "\"";
        if (r.kind == "unsupported") {
            x << ">\n      <skipped message=\"" << xml_esc(r.line) << "\"/>\n    </testcase>\n";
        } else if (r.kind == "parse error" || r.kind == "inconclusive") {
            x << ">\n      <error message=\"" << xml_esc(r.line) << "\" type=\"" << r.kind << "\">" << xml_esc(r.line)
              << "</error>\n    </testcase>\n";
        } else if (!r.ok) {
            x << ">\n      <failure message=\"" << xml_esc(r.line) << "\" type=\"fail\">" << xml_esc(r.line)
              << "</failure>\n    </testcase>\n";
        } else {
            x << "/>\n";
        }
    }
    x << "  </testsuite>\n</testsuites>\n";
    write_file(path, x.str());
}

// Run the tests in child processes, -j at a time, and hand each result to
// `done` as it finishes. A child that outlives its time limit by far (a
// search the engine failed to stop) is killed and counted inconclusive.
void run_children(const std::vector<std::string>& files, const Options& opt, int jobs,
                  const std::function<void(const CheckResult&)>& done) {
    struct Job {
        pid_t pid;
        int fd;
        size_t idx;
        std::string out;
        std::chrono::steady_clock::time_point start;
    };
    std::vector<Job> running;
    size_t next = 0;
    bool forwarded = false;
    pid_t parent = getpid();
    double hard = opt.search.time_limit_s > 0 ? opt.search.time_limit_s * 2 + 30 : 0;
    auto finish = [&](Job& j, bool killed) {
        int st = 0;
        while (waitpid(j.pid, &st, 0) < 0 && errno == EINTR) {
        }
        close(j.fd);
        CheckResult c;
        bool parsed = false;
        if (!killed) {
            try {
                c = from_json(nlohmann::json::parse(j.out));
                parsed = true;
            } catch (const std::exception&) {
            }
        }
        if (!parsed) {
            c.file = files[j.idx];
            c.name = fs::path(c.file).stem().string();
            c.ok = false;
            if (killed) {
                c.kind = "inconclusive";
                c.line = "INCONC " + printable(c.file, kMaxShownFile) + ": inconclusive (killed: still running " + std::to_string((int)hard) + " s after it started)";
            } else {
                c.kind = "parse error";
                c.line = "ERROR  internal error: " + printable(c.file, kMaxShownFile) + ": the checker died (" +
                         (WIFSIGNALED(st) ? "signal " + std::to_string(WTERMSIG(st)) : "status " + std::to_string(WEXITSTATUS(st))) + ")";
            }
        }
        done(c);
    };
    while ((next < files.size() && !stop_requested) || !running.empty()) {
        while (next < files.size() && !stop_requested && (int)running.size() < jobs) {
            int p[2];
            if (pipe(p) != 0) throw std::runtime_error("pipe failed");
            std::cout.flush();
            pid_t pid = fork();
            if (pid < 0) throw std::runtime_error("fork failed");
            if (pid == 0) {
                die_with_parent(parent, SIGKILL);
                close(p[0]);
                for (const auto& j : running) close(j.fd);
                std::string out;
                try {
                    out = to_json(check_one(files[next], opt)).dump();
                } catch (const std::exception& e) {
                    CheckResult c;
                    c.file = files[next];
                    c.name = fs::path(c.file).stem().string();
                    c.kind = "parse error";
                    c.ok = false;
                    c.line = std::string("ERROR  internal error: ") + printable(files[next], kMaxShownFile) + ": " + error_line(e.what());
                    out = to_json(c).dump();
                }
                size_t off = 0;
                while (off < out.size()) {
                    ssize_t n = write(p[1], out.data() + off, out.size() - off);
                    if (n <= 0) break;
                    off += (size_t)n;
                }
                close(p[1]);
                _exit(0);
            }
            close(p[1]);
            running.push_back({pid, p[0], next, "", std::chrono::steady_clock::now()});
            next++;
        }
        if (stop_requested && !forwarded) {
            // The tests still running stop as a single test would: inconclusive.
            for (const auto& j : running) kill(j.pid, (int)stop_requested);
            forwarded = true;
        }
        std::vector<struct pollfd> pfds;
        for (const auto& j : running) pfds.push_back({j.fd, POLLIN, 0});
        int pr = poll(pfds.data(), pfds.size(), 500);
        if (pr < 0 && errno != EINTR) throw std::runtime_error("poll failed");
        auto now = std::chrono::steady_clock::now();
        for (size_t i = running.size(); i-- > 0;) {
            Job& j = running[i];
            bool eof = false;
            if (pr > 0 && (pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                char buf[4096];
                ssize_t n = read(j.fd, buf, sizeof buf);
                if (n > 0) j.out.append(buf, (size_t)n);
                else if (n == 0 || errno != EINTR) eof = true;
            }
            bool late = hard > 0 && std::chrono::duration<double>(now - j.start).count() > hard;
            if (!eof && !late) continue;
            if (!eof) kill(j.pid, SIGKILL);
            Job d = j;
            running.erase(running.begin() + (long)i);
            finish(d, !eof);
        }
    }
}

// `vfsmc litmus --check`: each test against its Result: line. A signal
// stops the launching of tests; those still running end inconclusive (the
// signal reaches their processes too), and the summary says how many were
// not run.
int check_tests(const std::vector<std::string>& files, const LitmusFlags& f) {
    Options opt = options_of(f);
    opt.witness = false;
    std::vector<CheckResult> results;
    std::map<std::string, int> count;
    int unexpected = 0;
    run_children(files, opt, f.jobs, [&](const CheckResult& c) {
        results.push_back(c);
        count[c.kind]++;
        if (!c.ok) unexpected++;
        // Names and lines come from untrusted files: printed printable.
        if (!f.table) out_text(printable_lines(c.line) + "\n");
        else if (!c.ok) std::cerr << printable_lines(c.line) << "\n";
    });
    std::sort(results.begin(), results.end(), [](const CheckResult& a, const CheckResult& b) { return a.file < b.file; });
    int agree = count["agree"], miss = count["miss"], alarm = count["false alarm"], other = count["differ"];
    int differ = miss + alarm + other;
    std::ostringstream s;
    s << agree << " agree, " << differ << " differ (" << miss << (miss == 1 ? " miss, " : " misses, ") << alarm
      << (alarm == 1 ? " false alarm" : " false alarms") << (other ? ", " + std::to_string(other) + " Always/Sometimes" : "")
      << "), " << count["unsupported"] << " unsupported, " << count["parse error"]
      << (count["parse error"] == 1 ? " parse error, " : " parse errors, ") << count["inconclusive"] << " inconclusive"
      << (count["no Result"] ? ", " + std::to_string(count["no Result"]) + " without a Result" : "");
    if (stop_requested)
        s << ", " << files.size() - results.size() << " not run: interrupted by signal " << (int)stop_requested;
    s << "\n";
    if (f.table) {
        std::map<std::string, std::map<std::string, int>> by_class;  // class -> judgement -> count
        s << "\n| test | LKMM | vfsmc | judgement | class |\n|---|---|---|---|---|\n";
        for (const auto& r : results) {
            if (r.kind == "parse error") continue;
            s << "| " << r.name << " | " << r.lkmm << " | " << r.ours << " | " << r.kind << " | " << r.cls << " |\n";
            by_class[r.kind == "agree" ? "" : r.kind == "unsupported" ? "unsupported" : r.cls.empty() ? "undeclared" : r.cls][r.kind]++;
        }
        s << "\n| class | agree | miss | false alarm | unsupported |\n|---|---|---|---|---|\n";
        for (const auto& kv : by_class) {
            auto get = [&](const char* k) { auto it = kv.second.find(k); return it == kv.second.end() ? 0 : it->second; };
            s << "| " << (kv.first.empty() ? "(none)" : kv.first) << " | " << get("agree") << " | " << get("miss") << " | "
              << get("false alarm") << " | " << get("unsupported") << " |\n";
        }
        s << "| **total** | " << agree << " | " << miss << " | " << alarm << " | " << count["unsupported"] << " |\n";
    }
    out_text(printable_lines(s.str()));
    if (!f.junit.empty()) write_junit(f.junit, results);
    if (stop_requested) return stopped_status();
    if (count["parse error"]) return 2;
    return unexpected ? 1 : 0;
}

}  // namespace

int cmd_litmus(const std::vector<std::string>& paths, const LitmusFlags& f) {
    if (f.generate) return cmd_litmus_generate(paths, f);
    std::vector<std::string> files = collect_litmus(paths);
    if (files.empty())
        throw LoadError(printable(paths[0], kMaxShownFile) + ": no litmus tests (*.litmus) found; accepted: *.litmus files or directories of them");
    if (f.oracle) return cmd_litmus_oracle(files, f);
    if (!f.check && (f.jobs != 1 || !f.junit.empty()))
        throw LoadError(std::string(f.junit.empty() ? "--jobs" : "--junit") + ": bad use; accepted: only with --check");
    if (f.check && (!f.replay.empty() || f.witness))
        throw LoadError(std::string(f.witness ? "--witness" : "--replay") + ": bad use; accepted: not with --check");
    catch_stop_signals();
    return f.check ? check_tests(files, f) : run_tests(files, f);
}

}  // namespace vfsmc
