// vfsmc litmus: the parser (see parser.h). A recursive-descent parser,
// over the tokens of lexer.h and the primitives of primitives.h, for herd7's C litmus format as the LKMM's tests
// and diy7 write it: header lines, the initial state, P0..P7, locations,
// filter and the final condition. docs/litmus.md is its grammar and its
// table of primitives.
#include "litmus/parser.h"
#include "litmus/lexer.h"
#include "litmus/primitives.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <map>
#include <sstream>

#include "substrate/trace.h"
#include "scenario/scenario.h"

namespace vfsmc {
namespace litmus {

std::vector<size_t> herd_order(const Test& t) {
    std::vector<size_t> order(t.observed.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    auto name = [&](const Observed& o) -> const std::string& {
        return o.proc >= 0 ? t.procs[o.proc].regs[o.index].name : t.vars[o.index].name;
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const Observed &x = t.observed[a], &y = t.observed[b];
        bool rx = x.proc >= 0, ry = y.proc >= 0;
        if (rx != ry) return rx;
        if (x.proc != y.proc) return x.proc < y.proc;
        return name(x) < name(y);
    });
    return order;
}

const char* answer_name(Answer a) {
    switch (a) {
        case Answer::Always: return "Always";
        case Answer::Sometimes: return "Sometimes";
        case Answer::Never: return "Never";
        case Answer::None: return "-";
    }
    return "?";
}

int Test::var_index(const std::string& n) const {
    for (size_t i = 0; i < vars.size(); i++)
        if (vars[i].name == n) return (int)i;
    return -1;
}

namespace {

const char* kAcceptedConstructs =
    "the primitives of tools/memory-model/linux-kernel.def (READ_ONCE, WRITE_ONCE, smp_*, spin_*, rcu_*, srcu_*, "
    "atomic_*, xchg*, cmpxchg*, barrier), if/else and blocks (docs/litmus.md)";

// Every location holds a 32-bit int (kfield<int>): a literal out of that
// range is rejected (lexer.h), and arithmetic that leaves it is an error of
// the execution (interp.cpp).

// Nesting limits: the interpreter walks statements and expressions
// recursively on the simulated thread's stack (Relacy's fibers, 64 KiB), and
// the parser on the process's. Real tests nest a few levels. An expression
// tree about 200 deep (with loads at its leaves) overflows a fiber; 48
// leaves a fourfold margin (tests/reliability.bats runs one at the limits).
constexpr int kMaxStmtDepth = 16;   // blocks and ifs inside one another
constexpr int kMaxExprDepth = 48;   // an expression's tree (also a chain a + b + c ...)
constexpr int kMaxPropDepth = 48;   // the final condition's tree


class Parser {
public:
    Parser(const std::string& file, const std::string& text) : file_(file), text_(text) {}

    Test run() {
        t_.file = file_;
        header();
        tokenize();
        balance();
        body();
        return std::move(t_);
    }

private:
    std::string file_, text_;
    std::vector<Tok> toks_;
    size_t p_ = 0;
    Test t_;
    int start_line_ = 1;
    struct PendingRegInit {
        int proc;
        std::string reg, value;
        long num = 0;
        bool addr = false;
        int line = 0;
        bool pointer = false;    // declared with a pointer type
        bool has_value = true;   // `int *1:r1;` declares a type only
    };
    std::vector<PendingRegInit> reg_inits_;
    Proc* cur_ = nullptr;  // the proc being parsed
    // How deep the parser is in statements, expressions and the condition.
    int stmt_nest_ = 0, expr_nest_ = 0, prop_nest_ = 0;
    struct Nest {
        int& n;
        explicit Nest(int& x) : n(++x) {}
        ~Nest() { --n; }
    };
    void nest_check(int depth, int limit, int line, const char* what) const {
        if (depth > limit)
            fail(line, std::string(what) + " nested deeper than " + std::to_string(limit) + " levels; accepted: at most " +
                           std::to_string(limit) + " levels");
    }
    // A new node's depth from its children's, checked against the limit.
    void expr_depth(Expr& e) {
        int d = 0;
        for (const auto& a : e.args) if (a) d = std::max(d, a->depth);
        e.depth = d + 1;
        nest_check(e.depth, kMaxExprDepth, e.line, "an expression");
    }
    void prop_depth(Prop& p, int line) {
        int d = 0;
        for (const auto& k : p.kids) if (k) d = std::max(d, k->depth);
        p.depth = d + 1;
        nest_check(p.depth, kMaxPropDepth, line, "the condition");
    }

    [[noreturn]] void fail(int line, const std::string& what) const {
        throw LoadError(file_ + ":" + std::to_string(line) + ": " + what);
    }
    [[noreturn]] void unsupported(int line, const std::string& construct) const {
        fail(line, "unsupported construct `" + construct + "`; accepted: " + kAcceptedConstructs);
    }

