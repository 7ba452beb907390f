#include "analyzer/check/fields.h"

#include <map>
#include <stdexcept>

namespace sbr::match {

std::string_view field_type_name(FieldType t) {
  switch (t) {
    case FieldType::Bool:
      return "bool";
    case FieldType::Int:
      return "int";
    case FieldType::String:
      return "string";
    case FieldType::Enum:
      return "enum";
    case FieldType::Path:
      return "path";
    case FieldType::Cidr:
      return "cidr";
    case FieldType::List:
      return "list";
    case FieldType::Location:
      return "location";
  }
  return "string";
}

const FieldDef* KindDef::field(std::string_view n) const {
  for (const FieldDef& f : fields) {
    if (f.name == n) return &f;
  }
  return nullptr;
}

namespace {

struct Registry {
  std::vector<KindDef> kinds;
  std::vector<const KindDef*> roots;
  std::map<std::string_view, const KindDef*> by_name;
};

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    add_workload_kinds(reg.kinds);
    add_workload_child_kinds(reg.kinds);
    add_network_kinds(reg.kinds);
    add_model_kinds(reg.kinds);
    add_script_kinds(reg.kinds);
    for (size_t i = 0; i < reg.kinds.size(); ++i) reg.kinds[i].index = static_cast<int>(i);
    // The vector is complete: pointers into it stay valid from here on.
    for (KindDef& k : reg.kinds) {
      if (!reg.by_name.emplace(k.name, &k).second) {
        throw std::logic_error("object kind defined twice: " + std::string(k.name));
      }
    }
    for (KindDef& k : reg.kinds) {
      if (k.parent.empty()) {
        reg.roots.push_back(&k);
        continue;
      }
      auto it = reg.by_name.find(k.parent);
      if (it == reg.by_name.end() || it->second->index >= k.index) {
        throw std::logic_error("object kind " + std::string(k.name) + " needs its parent first");
      }
      const_cast<KindDef*>(it->second)->children.push_back(&k);
    }
    return reg;
  }();
  return r;
}

}  // namespace

const std::vector<KindDef>& object_kinds() {
  return registry().kinds;
}

const KindDef* find_kind(std::string_view name) {
  const auto& by = registry().by_name;
  auto it = by.find(name);
  return it == by.end() ? nullptr : it->second;
}

const std::vector<const KindDef*>& root_kinds() {
  return registry().roots;
}

const Scope* Scope::up(std::string_view name) const {
  for (const Scope* s = this; s != nullptr; s = s->parent) {
    if (s->kind != nullptr && s->kind->name == name) return s;
  }
  return nullptr;
}

const Workload* Scope::workload() const {
  const Scope* w = up("workload");
  return w == nullptr ? nullptr : &w->as<Workload>();
}

Value of(bool v, const Provenance* p) {
  Value out;
  out.kind = Value::Kind::Bool;
  out.b = v;
  out.from = p;
  return out;
}

Value of(std::int64_t v, const Provenance* p) {
  Value out;
  out.kind = Value::Kind::Int;
  out.i = v;
  out.from = p;
  return out;
}

Value of(std::string_view v, const Provenance* p) {
  Value out;
  out.kind = Value::Kind::Str;
  out.s = v;
  out.from = p;
  return out;
}

Value of(const std::vector<std::string>& v, const Provenance* p) {
  Value out;
  out.kind = Value::Kind::List;
  out.list = &v;
  out.from = p;
  return out;
}

Value of(const Maybe<bool>& v) {
  return v ? of(v->value, &v->from) : Value{};
}

Value of(const Maybe<std::int64_t>& v) {
  return v ? of(v->value, &v->from) : Value{};
}

Value of(const Maybe<std::string>& v) {
  return v ? of(std::string_view(v->value), &v->from) : Value{};
}

Value place(const Provenance& p) {
  Value out;
  if (!p.at.valid()) return out;
  out.kind = Value::Kind::Str;  // a location has no value; "" keeps it testable for presence
  out.from = &p;
  return out;
}

Value text(const std::string& v, const Provenance* p) {
  if (!v.empty()) return of(std::string_view(v), p);
  // Unset, but the place stays: an `at:` can still point where the value would be written.
  Value out;
  out.from = p;
  return out;
}

Value text(const std::string& v, const std::string& shown, const Provenance* p) {
  Value out = text(v, p);
  if (out.set()) out.shown = shown;
  return out;
}

}  // namespace sbr::match
