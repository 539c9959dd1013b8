// vfsmc: the table of search strategies (strategies.h).
#include "search/strategies.h"

#include <cstdio>

#include "search/dpor.h"
#include "search/pct.h"
#include "search/suite.h"

namespace vfsmc {

namespace {

std::string phrase_exhaustive(const SearchSpec&, uint64_t) { return "every interleaving (plain search)"; }
std::string phrase_dpor(const SearchSpec&, uint64_t) {
    return "every interleaving up to the order of independent steps (dpor)";
}
std::string phrase_bounded(const SearchSpec& ss, uint64_t) {
    return "every interleaving with at most " + std::to_string(ss.preemption_bound) + " preemptions";
}
std::string phrase_random(const SearchSpec& ss, uint64_t) {
    return std::to_string(ss.iterations) + " random interleavings, seed " + std::to_string(ss.seed);
}
std::string phrase_pct(const SearchSpec& ss, uint64_t horizon) {
    return std::to_string(ss.iterations) + " PCT interleavings of depth " + std::to_string(ss.depth) + " over " +
           std::to_string(horizon) + " steps, seed " + std::to_string(ss.seed);
}

}  // namespace

const std::vector<StrategyRow>& strategy_rows() {
    static const std::vector<StrategyRow> rows = {
        {Strategy::dpor, "dpor", 'd', StateFormat::tree, StrategyParam::none, true, false, Scope::complete,
         phrase_dpor, simulate_threads<dpor_scheduler>},
        {Strategy::exhaustive, "exhaustive", 'e', StateFormat::tree, StrategyParam::none, true, false, Scope::complete,
         phrase_exhaustive, simulate_threads<rl::full_search_scheduler>},
        {Strategy::bounded, "bounded", 'b', StateFormat::tree, StrategyParam::preemption_bound, true, false, Scope::bounded,
         phrase_bounded, simulate_threads<rl::context_bound_scheduler>},
        {Strategy::random, "random", 'r', StateFormat::iteration, StrategyParam::none, false, true, Scope::sampled,
         phrase_random, simulate_threads<rl::random_scheduler>},
        {Strategy::pct, "pct", 'p', StateFormat::iteration_horizon, StrategyParam::depth, false, true, Scope::sampled,
         phrase_pct, simulate_threads<pct_scheduler>},
    };
    return rows;
}

const StrategyRow& strategy_row(Strategy s) {
    for (const auto& r : strategy_rows())
        if (r.strategy == s) return r;
    std::fprintf(stderr, "internal error: a strategy without a row in strategy_rows()\n");
    std::abort();
}

const StrategyRow* strategy_named(const std::string& name) {
    for (const auto& r : strategy_rows())
        if (name == r.name) return &r;
    return nullptr;
}

const StrategyRow* strategy_coded(char code) {
    for (const auto& r : strategy_rows())
        if (code == r.token_code) return &r;
    return nullptr;
}

std::vector<std::string> strategy_list() {
    std::vector<std::string> out;
    for (const auto& r : strategy_rows()) out.push_back(r.name);
    return out;
}

const char* strategy_name(Strategy s) { return strategy_row(s).name; }

}  // namespace vfsmc
