// Test-only protocol for the report tests: every thread bumps a counter with
// plain (unmarked) C accesses, an LKMM data race. The engine reports it with
// the two racing accesses as the conflicting steps, so the report marks
// more than the violation line with ">>". Not registered globally: a test
// adds toy_race_model() to models() while it runs.
#include "contract/model.h"
#include "kernel/kernel.h"

namespace vfsmc {
namespace {

struct ToyRaceRun : ModelRun {
    kobj counter{"toy", "counter"};
    kfield<int> hits{&counter, "hits", 0};

    void bump() {
        KFUNC("bump");
        // counter->hits++ with no lock and no READ_ONCE/WRITE_ONCE.
        int n = plain_load(hits);
        plain_store(hits, n + 1);
    }
    void thread(int) override { bump(); }
    void final_state(std::string& out) const override {
        out += "counter: hits " + std::to_string(hits.peek()) + "\n";
    }
};

struct ToyRace : Model {
    ModelSpec s;
    ToyRace() {
        s.name = "toy-race";
        s.doc = "test-only: a counter bumped with plain accesses by every thread";
        s.follows = "nothing in the kernel; a test protocol for the reports";
        s.ops = {{"bump", "counter->hits++ with plain accesses", {}}};
        s.steps = {"bump"};
        s.min_threads = 2;
    }
    const ModelSpec& spec() const override { return s; }
    void prepare(const Scenario&) override {}
    ModelRun* start() override { return make_run<ToyRaceRun>(); }
};

}  // namespace

Model* toy_race_model() {
    static ToyRace m;
    return &m;
}

}  // namespace vfsmc
