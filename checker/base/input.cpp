// vfsmc: reading an input file (see read_input_file in scenario.h): the
// armour every reader of untrusted files shares, scenarios and litmus tests.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "base/errors.h"
#include "base/printable.h"

namespace vfsmc {

std::string read_input_file(const std::string& file, size_t max_bytes, const std::string& kind) {
    const std::string accepted = "a " + kind;
    const std::string shown = printable(file, kMaxShownFile);
    // Opened without blocking and checked before reading: a FIFO, a device
    // or a socket would block the read forever (or never end).
    int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == EISDIR) throw LoadError(shown + ": is a directory; accepted: " + accepted);
        throw LoadError(shown + ": cannot read the file (" + std::strerror(e) + "); accepted: a readable " + kind);
    }
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        bool dir = S_ISDIR(st.st_mode);
        const char* what = dir ? "is a directory" : S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file"
                           : S_ISSOCK(st.st_mode)                   ? "is a socket, not a regular file"
                                                                    : "is a device, not a regular file";
        ::close(fd);
        throw LoadError(shown + ": " + what + "; accepted: " + accepted);
    }
    // Read at most one byte past the limit, so a huge file cannot exhaust
    // memory.
    std::string text;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            ::close(fd);
            throw LoadError(shown + ": cannot read the file (" + std::strerror(e) + "); accepted: a readable " + kind);
        }
        if (n == 0) break;
        text.append(buf, (size_t)n);
        if (text.size() > max_bytes) break;
    }
    ::close(fd);
    if (text.size() > max_bytes)
        throw LoadError(shown + ": file too large; accepted: " + accepted + " of at most " +
                        (max_bytes % (1u << 20) == 0 ? std::to_string(max_bytes >> 20) + " MiB"
                                                     : std::to_string(max_bytes >> 10) + " KiB"));
    return text;
}

}  // namespace vfsmc
