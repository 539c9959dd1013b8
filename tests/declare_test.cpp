// Declare once (issue 15 item 5): each model declares its knobs, init
// fields, invariants and steps in one table (ModelDecl, contract/model.h).
// - Every kernel function and named step a model logs (KFUNC, kstep,
//   kstep_ev) is declared in its spec's `steps`, the list `order` and
//   --coverage use, and every declared step is logged somewhere in the
//   model's source. The model source is read as text: a step name is a
//   string literal inside one of those calls.
// - prepare() looks up exactly the knobs and init fields the spec declares:
//   none declared and never read, none read and never declared.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "contract/model.h"
#include "scenario/scenario.h"

using namespace vfsmc;

namespace {

std::string read_source(const std::string& rel) {
    std::ifstream in(std::string(VFSMC_SOURCE_DIR) + "/" + rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A model's source: models/<name>.cpp, or every .cpp and .h file under
// models/<name>/, concatenated.
std::string model_source(const std::string& name) {
    std::string one = read_source("models/" + name + ".cpp");
    if (!one.empty()) return one;
    std::string dir = std::string(VFSMC_SOURCE_DIR) + "/models/" + name;
    std::vector<std::string> files;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string f = e->d_name;
            if (f.size() > 4 && (f.substr(f.size() - 4) == ".cpp" || f.substr(f.size() - 2) == ".h")) files.push_back(f);
        }
        closedir(d);
    }
    std::sort(files.begin(), files.end());
    std::string all;
    for (const auto& f : files) all += read_source("models/" + name + "/" + f);
    return all;
}

// The first scenario file of a model, in scenarios/<name>/ (sorted).
std::string first_scenario(const std::string& name) {
    std::string dir = std::string(VFSMC_SOURCE_DIR) + "/scenarios/" + name;
    std::vector<std::string> files;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string f = e->d_name;
            if (f.size() > 5 && f.substr(f.size() - 5) == ".json") files.push_back(f);
        }
        closedir(d);
    }
    std::sort(files.begin(), files.end());
    return files.empty() ? std::string() : dir + "/" + files[0];
}

// The string literals in the first argument of every KFUNC / kstep /
// kstep_ev call (a conditional such as KFUNC(v2 ? "a" : "b") gives both).
std::set<std::string> logged_names(const std::string& src) {
    std::set<std::string> out;
    std::regex call(R"(\b(KFUNC|kstep|kstep_ev)\(([^;]*?)(,|\);))");
    std::regex lit("\"([^\"]+)\"");
    for (auto it = std::sregex_iterator(src.begin(), src.end(), call); it != std::sregex_iterator(); ++it) {
        std::string first = (*it)[2];
        for (auto l = std::sregex_iterator(first.begin(), first.end(), lit); l != std::sregex_iterator(); ++l)
            out.insert((*l)[1]);
    }
    return out;
}

}  // namespace

TEST_CASE("issue 15: every step a model logs is declared in its spec, and every declared step is logged", "[declare]") {
    for (const char* name : {"dcache", "chrdev", "openref"}) {
        Model* m = find_model(name);
        REQUIRE(m);
        std::string src = model_source(name);
        REQUIRE(src.size() > 1000);
        std::set<std::string> logged = logged_names(src);
        const auto& steps = m->spec().steps;
        std::set<std::string> declared(steps.begin(), steps.end());
        INFO("model " << name);
        for (const auto& l : logged) {
            INFO("logged but not in spec().steps: " << l);
            CHECK(declared.count(l) == 1);
        }
        // The source without the declaration table, for steps whose name a
        // caller passes to the function that logs it (openref's kname).
        std::string body = src;
        size_t a = body.find("const ModelDecl<");
        REQUIRE(a != std::string::npos);
        body.erase(a, body.find("\n};\n", a) - a);
        for (const auto& d : declared) {
            INFO("declared but never logged: " << d);
            CHECK((logged.count(d) == 1 || body.find("\"" + d + "\"") != std::string::npos));
        }
    }
}

TEST_CASE("issue 15: prepare() reads every knob and init field its model declares, and no other", "[declare]") {
    for (const char* name : {"dcache", "chrdev", "openref"}) {
        Model* m = find_model(name);
        REQUIRE(m);
        std::string file = first_scenario(name);
        INFO("model " << name << ", scenario " << file);
        REQUIRE(!file.empty());
        // The loader runs the model's prepare() on the scenario it loads.
        FieldReadLog log;
        Scenario sc = load_scenario(file);
        std::set<std::string> read(log.reads.begin(), log.reads.end());
        std::set<std::string> declared;
        for (const auto& k : m->spec().knobs) declared.insert("config." + k.name);
        for (const auto& k : m->spec().init) declared.insert("init." + k.name);
        for (const auto& d : declared) {
            INFO("declared but never read by prepare(): " << d);
            CHECK(read.count(d) == 1);
        }
        for (const auto& r : read) {
            INFO("read by prepare() but not declared: " << r);
            CHECK(declared.count(r) == 1);
        }
    }
}

