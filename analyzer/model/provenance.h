// Where every fact in the model came from. Facts are small: a file is an index into the run's
// file table, so a 10,000-workload model does not carry 10,000 copies of each path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sbr {

using FileId = std::uint32_t;
inline constexpr FileId kNoFile = 0xffffffffu;

// 1-based line and column; 0 means "the whole file" (e.g. an unreadable file).
struct Location {
  FileId file = kNoFile;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  bool valid() const { return file != kNoFile; }
  friend bool operator==(const Location&, const Location&) = default;
  friend auto operator<=>(const Location&, const Location&) = default;
};

enum class Frontend : std::uint8_t {
  Kubernetes,
  Bash,
  Compose,
  Devcontainer,
  Dockerfile,
  Seccomp,
  Nft,
  Iptables,
  Squid,
  Markdown,
  Config,
  Engine,  // a default the engine supplies, not something written in the input
};

// A fact reached only on some path of a script carries the condition text. needs_switch is
// true when the path is not the default one (it needs an explicit, non-default switch).
struct Condition {
  std::string text;
  bool needs_switch = false;

  bool always() const { return text.empty(); }
  friend bool operator==(const Condition&, const Condition&) = default;
};

struct Provenance {
  Location at;
  Frontend frontend = Frontend::Kubernetes;
  Condition condition;
};

// One value with where it came from. std::optional<Fact<T>> keeps "unset" apart from "false".
template <class T>
struct Fact {
  T value{};
  Provenance from;
};

template <class T>
using Maybe = std::optional<Fact<T>>;

template <class T>
Fact<T> fact(T v, Provenance p) {
  return Fact<T>{std::move(v), std::move(p)};
}

// A location that contributes to a finding without being its cause.
struct Related {
  Location at;
  std::string message;
  friend bool operator==(const Related&, const Related&) = default;
};

}  // namespace sbr
