// vfsmc litmus: the interpreter. A litmus test is a Model registered at run
// time; each simulated thread walks its P body and performs every access
// with the kernel-vocabulary layer's own primitives (READ_ONCE,
// smp_store_release, spin_lock, rcu_read_lock, srcu_read_lock ...), so what
// `vfsmc litmus` measures is the layer every protocol model runs on, under
// `kernel`.
//
// Locations are objects with one word; a location's address, as a value,
// is location_value(index) (ast.h), and a pointer 0 is NULL as in herd7.
// Registers are thread-local plain values. Every location a thread passes
// to an srcu_* primitive is an SRCU domain of the layer, and every one it
// passes to spin_* a spinlock (the parser's kinds_by_use()).
//
// What is counted, as herd7 counts: candidate executions, not
// interleavings. Two interleavings are one execution when every read reads
// from the same write (rf) and every location's writes come in the same
// order (co); writes and reads are named by their thread and their place in
// it, and a lock's acquisitions and releases are its writes. Each finished
// execution's (rf, co) is hashed from the trace and counted once. Nothing
// is allocated inside the simulation: the tallies are fixed-size.
#include "litmus/litmus.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_set>

#include "litmus/states.h"
#include "scenario/scenario.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace litmus {

namespace {

// Whether a test makes a plain access (`*x`, `*x = e`), the only kind
// that can race: without one no execution has a data race.
bool expr_plain(const Expr* e) {
    if (!e) return false;
    if (e->kind == Expr::Deref) return true;
    for (const auto& a : e->args)
        if (expr_plain(a.get())) return true;
    return false;
}
bool stmt_plain(const Stmt* st) {
    if (!st) return false;
    if (st->kind == Stmt::Store || expr_plain(st->addr.get()) || expr_plain(st->value.get())) return true;
    for (const auto& b : st->body)
        if (stmt_plain(b.get())) return true;
    return false;
}
bool has_plain_access(const Test& t) {
    for (const auto& P : t.procs)
        for (const auto& st : P.body)
            if (stmt_plain(st.get())) return true;
    return false;
}



constexpr int kMaxVars = 32;
constexpr int kMaxRegs = 32;
constexpr size_t kSeenCap = size_t(1) << 20;   // distinct executions remembered

// The final states seen, across the executions of one search
// (StateTable), and the executions counted.
struct Tally : StateTable {
    // The (rf, co) hashes seen: open addressing, 0 is an empty slot.
    uint64_t seen[kSeenCap];
    size_t nseen = 0;
    bool seen_overflow = false;
    bool race = false;          // a data race (a plain access in it) in some execution
    bool misuse = false;        // a lock or read section misused in some execution
    bool truncated = false;     // an execution's trace was cut: its (rf, co) is partial
    // The first ill-formed execution: a dereference of a non-location, or
    // arithmetic without a 32-bit result (what a location holds).
    enum class Bad { None, Pointer, DivZero, Overflow, Shift, Closed, ClosedValue };
    bool bad = false;
    Bad bad_kind = Bad::None;
    int bad_proc = -1, bad_line = 0;
    long bad_value = 0, bad_rhs = 0;
    char bad_op[8] = {};
    int ord[kMaxEvents];        // scratch: each event's place in its thread
    void reset(int n) {
        StateTable::reset(n);
        bad = false;
        race = false;
        misuse = false;
        truncated = false;
        if (nseen) std::fill(seen, seen + kSeenCap, 0);
        nseen = 0;
        seen_overflow = false;
    }
    // Remember an execution; false when it was seen before.
    bool first_time(uint64_t h) {
        if (h == 0) h = 1;
        if (nseen * 4 >= kSeenCap * 3) {
            seen_overflow = true;
            return true;
        }
        size_t i = (size_t)(h * 0x9e3779b97f4a7c15ULL) & (kSeenCap - 1);
        while (seen[i]) {
            if (seen[i] == h) return false;
            i = (i + 1) & (kSeenCap - 1);
        }
        seen[i] = h;
        nseen++;
        return true;
    }
};
Tally g_tally;

uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

struct LitVar : kobj {
    kfield<int> w;
    LitVar(const char* name, int init) : kobj("location", "%s", name), w(this, "", init) {}
};
struct LitLock : kobj {
    spinlock_t l;
    explicit LitLock(const char* name) : kobj("spinlock", "%s", name), l(this, "") {}
};

// Witness mode: what the witness must show.
enum class Want { Nothing, Satisfies, Violates };

// By thread and location, the values a load's promise may name: those
// another thread's stores may write, encoded for kfield::promisable.
constexpr int kMaxDomain = (int)sim::kMaxDomain;
struct Promisable {
    uint64_t values[kMaxThreads][kMaxVars][kMaxDomain];
    uint32_t writers[kMaxThreads][kMaxVars][kMaxDomain];  // the threads that may write each
    unsigned n[kMaxThreads][kMaxVars] = {};
    bool any = false;
    // The statements whose load makes no promise: its thread's next
    // operation is a full barrier (Options::barrier_promise).
    std::unordered_set<const Stmt*> before_barrier;
    // Where each thread is done with a location (closings()): after its
    // top-level statement i, the locations in close_after[thread][i]; at
    // its start, those in close_first[thread]. Empty: the threads do not
    // say (Options::refused `off`).
    std::vector<std::vector<std::vector<int>>> close_after;
    std::vector<std::vector<int>> close_first;
    bool close_mutant = false;
    // Where each thread is done storing a value to a location, before it
    // is done with the location (value_closings()): (location, value)
    // pairs after its top-level statement i, and at its start.
    std::vector<std::vector<std::vector<std::pair<int, long>>>> vclose_after;
    std::vector<std::vector<std::pair<int, long>>> vclose_first;
};

// The locations an expression may access: `vars[i]` for each location
// whose address it names; `wild` when an address is computed (a pointer
// register, arithmetic), which may be any location. An address is a
// Deref's operand, a plain store's target and a call's first argument (an
// atomic_op's last), as LitmusRun::loc() takes them.
static void mentions(const Expr& e, std::vector<bool>& vars, bool& wild) {
    auto addr = [&](const Expr* a) {
        if (a && a->kind != Expr::VarAddr) wild = true;
    };
    if (e.kind == Expr::VarAddr && e.index >= 0 && e.index < (int)vars.size()) vars[e.index] = true;
    if (e.kind == Expr::Deref && !e.args.empty()) addr(e.args[0].get());
    if (e.kind == Expr::Call && !e.args.empty())
        addr((e.fn == Fn::AtomicOp || e.fn == Fn::AtomicOpReturn ? e.args.back() : e.args[0]).get());
    for (const auto& a : e.args)
        if (a) mentions(*a, vars, wild);
}
static void mentions(const Stmt& s, std::vector<bool>& vars, bool& wild) {
    if (s.addr) {
        if (s.addr->kind != Expr::VarAddr) wild = true;
        mentions(*s.addr, vars, wild);
    }
    if (s.value) mentions(*s.value, vars, wild);
    for (const auto& b : s.body)
        if (b) mentions(*b, vars, wild);
}
// Where each thread is done with each location: after the last top-level
// statement that names it (a statement with a computed address names them
// all), or at the start for one it never names. From there on the thread
// stores to it no more, and a promise of a value only such threads could
// write can never be kept (kfield::no_more_stores()). `first`: after the
// first statement instead, the unsound mutant of Options::close_stores.
static void closings(const Test& t, Promisable& dom, bool first) {
    size_t nv = t.vars.size();
    dom.close_after.assign(t.procs.size(), {});
    dom.close_first.assign(t.procs.size(), {});
    for (size_t p = 0; p < t.procs.size(); p++) {
        const auto& body = t.procs[p].body;
        std::vector<int> last(nv, -1);
        for (size_t i = 0; i < body.size(); i++) {
            std::vector<bool> vars(nv, false);
            bool wild = false;
            if (body[i]) mentions(*body[i], vars, wild);
            for (size_t v = 0; v < nv; v++)
                if ((vars[v] || wild) && !(first && last[v] >= 0)) last[v] = (int)i;
        }
        dom.close_after[p].assign(body.size(), {});
        for (size_t v = 0; v < nv; v++) {
            if (t.vars[v].type == VarType::Lock) continue;
            if (last[v] < 0) dom.close_first[p].push_back((int)v);
            else dom.close_after[p][last[v]].push_back((int)v);
        }
    }
}

// A store an expression or statement may make: to location `var` (-1:
// any, its address computed) of `value` (`known` false: any value, one
// computed or read, as an RMW's or a cmpxchg()'s, which may also store
// what it read).
struct MayStore {
    int var;
    bool known;
    long value;
};
static int address_var(const Expr* a) { return a && a->kind == Expr::VarAddr ? a->index : -1; }
static void may_store(const Expr* addr, const Expr* value, std::vector<MayStore>& out) {
    MayStore m{address_var(addr), false, 0};
    if (value && value->kind == Expr::Const) m = {m.var, true, value->value};
    if (value && value->kind == Expr::VarAddr) m = {m.var, true, location_value(value->index)};
    out.push_back(m);
}
static void may_store(const Expr& e, std::vector<MayStore>& out) {
    for (const auto& a : e.args)
        if (a) may_store(*a, out);
    if (e.kind != Expr::Call || e.args.empty()) return;
    const Expr* first = e.args[0].get();
    switch (e.fn) {
        case Fn::WriteOnce: case Fn::StoreRelease: case Fn::RcuAssignPointer: case Fn::StoreMb:
        case Fn::AtomicSet: case Fn::AtomicSetRelease: case Fn::Xchg:
            may_store(first, e.args.size() > 1 ? e.args[1].get() : nullptr, out);
            return;
        case Fn::AtomicOp: case Fn::AtomicOpReturn:
            may_store(e.args.back().get(), nullptr, out);
            return;
        case Fn::Cmpxchg: case Fn::AddUnless:
            may_store(first, nullptr, out);
            return;
        case Fn::ReadOnce: case Fn::LoadAcquire: case Fn::RcuDereference: case Fn::AtomicRead:
        case Fn::AtomicReadAcquire: case Fn::SpinIsLocked:
        case Fn::Mb: case Fn::Rmb: case Fn::Wmb: case Fn::MbBeforeAtomic: case Fn::MbAfterAtomic:
        case Fn::MbAfterSpinlock: case Fn::MbAfterUnlockLock: case Fn::RcuReadLock: case Fn::RcuReadUnlock:
        case Fn::SynchronizeRcu: case Fn::SrcuReadLock: case Fn::SrcuReadUnlock: case Fn::SynchronizeSrcu:
        case Fn::SrcuDownRead: case Fn::SrcuUpRead: case Fn::MbAfterSrcuReadUnlock: case Fn::Barrier:
            return;
        case Fn::SpinLock: case Fn::SpinUnlock: case Fn::SpinTrylock:
            return;  // a lock word, which makes no promise (closings())
    }
    may_store(first, nullptr, out);  // a primitive not named above: any value to its first argument
}
static void may_store(const Stmt& s, std::vector<MayStore>& out) {
    if (s.kind == Stmt::Store) may_store(s.addr.get(), s.value.get(), out);
    if (s.addr) may_store(*s.addr, out);
    if (s.value) may_store(*s.value, out);
    for (const auto& b : s.body)
        if (b) may_store(*b, out);
}
// Where each thread is done storing each value it may store to a location
// (`written`, as Options::written has it) before it is done with the
// location (closings(), which must have run): after the last top-level
// statement that may store it there (a store of a computed value, or to
// a computed address, may store any), or at the start for one none may.
// `first`: after the first such statement instead, the unsound mutant of
// Options::close_stores.
static void value_closings(const Test& t, Promisable& dom, const std::vector<std::vector<std::vector<long>>>& written,
                           bool first) {
    size_t nv = t.vars.size();
    dom.vclose_after.assign(t.procs.size(), {});
    dom.vclose_first.assign(t.procs.size(), {});
    for (size_t p = 0; p < t.procs.size() && p < written.size(); p++) {
        const auto& body = t.procs[p].body;
        std::vector<std::vector<MayStore>> stores(body.size());
        for (size_t i = 0; i < body.size(); i++)
            if (body[i]) may_store(*body[i], stores[i]);
        // The location's own closing: after statement `done`, or at the start (-1).
        std::vector<int> done(nv, -2);
        for (int v : dom.close_first[p]) done[v] = -1;
        for (size_t i = 0; i < body.size(); i++)
            for (int v : dom.close_after[p][i]) done[v] = (int)i;
        dom.vclose_after[p].assign(body.size(), {});
        for (size_t v = 0; v < nv && v < written[p].size(); v++) {
            if (done[v] < 0) continue;  // closed at the start, or never (a lock)
            for (long x : written[p][v]) {
                int last = -1;
                for (size_t i = 0; i < body.size(); i++) {
                    bool may = false;
                    for (const MayStore& m : stores[i])
                        may |= (m.var < 0 || m.var == (int)v) && (!m.known || m.value == x);
                    if (may && !(first && last >= 0)) last = (int)i;
                }
                if (last >= done[v]) continue;
                if (last < 0) dom.vclose_first[p].push_back({(int)v, x});
                else dom.vclose_after[p][last].push_back({(int)v, x});
            }
        }
    }
}

// An expression of constants, registers and addresses only.
static bool reads_no_memory(const Expr& e) {
    switch (e.kind) {
        case Expr::Const: case Expr::Reg: case Expr::VarAddr: return true;
        case Expr::Unary: case Expr::Binary:
            for (const auto& a : e.args) if (!a || !reads_no_memory(*a)) return false;
            return true;
        default: return false;
    }
}
// An expression that reads memory once, a load that may promise, and does
// nothing else: READ_ONCE(), rcu_dereference(), atomic_read() or a plain
// `*p` of an address that reads no memory.
static bool single_load(const Expr& e) {
    if (e.kind == Expr::Deref) return e.args.size() == 1 && reads_no_memory(*e.args[0]);
    if (e.kind != Expr::Call || (e.fn != Fn::ReadOnce && e.fn != Fn::RcuDereference && e.fn != Fn::AtomicRead)) return false;
    for (const auto& a : e.args) if (!a || !reads_no_memory(*a)) return false;
    return true;
}
// The assignments of a single load followed at once, in the same list of
// statements, by smp_mb(), synchronize_rcu() or synchronize_srcu() (with
// `rmb`, the mutant's smp_rmb() too).
static void loads_before_barrier(const std::vector<std::unique_ptr<Stmt>>& body, bool rmb, std::unordered_set<const Stmt*>& out) {
    for (size_t i = 0; i < body.size(); i++) {
        const Stmt& s = *body[i];
        if (s.kind == Stmt::Block) loads_before_barrier(s.body, rmb, out);
        if (s.kind == Stmt::If)
            for (const auto& b : s.body)
                if (b && b->kind == Stmt::Block) loads_before_barrier(b->body, rmb, out);
        // A declaration is a block of its assignments: its last one is the
        // statement before the next.
        const Stmt* last = &s;
        while (last->kind == Stmt::Block && !last->body.empty()) last = last->body.back().get();
        if (last->kind != Stmt::Assign || !last->value || !single_load(*last->value) || i + 1 == body.size()) continue;
        const Stmt& n = *body[i + 1];
        if (n.kind != Stmt::Eval || !n.value || n.value->kind != Expr::Call) continue;
        Fn f = n.value->fn;
        if (f == Fn::Mb || f == Fn::SynchronizeRcu || f == Fn::SynchronizeSrcu || (rmb && f == Fn::Rmb)) out.insert(last);
    }
}

class LitmusRun : public ModelRun {
public:
    // `gp_words`: grace periods keep their words even in a domain no
    // thread enters a section of (Options::gp_words); `gp_end_split`: their
    // end and full barrier are two steps (Options::gp_end_split).
    LitmusRun(const Test& t, Want want, const Promisable& dom, bool gp_words, bool gp_end_split)
        : t_(t), want_(want), dom_(dom), before_barrier_(dom.before_barrier), close_mutant_(dom.close_mutant) {
        if (gp_end_split) rcu_grace_period_end_split();
        if (t.cond && t.quant != Quant::Forall) note_wanted(*t.cond);
        nvars_ = (int)t.vars.size();
        register_object("null", "NULL");  // id 0: a pointer 0 is NULL
        for (int& v : objvar_) v = -1;
        int domains = 0;
        for (int i = 0; i < nvars_; i++) {
            const Var& v = t.vars[i];
            int init = v.init_addr.empty() ? (int)v.init : (int)location_value(t.var_index(v.init_addr));
            if (v.type == VarType::Srcu) {
                // An srcu_struct: an SRCU domain of the layer. Its location
                // stays, for the values herd7 gives it (srcu_read_lock's 0).
                domain_[i] = ++domains;
                init_srcu_struct(domains);
                if (!gp_words && !v.srcu_sections) rcu_domain_without_readers(domains);
            }
            if (v.type == VarType::Lock) {
                LitLock* l = kalloc<LitLock>(v.name.c_str());
                locks_[i] = l;
                ids_[i] = l->id;
            } else {
                LitVar* x = kalloc<LitVar>(v.name.c_str(), init);
                vars_[i] = x;
                ids_[i] = x->id;
            }
        }
        for (int i = 0; i < nvars_; i++)
            if (ids_[i] >= 0 && ids_[i] < kMaxObjects) objvar_[ids_[i]] = i;
        if (!gp_words && !t.rcu_sections) rcu_domain_without_readers(0);
        if (t.uses_special_barriers) use_special_barriers();
        plain_accesses_interleave();
        if (!has_plain_access(t)) accesses_all_marked();
        if (dom.any) {
            allow_load_buffering();
            for (int i = 0; i < nvars_; i++)
                for (int th = 0; th < (int)t.procs.size() && th < kMaxThreads; th++)
                    if (vars_[i] && dom.n[th][i]) vars_[i]->w.promisable(th, dom.values[th][i], dom.writers[th][i], dom.n[th][i]);
        }
        for (size_t p = 0; p < t.procs.size(); p++) {
            const Proc& P = t.procs[p];
            for (size_t r = 0; r < P.regs.size(); r++) {
                regs_[p][r] = P.regs[r].init_addr.empty() ? P.regs[r].init : location_value(t.var_index(P.regs[r].init_addr));
                srcu_section_[p][r] = 0;
            }
        }
    }

