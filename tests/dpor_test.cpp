// The DPOR search (checker/search/dpor.h) is sound: it reaches what the
// plain search reaches, and on small programs with a known answer it runs
// exactly one execution per Mazurkiewicz trace. The number of traces is
// computed here by brute force: every interleaving of an abstract copy of
// the program, classed by the order of its dependent steps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "search/engine.h"
#include "cli/cli.h"
#include "scenario/scenario.h"

using namespace vfsmc;

namespace {

Scenario toy_dpor(const std::vector<std::vector<std::string>>& threads, const std::string& search,
                  const std::string& expect = "\"holds\"", const std::string& mm = "sc") {
    std::string th;
    for (size_t i = 0; i < threads.size(); i++) {
        std::string ops;
        for (size_t k = 0; k < threads[i].size(); k++) ops += std::string(k ? "," : "") + "\"" + threads[i][k] + "\"";
        th += std::string(i ? "," : "") + "{\"name\":\"P" + std::to_string(i) + "\",\"ops\":[" + ops + "]}";
    }
    std::string text = "{\"name\":\"t\",\"doc\":\"test\",\"memory_model\":\"" + mm + "\",\"model\":\"toy-dpor\",\"threads\":[" + th +
                       "],\"search\":" + search + ",\"expect\":" + expect + "}";
    return parse_scenario("t.json", text);
}

// ---- brute force ----------------------------------------------------------
// An abstract step: the key it touches and whether it writes. A thread's
// program is a list of instructions; LOCK is a try: it writes the lock when
// free, else parks until another thread writes it. A failed try is counted
// either as a read of the lock (`failed_try_reads`, the dependency relation
// before issue 10's await rule) or as no event at all (GenMC's blocked
// await: it changed nothing, and the thread is disabled until the lock is
// written).
// A retry pass (retry_y) is two reads, of y and of cnt; when y was 0 the
// pass starts over at once if either location moved since it read it, and
// parks otherwise until another thread writes one of them. A failed pass
// is counted as its two reads (`failed_try_reads`) or as no event at all
// (the fewest classes any search can get away with: dpor still counts the
// reads of a pass that starts over at once).
// An Add is a blind add (atomic_inc, atomic_dec): a write that, when
// `commuting_adds`, commutes with another Add of its key (search/commute.h).
enum class Op { W, R, Lock, PassY, PassCnt, Add };
struct Ins {
    Op op;
    std::string key;
};
struct Acc {
    int thread, index;  // the thread's index-th step
    std::string key;
    bool write;
    bool dead = false;  // a failed pass's read, counted as no event
    bool add = false;   // a blind add
};

std::vector<Ins> program(const std::vector<std::string>& ops, int t) {
    std::vector<Ins> p;
    for (const auto& o : ops) {
        if (o == "write_own") p.push_back({Op::W, "x" + std::to_string(t)});
        else if (o == "write_shared") p.push_back({Op::W, "y"});
        else if (o == "atomic_inc_n" || o == "atomic_dec_n") p.push_back({Op::Add, "n"});
        else if (o == "mb_inc_n") {
            // smp_mb() (the seq_cst fence order), then an add that is no
            // blind add: its store publishes the barrier (commute.h, 3).
            p.push_back({Op::W, "scfence"});
            p.push_back({Op::W, "n"});
        } else if (o == "dec_and_test_n") {
            p.push_back({Op::W, "n"});
            p.push_back({Op::W, "x" + std::to_string(t)});
        }
        else if (o == "locked_set_y") {
            p.push_back({Op::Lock, "l"});
            p.push_back({Op::W, "y"});
            p.push_back({Op::W, "l"});
        }
        else if (o == "rcu_reader") {
            // rcu_read_lock and rcu_read_unlock touch only the reader's own
            // grace-period word: read sections of two threads commute.
            p.push_back({Op::W, "rcu" + std::to_string(t)});
            p.push_back({Op::W, "x" + std::to_string(t)});
            p.push_back({Op::W, "rcu" + std::to_string(t)});
        } else if (o == "retry_y") {
            p.push_back({Op::PassY, "y"});
            p.push_back({Op::PassCnt, "cnt"});
            p.push_back({Op::W, "x" + std::to_string(t)});
        } else {
            p.push_back({Op::Lock, "l"});
            p.push_back({Op::R, "cnt"});
            p.push_back({Op::W, "cnt"});
            p.push_back({Op::W, "l"});
        }
    }
    return p;
}

// The class of a complete trace: per key, the writes in order and the set of
// reads between two writes; with `commuting_adds`, the set of blind adds
// between two other accesses too.
std::string signature(const std::vector<Acc>& trace, bool commuting_adds) {
    std::map<std::string, std::vector<std::string>> per_key;
    std::map<std::string, std::set<std::string>> reads, adds;
    auto flush_set = [&](std::map<std::string, std::set<std::string>>& m, const std::string& k, const char* open) {
        if (m[k].empty()) return;
        std::string r = open;
        for (const auto& x : m[k]) r += x + ",";
        per_key[k].push_back(r + "}");
        m[k].clear();
    };
    auto flush = [&](const std::string& k) {
        flush_set(reads, k, "{");
        flush_set(adds, k, "+{");
    };
    for (const Acc& a : trace) {
        if (a.dead) continue;
        std::string id = std::to_string(a.thread) + "." + std::to_string(a.index);
        if (a.add && commuting_adds) {
            flush_set(reads, a.key, "{");
            adds[a.key].insert(id);
        } else if (a.write) {
            flush(a.key);
            per_key[a.key].push_back("W" + id);
        } else {
            flush_set(adds, a.key, "+{");
            reads[a.key].insert(id);
        }
    }
    std::string sig;
    for (auto& kv : reads) flush(kv.first);
    for (auto& kv : adds) flush(kv.first);
    for (const auto& kv : per_key) {
        sig += kv.first + ":";
        for (const auto& x : kv.second) sig += x + " ";
        sig += "|";
    }
    return sig;
}

size_t mazurkiewicz_traces(const std::vector<std::vector<std::string>>& threads, bool failed_try_reads = false,
                           bool commuting_adds = false) {
    int n = (int)threads.size();
    std::vector<std::vector<Ins>> prog;
    for (int t = 0; t < n; t++) prog.push_back(program(threads[t], t));
    std::set<std::string> classes;
    std::vector<int> pc(n, 0), steps(n, 0);
    std::vector<bool> parked(n, false);
    std::map<std::string, int> holder;
    std::map<std::string, int> val;                 // y and cnt, for retry passes
    std::vector<int> seen_y(n, 0), seen_cnt(n, 0);  // what the running pass read
    std::vector<Acc> trace;
    std::function<void()> dfs = [&]() {
        bool any = false;
        for (int t = 0; t < n; t++) {
            if (parked[t] || pc[t] >= (int)prog[t].size()) continue;
            any = true;
            const Ins& in = prog[t][pc[t]];
            auto saved_holder = holder;
            auto saved_parked = parked;
            auto saved_val = val;
            auto saved_steps = steps;
            auto saved_trace = trace;
            int saved_pc = pc[t], saved_y = seen_y[t], saved_cnt = seen_cnt[t];
            bool write = in.op == Op::W || in.op == Op::Add;
            if (in.op == Op::PassY || in.op == Op::PassCnt) {
                (in.op == Op::PassY ? seen_y : seen_cnt)[t] = val[in.key];
                pc[t]++;
                trace.push_back({t, steps[t]++, in.key, false});
                if (in.op == Op::PassCnt && seen_y[t] == 0) {
                    pc[t] -= 2;  // goto retry
                    // Nothing new: park on y and cnt. (Something new: start over at once.)
                    if (val["y"] == seen_y[t] && val["cnt"] == seen_cnt[t]) parked[t] = true;
                    if (!failed_try_reads) {
                        trace[trace.size() - 1].dead = true;
                        for (size_t k = trace.size() - 1; k-- > 0;)
                            if (trace[k].thread == t && !trace[k].dead) {
                                trace[k].dead = true;
                                break;
                            }
                        steps[t] -= 2;
                    }
                }
                dfs();
                trace = saved_trace;
                steps = saved_steps;
                pc[t] = saved_pc;
                seen_y[t] = saved_y;
                seen_cnt[t] = saved_cnt;
                parked = saved_parked;
                continue;
            }
            if (in.op == Op::Lock) {
                auto it = holder.find(in.key);
                if (it == holder.end() || it->second < 0) {
                    holder[in.key] = t;
                    write = true;
                    pc[t]++;
                } else {
                    parked[t] = true;  // park (after a read, or as no event)
                    if (!failed_try_reads) {
                        dfs();
                        parked = saved_parked;
                        continue;
                    }
                }
            } else {
                if (in.op == Op::W && in.key == "l") holder[in.key] = -1;  // unlock
                if (in.op == Op::W && in.key == "y") val["y"] = t + 1;
                if (in.op == Op::W && in.key == "cnt") val["cnt"]++;
                pc[t]++;
            }
            if (write)
                for (int u = 0; u < n; u++) {
                    if (u == t || !parked[u]) continue;
                    bool pass = prog[u][pc[u]].op == Op::PassY;
                    if (prog[u][pc[u]].key == in.key || (pass && in.key == "cnt")) parked[u] = false;
                }
            trace.push_back({t, steps[t]++, in.key, write});
            trace.back().add = in.op == Op::Add;
            dfs();
            trace.pop_back();
            steps[t]--;
            pc[t] = saved_pc;
            parked = saved_parked;
            holder = saved_holder;
            val = saved_val;
        }
        if (!any) classes.insert(signature(trace, commuting_adds));
    };
    dfs();
    return classes.size();
}

uint64_t complete_executions(const RunResult& r) { return r.executions - r.sleep_blocked - r.pruned; }

RunResult run(const Scenario& s) {
    RunOptions o;
    o.minimize = false;
    return run_scenario(s, o);
}

}  // namespace

