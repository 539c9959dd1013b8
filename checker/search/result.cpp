// vfsmc: what a run's result says (engine.h): its scope in words, the one
// judge of a result against a scenario's `expect`, and the preemptions of a
// trace.
#include "search/engine.h"

#include <cstdio>

namespace vfsmc {

const char* scope_name(Scope s) {
    switch (s) {
        case Scope::complete: return "complete";
        case Scope::bounded: return "bounded";
        case Scope::sampled: return "sampled";
        case Scope::inconclusive: return "inconclusive";
    }
    return "?";
}

std::string verdict_with_scope(const RunResult& r) {
    char buf[200];
    if (r.verdict == Verdict::holds || r.verdict == Verdict::unsatisfiable) {
        switch (r.scope) {
            case Scope::complete: std::snprintf(buf, sizeof buf, "%s (complete)", verdict_name(r.verdict)); break;
            case Scope::bounded:
                std::snprintf(buf, sizeof buf, "%s (bounded %d: complete up to %d preemptions)", verdict_name(r.verdict),
                              r.preemption_bound, r.preemption_bound);
                break;
            case Scope::sampled:
                std::snprintf(buf, sizeof buf, "%s (sampled %llu executions)", verdict_name(r.verdict),
                              (unsigned long long)r.executions);
                break;
            case Scope::inconclusive: std::snprintf(buf, sizeof buf, "%s", verdict_name(r.verdict)); break;
        }
        return buf;
    }
    if (r.verdict == Verdict::inconclusive) {
        std::snprintf(buf, sizeof buf, "inconclusive (stopped by the %s after %llu executions)", r.limit.c_str(),
                      (unsigned long long)r.executions);
        return buf;
    }
    return verdict_name(r.verdict);
}

bool scope_at_least(Scope got, const std::string& least) {
    if (least.empty()) return got != Scope::inconclusive;
    int rank = got == Scope::complete ? 3 : got == Scope::bounded ? 2 : got == Scope::sampled ? 1 : 0;
    int want = least == "complete" ? 3 : least == "bounded" ? 2 : least == "sampled" ? 1 : 0;
    return rank >= want;
}

bool judge(const RunResult& r, const Expect& e) {
    if (r.verdict != e.verdict) return false;
    if (r.verdict == Verdict::violated) return r.invariant == e.invariant;
    if (r.verdict == Verdict::holds) return scope_at_least(r.scope, e.scope);
    return true;
}

int count_preemptions(const ExecRecord& rec) {
    int n = 0;
    for (int i = 1; i < rec.nevents; i++) {
        const Event& prev = rec.events[i - 1];
        const Event& cur = rec.events[i];
        if (cur.thread == prev.thread) continue;
        if (prev.kind == Ev::Wait) continue;
        // Did the previous thread have more to do?
        bool more = false;
        for (int k = i + 1; k < rec.nevents && !more; k++) more = rec.events[k].thread == prev.thread;
        if (more) n++;
    }
    return n;
}

}  // namespace vfsmc
