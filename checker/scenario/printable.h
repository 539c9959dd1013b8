// vfsmc: text that goes to a terminal. Scenario files, file names and
// tokens are untrusted: a newline would break a one-line error, a NUL would
// cut it, and ANSI escapes or U+202E (right-to-left override) would rewrite
// what the reader sees. Everything printed for a human goes through here;
// the HTML and JSON renderers escape for their own formats.
#pragma once

#include <string>

namespace vfsmc {

// `in` with every control character (C0, DEL, C1), every bidirectional
// formatting character (U+202A..U+202E, U+2066..U+2069) and every byte
// that is not valid UTF-8 written as \xNN or \u{NNNN}. Printable UTF-8 is
// kept. If `max` is nonzero and the result is longer than `max` bytes, it is
// cut (never inside a character or an escape) and "...(N bytes)" added.
std::string printable(const std::string& in, size_t max = 0);

// The default cut for a value quoted in a one-line message.
constexpr size_t kMaxShownValue = 80;
// The cut for a file name in a message.
constexpr size_t kMaxShownFile = 200;

// printable() line by line: newlines kept, each line cut at `max_line`.
std::string printable_lines(const std::string& in, size_t max_line = 2000);

}  // namespace vfsmc
