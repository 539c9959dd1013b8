// vfsmc list: the models with their ops, knobs, init fields, invariants and
// steps; and the memory-model table of the kernel-vocabulary layer.
#include <iostream>

#include "cli/cli.h"
#include "kernel/invariants.h"
#include "kernel/memory_model.h"
#include "kernel/mutations.h"

namespace vfsmc {

static void print_fields(const char* title, const std::vector<FieldSpec>& fs) {
    if (fs.empty()) return;
    std::cout << "  " << title << ":\n";
    for (const auto& f : fs)
        std::cout << "    " << f.name << " (" << type_text(f) << (f.def.empty() ? "" : ", default " + f.def)
                  << (f.required ? ", required" : "") << "): " << f.doc << "\n";
}

int cmd_list(bool memory_model, bool mutations) {
    if (mutations) {
        // One per line, tab-separated: name, model, what it deletes (scripts/mutate reads this).
        for (const auto& m : kMutations) std::cout << m.name << "\t" << m.model << "\t" << m.doc << "\n";
        return 0;
    }
    if (memory_model) {
        std::cout << "| access | kernel | sc | note |\n|---|---|---|---|\n";
        for (const auto& r : kMemoryModelTable)
            std::cout << "| " << r.kernel_name << " | " << mo_name(r.kernel) << " | " << mo_name(r.sc) << " | "
                      << r.why << " |\n";
        return 0;
    }
    for (Model* m : models()) {
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
        std::cout << "  invariants:";
        for (const auto& i : s.invariants) std::cout << " " << i;
        std::cout << "\n  steps:";
        for (const auto& st : s.steps) std::cout << " " << st;
        std::cout << "\n\n";
    }
    std::cout << "engine invariants (every model):";
    for (const auto& i : kInvariants)
        if (std::string(i.owner) == "engine") std::cout << " " << i.name;
    std::cout << "\n";
    return 0;
}

}  // namespace vfsmc
