// vfsmc: the JSON Schema of scenario files (`vfsmc schema`, written to
// docs/scenario.schema.json), generated from the registered models' specs
// and the invariant table, and the limits the loader and the schema share.
// The loader (scenario.cpp) stays the authority: it also checks what a
// schema cannot say (the name is the file stem, thread names are unique,
// `order` names existing threads, an expected invariant is enabled). See
// docs/scenario-format.md.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "contract/model.h"

namespace vfsmc {


// The schema's `$id`: a name, not a download address (the file is
// docs/scenario.schema.json; scenarios point editors at it with
// "$schema": "../../docs/scenario.schema.json"). Bump the number when a
// change would reject scenarios the previous schema accepted.
constexpr const char* kScenarioSchemaId = "urn:vfsmc:scenario-schema:1";
// What scenarios under scenarios/<model>/ put in "$schema".
constexpr const char* kScenarioSchemaRef = "../../docs/scenario.schema.json";

// The invariants a scenario of this model may name: the engine's, then the
// model's.
std::vector<std::string> scenario_invariants(const ModelSpec& m);

// The schema (JSON Schema draft 2020-12) for scenarios of these models.
nlohmann::ordered_json scenario_schema(const std::vector<Model*>& ms);

// What `vfsmc schema` prints: the schema, indented, with a final newline.
std::string scenario_schema_text(const std::vector<Model*>& ms);

}  // namespace vfsmc
