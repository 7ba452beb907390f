#include "analyzer/check/data_rule.h"

#include <fmt/format.h>

#include <algorithm>

namespace sbr::match {
namespace {

struct BuiltinName {
  std::string_view name;
  Builtin b;
};
constexpr BuiltinName kBuiltins[] = {
    {"workload", Builtin::Workload},
    {"pod", Builtin::Pod},
    {"object", Builtin::Object},
    {"admission_baseline", Builtin::AdmissionBaseline},
    {"admission_restricted", Builtin::AdmissionRestricted},
    {"qos_context", Builtin::QosContext},
};

constexpr std::string_view kEngineKeys[] = {"kubernetes", "launcher", "compose", "devcontainer",
                                            "default"};

bool in_workload(const std::vector<const KindDef*>& chain) {
  return std::any_of(chain.begin(), chain.end(),
                     [](const KindDef* k) { return k->name == "workload"; });
}

class CaseCompiler {
 public:
  CaseCompiler(std::string_view file, Case& c) : file_(file), c_(c) {}

  CompileScope scope() const { return CompileScope{file_, c_.chain}; }
  std::string err(const yaml::Node& at, std::string_view what) const {
    return scope().err(at, what);
  }

  // `{name}` text. Names are builtins (inside a workload), vars (`allow_vars`), then fields.
  Result<Template> compile_template(const yaml::Node& node, std::string_view text,
                                    bool allow_vars) const {
    Template t;
    std::string lit;
    auto flush = [&] {
      if (lit.empty()) return;
      Template::Part p;
      p.text = std::move(lit);
      t.parts.push_back(std::move(p));
      lit.clear();
    };
    for (size_t i = 0; i < text.size(); ++i) {
      char ch = text[i];
      if ((ch == '{' || ch == '}') && i + 1 < text.size() && text[i + 1] == ch) {
        lit += ch;
        ++i;
        continue;
      }
      if (ch == '}') return Error{err(node, fmt::format("unmatched `}}` at offset {}", i))};
      if (ch != '{') {
        lit += ch;
        continue;
      }
      size_t end = text.find('}', i);
      if (end == std::string_view::npos) {
        return Error{err(node, fmt::format("unclosed `{{` at offset {}", i))};
      }
      std::string_view name = text.substr(i + 1, end - i - 1);
      flush();
      auto part = reference(node, name, allow_vars);
      if (!part) return part.error();
      if (part->k == Template::Part::K::Builtin && part->builtin == Builtin::Workload) {
        t.uses_workload = true;
      }
      t.parts.push_back(std::move(*part));
      i = end;
    }
    flush();
    return t;
  }

  Result<Template::Part> reference(const yaml::Node& node, std::string_view name,
                                   bool allow_vars) const {
    Template::Part p;
    for (const auto& b : kBuiltins) {
      // Outside a workload the name may be a field (a ConfigMap entry's `object`).
      if (b.name != name || !in_workload(c_.chain)) continue;
      p.k = Template::Part::K::Builtin;
      p.builtin = b.b;
      return p;
    }
    if (allow_vars) {
      for (size_t v = c_.vars.size(); v-- > 0;) {  // a case's var overrides the rule's
        if (c_.vars[v].name != name) continue;
        p.k = Template::Part::K::Var;
        p.var = static_cast<int>(v);
        return p;
      }
    }
    auto ref = resolve_field(scope(), name, node);
    if (!ref) return ref.error();
    if (ref->def->secret) {
      return Error{err(node, fmt::format("`{{{}}}` may hold a secret value, which a message or "
                                         "fact path never shows",
                                         name))};
    }
    p.k = Template::Part::K::Field;
    p.field = std::move(*ref);
    return p;
  }

  std::optional<Error> compile_var(const yaml::Node& key, const yaml::Node& val) {
    Var v;
    v.name = key.scalar;
    if (val.is_scalar()) {
      auto t = compile_template(val, val.scalar, false);
      if (!t) return t.error();
      v.choices.push_back({std::nullopt, std::move(*t)});
    } else if (val.is_map()) {
      if (auto e = engine_var(val, v)) return e;
    } else if (val.is_seq()) {
      for (const yaml::Node* item : val.items) {
        if (auto e = choice(*item, v)) return e;
      }
    } else {
      return Error{err(val, fmt::format("var `{}` needs text", v.name))};
    }
    c_.vars.push_back(std::move(v));
    return std::nullopt;
  }

