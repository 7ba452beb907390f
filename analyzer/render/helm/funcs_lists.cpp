// Sprig's lists, dicts and defaults. Dicts are shared like Go maps: `set` and the merges change
// the map they are given, as sprig's do.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_map>

#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

const List& list_arg(const Value& v, const char* name, const Location& at) {
  static const List kEmpty;
  if (v.is_nil()) return kEmpty;
  if (!v.is_list())
    throw RenderError(fmt::format("{}: cannot find {} on type {}", name, name, type_name(v)), at);
  return *v.list;
}

Map& map_arg(const Value& v, const char* name, const Location& at) {
  if (!v.is_map())
    throw RenderError(fmt::format("{}: expected a dict, got {}", name, type_name(v)), at);
  return *v.map;
}

// A function that only reads a dict takes nil as an empty one, as Go passes a nil map.
const Map& read_map(const Value& v, const char* name, const Location& at) {
  static const Map kEmpty;
  return v.is_nil() ? kEmpty : map_arg(v, name, at);
}

Value fn_list(Exec&, Args& a, const Location&) {
  return Value::new_list(a);
}

Value fn_append(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "append", at);
  List out = list_arg(a[0], "append", at);
  out.push_back(a[1]);
  return Value::new_list(std::move(out));
}

Value fn_prepend(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "prepend", at);
  List out = list_arg(a[0], "prepend", at);
  out.insert(out.begin(), a[1]);
  return Value::new_list(std::move(out));
}

Value fn_first(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "first", at);
  const List& l = list_arg(a[0], "first", at);
  return l.empty() ? Value{} : l.front();
}

Value fn_last(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "last", at);
  const List& l = list_arg(a[0], "last", at);
  return l.empty() ? Value{} : l.back();
}

Value fn_rest(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "rest", at);
  const List& l = list_arg(a[0], "rest", at);
  return l.empty() ? Value::new_list() : Value::new_list(List(l.begin() + 1, l.end()));
}

Value fn_initial(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "initial", at);
  const List& l = list_arg(a[0], "initial", at);
  return l.empty() ? Value::new_list() : Value::new_list(List(l.begin(), l.end() - 1));
}

bool deep_equal(const Value& x, const Value& y) {
  ValueDepth level;
  bool comparable = true;
  if (x.kind != y.kind) return false;
  if (x.is_list()) {
    return x.list->size() == y.list->size() &&
           std::equal(x.list->begin(), x.list->end(), y.list->begin(), deep_equal);
  }
  if (x.is_map()) {
    if (x.map->size() != y.map->size()) return false;
    for (const auto& entry : *x.map) {
      auto f = y.map->find(entry.first);
      if (f == y.map->end() || !deep_equal(entry.second, f->second)) return false;
    }
    return true;
  }
  return basic_equal(x, y, comparable);
}

Value fn_has(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "has", at);
  const List& l = list_arg(a[1], "has", at);
  return Value::boolean(
      std::any_of(l.begin(), l.end(), [&](const Value& v) { return deep_equal(v, a[0]); }));
}

// A hash that agrees with deep_equal: equal values hash alike. uniq compares each element with
// those of its bucket only, so `uniq (until 100000)` is linear, not ten billion comparisons.
std::size_t value_hash(const Value& v) {
  ValueDepth level;
  std::size_t h = static_cast<std::size_t>(v.kind) * 0x9e3779b97f4a7c15ull;
  auto mix = [&h](std::size_t x) { h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  switch (v.kind) {
    case Kind::Bool:
      mix(v.b ? 1 : 0);
      break;
    case Kind::Int:
      mix(std::hash<std::int64_t>{}(v.i));
      break;
    case Kind::Float:
      mix(std::hash<double>{}(v.f == 0 ? 0.0 : v.f));  // -0 == 0
      break;
    case Kind::String:
      mix(std::hash<std::string>{}(v.s));
      break;
    default:
      if (v.is_list()) {
        for (const Value& e : *v.list) mix(value_hash(e));
      } else if (v.is_map()) {
        for (const auto& [k, e] : *v.map) {
          mix(std::hash<std::string>{}(k));
          mix(value_hash(e));
        }
      }
  }
  return h;
}

Value fn_uniq(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "uniq", at);
  List out;
  std::unordered_multimap<std::size_t, std::size_t> seen;  // hash -> index in out
  for (const Value& v : list_arg(a[0], "uniq", at)) {
    std::size_t h = value_hash(v);
    auto [first, last] = seen.equal_range(h);
    if (std::any_of(first, last, [&](const auto& e) { return deep_equal(out[e.second], v); }))
      continue;
    seen.emplace(h, out.size());
    out.push_back(v);
  }
  return Value::new_list(std::move(out));
}

