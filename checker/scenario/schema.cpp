// vfsmc: the scenario JSON Schema, generated from the model specs (see
// schema.h). Every model-specific rule of the loader has its counterpart
// here, read from the same ModelSpec: ops and their typed arguments, knobs,
// init fields, invariant names, `order` step names and the thread count.
#include "scenario/schema.h"
#include "scenario/scenario.h"

#include <string>

#include "contract/invariants.h"
#include "substrate/runtime.h"

namespace vfsmc {

using oj = nlohmann::ordered_json;

std::vector<std::string> scenario_invariants(const ModelSpec& m) {
    std::vector<std::string> out;
    for (const auto& i : kInvariants)
        if (std::string(i.owner) == "engine") out.push_back(i.name);
    for (const auto& i : m.invariants) out.push_back(i);
    return out;
}

namespace {

oj strings(const std::vector<std::string>& v) {
    oj a = oj::array();
    for (const auto& s : v) a.push_back(s);
    return a;
}

// A knob, init field or op argument.
oj field_schema(const FieldSpec& f) {
    oj s;
    if (!f.doc.empty()) s["description"] = f.doc;
    switch (f.type) {
        case ArgType::Str:
            s["type"] = "string";
            // As the loader: no control or bidirectional formatting characters.
            s["pattern"] = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\ufeff]*$";
            if (!f.def.empty()) s["default"] = f.def;
            break;
        case ArgType::Int:
            s["type"] = "integer";
            s["minimum"] = f.min;
            s["maximum"] = f.max;
            if (!f.def.empty()) s["default"] = std::stol(f.def);
            break;
        case ArgType::Bool:
            s["type"] = "boolean";
            if (!f.def.empty()) s["default"] = f.def == "true";
            break;
        case ArgType::Enum:
            s["enum"] = strings(f.allowed);
            if (!f.def.empty()) s["default"] = f.def;
            break;
    }
    return s;
}

// An object holding exactly these fields (`config`, `init`, an op's arguments
// besides "op").
oj fields_object(const std::vector<FieldSpec>& fs, oj props = oj::object()) {
    oj s;
    s["type"] = "object";
    oj req = oj::array();
    for (const auto& f : fs) {
        props[f.name] = field_schema(f);
        if (f.required) req.push_back(f.name);
    }
    s["properties"] = props;
    if (!req.empty()) s["required"] = req;
    s["additionalProperties"] = false;
    return s;
}

// One op of a model's thread: a bare name (if it has no required argument)
// or {"op": name, args...}.
oj op_schema(const ModelSpec& m) {
    std::vector<std::string> all, bare;
    for (const auto& o : m.ops) {
        all.push_back(o.name);
        bool needs_arg = false;
        for (const auto& a : o.args) needs_arg |= a.required;
        if (!needs_arg) bare.push_back(o.name);
    }
    oj obj;
    obj["type"] = "object";
    obj["required"] = {"op"};
    obj["properties"] = {{"op", {{"enum", strings(all)}}}};
    oj per_op = oj::array();
    for (const auto& o : m.ops) {
        oj op_prop;
        op_prop["const"] = o.name;
        if (!o.doc.empty()) op_prop["description"] = o.doc;
        oj then = fields_object(o.args, {{"op", op_prop}});
        then.erase("type");
        per_op.push_back({{"if", {{"properties", {{"op", {{"const", o.name}}}}}}}, {"then", then}});
    }
    if (!per_op.empty()) obj["allOf"] = per_op;
    // Discriminated, not a bare anyOf: a string is a bare op name, anything
    // else is the object form, so an editor names the field that is wrong.
    oj s;
    s["if"] = {{"type", "string"}};
    s["then"] = {{"enum", strings(bare)}};
    s["else"] = obj;
    return s;
}

// The rules for scenarios whose `model` is m.
oj model_schema(const ModelSpec& m) {
    oj s;
    s["description"] = m.doc;
    oj props;
    props["config"] = fields_object(m.knobs);
    props["init"] = fields_object(m.init);
    oj threads;
    threads["minItems"] = m.min_threads;
    threads["maxItems"] = m.max_threads;
    oj ops = {{"items", {{"$ref", "#/$defs/op-" + m.name}}}};
    if (m.max_ops) ops["maxItems"] = m.max_ops;
    threads["items"] = {{"properties", {{"ops", ops}}}};
    props["threads"] = threads;
    oj inv = {{"enum", strings(scenario_invariants(m))}};
    props["invariants"] = {{"items", inv}};
    props["without"] = {{"items", inv}};
    oj step = {{"properties", {{"step", {{"enum", strings(m.steps)}}}}}};
    props["order"] = {{"items", {{"properties", {{"before", step}, {"after", step}}}}}};
    props["expect"] = {{"properties", {{"invariant", inv}}}};
    s["properties"] = props;
    return s;
}

oj search_schema() {
    auto int_range = [](long lo, long hi, const char* doc) {
        return oj{{"description", doc}, {"type", "integer"}, {"minimum", lo}, {"maximum", hi}};
    };
    oj s;
    s["description"] =
        "how executions are explored: dpor (the default: every interleaving up to the order of independent "
        "steps, complete), exhaustive (every interleaving), bounded (every interleaving with at most "
        "preemption_bound preemptions), random or pct (`iterations` sampled ones from `seed`; pct with bug "
        "depth `depth`); plus optional limits, after which the verdict is inconclusive";
    s["type"] = "object";
    s["required"] = {"strategy"};
    oj p;
    p["strategy"] = {{"enum", strategy_list()}};  // the loader's table (scenario.cpp)
    p["preemption_bound"] = int_range(0, kMaxPreemptionBound, "bounded only: the most preemptions per execution");
    p["iterations"] = int_range(1, kMaxIterations, "random and pct only (and required): the number of executions");
    p["seed"] = int_range(0, kMaxSeed, "random and pct only: which executions are sampled");
    p["depth"] = int_range(1, kMaxPctDepth, "pct only: the bug depth d (d-1 priority change points; default 3)");
    p["max_executions"] = int_range(1, kMaxExecutionsLimit, "stop after this many executions (the verdict says so)");
    p["time_limit_s"] = {{"description", "stop after this many seconds (the verdict says so)"},
                         {"type", "number"},
                         {"exclusiveMinimum", 0},
                         {"maximum", kMaxTimeLimitS}};
    s["properties"] = p;
    s["additionalProperties"] = false;
    auto only_with = [](const char* field, std::vector<const char*> strategies) {
        oj e = oj::array();
        for (const char* st : strategies) e.push_back(st);
        return oj{{"if", {{"properties", {{"strategy", {{"enum", e}}}}}}},
                  {"else", {{"not", {{"required", {field}}}}}}};
    };
    oj all = oj::array();
    all.push_back(only_with("preemption_bound", {"bounded"}));
    all.push_back(only_with("seed", {"random", "pct"}));
    all.push_back(only_with("depth", {"pct"}));
    oj iters = only_with("iterations", {"random", "pct"});
    iters["then"] = {{"required", {"iterations"}}};
    all.push_back(iters);
    s["allOf"] = all;
    return s;
}

oj expect_schema() {
    oj s;
    s["description"] =
        "the verdict the scenario expects: \"holds\", \"unsatisfiable\" (no execution satisfies `order`), or "
        "{\"verdict\": \"violated\", \"invariant\": name}";
    oj violated = {{"type", "object"},
                   {"required", oj::array({"verdict", "invariant"})},
                   {"properties", {{"verdict", {{"const", "violated"}}}, {"invariant", {{"type", "string"}}}}},
                   {"additionalProperties", false}};
    oj holds = {{"type", "object"},
                {"required", {"verdict"}},
                {"properties",
                 {{"verdict", {{"const", "holds"}}},
                  {"scope",
                   {{"description", "the least scope accepted: complete, bounded (complete up to a preemption bound) or sampled"},
                    {"enum", oj::array({"complete", "bounded", "sampled"})}}}}},
                {"additionalProperties", false}};
    oj other = {{"type", "object"},
                {"required", {"verdict"}},
                {"properties", {{"verdict", {{"const", "unsatisfiable"}}}}},
                {"additionalProperties", false}};
    // Discriminated by type, then by `verdict` (if/then/else, not a bare
    // anyOf), so an editor names the field that is wrong.
    s["if"] = {{"type", "string"}};
    s["then"] = {{"enum", oj::array({"holds", "unsatisfiable"})}};
    s["else"] = {{"if", {{"type", "object"}, {"required", {"verdict"}}, {"properties", {{"verdict", {{"const", "violated"}}}}}}},
                 {"then", violated},
                 {"else", {{"if", {{"type", "object"}, {"required", {"verdict"}}, {"properties", {{"verdict", {{"const", "holds"}}}}}}},
                           {"then", holds},
                           {"else", other}}}};
    return s;
}

}  // namespace

