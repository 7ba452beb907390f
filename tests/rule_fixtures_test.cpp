// Every catalog rule has a bad and a good fixture and a docs page; the bad fixture reports
// exactly its annotated lines and the good fixture reports nothing of the rule.
#include <dirent.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "analyzer/check/catalog.h"
#include "tests/fixture_harness.h"

using namespace sbr;

namespace {

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every rule has fixtures and a page, and no orphan exists", "[catalog]") {
  const Catalog& c = Catalog::embedded();
  REQUIRE_FALSE(c.rules().empty());
  std::set<std::string> names;
  for (const Rule& r : c.rules()) {
    std::string name = r.id + "-" + r.slug;
    names.insert(name);
    std::string dir = test::source_dir() + "/fixtures/rules/" + name;
    bool bad = false, good = false;
    for (const auto& f : entries(dir)) {
      bad = bad || f.rfind("bad", 0) == 0;
      good = good || f.rfind("good", 0) == 0;
    }
    INFO(name);
    CHECK(bad);
    CHECK(good);
    CHECK(std::ifstream(test::source_dir() + "/docs/rules/" + name + ".md").good());
  }
  for (const auto& d : entries(test::source_dir() + "/fixtures/rules")) {
    INFO("orphan fixture directory " << d);
    CHECK(names.count(d) == 1);
  }
  for (const auto& d : entries(test::source_dir() + "/docs/rules")) {
    if (d == "index.md") continue;
    INFO("orphan docs page " << d);
    CHECK(names.count(d.substr(0, d.size() - 3)) == 1);
  }
  for (const auto& d : entries(test::source_dir() + "/rules")) {
    INFO("rule file name must be <ID>-<slug>.yaml: " << d);
    CHECK(names.count(d.substr(0, d.size() - 5)) == 1);
  }
}

TEST_CASE("rule fixtures test themselves", "[fixtures]") {
  for (const Rule& r : Catalog::embedded().rules()) {
    std::string name = r.id + "-" + r.slug;
    std::string dir = test::source_dir() + "/fixtures/rules/" + name;
    DYNAMIC_SECTION(name) {
      auto result = test::run_fixture_dir(dir, {r.id}, false);
      INFO(result.describe());
      CHECK(result.matches());
      // A bad fixture that annotates nothing would pass vacuously.
      bool annotated = false;
      for (const auto& k : result.expected) annotated = annotated || std::get<2>(k) == r.id;
      CHECK(annotated);
    }
  }
}
