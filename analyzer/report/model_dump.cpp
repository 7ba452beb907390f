// A stable, line-oriented dump of the model for debugging, golden tests and rule authors. The
// objects and their fields come from the rule language's field table (check/fields.h), so every
// name printed here is the name a rule's `match:` uses: `kind name` headers, then
// `field: value @ file:line:col`, derived fields marked `(derived)`. Scripts keep the bash
// renderer's own dump (report/script_dump.h): invocations word by word and its observations.
// Secret values are redacted like in every other output.
#include <fmt/format.h>

#include <sstream>

#include "analyzer/check/fields.h"
#include "analyzer/config/config.h"
#include "analyzer/report/claims_dump.h"
#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/script_dump.h"
#include "analyzer/support/secrets.h"

namespace sbr {
namespace {

struct Dump {
  const Model& m;
  std::ostream& out;

  std::string at(const Provenance& p) const {
    if (!p.at.valid()) return "-";
    std::string s = fmt::format("{}:{}:{}", m.files.path(p.at.file), p.at.line, p.at.column);
    if (!p.condition().always()) {
      s += fmt::format(" [if {}{}]", p.condition().text,
                       p.condition().needs_switch ? ", switch" : "");
    }
    return s;
  }
};

// A secret field's value is shown only when nothing about it looks secret: its object's name
// (an environment variable's) and the value itself.
std::string secret_shown(const match::Scope& s, const match::Value& v) {
  const match::FieldDef* name = s.kind->field("name");
  match::Value n = name ? name->get(s) : match::Value{};
  if ((n.kind == match::Value::Kind::Str && secrets::is_secret_name(n.s)) ||
      !secrets::key_format(v.s).empty()) {
    return std::string(secrets::kRedacted);
  }
  return fmt::format("\"{}\"", v.s);
}

std::string shown(const match::Scope& s, const match::FieldDef& f, const match::Value& v) {
  switch (v.kind) {
    case match::Value::Kind::Bool:
      return v.b ? "true" : "false";
    case match::Value::Kind::Int:
      return std::to_string(v.i);
    case match::Value::Kind::Str:
      return f.secret ? secret_shown(s, v) : std::string(v.s);
    case match::Value::Kind::List:
      return fmt::format("[{}]", fmt::join(*v.list, ", "));
    case match::Value::Kind::Unset:
      return "";
  }
  return "";
}

// One object's fields: unset ones are left out, and so is a `false` with no place in the input
// (a flag nothing wrote).
void dump_fields(const Dump& d, const match::Scope& s, int depth) {
  std::string indent(static_cast<size_t>(4 * depth), ' ');
  for (const match::FieldDef& f : s.kind->fields) {
    match::Value v = f.get(s);
    if (!v.set()) continue;
    bool placed = v.from != nullptr && v.from->at.valid();
    if (v.kind == match::Value::Kind::Bool && !v.b && !placed) continue;
    std::string line = indent + std::string(f.name);
    if (f.type != match::FieldType::Location) line += ": " + shown(s, f, v);
    if (placed) line += " @ " + d.at(*v.from);
    if (f.derived) line += " (derived)";
    d.out << line << "\n";
  }
}

std::string key_of(const match::Scope& s) {
  const match::FieldDef* key = s.kind->field(s.kind->key);
  if (key == nullptr) return "";
  match::Value v = key->get(s);
  if (key->secret) return "";
  switch (v.kind) {
    case match::Value::Kind::Str:
      return std::string(v.s);
    case match::Value::Kind::Int:
      return std::to_string(v.i);
    default:
      return "";
  }
}

void dump_object(const Dump& d, const match::Scope& s, int depth) {
  std::string indent(static_cast<size_t>(4 * (depth - 1)), ' ');
  if (s.kind->name == "workload") {
    const Workload& w = s.as<Workload>();
    d.out << fmt::format("workload {}/{}/{}/{}\n", w.id.kind, w.id.ns, w.id.name, w.id.container);
  } else {
    d.out << indent << s.kind->name << " " << key_of(s) << "\n";
  }
  dump_fields(d, s, depth);
  for (const match::KindDef* child : s.kind->children) {
    struct Ctx {
      const Dump* d;
      const match::Scope* parent;
      const match::KindDef* kind;
      int depth;
    } c{&d, &s, child, depth + 1};
    child->each(
        s,
        [](const void* obj, void* user) {
          auto* c = static_cast<Ctx*>(user);
          match::Scope cs;
          cs.model = c->parent->model;
          cs.kind = c->kind;
          cs.object = obj;
          cs.parent = c->parent;
          dump_object(*c->d, cs, c->depth);
        },
        &c);
  }
}

}  // namespace

void write_model_dump(const Model& model, std::ostream& real_out) {
  // Everything is written to a buffer first and passes the same redactor as the findings, so
  // a secret in a command line, an image reference or a problem message never shows.
  std::ostringstream out;
  Dump d{model, out};
  match::Scope root;
  root.model = &model;
  for (const match::KindDef* kind : match::root_kinds()) {
    if (kind->name == "script") continue;  // the renderer's own dump, below
    struct Ctx {
      const Dump* d;
      const match::Scope* root;
      const match::KindDef* kind;
    } c{&d, &root, kind};
    kind->each(
        root,
        [](const void* obj, void* user) {
          auto* c = static_cast<Ctx*>(user);
          match::Scope s;
          s.model = c->root->model;
          s.kind = c->kind;
          s.object = obj;
          s.parent = c->root;
          dump_object(*c->d, s, 1);
        },
        &c);
  }
  for (const ScriptFacts& script : model.scripts) report::dump_script(model, script, out);
  report::dump_documents(model, out);
  for (const Problem& p : model.problems) {
    out << fmt::format("problem {} @ {}:{}:{}: {}\n", static_cast<int>(p.kind),
                       model.files.path(p.at.file), p.at.line, p.at.column, p.message);
  }
  out << fmt::format(
      "summary files={} kubernetes-documents={} other-yaml-documents={} scripts={}\n",
      model.summary.files_seen, model.summary.kubernetes_documents,
      model.summary.other_yaml_documents, model.summary.scripts);
  real_out << Redactor(model)(out.str());
}

}  // namespace sbr
