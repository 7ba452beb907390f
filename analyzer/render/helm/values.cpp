// Value precedence as Helm's chartutil: chart defaults, then values files, then --set; a
// subchart sees its parent's `values[name]` over its own defaults, and `global` from above.
#include <fmt/format.h>

#include <charconv>

#include "analyzer/render/helm/chart.h"

namespace sbr::render::helm {

namespace {

constexpr int kMaxValuesDepth = 100;

Value* member(Value& m, const std::string& key) {
  if (!m.is_map()) return nullptr;
  auto f = m.map->find(key);
  return f == m.map->end() ? nullptr : &f->second;
}

// Helm's --set typing: true/false, null, 64-bit integers; anything else is a string.
Value typed(const std::string& text, bool as_string) {
  if (as_string) return Value::string(text);
  if (text == "true" || text == "false") return Value::boolean(text == "true");
  if (text == "null") return Value{};
  std::int64_t i = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
  if (!text.empty() && ec == std::errc() && p == text.data() + text.size() &&
      (text == "0" || text[0] != '0'))
    return Value::integer(i);
  return Value::string(text);
}

// Splits at unescaped `sep`, dropping the backslash of `\sep`.
std::vector<std::string> split_escaped(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (s[k] == '\\' && k + 1 < s.size() &&
        (s[k + 1] == sep || s[k + 1] == '\\' || s[k + 1] == '.')) {
      out.back() += '\\';
      out.back() += s[++k];
    } else if (s[k] == sep) {
      out.emplace_back();
    } else {
      out.back() += s[k];
    }
  }
  return out;
}

struct PathPart {
  std::string key;
  long index = -1;  // `[i]` after the key
};

std::vector<PathPart> parse_path(const std::string& path, std::string& error) {
  std::vector<PathPart> parts;
  std::string cur;
  for (std::size_t k = 0; k < path.size(); ++k) {
    char c = path[k];
    if (c == '\\' && k + 1 < path.size()) {
      cur += path[++k];
    } else if (c == '.') {
      parts.push_back({cur});
      cur.clear();
    } else if (c == '[') {
      std::size_t close = path.find(']', k);
      if (close == std::string::npos) {
        error = "unterminated [ in " + path;
        return {};
      }
      long idx = -1;
      auto [p, ec] = std::from_chars(path.data() + k + 1, path.data() + close, idx);
      if (ec != std::errc() || idx < 0 || idx > 65535) {
        error = "bad list index in " + path;
        return {};
      }
      parts.push_back({cur, idx});
      cur.clear();
      k = close;
      if (k + 1 < path.size() && path[k + 1] == '.') ++k;
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) parts.push_back({cur});
  return parts;
}

void set_path(Value& root, const std::vector<PathPart>& parts, const Value& v) {
  Value* at = &root;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    bool last = k + 1 == parts.size();
    if (!at->is_map()) *at = Value::new_map();
    Value& slot = (*at->map)[parts[k].key];
    if (parts[k].index < 0) {
      if (last) slot = v;
      at = &slot;
      continue;
    }
    if (!slot.is_list()) slot = Value::new_list();
    auto idx = static_cast<std::size_t>(parts[k].index);
    if (slot.list->size() <= idx) slot.list->resize(idx + 1);
    if (last) (*slot.list)[idx] = v;
    at = &(*slot.list)[idx];
  }
}

}  // namespace

const Value* find_path(const Value& root, const std::string& path) {
  std::string error;
  std::vector<PathPart> parts = parse_path(path, error);
  if (parts.empty()) return nullptr;
  const Value* at = &root;
  for (const PathPart& p : parts) {
    if (!at->is_map()) return nullptr;
    auto f = at->map->find(p.key);
    if (f == at->map->end()) return nullptr;
    at = &f->second;
    if (p.index < 0) continue;
    if (!at->is_list() || static_cast<std::size_t>(p.index) >= at->list->size()) return nullptr;
    at = &(*at->list)[static_cast<std::size_t>(p.index)];
  }
  return at;
}

bool set_path(Value& root, const std::string& path, const Value& v) {
  std::string error;
  std::vector<PathPart> parts = parse_path(path, error);
  if (parts.empty()) return false;
  set_path(root, parts, v);
  return true;
}

// Removes the nil entries of `v`'s maps, at every depth (helm's cleanNilValues; lists are
// left as they are).
static void drop_default_nils(Value& v, int depth = 0) {
  if (!v.is_map() || depth > kMaxValuesDepth) return;
  for (auto it = v.map->begin(); it != v.map->end();) {
    if (it->second.is_nil()) {
      it = v.map->erase(it);
    } else {
      drop_default_nils(it->second, depth + 1);
      ++it;
    }
  }
}

void coalesce_values(Value& over, const Value& defaults, int depth) {
  if (depth > kMaxValuesDepth || !over.is_map() || !defaults.is_map()) return;
  for (const auto& entry : *defaults.map) {
    Value* mine = member(over, entry.first);
    if (!mine) {
      // A chart's null default is no value at all (helm v4 skips it and cleans the nulls of a
      // default table, so that `hasKey` does not see them nor printf print %!s(<nil>)).
      if (entry.second.is_nil()) continue;
      Value copy = deep_copy(entry.second);
      drop_default_nils(copy);
      over.map->emplace(entry.first, std::move(copy));
    } else if (mine->is_map() && entry.second.is_map()) {
      coalesce_values(*mine, entry.second, depth + 1);
    }
  }
  // A null from the user deletes the chart's default (helm's "remove a default" idiom).
  for (auto it = over.map->begin(); it != over.map->end();) {
    auto d = defaults.map->find(it->first);
    bool removes = it->second.is_nil() && d != defaults.map->end() && !d->second.is_nil();
    it = removes ? over.map->erase(it) : std::next(it);
  }
}

