// vfsmc: the observer a run installs (policies.h).
#include "search/policies.h"

namespace vfsmc {

namespace {

// Installed while no run is on: no policy, nothing cut or marked.
SearchObserver g_plain;
SearchObserver* g_observer = &g_plain;
SearchPolicies g_none(StaleCut::none, false);
SearchPolicies* g_running = &g_none;

}  // namespace

SearchObserver& search_observer() { return *g_observer; }

SearchPolicies& SearchPolicies::running() { return *g_running; }

void SearchPolicies::install(SearchPolicies* p) {
    g_running = p ? p : &g_none;
    g_observer = p ? static_cast<SearchObserver*>(p) : &g_plain;
}

}  // namespace vfsmc