Value fn_without(Exec&, Args& a, const Location& at) {
  if (a.empty()) throw RenderError("wrong number of args for without", at);
  List out;
  for (const Value& v : list_arg(a[0], "without", at)) {
    if (std::none_of(a.begin() + 1, a.end(), [&](const Value& o) { return deep_equal(o, v); }))
      out.push_back(v);
  }
  return Value::new_list(std::move(out));
}

bool empty_value(const Value& v) {
  return !truthy(v);
}

Value fn_compact(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "compact", at);
  List out;
  for (const Value& v : list_arg(a[0], "compact", at)) {
    if (!empty_value(v)) out.push_back(v);
  }
  return Value::new_list(std::move(out));
}

Value fn_concat(Exec&, Args& a, const Location& at) {
  List out;
  for (const Value& l : a) {
    const List& items = list_arg(l, "concat", at);
    out.insert(out.end(), items.begin(), items.end());
  }
  return Value::new_list(std::move(out));
}

Value fn_reverse(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "reverse", at);
  List out = list_arg(a[0], "reverse", at);
  std::reverse(out.begin(), out.end());
  return Value::new_list(std::move(out));
}

Value fn_sort_alpha(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "sortAlpha", at);
  std::vector<std::string> items;
  for (const Value& v : list_arg(a[0], "sortAlpha", at)) items.push_back(text_of(v));
  std::sort(items.begin(), items.end());
  List out;
  for (auto& s : items) out.push_back(Value::string(s));
  return Value::new_list(std::move(out));
}

// sprig's until counts from 0 towards `n`, down when it is negative (untilStep 0 n -1).
Value fn_until(Exec& ex, Args& a, const Location& at) {
  arity(a, 1, 1, "until", at);
  List out;
  const std::int64_t n = int_of(a[0]);
  const std::uint64_t count = n < 0 ? 0 - static_cast<std::uint64_t>(n) : n;
  if (count > kMaxListItems) {
    throw RenderError(fmt::format("until {} would build a list of {} items, past sbreview's "
                                  "budget of {}",
                                  n, count, kMaxListItems),
                      at);
  }
  ex.charge(count * kElementBytes, "until", at);
  const std::int64_t step = n < 0 ? -1 : 1;
  for (std::int64_t k = 0; k != n; k += step) out.push_back(Value::integer(k));
  return Value::new_list(std::move(out));
}

Value fn_dict(Exec&, Args& a, const Location&) {
  Map out;
  for (std::size_t k = 0; k < a.size(); k += 2)
    out[text_of(a[k])] = k + 1 < a.size() ? a[k + 1] : Value{};
  return Value::new_map(std::move(out));
}

Value fn_get(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "get", at);
  const Map& m = read_map(a[0], "get", at);
  auto f = m.find(text_of(a[1]));
  return f == m.end() ? Value::string("") : f->second;
}

Value fn_set(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "set", at);
  Map& target = map_arg(a[0], "set", at);
  if (contains_map(a[2], &target)) {
    throw RenderError(
        "set would make a dict contain itself, which has no end: helm never "
        "finishes printing or copying it",
        at, Cause::Repository);
  }
  target[text_of(a[1])] = a[2];
  return a[0];
}

