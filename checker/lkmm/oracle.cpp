// lkmm: the candidate executions of a litmus test (see oracle.h).
//
// The values a read may return are found first: a location's domain starts
// with its initial value and grows with every value some path of some
// thread writes to it, until no path writes a new one. Each thread's paths
// are then those of threads.cpp over these domains. A candidate picks one
// path per thread; each read of an ordinary location reads from a write of
// the same value (herd7's rf; a write po-after the read is left out, as the
// coherence axiom would reject it); each lock read follows lock.cat (a
// failed trylock or a true spin_is_locked() from a lock write, a false one
// from an unlock or the initial value, spin_lock()'s from co); each
// location's writes, unlocks aside, are ordered in every way after the
// initial write (co).
#include "lkmm/oracle.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "lkmm/threads.h"

namespace vfsmc {
namespace lkmm {

using litmus::Answer;
using litmus::Prop;
using litmus::Quant;
using litmus::Test;
using litmus::VarType;

namespace {

constexpr size_t kMaxValues = 64;
constexpr size_t kMaxRuns = 100000;

std::string value_text(const Test& t, long v) {
    if (is_address(v)) return t.vars[v - kAddressBase].name;
    return std::to_string(v);
}

struct Final {
    const std::vector<std::vector<long>>* regs;
    std::vector<long> mem;
};

long observed_value(const Final& f, int proc, int index) {
    return proc >= 0 ? (*f.regs)[proc][index] : f.mem[index];
}

bool holds(const Prop& p, const Final& f) {
    switch (p.kind) {
        case Prop::True: return true;
        case Prop::False: return false;
        case Prop::Not: return !holds(*p.kids[0], f);
        case Prop::And: return holds(*p.kids[0], f) && holds(*p.kids[1], f);
        case Prop::Or: return holds(*p.kids[0], f) || holds(*p.kids[1], f);
        case Prop::Eq: {
            // The right side: a register or a variable (`0:r1=0:r4`,
            // `x=0:r1`), a location's address, or an int.
            long l = observed_value(f, p.proc, p.index);
            long r = p.rindex >= 0 ? observed_value(f, p.rproc, p.rindex)
                     : p.value_addr >= 0 ? address_of(p.value_addr) : p.value;
            return (l == r) != p.negate;
        }
    }
    return false;
}

// The candidates of one choice of paths.
class Candidates {
public:
    Candidates(const Test& t, const std::vector<const Run*>& runs, const OracleOptions& o, OracleOutcome& out,
               std::map<std::vector<long>, std::pair<uint64_t, bool>>& states, std::chrono::steady_clock::time_point t0)
        : t_(t), runs_(runs), opt_(o), out_(out), states_(states), t0_(t0) {}

