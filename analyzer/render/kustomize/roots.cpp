// Which kustomizations are rendered on their own, and the chain each one builds on.
#include <algorithm>
#include <set>

#include "analyzer/render/kustomize/internal.h"
#include "analyzer/support/strings.h"

namespace sbr::render::kz {
namespace {

constexpr int kMaxChainDepth = 64;  // kustomize itself has no bound; a tree deeper is refused

void post_order(const std::map<FileId, Kustomization>& all, FileId at, int depth,
                std::set<FileId>& seen, std::vector<FileId>& out) {
  if (depth > kMaxChainDepth || !seen.insert(at).second) return;
  auto it = all.find(at);
  if (it == all.end()) return;
  for (FileId used : it->second.uses) post_order(all, used, depth + 1, seen, out);
  out.push_back(at);
}

}  // namespace

std::optional<std::string> resolve_in_tree(const std::string& dir, const std::string& rel) {
  if (!rel.empty() && rel.front() == '/') return std::nullopt;  // absolute: outside the tree
  std::vector<std::string> parts = path_components(dir);
  for (const std::string& part : path_components(rel)) {
    if (part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : "/") + part;
  return out;
}

bool is_remote_reference(const std::string& value) {
  static const char* const kPrefixes[] = {
      "github.com/", "gitlab.com/", "bitbucket.org/", "git@", "git::", "ssh:", "gh:", "file://"};
  for (const char* p : kPrefixes) {
    if (value.starts_with(p)) return true;
  }
  return value.find("://") != std::string::npos || value.find("?ref=") != std::string::npos ||
         value.find("?version=") != std::string::npos || value.find(".git//") != std::string::npos;
}

std::vector<FileId> render_root_files(const std::map<FileId, Kustomization>& all) {
  std::set<FileId> used;
  for (const auto& [id, k] : all) used.insert(k.uses.begin(), k.uses.end());
  std::vector<FileId> roots;
  std::set<FileId> covered;
  for (const auto& [id, k] : all) {
    if (used.count(id) != 0 || k.component) continue;
    roots.push_back(id);
    std::vector<FileId> chain = chain_of(all, id);
    covered.insert(chain.begin(), chain.end());
  }
  // A cycle nobody enters: render its first member so kustomize names the cycle.
  for (const auto& [id, k] : all) {
    if (covered.count(id) != 0 || k.component) continue;
    roots.push_back(id);
    std::vector<FileId> chain = chain_of(all, id);
    covered.insert(chain.begin(), chain.end());
  }
  std::sort(roots.begin(), roots.end());
  return roots;
}

std::vector<FileId> chain_of(const std::map<FileId, Kustomization>& all, FileId root) {
  std::set<FileId> seen;
  std::vector<FileId> out;
  post_order(all, root, 0, seen, out);
  return out;
}

}  // namespace sbr::render::kz
