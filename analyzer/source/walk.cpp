// The walk over source trees: which entries become files, which become invariant-0 problems.
// The same for every kind of tree, so a git revision and its checkout give the same paths.
#include <algorithm>
#include <memory>

#include "analyzer/source/source.h"
#include "analyzer/source/text_encoding.h"
#include "analyzer/source/working_tree.h"

namespace sbr {
namespace {

constexpr int kMaxWalkDepth = 64;

struct Entry {
  std::string rel;  // as reported
  const SourceTree* tree;
  std::string path;  // in the tree
};

// Why something was not read, before it has a file id (problems are added after the files).
enum class Skip : std::uint8_t { Symlink, Special, Submodule, Deep, Missing, Directory };

struct Walker {
  const WalkOptions& options;
  const SourceRoot& root;
  SourceSet& out;
  std::size_t& listed;                                // excluded files listed one by one
  std::vector<Entry> found;                           // rel relative to the root
  std::vector<std::pair<std::string, Skip>> skipped;  // the same
  std::vector<ExcludedPath> excluded_paths;           // the same

  // Why the configuration keeps `rel` out ("" when nothing in it does: `.git`, `.sbreview`).
  std::string exclusion(const std::string& rel, const std::string& name) const {
    if (name == ".git" || rel == ".sbreview") return {};
    for (const auto& e : options.excludes) {
      if (below(rel, e)) return "excluded by .sbreview.yaml exclude: " + e;
    }
    std::string includes;
    for (const auto& i : options.includes) includes += (includes.empty() ? "" : ", ") + i;
    return "not below .sbreview.yaml include: " + includes;
  }

  // The files below an excluded directory, listed when they fit under kMaxExcludedListed,
  // else counted (up to kMaxExcludedCounted) into one entry. Links are not followed.
  void collect(const std::string& path, const std::string& rel, int depth,
               std::vector<std::string>& files, std::uint32_t& count) const {
    std::vector<TreeEntry> entries;
    if (depth > kMaxWalkDepth || !root.tree->list(path, entries)) return;
    std::sort(entries.begin(), entries.end(),
              [](const TreeEntry& a, const TreeEntry& b) { return a.name < b.name; });
    for (const auto& e : entries) {
      if (count >= kMaxExcludedCounted) return;
      std::string child = join_path(rel, e.name);
      if (e.kind == EntryKind::Directory) {
        collect(join_path(path, e.name), child, depth + 1, files, count);
      } else if (e.kind != EntryKind::Missing) {
        ++count;
        if (listed + files.size() < kMaxExcludedListed) files.push_back(child);
      }
    }
  }

  void note_excluded(const TreeEntry& e, const std::string& path, const std::string& rel,
                     int depth) {
    std::string why = exclusion(rel, e.name);
    if (why.empty() || e.kind == EntryKind::Missing) return;
    if (e.kind != EntryKind::Directory) {
      excluded_paths.push_back({rel, why, 1, true});
      ++listed;
      return;
    }
    std::vector<std::string> files;
    std::uint32_t count = 0;
    collect(path, rel, depth + 1, files, count);
    if (files.size() == count && count < kMaxExcludedCounted) {
      for (std::string& f : files) excluded_paths.push_back({std::move(f), why, 1, true});
      listed += files.size();
    } else {
      excluded_paths.push_back({rel + "/", why, count, count < kMaxExcludedCounted});
    }
  }

  static bool below(const std::string& a, const std::string& prefix) {
    return a == prefix || (a.size() > prefix.size() && a.compare(0, prefix.size(), prefix) == 0 &&
                           a[prefix.size()] == '/');
  }

  bool excluded(const std::string& rel, const std::string& name) const {
    // The top-level `.sbreview/` holds the repository's own rules and their fixtures:
    // configuration, not input. Nothing else is skipped by a name a pull request can choose
    // (`deploy/node_modules/pod.yaml` and `deploy/.sbreview/pod.yaml` are applied by
    // `kubectl apply -R` all the same); `.git` is the repository's database, not its tree.
    if (name == ".git" || rel == ".sbreview") return true;
    for (const auto& e : options.excludes) {
      if (rel == e ||
          (rel.size() > e.size() && rel.compare(0, e.size(), e) == 0 && rel[e.size()] == '/')) {
        return true;
      }
    }
    return false;
  }

