// vfsmc: what a model declares (ops, knobs, init fields, invariants, steps)
// and how the engine drives it. No Relacy here.
//
// A model is one file under models/ (one kernel protocol). It declares a
// ModelSpec, digests a loaded Scenario into plain data outside the
// simulation (prepare), and creates one ModelRun per explored execution,
// inside the simulation (start). See docs/adding-a-model.md.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
#include <map>
#include <ostream>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include "substrate/runtime.h"

namespace vfsmc {

enum class ArgType { Str, Int, Bool, Enum };

// An op argument, a config knob or an init field.
struct FieldSpec {
    std::string name;
    ArgType type = ArgType::Str;
    std::vector<std::string> allowed;  // Enum: the accepted values
    bool required = false;
    std::string def;                   // default, as text ("true", "3", "d_splice_alias")
    std::string doc;
    long min = 0, max = 1 << 20;       // Int range
};

// Builders for a spec's fields.
inline FieldSpec enum_field(const char* name, std::vector<std::string> allowed, const char* def, const char* doc) {
    FieldSpec f;
    f.name = name;
    f.type = ArgType::Enum;
    f.allowed = std::move(allowed);
    f.def = def;
    f.doc = doc;
    return f;
}
inline FieldSpec bool_field(const char* name, const char* def, const char* doc) {
    FieldSpec f;
    f.name = name;
    f.type = ArgType::Bool;
    f.def = def;
    f.doc = doc;
    return f;
}
inline FieldSpec str_field(const char* name, const char* def, const char* doc) {
    FieldSpec f;
    f.name = name;
    f.type = ArgType::Str;
    f.def = def;
    f.doc = doc;
    return f;
}
inline FieldSpec int_field(const char* name, const char* def, long min, long max, const char* doc) {
    FieldSpec f;
    f.name = name;
    f.type = ArgType::Int;
    f.def = def;
    f.min = min;
    f.max = max;
    f.doc = doc;
    return f;
}

// A deliberately broken variant that a scenario selects with a knob: the
// scenario-level sibling of MUTATION() (contract/mutations.h), which no
// scenario can select. A model names its broken variants in an enum, the
// knob table sets them, and the model code marks each one where the
// correct code would be, with one visible test a reader can grep for:
//
//     if (!broken(NO_DIR_SEQ_RECHECK)) { ...the re-check... }
template <class E>
struct BrokenSet {
    unsigned bits = 0;
    void set(E e) { bits |= 1u << (unsigned)e; }
    bool has(E e) const { return (bits >> (unsigned)e) & 1u; }
};

struct OpSpec {
    std::string name;   // the kernel-level operation, e.g. "open_creat"
    std::string doc;
    std::vector<FieldSpec> args;
};

// A condition a step needs of the scenario before any execution can reach
// it: a knob's value, an init field's value, an op some thread calls (with
// an argument's value), or one of several such conditions. Each is read off
// the model's code, where the step is logged: a step reached while one of
// its needs is unmet means the declaration is wrong, and `check` fails the
// scenario (report.h, step_coverage). run --coverage reports a step whose
// need the scenario does not meet as selected away, with that need as the
// reason.
struct StepNeed {
    enum class Kind { config, init, call, any };
    Kind kind = Kind::config;
    std::string field;                // config, init: the knob or init field; call: an argument of the op, or empty
    std::vector<std::string> values;  // config, init: the values that let the step run; call: the argument's values
    std::vector<std::string> ops;     // call: the ops, one of which some thread calls
    std::vector<StepNeed> any;        // any: the needs, one of which is met
};

// Builders for a StepNeeds row: knob_is("rpc_error", {"true"}),
// init_is("i_nlink", {"0"}), calls({"iput", "prune_icache_sb"}),
// calls_with("open", "flags", {"O_PATH"}), any_of({...}).
inline StepNeed knob_is(const char* knob, std::vector<std::string> values) {
    StepNeed n;
    n.kind = StepNeed::Kind::config;
    n.field = knob;
    n.values = std::move(values);
    return n;
}
inline StepNeed init_is(const char* field, std::vector<std::string> values) {
    StepNeed n = knob_is(field, std::move(values));
    n.kind = StepNeed::Kind::init;
    return n;
}
inline StepNeed calls(std::vector<std::string> ops) {
    StepNeed n;
    n.kind = StepNeed::Kind::call;
    n.ops = std::move(ops);
    return n;
}
inline StepNeed calls_with(const char* op, const char* arg, std::vector<std::string> values) {
    StepNeed n = calls({op});
    n.field = arg;
    n.values = std::move(values);
    return n;
}
inline StepNeed any_of(std::vector<StepNeed> needs) {
    StepNeed n;
    n.kind = StepNeed::Kind::any;
    n.any = std::move(needs);
    return n;
}

// One row of a model's step needs: these steps need every one of these
// conditions. A step has at most one row; the row replaces, for its step,
// the rules run --coverage applies by name (a step named after an enum
// knob's value or an op).
struct StepNeeds {
    std::vector<std::string> steps;
    std::vector<StepNeed> needs;
};

struct ModelSpec {
    std::string name;
    std::string doc;
    std::string follows;               // kernel files, functions and version
    std::vector<OpSpec> ops;
    std::vector<FieldSpec> knobs;      // `config`
    std::vector<FieldSpec> init;       // `init`
    std::vector<std::string> invariants;  // model invariants (names from invariants.h)
    std::vector<std::string> steps;    // step names usable in `order` and reported by --coverage
    // Named steps logged after the shared access they report (a lookup's
    // result, a flag a decision read). An `order` constraint holds a
    // thread back from the point its step starts: it cannot hold back an
    // access made before the step. The loader warns when a constraint's
    // `after` names one of these (docs/scenario-format.md, `order`).
    struct StepAfterAccess {
        std::string step, access, enclosing;
    };
    std::vector<StepAfterAccess> steps_after_access;
    std::vector<StepNeeds> step_needs;  // what steps need of the scenario (StepNeed)
    // The model treats its threads alike: its setup makes the same
    // per-thread objects for every thread, and no step, invariant, final
    // check or wake-up choice reads a thread's index but to reach that
    // thread's own objects or to name it. Two threads with the same ops can
    // then swap (scenario.h, interchangeable_threads; search/symmetry.h).
    // srcu_up_read() of another thread's section ends the lowest such
    // thread's: a model that calls it so cannot declare this.
    bool interchangeable_threads = false;
    int min_threads = 1;
    int max_threads = kMaxScenarioThreads;
    int max_ops = 0;                   // ops per thread at most (0: no limit); the loader and the schema check it
};

// A loaded value: always has its text; ints and bools are also parsed.
struct Value {
    std::string s;
    long i = 0;
    bool b = false;
};

struct OpCall {
    int op = -1;                   // index into ModelSpec::ops
    std::string name;
    std::vector<Value> args;       // by ModelSpec::ops[op].args index
};

struct ThreadSpec {
    std::string name;
    std::vector<OpCall> ops;
};

// exhaustive: every interleaving (Relacy's full search); bounded: every
// interleaving up to a preemption bound; random: uniform sampling; dpor:
// every Mazurkiewicz trace (search/dpor.h), complete; pct: probabilistic
// concurrency testing (search/pct.h).
enum class Strategy { exhaustive, bounded, random, dpor, pct };
const char* strategy_name(Strategy s);

// Limits of the `search` object and of thread names, which the loader, the schema
// and the replay token decoder all enforce.
constexpr long kMaxPreemptionBound = 20;
constexpr long kMaxIterations = 100000000;
constexpr long kMaxSeed = 1000000;
constexpr long kMaxPctDepth = 16;
constexpr long kMaxExecutionsLimit = 1000000000;
constexpr double kMaxTimeLimitS = 86400;
constexpr size_t kMaxThreadName = 16;

struct SearchSpec {
    Strategy strategy = Strategy::dpor;
    int preemption_bound = 3;
    long iterations = 10000;        // random, pct
    long seed = 0;                  // random, pct
    int depth = 3;                  // pct: the bug depth d
    long max_executions = 0;        // 0 = no limit
    double time_limit_s = 0;        // 0 = no limit
};

struct OrderSpec {
    std::string before_thread, before_step, after_thread, after_step;
    int before_t = -1, after_t = -1;
};

// What a search concludes. A scenario expects one of the first three;
// inconclusive (a search cut short) and error (a replay that does not fit)
// are results only.
enum class Verdict { holds, violated, unsatisfiable, inconclusive, error };
inline const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::holds: return "holds";
        case Verdict::violated: return "violated";
        case Verdict::unsatisfiable: return "unsatisfiable";
        case Verdict::inconclusive: return "inconclusive";
        case Verdict::error: return "error";
    }
    return "?";
}
inline std::ostream& operator<<(std::ostream& o, Verdict v) { return o << verdict_name(v); }
// The verdicts a scenario's `expect` may name, by name.
inline bool parse_expected_verdict(const std::string& name, Verdict& out) {
    for (Verdict v : {Verdict::holds, Verdict::violated, Verdict::unsatisfiable})
        if (name == verdict_name(v)) {
            out = v;
            return true;
        }
    return false;
}

