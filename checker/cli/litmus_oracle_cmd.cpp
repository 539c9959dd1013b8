// vfsmc litmus --oracle: answer litmus tests with the executable LKMM
// (checker/lkmm) and print herd7's report, or (--check) judge a corpus
// against each test's `Result:` line: N agree, N differ, N unsupported.
// Unlike the engine's --check, a test's `vfsmc:` line does not excuse a
// difference: the oracle is the LKMM, so every difference fails. A
// `Result: <answer> DATARACE` line also expects herd7's `Flag data-race`.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/cli.h"
#include "litmus/parser.h"
#include "lkmm/oracle.h"
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
            std::cout << lkmm::oracle_report(t, o, f.stable);
            if (files.size() > 1) std::cout << "\n";
        }
        return 0;
    }
    int agree = 0, differ = 0, unsupported = 0, errors = 0, noresult = 0;
    for (const auto& file : files) {
        Test t;
        std::string text;
        try {
            std::ifstream in(file);
            std::stringstream ss;
            ss << in.rdbuf();
            text = ss.str();
            t = parse(file, text);
        } catch (const LoadError& e) {
            std::string m = e.what();
            bool unsup = m.find("unsupported construct") != std::string::npos;
            (unsup ? unsupported : errors)++;
            std::cout << (unsup ? "UNSUP  " : "ERROR  ") << m << "\n";
            continue;
        }
        lkmm::OracleOutcome o = lkmm::oracle_run(t);
        if (!o.error.empty()) {
            errors++;
            std::cout << "ERROR  " << o.error << "\n";
            continue;
        }
        bool race = o.flags & lkmm::FLAG_DATA_RACE, want_race = lkmm::expects_data_race(text);
        std::ostringstream line;
        line << file << ": " << answer_name(o.answer) << (race ? " DATARACE" : "") << " (LKMM "
             << (t.result_text.empty() ? "-" : t.result_text) << (want_race ? " DATARACE" : "") << ")";
        if (!f.stable) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", o.seconds);
            line << "  [" << o.candidates << " candidates, " << buf << " s]";
        }
        if (t.expected == Answer::None) {
            noresult++;
            std::cout << "FAIL   " << line.str() << " [no `Result:` line]\n";
        } else if (t.expected == o.answer && race == want_race) {
            agree++;
            std::cout << "agree  " << line.str() << "\n";
        } else {
            differ++;
            std::cout << "DIFFER " << line.str() << "\n";
        }
    }
    std::cout << agree << " agree, " << differ << " differ, " << unsupported << " unsupported"
              << (noresult ? ", " + std::to_string(noresult) + " without a Result: line" : "")
              << (errors ? ", " + std::to_string(errors) + " not judged" : "") << "\n";
    if (errors) return 2;
    return differ || noresult ? 1 : 0;
}

}  // namespace vfsmc
