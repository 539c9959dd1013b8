// lkmm: the paths through one thread (see threads.h). The interpreter
// replays a vector of choices (which value each read returns, whether a
// trylock succeeds); the enumeration advances that vector like an odometer.
// Values carry the set of reads they were computed from, which gives herd7's
// dependencies: addr (a location computed from a read), data (a written value
// computed from a read) and ctrl (every event in a branch taken on a read).
#include "lkmm/threads.h"

#include <map>

namespace vfsmc {
namespace lkmm {

using litmus::Expr;
using litmus::Fn;
using litmus::RmwOrder;
using litmus::Stmt;
using litmus::VarType;

namespace {

struct Val {
    long v = 0;
    Set from;  // the thread's reads this value was computed from
};

struct InvalidPath {};

// A construct of the syntax tree this interpreter does not know: an error,
// never a silent guess.
struct Unknown {
    std::string what;
    int line;
};

class Interp {
public:
    Interp(const litmus::Test& t, int proc, const Domains& dom, std::vector<int>& choices, std::vector<int>& arity,
           bool both_branches)
        : t_(t), p_(t.procs[proc]), proc_(proc), dom_(dom), choices_(choices), arity_(arity), both_(both_branches) {}

    Run run() {
        regs_.resize(p_.regs.size());
        for (size_t r = 0; r < p_.regs.size(); r++) {
            const auto& R = p_.regs[r];
            regs_[r].v = R.init_addr.empty() ? R.init : address_of(t_.var_index(R.init_addr));
        }
        try {
            for (const auto& s : p_.body) exec(*s);
        } catch (const InvalidPath&) {
            out_.valid = false;
        }
        for (const auto& r : regs_) out_.regs.push_back(r.v);
        return std::move(out_);
    }

private:
    const litmus::Test& t_;
    const litmus::Proc& p_;
    int proc_;
    const Domains& dom_;
    std::vector<int>& choices_;
    std::vector<int>& arity_;
    bool both_;  // a branch on a read is taken either way (thread_runs)
    size_t next_ = 0;
    std::vector<Val> regs_;
    Set ctrl_;  // the reads the events of the current branch are control-dependent on
    Run out_;

    int choose(int n) {
        if (next_ < choices_.size()) return choices_[next_++];
        choices_.push_back(0);
        arity_.push_back(n);
        next_++;
        return 0;
    }

    int emit(Event e, const Set& addr, const Set& data) {
        e.thread = proc_;
        int k = (int)out_.events.size();
        if (k >= kMaxEvents) throw Unknown{"a thread of more than " + std::to_string(kMaxEvents) + " events", e.line};
        out_.events.push_back(std::move(e));
        for (int r = 0; r < k; r++) {
            if (addr[r]) out_.addr.push_back({r, k});
            if (data[r] && out_.events[k].kind == Kind::W) out_.data.push_back({r, k});
            if (ctrl_[r]) out_.ctrl.push_back({r, k});
        }
        return k;
    }

    int loc_of(const Val& a) const {
        if (!is_address(a.v) || a.v - kAddressBase >= (long)t_.vars.size()) throw InvalidPath();
        return (int)(a.v - kAddressBase);
    }

    Val read(int loc, uint32_t tags, const Set& addr, const Expr& e) {
        Event ev;
        ev.kind = Kind::R;
        ev.tags = tags;
        ev.loc = loc;
        const auto& d = dom_[loc];
        ev.value = d[choose((int)d.size())];
        ev.line = e.line;
        ev.what = e.kind == Expr::Call ? e.name : "*";
        int k = emit(ev, addr, Set());
        Val v;
        v.v = out_.events[k].value;
        v.from[k] = true;
        return v;
    }
    int write(int loc, uint32_t tags, const Set& addr, const Val& val, const Expr& e) {
        Event ev;
        ev.kind = Kind::W;
        ev.tags = tags;
        ev.loc = loc;
        ev.value = val.v;
        ev.line = e.line;
        ev.what = e.kind == Expr::Call ? e.name : "*";
        return emit(ev, addr, val.from);
    }
    void fence(uint32_t tags, const Expr& e) {
        Event ev;
        ev.kind = Kind::F;
        ev.tags = tags;
        ev.line = e.line;
        ev.what = e.name;
        emit(ev, Set(), Set());
    }
    int lock_event(LockOp op, int loc, const Set& addr, const Expr& e) {
        Event ev;
        ev.kind = op == LockOp::LKW || op == LockOp::UL ? Kind::W : Kind::R;
        ev.lock = op;
        ev.loc = loc;
        ev.value = op == LockOp::LKW || op == LockOp::LF ? 1 : 0;
        ev.line = e.line;
        ev.what = e.name;
        return emit(ev, addr, Set());
    }

