// vfsmc: one dpor search over several worker processes (parallel.h).
//
// The processes talk over one socketpair per worker (under MPI: one MPI
// message per frame), in frames: a 4-byte length, a kind ('J': a JSON
// message, 'H': the trace hashes of a finished piece) and the body. What
// the worker says:
//   hello                         ready for pieces
//   up {piece, depth, ...}        a race above the piece's root (dpor_link.h)
//   offer {piece, prefix, wake}   a branch given away on a split request
//   nosplit                       nothing to give away
//   applied / reject {add}        an add request applied, or the node is gone
//   node_done {path, mask}        a node with a branch given away is finished
//   progress {piece, executions}  executions so far in the running piece
//   H, then done {piece, ...}     the piece's trace hashes, then its result
//   bye                           (MPI) the answer to quit
// What the coordinator says: piece {piece, prefix, wake, sleep}, split,
// add {piece, depth, prefix, initials, enabled, chosen, vseq}, and, under
// MPI, quit (a socketpair's worker is killed instead).
#include "search/parallel.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <unordered_set>

#include <nlohmann/json.hpp>
#ifdef VFSMC_MPI
#include <mpi.h>
#endif

#include "base/errors.h"
#include "cli/cli.h"
#include "search/dpor_link.h"
#include "search/strategies.h"

namespace vfsmc {

namespace {

using json = nlohmann::json;
using clk = std::chrono::steady_clock;

double since(clk::time_point t) { return std::chrono::duration<double>(clk::now() - t).count(); }

// ---- frames ------------------------------------------------------------------

// One end of the link between the coordinator and a worker: a socketpair
// (run --jobs), or, under MPI (run --mpi), the other rank, one MPI message
// per frame.
struct Channel {
    int fd = -1;
    int rank = -1;  // MPI: the other end's rank
    std::string in;
    size_t pos = 0;
    bool eof = false;

    // Reads what is there; with `block`, waits for something first (a
    // signal ends the wait).
    void fill(bool block) {
#ifdef VFSMC_MPI
        if (rank >= 0) {
            for (;;) {
                int flag = 0;
                MPI_Status st;
                if (block) {
                    MPI_Probe(rank, 0, MPI_COMM_WORLD, &st);
                    flag = 1;
                } else {
                    MPI_Iprobe(rank, 0, MPI_COMM_WORLD, &flag, &st);
                }
                if (!flag) return;
                int n = 0;
                MPI_Get_count(&st, MPI_BYTE, &n);
                std::string buf((size_t)n, '\0');
                MPI_Recv(&buf[0], n, MPI_BYTE, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                compact();
                in += buf;
                block = false;
            }
        }
#endif
        char buf[1 << 16];
        for (;;) {
            if (!block) {
                struct pollfd p = {fd, POLLIN, 0};
                if (poll(&p, 1, 0) <= 0) return;
            }
            ssize_t n = read(fd, buf, sizeof buf);
            if (n < 0) {
                if (errno == EINTR) {
                    if (block) return;
                    continue;
                }
                eof = true;
                return;
            }
            if (n == 0) {
                eof = true;
                return;
            }
            compact();
            in.append(buf, (size_t)n);
            block = false;
        }
    }
    void compact() {
        if (pos > (1 << 20)) {
            in.erase(0, pos);
            pos = 0;
        }
    }
    bool pop(char& kind, std::string& body) {
        if (in.size() - pos < 5) return false;
        uint32_t len;
        std::memcpy(&len, in.data() + pos, 4);
        if (in.size() - pos < 4 + (size_t)len) return false;
        kind = in[pos + 4];
        body.assign(in, pos + 5, len - 1);
        pos += 4 + (size_t)len;
        return true;
    }
    bool send(char kind, const std::string& body) {
        uint32_t len = (uint32_t)body.size() + 1;
        std::string f(4, '\0');
        std::memcpy(&f[0], &len, 4);
        f += kind;
        f += body;
#ifdef VFSMC_MPI
        if (rank >= 0) return MPI_Send(f.data(), (int)f.size(), MPI_BYTE, rank, 0, MPI_COMM_WORLD) == MPI_SUCCESS;
#endif
        size_t off = 0;
        while (off < f.size()) {
            ssize_t n = ::send(fd, f.data() + off, f.size() - off, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR) continue;
                return false;  // the other side is gone: its end is noticed on reading
            }
            off += (size_t)n;
        }
        return true;
    }
    bool send(const json& j) { return send('J', j.dump()); }
};

json encode_prefix(const std::vector<DporPrefixNode>& prefix, size_t n) {
    json a = json::array();
    for (size_t i = 0; i < n && i < prefix.size(); i++) {
        const DporPrefixNode& x = prefix[i];
        a.push_back({x.sched ? 1 : 0, x.sched ? x.chosen : x.index, x.count, x.type});
    }
    return a;
}

json encode_sleepers(const DporPiece& p) {
    json a = json::array();
    for (const auto& w : p.sleepers) {
        json acc = json::array();
        for (int i = 0; i < w.second.n; i++) {
            const Access& x = w.second.a[i];
            acc.push_back({x.key, x.write, x.await, x.lk});
        }
        a.push_back({w.first, w.second.all, acc});
    }
    return json{{"node", p.sleep_node}, {"threads", a}};
}

void decode_sleepers(const json& j, DporPiece& p) {
    p.sleep_node = j.at("node");
    for (const auto& w : j.at("threads")) {
        AccSet acc;
        acc.all = w[1].get<bool>();
        for (const auto& x : w[2]) {
            if (acc.n >= kMaxStepAccesses) {
                acc.all = true;
                break;
            }
            acc.a[acc.n++] = {x[0].get<Key>(), x[1].get<uint8_t>(), x[2].get<uint8_t>(), x[3].get<uint8_t>()};
        }
        p.sleepers.push_back({w[0].get<uint8_t>(), acc});
    }
}

std::vector<DporPrefixNode> decode_prefix(const json& a) {
    std::vector<DporPrefixNode> p;
    for (const auto& e : a) {
        DporPrefixNode x;
        x.sched = e[0].get<int>() != 0;
        if (x.sched) x.chosen = (uint8_t)e[1].get<int>();
        else x.index = (uint16_t)e[1].get<int>();
        x.count = (uint16_t)e[2].get<int>();
        x.type = (uint8_t)e[3].get<int>();
        p.push_back(x);
    }
    return p;
}

// ---- the worker --------------------------------------------------------------

class WorkerLink : public DporLink {
public:
    WorkerLink(Channel& ch, DporPiece piece, int64_t id, bool drop_upward)
        : ch_(ch), piece_(std::move(piece)), id_(id), drop_(drop_upward), last_(clk::now()) {}

