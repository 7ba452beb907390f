// The sinks that merge a pod's containers into one finding emit an object's findings once the
// checks have passed its last workload (invariants/object_order.h), so they never hold the
// whole model's; what they report must not depend on when they emit.
#include <catch2/catch.hpp>

#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "generated/rule_ids.h"
#include "invariants/object_order.h"
#include "invariants/workload_facts.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace object_order_test {

using namespace sbr;

namespace {

Workload container(const std::string& name, const std::string& ctr) {
  Workload w;
  w.id.kind = "Deployment";
  w.id.ns = "tenants";
  w.id.name = name;
  w.id.container = ctr;
  return w;
}

const Provenance kHostNetwork{Location{0, 9, 7}};

}  // namespace

TEST_CASE("an object is complete once the checks pass its last workload", "[object_order]") {
  Model m;
  m.workloads = {container("a", "agent"), container("b", "agent"), container("a", "proxy")};
  inv::ObjectOrder order(m);
  CHECK(order.end_of(m.workloads[0]) == 2);
  CHECK(order.end_of(m.workloads[1]) == 1);
  order.reach(m.workloads[1]);
  CHECK_FALSE(order.complete(m.workloads[0]));  // its proxy container is still ahead
  CHECK_FALSE(order.complete(m.workloads[1]));  // being checked
  order.reach(m.workloads[2]);
  CHECK(order.complete(m.workloads[1]));
  CHECK_FALSE(order.complete(m.workloads[2]));
  order.reach(m.workloads[0]);  // behind: the furthest point reached stays
  CHECK(order.reached() == 2);
  Workload elsewhere = container("a", "agent");
  CHECK_FALSE(order.complete(elsewhere));  // not in the model: kept to the end
}

TEST_CASE("a pod's containers apart in the model still make one finding", "[object_order]") {
  Model m;
  m.workloads = {container("a", "agent"), container("b", "agent"), container("a", "proxy"),
                 container("c", "agent")};
  Findings out;
  {
    inv::FactFindings facts(out, m);
    for (const Workload& w : m.workloads) {
      facts.add(w, rule::host_network_namespace, "shares the host's network namespace",
                kHostNetwork, "hostNetwork");
      // b's finding is out as soon as the checks reach the next object's workload, a's only
      // once its last container has been added.
      if (&w == &m.workloads[2]) CHECK(out.items().size() == 1);
    }
    CHECK(out.items().size() == 2);
  }
  const auto& items = out.items();
  REQUIRE(items.size() == 3);
  CHECK(items[0].message.str().find("tenants/b") != std::string::npos);
  CHECK(items[1].message.str().find("containers agent, proxy") != std::string::npos);
  CHECK(items[2].message.str().find("tenants/c") != std::string::npos);
}

}  // namespace object_order_test
