// vfsmc: loading a scenario file. Every malformed input becomes one
// LoadError whose text is one line: the file, the JSON path, the bad value
// and what is accepted. See docs/scenario-format.md and
// docs/scenario.schema.json.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "search/strategies.h"
#include "contract/model.h"

namespace vfsmc {


// The search strategies by name: the one table `search.strategy` and
// `vfsmc run --strategy` both parse with.
std::string strategy_names();  // "dpor, exhaustive, bounded, random, pct"
bool parse_strategy(const std::string& name, Strategy& out);
std::vector<std::string> memory_model_list();
bool parse_memory_model(const std::string& name, MemModel& out);
// The name in `names` closest to `got` when it looks like a typo, else "".
std::string suggest_name(const std::string& got, const std::vector<std::string>& names);

// Load and validate. Throws LoadError.
Scenario load_scenario(const std::string& file);
// Same, from text (tests).
Scenario parse_scenario(const std::string& file, const std::string& text);

// Of each thread, the lowest thread it is interchangeable with (itself when
// none): the same ops with the same arguments, neither named by an `order`
// constraint, in a model that declares ModelSpec::interchangeable_threads.
// The search decides what to do with it (search/symmetry.h).
std::vector<int> interchangeable_threads(const Scenario& s);

}  // namespace vfsmc