struct Expect {
    Verdict verdict = Verdict::holds;
    std::string invariant;          // for violated
    std::string scope;              // holds: the least scope accepted (complete | bounded | sampled), or empty
};

struct Scenario {
    std::string file;               // as given on the command line
    std::string name, doc, model;
    std::map<std::string, Value> config;   // every knob, defaults filled in
    std::map<std::string, Value> init;     // every init field, defaults filled in
    std::vector<ThreadSpec> threads;
    std::vector<std::string> invariants;   // enabled: the model's and the engine's by default
    SearchSpec search;
    std::vector<OrderSpec> order;
    std::vector<std::string> warnings;  // one line each, printed on stderr by run/validate and in check's record
    Expect expect;
    MemModel memory_model = MemModel::kernel;
    bool memory_model_given = false;
    // The fields that change what an execution does, as canonical JSON:
    // model, memory_model, config, init, threads, invariants, order and
    // search without its limits. Replay tokens hash this (search/token.h),
    // so editing doc, name, expect or a search limit keeps tokens valid.
    std::string behaviour;

    const Value& knob(const std::string& k) const;
    const Value& init_field(const std::string& k) const;
};

// A test's record of the fields Scenario::knob() and init_field() are asked
// for while it lives, as "config.k" or "init.k" (tests/declare_test.cpp:
// prepare() reads exactly the fields its model declares). One at a time.
struct FieldReadLog {
    FieldReadLog();
    ~FieldReadLog();
    FieldReadLog(const FieldReadLog&) = delete;
    std::vector<std::string> reads;
};

