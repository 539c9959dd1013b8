// vfsmc: the scenario loader (see scenario.h and docs/scenario-format.md).
#include "scenario/scenario.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>

#include "contract/invariants.h"
#include "base/printable.h"
#include "scenario/schema.h"

namespace vfsmc {

using json = nlohmann::json;

namespace {

const char* kTopFields[] = {"$schema", "name", "doc", "model", "memory_model", "config", "init", "threads",
                            "invariants", "without", "search", "order", "expect"};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string out;
    for (size_t i = 0; i < v.size(); i++) {
        if (i) out += sep;
        out += v[i];
    }
    return out;
}

// A bad value as it appears in an error line: JSON, ASCII only (so a cut
// never splits a UTF-8 sequence), at most 60 characters. Values are at most
// kMaxDepth deep (checked before parsing), so dump() cannot recurse far.
std::string show(const json& j) {
    std::string s = j.dump(-1, ' ', true, json::error_handler_t::replace);
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
}

// A scenario nests 5 levels deep; anything past this is garbage, and deeper
// values would make the recursive parts of nlohmann::json (dump, copy)
// overflow the stack.
constexpr int kMaxDepth = 32;
constexpr size_t kMaxFileBytes = 1u << 20;

// Line and column (1-based, in bytes) of a byte offset.
std::string where(const std::string& text, size_t off) {
    int line = 1, col = 1;
    for (size_t i = 0; i < off && i < text.size(); i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// The offset at which brackets nest deeper than kMaxDepth, or npos.
size_t too_deep(const std::string& text) {
    int depth = 0;
    bool in_str = false, esc = false;
    for (size_t i = 0; i < text.size(); i++) {
        char ch = text[i];
        if (in_str) {
            if (esc) esc = false;
            else if (ch == '\\') esc = true;
            else if (ch == '"') in_str = false;
        } else if (ch == '"') {
            in_str = true;
        } else if (ch == '[' || ch == '{') {
            if (++depth > kMaxDepth) return i;
        } else if (ch == ']' || ch == '}') {
            depth--;
        }
    }
    return std::string::npos;
}

// One printable ASCII line: control characters and bytes outside ASCII
// (nlohmann quotes the raw input it choked on, which may not be UTF-8) are
// written as \xNN.
std::string one_line(const std::string& in) {
    std::string out;
    for (unsigned char ch : in) {
        if (ch < 0x20 || ch >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", ch);
            out += buf;
        } else {
            out += (char)ch;
        }
    }
    return out;
}

// The DOM parser, but every error (syntax errors and number overflow, which
// nlohmann reports as out_of_range without a position) is kept with its
// offset instead of thrown.
std::string member(const std::string& path, const std::string& key);

struct Sax : nlohmann::detail::json_sax_dom_parser<json> {
    using base = nlohmann::detail::json_sax_dom_parser<json>;
    using base::base;
    bool failed = false;
    size_t pos = 0;
    std::string what;
    // Duplicate keys: the DOM parser would keep the last silently. Each
    // open object or array is a frame: its keys, or the index of its next
    // element, for the JSON path of the duplicate.
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;
        size_t next = 0;
    };
    std::vector<Frame> frames;
    std::string duplicate_path;
    std::string path() const {
        std::string p;
        for (const auto& f : frames) {
            if (f.object) p = member(p, f.key);
            else p += "[" + std::to_string(f.next - 1) + "]";
        }
        return p;
    }
    void element() {
        if (!frames.empty() && !frames.back().object) frames.back().next++;
    }
    bool null() { element(); return base::null(); }
    bool boolean(bool v) { element(); return base::boolean(v); }
    bool number_integer(number_integer_t v) { element(); return base::number_integer(v); }
    bool number_unsigned(number_unsigned_t v) { element(); return base::number_unsigned(v); }
    bool number_float(number_float_t v, const string_t& s) { element(); return base::number_float(v, s); }
    bool string(string_t& v) { element(); return base::string(v); }
    bool start_object(std::size_t n) {
        element();
        frames.push_back({true, {}, "", 0});
        return base::start_object(n);
    }
    bool end_object() {
        frames.pop_back();
        return base::end_object();
    }
    bool start_array(std::size_t n) {
        element();
        frames.push_back({false, {}, "", 0});
        return base::start_array(n);
    }
    bool end_array() {
        frames.pop_back();
        return base::end_array();
    }
    bool key(string_t& k) {
        Frame& f = frames.back();
        f.key = k;
        if (!f.keys.insert(k).second) {
            duplicate_path = path();
            return false;
        }
        return base::key(k);
    }
    bool parse_error(std::size_t p, const std::string&, const nlohmann::detail::exception& ex) {
        failed = true;
        pos = p;
        what = ex.what();
        return false;
    }
};

// JSON Schema's "integer": a number with no fractional part, so 3 and 3.0
// (as docs/scenario.schema.json accepts). Values beyond `long` are clamped,
// which every range check then rejects.
bool integer_value(const json& j, long& out) {
    if (j.is_number_unsigned()) {
        auto u = j.get<json::number_unsigned_t>();
        out = u > (json::number_unsigned_t)LONG_MAX ? LONG_MAX : (long)u;
        return true;
    }
    if (j.is_number_integer()) {
        out = (long)j.get<json::number_integer_t>();
        return true;
    }
    if (j.is_number_float()) {
        double d = j.get<double>();
        if (!std::isfinite(d) || std::trunc(d) != d) return false;
        out = d >= 9.2e18 ? LONG_MAX : d <= -9.2e18 ? LONG_MIN : (long)d;
        return true;
    }
    return false;
}

// The JSON path of a member: `path.key`, or `path["key"]` (JSON-escaped,
// ASCII) for a key that is not a plain name, so the error stays one line.
std::string member(const std::string& path, const std::string& key) {
    bool plain = !key.empty();
    for (char ch : key) plain &= std::isalnum((unsigned char)ch) || ch == '_' || ch == '-' || ch == '$';
    if (!plain || key.size() > kMaxShownValue) {
        std::string k = json(key).dump(-1, ' ', true, json::error_handler_t::replace);
        if (k.size() > kMaxShownValue) k = k.substr(0, kMaxShownValue - 4) + "...\"";
        return path + "[" + k + "]";
    }
    return path.empty() ? key : path + "." + key;
}

// Levenshtein distance, for "did you mean".
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++) row[j] = j;
    for (size_t i = 1; i <= a.size(); i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); j++) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// The accepted name closest to `got`, if it is close enough to be a typo
