// The model as the rule language sees it: one table of object kinds (workloads, their mounts,
// environment, ports, gates..., image builds, namespaces, scripts and their observations) and,
// per kind, its typed fields with where each value came from. The same table drives
// `--dump-model` (report/model_dump.cpp), the matcher (check/matcher.h) and the generated
// reference docs/rules/match-reference.md, so a field's name cannot differ between them.
//
// Field names are the model's (`identity.privileged`, `network.host_pid`, a mount's `source`);
// fields marked derived are what the engine concludes from them (a host path's class, the
// effective runtime), computed once per object and cached.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr::match {

enum class FieldType : std::uint8_t {
  Bool,
  Int,
  String,
  Enum,      // a string from a fixed set (`domain`)
  Path,      // a host path: also has the engine's path classes and `under`
  Cidr,      // an address range: also has `within`, `contains`, `overlaps`
  List,      // strings: `has`, `has_any`, `has_all`, `empty`
  Location,  // only a place (an anchor for `at:`), no value to test
};
std::string_view field_type_name(FieldType t);

// One field's value on one object. Strings point into the model or into the object's cache;
// `from` is the value's provenance (nullptr: the model keeps none for it).
struct Value {
  enum class Kind : std::uint8_t { Unset, Bool, Int, Str, List };
  Kind kind = Kind::Unset;
  bool b = false;
  std::int64_t i = 0;
  std::string_view s;
  // A message's form of `s` when it differs: a launcher's value with the parts its script left
  // unknown named (`$HOME/.sb/<unknown: $1>`). Matching and facts read `s`.
  std::string_view shown;
  const std::vector<std::string>* list = nullptr;
  const Provenance* from = nullptr;

  bool set() const { return kind != Kind::Unset; }
};

struct Scope;
using Getter = Value (*)(const Scope&);

struct FieldDef {
  std::string_view name;
  FieldType type = FieldType::String;
  std::string_view doc;
  Getter get = nullptr;
  bool derived = false;  // the engine's conclusion, not a fact written in the input
  bool secret = false;   // may hold a secret value: never printed, never in a message
  std::vector<std::string_view> domain = {};  // Enum values
};

struct KindDef;
// Calls `visit(child, user)` for every child object of `parent` of one kind.
using ChildVisitor = void (*)(const void* child, void* user);
using Enumerate = void (*)(const Scope& parent, ChildVisitor visit, void* user);

struct KindDef {
  std::string_view name;        // "mount"
  std::string_view parent;      // "workload"; "" for a kind read from the model itself
  std::string_view model_path;  // "Workload::mounts": where the objects are in the model
  std::string_view doc;
  std::string_view key;  // the field that tells objects of the kind apart (fact paths, dump)
  Enumerate each = nullptr;
  std::vector<FieldDef> fields;
  int index = -1;                          // position in object_kinds()
  std::vector<const KindDef*> children{};  // the kinds whose parent this is, in table order

  const FieldDef* field(std::string_view n) const;
};

// Every kind, parents before their children, in dump order.
const std::vector<KindDef>& object_kinds();
const KindDef* find_kind(std::string_view name);
// The kinds read from the model itself, in table order.
const std::vector<const KindDef*>& root_kinds();

// Values computed once per object (derived fields), kept with the object's scope.
struct Cache {
  std::array<std::optional<std::string>, 6> text;
  std::array<std::optional<std::int64_t>, 4> number;
  std::optional<std::vector<std::string>> list;
};

// One object being looked at: its kind, the object, its parent scope, and the model. A scope
// lives on the stack of the one walk that visits the object.
struct Scope {
  const Model* model = nullptr;
  const KindDef* kind = nullptr;
  const void* object = nullptr;
  const Scope* parent = nullptr;
  mutable Cache cache;

  template <class T>
  const T& as() const {
    return *static_cast<const T*>(object);
  }
  // The nearest enclosing scope of kind `name` (this one included); nullptr when none.
  const Scope* up(std::string_view name) const;
  // The workload this object belongs to; nullptr for model-level objects.
  const Workload* workload() const;
};

// Walks every object of the model, parents before children, calling `fn(scope)`; a kind is
// entered only when `want(kind)` (nullptr: every kind).
template <class Fn, class Want>
void walk(const Model& model, Fn&& fn, Want&& want);

// Builders for the getters of the kind tables (fields_*.cpp).
Value of(bool v, const Provenance* p = nullptr);
Value of(std::int64_t v, const Provenance* p = nullptr);
Value of(std::string_view v, const Provenance* p = nullptr);
Value of(const std::vector<std::string>& v, const Provenance* p = nullptr);
Value of(const Maybe<bool>& v);
Value of(const Maybe<std::int64_t>& v);
Value of(const Maybe<std::string>& v);
Value place(const Provenance& p);  // a Location field
// A string that is unset when empty (keeping its place for `at:`).
Value text(const std::string& v, const Provenance* p = nullptr);
// The same, with the form messages print (`shown`, "" when it is `v`).
Value text(const std::string& v, const std::string& shown, const Provenance* p);

// The kind tables, one function per group (fields_*.cpp); object_kinds() joins them.
void add_workload_kinds(std::vector<KindDef>& out);
void add_workload_child_kinds(std::vector<KindDef>& out);
void add_network_kinds(std::vector<KindDef>& out);
void add_model_kinds(std::vector<KindDef>& out);
void add_script_kinds(std::vector<KindDef>& out);

// --- implementation of walk ---

namespace detail {
template <class Fn, class Want>
struct WalkCtx {
  const Model* model;
  Fn* fn;
  Want* want;
  const KindDef* kind;
  const Scope* parent;
};

template <class Fn, class Want>
void walk_children(const Model& model, const Scope& parent, Fn& fn, Want& want);

template <class Fn, class Want>
void visit_one(const void* obj, void* user) {
  auto* c = static_cast<WalkCtx<Fn, Want>*>(user);
  Scope s;
  s.model = c->model;
  s.kind = c->kind;
  s.object = obj;
  s.parent = c->parent;
  (*c->fn)(s);
  walk_children(*c->model, s, *c->fn, *c->want);
}

template <class Fn, class Want>
void walk_kinds(const Model& model, const Scope& parent, const std::vector<const KindDef*>& kinds,
                Fn& fn, Want& want) {
  for (const KindDef* k : kinds) {
    if (!want(*k)) continue;
    WalkCtx<Fn, Want> c{&model, &fn, &want, k, &parent};
    k->each(parent, &visit_one<Fn, Want>, &c);
  }
}

template <class Fn, class Want>
void walk_children(const Model& model, const Scope& parent, Fn& fn, Want& want) {
  walk_kinds(model, parent, parent.kind->children, fn, want);
}
}  // namespace detail

template <class Fn, class Want>
void walk(const Model& model, Fn&& fn, Want&& want) {
  Scope root;
  root.model = &model;
  detail::walk_kinds(model, root, root_kinds(), fn, want);
}

}  // namespace sbr::match
