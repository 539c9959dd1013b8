// vfsmc reports: the versioned JSON result (see report.h and
// docs/result-format.md).
#include "report/report.h"

#include "report/detail.h"

namespace vfsmc {

nlohmann::json json_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    using nlohmann::json;
    json j;
    j["schema"] = kResultSchema;
    j["scenario"] = s.name;
    j["file"] = s.file;
    j["model"] = s.model;
    j["memory_model"] = r.memory_model;
    if (!r.mutation.empty()) j["mutation"] = r.mutation;
    j["verdict"] = verdict_name(r.verdict);
    j["expected"] = verdict_name(s.expect.verdict);
    if (!s.expect.invariant.empty()) j["expected_invariant"] = s.expect.invariant;
    if (!s.expect.scope.empty()) j["expected_scope"] = s.expect.scope;
    j["as_expected"] = judge(r, s.expect);
    if (r.verdict != Verdict::violated) j["scope"] = scope_name(r.scope);
    if (r.verdict == Verdict::violated) {
        j["invariant"] = r.invariant;
        j["message"] = r.message;
        j["replay_token"] = r.token;
        j["replay_command"] = o.replay.text();
        j["preemptions"] = r.preemptions;
        const TraceView v = TraceView::of(r, &s);
        j["steps"] = (int)v.lines.size();
        json mini;
        mini["minimized"] = r.minimized;
        if (r.minimized) {
            mini["preemption_bound"] = r.minimal_bound;
            mini["executions"] = r.minimize_executions;
            json first;
            first["preemptions"] = r.first.preemptions;
            first["steps"] = r.first.steps;
            first["replay_token"] = r.first.token;
            mini["first"] = first;
        }
        j["minimal"] = mini;
        json steps = json::array();
        for (const auto& L : v.lines) {
            const Event& e = r.trace->events[L.event];
            json st;
            st["n"] = L.number;
            st["thread"] = r.thread_names[L.thread];
            st["function"] = L.func;
            if (!L.point.empty()) st["point"] = L.point;
            st["kind"] = ev_name(e.kind);
            st["action"] = e.action ? e.action : "";
            if (e.obj >= 0) st["object"] = r.trace->objects[e.obj].name;
            if (e.field) st["field"] = e.field;
            if (e.order) st["order"] = e.order;
            if (e.kind == Ev::Read || e.kind == Ev::Rmw) {
                st["read_from"] = L.rf;
                st["stale"] = (bool)e.stale;
                if (e.stale) st["latest_write"] = L.latest;
            }
            // A pointer word's values are objects: named, never their ids.
            bool ptr = e.word == Word::Pointer;
            auto object = [&](int64_t id) -> json {
                if (id < 0 || id >= r.trace->nobjects) return nullptr;
                return r.trace->objects[id].name;
            };
            if (e.kind == Ev::Write || e.kind == Ev::Rmw) {
                if (ptr) {
                    st["before_object"] = object(e.before);
                    st["after_object"] = object(e.after);
                } else {
                    st["before"] = e.before;
                    st["after"] = e.after;
                }
            }
            if (e.kind == Ev::Read) {
                if (ptr) st["value_object"] = object(e.before);
                else st["value"] = e.before;
            }
            if (e.sync == Sync::Acquire || e.sync == Sync::Release) {
                json lk;
                lk["op"] = e.sync == Sync::Acquire ? "acquire" : "release";
                lk["lock"] = e.lock == LockClass::Rcu ? std::string("rcu_read_lock") : report_detail::field_name(*r.trace, e);
                lk["class"] = lock_class_name(e.lock);
                st["lock"] = lk;
            }
            if (e.sync == Sync::RefChange) {
                json rc;
                rc["before"] = ref_count_of(e.word, e.before);
                rc["after"] = ref_count_of(e.word, e.after);
                st["refcount"] = rc;
            }
            if (!L.source.empty()) st["source"] = L.source;
            st["text"] = L.text;
            st["conflict"] = L.conflict;
            steps.push_back(st);
        }
        j["trace"] = steps;
        j["final_state"] = r.final_state;
    }
    json search;
    search["strategy"] = r.strategy;
    if (r.preemption_bound >= 0) search["preemption_bound"] = r.preemption_bound;
    search["complete"] = r.complete;
    search["limit_hit"] = r.limit_hit;
    search["description"] = r.completeness;
    j["search"] = search;
    json counts;
    counts["executions"] = r.executions;
    counts["pruned"] = r.pruned;
    counts["pruned_by_order"] = r.pruned_by_order;
    counts["sleep_blocked"] = r.sleep_blocked;
    counts["duplicates"] = r.duplicates;
    if (!o.stable) {
        counts["seconds"] = r.seconds;
        counts["executions_per_second"] = r.execs_per_sec;
    }
    j["counts"] = counts;
    if (r.parallel.workers > 0) {
        // run --jobs (search/parallel.h): how the search was split.
        const ParallelStats& ps = r.parallel;
        json par;
        par["workers"] = ps.workers;
        par["pieces"] = ps.pieces;
        par["pieces_finished"] = ps.pieces_finished;
        par["pieces_from_upward"] = ps.pieces_from_upward;
        par["upward_points"] = ps.upward;
        par["upward_applied"] = ps.upward_applied;
        par["duplicates"] = ps.duplicates;
        par["workers_lost"] = ps.workers_lost;
        if (ps.estimate > 0 && !o.stable) par["estimated_executions"] = ps.estimate;
        json per = json::array();
        for (const auto& w : ps.per_worker) {
            json x;
            x["executions"] = w.executions;
            x["pieces"] = w.pieces;
            if (!o.stable) x["idle_seconds"] = w.idle_seconds;
            x["lost"] = w.lost;
            per.push_back(x);
        }
        par["per_worker"] = per;
        j["parallel"] = par;
    }
    j["coverage"] = r.coverage;
    if (!r.metrics.empty()) j["metrics"] = r.metrics;
    j["vacuous_steps"] = vacuous_steps(s, r);
    if (!o.overrides.empty()) j["overrides"] = o.overrides;
    return j;
}

}  // namespace vfsmc
