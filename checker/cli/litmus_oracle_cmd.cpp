// vfsmc litmus --oracle: answer litmus tests with the executable LKMM
// (checker/lkmm) and print herd7's report, or (--check) judge a corpus
// against each test's `Result:` line: N agree, N differ, N unsupported.
// Unlike the engine's --check, a test's `vfsmc:` line does not excuse a
// difference: the oracle is the LKMM, so every difference fails. A
// `Result: <answer> DATARACE` line also expects herd7's `Flag data-race`.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <iostream>
#include <sstream>

#include "cli/cli.h"
#include "litmus/parser.h"
#include "lkmm/generate.h"
#include "lkmm/oracle.h"
#include "base/printable.h"
#include "scenario/scenario.h"

namespace vfsmc {

using namespace litmus;

int cmd_litmus_oracle(const std::vector<std::string>& files, const LitmusFlags& f) {
    if (f.witness) throw LoadError("--witness: not with --oracle; accepted: --oracle alone, or --witness without it");
    if (!f.check) {
        for (const auto& file : files) {
            Test t = parse_file(file);  // a LoadError is exit 2, one line
            lkmm::OracleOutcome o = lkmm::oracle_run(t);
            if (!o.error.empty()) throw LoadError(o.error);
            std::cout << printable_lines(lkmm::oracle_report(t, o, f.stable));
            if (files.size() > 1) std::cout << "\n";
        }
        return 0;
    }
    int agree = 0, differ = 0, unsupported = 0, errors = 0, noresult = 0;
    for (const auto& file : files) {
        Test t;
        std::string text;
        try {
            text = read_test(file);
            t = parse(file, text);
        } catch (const LoadError& e) {
            std::string m = e.what();
            bool unsup = m.find("unsupported construct") != std::string::npos;
            (unsup ? unsupported : errors)++;
            std::cout << (unsup ? "UNSUP  " : "ERROR  ") << error_line(m) << "\n";
            continue;
        }
        lkmm::OracleOutcome o = lkmm::oracle_run(t);
        if (!o.error.empty()) {
            bool unsup = o.error.find("unsupported construct") != std::string::npos;
            (unsup ? unsupported : errors)++;
            std::cout << (unsup ? "UNSUP  " : "ERROR  ") << error_line(o.error) << "\n";
            continue;
        }
        bool race = o.flags & lkmm::FLAG_DATA_RACE, want_race = lkmm::expects_data_race(text);
        // `Result: DEADLOCK` (the kernel's judgelitmus.sh): no allowed
        // execution at all, herd7's `Never 0 0` (as `litmus --check`).
        bool deadlock = t.result_text == "DEADLOCK", none = o.positive + o.negative == 0;
        std::ostringstream line;
        line << file << ": " << (deadlock && none ? "DEADLOCK" : answer_name(o.answer)) << (race ? " DATARACE" : "") << " (LKMM "
             << (t.result_text.empty() ? "-" : t.result_text) << (want_race ? " DATARACE" : "") << ")";
        if (!f.stable) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", o.seconds);
            line << "  [" << o.candidates << " candidates, " << buf << " s]";
        }
        if (deadlock) {
            (none && !race ? agree : differ)++;
            std::cout << (none && !race ? "agree  " : "DIFFER ") << printable(line.str()) << "\n";
        } else if (t.expected == Answer::None) {
            noresult++;
            std::cout << "FAIL   " << printable(line.str()) << " [no `Result:` line]\n";
        } else if (t.expected == o.answer && race == want_race) {
            agree++;
            std::cout << "agree  " << printable(line.str()) << "\n";
        } else {
            differ++;
            std::cout << "DIFFER " << printable(line.str()) << "\n";
        }
    }
    std::cout << agree << " agree, " << differ << " differ, " << unsupported << " unsupported"
              << (noresult ? ", " + std::to_string(noresult) + " without a Result: line" : "")
              << (errors ? ", " + std::to_string(errors) + " not judged" : "") << "\n";
    if (errors) return 2;
    return differ || noresult ? 1 : 0;
}

int cmd_litmus_generate(const std::vector<std::string>& paths, const LitmusFlags& f) {
    namespace fs = std::filesystem;
    if (paths.size() != 1)
        throw LoadError("--generate: " + std::to_string(paths.size()) +
                        " paths given; accepted: one directory to write the generated tests into");
    if (f.check || f.oracle || f.witness)
        throw LoadError("--generate: not with --check, --oracle or --witness; accepted: --generate DIR alone");
    const fs::path dir = paths[0];
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw LoadError(dir.string() + ": not a directory; accepted: a directory (created if missing) for the generated tests");
    auto t0 = std::chrono::steady_clock::now();
    std::map<std::string, int> by_answer;
    size_t n = 0;
    for (const auto& g : lkmm::generate_tests()) {
        Test t = parse(g.name + ".litmus", g.text);
        lkmm::OracleOutcome o = lkmm::oracle_run(t);
        if (!o.error.empty()) throw std::runtime_error("generated test " + g.name + ": " + o.error);
        std::string result = answer_name(o.answer);
        if (o.flags & lkmm::FLAG_DATA_RACE) result += " DATARACE";
        by_answer[result]++;
        fs::path sub = dir / g.family;
        fs::create_directories(sub, ec);
        if (ec) throw LoadError(sub.string() + ": cannot create the directory (" + ec.message() + "); accepted: a writable directory");
        std::ofstream out(sub / (g.name + ".litmus"));
        out << lkmm::with_result(g, result);
        if (!out) throw LoadError((sub / (g.name + ".litmus")).string() + ": cannot write the test; accepted: a writable directory");
        n++;
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << n << " tests written to " << dir.string() << " (";
    bool first = true;
    for (const auto& kv : by_answer) {
        std::cout << (first ? "" : ", ") << kv.second << " " << kv.first;
        first = false;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", secs);
    std::cout << ") in " << (f.stable ? std::string("-") : std::string(buf)) << " s\n";
    return 0;
}

}  // namespace vfsmc