    void exec(const Stmt& s) {
        switch (s.kind) {
            case Stmt::Assign: regs_[s.reg] = eval(*s.value); return;
            case Stmt::Store: {
                Val a = eval(*s.addr);
                Val v = eval(*s.value);
                write(loc_of(a), 0, a.from, v, *s.value);
                return;
            }
            case Stmt::Eval: eval(*s.value); return;
            case Stmt::If: {
                // herd7's ctrl reaches the events of the branch taken, not
                // those after the if (litmus-tests.txt, LIMITATIONS 1).
                Val c = eval(*s.value);
                Set outer = ctrl_;
                ctrl_ |= c.from;
                bool taken = c.v != 0;
                if (both_ && c.from.any() && choose(2) == 1) taken = !taken;
                const Stmt* b = taken ? s.body[0].get() : s.body[1].get();
                if (b) exec(*b);
                ctrl_ = outer;
                return;
            }
            case Stmt::Block:
                for (const auto& k : s.body) exec(*k);
                return;
        }
        throw Unknown{"a statement", s.line};
    }

    Val eval(const Expr& e) {
        switch (e.kind) {
            case Expr::Const: return {e.value, Set()};
            case Expr::Reg: return regs_[e.index];
            case Expr::VarAddr: return {address_of(e.index), Set()};
            case Expr::Deref: {
                Val a = eval(*e.args[0]);
                return read(loc_of(a), 0, a.from, e);
            }
            case Expr::Unary: {
                Val a = eval(*e.args[0]);
                if (e.op == "!") a.v = !a.v;
                else if (e.op == "-") a.v = -a.v;
                else if (e.op == "~") a.v = ~a.v;
                else throw Unknown{e.op, e.line};
                return a;
            }
            case Expr::Binary: {
                Val a = eval(*e.args[0]);
                Val b = eval(*e.args[1]);
                Val r;
                r.from = a.from | b.from;
                long x = a.v, y = b.v;
                // The operator by its one or two characters (paths are
                // enumerated by the hundred thousand: no string compares).
                const std::string& op = e.op;
                int c = op.size() == 1 ? op[0] : op.size() == 2 ? op[0] * 256 + op[1] : 0;
                switch (c) {
                    case '+': r.v = x + y; break;
                    case '-': r.v = x - y; break;
                    case '*': r.v = x * y; break;
                    case '/': case '%':
                        if (y == 0) throw InvalidPath();
                        r.v = c == '/' ? x / y : x % y;
                        break;
                    case '=' * 256 + '=': r.v = x == y; break;
                    case '!' * 256 + '=': r.v = x != y; break;
                    case '<': r.v = x < y; break;
                    case '<' * 256 + '=': r.v = x <= y; break;
                    case '>': r.v = x > y; break;
                    case '>' * 256 + '=': r.v = x >= y; break;
                    case '&' * 256 + '&': r.v = x && y; break;
                    case '|' * 256 + '|': r.v = x || y; break;
                    case '&': r.v = x & y; break;
                    case '|': r.v = x | y; break;
                    case '^': r.v = x ^ y; break;
                    case '<' * 256 + '<': r.v = (y < 0 || y > 62) ? 0 : x << y; break;
                    case '>' * 256 + '>': r.v = (y < 0 || y > 62) ? 0 : x >> y; break;
                    default: throw Unknown{op, e.line};
                }
                return r;
            }
            case Expr::Call: return call(e);
        }
        throw Unknown{"an expression", e.line};
    }

