// Sprig's string functions. The ones that keep a string's lines (indent, nindent, trim, quote)
// keep its line origins, so `toYaml .Values.x | nindent 8` still maps each line to values.
#include <re2/re2.h>

#include <algorithm>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/go_regexp.h"

namespace sbr::render::helm {

std::string go_quote(const std::string& s);

// A pattern compiled once per thread; a pattern RE2 refuses stops the template.
const RE2& regex_of(const std::string& pattern, const Location& at) {
  thread_local std::map<std::string, std::unique_ptr<RE2>> cache;
  auto& slot = cache[pattern];
  if (!slot) {
    slot = std::make_unique<RE2>(pattern, RE2::Quiet);
    if (!slot->ok()) {
      std::string err = slot->error();
      cache.erase(pattern);
      throw RenderError("error parsing regexp: " + err, at);
    }
  }
  return *slot;
}

namespace {

using Args = std::vector<Value>;

// `result` derived from `src` with its lines moved down by `shift`.
Value derived(const Value& src, std::string result, std::uint32_t shift = 0) {
  Value v = Value::string(std::move(result));
  v.from = src.from;
  v.path = src.path;
  if (src.lines) {
    auto lines = std::make_shared<LineOrigins>(*src.lines);
    for (LineOrigin& lo : *lines) lo.line += shift;
    v.lines = lines;
  }
  return v;
}

// `n` spaces before every line of `s`, as sprig's indent; the size is charged before it is built.
std::string indent_text(Exec& ex, const std::string& s, std::int64_t n, const Location& at) {
  const auto width = static_cast<std::uint64_t>(std::max<std::int64_t>(n, 0));
  const std::uint64_t lines = 1 + static_cast<std::uint64_t>(std::count(s.begin(), s.end(), '\n'));
  ex.charge(s.size() + std::min<std::uint64_t>(width, kMaxValueBytes + 1) * lines, "indent", at);
  std::string pad(static_cast<std::size_t>(width), ' ');
  std::string out = pad;
  for (char c : s) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

Value fn_indent(Exec& ex, Args& a, const Location& at) {
  arity(a, 2, 2, "indent", at);
  return derived(a[1], indent_text(ex, text_of(a[1]), int_of(a[0]), at));
}

Value fn_nindent(Exec& ex, Args& a, const Location& at) {
  arity(a, 2, 2, "nindent", at);
  return derived(a[1], "\n" + indent_text(ex, text_of(a[1]), int_of(a[0]), at), 1);
}

// Go's unicode.IsSpace over ASCII, as strings.TrimSpace reads it.
bool is_go_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

Value fn_trim(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "trim", at);
  std::string s = text_of(a[0]);
  std::size_t b = 0, e = s.size();
  while (b < e && is_go_space(s[b])) ++b;
  while (e > b && is_go_space(s[e - 1])) --e;
  auto shift = static_cast<std::uint32_t>(
      std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(b), '\n'));
  Value v = derived(a[0], s.substr(b, e - b));
  if (v.lines && shift) {
    auto lines = std::make_shared<LineOrigins>();
    for (const LineOrigin& lo : *v.lines) {
      if (lo.line >= shift) lines->push_back({lo.line - shift, lo.at, lo.values, lo.note});
    }
    v.lines = lines;
  }
  return v;
}

Value fn_trim_all(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "trimAll", at);
  std::string cut = text_of(a[0]), s = text_of(a[1]);
  std::size_t b = s.find_first_not_of(cut);
  if (b == std::string::npos) return derived(a[1], "");
  std::size_t e = s.find_last_not_of(cut);
  return derived(a[1], s.substr(b, e - b + 1));
}

Value fn_trim_suffix(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "trimSuffix", at);
  std::string suf = text_of(a[0]), s = text_of(a[1]);
  if (s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0)
    s.resize(s.size() - suf.size());
  return derived(a[1], s);
}

Value fn_trim_prefix(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "trimPrefix", at);
  std::string pre = text_of(a[0]), s = text_of(a[1]);
  if (s.rfind(pre, 0) == 0) s = s.substr(pre.size());
  return derived(a[1], s);
}

Value fn_quote(Exec&, Args& a, const Location&) {
  std::string out;
  for (const Value& v : a) {
    if (v.is_nil()) continue;
    out += (out.empty() ? "" : " ") + go_quote(text_of(v));
  }
  return a.size() == 1 ? derived(a[0], out) : Value::string(out);
}

