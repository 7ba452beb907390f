// Helpers shared by the kind tables (fields_*.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "analyzer/check/fields.h"

namespace sbr::match {

// Visits each element of the list `list` picks out of the workload in scope: the `each` of a
// kind whose objects are one of Workload's lists.
template <class T, class F>
void each_of(const Scope& parent, ChildVisitor visit, void* user, F&& list) {
  for (const T& x : list(parent.as<Workload>())) visit(&x, user);
}

// The kinds of a workload's smaller lists (fields_lists.cpp): bulk environment, features,
// image grants, siblings, image files and start scripts, network mode alternatives, threat
// evidence.
void add_misc_kinds(std::vector<KindDef>& out);

// Every name of an enum whose values are 0..count-1, in order: a field's domain.
template <class E>
std::vector<std::string_view> names_of(std::string_view (*name)(E), int count) {
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) out.push_back(name(static_cast<E>(i)));
  return out;
}

// The catalog's `applies_to` name of the workload's engine: kubernetes, launcher, compose,
// devcontainer.
std::string_view engine_category(const Workload& w);

// A derived string computed once per object into cache slot `slot`; unset when empty.
template <class F>
Value cached_text(const Scope& s, size_t slot, F&& compute, const Provenance* p = nullptr) {
  auto& c = s.cache.text.at(slot);
  if (!c) c = compute();
  return c->empty() ? Value{} : of(std::string_view(*c), p);
}

// A derived boolean computed once per object into number slot `slot`.
template <class F>
Value cached_bool(const Scope& s, size_t slot, F&& compute, const Provenance* p = nullptr) {
  auto& c = s.cache.number.at(slot);
  if (!c) c = compute() ? 1 : 0;
  return of(*c != 0, p);
}

}  // namespace sbr::match