  // Outside every include: a directory that is neither below an include nor on the way to one,
  // or a file not below one.
  bool outside_includes(const std::string& rel, bool dir) const {
    if (options.includes.empty()) return false;
    for (const auto& i : options.includes) {
      if (below(rel, i) || (dir && below(i, rel))) return false;
    }
    return true;
  }

  bool link_inside(const std::string& path) const {
    std::optional<std::string> to = root.tree->resolve_link(path);
    return to && path_within(*to, root.at);
  }

  void visit_entry(const TreeEntry& e, const std::string& path, const std::string& rel, int depth) {
    switch (e.kind) {
      case EntryKind::Symlink:
        if (link_inside(path)) {
          ++out.symlinks_inside;
        } else {
          skipped.emplace_back(rel, Skip::Symlink);
        }
        break;
      case EntryKind::Directory:
        visit_dir(path, rel, depth + 1);
        break;
      case EntryKind::File:
        found.push_back({rel, root.tree, path});
        break;
      case EntryKind::Submodule:
        skipped.emplace_back(rel, Skip::Submodule);
        break;
      case EntryKind::Special:
        skipped.emplace_back(rel, Skip::Special);
        break;
      case EntryKind::Missing:
        break;  // gone while the walk ran: no longer part of the tree
    }
  }