    const DporPiece& piece() const override { return piece_; }

    void upward(int depth, uint8_t initials, uint8_t enabled, const uint8_t* vseq, int vlen) override {
        if (drop_) return;  // the test-only mutation: the point is lost
        if (!sent_.insert({depth, initials}).second) return;
        ch_.send(json{{"t", "up"},
                      {"piece", id_},
                      {"depth", depth},
                      {"initials", initials},
                      {"enabled", enabled},
                      {"vseq", std::vector<int>(vseq, vseq + vlen)}});
    }

    bool due() override {
        executions_++;
        if (executions_ % 8) return false;
        if (executions_ - reported_ >= 128 || since(last_) > 0.25) progress();
        ch_.fill(false);
        return ch_.in.size() > ch_.pos;
    }

    bool next_request(DporRequest& r) override {
        char kind;
        std::string body;
        while (ch_.pop(kind, body)) {
            json j = json::parse(body);
            const std::string t = j.at("t");
            if (t == "split") {
                r = DporRequest();
                r.kind = DporRequest::split;
                return true;
            }
            if (t == "quit") {
                // The coordinator is done (MPI): the piece stops at its next execution.
                quit = true;
                stop_requested = SIGTERM;
                continue;
            }
            if (t == "add") {
                if (j.at("piece").get<int64_t>() != id_) {
                    ch_.send(json{{"t", "reject"}, {"add", j}});
                    continue;
                }
                r = DporRequest();
                r.kind = DporRequest::add;
                r.depth = j.at("depth");
                for (const auto& x : decode_prefix(j.at("prefix"))) r.path.push_back(x.choice());
                r.initials = (uint8_t)j.at("initials").get<int>();
                r.enabled = (uint8_t)j.at("enabled").get<int>();
                for (int v : j.at("vseq")) r.vseq.push_back((uint8_t)v);
                r.raw = std::move(body);
                return true;
            }
        }
        return false;
    }

    void offer(const DporPiece& p) override {
        ch_.send(json{{"t", "offer"},
                      {"piece", id_},
                      {"prefix", encode_prefix(p.prefix, p.prefix.size())},
                      {"wake", p.wake},
                      {"sleep", encode_sleepers(p)},
                      {"weight", p.weight}});
    }
    void no_offer() override { ch_.send(json{{"t", "nosplit"}}); }

    void add_result(const DporRequest& r, bool applied) override {
        if (applied) ch_.send(json{{"t", "applied"}});
        else ch_.send(json{{"t", "reject"}, {"add", json::parse(r.raw)}});
    }

    void node_done(const uint16_t* path, int depth, uint8_t mask) override {
        ch_.send(json{{"t", "node_done"}, {"path", std::vector<int>(path, path + depth)}, {"mask", mask}});
    }

    void complete_execution(uint64_t h) override { hashes_.push_back(h); }
    void explored(double share, std::vector<double> given) override {
        share_ = share;
        given_ = std::move(given);
    }

    void progress() {
        reported_ = executions_;
        last_ = clk::now();
        ch_.send(json{{"t", "progress"}, {"piece", id_}, {"executions", executions_}, {"share", share_}, {"given", given_}});
    }