TEST_CASE("dpor runs one execution for N writers to N distinct variables", "[dpor]") {
    for (int n = 2; n <= 4; n++) {
        std::vector<std::vector<std::string>> th(n, {"write_own"});
        REQUIRE(mazurkiewicz_traces(th) == 1);
        RunResult r = run(toy_dpor(th, "{\"strategy\":\"dpor\"}"));
        INFO(n << " threads");
        CHECK(r.verdict == Verdict::holds);
        CHECK(r.scope == Scope::complete);
        CHECK(complete_executions(r) == 1);
        // The final state reads every x[t] after the last step: no read of
        // that step (issue 10: it was, and each other writer raced with it).
        RunOptions o;
        o.minimize = false;
        o.collect_outcomes = true;
        RunResult ro = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}"), o);
        CHECK(ro.executions == 1);
        CHECK(ro.outcomes.size() == 1);
    }
}

TEST_CASE("dpor runs N! executions for N writers to one variable", "[dpor]") {
    uint64_t fact = 1;
    for (int n = 2; n <= 4; n++) {
        fact *= n;
        std::vector<std::vector<std::string>> th(n, {"write_shared"});
        REQUIRE(mazurkiewicz_traces(th) == fact);
        RunResult r = run(toy_dpor(th, "{\"strategy\":\"dpor\"}"));
        INFO(n << " threads");
        CHECK(complete_executions(r) == fact);
    }
}

TEST_CASE("dpor covers every Mazurkiewicz trace of a lock-protected counter, failed tries being no events", "[dpor]") {
    // Issue 10's await rule: a wait condition that failed and parked is no
    // event of its own, so the traces are those of the brute force without
    // failed tries (`want`). dpor runs exactly one execution for each, with
    // the same final states as the plain search. Without the lock handoff
    // rule (search/dpor.h) it reaches each of them too, but reversing the
    // release before a waiting acquire reruns a trace: at least `want`
    // executions, never more than the traces that count a failed try as a
    // read of the lock (`old_want`, what it ran before the await rule).
    for (auto th : std::vector<std::vector<std::vector<std::string>>>{
             {{"locked_inc"}, {"locked_inc"}},
             {{"locked_inc"}, {"locked_inc"}, {"locked_inc"}},
             {{"locked_inc", "write_shared"}, {"write_shared", "locked_inc"}},
             {{"write_own", "locked_inc"}, {"locked_inc", "write_own"}},
             {{"locked_set_y"}, {"locked_set_y"}, {"locked_set_y"}},
             {{"locked_set_y", "locked_inc"}, {"locked_inc", "locked_set_y"}}}) {
        size_t want = mazurkiewicz_traces(th);
        size_t old_want = mazurkiewicz_traces(th, true);
        RunOptions o;
        o.minimize = false;
        o.collect_outcomes = true;
        RunResult r = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}"), o);
        RunResult full = run_scenario(toy_dpor(th, "{\"strategy\":\"exhaustive\"}"), o);
        INFO(th.size() << " threads, " << want << " traces by brute force (" << old_want << " when a failed try reads), " << th[0][0]
                       << ": executions " << r.executions << ", sleep-blocked " << r.sleep_blocked << ", pruned " << r.pruned);
        CHECK(r.verdict == Verdict::holds);
        CHECK(r.scope == Scope::complete);
        CHECK(complete_executions(r) == want);
        o.handoff = Handoff::off;
        RunResult off = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}"), o);
        INFO("without the handoff rule: executions " << off.executions << ", sleep-blocked " << off.sleep_blocked);
        CHECK(complete_executions(off) >= want);
        CHECK(complete_executions(off) <= old_want);
        REQUIRE(full.verdict == Verdict::holds);
        CHECK(r.outcomes == full.outcomes);
        CHECK(off.outcomes == full.outcomes);
    }
}

TEST_CASE("the lock handoff rule: a waiting acquire races with the acquire the release ends, not with the release", "[dpor]") {
    // Dropping the race instead (Handoff::drop, a test-only mutation) loses
    // traces: fewer executions than the brute force's classes, and final
    // states the plain search reaches.
    int lost_states = 0;
    for (auto th : std::vector<std::vector<std::vector<std::string>>>{
             {{"locked_inc"}, {"locked_inc"}},
             {{"locked_inc"}, {"locked_inc"}, {"locked_inc"}},
             {{"locked_set_y"}, {"locked_set_y"}},
             {{"locked_set_y"}, {"locked_set_y"}, {"locked_set_y"}},
             {{"write_own", "locked_set_y"}, {"locked_set_y", "write_own"}}}) {
        size_t want = mazurkiewicz_traces(th);
        RunOptions o;
        o.minimize = false;
        o.collect_outcomes = true;
        o.handoff = Handoff::drop;
        RunResult drop = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}"), o);
        o.handoff = Handoff::on;
        RunResult full = run_scenario(toy_dpor(th, "{\"strategy\":\"exhaustive\"}"), o);
        INFO(th.size() << " threads, " << want << " traces by brute force, " << th[0][0] << ": the mutation ran "
                       << complete_executions(drop));
        CHECK(complete_executions(drop) < want);
        if (drop.outcomes != full.outcomes) lost_states++;
    }
    CHECK(lost_states > 0);
}

// Toys where two threads store to the shared word with nothing ordering the
// stores: under `kernel` each store may also take its place in coherence
// before the other (free coherence order, substrate/sim.h), so dpor runs
// each such trace once per coherence order it allows; the exact counts
// below hold for the other toys.
static bool racing_stores(const std::vector<std::vector<std::string>>& th) {
    int n = 0;
    for (const auto& ops : th)
        for (const auto& op : ops)
            if (op == "write_shared") {
                n++;
                break;
            }
    return n >= 2;
}

TEST_CASE("blind adds commute: dpor runs one execution per trace in which two blind adds are independent (kernel memory model)", "[dpor][commute]") {
    // atomic_inc and atomic_dec of a counter read by RMWs only
    // (search/commute.h): the brute force's classes with commuting adds
    // (`want`) are what dpor runs, and without the rule those of the
    // ordinary relation (`want_off`); the final states (the counter, which
    // dec_and_test saw zero, y) are the plain search's either way.
    for (auto th : std::vector<std::vector<std::vector<std::string>>>{
             {{"atomic_inc_n"}, {"atomic_inc_n"}},
             {{"atomic_inc_n"}, {"atomic_inc_n"}, {"atomic_inc_n"}},
             {{"atomic_inc_n", "atomic_dec_n"}, {"atomic_inc_n"}},
             {{"atomic_inc_n", "write_shared"}, {"write_shared", "atomic_inc_n"}},
             {{"atomic_inc_n"}, {"dec_and_test_n"}},
             {{"atomic_inc_n"}, {"atomic_inc_n"}, {"dec_and_test_n"}},
             {{"atomic_inc_n", "dec_and_test_n"}, {"atomic_dec_n"}, {"atomic_inc_n"}}}) {
        size_t want = mazurkiewicz_traces(th, false, true);
        size_t want_off = mazurkiewicz_traces(th, false, false);
        RunOptions o;
        o.minimize = false;
        o.collect_outcomes = true;
        Scenario s = toy_dpor(th, "{\"strategy\":\"dpor\"}", "\"holds\"", "kernel");
        RunResult on = run_scenario(s, o);
        o.commute = Commute::off;
        RunResult off = run_scenario(s, o);
        RunResult full = run_scenario(toy_dpor(th, "{\"strategy\":\"exhaustive\"}", "\"holds\"", "kernel"), o);
        INFO(th.size() << " threads, " << th[0][0] << ": " << want << " traces with commuting adds, " << want_off
                       << " without; dpor " << complete_executions(on) << " and " << complete_executions(off));
        REQUIRE(full.verdict == Verdict::holds);
        CHECK(on.scope == Scope::complete);
        if (racing_stores(th)) {
            CHECK(complete_executions(on) >= want);
            CHECK(complete_executions(off) >= want_off);
            CHECK(complete_executions(on) <= complete_executions(off));
        } else {
            CHECK(complete_executions(on) == want);
            CHECK(complete_executions(off) == want_off);
        }
        CHECK(on.outcomes == full.outcomes);
        CHECK(off.outcomes == full.outcomes);
    }
}

