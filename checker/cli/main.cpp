// vfsmc command line: run, check, replay, list, validate.
//
// Exit codes: 0 every verdict as expected; 1 a verdict differs from
// `expect`; 2 bad input; 3 internal error.
#include <fcntl.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/cli.h"
#include "search/engine.h"
#include "contract/invariants.h"
#include "report/report.h"
#include "base/printable.h"
#include "scenario/scenario.h"

using namespace vfsmc;

int main(int argc, char** argv) {
    // Every execution of a search allocates and frees about the same
    // working set. By default glibc gives the top of the heap back to the
    // kernel after each one and faults it in again on the next: two brk
    // calls and fresh zeroed pages per execution, a quarter of a serial
    // search's time. Keep the heap, and grow it in large steps.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 16 << 20);
    // A closed standard stream would be reused by the next open(): the HTML
    // page would land on "stdout". Stdin and stderr are pointed at
    // /dev/null; a closed stdout is an error (output would be lost).
    bool stdout_closed = false;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        stdout_closed |= fd == 1;
        int n = open("/dev/null", O_RDWR);  // the lowest free descriptor: fd
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
    if (stdout_closed) {
        std::fprintf(stderr, "error: stdout: closed; accepted: an open standard output\n");
        return 2;
    }
    // Every error is one printable line: control characters escaped, cut.
    try {
        return vfsmc::cli_main(argc, argv);
    } catch (const LoadError& e) {
        std::fprintf(stderr, "%s\n", bad_input_line(e.what()).c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "internal error: %s\n", error_line(e.what()).c_str());
        return 3;
    }
}
