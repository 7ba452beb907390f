// toYaml as Helm prints it: sigs.k8s.io/yaml marshals through JSON into go-yaml v2, so keys
// are in go-yaml's natural order, integral numbers print as integers, and a string is quoted
// exactly when go-yaml would read it back as something else or libyaml refuses it plain.
#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/go_time.h"

namespace sbr::render::helm {

namespace {

constexpr int kMaxEmitDepth = 200;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80;
}

// go-yaml v2's keyList.Less for string keys: digit runs compare as numbers, letters after
// other characters.
bool natural_less(const std::string& a, const std::string& b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    bool al = is_letter(a[i]), bl = is_letter(b[i]);
    if (al && bl) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
    if (al || bl) return bl;
    std::int64_t an = 0, bn = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (std::size_t j = i; j-- > 0 && is_digit(a[j]);) {
        if (a[j] != '0') {
          an = bn = 1;
          break;
        }
      }
    }
    std::size_t ai = i, bi = i;
    for (; ai < a.size() && is_digit(a[ai]) && an < (1LL << 58); ++ai) an = an * 10 + (a[ai] - '0');
    for (; bi < b.size() && is_digit(b[bi]) && bn < (1LL << 58); ++bi) bn = bn * 10 + (b[bi] - '0');
    if (an != bn) return an < bn;
    if (ai != bi) return ai < bi;
    return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}

