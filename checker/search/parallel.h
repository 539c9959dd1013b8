// vfsmc: one dpor search over several worker processes of one machine
// (`vfsmc run --jobs N`).
//
// The dpor tree is split by schedule prefix (dpor_link.h). A coordinator
// (the calling process) hands out pieces: the root first, then, while a
// worker is idle, the shallowest unexplored branch a busy worker gives away
// on request, so the work rebalances as it goes (as in Yang et al.,
// "Distributed dynamic partial order reduction", SPIN 2007, and dBug's
// scalable DPOR). The one thing the split must not lose: a race found in a
// piece whose reversal belongs above the piece's root. Such an upward
// backtrack point goes to the coordinator, which adds it to the running
// search of the piece that owns the node, or, once that piece has left the
// node, hands it out as a piece of its own unless the owner explored it.
//
// Sleep sets do not cross a split (a piece starts with none), so the
// parallel search may explore a trace twice: such duplicates are counted
// by a hash of each complete execution's trace (ParallelStats::duplicates).
//
// Faults: a worker that dies loses nothing: its piece goes back to the pool
// and its executions in that piece are not counted (the piece runs again),
// and the backtrack points added to it are handed out. A worker that cannot
// start is an error (LoadError: one line, exit 2). SIGINT/SIGTERM
// (stop_requested) kill the workers and give the partial result,
// inconclusive.
#pragma once

#include <cstdint>

#include "search/engine.h"

namespace vfsmc {

struct ParallelOptions {
    int jobs = 2;
    bool progress = false;  // progress lines on stderr
    // Test only (VFSMC_TEST_DROP_UPWARD): upward backtrack points are
    // dropped, not sent: the search loses traces (tests show it does).
    bool drop_upward = false;
    // Test only (VFSMC_TEST_KILL_WORKER): the coordinator kills the busiest
    // worker with SIGKILL once this many executions are reported (0: never).
    uint64_t kill_worker_after = 0;
    // Test only (VFSMC_TEST_WORKER_EXIT): this worker exits before it is
    // ready (-1: none).
    int fail_worker = -1;
};

// The scenario's dpor search (opt's override, else its own) over p.jobs
// worker processes. The result is that of run_scenario: verdict, scope,
// counts summed over the pieces, the shortest counterexample (minimized as
// run_scenario does, when opt.minimize), and `parallel` filled in.
// Throws LoadError for a search that is not dpor.
RunResult run_parallel(const Scenario& s, const RunOptions& opt, const ParallelOptions& p);

// The same search under MPI (`mpirun -n N vfsmc run --mpi FILE`; built
// with cmake -DVFSMC_MPI=ON): rank 0 coordinates, ranks 1..N-1 are the
// workers, and the protocol is the same, one MPI message per frame. On a
// worker rank it returns nothing: it searches until rank 0 is done, then
// exits the process. A rank that dies ends the MPI job (mpirun aborts it):
// the recovery of a lost worker is --jobs's. Without MPI built in it throws
// LoadError (one line, exit 2).
RunResult run_mpi(const Scenario& s, const RunOptions& opt, const ParallelOptions& p, bool& worker);
bool mpi_built();

}  // namespace vfsmc