Value fn_squote(Exec&, Args& a, const Location&) {
  std::string out;
  for (const Value& v : a) {
    if (v.is_nil()) continue;
    out += (out.empty() ? "" : " ") + ("'" + text_of(v) + "'");
  }
  return a.size() == 1 ? derived(a[0], out) : Value::string(out);
}

// Sprig's trunc counts bytes; a negative length keeps the end.
Value fn_trunc(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "trunc", at);
  std::int64_t n = int_of(a[0]);
  std::string s = text_of(a[1]);
  auto size = static_cast<std::int64_t>(s.size());
  if (n < 0 && -n < size) return derived(a[1], s.substr(size + n));
  if (n >= 0 && n < size) return derived(a[1], s.substr(0, n));
  return derived(a[1], s);
}

Value fn_contains(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "contains", at);
  return Value::boolean(text_of(a[1]).find(text_of(a[0])) != std::string::npos);
}

Value fn_has_prefix(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "hasPrefix", at);
  return Value::boolean(text_of(a[1]).rfind(text_of(a[0]), 0) == 0);
}

Value fn_has_suffix(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "hasSuffix", at);
  std::string suf = text_of(a[0]), s = text_of(a[1]);
  return Value::boolean(s.size() >= suf.size() &&
                        s.compare(s.size() - suf.size(), suf.size(), suf) == 0);
}

Value map_chars(const Value& v, int (*f)(int)) {
  std::string s = text_of(v);
  for (char& c : s) c = static_cast<char>(f(static_cast<unsigned char>(c)));
  return derived(v, s);
}

Value fn_upper(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "upper", at);
  return map_chars(a[0], [](int c) { return std::toupper(c); });
}

Value fn_lower(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "lower", at);
  return map_chars(a[0], [](int c) { return std::tolower(c); });
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  std::string out;
  std::size_t k = 0;
  for (std::size_t f; (f = s.find(from, k)) != std::string::npos; k = f + from.size())
    out += s.substr(k, f - k) + to;
  return out + s.substr(k);
}

Value fn_replace(Exec& ex, Args& a, const Location& at) {
  arity(a, 3, 3, "replace", at);
  const std::string s = text_of(a[2]), old = text_of(a[0]), with = text_of(a[1]);
  // Go's ReplaceAll inserts `with` between every character when `old` is empty.
  std::uint64_t matches = 0;
  if (old.empty()) {
    matches = s.size() + 1;
  } else {
    for (std::size_t k = s.find(old); k != std::string::npos; k = s.find(old, k + old.size()))
      ++matches;
  }
  if (with.size() > old.size())
    ex.charge(s.size() + matches * (with.size() - old.size()), "replace", at);
  return derived(a[2], replace_all(s, old, with));
}

std::vector<std::string> split_text(const std::string& s, const std::string& sep) {
  std::vector<std::string> parts;
  if (sep.empty()) {
    for (char c : s) parts.emplace_back(1, c);
    return parts;
  }
  std::size_t k = 0;
  for (std::size_t f; (f = s.find(sep, k)) != std::string::npos; k = f + sep.size())
    parts.push_back(s.substr(k, f - k));
  parts.push_back(s.substr(k));
  return parts;
}

Value fn_split_list(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "splitList", at);
  List out;
  for (auto& p : split_text(text_of(a[1]), text_of(a[0]))) out.push_back(Value::string(p));
  return Value::new_list(std::move(out));
}

Value fn_split(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "split", at);
  Map out;
  auto parts = split_text(text_of(a[1]), text_of(a[0]));
  for (std::size_t k = 0; k < parts.size(); ++k)
    out["_" + std::to_string(k)] = Value::string(parts[k]);
  return Value::new_map(std::move(out));
}

Value fn_join(Exec& ex, Args& a, const Location& at) {
  arity(a, 2, 2, "join", at);
  std::string sep = text_of(a[0]), out;
  if (a[1].is_list()) {
    ex.charge(sep.size() * a[1].list->size(), "join", at);
    bool first = true;
    for (const Value& v : *a[1].list) {
      if (v.is_nil()) continue;  // sprig's strslice leaves nil out
      out += (first ? "" : sep) + text_of(v);
      first = false;
    }
    return Value::string(out);
  }
  return Value::string(text_of(a[1]));
}

