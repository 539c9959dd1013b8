// vfsmc check: the exploration-count oracle, one explorations.lock per
// directory of scenarios (see check.h).
#include "cli/check.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "cli/cli.h"
#include "base/printable.h"
#include "scenario/scenario.h"

namespace vfsmc {

namespace fs = std::filesystem;

const char* const kLockAccepted = "an object of scenario name -> executions (rewrite it with --update-counts)";

nlohmann::json& CountLocks::of(const std::string& file) {
    std::string dir = fs::path(file).parent_path().string();
    auto it = by_dir.find(dir);
    if (it != by_dir.end()) return it->second;
    nlohmann::json j = nlohmann::json::object();
    std::string path = (fs::path(dir) / "explorations.lock").string();
    std::error_code ec;
    if (fs::exists(path, ec)) {
        std::string shown = printable(path, kMaxShownFile);
        if (!fs::is_regular_file(path, ec))
            throw LoadError(shown + ": not a regular file; accepted: " + kLockAccepted);
        // Read under a shared flock: `check --update-counts` rewrites
        // the file under an exclusive one.
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            int e = errno;
            // Out of descriptors is the checker's failure, not the input's.
            if (e == EMFILE || e == ENFILE) throw std::runtime_error("cannot open " + shown + ": " + std::strerror(e));
            throw LoadError(shown + ": cannot read (" + std::strerror(e ? e : EIO) + "); accepted: " + kLockAccepted);
        }
        while (flock(fd, LOCK_SH) != 0 && errno == EINTR && !stop_requested) {
        }
        std::string text;
        char buf[65536];
        for (;;) {
            ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            text.append(buf, (size_t)n);
        }
        ::close(fd);
        j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_discarded()) throw LoadError(shown + ": invalid JSON; accepted: " + kLockAccepted);
        if (!j.is_object()) throw LoadError(shown + ": not an object; accepted: " + kLockAccepted);
    }
    return by_dir[dir] = j;
}

void update_lock_file(const std::string& path, const nlohmann::json& fresh) {
    std::string shown = printable(path, kMaxShownFile);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) write_failed(path, errno);
    struct FdCloser {
        int fd;
        ~FdCloser() { ::close(fd); }  // releases the lock
    } closer{fd};
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) throw LoadError(shown + ": not a regular file; accepted: " + kLockAccepted);
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) throw LoadError(shown + ": cannot lock (" + std::strerror(errno) + "); accepted: a lockable file");
        if (stop_requested) throw LoadError(shown + ": interrupted while waiting for another run's lock; accepted: one run at a time");
    }
    std::string text;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw LoadError(shown + ": cannot read (" + std::strerror(errno) + "); accepted: " + kLockAccepted);
        if (n == 0) break;
        text.append(buf, (size_t)n);
    }
    nlohmann::json merged = nlohmann::json::object();
    if (text.find_first_not_of(" \t\r\n") != std::string::npos) {
        merged = nlohmann::json::parse(text, nullptr, false);
        if (merged.is_discarded() || !merged.is_object()) throw LoadError(shown + ": invalid JSON; accepted: " + kLockAccepted);
    }
    for (auto it = fresh.begin(); it != fresh.end(); ++it) merged[it.key()] = it.value();
    std::string out = merged.dump(2) + "\n";
    if (ftruncate(fd, 0) != 0) write_failed(path, errno);
    for (size_t off = 0; off < out.size();) {
        ssize_t n = pwrite(fd, out.data() + off, out.size() - off, (off_t)off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) write_failed(path, n < 0 ? errno : EIO);
        off += (size_t)n;
    }
}


bool lock_count(const nlohmann::json& v, unsigned long long& out) {
    if (!v.is_number_unsigned()) return false;
    out = v.get<unsigned long long>();
    return true;
}

}  // namespace vfsmc
