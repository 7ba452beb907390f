#include "analyzer/engine/paths.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <span>
#include <utility>

#include "analyzer/engine/path_tables.h"
#include "analyzer/support/strings.h"

namespace sbr::engine {
namespace {

// Variable spellings that stand for a known directory, longest first within each group so that
// "${HOME}" is not read as "$HOME" followed by "}".
constexpr std::array<std::pair<std::string_view, std::string_view>, 21> kPrefixes = {{
    {"${localEnv:USERPROFILE}", "~"},
    {"${localEnv:HOME}", "~"},
    {"${env:HOME}", "~"},
    {"%USERPROFILE%", "~"},
    {"${HOME}", "~"},
    {"$HOME", "~"},
    {"${XDG_CONFIG_HOME}", "~/.config"},
    {"$XDG_CONFIG_HOME", "~/.config"},
    {"${XDG_DATA_HOME}", "~/.local/share"},
    {"$XDG_DATA_HOME", "~/.local/share"},
    {"${XDG_CACHE_HOME}", "~/.cache"},
    {"$XDG_CACHE_HOME", "~/.cache"},
    {"${XDG_RUNTIME_DIR}", "/run/user/$UID"},
    {"$XDG_RUNTIME_DIR", "/run/user/$UID"},
    {"$(git rev-parse --show-toplevel)", "."},
    {"${localWorkspaceFolder}", "."},
    {"${workspaceFolder}", "."},
    {"$(pwd)", "."},
    {"`pwd`", "."},
    {"${PWD}", "."},
    {"$PWD", "."},
}};

// Whether pattern component `pc` matches `c`; "*" stands for one component (a uid).
bool component_matches(std::string_view pc, std::string_view c) {
  return pc == "*" || pc == c;
}

// `path` lies at or below `pattern` (component-wise, with "*" wildcards).
bool under_pattern(const std::vector<std::string>& path, const std::vector<std::string>& pattern) {
  if (path.size() < pattern.size()) return false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (!component_matches(pattern[i], path[i])) return false;
  }
  return true;
}

// `path` is a strict parent of `pattern`.
bool parent_of_pattern(const std::vector<std::string>& path,
                       const std::vector<std::string>& pattern) {
  if (path.size() >= pattern.size()) return false;
  for (size_t i = 0; i < path.size(); ++i) {
    if (!component_matches(pattern[i], path[i])) return false;
  }
  return true;
}

using namespace path_tables;  // the classifier's data (path_tables.h)

HomeSplit split_home(const std::string& norm) {
  HomeSplit h;
  auto parts = path_components(norm);
  if (!norm.empty() && norm[0] == '~') {
    h.is_home = true;
    h.home = parts.empty() ? "~" : parts[0];
    h.rel.assign(parts.begin() + (parts.empty() ? 0 : 1), parts.end());
    return h;
  }
  if (norm.empty() || norm[0] != '/') return h;
  if (!parts.empty() && parts[0] == "root") {
    h.is_home = true;
    h.home = "/root";
    h.rel.assign(parts.begin() + 1, parts.end());
    return h;
  }
  size_t base = 0;
  if (!parts.empty() && (parts[0] == "home" || parts[0] == "Users")) {
    base = 1;
  } else if (parts.size() >= 2 && parts[0] == "var" && parts[1] == "home") {
    base = 2;
  } else {
    return h;
  }
  h.is_home = true;
  if (parts.size() == base) {
    h.collection = true;
    h.home = norm;
    return h;
  }
  h.home = "/";
  for (size_t i = 0; i <= base; ++i) h.home += (i ? "/" : "") + parts[i];
  h.rel.assign(parts.begin() + static_cast<long>(base) + 1, parts.end());
  return h;
}

std::string join_rel(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& c : v) s += (s.empty() ? "" : "/") + c;
  return s;
}

const std::string_view* find_under(const std::vector<std::string>& rel,
                                   std::span<const std::string_view> table) {
  const std::string_view* best = nullptr;
  size_t best_len = 0;
  for (const auto& e : table) {
    auto pat = path_components(e);
    if (under_pattern(rel, pat) && pat.size() >= best_len) {
      best = &e;
      best_len = pat.size();
    }
  }
  return best;
}

const std::string_view* find_parent_of(const std::vector<std::string>& rel,
                                       std::span<const std::string_view> table) {
  for (const auto& e : table) {
    if (parent_of_pattern(rel, path_components(e))) return &e;
  }
  return nullptr;
}

