#include "analyzer/cli/diff_renames.h"

#include "analyzer/check/fingerprint.h"

namespace sbr {
namespace {

// The one directory root of a side, as a prefix of repository paths ("" at the top); nullopt
// for several roots or a file root, whose paths are labels rather than tree paths.
std::optional<std::string> root_prefix(const RevisionInput& in) {
  if (in.roots.size() != 1 || in.tree == nullptr) return std::nullopt;
  const SourceRoot& r = in.roots.front();
  if (!r.at.empty() && in.tree->kind(r.at) != EntryKind::Directory) return std::nullopt;
  return r.at.empty() ? std::string() : r.at + "/";
}

std::string replace_field(const std::string& key, const std::string& from, const std::string& to) {
  std::string out;
  size_t start = 0;
  while (true) {
    size_t end = key.find('\x1f', start);
    std::string field = key.substr(start, end == std::string::npos ? end : end - start);
    out += field == from ? to : field;
    if (end == std::string::npos) break;
    out += '\x1f';
    start = end + 1;
  }
  return out;
}

const SourceFile* file_at(const SourceSet& sources, const std::string& path) {
  for (const SourceFile& f : sources.files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

bool is_read(const SourceFile* f) {
  return f != nullptr && f->type != FileType::Other && f->type != FileType::Config;
}

}  // namespace

Renames renames_between(const RevisionInput& base, const std::optional<RevisionInput>& head) {
  Renames out;
  auto base_root = root_prefix(base);
  auto head_root = head ? root_prefix(*head) : base_root;
  if (!base_root || !head_root || *base_root != *head_root) return out;
  auto pairs = base.tree->renames_to(head ? head->tree.get() : nullptr);
  if (!pairs) return out;
  const std::string& root = *base_root;
  for (const auto& [from, to] : *pairs) {
    if (from.compare(0, root.size(), root) != 0 || to.compare(0, root.size(), root) != 0) continue;
    out.emplace(from.substr(root.size()), to.substr(root.size()));
  }
  return out;
}

void follow_renames(std::vector<Finding>& base_findings, const Renames& renames) {
  if (renames.empty()) return;
  for (Finding& f : base_findings) {
    bool changed = false;
    for (const auto& [from, to] : renames) {
      std::string identity = replace_field(f.identity, from, to);
      std::string subject = f.subject == from ? to : f.subject.str();
      changed = changed || identity != f.identity || subject != f.subject;
      f.identity = std::move(identity);
      f.subject = std::move(subject);
    }
    // A finding in the renamed file whose identity names no path (a Kubernetes object by
    // name) matches as it is; only what names the path needs a new fingerprint.
    if (changed) f.fingerprint = fingerprint(f);
  }
}

std::vector<MovedOut> moved_out_of_reach(const std::vector<Finding>& base_findings,
                                         const Analysis& base, const Analysis& head,
                                         const Renames& renames) {
  std::vector<MovedOut> out;
  for (const auto& [from, to] : renames) {
    if (!is_read(file_at(base.sources, from)) || is_read(file_at(head.sources, to))) continue;
    for (const Finding& f : base_findings) {
      if (base.model.files.path(f.at.file) == from) out.push_back({&f, to});
    }
  }
  return out;
}

}  // namespace sbr
