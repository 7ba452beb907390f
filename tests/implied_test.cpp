// One fact, one finding: a finding repeated on a narrower path through the same place is
// dropped; the same fact on unrelated paths, or another fact, is kept.
#include <catch2/catch.hpp>

#include "analyzer/check/implied.h"
#include "generated/rule_ids.h"

namespace sbr {
namespace {

Condition when(std::initializer_list<const char*> atoms) {
  Condition c;
  for (const char* a : atoms) c = conjoin(c, Condition::when({a, "", "", ""}, true));
  return c;
}

Finding at(RuleId rule, std::uint32_t line, std::string fact, Condition c) {
  Finding f;
  f.rule_id = rule;
  f.at = Location{0, line, 1};
  f.fact_path = std::move(fact);
  f.set_condition(std::move(c));
  return f;
}

}  // namespace

TEST_CASE("a finding on a narrower path through the same place is dropped", "[implied]") {
  std::vector<Finding> fs = {
      at(rule::runs_as_root, 17, "user", {}),
      at(rule::runs_as_root, 17, "user", when({"started with `--net`"})),
      at(rule::runs_as_root, 17, "user", when({"started with arguments", "started with `--mem`"})),
  };
  drop_implied(fs);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].condition().always());
}

TEST_CASE("findings on unrelated paths, other places or other facts are kept", "[implied]") {
  std::vector<Finding> fs = {
      at(rule::runs_as_root, 17, "user", when({"NET=host"})),
      at(rule::runs_as_root, 17, "user", when({"MODE=open"})),
      at(rule::runs_as_root, 18, "user", when({"NET=host", "MODE=open"})),
      at(rule::privileged_container, 17, "privileged", when({"NET=host", "MODE=open"})),
      at(rule::runs_as_root, 17, "other-fact", when({"NET=host", "MODE=open"})),
  };
  drop_implied(fs);
  CHECK(fs.size() == 5);

  std::vector<Finding> narrower = {
      at(rule::runs_as_root, 17, "user", when({"NET=host"})),
      at(rule::runs_as_root, 17, "user", when({"NET=host", "MODE=open"})),
  };
  drop_implied(narrower);
  REQUIRE(narrower.size() == 1);
  CHECK(narrower[0].condition().text == "when NET=host");
}

TEST_CASE("path conditions join atoms, and atoms about one value contradict", "[implied]") {
  Condition host = Condition::when({"NET=host", "NET!=host", "env NET", "host"}, true);
  Condition not_host = Condition::when({"NET!=host", "NET=host", "env NET", ""}, false);
  Condition none = Condition::when({"NET=none", "NET!=none", "env NET", "none"}, true);
  Condition other = Condition::when({"MODE=open", "MODE!=open", "env MODE", "open"}, true);
  CHECK(host.contradicts(not_host));
  CHECK(host.contradicts(none));
  CHECK_FALSE(host.contradicts(other));
  Condition both = conjoin(host, other);
  CHECK(both.text == "when NET=host and MODE=open");
  CHECK(both.implies(host));
  CHECK_FALSE(host.implies(both));
  CHECK(conjoin(both, host).atoms.size() == 2);  // each atom once
  // An atom whose own words say "and" stays one atom.
  Condition compound = Condition::when({"A is set and B is set", "", "", ""}, false);
  CHECK(conjoin(compound, other).atoms.size() == 2);
}

}  // namespace sbr
