#include "analyzer/cli/user_rules.h"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <optional>

#include "analyzer/report/report_util.h"
#include "analyzer/source/working_tree.h"

namespace sbr {
namespace {

constexpr std::string_view kRepoRules = ".sbreview/rules";
constexpr std::uint64_t kMaxRuleFile = 1u << 20;

// The first of `top`/.sbreview and `top`/.sbreview/rules that is a symbolic link, if any.
std::optional<std::string> linked_folder(const std::string& top) {
  for (std::string path : {top + "/.sbreview", top + "/" + std::string(kRepoRules)}) {
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) return path;
  }
  return std::nullopt;
}

bool yaml_name(const std::string& n) {
  return n.size() > 5 &&
         (n.compare(n.size() - 5, 5, ".yaml") == 0 || n.compare(n.size() - 4, 4, ".yml") == 0);
}

Result<RuleFiles> rule_files_in_tree(const GitTree& tree) {
  RuleFiles out;
  if (tree.kind(kRepoRules) != EntryKind::Directory) return out;
  std::vector<TreeEntry> entries;
  if (!tree.list(kRepoRules, entries)) return Error{std::string(kRepoRules) + ": cannot list"};
  std::sort(entries.begin(), entries.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return a.name < b.name; });
  for (const TreeEntry& e : entries) {
    if (e.kind != EntryKind::File || !yaml_name(e.name)) continue;
    std::string path = join_path(kRepoRules, e.name), text;
    ReadResult r = tree.read(path, kMaxRuleFile, text);
    if (!r.ok) return Error{path + " in the revision: cannot read: " + r.why};
    out.emplace_back(tree.workdir().empty() ? path : tree.workdir() + "/" + path, std::move(text));
  }
  return out;
}

}  // namespace

Result<RuleFiles> rule_files_on_disk(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return Error{dir + ": cannot read the rules directory"};
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (yaml_name(n)) names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  RuleFiles out;
  for (const auto& n : names) {
    std::string path = dir + "/" + n;
    std::string text;
    ReadResult r = read_regular_file(path, kMaxRuleFile, text);
    if (!r.ok) return Error{fmt::format("{}: cannot read: {}", report::one_line_safe(path), r.why)};
    out.emplace_back(path, std::move(text));
  }
  return out;
}

Result<Catalog> run_catalog(const Catalog& builtin, const Options& o, const GitTree* revision,
                            const std::string& repo_top, const Config& config) {
  RuleFiles files;
  if (revision != nullptr) {
    auto r = rule_files_in_tree(*revision);
    if (!r) return r.error();
    files = std::move(*r);
  } else {
    std::string dir =
        (repo_top.empty() ? std::string(".") : repo_top) + "/" + std::string(kRepoRules);
    // Neither .sbreview/ nor its rules/ may be a link: it could lead out of the repository.
    if (auto link = linked_folder(repo_top.empty() ? std::string(".") : repo_top)) {
      return Error{
          fmt::format("{}: a symbolic link: sbreview reads the repository's rules only "
                      "from the repository",
                      report::one_line_safe(*link))};
    }
    if (DIR* d = opendir(dir.c_str())) {
      closedir(d);
      auto r = rule_files_on_disk(dir);
      if (!r) return r.error();
      files = std::move(*r);
    }
  }
  for (const std::string& dir : o.rule_dirs) {
    auto r = rule_files_on_disk(dir);
    if (!r) return r.error();
    files.insert(files.end(), r->begin(), r->end());
  }
  if (files.empty()) return builtin;
  RuleSource source;
  source.user = true;
  if (!config.rule_prefix.empty()) source.prefixes.push_back(config.rule_prefix);
  return builtin.with_user_rules(files, source);
}

}  // namespace sbr
