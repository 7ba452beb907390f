// Sprig's path functions (Go's `path`: base, dir, ext, clean, isAbs; the `os*` forms use
// `path/filepath`, the same on Linux), `untilStep`, and the `must*` forms of functions whose
// failure is already an error here (sprig's plain forms panic, which helm reports the same way).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

std::string path_clean(const std::string& p) {
  if (p.empty()) return ".";
  const bool rooted = p[0] == '/';
  std::vector<std::string> parts;
  std::size_t k = 0;
  while (k <= p.size()) {
    std::size_t slash = p.find('/', k);
    if (slash == std::string::npos) slash = p.size();
    std::string part = p.substr(k, slash - k);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!rooted) {
        parts.push_back(part);
      }
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    k = slash + 1;
  }
  std::string out = rooted ? "/" : "";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

namespace {

using Args = std::vector<Value>;

// Go's path.Base: the last element, trailing slashes removed; "." for "", "/" for slashes only.
std::string base(std::string p) {
  if (p.empty()) return ".";
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  if (p == "/") return "/";
  std::size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// Go's path.Dir: everything but the last element, cleaned.
std::string dir(const std::string& p) {
  std::size_t slash = p.rfind('/');
  return path_clean(slash == std::string::npos ? "" : p.substr(0, slash + 1));
}

// Go's path.Ext: the suffix from the final dot of the last element, or "".
std::string ext(const std::string& p) {
  for (std::size_t i = p.size(); i > 0 && p[i - 1] != '/'; --i) {
    if (p[i - 1] == '.') return p.substr(i - 1);
  }
  return "";
}

template <std::string (*F)(const std::string&)>
Value path_fn(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "path function", at);
  return Value::string(F(text_of(a[0])));
}

std::string base_of(const std::string& p) {
  return base(p);
}

Value fn_is_abs(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "isAbs", at);
  std::string p = text_of(a[0]);
  return Value::boolean(!p.empty() && p[0] == '/');
}

// sprig's untilStep: from start towards stop (excluded) by step; empty when step goes the
// other way or is 0.
Value fn_until_step(Exec& ex, Args& a, const Location& at) {
  arity(a, 3, 3, "untilStep", at);
  const std::int64_t start = int_of(a[0]), stop = int_of(a[1]), step = int_of(a[2]);
  List out;
  if ((stop < start && step >= 0) || (stop >= start && step <= 0))
    return Value::new_list(std::move(out));
  const std::uint64_t span = static_cast<std::uint64_t>(stop < start ? start - stop : stop - start);
  const std::uint64_t count = span / static_cast<std::uint64_t>(step < 0 ? -step : step) + 1;
  if (count > kMaxListItems) {
    throw RenderError(fmt::format("untilStep would build a list of {} items, past sbreview's "
                                  "budget of {}",
                                  count, kMaxListItems),
                      at);
  }
  ex.charge(count * kElementBytes, "untilStep", at);
  for (std::int64_t i = start; stop < start ? i > stop : i < stop; i += step)
    out.push_back(Value::integer(i));
  return Value::new_list(std::move(out));
}

}  // namespace

void add_path_functions(FunctionTable& t) {
  t["base"] = t["osBase"] = path_fn<base_of>;
  t["dir"] = t["osDir"] = path_fn<dir>;
  t["ext"] = t["osExt"] = path_fn<ext>;
  t["clean"] = t["osClean"] = path_fn<path_clean>;
  t["isAbs"] = t["osIsAbs"] = fn_is_abs;
  t["untilStep"] = fn_until_step;
  // Errors are errors already: the must forms are the plain ones.
  for (const char* plain :
       {"regexFind", "regexFindAll", "regexReplaceAll", "regexReplaceAllLiteral", "regexSplit",
        "without", "uniq", "compact", "first", "last", "rest", "initial", "reverse", "prepend",
        "has", "push", "deepCopy", "sortAlpha"}) {
    std::string name = plain;
    auto it = t.find(name);
    if (it == t.end()) continue;
    name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    t.emplace("must" + name, it->second);
  }
}

}  // namespace sbr::render::helm