// (at most a third of its letters differ: "seeds" -> "seed", but not
// "P2" -> "P0" or "tso" -> "sc"), else "".
std::string closest(const std::string& got, const std::vector<std::string>& names) {
    std::string best;
    size_t best_d = got.size() / 3 + 1;
    for (const auto& n : names) {
        size_t d = edit_distance(got, n);
        if (d < best_d) {
            best_d = d;
            best = n;
        }
    }
    return best;
}

// "accepted: ..." for a name list: with a close match, the suggestion, and
// the list only when it is short (at most `listed` names).
std::string did_you_mean(const json& got, const std::vector<std::string>& names, const std::string& what, size_t listed = 12) {
    std::string hint = got.is_string() ? closest(got.get<std::string>(), names) : "";
    if (hint.empty()) return "; accepted: " + (names.empty() ? std::string("none") : join(names));
    std::string list = names.size() > listed ? "one of " + std::to_string(names.size()) + " " + what + " (`vfsmc list` shows them)"
                                         : join(names);
    return "; did you mean \"" + hint + "\"? accepted: " + list;
}

struct Ctx {
    std::string file;
    // A bad name among `names`, with "did you mean" for a likely typo.
    [[noreturn]] void bad_name(const std::string& path, const json& value, const std::vector<std::string>& names,
                               const std::string& what) const {
        fail(path, "bad value " + show(value) + did_you_mean(value, names, what));
    }
    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw LoadError(file + ": " + path + ": " + what);
    }
    [[noreturn]] void bad(const std::string& path, const json& value, const std::string& accepted) const {
        fail(path, "bad value " + show(value) + "; accepted: " + accepted);
    }
    const json& need(const json& obj, const std::string& path, const char* key, const std::string& accepted) const {
        auto it = obj.find(key);
        if (it == obj.end()) fail(path.empty() ? key : path + "." + key, "missing required field; accepted: " + accepted);
        return *it;
    }
    std::string str(const json& j, const std::string& path, const std::string& accepted = "a string") const {
        if (!j.is_string()) bad(path, j, accepted);
        return j.get<std::string>();
    }
    // An unknown field: the accepted fields are listed in full (`vfsmc list`
    // does not show a scenario's fields; there are 13 at the top level).
    void only(const json& obj, const std::string& path, const std::vector<std::string>& keys) const {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            bool ok = false;
            for (const auto& k : keys) ok |= (k == it.key());
            if (!ok) fail(member(path, it.key()), "unknown field" + did_you_mean(json(it.key()), keys, "fields", 16));
        }
    }
};