    void thread(int t) override {
        const auto& body = t_.procs[t].body;
        bool closing = (size_t)t < dom_.close_after.size();
        bool vclosing = (size_t)t < dom_.vclose_after.size();
        if (closing)
            for (int v : dom_.close_first[t]) close(t, v);
        if (vclosing)
            for (auto [v, x] : dom_.vclose_first[t]) close_value(t, v, x);
        for (size_t i = 0; i < body.size(); i++) {
            exec(*body[i], t);
            if (closing)
                for (int v : dom_.close_after[t][i]) close(t, v);
            if (vclosing)
                for (auto [v, x] : dom_.vclose_after[t][i]) close_value(t, v, x);
        }
    }
    // Thread t is done storing x to location v (value_closings()).
    void close_value(int t, int v, long x) {
        if (vars_[v] && x >= INT32_MIN && x <= INT32_MAX) vars_[v]->w.no_more_stores_of((int)x);
    }
    // The value a store of thread t is about to write to `f` (an RMW's:
    // has written): value_closings() takes every store a statement may
    // make, so its thread never closed it (the mutant of
    // Options::close_stores aside).
    int storing(kfield<int>& f, int v, int t, int line) {
        if (!close_mutant_ && f.stores_closed(v))
            for (int i = 0; i < nvars_; i++)
                if (vars_[i] && &vars_[i]->w == &f) bad_execution(Tally::Bad::ClosedValue, t, line, i, v);
        return v;
    }
    // Thread t is done with location v (closings()).
    void close(int t, int v) {
        if (!vars_[v]) return;
        closed_[t] |= 1ULL << v;
        vars_[v]->w.no_more_stores();
    }

