// What a compose command's environment holds as the script sets it (Invocation::exported_env).
#include "analyzer/render/bash/exported_env.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace sbr::bash {
namespace {

// The host variables compose knows by name (compose_interpolate.cpp keeps them as `$NAME`):
// a symbolic value the evaluator writes as one of them (fields.cpp env_word) is that value.
constexpr std::array<std::string_view, 6> kHost = {
    "$HOME", "$PWD", "$XDG_CONFIG_HOME", "$XDG_DATA_HOME", "$XDG_CACHE_HOME", "$XDG_RUNTIME_DIR"};

// A known value, or one that is a host variable and a path below it (`$HOME`, `$HOME/.cache`).
std::optional<std::string> exported_text(const EWord& w) {
  const std::string& t = w.w.text;
  if (!w.w.symbolic) return t;
  if (t.find('$', 1) != std::string::npos) return std::nullopt;
  const bool host = std::any_of(kHost.begin(), kHost.end(), [&](std::string_view h) {
    return t.starts_with(h) && (t.size() == h.size() || t[h.size()] == '/');
  });
  return host ? std::optional<std::string>(t) : std::nullopt;
}

}  // namespace

bool runs_compose(const std::vector<Word>& argv) {
  if (argv.empty()) return false;
  const std::string& b = argv[0].text;
  if (b.ends_with("docker-compose") || b.ends_with("podman-compose")) return true;
  // `docker compose`, past the engine's global options (`--context x compose`).
  for (std::size_t i = 1; i < argv.size() && i < 6; ++i) {
    if (argv[i].text == "compose") return true;
  }
  return false;
}

std::vector<std::pair<std::string, std::string>> exported_values(const State& st) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, cow] : st.globals.get()) {
    const Var& v = cow.get();
    if (!v.exported || v.array || v.value.size() != 1 || v.elems().size() != 1) continue;
    if (auto text = exported_text(v.elems().front())) out.emplace_back(name, std::move(*text));
  }
  return out;
}

}  // namespace sbr::bash
