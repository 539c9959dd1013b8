// vfsmc reports: helpers the text, email and HTML renderers share.
#pragma once

#include <string>

#include "search/engine.h"
#include "contract/model.h"
#include "report/trace_view.h"

namespace vfsmc {
namespace report_detail {

std::string obj_name(const ExecRecord& rec, int id);
// "obj.field", or the object's or field's name alone.
std::string field_name(const ExecRecord& rec, const Event& e);
// The counterexample in words: what broke, the invariant, the step count
// and minimality.
// `witness`: the execution is a witness (ReportOptions::witness), not a
// violation: no invariant sentence, and "witness" for "counterexample".
// "memory model kernel", and the mutation the run ran under, if any.
std::string run_conditions(const RunResult& r);
std::string paragraph(const Scenario& s, const RunResult& r, const TraceView& v, bool witness = false);

}  // namespace report_detail
}  // namespace vfsmc