    void check_final() override {
        int32_t key[kMaxObserved];
        for (size_t i = 0; i < t_.observed.size(); i++) key[i] = (int32_t)observed(t_.observed[i].proc, t_.observed[i].index);
        // A load returned a value no store wrote after it: not an
        // execution, and neither are its data races.
        if (!promises_kept()) return;
        // An execution the filter leaves out is none herd7 considers: its
        // data races and lock misuse are not flagged either.
        if (t_.filter && !holds(*t_.filter)) return;
        for (int i = 0; i < rt().nunjudged; i++) {
            if (std::strcmp(rt().unjudged[i], "data-race") == 0) g_tally.race = true;
            if (std::strcmp(rt().unjudged[i], "lock-misuse") == 0) g_tally.misuse = true;
        }
        bool sat = holds(*t_.cond);
        if (g_tally.first_time(execution_hash(key))) g_tally.add(key, sat);
        if ((want_ == Want::Satisfies && sat) || (want_ == Want::Violates && !sat)) {
            char st[200];
            state_text(st, sizeof st);
            violate(this_thread(), "litmus-condition", nullptr, 0, "the final state %s %s", st,
                    sat ? "satisfies the condition" : "does not satisfy the condition");
        }
    }

    void final_state(std::string& out) const override {
        for (int i = 0; i < nvars_; i++) {
            if (locks_[i]) {
                out += t_.vars[i].name + ": " + (locks_[i]->l.peek_locked() ? "locked" : "unlocked") + "\n";
                continue;
            }
            if (t_.vars[i].type == VarType::Srcu) continue;
            out += t_.vars[i].name + ": " + value_text(vars_[i]->w.peek(), t_.vars[i].type == VarType::Pointer) + "\n";
        }
        for (size_t p = 0; p < t_.procs.size(); p++) {
            const Proc& P = t_.procs[p];
            if (P.regs.empty()) continue;
            out += "P" + std::to_string(p) + ":";
            for (size_t r = 0; r < P.regs.size(); r++)
                out += " " + P.regs[r].name + "=" + value_text(regs_[p][r], P.regs[r].pointer);
            out += "\n";
        }
    }

private:
    const Test& t_;
    Want want_;
    const Promisable& dom_;
    const std::unordered_set<const Stmt*>& before_barrier_;
    uint64_t closed_[kMaxThreads] = {};  // by thread, the locations it closed (close())
    bool close_mutant_;
    int nvars_ = 0;
    LitVar* vars_[kMaxVars] = {};
    LitLock* locks_[kMaxVars] = {};
    int ids_[kMaxVars] = {};
    int domain_[kMaxVars] = {};     // an srcu_struct's SRCU domain (1..kMaxSrcu)
    int objvar_[kMaxObjects];       // object id -> variable index, -1 for none
    long regs_[kMaxThreads][kMaxRegs] = {};
    // The value an `exists` or `~exists` condition asks of each register,
    // where a conjunction of `P:r=v` asks one: the load into it tells the
    // layer it wants that value, which a sampling search favours
    // (next_load_wants()). The rare outcome is the one the condition
    // names; a forall's is the one it does not, and it gets no preference.
    bool wanted_[kMaxThreads][kMaxRegs] = {};
    long want_value_[kMaxThreads][kMaxRegs] = {};
    void note_wanted(const Prop& p) {
        if (p.kind == Prop::And) {
            for (const auto& k : p.kids) note_wanted(*k);
        } else if (p.kind == Prop::Eq && p.proc >= 0 && p.proc < kMaxThreads && p.index >= 0 && p.index < kMaxRegs &&
                   !p.negate && p.rindex < 0) {
            wanted_[p.proc][p.index] = true;
            want_value_[p.proc][p.index] = p.value_addr >= 0 ? location_value(p.value_addr) : p.value;
        }
    }
    // Dependencies, as herd7 computes them (lkmm/threads.cpp): the loads
    // (bit k: the thread's load number k, kernel/kfield.h) each register's
    // value was computed from, and those the branches being executed were
    // taken on. An access is told the loads its address (and, for a store,
    // its value and the branches around it) came from.
    uint64_t regs_dep_[kMaxThreads][kMaxRegs] = {};
    // The SRCU section an srcu_read_lock() assigned to the register began
    // (0: none), so that srcu_read_unlock(s, reg) ends that one.
    int srcu_section_[kMaxThreads][kMaxRegs] = {};
    int last_section_[kMaxThreads] = {};
    // Each location's writes in coherence order (execution_hash).
    static constexpr int kMaxCo = 64;
    mutable int coev_[kMaxVars][kMaxCo];
    mutable uint64_t coid_[kMaxVars][kMaxCo];
    mutable int conum_[kMaxVars] = {};
    uint64_t ctrl_[kMaxThreads] = {};

