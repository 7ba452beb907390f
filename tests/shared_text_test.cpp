// A finding's workload texts are kept once per run (support/shared_text.h): equal texts added
// through the Findings sink end up in one string, and reading them is reading a std::string.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "analyzer/check/finding.h"
#include "analyzer/support/shared_text.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace shared_text_test {

using sbr::Finding;
using sbr::Findings;
using sbr::SharedText;
using sbr::TextPool;

TEST_CASE("equal texts interned by a pool are one string", "[shared_text]") {
  TextPool pool;
  SharedText a = std::string("Deployment/tenants/agent-00001/agent");
  SharedText b = std::string("Deployment/tenants/agent-00001/agent");
  SharedText c = std::string("Deployment/tenants/agent-00002/agent");
  CHECK(a.str().data() != b.str().data());
  pool.intern(a);
  pool.intern(b);
  pool.intern(c);
  CHECK(a.str().data() == b.str().data());
  CHECK(a.str().data() != c.str().data());
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a < c);
}

TEST_CASE("a shared text reads like the string it holds", "[shared_text]") {
  SharedText empty;
  CHECK(empty.empty());
  CHECK(empty.str().empty());
  CHECK(empty == "");
  SharedText s = "securityContext.privileged";
  CHECK(s.size() == 26);
  CHECK(s == std::string("securityContext.privileged"));
  CHECK(s.view().starts_with("securityContext."));
  CHECK(fmt::format("[{}]", s) == "[securityContext.privileged]");
  const std::string& ref = s;
  CHECK(ref == "securityContext.privileged");
}

TEST_CASE("findings of one workload share its texts", "[shared_text]") {
  Findings sink;
  for (int i = 0; i < 3; ++i) {
    Finding f;
    f.subject = std::string("Deployment/tenants/agent-00001/agent");
    f.label = std::string("Deployment tenants/agent-00001");
    f.threat_reason = std::string("no evidence either way (the default)");
    f.fact_path = std::string("securityContext.privileged");
    f.message = "message " + std::to_string(i);
    sink.add(std::move(f));
  }
  const auto& items = sink.items();
  REQUIRE(items.size() == 3);
  for (const Finding& f : items) {
    CHECK(f.subject.str().data() == items[0].subject.str().data());
    CHECK(f.label.str().data() == items[0].label.str().data());
    CHECK(f.threat_reason.str().data() == items[0].threat_reason.str().data());
    CHECK(f.fact_path.str().data() == items[0].fact_path.str().data());
  }
  CHECK(items[2].subject == "Deployment/tenants/agent-00001/agent");
  CHECK(items[1].message == "message 1");
}

}  // namespace shared_text_test