oj scenario_schema(const std::vector<Model*>& ms) {
    std::vector<std::string> names;
    for (Model* m : ms) names.push_back(m->spec().name);

    oj s;
    s["$comment"] = "generated by vfsmc schema; do not edit";
    s["$schema"] = "https://json-schema.org/draft/2020-12/schema";
    s["$id"] = kScenarioSchemaId;
    s["title"] = "vfsmc scenario";
    s["description"] =
        "A vfsmc scenario: a litmus test for one kernel protocol model (docs/scenario-format.md). The loader "
        "also checks what a schema cannot: the name is the file stem, thread names are unique, `order` names "
        "existing threads, and an expected invariant is enabled.";
    s["type"] = "object";
    s["required"] = {"name", "doc", "model", "threads", "expect"};

    oj p;
    p["$schema"] = {{"description", "the path or URL of this schema, for editors; ignored by vfsmc"},
                    {"type", "string"}};
    p["name"] = {{"description", "the file stem"}, {"type", "string"}, {"minLength", 1}};
    p["doc"] = {{"description", "what the scenario asks, and which patch or claim it comes from"},
                {"type", "string"},
                {"minLength", 1}};
    p["model"] = {{"description", "the protocol model (vfsmc list)"}, {"enum", strings(names)}};
    p["memory_model"] = {
        {"description",
         "kernel: READ_ONCE/WRITE_ONCE relaxed, acquire/release as named, value-returning atomics seq_cst; "
         "sc: everything seq_cst. Required when a violation is expected"},
        {"enum", oj::array({"sc", "kernel"})},
        {"default", "kernel"}};
    p["config"] = {{"description", "the model's knobs (variants)"}, {"type", "object"}};
    p["init"] = {{"description", "the model's initial state"}, {"type", "object"}};
    p["threads"] = {{"description", "the threads, each a list of the model's ops run in order"},
                    {"type", "array"},
                    {"minItems", 1},
                    {"maxItems", kMaxScenarioThreads},
                    {"items", {{"$ref", "#/$defs/thread"}}}};
    p["invariants"] = {{"description", "the invariants checked; default: all of the model's and the engine's"},
                       {"type", "array"},
                       {"minItems", 1},
                       {"items", {{"type", "string"}}}};
    p["without"] = {{"description", "invariants left out of those checked (of `invariants`, or of all when it is absent), as `vfsmc run --without` does"},
                    {"type", "array"},
                    {"minItems", 1},
                    {"items", {{"type", "string"}}}};
    p["search"] = {{"$ref", "#/$defs/search"}};
    p["order"] = {{"description",
                   "explore only executions in which each before-step completes before the after-step starts; "
                   "if none can, the verdict is unsatisfiable"},
                  {"type", "array"},
                  {"minItems", 1},
                  {"maxItems", kMaxOrder},
                  {"items", {{"$ref", "#/$defs/order-constraint"}}}};
    p["expect"] = {{"$ref", "#/$defs/expect"}};
    s["properties"] = p;
    s["additionalProperties"] = false;

    oj all = oj::array();
    // "unsatisfiable" is an answer about `order` constraints.
    all.push_back(
        {{"if",
          {{"required", {"expect"}},
           {"properties",
            {{"expect",
              {{"anyOf", oj::array({{{"const", "unsatisfiable"}},
                                    {{"type", "object"},
                                     {"required", {"verdict"}},
                                     {"properties", {{"verdict", {{"const", "unsatisfiable"}}}}}}})}}}}}}},
         {"then", {{"required", {"order"}}}}});
    // A scenario that expects a violation states its memory model.
    all.push_back({{"if",
                    {{"required", {"expect"}},
                     {"properties",
                      {{"expect",
                        {{"type", "object"},
                         {"required", {"verdict"}},
                         {"properties", {{"verdict", {{"const", "violated"}}}}}}}}}}},
                   {"then", {{"required", {"memory_model"}}}}});
    for (const auto& n : names)
        all.push_back({{"if", {{"required", {"model"}}, {"properties", {{"model", {{"const", n}}}}}}},
                       {"then", {{"$ref", "#/$defs/model-" + n}}}});
    s["allOf"] = all;

    oj defs;
    defs["thread"] = {{"type", "object"},
                      {"required", oj::array({"name", "ops"})},
                      {"properties",
                       {{"name",
                         {{"description", "shown in traces and named by `order`; unique in the scenario"},
                          {"type", "string"},
                          {"minLength", 1},
                          {"maxLength", kMaxThreadName},
                          {"pattern", "^[A-Za-z0-9_-]+$"}}},
                        {"ops", {{"type", "array"}, {"minItems", 1}}}}},
                      {"additionalProperties", false}};
    defs["search"] = search_schema();
    oj step = {{"type", "object"},
               {"required", oj::array({"thread", "step"})},
               {"properties",
                {{"thread", {{"description", "a thread's name"}, {"type", "string"}}},
                 {"step", {{"description", "a KFUNC or kstep name of the model (vfsmc list)"}, {"type", "string"}}}}},
               {"additionalProperties", false}};
    defs["order-step"] = step;
    defs["order-constraint"] = {{"type", "object"},
                                {"required", oj::array({"before", "after"})},
                                {"properties",
                                 {{"before", {{"$ref", "#/$defs/order-step"}}},
                                  {"after", {{"$ref", "#/$defs/order-step"}}}}},
                                {"additionalProperties", false}};
    defs["expect"] = expect_schema();
    for (Model* m : ms) {
        defs["model-" + m->spec().name] = model_schema(m->spec());
        defs["op-" + m->spec().name] = op_schema(m->spec());
    }
    s["$defs"] = defs;
    return s;
}

std::string scenario_schema_text(const std::vector<Model*>& ms) { return scenario_schema(ms).dump(2) + "\n"; }

}  // namespace vfsmc
