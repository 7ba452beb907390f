#include "analyzer/cli/revision.h"

namespace sbr {
namespace {

// Normalises `prefix/path` textually ("." and ".." parts); nullopt when it climbs above the top.
std::optional<std::string> in_repository(const std::string& prefix, const std::string& path) {
  std::vector<std::string> parts;
  auto push = [&](const std::string& text) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t slash = text.find('/', start);
      if (slash == std::string::npos) slash = text.size();
      std::string part = text.substr(start, slash - start);
      start = slash + 1;
      if (part.empty() || part == ".") continue;
      if (part != "..") {
        parts.push_back(std::move(part));
      } else if (parts.empty()) {
        return false;
      } else {
        parts.pop_back();
      }
    }
    return true;
  };
  if (!push(prefix) || !push(path)) return std::nullopt;
  std::string out;
  for (const auto& p : parts) out = join_path(out, p);
  return out;
}

}  // namespace

Result<RevisionInput> open_revision(const std::string& dir, const std::string& revision,
                                    const std::vector<std::string>& paths) {
  auto tree = GitTree::open(dir, revision);
  if (!tree) return tree.error();
  RevisionInput in;
  in.tree = std::move(*tree);
  const std::string& top = in.tree->workdir();
  for (const auto& p : paths) {
    std::optional<std::string> at;
    if (!p.empty() && p.front() == '/') {
      if (!top.empty() && path_within(p, top)) at = in_repository("", p.substr(top.size()));
    } else {
      at = in_repository(in.tree->prefix(), p);
    }
    if (!at) return Error{p + ": not a path inside the repository"};
    in.roots.push_back({in.tree.get(), *at, p});
  }
  return in;
}

Result<std::optional<ConfigText>> revision_config(const GitTree& tree) {
  const std::string name = ".sbreview.yaml";
  if (tree.kind(name) == EntryKind::Missing) return std::optional<ConfigText>();
  ConfigText c;
  c.path = tree.workdir().empty() ? name : tree.workdir() + "/" + name;
  ReadResult r = tree.read(name, kMaxConfigBytes, c.text);
  if (!r.ok) return Error{name + " in the revision: cannot read the configuration: " + r.why};
  return std::optional<ConfigText>(std::move(c));
}

std::string display_prefix_of(const std::string& root) {
  std::string shown = root;
  while (shown.size() > 1 && shown.back() == '/') shown.pop_back();
  while (shown.rfind("./", 0) == 0) shown.erase(0, 2);
  return shown.empty() || shown == "." ? "" : shown + "/";
}

void set_revision_report_roots(const RevisionInput& in, ReportContext& ctx) {
  bool dir = in.roots.size() == 1 && in.tree->kind(in.roots[0].at) == EntryKind::Directory;
  if (dir) ctx.display_prefix = display_prefix_of(in.roots[0].label);
  if (in.tree->workdir().empty()) return;  // a bare repository: nothing on disk to point at
  ctx.source_root = in.tree->workdir();
  const std::string& base = dir ? in.roots[0].at : in.tree->prefix();
  if (!base.empty()) ctx.uri_prefix = base + "/";
}

}  // namespace sbr