    const std::vector<uint64_t>& hashes() const { return hashes_; }
    bool quit = false;

private:
    Channel& ch_;
    DporPiece piece_;
    int64_t id_;
    bool drop_;
    std::set<std::pair<int, int>> sent_;  // upward points sent, by node and initials
    uint64_t executions_ = 0, reported_ = 0;
    clk::time_point last_;
    std::vector<uint64_t> hashes_;
    double share_ = 0;           // the share of the piece explored (explored())
    std::vector<double> given_;  // the weights of the branches it gave away, in offer order
};

json result_json(const RunResult& r) {
    return json{{"t", "done"},
                {"verdict", verdict_name(r.verdict)},
                {"invariant", r.invariant},
                {"message", r.message},
                {"token", r.token},
                {"steps", r.steps},
                {"executions", r.executions},
                {"pruned", r.pruned},
                {"pruned_by_order", r.pruned_by_order},
                {"sleep_blocked", r.sleep_blocked},
                {"duplicates", r.duplicates},
                {"reads_past_history", r.reads_past_history},
                {"strategy", r.strategy},
                {"memory_model", r.memory_model},
                {"mutation", r.mutation},
                {"relacy_result", r.relacy_result},
                {"completeness", r.completeness},
                {"limit", r.limit},
                {"coverage", r.coverage},
                {"outcomes", r.outcomes},
                {"metrics", r.metrics}};
}

// A worker's life: pieces from the coordinator until it says quit or is
// gone. Returns 0, or 3 after an internal error it reported.
int worker_loop(Channel& ch, const Scenario& s, RunOptions opt, const ParallelOptions& po) {
    // The coordinator stops the workers: a terminal's ^C to the process
    // group is its to handle.
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    stop_requested = 0;
    opt.progress = false;
    opt.minimize = false;
    opt.search = opt.override_search ? opt.search : s.search;
    opt.override_search = true;
    opt.search.time_limit_s = 0;  // the coordinator keeps the limits
    opt.search.max_executions = 0;
    ch.send(json{{"t", "hello"}});
    for (;;) {
        char kind;
        std::string body;
        while (!ch.pop(kind, body)) {
            if (ch.eof) return 0;
            ch.fill(true);
        }
        try {
            json j = json::parse(body);
            const std::string t = j.at("t");
            if (t == "piece") {
                DporPiece p;
                p.prefix = decode_prefix(j.at("prefix"));
                for (int v : j.at("wake")) p.wake.push_back((uint8_t)v);
                if (j.contains("sleep")) decode_sleepers(j.at("sleep"), p);
                int64_t id = j.at("piece");
                WorkerLink link(ch, std::move(p), id, po.drop_upward);
                RunResult r = run_piece(s, opt, &link);
                if (link.quit) {
                    ch.send(json{{"t", "bye"}});
                    return 0;
                }
                const auto& h = link.hashes();
                ch.send('H', std::string((const char*)h.data(), h.size() * sizeof(uint64_t)));
                json d = result_json(r);
                d["piece"] = id;
                ch.send(d);
            } else if (t == "split") {
                ch.send(json{{"t", "nosplit"}});
            } else if (t == "add") {
                ch.send(json{{"t", "reject"}, {"add", j}});
            } else if (t == "quit") {
                ch.send(json{{"t", "bye"}});
                return 0;
            }
        } catch (const std::exception& e) {
            ch.send(json{{"t", "error"}, {"message", e.what()}});
            return 3;
        }
    }
}

[[noreturn]] void worker_main(int fd, int index, const Scenario& s, const RunOptions& opt, const ParallelOptions& po) {
    if (po.fail_worker == index) _exit(1);
    Channel ch;
    ch.fd = fd;
    _exit(worker_loop(ch, s, opt, po));
}

// ---- the coordinator ---------------------------------------------------------

struct Piece {
    int64_t id = 0, parent = -1;
    std::vector<DporPrefixNode> prefix;
    std::vector<uint8_t> wake;
    json sleep;  // the sleep set it starts with (DporPiece::sleepers), as sent
    enum State { pending, running, done } state = pending;
    int worker = -1;
    // For the estimate of the whole search: the share of its root's tree
    // this piece stands for (its giver's weight times the branch's weight
    // in the giver's tree; 1 for the first piece and for a piece made of
    // upward points, each the root of a tree), and the share of its own
    // tree explored so far (its worker's last progress; once done, 1 less
    // the branches it gave away, which their pieces count). `rel`: the
    // branch's weight in its giver's tree, as the giver last reported it;
    // `offered`: the pieces it gave away, in order.
    double weight = 0, share = 0, rel = 0;
    int64_t root = 0;         // the piece whose tree it is part of (estimate())
    uint64_t executions = 0;  // run in it: its worker's last progress, the total once done
    std::vector<int64_t> offered;
    std::vector<json> adds;  // upward points sent to its running search
};

struct Worker {
    pid_t pid = -1;
    Channel ch;
    bool ready = false, alive = true;
    int64_t piece = -1;
    bool split_asked = false;
    clk::time_point split_after, idle_since;
    uint64_t inflight = 0;  // executions reported in the running piece
    int adds_out = 0;       // add requests sent, not yet answered
    ParallelWorkerStats st;
};

std::vector<uint8_t> wake_of(int u, const std::vector<uint8_t>& vseq) {
    std::vector<uint8_t> w;  // after u: the reversal's order without u's first step (dpor.h, add_backtrack)
    bool dropped = false;
    for (uint8_t t : vseq) {
        if (!dropped && t == u) {
            dropped = true;
            continue;
        }
        w.push_back(t);
    }
    return w;
}

class Coordinator {
public:
    // mpi_ranks > 0: the workers are MPI ranks 1..mpi_ranks-1 (this is rank 0).
    Coordinator(const Scenario& s, const RunOptions& opt, const ParallelOptions& po, int mpi_ranks = 0)
        : s_(s), opt_(opt), po_(po), ss_(opt.override_search ? opt.search : s.search), mpi_ranks_(mpi_ranks) {}

    RunResult run();

private:
    const Scenario& s_;
    const RunOptions& opt_;
    const ParallelOptions& po_;
    const SearchSpec ss_;
    const int mpi_ranks_;
    std::vector<Worker> workers_;
    std::vector<Piece> pieces_;
    std::deque<int64_t> queue_;
    std::map<std::string, uint8_t> node_mask_;  // finished or placed nodes: threads covered there
    std::unordered_set<uint64_t> traces_;
    ParallelStats ps_;
    clk::time_point start_;
    // The sums of the finished pieces.
    uint64_t executions_ = 0, pruned_ = 0, pruned_by_order_ = 0, sleep_blocked_ = 0, stale_dups_ = 0, reads_past_ = 0;
    std::set<std::string> coverage_;
    std::set<uint64_t> outcomes_;
    std::map<std::string, double> metrics_;
    std::map<std::string, double> weighted_;  // metric * executions, for the averages
    json base_;                               // a finished piece's result: the search's fixed fields
    json violation_;
    const char* limit_ = nullptr;
    bool killed_one_ = false;