// A string knob, init field or op argument names something (a file name,
// a list of names): a control character in it (NUL, ESC, C1) or a
// bidirectional formatting character would make two names print alike, or
// a name that the kernel cannot have (a NUL ends a name component).
const char* kPlainText = "a string without control or bidirectional formatting characters";
bool has_control(const std::string& v) {
    for (size_t i = 0; i < v.size(); i++) {
        unsigned char ch = (unsigned char)v[i];
        if (ch < 0x20 || ch == 0x7f) return true;
        // U+0080..U+009F (C2 80..9F), U+200E/F, U+202A..U+202E, U+2066..U+2069,
        // U+061C, U+FEFF: as printable() escapes them.
        if (ch == 0xc2 && i + 1 < v.size() && (unsigned char)v[i + 1] <= 0x9f) return true;
        if (ch == 0xd8 && i + 1 < v.size() && (unsigned char)v[i + 1] == 0x9c) return true;
        if (ch == 0xe2 && i + 2 < v.size()) {
            unsigned char b = (unsigned char)v[i + 1], c = (unsigned char)v[i + 2];
            if (b == 0x80 && (c == 0x8e || c == 0x8f || (c >= 0xaa && c <= 0xae))) return true;
            if (b == 0x81 && c >= 0xa6 && c <= 0xa9) return true;
        }
        if (ch == 0xef && i + 2 < v.size() && (unsigned char)v[i + 1] == 0xbb && (unsigned char)v[i + 2] == 0xbf) return true;
    }
    return false;
}

// What a knob, init field or op argument accepts, for error lines.
std::string accepted_of(const FieldSpec& f) {
    switch (f.type) {
        case ArgType::Str: return "a string";
        case ArgType::Int: return "an integer from " + std::to_string(f.min) + " to " + std::to_string(f.max);
        case ArgType::Bool: return "true or false";
        case ArgType::Enum: return join(f.allowed);
    }
    return "?";
}

Value to_value(const Ctx& c, const FieldSpec& f, const json& j, const std::string& path) {
    Value v;
    switch (f.type) {
        case ArgType::Str:
            v.s = c.str(j, path);
            if (has_control(v.s)) c.bad(path, j, kPlainText);
            break;
        case ArgType::Int:
            if (!integer_value(j, v.i) || v.i < f.min || v.i > f.max) c.bad(path, j, accepted_of(f));
            v.s = std::to_string(v.i);
            break;
        case ArgType::Bool:
            if (!j.is_boolean()) c.bad(path, j, "true or false");
            v.b = j.get<bool>();
            v.s = v.b ? "true" : "false";
            break;
        case ArgType::Enum: {
            std::string acc = join(f.allowed);
            if (!j.is_string()) c.bad(path, j, acc);
            v.s = j.get<std::string>();
            bool ok = false;
            for (const auto& a : f.allowed) ok |= (a == v.s);
            if (!ok) c.bad_name(path, j, f.allowed, "values");
            break;
        }
    }
    return v;
}

Value default_value(const FieldSpec& f) {
    Value v;
    v.s = f.def;
    if (f.type == ArgType::Int) v.i = f.def.empty() ? 0 : std::stol(f.def);
    if (f.type == ArgType::Bool) v.b = f.def == "true";
    return v;
}

std::map<std::string, Value> load_fields(const Ctx& c, const json* obj, const std::string& path,
                                         const std::vector<FieldSpec>& specs, const std::string& what) {
    std::map<std::string, Value> out;
    std::vector<std::string> names;
    for (const auto& f : specs) names.push_back(f.name);
    if (obj) {
        if (!obj->is_object()) c.bad(path, *obj, "an object of " + what + " (" + (names.empty() ? "none" : join(names)) + ")");
        for (auto it = obj->begin(); it != obj->end(); ++it) {
            const FieldSpec* f = nullptr;
            for (const auto& s : specs)
                if (s.name == it.key()) f = &s;
            if (!f)
                c.fail(member(path, it.key()), "unknown " + what + did_you_mean(json(it.key()), names, what + "s"));
            out[f->name] = to_value(c, *f, it.value(), path + "." + it.key());
        }
    }
    for (const auto& f : specs) {
        if (out.count(f.name)) continue;
        if (f.required) c.fail(path + "." + f.name, "missing required " + what + "; accepted: " + accepted_of(f));
        out[f.name] = default_value(f);
    }
    return out;
}

}  // namespace

std::string strategy_names() { return join(strategy_list()); }
bool parse_strategy(const std::string& name, Strategy& out) {
    const StrategyRow* r = strategy_named(name);
    if (r) out = r->strategy;
    return r != nullptr;
}
std::vector<std::string> memory_model_list() { return {"sc", "kernel"}; }
bool parse_memory_model(const std::string& name, MemModel& out) {
    if (name == "sc") out = MemModel::sc;
    else if (name == "kernel") out = MemModel::kernel;
    else return false;
    return true;
}
std::string suggest_name(const std::string& got, const std::vector<std::string>& names) { return closest(got, names); }

namespace {
FieldReadLog* g_field_reads = nullptr;  // the live test record, if any
}
FieldReadLog::FieldReadLog() { g_field_reads = this; }
FieldReadLog::~FieldReadLog() { g_field_reads = nullptr; }

const Value& Scenario::knob(const std::string& k) const {
    static const Value empty;
    if (g_field_reads) g_field_reads->reads.push_back("config." + k);
    auto it = config.find(k);
    return it == config.end() ? empty : it->second;
}

const Value& Scenario::init_field(const std::string& k) const {
    static const Value empty;
    if (g_field_reads) g_field_reads->reads.push_back("init." + k);
    auto it = init.find(k);
    return it == init.end() ? empty : it->second;
}

