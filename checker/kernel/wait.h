// vfsmc kernel vocabulary: <linux/wait.h>: wait queues.
// Part of kernel/kernel.h, the umbrella the models include.
#pragma once

#include "kernel/kfield.h"

namespace vfsmc {

// ------------------------------------------------------------------------
// <linux/wait.h>
// ------------------------------------------------------------------------
// A wait queue: sleepers register, wake_up_all() wakes them. A sleeper
// whose waker never comes is a lost wakeup (or a deadlock).
struct wait_queue_head {
    kfield<int> waiters;   // bitmask of threads on the queue
    kfield<int> woken;     // bitmask of threads woken since they queued
    wait_queue_head(const kobj* o, const char* name) : waiters(o, name, 0), woken(o, "woken", 0) {}
};
// prepare_to_wait: put the current thread on the queue (under the caller's lock).
void prepare_to_wait(wait_queue_head& wq, SrcLoc at = SrcLoc());
// schedule() after prepare_to_wait: sleep until woken. `cond` is the wait
// condition, used only to tell a lost wakeup from a deadlock.
template <class Cond>
void schedule_on(wait_queue_head& wq, const char* what, int obj, Cond cond) {
    int me = 1 << this_thread();
    // A sleeping thread notices only its own wakeup, never the condition.
    // Woken, it returns from schedule() after the waker's TASK_RUNNING
    // store (an ACQUIRE of it: the scheduler's ordering), and its state is
    // reset for the next wait (the step is named after schedule(), where
    // the task resumes; finish_wait() is the caller's next step).
    wait_until(what, obj, true, [&]() { return (wq.woken.peek() & me) != 0; }, cond);
    wq.woken.rmw(Acc::ScheduleReturn, "schedule", [&](int& v) { v &= ~me; return true; });
}
void finish_wait(wait_queue_head& wq, SrcLoc at = SrcLoc());
void wake_up_all(wait_queue_head& wq, SrcLoc at = SrcLoc());
bool waitqueue_active(wait_queue_head& wq, SrcLoc at = SrcLoc());

}  // namespace vfsmc
