// The litmus parser's one-line errors and the interpreter's answers on the
// classic shapes (vfsmc litmus, issue 12).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "litmus/litmus.h"
#include "litmus/parser.h"
#include "scenario/scenario.h"

using namespace vfsmc;
using namespace vfsmc::litmus;

static const char* kMp = R"(C MP+test

(* Result: Sometimes *)

{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*y, 1);
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*y);
	r1 = READ_ONCE(*x);
}

exists (1:r0=1 /\ 1:r1=0)
)";

static std::string replace(std::string s, const std::string& from, const std::string& to) {
    auto p = s.find(from);
    REQUIRE(p != std::string::npos);
    return s.replace(p, from.size(), to);
}

// The LoadError text of parsing `text`, or "" when it parses.
static std::string parse_error(const std::string& text) {
    try {
        parse("t.litmus", text);
    } catch (const LoadError& e) {
        return e.what();
    }
    return "";
}

static void one_line(const std::string& e) {
    CHECK(!e.empty());
    CHECK(e.find('\n') == std::string::npos);
}

TEST_CASE("a well-formed litmus test parses, with its Result and condition", "[litmus]") {
    Test t = parse("t.litmus", kMp);
    CHECK(t.name == "MP+test");
    CHECK(t.expected == Answer::Sometimes);
    CHECK(t.procs.size() == 2);
    CHECK(t.vars.size() == 2);
    CHECK(t.cond_text == "exists (1:r0=1 /\\ 1:r1=0)");
    CHECK(t.observed.size() == 2);
}

TEST_CASE("an unknown construct is one line naming the file, the line and the construct", "[litmus][errors]") {
    std::string e = parse_error(replace(kMp, "WRITE_ONCE(*y, 1);", "smp_store_mb(*y, 1);"));
    one_line(e);
    CHECK(e.rfind("t.litmus:10: unsupported construct `smp_store_mb`", 0) == 0);
    CHECK_THAT(e, Catch::Contains("accepted: READ_ONCE"));
    // A loop is a construct outside the set too.
    e = parse_error(replace(kMp, "r1 = READ_ONCE(*x);", "while (r0) r1 = READ_ONCE(*x);"));
    one_line(e);
    CHECK(e.rfind("t.litmus:19: unsupported construct `while`", 0) == 0);
}

TEST_CASE("a bad register in the condition names the thread's registers", "[litmus][errors]") {
    std::string e = parse_error(replace(kMp, "1:r1=0", "1:r7=0"));
    one_line(e);
    CHECK(e.rfind("t.litmus:22: bad register `1:r7`", 0) == 0);
    CHECK_THAT(e, Catch::Contains("accepted: r0, r1"));
    e = parse_error(replace(kMp, "1:r1=0", "5:r1=0"));
    one_line(e);
    CHECK_THAT(e, Catch::Contains("bad register `5:r1`: there is no thread P5"));
}

TEST_CASE("an undeclared variable is named with its line", "[litmus][errors]") {
    // A location the thread does not take as a parameter.
    std::string e = parse_error(replace(kMp, "r1 = READ_ONCE(*x);", "r1 = READ_ONCE(*z);"));
    one_line(e);
    CHECK(e.rfind("t.litmus:19: undeclared variable `z`", 0) == 0);
    // A register used before its declaration.
    e = parse_error(replace(kMp, "WRITE_ONCE(*x, 1);", "WRITE_ONCE(*x, r5);"));
    one_line(e);
    CHECK(e.rfind("t.litmus:9: undeclared variable `r5`", 0) == 0);
    // A location in the condition that the test does not have.
    e = parse_error(replace(kMp, "1:r1=0)", "1:r1=0 /\\ w=1)"));
    one_line(e);
    CHECK_THAT(e, Catch::Contains("undeclared variable `w` in the condition"));
}

TEST_CASE("unbalanced braces are named where they start", "[litmus][errors]") {
    std::string e = parse_error(replace(kMp, "\tWRITE_ONCE(*y, 1);\n}", "\tWRITE_ONCE(*y, 1);\n"));
    one_line(e);
    CHECK(e.rfind("t.litmus:", 0) == 0);
    CHECK_THAT(e, Catch::Contains("unbalanced braces"));
    e = parse_error(replace(kMp, "\tint r0;", "\tint r0;\n}"));
    one_line(e);
    CHECK_THAT(e, Catch::Contains("unbalanced braces"));
    e = parse_error(replace(kMp, "r0 = READ_ONCE(*y);", "r0 = READ_ONCE(*y;"));
    one_line(e);
    CHECK_THAT(e, Catch::Contains("unbalanced braces"));
}