Value fn_unset(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "unset", at);
  map_arg(a[0], "unset", at).erase(text_of(a[1]));
  return a[0];
}

Value fn_has_key(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "hasKey", at);
  const Map& m = read_map(a[0], "hasKey", at);
  return Value::boolean(m.count(text_of(a[1])) > 0);
}

Value fn_keys(Exec&, Args& a, const Location& at) {
  List out;
  for (const Value& m : a) {
    for (const auto& entry : read_map(m, "keys", at)) out.push_back(Value::string(entry.first));
  }
  return Value::new_list(std::move(out));
}

Value fn_values(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "values", at);
  List out;
  for (const auto& entry : read_map(a[0], "values", at)) out.push_back(entry.second);
  return Value::new_list(std::move(out));
}

Value fn_pick(Exec&, Args& a, const Location& at) {
  if (a.empty()) throw RenderError("wrong number of args for pick", at);
  const Map& m = read_map(a[0], "pick", at);
  Map out;
  for (std::size_t k = 1; k < a.size(); ++k) {
    auto f = m.find(text_of(a[k]));
    if (f != m.end()) out.insert(*f);
  }
  return Value::new_map(std::move(out));
}

Value fn_omit(Exec&, Args& a, const Location& at) {
  if (a.empty()) throw RenderError("wrong number of args for omit", at);
  Map out = read_map(a[0], "omit", at);
  for (std::size_t k = 1; k < a.size(); ++k) out.erase(text_of(a[k]));
  return Value::new_map(std::move(out));
}

Value fn_pluck(Exec&, Args& a, const Location& at) {
  if (a.empty()) throw RenderError("wrong number of args for pluck", at);
  List out;
  for (std::size_t k = 1; k < a.size(); ++k) {
    const Map& m = read_map(a[k], "pluck", at);
    auto f = m.find(text_of(a[0]));
    if (f != m.end()) out.push_back(f->second);
  }
  return Value::new_list(std::move(out));
}

// Stores `v` at `key` of `dst` as Go does, without a copy (its maps and lists are then shared),
// unless `v` holds `dst` or a map holding it (`within`): that map would contain itself.
void store(Map& dst, const std::string& key, const Value& v, const std::vector<const Map*>& within,
           const Location& at) {
  for (const Map* m : within) {
    if (contains_map(v, m)) {
      throw RenderError(
          "merge would make a dict contain itself, which has no end: helm never "
          "finishes printing or copying it",
          at, Cause::Repository);
    }
  }
  dst[key] = v;
}

// mergo v1.0.1's deepMerge of two map[string]interface{}, as sprig's merge (`overwrite` false)
// and mergeOverwrite (mergo's WithOverride) call it, key by key: a nil source value is skipped
// (stored with `overwrite`); a dict merges into a dict in place; any other value is stored when
// `overwrite` or when the entry is missing or empty (false, 0, "", nil, empty dict or list), and
// a dict or list source never replaces a non-empty entry without `overwrite`. A stored dict is
// the source's own, as in Go: a later merge into it changes the source (sprig issue 188).
void merge_into(Map& dst, const Map& src, bool overwrite, std::vector<const Map*>& within,
                const Location& at) {
  if (within.size() > 100) return;
  within.push_back(&dst);
  for (const auto& [key, value] : src) {
    auto found = dst.find(key);
    const bool present = found != dst.end();
    if (value.is_nil()) {
      if (overwrite) store(dst, key, value, within, at);
      continue;
    }
    if (value.is_map() && present && found->second.is_map()) {
      merge_into(*found->second.map, *value.map, overwrite, within, at);
      if (!found->second.map->empty()) continue;  // mergo judges the merged dict
    }
    if (overwrite || !present || empty_value(found->second)) store(dst, key, value, within, at);
  }
  within.pop_back();
}

