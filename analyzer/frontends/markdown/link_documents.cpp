// Which workloads a document speaks about (docs/doc-claims.md, "Scoping"): the configured ones,
// else those whose files sit in the document's project folder and those it names; a block that
// starts with a path speaks about the workloads there.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "analyzer/frontends/markdown/markdown.h"
#include "analyzer/support/strings.h"
#include "analyzer/support/test_paths.h"

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

// A project's test harness (tests/, e2e/, smoke/...) starts containers to test the product, its
// examples and contributed extras (examples/, contrib/, demo/) show other ways to run it, and a
// backup copy (`bin/ai-run.bak`) is not what runs; a README or a threat model speaks about the
// product. Such workloads are in a document's scope only when it names them, or when the
// document lives in that tree itself.
bool in_side_tree(std::string_view path, std::string_view base) {
  std::string_view rel = path.substr(std::min(path.size(), base.empty() ? 0 : base.size() + 1));
  std::vector<std::string> parts = path_components(rel);
  if (parts.empty()) return false;
  if (backup_copy(parts.back())) return true;
  parts.pop_back();  // the file itself
  return std::any_of(parts.begin(), parts.end(), [](const std::string& p) {
    return test_directory(p) || example_directory(p);
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

// Every workload's paths and names, indexed once per run: documents times their mentions times
// workloads was the linker's loop, 100 s on bitnami's charts (a README per chart, 1,800
// workloads with the switch renders).
struct Workloads {
  const Model& m;
  std::vector<std::vector<std::string>> paths;
  std::vector<std::pair<std::string, std::size_t>> by_path;  // sorted
  std::map<std::string, std::vector<std::size_t>> by_name;   // a compose service's, else the
                                                             // object's name
  explicit Workloads(const Model& model) : m(model) {
    paths.reserve(m.workloads.size());
    for (std::size_t i = 0; i < m.workloads.size(); ++i) {
      const Workload& w = m.workloads[i];
      paths.push_back(workload_paths(m, w));
      if (!w.example_of.empty()) continue;
      for (const std::string& p : paths.back()) by_path.emplace_back(p, i);
      by_name[w.id.kind == "compose" ? w.id.container : w.id.name].push_back(i);
    }
    std::sort(by_path.begin(), by_path.end());
  }

  // The workloads (not examples) with a path within `dir`: one sorted range, since every path
  // within `dir` starts with it.
  void within_dir(std::string_view dir, std::set<std::size_t>& out) const {
    auto it = std::lower_bound(by_path.begin(), by_path.end(), dir,
                               [](const auto& e, std::string_view d) { return e.first < d; });
    for (; it != by_path.end() && it->first.starts_with(dir); ++it) {
      if (within(it->first, dir)) out.insert(it->second);
    }
  }
};

bool any_within(const std::vector<std::string>& paths, std::string_view dir) {
  return std::any_of(paths.begin(), paths.end(), [&](const auto& p) { return within(p, dir); });
}

// The workloads a path or a name written in the document points at.
void named_by(const Workloads& ws, std::string_view text, std::string_view doc_dir,
              std::string_view base, std::set<std::size_t>& out) {
  std::string_view t = text;
  while (t.size() > 1 && t.back() == '/') t.remove_suffix(1);
  bool path_like = t.find('/') != std::string_view::npos || t.find('.') != std::string_view::npos;
  if (!path_like) {
    // A compose service or a Kubernetes object by its name.
    if (auto it = ws.by_name.find(std::string(t)); it != ws.by_name.end()) {
      out.insert(it->second.begin(), it->second.end());
    }
    return;
  }
  for (std::string_view d : {doc_dir, base, std::string_view()}) {
    std::string dir = joined(d, t);
    if (!dir.empty()) ws.within_dir(dir, out);
  }
}

std::vector<std::size_t> configured(const Workloads& ws, const DocumentScope& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ws.m.workloads.size(); ++i) {
    if (!ws.m.workloads[i].example_of.empty()) continue;
    const std::vector<std::string>& paths = ws.paths[i];
    bool hit = std::any_of(s.about.begin(), s.about.end(), [&](const std::string& g) {
      return std::any_of(paths.begin(), paths.end(),
                         [&](const std::string& p) { return glob_match(g, p) || within(p, g); });
    });
    if (hit) out.push_back(i);
  }
  return out;
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

// Release notes record what a release changed ("increase the memory limit", "drop
// `privileged: true` from the installer"): kata-containers' docs/releases/4.1.0.md, a
// CHANGELOG named in `documents:`.
std::string release_notes(std::string_view doc_path) {
  std::vector<std::string> parts = path_components(doc_path);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string n = lower(parts[i]);
    bool last = i + 1 == parts.size();
    if ((!last &&
         (n == "releases" || n == "release-notes" || n == "changelog" || n == "changelogs")) ||
        (last && (n.starts_with("changelog") || n.starts_with("release-notes") ||
                  n.starts_with("release_notes") || n.starts_with("history")))) {
      return parts[i];
    }
  }
  return "";
}

// A comparison with other tools or designs ("AWS Lambda uses Firecracker", "Docker AI Sandboxes
// run agents in microVMs"): ContainAI's docs/security-comparison.md, YujiSuzuki's
// docs/comparison.md, an ADR `...-direct-vs-claim.md`. Its sentences are of the others as much
// as of this configuration.
std::string comparison(std::string_view doc_path) {
  std::vector<std::string> parts = path_components(doc_path);
  if (parts.empty()) return "";
  const std::string n = lower(parts.back());
  for (std::string_view w : {"comparison", "compare", "alternatives", "-vs-", "_vs_", "-versus-"}) {
    if (n.find(w) != std::string::npos) return parts.back();
  }
  return "";
}

void mark_planned(Document& doc, std::string_view path) {
  std::string folder = planned_folder(path);
  std::string notes = folder.empty() ? release_notes(path) : "";
  std::string compared = folder.empty() && notes.empty() ? comparison(path) : "";
  if (folder.empty() && notes.empty() && compared.empty()) return;
  const ClaimMood mood = !folder.empty()  ? ClaimMood::Planned
                         : !notes.empty() ? ClaimMood::Recorded
                                          : ClaimMood::Compared;
  for (Claim& c : doc.claims) {
    if (c.mood == ClaimMood::Negated || c.mood == ClaimMood::Advice) continue;
    c.mood = mood;
    c.marker = !folder.empty() ? folder : !notes.empty() ? notes : compared;
  }
}

// Folders that hold a project's deployables, not a project of their own: a chart under
// `deploy/` or a launcher under `bin/` belongs to the folder above.
bool deployables_folder(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kFolders = {
      "bin",  "scripts",   "script",     "deploy",        "deployment", "deployments", "k8s",
      "helm", "manifests", "kubernetes", ".devcontainer", "docker",     "compose",     "hack"};
  std::string n = lower(name);
  return std::find(kFolders.begin(), kFolders.end(), n) != kFolders.end();
}

// The folder of the project a workload belongs to: its chart or overlay, else its file's
// folder, above the folders that only hold deployables.
std::string project_root(const Model& m, const Workload& w) {
  std::string root = w.id.render_root;
  if (root.empty() || base_name(root).find('.') != std::string::npos) {
    root = root.empty() ? dir_of(m.files.path(w.object_from.at.file)) : dir_of(root);
  }
  while (!root.empty() && deployables_folder(base_name(root))) root = dir_of(root);
  return root;
}

// The outermost project roots of the workloads `about` holds (a project inside another is part
// of it); the top folder, when it is one, holds them all.
std::vector<std::string> project_roots(const Model& m, const std::set<std::size_t>& about) {
  std::set<std::string> roots;
  for (std::size_t i : about) roots.insert(project_root(m, m.workloads[i]));
  std::vector<std::string> out;
  for (const std::string& r : roots) {  // sorted: a folder comes before the ones inside it
    if (std::none_of(out.begin(), out.end(), [&](const std::string& o) { return within(r, o); }))
      out.push_back(r);
  }
  return out;
}

// More projects than this under one document's folder, none of them named, and the document
// could be about any one of them (kata-containers' docs/ against its installers, CSI plugins and
// webhooks): its claims are not judged against all of them.
constexpr std::size_t kMaxProjects = 3;

struct DefaultScope {
  std::vector<std::size_t> about;
  std::string ambiguous;  // why the folder's workloads were left out; "" when they were not
};

std::string roots_named(const std::vector<std::string>& roots) {
  std::string out;
  for (std::size_t i = 0; i < roots.size() && i < kMaxProjects; ++i) {
    out += fmt::format("{}`{}/`", i == 0 ? "" : ", ", roots[i]);
  }
  if (roots.size() > kMaxProjects) out += fmt::format(" and {} more", roots.size() - kMaxProjects);
  return out;
}

DefaultScope by_default(const Workloads& ws, const Document& doc, std::string_view path,
                        const std::string& base) {
  const Model& m = ws.m;
  std::set<std::size_t> in_folder, named_set;
  const bool doc_in_side_tree = in_side_tree(path, "");
  ws.within_dir(base, in_folder);
  if (!doc_in_side_tree) {
    std::erase_if(in_folder, [&](std::size_t i) {
      return in_side_tree(m.files.path(m.workloads[i].object_from.at.file), base);
    });
  }
  for (const DocMention& mention : doc.mentions) {
    std::set<std::size_t> named;
    named_by(ws, mention.text, parent_of(path), base, named);
    // A name (the `ai-sandbox` service) is first the project's own: another project's (or, in
    // a run over several repositories, another repository's) service of that name is not the
    // one the document speaks about.
    std::set<std::size_t> own;
    for (std::size_t i : named) {
      if (any_within(ws.paths[i], base)) own.insert(i);
    }
    const std::set<std::size_t>& kept = own.empty() ? named : own;
    named_set.insert(kept.begin(), kept.end());
  }
  DefaultScope out;
  std::vector<std::string> roots = project_roots(m, in_folder);
  if (roots.size() > kMaxProjects && named_set.empty()) {
    out.ambiguous = fmt::format(
        "{} holds {} projects ({}) and the document names none of them: which one it describes "
        "is not known (name it in `documents:` of .sbreview.yaml)",
        base.empty() ? "the top folder" : base + "/", roots.size(), roots_named(roots));
  } else if (roots.size() <= kMaxProjects) {
    named_set.insert(in_folder.begin(), in_folder.end());
  }
  out.about.assign(named_set.begin(), named_set.end());
  return out;
}

}  // namespace

void link_documents(Model& model, const std::vector<DocumentScope>& scopes) {
  const Workloads ws(model);
  for (Document& doc : model.documents) {
    const std::string& path = model.files.path(doc.file);
    const DocumentScope* s = scope_for(path, &scopes);
    const std::string base = project_dir(path);
    mark_planned(doc, path);
    std::vector<std::size_t> about;
    bool ambiguous = false;  // the folder holds several projects and the document names none
    if (s != nullptr && !s->about.empty()) {
      about = configured(ws, *s);
      doc.about_note = fmt::format("the workloads `documents:` names (line {})", s->at.line);
    } else {
      DefaultScope scope = by_default(ws, doc, path, base);
      about = std::move(scope.about);
      ambiguous = !scope.ambiguous.empty();
      doc.about_note = !scope.ambiguous.empty()
                           ? std::move(scope.ambiguous)
                           : fmt::format("the workloads under {} and those it names",
                                         base.empty() ? "the top folder" : base + "/");
    }
    for (Claim& c : doc.claims) {
      if (c.subject.empty()) {
        c.about = about;
        if (ambiguous && about.empty()) c.about_note = doc.about_note;
        continue;
      }
      std::set<std::size_t> named;
      named_by(ws, c.subject, parent_of(path), base, named);
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
        if (ambiguous && about.empty()) c.about_note = doc.about_note;
        continue;
      }
      c.about.assign(named.begin(), named.end());
      c.about_note = fmt::format("the block is about `{}`", c.subject);
    }
  }
}

}  // namespace sbr
