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
    // what() is a C string: a NUL in the message (from a bad input's own
    // bytes) is written \x00, so the line is never cut at it.
    explicit LoadError(const std::string& m) : std::runtime_error(without_nul(m)) {}
    static std::string without_nul(std::string m) {
        for (size_t i = m.find('\0'); i != std::string::npos; i = m.find('\0', i + 4)) m.replace(i, 1, "\\x00");
        return m;
    }
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
// ending "accepted: a [readable] <kind>..." ("JSON scenario file").
std::string read_input_file(const std::string& file, size_t max_bytes, const std::string& kind);
// Same, from text (tests).
Scenario parse_scenario(const std::string& file, const std::string& text);

}  // namespace vfsmc
