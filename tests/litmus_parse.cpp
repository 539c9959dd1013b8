// The litmus parser alone over the files given: each is read and parsed,
// and a LoadError must be one printable line. Built in the sanitizer build
// with AddressSanitizer as well (tests/CMakeLists.txt), for the fuzz test
// (tests/litmus_fuzz.py): the parser has no Relacy fibers, which ASan cannot
// follow. Exit 0, or 1 with the file whose error is not one line.
#include <cstdio>
#include <string>

#include "litmus/parser.h"
#include "base/printable.h"
#include "scenario/scenario.h"

int main(int argc, char** argv) {
    int parsed = 0, rejected = 0;
    for (int i = 1; i < argc; i++) {
        try {
            vfsmc::litmus::parse_file(argv[i]);
            parsed++;
        } catch (const vfsmc::LoadError& e) {
            std::string line = vfsmc::error_line(e.what());
            if (line.empty() || line.find('\n') != std::string::npos || line.size() > vfsmc::kMaxErrorLine) {
                std::fprintf(stderr, "%s: the error is not one line of at most %zu bytes\n", argv[i], vfsmc::kMaxErrorLine);
                return 1;
            }
            rejected++;
        }
    }
    std::printf("%d parsed, %d rejected with one line\n", parsed, rejected);
    return 0;
}
