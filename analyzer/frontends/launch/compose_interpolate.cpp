#include "analyzer/frontends/launch/compose_interpolate.h"

#include <array>
#include <cctype>

namespace sbr::launch {
namespace {

// Nested `${...}` in a default can go deep only by construction; past this it stays unknown.
constexpr int kMaxInterpolationDepth = 16;

bool name_char(char c, bool first) {
  return c == '_' || std::isalpha(static_cast<unsigned char>(c)) ||
         (!first && std::isdigit(static_cast<unsigned char>(c)));
}

// Host variables whose meaning is known without their value (engine/paths normalises them).
bool host_known(std::string_view name) {
  constexpr std::array<std::string_view, 6> kKnown = {
      "HOME", "PWD", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"};
  for (auto k : kKnown) {
    if (k == name) return true;
  }
  return false;
}

// The index just past the `}` that closes a `${` whose body starts at `i`; npos if unclosed.
std::size_t closing_brace(std::string_view s, std::size_t i) {
  int depth = 1;
  for (; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '$') {
      ++i;
    } else if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') {
      ++depth;
      ++i;
    } else if (s[i] == '}' && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

class Expander {
 public:
  Expander(const ComposeEnv& env, Interpolated& out) : env_(env), out_(out) {}

  std::string expand(std::string_view s, int depth) {
    std::string r;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '$' || i + 1 >= s.size()) {
        r += s[i];
        continue;
      }
      char n = s[i + 1];
      if (n == '$') {
        r += '$';
        out_.changed = true;
        ++i;
      } else if (n == '{') {
        std::size_t end = closing_brace(s, i + 2);
        if (end == std::string_view::npos) {  // compose rejects it; keep the text, mark nothing
          r += s.substr(i);
          break;
        }
        r += braced(s.substr(i + 2, end - i - 3), depth);
        i = end - 1;
      } else if (name_char(n, true)) {
        std::size_t j = i + 1;
        while (j < s.size() && name_char(s[j], false)) ++j;
        r += variable(s.substr(i + 1, j - i - 1));
        i = j - 1;
      } else {
        r += '$';
      }
    }
    return r;
  }

 private:
  const std::string* lookup(std::string_view name) const {
    auto it = env_.values.find(name);
    return it == env_.values.end() ? nullptr : &it->second;
  }

  std::string unknown(std::string_view name) {
    out_.unknown.emplace_back(name);
    return host_known(name) ? "$" + std::string(name) : unknown_placeholder(name);
  }

  std::string variable(std::string_view name) {
    out_.changed = true;
    const std::string* v = lookup(name);
    return v ? *v : unknown(name);
  }

  // The body of `${...}`: NAME, then an optional operator and its argument.
  std::string braced(std::string_view body, int depth) {
    out_.changed = true;
    std::size_t j = 0;
    while (j < body.size() && name_char(body[j], j == 0)) ++j;
    std::string_view name = body.substr(0, j);
    std::string_view rest = body.substr(j);
    if (name.empty() || depth > kMaxInterpolationDepth) return unknown(body);
    const std::string* v = lookup(name);
    if (rest.empty()) return v ? *v : unknown(name);
    const bool colon = rest.front() == ':';
    if (colon) rest.remove_prefix(1);
    if (rest.empty()) return unknown(name);
    const char op = rest.front();
    std::string_view arg = rest.substr(1);
    // With `:` an empty value counts as unset; without, only an absent variable does.
    const bool set = v != nullptr && (!colon || !v->empty());
    switch (op) {
      case '-':
        return set ? *v : expand(arg, depth + 1);
      case '+':
        if (v == nullptr) return unknown(name);  // unset here may be set on the host
        return set ? expand(arg, depth + 1) : std::string();
      case '?':
        return set ? *v : unknown(name);  // required: compose stops unless the host sets it
      default:
        return unknown(name);
    }
  }

  const ComposeEnv& env_;
  Interpolated& out_;
};

// One value of a `.env` line, after the `=`.
std::string dot_env_value(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  if (!v.empty() && (v.front() == '\'' || v.front() == '"')) {
    const char q = v.front();
    std::string r;
    for (std::size_t i = 1; i < v.size() && v[i] != q; ++i) {
      if (q == '"' && v[i] == '\\' && i + 1 < v.size()) {
        char e = v[++i];
        r += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      } else {
        r += v[i];
      }
    }
    return r;
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '#' && i > 0 && (v[i - 1] == ' ' || v[i - 1] == '\t')) {
      v = v.substr(0, i);
      break;
    }
  }
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r'))
    v.remove_suffix(1);
  return std::string(v);
}

}  // namespace

std::string unknown_placeholder(std::string_view name) {
  return "<unknown $" + std::string(name) + ">";
}

bool has_unknown(std::string_view text) {
  return text.find("<unknown $") != std::string_view::npos;
}

ComposeEnv parse_dot_env(std::string_view text) {
  ComposeEnv env;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string_view line =
        text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    if (line.rfind("export ", 0) == 0) line.remove_prefix(7);
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;  // a bare name sets nothing compose can read
    std::string_view key = line.substr(0, eq);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
    if (key.empty()) continue;
    env.values[std::string(key)] = dot_env_value(line.substr(eq + 1));
  }
  return env;
}

Interpolated interpolate(std::string_view text, const ComposeEnv& env) {
  Interpolated out;
  if (text.find('$') == std::string_view::npos) {
    out.text = std::string(text);
    return out;
  }
  Expander e(env, out);
  out.text = e.expand(text, 0);
  return out;
}

}  // namespace sbr::launch