TEST_CASE("under sc no add commutes: a seq_cst RMW publishes its thread's clock", "[dpor][commute]") {
    // Condition 3 of search/commute.h: the order of two seq_cst adds
    // decides happens-before between their threads, so under `sc` both
    // orders stay.
    std::vector<std::vector<std::string>> th = {{"atomic_inc_n"}, {"atomic_inc_n"}, {"atomic_inc_n"}};
    RunResult r = run(toy_dpor(th, "{\"strategy\":\"dpor\"}", "\"holds\"", "sc"));
    CHECK(complete_executions(r) == mazurkiewicz_traces(th, false, false));
    CHECK(complete_executions(r) == 6);
}

TEST_CASE("an atomic_inc after smp_mb() publishes the barrier: both orders of two such adds stay (kernel memory model)", "[dpor][commute]") {
    // Condition 3 of search/commute.h under `kernel`: the thread that reads
    // the other's add takes the other's barrier into its acquire-fence
    // clock, so the two orders differ in happens-before once it runs a
    // barrier of its own. The brute force counts the adds as ordinary
    // writes here; counting them as commuting gives fewer classes. With
    // every two fences ordered (FenceOrder::all) dpor runs one execution
    // per class; the observed-fence-order rule (search/fence_order.h) also
    // merges the two orders of the barriers, which nothing after them can
    // tell apart (neither barrier knows an event the other's thread does
    // not), and reaches the plain search's final states all the same.
    for (auto th : std::vector<std::vector<std::vector<std::string>>>{{{"mb_inc_n"}, {"mb_inc_n"}},
                                                                      {{"mb_inc_n"}, {"atomic_inc_n"}}}) {
        RunOptions o;
        o.minimize = false;
        o.collect_outcomes = true;
        RunResult observed = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}", "\"holds\"", "kernel"), o);
        o.fence_order = FenceOrder::all;
        RunResult all = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}", "\"holds\"", "kernel"), o);
        RunResult full = run_scenario(toy_dpor(th, "{\"strategy\":\"exhaustive\"}", "\"holds\"", "kernel"), o);
        INFO(th[0][0] << ", " << th[1][0] << ": dpor " << complete_executions(all) << ", with the rule "
                      << complete_executions(observed));
        CHECK(complete_executions(all) == mazurkiewicz_traces(th, false, false));
        // Two barriers, neither knowing anything the other's thread does
        // not: the rule merges their two orders.
        if (th[1][0] == "mb_inc_n") CHECK(complete_executions(observed) < complete_executions(all));
        else CHECK(complete_executions(observed) <= complete_executions(all));
        CHECK(observed.outcomes == full.outcomes);
        CHECK(all.outcomes == full.outcomes);
    }
    CHECK(mazurkiewicz_traces({{"mb_inc_n"}, {"mb_inc_n"}}) == 4);
}

TEST_CASE("the commuting-adds rule's mutation, a blind add commuting with any write, loses final states", "[dpor][commute]") {
    // Commute::mutant (search/commute.h), test-only: atomic_inc also
    // commutes with atomic_dec_and_test, whose result is used. Fewer
    // executions than the brute force's classes, and final states the
    // plain search reaches go missing.
    int lost_states = 0;
    for (auto th : std::vector<std::vector<std::vector<std::string>>>{
             {{"atomic_inc_n"}, {"dec_and_test_n"}},
             {{"atomic_inc_n"}, {"atomic_inc_n"}, {"dec_and_test_n"}},
             {{"atomic_inc_n", "write_shared"}, {"dec_and_test_n", "write_shared"}}}) {
        size_t want = mazurkiewicz_traces(th, false, true);
        RunOptions o;
        o.minimize = false;
        o.collect_outcomes = true;
        o.commute = Commute::mutant;
        RunResult mut = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}", "\"holds\"", "kernel"), o);
        o.commute = Commute::on;
        RunResult full = run_scenario(toy_dpor(th, "{\"strategy\":\"exhaustive\"}", "\"holds\"", "kernel"), o);
        INFO(th.size() << " threads, " << want << " traces by brute force: the mutation ran " << complete_executions(mut));
        if (!racing_stores(th)) CHECK(complete_executions(mut) < want);
        if (mut.outcomes != full.outcomes) lost_states++;
    }
    CHECK(lost_states == 3);
}

TEST_CASE("dpor reaches the final states of the plain search when a retry pass that read nothing new parks", "[dpor]") {
    // Issue 10: a retry pass (retry_loop) that read the same values as the
    // last one and changed nothing parks, and its reads are those of a
    // failed await (search/await_marks.h): not reversed against the write that
    // wakes it. The pass here spans two steps (y, then cnt). Its writers'
    // values are in the final state (x[t] = y * 10 + cnt), so an order
    // the reduction missed shows up as a missing final state.
    for (const char* mm : {"sc", "kernel"})
        for (auto th : std::vector<std::vector<std::vector<std::string>>>{
                 {{"retry_y"}, {"write_shared", "locked_inc"}},
                 {{"retry_y", "write_shared"}, {"write_shared", "locked_inc"}},
                 {{"retry_y"}, {"write_shared"}, {"locked_inc"}},
                 {{"retry_y"}, {"write_shared", "locked_inc"}, {"write_shared"}}}) {
            size_t want = mazurkiewicz_traces(th);
            size_t old_want = mazurkiewicz_traces(th, true);
            RunOptions o;
            o.minimize = false;
            o.collect_outcomes = true;
            RunResult r = run_scenario(toy_dpor(th, "{\"strategy\":\"dpor\"}", "\"holds\"", mm), o);
            RunResult full = run_scenario(toy_dpor(th, "{\"strategy\":\"exhaustive\"}", "\"holds\"", mm), o);
            INFO(mm << ", " << th.size() << " threads, " << want << " traces by brute force (" << old_want
                    << " when a failed pass reads): executions " << r.executions << ", sleep-blocked " << r.sleep_blocked
                    << ", pruned " << r.pruned << "; plain " << full.executions);
            CHECK(r.verdict == Verdict::holds);
            CHECK(r.scope == Scope::complete);
            REQUIRE(full.verdict == Verdict::holds);
            REQUIRE(full.scope == Scope::complete);
            CHECK(r.outcomes == full.outcomes);
            CHECK(full.outcomes.size() > 1);
            CHECK(complete_executions(r) >= want);
            if (std::string(mm) == "sc") CHECK(complete_executions(r) <= old_want);
        }
}

TEST_CASE("dpor runs one execution per Mazurkiewicz trace of RCU readers beside writers (kernel memory model)", "[dpor]") {
    // Issue 10: the RCU read side of two threads commutes (one grace-period
    // word per reader); with one word for all, every order of two readers'
    // rcu_read_unlock was a trace of its own.
    for (auto th : std::vector<std::vector<std::vector<std::string>>>{
             {{"rcu_reader"}, {"rcu_reader"}},
             {{"rcu_reader"}, {"rcu_reader"}, {"rcu_reader"}},
             {{"rcu_reader", "rcu_reader"}, {"rcu_reader", "rcu_reader"}},
             {{"rcu_reader", "write_shared"}, {"write_shared", "rcu_reader"}},
             {{"rcu_reader", "write_shared"}, {"rcu_reader"}, {"write_shared", "rcu_reader"}}}) {
        size_t want = mazurkiewicz_traces(th);
        RunResult r = run(toy_dpor(th, "{\"strategy\":\"dpor\"}", "\"holds\"", "kernel"));
        INFO(th.size() << " threads, " << want << " traces by brute force: executions " << r.executions << ", sleep-blocked "
                       << r.sleep_blocked << ", pruned " << r.pruned);
        CHECK(r.verdict == Verdict::holds);
        CHECK(r.scope == Scope::complete);
        if (racing_stores(th)) CHECK(complete_executions(r) >= want);
        else CHECK(complete_executions(r) == want);
    }
}

