// The shared string helpers: shorten cuts at a character, never inside one.
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/support/strings.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace support_strings_test {

TEST_CASE("shorten keeps a short text and cuts a long one with an ellipsis", "[strings]") {
  CHECK(sbr::shorten("docker run", 10) == "docker run");
  CHECK(sbr::shorten("docker run --rm", 10) == "docker ...");
  CHECK(sbr::shorten("", 0).empty());
}

TEST_CASE("shorten never cuts a UTF-8 character in half", "[strings]") {
  // "Dockerボリューム": each katakana is 3 bytes; byte 7 is inside ボ (bytes 6..8).
  const std::string text = "Dockerボリューム";
  const std::string cut = sbr::shorten(text, 11);  // room for 8 bytes before "..."
  CHECK(cut == "Docker...");
  CHECK(sbr::shorten(text, 12) == "Dockerボ...");
  CHECK(sbr::head_chars(text, 8) == "Docker");  // byte 8 is inside ボ
  CHECK(sbr::head_chars(text, 9) == "Dockerボ");
  CHECK(sbr::head_chars(text, 100) == text);
}

}  // namespace support_strings_test
