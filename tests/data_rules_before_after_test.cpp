// The checks moved from invariants/ into rules/*.yaml (issue 12) report what their C++ did:
// tests/data/data_rules_before.tsv holds every finding of those rules, as the C++ checks
// reported them on the whole fixture suite and examples/ before the move (location, severity,
// fingerprint, message, related places, or the finding a reason is folded into), in the files
// those directories held then (data_rules_before.files; later fixtures are not compared). A
// frontend change that adds or moves findings of these rules shows here as well as in its
// fixtures; regenerate with SBR_UPDATE_GOLDEN=1 only for such an intended change, and review the
// diff.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "analyzer/cli/cli.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace data_rules_before_after_test {

using namespace sbr;

namespace {

// The working directory, changed for one scope: the report's paths are relative to it.
class InDirectory {
 public:
  explicit InDirectory(const std::string& dir) {
    char buf[4096];
    if (getcwd(buf, sizeof buf) != nullptr) old_ = buf;
    REQUIRE(chdir(dir.c_str()) == 0);
  }
  ~InDirectory() {
    if (!old_.empty() && chdir(old_.c_str()) != 0) std::abort();
  }
  InDirectory(const InDirectory&) = delete;
  InDirectory& operator=(const InDirectory&) = delete;

 private:
  std::string old_;
};

std::string row(const nlohmann::json& loc, const std::string& rule, const std::string& severity,
                const std::string& fingerprint, const std::string& message,
                const std::string& related) {
  return fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}", loc["file"].get<std::string>(),
                     loc["line"].get<int>(), loc["column"].get<int>(), rule, severity, fingerprint,
                     message, related);
}

// The lines of a data file that are not `#` comments.
std::vector<std::string> data_lines(const std::string& path, std::string* header = nullptr) {
  std::vector<std::string> out;
  std::istringstream in(test::read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#", 0) == 0) {
      if (header != nullptr) *header += line + "\n";
      continue;
    }
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// The current findings of `ids` in `files`, one row each, as the snapshot writes them.
std::vector<std::string> current_rows(const std::set<std::string>& ids,
                                      const std::set<std::string>& files) {
  std::ostringstream out, err;
  {
    InDirectory here(test::source_dir());
    run_cli({"check", "--format", "json", "--jobs", "1", "fixtures", "examples"}, out, err);
  }
  auto doc = nlohmann::json::parse(out.str());
  std::vector<std::string> rows;
  for (const auto& f : doc["findings"]) {
    const auto& loc = f["location"];
    if (!files.count(loc["file"].get<std::string>())) continue;
    const std::string rule = f["rule"];
    if (ids.count(rule)) {
      std::string related;
      for (const auto& r : f["related"]) {
        related += fmt::format("{}{}:{}:{} {}", related.empty() ? "" : ";",
                               r["file"].get<std::string>(), r["line"].get<int>(),
                               r["column"].get<int>(), r["message"].get<std::string>());
      }
      rows.push_back(row(loc, rule, f["severity"], f["fingerprint"], f["message"], related));
    }
    for (const auto& r : f["reasons"]) {
      if (!ids.count(r["rule"].get<std::string>())) continue;
      rows.push_back(row(loc, r["rule"], r["severity"], r["fingerprint"], r["message"],
                         "(folded into " + rule + ")"));
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

TEST_CASE("the rules moved into data report what their C++ reported", "[data-rules]") {
  const std::string path = test::source_dir() + "/tests/data/data_rules_before.tsv";
  std::string header;
  std::vector<std::string> before = data_lines(path, &header);
  std::set<std::string> ids;
  for (const auto& line : before) {
    std::istringstream cols(line);
    std::string col;
    for (int i = 0; i < 4 && std::getline(cols, col, '\t'); ++i) {
    }
    ids.insert(col);
  }
  auto listed = data_lines(test::source_dir() + "/tests/data/data_rules_before.files");
  const std::set<std::string> files(listed.begin(), listed.end());
  std::sort(before.begin(), before.end());
  REQUIRE(ids.size() >= 30);
  REQUIRE(files.size() > 500);
  auto now = current_rows(ids, files);
  if (std::getenv("SBR_UPDATE_GOLDEN")) {
    std::ofstream o(path, std::ios::binary);
    o << header;
    for (const auto& r : now) o << r << "\n";
  }
  std::vector<std::string> lost, gained;
  std::set_difference(before.begin(), before.end(), now.begin(), now.end(),
                      std::back_inserter(lost));
  std::set_difference(now.begin(), now.end(), before.begin(), before.end(),
                      std::back_inserter(gained));
  std::string diff;
  for (const auto& r : lost) diff += "before only: " + r + "\n";
  for (const auto& r : gained) diff += "after only:  " + r + "\n";
  INFO(diff);
  CHECK(lost.empty());
  CHECK(gained.empty());
  CHECK(now.size() == before.size());
}

}  // namespace data_rules_before_after_test
