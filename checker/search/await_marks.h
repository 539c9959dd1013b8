// vfsmc: dpor's failed-await marks.
//
// A parked thread (blocking waits, kernel/core.h) is not enabled; it
// becomes enabled when a write wakes it, and that write is dependent with
// the re-evaluation it wakes, so the races around a wait are reversed like
// any other, with one exception: a wait condition that failed and parked is
// no event of its own (GenMC leaves blocked awaits out of the execution
// graph, Nidhugg's await): it changed nothing, and the thread stays parked
// until another thread writes one of the keys it read. So the keys the
// condition alone read in its step are marked `await` (Access::await), and
// dpor (dpor.h, analyze()) does not reverse such a read followed by
// another thread's write: running the write first gives what the wakeup
// gives, the waiter trying after the write. A write followed by such a read
// still is reversed (the waiter may come first and succeed).
//
// A retry pass that read nothing new, changed nothing and parks
// (retry_loop::again) is such an await spread over several steps: its
// reads are marked when it parks. Only the reads the pass alone made: in
// the step it began in, a key read before the pass keeps an ordinary read.
// The marks on the running step are made here; the pass's earlier steps
// are the scheduler's, and it marks them when the running step closes
// (mark_failed_pass, from take_failed_pass()).
#pragma once

#include "search/dpor_step.h"
#include "substrate/deps.h"

namespace vfsmc {

class AwaitMarks {
public:
    // Where a failed retry pass began: its thread, the step (its index in
    // the execution) and the number of that step's accesses before it.
    struct PassMark {
        int thread = -1, step = -1, n = 0;
    };

    explicit AwaitMarks(bool dpor) : dpor_(dpor) {}
    void begin_execution();
    void await_begin(int t);
    void await_end(int t) { await_set_[t] = false; }
    void await_parks(int t);
    void pass_begin(int t);
    void pass_parks(int t);

    // dpor: the running step's index in its execution, and the failed
    // pass left for it to mark when the step closes (thread -1: none).
    void set_cur_step(int s) { cur_step_ = s; }
    PassMark take_failed_pass();

private:
    bool dpor_;
    // Where thread t's running wait condition began (a step and the number
    // of accesses it had then). Per thread: a condition's first access is a
    // scheduling point, and other threads' waits run before it goes on.
    uint64_t await_steps_[kMaxThreads] = {};
    int await_n_[kMaxThreads] = {};
    bool await_set_[kMaxThreads] = {};
    // Each thread's running pass began in step pass_step_[t], after
    // pass_n_[t] of its accesses.
    int cur_step_ = -1;
    int pass_step_[kMaxThreads] = {};
    int pass_n_[kMaxThreads] = {};
    PassMark failed_pass_;
};

// dpor, when the running step steps[n - 1] closes: the failed pass `m`'s
// reads become `await` reads, in the running step's accesses `d` from
// where the pass began, and in the thread's steps after the one it began
// in.
void mark_failed_pass(const AwaitMarks::PassMark& m, DporStep* steps, int n, Deps& d);

// The race analyze() (dpor.h) reverses between a write and an earlier read
// of its key by another thread, the read's step: none (-1) when the read
// is a failed await's. The two steps are still ordered (happens-before),
// only not reversed.
inline int await_race(int read_step, bool await) { return await ? -1 : read_step; }

}  // namespace vfsmc