std::string home_label(const HomeSplit& h, std::string_view entry) {
  return h.home + "/" + std::string(entry);
}

bool is_socket_path(const std::string& norm, std::string& why) {
  auto parts = path_components(norm);
  if (norm == "/") {
    why = "/run";
    return true;
  }
  if (!parts.empty()) {
    for (auto n : kSocketNames) {
      if (parts.back() == n) {
        why = norm;
        return true;
      }
    }
  }
  if (norm.empty() || norm[0] != '/') return false;
  // /var/run is a symlink to /run on every current distribution.
  if (parts.size() >= 2 && parts[0] == "var" && parts[1] == "run") {
    parts.erase(parts.begin());
  }
  if (parts.empty() || parts[0] != "run") return false;
  if (parts.size() == 1) {
    why = norm;
    return true;
  }
  for (auto d : kSocketDirs) {
    auto pat = path_components(d);
    if (under_pattern(parts, pat) || parent_of_pattern(parts, pat)) {
      why = norm;
      return true;
    }
  }
  for (auto n : kSocketNames) {
    std::vector<std::string> file = {"run", std::string(n)};
    if (parent_of_pattern(parts, file)) {
      why = norm;
      return true;
    }
  }
  return false;
}

}  // namespace

std::string normalize_path(std::string_view raw) {
  std::string s(raw);
  for (char& c : s) {
    if (c == '\\') c = '/';
  }
  // Strip surrounding quotes a launcher argument may still carry.
  while (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    s = s.substr(1, s.size() - 2);
  }
  // Windows drive letters (devcontainer on Windows): C:/Users/x -> /Users/x.
  if (s.size() >= 3 && std::isalpha(static_cast<unsigned char>(s[0])) && s[1] == ':' &&
      s[2] == '/') {
    s = s.substr(2);
  }
  for (const auto& [var, repl] : kPrefixes) {
    if (std::string_view(s).starts_with(var) && (s.size() == var.size() || s[var.size()] == '/')) {
      s = std::string(repl) + s.substr(var.size());
      break;
    }
  }

  enum class Root { Absolute, Home, Relative } root = Root::Relative;
  std::string home;
  auto parts = path_components(s);
  if (!s.empty() && s[0] == '/') {
    root = Root::Absolute;
  } else if (!s.empty() && s[0] == '~') {
    root = Root::Home;
    home = parts.front();
    parts.erase(parts.begin());
  }
  std::vector<std::string> stack;
  for (auto& c : parts) {
    if (c == ".") continue;
    if (c == "..") {
      if (!stack.empty() && stack.back() != "..") {
        stack.pop_back();
      } else if (root == Root::Relative) {
        stack.push_back("..");
      } else if (root == Root::Home) {
        // Above a home directory is the directory of every home.
        root = Root::Absolute;
        stack = {"home"};
      }
      continue;
    }
    stack.push_back(std::move(c));
  }
  std::string out;
  switch (root) {
    case Root::Absolute:
      for (const auto& c : stack) out += "/" + c;
      return out.empty() ? "/" : out;
    case Root::Home:
      out = home;
      for (const auto& c : stack) out += "/" + c;
      return out;
    case Root::Relative:
      out = join_rel(stack);
      return out.empty() ? "." : out;
  }
  return out;
}

bool path_within(std::string_view path, std::string_view root) {
  // A relative path is inside "." unless it climbs out or starts with a variable the
  // evaluator could not resolve (its value is unknown, not the launcher's directory).
  if (root == ".")
    return !path.empty() && path[0] != '/' && path[0] != '~' && path[0] != '$' && path[0] != '`' &&
           path != ".." && !std::string_view(path).starts_with("../");
  if (root == "/") return !path.empty() && path[0] == '/';
  if (path == root) return true;
  return path.size() > root.size() && std::string_view(path).starts_with(root) &&
         path[root.size()] == '/';
}