    // The first line: `C <name>`. Then the comments' Result: and vfsmc: lines.
    void header() {
        std::istringstream in(text_);
        std::string line;
        int n = 0;
        while (std::getline(in, line)) {
            n++;
            size_t a = line.find_first_not_of(" \t\r");
            if (a == std::string::npos) continue;
            if (line.compare(a, 2, "C ") != 0 && line.compare(a, 2, "C\t") != 0)
                fail(n, "expected `C <test name>` on the first line, found `" + line.substr(a, 40) +
                            "`; accepted: a herd7 C litmus test (only the C dialect)");
            std::string name = line.substr(a + 2);
            name.erase(0, name.find_first_not_of(" \t"));
            name.erase(name.find_last_not_of(" \t\r") + 1);
            if (name.empty()) fail(n, "the test has no name after `C`; accepted: `C <name>`");
            t_.name = name;
            start_line_ = n + 1;
            // The rest of the text is tokenized from the next line (all of
            // it: a NUL byte is a bad token there, not the end).
            std::streamoff pos = in.tellg();
            text_ = pos < 0 ? std::string() : text_.substr((size_t)pos);
            break;
        }
        if (t_.name.empty()) fail(1, "empty file; accepted: a herd7 C litmus test starting with `C <name>`");
    }

    // `Result: <word>` and `vfsmc: <word> (<class>)` in a comment, by a
    // linear scan (comments are untrusted text of any length).
    static bool word_char(char ch) { return std::isalnum((unsigned char)ch) || ch == '_'; }
    static size_t skip_space(const std::string& c, size_t i) {
        while (i < c.size() && std::isspace((unsigned char)c[i])) i++;
        return i;
    }
    static std::string word_at(const std::string& c, size_t i) {
        size_t j = i;
        while (j < c.size() && word_char(c[j])) j++;
        return c.substr(i, j - i);
    }
    static Answer answer_of(const std::string& w) {
        return w == "Always" ? Answer::Always : w == "Sometimes" ? Answer::Sometimes : w == "Never" ? Answer::Never : Answer::None;
    }
    void comment_text(const std::string& c) {
        if (t_.result_text.empty()) {
            for (size_t at = c.find("Result:"); at != std::string::npos; at = c.find("Result:", at + 1)) {
                std::string w = word_at(c, skip_space(c, at + 7));
                if (w.empty()) continue;
                t_.result_text = w;
                t_.expected = answer_of(w);
                break;
            }
        }
        if (t_.vfsmc_expected.empty()) {
            for (size_t at = c.find("vfsmc:"); at != std::string::npos; at = c.find("vfsmc:", at + 1)) {
                size_t i = skip_space(c, at + 6);
                std::string w = word_at(c, i);
                if (w.empty()) continue;
                i = skip_space(c, i + w.size());
                if (i >= c.size() || c[i] != '(') continue;
                size_t close = c.find(')', i + 1);
                if (close == std::string::npos) break;  // no later match can close either
                t_.vfsmc_expected = c.substr(at, close + 1 - at);
                t_.vfsmc_answer = answer_of(w);
                t_.vfsmc_class = c.substr(i + 1, close - i - 1);
                break;
            }
        }
    }

    void tokenize() {
        toks_ = litmus::tokenize(file_, text_, start_line_, [this](const std::string& c) { comment_text(c); }, t_.info);
    }
    void balance() const { litmus::balance(file_, toks_); }

    const Tok& peek(int k = 0) const { return toks_[std::min(p_ + k, toks_.size() - 1)]; }
    const Tok& next() { const Tok& t = peek(); if (p_ < toks_.size() - 1) p_++; return t; }
    bool is(const char* s, int k = 0) const { return peek(k).kind != Tok::End && peek(k).kind != Tok::Str && peek(k).s == s; }
    bool accept(const char* s) { if (is(s)) { next(); return true; } return false; }
    std::string shown(const Tok& t) const {
        return t.kind == Tok::End ? "end of file" : "`" + (t.s.size() > 40 ? t.s.substr(0, 40) + "..." : t.s) + "`";
    }
    void expect(const char* s, const char* where) {
        if (!accept(s)) fail(peek().line, std::string("expected `") + s + "` " + where + ", found " + shown(peek()));
    }
    std::string ident(const char* what) {
        if (peek().kind != Tok::Ident) fail(peek().line, std::string("expected ") + what + ", found " + shown(peek()));
        return next().s;
    }

    // A number token's value, negated after a minus sign, in the 32-bit range.
    long literal(const Tok& t, bool negate) const {
        long v = negate ? -t.num : t.num;
        if (v > INT_MAX || v < INT_MIN) fail(t.line, "bad number `" + t.s + "`; accepted: " + kNumbers);
        return v;
    }

    int add_var(const std::string& name, VarType type, int line, bool typed) {
        int i = t_.var_index(name);
        if (i < 0) {
            Var v;
            v.name = name;
            v.type = type;
            v.line = line;
            t_.vars.push_back(v);
            return (int)t_.vars.size() - 1;
        }
        if (typed) t_.vars[i].type = type;
        return i;
    }

