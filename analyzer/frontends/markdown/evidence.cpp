// Evidence files of a claims table: does the cited file exist among the run's files, and does it
// mention the row's controls as literal tokens (the flag, the field, the rule name)?
#include <algorithm>
#include <optional>
#include <string>

#include "analyzer/frontends/markdown/markdown_internal.h"
#include "analyzer/support/strings.h"

namespace sbr::md {
namespace {

// `dir` + `rel` with "." and ".." resolved; nullopt when it climbs above the top.
std::optional<std::string> join(std::string_view dir, std::string_view rel) {
  std::vector<std::string> parts = path_components(dir);
  for (const std::string& c : path_components(rel)) {
    if (c == ".") continue;
    if (c == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
      continue;
    }
    parts.push_back(c);
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

std::string parent_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? "" : std::string(path.substr(0, slash));
}

// The run's files at or below `path` (one for a file, those of a folder).
std::vector<const SourceFile*> files_at(const SourceSet& s, const std::string& path) {
  std::vector<const SourceFile*> out;
  auto it = std::lower_bound(s.files.begin(), s.files.end(), path,
                             [](const SourceFile& f, const std::string& p) { return f.path < p; });
  if (it != s.files.end() && it->path == path) return {&*it};
  const std::string dir = path + "/";
  for (; it != s.files.end() && it->path.rfind(dir, 0) == 0; ++it) out.push_back(&*it);
  return out;
}

bool mentions(const std::vector<std::string_view>& files, const std::vector<std::string>& tokens) {
  for (std::string_view f : files) {
    std::string text = lower(f);
    for (const std::string& t : tokens) {
      if (!t.empty() && text.find(lower(t)) != std::string::npos) return true;
    }
  }
  return false;
}

// The text of the files the path names.
struct Found {
  std::vector<std::string_view> texts;
  std::vector<RepositoryLookupFile> outside;  // owns the texts of files the run did not read
};

// The folder the path is relative to: the document's, or one above it (a threat model in docs/
// citing `tests/e2e/net.sh` from the repository's top); among the run's files first, then in
// the repository around the run (a path outside the checked paths, or excluded).
Found resolve(const SourceSet& s, const RepositoryLookup* repo, std::string_view doc_path,
              std::string_view path, std::string& resolved) {
  std::string_view rel = path;
  while (!rel.empty() && rel[0] == '/') rel.remove_prefix(1);
  Found f;
  for (std::string dir = parent_of(doc_path);; dir = parent_of(dir)) {
    if (auto p = join(dir, rel)) {
      auto found = files_at(s, *p);
      if (!found.empty()) {
        resolved = *p;
        for (const SourceFile* file : found) f.texts.emplace_back(file->bytes);
        return f;
      }
    }
    if (dir.empty()) break;
  }
  if (repo == nullptr) return f;
  // The document's folder in the repository; ".." above the run's base stays inside the top.
  auto doc_dir = join(repo->base(), parent_of(doc_path));
  if (!doc_dir) return f;
  for (std::string dir = *doc_dir;; dir = parent_of(dir)) {
    if (auto p = join(dir, rel)) {
      f.outside = repo->files_at(*p);
      if (!f.outside.empty()) {
        resolved = *p;
        for (const RepositoryLookupFile& file : f.outside) f.texts.emplace_back(file.bytes);
        return f;
      }
    }
    if (dir.empty()) return f;
  }
}

}  // namespace

void resolve_evidence(Extracted& x, std::string_view doc_path, const SourceSet* sources,
                      const RepositoryLookup* repository) {
  if (sources == nullptr) return;
  for (EvidenceRow& row : x.rows) {
    for (ClaimEvidence& e : row.evidence) {
      Found found = resolve(*sources, repository, doc_path, e.path, e.resolved);
      const std::vector<std::string_view>& files = found.texts;
      for (std::size_t i : row.claims) {
        const Claim& c = x.claims[i];
        if (c.mood == ClaimMood::Negated || c.mood == ClaimMood::Advice ||
            c.mood == ClaimMood::Planned || c.mood == ClaimMood::Recorded ||
            c.mood == ClaimMood::Compared)
          continue;
        std::string shown = c.literal ? "`" + c.control + "`" : "\"" + c.control + "\"";
        e.controls.push_back(shown);
        // A flag the vocabulary does not know is already reported as not checkable.
        if (c.form == ClaimForm::Unknown) continue;
        if (!files.empty() && !mentions(files, c.tokens)) e.unmentioned.push_back(shown);
      }
    }
  }
}

}  // namespace sbr::md
