// Go's fmt.Sprintf for the verbs charts use, including its error forms ("%!d(float64=3)"):
// Helm values are float64, and a chart that prints one with %d gets what Helm prints.
#include <fmt/format.h>

#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

bool append_common_escape(unsigned char c, std::string& out) {
  switch (c) {
    case '"':
      out += "\\\"";
      return true;
    case '\\':
      out += "\\\\";
      return true;
    case '\n':
      out += "\\n";
      return true;
    case '\t':
      out += "\\t";
      return true;
    case '\r':
      out += "\\r";
      return true;
    default:
      return false;
  }
}

std::string go_quote(const std::string& s);

namespace {

struct Spec {
  bool minus = false, plus = false, zero = false, space = false, sharp = false;
  int width = -1, precision = -1;
  char verb = 'v';
};

std::string pad(std::string s, const Spec& sp) {
  if (sp.width < 0 || static_cast<int>(s.size()) >= sp.width) return s;
  std::size_t n = sp.width - s.size();
  if (sp.minus) return s + std::string(n, ' ');
  if (sp.zero && !s.empty() && (s[0] == '-' || s[0] == '+'))
    return s.substr(0, 1) + std::string(n, '0') + s.substr(1);
  return std::string(n, sp.zero ? '0' : ' ') + s;
}

std::string bad_verb(const Spec& sp, const Value& v) {
  if (v.is_nil()) return fmt::format("%!{}(<nil>)", sp.verb);
  return fmt::format("%!{}({}={})", sp.verb, type_name(v), print_value(v));
}

std::string format_one(const Spec& sp, const Value& v) {
  switch (sp.verb) {
    case 'v':
      return pad(v.is_nil() ? "<nil>" : print_value(v), sp);
    case 's': {
      if (!v.is_string() && !v.is_list() && !v.is_map()) return bad_verb(sp, v);
      std::string s = print_value(v);
      if (sp.precision >= 0 && static_cast<int>(s.size()) > sp.precision) s.resize(sp.precision);
      return pad(s, sp);
    }
    case 'q':
      if (!v.is_string()) return bad_verb(sp, v);
      return pad(go_quote(v.s), sp);
    case 'd':
      if (v.kind != Kind::Int) return bad_verb(sp, v);
      return pad((sp.plus && v.i >= 0 ? "+" : "") + std::to_string(v.i), sp);
    case 'x':
    case 'X': {
      std::string s;
      bool lower = sp.verb == 'x';
      if (v.kind == Kind::Int) {
        s = lower ? fmt::format("{:x}", v.i) : fmt::format("{:X}", v.i);
      } else if (v.is_string()) {
        for (unsigned char c : v.s)
          s += lower ? fmt::format("{:02x}", c) : fmt::format("{:02X}", c);
      } else {
        return bad_verb(sp, v);
      }
      return pad(s, sp);
    }
    case 'f':
    case 'F':
    case 'e':
    case 'g': {
      if (v.kind != Kind::Float) return bad_verb(sp, v);
      if (sp.verb == 'g' && sp.precision < 0) return pad(format_float(v.f), sp);
      int prec = sp.precision < 0 ? 6 : sp.precision;
      std::string s = sp.verb == 'e'   ? fmt::format("{:.{}e}", v.f, prec)
                      : sp.verb == 'g' ? fmt::format("{:.{}g}", v.f, prec)
                                       : fmt::format("{:.{}f}", v.f, prec);
      return pad((sp.plus && v.f >= 0 ? "+" : "") + s, sp);
    }
    case 't':
      if (v.kind != Kind::Bool) return bad_verb(sp, v);
      return pad(v.b ? "true" : "false", sp);
    case 'c':
      if (v.kind != Kind::Int) return bad_verb(sp, v);
      return pad(std::string(1, static_cast<char>(v.i)), sp);
    default:
      return bad_verb(sp, v);
  }
}

// Reads the flags, width and precision after a '%' at `k`; leaves `k` at the verb.
Spec read_spec(const std::string& f, std::size_t& k) {
  Spec sp;
  for (; k < f.size(); ++k) {
    char c = f[k];
    if (c == '-')
      sp.minus = true;
    else if (c == '+')
      sp.plus = true;
    else if (c == '0')
      sp.zero = true;
    else if (c == ' ')
      sp.space = true;
    else if (c == '#')
      sp.sharp = true;
    else
      break;
  }
  // Go's fmt takes widths and precisions up to 1e6 (parsenum's tooLarge); a larger one is not
  // rendered as Go would render it, so it stops the template instead of being cut silently.
  static constexpr const char* kTooWide =
      "printf width or precision above 1e6, past sbreview's budget (Go does not pad it either)";
  auto digits = [&](int& into) {
    if (k >= f.size() || !std::isdigit(static_cast<unsigned char>(f[k]))) return;
    into = 0;
    while (k < f.size() && std::isdigit(static_cast<unsigned char>(f[k]))) {
      if (into > 1'000'000) throw std::runtime_error(kTooWide);
      into = into * 10 + (f[k++] - '0');
    }
    if (into > 1'000'000) throw std::runtime_error(kTooWide);
  };
  digits(sp.width);
  if (k < f.size() && f[k] == '.') {
    ++k;
    sp.precision = 0;
    digits(sp.precision);
  }
  return sp;
}

}  // namespace

std::string go_sprintf(const std::string& f, const std::vector<Value>& args, std::size_t first) {
  std::string out;
  std::size_t next = first;
  for (std::size_t k = 0; k < f.size(); ++k) {
    if (f[k] != '%') {
      out += f[k];
      continue;
    }
    ++k;
    Spec sp = read_spec(f, k);
    if (k >= f.size()) {
      out += "%!(NOVERB)";
      break;
    }
    sp.verb = f[k];
    if (sp.verb == '%') {
      out += '%';
      continue;
    }
    if (next >= args.size()) {
      out += fmt::format("%!{}(MISSING)", sp.verb);
      continue;
    }
    out += format_one(sp, args[next++]);
  }
  if (next < args.size()) {
    out += "%!(EXTRA ";
    for (std::size_t k = next; k < args.size(); ++k)
      out += (k > next ? ", " : "") + type_name(args[k]) + "=" + print_value(args[k]);
    out += ")";
  }
  return out;
}

std::string go_quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (append_common_escape(c, out)) continue;
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace sbr::render::helm