    // A type: its words, then stars. Returns the kind a location of that type
    // (pointed to by the last star) has, and the number of stars.
    VarType type(int& stars, int line, bool param) {
        std::string base;
        while (peek().kind == Tok::Ident && is_type_word(peek().s)) {
            std::string w = next().s;
            if (w == "struct") {
                std::string tag = ident("a struct tag");
                if (tag != "srcu_struct") unsupported(line, "struct " + tag);
                base = "srcu_struct";
            } else if (w != "const" && w != "volatile" && w != "unsigned") {
                base = w;
            } else if (base.empty() && w == "unsigned") {
                base = "int";
            }
        }
        stars = 0;
        while (accept("*")) stars++;
        VarType k = VarType::Int;
        if (base == "atomic_t") k = VarType::Atomic;
        else if (base == "spinlock_t") k = VarType::Lock;
        else if (base == "srcu_struct") k = VarType::Srcu;
        if (param) {
            if (stars == 0) fail(line, "parameter without `*`; accepted: pointer parameters such as `int *x`");
            if (stars == 2 && k == VarType::Int) k = VarType::Pointer;
            else if (stars != 1) unsupported(line, std::string(stars, '*') + " parameter");
        }
        return k;
    }

    // What the srcu_* and spin_* primitives name (by the location's index):
    // herd7 gives a parameter's type no meaning, so a location is an
    // srcu_struct or a spinlock_t because a thread uses it as one, not
    // because some thread declares it so.
    std::vector<VarType> used_as_;
    void note_use(int var, VarType k, int line) {
        if ((int)used_as_.size() <= var) used_as_.resize(var + 1, VarType::Int);
        VarType& u = used_as_[var];
        if (u != VarType::Int && u != k)
            fail(line, "`" + t_.vars[var].name + "` is used both as a spinlock_t and as an srcu_struct; accepted: one of the two");
        u = k;
    }
    // Each location's kind from its use: one that no spin_* or srcu_*
    // primitive names is an int location, whatever a thread's parameter
    // calls it (C-srcue-observed-4's `struct srcu_struct *s`, only ever
    // read with READ_ONCE); one that a primitive names is what it names.
    void kinds_by_use() {
        for (size_t i = 0; i < t_.vars.size(); i++) {
            VarType u = i < used_as_.size() ? used_as_[i] : VarType::Int;
            VarType& k = t_.vars[i].type;
            if (u != VarType::Int) k = u;
            else if (k == VarType::Srcu || k == VarType::Lock) k = VarType::Int;
        }
    }

    // The initial state: `x=1; int y=2; p=x; int *q=&y; 0:r1=x;`.
    void init() {
        expect("{", "to open the initial state");
        while (!accept("}")) {
            if (accept(";")) continue;
            int line = peek().line;
            if (peek().kind == Tok::Num && is(":", 1)) {
                PendingRegInit ri;
                ri.proc = (int)next().num;
                next();
                ri.reg = ident("a register name");
                ri.line = line;
                expect("=", "in a register's initial value");
                init_value(ri.num, ri.value, ri.addr);
                reg_inits_.push_back(ri);
            } else {
                int stars = 0;
                bool typed = peek().kind == Tok::Ident && is_type_word(peek().s);
                VarType k = type(stars, line, false);
                if (typed && peek().kind == Tok::Num && is(":", 1)) {
                    // A typed register: `int * 1:r1;`, `int 0:r2 = 3;`.
                    PendingRegInit ri;
                    ri.proc = (int)next().num;
                    next();
                    ri.reg = ident("a register name");
                    ri.line = line;
                    ri.pointer = stars > 0;
                    ri.has_value = accept("=");
                    if (ri.has_value) init_value(ri.num, ri.value, ri.addr);
                    reg_inits_.push_back(ri);
                    if (!is("}")) expect(";", "after an initial value");
                    continue;
                }
                if (typed && stars == 1 && k == VarType::Int) k = VarType::Pointer;
                std::string name = ident("a location name in the initial state");
                int vi = add_var(name, k, line, typed);
                if (accept("=")) {
                    long num;
                    std::string addr;
                    bool is_addr;
                    init_value(num, addr, is_addr);
                    if (is_addr) {
                        t_.vars[vi].init_addr = addr;
                        if (!typed) t_.vars[vi].type = VarType::Pointer;
                    } else {
                        t_.vars[vi].init = num;
                    }
                }
            }
            if (!is("}")) expect(";", "after an initial value");
        }
    }
    void init_value(long& num, std::string& addr, bool& is_addr) {
        is_addr = false;
        num = 0;
        bool neg = accept("-");
        if (peek().kind == Tok::Num) {
            num = literal(next(), neg);
            return;
        }
        if (neg) fail(peek().line, "expected a number after `-`, found " + shown(peek()));
        if (accept("ATOMIC_INIT")) {
            expect("(", "after ATOMIC_INIT");
            bool n2 = accept("-");
            if (peek().kind != Tok::Num) fail(peek().line, "expected a number in ATOMIC_INIT, found " + shown(peek()));
            num = literal(next(), n2);
            expect(")", "after ATOMIC_INIT's value");
            return;
        }
        if (accept("NULL")) return;
        accept("&");
        addr = ident("an initial value (a number or a location name)");
        is_addr = true;
    }

