// vfsmc litmus: the syntax tree of a herd7 C litmus test (the LKMM format
// of tools/memory-model/litmus-tests): the initial state, P0..Pn bodies in
// the kernel's C vocabulary, and the final condition. The parser
// (parser.cpp) builds it; the interpreter (interp.cpp) runs it on the
// kernel-vocabulary layer. No Relacy here.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace vfsmc {
namespace litmus {

// The type of a shared location, from the P parameters (`int *x`,
// `int **p`, `atomic_t *v`, `spinlock_t *s`, `struct srcu_struct *ss`).
enum class VarType { Int, Pointer, Atomic, Lock, Srcu };

// A location's address as a value: kLocationBase + its index, far above
// the integers a test computes with, so that a pointer register holding an
// int stays an int (`r1=1`, not the first location's name) and a condition
// `0:r1=x` holds only of x's address, as in herd7. 0 is NULL.
constexpr long kLocationBase = 1L << 24;
inline long location_value(int var) { return kLocationBase + var; }
// The index of the location whose address `v` is, or -1.
inline int location_index(long v, int nvars) {
    return v >= kLocationBase && v < kLocationBase + nvars ? (int)(v - kLocationBase) : -1;
}

struct Var {
    std::string name;
    VarType type = VarType::Int;
    long init = 0;             // an int, or
    std::string init_addr;     // the name of the location it points to (`p=y`)
    int line = 0;              // where it is first declared
    bool srcu_sections = false;  // an srcu_struct some thread opens a section of (srcu_read_lock, srcu_down_read)
};

// The kernel primitives a body may call. Each has a fixed arity; the
// parser rejects any other function.
enum class Fn {
    ReadOnce, WriteOnce, LoadAcquire, StoreRelease,
    Mb, Rmb, Wmb, MbBeforeAtomic, MbAfterAtomic, MbAfterSpinlock, MbAfterUnlockLock,
    SpinLock, SpinUnlock, SpinTrylock, SpinIsLocked,
    RcuReadLock, RcuReadUnlock, SynchronizeRcu, RcuDereference, RcuAssignPointer,
    SrcuReadLock, SrcuReadUnlock, SynchronizeSrcu, SrcuDownRead, SrcuUpRead,
    MbAfterSrcuReadUnlock, Barrier, StoreMb,
    AtomicRead, AtomicSet, AtomicReadAcquire, AtomicSetRelease,
    AtomicOp,       // atomic_inc/dec/add/sub (no return value)
    AtomicOpReturn, // atomic_{add,sub,inc,dec}_return, atomic_fetch_*, *_and_test
    Xchg,           // xchg, atomic_xchg
    Cmpxchg,        // cmpxchg, atomic_cmpxchg
    AddUnless,      // atomic_add_unless(v, a, u): v += a unless v == u; 1 if it added
};

// The ordering of a value-returning RMW (its name's suffix).
enum class RmwOrder { Full, Relaxed, Acquire, Release };

// The arithmetic of an atomic op.
enum class ArithOp { Add, Sub, And, Or, Xor, AndNot };
// Which value an AtomicOpReturn returns.
enum class RetKind { New, Old, IsZero, IsNegative };

struct Expr {
    enum Kind { Const, Reg, VarAddr, Deref, Unary, Binary, Call } kind = Const;
    int line = 0;
    int depth = 1;                  // of this tree: 1 for a leaf (the parser bounds it)
    long value = 0;                 // Const
    int index = -1;                 // Reg: register slot; VarAddr: variable index
    std::string op;                 // Unary/Binary: "!", "-", "~", "+", "==", ...
    std::vector<std::unique_ptr<Expr>> args;  // Deref: 1; Unary: 1; Binary: 2; Call: the call's
    // Call
    Fn fn = Fn::ReadOnce;
    std::string name;               // as spelled, for the trace
    RmwOrder order = RmwOrder::Full;
    ArithOp arith = ArithOp::Add;
    RetKind ret = RetKind::New;
    long imm = 0;                   // inc/dec: the implicit 1
    bool has_imm = false;
};

struct Stmt {
    enum Kind { Assign, Store, Eval, If, Block } kind = Eval;
    int line = 0;
    int reg = -1;                   // Assign: the register slot
    std::unique_ptr<Expr> addr;     // Store: `*addr = value` (a plain store)
    std::unique_ptr<Expr> value;    // Assign, Store, Eval; If: the condition
    std::vector<std::unique_ptr<Stmt>> body;  // Block; If: then (body[0]) and else (body[1], may be null)
};

struct Reg {
    std::string name;
    bool pointer = false;           // `int *r0`: prints as a location name
    long init = 0;
    std::string init_addr;
    int implicit_line = 0;          // declared by its first use (herd7's rule), at this line
    bool given = false;             // assigned in the body or given an initial value
};

struct Proc {
    int index = 0;                  // N of PN
    int line = 0;
    std::vector<int> params;        // variable indices
    std::vector<Reg> regs;
    std::vector<std::unique_ptr<Stmt>> body;
};

// The final condition: a proposition over final register and memory values.
struct Prop {
    enum Kind { True, False, Not, And, Or, Eq } kind = True;
    int depth = 1;                  // of this tree: 1 for a leaf (the parser bounds it)
    std::vector<std::unique_ptr<Prop>> kids;
    // Eq: left is a register (proc >= 0) or a variable (proc = -1); right is
    // an int or a location's address.
    int proc = -1;
    int index = -1;                 // register slot or variable index
    bool negate = false;            // `!=`
    long value = 0;
    int value_addr = -1;            // variable index when right is an address
    int rproc = -1;                 // right is a register (`x=0:r1`, `0:r1=1:r1`): its thread
    int rindex = -1;                //   and slot
};

enum class Quant { Exists, NotExists, Forall };

// What a location list or a condition observes: a register or a variable.
struct Observed {
    int proc = -1;
    int index = -1;
};

enum class Answer { Always, Sometimes, Never, None };
const char* answer_name(Answer a);

struct Test {
    std::string file;
    std::string name;
    std::string result_text;        // the `Result:` line's word, "" when absent
    Answer expected = Answer::None; // the LKMM's answer, from `Result:`
    std::string vfsmc_expected;     // the `vfsmc:` line: where vfsmc differs, its answer and class
    Answer vfsmc_answer = Answer::None;
    std::string vfsmc_class;
    std::vector<Var> vars;
    std::vector<Proc> procs;
    Quant quant = Quant::Exists;
    std::unique_ptr<Prop> cond;
    std::string cond_text;          // as written, whitespace normalised
    std::unique_ptr<Prop> filter;   // may be null
    std::vector<Observed> observed; // `locations` then the condition's, in order, no duplicates
    bool uses_rcu = false, uses_srcu = false;
    bool rcu_sections = false;  // some thread calls rcu_read_lock()
    bool uses_special_barriers = false;  // smp_mb__before_atomic() and its kin (barrier.h)
    // The diy7 header lines between the name and the initial state
    // (`Cycle=Rfe PodRR Fre PodWW`, `Hash=...`), in order.
    std::vector<std::pair<std::string, std::string>> info;

    int var_index(const std::string& n) const;
};

// The indices of t.observed in the order herd7 prints a state's
// locations: registers by thread and name, then memory by name.
std::vector<size_t> herd_order(const Test& t);

// The name a value prints as: the location whose address it is, as herd7
// prints an address whatever the type it was stored as, or null (printed
// as a number: a null pointer is 0, as herd7 and the oracle print it).
// No allocation (the interpreter calls it inside the simulation).
inline const char* value_name(const Test& t, long v) {
    int i = location_index(v, (int)t.vars.size());
    return i >= 0 ? t.vars[i].name.c_str() : nullptr;
}

}  // namespace litmus
}  // namespace vfsmc