namespace {

// The class of a path under a home directory: the most specific list it falls in, entries
// below a listed one first, then a parent that holds one.
bool classify_home(const HomeSplit& h, HostPathClass& c) {
  if (h.collection || h.rel.empty()) {
    c.kind = HostPathKind::Home;
    c.why = c.normalized;
    return true;
  }
  struct List {
    HostPathKind kind;
    std::span<const std::string_view> entries;
  };
  const std::array<List, 3> lists = {{{HostPathKind::CredentialStore, kCredentialStores},
                                      {HostPathKind::AutoRun, kAutoRun},
                                      {HostPathKind::InstructionDir, kInstructionDirs}}};
  for (bool parents : {false, true}) {
    for (const List& l : lists) {
      const std::string_view* e =
          parents ? find_parent_of(h.rel, l.entries) : find_under(h.rel, l.entries);
      if (e == nullptr) continue;
      c.kind = l.kind;
      c.why = home_label(h, *e);
      return true;
    }
  }
  return false;
}

// A terminal multiplexer's socket directory: whoever can write there types into the host's
// sessions (`/tmp/tmux-1000`, `/run/user/1000/tmux-1000`, `/run/screen`).
bool multiplexer_socket_dir(const std::vector<std::string>& parts) {
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& s = parts[i];
    if (s.starts_with("tmux-") && i > 0 && (parts[0] == "tmp" || parts[0] == "run")) return true;
    if ((s == "screen" || s == "screens" || s == "uscreens") && i > 0 &&
        (parts[i - 1] == "run" || parts[i - 1] == "tmp" || parts[i - 1] == "var"))
      return true;
  }
  return false;
}

}  // namespace

HostPathClass classify_host_path(std::string_view raw, bool unknown_root) {
  if (!unknown_root) return classify_host_path(raw);
  std::string_view rest = raw.substr(std::min(raw.find_first_not_of('/'), raw.size()));
  return classify_host_path(rest.empty() ? std::string_view(".") : rest);
}

HostPathClass classify_host_path(std::string_view raw) {
  HostPathClass c;
  c.normalized = normalize_path(raw);
  const std::string& p = c.normalized;

  if (path_within(p, "/dev")) {
    c.kind = HostPathKind::Device;
    c.why = p;
    return c;
  }
  if (std::string why; is_socket_path(p, why)) {
    c.kind = HostPathKind::RuntimeSocket;
    c.why = why;
    return c;
  }
  HomeSplit h = split_home(p);
  if (h.is_home && classify_home(h, c)) return c;
  if (multiplexer_socket_dir(path_components(p))) {
    c.kind = HostPathKind::AutoRun;
    c.why = p;
    c.what = "terminal multiplexer socket directory";
    return c;
  }
  if (p.size() > 1 && p[0] == '/') {
    auto parts = path_components(p);
    for (auto e : kPublicSystemFiles) {
      if (path_within(p, e)) {
        c.kind = HostPathKind::PublicSystemFile;
        c.why = std::string(e);
        return c;
      }
    }
    for (auto e : kSystemPaths) {
      if (path_within(p, e) || parent_of_pattern(parts, path_components(e))) {
        c.kind = HostPathKind::SystemPath;
        c.why = std::string(e);
        return c;
      }
    }
  }
  // Git hooks and config run on the host, with no prompt, the next time a human runs git in
  // the repository.
  auto parts = path_components(p);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == ".githooks" || parts[i] == ".husky" ||
        (parts[i] == ".git" &&
         (i + 1 == parts.size() || parts[i + 1] == "hooks" || parts[i + 1] == "config"))) {
      c.kind = HostPathKind::AutoRun;
      c.why = p;
      return c;
    }
  }
  return c;
}

std::string login_dir_of(std::string_view container_path) {
  HomeSplit h = split_home(normalize_path(container_path));
  if (!h.is_home || h.collection || h.rel.empty()) return "";
  const std::string_view* e = find_under(h.rel, kLoginDirs);
  return e == nullptr ? "" : "~/" + std::string(*e);
}

bool in_workspace(std::string_view raw, const std::vector<std::string>& declared) {
  std::string p = normalize_path(raw);
  if (declared.empty()) return path_within(p, ".");
  for (const auto& d : declared) {
    if (path_within(p, normalize_path(d))) return true;
  }
  return false;
}

std::string_view host_path_kind_name(HostPathKind k) {
  switch (k) {
    case HostPathKind::None:
      return "host path";
    case HostPathKind::Device:
      return "host device path";
    case HostPathKind::RuntimeSocket:
      return "container runtime socket";
    case HostPathKind::CredentialStore:
      return "credential store";
    case HostPathKind::InstructionDir:
      return "instruction directory";
    case HostPathKind::AutoRun:
      return "path the host runs without a prompt";
    case HostPathKind::Home:
      return "home directory";
    case HostPathKind::SystemPath:
      return "host system path";
    case HostPathKind::PublicSystemFile:
      return "host system path";
  }
  return "host path";
}

}  // namespace sbr::engine
