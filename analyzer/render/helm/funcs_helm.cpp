// Helm's own functions: include, tpl, required, fail, the YAML, JSON and TOML codecs, lookup.
#include <fmt/format.h>

#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

Value fn_include(Exec& ex, Args& a, const Location& at) {
  arity(a, 1, 2, "include", at);
  if (!a[0].is_string()) throw RenderError("include: template name must be a string", at);
  Output out = ex.call_named(a[0].s, a.size() > 1 ? a[1] : Value{}, at);
  return output_value(out);
}

Value fn_tpl(Exec& ex, Args& a, const Location& at) {
  arity(a, 2, 2, "tpl", at);
  Output out = ex.run_text(text_of(a[0]), a[1], at);
  Value v = output_value(out);
  inherit_origin(v, a[0]);
  return v;
}

Value fn_required(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "required", at);
  const Value& v = a[1];
  if (v.is_nil() || (v.is_string() && v.s.empty())) {
    throw RenderError(text_of(a[0]), at, Cause::Repository);
  }
  return v;
}

Value fn_fail(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "fail", at);
  throw RenderError(text_of(a[0]), at, Cause::Repository);
}

Value yaml_text(const Value& v) {
  auto lines = std::make_shared<LineOrigins>();
  std::string s = to_yaml(v, lines.get());
  if (!s.empty() && s.back() == '\n') s.pop_back();
  Value r = Value::string(s);
  if (!lines->empty()) r.lines = lines;
  r.from = v.from;
  r.path = v.path;
  return r;
}

Value fn_to_yaml(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "toYaml", at);
  try {
    return yaml_text(a[0]);
  } catch (const std::runtime_error& e) {
    throw RenderError(e.what(), at);
  }
}

// fromYaml's text read within the budgets: the nodes it expands into are charged to the
// template, and a text past kMaxValueNodes stops it (helm would read it, slowly, whole).
bool read_yaml(Exec& ex, const Args& a, const char* name, const Location& at, Value& out,
               std::string& error) {
  bool budget_hit = false;
  bool ok = parse_yaml_value(text_of(a[0]), kNoFile, "", out, error, false, &budget_hit);
  if (budget_hit) throw RenderError(fmt::format("{}: {}", name, error), at);
  if (ok) ex.charge(count_nodes(out) * kElementBytes, name, at);
  return ok;
}

// encoding/json's name for the kind of JSON value a Go map or slice cannot hold.
const char* json_kind(const Value& v) {
  switch (v.kind) {
    case Kind::List:
      return "array";
    case Kind::Map:
      return "object";
    case Kind::String:
      return "string";
    case Kind::Int:
    case Kind::Float:
      return "number";
    case Kind::Bool:
      return "bool";
    default:
      return "null";
  }
}

// sigs.k8s.io/yaml's Unmarshal converts to JSON first; its errors carry this prefix.
constexpr const char* kYamlJsonError = "error unmarshaling JSON: while decoding JSON: ";

// Helm unmarshals into a map[string]interface{} or a []interface{}: a document of another
// kind is json's type error, which fromYaml/fromJson return as {"Error": message} and the
// Array forms as the one-element list [message]. A null document is an empty result.
Value as_map(const Value& v, const std::string& prefix) {
  if (v.is_map()) return v;
  if (v.is_nil()) return Value::new_map();
  return Value::new_map(
      {{"Error", Value::string(fmt::format("{}json: cannot unmarshal {} into Go value of type "
                                           "map[string]interface {{}}",
                                           prefix, json_kind(v)))}});
}

Value as_list(const Value& v, const std::string& prefix) {
  if (v.is_list()) return v;
  if (v.is_nil()) return Value::new_list();
  return Value::new_list({Value::string(
      fmt::format("{}json: cannot unmarshal {} into Go value of type []interface {{}}", prefix,
                  json_kind(v)))});
}

// Helm's fromYaml turns a parse error into {"Error": message}.
Value fn_from_yaml(Exec& ex, Args& a, const Location& at) {
  arity(a, 1, 1, "fromYaml", at);
  Value out;
  std::string error;
  if (!read_yaml(ex, a, "fromYaml", at, out, error))
    return Value::new_map({{"Error", Value::string(error)}});
  return as_map(out, kYamlJsonError);
}

Value fn_from_yaml_array(Exec& ex, Args& a, const Location& at) {
  arity(a, 1, 1, "fromYamlArray", at);
  Value out;
  std::string error;
  if (!read_yaml(ex, a, "fromYamlArray", at, out, error))
    return Value::new_list({Value::string(error)});
  return as_list(out, kYamlJsonError);
}

Value fn_to_json(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "toJson", at);
  try {
    return Value::string(to_json(a[0]));
  } catch (const std::runtime_error& e) {
    throw RenderError(e.what(), at);
  }
}

Value fn_to_toml(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "toToml", at);
  return Value::string(to_toml(a[0]));
}

Value fn_from_json(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "fromJson", at);
  Value out;
  std::string error;
  if (!parse_json_value(text_of(a[0]), out, error))
    return Value::new_map({{"Error", Value::string(error)}});
  return as_map(out, "");
}

Value fn_from_json_array(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "fromJsonArray", at);
  Value out;
  std::string error;
  if (!parse_json_value(text_of(a[0]), out, error)) return Value::new_list({Value::string(error)});
  return as_list(out, "");
}

// Helm's fromToml turns a parse error into {"Error": message}, as fromYaml.
Value fn_from_toml(Exec& ex, Args& a, const Location& at) {
  arity(a, 1, 1, "fromToml", at);
  Value out;
  std::string error;
  if (!parse_toml_value(text_of(a[0]), out, error))
    return Value::new_map({{"Error", Value::string(error)}});
  ex.charge(count_nodes(out) * kElementBytes, "fromToml", at);
  return out;
}

// BurntSushi's encoder error comes back as text from to_toml: mustToToml stops with it.
Value fn_must_to_toml(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "mustToToml", at);
  std::string out = to_toml(a[0]);
  if (out.rfind("toml: ", 0) == 0) throw RenderError("error calling mustToToml: " + out, at);
  return Value::string(out);
}

Value fn_to_yaml_pretty(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "toYamlPretty", at);
  try {
    std::string s = to_yaml_pretty(a[0]);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return Value::string(s);
  } catch (const std::runtime_error& e) {
    throw RenderError(e.what(), at);
  }
}

// `helm template` has no cluster: lookup returns an empty map.
Value fn_lookup(Exec&, Args& a, const Location& at) {
  arity(a, 4, 4, "lookup", at);
  return Value::new_map();
}

}  // namespace

void add_helm_functions(FunctionTable& t) {
  t["include"] = fn_include;
  t["tpl"] = fn_tpl;
  t["required"] = fn_required;
  t["fail"] = fn_fail;
  t["toYaml"] = fn_to_yaml;
  t["mustToYaml"] = fn_to_yaml;
  t["fromYaml"] = fn_from_yaml;
  t["fromYamlArray"] = fn_from_yaml_array;
  t["toJson"] = fn_to_json;
  t["mustToJson"] = fn_to_json;
  t["toToml"] = fn_to_toml;
  t["mustToToml"] = fn_must_to_toml;
  t["fromToml"] = fn_from_toml;
  t["toYamlPretty"] = fn_to_yaml_pretty;
  t["fromJson"] = fn_from_json;
  t["fromJsonArray"] = fn_from_json_array;
  t["lookup"] = fn_lookup;
}

}  // namespace sbr::render::helm
