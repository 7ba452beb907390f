#include "analyzer/render/bash/unknown_parts.h"

#include <cctype>
#include <string_view>

#include "analyzer/render/bash/value.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The parameter `s` starts with (`$NAME`, `${NAME}`, `$1`, `$$`, `$@`), as `$NAME`; "" when
// it starts with none. An identity goes on after it (`@run.sh:4`, `:-`), which is not shown.
std::string leading_parameter(std::string_view s) {
  if (s.size() < 2 || s[0] != '$') return "";
  std::size_t i = s[1] == '{' ? 2 : 1;
  if (i < s.size() && std::string_view("$@*#?!-").find(s[i]) != std::string_view::npos) {
    return "$" + std::string(1, s[i]);
  }
  const bool digits = i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0;
  std::size_t e = i;
  while (e < s.size() &&
         (digits ? std::isdigit(static_cast<unsigned char>(s[e])) != 0 : name_char(s[e]))) {
    ++e;
  }
  return e == i ? "" : "$" + std::string(s.substr(i, e - i));
}

std::string one_line(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return out;
}

// The first words of `s`, short enough for a path in a message.
std::string first_words(std::string_view s) {
  constexpr std::size_t kShown = 24;
  if (s.ends_with("...")) s.remove_suffix(3);  // the origin's own cut
  if (s.size() <= kShown) return one_line(s);
  std::size_t cut = s.rfind(' ', kShown);
  std::string_view head =
      cut == std::string_view::npos || cut == 0 ? head_chars(s, kShown) : s.substr(0, cut);
  return one_line(head) + " ...";
}

// The origins the evaluator writes for a value without a parameter name (expand_param.cpp,
// substitution.cpp, fields.cpp env_word).
std::string name_from_origin(const EWord& x) {
  std::string_view o = x.w.origin;
  auto starts = [&](std::string_view p) { return o.rfind(p, 0) == 0; };
  if (starts("env ")) return leading_parameter("$" + std::string(o.substr(4)));
  if (starts("argument ")) return leading_parameter("$" + std::string(o.substr(9)));
  if (starts("script arguments")) return "$@";
  for (std::string_view p : {"command substitution `", "output of `"}) {
    if (!starts(p)) continue;
    std::string_view inner = o.substr(p.size());
    return "$(" + first_words(inner.substr(0, inner.rfind('`'))) + ")";
  }
  return "";
}

}  // namespace

std::string unknown_name(const EWord& x) {
  std::string n = leading_parameter(x.w.identity);
  if (n.empty()) n = name_from_origin(x);
  if (n.empty() && !x.taint_var.empty() && name_char(x.taint_var.front())) {
    n = leading_parameter("$" + x.taint_var);
  }
  if (n.empty()) n = x.w.origin.empty() ? "a value" : first_words(x.w.origin);
  return n;
}

std::vector<UnknownPart> unknown_parts_of(const EWord& x) {
  if (!x.w.unknown_parts.empty() || !x.w.symbolic || !x.w.text.empty()) {
    return x.w.unknown_parts;
  }
  return {UnknownPart{0, unknown_name(x)}};
}

void join_unknown_parts(EWord& a, const EWord& b) {
  if (a.w.unknown_parts.empty() && a.w.symbolic && a.w.text.empty()) {
    a.w.unknown_parts.push_back({0, unknown_name(a)});
  }
  const auto at = static_cast<std::uint32_t>(a.w.text.size());
  auto add = [&](const UnknownPart& p) {
    if (a.w.unknown_parts.size() < kMaxUnknownParts) {
      a.w.unknown_parts.push_back({p.at + at, p.name});
    }
  };
  if (!b.w.unknown_parts.empty()) {
    for (const UnknownPart& p : b.w.unknown_parts) add(p);
  } else if (b.w.symbolic && b.w.text.empty()) {
    add({0, unknown_name(b)});
  }
}

namespace {

// `$HOME/.pi` -> {"$HOME", "/.pi"}: a host variable's placeholder and the known text after it.
std::optional<std::pair<std::string, std::string>> host_variable_split(const EWord& x) {
  if (!x.w.symbolic || !x.w.unknown_parts.empty() || !x.w.origin.starts_with("env ")) {
    return std::nullopt;
  }
  const std::string name = x.w.origin.substr(4);
  const std::string placeholder = "$" + name;
  const std::string& t = x.w.text;
  if (name.empty() || !t.starts_with(placeholder)) return std::nullopt;
  std::string rest = t.substr(placeholder.size());
  const bool name_goes_on =
      !rest.empty() && (std::isalnum(static_cast<unsigned char>(rest[0])) || rest[0] == '_');
  if (name_goes_on || rest.find('$') != std::string::npos) return std::nullopt;
  return std::make_pair(placeholder, std::move(rest));
}

}  // namespace

std::optional<std::pair<std::string, std::string>> same_host_variable(const EWord& a,
                                                                      const EWord& b) {
  auto sa = host_variable_split(a);
  auto sb = host_variable_split(b);
  if (!sa || !sb || sa->first != sb->first) return std::nullopt;
  return std::make_pair(std::move(sa->second), std::move(sb->second));
}

}  // namespace sbr::bash