    // The ordering tag of an RMW's name suffix (linux-kernel.def).
    static uint32_t order_tag(RmwOrder o) {
        switch (o) {
            case RmwOrder::Full: return MB;
            case RmwOrder::Relaxed: return ONCE;
            case RmwOrder::Acquire: return ACQUIRE;
            case RmwOrder::Release: return RELEASE;
        }
        return ONCE;
    }

    // READ_ONCE, WRITE_ONCE and their acquire, release and atomic_t kin.
    Val marked_access(const Expr& e) {
        auto arg = [&](int i) { return eval(*e.args[i]); };
        switch (e.fn) {
            case Fn::ReadOnce: case Fn::RcuDereference: case Fn::AtomicRead: {
                Val a = arg(0);
                return read(loc_of(a), ONCE, a.from, e);
            }
            case Fn::LoadAcquire: case Fn::AtomicReadAcquire: {
                Val a = arg(0);
                return read(loc_of(a), ACQUIRE, a.from, e);
            }
            case Fn::WriteOnce: case Fn::AtomicSet: {
                Val a = arg(0);
                Val v = arg(1);
                write(loc_of(a), ONCE, a.from, v, e);
                return {};
            }
            case Fn::StoreRelease: case Fn::RcuAssignPointer: case Fn::AtomicSetRelease: {
                Val a = arg(0);
                Val v = arg(1);
                write(loc_of(a), RELEASE, a.from, v, e);
                return {};
            }
            default: break;
        }
        throw Unknown{e.name.empty() ? "a primitive" : e.name, e.line};
    }

    // The fences, RCU's and smp_store_mb().
    Val barrier(const Expr& e) {
        auto arg = [&](int i) { return eval(*e.args[i]); };
        switch (e.fn) {
            case Fn::Mb: fence(MB, e); return {};
            case Fn::Rmb: fence(F_RMB, e); return {};
            case Fn::Wmb: fence(F_WMB, e); return {};
            case Fn::MbBeforeAtomic: fence(F_BEFORE_ATOMIC, e); return {};
            case Fn::MbAfterAtomic: fence(F_AFTER_ATOMIC, e); return {};
            case Fn::MbAfterSpinlock: fence(F_AFTER_SPINLOCK, e); return {};
            case Fn::MbAfterUnlockLock: fence(F_AFTER_UNLOCK_LOCK, e); return {};
            case Fn::RcuReadLock: fence(F_RCU_LOCK, e); return {};
            case Fn::RcuReadUnlock: fence(F_RCU_UNLOCK, e); return {};
            case Fn::SynchronizeRcu: fence(F_SYNC_RCU, e); return {};
            // linux-kernel.def: barrier() { __fence{barrier}; },
            // smp_mb__after_srcu_read_unlock() { __fence{after-srcu-read-unlock}; },
            // smp_store_mb(X, V) { __store{once}(X, V); __fence{mb}; }.
            case Fn::Barrier: fence(F_BARRIER, e); return {};
            case Fn::MbAfterSrcuReadUnlock: fence(F_AFTER_SRCU_READ_UNLOCK, e); return {};
            case Fn::StoreMb: {
                Val a = arg(0);
                Val v = arg(1);
                write(loc_of(a), ONCE, a.from, v, e);
                fence(MB, e);
                return {};
            }
            default: break;
        }
        throw Unknown{e.name.empty() ? "a primitive" : e.name, e.line};
    }

    // spin_lock(), spin_unlock(), spin_trylock(), spin_is_locked(): lock.cat's events.
    Val spinlock(const Expr& e) {
        auto arg = [&](int i) { return eval(*e.args[i]); };
        switch (e.fn) {
            case Fn::SpinLock: {
                Val a = arg(0);
                int l = loc_of(a);
                lock_event(LockOp::LKR, l, a.from, e);
                lock_event(LockOp::LKW, l, a.from, e);
                return {};
            }
            case Fn::SpinUnlock: {
                Val a = arg(0);
                lock_event(LockOp::UL, loc_of(a), a.from, e);
                return {};
            }
            case Fn::SpinTrylock: {
                // herd7 returns a constant from each alternative, so the
                // result carries no dependency on the lock's read.
                Val a = arg(0);
                int l = loc_of(a);
                Val r;
                if (choose(2) == 0) {
                    lock_event(LockOp::LKR, l, a.from, e);
                    lock_event(LockOp::LKW, l, a.from, e);
                    r.v = 1;
                } else {
                    lock_event(LockOp::LF, l, a.from, e);
                    r.v = 0;
                }
                return r;
            }
            case Fn::SpinIsLocked: {
                // True is lock.cat's RL, which it treats as LF; the result
                // is a constant, as for spin_trylock().
                Val a = arg(0);
                int l = loc_of(a);
                Val r;
                bool locked = choose(2) == 0;
                lock_event(locked ? LockOp::LF : LockOp::RU, l, a.from, e);
                r.v = locked;
                return r;
            }
            default: break;
        }
        throw Unknown{e.name.empty() ? "a primitive" : e.name, e.line};
    }