  // {kubernetes: ..., compose: ..., default: ...}: chosen by the workload's engine category.
  std::optional<Error> engine_var(const yaml::Node& val, Var& v) {
    if (!in_workload(c_.chain)) {
      return Error{err(val, "a var keyed by engine needs a workload")};
    }
    const yaml::Node* fallback = nullptr;
    for (const auto& [k, t] : val.entries) {
      if (std::find(std::begin(kEngineKeys), std::end(kEngineKeys), k->scalar) ==
          std::end(kEngineKeys)) {
        return Error{
            err(*k, fmt::format("`{}` is not {}", k->scalar, fmt::join(kEngineKeys, "|")))};
      }
      if (!t->is_scalar()) return Error{err(*t, "a var's text is a string")};
      if (k->scalar == "default") {
        fallback = t;
        continue;
      }
      auto text = compile_template(*t, t->scalar, false);
      if (!text) return text.error();
      Pred when;
      when.k = Pred::K::Field;
      auto ref = resolve_field(scope(), "workload.engine_category", *k);
      if (!ref) ref = resolve_field(scope(), "engine_category", *k);
      if (!ref) return ref.error();
      when.field = std::move(*ref);
      Test eq;
      eq.op = Op::Eq;
      eq.s = k->scalar;
      when.tests.push_back(std::move(eq));
      v.choices.push_back({std::move(when), std::move(*text)});
    }
    if (fallback != nullptr) {
      auto text = compile_template(*fallback, fallback->scalar, false);
      if (!text) return text.error();
      v.choices.push_back({std::nullopt, std::move(*text)});
    }
    return std::nullopt;
  }

  // - when: {...}
  //   text: "..."
  std::optional<Error> choice(const yaml::Node& item, Var& v) {
    const yaml::Node* text = item.is_map() ? item.get("text") : nullptr;
    if (text == nullptr || !text->is_scalar()) {
      return Error{
          err(item, fmt::format("a choice of var `{}` is {{when: ..., text: ...}}", v.name))};
    }
    for (const auto& [k, x] : item.entries) {
      if (k->scalar != "when" && k->scalar != "text") {
        return Error{err(*k, fmt::format("unknown key `{}` in a var choice", k->scalar))};
      }
    }
    Var::Choice c;
    if (const yaml::Node* when = item.get("when")) {
      auto p = compile_where(scope(), *when);
      if (!p) return p.error();
      c.when = std::move(*p);
    }
    auto t = compile_template(*text, text->scalar, false);
    if (!t) return t.error();
    c.text = std::move(*t);
    v.choices.push_back(std::move(c));
    return std::nullopt;
  }

  std::optional<Error> at_fields(const yaml::Node& node) {
    std::vector<const yaml::Node*> names =
        node.is_seq() ? node.items : std::vector<const yaml::Node*>{&node};
    for (const yaml::Node* n : names) {
      if (!n->is_scalar()) return Error{err(*n, "`at` names fields")};
      auto ref = resolve_field(scope(), n->scalar, *n);
      if (!ref) return ref.error();
      c_.at.push_back(std::move(*ref));
    }
    if (c_.at.empty()) return Error{err(node, "`at` names at least one field")};
    return std::nullopt;
  }

  std::optional<Error> related(const yaml::Node& node) {
    if (!node.is_seq()) return Error{err(node, "`related` is a list")};
    for (const yaml::Node* item : node.items) {
      Case::RelatedT r;
      const yaml::Node* at = item->is_scalar() ? item : item->get("at");
      if (at == nullptr || !at->is_scalar()) {
        return Error{err(*item, "a related entry is a field or {at: FIELD, message: TEXT}")};
      }
      auto ref = resolve_field(scope(), at->scalar, *at);
      if (!ref) return ref.error();
      const yaml::Node* msg = item->is_map() ? item->get("message") : nullptr;
      std::string text = msg && msg->is_scalar() ? msg->scalar : "{" + at->scalar + "}";
      auto t = compile_template(msg ? *msg : *at, text, true);
      if (!t) return t.error();
      r.at = std::move(*ref);
      r.message = std::move(*t);
      c_.related.push_back(std::move(r));
    }
    return std::nullopt;
  }

  // `<kind>[<key>].` for every kind below the workload (or the model), then the first `at`.
  Template default_fact() const {
    Template t;
    std::string prefix;
    for (auto it = c_.chain.rbegin(); it != c_.chain.rend(); ++it) {
      const KindDef* k = *it;
      if (k->name == "workload" || k->parent.empty()) continue;
      Template::Part lit;
      lit.text = prefix + std::string(k->name) + "[";
      t.parts.push_back(std::move(lit));
      Template::Part key;
      key.k = Template::Part::K::Field;
      key.field.def = k->field(k->key);
      key.field.kind = k;
      key.field.hops =
          static_cast<int>(std::find(c_.chain.begin(), c_.chain.end(), k) - c_.chain.begin());
      key.field.path = std::string(k->key);
      t.parts.push_back(std::move(key));
      prefix = "].";
    }
    Template::Part tail;
    tail.text = (prefix.empty() ? "" : "].") + c_.at.front().path;
    t.parts.push_back(std::move(tail));
    return t;
  }