    void start_workers();
    void spawn(int i);
    std::vector<int> wait_readable(int ms);
    int respawns_ = 0;
    void stop_workers();
    void lost(Worker& w, int index);
    void handle(Worker& w, int index, char kind, const std::string& body);
    void done(Worker& w, const json& j);
    void up(const json& j);
    void place(const json& add);
    int64_t new_piece(int64_t parent, std::vector<DporPrefixNode> prefix, std::vector<uint8_t> wake);
    void assign();
    void ask_splits();
    uint64_t reported() const;
    double estimate();
    void print_progress();
    RunResult result(double secs);
    std::vector<uint8_t> hashes_in_;
};

void Coordinator::start_workers() {
    if (mpi_ranks_ > 0) {
        workers_.resize((size_t)mpi_ranks_ - 1);
        for (size_t i = 0; i < workers_.size(); i++) {
            workers_[i].ch.rank = (int)i + 1;
            workers_[i].idle_since = clk::now();
        }
        return;
    }
    workers_.resize((size_t)po_.jobs);
    for (int i = 0; i < po_.jobs; i++) spawn(i);
}

// The workers with something to read, waiting up to `ms` for one.
std::vector<int> Coordinator::wait_readable(int ms) {
    std::vector<int> ready;
#ifdef VFSMC_MPI
    if (mpi_ranks_ > 0) {
        auto until = clk::now() + std::chrono::milliseconds(ms);
        for (;;) {
            for (size_t i = 0; i < workers_.size(); i++) {
                int flag = 0;
                MPI_Iprobe(workers_[i].ch.rank, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
                if (flag) ready.push_back((int)i);
            }
            if (!ready.empty() || clk::now() >= until || stop_requested) return ready;
            usleep(200);
        }
    }
#endif
    std::vector<struct pollfd> fds;
    std::vector<int> who;
    for (size_t i = 0; i < workers_.size(); i++)
        if (workers_[i].alive) {
            fds.push_back({workers_[i].ch.fd, POLLIN, 0});
            who.push_back((int)i);
        }
    int r = poll(fds.data(), fds.size(), ms);
    if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("--jobs: poll: ") + std::strerror(errno));
    for (size_t k = 0; r > 0 && k < fds.size(); k++)
        if (fds[k].revents) ready.push_back(who[k]);
    return ready;
}

// Worker i (again, when the last one died): a child process on a socketpair.
void Coordinator::spawn(int i) {
    std::fflush(nullptr);
    pid_t parent = getpid();
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        int e = errno;
        stop_workers();
        throw LoadError("--jobs: worker " + std::to_string(i + 1) + " could not start: socketpair: " + std::strerror(e));
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        close(sv[1]);
        stop_workers();
        throw LoadError("--jobs: worker " + std::to_string(i + 1) + " could not start: fork: " + std::strerror(e));
    }
    if (pid == 0) {
        die_with_parent(parent, SIGKILL);
        close(sv[0]);
        for (const auto& w : workers_)
            if (w.ch.fd >= 0) close(w.ch.fd);
        worker_main(sv[1], i, s_, opt_, po_);
    }
    close(sv[1]);
    Worker& w = workers_[(size_t)i];
    ParallelWorkerStats st = w.st;
    w = Worker();
    w.st = st;
    w.pid = pid;
    w.ch.fd = sv[0];
    w.idle_since = clk::now();
}

void Coordinator::stop_workers() {
    if (mpi_ranks_ > 0) {
        // Quit, then read until each says bye: a worker blocked sending a
        // large frame gets to read its quit.
        for (auto& w : workers_)
            if (w.alive) w.ch.send(json{{"t", "quit"}});
        for (;;) {
            bool any = false;
            for (auto& w : workers_) {
                if (!w.alive) continue;
                any = true;
                w.ch.fill(false);
                char kind;
                std::string body;
                while (w.ch.pop(kind, body))
                    if (kind == 'J' && json::parse(body).at("t") == "bye") w.alive = false;
            }
            if (!any) return;
            usleep(200);
        }
    }
    for (auto& w : workers_)
        if (w.pid > 0 && w.alive) kill(w.pid, SIGKILL);
    for (auto& w : workers_) {
        if (w.pid > 0 && w.alive) {
            while (waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
            }
            w.alive = false;
        }
        if (w.ch.fd >= 0) close(w.ch.fd);
        w.ch.fd = -1;
    }
}

int64_t Coordinator::new_piece(int64_t parent, std::vector<DporPrefixNode> prefix, std::vector<uint8_t> wake) {
    Piece p;
    p.id = (int64_t)pieces_.size();
    p.parent = parent;
    p.prefix = std::move(prefix);
    p.wake = std::move(wake);
    pieces_.push_back(std::move(p));
    queue_.push_back(pieces_.back().id);
    ps_.pieces++;
    return pieces_.back().id;
}

std::string path_key(const std::vector<DporPrefixNode>& prefix, size_t n) {
    std::string k;
    for (size_t i = 0; i < n; i++) {
        uint16_t c = prefix[i].choice();
        k.push_back((char)(c & 0xff));
        k.push_back((char)(c >> 8));
    }
    return k;
}

// An upward point from piece P at depth k: to the piece that owns node k
// (the nearest ancestor whose root is at or above it) while it runs.
void Coordinator::up(const json& j) {
    ps_.upward++;
    const Piece& P = pieces_[(size_t)j.at("piece").get<int64_t>()];
    size_t k = j.at("depth");
    if (k >= P.prefix.size()) return;
    int64_t q = P.parent;
    while (q >= 0 && pieces_[(size_t)q].prefix.size() > k) q = pieces_[(size_t)q].parent;
    if (q < 0) return;  // the root piece's prefix is empty: it owns every node above another piece
    json add = {{"t", "add"},
                {"piece", q},
                {"depth", k},
                {"prefix", encode_prefix(P.prefix, k)},
                {"initials", j.at("initials")},
                {"enabled", j.at("enabled")},
                {"chosen", P.prefix[k].chosen},
                {"vseq", j.at("vseq")}};
    Piece& Q = pieces_[(size_t)q];
    if (Q.state == Piece::running && workers_[(size_t)Q.worker].alive) {
        Q.adds.push_back(add);
        workers_[(size_t)Q.worker].adds_out++;
        workers_[(size_t)Q.worker].ch.send(add);
    } else {
        place(add);
    }
}

// An upward point whose owner has left the node: handed out as a piece of
// its own, unless a thread of its initials was explored there. Where no
// initial is enabled, every enabled thread not covered goes (dpor.h).
void Coordinator::place(const json& add) {
    std::vector<DporPrefixNode> prefix = decode_prefix(add.at("prefix"));
    size_t k = add.at("depth");
    std::string key = path_key(prefix, k);
    uint8_t& mask = node_mask_[key];
    mask |= (uint8_t)(1u << add.at("chosen").get<int>());
    uint8_t initials = (uint8_t)add.at("initials").get<int>(), enabled = (uint8_t)add.at("enabled").get<int>();
    if (initials & mask) return;
    std::vector<uint8_t> vseq;
    for (int v : add.at("vseq")) vseq.push_back((uint8_t)v);
    uint8_t cand = initials & enabled;
    uint8_t go = cand ? (uint8_t)(1u << __builtin_ctz(cand)) : (uint8_t)(enabled & ~mask);
    for (int u = 0; u < 8; u++) {
        if (!(go & (1u << u))) continue;
        std::vector<DporPrefixNode> p = prefix;
        DporPrefixNode x;
        x.sched = true;
        x.chosen = (uint8_t)u;
        p.push_back(x);
        new_piece(add.at("piece").get<int64_t>(), std::move(p), cand ? wake_of(u, vseq) : std::vector<uint8_t>());
        ps_.pieces_from_upward++;
        mask |= (uint8_t)(1u << u);
    }
}

void Coordinator::done(Worker& w, const json& j) {
    Piece& P = pieces_[(size_t)j.at("piece").get<int64_t>()];
    P.state = Piece::done;
    // Its whole tree is explored but for the branches it gave away, which
    // their pieces count (estimate()): a giver's share never counts them.
    double given = 0;
    for (int64_t o : P.offered) given += pieces_[(size_t)o].rel;
    P.share = std::max(0.0, 1.0 - given);
    P.adds.clear();
    w.piece = -1;
    w.inflight = 0;
    w.split_asked = false;
    w.idle_since = clk::now();
    ps_.pieces_finished++;
    uint64_t n = j.at("executions");
    P.executions = n;
    w.st.executions += n;
    w.st.pieces++;
    executions_ += n;
    pruned_ += j.at("pruned").get<uint64_t>();
    pruned_by_order_ += j.at("pruned_by_order").get<uint64_t>();
    sleep_blocked_ += j.at("sleep_blocked").get<uint64_t>();
    stale_dups_ += j.at("duplicates").get<uint64_t>();
    reads_past_ += j.at("reads_past_history").get<uint64_t>();
    for (const auto& c : j.at("coverage")) coverage_.insert(c.get<std::string>());
    for (const auto& o : j.at("outcomes")) outcomes_.insert(o.get<uint64_t>());
    for (const auto& m : j.at("metrics").items()) {
        const std::string& k = m.key();
        double v = m.value().get<double>();
        auto ends = [&](const char* e) { return k.size() >= std::strlen(e) && k.compare(k.size() - std::strlen(e), std::string::npos, e) == 0; };
        if (ends("max_depth") || ends("_max")) metrics_[k] = std::max(metrics_.count(k) ? metrics_[k] : v, v);
        else if (ends("_min")) metrics_[k] = std::min(metrics_.count(k) ? metrics_[k] : v, v);
        else if (k.compare(0, 5, "dpor.") == 0) metrics_[k] += v;
        else weighted_[k] += v * (double)n;
    }
    const size_t nh = hashes_in_.size() / sizeof(uint64_t);
    for (size_t i = 0; i < nh; i++) {
        uint64_t h;
        std::memcpy(&h, hashes_in_.data() + i * sizeof(uint64_t), sizeof h);
        if (!traces_.insert(h).second) ps_.duplicates++;
    }
    hashes_in_.clear();
    if (base_.is_null()) base_ = j;
    if (j.at("verdict") == "violated" && violation_.is_null()) violation_ = j;
    else if (j.at("verdict") == "error" && violation_.is_null())
        throw std::runtime_error("--jobs: a worker's search failed: " + j.at("message").get<std::string>());
}

void Coordinator::handle(Worker& w, int index, char kind, const std::string& body) {
    if (kind == 'H') {
        hashes_in_.assign(body.begin(), body.end());
        return;
    }
    json j = json::parse(body);
    const std::string t = j.at("t");
    if (t == "hello") {
        w.ready = true;
    } else if (t == "up") {
        up(j);
    } else if (t == "offer") {
        w.split_asked = false;
        std::vector<uint8_t> wake;
        for (int v : j.at("wake")) wake.push_back((uint8_t)v);
        int64_t parent = j.at("piece");
        int64_t id = new_piece(parent, decode_prefix(j.at("prefix")), std::move(wake));
        pieces_[(size_t)id].sleep = j.at("sleep");
        pieces_[(size_t)id].rel = j.value("weight", 0.0);
        pieces_[(size_t)parent].offered.push_back(id);
    } else if (t == "nosplit") {
        w.split_asked = false;
        w.split_after = clk::now() + std::chrono::milliseconds(5);
    } else if (t == "applied") {
        w.adds_out--;
        ps_.upward_applied++;
    } else if (t == "reject") {
        w.adds_out--;
        place(j.at("add"));
    } else if (t == "node_done") {
        std::string key;
        for (int c : j.at("path")) {
            key.push_back((char)(c & 0xff));
            key.push_back((char)(c >> 8));
        }
        node_mask_[key] |= (uint8_t)j.at("mask").get<int>();
    } else if (t == "progress") {
        if (w.piece == j.at("piece").get<int64_t>()) {
            w.inflight = j.at("executions");
            Piece& P = pieces_[(size_t)w.piece];
            P.executions = w.inflight;
            P.share = j.value("share", 0.0);
            if (j.contains("given"))
                for (size_t i = 0; i < j.at("given").size() && i < P.offered.size(); i++)
                    pieces_[(size_t)P.offered[i]].rel = j.at("given")[i].get<double>();
        }
    } else if (t == "done") {
        done(w, j);
    } else if (t == "error") {
        throw std::runtime_error("--jobs: worker " + std::to_string(index + 1) + ": " + j.at("message").get<std::string>());
    }
}

// A worker is gone: its piece goes back to the pool, uncounted, and the
// points sent to its search are placed as the coordinator's own.
void Coordinator::lost(Worker& w, int index) {
    int st = 0;
    while (waitpid(w.pid, &st, 0) < 0 && errno == EINTR) {
    }
    w.alive = false;
    w.adds_out = 0;  // its piece's adds are placed below
    close(w.ch.fd);
    w.ch.fd = -1;
    if (!w.ready) {
        std::string how = WIFEXITED(st) ? "it exited with status " + std::to_string(WEXITSTATUS(st))
                                        : "it was killed by signal " + std::to_string(WTERMSIG(st));
        stop_workers();
        throw LoadError("--jobs: worker " + std::to_string(index + 1) + " of " + std::to_string(po_.jobs) +
                        " could not start: " + how + " before it was ready");
    }
    ps_.workers_lost++;
    w.st.lost = true;
    w.inflight = 0;
    if (w.piece >= 0) {
        Piece& P = pieces_[(size_t)w.piece];
        P.state = Piece::pending;
        P.worker = -1;
        P.share = 0;
        P.executions = 0;
        P.offered.clear();  // what it gave keeps its last weight; its next run offers anew
        queue_.push_front(P.id);
        std::vector<json> adds = std::move(P.adds);
        P.adds.clear();
        for (const auto& a : adds) place(a);
        w.piece = -1;
    }
    // A new worker takes the place of the lost one (a few times over: a
    // worker that keeps dying is a fault of the search, not of a worker).
    if (respawns_ >= 4 * po_.jobs) {
        stop_workers();
        throw std::runtime_error("--jobs: " + std::to_string(respawns_ + 1) + " workers died; the search cannot go on");
    }
    respawns_++;
    spawn(index);
}

void Coordinator::assign() {
    for (auto& w : workers_) {
        if (queue_.empty()) return;
        if (!w.alive || !w.ready || w.piece >= 0) continue;
        Piece& P = pieces_[(size_t)queue_.front()];
        queue_.pop_front();
        P.state = Piece::running;
        P.worker = (int)(&w - workers_.data());
        w.piece = P.id;
        w.inflight = 0;
        w.st.idle_seconds += since(w.idle_since);
        json m = {{"t", "piece"}, {"piece", P.id}, {"prefix", encode_prefix(P.prefix, P.prefix.size())}, {"wake", P.wake}};
        if (!P.sleep.is_null()) m["sleep"] = P.sleep;
        w.ch.send(m);
    }
}

// Idle workers and nothing in the pool: ask busy workers to give a branch away.
void Coordinator::ask_splits() {
    if (!queue_.empty()) return;
    int idle = 0, asked = 0;
    for (const auto& w : workers_) {
        if (w.alive && w.ready && w.piece < 0) idle++;
        if (w.alive && w.split_asked) asked++;
    }
    auto now = clk::now();
    for (auto& w : workers_) {
        if (asked >= idle) return;
        if (!w.alive || w.piece < 0 || w.split_asked || now < w.split_after) continue;
        w.split_asked = true;
        asked++;
        w.ch.send(json{{"t", "split"}});
    }
}

uint64_t Coordinator::reported() const {
    uint64_t n = executions_;
    for (const auto& w : workers_) n += w.inflight;
    return n;
}

// The whole search's size by the path estimate (dpor.h, explored_share).
// A piece made of upward points (rel 0) is a tree nobody weighed: it is
// the root of its own estimate, as the first piece is. Each root's tree
// (the root and the pieces given away from it, each weighted by its
// giver's weight times its branch's) is estimated as the executions run
// in it over its explored share, the sum of each piece's weight times
// its explored share; a tree with no share yet counts its executions.
// Like the serial estimate it only rises while backtrack sets above the
// pieces grow. 0: nothing to go on yet.
double Coordinator::estimate() {
    std::vector<double> share(pieces_.size(), 0.0), runs(pieces_.size(), 0.0);
    for (auto& p : pieces_) {
        // A giver is older than what it gave.
        bool root = p.parent < 0 || p.rel <= 0;
        const Piece* giver = root ? nullptr : &pieces_[(size_t)p.parent];
        p.root = root ? p.id : giver->root;
        p.weight = root ? 1.0 : giver->weight * p.rel;
        share[(size_t)p.root] += p.weight * p.share;
        runs[(size_t)p.root] += (double)p.executions;
    }
    double total = 0;
    bool any = false;
    for (size_t r = 0; r < pieces_.size(); r++) {
        if (share[r] > 0) any = true;
        total += share[r] > 0 ? runs[r] / std::min(share[r], 1.0) : runs[r];
    }
    uint64_t n = reported();
    return any && n > 0 ? std::max((double)n, total) : 0;
}

void Coordinator::print_progress() {
    double el = since(start_);
    int busy = 0;
    for (const auto& w : workers_) busy += w.alive && w.piece >= 0;
    uint64_t n = reported();
    double rate = el > 0 ? n / el : 0.0, total = estimate();
    std::string est;
    if (total > 0) {
        char b[160];
        std::snprintf(b, sizeof b, ", about %.3g executions in all by the path estimate, about %.0fs left", total,
                      rate > 0 ? (total - (double)n) / rate : 0.0);
        est = b;
    }
    std::fprintf(stderr, "vfsmc: %s: %llu executions, %.0f/s, %.1fs elapsed, %d of %d workers busy, %llu pieces (%llu done, %zu waiting)%s\n",
                 s_.name.c_str(), (unsigned long long)n, rate, el, busy, po_.jobs,
                 (unsigned long long)ps_.pieces, (unsigned long long)ps_.pieces_finished, queue_.size(), est.c_str());
}

RunResult Coordinator::run() {
    start_ = clk::now();
    start_workers();
    ps_.workers = (int)workers_.size();
    new_piece(-1, {}, {});
    auto last_progress = start_;
    try {
        for (;;) {
            if (stop_requested) {
                limit_ = "interrupt";
                break;
            }
            if (ss_.time_limit_s > 0 && since(start_) > ss_.time_limit_s) {
                limit_ = "time limit";
                break;
            }
            if (ss_.max_executions > 0 && reported() >= (uint64_t)ss_.max_executions) {
                limit_ = "max_executions";
                break;
            }
            if (!violation_.is_null()) break;
            if (po_.kill_worker_after && mpi_ranks_ == 0 && !killed_one_ && reported() >= po_.kill_worker_after) {
                Worker* busiest = nullptr;
                for (auto& w : workers_)
                    if (w.alive && w.piece >= 0 && (!busiest || w.inflight > busiest->inflight)) busiest = &w;
                if (busiest) {
                    kill(busiest->pid, SIGKILL);
                    killed_one_ = true;
                }
            }
            assign();
            bool running = false;
            for (const auto& w : workers_) running |= w.alive && w.piece >= 0;
            if (!running && queue_.empty()) {
                // Every piece is finished once every worker is ready and
                // has answered every add request (a refused one is a piece).
                bool settled = true;
                for (const auto& w : workers_) settled &= !w.alive || (w.ready && w.adds_out == 0);
                if (settled) break;
            }
            ask_splits();
            for (int i : wait_readable(20)) {
                Worker& w = workers_[(size_t)i];
                w.ch.fill(false);
                char kind;
                std::string body;
                while (w.ch.pop(kind, body)) handle(w, i, kind, body);
                if (w.ch.eof) lost(w, i);
            }
            if (opt_.progress && since(start_) > 2.0 && since(last_progress) > 1.0) {
                last_progress = clk::now();
                print_progress();
            }
        }
    } catch (...) {
        stop_workers();
        throw;
    }
    double secs = since(start_);
    for (auto& w : workers_)
        if (w.alive && w.piece < 0) w.st.idle_seconds += since(w.idle_since);
    RunResult out = result(secs);
    stop_workers();
    return out;
}

RunResult Coordinator::result(double secs) {
    RunResult out;
    const bool cut = limit_ != nullptr;
    out.executions = cut ? reported() : executions_;
    out.pruned = pruned_;
    out.pruned_by_order = pruned_by_order_;
    out.sleep_blocked = sleep_blocked_;
    out.duplicates = stale_dups_;
    out.reads_past_history = reads_past_;
    out.seconds = secs;
    out.execs_per_sec = secs > 0 ? out.executions / secs : 0;
    out.strategy = strategy_name(ss_.strategy);
    out.memory_model = mem_model_name(s_.memory_model);
    out.mutation = opt_.mutation;
    for (const auto& t : s_.threads) out.thread_names.push_back(t.name);
    out.coverage.assign(coverage_.begin(), coverage_.end());
    out.outcomes.assign(outcomes_.begin(), outcomes_.end());
    out.metrics = metrics_;
    for (const auto& m : weighted_) out.metrics[m.first] = executions_ ? m.second / (double)executions_ : 0;
    // The phrase of a piece's search, without a piece's own cut.
    out.completeness = strategy_row(ss_.strategy).phrase(ss_, 0);
    if (ss_.strategy == Strategy::dpor && thread_classes(s_, opt_.symmetry).any())
        out.completeness += " " + symmetry_phrase(s_, opt_.symmetry);
    if (!base_.is_null()) out.relacy_result = base_.at("relacy_result");
    ps_.per_worker.clear();
    for (const auto& w : workers_) {
        ps_.per_worker.push_back(w.st);
        if (cut || !violation_.is_null()) ps_.per_worker.back().executions += w.inflight;  // a search cut short: its pieces so far
    }
    out.parallel = ps_;
    if (!violation_.is_null()) {
        // The counterexample: replayed here from its token (the token of a
        // piece is its whole path from the root), then shortened as a
        // serial run's is.
        RunOptions ro;
        ro.mutation = opt_.mutation;
        RunResult v = replay_scenario(s_, violation_.at("token").get<std::string>(), ro);
        if (v.verdict != Verdict::violated)
            throw std::runtime_error("--jobs: a worker's counterexample did not replay: " + v.message);
        out.verdict = Verdict::violated;
        out.invariant = v.invariant;
        out.message = v.message;
        out.token = violation_.at("token");
        out.trace = v.trace;
        out.final_state = v.final_state;
        out.preemptions = v.preemptions;
        out.steps = v.steps;
        out.relacy_result = v.relacy_result;
        out.scope = Scope::complete;  // as a serial run's: a violation needs no scope
        out.executions = reported();
        out.execs_per_sec = secs > 0 ? out.executions / secs : 0;
        return out;
    }
    if (!cut && reads_past_) limit_ = "store history";
    if (limit_) {
        out.limit_hit = true;
        out.limit = limit_;
        out.completeness += std::string(", cut short by the ") + limit_ + " (incomplete)";
        out.scope = Scope::inconclusive;
        out.verdict = Verdict::inconclusive;
        out.estimate = out.estimate_low = out.estimate_high = out.parallel.estimate = estimate();
        return out;
    }
    out.scope = Scope::complete;
    out.complete = true;
    if (!s_.order.empty() && out.executions > 0 && out.pruned >= out.executions - out.sleep_blocked - out.duplicates)
        out.verdict = Verdict::unsatisfiable;
    else
        out.verdict = Verdict::holds;
    return out;
}

}  // namespace

