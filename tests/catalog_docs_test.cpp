// Generated documents cannot drift: docs/rules/index.md is the catalog, docs/rules/
// match-reference.md is the field table, and `--dump-model` prints only that table's names.
// The catalog's own structure: a rule is C++ or data, and C++ is gone for data rules.
#include <dirent.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/fields.h"
#include "analyzer/report/catalog_docs.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace catalog_docs_test {

using namespace sbr;

namespace {

// Compares the committed `rel` with `actual`; SBR_UPDATE_GOLDEN=1 rewrites it.
void check_generated(const std::string& rel, const std::string& actual) {
  std::string path = test::source_dir() + "/" + rel;
  if (std::getenv("SBR_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << actual;
  INFO(rel << " is generated: regenerate with SBR_UPDATE_GOLDEN=1 build/sbreview_tests "
              "\"[catalog-docs]\" and commit it");
  CHECK(actual == test::read_file(path));
}

std::vector<std::string> sources_in(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 4 && (n.substr(n.size() - 4) == ".cpp" || n.substr(n.size() - 2) == ".h")) {
        out.push_back(dir + "/" + n);
      }
    }
    closedir(d);
  }
  return out;
}

}  // namespace

TEST_CASE("the rules index in docs/ is the catalog", "[catalog-docs]") {
  std::ostringstream os;
  report::write_rules_index(Catalog::embedded(), os);
  check_generated("docs/rules/index.md", os.str());
}

TEST_CASE("the match reference in docs/ is the field table", "[catalog-docs]") {
  std::ostringstream os;
  report::write_match_reference(os);
  check_generated("docs/rules/match-reference.md", os.str());
}

TEST_CASE("dump-model: prints the field table's kinds and names, nothing else", "[catalog-docs]") {
  std::string dump = test::model_dump_of("fixtures/launch/devcontainer-sudo-socket");
  std::istringstream in(dump);
  const match::KindDef* kinds[8] = {};
  size_t checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("script ", 0) == 0) break;  // the renderer's own dump from here
    size_t indent = line.find_first_not_of(' ');
    int depth = static_cast<int>(indent / 4);
    if (depth >= 7) continue;
    std::string rest = line.substr(indent);
    std::string token = rest.substr(0, rest.find(' '));
    bool field = !token.empty() && token.back() == ':';
    if (!field && match::find_kind(token) != nullptr) {  // a header: `<kind> <key>`
      kinds[depth] = match::find_kind(token);
      continue;
    }
    std::string name = field ? token.substr(0, token.size() - 1) : token;
    const match::KindDef* k = depth > 0 ? kinds[depth - 1] : nullptr;
    INFO(line);
    REQUIRE(k != nullptr);
    CHECK(k->field(name) != nullptr);
    ++checked;
  }
  CHECK(checked > 50);
}

TEST_CASE("a rule is C++ or data, the C++ of a data rule is gone", "[catalog]") {
  std::string code;
  for (const auto& path : sources_in(test::source_dir() + "/invariants")) {
    code += test::read_file(path);
  }
  size_t data = 0;
  for (const Rule& r : Catalog::embedded().rules()) {
    std::string constant = "rule::";
    for (char c : r.slug) constant += c == '-' ? '_' : c;
    INFO(r.id << " " << constant);
    CHECK((r.data == nullptr) != r.implemented_by.empty());
    if (r.data) {
      ++data;
      // invariants/ never names a data rule: its check is the YAML.
      CHECK(std::regex_search(code, std::regex(constant + "\\b")) == false);
    } else {
      CHECK(test::read_file(test::source_dir() + "/" + r.implemented_by).find(constant) !=
            std::string::npos);
    }
  }
  CHECK(data >= 50);
}

}  // namespace catalog_docs_test