TEST_CASE("dpor and the plain search agree on the toy protocols", "[dpor]") {
    // toy-lock and toy-mp through the strategies: the same verdicts.
    auto toy = [](const std::string& model, const std::string& knob, const std::string& value, int threads,
                  const std::string& search) {
        std::string th;
        for (int i = 0; i < threads; i++) {
            std::string op = model == "toy-lock" ? "critical_section" : (i == 0 ? "produce" : "consume");
            th += std::string(i ? "," : "") + "{\"name\":\"P" + std::to_string(i) + "\",\"ops\":[\"" + op + "\"]}";
        }
        std::string text = "{\"name\":\"t\",\"doc\":\"test\",\"memory_model\":\"kernel\",\"model\":\"" + model +
                           "\",\"config\":{\"" + knob + "\":\"" + value + "\"},\"threads\":[" + th + "],\"search\":" + search +
                           ",\"expect\":\"holds\"}";
        return parse_scenario("t.json", text);
    };
    struct Case {
        const char* model;
        const char* knob;
        const char* value;
        int threads;
    };
    for (Case c : {Case{"toy-lock", "variant", "broken", 2}, Case{"toy-lock", "variant", "correct", 2},
                   Case{"toy-lock", "variant", "correct", 3}, Case{"toy-mp", "ordering", "once", 2},
                   Case{"toy-mp", "ordering", "release-acquire", 2}, Case{"toy-mp", "ordering", "once", 3}}) {
        RunResult full = run(toy(c.model, c.knob, c.value, c.threads, "{\"strategy\":\"exhaustive\"}"));
        RunResult dp = run(toy(c.model, c.knob, c.value, c.threads, "{\"strategy\":\"dpor\"}"));
        INFO(c.model << " " << c.value << " " << c.threads << " threads");
        CHECK(full.verdict == dp.verdict);
        CHECK(full.invariant == dp.invariant);
        CHECK(dp.executions <= full.executions);
    }
}

TEST_CASE("a dpor counterexample replays from its token", "[dpor]") {
    std::string th = "{\"name\":\"P0\",\"ops\":[\"critical_section\"]},{\"name\":\"P1\",\"ops\":[\"critical_section\"]}";
    Scenario s = parse_scenario("t.json", "{\"name\":\"t\",\"doc\":\"test\",\"memory_model\":\"kernel\",\"model\":\"toy-lock\","
                                          "\"config\":{\"variant\":\"broken\"},\"threads\":[" + th +
                                          "],\"search\":{\"strategy\":\"dpor\"},\"expect\":{\"verdict\":\"violated\","
                                          "\"invariant\":\"toy-mutual-exclusion\"}}");
    RunResult r = run(s);
    REQUIRE(r.verdict == Verdict::violated);
    REQUIRE(r.token.find(":d0k:") != std::string::npos);
    RunResult again = replay_scenario(s, r.token);
    CHECK(again.verdict == Verdict::violated);
    CHECK(again.invariant == r.invariant);
    CHECK(again.steps == r.steps);
}

// ---- soundness on the real models ------------------------------------------
namespace {

RunResult run_as(const Scenario& s, Strategy st, long max_executions, StaleCut cut = StaleCut::duplicates,
                 Handoff handoff = Handoff::on) {
    RunOptions o;
    o.handoff = handoff;
    o.minimize = false;
    o.collect_outcomes = true;
    o.override_search = true;
    o.search.strategy = st;
    o.search.max_executions = max_executions;
    o.stale_cut = cut;
    return run_scenario(s, o);
}

// A toy-dpor program under both searches: the plain search's verdict is
// `want`; dpor reaches the same verdict, and for holds, complete, the same
// final states (more than one, so that a missed order shows) in fewer
// executions; for violated, the same invariant.
using Threads = std::vector<std::vector<std::string>>;
void toy_same_as_plain(const Threads& th, const std::string& mm, Verdict want, long max_executions) {
    Scenario s = toy_dpor(th, "{\"strategy\":\"exhaustive\"}", "\"holds\"", mm);
    RunResult full = run_as(s, Strategy::exhaustive, max_executions);
    RunResult dp = run_as(s, Strategy::dpor, max_executions);
    INFO(mm << ", " << th.size() << " threads: plain " << full.verdict << " " << full.invariant << " in " << full.executions
            << ", dpor " << dp.verdict << " " << dp.invariant << " in " << dp.executions);
    REQUIRE(full.verdict == want);
    CHECK(dp.verdict == want);
    if (want == Verdict::violated) {
        CHECK(dp.invariant == full.invariant);
        return;
    }
    REQUIRE(full.scope == Scope::complete);
    CHECK(dp.scope == Scope::complete);
    CHECK(dp.outcomes == full.outcomes);
    CHECK(dp.outcomes.size() > 1);
    CHECK(dp.executions < full.executions);
}

// Both searches reach the same verdict and, for a verdict that found
// nothing, the same set of final states. `may_skip`: a scenario too large
// for the plain search within max_executions is left out; otherwise the
// plain search must finish.
void same_as_plain_search(const std::string& file, long max_executions, bool may_skip = false) {
    Scenario s = load_scenario(file);
    RunResult full = run_as(s, Strategy::exhaustive, max_executions);
    INFO(file << ": plain " << full.verdict << " in " << full.executions);
    if (may_skip && full.verdict == Verdict::inconclusive) return;
    REQUIRE(full.verdict != Verdict::inconclusive);
    RunResult dp = run_as(s, Strategy::dpor, max_executions);
    INFO(file << ": plain " << full.verdict << " " << full.invariant << " in " << full.executions << ", dpor " << dp.verdict
              << " " << dp.invariant << " in " << dp.executions);
    CHECK(dp.verdict == full.verdict);
    CHECK(dp.invariant == full.invariant);
    if (full.verdict == Verdict::holds) {
        CHECK(dp.scope == Scope::complete);
        CHECK(dp.outcomes == full.outcomes);
        CHECK(dp.executions <= full.executions);
    }
}

std::vector<std::string> scenario_files() {
    std::vector<std::string> out;
    for (const char* dir : {"chrdev", "dcache", "openref"}) {
        std::string d = std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + dir;
        for (const auto& f : collect_scenarios({d})) out.push_back(f);
    }
    return out;
}

}  // namespace

TEST_CASE("dpor reaches the final states of the plain search with RCU readers and a grace period (kernel memory model)", "[dpor]") {
    // A reader that reads y inside its section, beside a writer that waits
    // for a grace period between two stores to y: which of y's values each
    // reader saw is in the final state, so a missed order shows up here.
    for (const Threads& th : std::vector<Threads>{{{"rcu_read_y"}, {"sync_rcu"}}, {{"rcu_read_y", "rcu_read_y"}, {"sync_rcu"}}})
        toy_same_as_plain(th, "kernel", Verdict::holds, 2000000);
}

TEST_CASE("dpor reaches the final states of the plain search with two RCU readers and a grace period (kernel)", "[.long][plain]") {
    // As above, with three threads: the plain search takes millions of
    // executions (each rcu_read_lock() is a scheduling point).
    for (const Threads& th : std::vector<Threads>{
             {{"rcu_read_y"}, {"rcu_read_y"}, {"sync_rcu"}},
             {{"rcu_read_y", "rcu_reader"}, {"rcu_reader", "rcu_read_y"}, {"sync_rcu"}}})
        toy_same_as_plain(th, "kernel", Verdict::holds, 100000000);
}

TEST_CASE("dpor reaches the verdicts and final states of the plain search with call_rcu and readers", "[dpor]") {
    // call_rcu()'s grace period waits for the sections that were running when
    // it was called and ends at the last one's rcu_read_unlock(), which frees
    // the object; its end reads only those readers' grace-period words, and a
    // reader's section boundaries do not order it against a pending free it
    // is not waited for. Each order that matters is still explored: a reader
    // that uses the pointer inside its section is safe, one that uses it after
    // rcu_read_unlock() is a use after free in some order, under both
    // memory models.
    for (const char* mm : {"sc", "kernel"}) {
        for (const Threads& th : std::vector<Threads>{
                 {{"rcu_use_ptr"}, {"call_rcu_unpublish"}},
                 {{"rcu_use_ptr", "rcu_use_ptr"}, {"call_rcu_unpublish"}},
                 {{"rcu_reader", "rcu_use_ptr"}, {"rcu_reader", "call_rcu_unpublish"}}})
            toy_same_as_plain(th, mm, Verdict::holds, 3000000);
        for (const Threads& th : std::vector<Threads>{
                 {{"rcu_use_after_unlock"}, {"call_rcu_unpublish"}},
                 {{"rcu_reader", "rcu_use_after_unlock"}, {"rcu_reader", "call_rcu_unpublish"}},
                 {{"rcu_use_ptr"}, {"rcu_use_after_unlock"}, {"call_rcu_unpublish"}}})
            toy_same_as_plain(th, mm, Verdict::violated, 3000000);
    }
}

