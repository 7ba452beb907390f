#include "tests/fixture_harness.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/repository_files.h"
#include "tests/memory_tree_loader.h"

namespace sbr::test {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

// How a fixture's files get into the pipeline. A plain fixture is read into memory and
// analysed through the in-memory tree. One with a `.fixture-setup` needs what only a disk
// holds (a FIFO, a mode-000 file, a sparse file): the product's reader makes a temporary copy
// that the setup completes (analyzer/cli/rule_tests.h).
Analysis analyse_files(const std::string& dir, const Config& config) {
  if (read_file(dir + "/.fixture-setup").empty()) {
    AnalyzeOptions ao;
    ao.jobs = 2;
    // The fixture is the repository: evidence its `exclude:` leaves out is still found.
    MemoryTree tree = load_memory_tree(dir);
    RepositoryLookup repository(tree, "");
    ao.repository = &repository;
    return analyze(tree, config, ao);
  }
  return ruletest::analyse_from_disk(dir, config);
}

}  // namespace

std::string source_dir() {
  return SBR_SOURCE_DIR;
}

ruletest::FixtureRun fixture_run(const Catalog& catalog) {
  ruletest::FixtureRun run;
  run.catalog = &catalog;
  run.analyse = [](const std::string& dir, const Config& config) {
    return analyse_files(dir, config);
  };
  return run;
}

FixtureResult run_fixture_dir(const std::string& dir, const std::set<std::string>& scope,
                              bool closed) {
  return ruletest::run_fixture_dir(dir, scope, closed, fixture_run());
}

}  // namespace sbr::test

#include <catch2/catch.hpp>

#include "analyzer/report/report.h"

namespace sbr::test {

std::string model_dump_of(const std::string& rel_dir) {
  Config config;
  AnalyzeOptions ao;
  ao.jobs = 2;
  Analysis a = analyze(load_memory_tree(source_dir() + "/" + rel_dir), config, ao);
  std::ostringstream os;
  write_model_dump(a.model, os);
  return os.str();
}

void check_golden_dump(const std::string& rel_dir, const std::string& golden) {
  std::string actual = model_dump_of(rel_dir);
  std::string path = source_dir() + "/" + golden;
  if (std::getenv("SBR_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << actual;
  INFO("golden " << path << " (regenerate with SBR_UPDATE_GOLDEN=1 and review the diff)");
  CHECK(actual == read_file(path));
}

}  // namespace sbr::test