// Would go-yaml v2 resolve this plain scalar to a non-string (null, bool, number, timestamp)?
bool resolves_to_non_string(const std::string& s) {
  static const char* const kWords[] = {
      "",      "~",     "null",  "Null",  "NULL",  "y",     "Y",    "yes",  "Yes",   "YES",
      "n",     "N",     "no",    "No",    "NO",    "true",  "True", "TRUE", "false", "False",
      "FALSE", "on",    "On",    "ON",    "off",   "Off",   "OFF",  ".inf", ".Inf",  ".INF",
      "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN",  "<<"};
  for (const char* w : kWords) {
    if (s == w) return true;
  }
  static const RE2 kInt(R"([-+]?(0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*))");
  static const RE2 kFloat(R"([-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  static const RE2 kDate(R"([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?)");
  return RE2::FullMatch(s, kInt) || RE2::FullMatch(s, kFloat) || RE2::FullMatch(s, kDate);
}

// libyaml's analysis: may this string be written plain in block context?
bool plain_allowed(const std::string& s) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ') return false;
  if (s.rfind("---", 0) == 0 || s.rfind("...", 0) == 0) return false;
  static const std::string kLeading = "#,[]{}&*!|>'\"%@`";
  if (kLeading.find(s[0]) != std::string::npos) return false;
  for (std::size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    bool next_blank = k + 1 >= s.size() || s[k + 1] == ' ' || s[k + 1] == '\t';
    if ((c == '-' || c == '?' || c == ':') && k == 0 && next_blank) return false;
    if (c == ':' && next_blank) return false;
    if (c == '#' && k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t')) return false;
    if (c == '\t' || c == '\r' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return true;
}

bool printable(const std::string& s) {
  return std::none_of(s.begin(), s.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f;
  });
}

std::string double_quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (append_common_escape(c, out)) continue;
    switch (c) {
      case '\0':
        out += "\\0";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          static const char* const kHex = "0123456789ABCDEF";
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string single_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// go-yaml v3's strconv.FormatFloat(f, 'g', -1, 64): the shortest digits, with an exponent
// from 1e6 up or below 1e-4 (toYamlPretty's values are not rounded through JSON).
std::string float_g(double f) {
  if (std::isnan(f)) return ".nan";
  if (std::isinf(f)) return f > 0 ? ".inf" : "-.inf";
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string text(buf, sci.ptr);
  const int exp = std::atoi(text.c_str() + text.find('e') + 1);
  if (exp < -4 || exp >= 6) return text;
  auto fixed = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);
  return std::string(buf, fixed.ptr);
}

// A base-60 float of YAML 1.1 (`1:20`), which go-yaml v3 quotes.
bool base60_float(const std::string& s) {
  static const RE2 kBase60(R"([-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?)");
  return RE2::FullMatch(s, kBase60);
}

class Emitter {
 public:
  Emitter(LineOrigins* lines, bool pretty) : lines_(lines), pretty_(pretty) {}
  std::string out;

  void top(const Value& v) {
    if (nested_map(v)) return map(*v.map, 0, 0);
    if (v.is_list() && !v.list->empty()) return list(*v.list, 0, 0);
    // A block scalar at the root is indented by the emitter's step, as under a key: libyaml
    // starts the root at -1 and a literal's content one step in (`toYaml "a\nb\n"` is
    // "|\n  a\n  b\n"; argo-cd's argocd-cm nests such values under keys with nindent).
    scalar(v, 2);
    out += '\n';
  }

 private:
  void note(const Value& v) {
    if (!lines_ || !v.from.valid()) return;
    auto line = static_cast<std::uint32_t>(std::count(out.begin(), out.end(), '\n'));
    lines_->push_back({line, {}, v.from, v.path});
  }

  static std::string indent(int n) { return std::string(static_cast<std::size_t>(n), ' '); }

  void map(const Map& m, int ind, int depth) {
    if (depth > kMaxEmitDepth) throw std::runtime_error("toYaml: value nested too deeply");
    ValueDepth level;
    std::vector<const std::pair<const std::string, Value>*> entries;
    for (const auto& e : m) entries.push_back(&e);
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto* x, const auto* y) { return natural_less(x->first, y->first); });
    bool first = true;
    for (const auto* e : entries) {
      if (!first) out += indent(ind);
      first = false;
      note(e->second);
      key(e->first);
      out += ':';
      value_after_key(e->second, ind, depth);
    }
  }

  void key(const std::string& k) {
    if (k.find('\n') != std::string::npos || !printable(k)) return void(out += double_quoted(k));
    if (resolves_to_non_string(k)) return void(out += double_quoted(k));
    out += plain_allowed(k) ? k : single_quoted(k);
  }

  // A map written as a block: a time is a scalar.
  static bool nested_map(const Value& v) { return v.is_map() && !v.map->empty() && !is_time(v); }

  void value_after_key(const Value& v, int ind, int depth) {
    if (nested_map(v)) {
      out += '\n' + indent(ind + 2);
      return map(*v.map, ind + 2, depth + 1);
    }
    if (v.is_list() && !v.list->empty()) {
      // go-yaml v3 (toYamlPretty) indents a list under its key; v2 does not.
      const int at = pretty_ ? ind + 2 : ind;
      out += '\n' + indent(at);
      return list(*v.list, at, depth + 1);
    }
    out += ' ';
    scalar(v, ind + 2);
    out += '\n';
  }

  void list(const List& l, int ind, int depth) {
    if (depth > kMaxEmitDepth) throw std::runtime_error("toYaml: value nested too deeply");
    ValueDepth level;
    bool first = true;
    for (const Value& item : l) {
      if (!first) out += indent(ind);
      first = false;
      note(item);
      out += "- ";
      if (nested_map(item)) {
        map(*item.map, ind + 2, depth + 1);
      } else if (item.is_list() && !item.list->empty()) {
        list(*item.list, ind + 2, depth + 1);
      } else {
        scalar(item, ind + 2);
        out += '\n';
      }
    }
  }

  void scalar(const Value& v, int ind) {
    switch (v.kind) {
      case Kind::Nil:
        out += "null";
        return;
      case Kind::Bool:
        out += v.b ? "true" : "false";
        return;
      case Kind::Int:
        out += std::to_string(v.i);
        return;
      case Kind::Float:
        out += pretty_ ? float_g(v.f) : number(v.f);
        return;
      case Kind::String:
        string(v.s, ind);
        return;
      case Kind::List:
        out += "[]";
        return;
      case Kind::Map: {
        // A time: RFC 3339 text, a quoted string after JSON (toYaml), a timestamp for v3.
        GoTime t;
        if (!as_time(v, t)) return void(out += "{}");
        if (pretty_) return void(out += time_rfc3339(t));
        return string(time_rfc3339(t), ind);
      }
      case Kind::Method:
        out += "null";
        return;
    }
  }

  // JSON writes an integral float64 below 1e21 as an integer, which go-yaml reads as int.
  static std::string number(double f) {
    if (std::isfinite(f) && f == std::floor(f) && std::fabs(f) < 1e21) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.0f", f);
      return buf;
    }
    return format_float(f);
  }

  void string(const std::string& s, int ind) {
    if (!printable(s)) return void(out += double_quoted(s));
    if (s.find('\n') != std::string::npos) return literal(s, ind);
    if (resolves_to_non_string(s) || (pretty_ && base60_float(s)))
      return void(out += double_quoted(s));
    out += plain_allowed(s) ? s : single_quoted(s);
  }

  void literal(const std::string& s, int ind) {
    std::size_t trailing = 0;
    while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
    bool trailing_space = std::any_of(s.begin(), s.end(), [](char c) { return c == '\t'; }) ||
                          s.find(" \n") != std::string::npos;
    if (trailing_space) return void(out += double_quoted(s));
    out += '|';
    if (s[0] == ' ') out += '2';
    out += trailing == 0 ? "-" : trailing == 1 ? "" : "+";
    std::string body = s.substr(0, s.size() - trailing);
    std::size_t start = 0;
    while (start <= body.size()) {
      std::size_t end = body.find('\n', start);
      if (end == std::string::npos) end = body.size();
      std::string line = body.substr(start, end - start);
      out += '\n';
      if (!line.empty()) out += indent(ind) + line;
      start = end + 1;
    }
    for (std::size_t k = 1; k < trailing; ++k) out += '\n';
  }

  LineOrigins* lines_;
  bool pretty_;
};

}  // namespace

std::string to_yaml(const Value& v, LineOrigins* lines) {
  Emitter e(lines, false);
  e.top(v);
  return e.out;
}

std::string to_yaml_pretty(const Value& v) {
  Emitter e(nullptr, true);
  e.top(v);
  return e.out;
}

}  // namespace sbr::render::helm
