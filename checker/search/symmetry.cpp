// vfsmc: the classes of dpor's identical-threads rule (symmetry.h), from
// what the scenario layer says is interchangeable (scenario.h).
#include "search/symmetry.h"

#include "scenario/scenario.h"

namespace vfsmc {

namespace {

// Of each thread, the lowest thread of its class.
std::vector<int> class_roots(const Scenario& s, Symmetry sym) {
    int n = (int)s.threads.size();
    std::vector<int> root(n);
    for (int t = 0; t < n; t++) root[t] = t;
    if (sym == Symmetry::off || n > ThreadClasses::kMax) return root;
    if (sym == Symmetry::mutant) {
        for (int t = 0; t < n; t++) root[t] = 0;
        return root;
    }
    return interchangeable_threads(s);
}

}  // namespace

ThreadClasses thread_classes(const Scenario& s, Symmetry sym) {
    ThreadClasses c;
    std::vector<int> root = class_roots(s, sym);
    for (int t = 0; t < (int)root.size(); t++)
        for (int u = t - 1; u >= 0; u--)
            if (root[u] == root[t]) {
                c.prev[t] = (int8_t)u;
                break;
            }
    return c;
}

std::string symmetry_phrase(const Scenario& s, Symmetry sym) {
    std::vector<int> root = class_roots(s, sym);
    std::string out;
    for (int r = 0; r < (int)root.size(); r++) {
        std::string names;
        int k = 0;
        for (int t = r; t < (int)root.size(); t++)
            if (root[t] == r) names += std::string(k++ ? ", " : "") + s.threads[t].name;
        if (k < 2) continue;
        out += std::string(out.empty() ? "" : "; ") + names;
    }
    return out.empty() ? out : "and up to a permutation of the identical threads " + out;
}

}  // namespace vfsmc