    // The execution's (rf, co), hashed from its trace: each access of a
    // location is named by (thread, place among the thread's accesses);
    // rf pairs each read with the write it read (0: the initial value), co
    // is each location's writes in order. The final state is hashed in too.
    uint64_t execution_hash(const int32_t* key) const {
        const ExecRecord* rec = rt().rec;
        if (rec->truncated) g_tally.truncated = true;
        int n = std::min(rec->nevents, kMaxEvents);
        int cnt[kMaxThreads] = {};
        uint64_t co[kMaxVars] = {};
        for (int v = 0; v < nvars_; v++) conum_[v] = 0;
        uint64_t h = 0;
        auto access_of = [&](const Event& e, bool& read, bool& write) {
            read = write = false;
            if (e.obj < 0 || e.obj >= kMaxObjects || objvar_[e.obj] < 0) return false;
            read = e.kind == Ev::Read || e.kind == Ev::Rmw;
            write = e.kind == Ev::Write || e.kind == Ev::Rmw || e.kind == Ev::Lock || e.kind == Ev::Unlock;
            // A spin_lock that found the lock held and tried again is no
            // event of herd7's (only the acquisition is); how often it
            // tried depends on the interleaving alone.
            if (e.kind == Ev::Read && e.action && std::strcmp(e.action, "spin_lock") == 0) return false;
            return read || write;
        };
        // Each access's place among its thread's, first: a load may read a
        // store that ran after it (load buffering).
        for (int i = 0; i < n; i++) {
            bool read, write;
            g_tally.ord[i] = access_of(rec->events[i], read, write) ? cnt[rec->events[i].thread]++ : -1;
        }
        for (int i = 0; i < n; i++) {
            const Event& e = rec->events[i];
            bool read, write;
            if (g_tally.ord[i] < 0 || !access_of(e, read, write)) continue;
            uint64_t id = ((uint64_t)e.thread << 32 | (uint64_t)g_tally.ord[i]) + 1;
            if (read) {
                uint64_t from = 0;
                if (e.rf >= 0 && e.rf < n && g_tally.ord[e.rf] >= 0)
                    from = ((uint64_t)rec->events[e.rf].thread << 32 | (uint64_t)g_tally.ord[e.rf]) + 1;
                h += mix64(id * 0x100000001b3ULL ^ mix64(from + 0x5bd1e995));
            }
            if (write) {
                // co: each write goes last, or just before the write it was
                // placed before (free coherence order, and an unconditional
                // RMW that read an older store, sim.h).
                int v = objvar_[e.obj];
                int at = conum_[v];
                if ((e.kind == Ev::Write || e.kind == Ev::Rmw) && e.stale && e.latest >= 0)
                    for (int k = 0; k < conum_[v]; k++)
                        if (coev_[v][k] == e.latest) at = k;
                if (conum_[v] < kMaxCo) {
                    for (int k = conum_[v]; k > at; k--) {
                        coev_[v][k] = coev_[v][k - 1];
                        coid_[v][k] = coid_[v][k - 1];
                    }
                    coev_[v][at] = i;
                    coid_[v][at] = id;
                    conum_[v]++;
                } else {
                    g_tally.truncated = true;
                }
            }
        }
        for (int v = 0; v < nvars_; v++)
            for (int k = 0; k < conum_[v]; k++) co[v] = mix64(co[v] * 31 + coid_[v][k]);
        for (int v = 0; v < nvars_; v++) h += mix64(co[v] ^ ((uint64_t)v << 48));
        for (size_t i = 0; i < t_.observed.size(); i++) h = mix64(h ^ (uint32_t)key[i]) + i;
        return h;
    }

    // A value for the witness's final state, which a reader reads: a null
    // pointer is NULL there (herd7's States lines print it 0).
    std::string value_text(long v, bool pointer) const {
        if (pointer && v == 0) return "NULL";
        const char* name = value_name(t_, v);
        return name ? name : std::to_string(v);
    }
    // The observed values, into a fixed buffer: this runs inside the
    // simulation, where nothing may be allocated.
    void state_text(char* buf, size_t n) const {
        size_t k = 0;
        buf[0] = 0;
        for (const auto& o : t_.observed) {
            if (k >= n) break;
            long v = observed(o.proc, o.index);
            const char* vn = value_name(t_, v);
            char num[24];
            std::snprintf(num, sizeof num, "%ld", v);
            if (o.proc >= 0)
                k += std::snprintf(buf + k, n - k, "%s%d:%s=%s;", k ? " " : "", o.proc,
                                   t_.procs[o.proc].regs[o.index].name.c_str(), vn ? vn : num);
            else
                k += std::snprintf(buf + k, n - k, "%s%s=%s;", k ? " " : "", t_.vars[o.index].name.c_str(), vn ? vn : num);
        }
    }
    long observed(int proc, int index) const {
        if (proc >= 0) return regs_[proc][index];
        if (locks_[index]) return locks_[index]->l.peek_locked();
        return vars_[index]->w.peek();
    }
    bool holds(const Prop& p) const {
        switch (p.kind) {
            case Prop::True: return true;
            case Prop::False: return false;
            case Prop::Not: return !holds(*p.kids[0]);
            case Prop::And: return holds(*p.kids[0]) && holds(*p.kids[1]);
            case Prop::Or: return holds(*p.kids[0]) || holds(*p.kids[1]);
            case Prop::Eq: {
                long want = p.rindex >= 0 ? observed(p.rproc, p.rindex) : p.value_addr >= 0 ? location_value(p.value_addr) : p.value;
                return (observed(p.proc, p.index) == want) != p.negate;
            }
        }
        return false;
    }

    [[noreturn]] void bad_execution(Tally::Bad kind, int t, int line, long v, long rhs = 0, const char* op = "") {
        if (!g_tally.bad) {
            g_tally.bad = true;
            g_tally.bad_kind = kind;
            g_tally.bad_proc = t;
            g_tally.bad_line = line;
            g_tally.bad_value = v;
            g_tally.bad_rhs = rhs;
            std::snprintf(g_tally.bad_op, sizeof g_tally.bad_op, "%s", op);
        }
        prune_execution();
    }
    [[noreturn]] void bad_pointer(int t, int line, long v) { bad_execution(Tally::Bad::Pointer, t, line, v); }
    // A result that must fit a location's 32 bits (operands always do, so
    // every result below fits a long without overflow).
    long in_range(long v, int t, const Expr& e, long a, long b) {
        if (v < INT32_MIN || v > INT32_MAX) bad_execution(Tally::Bad::Overflow, t, e.line, a, b, e.op.c_str());
        return v;
    }
    kfield<int>& loc(long addr, int t, int line) {
        int i = location_index(addr, nvars_);
        if (i < 0 || !vars_[i] || t_.vars[i].type == VarType::Srcu) bad_pointer(t, line, addr);
        // closings() takes every address an access resolves here from, so
        // this is never so (the mutant of Options::close_stores aside).
        if ((closed_[t] >> i & 1) && !close_mutant_) bad_execution(Tally::Bad::Closed, t, line, i);
        return vars_[i]->w;
    }
    spinlock_t& lock(const Expr& e) { return locks_[e.index]->l; }

