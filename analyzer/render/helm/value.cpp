#include "analyzer/render/helm/value.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <unordered_set>

namespace sbr::render::helm {

Value Value::boolean(bool v) {
  Value r;
  r.kind = Kind::Bool;
  r.b = v;
  return r;
}

Value Value::integer(std::int64_t v) {
  Value r;
  r.kind = Kind::Int;
  r.i = v;
  return r;
}

Value Value::number(double v) {
  Value r;
  r.kind = Kind::Float;
  r.f = v;
  return r;
}

Value Value::string(std::string v) {
  Value r;
  r.kind = Kind::String;
  r.s = std::move(v);
  return r;
}

Value Value::new_list(List v) {
  Value r;
  r.kind = Kind::List;
  r.list = std::make_shared<List>(std::move(v));
  return r;
}

Value Value::new_map(Map v) {
  Value r;
  r.kind = Kind::Map;
  r.map = std::make_shared<Map>(std::move(v));
  return r;
}

Value Value::function(Method m) {
  Value r;
  r.kind = Kind::Method;
  r.method = std::make_shared<Method>(std::move(m));
  return r;
}

bool truthy(const Value& v) {
  switch (v.kind) {
    case Kind::Nil:
      return false;
    case Kind::Bool:
      return v.b;
    case Kind::Int:
      return v.i != 0;
    case Kind::Float:
      return v.f != 0;
    case Kind::String:
      return !v.s.empty();
    case Kind::List:
      return !v.list->empty();
    case Kind::Map:
      return !v.map->empty();
    case Kind::Method:
      return true;
  }
  return false;
}

std::string format_float(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  // Go's %v is strconv 'g' with the shortest digits and exponent threshold 21 (fmt sets it).
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string sci(buf, end);
  auto e = sci.find('e');
  int exp = std::stoi(sci.substr(e + 1));
  if (exp < -4 || exp >= 21) {
    std::string mant = sci.substr(0, e);
    char sign = exp < 0 ? '-' : '+';
    int a = std::abs(exp);
    return mant + "e" + sign + (a < 10 ? "0" : "") + std::to_string(a);
  }
  auto [end2, ec2] = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);
  return std::string(buf, end2);
}

namespace {
thread_local int value_depth = 0;
thread_local std::uint64_t value_visits = 0;  // since the outermost ValueDepth
}  // namespace

ValueDepth::ValueDepth() {
  if (value_depth == 0) value_visits = 0;
  if (++value_depth > kMaxValueDepth) {
    --value_depth;
    throw RenderError(fmt::format("a value nested more than {} levels deep (maps and lists inside "
                                  "each other): sbreview stops there",
                                  kMaxValueDepth),
                      Location{});
  }
  if (++value_visits > kMaxValueVisits) {
    --value_depth;
    throw RenderError(fmt::format("a value with more than {} maps, lists and scalars to walk (one "
                                  "that holds the same list many times over?), past sbreview's "
                                  "budget: sbreview stops there",
                                  kMaxValueVisits),
                      Location{});
  }
}

ValueDepth::~ValueDepth() {
  --value_depth;
}

namespace {

// Moves the lists and maps that `holder` alone keeps alive into `out`, leaving `holder` flat.
void take_children(Value& holder, std::vector<std::shared_ptr<List>>& lists,
                   std::vector<std::shared_ptr<Map>>& maps) {
  if (holder.list && holder.list.use_count() == 1) lists.push_back(std::move(holder.list));
  if (holder.map && holder.map.use_count() == 1) maps.push_back(std::move(holder.map));
}

}  // namespace

Value::~Value() {
  if (!(list && list.use_count() == 1) && !(map && map.use_count() == 1)) return;
  std::vector<std::shared_ptr<List>> lists;
  std::vector<std::shared_ptr<Map>> maps;
  take_children(*this, lists, maps);
  while (!lists.empty() || !maps.empty()) {
    if (!lists.empty()) {
      std::shared_ptr<List> l = std::move(lists.back());
      lists.pop_back();
      for (Value& item : *l) take_children(item, lists, maps);
    } else {
      std::shared_ptr<Map> m = std::move(maps.back());
      maps.pop_back();
      for (auto& entry : *m) take_children(entry.second, lists, maps);
    }
  }
}

std::uint64_t count_nodes(const Value& v) {
  std::vector<const Value*> todo{&v};
  std::unordered_set<const void*> seen;
  std::uint64_t n = 0;
  while (!todo.empty()) {
    const Value* cur = todo.back();
    todo.pop_back();
    ++n;
    if (cur->is_map() && seen.insert(cur->map.get()).second) {
      for (const auto& entry : *cur->map) todo.push_back(&entry.second);
    } else if (cur->is_list() && seen.insert(cur->list.get()).second) {
      for (const Value& item : *cur->list) todo.push_back(&item);
    }
  }
  return n;
}

