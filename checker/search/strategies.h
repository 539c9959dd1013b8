// vfsmc: the one table of search strategies. A strategy is a row here and
// a scheduler (search/dpor.h, search/pct.h, or one of Relacy's): its
// name, its token code and parameter, what it explores, the scope a search
// that found nothing may claim, its phrase for humans and its scheduler.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "search/engine.h"

namespace rl {
struct test_params;
}

namespace vfsmc {

// How a token writes a strategy's scheduler state (search/token.cpp).
enum class StateFormat : uint8_t {
    tree,               // ITER SIZE (COUNT INDEX TYPE)*: Relacy's tree_search_scheduler, dpor
    iteration,          // ITER: a seeded scheduler (random)
    iteration_horizon,  // ITER K: PCT
};

// The number a strategy takes, in a scenario's `search` and a token.
enum class StrategyParam : uint8_t { none, preemption_bound, depth };

struct StrategyRow {
    Strategy strategy;
    const char* name;          // `search.strategy`, `--strategy`
    char token_code;           // the letter in a replay token
    StateFormat token_state;
    StrategyParam param;
    // Explores every reads-from choice of every read it runs (the
    // stale-read cuts apply: search/stale_cut.h).
    bool every_rf;
    // Seeded: its executions are drawn (under `sc`, as Relacy's random
    // scheduler does, a relaxed load may read two stores back).
    bool seeded;
    // What a search that ended without a limit and found nothing claims.
    Scope scope;
    // What it explored, for humans (RunResult::completeness); `horizon`:
    // PCT's number of steps.
    std::string (*phrase)(const SearchSpec& ss, uint64_t horizon);
    // Runs the search with `nthreads` threads (search/suite.h).
    int (*simulate)(int nthreads, rl::test_params& p);
};

// Every row, in the order names are listed to users.
const std::vector<StrategyRow>& strategy_rows();
const StrategyRow& strategy_row(Strategy s);
// nullptr when no row has that name or code.
const StrategyRow* strategy_named(const std::string& name);
const StrategyRow* strategy_coded(char code);
// The names, in the table's order.
std::vector<std::string> strategy_list();

}  // namespace vfsmc
