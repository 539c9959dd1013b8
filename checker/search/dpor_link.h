// vfsmc: what a dpor search that is one piece of a parallel search
// (parallel.h) knows of the rest: its prefix, and the link to the
// coordinator it reports to between executions.
//
// A piece is a schedule prefix: the choices from the root down to the
// piece's root. The piece's dpor replays the prefix, whose nodes are fixed
// (it explores nothing there), and searches below it as a serial dpor
// does. A race that lands in a fixed node is not the piece's to reverse:
// it goes up the link (upward()), to the node's owner. Between executions
// the coordinator may ask the piece to give away an unexplored branch
// (a split) or to add a backtrack point that another piece found in one of
// this piece's own nodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "search/dpor_step.h"

namespace vfsmc {

// One node of a prefix: a thread choice (the chosen thread) or a data
// choice (the value taken of `count`, Relacy's sched_type `type`).
struct DporPrefixNode {
    bool sched = true;
    uint8_t chosen = 0;
    uint16_t count = 0, index = 0;
    uint8_t type = 0;
    uint16_t choice() const { return sched ? chosen : index; }
};

struct DporPiece {
    std::vector<DporPrefixNode> prefix;
    std::vector<uint8_t> wake;  // the wakeup sequence followed after the prefix (dpor.h)
    // The sleep set the piece starts with: the threads explored (or asleep)
    // at the prefix's last thread-choice node `sleep_node` before this
    // branch, each with the step it took there, as a serial search would
    // have them when it came to this branch. -1: none (the piece may then
    // explore traces another piece explores: duplicates, never a loss).
    int sleep_node = -1;
    std::vector<std::pair<uint8_t, AccSet>> sleepers;
    // The share of the giving piece's tree this branch stands for, for the
    // estimate of the whole search (dpor.h, branch_weight); 0: not known.
    double weight = 0;
};

// A request from the coordinator, read between executions.
struct DporRequest {
    enum Kind { none, split, add } kind = none;
    // add: a backtrack point at the node `depth` below the choices `path`:
    // the initials of a reversed race, the threads enabled there, and the
    // thread order of the reversal (dpor.h, reverse()).
    int depth = 0;
    std::vector<uint16_t> path;
    uint8_t initials = 0, enabled = 0;
    std::vector<uint8_t> vseq;
    std::string raw;  // the request as received, sent back when it does not apply
};

class DporLink {
public:
    virtual ~DporLink() = default;
    virtual const DporPiece& piece() const = 0;
    // A race whose reversal belongs at the fixed node `depth` of the prefix.
    virtual void upward(int depth, uint8_t initials, uint8_t enabled, const uint8_t* vseq, int vlen) = 0;
    // After each execution: true when the coordinator may have sent a request.
    virtual bool due() = 0;
    virtual bool next_request(DporRequest& r) = 0;
    // The answer to a split: a piece given away (the giver no longer
    // explores it), or none.
    virtual void offer(const DporPiece& p) = 0;
    virtual void no_offer() = 0;
    // The answer to an add: applied to a node of the running path, or not
    // (the node is no longer there: the coordinator places it itself).
    virtual void add_result(const DporRequest& r, bool applied) = 0;
    // A thread-choice node on the path of a piece given away is finished:
    // `mask` is every thread explored, given away or covered from it.
    virtual void node_done(const uint16_t* path, int depth, uint8_t mask) = 0;
    // A complete execution, by the hash of its trace (its steps with their
    // happens-before vector clocks and data choices: the same for every
    // interleaving of one Mazurkiewicz trace).
    virtual void complete_execution(uint64_t trace_hash) = 0;
    // After every execution, for the estimate of the whole search: the
    // share of the piece's tree explored so far (dpor.h, explored_share),
    // and the weight now of each branch it gave away, in the order of its
    // offers (DporPiece::weight: a node's known branches may have grown).
    virtual void explored(double share, std::vector<double> given_weights) = 0;
};

// The running search's link (engine.cpp): null for a serial search.
DporLink* dpor_link();

// Allocation on the real heap inside a simulation (Relacy's callbacks
// otherwise allocate on its per-execution heap): held around every call of
// the link.
struct RealHeap {
    RealHeap();
    ~RealHeap();
    RealHeap(const RealHeap&) = delete;
    RealHeap& operator=(const RealHeap&) = delete;
};

}  // namespace vfsmc
