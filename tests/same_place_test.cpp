// One finding per rule and place (analyzer/check/same_place.h): the paths of one fact widen
// its condition, another workload is named, another fact at the place is a reason.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/check/same_place.h"
#include "generated/rule_ids.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace same_place_test {

using namespace sbr;

CondAtom atom(const std::string& shown, const std::string& negation, const std::string& subject) {
  return CondAtom{shown, negation, subject, "", ""};
}

Condition when(std::vector<CondAtom> atoms, bool needs_switch = false) {
  Condition c;
  for (auto& a : atoms) c = conjoin(c, Condition::when(a, needs_switch));
  return c;
}

Finding at_line(const std::string& subject, Severity s, Condition c, const std::string& fact) {
  Finding f;
  f.rule_id = rule::capability_added;
  f.subject = subject;
  f.label = "launcher " + subject;
  f.at = Location{0, 12, 5};
  f.fact_path = fact;
  f.severity = s;
  f.message = f.label.str() + " adds capability X" + condition_note(c);
  f.set_condition(std::move(c));
  f.fingerprint = subject + "/" + fact;
  return f;
}

TEST_CASE("disjoin: complementary atoms cancel, implied terms drop", "[group]") {
  CondAtom warm = atom("VOLSTATE=warm", "VOLSTATE!=warm", "VOLSTATE");
  CondAtom cold = atom("VOLSTATE!=warm", "VOLSTATE=warm", "VOLSTATE");
  CondAtom docker = atom("`docker` is installed", "`docker` is not installed", "docker");
  CondAtom no_docker = atom("`docker` is not installed", "`docker` is installed", "docker");
  CondAtom shell = atom("started with `shell`", "not started with `shell`", "$1");
  CHECK(disjoin({when({warm}), when({cold})}).always());
  CHECK(disjoin({when({shell, docker}), when({shell})}) == when({shell}));
  Condition narrowed = disjoin({when({shell, docker}), when({shell, no_docker})});
  CHECK(narrowed.text == "when started with `shell`");
  Condition two = disjoin({when({shell}, true), when({docker}, true)});
  CHECK(two.text == "when started with `shell`, or when `docker` is installed");
  CHECK(two.needs_switch);
  CHECK(disjoin({when({shell}), Condition{}}).always());
}

TEST_CASE("merge_same_place: one finding per rule, file, line and column", "[group]") {
  CondAtom warm = atom("VOLSTATE=warm", "VOLSTATE!=warm", "VOLSTATE");
  CondAtom cold = atom("VOLSTATE!=warm", "VOLSTATE=warm", "VOLSTATE");
  std::vector<Finding> fs = {
      at_line("run.sh", Severity::Medium, when({warm}, true), "cap/CHOWN"),
      at_line("run.sh", Severity::High, when({cold}), "cap/CHOWN"),
      at_line("smoke.sh", Severity::High, {}, "cap/CHOWN"),
      at_line("run.sh", Severity::High, {}, "cap/SETUID"),
  };
  merge_same_place(fs);
  REQUIRE(fs.size() == 1);
  const Finding& f = fs[0];
  CHECK(f.severity == Severity::High);
  CHECK(f.condition().always());  // one path or the other: every path
  CHECK(f.message == "launcher run.sh and launcher smoke.sh adds capability X");
  REQUIRE(f.shared_with.size() == 1);
  CHECK(f.shared_with[0].subject == "smoke.sh");
  REQUIRE(f.reasons.size() == 1);
  CHECK(f.reasons[0].fingerprint == "run.sh/cap/SETUID");
}

TEST_CASE("merge_same_place: other places, rules and acceptances stay apart", "[group]") {
  std::vector<Finding> fs = {at_line("a.sh", Severity::High, {}, "cap/CHOWN"),
                             at_line("a.sh", Severity::High, {}, "cap/CHOWN")};
  fs[1].at.column = 9;
  Finding accepted = at_line("a.sh", Severity::Note, {}, "cap/CHOWN");
  accepted.accepted_reason = "the image needs it";
  fs.push_back(accepted);
  Finding other = at_line("a.sh", Severity::High, {}, "cap/CHOWN");
  other.rule_id = rule::dangerous_capability_under_runc;
  fs.push_back(other);
  merge_same_place(fs);
  CHECK(fs.size() == 4);
}

}  // namespace same_place_test
