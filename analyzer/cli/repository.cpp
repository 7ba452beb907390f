#include "analyzer/cli/repository.h"

#include <sys/stat.h>

#include <cstdlib>

namespace sbr {

namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string real(const std::string& p) {
  char* r = realpath(p.c_str(), nullptr);
  if (r == nullptr) return "";
  std::string out = r;
  std::free(r);
  return out;
}

}  // namespace

RunRepository working_repository(const std::vector<std::string>& paths) {
  RunRepository out;
  if (paths.empty()) return out;
  // The walk names paths relative to the one directory given, else to the working directory.
  bool one_dir = paths.size() == 1 && is_dir(paths.front());
  std::string base = real(one_dir ? paths.front() : ".");
  if (base.empty()) return out;
  std::string top = repository_top(base);
  if (top.empty()) return out;
  std::string rel = base == top ? "" : base.substr(top == "/" ? 1 : top.size() + 1);
  out.tree = std::make_unique<WorkingTree>(top);
  out.files = std::make_unique<RepositoryLookup>(*out.tree, rel);
  return out;
}

RunRepository revision_repository(const RevisionInput& rev) {
  RunRepository out;
  if (rev.roots.size() != 1 || !rev.tree) return out;
  const SourceRoot& root = rev.roots.front();
  if (!root.at.empty() && rev.tree->kind(root.at) != EntryKind::Directory) return out;
  out.files = std::make_unique<RepositoryLookup>(*rev.tree, root.at);
  return out;
}

}  // namespace sbr
