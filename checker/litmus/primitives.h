// vfsmc litmus: the primitives a test may call, by name: linux-kernel.def's
// (docs/litmus.md has the table).
#pragma once

#include <map>
#include <string>

#include "litmus/ast.h"

namespace vfsmc {
namespace litmus {

struct Named {
    Fn fn;
    int nargs;
    RmwOrder order = RmwOrder::Full;
    ArithOp arith = ArithOp::Add;
    RetKind ret = RetKind::New;
    long imm = 0;
    bool has_imm = false;
};

const std::map<std::string, Named>& functions();
// A word of a C type (`int`, `intptr_t`, `struct`, `const` ...).
bool is_type_word(const std::string& s);

}  // namespace litmus
}  // namespace vfsmc
