// Helm's toToml: github.com/BurntSushi/toml's Encoder over the value (keys sorted, plain keys
// of a table before its sub-tables, sub-table contents indented by two spaces, arrays of
// tables as [[key]]). An error is returned as the text, as Helm's toToml does.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

namespace {

struct TomlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool is_table(const Value& v) {
  if (v.is_map()) return true;
  if (!v.is_list() || v.list->empty()) return false;
  return std::all_of(v.list->begin(), v.list->end(), [](const Value& e) { return e.is_map(); });
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f)
          out += fmt::format("\\u{:04X}", c);
        else
          out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string key_text(const std::string& k) {
  if (k.empty()) return "\"\"";
  bool bare = std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return bare ? k : quoted(k);
}

class TomlWriter {
 public:
  std::string out;

  void table(const std::vector<std::string>& key, const Value& m, int depth) {
    if (depth > 100) throw TomlError("toml: value nested too deeply");
    ValueDepth level;
    std::vector<std::string> direct, sub;
    for (const auto& [k, v] : *m.map) (is_table(v) ? sub : direct).push_back(k);
    for (const std::string& k : direct) entry(key, k, m.map->at(k), depth);
    for (const std::string& k : sub) entry(key, k, m.map->at(k), depth);
  }

 private:
  bool written_ = false;

  void write(const std::string& s) {
    out += s;
    written_ = true;
  }
  void newline() {
    if (written_) write("\n");
  }
  static std::string indent(std::size_t len) {
    return std::string(len > 0 ? 2 * (len - 1) : 0, ' ');
  }
  static std::string joined(const std::vector<std::string>& key) {
    std::string s;
    for (const std::string& k : key) s += (s.empty() ? "" : ".") + key_text(k);
    return s;
  }

  void entry(std::vector<std::string> key, const std::string& k, const Value& v, int depth) {
    if (v.is_nil()) return;
    key.push_back(k);
    if (v.is_map()) {
      if (key.size() == 1) newline();
      write(indent(key.size()) + "[" + joined(key) + "]");
      newline();
      table(key, v, depth + 1);
    } else if (is_table(v)) {
      for (const Value& t : *v.list) {
        newline();
        write(indent(key.size()) + "[[" + joined(key) + "]]");
        newline();
        table(key, t, depth + 1);
      }
    } else {
      write(indent(key.size()) + key_text(k) + " = " + element(v, depth + 1));
      newline();
    }
  }

  std::string element(const Value& v, int depth) const {
    if (depth > 100) throw TomlError("toml: value nested too deeply");
    ValueDepth level;
    switch (v.kind) {
      case Kind::Bool:
        return v.b ? "true" : "false";
      case Kind::Int:
        return std::to_string(v.i);
      case Kind::Float: {
        if (std::isnan(v.f)) return "nan";
        if (std::isinf(v.f)) return v.f > 0 ? "inf" : "-inf";
        std::string f = fmt::format("{}", v.f);
        if (f.find_first_of(".e") == std::string::npos) f += ".0";
        return f;
      }
      case Kind::String:
        return quoted(v.s);
      case Kind::List: {
        std::string s = "[";
        for (std::size_t k = 0; k < v.list->size(); ++k)
          s += (k ? ", " : "") + element((*v.list)[k], depth + 1);
        return s + "]";
      }
      case Kind::Map: {
        std::string s = "{";
        std::size_t k = 0;
        for (const auto& [key, e] : *v.map) {
          if (e.is_nil()) continue;
          s += (k++ ? ", " : "") + key_text(key) + " = " + element(e, depth + 1);
        }
        return s + "}";
      }
      default:
        throw TomlError("toml: cannot encode a nil value");
    }
  }
};

}  // namespace

std::string to_toml(const Value& v) {
  if (!v.is_map()) return "toml: top-level values must be Go maps or structs";
  TomlWriter w;
  try {
    w.table({}, v, 0);
  } catch (const TomlError& e) {
    return e.what();
  }
  return w.out;
}

}  // namespace sbr::render::helm
