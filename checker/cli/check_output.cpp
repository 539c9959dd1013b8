// vfsmc check: what it writes for CI besides its lines: JUnit XML
// (--junit) and GitHub Actions annotations (--format github); see check.h.
#include "cli/check.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli/cli.h"
#include "report/report.h"
#include "base/printable.h"

namespace vfsmc {

namespace fs = std::filesystem;

std::string xml_esc(const std::string& raw) {
    // Names and file names are untrusted: printable first (XML 1.0 allows no
    // C0 control but tab and newline; the rest would reach a terminal).
    std::string s = printable_lines(raw, 0), o;
    for (unsigned char c : s) {
        switch (c) {
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '&': o += "&amp;"; break;
            case '"': o += "&quot;"; break;
            default:
                if (c < 0x20 && c != '\n' && c != '\t') o += ' ';  // not allowed in XML 1.0
                else o += (char)c;
        }
    }
    return o;
}

namespace {


// A GitHub Actions workflow command: `::error file=F,title=T::message`, with
// the characters GitHub reserves escaped (%, CR, LF; and , : in properties).
std::string gh_escape(const std::string& raw, bool property) {
    // printable first: GitHub's log shows the message on a terminal-like view.
    std::string s = printable_lines(raw, 0), o;
    for (char c : s) {
        if (c == '%') o += "%25";
        else if (c == '\r') o += "%0D";
        else if (c == '\n') o += "%0A";
        else if (property && c == ':') o += "%3A";
        else if (property && c == ',') o += "%2C";
        else o += c;
    }
    return o;
}

// The line of the file a message points at. Bad input: "line N, column M"
// for invalid JSON, else the first line holding the top-level field its
// path starts with ("threads[0].ops" -> "threads"). A verdict or a count
// that differs: the line of "expect", which states what was expected. 1
// when none is found (a missing field, an internal error).
int annotation_line(const CheckRecord& r, const std::string& text) {
    std::string path;
    if (r.status == "fail") {
        path = "expect";
    } else if (r.status == "error") {
        std::smatch m;
        if (std::regex_search(text, m, std::regex("line ([0-9]+), column [0-9]+"))) return std::stoi(m[1]);
        std::string prefix = r.file + ": ";
        size_t at = text.find(prefix);
        if (at == std::string::npos) return 1;
        path = text.substr(at + prefix.size());
        path = path.substr(0, path.find_first_of(":.[ "));
    }
    if (path.empty()) return 1;
    std::ifstream in(r.file);
    int n = 0;
    for (std::string l; std::getline(in, l);) {
        n++;
        if (l.find("\"" + path + "\"") != std::string::npos) return n;
    }
    return 1;
}

}  // namespace

void write_junit(const std::string& path, const std::vector<CheckRecord>& recs) {
    std::map<std::string, std::vector<const CheckRecord*>> by_dir;
    for (const auto& r : recs) by_dir[fs::path(r.file).parent_path().string()].push_back(&r);
    std::ostringstream out;
    auto count = [](const std::vector<const CheckRecord*>& v, const char* st) {
        return std::count_if(v.begin(), v.end(), [&](const CheckRecord* r) { return r->status == st; });
    };
    double total = 0;
    long fails = 0, errs = 0;
    for (const auto& r : recs) {
        total += r.seconds;
        fails += r.status == "fail";
        errs += r.status == "error" || r.status == "internal";
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<testsuites name=\"vfsmc check\" tests=\"" << recs.size() << "\" failures=\"" << fails << "\" errors=\"" << errs
        << "\" time=\"" << strprintf("%.3f", total) << "\">\n";
    for (const auto& kv : by_dir) {
        double t = 0;
        for (const auto* r : kv.second) t += r->seconds;
        long e = count(kv.second, "error") + count(kv.second, "internal");
        out << "  <testsuite name=\"" << xml_esc(kv.first) << "\" tests=\"" << kv.second.size() << "\" failures=\""
            << count(kv.second, "fail") << "\" errors=\"" << e << "\" skipped=\"0\" time=\"" << strprintf("%.3f", t) << "\">\n";
        for (const auto* r : kv.second) {
            std::string name = r->name != "-" ? r->name : fs::path(r->file).stem().string();
            out << "    <testcase name=\"" << xml_esc(name) << "\" classname=\"" << xml_esc(kv.first) << "\" file=\""
                << xml_esc(r->file) << "\" time=\"" << strprintf("%.3f", r->seconds) << "\"";
            if (r->status == "pass") {
                out << "/>\n";
                continue;
            }
            std::string first = r->text.substr(0, r->text.find('\n'));
            const char* tag = r->status == "fail" ? "failure" : "error";
            out << ">\n      <" << tag << " message=\"" << xml_esc(first) << "\" type=\"" << r->status << "\">"
                << xml_esc(r->text) << "</" << tag << ">\n    </testcase>\n";
        }
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
    write_file(path, out.str());
}

std::string github_annotation(const CheckRecord& r) {
    std::string text = r.text;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    // The annotation is an error already: its message without the prefix.
    if (r.status == "error" && text.compare(0, 7, "error: ") == 0) text.erase(0, 7);
    std::string name = r.name.empty() || r.name == "-" ? fs::path(r.file).stem().string() : r.name;
    std::string title = "vfsmc: " + name;
    return "::error file=" + gh_escape(r.file, true) + ",line=" + std::to_string(annotation_line(r, text)) +
           ",title=" + gh_escape(title, true) + "::" + gh_escape(text, false);
}

}  // namespace vfsmc