  void visit_dir(const std::string& path, const std::string& rel, int depth) {
    if (depth > kMaxWalkDepth) {
      skipped.emplace_back(rel, Skip::Deep);  // reported, never silently cut
      return;
    }
    std::vector<TreeEntry> entries;
    if (!root.tree->list(path, entries)) {
      skipped.emplace_back(rel.empty() ? "." : rel, Skip::Directory);
      return;
    }
    std::sort(entries.begin(), entries.end(),
              [](const TreeEntry& a, const TreeEntry& b) { return a.name < b.name; });
    for (const auto& e : entries) {
      std::string child_rel = join_path(rel, e.name);
      if (excluded(child_rel, e.name) ||
          outside_includes(child_rel, e.kind == EntryKind::Directory)) {
        ++out.excluded;
        note_excluded(e, join_path(path, e.name), child_rel, depth);
        continue;
      }
      visit_entry(e, join_path(path, e.name), child_rel, depth);
    }
  }
};

std::string strip_dot_slash(std::string s) {
  while (s.rfind("./", 0) == 0) s.erase(0, 2);
  return s;
}

// With several roots, paths keep the root as given, so `check a b` keeps a/ and b/ apart.
std::string prefix_of(const SourceRoot& root, size_t roots) {
  if (roots < 2) return "";
  std::string prefix = strip_dot_slash(root.label);
  while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
  return prefix == "." || prefix.empty() ? "" : prefix + "/";
}

void walk_root(const SourceRoot& root, size_t roots, const WalkOptions& options, SourceSet& out,
               std::vector<Entry>& entries, std::vector<std::pair<std::string, Skip>>& skipped,
               std::size_t& listed) {
  switch (root.tree->kind(root.at)) {
    case EntryKind::Directory: {
      Walker w{options, root, out, listed, {}, {}, {}};
      w.visit_dir(root.at, "", 0);
      std::string prefix = prefix_of(root, roots);
      for (auto& e : w.found) entries.push_back({prefix + e.rel, e.tree, std::move(e.path)});
      for (auto& [rel, why] : w.skipped) skipped.emplace_back(prefix + rel, why);
      for (auto& x : w.excluded_paths) {
        x.path = prefix + x.path;
        out.excluded_paths.push_back(std::move(x));
      }
      break;
    }
    case EntryKind::File:
      entries.push_back({strip_dot_slash(root.label), root.tree, root.at});
      break;
    case EntryKind::Missing:
      skipped.emplace_back(root.label, Skip::Missing);
      break;
    case EntryKind::Symlink:
      skipped.emplace_back(root.label, Skip::Symlink);
      break;
    case EntryKind::Submodule:
      skipped.emplace_back(root.label, Skip::Submodule);
      break;
    case EntryKind::Special:
      skipped.emplace_back(root.label, Skip::Special);
      break;
  }
}

Problem problem_for(Skip why, FileId id) {
  Location at{id, 0, 0};
  switch (why) {
    case Skip::Symlink:
      // realpath and the textual resolver give up alike on a target outside the root, a
      // dangling one and a loop (past 40 hops): none of them is followed.
      return {ProblemKind::SymlinkOutside,
              "symlink points outside the analysed root, dangles or loops; not followed", at};
    case Skip::Special:
      return {ProblemKind::SpecialFile, "not a regular file (FIFO, socket or device); never opened",
              at};
    case Skip::Submodule:
      return {ProblemKind::Unreadable,
              "git submodule: its files are in another repository and were not analysed", at};
    case Skip::Deep:
      return {ProblemKind::BudgetExceeded,
              "directory nested more than 64 levels deep; not descended into", at};
    case Skip::Missing:
      return {ProblemKind::Unreadable, "path does not exist or cannot be resolved", at,
              Cause::Repository};
    case Skip::Directory:
      break;
  }
  return {ProblemKind::Unreadable, "directory cannot be read", at};
}

SourceFile read_entry(const Entry& e, const WalkOptions& options, FileTable& files,
                      std::vector<Problem>& problems) {
  SourceFile f;
  f.path = e.rel;
  f.id = files.add(e.rel);
  ReadResult r = e.tree->read(e.path, options.max_file_bytes, f.bytes);
  bool undecoded = false;  // read, but not text in the encoding its byte-order mark names
  if (std::string why; r.ok && !decode_to_utf8(f.bytes, why)) {
    r.ok = false;
    r.why = why;
    undecoded = true;
  }
  f.readable = r.ok;
  f.type = classify(f.path, std::string_view(f.bytes).substr(0, 256));
  if (f.type == FileType::Yaml && r.ok && looks_like_compose(f.bytes)) f.type = FileType::Compose;
  if (!f.readable) {
    problems.push_back({r.too_large ? ProblemKind::TooLarge : ProblemKind::Unreadable,
                        (r.too_large ? "file not analysed: " : "file cannot be read: ") + r.why,
                        Location{f.id, 0, 0},
                        undecoded ? std::optional<Cause>(Cause::Repository) : std::nullopt});
    f.bytes.clear();
  }
  return f;
}

}  // namespace

SourceSet walk_trees(const std::vector<SourceRoot>& roots, const WalkOptions& options,
                     FileTable& files) {
  SourceSet out;
  std::vector<Entry> entries;
  std::vector<std::pair<std::string, Skip>> skipped;
  std::size_t listed = 0;
  for (const auto& root : roots)
    walk_root(root, roots.size(), options, out, entries, skipped, listed);
  std::stable_sort(out.excluded_paths.begin(), out.excluded_paths.end(),
                   [](const ExcludedPath& a, const ExcludedPath& b) { return a.path < b.path; });
  // The same path reached through two roots (`check . k8s`) is listed once.
  out.excluded_paths.erase(
      std::unique(out.excluded_paths.begin(), out.excluded_paths.end(),
                  [](const ExcludedPath& a, const ExcludedPath& b) { return a.path == b.path; }),
      out.excluded_paths.end());
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.rel < b.rel; });
  // The same file reached through two roots (`check . k8s`) is read once.
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const Entry& a, const Entry& b) { return a.rel == b.rel; }),
                entries.end());
  std::sort(skipped.begin(), skipped.end());
  for (const auto& e : entries) out.files.push_back(read_entry(e, options, files, out.problems));
  for (const auto& [rel, why] : skipped) out.problems.push_back(problem_for(why, files.add(rel)));
  return out;
}

SourceSet walk_sources(const std::vector<std::string>& roots, const WalkOptions& options,
                       FileTable& files) {
  std::vector<std::unique_ptr<WorkingTree>> trees;
  std::vector<SourceRoot> walk;
  for (const auto& r : roots) {
    trees.push_back(std::make_unique<WorkingTree>(r));
    walk.push_back({trees.back().get(), "", r});
  }
  return walk_trees(walk, options, files);
}

}  // namespace sbr