TEST_CASE("more than four threads is unsupported, not a wrong answer", "[litmus][errors]") {
    std::string t = kMp;
    std::string extra;
    for (int i = 2; i <= 4; i++) extra += "P" + std::to_string(i) + "(int *x)\n{\n\tWRITE_ONCE(*x, 2);\n}\n\n";
    t = replace(t, "exists", extra + "exists");
    std::string e = parse_error(t);
    one_line(e);
    CHECK_THAT(e, Catch::Contains("unsupported construct `P4"));
}

TEST_CASE("message passing: Sometimes without ordering, Never with release/acquire", "[litmus]") {
    Outcome o = run(parse("t.litmus", kMp), kMp, Options());
    CHECK(o.error.empty());
    CHECK(o.answer == Answer::Sometimes);
    CHECK(o.validated);
    CHECK(o.positive > 0);
    CHECK(o.states.size() == 4);
    std::string ra = replace(replace(kMp, "WRITE_ONCE(*y, 1);", "smp_store_release(y, 1);"), "r0 = READ_ONCE(*y);",
                             "r0 = smp_load_acquire(y);");
    Outcome o2 = run(parse("t.litmus", ra), ra, Options());
    CHECK(o2.answer == Answer::Never);
    CHECK(!o2.validated);
    CHECK(o2.positive == 0);
    CHECK(o2.states.size() == 3);
}

TEST_CASE("the witness (--witness) is a trace that ends in the satisfying state", "[litmus]") {
    Options opt;
    opt.witness = true;
    Outcome o = run(parse("t.litmus", kMp), kMp, opt);
    REQUIRE(o.has_witness);
    CHECK(o.witness.invariant == "litmus-condition");
    CHECK_THAT(o.witness.message, Catch::Contains("1:r0=1; 1:r1=0;"));
    REQUIRE(o.witness.trace);
    CHECK(o.witness.trace->nevents >= 4);
}

TEST_CASE("smp_mb__before_atomic orders nothing without an atomic after it", "[litmus][memory-model]") {
    std::string sb = R"(C SB
{}
P0(int *x, int *y, atomic_t *v)
{
	int r0;
	WRITE_ONCE(*x, 1);
	smp_mb__before_atomic();
	ATOMIC
	r0 = READ_ONCE(*y);
}
P1(int *x, int *y)
{
	int r1;
	WRITE_ONCE(*y, 1);
	smp_mb();
	r1 = READ_ONCE(*x);
}
exists (0:r0=0 /\ 1:r1=0)
)";
    std::string without = replace(sb, "ATOMIC", "");
    std::string with = replace(sb, "ATOMIC", "atomic_inc(v);");
    CHECK(run(parse("t.litmus", without), without, Options()).answer == Answer::Sometimes);
    CHECK(run(parse("t.litmus", with), with, Options()).answer == Answer::Never);
}

TEST_CASE("docs/memory-model.md carries the litmus agreement table", "[litmus][memory-model]") {
    std::ifstream in(std::string(VFSMC_SOURCE_DIR) + "/docs/memory-model.md");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string doc = ss.str();
    // The table as `vfsmc litmus --check --table litmus/` prints it.
    std::string cmd = std::string(VFSMC_BINARY) + " litmus --check --table " + VFSMC_SOURCE_DIR + "/litmus";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string table;
    char buf[512];
    while (fgets(buf, sizeof buf, p)) table += buf;
    REQUIRE(pclose(p) == 0);
    REQUIRE(table.size() > 1000);
    CHECK_THAT(doc, Catch::Contains(table));
}

TEST_CASE("negated exists and forall: the answer is about the proposition, Ok/No about the quantifier", "[litmus]") {
    std::string ne = replace(kMp, "exists (", "~exists (");
    Test t = parse("t.litmus", ne);
    Outcome o = run(t, ne, Options());
    CHECK(o.answer == Answer::Sometimes);
    CHECK(!o.validated);
    std::string h = herd_report(t, o, true);
    CHECK_THAT(h, Catch::StartsWith("Test MP+test Forbidden\n"));
    CHECK_THAT(h, Catch::Contains("\nNo\n"));
    CHECK_THAT(h, Catch::Contains("Observation MP+test Sometimes "));
    // Every execution ends with both stores done.
    std::string fa = replace(kMp, "exists (1:r0=1 /\\ 1:r1=0)", "forall (x=1 /\\ y=1)");
    Test t2 = parse("t.litmus", fa);
    Outcome o2 = run(t2, fa, Options());
    CHECK(o2.answer == Answer::Always);
    CHECK(o2.validated);
    CHECK(o2.negative == 0);
    CHECK_THAT(herd_report(t2, o2, true), Catch::StartsWith("Test MP+test Required\n"));
}