    void body() {
        if (peek().kind == Tok::Str) next();  // herd's optional doc string
        init();
        while (peek().kind == Tok::Ident && peek().s.size() > 1 && peek().s[0] == 'P' &&
               std::isdigit((unsigned char)peek().s[1]))
            proc();
        if (t_.procs.empty()) fail(peek().line, "no P0(...) { ... } thread found, found " + shown(peek()));
        kinds_by_use();
        for (size_t i = 0; i < t_.procs.size(); i++)
            if (t_.procs[i].index != (int)i) fail(t_.procs[i].line, "threads must be P0, P1, ... in order");
        if ((int)t_.procs.size() > kMaxThreads)
            unsupported(t_.procs[kMaxThreads].line, "P" + std::to_string(kMaxThreads) + " (more than " +
                                                        std::to_string(kMaxThreads) + " threads; vfsmc runs at most " +
                                                        std::to_string(kMaxThreads) + ")");
        for (const auto& ri : reg_inits_) {
            // A register the initial state names but the body never uses
            // is declared by the initial state.
            if (ri.proc >= 0 && ri.proc < (int)t_.procs.size()) add_reg(t_.procs[ri.proc], ri.reg);
            int r = reg_of(ri.proc, ri.reg, ri.line);
            Reg& R = t_.procs[ri.proc].regs[r];
            R.given = true;
            if (ri.pointer) R.pointer = true;
            if (!ri.has_value) continue;
            if (ri.addr) {
                if (t_.var_index(ri.value) < 0) fail(ri.line, "undeclared variable `" + ri.value + "` in a register's initial value");
                R.init_addr = ri.value;
                R.pointer = true;
            } else {
                R.init = ri.num;
            }
        }
        // A name used but never assigned nor given an initial value is no
        // register the test means: most likely a location it forgot.
        for (const auto& P : t_.procs)
            for (const auto& R : P.regs)
                if (R.implicit_line && !R.given)
                    fail(R.implicit_line, "undeclared variable `" + R.name + "`: not a parameter of P" +
                                              std::to_string(P.index) + ", nor a register it assigns or the initial state sets; accepted: add `int *" +
                                              R.name + "` to P" + std::to_string(P.index) + "'s parameters, or assign the register");
        // As in herd7, a name in the initial state is a location even when
        // no thread takes it as a parameter (`p=y`: y is an int location).
        for (size_t i = 0; i < t_.vars.size(); i++)
            if (!t_.vars[i].init_addr.empty() && t_.var_index(t_.vars[i].init_addr) < 0)
                add_var(t_.vars[i].init_addr, VarType::Int, t_.vars[i].line, false);
        // Conditions: `locations [...]`, `filter (...)`, then the quantifier.
        for (;;) {
            if (accept("locations")) {
                expect("[", "after locations");
                while (!accept("]")) {
                    if (accept(";")) continue;
                    Observed o = observed_loc(true);
                    add_observed(o);
                }
                continue;
            }
            if (accept("filter")) {
                t_.filter = prop();
                continue;
            }
            break;
        }
        int line = peek().line;
        if (accept("exists")) t_.quant = Quant::Exists;
        else if (accept("~")) {
            if (!accept("exists")) fail(line, "expected `exists` after `~`, found " + shown(peek()));
            t_.quant = Quant::NotExists;
        } else if (accept("forall")) t_.quant = Quant::Forall;
        else if (peek().kind == Tok::End) fail(line, "no final condition; accepted: exists, ~exists or forall");
        else unsupported(line, peek().s);
        t_.cond = prop();
        t_.cond_text = std::string(t_.quant == Quant::Exists ? "exists" : t_.quant == Quant::NotExists ? "~exists" : "forall") +
                       " (" + render(*t_.cond, true) + ")";
        collect_observed(*t_.cond);
        accept(";");  // as herd7's condition parser takes it
        if (peek().kind != Tok::End) fail(peek().line, "unexpected " + shown(peek()) + " after the final condition");
    }

    // Thread P's register `name`, added (never assigned) if P has none.
    static Reg& add_reg(Proc& P, const std::string& name) {
        for (auto& x : P.regs)
            if (x.name == name) return x;
        Reg nr;
        nr.name = name;
        P.regs.push_back(nr);
        return P.regs.back();
    }
    int reg_of(int proc, const std::string& name, int line) const {
        if (proc < 0 || proc >= (int)t_.procs.size())
            fail(line, "bad register `" + std::to_string(proc) + ":" + name + "`: there is no thread P" + std::to_string(proc) +
                           "; accepted: P0 to P" + std::to_string((int)t_.procs.size() - 1));
        const Proc& P = t_.procs[proc];
        for (size_t i = 0; i < P.regs.size(); i++)
            if (P.regs[i].name == name) return (int)i;
        std::string have;
        for (const auto& r : P.regs) have += (have.empty() ? "" : ", ") + r.name;
        fail(line, "bad register `" + std::to_string(proc) + ":" + name + "`: P" + std::to_string(proc) +
                       " declares no such register; accepted: " + (have.empty() ? "none" : have));
    }

