// vfsmc replay tokens (see token.h).
#include "search/token.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "contract/mutations.h"

#include "base/errors.h"
#include "base/printable.h"
#include "search/strategies.h"

namespace vfsmc {

namespace {

// Relacy's sched_type (relacy/defs.hpp): sched, atomic_load, cas_fail,
// mem_realloc, user.
constexpr unsigned kSchedTypeSched = 0, kSchedTypeAtomicLoad = 1, kSchedTypeCasFail = 2, kSchedTypeUser = 4;
constexpr unsigned kMaxSchedType = 4;
// Choices other than a thread: the stores a load may read (bounded by
// Relacy's atomic history), a CAS failing or not, a realloc.
constexpr unsigned kMaxOtherCount = 64;

uint32_t fnv1a(const std::string& s) {
    uint32_t h = 2166136261u;
    for (unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

// A mutation (RunOptions::mutation) changes the model's code, so a token
// is valid only under the mutation it was found with (nullptr: none).
std::string hash_with(const std::string& behaviour, const char* mutation, const std::string& body) {
    char h[16];
    std::string key = behaviour + (mutation ? std::string("|mutation:") + mutation : std::string()) + "|" + body;
    std::snprintf(h, sizeof h, "%08x", fnv1a(key));
    return h;
}

// Why a checksum does not match, where a likely cause can be named: the
// token was printed under another mutation, or by a run that left out an
// invariant (the cli appends "|without:NAME" to the behaviour key, sorted).
std::string mismatch_reason(const Scenario& s, const char* now, const std::string& hash, const std::string& body) {
    if (now && hash_with(s.behaviour, nullptr, body) == hash)
        return "the token was printed without a mutation; replay it without --mutation and VFSMC_MUTATION";
    for (const auto& m : kMutations)
        if ((!now || std::strcmp(now, m.name) != 0) && hash_with(s.behaviour, m.name, body) == hash)
            return std::string("the token was printed under the mutation ") + m.name + "; replay it with --mutation " + m.name;
    std::vector<std::string> inv = s.invariants;
    std::sort(inv.begin(), inv.end());
    for (size_t i = 0; i < inv.size(); i++) {
        if (hash_with(s.behaviour + "|without:" + inv[i], now, body) == hash)
            return "the token was printed by a run with --without " + inv[i] + "; replay it with the same";
        for (size_t j = i + 1; j < inv.size(); j++)
            if (hash_with(s.behaviour + "|without:" + inv[i] + "|without:" + inv[j], now, body) == hash)
                return "the token was printed by a run with --without " + inv[i] + " --without " + inv[j] +
                       "; replay it with the same";
    }
    return "checksum mismatch: the token is damaged or belongs to another scenario, to another version of its "
           "behaviour fields, or to a run with other --without options or another mutation";
}

// A decimal number of at most 19 digits, no sign; false if not.
bool number(const std::string& t, uint64_t& out) {
    if (t.empty() || t.size() > 19) return false;
    out = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return false;
        out = out * 10 + (uint64_t)(c - '0');
    }
    return true;
}

}  // namespace

std::string shown_token(const std::string& token) { return printable(token, 60); }

std::string sign_token_body(const Scenario& s, const std::string& body, const char* mutation) {
    return "v1:" + hash_with(s.behaviour, mutation, body) + ":" + body;
}

std::string ReplayToken::relacy_state() const {
    std::string out = std::to_string(iteration) + " ";
    if (strategy == Strategy::pct) return out + std::to_string(horizon) + " ";
    if (!tree) return out;
    out += std::to_string(nodes.size()) + " ";
    for (const auto& n : nodes)
        out += std::to_string(n.count) + " " + std::to_string(n.index) + " " + std::to_string(n.type) + " ";
    return out;
}

std::string encode_token(const Scenario& s, const char* mutation, Strategy strategy, int param, MemModel mm,
                         const std::string& relacy_state) {
    const StrategyRow* c = &strategy_row(strategy);
    std::string st = relacy_state;
    for (char& ch : st)
        if (ch == ' ') ch = '-';
    std::string body = std::string(1, c->token_code) + std::to_string(c->param == StrategyParam::none ? 0 : param) +
                       (mm == MemModel::sc ? "s" : "k") + ":" + st;
    return sign_token_body(s, body, mutation);
}

ReplayToken decode_token(const Scenario& s, const std::string& token, const char* mutation) {
    auto bad = [&](const std::string& why) {
        throw LoadError(printable(s.file, kMaxShownFile) + ": replay token: bad value \"" + shown_token(token) + "\" (" + why +
                        "); accepted: a token printed by `vfsmc run` for this scenario (v1:<hash>:<search>:<state>)");
    };
    if (token.size() > kMaxTokenChars) bad("too long (" + std::to_string(token.size()) + " characters)");
    if (token.compare(0, 3, "v1:") != 0) bad("no v1: prefix");
    if (token.size() < 12 || token[11] != ':') bad("malformed: no 8-digit hash");
    std::string body = token.substr(12);
    if (token.substr(3, 8) != hash_with(s.behaviour, mutation, body)) bad(mismatch_reason(s, mutation, token.substr(3, 8), body));
    // Past the checksum a token is still untrusted (the hash is not a
    // signature): every field is checked.
    auto colon = body.find(':');
    if (colon == std::string::npos || colon < 3) bad("malformed search field");
    std::string head = body.substr(0, colon), st = body.substr(colon + 1);
    const StrategyRow* c = strategy_coded(head[0]);
    if (!c) bad("unknown strategy '" + printable(head.substr(0, 1)) + "'");
    ReplayToken t;
    t.strategy = c->strategy;
    t.tree = c->token_state == StateFormat::tree;
    char mm = head.back();
    if (mm != 's' && mm != 'k') bad("unknown memory model '" + printable(head.substr(head.size() - 1)) + "'");
    t.memory_model = mm == 's' ? MemModel::sc : MemModel::kernel;
    uint64_t bound = 0;
    if (!number(head.substr(1, head.size() - 2), bound))
        bad(c->param == StrategyParam::depth ? "malformed depth" : "malformed preemption bound");
    if (c->param == StrategyParam::preemption_bound && bound > (uint64_t)kMaxPreemptionBound)
        bad("preemption bound " + std::to_string(bound) + " out of range 0.." + std::to_string(kMaxPreemptionBound));
    if (c->param == StrategyParam::depth && (bound < 1 || bound > (uint64_t)kMaxPctDepth))
        bad("depth " + std::to_string(bound) + " out of range 1.." + std::to_string(kMaxPctDepth));
    if (c->param == StrategyParam::none && bound != 0) bad("a bound with a strategy that has none");
    if (c->param == StrategyParam::preemption_bound) t.preemption_bound = (int)bound;
    if (c->param == StrategyParam::depth) t.depth = (int)bound;

    // The state: numbers separated by '-', ending in '-'.
    std::vector<uint64_t> v;
    if (st.empty() || st.back() != '-') bad("malformed state (it ends in '-')");
    size_t pos = 0;
    while (pos < st.size()) {
        size_t e = st.find('-', pos);
        uint64_t x = 0;
        if (!number(st.substr(pos, e - pos), x)) bad("malformed state (decimal numbers separated by '-')");
        v.push_back(x);
        pos = e + 1;
    }
    t.iteration = v[0];
    if (t.iteration > kMaxTokenIteration) bad("iteration " + std::to_string(t.iteration) + " out of range");
    if (c->token_state == StateFormat::iteration) {
        if (v.size() != 1) bad("malformed state (one iteration number)");
        return t;
    }
    if (c->token_state == StateFormat::iteration_horizon) {
        if (v.size() != 2) bad("malformed state (an iteration and a step count)");
        if (v[1] < 1 || v[1] > kMaxTokenHorizon)
            bad("step count " + std::to_string(v[1]) + " out of range 1.." + std::to_string(kMaxTokenHorizon));
        t.horizon = v[1];
        return t;
    }
    if (v.size() < 2) bad("malformed state (no choice count)");
    uint64_t size = v[1];
    if (size > kMaxTokenNodes) bad("too many choices (" + std::to_string(size) + ")");
    if (v.size() != 2 + 3 * size) bad("malformed state (" + std::to_string(size) + " choices announced, " +
                                      std::to_string((v.size() - 2) / 3) + " given)");
    const uint64_t nthreads = s.threads.size();
    for (uint64_t i = 0; i < size; i++) {
        TokenNode n;
        uint64_t count = v[2 + 3 * i], index = v[3 + 3 * i], type = v[4 + 3 * i];
        std::string at = "choice " + std::to_string(i) + ": ";
        if (type > kMaxSchedType) bad(at + "unknown choice type " + std::to_string(type));
        uint64_t max_count = type == kSchedTypeSched ? nthreads
                             : type == kSchedTypeUser ? kMaxOtherCount  // kchoose(n), timed waits
                             : type == kSchedTypeCasFail ? 2
                             : type == kSchedTypeAtomicLoad ? kMaxOtherCount
                             : kMaxOtherCount;
        if (count < 1 || count > max_count)
            bad(at + "count " + std::to_string(count) + " out of range 1.." + std::to_string(max_count) +
                (type == kSchedTypeSched ? " (the scenario's threads)" : ""));
        if (index >= count) bad(at + "index " + std::to_string(index) + " not below its count " + std::to_string(count));
        n.count = (unsigned)count;
        n.index = (unsigned)index;
        n.type = (unsigned)type;
        t.nodes.push_back(n);
    }
    return t;
}

}  // namespace vfsmc