    // false: a limit was reached (out.error says which)
    bool run() {
        build();
        if (!out_.error.empty()) return false;
        reads_.assign(x_.nlocs, {});
        sources_.assign(x_.nlocs, {});
        for (int i = 0; i < x_.n; i++) {
            const Event& e = x_.ev[i];
            if (e.kind != Kind::R) continue;
            std::vector<int> src;
            if (e.lock == LockOp::None) {
                for (int w = 0; w < x_.n; w++) {
                    const Event& f = x_.ev[w];
                    if (f.kind != Kind::W || f.lock != LockOp::None || f.loc != e.loc || f.value != e.value) continue;
                    if (prune() && f.thread == e.thread && x_.pos[w] > x_.pos[i]) continue;
                    src.push_back(w);
                }
            } else if (e.lock == LockOp::LF) {
                // rfi-lf = ([LKW] ; po-loc ; [LF]) \ ([LKW] ; po-loc ; [UL] ; po-loc)
                std::vector<int> inside;
                for (int k = 0; k < x_.n; k++)
                    if (same_thread_before(k, i) && x_.ev[k].lock == LockOp::LKW && x_.ev[k].loc == e.loc && !ul_between(k, i))
                        inside.push_back(k);
                if (!inside.empty()) {
                    for (int k : inside) x_.rf.add(k, i);
                    continue;
                }
                // rfe-lf: one LKW of another thread
                for (int k = 0; k < x_.n; k++)
                    if (x_.ev[k].lock == LockOp::LKW && x_.ev[k].loc == e.loc && x_.ev[k].thread != e.thread) src.push_back(k);
            } else if (e.lock == LockOp::RU) {
                // possible-rf-ru: the last po-previous UL, or a UL or the
                // initial write outside the thread
                int last = -1;
                for (int k = 0; k < x_.n; k++)
                    if (same_thread_before(k, i) && x_.ev[k].lock == LockOp::UL && x_.ev[k].loc == e.loc &&
                        (last < 0 || x_.pos[k] > x_.pos[last]))
                        last = k;
                if (last >= 0) src.push_back(last);
                for (int k = 0; k < x_.n; k++)
                    if (x_.ev[k].loc == e.loc && x_.ev[k].thread != e.thread &&
                        (x_.ev[k].lock == LockOp::UL || x_.ev[k].thread < 0))
                        src.push_back(k);
            } else {
                continue;  // LKR: lock.cat derives its rf from co
            }
            if (src.empty()) return true;  // no candidate with this choice of paths
            reads_[e.loc].push_back(i);
            sources_[e.loc].push_back(src);
        }
        // co: each location's writes other than unlocks and the initial one
        for (int l = 0; l < x_.nlocs; l++) {
            std::vector<int> ws;
            bool lock = false;
            for (int i = x_.nlocs; i < x_.n; i++)
                if (x_.ev[i].loc == l && x_.ev[i].lock != LockOp::None) lock = true;
            for (int i = x_.nlocs; i < x_.n; i++)
                if (x_.ev[i].kind == Kind::W && x_.ev[i].loc == l && x_.ev[i].lock != LockOp::UL) ws.push_back(i);
            cos_.push_back(ws);
            lock_loc_.push_back(lock);
        }
        return pick_rf(0, 0);
    }

private:
    const Test& t_;
    const std::vector<const Run*>& runs_;
    const OracleOptions& opt_;
    OracleOutcome& out_;
    std::map<std::vector<long>, std::pair<uint64_t, bool>>& states_;
    std::chrono::steady_clock::time_point t0_;
    Execution x_;
    std::vector<std::vector<int>> reads_;                 // by location
    std::vector<std::vector<std::vector<int>>> sources_;  // by location, by read
    std::vector<std::vector<int>> cos_;
    std::vector<bool> lock_loc_;

    // The search leaves out candidates the coherence and atomicity axioms
    // reject, unless a mutation has dropped one of them.
    bool prune() const { return opt_.mutation != Mutation::NoCoherence && opt_.mutation != Mutation::NoAtomicity; }

    bool same_thread_before(int a, int b) const {
        return x_.ev[a].thread >= 0 && x_.ev[a].thread == x_.ev[b].thread && x_.pos[a] < x_.pos[b];
    }
    bool ul_between(int a, int b) const {
        for (int k = 0; k < x_.n; k++)
            if (x_.ev[k].lock == LockOp::UL && x_.ev[k].loc == x_.ev[a].loc && same_thread_before(a, k) && same_thread_before(k, b))
                return true;
        return false;
    }

    void build() {
        int nl = (int)t_.vars.size();
        x_.nlocs = nl;
        for (int v = 0; v < nl; v++) {
            Event iw;
            iw.kind = Kind::W;
            iw.loc = v;
            iw.value = t_.vars[v].init_addr.empty() ? t_.vars[v].init : address_of(t_.var_index(t_.vars[v].init_addr));
            iw.what = "init";
            x_.ev.push_back(iw);
            x_.pos.push_back(0);
        }
        std::vector<int> base;
        for (const Run* r : runs_) {
            base.push_back((int)x_.ev.size());
            for (size_t k = 0; k < r->events.size(); k++) {
                x_.ev.push_back(r->events[k]);
                x_.pos.push_back((int)k);
            }
        }
        x_.n = (int)x_.ev.size();
        if (x_.n > kMaxEvents) {
            out_.error = t_.file + ": a candidate execution has " + std::to_string(x_.n) + " events; accepted: at most " +
                         std::to_string(kMaxEvents);
            return;
        }
        x_.addr = x_.data = x_.ctrl = x_.rmw = x_.rf = x_.co = Rel(x_.n);
        for (size_t p = 0; p < runs_.size(); p++) {
            int b = base[p];
            for (auto& d : runs_[p]->addr) x_.addr.add(b + d.first, b + d.second);
            for (auto& d : runs_[p]->data) x_.data.add(b + d.first, b + d.second);
            for (auto& d : runs_[p]->ctrl) x_.ctrl.add(b + d.first, b + d.second);
            for (auto& d : runs_[p]->rmw) x_.rmw.add(b + d.first, b + d.second);
        }
    }

