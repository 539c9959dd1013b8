// vfsmc litmus: the parser of herd7 C litmus tests. Every malformed or
// unsupported input becomes one LoadError whose text is one line naming the
// file, the line and the construct (exit 2), never a silent wrong answer.
#pragma once

#include <cstddef>
#include <string>

#include "litmus/ast.h"

namespace vfsmc {
namespace litmus {

// Parse the text of a test. Throws LoadError.
Test parse(const std::string& file, const std::string& text);
// The largest test read (herd7's tests are a few KiB).
constexpr size_t kMaxTestBytes = 256 * 1024;
// The text of a test file: a regular file (a FIFO or a device is one line,
// never a block or an endless read) of at most kMaxTestBytes. Throws LoadError.
std::string read_test(const std::string& file);
// Read and parse a file. Throws LoadError.
Test parse_file(const std::string& file);

}  // namespace litmus
}  // namespace vfsmc