// parse_scenario, one function per section of the file, in the order the
// driver calls them (the order decides which of two errors is reported).
namespace {

// The text as one JSON document: empty, too deep, NUL bytes, syntax errors
// and duplicate keys are refused with the line and column (or JSON path).
json parse_document(const Ctx& c, const std::string& text) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw LoadError(c.file + ": line 1, column 1: invalid JSON: the file is empty; accepted: a JSON object");
    if (size_t d = too_deep(text); d != std::string::npos)
        throw LoadError(c.file + ": " + where(text, d) + ": invalid JSON: nested deeper than " +
                        std::to_string(kMaxDepth) + " levels; accepted: a scenario object (5 levels deep)");
    // nlohmann's lexer ends the document at a NUL byte: `{...}\0GARBAGE`
    // would pass.
    if (size_t z = text.find('\0'); z != std::string::npos)
        throw LoadError(c.file + ": " + where(text, z) + ": invalid JSON: a NUL byte; accepted: JSON text without NUL bytes");
    json j;
    Sax sax(j, false);
    bool parsed = false;
    try {
        parsed = json::sax_parse(text, &sax) && !sax.failed;
    } catch (const json::exception& e) {
        sax.failed = true;
        sax.what = e.what();
    }
    if (!parsed && !sax.duplicate_path.empty())
        c.fail(sax.duplicate_path, "duplicate key; accepted: each key once in an object");
    if (!parsed) {
        // nlohmann gives the byte offset just past the bad token.
        std::string what = sax.what.empty() ? "not a JSON document" : sax.what;
        if (auto p = what.find("] "); what.compare(0, 15, "[json.exception") == 0 && p != std::string::npos)
            what = what.substr(p + 2);
        if (auto p = what.find(": syntax error"); what.compare(0, 14, "parse error at") == 0 && p != std::string::npos)
            what = what.substr(p + 2);
        throw LoadError(c.file + ": " + where(text, sax.pos ? sax.pos - 1 : 0) + ": invalid JSON: " + one_line(what));
    }
    return j;
}

// The top level: an object of known fields; `$schema`, `name` (the file
// stem) and `doc`.
void parse_top_level(const Ctx& c, const json& j, const std::string& file, Scenario& s) {
    if (!j.is_object()) c.bad("(top level)", j, "a JSON object with fields name, doc, model, threads, expect, ...");
    std::vector<std::string> top(std::begin(kTopFields), std::end(kTopFields));
    c.only(j, "", top);
    s.file = file;
    // `$schema` is for editors (docs/scenario.schema.json); the loader ignores it.
    if (j.contains("$schema")) c.str(j["$schema"], "$schema", "a string: the path or URL of docs/scenario.schema.json");
    // `name` is the file stem.
    std::string stem = file;
    if (auto p = stem.find_last_of('/'); p != std::string::npos) stem = stem.substr(p + 1);
    if (auto p = stem.rfind(".json"); p != std::string::npos && p + 5 == stem.size()) stem = stem.substr(0, p);
    std::string stem_text = "the file stem \"" + stem + "\"";
    s.name = c.str(c.need(j, "", "name", stem_text), "name", stem_text);
    if (s.name != stem && !stem.empty()) c.bad("name", j["name"], stem_text);
    const char* doc_text = "a paragraph saying what the scenario asks and which patch or claim it comes from";
    s.doc = c.str(c.need(j, "", "doc", doc_text), "doc", doc_text);
    if (s.doc.empty()) c.bad("doc", j["doc"], doc_text);
}

// `model`: one of the built-in models.
Model* parse_model(const Ctx& c, const json& j, Scenario& s) {
    std::vector<std::string> model_names;
    for (Model* m : models()) model_names.push_back(m->spec().name);
    std::string models_text = model_names.empty() ? "a built-in model (none are built in)" : join(model_names);
    const json& jm = c.need(j, "", "model", models_text);
    s.model = c.str(jm, "model", models_text);
    Model* model = find_model(s.model);
    if (!model) c.bad_name("model", jm, model_names, "models");
    return model;
}

// `memory_model`: sc or kernel; whether it was given is kept (a violated
// expectation must state it).
void parse_memory_model_field(const Ctx& c, const json& j, Scenario& s) {
    if (!j.contains("memory_model")) return;
    std::string mm = c.str(j["memory_model"], "memory_model", "sc, kernel");
    if (!parse_memory_model(mm, s.memory_model)) c.bad_name("memory_model", j["memory_model"], memory_model_list(), "memory models");
    s.memory_model_given = true;
}

// `config`: the model's knobs.
void parse_config(const Ctx& c, const json& j, const ModelSpec& ms, Scenario& s) {
    s.config = load_fields(c, j.contains("config") ? &j["config"] : nullptr, "config", ms.knobs, "knob of model " + ms.name);
}