Value merge_fn(Args& a, const Location& at, bool overwrite, const char* name) {
  if (a.empty()) throw RenderError(fmt::format("wrong number of args for {}", name), at);
  Map& dst = map_arg(a[0], name, at);
  std::vector<const Map*> within;
  for (std::size_t k = 1; k < a.size(); ++k)
    merge_into(dst, read_map(a[k], name, at), overwrite, within, at);
  return a[0];
}

Value fn_merge(Exec&, Args& a, const Location& at) {
  return merge_fn(a, at, false, "merge");
}
Value fn_merge_overwrite(Exec&, Args& a, const Location& at) {
  return merge_fn(a, at, true, "mergeOverwrite");
}

Value fn_deep_copy(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "deepCopy", at);
  return deep_copy(a[0]);
}

Value fn_dig(Exec&, Args& a, const Location& at) {
  if (a.size() < 3) throw RenderError("wrong number of args for dig: want at least 3", at);
  Value v = a.back();
  for (std::size_t k = 0; k + 2 < a.size(); ++k) {
    if (!v.is_map()) return a[a.size() - 2];
    auto f = v.map->find(text_of(a[k]));
    if (f == v.map->end()) return a[a.size() - 2];
    v = f->second;
  }
  return v;
}

Value fn_default(Exec&, Args& a, const Location& at) {
  if (a.empty()) throw RenderError("wrong number of args for default", at);
  if (a.size() < 2 || empty_value(a[1])) return a[0];
  return a[1];
}

Value fn_empty(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "empty", at);
  return Value::boolean(empty_value(a[0]));
}

Value fn_coalesce(Exec&, Args& a, const Location&) {
  for (const Value& v : a) {
    if (!empty_value(v)) return v;
  }
  return {};
}

Value fn_ternary(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "ternary", at);
  return truthy(a[2]) ? a[0] : a[1];
}

Value fn_all(Exec&, Args& a, const Location&) {
  return Value::boolean(std::all_of(a.begin(), a.end(), [](const Value& v) { return truthy(v); }));
}

Value fn_any(Exec&, Args& a, const Location&) {
  return Value::boolean(std::any_of(a.begin(), a.end(), [](const Value& v) { return truthy(v); }));
}

}  // namespace

void add_list_functions(FunctionTable& t) {
  t["list"] = fn_list;
  t["tuple"] = fn_list;
  t["append"] = fn_append;
  t["push"] = fn_append;
  t["mustAppend"] = fn_append;
  t["prepend"] = fn_prepend;
  t["first"] = fn_first;
  t["last"] = fn_last;
  t["rest"] = fn_rest;
  t["initial"] = fn_initial;
  t["has"] = fn_has;
  t["uniq"] = fn_uniq;
  t["without"] = fn_without;
  t["compact"] = fn_compact;
  t["concat"] = fn_concat;
  t["reverse"] = fn_reverse;
  t["sortAlpha"] = fn_sort_alpha;
  t["until"] = fn_until;
  t["dict"] = fn_dict;
  t["get"] = fn_get;
  t["set"] = fn_set;
  t["unset"] = fn_unset;
  t["hasKey"] = fn_has_key;
  t["keys"] = fn_keys;
  t["values"] = fn_values;
  t["pick"] = fn_pick;
  t["omit"] = fn_omit;
  t["pluck"] = fn_pluck;
  t["merge"] = fn_merge;
  t["mustMerge"] = fn_merge;
  t["mergeOverwrite"] = fn_merge_overwrite;
  t["mustMergeOverwrite"] = fn_merge_overwrite;
  t["deepCopy"] = fn_deep_copy;
  t["dig"] = fn_dig;
  t["default"] = fn_default;
  t["empty"] = fn_empty;
  t["coalesce"] = fn_coalesce;
  t["ternary"] = fn_ternary;
  t["all"] = fn_all;
  t["any"] = fn_any;
}

}  // namespace sbr::render::helm
