// vfsmc litmus: the parser of herd7 C litmus tests. Every malformed or
// unsupported input becomes one LoadError whose text is one line naming the
// file, the line and the construct (exit 2), never a silent wrong answer.
#pragma once

#include <string>

#include "litmus/ast.h"

namespace vfsmc {
namespace litmus {

// Parse the text of a test. Throws LoadError.
Test parse(const std::string& file, const std::string& text);
// Read and parse a file. Throws LoadError.
Test parse_file(const std::string& file);

}  // namespace litmus
}  // namespace vfsmc