// `init`: the model's initial-state fields.
void parse_init(const Ctx& c, const json& j, const ModelSpec& ms, Scenario& s) {
    s.init = load_fields(c, j.contains("init") ? &j["init"] : nullptr, "init", ms.init, "init field of model " + ms.name);
}

// One op of a thread: a bare op name or {"op": name, args...}.
OpCall parse_op(const Ctx& c, const json& jo, const std::string& op_path, const ModelSpec& ms, const Scenario& s,
                const std::vector<std::string>& op_names) {
    json obj = jo.is_string() ? json{{"op", jo}} : jo;
    if (!obj.is_object()) c.bad(op_path, jo, "an op name or an object {\"op\": name, args...}");
    const json& jn = c.need(obj, op_path, "op", join(op_names));
    std::string on = c.str(jn, op_path + ".op", join(op_names));
    int idx = -1;
    for (size_t k = 0; k < ms.ops.size(); k++)
        if (ms.ops[k].name == on) idx = (int)k;
    if (idx < 0) c.bad_name(op_path + ".op", jn, op_names, "ops of the " + s.model + " model");
    const OpSpec& os = ms.ops[idx];
    OpCall call;
    call.op = idx;
    call.name = on;
    std::vector<std::string> arg_names;
    for (const auto& a : os.args) arg_names.push_back(a.name);
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (it.key() == "op") continue;
        bool ok = false;
        for (const auto& a : arg_names) ok |= a == it.key();
        if (!ok)
            c.fail(member(op_path, it.key()), "unknown argument of op " + on + "; accepted: " +
                                                  (arg_names.empty() ? "none" : join(arg_names)));
    }
    for (const auto& a : os.args) {
        std::string ap = op_path + "." + a.name;
        if (obj.contains(a.name)) call.args.push_back(to_value(c, a, obj[a.name], ap));
        else if (a.required) c.fail(ap, "missing required argument of op " + on + "; accepted: " + accepted_of(a));
        else call.args.push_back(default_value(a));
    }
    return call;
}

// `threads`: named threads, each a non-empty list of ops.
void parse_threads(const Ctx& c, const json& j, const ModelSpec& ms, Scenario& s) {
    std::string trange = "an array of " + std::to_string(ms.min_threads) + " to " + std::to_string(ms.max_threads) + " threads";
    const json& jt = c.need(j, "", "threads", trange);
    if (!jt.is_array()) c.bad("threads", jt, trange);
    if ((int)jt.size() < ms.min_threads || (int)jt.size() > ms.max_threads)
        c.fail("threads", "thread count " + std::to_string(jt.size()) + " out of range; accepted: " +
                              std::to_string(ms.min_threads) + " to " + std::to_string(ms.max_threads) + " threads");
    std::vector<std::string> op_names;
    for (const auto& o : ms.ops) op_names.push_back(o.name);
    std::set<std::string> seen_threads;
    for (size_t ti = 0; ti < jt.size(); ti++) {
        std::string tp = "threads[" + std::to_string(ti) + "]";
        const json& th = jt[ti];
        if (!th.is_object()) c.bad(tp, th, "an object {\"name\": ..., \"ops\": [...]}");
        c.only(th, tp, {"name", "ops"});
        ThreadSpec ts;
        const std::string tname_text = "a thread name of 1 to " + std::to_string(kMaxThreadName) +
                                       " letters, digits, '_' or '-', such as \"P0\"";
        ts.name = c.str(c.need(th, tp, "name", tname_text), tp + ".name", tname_text);
        bool name_ok = !ts.name.empty() && ts.name.size() <= kMaxThreadName;
        for (char ch : ts.name) name_ok &= std::isalnum((unsigned char)ch) || ch == '_' || ch == '-';
        if (!name_ok) c.bad(tp + ".name", th["name"], tname_text);
        if (!seen_threads.insert(ts.name).second) c.bad(tp + ".name", th["name"], "a name no other thread has (duplicate thread name)");
        const json& ops = c.need(th, tp, "ops", "a non-empty array of ops");
        if (!ops.is_array() || ops.empty()) c.bad(tp + ".ops", ops, "a non-empty array of ops");
        if (ms.max_ops && ops.size() > (size_t)ms.max_ops)
            c.fail(tp + ".ops", std::to_string(ops.size()) + " ops; accepted: at most " + std::to_string(ms.max_ops) +
                                    " ops per thread in model " + ms.name);
        for (size_t oi = 0; oi < ops.size(); oi++)
            ts.ops.push_back(parse_op(c, ops[oi], tp + ".ops[" + std::to_string(oi) + "]", ms, s, op_names));
        s.threads.push_back(std::move(ts));
    }
    if ((int)s.threads.size() > kMaxScenarioThreads)
        c.fail("threads", "thread count out of range; accepted: at most " + std::to_string(kMaxScenarioThreads));
}