TEST_CASE("dpor reaches the final states of the plain search with call_rcu and two readers", "[.long][plain]") {
    // As above, with three threads that all hold: the plain search takes
    // millions of executions (each rcu_read_lock() is a scheduling point).
    for (const char* mm : {"sc", "kernel"})
        for (const Threads& th : std::vector<Threads>{
                 {{"rcu_use_ptr"}, {"rcu_use_ptr"}, {"call_rcu_unpublish"}},
                 {{"rcu_reader", "rcu_use_ptr"}, {"rcu_use_ptr", "rcu_reader"}, {"rcu_reader", "call_rcu_unpublish"}}})
            toy_same_as_plain(th, mm, Verdict::holds, 100000000);
}

TEST_CASE("dpor reaches the verdicts and final states of the plain search on small scenarios", "[dpor]") {
    for (const char* f : {"chrdev/cdev-del-vs-first-open-pre-seed", "chrdev/cdev-del-vs-first-open-v2",
                          "chrdev/cdev-del-vs-reopen-pre-seed", "chrdev/get-unless-zero-vs-release",
                          "chrdev/pre-seed-fops-get-failure", "chrdev/pre-seed-open-vs-last-close",
                          "chrdev/rmmod-vs-open-pre-seed", "chrdev/pre-seed-opener-without-inode-ref",
                          "chrdev/evict-vs-opener-v2"})
        same_as_plain_search(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + f + ".json", 200000);
}

TEST_CASE("dpor reaches the plain search's final states on mainline-exclusive-two-creates (rwsem wait queue)", "[.long][plain]") {
    // The rwsem's arrival order and writer tickets were layer state outside
    // every key: a down_write queued behind another writer parked on
    // nothing and was never woken (the plain search reported a deadlock
    // that dpor, blind to the two arrivals' order, never reached). They are
    // now the semaphore's wait-queue key: both searches hold, with the same
    // final states.
    Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/dcache/mainline-exclusive-two-creates.json");
    // The plain search takes about 5 million executions.
    RunResult full = run_as(s, Strategy::exhaustive, 20000000);
    RunResult dp = run_as(s, Strategy::dpor, 20000000);
    INFO("plain " << full.verdict << " " << full.invariant << " in " << full.executions << ", dpor " << dp.verdict << " in "
                  << dp.executions);
    REQUIRE(full.verdict == Verdict::holds);
    REQUIRE(full.scope == Scope::complete);
    CHECK(dp.verdict == Verdict::holds);
    CHECK(dp.scope == Scope::complete);
    CHECK(dp.outcomes == full.outcomes);
}

// A stale lockref read that the update succeeds on retries on the latest
// value: a full search cuts it as a duplicate of the sibling branch that
// read the latest value (search/stale_cut.h, the succeeding-update cut).
// So is a stale read of a locked value when a newer store in its window is
// locked too: both go to spin_lock, which reads the latest (the
// locked-value cut). Sound when the search without the cut reaches the
// same verdicts and final states; the comparison notices a wrong cut
// (every stale read cut loses the x = 10 of read_y_get_not_zero, a stale
// count the update fails on, which no cut takes).

TEST_CASE("a full search cuts only duplicate stale lockref reads: the same verdicts and final states as without the cut", "[dpor]") {
    // read_y_get_not_zero's stale reads are of a count of 0, which its
    // update fails on: no duplicate. The other programs have stale counts
    // their gets and puts succeed on.
    struct Program {
        Threads th;
        bool has_duplicates;
        bool one_outcome;     // two get-put pairs always end at count 0
        bool exhaustive = true;  // small enough for the plain search without the cut
    };
    for (Strategy st : {Strategy::exhaustive, Strategy::dpor}) {
        for (const Program& p : std::vector<Program>{
                 {{{"lockref_get_set_y"}, {"read_y_get_not_zero"}}, false, false},
                 {{{"lockref_get_put"}, {"lockref_get_put"}}, true, true},
                 {{{"lockref_get_put", "read_y_get_not_zero"}, {"lockref_get_set_y", "lockref_get_put"}}, true, false},
                 // Stale reads of a locked value with a newer locked store
                 // in the window (the locked-value cut).
                 {{{"lockref_locked_twice"}, {"lockref_get_put"}}, true, true},
                 // Without the cut the plain search of this one runs past
                 // 3 million executions (each load may read 15 stores
                 // back): dpor alone compares it.
                 {{{"lockref_locked_twice", "read_y_get_not_zero"}, {"lockref_get_set_y", "lockref_get_put"}}, true, false, false}}) {
            if (st == Strategy::exhaustive && !p.exhaustive) continue;
            Scenario s = toy_dpor(p.th, "{\"strategy\":\"exhaustive\"}", "\"holds\"", "kernel");
            RunResult none = run_as(s, st, 3000000, StaleCut::none);
            RunResult dup = run_as(s, st, 3000000, StaleCut::duplicates);
            INFO(strategy_name(st) << ", " << p.th[0][0] << " | " << p.th[1][0] << ": without the cut " << none.executions
                                   << ", with it " << dup.executions << " (" << dup.duplicates << " duplicates)");
            REQUIRE(none.verdict == Verdict::holds);
            REQUIRE(none.scope == Scope::complete);
            CHECK(none.duplicates == 0);
            CHECK(dup.verdict == Verdict::holds);
            CHECK(dup.scope == Scope::complete);
            CHECK(dup.outcomes == none.outcomes);
            CHECK((none.outcomes.size() == 1) == p.one_outcome);
            if (p.has_duplicates) {
                CHECK(dup.duplicates > 0);
                CHECK(dup.executions < none.executions);
            } else {
                CHECK(dup.duplicates == 0);
                CHECK(dup.executions == none.executions);
            }
        }
        // The mutation: cutting every stale read loses a final state.
        Scenario s = toy_dpor({{"lockref_get_set_y"}, {"read_y_get_not_zero"}}, "{\"strategy\":\"exhaustive\"}", "\"holds\"",
                              "kernel");
        RunResult none = run_as(s, st, 3000000, StaleCut::none);
        RunResult every = run_as(s, st, 3000000, StaleCut::every_stale);
        CHECK(every.outcomes.size() < none.outcomes.size());
    }
    // Under `sc` a lockref read sees the latest value: nothing to cut.
    Scenario s = toy_dpor({{"lockref_get_set_y"}, {"read_y_get_not_zero"}}, "{\"strategy\":\"exhaustive\"}", "\"holds\"", "sc");
    RunResult none = run_as(s, Strategy::exhaustive, 3000000, StaleCut::none);
    RunResult every = run_as(s, Strategy::exhaustive, 3000000, StaleCut::every_stale);
    CHECK(every.outcomes == none.outcomes);
    CHECK(every.duplicates == 0);
    CHECK(every.executions == none.executions);
}

// dpor's reorder cut (search/reorder_cut.h) ends an execution at a stale
// marked load (READ_ONCE, smp_load_acquire, rcu_dereference) whose step
// could run before the store it missed, with the store it read (or the
// initial value) already there: dpor reverses that race and runs the
// moved read. On every toy here some stale load is cut, and the outcomes
// stay those of the search without it and of the exhaustive search.
TEST_CASE("dpor's reorder cut ends reorderable stale loads and keeps every outcome", "[dpor]") {
    int varied = 0;  // toys whose final values depend on what their loads read
    for (const Threads& th : std::vector<Threads>{{{"write_shared"}, {"rcu_read_y"}},
                                                  {{"write_shared", "write_own"}, {"rcu_read_y", "write_shared"}},
                                                  {{"locked_inc", "write_shared"}, {"retry_y"}},
                                                  {{"write_shared", "write_shared"}, {"rcu_read_y"}},
                                                  {{"write_shared", "write_own", "write_shared"}, {"rcu_read_y", "write_own"}}}) {
        Scenario s = toy_dpor(th, "{\"strategy\":\"exhaustive\"}", "\"holds\"", "kernel");
        RunResult none = run_as(s, Strategy::dpor, 3000000, StaleCut::none);
        RunResult dup = run_as(s, Strategy::dpor, 3000000, StaleCut::duplicates);
        RunResult reorder = run_as(s, Strategy::dpor, 3000000, StaleCut::reorder);
        RunResult plain = run_as(s, Strategy::exhaustive, 3000000, StaleCut::none);
        INFO(th[0][0] << " | " << th[1][0] << ": without the cut " << none.executions << ", with the local cuts "
                        << dup.executions << ", with the reorder cut " << reorder.executions << " ("
                        << reorder.duplicates << " duplicates), plain " << plain.executions);
        REQUIRE(none.verdict == Verdict::holds);
        REQUIRE(none.scope == Scope::complete);
        CHECK(none.outcomes == plain.outcomes);
        varied += none.outcomes.size() > 1;
        CHECK(dup.outcomes == none.outcomes);
        CHECK(dup.duplicates == 0);
        CHECK(dup.executions == none.executions);
        REQUIRE(reorder.verdict == Verdict::holds);
        REQUIRE(reorder.scope == Scope::complete);
        CHECK(reorder.outcomes == none.outcomes);
        CHECK(reorder.duplicates > 0);
        CHECK(reorder.executions - reorder.duplicates < none.executions);  // the judged ones
    }
    CHECK(varied >= 3);
}

