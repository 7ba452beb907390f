// Workloads named as a reader knows them (issue 34): the identity of an unknown value in a
// container name (Word::identity, `$NAME@file:line`) is shown as written in the script.
#include <catch2/catch.hpp>

#include "analyzer/model/workload.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace reader_name_test {

using sbr::reader_name;

TEST_CASE("identities in a container name read as the script writes them", "[reader-name]") {
  CHECK(reader_name("gem-$project_name@bin/agent-box:390-geminicli-$gen_uuid@bin/agent-box:397") ==
        "gem-$project_name-geminicli-$gen_uuid");
  CHECK(reader_name("$CONTAINER_NAME@cco:3344") == "$CONTAINER_NAME");
  CHECK(reader_name("run_agent, lib/run.sh:10") == "run_agent, lib/run.sh:10");
}

TEST_CASE("text that only looks like an identity is kept", "[reader-name]") {
  CHECK(reader_name("agent") == "agent");
  CHECK(reader_name("cost $5@home") == "cost $5@home");  // no `:line` after the path
  CHECK(reader_name("$@") == "$@");
  CHECK(reader_name("a$b@c d:1") == "a$b@c d:1");  // a blank is no path
  CHECK(reader_name("").empty());
}

}  // namespace reader_name_test