    void proc() {
        Proc P;
        P.line = peek().line;
        std::string pn = next().s;
        P.index = std::atoi(pn.c_str() + 1);
        expect("(", ("after " + pn).c_str());
        while (!accept(")")) {
            int line = peek().line;
            int stars = 0;
            if (!(peek().kind == Tok::Ident && is_type_word(peek().s)))
                fail(line, "expected a parameter type such as `int *x`, found " + shown(peek()));
            VarType k = type(stars, line, true);
            std::string name = ident("a parameter name");
            P.params.push_back(add_var(name, k, line, true));
            if (!is(")")) expect(",", "between parameters");
        }
        t_.procs.push_back(std::move(P));
        cur_ = &t_.procs.back();
        expect("{", ("to open " + pn + "'s body").c_str());
        while (!accept("}")) {
            auto s = stmt();
            if (s) cur_->body.push_back(std::move(s));
        }
        cur_ = nullptr;
    }

    int find_reg(const std::string& n) const {
        for (size_t i = 0; i < cur_->regs.size(); i++)
            if (cur_->regs[i].name == n) return (int)i;
        return -1;
    }

    std::unique_ptr<Stmt> stmt() {
        int line = peek().line;
        Nest nest(stmt_nest_);
        nest_check(stmt_nest_, kMaxStmtDepth, line, "a statement (blocks and ifs)");
        if (accept(";")) return nullptr;
        if (is("{")) {
            next();
            auto b = std::make_unique<Stmt>();
            b->kind = Stmt::Block;
            b->line = line;
            while (!accept("}")) {
                auto s = stmt();
                if (s) b->body.push_back(std::move(s));
            }
            return b;
        }
        if (peek().kind == Tok::Ident) {
            const std::string& w = peek().s;
            if (w == "while" || w == "for" || w == "do" || w == "switch" || w == "return" || w == "goto" ||
                w == "break" || w == "continue" || w == "case" || w == "else")
                unsupported(line, w);
            if (w == "if") {
                next();
                expect("(", "after if");
                auto s = std::make_unique<Stmt>();
                s->kind = Stmt::If;
                s->line = line;
                s->value = expr();
                expect(")", "to close the if condition");
                s->body.push_back(stmt_or_empty());
                if (accept("else")) s->body.push_back(stmt_or_empty());
                else s->body.push_back(nullptr);
                return s;
            }
            if (is_type_word(w)) return decl();
        }
        auto lhs = expr();
        if (accept("=")) {
            auto s = std::make_unique<Stmt>();
            s->line = line;
            if (lhs->kind == Expr::Reg) {
                s->kind = Stmt::Assign;
                s->reg = lhs->index;
                cur_->regs[lhs->index].given = true;
            } else if (lhs->kind == Expr::Deref) {
                s->kind = Stmt::Store;
                s->addr = std::move(lhs->args[0]);
            } else {
                fail(line, "cannot assign to this expression; accepted: a register (`r0 = ...`) or a location (`*x = ...`)");
            }
            s->value = expr();
            expect(";", "after an assignment");
            return s;
        }
        if (is("++") || is("--") || is("+=") || is("-=")) unsupported(line, peek().s);
        auto s = std::make_unique<Stmt>();
        s->kind = Stmt::Eval;
        s->line = line;
        s->value = std::move(lhs);
        expect(";", "after a statement");
        return s;
    }
    std::unique_ptr<Stmt> stmt_or_empty() {
        auto s = stmt();
        if (!s) {
            s = std::make_unique<Stmt>();
            s->kind = Stmt::Block;
        }
        return s;
    }

    std::unique_ptr<Stmt> decl() {
        int line = peek().line;
        std::string base;
        while (peek().kind == Tok::Ident && is_type_word(peek().s)) {
            std::string w = next().s;
            if (w == "atomic_t" || w == "spinlock_t" || w == "struct") unsupported(line, w + " local variable");
        }
        auto block = std::make_unique<Stmt>();
        block->kind = Stmt::Block;
        block->line = line;
        for (;;) {
            int stars = 0;
            while (accept("*")) stars++;
            if (stars > 1) unsupported(line, "** register");
            std::string name = ident("a register name");
            if (find_reg(name) >= 0) fail(line, "register `" + name + "` is declared twice in P" + std::to_string(cur_->index));
            if (t_.var_index(name) >= 0)
                for (int p : cur_->params)
                    if (t_.vars[p].name == name) fail(line, "register `" + name + "` has the name of a parameter");
            Reg R;
            R.name = name;
            R.pointer = stars == 1;
            cur_->regs.push_back(R);
            if (accept("=")) {
                auto s = std::make_unique<Stmt>();
                s->kind = Stmt::Assign;
                s->line = line;
                s->reg = (int)cur_->regs.size() - 1;
                s->value = expr();
                block->body.push_back(std::move(s));
            }
            if (accept(";")) break;
            expect(",", "between declarations");
        }
        return block;
    }