    // The loads numbered [from, loads_done()) as bits.
    static uint64_t loads_since(unsigned from) {
        uint64_t m = 0;
        for (unsigned k = from, n = loads_done(); k < n && k < 64; k++) m |= 1ULL << k;
        return m;
    }
    // One access of the layer, told what it depends on; `d` collects the
    // loads it made (what its result is computed from).
    template <class Op>
    // `addr`: of `deps`, the address's (a load's deps are its address's).
    long access(uint64_t deps, uint64_t& d, Op op, uint64_t ctrl = 0, uint64_t addr = ~0ULL) {
        access_depends_on(deps, ctrl, addr & deps);
        unsigned n0 = loads_done();
        long v = op();
        d |= loads_since(n0);
        return v;
    }

    void exec(const Stmt& s, int t) {
        switch (s.kind) {
            case Stmt::Assign: {
                uint64_t d = 0;
                bool no_promise = before_barrier_.count(&s) > 0;
                if (no_promise) next_load_before_full_barrier(true);
                bool wants = wanted_[t][s.reg] && s.value->kind == Expr::Call;
                if (wants) next_load_wants(true, want_value_[t][s.reg]);
                regs_[t][s.reg] = eval(*s.value, t, d);
                if (wants) next_load_wants(false, 0);
                if (no_promise) next_load_before_full_barrier(false);
                regs_dep_[t][s.reg] = d;
                bool lock = s.value->kind == Expr::Call && s.value->fn == Fn::SrcuReadLock;
                srcu_section_[t][s.reg] = lock ? last_section_[t] : 0;
                break;
            }
            case Stmt::Store: {
                uint64_t da = 0, d = 0;
                kfield<int>& f = loc(eval(*s.addr, t, da), t, s.line);
                int v = storing(f, (int)eval(*s.value, t, d), t, s.line);
                uint64_t none = 0;
                access(da | d, none, [&] { plain_store(f, v); return 0L; }, ctrl_[t], da);
                break;
            }
            case Stmt::Eval: eval(*s.value, t); break;
            case Stmt::If: {
                uint64_t d = 0;
                long c = eval(*s.value, t, d);
                uint64_t saved = ctrl_[t];
                ctrl_[t] |= d;
                if (c) exec(*s.body[0], t);
                else if (s.body[1]) exec(*s.body[1], t);
                ctrl_[t] = saved;
                break;
            }
            case Stmt::Block:
                for (const auto& b : s.body) exec(*b, t);
                break;
        }
    }

    static Acc rmw_acc(RmwOrder o) {
        switch (o) {
            case RmwOrder::Full: return Acc::AtomicRmwFull;
            case RmwOrder::Relaxed: return Acc::AtomicRmwRelaxed;
            case RmwOrder::Acquire: return Acc::AtomicRmwAcquire;
            case RmwOrder::Release: return Acc::AtomicRmwRelease;
        }
        return Acc::AtomicRmwFull;
    }

    long eval(const Expr& e, int t) {
        uint64_t d = 0;
        return eval(e, t, d);
    }
    // The value of `e`; `d` collects the loads it was computed from.
    long eval(const Expr& e, int t, uint64_t& d) {
        switch (e.kind) {
            case Expr::Const: return e.value;
            case Expr::Reg: d |= regs_dep_[t][e.index]; return regs_[t][e.index];
            case Expr::VarAddr: return location_value(e.index);
            case Expr::Deref: {
                uint64_t ad = 0;
                kfield<int>& f = loc(eval(*e.args[0], t, ad), t, e.line);
                return access(ad, d, [&] { return (long)plain_load(f); });
            }
            case Expr::Unary: {
                long v = eval(*e.args[0], t, d);
                if (e.op == "-") return in_range(-v, t, e, 0, v);
                return e.op == "!" ? !v : ~v;
            }
            case Expr::Binary: {
                const std::string& op = e.op;
                long a = eval(*e.args[0], t, d);
                if (op == "&&") return a && eval(*e.args[1], t, d);
                if (op == "||") return a || eval(*e.args[1], t, d);
                long b = eval(*e.args[1], t, d);
                if (op == "+") return in_range(a + b, t, e, a, b);
                if (op == "-") return in_range(a - b, t, e, a, b);
                if (op == "*") return in_range(a * b, t, e, a, b);
                if (op == "/" || op == "%") {
                    if (b == 0) bad_execution(Tally::Bad::DivZero, t, e.line, a, b, op.c_str());
                    return in_range(op == "/" ? a / b : a % b, t, e, a, b);
                }
                if (op == "&") return a & b;
                if (op == "|") return a | b;
                if (op == "^") return a ^ b;
                if (op == "<<" || op == ">>") {
                    if (b < 0 || b > 31) bad_execution(Tally::Bad::Shift, t, e.line, a, b, op.c_str());
                    return op == "<<" ? in_range(a * (1L << b), t, e, a, b) : a >> b;
                }
                if (op == "==") return a == b;
                if (op == "!=") return a != b;
                if (op == "<") return a < b;
                if (op == "<=") return a <= b;
                if (op == ">") return a > b;
                if (op == ">=") return a >= b;
                return 0;
            }
            case Expr::Call: return call(e, t, d);
        }
        return 0;
    }