#ifdef VFSMC_MPI
bool mpi_built() { return true; }

RunResult run_mpi(const Scenario& s, const RunOptions& opt, const ParallelOptions& p, bool& worker) {
    int ok = 0;
    MPI_Initialized(&ok);
    if (!ok) MPI_Init(nullptr, nullptr);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    worker = rank != 0;
    const SearchSpec& ss = opt.override_search ? opt.search : s.search;
    std::string bad;
    if (ss.strategy != Strategy::dpor)
        bad = "--mpi: bad strategy \"" + std::string(strategy_name(ss.strategy)) +
              "\"; accepted: a dpor search (the scenario's own, or --strategy dpor); other strategies run on one core";
    else if (size < 2)
        bad = "--mpi: bad number of ranks 1; accepted: 2 or more (mpirun -n N: rank 0 coordinates, the others search)";
    if (!bad.empty()) {
        MPI_Finalize();
        if (worker) std::_Exit(2);  // rank 0 says it
        throw LoadError(bad);
    }
    if (worker) {
        Channel ch;
        ch.rank = 0;
        int rc = worker_loop(ch, s, opt, p);
        MPI_Finalize();
        std::fflush(nullptr);
        std::_Exit(rc);
    }
    RunResult r;
    try {
        Coordinator c(s, opt, p, size);
        r = c.run();
    } catch (...) {
        MPI_Abort(MPI_COMM_WORLD, 2);
        throw;
    }
    if (r.verdict == Verdict::violated && !stop_requested) {
        ParallelStats ps = r.parallel;
        r = minimize_counterexample(s, opt, r);
        r.parallel = ps;
    }
    MPI_Finalize();
    return r;
}
#else
bool mpi_built() { return false; }

RunResult run_mpi(const Scenario&, const RunOptions&, const ParallelOptions&, bool&) {
    throw LoadError("--mpi: this vfsmc was built without MPI; accepted: a build configured with cmake -DVFSMC_MPI=ON "
                    "(Debian: libopenmpi-dev, openmpi-bin)");
}
#endif

RunResult run_parallel(const Scenario& s, const RunOptions& opt, const ParallelOptions& p) {
    const SearchSpec& ss = opt.override_search ? opt.search : s.search;
    if (ss.strategy != Strategy::dpor)
        throw LoadError("--jobs: bad strategy \"" + std::string(strategy_name(ss.strategy)) +
                        "\"; accepted: a dpor search (the scenario's own, or --strategy dpor); other strategies run on one core");
    if (p.jobs < 1) throw LoadError("--jobs: bad value " + std::to_string(p.jobs) + "; accepted: 1 to 64");
    Coordinator c(s, opt, p);
    RunResult r = c.run();
    if (r.verdict == Verdict::violated && !stop_requested) {
        ParallelStats ps = r.parallel;
        RunResult m = minimize_counterexample(s, opt, r);
        m.parallel = ps;
        return m;
    }
    return r;
}

}  // namespace vfsmc
