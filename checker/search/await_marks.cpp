// vfsmc: dpor's failed-await marks (await_marks.h).
#include "search/await_marks.h"

namespace vfsmc {

void AwaitMarks::begin_execution() {
    for (int t = 0; t < kMaxThreads; t++) {
        await_set_[t] = false;
        pass_step_[t] = -1;
    }
    cur_step_ = -1;
    failed_pass_ = PassMark();
}

void AwaitMarks::await_begin(int t) {
    Deps& d = deps();
    await_steps_[t] = d.steps;
    await_n_[t] = d.nstep;
    await_set_[t] = true;
}

// The condition was false and the thread parks: the keys the condition
// alone read in the running step are marked.
void AwaitMarks::await_parks(int t) {
    Deps& d = deps();
    if (!await_set_[t]) return;
    await_set_[t] = false;
    int from = d.steps == await_steps_[t] ? await_n_[t] : 0;  // the step began inside the condition
    for (int i = from; i < d.nstep; i++)
        if (!d.step[i].write) d.step[i].await = 1;
}

void AwaitMarks::pass_begin(int t) {
    pass_step_[t] = cur_step_;
    pass_n_[t] = deps().nstep;
}

void AwaitMarks::pass_parks(int t) {
    if (!dpor_ || pass_step_[t] < 0) return;
    failed_pass_ = {t, pass_step_[t], pass_n_[t]};
}

AwaitMarks::PassMark AwaitMarks::take_failed_pass() {
    PassMark m = failed_pass_;
    failed_pass_ = PassMark();
    return m;
}

void mark_failed_pass(const AwaitMarks::PassMark& m, DporStep* steps, int n, Deps& d) {
    int cur = n - 1;
    if (steps[cur].thread != m.thread || m.step > cur) return;
    for (int i = m.step == cur ? m.n : 0; i < d.nstep; i++)
        if (!d.step[i].write) d.step[i].await = 1;
    for (int k = m.step + 1; k < cur; k++) {
        DporStep& e = steps[k];
        if (e.thread != m.thread) continue;
        for (int a = 0; a < e.acc.n; a++)
            if (!e.acc.a[a].write) e.acc.a[a].await = 1;
    }
}

}  // namespace vfsmc
