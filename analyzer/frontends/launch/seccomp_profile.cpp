// Seccomp JSON profiles (the OCI/moby format): the default action and the syscalls allowed, each
// marked unconditional or not. includes.caps, includes.minKernel and argument filters make an
// allowance conditional; includes.arches alone does not (it only picks the architecture).
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/yaml/documents.h"

namespace sbr {
namespace {

using yaml::Node;

std::string str(const Node* n) {
  auto s = n ? n->as_string() : std::nullopt;
  return s ? std::string(*s) : "";
}

bool non_empty(const Node* n) {
  if (n == nullptr || n->is_null()) return false;
  if (n->is_seq()) return !n->items.empty();
  if (n->is_map()) return !n->entries.empty();
  return !n->scalar.empty();
}

}  // namespace

namespace {

void read_profile_document(const SourceFile& file, FilePart& out, const yaml::Document& doc) {
  if (doc.root == nullptr || !doc.root->is_map()) return;
  auto at = [&](const Node* n) { return launch::at_node(file.id, n, Frontend::Seccomp); };
  SeccompProfile p;
  p.file = file.id;
  p.path = file.path;
  if (const Node* d = doc.root->get("defaultAction")) p.default_action = fact(str(d), at(d));
  const Node* syscalls = doc.root->get("syscalls");
  if (syscalls && syscalls->is_seq()) {
    for (const Node* e : syscalls->items) {
      if (!e->is_map()) continue;
      bool conditional = non_empty(e->get("args"));
      if (const Node* inc = e->get("includes")) {
        conditional =
            conditional || non_empty(inc->get("caps")) || non_empty(inc->get("minKernel"));
      }
      // `excludes.caps` removes the allowance from containers holding a capability: it narrows,
      // it does not make the remaining allowance conditional.
      std::vector<const Node*> names;
      if (const Node* ns = e->get("names"); ns && ns->is_seq()) names = ns->items;
      if (const Node* n = e->get("name"); n && n->is_scalar()) names.push_back(n);
      std::string action = str(e->get("action"));
      for (const Node* n : names) p.rules.push_back({str(n), action, !conditional, at(n)});
    }
  }
  out.seccomp_profiles.push_back(std::move(p));
}

}  // namespace

void read_seccomp_profile(const SourceFile& file, const FrontendContext&, FilePart& out) {
  for_each_document(
      file.bytes, file.id, "seccomp profile", out.problems,
      [&](const yaml::Document& doc) { read_profile_document(file, out, doc); }, 1);
}

}  // namespace sbr
