// Go's text/template builtins: not, len, index, slice, print*, comparisons, html, js, urlquery.
#include <fmt/format.h>

#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

void arity(const std::vector<Value>& args, std::size_t min, std::size_t max, const char* name,
           const Location& at) {
  if (args.size() < min || args.size() > max)
    throw RenderError(
        fmt::format("wrong number of args for {}: want {} got {}", name,
                    min == max ? std::to_string(min) : fmt::format("{}-{}", min, max), args.size()),
        at);
}

std::string text_of(const Value& v) {
  return print_value(v);
}

std::int64_t int_of(const Value& v) {
  std::int64_t out = 0;
  if (v.kind == Kind::String) {
    double d = as_float(v);
    return as_int(v, out) ? out : static_cast<std::int64_t>(d);
  }
  as_int(v, out);
  return out;
}

const FunctionTable& functions() {
  static const FunctionTable table = [] {
    FunctionTable t;
    add_builtin_functions(t);
    add_string_functions(t);
    add_list_functions(t);
    add_helm_functions(t);
    add_misc_functions(t);
    add_float_functions(t);
    add_text_functions(t);
    add_date_functions(t);
    add_crypto_functions(t);
    add_encoding_functions(t);
    add_url_functions(t);
    add_reflect_functions(t);
    add_path_functions(t);  // last: it names the must* forms of the others
    return t;
  }();
  return table;
}

namespace {

Value fn_not(Exec&, std::vector<Value>& a, const Location& at) {
  arity(a, 1, 1, "not", at);
  return Value::boolean(!truthy(a[0]));
}

Value fn_len(Exec&, std::vector<Value>& a, const Location& at) {
  arity(a, 1, 1, "len", at);
  const Value& v = a[0];
  if (v.is_string()) return Value::integer(static_cast<std::int64_t>(v.s.size()));
  if (v.is_list()) return Value::integer(static_cast<std::int64_t>(v.list->size()));
  if (v.is_map()) {
    std::int64_t n = 0;
    for (const auto& e : *v.map) n += e.second.kind != Kind::Method;  // .Files' methods
    return Value::integer(n);
  }
  throw RenderError("error calling len: len of type " + type_name(v), at);
}

Value fn_index(Exec&, std::vector<Value>& a, const Location& at) {
  if (a.empty()) throw RenderError("wrong number of args for index: want at least 1 got 0", at);
  Value v = a[0];
  for (std::size_t k = 1; k < a.size(); ++k) {
    if (v.is_map()) {
      if (!a[k].is_string())
        throw RenderError("error calling index: cannot index map with " + type_name(a[k]), at);
      auto found = v.map->find(a[k].s);
      v = found == v.map->end() ? Value{} : found->second;
    } else if (v.is_list() || v.is_string()) {
      std::int64_t i = 0;
      if (a[k].kind != Kind::Int && a[k].kind != Kind::Float)
        throw RenderError(
            "error calling index: cannot index slice/array with type " + type_name(a[k]), at);
      as_int(a[k], i);
      std::size_t size = v.is_list() ? v.list->size() : v.s.size();
      if (i < 0 || static_cast<std::size_t>(i) >= size)
        throw RenderError(fmt::format("error calling index: index out of range: {}", i), at);
      v = v.is_list() ? (*v.list)[i] : Value::integer(static_cast<unsigned char>(v.s[i]));
    } else if (v.is_nil()) {
      throw RenderError("error calling index: index of untyped nil", at);
    } else {
      throw RenderError("error calling index: can't index item of type " + type_name(v), at);
    }
  }
  return v;
}

// Go's fmt.Sprint: a space between operands when neither is a string.
std::string sprint(const std::vector<Value>& a, bool spaces_always) {
  std::string out;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (k > 0 && (spaces_always || (!a[k].is_string() && !a[k - 1].is_string()))) out += ' ';
    out += a[k].is_nil() ? "<nil>" : print_value(a[k]);
  }
  return out;
}

Value fn_print(Exec&, std::vector<Value>& a, const Location&) {
  return Value::string(sprint(a, false));
}
Value fn_println(Exec&, std::vector<Value>& a, const Location&) {
  return Value::string(sprint(a, true) + "\n");
}
Value fn_printf(Exec&, std::vector<Value>& a, const Location& at) {
  if (a.empty() || !a[0].is_string()) throw RenderError("printf needs a format string", at);
  try {
    return Value::string(go_sprintf(a[0].s, a, 1));
  } catch (const RenderError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw RenderError(e.what(), at);
  }
}