    // Expressions, by precedence.
    std::unique_ptr<Expr> expr() { return binary(0); }
    static int prec(const std::string& op) {
        static const std::map<std::string, int> p = {{"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4}, {"&", 5},
                                                     {"==", 6}, {"!=", 6}, {"<", 7}, {"<=", 7}, {">", 7},
                                                     {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9},
                                                     {"*", 10}, {"/", 10}, {"%", 10}};
        auto it = p.find(op);
        return it == p.end() ? -1 : it->second;
    }
    std::unique_ptr<Expr> binary(int min) {
        auto lhs = unary();
        for (;;) {
            const Tok& t = peek();
            if (t.kind != Tok::Punct) break;
            int pr = prec(t.s);
            if (pr < 0 || pr < min) break;
            std::string op = next().s;
            auto rhs = binary(pr + 1);
            auto e = std::make_unique<Expr>();
            e->kind = Expr::Binary;
            e->line = t.line;
            e->op = op;
            e->args.push_back(std::move(lhs));
            e->args.push_back(std::move(rhs));
            expr_depth(*e);
            lhs = std::move(e);
        }
        if (is("?")) unsupported(peek().line, "?:");
        return lhs;
    }
    std::unique_ptr<Expr> unary() {
        int line = peek().line;
        Nest nest(expr_nest_);
        nest_check(expr_nest_, kMaxExprDepth, line, "an expression");
        if (is("-") && peek(1).kind == Tok::Num) {
            // A negative literal: -2147483648 is in range, its digits alone are not.
            next();
            auto e = std::make_unique<Expr>();
            e->line = line;
            e->value = literal(next(), true);
            return e;
        }
        if (is("!") || is("-") || is("~") || is("*")) {
            std::string op = next().s;
            auto e = std::make_unique<Expr>();
            e->line = line;
            e->kind = op == "*" ? Expr::Deref : Expr::Unary;
            e->op = op;
            e->args.push_back(unary());
            expr_depth(*e);
            return e;
        }
        if (is("&")) unsupported(line, "&");
        if (is("(")) {
            next();
            if (peek().kind == Tok::Ident && is_type_word(peek().s)) {
                // A cast: `(intptr_t)r1`, `(int *)r1`, `(intptr_t **)p`.
                // Every value is one machine word here, so it changes nothing.
                cast_type(line);
                expect(")", "to close a cast");
                return unary();
            }
            auto e = expr();
            expect(")", "to close a parenthesis");
            return e;
        }
        if (peek().kind == Tok::Num) {
            auto e = std::make_unique<Expr>();
            e->line = line;
            e->value = literal(next(), false);
            return e;
        }
        if (peek().kind != Tok::Ident) fail(line, "expected an expression, found " + shown(peek()));
        std::string n = next().s;
        if (n == "NULL" || n == "false" || n == "true") {
            auto e = std::make_unique<Expr>();
            e->line = line;
            e->value = n == "true" ? 1 : 0;
            return e;
        }
        if (is("(")) return call(n, line);
        if (is("->") || is(".") || is("[")) unsupported(line, n + peek().s);
        int r = find_reg(n);
        auto e = std::make_unique<Expr>();
        e->line = line;
        if (r >= 0) {
            e->kind = Expr::Reg;
            e->index = r;
            return e;
        }
        for (int p : cur_->params)
            if (t_.vars[p].name == n) {
                e->kind = Expr::VarAddr;
                e->index = p;
                return e;
            }
        if (t_.var_index(n) >= 0)
            fail(line, "undeclared variable `" + n + "`: not a parameter of P" + std::to_string(cur_->index) +
                           " nor one of its registers; accepted: add it to P" + std::to_string(cur_->index) + "'s parameters");
        // As herd7 does, a name that is neither a parameter nor a location
        // of the test is a register of this thread, declared by its first
        // use (starting at 0, as every register does).
        Reg R;
        R.name = n;
        R.implicit_line = line;
        cur_->regs.push_back(R);
        e->kind = Expr::Reg;
        e->index = (int)cur_->regs.size() - 1;
        return e;
    }
    // The type of a cast, after its `(`: type words (a struct tag after
    // `struct`), then stars.
    void cast_type(int line) {
        while (peek().kind == Tok::Ident && is_type_word(peek().s)) {
            if (next().s == "struct") ident("a struct tag");
        }
        while (accept("*")) {
        }
        if (!is(")")) fail(line, "expected `)` to close a cast, found " + shown(peek()) + "; accepted: `(intptr_t)`, `(int *)` ...");
    }

    std::unique_ptr<Expr> call(const std::string& n, int line) {
        auto it = functions().find(n);
        if (it == functions().end()) unsupported(line, n);
        const Named& f = it->second;
        expect("(", "after a function name");
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Call;
        e->line = line;
        e->fn = f.fn;
        e->name = n;
        e->order = f.order;
        e->arith = f.arith;
        e->ret = f.ret;
        e->imm = f.imm;
        e->has_imm = f.has_imm;
        while (!accept(")")) {
            e->args.push_back(expr());
            if (!is(")")) expect(",", "between arguments");
        }
        if ((int)e->args.size() != f.nargs)
            fail(line, n + " takes " + std::to_string(f.nargs) + " argument" + (f.nargs == 1 ? "" : "s") + ", given " +
                           std::to_string(e->args.size()));
        // The location argument: `*x` for the ONCE and RCU-pointer forms, a
        // pointer for the rest (as in the kernel).
        bool star = f.fn == Fn::ReadOnce || f.fn == Fn::WriteOnce || f.fn == Fn::RcuDereference ||
                    f.fn == Fn::RcuAssignPointer || f.fn == Fn::StoreMb;
        if (star) {
            if (e->args[0]->kind != Expr::Deref)
                fail(line, n + " needs a dereferenced location as its first argument; accepted: " + n + "(*x" +
                               (f.nargs == 2 ? ", v)" : ")"));
            auto inner = std::move(e->args[0]->args[0]);
            e->args[0] = std::move(inner);
        }
        expr_depth(*e);  // of the tree the interpreter walks (`*x` stripped)
        // The location is the last argument of atomic_add(i, v) and friends.
        int loc = -1;
        switch (f.fn) {
            case Fn::Mb: case Fn::Rmb: case Fn::Wmb: case Fn::MbBeforeAtomic: case Fn::MbAfterAtomic:
            case Fn::MbAfterSpinlock: case Fn::MbAfterUnlockLock: case Fn::RcuReadLock: case Fn::RcuReadUnlock:
            case Fn::SynchronizeRcu: case Fn::MbAfterSrcuReadUnlock: case Fn::Barrier:
                break;
            case Fn::AtomicOp: case Fn::AtomicOpReturn:
                loc = (int)e->args.size() - 1;
                break;
            default:
                loc = 0;
        }
        if (loc >= 0 && e->args[loc]->kind == Expr::Const)
            fail(line, n + ": a number is not a location; accepted: a location parameter or a pointer register");
        if (f.fn == Fn::SpinLock || f.fn == Fn::SpinUnlock || f.fn == Fn::SpinTrylock || f.fn == Fn::SpinIsLocked) {
            if (e->args[0]->kind != Expr::VarAddr || t_.vars[e->args[0]->index].type != VarType::Lock)
                fail(line, n + " needs a spinlock_t parameter; accepted: `spinlock_t *s` in the thread's parameters");
            note_use(e->args[0]->index, VarType::Lock, line);
        }
        if (f.fn == Fn::SrcuReadLock || f.fn == Fn::SrcuReadUnlock || f.fn == Fn::SynchronizeSrcu ||
            f.fn == Fn::SrcuDownRead || f.fn == Fn::SrcuUpRead) {
            if (e->args[0]->kind != Expr::VarAddr || t_.vars[e->args[0]->index].type != VarType::Srcu)
                fail(line, n + " needs a struct srcu_struct parameter; accepted: `struct srcu_struct *s`");
            note_use(e->args[0]->index, VarType::Srcu, line);
            t_.uses_srcu = true;
            if (f.fn == Fn::SrcuReadLock || f.fn == Fn::SrcuDownRead) t_.vars[e->args[0]->index].srcu_sections = true;
        }
        if (f.fn == Fn::RcuReadLock) t_.rcu_sections = true;
        if (f.fn == Fn::RcuReadLock || f.fn == Fn::RcuReadUnlock || f.fn == Fn::SynchronizeRcu) t_.uses_rcu = true;
        if (f.fn == Fn::MbBeforeAtomic || f.fn == Fn::MbAfterAtomic || f.fn == Fn::MbAfterSpinlock ||
            f.fn == Fn::MbAfterUnlockLock || f.fn == Fn::MbAfterSrcuReadUnlock)
            t_.uses_special_barriers = true;
        return e;
    }

    // Conditions.
    std::unique_ptr<Prop> prop() { return disj(); }
    std::unique_ptr<Prop> disj() {
        auto l = conj();
        while (accept("\\/")) {
            auto p = std::make_unique<Prop>();
            p->kind = Prop::Or;
            p->kids.push_back(std::move(l));
            p->kids.push_back(conj());
            prop_depth(*p, peek().line);
            l = std::move(p);
        }
        return l;
    }
    std::unique_ptr<Prop> conj() {
        auto l = patom();
        while (accept("/\\")) {
            auto p = std::make_unique<Prop>();
            p->kind = Prop::And;
            p->kids.push_back(std::move(l));
            p->kids.push_back(patom());
            prop_depth(*p, peek().line);
            l = std::move(p);
        }
        return l;
    }
    // `listed`: an entry of `locations [...]`, which only adds to what the
    // final states print. There a register its thread never declares nor
    // uses is a register of that thread that nothing writes, so it prints
    // as 0, as herd7 runs such a test (paulmckrcu/litmus's
    // C-srcu-nest-6 lists 0:r1, which only P1 has); in the condition it
    // stays an error, since a misspelt register there would change the
    // answer.
    Observed observed_loc(bool listed = false) {
        int line = peek().line;
        Observed o;
        if (peek().kind == Tok::Num && is(":", 1)) {
            o.proc = (int)next().num;
            next();
            std::string r = ident("a register name");
            if (listed && o.proc >= 0 && o.proc < (int)t_.procs.size() && t_.var_index(r) < 0)
                add_reg(t_.procs[o.proc], r);
            o.index = reg_of(o.proc, r, line);
            return o;
        }
        accept("*");
        // herd7 also writes a location as `[x]`.
        bool bracket = accept("[");
        std::string n = ident("a location or a register (N:rK)");
        if (bracket) expect("]", "to close `[location]`");
        o.index = t_.var_index(n);
        if (o.index < 0)
            fail(line, "undeclared variable `" + n + "` in the condition; accepted: a location of the test or N:register");
        return o;
    }
    std::unique_ptr<Prop> patom() {
        int line = peek().line;
        Nest nest(prop_nest_);
        nest_check(prop_nest_, kMaxPropDepth, line, "the condition");
        auto p = std::make_unique<Prop>();
        if (accept("~") || accept("not")) {
            p->kind = Prop::Not;
            p->kids.push_back(patom());
            prop_depth(*p, line);
            return p;
        }
        if (accept("(")) {
            auto q = prop();
            expect(")", "to close a parenthesis in the condition");
            return q;
        }
        if (accept("true")) { p->kind = Prop::True; return p; }
        if (accept("false")) { p->kind = Prop::False; return p; }
        Observed o = observed_loc();
        p->kind = Prop::Eq;
        p->proc = o.proc;
        p->index = o.index;
        if (accept("!=")) p->negate = true;
        else if (!accept("=") && !accept("==")) fail(line, "expected `=` in the condition, found " + shown(peek()));
        if (peek().kind == Tok::Num && is(":", 1)) {
            // Another register: `0:r1=1:r1`, `x=0:r1`.
            Observed r = observed_loc();
            p->rproc = r.proc;
            p->rindex = r.index;
            return p;
        }
        bool neg = accept("-");
        if (peek().kind == Tok::Num) {
            p->value = literal(next(), neg);
        } else if (accept("NULL")) {
            p->value = 0;
        } else {
            std::string n = ident("a value (a number, a location name or N:register)");
            p->value_addr = t_.var_index(n);
            if (p->value_addr < 0)
                fail(line, "undeclared variable `" + n + "` in the condition; accepted: a number, a location of the test or N:register");
            // A register compared with a location's address holds pointers:
            // its values print as location names.
            if (p->proc >= 0) t_.procs[p->proc].regs[p->index].pointer = true;
        }
        return p;
    }
    std::string obs_name(int proc, int index) const {
        return proc >= 0 ? std::to_string(proc) + ":" + t_.procs[proc].regs[index].name : t_.vars[index].name;
    }
    std::string render(const Prop& p, bool top) const {
        switch (p.kind) {
            case Prop::True: return "true";
            case Prop::False: return "false";
            case Prop::Not: return "~" + render(*p.kids[0], false);
            case Prop::And: case Prop::Or: {
                // `a /\ b /\ c` is written flat, as herd7 prints it.
                auto kid = [&](const Prop& k) { return render(k, k.kind == p.kind); };
                std::string s = kid(*p.kids[0]) + (p.kind == Prop::And ? " /\\ " : " \\/ ") + kid(*p.kids[1]);
                return top ? s : "(" + s + ")";
            }
            case Prop::Eq:
                return obs_name(p.proc, p.index) + (p.negate ? "!=" : "=") +
                       (p.rindex >= 0 ? obs_name(p.rproc, p.rindex)
                        : p.value_addr >= 0 ? t_.vars[p.value_addr].name : std::to_string(p.value));
        }
        return "?";
    }
    void add_observed(Observed o) {
        for (const auto& x : t_.observed)
            if (x.proc == o.proc && x.index == o.index) return;
        t_.observed.push_back(o);
    }
    void collect_observed(const Prop& p) {
        if (p.kind == Prop::Eq) add_observed({p.proc, p.index});
        if (p.kind == Prop::Eq && p.rindex >= 0) add_observed({p.rproc, p.rindex});
        for (const auto& k : p.kids) collect_observed(*k);
    }
};

}  // namespace

Test parse(const std::string& file, const std::string& text) { return Parser(file, text).run(); }

std::string read_test(const std::string& file) {
    return read_input_file(file, kMaxTestBytes, "herd7 C litmus test (*.litmus)");
}

Test parse_file(const std::string& file) { return parse(file, read_test(file)); }

}  // namespace litmus
}  // namespace vfsmc