    // A call; `d` collects the loads its result was computed from: those
    // the primitive made itself (herd7: a read's value comes from that
    // read alone; the loads of its arguments give its dependencies).
    long call(const Expr& e, int t, uint64_t& d) {
        uint64_t ad = 0;  // what the arguments were computed from
        auto arg = [&](int i) { return eval(*e.args[i], t, ad); };
        auto at = [&](int i) -> kfield<int>& { return loc(arg(i), t, e.line); };
        // A load depends on its address; a store (and an RMW) on its
        // address, its value and the branches it is in.
        auto load = [&](kfield<int>& f, auto op) { return access(ad, d, [&] { return (long)op(f); }); };
        auto update = [&](auto op) { return access(ad, d, op, ctrl_[t]); };
        switch (e.fn) {
            case Fn::ReadOnce: return load(at(0), [](kfield<int>& f) { return READ_ONCE(f); });
            case Fn::WriteOnce: { kfield<int>& f = at(0); int v = storing(f, (int)arg(1), t, e.line); return update([&] { WRITE_ONCE(f, v); return 0L; }); }
            case Fn::LoadAcquire: return load(at(0), [](kfield<int>& f) { return smp_load_acquire(f); });
            case Fn::StoreRelease: { kfield<int>& f = at(0); int v = storing(f, (int)arg(1), t, e.line); return update([&] { smp_store_release(f, v); return 0L; }); }
            case Fn::Mb: smp_mb(); return 0;
            case Fn::Rmb: smp_rmb(); return 0;
            case Fn::Wmb: smp_wmb(); return 0;
            case Fn::MbBeforeAtomic: smp_mb__before_atomic(); return 0;
            case Fn::MbAfterAtomic: smp_mb__after_atomic(); return 0;
            case Fn::MbAfterSpinlock: smp_mb__after_spinlock(); return 0;
            case Fn::MbAfterUnlockLock: smp_mb__after_unlock_lock(); return 0;
            case Fn::SpinLock: return update([&] { spin_lock(lock(*e.args[0])); return 0L; });
            case Fn::SpinUnlock: return update([&] { spin_unlock(lock(*e.args[0])); return 0L; });
            case Fn::SpinTrylock: return update([&] { return (long)spin_trylock(lock(*e.args[0])); });
            case Fn::SpinIsLocked: return spin_is_locked(lock(*e.args[0]));
            case Fn::RcuReadLock: rcu_read_lock(); return 0;
            case Fn::RcuReadUnlock: rcu_read_unlock(); return 0;
            case Fn::SynchronizeRcu: synchronize_rcu(); return 0;
            case Fn::RcuDereference: return load(at(0), [](kfield<int>& f) { return rcu_dereference(f); });
            case Fn::RcuAssignPointer: { kfield<int>& f = at(0); int v = storing(f, (int)arg(1), t, e.line); return update([&] { rcu_assign_pointer(f, v); return 0L; }); }
            // SRCU: each srcu_struct a domain of the layer. The index
            // srcu_read_lock returns is 0, as in herd7 (a load of the
            // srcu_struct, which only srcu_read_unlock stores); the index
            // given to srcu_read_unlock is evaluated (its reads happen) and
            // the section it ends is the one whose srcu_read_lock() was
            // assigned to that register, else the thread's latest open one
            // of that domain (srcu_up_read: an srcu_down_read one, of any
            // thread).
            case Fn::SrcuReadLock: last_section_[t] = srcu_read_lock(domain_[e.args[0]->index]); return 0;
            case Fn::SrcuReadUnlock: {
                // The LKMM matches the two by the index's data dependency.
                const Expr& idx = *e.args[1];
                int section = idx.kind == Expr::Reg ? srcu_section_[t][idx.index] : 0;
                arg(1);
                srcu_read_unlock(domain_[e.args[0]->index], section);
                return 0;
            }
            case Fn::SrcuDownRead: srcu_down_read(domain_[e.args[0]->index]); return 0;
            case Fn::SrcuUpRead: arg(1); srcu_up_read(domain_[e.args[0]->index]); return 0;
            case Fn::SynchronizeSrcu: synchronize_srcu(domain_[e.args[0]->index]); return 0;
            case Fn::MbAfterSrcuReadUnlock: smp_mb__after_srcu_read_unlock(); return 0;
            case Fn::Barrier: barrier(); return 0;
            case Fn::StoreMb: { kfield<int>& f = at(0); int v = storing(f, (int)arg(1), t, e.line); return update([&] { smp_store_mb(f, v); return 0L; }); }
            case Fn::AtomicRead: return load(at(0), [](kfield<int>& f) { return f.load(Acc::AtomicRead); });
            case Fn::AtomicSet: { kfield<int>& f = at(0); int v = storing(f, (int)arg(1), t, e.line); return update([&] { f.store(v, Acc::AtomicSet); return 0L; }); }
            case Fn::AtomicReadAcquire: return load(at(0), [](kfield<int>& f) { return f.load(Acc::LoadAcquire); });
            case Fn::AtomicSetRelease: { kfield<int>& f = at(0); int v = storing(f, (int)arg(1), t, e.line); return update([&] { f.store(v, Acc::StoreRelease); return 0L; }); }
            case Fn::AtomicOp: case Fn::AtomicOpReturn: {
                long i = e.has_imm ? e.imm : arg(0);
                kfield<int>& f = at((int)e.args.size() - 1);
                ArithOp op = e.arith;
                long d = i;
                // Add and Sub must leave a 32-bit result (what a location
                // holds); the bitwise operations always do.
                auto apply = [op, d](int v) -> long {
                    switch (op) {
                        case ArithOp::Add: return (long)v + d;
                        case ArithOp::Sub: return (long)v - d;
                        case ArithOp::And: return v & (int)d;
                        case ArithOp::Or: return v | (int)d;
                        case ArithOp::Xor: return v ^ (int)d;
                        case ArithOp::AndNot: return v & ~(int)d;
                    }
                    return v;
                };
                bool overflow = false;
                Acc a = e.fn == Fn::AtomicOp ? Acc::AtomicRmwVoid : rmw_acc(e.order);
                int old = (int)update([&] {
                    return (long)f.rmw(a, e.name.c_str(), [&apply, &overflow](int& v) {
                        long nv = apply(v);
                        if (nv < INT32_MIN || nv > INT32_MAX) {
                            overflow = true;
                            return false;
                        }
                        v = (int)nv;
                        return true;
                    }, nullptr, LockClass::None, false, true);  // unconditional (an overflow ends the execution as bad)
                });
                if (overflow) bad_execution(Tally::Bad::Overflow, t, e.line, old, d, op == ArithOp::Sub ? "-" : "+");
                long nv = storing(f, (int)apply(old), t, e.line);  // checked once it has stored
                if (e.ret == RetKind::Old) return old;
                if (e.ret == RetKind::IsZero) return nv == 0;
                if (e.ret == RetKind::IsNegative) return nv < 0;
                return nv;
            }
            case Fn::AddUnless: {
                // Fully ordered when it adds; a failed one is a plain
                // atomic read, as a failed cmpxchg is.
                kfield<int>& f = at(0);
                int a = (int)arg(1), u = (int)arg(2);
                bool added = false;
                int old = (int)update([&] {
                    return (long)f.rmw(Acc::AtomicRmwFull, e.name.c_str(), [a, u](int& v) { if (v == u) return false; v += a; return true; }, &added);
                });
                if (added) storing(f, (int)((long)old + a), t, e.line);  // checked once it has stored
                return added;
            }
            case Fn::Xchg: {
                kfield<int>& f = at(0);
                int nv = storing(f, (int)arg(1), t, e.line);
                return update([&] {
                    return (long)f.rmw(rmw_acc(e.order), e.name.c_str(), [nv](int& v) { v = nv; return true; }, nullptr, LockClass::None,
                                       false, true);
                });
            }
            case Fn::Cmpxchg: {
                kfield<int>& f = at(0);
                int ov = (int)arg(1), nv = (int)arg(2);
                long old = update([&] {
                    return (long)f.rmw(rmw_acc(e.order), e.name.c_str(), [ov, nv](int& v) { if (v != ov) return false; v = nv; return true; });
                });
                if (old == ov) storing(f, nv, t, e.line);  // checked once it has stored
                return old;
            }
        }
        return 0;
    }
};

class LitmusModel : public Model {
public:
    // Options::written: by thread and variable, the values its stores may
    // write; a thread's promises name those of the others.
    LitmusModel(const Test& t, Want w, const Options& o) : t_(t), want_(w), gp_words_(o.gp_words), gp_end_split_(o.gp_end_split) {
        const auto& written = o.written;
        for (size_t th = 0; th < written.size() && th < (size_t)kMaxThreads; th++)
            for (size_t other = 0; other < written.size(); other++) {
                if (other == th) continue;
                for (size_t v = 0; v < written[other].size() && v < (size_t)kMaxVars; v++)
                    for (long x : written[other][v]) {
                        unsigned& n = dom_->n[th][v];
                        uint64_t* vals = dom_->values[th][v];
                        if (x < INT32_MIN || x > INT32_MAX) continue;
                        uint64_t e = kfield<int>::promise_value((int)x);
                        uint64_t* at = std::find(vals, vals + n, e);
                        if (at == vals + n) {
                            if (n == (unsigned)kMaxDomain) continue;
                            vals[n] = e;
                            dom_->writers[th][v][n++] = 0;
                        }
                        dom_->writers[th][v][at - vals] |= 1u << other;
                        dom_->any = true;
                    }
            }
        // The rule rests on what the barrier does: under a layer mutation
        // (smp-mb-no-op, ...) it may do less, and the loads promise as
        // they would without the rule.
        using Close = Options::CloseStores;
        if (dom_->any && o.close_stores != Close::off) {
            closings(t, *dom_, o.close_stores == Close::mutant);
            if (o.close_stores != Close::locations) value_closings(t, *dom_, o.written, o.close_stores == Close::value_mutant);
            // The mutants close too early, and the guards would catch them.
            dom_->close_mutant = o.close_stores == Close::mutant || o.close_stores == Close::value_mutant;
        }
        if (o.barrier_promise != Options::BarrierPromise::off && o.mutation.empty())
            for (const Proc& p : t.procs) loads_before_barrier(p.body, o.barrier_promise == Options::BarrierPromise::mutant, dom_->before_barrier);
        spec_.name = "litmus";
        spec_.doc = "a herd7 C litmus test, interpreted on the kernel-vocabulary layer";
        spec_.follows = "tools/memory-model (the LKMM's litmus format)";
        spec_.invariants = {"litmus-condition"};
        spec_.min_threads = 1;
        spec_.max_threads = kMaxThreads;
    }
    const ModelSpec& spec() const override { return spec_; }
    void prepare(const Scenario&) override {}
    ModelRun* start() override { return make_run<LitmusRun>(t_, want_, *dom_, gp_words_, gp_end_split_); }

private:
    const Test& t_;
    Want want_;
    bool gp_words_;
    bool gp_end_split_;
    std::unique_ptr<Promisable> dom_ = std::make_unique<Promisable>();
    ModelSpec spec_;
};

void check_limits(const Test& t) {
    if ((int)t.vars.size() > kMaxVars)
        throw LoadError(t.file + ":" + std::to_string(t.vars[kMaxVars].line) + ": unsupported construct `more than " +
                        std::to_string(kMaxVars) + " locations`; accepted: at most " + std::to_string(kMaxVars));
    for (const auto& P : t.procs)
        if ((int)P.regs.size() > kMaxRegs)
            throw LoadError(t.file + ":" + std::to_string(P.line) + ": unsupported construct `more than " +
                            std::to_string(kMaxRegs) + " registers in P" + std::to_string(P.index) + "`");
    int domains = 0;
    for (const auto& v : t.vars) domains += v.type == VarType::Srcu;
    if (domains > kMaxSrcu)
        throw LoadError(t.file + ": unsupported construct `more than " + std::to_string(kMaxSrcu) +
                        " srcu_structs`; accepted: at most " + std::to_string(kMaxSrcu));
    if ((int)t.observed.size() > kMaxObserved)
        throw LoadError(t.file + ": unsupported construct `more than " + std::to_string(kMaxObserved) +
                        " observed locations in the condition`");
}

Scenario scenario_of(const Test& t, const std::string& text, bool witness, const SearchSpec& search) {
    Scenario s;
    s.file = t.file;
    s.name = t.name;
    s.doc = "herd7 C litmus test " + t.name;
    s.model = "litmus";
    for (const auto& P : t.procs) s.threads.push_back({"P" + std::to_string(P.index), {}});
    // An execution in which every live thread waits (a thread that never
    // unlocks) does not exist, as in herd7: `deadlock` is not judged, so it
    // is cut. A lock or read section misused (an unlock of a lock the
    // thread does not hold, rcu_read_unlock outside a section,
    // synchronize_rcu inside one) is not judged either: the execution goes
    // on, as herd7's does, and the result carries a flag.
    s.invariants = {"livelock"};
    if (witness) s.invariants.push_back("litmus-condition");
    s.search = search;
    s.memory_model = MemModel::kernel;
    s.memory_model_given = true;
    s.expect.verdict = witness ? Verdict::violated : Verdict::holds;
    if (witness) s.expect.invariant = "litmus-condition";
    s.behaviour = text;
    return s;
}

// A state's line, its locations in herd7's order (`order`: herd_order()).
std::string state_line(const Test& t, const std::vector<size_t>& order, const int32_t* key) {
    std::string s;
    for (size_t i : order) {
        const Observed& o = t.observed[i];
        long v = key[i];
        const char* name = value_name(t, v);
        std::string val = name ? name : std::to_string(v);
        s += (s.empty() ? "" : " ") + (o.proc >= 0 ? std::to_string(o.proc) + ":" + t.procs[o.proc].regs[o.index].name : t.vars[o.index].name) + "=" + val + ";";
    }
    return s;
}

// The one line for the first ill-formed execution.
std::string bad_text(const Test& t) {
    const Tally& g = g_tally;
    std::string at = t.file + ":" + std::to_string(g.bad_line) + ": P" + std::to_string(g.bad_proc) + " ";
    std::string a = std::to_string(g.bad_value), b = std::to_string(g.bad_rhs), op = g.bad_op;
    switch (g.bad_kind) {
        case Tally::Bad::Pointer: {
            int v = location_index(g.bad_value, (int)t.vars.size());
            if (v >= 0) a = t.vars[v].name + (t.vars[v].type == VarType::Lock ? " (a spinlock_t)" : " (an srcu_struct)");
            return at + "dereferences " + a + ", which is not a location of the test; accepted: a location parameter or a "
                        "pointer register holding one";
        }
        case Tally::Bad::DivZero:
            return at + "divides by zero (" + a + " " + op + " 0); accepted: a nonzero divisor";
        case Tally::Bad::Shift:
            return at + "shifts by " + b + " (" + a + " " + op + " " + b + "); accepted: a shift count from 0 to 31";
        case Tally::Bad::Overflow:
            return at + "computes " + (op.empty() ? "-" + b : a + " " + op + " " + b) +
                   ", which overflows the 32 bits of a location; accepted: results from -2147483648 to 2147483647";
        case Tally::Bad::Closed:
            return at + "accesses " + t.vars[g.bad_value].name + " after the interpreter found it done with it: an internal error, "
                        "please report it";
        case Tally::Bad::ClosedValue:
            return at + "stores " + b + " to " + t.vars[g.bad_value].name +
                   " after the interpreter found it done storing that value there: an internal error, please report it";
        case Tally::Bad::None: break;
    }
    return at + "an ill-formed execution";
}

}  // namespace


