// vfsmc: loading a scenario file. Every malformed input becomes one
// LoadError whose text is one line: the file, the JSON path, the bad value
// and what is accepted. See docs/scenario-format.md and
// docs/scenario.schema.json.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernel/model.h"

namespace vfsmc {

struct LoadError : std::runtime_error {
    explicit LoadError(const std::string& m) : std::runtime_error(m) {}
};

// The search strategies by name: the one table `search.strategy` and
// `vfsmc run --strategy` both parse with.
const std::vector<std::pair<std::string, Strategy>>& strategy_table();
std::vector<std::string> strategy_list();
std::string strategy_names();  // "dpor, exhaustive, bounded, random, pct"
bool parse_strategy(const std::string& name, Strategy& out);
std::vector<std::string> memory_model_list();
bool parse_memory_model(const std::string& name, MemModel& out);
// The name in `names` closest to `got` when it looks like a typo, else "".
std::string suggest_name(const std::string& got, const std::vector<std::string>& names);

// Load and validate. Throws LoadError.
Scenario load_scenario(const std::string& file);
// The text of an input file: a regular file only (opened with O_NONBLOCK,
// so a FIFO cannot block), at most `max_bytes`. Throws LoadError, one line
// ending "accepted: <accepted>".
std::string read_input_file(const std::string& file, size_t max_bytes, const std::string& accepted);
// Same, from text (tests).
Scenario parse_scenario(const std::string& file, const std::string& text);

}  // namespace vfsmc
