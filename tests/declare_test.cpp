// Declare once (issue 15 item 5): every kernel function and named step a
// model logs (KFUNC, kstep, kstep_ev) is declared in its spec's `steps`,
// the list `order` and --coverage use, and every declared step is logged
// somewhere in the model's source. The model source is read as text: a
// step name is a string literal inside one of those calls.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "kernel/model.h"

using namespace vfsmc;

namespace {

std::string read_source(const std::string& rel) {
    std::ifstream in(std::string(VFSMC_SOURCE_DIR) + "/" + rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
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
        std::string src = read_source(std::string("models/") + name + ".cpp");
        REQUIRE(src.size() > 1000);
        std::set<std::string> logged = logged_names(src);
        const auto& steps = m->spec().steps;
        std::set<std::string> declared(steps.begin(), steps.end());
        INFO("model " << name);
        for (const auto& l : logged) {
            INFO("logged but not in spec().steps: " << l);
            CHECK(declared.count(l) == 1);
        }
        // The source without the spec's own list, for steps whose name a
        // caller passes to the function that logs it (dcache's
        // create_begin(d, "nfs_create", "nfs_create:begin"), openref's kname).
        std::string body = src;
        size_t a = body.find("s.steps = {");
        REQUIRE(a != std::string::npos);
        body.erase(a, body.find("};", a) - a);
        for (const auto& d : declared) {
            INFO("declared but never logged: " << d);
            CHECK((logged.count(d) == 1 || body.find("\"" + d + "\"") != std::string::npos));
        }
    }
}