// One field of a model's `config` (a knob) or `init`, declared once: how a
// scenario spells it (the FieldSpec: the spec, the schema and `list` show
// it) and how prepare() reads its value into the model's plain
// configuration `Cfg` (a captureless lambda).
template <class Cfg>
struct Knob {
    FieldSpec field;
    void (*read)(Cfg& c, const Value& v);
};

// What a model declares, in one table: its knobs, its init fields, its
// invariants (names from invariants.h), the steps it logs (KFUNC and
// kstep names, for `order` and --coverage) and what some of those steps
// need of the scenario (StepNeeds, for --coverage). declare() fills the
// ModelSpec from it, read() fills a Cfg from a scenario, field by field, so
// no knob name is written twice. tests/declare_test.cpp checks the steps
// against the model source, the fields prepare() looks up against the spec,
// and every need against the declared steps, knobs, init fields and ops.
template <class Cfg>
struct ModelDecl {
    std::vector<Knob<Cfg>> knobs;
    std::vector<Knob<Cfg>> init;
    std::vector<std::string> invariants;
    std::vector<std::string> steps;
    std::vector<StepNeeds> needs;

    void declare(ModelSpec& s) const {
        s.knobs.clear();
        s.init.clear();
        for (const auto& k : knobs) s.knobs.push_back(k.field);
        for (const auto& k : init) s.init.push_back(k.field);
        s.invariants = invariants;
        s.steps = steps;
        s.step_needs = needs;
    }
    void read(const Scenario& sc, Cfg& c) const {
        for (const auto& k : knobs) k.read(c, sc.knob(k.field.name));
        for (const auto& k : init) k.read(c, sc.init_field(k.field.name));
    }
};

// One execution's model state. Constructed inside the simulation (its
// kfields are Relacy atomics), destroyed at the end of the execution.
class ModelRun {
public:
    virtual ~ModelRun() = default;
    // Run thread t's ops, in order.
    virtual void thread(int t) = 0;
    // Invariants checked after every state-changing step. Use peek() only.
    virtual void check_step() {}
    // Invariants on object `id` as it is freed, in the free's own step
    // (after its scheduling point, while the object is still alive): what
    // must no longer point at it. Use peek() only.
    virtual void check_free(int id) { (void)id; }
    // Invariants checked once every thread has finished (balances, leaks).
    virtual void check_final() {}
    // The final state of the objects, one "object: state" line each. peek() only.
    virtual void final_state(std::string& out) const { (void)out; }
};

// A scenario the model cannot run (a bad combination of knobs, init fields
// and ops), thrown by prepare(): `path` is the JSON path of the field at
// fault ("init.open_files", "threads[1].ops"), `what()` the rest of the
// line (the bad value and what is accepted). The loader turns it into its
// one-line error with the file name, exit 2.
struct ModelError : std::runtime_error {
    std::string path;
    ModelError(std::string p, const std::string& msg) : std::runtime_error(msg), path(std::move(p)) {}
};

class Model {
public:
    virtual ~Model() = default;
    virtual const ModelSpec& spec() const = 0;
    // Digest the scenario into plain data. Outside the simulation. Throws
    // ModelError for a scenario the model cannot run.
    virtual void prepare(const Scenario& s) = 0;
    // Create this execution's state, inside the simulation.
    virtual ModelRun* start() = 0;
    // Metrics a model reports per execution (e.g. lockref updates per open).
    virtual std::map<std::string, double> metrics() const { return {}; }
};

// Allocate a ModelRun outside Relacy's heap (a Relacy free adds a branch to
// every explored execution). The engine frees it with destroy_run().
template <class R, class... A>
ModelRun* make_run(A&&... a) {
    void* mem = std::malloc(sizeof(R));
    return new (mem) R(std::forward<A>(a)...);
}
inline void destroy_run(ModelRun* r) {
    r->~ModelRun();
    std::free(r);
}

// Registry: each model file has `static ModelRegistrar reg(new MyModel);`.
std::vector<Model*>& models();
Model* find_model(const std::string& name);
struct ModelRegistrar {
    explicit ModelRegistrar(Model* m) { models().push_back(m); }
};
// A model made at run time (a litmus test): found by find_model() while it
// is registered, but not listed by `list` or the schema.
void register_runtime_model(Model* m);
void unregister_runtime_model(Model* m);

}  // namespace vfsmc