// `invariants`: a subset of the model's invariants; all of them when absent.
void parse_invariant_list(const Ctx& c, const json& j, const std::vector<std::string>& accepted_inv, Scenario& s) {
    const json& ji = j["invariants"];
    if (!ji.is_array() || ji.empty()) c.bad("invariants", ji, "a non-empty array of invariant names");
    for (size_t k = 0; k < ji.size(); k++) {
        std::string p = "invariants[" + std::to_string(k) + "]";
        std::string n = c.str(ji[k], p, join(accepted_inv));
        bool ok = false;
        for (const auto& a : accepted_inv) ok |= a == n;
        if (!ok) c.bad_name(p, ji[k], accepted_inv, "invariants");
        s.invariants.push_back(n);
    }
}

// `without`: invariants left out of those (every one of the model's and the
// engine's when `invariants` is absent), as `run --without` does.
void parse_invariants(const Ctx& c, const json& j, const std::vector<std::string>& accepted_inv, Scenario& s) {
    if (!j.contains("invariants")) {
        s.invariants = accepted_inv;
    } else {
        parse_invariant_list(c, j, accepted_inv, s);
    }
    if (!j.contains("without")) return;
    const json& jw = j["without"];
    if (!jw.is_array() || jw.empty()) c.bad("without", jw, "a non-empty array of invariant names to leave out");
    for (size_t k = 0; k < jw.size(); k++) {
        std::string p = "without[" + std::to_string(k) + "]";
        std::string n = c.str(jw[k], p, join(s.invariants));
        auto it = std::find(s.invariants.begin(), s.invariants.end(), n);
        if (it == s.invariants.end()) c.bad_name(p, jw[k], s.invariants, "invariants the scenario checks");
        s.invariants.erase(it);
    }
    if (s.invariants.empty()) c.bad("without", jw, "a list that leaves at least one invariant checked");
}

// `search`: the strategy and its parameters; each parameter only with the
// strategies it means something to.
void parse_search(const Ctx& c, const json& j, Scenario& s) {
    if (!j.contains("search")) return;
    const json& js = j["search"];
    if (!js.is_object()) {
        std::string alts;
        for (const auto& n : strategy_list()) alts += (alts.empty() ? "" : "|") + n;
        c.bad("search", js, "an object {\"strategy\": " + alts + ", ...}");
    }
    c.only(js, "search", {"strategy", "preemption_bound", "iterations", "seed", "depth", "max_executions", "time_limit_s"});
    std::string st = c.str(c.need(js, "search", "strategy", strategy_names()), "search.strategy", strategy_names());
    if (!parse_strategy(st, s.search.strategy)) c.bad_name("search.strategy", js["strategy"], strategy_list(), "strategies");
    auto int_field = [&](const char* k, long lo, long hi, long& out) {
        if (!js.contains(k)) return;
        const json& v = js[k];
        std::string p = std::string("search.") + k;
        std::string acc = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
        long x = 0;
        if (!integer_value(v, x) || x < lo || x > hi) c.bad(p, v, acc);
        out = x;
    };
    long pb = s.search.preemption_bound;
    int_field("preemption_bound", 0, kMaxPreemptionBound, pb);
    s.search.preemption_bound = (int)pb;
    if (js.contains("preemption_bound") && s.search.strategy != Strategy::bounded)
        c.fail("search.preemption_bound", "only meaningful with strategy \"bounded\"; accepted: omit it, or use \"bounded\"");
    bool sampling = s.search.strategy == Strategy::random || s.search.strategy == Strategy::pct;
    if (sampling && !js.contains("iterations"))
        c.fail("search.iterations", std::string("missing required field of a ") + strategy_name(s.search.strategy) +
                                        " search; accepted: an integer from 1 to " + std::to_string(kMaxIterations));
    int_field("iterations", 1, kMaxIterations, s.search.iterations);
    if (js.contains("iterations") && !sampling)
        c.fail("search.iterations", "only meaningful with strategy \"random\" or \"pct\"; accepted: omit it, or use \"random\" or \"pct\"");
    int_field("seed", 0, kMaxSeed, s.search.seed);
    if (js.contains("seed") && !sampling)
        c.fail("search.seed", "only meaningful with strategy \"random\" or \"pct\"; accepted: omit it, or use \"random\" or \"pct\"");
    long depth = s.search.depth;
    int_field("depth", 1, kMaxPctDepth, depth);
    s.search.depth = (int)depth;
    if (js.contains("depth") && s.search.strategy != Strategy::pct)
        c.fail("search.depth", "only meaningful with strategy \"pct\"; accepted: omit it, or use \"pct\"");
    int_field("max_executions", 1, kMaxExecutionsLimit, s.search.max_executions);
    if (js.contains("time_limit_s")) {
        const json& v = js["time_limit_s"];
        if (!v.is_number() || v.get<double>() <= 0 || v.get<double>() > kMaxTimeLimitS)
            c.bad("search.time_limit_s", v, "a number of seconds greater than 0, at most " + std::to_string((long)kMaxTimeLimitS));
        s.search.time_limit_s = v.get<double>();
    }
}

