// vfsmc reports: the one view of a reported execution that every renderer
// reads (text.cpp, email.cpp, html.cpp, json.cpp). It is computed once per
// execution, from the typed events the layer records (substrate/trace.h):
// the shown lines, the locks each thread holds after each line, the lock
// spans, the reference counts and the spans in which they are above zero,
// the conflict, the In-short summary, the `order` marks, and for every
// read the line of the write it read from. No renderer looks into event
// text or action names.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "search/engine.h"
#include "contract/model.h"

namespace vfsmc {

// A piece of a line's text: plain, or a reference to another line (a read's
// write, a stale read's latest write), which the HTML makes a link.
struct TextPart {
    std::string text;
    int line = 0;  // the shown line it names, 0 for none
};

// One shown line of a trace.
struct TraceLine {
    int number = 0;      // 1-based, among shown lines
    int event = -1;      // index into the record
    int thread = 0;
    std::string func;    // the kernel function it is shown under
    std::string point;   // a named point inside func ("publish"), or empty
    std::string text;    // action and state change (the parts, joined)
    std::vector<TextPart> parts;
    bool conflict = false;  // a step the violation conflicts with (or the violation itself)
    bool stale = false;
    std::string rf;      // "P0 #12" or "the initial state" (reads and RMWs)
    std::string latest;  // stale reads: the latest write
    int rf_line = 0;     // the line of the write it read from; 0 = the initial state, none, or not shown
    int latest_line = 0; // stale reads: the line of the latest write
    std::string source;  // the model source location of the call ("models/dcache/dcache.cpp:160"), or ""
};

// A lock held by a thread from one line to another.
struct LockSpan {
    int thread = 0;
    std::string lock;  // "dentry \"foo\"#1.d_lockref", "rcu_read_lock"
    int from = 0;      // the line that took it
    int to = 0;        // the line that released it; 0: still held at the end
};

// One change of a reference count.
struct RefChangeRow {
    int line = 0;
    int thread = 0;
    std::string count;  // "cdev#1.kobj.kref"
    int64_t before = 0, after = 0;
};

// A reference count the execution touched: the step ranges in which it was
// above zero and its last value.
struct RefCount {
    std::string count;
    std::vector<std::pair<std::string, std::string>> spans;  // {from, to}: a line number, "start" or "end"
    int64_t last = 0;
};

// An `order` constraint of the scenario, as it shows in the trace: the last
// line of the before step and the first line of the after step (indices
// into lines).
struct OrderMark {
    size_t order = 0;  // index into Scenario::order
    size_t last_before = 0, first_after = 0;
};

// A run of consecutive lines that a renderer may fold away: none of them
// touches an object of the conflict (as the object accessed, or as the
// object a pointer value names), is a conflict, a stale read, a write a
// conflicting read read from, a wait or an `order` mark. `label` says what
// the run holds ("2 loads, spin_lock/spin_unlock of dentry_hashtable[\"foo\"].bit_lock").
struct Fold {
    size_t first = 0, last = 0;  // indices into lines, inclusive
    std::string label;
};

struct TraceView {
    std::vector<TraceLine> lines;
    // held[i][t]: the locks thread t holds after line i, sorted by name.
    std::vector<std::vector<std::vector<std::string>>> held;
    std::vector<LockSpan> lock_spans;  // by thread, then as they end
    std::vector<RefChangeRow> ref_changes;
    std::vector<RefCount> refs;        // in the order first touched
    std::vector<size_t> in_short;      // lines of the In-short summary: named steps and the conflict
    int named_steps = 0;               // how many of them are the model's named steps
    std::set<int> conflict_objs;       // objects the conflicting lines touch (accessed, or named by a pointer value)
    std::set<int> conflict_sources;    // events the conflicting reads read from (or their latest writes)
    std::vector<OrderMark> order_marks;
    std::vector<Fold> folds;           // at least kMinFold lines each, in order
    bool any_stale = false;
    static constexpr size_t kMinFold = 3;

    // The view of r's trace (r.trace may be null: an empty view). The
    // scenario gives the `order` marks.
    static TraceView of(const RunResult& r, const Scenario* s = nullptr);
    // The line an event is shown as, or 0.
    int line_of(int event) const;
    // The objects an event touches: the one it accesses, and for a pointer
    // word the objects its values name.
    static std::vector<int> touched(const ExecRecord& rec, const Event& e);

private:
    std::vector<int> line_of_event_;
};

}  // namespace vfsmc