namespace {

// A value a field accepts, as the loader would take it from a scenario.
bool accepts(const FieldSpec& f, const std::string& v) {
    switch (f.type) {
        case ArgType::Enum: return std::find(f.allowed.begin(), f.allowed.end(), v) != f.allowed.end();
        case ArgType::Bool: return v == "true" || v == "false";
        case ArgType::Int: {
            char* end = nullptr;
            long n = std::strtol(v.c_str(), &end, 10);
            return !v.empty() && *end == 0 && n >= f.min && n <= f.max;
        }
        case ArgType::Str: return true;
    }
    return false;
}

const FieldSpec* field_named(const std::vector<FieldSpec>& fs, const std::string& name) {
    for (const auto& f : fs)
        if (f.name == name) return &f;
    return nullptr;
}

// Every problem with one need of `spec`'s step needs, one line each.
void need_problems(const ModelSpec& spec, const StepNeed& n, bool nested, std::vector<std::string>& out) {
    auto values_of = [&](const FieldSpec* f, const std::string& what) {
        if (n.values.empty()) out.push_back(what + ": no values");
        for (const auto& v : n.values)
            if (f && !accepts(*f, v)) out.push_back(what + ": value \"" + v + "\" is not accepted");
    };
    switch (n.kind) {
        case StepNeed::Kind::config:
        case StepNeed::Kind::init: {
            bool config = n.kind == StepNeed::Kind::config;
            const FieldSpec* f = field_named(config ? spec.knobs : spec.init, n.field);
            std::string what = (config ? "config." : "init.") + n.field;
            if (!f) out.push_back(what + ": not declared");
            values_of(f, what);
            break;
        }
        case StepNeed::Kind::call: {
            if (n.ops.empty()) out.push_back("calls: no ops");
            const OpSpec* op = nullptr;
            for (const auto& name : n.ops) {
                const OpSpec* o = nullptr;
                for (const auto& d : spec.ops)
                    if (d.name == name) o = &d;
                if (!o) out.push_back("calls " + name + ": not an op of the model");
                op = o;
            }
            if (n.field.empty()) break;
            if (n.ops.size() != 1) out.push_back("calls_with: one op, not " + std::to_string(n.ops.size()));
            const FieldSpec* a = op ? field_named(op->args, n.field) : nullptr;
            if (!a) out.push_back("calls_with " + n.field + ": not an argument of the op");
            values_of(a, "calls_with " + n.field);
            break;
        }
        case StepNeed::Kind::any:
            if (nested) out.push_back("any_of inside any_of");
            if (n.any.size() < 2) out.push_back("any_of with fewer than two needs");
            for (const auto& a : n.any) need_problems(spec, a, true, out);
            break;
    }
}

}  // namespace

TEST_CASE("every step need names a declared step, and knobs, init fields, ops and values the model accepts", "[declare]") {
    for (const char* name : {"dcache", "chrdev", "openref"}) {
        Model* m = find_model(name);
        REQUIRE(m);
        const ModelSpec& spec = m->spec();
        INFO("model " << name);
        // Each of the three models has steps a config rules out.
        CHECK(!spec.step_needs.empty());
        std::set<std::string> declared(spec.steps.begin(), spec.steps.end()), seen;
        for (const auto& row : spec.step_needs) {
            CHECK(!row.steps.empty());
            CHECK(!row.needs.empty());
            for (const auto& st : row.steps) {
                INFO("step " << st);
                CHECK(declared.count(st) == 1);
                CHECK(seen.insert(st).second);  // one row per step
            }
            std::vector<std::string> problems;
            for (const auto& n : row.needs) need_problems(spec, n, false, problems);
            for (const auto& p : problems) {
                INFO("the row of " << row.steps[0] << ": " << p);
                CHECK(false);
            }
        }
    }
}

TEST_CASE("the check of step needs finds an undeclared knob, a value not accepted and an unknown op", "[declare]") {
    const ModelSpec& spec = find_model("dcache")->spec();
    std::vector<std::string> p;
    need_problems(spec, knob_is("rpc_error", {"true"}), false, p);
    need_problems(spec, calls_with("open_creat", "name", {"foo"}), false, p);
    need_problems(spec, any_of({knob_is("publish", {"d_rehash"}), calls({"lookup"})}), false, p);
    CHECK(p.empty());
    need_problems(spec, knob_is("no_such_knob", {"true"}), false, p);
    need_problems(spec, knob_is("rpc_error", {"yes"}), false, p);
    need_problems(spec, knob_is("publish", {"d_rehash_early"}), false, p);
    need_problems(spec, init_is("rpc_error", {"true"}), false, p);
    need_problems(spec, calls({"unlink"}), false, p);
    need_problems(spec, calls_with("open", "flags", {"O_PATH"}), false, p);
    need_problems(spec, any_of({knob_is("rpc_error", {"true"})}), false, p);
    CHECK(p.size() == 7);
}
