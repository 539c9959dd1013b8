// vfsmc check: the pieces the regression run shares between its files:
// check.cpp (the runner), check_lock.cpp (the exploration-count oracle,
// explorations.lock) and check_output.cpp (JUnit XML and GitHub
// annotations).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"

namespace vfsmc {

// One scenario's outcome in `check`, for --junit and --format github.
struct CheckRecord {
    std::string file, name, status, text;  // status: pass, fail, error or internal
    double seconds = 0;
};

// What the accepted lock file is, for its error lines.
extern const char* const kLockAccepted;

// The exploration-count oracle: each directory of scenarios keeps an
// explorations.lock beside them, a JSON object of scenario name ->
// executions explored.
struct CountLocks {
    std::map<std::string, nlohmann::json> by_dir;  // directory -> lock contents
    // The lock of the directory holding `file`, read once (an empty object
    // when there is none). Bad contents: LoadError, one line.
    nlohmann::json& of(const std::string& file);
};

// `check --update-counts`: merge `fresh` into the lock file under an
// exclusive flock, read and written through one descriptor, so that two
// runs on one directory serialize here and each keeps the other's counts
// (entries of scenarios not run this time are kept).
void update_lock_file(const std::string& path, const nlohmann::json& fresh);

// A recorded count: a whole number (nlohmann keeps non-negative integers
// unsigned; -1, 1.5, 1e30, strings and null are not).
bool lock_count(const nlohmann::json& v, unsigned long long& out);

// `check --shard I/N`: the scenarios of the I-th of N shares (1 <= I <= N),
// in file order. The shares are fixed by the files and their recorded
// counts alone, so N jobs of a CI matrix or a Slurm array, each given the
// same tree and its own I, run every scenario exactly once between them
// (check_shard.cpp). A bad `spec`: LoadError, one line.
std::vector<ScenarioEntry> shard_of(std::vector<ScenarioEntry> files, const std::string& spec, CountLocks& locks);

// JUnit XML (the format GitLab, Jenkins and GitHub read): one testsuite per
// scenario directory, one testcase per scenario; tests/junit.xsd is its schema.
void write_junit(const std::string& path, const std::vector<CheckRecord>& recs);

// A GitHub Actions workflow command for a record that did not pass:
// `::error file=F,line=N,title=T::message`.
std::string github_annotation(const CheckRecord& r);

}  // namespace vfsmc
