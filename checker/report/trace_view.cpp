// vfsmc reports: the view of a reported execution (see trace_view.h).
#include "report/trace_view.h"

#include <algorithm>
#include <map>
#include <set>

#include "report/detail.h"
#include "report/report.h"

namespace vfsmc {

using namespace report_detail;

namespace {

std::string value_text(const ExecRecord& rec, const Event& e, int64_t v) {
    switch (e.word) {
        case Word::Lockref: {  // count * 2 + locked
            int64_t count = v >> 1;
            std::string c = count < 0 ? "dead (" + std::to_string(count) + ")" : "count " + std::to_string(count);
            return (v & 1) ? c + " locked" : c;
        }
        case Word::Number: case Word::Refcount:
            return std::to_string(v);
        case Word::Pointer:
            break;
    }
    if (v < 0 || v >= rec.nobjects) return "NULL";
    return rec.objects[v].name;
}

bool shown(const Event& e) { return e.kind != Ev::Enter; }

// The lock an Acquire/Release event takes or releases.
std::string lock_name(const ExecRecord& rec, const Event& e) {
    if (e.lock == LockClass::Rcu) return "rcu_read_lock";
    return field_name(rec, e);
}

// A line that does not bear on the conflict: rcu_read_lock/unlock, a store
// that leaves its value as it was, a load, a lock taken or released, or a
// fence, touching no object of the conflict. A wait is never foldable: it
// is where a thread blocks.
bool foldable(const ExecRecord& rec, const TraceView& v, const TraceLine& L) {
    const Event& e = rec.events[L.event];
    if (L.conflict || L.stale || v.conflict_sources.count(L.event)) return false;
    if (e.lock == LockClass::Rcu) return true;
    for (int o : TraceView::touched(rec, e))
        if (v.conflict_objs.count(o)) return false;
    if ((e.kind == Ev::Write || e.kind == Ev::Rmw) && e.before == e.after) return true;
    if (e.kind == Ev::Read || e.kind == Ev::Fence) return true;
    if (e.sync == Sync::Acquire || e.sync == Sync::Release) return true;
    return false;
}

std::string count_of(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What a run of folded lines holds, in words.
std::string fold_label(const ExecRecord& rec, const TraceView& v, size_t first, size_t last) {
    size_t rcu = 0, loads = 0, same = 0, fences = 0;
    std::vector<std::string> locks;  // lock words taken or released, first seen first
    for (size_t i = first; i <= last; i++) {
        const Event& e = rec.events[v.lines[i].event];
        if (e.lock == LockClass::Rcu) rcu++;
        else if (e.sync == Sync::Acquire || e.sync == Sync::Release) {
            std::string l = lock_name(rec, e);
            if (std::find(locks.begin(), locks.end(), l) == locks.end()) locks.push_back(l);
        } else if (e.kind == Ev::Read) loads++;
        else if (e.kind == Ev::Fence) fences++;
        else same++;
    }
    std::vector<std::string> parts;
    if (loads) parts.push_back(count_of(loads, "load", "loads"));
    if (!locks.empty()) {
        std::string l = "locks taken or released: ";
        for (size_t k = 0; k < locks.size(); k++) l += (k ? ", " : "") + locks[k];
        parts.push_back(l);
    }
    if (rcu) parts.push_back(count_of(rcu, "rcu_read_lock/unlock", "rcu_read_lock/unlocks"));
    if (same) parts.push_back(count_of(same, "store that leaves the value as it was", "stores that leave the value as it was"));
    if (fences) parts.push_back(count_of(fences, "fence", "fences"));
    std::string t;
    for (size_t k = 0; k < parts.size(); k++) t += (k ? "; " : "") + parts[k];
    return t;
}

std::vector<Fold> folds_of(const ExecRecord& rec, const TraceView& v) {
    std::set<size_t> order_rows;  // rows with an `order` mark: never folded
    for (const auto& om : v.order_marks) {
        order_rows.insert(om.first_after);
        order_rows.insert(om.last_before);
    }
    std::vector<Fold> out;
    for (size_t i = 0; i < v.lines.size();) {
        size_t j = i;
        while (j < v.lines.size() && !order_rows.count(j) && foldable(rec, v, v.lines[j])) j++;
        if (j - i >= TraceView::kMinFold) out.push_back({i, j - 1, fold_label(rec, v, i, j - 1)});
        i = std::max(j, i + 1);
    }
    return out;
}

}  // namespace

std::vector<int> TraceView::touched(const ExecRecord& rec, const Event& e) {
    std::vector<int> out;
    if (e.obj >= 0) out.push_back(e.obj);
    bool access = e.kind == Ev::Read || e.kind == Ev::Write || e.kind == Ev::Rmw;
    if (access && e.word == Word::Pointer) {
        for (int64_t val : {e.before, e.after})
            if (val >= 0 && val < rec.nobjects) out.push_back((int)val);
    }
    return out;
}

int TraceView::line_of(int event) const {
    return event >= 0 && event < (int)line_of_event_.size() ? line_of_event_[event] : 0;
}

namespace {

// The shown line of event i: its kind's action and state change, the write
// a read saw, and whether it is a conflict.
TraceLine line_of_event(const TraceView& v, const RunResult& r, const ExecRecord& rec, int i) {
    auto thread_of = [&](int t) { return t >= 0 && t < (int)r.thread_names.size() ? r.thread_names[t] : std::string("?"); };
    auto ref = [&](int ev) -> std::string {
        if (ev < 0) return "the initial state";
        if (ev >= rec.nevents) return "an unrecorded write";
        return thread_of(rec.events[ev].thread) + " #" + std::to_string(v.line_of(ev));
    };
    const Violation& viol = rec.violation;
    const Event& e = rec.events[i];
    TraceLine L;
    L.number = v.line_of(i);
    L.event = i;
    L.thread = e.thread;
    L.func = e.func && *e.func ? e.func : "";
    L.point = e.point ? e.point : "";
    L.stale = e.stale;
    L.source = source_location(e);
    L.conflict = (i == viol.event);
    for (int c : viol.conflict) L.conflict |= (c == i && c >= 0);
    auto add = [&](const std::string& t, int line = 0) { L.parts.push_back({t, line}); };
    switch (e.kind) {
        case Ev::Read:
            add(strprintf("%s %s = %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str()));
            L.rf = ref(e.rf);
            L.rf_line = v.line_of(e.rf);
            add(" (read from ");
            add(L.rf, L.rf_line);
            add(")");
            if (e.stale) {
                L.latest = ref(e.latest);
                L.latest_line = v.line_of(e.latest);
                add(" STALE: the latest write is ");
                add(L.latest, L.latest_line);
            }
            break;
        case Ev::Write:
            add(strprintf("%s %s: %s -> %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str(),
                          value_text(rec, e, e.after).c_str()));
            if (e.stale) {
                // A store placed before a store that ran earlier (free coherence order).
                L.latest = ref(e.latest);
                L.latest_line = v.line_of(e.latest);
                add(" COHERENCE: ordered before ");
                add(L.latest, L.latest_line);
            }
            break;
        case Ev::Rmw:
            add(strprintf("%s %s: %s -> %s", e.action, field_name(rec, e).c_str(), value_text(rec, e, e.before).c_str(),
                          value_text(rec, e, e.after).c_str()));
            L.rf = ref(e.rf);
            L.rf_line = v.line_of(e.rf);
            if (e.stale) {
                // An RMW that read an older store and went right after it.
                L.latest = ref(e.latest);
                L.latest_line = v.line_of(e.latest);
                add(" COHERENCE: read an older value, ordered before ");
                add(L.latest, L.latest_line);
            }
            break;
        case Ev::Lock: case Ev::Unlock:
            add(std::string(e.action) + (e.obj >= 0 ? " " + obj_name(rec, e.obj) : ""));
            break;
        case Ev::Wait:
            add(e.text[0]      ? std::string(e.text)
                : e.obj >= 0 ? strprintf("waits in %s on %s", e.action, obj_name(rec, e.obj).c_str())
                             : strprintf("waits in %s", e.action));
            break;
        case Ev::Fence:
            add(strprintf("%s (%s fence)", e.action, e.order ? e.order : ""));
            break;
        case Ev::Violation:
            add(strprintf("!! %s: %s", e.action, e.text));
            L.conflict = true;
            break;
        case Ev::Step: case Ev::Alloc: case Ev::Free:
            // A named point inside a function is labelled with the point.
            add((e.kind == Ev::Step && e.point ? "[" + L.point + "] " : std::string()) +
                (e.text[0] ? std::string(e.text) : std::string(e.action)));
            break;
        case Ev::Wake: case Ev::Enter:
            add(e.text[0] ? std::string(e.action) + ": " + e.text : std::string(e.action));
            break;
    }
    for (const auto& p : L.parts) L.text += p.text;
    return L;
}

// In short, and the conflict's objects and sources.
void add_conflict(TraceView& v, const ExecRecord& rec) {
    for (size_t i = 0; i < v.lines.size(); i++) {
        const TraceLine& L = v.lines[i];
        const Event& e = rec.events[L.event];
        if (e.kind == Ev::Step) v.named_steps++;
        if (e.kind == Ev::Step || e.kind == Ev::Violation || L.conflict) v.in_short.push_back(i);
        if (!L.conflict) continue;
        for (int o : TraceView::touched(rec, e)) v.conflict_objs.insert(o);
        // The access at which the violation was found (an every-step check
        // runs after each access) touches the conflict's objects too.
        if (e.kind == Ev::Violation)
            for (int k = L.event - 1; k >= 0; k--) {
                const Event& a = rec.events[k];
                if (a.thread != e.thread || a.kind == Ev::Enter) continue;
                for (int o : TraceView::touched(rec, a)) v.conflict_objs.insert(o);
                break;
            }
        if (e.rf >= 0) v.conflict_sources.insert(e.rf);
        if (e.latest >= 0) v.conflict_sources.insert(e.latest);
    }
}

// Locks held after each line, from the layer's acquire and release events
// (a failed trylock is a read, not an acquire), and the lock spans, per
// thread.
void add_locks(TraceView& v, const ExecRecord& rec, int nt) {
    std::vector<std::map<std::string, int>> held(nt);
    for (const auto& L : v.lines) {
        const Event& e = rec.events[L.event];
        if (e.thread < nt && e.sync == Sync::Acquire) {
            held[e.thread][lock_name(rec, e)]++;
        } else if (e.thread < nt && e.sync == Sync::Release) {
            auto it = held[e.thread].find(lock_name(rec, e));
            if (it != held[e.thread].end() && --it->second <= 0) held[e.thread].erase(it);
        }
        std::vector<std::vector<std::string>> row(nt);
        for (int t = 0; t < nt; t++)
            for (const auto& kv : held[t]) row[t].push_back(kv.first);
        v.held.push_back(row);
    }
    for (int t = 0; t < nt; t++) {
        std::map<std::string, int> open;
        for (size_t i = 0; i < v.lines.size(); i++) {
            const auto& now = v.held[i][t];
            for (const auto& x : now)
                if (!open.count(x)) open[x] = v.lines[i].number;
            for (auto it = open.begin(); it != open.end();) {
                if (std::find(now.begin(), now.end(), it->first) == now.end()) {
                    v.lock_spans.push_back({t, it->first, it->second, v.lines[i].number});
                    it = open.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (const auto& kv : open) v.lock_spans.push_back({t, kv.first, kv.second, 0});
    }
}

// Reference counts: the words the layer declares as counting references
// (refcount_t, kref, lockref, counters declared with counts_refs()).
void add_refs(TraceView& v, const ExecRecord& rec) {
    // Where a count begins: the line that allocated its object, or the start.
    auto origin = [&](const Event& e) -> std::string {
        if (e.obj < 0 || e.obj >= rec.nobjects) return "start";
        int a = rec.objects[e.obj].alloc_event;
        if (a >= 0 && v.line_of(a)) return std::to_string(v.line_of(a));
        return "start";
    };
    std::map<std::string, size_t> ref_index;
    std::map<std::string, std::string> held_from;  // count -> line it went above zero
    for (const auto& L : v.lines) {
        const Event& e = rec.events[L.event];
        if ((e.kind != Ev::Rmw && e.kind != Ev::Write && e.kind != Ev::Read) || !counts_refs(e.word)) continue;
        std::string key = field_name(rec, e);
        int64_t b = ref_count_of(e.word, e.before);
        int64_t a = e.sync == Sync::RefChange ? ref_count_of(e.word, e.after) : b;
        if (!ref_index.count(key)) {
            ref_index[key] = v.refs.size();
            v.refs.push_back({key, {}, 0});
            if (b > 0) held_from[key] = origin(e);
        }
        RefCount& rc = v.refs[ref_index[key]];
        rc.last = a;
        if (e.sync != Sync::RefChange) continue;
        v.ref_changes.push_back({L.number, L.thread, key, b, a});
        if (b <= 0 && a > 0) held_from[key] = std::to_string(L.number);
        if (b > 0 && a <= 0) {
            rc.spans.push_back({held_from.count(key) ? held_from[key] : "start", std::to_string(L.number)});
            held_from.erase(key);
        }
    }
    for (auto& rc : v.refs)
        if (held_from.count(rc.count)) rc.spans.push_back({held_from[rc.count], "end"});
}

// The scenario's `order` constraints: the after step starts once the before
// step is done.
void add_order_marks(TraceView& v, const ExecRecord& rec, const Scenario& s) {
    for (size_t k = 0; k < s.order.size(); k++) {
        const auto& oc = s.order[k];
        int last_before = -1, first_after = -1;
        for (size_t i = 0; i < v.lines.size(); i++) {
            const Event& e = rec.events[v.lines[i].event];
            std::string step = e.step ? e.step : "";
            if (e.thread == oc.before_t && step == oc.before_step) last_before = (int)i;
            if (e.thread == oc.after_t && step == oc.after_step && first_after < 0) first_after = (int)i;
        }
        if (last_before >= 0 && first_after >= 0) v.order_marks.push_back({k, (size_t)last_before, (size_t)first_after});
    }
}

}  // namespace

TraceView TraceView::of(const RunResult& r, const Scenario* s) {
    TraceView v;
    if (!r.trace) return v;
    const ExecRecord& rec = *r.trace;
    v.line_of_event_.assign(rec.nevents > 0 ? rec.nevents : 0, 0);
    int n = 0;
    for (int i = 0; i < rec.nevents; i++)
        if (shown(rec.events[i])) v.line_of_event_[i] = ++n;
    for (int i = 0; i < rec.nevents; i++) {
        if (!shown(rec.events[i])) continue;
        v.lines.push_back(line_of_event(v, r, rec, i));
        v.any_stale |= v.lines.back().stale;
    }
    add_conflict(v, rec);
    add_locks(v, rec, (int)r.thread_names.size());
    add_refs(v, rec);
    if (s) add_order_marks(v, rec, *s);
    v.folds = folds_of(rec, v);
    return v;
}

std::vector<TraceLine> trace_lines(const RunResult& r) { return TraceView::of(r).lines; }

}  // namespace vfsmc
