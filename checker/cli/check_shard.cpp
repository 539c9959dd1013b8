// vfsmc check --shard I/N: one share of a scenario folder, for a CI matrix
// or a job array.
//
// The shares are balanced by cost, and the cost of a scenario is its count
// in explorations.lock (executions grow with the search's time); a scenario
// with no recorded count costs as much as the median recorded one. The
// scenarios go, costliest first (ties in file order), each to the share
// with the least cost so far (ties to the lowest share): the greedy
// longest-processing-time rule. It depends only on the sorted file list
// and the lock files, so every job of the array computes the same shares,
// and each scenario is in exactly one.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numeric>

#include "base/errors.h"
#include "base/printable.h"
#include "cli/check.h"

namespace vfsmc {

namespace {

constexpr unsigned long long kMaxShards = 10000;

const char* const kShardAccepted = "I/N with 1 <= I <= N <= 10000, e.g. --shard 2/4";

// A whole number of at most 5 digits, or false.
bool parse_small(const std::string& t, unsigned long long& out) {
    if (t.empty() || t.size() > 5) return false;
    for (char c : t)
        if (!std::isdigit((unsigned char)c)) return false;
    out = std::stoull(t);
    return true;
}

}  // namespace

std::vector<ScenarioEntry> shard_of(std::vector<ScenarioEntry> files, const std::string& spec, CountLocks& locks) {
    size_t slash = spec.find('/');
    unsigned long long i = 0, n = 0;
    if (slash == std::string::npos || !parse_small(spec.substr(0, slash), i) || !parse_small(spec.substr(slash + 1), n) ||
        i < 1 || n < 1 || i > n || n > kMaxShards)
        throw LoadError("check: --shard: bad value \"" + printable(spec, 64) + "\"; accepted: " + kShardAccepted);

    // Each file's cost: its recorded count, or the median of those recorded.
    std::vector<long double> cost(files.size(), -1);
    std::vector<long double> known;
    for (size_t k = 0; k < files.size(); k++) {
        if (!files[k].error.empty()) continue;
        nlohmann::json& lock = locks.of(files[k].file);
        std::string name = std::filesystem::path(files[k].file).stem().string();
        unsigned long long c = 0;
        if (lock.contains(name) && lock_count(lock[name], c)) {
            cost[k] = (long double)c + 1;
            known.push_back(cost[k]);
        }
    }
    long double median = 1;
    if (!known.empty()) {
        std::nth_element(known.begin(), known.begin() + known.size() / 2, known.end());
        median = known[known.size() / 2];
    }
    for (auto& c : cost)
        if (c < 0) c = median;

    std::vector<size_t> order(files.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
    std::vector<long double> load((size_t)n, 0);
    std::vector<bool> mine(files.size(), false);
    for (size_t k : order) {
        size_t least = (size_t)(std::min_element(load.begin(), load.end()) - load.begin());
        load[least] += cost[k];
        mine[k] = least == (size_t)(i - 1);
    }
    std::vector<ScenarioEntry> out;
    for (size_t k = 0; k < files.size(); k++)
        if (mine[k]) out.push_back(std::move(files[k]));
    return out;
}

}  // namespace vfsmc
