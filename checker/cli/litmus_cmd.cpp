// vfsmc litmus: run herd7 C litmus tests (`vfsmc litmus FILE...`) and judge
// a corpus against the LKMM's recorded answers (`vfsmc litmus --check DIR`).
//
// --check compares vfsmc's answer with each test's `Result:` line. A
// difference is a *miss* (vfsmc Never, the LKMM Sometimes: the dangerous
// direction) or a *false alarm* (vfsmc Sometimes, the LKMM Never). A test
// whose difference is known says so in a `vfsmc: <answer> (<class>)` line;
// --check fails on a difference no test declares, and on a declared one that
// no longer happens (like the exploration-count oracle).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "litmus/litmus.h"
#include "litmus/parser.h"
#include "report/report.h"
#include "scenario/printable.h"
#include "scenario/scenario.h"

namespace vfsmc {

namespace fs = std::filesystem;
using namespace litmus;

namespace {

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



// The command that prints this witness again: the search is deterministic,
// so the same flags give the same execution.
std::string witness_command(const std::string& file, const LitmusFlags& f) {
    std::string c = "vfsmc litmus --witness";
    if (f.first) c += " --first";
    if (f.format != "text") c += " --format " + f.format;
    return c + " " + shell_word(file);
}

// A search cut by the time limit or a signal: one line on stderr.
void say_inconclusive(const std::string& file, const Outcome& o) {
    std::string why = stop_requested ? "interrupted by signal " + std::to_string((int)stop_requested)
                                     : "stopped by the " + (o.run.limit.empty() ? std::string("time limit") : o.run.limit);
    std::cerr << printable(file, kMaxShownFile) << ": " << why << ": the result above is inconclusive, "
              << o.run.executions << " executions explored\n";
}

}  // namespace


int cmd_litmus(const std::vector<std::string>& paths, const LitmusFlags& f) {
    if (f.generate) return cmd_litmus_generate(paths, f);
    std::vector<std::string> files = collect_litmus(paths);
    if (files.empty())
        throw LoadError(printable(paths[0], kMaxShownFile) + ": no litmus tests (*.litmus) found; accepted: *.litmus files or directories of them");
    if (f.oracle) return cmd_litmus_oracle(files, f);
    Options opt;
    opt.witness = f.witness;
    opt.minimize = !f.first;
    opt.time_limit = f.time_limit;
    catch_stop_signals();
    if (!f.check) {
        int rc = 0;
        for (const auto& file : files) {
            std::string text = read_text(file);
            Test t = parse(file, text);  // a LoadError is exit 2, one line
            Outcome o = run(t, text, opt);
            if (!o.error.empty()) throw LoadError(o.error);
            // The test's name and text are untrusted: every line printed is made printable.
            out_text(printable_lines(herd_report(t, o, f.stable)));
            if (o.inconclusive) {
                say_inconclusive(file, o);
                return stop_requested ? stopped_status() : 1;
            }
            if (f.witness) {
                ReportOptions ro;
                ro.stable = f.stable;
                ro.replay = {witness_command(file, f), "", ""};
                if (!o.has_witness) {
                    out_text(std::string("No witness: ") +
                             (o.witness.verdict == Verdict::inconclusive
                                  ? std::string("the witness search was ") + (stop_requested ? "interrupted.\n" : "cut by the time limit.\n")
                              : std::string("no execution ") + (t.quant == Quant::Forall ? "violates" : "satisfies") +
                                    " the condition.\n"));
                } else if (f.format == "json") {
                    out_text(json_printable(json_report(o.scenario, o.witness, ro).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n");
                } else if (f.format == "email") {
                    out_text("\n" + printable_lines(email_report(o.scenario, o.witness, ro)));
                } else {
                    out_text("\n" + printable_lines(text_report(o.scenario, o.witness, ro)));
                }
                if (o.has_witness && !f.html.empty()) write_file(f.html, html_report(o.scenario, o.witness, ro));
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

    // --check: each test against its Result: line.
    int agree = 0, miss = 0, alarm = 0, other = 0, unsupported = 0, errors = 0, unexpected = 0, noresult = 0;
    struct Row {
        std::string name, lkmm, ours, verdict, cls;
    };
    std::vector<Row> rows;
    std::map<std::string, std::map<std::string, int>> by_class;  // class -> judgement -> count
    std::ostringstream lines;  // one per test; --table prints the table instead
    int inconclusive = 0;
    size_t done = 0;
    for (const auto& file : files) {
        if (stop_requested) break;
        done++;
        std::string text;
        Test t;
        try {
            text = read_text(file);
            t = parse(file, text);
        } catch (const LoadError& e) {
            std::string m = error_line(e.what());
            bool unsup = m.find("unsupported construct") != std::string::npos;
            (unsup ? unsupported : errors)++;
            lines << (unsup ? "UNSUP  " : "ERROR  ") << m << "\n";
            if (unsup) {
                rows.push_back({fs::path(file).stem().string(), "", "", "unsupported", ""});
                by_class["unsupported"]["unsupported"]++;
            }
            continue;
        }
        Outcome o;
        try {
            o = run(t, text, opt);
        } catch (const LoadError& e) {
            std::string m = error_line(e.what());
            bool unsup = m.find("unsupported construct") != std::string::npos;
            (unsup ? unsupported : errors)++;
            lines << (unsup ? "UNSUP  " : "ERROR  ") << m << "\n";
            continue;
        }
        if (!o.error.empty()) {
            errors++;
            lines << "ERROR  " << error_line(o.error) << "\n";
            continue;
        }
        if (o.inconclusive) {
            if (stop_requested) {
                done--;  // counted as not run
                break;
            }
            inconclusive++;
            lines << "INCONCLUSIVE " << printable(file, kMaxShownFile) << ": stopped by the time limit after "
                  << o.run.executions << " executions\n";
            continue;
        }
        Judgement j = judge(t.expected, o.answer);
        std::string line = printable(file, kMaxShownFile) + ": " + answer_name(o.answer) + " (LKMM " + (t.result_text.empty() ? "-" : t.result_text) + ")";
        bool declared = t.vfsmc_answer != Answer::None;
        bool ok = true;
        std::string cls = declared ? t.vfsmc_class : "";
        switch (j) {
            case Judgement::Agree: agree++; break;
            case Judgement::Miss: miss++; break;
            case Judgement::FalseAlarm: alarm++; break;
            case Judgement::Other: other++; break;
            case Judgement::NoResult: noresult++; break;
        }
        if (j == Judgement::NoResult) {
            ok = false;
            line += " [no `Result:` line]";
        } else if (j == Judgement::Agree && declared) {
            ok = false;
            line += " [the test declares `" + t.vfsmc_expected + "` but vfsmc now agrees with the LKMM: remove the line]";
        } else if (j != Judgement::Agree && !declared) {
            ok = false;
            line += " [undeclared difference: explain it with a `vfsmc: <answer> (<class>)` line, or fix the layer]";
        } else if (j != Judgement::Agree && t.vfsmc_answer != o.answer) {
            ok = false;
            line += " [the test declares `" + t.vfsmc_expected + "`]";
        } else if (j != Judgement::Agree) {
            line += " [" + cls + "]";
        }
        if (!ok) unexpected++;
        const char* tag = !ok ? "FAIL   " : j == Judgement::Agree ? "agree  " : j == Judgement::Miss ? "MISS   "
                        : j == Judgement::FalseAlarm ? "ALARM  " : "DIFFER ";
        lines << tag << line << "  [" << o.run.executions << " executions]\n";
        rows.push_back({t.name, t.result_text, answer_name(o.answer), judgement_name(j), cls});
        by_class[j == Judgement::Agree ? "" : cls.empty() ? "undeclared" : cls][judgement_name(j)]++;
    }
    int differ = miss + alarm + other;
    if (!f.table) out_text(printable_lines(lines.str()));
    else if (errors || unexpected) std::cerr << printable_lines(lines.str());
    std::ostringstream summary;
    summary << agree << " agree, " << differ << " differ (" << miss << (miss == 1 ? " miss, " : " misses, ") << alarm
              << (alarm == 1 ? " false alarm" : " false alarms") << (other ? ", " + std::to_string(other) + " Always/Sometimes" : "")
              << "), " << unsupported << " unsupported" << (inconclusive ? ", " + std::to_string(inconclusive) + " inconclusive" : "");
    if (stop_requested)
        summary << ", " << files.size() - done << " not run: interrupted by signal " << (int)stop_requested;
    summary << "\n";
    if (f.table) {
        summary << "\n| test | LKMM | vfsmc | judgement | class |\n|---|---|---|---|---|\n";
        for (const auto& r : rows)
            summary << "| " << r.name << " | " << r.lkmm << " | " << r.ours << " | " << r.verdict << " | " << r.cls << " |\n";
        summary << "\n| class | agree | miss | false alarm | unsupported |\n|---|---|---|---|---|\n";
        for (const auto& kv : by_class) {
            auto get = [&](const char* k) { auto it = kv.second.find(k); return it == kv.second.end() ? 0 : it->second; };
            summary << "| " << (kv.first.empty() ? "(none)" : kv.first) << " | " << get("agree") << " | " << get("miss") << " | "
                      << get("false alarm") << " | " << get("unsupported") << " |\n";
        }
        summary << "| **total** | " << agree << " | " << miss << " | " << alarm << " | " << unsupported << " |\n";
    }
    out_text(printable_lines(summary.str()));
    if (stop_requested) return stopped_status();
    if (errors) return 2;
    return unexpected || inconclusive ? 1 : 0;
}

}  // namespace vfsmc
