// Which workloads a document speaks about (docs/doc-claims.md, "Scoping"): the configured ones,
// else those whose files sit in the document's project folder and those it names; a block that
// starts with a path speaks about the workloads there.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analyzer/frontends/markdown/markdown.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

std::string parent_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? "" : std::string(path.substr(0, slash));
}

bool within(std::string_view path, std::string_view dir) {
  if (dir.empty()) return true;
  return path == dir ||
         (path.size() > dir.size() && path.substr(0, dir.size()) == dir && path[dir.size()] == '/');
}

bool is_doc_folder(std::string_view name) {
  std::string n = lower(name);
  return n == "docs" || n == "doc" || n == "documentation" || n == ".github" || n == "wiki";
}

// A documentation tree speaks about the project around it: docs/threat-model.md and
// docs/explanations/decisions/0015-egress.md are about the repository, not about docs/. The
// nearest documentation folder above the document decides; a site generator's `website/docs`
// (or `site/docs`) belongs to the project above `website/`.
std::string project_dir(std::string_view doc_path) {
  std::vector<std::string> parts = path_components(parent_of(doc_path));
  std::size_t keep = parts.size();
  for (std::size_t i = parts.size(); i-- > 0;) {
    if (!is_doc_folder(parts[i])) continue;
    keep = i;
    // docs/docs/docs/..., website/docs/...: the whole documentation tree.
    while (keep > 0 && (is_doc_folder(parts[keep - 1]) || lower(parts[keep - 1]) == "website" ||
                        lower(parts[keep - 1]) == "site")) {
      --keep;
    }
    break;
  }
  std::string out;
  for (std::size_t i = 0; i < keep; ++i) out += (out.empty() ? "" : "/") + parts[i];
  return out;
}

// A project's test harness (tests/, e2e/, smoke/...) starts containers to test the product; a
// README or a threat model speaks about the product. Such workloads are in a document's scope
// only when it names them, or when the document lives in that tree itself.
bool in_test_tree(std::string_view path, std::string_view base) {
  std::string_view rel = path.substr(std::min(path.size(), base.empty() ? 0 : base.size() + 1));
  std::vector<std::string> parts = path_components(rel);
  if (!parts.empty()) parts.pop_back();  // the file itself
  return std::any_of(parts.begin(), parts.end(), [](const std::string& p) {
    std::string n = lower(p);
    return n == "test" || n == "tests" || n == "e2e" || n == "smoke" || n == "testdata" ||
           n == "integration-tests" || n == "__tests__";
  });
}

// "./deploy/", "deploy" -> "deploy"; ".." components resolved against `dir`.
std::string joined(std::string_view dir, std::string_view rel) {
  std::vector<std::string> parts = path_components(dir);
  for (const std::string& c : path_components(rel)) {
    if (c == ".") continue;
    if (c == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(c);
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

// The paths a workload is known by: its object's file, its render root, a launcher's script or
// a compose file.
std::vector<std::string> workload_paths(const Model& m, const Workload& w) {
  std::vector<std::string> out = {m.files.path(w.object_from.at.file)};
  if (!w.id.render_root.empty()) out.push_back(w.id.render_root);
  if (w.id.kind == "launcher" || w.id.kind == "compose" || w.id.kind == "devcontainer")
    out.push_back(w.id.name);
  return out;
}

bool any_within(const std::vector<std::string>& paths, std::string_view dir) {
  return std::any_of(paths.begin(), paths.end(), [&](const auto& p) { return within(p, dir); });
}

// The workloads a path or a name written in the document points at.
void named_by(const Model& m, std::string_view text, std::string_view doc_dir,
              std::string_view base, std::set<std::size_t>& out) {
  std::string_view t = text;
  while (t.size() > 1 && t.back() == '/') t.remove_suffix(1);
  bool path_like = t.find('/') != std::string_view::npos || t.find('.') != std::string_view::npos;
  std::set<std::string> dirs;
  if (path_like) {
    for (std::string_view d : {doc_dir, base, std::string_view()}) dirs.insert(joined(d, t));
    dirs.erase("");
  }
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    const Workload& w = m.workloads[i];
    if (!w.example_of.empty()) continue;
    bool hit = std::any_of(dirs.begin(), dirs.end(), [&](const std::string& d) {
      return any_within(workload_paths(m, w), d);
    });
    // A compose service or a Kubernetes object by its name.
    if (!path_like) hit = w.id.kind == "compose" ? w.id.container == t : w.id.name == t;
    if (hit) out.insert(i);
  }
}

std::vector<std::size_t> configured(const Model& m, const DocumentScope& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    const Workload& w = m.workloads[i];
    if (!w.example_of.empty()) continue;
    auto paths = workload_paths(m, w);
    bool hit = std::any_of(s.about.begin(), s.about.end(), [&](const std::string& g) {
      return std::any_of(paths.begin(), paths.end(),
                         [&](const std::string& p) { return glob_match(g, p) || within(p, g); });
    });
    if (hit) out.push_back(i);
  }
  return out;
}

std::vector<std::size_t> by_default(const Model& m, const Document& doc, std::string_view path,
                                    const std::string& base) {
  std::set<std::size_t> about;
  const bool doc_in_tests = in_test_tree(path, "");
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    const Workload& w = m.workloads[i];
    if (!w.example_of.empty() || !any_within(workload_paths(m, w), base)) continue;
    if (!doc_in_tests && in_test_tree(m.files.path(w.object_from.at.file), base)) continue;
    about.insert(i);
  }
  for (const DocMention& mention : doc.mentions) {
    std::set<std::size_t> named;
    named_by(m, mention.text, parent_of(path), base, named);
    // A name (the `ai-sandbox` service) is first the project's own: another project's (or, in
    // a run over several repositories, another repository's) service of that name is not the
    // one the document speaks about.
    std::set<std::size_t> own;
    for (std::size_t i : named) {
      if (any_within(workload_paths(m, m.workloads[i]), base)) own.insert(i);
    }
    const std::set<std::size_t>& kept = own.empty() ? named : own;
    about.insert(kept.begin(), kept.end());
  }
  return {about.begin(), about.end()};
}

