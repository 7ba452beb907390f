#include "analyzer/render/bash/platform_tests.h"

#include <algorithm>
#include <cctype>

namespace sbr::bash {

namespace {

std::string folded(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\'' || c == '{' || c == '}') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool has(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

bool names_platform(std::string_view value) {
  std::string v = folded(value);
  if (v == "$ostype" || v == "ostype") return true;
  if (!has(v, "uname")) return false;
  // `uname -r` (the kernel release), `-m` (the machine), `-n` (the host name) are not the OS.
  return !has(v, "-r") && !has(v, "-m") && !has(v, "-n") && !has(v, "-a") && !has(v, "-p");
}

std::string pattern_platform(std::string_view pattern) {
  std::string p = folded(pattern);
  p.erase(std::remove(p.begin(), p.end(), '*'), p.end());
  if (p.empty()) return "";
  if (has(p, "microsoft") || has(p, "wsl")) return "wsl";
  if (p.rfind("darwin", 0) == 0 || p == "macos" || p == "osx") return "macos";
  if (p.rfind("linux", 0) == 0 || p == "gnu/linux") return "linux";
  if (p.rfind("mingw", 0) == 0 || p.rfind("msys", 0) == 0 || p.rfind("cygwin", 0) == 0 ||
      p == "windows_nt" || p == "win32")
    return "windows";
  return "";
}

std::string command_platform(std::string_view command) {
  std::string c = folded(command);
  bool release = has(c, "uname -r") || has(c, "/proc/version") || has(c, "osrelease");
  if (release && has(c, "grep") && (has(c, "microsoft") || has(c, "wsl"))) return "wsl";
  return "";
}

std::string negate_platform(const std::string& platform) {
  if (platform.empty()) return "";
  return platform[0] == '!' ? platform.substr(1) : "!" + platform;
}

}  // namespace sbr::bash
