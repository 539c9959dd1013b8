// vfsmc: the error every bad input becomes: one line (the file, the field,
// the bad value, what is accepted), exit code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace vfsmc {

struct LoadError : std::runtime_error {
    // what() is a C string: a NUL in the message (from a bad input's own
    // bytes) is written \x00, so the line is never cut at it.
    explicit LoadError(const std::string& m) : std::runtime_error(without_nul(m)) {}
    static std::string without_nul(std::string m) {
        for (size_t i = m.find('\0'); i != std::string::npos; i = m.find('\0', i + 4)) m.replace(i, 1, "\\x00");
        return m;
    }
};

// The text of an input file: a regular file only (opened with O_NONBLOCK,
// so a FIFO cannot block), at most `max_bytes`. Throws LoadError, one line
// ending "accepted: a [readable] <kind>..." ("JSON scenario file").
std::string read_input_file(const std::string& file, size_t max_bytes, const std::string& kind);

}  // namespace vfsmc