// One side of an `order` constraint: {thread, step}, naming a thread of
// the scenario and a step of the model.
void parse_order_side(const Ctx& c, const json& e, const std::string& p, const char* which, const ModelSpec& ms,
                      const Scenario& s, const std::vector<std::string>& tnames, std::string& thread,
                      std::string& step, int& tidx) {
    std::string sp = p + "." + which;
    const json& sj = c.need(e, p, which, "an object {\"thread\": name, \"step\": kernel function or step}");
    if (!sj.is_object()) c.bad(sp, sj, "an object {\"thread\": name, \"step\": kernel function or step}");
    c.only(sj, sp, {"thread", "step"});
    thread = c.str(c.need(sj, sp, "thread", join(tnames)), sp + ".thread", join(tnames));
    tidx = -1;
    for (size_t q = 0; q < tnames.size(); q++)
        if (tnames[q] == thread) tidx = (int)q;
    if (tidx < 0) c.bad_name(sp + ".thread", sj["thread"], tnames, "threads");
    step = c.str(c.need(sj, sp, "step", join(ms.steps)), sp + ".step", join(ms.steps));
    bool ok = false;
    for (const auto& st : ms.steps) ok |= st == step;
    if (!ok) c.bad_name(sp + ".step", sj["step"], ms.steps, "steps of the " + s.model + " model");
}

// `order`: constraints "this step of one thread before that step of
// another"; a warning for a step logged after the access it reports.
void parse_order(const Ctx& c, const json& j, const ModelSpec& ms, Scenario& s) {
    if (!j.contains("order")) return;
    const json& jo = j["order"];
    if (!jo.is_array() || jo.empty()) c.bad("order", jo, "a non-empty array of {\"before\": {thread, step}, \"after\": {thread, step}}");
    if (jo.size() > (size_t)kMaxOrder) c.fail("order", "too many constraints; accepted: at most " + std::to_string(kMaxOrder));
    std::vector<std::string> tnames;
    for (const auto& t : s.threads) tnames.push_back(t.name);
    for (size_t k = 0; k < jo.size(); k++) {
        std::string p = "order[" + std::to_string(k) + "]";
        const json& e = jo[k];
        if (!e.is_object()) c.bad(p, e, "an object {\"before\": {thread, step}, \"after\": {thread, step}}");
        c.only(e, p, {"before", "after"});
        OrderSpec os;
        parse_order_side(c, e, p, "before", ms, s, tnames, os.before_thread, os.before_step, os.before_t);
        parse_order_side(c, e, p, "after", ms, s, tnames, os.after_thread, os.after_step, os.after_t);
        if (os.before_t == os.after_t)
            c.fail(p, "before and after name the same thread " + os.before_thread +
                          "; accepted: steps of two different threads (program order already orders one thread)");
        for (const auto& sa : ms.steps_after_access)
            if (sa.step == os.after_step)
                s.warnings.push_back(s.file + ": " + p + ".after.step: \"" + sa.step + "\" is logged after the access it reports (" +
                                     sa.access + "): the constraint holds " + os.after_thread +
                                     " back from the step on, not that access; to hold the access back too, name \"" +
                                     sa.enclosing + "\"");
        s.order.push_back(os);
    }
}

// `expect`: a verdict string or {verdict, invariant, scope}, and how it
// fits the rest of the scenario (memory model, enabled invariants, order).
void parse_expect(const Ctx& c, const json& j, const std::vector<std::string>& accepted_inv, Scenario& s) {
    const char* expect_text = "\"holds\", \"unsatisfiable\", or {\"verdict\": \"violated\", \"invariant\": name}";
    const json& je = c.need(j, "", "expect", expect_text);
    std::string verdict;
    if (je.is_string()) {
        verdict = je.get<std::string>();
    } else if (je.is_object()) {
        c.only(je, "expect", {"verdict", "invariant", "scope"});
        verdict = c.str(c.need(je, "expect", "verdict", "holds, violated, unsatisfiable"), "expect.verdict",
                        "holds, violated, unsatisfiable");
        if (je.contains("invariant")) s.expect.invariant = c.str(je["invariant"], "expect.invariant", join(accepted_inv));
        if (je.contains("scope")) {
            s.expect.scope = c.str(je["scope"], "expect.scope", "complete, bounded, sampled");
            if (s.expect.scope != "complete" && s.expect.scope != "bounded" && s.expect.scope != "sampled")
                c.bad("expect.scope", je["scope"], "complete, bounded, sampled");
        }
    } else {
        c.bad("expect", je, expect_text);
    }
    if (!parse_expected_verdict(verdict, s.expect.verdict))
        c.bad(je.is_object() ? "expect.verdict" : "expect", je.is_object() ? je["verdict"] : je, "holds, violated, unsatisfiable");
    if (s.expect.verdict == Verdict::violated) {
        if (s.expect.invariant.empty())
            c.fail("expect.invariant", "missing required field of a violated expectation; accepted: " + join(accepted_inv));
        bool ok = false;
        for (const auto& a : accepted_inv) ok |= a == s.expect.invariant;
        if (!ok) c.bad_name("expect.invariant", je["invariant"], accepted_inv, "invariants");
        if (!s.memory_model_given)
            c.fail("memory_model", "missing: a scenario that expects a violation states its memory model; accepted: sc, kernel");
        bool enabled = false;
        for (const auto& a : s.invariants) enabled |= a == s.expect.invariant;
        if (!enabled)
            c.fail("expect.invariant", "\"" + s.expect.invariant + "\" is not among the enabled `invariants`, so it can never be reported; accepted: " + join(s.invariants));
    } else if (!s.expect.invariant.empty()) {
        c.fail("expect.invariant", "only a violated expectation names an invariant; accepted: omit it");
    }
    if (!s.expect.scope.empty() && s.expect.verdict != Verdict::holds)
        c.fail("expect.scope", "only a holds expectation states a scope; accepted: omit it");
    if (s.expect.verdict == Verdict::unsatisfiable && s.order.empty())
        c.fail("expect", "\"unsatisfiable\" needs `order` constraints; accepted: holds, violated");
}

