// Values as Helm reads them (sigs.k8s.io/yaml into map[string]interface{} through JSON):
// numbers become float64, YAML 1.1 booleans are booleans, keys are strings. Every value keeps
// the file position of its key, so rendered text can point at the values line.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <limits>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/go_time.h"
#include "analyzer/render/helm/unicode_go.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::render::helm {

namespace {

constexpr int kMaxParseDepth = 200;

bool parse_number(const std::string& s, double& out) {
  std::string t;
  for (char c : s) {
    if (c != '_') t += c;
  }
  if (t.empty()) return false;
  std::string_view v(t);
  bool neg = v[0] == '-';
  if (v[0] == '-' || v[0] == '+') v.remove_prefix(1);
  if (v.empty()) return false;
  int base = 10;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'o' || v[1] == 'b')) {
    base = v[1] == 'x' ? 16 : v[1] == 'o' ? 8 : 2;
    v.remove_prefix(2);
  }
  std::int64_t i = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), i, base);
  if (ec == std::errc() && p == v.data() + v.size()) {
    out = static_cast<double>(neg ? -i : i);
    return true;
  }
  if (base != 10) return false;
  if (v == ".inf" || v == ".Inf" || v == ".INF") {
    out = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (v.find_first_not_of("0123456789.eE+-") != std::string_view::npos) return false;
  if (v.find_first_of("0123456789") == std::string_view::npos) return false;
  double d = 0;
  auto [q, ec2] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec2 != std::errc() || q != v.data() + v.size()) return false;
  out = neg ? -d : d;
  return true;
}

Value scalar(const yaml::Node& n) {
  if (n.quoted) return Value::string(n.scalar);
  const std::string& s = n.scalar;
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return Value{};
  if (auto b = n.as_bool()) return Value::boolean(*b);
  double d = 0;
  if (parse_number(s, d)) return Value::number(d);
  return Value::string(s);
}

struct Converter {
  FileId file;

  Value convert(const yaml::Node* n, const std::string& path, Location at, int depth) const {
    if (depth > kMaxParseDepth) throw std::runtime_error("values nested more than 200 levels deep");
    Value v;
    if (n && n->is_scalar())
      v = scalar(*n);
    else if (n && n->is_seq())
      v = sequence(*n, path, depth);
    else if (n && n->is_map())
      v = mapping(*n, path, depth);
    if (file != kNoFile) {
      v.from = at;
      v.path = path;
    }
    return v;
  }

  Value sequence(const yaml::Node& n, const std::string& path, int depth) const {
    List items;
    for (std::size_t k = 0; k < n.items.size(); ++k) {
      const yaml::Node* item = n.items[k];
      items.push_back(convert(item, path + "[" + std::to_string(k) + "]", loc(item), depth + 1));
    }
    return Value::new_list(std::move(items));
  }

  Value mapping(const yaml::Node& n, const std::string& path, int depth) const {
    Map m;
    for (const auto& entry : n.entries) {
      const std::string& key = entry.first->scalar;
      if (key == "<<" && !entry.first->quoted) continue;  // merged below, after own keys
      std::string sub = path.empty() ? key : path + "." + key;
      m[key] = convert(entry.second, sub, loc(entry.first), depth + 1);
    }
    for (const auto& entry : n.entries) {
      if (entry.first->scalar != "<<" || entry.first->quoted || !entry.second) continue;
      Value merged = convert(entry.second, path, loc(entry.first), depth + 1);
      std::vector<Value> sources = merged.is_list() ? *merged.list : std::vector<Value>{merged};
      for (const Value& src : sources) {
        if (!src.is_map()) continue;
        for (const auto& e : *src.map) m.emplace(e.first, e.second);
      }
    }
    return Value::new_map(std::move(m));
  }

  Location loc(const yaml::Node* n) const {
    return n ? Location{file, n->line, n->column} : Location{file, 0, 0};
  }
};

}  // namespace