// The wait-queue primitives carry the kernel's barriers and no more
// (kernel/sched/wait.c): prepare_to_wait()'s set_current_state() is the
// waiter's full barrier, and wq_has_sleeper()'s smp_mb() the waker's. With
// both, no wakeup is lost under either memory model; without the waker's,
// its waitqueue_active() may read the list before the waiter's add while
// the waiter reads y before the waker's store (store buffering): a lost
// wakeup under `kernel`, none under `sc`. dpor and the plain search agree.
TEST_CASE("a waker without wq_has_sleeper()'s smp_mb() loses a wakeup under kernel only", "[dpor][memory-model]") {
    for (Strategy st : {Strategy::exhaustive, Strategy::dpor}) {
        for (const char* mm : {"sc", "kernel"}) {
            for (const char* waker : {"wq_wake", "wq_wake_no_mb"}) {
                Scenario s = toy_dpor({{"wq_wait"}, {waker}}, "{\"strategy\":\"exhaustive\"}", "\"holds\"", mm);
                RunResult r = run_as(s, st, 3000000);
                bool lost = std::string(mm) == "kernel" && std::string(waker) == "wq_wake_no_mb";
                INFO(strategy_name(st) << ", " << mm << ", " << waker << ": " << r.verdict << " " << r.invariant << " in "
                                       << r.executions);
                if (lost) {
                    CHECK(r.verdict == Verdict::violated);
                    CHECK(r.invariant == "lost-wakeup");
                } else {
                    CHECK(r.verdict == Verdict::holds);
                    CHECK(r.scope == Scope::complete);
                }
            }
        }
    }
}

TEST_CASE("the duplicate stale lockref reads cut leave the verdicts and final states of real scenarios as they are", "[dpor]") {
    for (const char* f : {"dcache/shared-d-add", "dcache/broken-no-wait-revalidate", "dcache/lookup-first-deadlock",
                          "dcache/shared-cached-negative-no-reject"}) {
        Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + f + ".json");
        RunResult none = run_as(s, Strategy::dpor, 2000000, StaleCut::none);
        RunResult dup = run_as(s, Strategy::dpor, 2000000, StaleCut::duplicates);
        INFO(f << ": without the cut " << none.verdict << " " << none.invariant << " in " << none.executions << ", with it "
               << dup.verdict << " " << dup.invariant << " in " << dup.executions << " (" << dup.duplicates << " duplicates)");
        CHECK(dup.verdict == none.verdict);
        CHECK(dup.invariant == none.invariant);
        if (none.verdict == Verdict::holds) {
            CHECK(dup.scope == Scope::complete);
            CHECK(dup.outcomes == none.outcomes);
            CHECK(dup.duplicates > 0);
            CHECK(dup.executions < none.executions);
        }
    }
}

// The reorder cut on real models (`kernel`): the verdict, the invariant and
// every final state of the search that cuts only the local duplicates,
// with fewer executions judged.
TEST_CASE("the reorder cut leaves the verdicts and final states of real scenarios as they are", "[dpor]") {
    for (const char* f : {"dcache/shared-d-add", "dcache/shared-create-vs-lookup", "openref/rcu-legitimize-vs-unlink-negative",
                          "dcache/broken-dir-seq-read-relaxed", "openref/rcu-legitimize-vs-kill-no-d-seq"}) {
        Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + f + ".json");
        RunResult dup = run_as(s, Strategy::dpor, 2000000, StaleCut::duplicates);
        RunResult reorder = run_as(s, Strategy::dpor, 2000000, StaleCut::reorder);
        INFO(f << ": local cuts " << dup.verdict << " " << dup.invariant << " in " << dup.executions << ", reorder cut "
               << reorder.verdict << " " << reorder.invariant << " in " << reorder.executions << " (" << reorder.duplicates
               << " duplicates)");
        CHECK(reorder.verdict == dup.verdict);
        CHECK(reorder.invariant == dup.invariant);
        if (dup.verdict == Verdict::holds) {
            REQUIRE(dup.scope == Scope::complete);
            CHECK(reorder.scope == Scope::complete);
            CHECK(reorder.outcomes == dup.outcomes);
            CHECK(reorder.executions - reorder.duplicates < dup.executions - dup.duplicates);  // the judged ones
        }
    }
}

TEST_CASE("the lock handoff rule leaves the verdicts and final states of real scenarios as they are", "[dpor]") {
    // Spinlocks, the lockref's lock, mutexes and the rwsem, in the three
    // models; a deadlock among them.
    for (const char* f : {"dcache/shared-d-add", "dcache/lookup-first-deadlock", "dcache/mainline-exclusive-two-creates",
                          "dcache/shared-create-error-waiter-retries", "chrdev/concurrent-first-open-v2",
                          "chrdev/cdev-del-vs-concurrent-opens-pre-seed", "openref/truncate-fail-umount-v5"}) {
        Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + f + ".json");
        RunResult off = run_as(s, Strategy::dpor, 2000000, StaleCut::duplicates, Handoff::off);
        RunResult on = run_as(s, Strategy::dpor, 2000000, StaleCut::duplicates, Handoff::on);
        INFO(f << ": without the rule " << off.verdict << " " << off.invariant << " in " << off.executions << ", with it "
               << on.verdict << " " << on.invariant << " in " << on.executions);
        REQUIRE(off.verdict != Verdict::inconclusive);
        CHECK(on.verdict == off.verdict);
        CHECK(on.invariant == off.invariant);
        if (off.verdict == Verdict::holds) {
            CHECK(on.scope == Scope::complete);
            CHECK(on.outcomes == off.outcomes);
            CHECK(on.executions < off.executions);
        }
    }
}

namespace {
// A reduction's run `on` against the run `off` without it: the same
// verdict and invariant, and for a holds a complete search with the same
// final states; with `fewer`, in no more executions (the difference added
// to *saved).
void same_verdict_as_without(const std::string& f, const RunResult& off, const RunResult& on, bool fewer,
                             uint64_t* saved = nullptr) {
    INFO(f << ": without the rule " << off.verdict << " " << off.invariant << " in " << off.executions << ", with it "
           << on.verdict << " " << on.invariant << " in " << on.executions);
    CHECK(on.verdict == off.verdict);
    CHECK(on.invariant == off.invariant);
    if (off.verdict == Verdict::holds) {
        CHECK(on.scope == Scope::complete);
        CHECK(on.outcomes == off.outcomes);
        if (!fewer) return;
        CHECK(on.executions <= off.executions);
        if (saved) *saved += off.executions - on.executions;
    }
}

// A scenario under dpor with the commuting-adds rule and without.
void commute_same_as_off(const std::string& f, long max_executions, int* compared, uint64_t* saved) {
    Scenario s = load_scenario(f);
    RunOptions o;
    o.minimize = false;
    o.collect_outcomes = true;
    o.override_search = true;
    o.search.strategy = Strategy::dpor;
    o.search.max_executions = max_executions;
    o.commute = Commute::off;
    RunResult off = run_scenario(s, o);
    if (off.verdict == Verdict::inconclusive) return;
    o.commute = Commute::on;
    RunResult on = run_scenario(s, o);
    same_verdict_as_without(f, off, on, true, saved);
    if (compared) (*compared)++;
}
}  // namespace

TEST_CASE("the commuting-adds rule leaves the verdicts and final states of real scenarios as they are", "[dpor][commute]") {
    // openref's atomic_incs and atomic_decs of mnt_writers, s_writers and
    // i_count (mnt_want_write, mnt_drop_write, ihold) are the models' only
    // adds the rule could take. Under `sc` they are seq_cst, and under
    // `kernel` they follow the RCU walk's full barriers, whose clock their
    // stores publish (search/commute.h, condition 3), so none commutes and
    // the counts are those without the rule: a change here means the layer
    // marks adds it did not, which needs its own argument.
    uint64_t saved = 0;
    for (const char* f : {"openref/truncate-fail-umount-v5", "openref/truncate-fail-umount-v4", "openref/atomic-open-truncate-v5",
                          "openref/rcu-legitimize-vs-unlink-negative", "openref/two-openers-v5"}) {
        int compared = 0;
        commute_same_as_off(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + f + ".json", 2000000, &compared, &saved);
        CHECK(compared == 1);
    }
    CHECK(saved == 0);
}

// scripts/test --long: every scenario whose dpor search without the
// commuting-adds rule finishes within 1,000,000 executions gives the same
// verdict and final states with it.
TEST_CASE("the commuting-adds rule leaves every scenario dpor can finish without it as it is", "[.long][commute]") {
    int compared = 0;
    for (const auto& f : scenario_files()) commute_same_as_off(f, 1000000, &compared, nullptr);
    CHECK(compared > 60);
}

