// vfsmc list: the models with their ops, knobs, init fields, invariants and
// steps (as text or JSON, all models or one); and the memory-model table of
// the kernel-vocabulary layer.
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "base/printable.h"
#include "scenario/scenario.h"
#include "contract/invariants.h"
#include "kernel/memory_model.h"
#include "contract/mutations.h"

namespace vfsmc {

static void print_fields(const char* title, const std::vector<FieldSpec>& fs) {
    if (fs.empty()) return;
    std::cout << "  " << title << ":\n";
    for (const auto& f : fs)
        std::cout << "    " << f.name << " (" << type_text(f) << (f.def.empty() ? "" : ", default " + f.def)
                  << (f.required ? ", required" : "") << "): " << f.doc << "\n";
}

// Words after a label, wrapped at 79 columns with the continuation lines
// indented under the first word.
static void print_wrapped(const std::string& label, const std::vector<std::string>& words) {
    const size_t width = 79, indent = label.size() + 1;
    std::string line = label;
    for (const auto& w : words) {
        if (line.size() > indent - 1 && line.size() + 1 + w.size() > width) {
            std::cout << line << "\n";
            line = std::string(indent - 1, ' ');
        }
        line += " " + w;
    }
    std::cout << line << "\n";
}

static nlohmann::json fields_json(const std::vector<FieldSpec>& fs) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : fs) {
        nlohmann::json j = {{"name", f.name}, {"type", type_text(f)}, {"required", f.required}, {"doc", f.doc}};
        if (!f.def.empty()) j["default"] = f.def;
        if (!f.allowed.empty()) j["values"] = f.allowed;
        out.push_back(j);
    }
    return out;
}

int cmd_list(const ListOptions& o) {
    const std::string& only = o.model;
    if (o.mutations) {
        // One per line, tab-separated: name, model, what it deletes, and why
        // no verdict can change ("-": one must). scripts/mutate and
        // tests/mutation_oracle.py read this.
        for (const auto& m : kMutations)
            std::cout << m.name << "\t" << m.model << "\t" << m.doc << "\t" << (m.equivalent ? m.equivalent : "-") << "\n";
        return 0;
    }
    if (o.memory_model) {
        std::cout << "| access | kernel | sc | note |\n|---|---|---|---|\n";
        for (const auto& r : kMemoryModelTable)
            std::cout << "| " << r.kernel_name << " | " << mo_name(r.kernel) << " | " << mo_name(r.sc) << " | "
                      << r.why << " |\n";
        return 0;
    }
    std::vector<Model*> shown;
    std::vector<std::string> names;
    for (Model* m : models()) {
        names.push_back(m->spec().name);
        if (only.empty() || m->spec().name == only) shown.push_back(m);
    }
    if (shown.empty()) {
        std::string hint = suggest_name(only, names), acc;
        for (const auto& n : names) acc += (acc.empty() ? "" : ", ") + n;
        throw LoadError("vfsmc list: --model: bad value \"" + printable(only, kMaxShownValue) + "\"; " +
                        (hint.empty() ? "" : "did you mean \"" + hint + "\"? ") + "accepted: " + acc);
    }
    std::vector<std::string> engine;
    for (const auto& i : kInvariants)
        if (std::string(i.owner) == "engine") engine.push_back(i.name);
    if (o.json) {
        nlohmann::json out;
        out["models"] = nlohmann::json::array();
        for (Model* m : shown) {
            const ModelSpec& s = m->spec();
            nlohmann::json ops = nlohmann::json::array();
            for (const auto& o : s.ops) ops.push_back({{"name", o.name}, {"doc", o.doc}, {"args", fields_json(o.args)}});
            out["models"].push_back({{"name", s.name},
                                     {"doc", s.doc},
                                     {"follows", s.follows},
                                     {"threads", {{"min", s.min_threads}, {"max", s.max_threads}}},
                                     {"ops", ops},
                                     {"knobs", fields_json(s.knobs)},
                                     {"init", fields_json(s.init)},
                                     {"invariants", s.invariants},
                                     {"steps", s.steps}});
        }
        out["engine_invariants"] = engine;
        std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    for (Model* m : shown) {
        const ModelSpec& s = m->spec();
        std::cout << "model " << s.name << ": " << s.doc << "\n";
        std::cout << "  follows: " << s.follows << "\n";
        std::cout << "  threads: " << s.min_threads << " to " << s.max_threads << "\n";
        std::cout << "  ops:\n";
        for (const auto& o : s.ops) {
            std::cout << "    " << o.name;
            if (!o.args.empty()) {
                std::cout << "(";
                for (size_t i = 0; i < o.args.size(); i++)
                    std::cout << (i ? ", " : "") << o.args[i].name << ": " << type_text(o.args[i]);
                std::cout << ")";
            }
            std::cout << ": " << o.doc << "\n";
        }
        print_fields("knobs (config)", s.knobs);
        print_fields("init", s.init);
        print_wrapped("  invariants:", s.invariants);
        print_wrapped("  steps:", s.steps);
        std::cout << "\n";
    }
    print_wrapped("engine invariants (every model):", engine);
    return 0;
}

}  // namespace vfsmc
