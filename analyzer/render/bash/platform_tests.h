// The tests a launcher makes of the platform it runs on (`case "$(uname -s)" in Darwin)`,
// `[[ $OSTYPE == darwin* ]]`, `uname -r | grep -qi microsoft` for WSL): their branches are
// paths on one platform, not switches, and a document's "on Linux" claim selects them
// (CondAtom::platform; docs/doc-claims.md, "Platforms").
#pragma once

#include <string>
#include <string_view>

namespace sbr::bash {

// Whether a tested value names the operating system: `$(uname)`, `$(uname -s)`,
// `$(uname -o)`, `$OSTYPE` (quoted or braced). `$(uname -r)` is tested by pattern (WSL).
bool names_platform(std::string_view value);

// The platform a pattern or literal the value is compared with stands for: "macos" (Darwin),
// "linux", "windows" (MINGW, MSYS, Cygwin), "wsl" (a kernel release with "microsoft" or "WSL"),
// or "" for anything else (`*`, FreeBSD).
std::string pattern_platform(std::string_view pattern);

// "wsl" for a command that succeeds on WSL only (`uname -r | grep -qi microsoft`,
// `grep -qi microsoft /proc/version`), else "".
std::string command_platform(std::string_view command);

// "!linux" for "linux" and back: the platform side of a negated atom ("" stays "").
std::string negate_platform(const std::string& platform);

}  // namespace sbr::bash