// Plans, proposals and research notes speak about what may be built, not about the
// configuration today: a document under such a folder, or a roadmap, claims nothing.
std::string planned_folder(std::string_view doc_path) {
  std::vector<std::string> parts = path_components(doc_path);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string n = lower(parts[i]);
    bool last = i + 1 == parts.size();
    if ((!last && (n == "plans" || n == "plan" || n == "proposals" || n == "design-proposals" ||
                   n == "rfcs" || n == "research")) ||
        (last && n.starts_with("roadmap"))) {
      return parts[i];
    }
  }
  return "";
}

void mark_planned(Document& doc, std::string_view path) {
  std::string folder = planned_folder(path);
  if (folder.empty()) return;
  for (Claim& c : doc.claims) {
    if (c.mood == ClaimMood::Negated || c.mood == ClaimMood::Advice) continue;
    c.mood = ClaimMood::Planned;
    c.marker = folder;
  }
}

}  // namespace

void link_documents(Model& model, const std::vector<DocumentScope>& scopes) {
  for (Document& doc : model.documents) {
    const std::string& path = model.files.path(doc.file);
    const DocumentScope* s = scope_for(path, &scopes);
    const std::string base = project_dir(path);
    mark_planned(doc, path);
    std::vector<std::size_t> about;
    if (s != nullptr && !s->about.empty()) {
      about = configured(model, *s);
      doc.about_note = fmt::format("the workloads `documents:` names (line {})", s->at.line);
    } else {
      about = by_default(model, doc, path, base);
      doc.about_note = fmt::format("the workloads under {} and those it names",
                                   base.empty() ? "the top folder" : base + "/");
    }
    for (Claim& c : doc.claims) {
      if (c.subject.empty()) {
        c.about = about;
        continue;
      }
      std::set<std::size_t> named;
      named_by(model, c.subject, parent_of(path), base, named);
      // A name (the `agent` service) is first the document's own: another project's service
      // of that name is not the one it speaks about.
      if (c.subject.find('/') == std::string::npos && c.subject.find('.') == std::string::npos) {
        std::set<std::size_t> own;
        for (std::size_t i : named) {
          if (std::find(about.begin(), about.end(), i) != about.end()) own.insert(i);
        }
        if (!own.empty()) named = std::move(own);
      }
      // A block that starts with a path no workload lives in (`~/.agents` ...) is about that
      // path, not about other workloads: the document's scope stays.
      if (named.empty()) {
        c.about = about;
        continue;
      }
      c.about.assign(named.begin(), named.end());
      c.about_note = fmt::format("the block is about `{}`", c.subject);
    }
  }
}

}  // namespace sbr
