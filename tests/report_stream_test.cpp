// report/json_stream.h: a document whose arrays are written element by element is byte for
// byte what dumping the whole tree gives, at any depth, empty or not, with invalid UTF-8.
#include <catch2/catch.hpp>

#include <sstream>

#include "analyzer/report/json_stream.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_stream_test {

using namespace sbr::report;

namespace {

std::string whole(const Json& doc) {
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

StreamedArray from(std::string_view key, const Json& items) {
  return {key, [items](const ElementSink& sink) {
            for (const Json& item : items) sink(item);
          }};
}

}  // namespace

TEST_CASE("streamed arrays: the same bytes as the whole tree's dump", "[report][stream]") {
  Json items = Json::array();
  items.push_back({{"rule", "SB1001"}, {"related", Json::array({{{"line", 3}}})}, {"x", nullptr}});
  items.push_back({{"rule", "SB2002"}, {"message", "a \"quoted\"\nvalue: \x01"}});
  Json more = Json::array({1, "two", Json::object()});

  Json expected;
  expected["version"] = 1;
  expected["runs"] = Json::array({{{"tool", "t"}, {"results", items}, {"after", "x"}}});
  expected["fixed"] = more;
  expected["tail"] = {{"k", "v"}};

  Json doc = expected;
  doc["runs"][0]["results"] = stream_placeholder();
  doc["fixed"] = stream_placeholder();
  std::ostringstream out;
  write_streamed(out, doc, {from("results", items), from("fixed", more)});
  CHECK(out.str() == whole(expected));
}

TEST_CASE("streamed arrays: empty, and invalid UTF-8 replaced", "[report][stream]") {
  Json expected;
  expected["findings"] = Json::array();
  expected["workloads"] = Json::array({{{"name", "bad \xff byte"}}});
  Json doc = expected;
  doc["findings"] = stream_placeholder();
  doc["workloads"] = stream_placeholder();
  std::ostringstream out;
  write_streamed(out, doc,
                 {from("findings", Json::array()), from("workloads", expected["workloads"])});
  CHECK(out.str() == whole(expected));
  CHECK(out.str().find("bad \xEF\xBF\xBD byte") != std::string::npos);
}

TEST_CASE("streamed arrays: an input string that looks like the placeholder is just text",
          "[report][stream]") {
  // A YAML value can hold anything; only a member whose value IS the placeholder is streamed.
  std::string sneaky = stream_placeholder().get<std::string>();
  Json expected;
  expected["notes"] = Json::array({sneaky, "\"findings\": " + sneaky});
  expected["findings"] = Json::array({1, 2});
  Json doc = expected;
  doc["findings"] = stream_placeholder();
  std::ostringstream out;
  write_streamed(out, doc, {from("findings", expected["findings"])});
  CHECK(out.str() == whole(expected));
}

}  // namespace report_stream_test