Value fn_repeat(Exec& ex, Args& a, const Location& at) {
  arity(a, 2, 2, "repeat", at);
  std::string s = text_of(a[1]), out;
  const auto n = static_cast<std::uint64_t>(std::max<std::int64_t>(int_of(a[0]), 0));
  ex.charge(s.empty() ? 0 : std::min<std::uint64_t>(n, kMaxValueBytes + 1) * s.size(), "repeat",
            at);
  out.reserve(n * s.size());
  for (std::uint64_t k = 0; k < n && !s.empty(); ++k) out += s;
  return Value::string(out);
}

Value fn_substr(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "substr", at);
  std::string s = text_of(a[2]);
  std::int64_t b = int_of(a[0]), e = int_of(a[1]);
  auto size = static_cast<std::int64_t>(s.size());
  if (b < 0)
    return Value::string(
        s.substr(0, static_cast<std::size_t>(std::clamp<std::int64_t>(e, 0, size))));
  if (e < 0 || e > size)
    return Value::string(s.substr(static_cast<std::size_t>(std::min(b, size))));
  if (b > e) return Value::string("");
  return Value::string(s.substr(b, e - b));
}

Value fn_to_string(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "toString", at);
  return derived(a[0], text_of(a[0]));
}

Value fn_cat(Exec&, Args& a, const Location&) {
  std::string out;
  for (const Value& v : a) {
    if (v.is_nil()) continue;
    out += (out.empty() ? "" : " ") + text_of(v);
  }
  return Value::string(out);
}

Value fn_nospace(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "nospace", at);
  std::string s = text_of(a[0]);
  s.erase(std::remove_if(s.begin(), s.end(), is_go_space), s.end());
  return Value::string(s);
}

Value fn_regex_match(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "regexMatch", at);
  return Value::boolean(RE2::PartialMatch(text_of(a[1]), regex_of(text_of(a[0]), at)));
}

Value fn_regex_find(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "regexFind", at);
  re2::StringPiece match;
  std::string s = text_of(a[1]);
  const RE2& re = regex_of(text_of(a[0]), at);
  if (!re.Match(s, 0, s.size(), RE2::UNANCHORED, &match, 1)) return Value::string("");
  return Value::string(std::string(match));
}

// sprig's regexReplaceAll is Go's ReplaceAllString: `$1W` names a group "1W" (there is none:
// empty), `${1}W` is group 1 then W, `$$` a dollar.
Value fn_regex_replace_all(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "regexReplaceAll", at);
  return Value::string(
      go_replace_all(regex_of(text_of(a[0]), at), text_of(a[1]), text_of(a[2]), false));
}

Value fn_regex_replace_literal(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "regexReplaceAllLiteral", at);
  return Value::string(
      go_replace_all(regex_of(text_of(a[0]), at), text_of(a[1]), text_of(a[2]), true));
}

// Go's Split: n == 0 is no pieces, an empty match splits between characters.
Value fn_regex_split(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "regexSplit", at);
  List out;
  for (std::string& piece : go_split(regex_of(text_of(a[0]), at), text_of(a[1]), int_of(a[2])))
    out.push_back(Value::string(std::move(piece)));
  return Value::new_list(std::move(out));
}

}  // namespace

void add_string_functions(FunctionTable& t) {
  t["indent"] = fn_indent;
  t["nindent"] = fn_nindent;
  t["trim"] = fn_trim;
  t["trimAll"] = fn_trim_all;
  t["trimSuffix"] = fn_trim_suffix;
  t["trimPrefix"] = fn_trim_prefix;
  t["quote"] = fn_quote;
  t["squote"] = fn_squote;
  t["trunc"] = fn_trunc;
  t["contains"] = fn_contains;
  t["hasPrefix"] = fn_has_prefix;
  t["hasSuffix"] = fn_has_suffix;
  t["upper"] = fn_upper;
  t["lower"] = fn_lower;
  t["replace"] = fn_replace;
  t["splitList"] = fn_split_list;
  t["split"] = fn_split;
  t["join"] = fn_join;
  t["repeat"] = fn_repeat;
  t["substr"] = fn_substr;
  t["toString"] = fn_to_string;
  t["cat"] = fn_cat;
  t["nospace"] = fn_nospace;
  t["regexMatch"] = fn_regex_match;
  t["mustRegexMatch"] = fn_regex_match;
  t["regexFind"] = fn_regex_find;
  t["regexReplaceAll"] = fn_regex_replace_all;
  t["regexReplaceAllLiteral"] = fn_regex_replace_literal;
  t["regexSplit"] = fn_regex_split;
}

}  // namespace sbr::render::helm
