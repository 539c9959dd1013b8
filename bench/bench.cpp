// vfsmc benchmark: for each scenario, executions per second, time to the
// first counterexample (violated scenarios) and executions to completion
// (holds); and the layer's cost against raw Relacy on the same tiny
// protocol. Speed is measured here, never in tests.
//
//   vfsmc_bench [--repeat N] [SCENARIO_OR_DIR...]     (default: scenarios/)
//   vfsmc_bench --dcache-cost [--repeat N] [--iterations N]
//       only the per-execution cost on the dcache protocol (raw_dcache.cpp)
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <cstring>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "search/engine.h"
#include "substrate/runtime.h"
#include "scenario/scenario.h"

void raw_toy_lock(int threads, unsigned bound, unsigned long long& executions, double& seconds);
void raw_dcache(bool sc, unsigned long long iterations, double& cpu_seconds, double& steps_per_exec);

using namespace vfsmc;

static void layer_vs_raw(int repeat) {
    std::printf("## Layer cost: toy lock, preemption bound 3\n\n");
    std::printf("| threads | raw Relacy execs | raw execs/s | vfsmc execs | vfsmc execs/s | cost |\n|---|---|---|---|---|---|\n");
    for (int threads : {2, 3}) {
        double best_raw = 0, best_layer = 0;
        unsigned long long raw_execs = 0, layer_execs = 0;
        for (int i = 0; i < repeat; i++) {
            double secs = 0;
            raw_toy_lock(threads, 3, raw_execs, secs);
            best_raw = std::max(best_raw, raw_execs / secs);
            std::string th;
            for (int t = 0; t < threads; t++)
                th += std::string(t ? "," : "") + "{\"name\":\"P" + std::to_string(t) + "\",\"ops\":[\"critical_section\"]}";
            Scenario s = parse_scenario("toy.json", "{\"name\":\"toy\",\"doc\":\"bench\",\"model\":\"toy-lock\",\"threads\":[" + th +
                                                        "],\"search\":{\"strategy\":\"bounded\",\"preemption_bound\":3},\"expect\":\"holds\"}");
            RunResult r = run_scenario(s, RunOptions());
            layer_execs = r.executions;
            best_layer = std::max(best_layer, r.execs_per_sec);
        }
        std::printf("| %d | %llu | %.0f | %llu | %.0f | %.1fx slower per execution |\n", threads, raw_execs, best_raw,
                    layer_execs, best_layer, best_raw / best_layer);
    }
    std::printf("\n(The execution counts differ because the two encode the protocol differently: the "
                "layer's spin_lock is one atomic step per attempt and its plain accesses are not "
                "scheduling points, while the raw version spins with a CAS and a yield. The cost column "
                "compares time per execution: logging every step, naming objects, recording reads-from "
                "and checking races.)\n\n");
}

// The layer's cost on the real protocol: shared-create-vs-open against the
// same world written straight on Relacy (raw_dcache.cpp), both under
// Relacy's random scheduler for the same number of iterations, in CPU
// seconds (the machine is shared). vfsmc also under dpor (its own count).
static void dcache_vs_raw(int repeat, long iterations) {
    const char* file = "scenarios/dcache/shared-create-vs-open.json";
    std::printf("## Layer cost: dcache, %s, random search, %ld iterations (best of %d, CPU time)\n\n", file,
                iterations, repeat);
    std::printf("| memory model | raw execs/CPU-s | raw steps/exec | vfsmc execs/CPU-s | vfsmc steps/exec | cost |\n"
                "|---|---|---|---|---|---|\n");
    Scenario base = load_scenario(file);
    for (bool sc : {true, false}) {
        double best_raw = 0, best_layer = 0, raw_steps = 0;
        double layer_steps = 0;
        for (int i = 0; i < repeat; i++) {
            double cpu = 0;
            raw_dcache(sc, (unsigned long long)iterations, cpu, raw_steps);
            if (cpu < 0) {
                std::printf("| %s | raw model failed an assertion | | | | |\n", sc ? "sc" : "kernel");
                break;
            }
            best_raw = std::max(best_raw, iterations / cpu);
            Scenario s = base;
            s.memory_model = sc ? MemModel::sc : MemModel::kernel;
            RunOptions o;
            o.override_search = true;
            o.search.strategy = Strategy::random;
            o.search.iterations = iterations;
            o.minimize = false;
            uint64_t sp0 = rt().sched_points;
            std::clock_t c0 = std::clock();
            RunResult r = run_scenario(s, o);
            double lc = double(std::clock() - c0) / CLOCKS_PER_SEC;
            best_layer = std::max(best_layer, r.executions / lc);
            layer_steps = double(rt().sched_points - sp0) / double(r.executions);
        }
        std::printf("| %s | %.0f | %.1f | %.0f | %.1f | %.1fx the CPU per execution |\n", sc ? "sc" : "kernel", best_raw,
                    raw_steps, best_layer, layer_steps, best_raw / best_layer);
    }
    {
        RunOptions o;
        o.override_search = true;
        o.search.strategy = Strategy::dpor;
        o.search.max_executions = (long)iterations;
        std::clock_t c0 = std::clock();
        RunResult r = run_scenario(base, o);
        double lc = double(std::clock() - c0) / CLOCKS_PER_SEC;
        std::printf("\nvfsmc under dpor (kernel, first %llu executions): %.0f execs/CPU-s\n\n",
                    (unsigned long long)r.executions, r.executions / lc);
    }
}

int main(int argc, char** argv) {
    // The heap settings of vfsmc's own main() (checker/cli/main.cpp), so that
    // the figures are those of the command a user runs; the raw model runs
    // under them too.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 16 << 20);
    int repeat = 3;
    long iterations = 20000;
    bool dcache_only = false;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = std::max(1L, std::atol(argv[++i]));
        else if (!std::strcmp(argv[i], "--dcache-cost")) dcache_only = true;
        else paths.push_back(argv[i]);
    }
    if (paths.empty()) paths.push_back("scenarios");
    try {
        if (dcache_only) {
            dcache_vs_raw(repeat, iterations);
            return 0;
        }
        layer_vs_raw(repeat);
        dcache_vs_raw(repeat, iterations);
        std::printf("## Scenarios (best of %d)\n\n", repeat);
        std::printf("| scenario | memory model | search | verdict | executions | execs/s | seconds | first counterexample |\n");
        std::printf("|---|---|---|---|---|---|---|---|\n");
        for (const auto& f : collect_scenarios(paths)) {
            Scenario s = load_scenario(f);
            RunResult best;
            double best_secs = 1e18;
            for (int i = 0; i < repeat; i++) {
                RunResult r = run_scenario(s, RunOptions());
                if (r.seconds < best_secs) {
                    best_secs = r.seconds;
                    best = r;
                }
            }
            std::string search = best.strategy + (best.preemption_bound >= 0 ? " " + std::to_string(best.preemption_bound) : "");
            std::printf("| %s | %s | %s | %s%s | %llu | %.0f | %.3f | %s |\n", s.name.c_str(), best.memory_model.c_str(),
                        search.c_str(), verdict_name(best.verdict), best.invariant.empty() ? "" : (" " + best.invariant).c_str(),
                        (unsigned long long)best.executions, best.execs_per_sec, best.seconds,
                        best.verdict == Verdict::violated ? (std::to_string(best.seconds).substr(0, 5) + " s after " +
                                                      std::to_string(best.executions) + " executions").c_str()
                                                   : "-");
            std::fflush(stdout);
        }
    } catch (const LoadError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return 0;
}