int compare(const Value& x, const Value& y, const char* name, const Location& at) {
  if (x.kind == Kind::String && y.kind == Kind::String) return x.s < y.s ? -1 : x.s > y.s ? 1 : 0;
  if (x.kind == y.kind && (x.kind == Kind::Int || x.kind == Kind::Float)) {
    double a = as_float(x), b = as_float(y);
    if (x.kind == Kind::Int) return x.i < y.i ? -1 : x.i > y.i ? 1 : 0;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  throw RenderError(fmt::format("error calling {}: incompatible types for comparison", name), at);
}

Value fn_eq(Exec& exec, std::vector<Value>& a, const Location& at) {
  if (a.size() < 2) throw RenderError("wrong number of args for eq: want at least 2", at);
  for (std::size_t k = 1; k < a.size(); ++k) exec.note_comparison(a[0], a[k]);
  for (std::size_t k = 1; k < a.size(); ++k) {
    bool comparable = true;
    if (basic_equal(a[0], a[k], comparable)) return Value::boolean(true);
    if (!comparable) throw RenderError("error calling eq: incompatible types for comparison", at);
  }
  return Value::boolean(false);
}

Value fn_ne(Exec& exec, std::vector<Value>& a, const Location& at) {
  arity(a, 2, 2, "ne", at);
  exec.note_comparison(a[0], a[1]);
  bool comparable = true;
  bool eq = basic_equal(a[0], a[1], comparable);
  if (!comparable) throw RenderError("error calling ne: incompatible types for comparison", at);
  return Value::boolean(!eq);
}

Value fn_lt(Exec&, std::vector<Value>& a, const Location& at) {
  arity(a, 2, 2, "lt", at);
  return Value::boolean(compare(a[0], a[1], "lt", at) < 0);
}
Value fn_le(Exec&, std::vector<Value>& a, const Location& at) {
  arity(a, 2, 2, "le", at);
  return Value::boolean(compare(a[0], a[1], "le", at) <= 0);
}
Value fn_gt(Exec&, std::vector<Value>& a, const Location& at) {
  arity(a, 2, 2, "gt", at);
  return Value::boolean(compare(a[0], a[1], "gt", at) > 0);
}
Value fn_ge(Exec&, std::vector<Value>& a, const Location& at) {
  arity(a, 2, 2, "ge", at);
  return Value::boolean(compare(a[0], a[1], "ge", at) >= 0);
}

Value fn_html(Exec&, std::vector<Value>& a, const Location&) {
  std::string out;
  for (char c : sprint(a, false)) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&#34;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\0':
        out += "\uFFFD";
        break;
      default:
        out += c;
    }
  }
  return Value::string(out);
}

Value fn_js(Exec&, std::vector<Value>& a, const Location&) {
  std::string out;
  for (char c : sprint(a, false)) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '"':
        out += "\\\"";
        break;
      case '<':
        out += "\\u003C";
        break;
      case '>':
        out += "\\u003E";
        break;
      case '&':
        out += "\\u0026";
        break;
      case '=':
        out += "\\u003D";
        break;
      case '\n':
        out += "\\u000A";
        break;
      default:
        out += c;
    }
  }
  return Value::string(out);
}

Value fn_urlquery(Exec&, std::vector<Value>& a, const Location&) {
  std::string out;
  for (unsigned char c : sprint(a, false)) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else if (c == ' ')
      out += '+';
    else
      out += fmt::format("%{:02X}", c);
  }
  return Value::string(out);
}

}  // namespace

void add_builtin_functions(FunctionTable& t) {
  t["not"] = fn_not;
  t["len"] = fn_len;
  t["index"] = fn_index;
  // `slice` is sprig's, which helm's function map puts over Go's builtin (funcs_reflect.cpp).
  t["print"] = fn_print;
  t["println"] = fn_println;
  t["printf"] = fn_printf;
  t["eq"] = fn_eq;
  t["ne"] = fn_ne;
  t["lt"] = fn_lt;
  t["le"] = fn_le;
  t["gt"] = fn_gt;
  t["ge"] = fn_ge;
  t["html"] = fn_html;
  t["js"] = fn_js;
  t["urlquery"] = fn_urlquery;
}

}  // namespace sbr::render::helm