bool contains_map(const Value& v, const Map* target) {
  std::vector<const Value*> todo{&v};
  std::unordered_set<const void*> seen;
  while (!todo.empty()) {
    const Value* cur = todo.back();
    todo.pop_back();
    if (cur->is_map()) {
      if (cur->map.get() == target) return true;
      if (!seen.insert(cur->map.get()).second) continue;
      for (const auto& entry : *cur->map) todo.push_back(&entry.second);
    } else if (cur->is_list()) {
      if (!seen.insert(cur->list.get()).second) continue;
      for (const Value& item : *cur->list) todo.push_back(&item);
    }
  }
  return false;
}

namespace {

std::string print_list(const List& l);
std::string print_map(const Map& m);

std::string print_inner(const Value& v) {
  ValueDepth level;
  if (v.is_nil()) return "<nil>";
  if (v.is_list()) return print_list(*v.list);
  if (v.is_map()) return print_map(*v.map);
  return print_value(v);
}

std::string print_list(const List& l) {
  std::string out = "[";
  for (std::size_t k = 0; k < l.size(); ++k) out += (k ? " " : "") + print_inner(l[k]);
  return out + "]";
}

std::string print_map(const Map& m) {
  // Objects with a String() method (.Capabilities.KubeVersion) keep it under "\x01".
  auto self = m.find("\x01");
  if (self != m.end()) return self->second.s;
  std::string out = "map[";
  bool first = true;
  for (const auto& entry : m) {
    out += (first ? "" : " ") + entry.first + ":" + print_inner(entry.second);
    first = false;
  }
  return out + "]";
}

}  // namespace

std::string print_value(const Value& v) {
  switch (v.kind) {
    case Kind::Nil:
      return "";
    case Kind::Bool:
      return v.b ? "true" : "false";
    case Kind::Int:
      return std::to_string(v.i);
    case Kind::Float:
      return format_float(v.f);
    case Kind::String:
      return v.s;
    case Kind::List:
      return print_list(*v.list);
    case Kind::Map:
      return print_map(*v.map);
    case Kind::Method:
      return "<func>";
  }
  return "";
}

std::string type_name(const Value& v) {
  switch (v.kind) {
    case Kind::Nil:
      return "<nil>";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
      return "int";
    case Kind::Float:
      return "float64";
    case Kind::String:
      return "string";
    case Kind::List:
      return "[]interface {}";
    case Kind::Map:
      // A time (go_time.h) keeps its fields under hidden keys.
      return v.map->count("\x02sec") ? "time.Time" : "map[string]interface {}";
    case Kind::Method:
      return "func";
  }
  return "";
}

Value deep_copy(const Value& v) {
  ValueDepth level;
  Value r = v;
  if (v.is_list()) {
    r.list = std::make_shared<List>();
    r.list->reserve(v.list->size());
    for (const Value& item : *v.list) r.list->push_back(deep_copy(item));
  } else if (v.is_map()) {
    r.map = std::make_shared<Map>();
    for (const auto& entry : *v.map) r.map->emplace(entry.first, deep_copy(entry.second));
  }
  return r;
}

bool as_int(const Value& v, std::int64_t& out) {
  switch (v.kind) {
    case Kind::Int:
      out = v.i;
      return true;
    case Kind::Float:
      out = static_cast<std::int64_t>(v.f);
      return true;
    case Kind::Bool:
      out = v.b ? 1 : 0;
      return true;
    case Kind::String: {
      auto [p, ec] = std::from_chars(v.s.data(), v.s.data() + v.s.size(), out);
      return ec == std::errc() && p == v.s.data() + v.s.size();
    }
    default:
      return false;
  }
}

double as_float(const Value& v) {
  if (v.kind == Kind::Float) return v.f;
  if (v.kind == Kind::Int) return static_cast<double>(v.i);
  if (v.kind == Kind::Bool) return v.b ? 1 : 0;
  if (v.kind == Kind::String) {
    double d = 0;
    auto [p, ec] = std::from_chars(v.s.data(), v.s.data() + v.s.size(), d);
    return ec == std::errc() ? d : 0;
  }
  return 0;
}

bool basic_equal(const Value& a, const Value& b, bool& comparable) {
  comparable = true;
  if (a.kind != b.kind) {
    if (a.is_nil() || b.is_nil()) return false;  // Go compares nil with any value: unequal
    comparable = false;
    return false;
  }
  switch (a.kind) {
    case Kind::Nil:
      return true;
    case Kind::Bool:
      return a.b == b.b;
    case Kind::Int:
      return a.i == b.i;
    case Kind::Float:
      return a.f == b.f;
    case Kind::String:
      return a.s == b.s;
    default:
      comparable = false;
      return false;
  }
}

void inherit_origin(Value& v, const Value& from) {
  if (v.from.valid() || !from.from.valid()) return;
  v.from = from.from;
  v.path = from.path;
}

}  // namespace sbr::render::helm