// scripts/test --long: every scenario whose plain search finishes within
// 2,000,000 executions.
TEST_CASE("dpor reaches the verdicts and final states of the plain search on every scenario it can finish", "[.long][plain]") {
    for (const auto& f : scenario_files()) same_as_plain_search(f, 2000000, true);
}

// scripts/test --long: every `kernel` scenario whose dpor search without
// the duplicate cut finishes within 1,000,000 executions gives the same
// verdict and final states with it.
TEST_CASE("the duplicate stale lockref reads cut leaves every scenario dpor can finish as it is", "[.long][cuts]") {
    int compared = 0;
    for (const auto& f : scenario_files()) {
        Scenario s = load_scenario(f);
        if (s.memory_model != MemModel::kernel) continue;  // under `sc` there is nothing to cut
        RunResult none = run_as(s, Strategy::dpor, 1000000, StaleCut::none);
        if (none.verdict == Verdict::inconclusive) continue;
        RunResult dup = run_as(s, Strategy::dpor, 1000000, StaleCut::duplicates);
        INFO(f << ": without the cut " << none.verdict << " " << none.invariant << " in " << none.executions << ", with it "
               << dup.verdict << " " << dup.invariant << " in " << dup.executions << " (" << dup.duplicates << " duplicates)");
        CHECK(dup.verdict == none.verdict);
        CHECK(dup.invariant == none.invariant);
        if (none.verdict == Verdict::holds) CHECK(dup.outcomes == none.outcomes);
        compared++;
    }
    CHECK(compared > 20);
}

// scripts/test --long: every scenario whose dpor search without the lock
// handoff rule finishes within 1,000,000 executions gives the same verdict
// and final states with it.
TEST_CASE("the lock handoff rule leaves every scenario dpor can finish without it as it is", "[.long][handoff]") {
    int compared = 0;
    for (const auto& f : scenario_files()) {
        Scenario s = load_scenario(f);
        RunResult off = run_as(s, Strategy::dpor, 1000000, StaleCut::duplicates, Handoff::off);
        if (off.verdict == Verdict::inconclusive) continue;
        RunResult on = run_as(s, Strategy::dpor, 1000000, StaleCut::duplicates, Handoff::on);
        same_verdict_as_without(f, off, on, false);
        compared++;
    }
    CHECK(compared > 60);
}

TEST_CASE("dpor finds every violation the scenarios expect", "[.long][violations]") {
    // The slowest: three-shared-d-rehash (three threads and `order`
    // constraints; dpor's depth-first order reaches the constrained race
    // late): found after 1,201,326 executions, 92 s on the 2 cores with two
    // other searches running (it was inconclusive at 3.28 M in 120 s before
    // the lock handoff rule). Hence the 300 s.
    for (const auto& f : scenario_files()) {
        Scenario s = load_scenario(f);
        if (s.expect.verdict != Verdict::violated) continue;
        RunOptions o;
        o.minimize = false;
        o.override_search = true;
        o.search.strategy = Strategy::dpor;
        o.search.time_limit_s = 300;
        RunResult r = run_scenario(s, o);
        INFO(f << ": " << r.verdict << " " << r.invariant << " after " << r.executions);
        // The bug is found; its first symptom may be another invariant than
        // the one the scenario's own search meets first (the PCT variant of
        // broken-dir-seq-read-relaxed: create-exclusion vs one-hashed).
        CHECK(r.verdict == Verdict::violated);
    }
}

// The size estimate of an unfinished dpor search (run --estimate, the
// progress line): executions / the share of the tree the last path shows
// explored (dpor.h, explored_share). Stopped after a tenth of their
// searches or less, real scenarios whose whole count is recorded get an
// estimate within a factor of 4 of it; a finished search has none.
TEST_CASE("dpor's size estimate lands within a factor of 4 of the recorded count after a tenth of the search", "[dpor][estimate]") {
    struct Case {
        const char* file;
        long whole;   // the scenario's count in its explorations.lock
        long probe;   // executions before the stop
    };
    for (const Case& c : std::vector<Case>{{"openref/rcu-legitimize-vs-kill", 226966, 20000},
                                           {"dcache/shared-create-vs-open", 43401, 4000},
                                           {"dcache/shared-cached-negative-reject", 869823, 60000}}) {
        Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + c.file + ".json");
        RunResult r = run_as(s, Strategy::dpor, c.probe);
        INFO(c.file << ": estimate " << r.estimate << " (" << r.estimate_low << " to " << r.estimate_high << ") after "
                    << r.executions << " of " << c.whole);
        REQUIRE(r.limit_hit);
        CHECK(r.estimate >= c.whole / 4.0);
        CHECK(r.estimate <= c.whole * 4.0);
        CHECK(r.estimate_low <= r.estimate);
        CHECK(r.estimate_high >= r.estimate);
    }
    Scenario s = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/dcache/mainline-exclusive-two-creates.json");
    RunResult whole = run_as(s, Strategy::dpor, 0);
    CHECK(whole.complete);
    CHECK(whole.estimate == 0);
}

// ---- the identical-threads rule (search/symmetry.h) ----------------------
namespace {

Scenario toy_sym(const Threads& threads, const std::string& mm = "sc", const std::string& expect = "\"holds\"") {
    std::string th;
    for (size_t i = 0; i < threads.size(); i++) {
        std::string ops;
        for (size_t k = 0; k < threads[i].size(); k++) ops += std::string(k ? "," : "") + "\"" + threads[i][k] + "\"";
        th += std::string(i ? "," : "") + "{\"name\":\"P" + std::to_string(i) + "\",\"ops\":[" + ops + "]}";
    }
    return parse_scenario("t.json", "{\"name\":\"t\",\"doc\":\"test\",\"memory_model\":\"" + mm +
                                        "\",\"model\":\"toy-sym\",\"threads\":[" + th +
                                        "],\"search\":{\"strategy\":\"dpor\"},\"expect\":" + expect + "}");
}

RunResult run_sym(const Scenario& s, Symmetry sym, long max_executions = 0) {
    RunOptions o;
    o.minimize = false;
    o.collect_outcomes = true;
    o.symmetry = sym;
    o.override_search = true;
    o.search.strategy = Strategy::dpor;
    o.search.max_executions = max_executions;
    return run_scenario(s, o);
}

// Brute force over the toy-sym programs, every thread of one class: the
// Mazurkiewicz traces of every interleaving (`plain`); those of the
// interleavings the rule keeps, in which a thread's first write follows
// the first write of the thread before it (`kept`: the traces of S',
// symmetry.h, as the rule's extra dependency is the same in all of them);
// and the traces up to a permutation of the threads (`orbits`, the fewest
// any symmetry reduction can get away with).
struct SymCounts {
    size_t plain = 0, kept = 0, orbits = 0;
};
SymCounts symmetric_traces(const std::vector<std::string>& ops, int n) {
    std::vector<std::pair<bool, std::string>> prog;  // (write, key)
    for (const auto& o : ops) {
        if (o == "write_y") prog.push_back({true, "y"});
        else if (o == "inc_y") {
            prog.push_back({false, "y"});
            prog.push_back({true, "y"});
        } else if (o == "read_z_write_y") {
            prog.push_back({false, "z"});
            prog.push_back({true, "y"});
        } else if (o == "own_then_y") {
            prog.push_back({true, "x#"});
            prog.push_back({true, "y"});
        } else {  // ticket: two RMWs
            prog.push_back({true, "start"});
            prog.push_back({true, "end"});
        }
    }
    std::set<std::string> plain, kept, orbits;
    std::vector<int> pc(n, 0), wrote(n, 0);
    std::vector<Acc> trace;
    auto key_of = [](const std::string& k, int t) { return k == "x#" ? "x" + std::to_string(t) : k; };
    std::function<void(bool)> dfs = [&](bool in_kept) {
        if ((int)trace.size() == n * (int)prog.size()) {
            std::string sig = signature(trace, false);
            plain.insert(sig);
            if (in_kept) kept.insert(sig);
            std::vector<int> perm(n);
            for (int t = 0; t < n; t++) perm[t] = t;
            std::string least;
            do {
                std::vector<Acc> renamed = trace;
                for (Acc& a : renamed) {
                    if (a.key == "x" + std::to_string(a.thread)) a.key = "x" + std::to_string(perm[a.thread]);
                    a.thread = perm[a.thread];
                }
                std::string s2 = signature(renamed, false);
                if (least.empty() || s2 < least) least = s2;
            } while (std::next_permutation(perm.begin(), perm.end()));
            orbits.insert(least);
            return;
        }
        for (int t = 0; t < n; t++) {
            if (pc[t] >= (int)prog.size()) continue;
            bool w = prog[pc[t]].first;
            bool released = t == 0 || wrote[t - 1] || pc[t - 1] == (int)prog.size();
            bool ok = in_kept && (!w || wrote[t] || released);
            trace.push_back({t, pc[t], key_of(prog[pc[t]].second, t), w});
            pc[t]++;
            wrote[t] += w;
            dfs(ok);
            wrote[t] -= w;
            pc[t]--;
            trace.pop_back();
        }
    };
    dfs(true);
    return {plain.size(), kept.size(), orbits.size()};
}

}  // namespace