TEST_CASE("a NUL byte after the first line is a bad token, not the end of the test", "[litmus][errors]") {
    std::string text = kMp;
    text.insert(text.find("exists"), std::string("\0", 1));
    std::string e = parse_error(text);
    one_line(e);
    // The NUL is named (escaped), and the line is not cut at it.
    CHECK(e == "t.litmus:22: unsupported construct `\\x00`; accepted: READ_ONCE, WRITE_ONCE, smp_load_acquire, "
               "smp_store_release, smp_mb, smp_rmb, smp_wmb, smp_mb__{before,after}_atomic, smp_mb__after_spinlock, "
               "smp_mb__after_unlock_lock, spin_{lock,unlock,trylock,is_locked}, rcu_read_{lock,unlock}, synchronize_rcu, "
               "rcu_dereference, rcu_assign_pointer, srcu_read_{lock,unlock}, synchronize_srcu, atomic_t ops, xchg, "
               "cmpxchg, if/else");
}

TEST_CASE("Result: and vfsmc: are read from comments of any length by a linear scan", "[litmus]") {
    std::string pad(200000, 'a');
    std::string text = replace(kMp, "(* Result: Sometimes *)",
                               "// Result: (" + pad + "\n(* Result: Never *)\n// vfsmc: Never (" + pad +
                                   "\n// vfsmc: Sometimes (load buffering)");
    Test t = parse("t.litmus", text);
    // A `Result:` without a word and a `vfsmc:` without its `)` are passed
    // over, as the regular expressions did.
    CHECK(t.result_text == "Never");
    CHECK(t.vfsmc_class == "load buffering");
    CHECK(t.vfsmc_answer == Answer::Sometimes);
}

TEST_CASE("nesting past a limit is one line naming the limit; a deep left-assoc chain counts as deep", "[litmus][errors]") {
    std::string chain = "r0";
    for (int i = 0; i < 60; i++) chain += " + r0";
    std::string e = parse_error(replace(kMp, "r1 = READ_ONCE(*x);", "r1 = " + chain + ";"));
    one_line(e);
    CHECK(e == "t.litmus:19: an expression nested deeper than 48 levels; accepted: at most 48 levels");
    std::string ifs;
    for (int i = 0; i < 17; i++) ifs += "if (r0) ";
    e = parse_error(replace(kMp, "r1 = READ_ONCE(*x);", ifs + "r1 = 1;"));
    CHECK(e == "t.litmus:19: a statement (blocks and ifs) nested deeper than 16 levels; accepted: at most 16 levels");
}

TEST_CASE("a literal outside the 32 bits of a location is rejected, -2147483648 is accepted", "[litmus][errors]") {
    CHECK(parse_error(replace(kMp, "WRITE_ONCE(*x, 1)", "WRITE_ONCE(*x, 2147483648)")) ==
          "t.litmus:9: bad number `2147483648`; accepted: decimal or 0x hexadecimal integers from -2147483648 to 2147483647");
    CHECK(parse_error(replace(kMp, "WRITE_ONCE(*x, 1)", "WRITE_ONCE(*x, 99999999999999999999)")).find("bad number") !=
          std::string::npos);
    CHECK(parse_error(replace(kMp, "WRITE_ONCE(*x, 1)", "WRITE_ONCE(*x, -2147483648)")).empty());
    CHECK(parse_error(replace(kMp, "exists (1:r0=1", "exists (1:r0=-2147483649")).find("bad number") != std::string::npos);
}

TEST_CASE("arithmetic that leaves 32 bits or divides by zero is one line, never a signal", "[litmus][errors]") {
    const char* cases[][2] = {
        {"r0 = -2147483648 / -1;", "computes -2147483648 / -1, which overflows"},
        {"r0 = -2147483648 % -1 + 1 / 0;", "divides by zero (1 / 0)"},
        {"r0 = 1 << 32;", "shifts by 32 (1 << 32)"},
        {"r0 = 65536 * 65536;", "computes 65536 * 65536, which overflows"},
    };
    for (const auto& c : cases) {
        std::string text = replace(kMp, "r0 = READ_ONCE(*y);", c[0]);
        Test t = parse("t.litmus", text);
        Outcome o = run(t, text, Options());
        INFO(c[0]);
        CHECK(o.error.find(c[1]) != std::string::npos);
        CHECK(o.error.find("; accepted: ") != std::string::npos);
        CHECK(o.error.find('\n') == std::string::npos);
    }
}
