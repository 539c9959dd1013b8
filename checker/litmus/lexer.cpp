// vfsmc litmus: the tokenizer (lexer.h).
#include "litmus/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "base/errors.h"

namespace vfsmc {
namespace litmus {

const char* const kNumbers = "decimal or 0x hexadecimal integers from -2147483648 to 2147483647";

std::vector<Tok> tokenize(const std::string& file, const std::string& s, int start_line,
                      const std::function<void(const std::string&)>& comment_text,
                      std::vector<std::pair<std::string, std::string>>& info) {
auto fail = [&](int line, const std::string& what) { throw LoadError(file + ":" + std::to_string(line) + ": " + what); };
std::vector<Tok> toks_;
int line = start_line;
    int depth = 0;  // braces and parentheses: `(*` opens a comment only outside code
    bool seen_brace = false;  // the initial state has begun: no more header lines
    // In the final condition (from `exists`, `forall`, `filter` or
    // `locations` outside braces on), `(*` always opens a comment, as in
    // herd7's condition lexer: `exists (0:r0=1 \/ (* why *) 1:r0=1)`.
    bool in_cond = false;
    // In the initial state (the first braces, outside code) too: `{ int
    // *x=y; (* x points at y *) }`.
    bool in_init = false;
    size_t i = 0;
    auto push = [&](Tok::Kind k, std::string v, long num = 0) { toks_.push_back({k, std::move(v), num, line}); };
    while (i < s.size()) {
        char c = s[i];
        if (c == '\n') { line++; i++; continue; }
        if (std::isspace((unsigned char)c)) { i++; continue; }
        // `(*` opens an OCaml comment outside code, and never right
        // after a name (`READ_ONCE(*x)` is a call).
        bool after_name = !toks_.empty() && toks_.back().kind == Tok::Ident && toks_.back().line == line;
        if ((in_cond || in_init || (depth == 0 && !after_name)) && c == '(' && i + 1 < s.size() && s[i + 1] == '*') {
            int start = line, nest = 0;
            size_t j = i;
            for (; j + 1 < s.size(); j++) {
                if (s[j] == '\n') line++;
                if (s[j] == '(' && s[j + 1] == '*') { nest++; j++; }
                else if (s[j] == '*' && s[j + 1] == ')') { if (--nest == 0) break; j++; }
            }
            if (nest != 0) fail(start, "unterminated comment `(*`; accepted: `(* ... *)`");
            comment_text(s.substr(i, j + 2 - i));
            i = j + 2;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            size_t j = s.find("*/", i + 2);
            if (j == std::string::npos) fail(line, "unterminated comment `/*`; accepted: `/* ... */`");
            std::string cm = s.substr(i, j + 2 - i);
            comment_text(cm);
            for (char x : cm) line += x == '\n';
            i = j + 2;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            size_t j = s.find('\n', i);
            if (j == std::string::npos) j = s.size();
            comment_text(s.substr(i, j - i));
            i = j;
            continue;
        }
        if (std::isalpha((unsigned char)c) || c == '_') {
            size_t j = i;
            while (j < s.size() && (std::isalnum((unsigned char)s[j]) || s[j] == '_')) j++;
            // A diy7 header line before the initial state: `Key=value`
            // alone on its line (Cycle=, Relax=, Safe=, Prefetch=, Com=,
            // Orig=, Hash=, Generator= ...). Kept, not interpreted.
            bool line_start = toks_.empty() || toks_.back().line != line;
            size_t eq = s.find_first_not_of(" \t", j);
            if (!seen_brace && line_start && eq != std::string::npos && s[eq] == '=' &&
                (eq + 1 >= s.size() || s[eq + 1] != '=')) {
                size_t end = s.find('\n', eq);
                if (end == std::string::npos) end = s.size();
                std::string v = s.substr(eq + 1, end - eq - 1);
                v.erase(0, v.find_first_not_of(" \t"));
                v.erase(v.find_last_not_of(" \t\r") + 1);
                info.push_back({s.substr(i, j - i), v});
                i = end;
                continue;
            }
            push(Tok::Ident, s.substr(i, j - i));
            const std::string& w = toks_.back().s;
            if (depth == 0 && seen_brace && (w == "exists" || w == "forall" || w == "filter" || w == "locations"))
                in_cond = true;
            i = j;
            continue;
        }
        if (std::isdigit((unsigned char)c)) {
            size_t j = i;
            while (j < s.size() && std::isalnum((unsigned char)s[j])) j++;
            std::string num = s.substr(i, j - i);
            char* end = nullptr;
            errno = 0;
            long v = std::strtol(num.c_str(), &end, 0);
            if (*end || errno == ERANGE || v > kMaxLiteral)
                fail(line, "bad number `" + num.substr(0, 40) + (num.size() > 40 ? "..." : "") + "`; accepted: " + kNumbers);
            push(Tok::Num, num, v);
            i = j;
            continue;
        }
        if (c == '"') {
            size_t j = s.find('"', i + 1);
            if (j == std::string::npos) fail(line, "unterminated string; accepted: \"...\"");
            push(Tok::Str, s.substr(i + 1, j - i - 1));
            i = j + 1;
            continue;
        }
        static const char* two[] = {"/\\", "\\/", "==", "!=", "<=", ">=", "&&", "||", "->", "<<", ">>", "++", "--", "+=", "-="};
        bool done = false;
        for (const char* t : two)
            if (s.compare(i, 2, t) == 0) {
                push(Tok::Punct, t);
                i += 2;
                done = true;
                break;
            }
        if (done) continue;
        if (c == '{' && !seen_brace && depth == 0) in_init = true;
        if (c == '{') seen_brace = true;
        if (c == '{' || c == '(' || c == '[') depth++;
        if (c == '}' || c == ')' || c == ']') depth = depth > 0 ? depth - 1 : 0;
        if (c == '}' && depth == 0) in_init = false;
        push(Tok::Punct, std::string(1, c));
        i++;
    }
    toks_.push_back({Tok::End, "", 0, line});
    return toks_;
}


// Braces and parentheses are balanced, or one line names the first that is not.
void balance(const std::string& file, const std::vector<Tok>& toks_) {
    auto fail = [&](int line, const std::string& what) { throw LoadError(file + ":" + std::to_string(line) + ": " + what); };
    std::vector<const Tok*> st;
    for (const Tok& t : toks_) {
        if (t.kind != Tok::Punct) continue;
        if (t.s == "{" || t.s == "(" || t.s == "[") st.push_back(&t);
        else if (t.s == "}" || t.s == ")" || t.s == "]") {
            char open = t.s == "}" ? '{' : t.s == ")" ? '(' : '[';
            if (st.empty())
                fail(t.line, "unbalanced braces: `" + t.s + "` has no matching `" + std::string(1, open) + "`");
            if (st.back()->s[0] != open)
                fail(t.line, "unbalanced braces: `" + t.s + "` closes `" + st.back()->s + "` opened at line " +
                                 std::to_string(st.back()->line));
            st.pop_back();
        }
    }
    if (!st.empty())
        fail(st.back()->line, "unbalanced braces: `" + st.back()->s + "` is never closed");
}

}  // namespace litmus
}  // namespace vfsmc