// A dpor search under a time limit takes that share of it. If it is cut
// short before it has seen both kinds of outcome, PCT (search/pct.h:
// random thread priorities with random change points, and random data
// choices that favour the values the condition asks, note_wanted()) takes
// the rest, looking for the kind not seen yet. It samples
// the whole space, where dpor's depth-first order reaches some outcomes
// last: a schedule that runs six threads to their ends in turn
// (paulmckrcu/litmus manual/srcu/C-SRCU-63), or the one that closes a ring
// of six to eight threads with grace periods (auto/C-RW-G+RW-R+...;
// bench/results.md). Every execution it runs is one the model allows, so
// the outcomes it sees add to dpor's.
constexpr double kDporShare = 0.8;
static SearchSpec pct_after_dpor(SearchSpec search) {
    search.strategy = Strategy::pct;
    search.iterations = kMaxIterations;
    return search;
}
// The flags that run it alone, for the replay command of a witness it found.
constexpr const char* kPctFlags = " --strategy pct";

Outcome run(const Test& t, const std::string& text, const Options& opt) {
    check_limits(t);
    Outcome out;
    LitmusModel counting(t, Want::Nothing, opt);
    register_runtime_model(&counting);
    bool portfolio = opt.search.strategy == Strategy::dpor && opt.search.time_limit_s > 0;
    SearchSpec first = opt.search;
    if (portfolio) first.time_limit_s = opt.search.time_limit_s * kDporShare;
    out.scenario = scenario_of(t, text, false, first);
    g_tally.reset((int)t.observed.size());
    RunOptions ro;
    ro.minimize = false;
    ro.mutation = opt.mutation;
    ro.stale_cut = opt.stale_cut;
    ro.refused = opt.refused;
    ro.kept_cut = opt.kept_cut;
    ro.fence_order = opt.fence_order;
    auto started = std::chrono::steady_clock::now();
    out.run = run_scenario(out.scenario, ro);
    bool cut = out.run.verdict == Verdict::inconclusive || out.run.limit_hit;
    auto seen = [](bool satisfying) {
        for (int i = 0; i < g_tally.nstates; i++)
            if (g_tally.sat[i] == satisfying) return true;
        return false;
    };
    auto seen_both = [&] { return seen(true) && seen(false); };
    // The witness --witness prints: one that satisfies the condition (for
    // forall: one that does not). The search that first saw one looks for
    // it again.
    const bool wanted = t.quant != Quant::Forall;
    int wanted_by = seen(wanted) ? 0 : -1;  // 0: dpor; 1: PCT after it
    // Not after SIGINT/SIGTERM: the run stops as it was told.
    bool interrupted = out.run.limit == "interrupt";
    if (portfolio && cut && !interrupted && !seen_both() && !g_tally.bad) {
        double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        double left = opt.search.time_limit_s - spent;
        if (left > 0.01) {
            Scenario more = out.scenario;
            more.search = pct_after_dpor(more.search);
            more.search.time_limit_s = left;
            RunResult r = run_scenario(more, ro);
            out.run.executions += r.executions;
            if (wanted_by < 0 && seen(wanted)) wanted_by = 1;
            if (r.limit == "interrupt") {
                out.run.limit = r.limit;
                interrupted = true;
            } else if (r.verdict != Verdict::holds && r.verdict != Verdict::inconclusive) {
                out.run.verdict = r.verdict;
                out.run.invariant = r.invariant;
                out.run.message = r.message;
            }
        }
    }
    unregister_runtime_model(&counting);
    if (g_tally.bad) {
        out.error = bad_text(t);
        return out;
    }
    if (out.run.verdict != Verdict::holds && out.run.verdict != Verdict::inconclusive) {
        out.error = t.file + ": the test is ill-formed: " + out.run.invariant + ": " + out.run.message;
        return out;
    }
    if (g_tally.overflow) {
        out.error = t.file + ": more than " + std::to_string(kMaxStates) +
                    " distinct final states of the registers and locations the condition names; accepted: at most " +
                    std::to_string(kMaxStates);
        return out;
    }
    out.inconclusive = cut;
    out.data_race = g_tally.race;
    out.lock_misuse = g_tally.misuse;
    out.counts_exact = !g_tally.truncated && !g_tally.seen_overflow && !cut;
    // herd7 sorts the states by their values, in its order of locations.
    const std::vector<size_t> order = herd_order(t);
    std::vector<int> by_value(g_tally.nstates);
    for (int i = 0; i < g_tally.nstates; i++) by_value[i] = i;
    std::sort(by_value.begin(), by_value.end(), [&](int a, int b) {
        for (size_t k : order)
            if (g_tally.key[a][k] != g_tally.key[b][k]) return g_tally.key[a][k] < g_tally.key[b][k];
        return false;
    });
    for (int i : by_value) {
        State st;
        st.text = state_line(t, order, g_tally.key[i]);
        st.executions = g_tally.count[i];
        st.satisfies = g_tally.sat[i];
        (st.satisfies ? out.positive : out.negative) += st.executions;
        out.states.push_back(st);
    }
    uint64_t total = out.positive + out.negative;
    // Both kinds of outcome seen is an answer without load buffering too;
    // one kind only may be an execution load buffering would add short.
    bool both = out.positive && out.negative;
    // A search cut short that has seen both kinds of outcome has found
    // Sometimes: each state it counts is one of an execution the model
    // allows. herd7's data-race flag is part of the answer, and its absence
    // speaks of every execution: it is known only if a race was seen or
    // the test makes no plain access.
    bool race_known = out.data_race || !has_plain_access(t);
    if (out.inconclusive && both && !interrupted && race_known) {
        out.inconclusive = false;
        out.partial = true;
    }
    if (!out.inconclusive && !opt.no_load_buffering.empty() && !both) {
        out.inconclusive = true;
        out.run.limit = "value bound (" + opt.no_load_buffering + "): loads read only earlier stores";
    }
    // Never and Always speak of every execution: a bounded or sampled
    // search (--strategy bounded, random, pct) that saw one kind of outcome
    // only has no answer; one that saw both has found Sometimes, if it
    // knows the data-race flag (above).
    if (!out.inconclusive && out.run.scope != Scope::complete && !(both && race_known)) {
        out.inconclusive = true;
        out.run.limit = std::string("scope of the search (") + scope_name(out.run.scope) +
                        (both ? "): herd7's data-race flag needs every execution" : "): Never and Always need every execution");
    }
    out.answer = out.inconclusive ? Answer::None
               : total == 0 ? Answer::Never : out.positive == total ? Answer::Always : out.positive ? Answer::Sometimes : Answer::Never;
    switch (t.quant) {
        case Quant::Exists: out.validated = out.positive > 0; break;
        case Quant::NotExists: out.validated = out.positive == 0; break;
        case Quant::Forall: out.validated = out.negative == 0; break;
    }
    if (opt.witness && !out.inconclusive) {
        Want w = t.quant == Quant::Forall ? Want::Violates : Want::Satisfies;
        bool exists = w == Want::Satisfies ? out.positive > 0 : out.negative > 0;
        if (exists) {
            LitmusModel wm(t, w, opt);
            register_runtime_model(&wm);
            RunOptions wo;
            wo.minimize = opt.minimize;
            wo.mutation = opt.mutation;
            wo.stale_cut = opt.stale_cut;
            wo.refused = opt.refused;
            wo.kept_cut = opt.kept_cut;
            wo.fence_order = opt.fence_order;
            // A Sometimes from a search cut short: the witness is looked for
            // by the search that saw its outcome first, dpor under its share
            // of the limit or PCT under the whole limit
            // (Outcome::witness_search names PCT for the replay command).
            Options wopt = opt;
            if (out.partial && portfolio && wanted_by == 0) wopt.search.time_limit_s = opt.search.time_limit_s * kDporShare;
            if (out.partial && wanted_by == 1) {
                wopt.search = pct_after_dpor(opt.search);
                out.witness_search = kPctFlags;
            }
            Scenario ws = witness_scenario(t, text, wopt);
            g_tally.reset((int)t.observed.size());
            out.witness = run_scenario(ws, wo);
            out.has_witness = out.witness.verdict == Verdict::violated && out.witness.invariant == "litmus-condition";
            out.scenario = ws;
            unregister_runtime_model(&wm);
        }
    }
    return out;
}

