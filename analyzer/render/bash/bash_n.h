// bash itself as the reference parser: where tree-sitter-bash reports a syntax error, `bash -n`
// says whether the script is valid bash (then the error is a gap of sbreview, never the
// repository's). `-n` reads commands without executing any.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sbr::bash {

struct BashVerdict {
  bool accepts = false;
  std::uint32_t line = 0;  // where bash reports the first error (0: it did not say)
  std::string message;     // bash's words for it ("syntax error near unexpected token `fi'")
};

// What bash says of `script`; nullopt when bash cannot be run here (not installed, no temporary
// directory, a timeout).
std::optional<BashVerdict> bash_verdict(std::string_view script);

}  // namespace sbr::bash