TEST_CASE("the scenario layer names the threads that can swap: the same ops, in a model that declares its threads alike", "[dpor][symmetry]") {
    Scenario s = toy_sym({{"write_y"}, {"inc_y"}, {"write_y"}, {"inc_y"}});
    CHECK(interchangeable_threads(s) == std::vector<int>{0, 1, 0, 1});
    ThreadClasses c = thread_classes(s, Symmetry::on);
    CHECK(c.prev[0] == -1);
    CHECK(c.prev[1] == -1);
    CHECK(c.prev[2] == 0);
    CHECK(c.prev[3] == 1);
    CHECK(symmetry_phrase(s, Symmetry::on) == "and up to a permutation of the identical threads P0, P2; P1, P3");
    CHECK_FALSE(thread_classes(s, Symmetry::off).any());
    CHECK(symmetry_phrase(s, Symmetry::off).empty());
    // toy-dpor writes WRITE_ONCE(y, t + 1): its threads are not alike, and it does not say they are.
    Scenario d = toy_dpor({{"write_own"}, {"write_own"}}, "{\"strategy\":\"dpor\"}");
    CHECK(interchangeable_threads(d) == std::vector<int>{0, 1});
    CHECK_FALSE(thread_classes(d, Symmetry::on).any());
    // The dcache world's three openers.
    Scenario w = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/dcache/three-shared-d-splice-alias.json");
    CHECK(interchangeable_threads(w) == std::vector<int>{0, 0, 0});
    // Threads named by `order` constraints are not folded.
    Scenario r = load_scenario(std::string(VFSMC_SOURCE_DIR) + "/scenarios/dcache/three-shared-d-rehash.json");
    for (int t = 0; t < (int)r.threads.size(); t++)
        if (thread_classes(r, Symmetry::on).prev[t] >= 0)
            for (const auto& o : r.order) CHECK((o.before_t != t && o.after_t != t));
}

TEST_CASE("the identical-threads rule runs one execution per trace it keeps, no fewer than the orbits of identical threads (brute force)", "[dpor][symmetry]") {
    struct Case {
        const char* op;
        int n;
    };
    for (const Case& c : std::vector<Case>{{"write_y", 2}, {"write_y", 3}, {"inc_y", 2}, {"inc_y", 3},
                                           {"read_z_write_y", 2}, {"read_z_write_y", 3}, {"own_then_y", 2},
                                           {"own_then_y", 3}, {"ticket", 2}, {"ticket", 3}}) {
        Threads th(c.n, std::vector<std::string>{c.op});
        SymCounts want = symmetric_traces({c.op}, c.n);
        Scenario s = toy_sym(th);
        RunResult off = run_sym(s, Symmetry::off);
        RunResult on = run_sym(s, Symmetry::on);
        INFO(c.op << " x " << c.n << ": brute force " << want.plain << " traces, " << want.kept << " kept, " << want.orbits
                  << " orbits; dpor " << complete_executions(off) << " without the rule, " << complete_executions(on)
                  << " with it; " << on.completeness);
        bool ticket = std::string(c.op) == "ticket";
        CHECK(off.verdict == (ticket ? Verdict::violated : Verdict::holds));
        CHECK(on.verdict == off.verdict);
        if (ticket) continue;  // the search stops at the violation
        CHECK(complete_executions(off) == want.plain);
        CHECK(complete_executions(on) == want.kept);
        CHECK(want.kept >= want.orbits);
        CHECK(on.outcomes == off.outcomes);
        CHECK(on.completeness.find("up to a permutation of the identical threads P0, P1") != std::string::npos);
    }
    // One write each: the first writes conflict, and one order is kept of n!.
    CHECK(symmetric_traces({"write_y"}, 3).plain == 6);
    CHECK(symmetric_traces({"write_y"}, 3).kept == 1);
    // Reads before the first write interleave freely; the writes keep one order.
    CHECK(symmetric_traces({"read_z_write_y"}, 3).kept == 1);
    // A first write to a location of the thread's own: the first writes are
    // independent, so the n! orders of the writes to y stay (the rule's
    // limit: the threads are alike again after their first writes).
    CHECK(symmetric_traces({"own_then_y"}, 3).kept == 6);
    CHECK(symmetric_traces({"own_then_y"}, 3).orbits == 1);
}

TEST_CASE("the identical-threads rule finds a violation only some orders of identical threads reach, and its token replays without the rule", "[dpor][symmetry]") {
    // ticket: the thread that took the first start ticket must not take the
    // last end ticket. Under the rule P0 always takes the first start
    // ticket: the violation is found where P0 ends last.
    for (const char* mm : {"sc", "kernel"})
        for (int n : {2, 3}) {
            Scenario s = toy_sym(Threads(n, std::vector<std::string>{"ticket"}), mm,
                                 "{\"verdict\":\"violated\",\"invariant\":\"toy-first-ends-last\"}");
            RunResult on = run_sym(s, Symmetry::on);
            INFO(mm << ", " << n << " threads: " << on.verdict << " " << on.invariant << " after " << on.executions);
            REQUIRE(on.verdict == Verdict::violated);
            CHECK(on.invariant == "toy-first-ends-last");
            RunResult again = replay_scenario(s, on.token);
            CHECK(again.verdict == Verdict::violated);
            CHECK(again.invariant == on.invariant);
            CHECK(again.steps == on.steps);
        }
}

TEST_CASE("the identical-threads rule's mutation, threads with other ops folded, loses a violation", "[dpor][symmetry]") {
    // Symmetry::mutant (search/symmetry.h), test-only: every thread of one
    // class. P0's tickets are never checked, P1's are: the violation needs
    // P1 to take the first start ticket, which the mutant never lets it.
    Scenario s = toy_sym({{"ticket_plain"}, {"ticket"}}, "sc", "{\"verdict\":\"violated\",\"invariant\":\"toy-first-ends-last\"}");
    CHECK_FALSE(thread_classes(s, Symmetry::on).any());
    RunResult on = run_sym(s, Symmetry::on);
    RunResult mutant = run_sym(s, Symmetry::mutant);
    INFO("with the rule " << on.verdict << " after " << on.executions << ", the mutant " << mutant.verdict << " after "
                          << mutant.executions);
    CHECK(on.verdict == Verdict::violated);
    CHECK(mutant.verdict == Verdict::holds);
}

namespace {
// A scenario under dpor with the identical-threads rule and without: the
// same verdict and, for holds, the same final states (the models' final
// states name no thread, so renaming leaves them as they are).
void symmetry_same_as_off(const std::string& f, long max_executions, int* compared, uint64_t* saved) {
    Scenario s = load_scenario(f);
    if (!thread_classes(s, Symmetry::on).any()) return;
    RunResult off = run_sym(s, Symmetry::off, max_executions);
    if (off.verdict == Verdict::inconclusive) return;
    RunResult on = run_sym(s, Symmetry::on, max_executions);
    same_verdict_as_without(f, off, on, true, saved);
    if (on.verdict == Verdict::violated) {
        RunResult again = replay_scenario(s, on.token);
        CHECK(again.verdict == Verdict::violated);
    }
    if (compared) (*compared)++;
}
}  // namespace

TEST_CASE("the identical-threads rule leaves the verdicts and final states of real scenarios as they are", "[dpor][symmetry]") {
    uint64_t saved = 0;
    for (const char* f : {"chrdev/concurrent-first-open-v2", "chrdev/concurrent-first-open-pre-seed",
                          "dcache/shared-d-add", "dcache/mainline-exclusive-two-creates"}) {
        int compared = 0;
        symmetry_same_as_off(std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + f + ".json", 2000000, &compared, &saved);
        CHECK(compared == 1);
    }
    CHECK(saved > 0);
}

// scripts/test --long: every scenario with identical threads whose dpor
// search without the rule finishes within 2,000,000 executions, violated
// ones included (as dpor searches), gives the same verdict and final
// states with it.
TEST_CASE("the identical-threads rule leaves every scenario dpor can finish without it as it is", "[.long][symmetry]") {
    int compared = 0;
    for (const auto& f : scenario_files()) symmetry_same_as_off(f, 2000000, &compared, nullptr);
    CHECK(compared > 15);
}