    // Location by location: the rf of its reads, then its co, pruned by
    // the coherence and atomicity of that location alone (both axioms
    // relate accesses to one location only, so a candidate that fails them
    // here fails them in the whole execution).
    bool pick_rf(int l, size_t k) {
        if (l == x_.nlocs) return judge_one();
        if (k == reads_[l].size()) return pick_co(l);
        for (int w : sources_[l][k]) {
            x_.rf.add(w, reads_[l][k]);
            bool ok = pick_rf(l, k + 1);
            x_.rf.row(w)[reads_[l][k]] = false;
            if (!ok) return false;
        }
        return true;
    }

    bool pick_co(int l) {
        const std::vector<int>& ws = cos_[l];
        // w must come before v in co: program order of one thread's
        // writes, and the write an RMW's read reads before the RMW's write.
        std::vector<std::vector<int>> before(ws.size());
        for (size_t a = 0; a < ws.size(); a++)
            for (size_t b = 0; b < ws.size(); b++) {
                if (a == b) continue;
                if (!prune()) continue;
                if (same_thread_before(ws[a], ws[b])) before[b].push_back((int)a);
                for (int r = 0; r < x_.n; r++)
                    if (x_.rmw.has(r, ws[b]) && x_.rf.has(ws[a], r)) before[b].push_back((int)a);
            }
        std::vector<int> chain = {l};
        std::vector<bool> used(ws.size(), false);
        return extend(l, ws, before, chain, used);
    }

    bool extend(int l, const std::vector<int>& ws, const std::vector<std::vector<int>>& before, std::vector<int>& chain,
                std::vector<bool>& used) {
        if (chain.size() == ws.size() + 1) {
            for (size_t a = 0; a < chain.size(); a++)
                for (size_t b = a + 1; b < chain.size(); b++) x_.co.add(chain[a], chain[b]);
            bool ok = true;
            if (lock_loc_[l] || !prune() || coherent(l)) ok = pick_rf(l + 1, 0);
            for (size_t a = 0; a < chain.size(); a++)
                for (size_t b = a + 1; b < chain.size(); b++) x_.co.row(chain[a])[chain[b]] = false;
            return ok;
        }
        for (size_t i = 0; i < ws.size(); i++) {
            if (used[i]) continue;
            bool ready = true;
            for (int p : before[i]) ready = ready && used[p];
            if (!ready) continue;
            used[i] = true;
            chain.push_back(ws[i]);
            bool ok = extend(l, ws, before, chain, used);
            chain.pop_back();
            used[i] = false;
            if (!ok) return false;
        }
        return true;
    }

    // acyclic po-loc | rf | co | fr, and empty rmw & (fre ; coe), on the
    // accesses to location l.
    bool coherent(int l) const {
        Set at;
        for (int i = 0; i < x_.n; i++)
            if (x_.ev[i].loc == l && (x_.ev[i].kind == Kind::R || x_.ev[i].kind == Kind::W)) at[i] = true;
        Rel rf = x_.rf.restrict(at, at), co = x_.co.restrict(at, at);
        Rel fr = rf.inv().seq(co);
        Rel com = rf | co | fr;
        for (int i = 0; i < x_.n; i++)
            if (at[i])
                for (int j = 0; j < x_.n; j++)
                    if (at[j] && same_thread_before(i, j)) com.add(i, j);
        if (!com.acyclic()) return false;
        for (int r = 0; r < x_.n; r++)
            if (at[r])
                for (int w = 0; w < x_.n; w++)
                    if (x_.rmw.has(r, w))
                        for (int v = 0; v < x_.n; v++)
                            if (fr.has(r, v) && co.has(v, w) && x_.ev[v].thread != x_.ev[r].thread &&
                                x_.ev[v].thread != x_.ev[w].thread)
                                return false;
        return true;
    }

