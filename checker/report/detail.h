// vfsmc reports: helpers the text, email and HTML renderers share.
#pragma once

#include <string>

#include "explore/engine.h"
#include "kernel/model.h"

namespace vfsmc {
namespace report_detail {

// How an event's values print: Event::ref, as the layer sets it (kfield's
// fmt_ in kernel/kernel.h): a number, an object id (a pointer field; -1 is
// NULL), or a lockref word (count * 2 + locked).
enum class ValueFormat : uint8_t { Number = 0, Object = 1, LockrefWord = 2 };
inline ValueFormat value_format(const Event& e) { return static_cast<ValueFormat>(e.ref); }

std::string obj_name(const ExecRecord& rec, int id);
// "obj.field", or the object's or field's name alone.
std::string field_name(const ExecRecord& rec, const Event& e);
// The counterexample in words: what broke, the invariant, the step count
// and minimality.
std::string paragraph(const Scenario& s, const RunResult& r);

}  // namespace report_detail
}  // namespace vfsmc
