// A JSON Schema validator for the keywords charts use (drafts 4 to 2020-12): type, enum,
// const, required, properties, patternProperties, additionalProperties, items, prefixItems,
// min/maxItems, uniqueItems, min/maxLength, pattern, minimum, maximum, exclusive bounds,
// multipleOf, min/maxProperties, dependentRequired, allOf, anyOf, oneOf, not, if/then/else
// and local $ref. Other keywords (format, remote $ref) accept everything.
#include "analyzer/render/helm/schema.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <tuple>

namespace sbr::render::helm {

namespace {

using nlohmann::json;

constexpr int kMaxSchemaDepth = 64;
constexpr std::size_t kMaxErrors = 20;

std::string json_type(const Value& v) {
  switch (v.kind) {
    case Kind::Nil:
      return "null";
    case Kind::Bool:
      return "boolean";
    case Kind::Int:
      return "integer";
    case Kind::Float:
      return std::floor(v.f) == v.f ? "integer" : "number";
    case Kind::String:
      return "string";
    case Kind::List:
      return "array";
    case Kind::Map:
      return "object";
    default:
      return "function";
  }
}

bool has_type(const Value& v, const std::string& t) {
  std::string mine = json_type(v);
  return mine == t || (t == "number" && mine == "integer");
}

double number(const Value& v) {
  return v.kind == Kind::Int ? static_cast<double>(v.i) : v.f;
}

bool equal(const Value& v, const json& j, int depth = 0) {
  if (depth > kMaxSchemaDepth) return false;
  if (j.is_null()) return v.is_nil();
  if (j.is_boolean()) return v.kind == Kind::Bool && v.b == j.get<bool>();
  if (j.is_number()) return v.is_number() && number(v) == j.get<double>();
  if (j.is_string()) return v.is_string() && v.s == j.get<std::string>();
  if (j.is_array()) {
    if (!v.is_list() || v.list->size() != j.size()) return false;
    for (std::size_t k = 0; k < j.size(); ++k) {
      if (!equal((*v.list)[k], j[k], depth + 1)) return false;
    }
    return true;
  }
  if (!v.is_map() || v.map->size() != j.size()) return false;
  for (const auto& [key, e] : j.items()) {
    auto f = v.map->find(key);
    if (f == v.map->end() || !equal(f->second, e, depth + 1)) return false;
  }
  return true;
}

std::string pointer_part(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

class Validator {
 public:
  Validator(const json& root, std::vector<SchemaError>& errors) : root_(root), errors_(errors) {}

  // True when `v` is valid; records errors only when `record`.
  bool check(const json& s, const Value& v, const std::string& ptr, Location near, bool record,
             int depth) {
    if (depth > kMaxSchemaDepth) return true;
    if (s.is_boolean()) return s.get<bool>() || fail(record, ptr, v, near, "not allowed");
    if (!s.is_object()) return true;
    if (v.from.valid()) near = v.from;
    bool ok = true;
    if (auto r = s.find("$ref"); r != s.end() && r->is_string()) {
      if (const json* target = resolve(r->get<std::string>()))
        ok = check(*target, v, ptr, near, record, depth + 1) && ok;
    }
    ok = types(s, v, ptr, near, record) && ok;
    ok = values(s, v, ptr, near, record) && ok;
    if (v.is_string()) ok = strings(s, v, ptr, near, record) && ok;
    if (v.is_number()) ok = numbers(s, v, ptr, near, record) && ok;
    if (v.is_map()) ok = object(s, v, ptr, near, record, depth) && ok;
    if (v.is_list()) ok = array(s, v, ptr, near, record, depth) && ok;
    ok = combinators(s, v, ptr, near, record, depth) && ok;
    return ok;
  }

 private:
  const json& root_;
  std::vector<SchemaError>& errors_;

  bool fail(bool record, const std::string& ptr, const Value& v, Location near,
            std::string message) {
    if (record && errors_.size() < kMaxErrors)
      errors_.push_back({ptr, std::move(message), v.from.valid() ? v.from : near});
    return false;
  }

  const json* resolve(const std::string& ref) const {
    if (ref.empty() || ref[0] != '#') return nullptr;  // remote: never fetched
    if (ref == "#") return &root_;
    if (ref.size() < 2 || ref[1] != '/') return nullptr;
    try {
      const json& target = root_.at(json::json_pointer(ref.substr(1)));
      return &target;
    } catch (const std::exception&) {
      return nullptr;
    }
  }

  bool types(const json& s, const Value& v, const std::string& ptr, Location near, bool record) {
    auto t = s.find("type");
    if (t == s.end()) return true;
    std::vector<std::string> want;
    if (t->is_string()) want.push_back(t->get<std::string>());
    if (t->is_array()) {
      for (const json& e : *t) {
        if (e.is_string()) want.push_back(e.get<std::string>());
      }
    }
    for (const std::string& w : want) {
      if (has_type(v, w)) return true;
    }
    std::string list;
    for (const std::string& w : want) list += (list.empty() ? "" : " or ") + w;
    return fail(record, ptr, v, near, fmt::format("got {}, want {}", json_type(v), list));
  }

  bool values(const json& s, const Value& v, const std::string& ptr, Location near, bool record) {
    bool ok = true;
    if (auto e = s.find("enum"); e != s.end() && e->is_array()) {
      bool any = false;
      for (const json& c : *e) any = any || equal(v, c);
      if (!any) ok = fail(record, ptr, v, near, "value must be one of " + e->dump());
    }
    if (auto c = s.find("const"); c != s.end() && !equal(v, *c))
      ok = fail(record, ptr, v, near, "value must be " + c->dump());
    return ok;
  }

  bool strings(const json& s, const Value& v, const std::string& ptr, Location near, bool record) {
    bool ok = true;
    // Lengths count characters (UTF-8 code points), not bytes.
    std::size_t count = 0;
    for (unsigned char c : v.s) count += (c & 0xC0) != 0x80;
    const auto len = static_cast<double>(count);  // compared with JSON numbers
    if (auto m = s.find("minLength"); m != s.end() && m->is_number() && len < m->get<double>())
      ok = fail(record, ptr, v, near,
                fmt::format("length must be >= {}, but got {}", m->dump(), count));
    if (auto m = s.find("maxLength"); m != s.end() && m->is_number() && len > m->get<double>())
      ok = fail(record, ptr, v, near,
                fmt::format("length must be <= {}, but got {}", m->dump(), count));
    if (auto p = s.find("pattern"); p != s.end() && p->is_string()) {
      RE2 re(p->get<std::string>(), RE2::Quiet);
      if (re.ok() && !RE2::PartialMatch(v.s, re))
        ok = fail(record, ptr, v, near,
                  fmt::format("'{}' does not match pattern '{}'", v.s, p->get<std::string>()));
    }
    return ok;
  }

  bool numbers(const json& s, const Value& v, const std::string& ptr, Location near, bool record) {
    bool ok = true;
    double n = number(v);
    auto bound = [&](const char* key, auto breaks, const char* op) {
      auto b = s.find(key);
      if (b == s.end() || !b->is_number() || !breaks(n, b->get<double>())) return;
      ok = fail(record, ptr, v, near,
                fmt::format("must be {} {} but found {}", op, b->dump(), print_value(v)));
    };
    bound(
        "minimum", [](double a, double b) { return a < b; }, ">=");
    bound(
        "maximum", [](double a, double b) { return a > b; }, "<=");
    bound(
        "exclusiveMinimum", [](double a, double b) { return a <= b; }, ">");
    bound(
        "exclusiveMaximum", [](double a, double b) { return a >= b; }, "<");
    // Draft 4: exclusiveMinimum/Maximum are booleans that sharpen minimum/maximum.
    for (auto [flag, key, op] : {std::tuple{"exclusiveMinimum", "minimum", ">"},
                                 std::tuple{"exclusiveMaximum", "maximum", "<"}}) {
      auto f = s.find(flag);
      auto b = s.find(key);
      if (f == s.end() || !f->is_boolean() || !f->get<bool>() || b == s.end() || !b->is_number())
        continue;
      if (n == b->get<double>())
        ok = fail(record, ptr, v, near,
                  fmt::format("must be {} {} but found {}", op, b->dump(), print_value(v)));
    }
    if (auto m = s.find("multipleOf"); m != s.end() && m->is_number() && m->get<double>() > 0) {
      double q = n / m->get<double>();
      if (std::fabs(q - std::round(q)) > 1e-9)
        ok = fail(record, ptr, v, near,
                  fmt::format("{} is not a multiple of {}", print_value(v), m->dump()));
    }
    return ok;
  }

  bool object(const json& s, const Value& v, const std::string& ptr, Location near, bool record,
              int depth) {
    bool ok = true;
    if (auto r = s.find("required"); r != s.end() && r->is_array()) {
      for (const json& k : *r) {
        if (k.is_string() && !v.map->count(k.get<std::string>()))
          ok = fail(record, ptr, v, near,
                    fmt::format("missing property '{}'", k.get<std::string>()));
      }
    }
    if (auto d = s.find("dependentRequired"); d != s.end() && d->is_object()) {
      for (const auto& [key, needs] : d->items()) {
        if (!v.map->count(key) || !needs.is_array()) continue;
        for (const json& k : needs) {
          if (k.is_string() && !v.map->count(k.get<std::string>()))
            ok = fail(record, ptr, v, near,
                      fmt::format("property '{}' needs '{}'", key, k.get<std::string>()));
        }
      }
    }
    auto count = [&](const char* key, bool min) {
      auto m = s.find(key);
      if (m == s.end() || !m->is_number()) return;
      double n = static_cast<double>(v.map->size());
      if (min ? n < m->get<double>() : n > m->get<double>())
        ok = fail(
            record, ptr, v, near,
            fmt::format("must have {} {} properties", min ? "at least" : "at most", m->dump()));
    };
    count("minProperties", true);
    count("maxProperties", false);
    const json* props =
        s.contains("properties") && s["properties"].is_object() ? &s["properties"] : nullptr;
    const json* patterns = s.contains("patternProperties") && s["patternProperties"].is_object()
                               ? &s["patternProperties"]
                               : nullptr;
    auto extra = s.find("additionalProperties");
    std::vector<std::string> not_allowed;
    for (const auto& [key, item] : *v.map) {
      std::string sub = ptr + "/" + pointer_part(key);
      bool matched = false;
      if (props && props->contains(key)) {
        matched = true;
        ok = check((*props)[key], item, sub, near, record, depth + 1) && ok;
      }
      if (patterns) {
        for (const auto& [pattern, ps] : patterns->items()) {
          RE2 re(pattern, RE2::Quiet);
          if (!re.ok() || !RE2::PartialMatch(key, re)) continue;
          matched = true;
          ok = check(ps, item, sub, near, record, depth + 1) && ok;
        }
      }
      if (matched || extra == s.end()) continue;
      if (extra->is_boolean() && !extra->get<bool>()) {
        not_allowed.push_back(key);
      } else if (extra->is_object()) {
        ok = check(*extra, item, sub, near, record, depth + 1) && ok;
      }
    }
    if (!not_allowed.empty()) {
      std::string list;
      for (const std::string& k : not_allowed) list += (list.empty() ? "'" : ", '") + k + "'";
      ok = fail(record, ptr, v, near, fmt::format("additional properties {} not allowed", list));
    }
    return ok;
  }

  bool array(const json& s, const Value& v, const std::string& ptr, Location near, bool record,
             int depth) {
    bool ok = true;
    const List& items = *v.list;
    auto count = [&](const char* key, bool min) {
      auto m = s.find(key);
      if (m == s.end() || !m->is_number()) return;
      double n = static_cast<double>(items.size());
      if (min ? n < m->get<double>() : n > m->get<double>())
        ok = fail(record, ptr, v, near,
                  fmt::format("must have {} {} items", min ? "at least" : "at most", m->dump()));
    };
    count("minItems", true);
    count("maxItems", false);
    std::size_t first = 0;
    // prefixItems (2020-12), or items as a list (drafts before it): one schema per position.
    const json* prefix = nullptr;
    if (auto p = s.find("prefixItems"); p != s.end() && p->is_array()) prefix = &*p;
    if (auto i = s.find("items"); !prefix && i != s.end() && i->is_array()) prefix = &*i;
    if (prefix) {
      for (; first < items.size() && first < prefix->size(); ++first)
        ok = check((*prefix)[first], items[first], ptr + "/" + std::to_string(first), near, record,
                   depth + 1) &&
             ok;
    }
    const json* rest = nullptr;
    if (auto i = s.find("items"); i != s.end() && (i->is_object() || i->is_boolean())) rest = &*i;
    if (auto a = s.find("additionalItems"); !rest && prefix && a != s.end()) rest = &*a;
    for (std::size_t k = rest ? first : items.size(); k < items.size(); ++k)
      ok = check(*rest, items[k], ptr + "/" + std::to_string(k), near, record, depth + 1) && ok;
    if (auto u = s.find("uniqueItems"); u != s.end() && u->is_boolean() && u->get<bool>()) {
      for (std::size_t a = 0; a < items.size(); ++a) {
        for (std::size_t b = a + 1; b < items.size(); ++b) {
          bool comparable = true;
          if (basic_equal(items[a], items[b], comparable) && comparable) {
            ok = fail(record, ptr, v, near, fmt::format("items at {} and {} are equal", a, b));
            a = items.size();
            break;
          }
        }
      }
    }
    return ok;
  }

  bool combinators(const json& s, const Value& v, const std::string& ptr, Location near,
                   bool record, int depth) {
    bool ok = true;
    if (auto a = s.find("allOf"); a != s.end() && a->is_array()) {
      for (const json& sub : *a) ok = check(sub, v, ptr, near, record, depth + 1) && ok;
    }
    auto passing = [&](const json& list) {
      std::size_t n = 0;
      for (const json& sub : list) n += check(sub, v, ptr, near, false, depth + 1);
      return n;
    };
    if (auto a = s.find("anyOf"); a != s.end() && a->is_array() && passing(*a) == 0)
      ok = fail(record, ptr, v, near, "anyOf failed: the value matches none of the schemas");
    if (auto a = s.find("oneOf"); a != s.end() && a->is_array()) {
      std::size_t n = passing(*a);
      if (n != 1)
        ok = fail(record, ptr, v, near,
                  n == 0 ? "oneOf failed: the value matches none of the schemas"
                         : "oneOf failed: the value matches more than one schema");
    }
    if (auto n = s.find("not"); n != s.end() && check(*n, v, ptr, near, false, depth + 1))
      ok = fail(record, ptr, v, near, "not failed: the value matches the schema it must not");
    if (auto i = s.find("if"); i != s.end()) {
      bool cond = check(*i, v, ptr, near, false, depth + 1);
      auto branch = s.find(cond ? "then" : "else");
      if (branch != s.end()) ok = check(*branch, v, ptr, near, record, depth + 1) && ok;
    }
    return ok;
  }
};

}  // namespace

bool validate_schema(const std::string& schema_text, const Value& values,
                     std::vector<SchemaError>& errors, std::string& parse_error) {
  json schema = json::parse(schema_text, nullptr, false);
  if (schema.is_discarded()) {
    parse_error = "not valid JSON";
    return false;
  }
  Validator(schema, errors).check(schema, values, "", values.from, true, 0);
  return true;
}

}  // namespace sbr::render::helm