    bool judge_one() {
        if (++out_.candidates > opt_.max_candidates) {
            out_.error = t_.file + ": more than " + std::to_string(opt_.max_candidates) +
                         " candidate executions; accepted: smaller tests (fewer writes to one location, fewer reads)";
            return false;
        }
        if (out_.candidates % 4096 == 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count() > opt_.time_limit) {
            out_.error = t_.file + ": not judged within " + std::to_string((int)opt_.time_limit) +
                         " s; accepted: smaller tests (fewer reads, fewer values, fewer writes to one location)";
            return false;
        }
        Judgement j = judge(x_, opt_.mutation);
        if (!j.allowed) return true;
        std::vector<std::vector<long>> regs;
        for (const Run* r : runs_) regs.push_back(r->regs);
        Final f;
        f.regs = &regs;
        f.mem.assign(t_.vars.size(), 0);
        for (int l = 0; l < x_.nlocs; l++) {
            // the co-last write of the location
            int last = l;
            for (int w = 0; w < x_.n; w++)
                if (x_.ev[w].loc == l && x_.ev[w].kind == Kind::W && j.co.row(last)[w]) last = w;
            f.mem[l] = x_.ev[last].value;
        }
        if (t_.filter && !holds(*t_.filter, f)) return true;
        out_.flags |= j.flags;
        std::vector<long> key;
        for (const auto& o : t_.observed) key.push_back(observed_value(f, o.proc, o.index));
        bool sat = holds(*t_.cond, f);
        auto& s = states_[key];
        s.first++;
        s.second = sat;
        (sat ? out_.positive : out_.negative)++;
        return true;
    }
};

// The values each location may hold, and each thread's paths over them. A
// write's value is computed from reads of values other writes wrote before
// it, so no chain of justification is longer than the number of writes a
// run of every thread makes: the domains stop growing there (values only a
// cycle of reads could justify are left out, as herd7's equation solver
// leaves them out). A branch on a read is a path whatever the domain holds
// yet: herd7 takes both ways with the condition as a constraint on the
// value read, so the writes down either way grow the domains (a constant
// written only when a read returns a value that comes from that very
// write: the crypto-control-data shape). The executions then use only
// values some write makes. False, with out.error, when a limit is passed.
bool grow_domains(const Test& t, Domains& dom, std::vector<std::vector<Run>>& runs, OracleOutcome& out) {
    const int nl = (int)t.vars.size();
    dom.assign(nl, {});
    for (int v = 0; v < nl; v++)
        dom[v].push_back(t.vars[v].init_addr.empty() ? t.vars[v].init : address_of(t.var_index(t.vars[v].init_addr)));
    runs.assign(t.procs.size(), {});
    for (int round = 0;; round++) {
        size_t writes = 0;
        // Each thread's paths with each branch on a read taken either way
        // (thread_runs' both_branches), for the writes only; none when they
        // pass the limit (the domains then grow as the paths alone give).
        std::vector<std::vector<Run>> either(t.procs.size());
        for (size_t p = 0; p < t.procs.size(); p++) {
            runs[p] = thread_runs(t, (int)p, dom, kMaxRuns, out.error);
            if (!out.error.empty()) return false;
            std::string past;
            either[p] = thread_runs(t, (int)p, dom, kMaxRuns, past, true);
            if (!past.empty()) either[p].clear();
            size_t most = 0;
            for (const auto* rs : {&runs[p], &either[p]})
                for (const Run& r : *rs) {
                    size_t w = 0;
                    for (const Event& e : r.events) w += e.kind == Kind::W;
                    most = std::max(most, w);
                }
            writes += most;
        }
        if ((size_t)round >= writes) break;
        Domains grown = dom;
        // An invalid run's events up to where it failed (a dereference
        // of a value no location has, a division by zero) are a path's
        // too: its writes grow the domains. A thread that reads back its
        // own store of a pointer and dereferences it fails while the
        // location's domain lacks the pointer, and only its own write can
        // bring it in.
        for (const auto* all : {&runs, &either})
            for (const auto& rs : *all)
                for (const Run& r : rs) {
                    for (const Event& e : r.events) {
                        if (e.kind != Kind::W || e.lock != LockOp::None) continue;
                        auto& d = grown[e.loc];
                        if (std::find(d.begin(), d.end(), e.value) == d.end()) {
                            d.push_back(e.value);
                            if (d.size() > kMaxValues) {
                                out.error = t.file + ": location `" + t.vars[e.loc].name + "` may hold more than " +
                                            std::to_string(kMaxValues) + " values; accepted: tests whose locations hold few values";
                                return false;
                            }
                        }
                    }
                }
        if (grown == dom) break;
        dom = grown;
    }
    return true;
}

// herd7 prints a state's locations in its order of locations (registers
// by thread and name, then memory by name) and sorts the states by their
// values in that order.
void herd_order(const Test& t, const std::map<std::vector<long>, std::pair<uint64_t, bool>>& states, OracleOutcome& out) {
    const std::vector<size_t> order = litmus::herd_order(t);
    auto obs_name = [&](const litmus::Observed& o) {
        return o.proc >= 0 ? t.procs[o.proc].regs[o.index].name : t.vars[o.index].name;
    };
    std::vector<std::pair<std::vector<long>, OracleState>> sorted;
    for (const auto& kv : states) {
        OracleState st;
        std::vector<long> key;
        for (size_t i : order) {
            const auto& o = t.observed[i];
            std::string name = (o.proc >= 0 ? std::to_string(o.proc) + ":" : "") + obs_name(o);
            st.text += (st.text.empty() ? "" : " ") + name + "=" + value_text(t, kv.first[i]) + ";";
            key.push_back(kv.first[i]);
        }
        st.executions = kv.second.first;
        st.satisfies = kv.second.second;
        sorted.push_back({key, st});
    }
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& kv : sorted) out.states.push_back(std::move(kv.second));
}

}  // namespace

OracleOutcome oracle_run(const Test& t, const OracleOptions& opt) {
    auto t0 = std::chrono::steady_clock::now();
    OracleOutcome out;
    const int nl = (int)t.vars.size();
    Domains dom;
    std::vector<std::vector<Run>> runs;
    if (!grow_domains(t, dom, runs, out)) return out;
    // Every choice of one valid path per thread.
    std::vector<std::vector<const Run*>> valid(t.procs.size());
    for (size_t p = 0; p < t.procs.size(); p++)
        for (const Run& r : runs[p])
            if (r.valid) valid[p].push_back(&r);
    // Each run's values read and written, by location, as bits of the
    // domain: a choice of runs where some read returns a value no chosen
    // write (nor the initial state) writes has no candidate.
    auto bits = [&](const Run& r, bool writes) {
        std::vector<uint64_t> m(nl, 0);
        for (const Event& e : r.events) {
            if (e.lock != LockOp::None || (e.kind != (writes ? Kind::W : Kind::R))) continue;
            const auto& d = dom[e.loc];
            auto it = std::find(d.begin(), d.end(), e.value);
            if (it != d.end()) m[e.loc] |= uint64_t(1) << (it - d.begin());
        }
        return m;
    };
    std::vector<std::vector<std::vector<uint64_t>>> rbits(t.procs.size()), wbits(t.procs.size());
    for (size_t p = 0; p < t.procs.size(); p++)
        for (const Run* r : valid[p]) {
            rbits[p].push_back(bits(*r, false));
            wbits[p].push_back(bits(*r, true));
        }
    std::map<std::vector<long>, std::pair<uint64_t, bool>> states;
    std::vector<size_t> idx(t.procs.size(), 0);
    bool any = true;
    for (const auto& v : valid) any = any && !v.empty();
    uint64_t combos = 0;
    while (any) {
        bool feasible = true;
        for (int l = 0; l < nl && feasible; l++) {
            uint64_t r = 0, w = 1;  // the initial value is the domain's first
            for (size_t p = 0; p < idx.size(); p++) {
                r |= rbits[p][idx[p]][l];
                w |= wbits[p][idx[p]][l];
            }
            feasible = (r & ~w) == 0;
        }
        if (++combos % 4096 == 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > opt.time_limit) {
            out.error = t.file + ": not judged within " + std::to_string((int)opt.time_limit) +
                        " s; accepted: smaller tests (fewer reads, fewer values, fewer writes to one location)";
            return out;
        }
        std::vector<const Run*> pick;
        for (size_t p = 0; p < idx.size(); p++) pick.push_back(valid[p][idx[p]]);
        Candidates c(t, pick, opt, out, states, t0);
        if (feasible && !c.run()) return out;
        size_t p = 0;
        for (; p < idx.size(); p++) {
            if (++idx[p] < valid[p].size()) break;
            idx[p] = 0;
        }
        if (p == idx.size()) break;
    }
    herd_order(t, states, out);
    uint64_t total = out.positive + out.negative;
    out.answer = out.positive == 0 ? Answer::Never : out.positive == total ? Answer::Always : Answer::Sometimes;
    switch (t.quant) {
        case Quant::Exists: out.validated = out.positive > 0; break;
        case Quant::NotExists: out.validated = out.positive == 0; break;
        case Quant::Forall: out.validated = out.negative == 0; break;
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

bool expects_data_race(const std::string& text) {
    static const std::regex re(R"(Result:\s*\w+\s+DATARACE)");
    return std::regex_search(text, re);
}

std::string oracle_report(const Test& t, const OracleOutcome& o, bool stable) {
    std::string s;
    // herd7's kinds: exists is Allowed, ~exists Forbidden, forall Required.
    const char* kind = t.quant == Quant::Exists ? "Allowed" : t.quant == Quant::NotExists ? "Forbidden" : "Required";
    s += "Test " + t.name + " " + kind + "\n";
    s += "States " + std::to_string(o.states.size()) + "\n";
    for (const auto& st : o.states) s += st.text + "\n";
    s += o.validated ? "Ok\n" : "No\n";
    s += "Witnesses\n";
    // For ~exists herd7's witnesses are the executions that do not
    // satisfy the proposition (the Observation line still counts those
    // that do).
    bool neg = t.quant == Quant::NotExists;
    s += "Positive: " + std::to_string(neg ? o.negative : o.positive) + " Negative: " +
         std::to_string(neg ? o.positive : o.negative) + "\n";
    for (const auto& f : flag_names(o.flags)) s += "Flag " + f + "\n";
    s += "Condition " + t.cond_text + "\n";
    s += "Observation " + t.name + " " + litmus::answer_name(o.answer) + " " + std::to_string(o.positive) + " " +
         std::to_string(o.negative) + "\n";
    if (!stable) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f", o.seconds);
        s += "Time " + t.name + " " + buf + "\n";
    }
    return s;
}

bool value_domains(const Test& t, std::vector<std::vector<long>>& dom, std::string& error,
                   std::vector<std::vector<std::vector<long>>>* written) {
    Domains d;
    std::vector<std::vector<Run>> runs;
    OracleOutcome out;
    dom.clear();
    if (written) written->clear();
    if (!grow_domains(t, d, runs, out)) {
        error = out.error;
        return false;
    }
    auto as_stored = [](long x) { return is_address(x) ? litmus::location_value((int)(x - kAddressBase)) : x; };
    for (auto& vals : d) {
        std::vector<long> v;
        for (long x : vals) v.push_back(as_stored(x));
        dom.push_back(std::move(v));
    }
    // The runs of the last round were made with the final domains, so
    // they hold every write each thread may make.
    if (written) {
        written->assign(t.procs.size(), std::vector<std::vector<long>>(d.size()));
        for (size_t p = 0; p < runs.size(); p++)
            for (const Run& r : runs[p]) {
                if (!r.valid) continue;
                for (const Event& e : r.events) {
                    if (e.kind != Kind::W || e.lock != LockOp::None) continue;
                    auto& w = (*written)[p][e.loc];
                    long x = as_stored(e.value);
                    if (std::find(w.begin(), w.end(), x) == w.end()) w.push_back(x);
                }
            }
    }
    return true;
}

}  // namespace lkmm
}  // namespace vfsmc