bool parse_yaml_value(std::string_view text, FileId file, const std::string& prefix, Value& out,
                      std::string& error, bool as_list, bool* budget_hit) {
  // Values are a map of settings, not data: a few thousand nodes in the largest charts. An
  // alias bomb of 500 bytes expands into a billion; past the budget it is refused whole.
  yaml::DocumentReader reader(text, kMaxValueNodes);
  yaml::Document doc;
  yaml::ParseFailure failure;
  Converter conv{file};
  List docs;
  try {
    while (true) {
      auto status = reader.next(doc, failure);
      if (status == yaml::DocumentReader::Status::End) break;
      if (status == yaml::DocumentReader::Status::Error) {
        error = "line " + std::to_string(failure.line) + ": " + failure.message;
        return false;
      }
      if (doc.over_budget) {
        if (budget_hit) *budget_hit = true;
        error = fmt::format(
            "the YAML expands past {} nodes (aliases), sbreview's budget for "
            "values",
            kMaxValueNodes);
        return false;
      }
      docs.push_back(conv.convert(doc.root, prefix, conv.loc(doc.root), 0));
      if (!as_list) break;
    }
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  if (as_list) {
    out = Value::new_list(std::move(docs));
  } else {
    out = docs.empty() ? Value{} : docs.front();
  }
  return true;
}

namespace {

Value from_json(const nlohmann::json& j, int depth) {
  if (depth > kMaxParseDepth) throw std::runtime_error("JSON nested more than 200 levels deep");
  switch (j.type()) {
    case nlohmann::json::value_t::boolean:
      return Value::boolean(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return Value::number(j.get<double>());
    case nlohmann::json::value_t::string:
      return Value::string(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      List items;
      for (const auto& item : j) items.push_back(from_json(item, depth + 1));
      return Value::new_list(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      Map m;
      for (const auto& item : j.items()) m[item.key()] = from_json(item.value(), depth + 1);
      return Value::new_map(std::move(m));
    }
    default:
      return Value{};
  }
}

struct JsonStyle {
  std::string indent;  // per level, as MarshalIndent's; "" writes compact JSON
  bool escape_html = true;
};

// encoding/json's string: <, > and & as \u003c... when escaping HTML, \b and \f short, other
// control bytes as \u00XX, an invalid UTF-8 byte as \ufffd, U+2028 and U+2029 escaped.
void json_string(const std::string& s, std::string& out, const JsonStyle& style) {
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t width = 0;
      const char32_t r = go_unicode::decode(s, i, width);
      if (r == go_unicode::kRuneError && width == 1) {
        out += "\\ufffd";
      } else if (r == 0x2028 || r == 0x2029) {
        out += r == 0x2028 ? "\\u2028" : "\\u2029";
      } else {
        out.append(s, i, width);
      }
      i += width - 1;
      continue;
    }
    if (append_common_escape(c, out)) continue;
    if (c == '\b' || c == '\f') {
      out += c == '\b' ? "\\b" : "\\f";
    } else if (c < 0x20 || (style.escape_html && (c == '<' || c == '>' || c == '&'))) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

void json_value(const Value& v, std::string& out, int depth, const JsonStyle& style) {
  if (depth > kMaxParseDepth) throw std::runtime_error("toJson: value nested too deeply");
  ValueDepth level;
  // MarshalIndent: a newline and the indent per level before each element and the closer.
  auto newline = [&](int level_of) {
    if (style.indent.empty()) return;
    out += '\n';
    for (int k = 0; k < level_of; ++k) out += style.indent;
  };
  GoTime time;
  if (as_time(v, time)) return json_string(time_rfc3339(time), out, style);
  switch (v.kind) {
    case Kind::Nil:
    case Kind::Method:
      out += "null";
      return;
    case Kind::Bool:
      out += v.b ? "true" : "false";
      return;
    case Kind::Int:
      out += std::to_string(v.i);
      return;
    case Kind::Float: {
      if (v.f == std::floor(v.f) && std::fabs(v.f) < 1e21) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", v.f);
        out += buf;
      } else {
        out += format_float(v.f);
      }
      return;
    }
    case Kind::String:
      json_string(v.s, out, style);
      return;
    case Kind::List: {
      out += '[';
      for (std::size_t k = 0; k < v.list->size(); ++k) {
        if (k) out += ',';
        newline(depth + 1);
        json_value((*v.list)[k], out, depth + 1, style);
      }
      if (!v.list->empty()) newline(depth);
      out += ']';
      return;
    }
    case Kind::Map: {
      out += '{';
      bool first = true;
      for (const auto& e : *v.map) {
        if (!first) out += ',';
        first = false;
        newline(depth + 1);
        json_string(e.first, out, style);
        out += style.indent.empty() ? ":" : ": ";
        json_value(e.second, out, depth + 1, style);
      }
      if (!v.map->empty()) newline(depth);
      out += '}';
      return;
    }
  }
}

}  // namespace

bool parse_json_value(std::string_view text, Value& out, std::string& error) {
  try {
    out = from_json(nlohmann::json::parse(text), 0);
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}

std::string to_json(const Value& v) {
  return to_json_styled(v, "", true);
}

std::string to_json_styled(const Value& v, const std::string& indent, bool escape_html) {
  std::string out;
  json_value(v, out, 0, JsonStyle{indent, escape_html});
  return out;
}

}  // namespace sbr::render::helm
