// vfsmc: the observer a run installs (policies.h).
#include "search/policies.h"

namespace vfsmc {

namespace {

// The null object, in place while no run is on: the policies of a search
// that cuts nothing and marks nothing (the parking rule still answers).
SearchPolicies g_no_run(StaleCut::none, false);
SearchPolicies* g_running = &g_no_run;

}  // namespace

SearchObserver& search_observer() { return *g_running; }

SearchPolicies& SearchPolicies::running() { return *g_running; }

void SearchPolicies::install(SearchPolicies* p) { g_running = p ? p : &g_no_run; }

}  // namespace vfsmc
