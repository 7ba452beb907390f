// A finding's message is kept in three parts around its workload's name
// (support/message_text.h): it reads as the whole text, and the findings of many workloads that
// differ only in the name share the words around it once they pass through the Findings sink.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sstream>

#include "analyzer/check/finding.h"
#include "analyzer/support/message_text.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace message_text_test {

using sbr::Finding;
using sbr::Findings;
using sbr::MessageText;

namespace {

std::string no_limit(const std::string& name) {
  return "Deployment tenants/" + name + ", container agent has no memory limit";
}

}  // namespace

TEST_CASE("a message split around its workload's name reads as the whole text", "[message_text]") {
  MessageText m = MessageText::around(no_limit("agent-00042"), "agent-00042");
  CHECK(m.str() == no_limit("agent-00042"));
  CHECK(m == no_limit("agent-00042"));
  CHECK_FALSE(m == no_limit("agent-00043"));
  CHECK_FALSE(m == "Deployment tenants/agent-00042");
  CHECK(m.size() == no_limit("agent-00042").size());
  CHECK(m.parts()[0] == "Deployment tenants/");
  CHECK(m.parts()[1] == "agent-00042");
  CHECK(m.parts()[2] == ", container agent has no memory limit");
  CHECK(fmt::format("<{}>", m) == "<" + no_limit("agent-00042") + ">");
  std::ostringstream out;
  out << m;
  CHECK(out.str() == no_limit("agent-00042"));
  const std::string as_string = m;
  CHECK(as_string == no_limit("agent-00042"));
}

TEST_CASE("a message without the name, or an edited one, is one part", "[message_text]") {
  MessageText absent = MessageText::around("image busybox runs as root", "agent");
  CHECK(absent.parts()[0] == "image busybox runs as root");
  CHECK(absent.parts()[1].empty());
  MessageText no_name = MessageText::around("a text", "");
  CHECK(no_name == "a text");
  MessageText edited = MessageText::around(no_limit("agent-1"), "agent-1");
  edited += " [only AGENT_NET=full]";
  CHECK(edited == no_limit("agent-1") + " [only AGENT_NET=full]");
  CHECK(edited.parts()[1].empty());
  MessageText empty;
  CHECK(empty.empty());
  CHECK(empty == "");
  CHECK_FALSE(MessageText("x").empty());
  // The name at the very start or end leaves an empty part, not a lost one.
  MessageText edge = MessageText::around("agent-7", "agent-7");
  CHECK(edge == "agent-7");
  CHECK(edge.parts()[1] == "agent-7");
}

TEST_CASE("findings of many workloads share the words around the name", "[message_text]") {
  Findings sink;
  for (int i = 0; i < 3; ++i) {
    Finding f;
    std::string name = fmt::format("agent-{:05}", i);
    f.message = MessageText::around(no_limit(name), name);
    sink.add(std::move(f));
  }
  Finding whole;
  whole.message = no_limit("agent-00000");
  sink.add(std::move(whole));
  const auto& items = sink.items();
  REQUIRE(items.size() == 4);
  for (int i = 0; i < 3; ++i) {
    CHECK(items[i].message == no_limit(fmt::format("agent-{:05}", i)));
    CHECK(items[i].message.parts()[0].data() == items[0].message.parts()[0].data());
    CHECK(items[i].message.parts()[2].data() == items[0].message.parts()[2].data());
  }
  CHECK(items[1].message.parts()[1].data() != items[0].message.parts()[1].data());
  // A message not split around a name is left as it is: nothing to share it with.
  CHECK(items[3].message == no_limit("agent-00000"));
  CHECK(items[3].message.parts()[0].data() != items[0].message.parts()[0].data());
}

}  // namespace message_text_test
