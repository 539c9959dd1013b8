// vfsmc replay tokens: encoding, decoding and validation.
//
// A token is  v1:<hash>:<strategy><bound><memory model>:<state>
//   hash      FNV-1a (8 hex digits) of the scenario's behaviour fields
//             (Scenario::behaviour: model, memory_model, config, init,
//             threads, invariants, order, search without its limits) and
//             of the rest of the token. Editing `doc`, `name`, `expect` or
//             `$schema` keeps tokens valid. The hash is unkeyed: it catches
//             damage and stale tokens, not forgery, so the state is checked
//             in full below and the replay is guarded (replay_sched.h).
//   strategy  one char per search strategy (kStrategyCodecs in token.cpp):
//             e exhaustive, b bounded, r random, d dpor, p pct
//   bound     the strategy's number: the preemption bound of 'b', the
//             depth of 'p'; the others say 0
//   memory    s (sc) or k (kernel)
//   state     the scheduler's state with spaces written as '-':
//             tree strategies (e, b, d): ITER SIZE (COUNT INDEX TYPE)*, a
//               dpor thread choice written as COUNT = the thread count,
//               INDEX = the thread
//             iteration strategies (r): ITER
//             pct: ITER K (K the number of steps the change points fall in)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "contract/model.h"

namespace vfsmc {

// One choice of a tree scheduler: `index` of `count` options, of Relacy's
// sched_type `type`.
struct TokenNode {
    unsigned count = 0, index = 0, type = 0;
};

struct ReplayToken {
    Strategy strategy = Strategy::bounded;
    int preemption_bound = 0;       // 'b'
    int depth = 0;                  // 'p'
    uint64_t horizon = 0;           // 'p': K
    MemModel memory_model = MemModel::kernel;
    bool tree = false;              // tree state (nodes) or iteration only
    uint64_t iteration = 0;
    std::vector<TokenNode> nodes;   // tree strategies

    // The state as Relacy reads it (p.initial_state).
    std::string relacy_state() const;
};

// The most choices a tree token may record, and the highest iteration any
// token may name. (Longer executions end in Relacy's livelock check.)
constexpr size_t kMaxTokenNodes = 20000;
constexpr uint64_t kMaxTokenIteration = 1000000000000000ull;  // 1e15
constexpr size_t kMaxTokenChars = 200000;
// PCT's K: at most this many steps (an execution is cut long before).
constexpr uint64_t kMaxTokenHorizon = 100000000;

// The token of a counterexample found by `strategy` (relacy_state as Relacy's
// scheduler printed it) under `mutation` (nullptr: none); `param` is the
// preemption bound (bounded) or the depth (pct). The hash covers the
// scenario's behaviour key and the mutation.
std::string encode_token(const Scenario& s, const char* mutation, Strategy strategy, int param, MemModel mm,
                         const std::string& relacy_state);

// "v1:<hash>:" + body: a token with a valid checksum around any body
// (tests forge tokens with it, as anyone can: the hash is not a signature).
std::string sign_token_body(const Scenario& s, const std::string& body, const char* mutation = nullptr);

// Decode and check a token for scenario `s` replayed under `mutation`
// (nullptr: none; it must be the token's own): checksum, strategy, bound,
// memory model, and every number of the state against the scenario (a
// thread choice below its thread count, index below count, known choice
// type, bounded length). Throws LoadError with one printable line.
ReplayToken decode_token(const Scenario& s, const std::string& token, const char* mutation);

// The token as it may appear in a one-line message: control characters
// escaped, at most 60 characters.
std::string shown_token(const std::string& token);

}  // namespace vfsmc
