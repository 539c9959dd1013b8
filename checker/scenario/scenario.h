// vfsmc: loading a scenario file. Every malformed input becomes one
// LoadError whose text is one line: the file, the JSON path, the bad value
// and what is accepted. See docs/scenario-format.md and
// docs/scenario.schema.json.
#pragma once

#include <stdexcept>
#include <string>

#include "kernel/model.h"

namespace vfsmc {

struct LoadError : std::runtime_error {
    explicit LoadError(const std::string& m) : std::runtime_error(m) {}
};

// Load and validate. Throws LoadError.
Scenario load_scenario(const std::string& file);
// Same, from text (tests).
Scenario parse_scenario(const std::string& file, const std::string& text);

}  // namespace vfsmc
