// vfsmc: text that goes to a terminal (see printable.h).
#include "base/printable.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace vfsmc {

namespace {

// The length of the valid UTF-8 sequence at in[i], or 0.
size_t utf8_len(const std::string& in, size_t i, unsigned& cp) {
    unsigned char c = (unsigned char)in[i];
    size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (!n || i + n > in.size()) return 0;
    cp = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    for (size_t k = 1; k < n; k++) {
        unsigned char d = (unsigned char)in[i + k];
        if ((d & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (d & 0x3f);
    }
    // Overlong forms, surrogates and values past U+10FFFF.
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

bool hidden(unsigned cp) {
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x200e || cp == 0x200f || cp == 0x061c || cp == 0xfeff;
}

}  // namespace

std::string printable(const std::string& in, size_t max) {
    std::string out;
    size_t i = 0;
    char buf[16];
    for (; i < in.size(); i++) {
        if (max && out.size() >= max) break;
        unsigned char c = (unsigned char)in[i];
        if (c >= 0x20 && c < 0x7f) {
            out += (char)c;
            continue;
        }
        unsigned cp = 0;
        size_t n = c >= 0x80 ? utf8_len(in, i, cp) : 0;
        if (n && !hidden(cp)) {
            out.append(in, i, n);
            i += n - 1;
        } else if (n) {
            std::snprintf(buf, sizeof buf, "\\u{%04X}", cp);
            out += buf;
            i += n - 1;
        } else {
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    if (i < in.size()) out += "...(" + std::to_string(in.size()) + " bytes)";
    return out;
}

std::string json_printable(const std::string& in) {
    std::string out;
    char buf[16];
    for (size_t i = 0; i < in.size(); i++) {
        unsigned char c = (unsigned char)in[i];
        unsigned cp = 0;
        size_t n = c >= 0x80 ? utf8_len(in, i, cp) : 0;
        if (c == 0x7f || (n && hidden(cp))) {
            std::snprintf(buf, sizeof buf, "\\u%04x", c == 0x7f ? 0x7fu : cp);
            out += buf;
            i += n ? n - 1 : 0;
        } else {
            out += (char)c;
        }
    }
    return out;
}

std::string shell_word(const std::string& s) {
    bool plain = !s.empty();
    for (unsigned char c : s) plain &= std::isalnum(c) || std::strchr("_./-+=:,@%", c);
    if (plain) return s;
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return printable(q + "'");
}

std::string error_line(const std::string& msg) {
    std::string line = printable(msg);
    if (line.size() <= kMaxErrorLine) return line;
    size_t acc = line.rfind("accepted: ");
    std::string tail;
    if (acc != std::string::npos) {
        // From the separator before "accepted" ("; " or "? ").
        size_t from = acc >= 2 && (line.compare(acc - 2, 2, "; ") == 0 || line.compare(acc - 2, 2, "? ") == 0) ? acc - 2 : acc;
        tail = line.substr(from);
        if (tail.size() > kMaxErrorLine / 2) tail = tail.substr(0, kMaxErrorLine / 2 - 3) + "...";
    }
    size_t head = kMaxErrorLine - tail.size() - 3;
    // Never cut inside an escape (\xNN, \u{NNNN}) or a UTF-8 sequence.
    size_t esc = line.rfind('\\', head);
    if (esc != std::string::npos && head - esc < 8) head = esc;
    while (head > 0 && ((unsigned char)line[head] & 0xc0) == 0x80) head--;
    return line.substr(0, head) + "..." + tail;
}

std::string printable_lines(const std::string& in, size_t max_line) {
    std::string out;
    size_t pos = 0;
    while (pos < in.size()) {
        size_t e = in.find('\n', pos);
        if (e == std::string::npos) e = in.size();
        out += printable(in.substr(pos, e - pos), max_line);
        if (e < in.size()) out += '\n';
        pos = e + 1;
    }
    return out;
}

}  // namespace vfsmc
