// vfsmc email report: at most 72 columns, "In short" first, then one
// column per thread (see report.h).
#include <algorithm>
#include <cctype>
#include <sstream>

#include "report/detail.h"
#include "report/report.h"

namespace vfsmc {

using namespace report_detail;

namespace {

bool ident_byte(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '#' || c == '"'; }

// Cut a word longer than `width` into pieces of at most `width`, only
// between identifier characters and punctuation, so no identifier is split,
// and never just after a '.': a field goes to the next line with its dot
// (`dentry_hashtable["foo"]` / `.first`), so a line never ends inside a
// name looking like the end of a sentence. A piece that cannot be cut stays
// whole, longer than the column.
std::vector<std::string> cut_word(const std::string& word, size_t width) {
    std::vector<std::string> out;
    std::string rest = word;
    while (rest.size() > width) {
        size_t cut = 0;
        for (size_t i = 1; i <= width && i < rest.size(); i++)
            if ((!ident_byte(rest[i - 1]) || !ident_byte(rest[i])) && rest[i - 1] != '.') cut = i;
        if (cut == 0) {  // one long identifier: keep it whole
            size_t i = 1;
            while (i < rest.size() && (ident_byte(rest[i - 1]) && ident_byte(rest[i]))) i++;
            cut = i;
        }
        out.push_back(rest.substr(0, cut));
        rest = rest.substr(cut);
    }
    if (!rest.empty()) out.push_back(rest);
    return out;
}

// Word-wrap `text` to `width` columns; continuation lines start with
// `indent` (counted in the width). A word longer than the width (an object
// name such as `in_lookup_hashtable["foo"].bit_lock`) goes whole on a line
// of its own when it fits in `spill` columns (a column of the interleaving
// may spill into its neighbours, empty on that line); only a word longer
// than that is cut (cut_word).
std::vector<std::string> wrap(const std::string& text, size_t width, const std::string& indent = "", size_t spill = 0) {
    std::vector<std::string> out;
    // The words; a quoted name stays with the word before it, so that an
    // object's kind and name (`dentry "foo"#2.d_lockref`) share a line.
    std::vector<std::string> words;
    {
        std::istringstream in(text);
        for (std::string w; in >> w;) {
            if (w[0] == '"' && !words.empty() && words.back().find('"') == std::string::npos) words.back() += " " + w;
            else words.push_back(w);
        }
    }
    std::string line;
    auto room = [&]() { return out.empty() ? width : width - indent.size(); };
    auto spill_room = [&]() { return std::max(width, spill) - (out.empty() ? 0 : indent.size()); };
    auto flush = [&]() {
        out.push_back(out.empty() ? line : indent + line);
        line.clear();
    };
    for (const std::string& word : words) {
        if (!line.empty() && line.size() + 1 + word.size() <= room()) {
            line += " " + word;
            continue;
        }
        if (!line.empty()) flush();
        std::vector<std::string> pieces =
            word.size() > spill_room() ? cut_word(word, room()) : std::vector<std::string>{word};
        for (size_t i = 0; i + 1 < pieces.size(); i++) {
            line = pieces[i];
            flush();
        }
        line = pieces.back();
    }
    if (!line.empty() || out.empty()) flush();
    return out;
}

std::string pad(const std::string& s, size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

// The replay command as shell lines of at most `width` columns: the token is
// cut into quoted pieces joined by backslash-newline, which the shell
// removes, so a pasted command still works. Options after the token go on
// lines of their own.
std::vector<std::string> shell_lines(const ReplayCommand& cmd, size_t width) {
    std::vector<std::string> out;
    if (cmd.text().size() <= width) return {cmd.text()};
    // The words of `words`, as many to a line as fit (a long scenario path
    // goes on a line of its own), each line but the last ended by " \".
    // `first` goes before a word that starts an empty line.
    std::string line;
    auto add_words = [&](const std::string& words, const char* first) {
        std::istringstream in(words);
        std::string w;
        while (in >> w) {
            if (!line.empty() && line.size() + 1 + w.size() + 2 > width) {
                out.push_back(line + " \\");
                line = "  " + w;
            } else {
                line += (line.empty() ? first : " ") + w;
            }
        }
    };
    add_words(cmd.head, "");
    if (cmd.token.empty()) {
        add_words(cmd.tail, "");
        out.push_back(line);
        return out;
    }
    out.push_back(line + " \\");
    line.clear();
    size_t piece = width - 5;  // "  '" + "'\"
    const std::string& token = cmd.token;
    for (size_t i = 0; i < token.size(); i += piece) {
        std::string part = token.substr(i, piece);
        bool last = i + piece >= token.size();
        std::string l = (i == 0 ? "  '" : "'") + part + "'";
        if (!last) out.push_back(l + "\\");
        else line = l;
    }
    if (!cmd.tail.empty()) {
        out.push_back(line + " \\");
        line = "";
        add_words(cmd.tail, "  ");
    }
    out.push_back(line);
    return out;
}

// In short: the model's named steps and the conflict, one entry per step,
// wrapped with a hanging indent; at most kShortLines lines. When it is
// longer, the earliest entries that are not the conflict go first.
void email_in_short(std::ostream& os, const RunResult& r, const TraceView& v, const ReportOptions& o, size_t W) {
    const std::vector<TraceLine>& lines = v.lines;
    const size_t kShortLines = 34;  // "about 30"
    std::vector<const TraceLine*> story;
    for (size_t i : v.in_short) story.push_back(&lines[i]);
    // The kept entries as lines: a thread's function is named when it
    // changes (as in the interleaving); continuation lines start at column
    // 7, under the thread name.
    auto render = [&](const std::vector<bool>& keep) {
        std::vector<std::string> out;
        std::vector<std::string> func(r.thread_names.size());
        for (size_t k = 0; k < story.size(); k++) {
            if (!keep[k]) continue;
            const TraceLine& L = *story[k];
            std::string tn = L.thread < (int)r.thread_names.size() ? r.thread_names[L.thread] : "?";
            std::string head = (L.conflict ? ">>" : "  ") + pad(std::to_string(L.number), 4) + "[" + tn + "] ";
            bool same = L.thread < (int)func.size() && func[L.thread] == L.func;
            if (L.thread < (int)func.size()) func[L.thread] = L.func;
            std::string body = (L.func.empty() || same ? "" : L.func + "(): ") + L.text;
            auto first = wrap(body, W - head.size());
            out.push_back(head + first[0]);
            std::string rest;
            for (size_t i = 1; i < first.size(); i++) rest += (rest.empty() ? "" : " ") + first[i];
            if (!rest.empty())
                for (const auto& l : wrap(rest, W - 6)) out.push_back(std::string(6, ' ') + l);
        }
        return out;
    };
    if (!story.empty()) {
        // Too long: the earliest entries that are not the conflict give way,
        // where the interleaving below has them. --brief leaves that out,
        // so its In short keeps every entry.
        std::vector<bool> keep(story.size(), true);
        std::vector<std::string> shown_lines = render(keep);
        size_t dropped = 0;
        for (size_t k = 0; !o.brief && k < story.size() && shown_lines.size() + 1 > kShortLines; k++) {
            if (story[k]->conflict) continue;
            keep[k] = false;
            dropped++;
            shown_lines = render(keep);
        }
        os << "In short (the model's named steps; >> marks the conflict):\n";
        if (dropped)
            os << "  (" << dropped << " earlier named step" << (dropped == 1 ? "" : "s")
               << " left out here: see the interleaving)\n";
        for (const auto& l : shown_lines) os << l << "\n";
        os << "\n";
    }
}

// The interleaving: one column per thread, each step's number on its
// first line; a long name spills into the empty columns to its right.
void email_interleaving(std::ostream& os, const RunResult& r, const std::vector<TraceLine>& lines, size_t W) {
    int nt = (int)r.thread_names.size();
    const size_t numw = 6;  // ">>123 "
    size_t colw = (W - numw - (nt - 1)) / nt;
    std::string header = pad("", numw);
    for (int t = 0; t < nt; t++) header += pad(r.thread_names[t], colw) + (t + 1 < nt ? " " : "");
    os << "Interleaving (one column per thread):\n";
    os << header.substr(0, header.find_last_not_of(' ') + 1) << "\n";
    std::string rule = pad("", numw);
    for (int t = 0; t < nt; t++) rule += std::string(colw, '-') + (t + 1 < nt ? " " : "");
    os << rule << "\n";
    std::vector<std::string> last_func(nt);
    for (const auto& L : lines) {
        std::vector<std::string> cell;
        size_t first_text = 0;  // the step's number goes on its first line
        // What the thread's column may spill into: the columns to its
        // right, empty on the lines of this step.
        size_t spill = W - numw - (size_t)L.thread * (colw + 1);
        if (L.func != last_func[L.thread] && !L.func.empty()) {
            for (const auto& w : wrap(L.func + "():", colw, "", spill)) cell.push_back(w);
            last_func[L.thread] = L.func;
            first_text = cell.size();
        }
        for (const auto& w : wrap("  " + L.text, colw, "    ", spill)) cell.push_back(w);
        for (size_t i = 0; i < cell.size(); i++) {
            std::string num = i == first_text ? (L.conflict ? ">>" : "  ") + pad(std::to_string(L.number), 3) : "";
            std::string line = pad(num, numw);
            for (int t = 0; t < nt; t++) {
                std::string c = t == L.thread ? cell[i] : "";
                line += pad(c, colw) + (t + 1 < nt ? " " : "");
            }
            os << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
        }
    }
    os << "\n";
}

}  // namespace

std::string email_report(const Scenario& s, const RunResult& r, const ReportOptions& o) {
    const size_t W = 72;
    std::ostringstream os;
    if (r.verdict != Verdict::violated) {
        for (const auto& l : wrap(summary_line(s, r, o.stable), W)) os << l << "\n";
        return os.str();
    }
    // The subject: one line when it fits in 72 columns, else the invariant
    // goes on a second, indented line.
    std::string subject = subject_line(s, r, o);
    if (subject.size() <= W) os << subject << "\n\n";
    else if (!o.witness.empty()) os << "[witness] " << s.name << ":\n  an execution satisfying " << o.witness << "\n\n";
    else os << "[counterexample] " << s.name << ":\n  " << r.invariant << " violated\n\n";
    if (!o.overrides.empty())
        for (const auto& l : wrap(override_note(o), W)) os << l << "\n";
    if (!o.overrides.empty()) os << "\n";
    const TraceView v = TraceView::of(r, &s);
    email_in_short(os, r, v, o, W);
    for (const auto& l : wrap(paragraph(s, r, v, !o.witness.empty()), W)) os << l << "\n";
    os << "\n";
    if (!o.brief) {
        email_interleaving(os, r, v.lines, W);
    } else {
        os << "(The full interleaving, " << v.lines.size() << " steps, is left out: run the replay command.)\n\n";
    }
    os << "Final state:\n";
    std::istringstream fs(r.final_state);
    std::string line;
    while (std::getline(fs, line))
        for (const auto& w : wrap(line, W - 2, "  ")) os << "  " << w << "\n";
    os << "\n";
    std::string counts = "Counts: " + executions_text(r.executions);
    if (r.pruned) counts += " (" + std::to_string(r.pruned) + " " + pruned_label(r) + ")";
    counts += "; " + r.completeness + "; " + run_conditions(r) + ".";
    for (const auto& w : wrap(counts, W)) os << w << "\n";
    os << "\nReplay:\n";
    for (const auto& l : shell_lines(o.replay, W)) os << l << "\n";
    return os.str();
}

}  // namespace vfsmc