    // SRCU read sections and synchronize_srcu().
    Val srcu(const Expr& e) {
        auto arg = [&](int i) { return eval(*e.args[i]); };
        switch (e.fn) {
            // srcu_down_read() and srcu_up_read() are srcu-lock and
            // srcu-unlock events, as srcu_read_lock() and srcu_read_unlock().
            case Fn::SrcuReadLock: case Fn::SrcuDownRead: {
                Val a = arg(0);
                return read(loc_of(a), SRCU_LOCK, a.from, e);
            }
            case Fn::SrcuReadUnlock: case Fn::SrcuUpRead: {
                Val a = arg(0);
                Val v = arg(1);
                write(loc_of(a), SRCU_UNLOCK, a.from, v, e);
                return {};
            }
            case Fn::SynchronizeSrcu: {
                Val a = arg(0);
                Event ev;
                ev.kind = Kind::SyncSrcu;
                ev.loc = loc_of(a);
                ev.line = e.line;
                ev.what = e.name;
                emit(ev, a.from, Set());
                return {};
            }
            default: break;
        }
        throw Unknown{e.name.empty() ? "a primitive" : e.name, e.line};
    }

    // The read-modify-writes: an R and a W event paired in rmw (or a failed RMW, no W).
    Val atomic_rmw(const Expr& e) {
        auto arg = [&](int i) { return eval(*e.args[i]); };
        switch (e.fn) {
            case Fn::AtomicOp: case Fn::AtomicOpReturn: {
                // atomic_add(i, v): the location is the last argument.
                Val operand;
                if (e.has_imm) operand.v = e.imm;
                else operand = arg(0);
                Val a = arg((int)e.args.size() - 1);
                int l = loc_of(a);
                uint32_t tag = (e.fn == Fn::AtomicOp ? NORETURN : order_tag(e.order)) | RMW;
                Val old = read(l, tag, a.from, e);
                int rk = (int)out_.events.size() - 1;
                Val nv;
                switch (e.arith) {
                    case litmus::ArithOp::Add: nv.v = old.v + operand.v; break;
                    case litmus::ArithOp::Sub: nv.v = old.v - operand.v; break;
                    case litmus::ArithOp::And: nv.v = old.v & operand.v; break;
                    case litmus::ArithOp::Or: nv.v = old.v | operand.v; break;
                    case litmus::ArithOp::Xor: nv.v = old.v ^ operand.v; break;
                    case litmus::ArithOp::AndNot: nv.v = old.v & ~operand.v; break;
                }
                nv.from = old.from | operand.from;
                int wk = write(l, tag, a.from, nv, e);
                out_.rmw.push_back({rk, wk});
                if (e.fn == Fn::AtomicOp) return {};
                Val r;
                r.from = old.from;
                r.v = e.ret == litmus::RetKind::Old ? old.v : e.ret == litmus::RetKind::New ? nv.v
                    : e.ret == litmus::RetKind::IsNegative ? nv.v < 0 : nv.v == 0;
                return r;
            }
            case Fn::AddUnless: {
                // atomic_add_unless(v, a, u): a fully ordered RMW when it
                // adds; one that does not is a failed RMW (no write), as a
                // failed cmpxchg: the bell's FailedRMW, neither Mb nor
                // ordered. Returns 1 if it added.
                Val a = arg(0);
                Val add = arg(1);
                Val u = arg(2);
                int l = loc_of(a);
                Val old = read(l, MB | RMW, a.from, e);
                Val r;
                r.from = old.from | u.from;
                if (old.v != u.v) {
                    int rk = (int)out_.events.size() - 1;
                    Val nv;
                    nv.v = old.v + add.v;
                    nv.from = old.from | add.from;
                    int wk = write(l, MB | RMW, a.from, nv, e);
                    out_.rmw.push_back({rk, wk});
                    r.v = 1;
                } else {
                    r.v = 0;
                }
                return r;
            }
            case Fn::Xchg: {
                Val a = arg(0);
                Val v = arg(1);
                int l = loc_of(a);
                uint32_t tag = order_tag(e.order) | RMW;
                Val old = read(l, tag, a.from, e);
                int rk = (int)out_.events.size() - 1;
                int wk = write(l, tag, a.from, v, e);
                out_.rmw.push_back({rk, wk});
                return old;
            }
            case Fn::Cmpxchg: {
                Val a = arg(0);
                Val expect = arg(1);
                Val v = arg(2);
                int l = loc_of(a);
                uint32_t tag = order_tag(e.order) | RMW;
                Val old = read(l, tag, a.from, e);
                if (old.v == expect.v) {
                    int rk = (int)out_.events.size() - 1;
                    int wk = write(l, tag, a.from, v, e);
                    out_.rmw.push_back({rk, wk});
                }
                return old;
            }
            default: break;
        }
        throw Unknown{e.name.empty() ? "a primitive" : e.name, e.line};
    }