Scenario witness_scenario(const Test& t, const std::string& text, const Options& o) {
    return scenario_of(t, text, true, o.search);
}

RunResult replay_witness(const Test& t, const std::string& text, const Options& o, const std::string& token) {
    check_limits(t);
    LitmusModel wm(t, t.quant == Quant::Forall ? Want::Violates : Want::Satisfies, o);
    register_runtime_model(&wm);
    Scenario ws = witness_scenario(t, text, o);
    g_tally.reset((int)t.observed.size());
    RunResult r;
    try {
        RunOptions ro;
        ro.mutation = o.mutation;
        r = replay_scenario(ws, token, ro);
    } catch (...) {
        unregister_runtime_model(&wm);
        throw;
    }
    unregister_runtime_model(&wm);
    return r;
}

std::string herd_report(const Test& t, const Outcome& o, bool stable) {
    std::string s;
    // herd7's kinds: exists is Allowed, ~exists Forbidden, forall Required.
    const char* kind = t.quant == Quant::Exists ? "Allowed" : t.quant == Quant::NotExists ? "Forbidden" : "Required";
    s += "Test " + t.name + " " + kind + "\n";
    s += "States " + std::to_string(o.states.size()) + "\n";
    for (const auto& st : o.states) s += st.text + "\n";
    if (o.inconclusive) {
        s += "inconclusive (" + (o.run.limit.empty() ? std::string("the search was cut short") : "stopped by the " + o.run.limit) +
             " after " + std::to_string(o.run.executions) + " interleavings; the states above are those seen so far)\n";
    } else {
        s += o.validated ? "Ok\n" : "No\n";
    }
    s += "Witnesses\n";
    s += "Positive: " + std::to_string(o.positive) + " Negative: " + std::to_string(o.negative) + "\n";
    if (o.data_race) s += "Flag data-race\n";
    if (o.lock_misuse) s += "Flag lock-misuse\n";
    s += "Condition " + t.cond_text + "\n";
    s += "Observation " + t.name + " " + (o.inconclusive ? "inconclusive" : answer_name(o.answer)) + " " +
         std::to_string(o.positive) + " " + std::to_string(o.negative) + "\n";
    if (!stable) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f", o.run.seconds);
        s += "Time " + t.name + " " + buf + "\n";
    }
    for (const auto& kv : t.info)
        if (kv.first == "Hash") s += "Hash=" + kv.second + "\n";
    return s;
}

}  // namespace litmus
}  // namespace vfsmc
