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

// The longest error line printed (bytes, after escaping).
constexpr size_t kMaxErrorLine = 1000;

// An error message as the one line printed for it: printable(), and if
// longer than kMaxErrorLine, cut in the middle so that the line still ends
// with what is accepted (its last "accepted: ..." part, itself cut to half
// the line), with "..." where text was left out.
std::string error_line(const std::string& msg);

// A dumped JSON text with what JSON leaves raw escaped as \uNNNN: DEL,
// C1 controls and bidirectional formatting characters (they can only occur
// inside strings, so the text stays the same JSON value).
std::string json_printable(const std::string& dumped);

// A shell word for a printed command: `s` itself when it holds only
// characters no shell treats specially, else single-quoted; printable().
std::string shell_word(const std::string& s);

// printable() line by line: newlines kept, each line cut at `max_line`.
std::string printable_lines(const std::string& in, size_t max_line = 2000);

}  // namespace vfsmc