bool apply_set(Value& values, const std::string& arg, bool as_string, std::string& error) {
  for (const std::string& pair : split_escaped(arg, ',')) {
    if (pair.empty()) continue;
    auto eq = pair.find('=');
    if (eq == std::string::npos) {
      error = fmt::format("--helm-set {}: expected key=value", pair);
      return false;
    }
    auto parts = parse_path(pair.substr(0, eq), error);
    if (parts.empty()) {
      if (error.empty()) error = fmt::format("--helm-set {}: empty key", pair);
      return false;
    }
    std::string text;
    for (std::size_t k = eq + 1; k < pair.size(); ++k) {
      if (pair[k] == '\\' && k + 1 < pair.size()) ++k;
      text += pair[k];
    }
    Value v = typed(text, as_string);
    v.path = pair.substr(0, eq);
    set_path(values, parts, v);
  }
  return true;
}

namespace {

bool path_bool(const Value& top, const std::string& path, bool& out) {
  const Value* v = &top;
  std::size_t k = 0;
  while (v && k <= path.size()) {
    std::size_t dot = path.find('.', k);
    std::string key = path.substr(k, dot == std::string::npos ? std::string::npos : dot - k);
    v = v->is_map() ? (v->map->count(key) ? &v->map->at(key) : nullptr) : nullptr;
    if (dot == std::string::npos) break;
    k = dot + 1;
  }
  if (!v || v->kind != Kind::Bool) return false;
  out = v->b;
  return true;
}

// Helm's rule: the first condition path that resolves to a bool decides; else any tag that
// is set decides (true if one is true); else the dependency is enabled.
bool dependency_enabled(const Dependency& d, const Value& top) {
  std::size_t k = 0;
  while (k <= d.condition.size() && !d.condition.empty()) {
    std::size_t comma = d.condition.find(',', k);
    std::string path =
        d.condition.substr(k, comma == std::string::npos ? std::string::npos : comma - k);
    while (!path.empty() && path.front() == ' ') path.erase(0, 1);
    while (!path.empty() && path.back() == ' ') path.pop_back();
    bool on = false;
    if (path_bool(top, path, on)) return on;
    if (comma == std::string::npos) break;
    k = comma + 1;
  }
  bool any_set = false;
  for (const std::string& tag : d.tags) {
    bool on = false;
    if (path_bool(top, "tags." + tag, on)) {
      if (on) return true;
      any_set = true;
    }
  }
  return !any_set;
}

}  // namespace

namespace {

// Helm's pathToMap: `data` under the dotted `path` ("." is the top).
Value path_to_map(const std::string& path, const Value& data) {
  if (path == ".") return data;
  Value out = data;
  std::size_t end = path.size();
  while (true) {
    std::size_t dot = path.rfind('.', end - 1);
    std::size_t from = dot == std::string::npos ? 0 : dot + 1;
    out = Value::new_map({{path.substr(from, end - from), out}});
    if (dot == std::string::npos || dot == 0) break;
    end = dot;
  }
  return out;
}

}  // namespace

void import_values(Chart& chart, int depth) {
  if (depth > kMaxValuesDepth) return;
  for (Chart& sub : chart.subcharts) import_values(sub, depth + 1);
  bool any = false;
  for (const Dependency& d : chart.dependencies) any = any || !d.imports.empty();
  if (!any) return;
  // The parent's defaults with each subchart's under its name (alias), as CoalesceValues.
  Value cvals = deep_copy(chart.values);
  for (const Chart& sub : chart.subcharts) {
    std::string key = sub.name;
    for (const Dependency& d : chart.dependencies) {
      if (d.name == sub.name && !d.alias.empty()) key = d.alias;
    }
    Value& slot = (*cvals.map)[key];
    if (!slot.is_map()) slot = Value::new_map();
    coalesce_values(slot, sub.values);
  }
  Value imported = Value::new_map();
  for (const Dependency& d : chart.dependencies) {
    for (const auto& [child, parent] : d.imports) {
      // Helm looks the table up by the dependency's name, alias or not.
      const Value* table = find_path(cvals, d.name + "." + child);
      if (!table || !table->is_map()) continue;  // Helm warns and goes on
      coalesce_values(imported, path_to_map(parent, deep_copy(*table)));
    }
  }
  coalesce_values(cvals, imported);
  chart.values = cvals;
}

void scope_subcharts(Chart& chart, const Value& values, const Value& top, int depth) {
  if (depth > kMaxValuesDepth) return;
  const Value* global =
      values.is_map() && values.map->count("global") ? &values.map->at("global") : nullptr;
  for (Chart& sub : chart.subcharts) {
    const Dependency* dep = nullptr;
    for (const Dependency& d : chart.dependencies) {
      if (d.name == sub.name) dep = &d;
    }
    if (dep && !dep->alias.empty()) {
      sub.name = dep->alias;
      (*sub.metadata.map)["Name"] = Value::string(dep->alias);
    }
    sub.enabled = !dep || dependency_enabled(*dep, top);
    Value scoped = values.is_map() && values.map->count(sub.name)
                       ? deep_copy(values.map->at(sub.name))
                       : Value::new_map();
    if (!scoped.is_map()) scoped = Value::new_map();
    coalesce_values(scoped, sub.values);
    if (global) {
      Value g = deep_copy(*global);
      if (scoped.map->count("global")) coalesce_values(g, scoped.map->at("global"));
      (*scoped.map)["global"] = g;
    }
    sub.values = scoped;
    if (values.is_map()) (*values.map)[sub.name] = scoped;  // the parent reads .Values.sub too
    scope_subcharts(sub, sub.values, top, depth + 1);
  }
}

}  // namespace sbr::render::helm