 private:
  std::string_view file_;
  Case& c_;
};

constexpr std::string_view kCaseKeys[] = {"each", "where",   "vars",  "at",     "related",
                                          "fact", "summary", "group", "require"};

std::optional<Group> parse_group(std::string_view s) {
  if (s == "none") return Group::None;
  if (s == "pod-fact") return Group::PodFact;
  if (s == "once-per-object") return Group::OncePerObject;
  if (s == "once-per-pod") return Group::OncePerPod;
  return std::nullopt;
}

Result<Case> compile_case(std::string_view file, const yaml::Node& node, const yaml::Node* vars,
                          const yaml::Node* summary) {
  Case c;
  CompileScope probe{file, {}};
  if (!node.is_map()) return Error{probe.err(node, "a match case is a mapping")};
  for (const auto& [k, v] : node.entries) {
    if (std::find(std::begin(kCaseKeys), std::end(kCaseKeys), k->scalar) == std::end(kCaseKeys)) {
      return Error{probe.err(*k, fmt::format("unknown key `{}` in `match` ({})", k->scalar,
                                             fmt::join(kCaseKeys, "|")))};
    }
  }
  const yaml::Node* each = node.get("each");
  if (each == nullptr || !each->is_scalar()) {
    return Error{probe.err(node, "a match case needs `each: KIND`")};
  }
  c.kind = find_kind(each->scalar);
  if (c.kind == nullptr) {
    std::string kinds;
    for (const KindDef& k : object_kinds())
      kinds += (kinds.empty() ? "" : ", ") + std::string(k.name);
    return Error{
        probe.err(*each, fmt::format("unknown object kind `{}` (kinds: {})", each->scalar, kinds))};
  }
  for (const KindDef* k = c.kind; k != nullptr;
       k = k->parent.empty() ? nullptr : find_kind(k->parent)) {
    c.chain.push_back(k);
  }
  CaseCompiler cc(file, c);
  if (const yaml::Node* where = node.get("where")) {
    auto p = compile_where(cc.scope(), *where);
    if (!p) return p.error();
    c.where = std::move(*p);
  }
  // The rule's vars, then the case's own.
  for (const yaml::Node* vs : {vars, node.get("vars")}) {
    if (vs == nullptr) continue;
    if (!vs->is_map()) return Error{cc.err(*vs, "`vars` maps names to text")};
    for (const auto& [k, v] : vs->entries) {
      if (auto e = cc.compile_var(*k, *v)) return *e;
    }
  }
  const yaml::Node* at = node.get("at");
  if (at == nullptr)
    return Error{cc.err(node, "a match case needs `at:` (the field it points at)")};
  if (auto e = cc.at_fields(*at)) return *e;
  if (const yaml::Node* rel = node.get("related")) {
    if (auto e = cc.related(*rel)) return *e;
  }
  const yaml::Node* sum = node.get("summary") ? node.get("summary") : summary;
  if (sum == nullptr || !sum->is_scalar()) {
    return Error{cc.err(node, "a data rule needs a `summary` (its message)")};
  }
  std::string text = sum->scalar;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  auto st = cc.compile_template(*sum, text, true);
  if (!st) return st.error();
  c.summary = std::move(*st);
  if (const yaml::Node* fact = node.get("fact")) {
    if (!fact->is_scalar()) return Error{cc.err(*fact, "`fact` is a template")};
    auto ft = cc.compile_template(*fact, fact->scalar, true);
    if (!ft) return ft.error();
    c.fact = std::move(*ft);
  } else {
    c.fact = cc.default_fact();
  }
  if (const yaml::Node* g = node.get("group")) {
    auto parsed = g->is_scalar() ? parse_group(g->scalar) : std::nullopt;
    if (!parsed) return Error{cc.err(*g, "`group` is none|pod-fact|once-per-object|once-per-pod")};
    if (*parsed != Group::None && !in_workload(c.chain)) {
      return Error{cc.err(*g, "grouping is for objects of a workload")};
    }
    c.group = *parsed;
  }
  if (const yaml::Node* req = node.get("require")) {
    if (!req->is_seq()) return Error{cc.err(*req, "`require` lists vars")};
    for (const yaml::Node* r : req->items) {
      auto it = std::find_if(c.vars.rbegin(), c.vars.rend(),
                             [&](const Var& v) { return v.name == r->scalar; });
      if (it == c.vars.rend()) return Error{cc.err(*r, fmt::format("no var `{}`", r->scalar))};
      c.require.push_back(static_cast<int>(c.vars.rend() - it - 1));
    }
  }
  return c;
}

}  // namespace

Result<DataRule> compile_rule(std::string_view file, const yaml::Node& match,
                              const yaml::Node* vars, const yaml::Node* summary) {
  DataRule rule;
  std::vector<const yaml::Node*> cases =
      match.is_seq() ? match.items : std::vector<const yaml::Node*>{&match};
  if (cases.empty()) {
    return Error{fmt::format("{}:{}:{}: `match` needs a case", file, match.line, match.column)};
  }
  for (const yaml::Node* n : cases) {
    auto c = compile_case(file, *n, vars, summary);
    if (!c) return c.error();
    rule.cases.push_back(std::move(*c));
  }
  return rule;
}

}  // namespace sbr::match
