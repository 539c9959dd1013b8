// vfsmc command line: run, check, replay, list, validate.
//
// Exit codes: 0 every verdict as expected; 1 a verdict differs from
// `expect`; 2 bad input; 3 internal error.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/cli.h"
#include "explore/engine.h"
#include "kernel/invariants.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace vfsmc;

int main(int argc, char** argv) {
    try {
        return vfsmc::cli_main(argc, argv);
    } catch (const LoadError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "internal error: %s\n", e.what());
        return 3;
    }
}
