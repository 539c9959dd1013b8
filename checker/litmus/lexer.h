// vfsmc litmus: the tokens of a herd7 C litmus test (the parser's input,
// parser.cpp). Comments go to the caller (their Result: and vfsmc: lines),
// diy7's header lines (`Cycle=...`) are kept as they are.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vfsmc {
namespace litmus {

struct Tok {
    enum Kind { Ident, Num, Punct, Str, End } kind = End;
    std::string s;
    long num = 0;
    int line = 0;
};

// Every location holds a 32-bit int, so every literal is one: 2147483648 is
// read only as the operand of a minus sign.
constexpr long kMaxLiteral = 2147483648L;
extern const char* const kNumbers;

// The tokens of `text` from line `start_line` on, ending with Tok::End.
// Throws LoadError ("file:line: ..."): an unterminated comment or string, a
// bad number.
std::vector<Tok> tokenize(const std::string& file, const std::string& text, int start_line,
                          const std::function<void(const std::string&)>& comment_text,
                          std::vector<std::pair<std::string, std::string>>& info);
// Braces, parentheses and brackets are balanced, or one LoadError names
// the first that is not.
void balance(const std::string& file, const std::vector<Tok>& toks);

}  // namespace litmus
}  // namespace vfsmc