// Checks across sections: a search that would explore nothing. (Limits of
// 0 and thread without ops are rejected above; this catches a model that
// allows 0 threads.)
void check_cross_fields(const Ctx& c, const Scenario& s) {
    int total_ops = 0;
    for (const auto& t : s.threads) total_ops += (int)t.ops.size();
    if (total_ops == 0) c.fail("threads", "no ops: the search would explore nothing; accepted: at least one op");
}

// The behaviour key: the fields that decide what the search does, as one
// JSON text. Limits cut a search short; they do not change any execution,
// so they are left out.
std::string behaviour_key(const json& j) {
    json behaviour = json::object();
    for (const char* k : {"model", "memory_model", "config", "init", "threads", "invariants", "order", "search"})
        if (j.contains(k)) behaviour[k] = j[k];
    if (behaviour.contains("search")) {
        behaviour["search"].erase("max_executions");
        behaviour["search"].erase("time_limit_s");
    }
    return behaviour.dump();
}

}  // namespace

Scenario parse_scenario(const std::string& file, const std::string& text) {
    Ctx c{printable(file, kMaxShownFile)};
    const json j = parse_document(c, text);
    Scenario s;
    parse_top_level(c, j, file, s);
    Model* model = parse_model(c, j, s);
    const ModelSpec& ms = model->spec();
    parse_memory_model_field(c, j, s);
    parse_config(c, j, ms, s);
    parse_init(c, j, ms, s);
    parse_threads(c, j, ms, s);
    const std::vector<std::string> accepted_inv = scenario_invariants(ms);
    parse_invariants(c, j, accepted_inv, s);
    parse_search(c, j, s);
    parse_order(c, j, ms, s);
    parse_expect(c, j, accepted_inv, s);
    check_cross_fields(c, s);
    s.behaviour = behaviour_key(j);
    // The model's own checks (combinations of knobs, init fields and ops),
    // on the same path `run` takes: `validate` makes every check `run`
    // makes. Their messages name the JSON path.
    try {
        model->prepare(s);
    } catch (const ModelError& e) {
        throw LoadError(c.file + ": " + printable(e.path, kMaxShownValue) + ": " + e.what());
    }
    return s;
}

Scenario load_scenario(const std::string& file) {
    std::string text = read_input_file(file, kMaxFileBytes, "JSON scenario file");
    return parse_scenario(file, text);
}

std::vector<int> interchangeable_threads(const Scenario& s) {
    int n = (int)s.threads.size();
    std::vector<int> cls(n);
    const Model* m = find_model(s.model);
    bool alike = m && m->spec().interchangeable_threads;
    auto ordered = [&](int t) {
        for (const auto& o : s.order)
            if (o.before_t == t || o.after_t == t) return true;
        return false;
    };
    auto same_ops = [&](int a, int b) {
        const auto& x = s.threads[a].ops;
        const auto& y = s.threads[b].ops;
        if (x.size() != y.size()) return false;
        for (size_t k = 0; k < x.size(); k++) {
            if (x[k].op != y[k].op || x[k].name != y[k].name || x[k].args.size() != y[k].args.size()) return false;
            for (size_t a2 = 0; a2 < x[k].args.size(); a2++)
                if (x[k].args[a2].s != y[k].args[a2].s) return false;
        }
        return true;
    };
    for (int t = 0; t < n; t++) {
        cls[t] = t;
        if (!alike || ordered(t)) continue;
        for (int u = 0; u < t; u++)
            if (cls[u] == u && !ordered(u) && same_ops(u, t)) {
                cls[t] = u;
                break;
            }
    }
    return cls;
}

}  // namespace vfsmc