    // A call of a primitive: its events, by family (linux-kernel.def).
    Val call(const Expr& e) {
        switch (e.fn) {
            case Fn::ReadOnce: case Fn::RcuDereference: case Fn::AtomicRead: case Fn::LoadAcquire:
            case Fn::AtomicReadAcquire: case Fn::WriteOnce: case Fn::AtomicSet: case Fn::StoreRelease:
            case Fn::RcuAssignPointer: case Fn::AtomicSetRelease:
                return marked_access(e);
            case Fn::Mb: case Fn::Rmb: case Fn::Wmb: case Fn::MbBeforeAtomic: case Fn::MbAfterAtomic:
            case Fn::MbAfterSpinlock: case Fn::MbAfterUnlockLock: case Fn::RcuReadLock: case Fn::RcuReadUnlock:
            case Fn::SynchronizeRcu: case Fn::Barrier: case Fn::MbAfterSrcuReadUnlock: case Fn::StoreMb:
                return barrier(e);
            case Fn::SpinLock: case Fn::SpinUnlock: case Fn::SpinTrylock: case Fn::SpinIsLocked:
                return spinlock(e);
            case Fn::SrcuReadLock: case Fn::SrcuDownRead: case Fn::SrcuReadUnlock: case Fn::SrcuUpRead:
            case Fn::SynchronizeSrcu:
                return srcu(e);
            case Fn::AtomicOp: case Fn::AtomicOpReturn: case Fn::AddUnless: case Fn::Xchg: case Fn::Cmpxchg:
                return atomic_rmw(e);
        }
        throw Unknown{e.name.empty() ? "a primitive" : e.name, e.line};
    }
};

}  // namespace

std::vector<Run> thread_runs(const litmus::Test& t, int proc, const Domains& dom, size_t max_runs, std::string& error,
                             bool both_branches) {
    std::vector<Run> runs;
    std::vector<int> choices, arity;
    for (;;) {
        Interp in(t, proc, dom, choices, arity, both_branches);
        try {
            runs.push_back(in.run());
        } catch (const Unknown& u) {
            error = t.file + ":" + std::to_string(u.line) + ": unsupported construct `" + u.what +
                    "` in the LKMM oracle; accepted: the primitives of docs/lkmm-oracle.md";
            return runs;
        }
        if (runs.size() > max_runs) {
            error = t.file + ": P" + std::to_string(proc) + " has more than " + std::to_string(max_runs) +
                    " paths; accepted: tests whose threads have fewer reads of fewer values";
            return runs;
        }
        // The next choice vector: the last choice that has another option.
        while (!choices.empty() && choices.back() + 1 >= arity.back()) {
            choices.pop_back();
            arity.pop_back();
        }
        if (choices.empty()) break;
        choices.back()++;
    }
    return runs;
}

}  // namespace lkmm
}  // namespace vfsmc
