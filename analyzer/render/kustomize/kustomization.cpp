// Reads kustomization files as data: what each one uses and reads, its patches, and what keeps
// it from being rendered safely (remote bases, charts that are not vendored, plugins, exec
// functions, paths out of the tree). Nothing here runs or downloads anything.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "analyzer/render/kustomize/internal.h"
#include "analyzer/support/strings.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::render::kz {
namespace {

using yaml::Node;

bool is_kustomization_name(std::string_view name) {
  return name == "kustomization.yaml" || name == "kustomization.yml" || name == "Kustomization";
}

// The tree's files by path, and its directories with their kustomization file.
struct TreeIndex {
  const SourceSet& sources;
  std::map<std::string, FileId> files;
  std::map<std::string, FileId> kustomization_dirs;

  explicit TreeIndex(const SourceSet& s) : sources(s) {
    for (const SourceFile& f : s.files) {
      files.emplace(f.path, f.id);
      if (f.readable && is_kustomization_name(base_name(f.path))) {
        kustomization_dirs.emplace(dir_of(f.path), f.id);  // kustomize refuses a second one
      }
    }
  }
  std::optional<FileId> file(const std::string& path) const {
    auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional<FileId>(it->second);
  }
};

// What one kustomization file says, collected while its fields are read.
struct Collector {
  const TreeIndex& tree;
  Kustomization& k;
  const SourceFile& file;

  // `cause`: whose gap the refusal is (a base outside the repository is the repository's, a
  // download the environment's, code sbreview will not run sbreview's).
  void refuse(const Node* at, const std::string& why, Cause cause) {
    Location where{k.file, at ? at->line : 1, at ? at->column : 1};
    k.refusals.push_back({ProblemKind::RenderFailed,
                          fmt::format("kustomization `{}` is not rendered: {}", file.path, why),
                          where, cause});
  }

  // A local path of the kustomization; refused (nullopt) when it leaves the repository.
  std::optional<std::string> local(const Node* entry) {
    auto path = resolve_in_tree(k.dir, entry->scalar);
    if (!path) {
      refuse(entry,
             fmt::format("`{}` points above the repository root; kustomize would read "
                         "files sbreview was not asked to analyse. Keep bases inside the "
                         "repository",
                         entry->scalar),
             Cause::Repository);
    }
    return path;
  }

  void read_file(const Node* entry, const std::string& rel) {
    Node copy = *entry;
    copy.scalar = rel;
    if (auto path = local(&copy)) {
      if (auto id = tree.file(*path)) k.reads.push_back(*id);
    }
  }

  // A resources/bases/components entry: a kustomization directory, a file, or refused.
  void resource(const Node* entry) {
    if (!entry->is_scalar()) return;
    if (is_remote_reference(entry->scalar)) {
      refuse(entry,
             fmt::format("`{}` is a remote base, and sbreview never downloads; vendor it "
                         "into the repository or check its rendered output",
                         entry->scalar),
             Cause::Environment);
      return;
    }
    auto path = local(entry);
    if (!path) return;
    if (auto it = tree.kustomization_dirs.find(*path); it != tree.kustomization_dirs.end()) {
      k.uses.push_back(it->second);
    } else if (auto id = tree.file(*path)) {
      k.reads.push_back(*id);
    }
  }

  void patch_from(const Node* item, PatchForm form, std::optional<Target> target);
  void helm_chart(const Node* entry, std::size_t index, const std::string& chart_home);
  void plugin_config(const Node* entry, std::string_view field);
  void check_plugin_text(const Node* entry, std::string_view text, std::string_view field);
};

std::optional<Target> read_target(const Node* t) {
  if (t == nullptr || !t->is_map()) return std::nullopt;
  Target out;
  if (const Node* n = t->get("kind"); n && n->is_scalar()) out.kind = n->scalar;
  if (const Node* n = t->get("name"); n && n->is_scalar()) out.name = n->scalar;
  return out;
}

// The line and indentation where an inline (block scalar) patch's text starts in its file.
void place_inline(const SourceFile& file, const Node* scalar, Patch& p) {
  std::vector<std::string_view> lines;
  std::string_view all = file.bytes;
  for (size_t start = 0; start <= all.size() && lines.size() < scalar->line + 1;) {
    size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    lines.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  const bool block = scalar->line >= 1 && scalar->line <= lines.size() && scalar->column >= 1 &&
                     scalar->column <= lines[scalar->line - 1].size() &&
                     (lines[scalar->line - 1][scalar->column - 1] == '|' ||
                      lines[scalar->line - 1][scalar->column - 1] == '>');
  if (!block || lines.size() <= scalar->line) {
    p.line_offset = scalar->line > 0 ? scalar->line - 1 : 0;
    p.column_offset = scalar->column > 0 ? scalar->column - 1 : 0;
    return;
  }
  std::string_view first = lines[scalar->line];
  p.line_offset = scalar->line;
  p.column_offset = static_cast<std::uint32_t>(
      first.find_first_not_of(' ') == std::string::npos ? 0 : first.find_first_not_of(' '));
}

void Collector::patch_from(const Node* item, PatchForm form, std::optional<Target> target) {
  Patch p;
  p.form = form;
  p.target = std::move(target);
  const Node* path = item->is_scalar() && item->scalar.find('\n') == std::string::npos
                         ? item
                         : (item->is_map() ? item->get("path") : nullptr);
  const Node* inline_text =
      item->is_scalar() && path == nullptr ? item : (item->is_map() ? item->get("patch") : nullptr);
  if (path && path->is_scalar()) {
    auto rel = local(path);
    auto id = rel ? tree.file(*rel) : std::nullopt;
    if (!id) return;  // kustomize reports the missing file
    k.reads.push_back(*id);
    p.file = *id;
    p.text = tree.sources.files[*id].bytes;
    p.note = *rel;
  } else if (inline_text && inline_text->is_scalar()) {
    p.file = k.file;
    p.text = inline_text->scalar;
    p.note = "inline patch in " + file.path;
    place_inline(file, inline_text, p);
  } else {
    return;
  }
  k.patches.push_back(std::move(p));
}

std::string scalar_of(const Node* map, std::string_view key) {
  const Node* n = map->get(key);
  return n && n->is_scalar() ? n->scalar : "";
}

void Collector::helm_chart(const Node* entry, std::size_t index, const std::string& chart_home) {
  if (!entry->is_map()) return;
  HelmChartUse h;
  h.index = index;
  h.at = Location{k.file, entry->line, entry->column};
  h.name = scalar_of(entry, "name");
  std::string version = scalar_of(entry, "version"), repo = scalar_of(entry, "repo");
  // kustomize looks in <chartHome>/<name>, and (v5.1+) in <chartHome>/<name>-<version>/<name>.
  for (const std::string& rel :
       {chart_home + "/" + h.name, chart_home + "/" + h.name + "-" + version + "/" + h.name}) {
    auto dir = resolve_in_tree(k.dir, rel);
    if (dir && h.chart_dir.empty() && tree.file(*dir + "/Chart.yaml")) h.chart_dir = *dir;
  }
  if (h.name.empty() || h.chart_dir.empty()) {
    refuse(entry,
           fmt::format("its helmCharts entry `{}` has no chart vendored under {}/ ({}); "
                       "sbreview never downloads a chart. Vendor it (helm pull --untar "
                       "into {}/) to have it rendered",
                       h.name, chart_home, repo.empty() ? "no repo given" : "repo " + repo,
                       chart_home),
           Cause::Environment);
    return;
  }
  h.release_name = scalar_of(entry, "releaseName");
  h.ns = scalar_of(entry, "namespace");
  h.values_merge = scalar_of(entry, "valuesMerge");
  h.kube_version = scalar_of(entry, "kubeVersion");
  h.include_crds =
      entry->get("includeCRDs") && entry->get("includeCRDs")->as_bool().value_or(false);
  h.skip_tests = entry->get("skipTests") && entry->get("skipTests")->as_bool().value_or(false);
  auto values_file = [&](const Node* n) {
    if (!n || !n->is_scalar()) return;
    if (auto path = local(n)) {
      h.values_files.push_back(*path);
      if (auto id = tree.file(*path)) k.reads.push_back(*id);
    }
  };
  values_file(entry->get("valuesFile"));
  h.values_file = !h.values_files.empty();
  if (const Node* more = entry->get("additionalValuesFiles"); more && more->is_seq()) {
    for (const Node* f : more->items) values_file(f);
  }
  if (const Node* api = entry->get("apiVersions"); api && api->is_seq()) {
    for (const Node* a : api->items) {
      if (a->is_scalar()) h.api_versions.push_back(a->scalar);
    }
  }
  k.helm_charts.push_back(std::move(h));
}

constexpr std::array<std::string_view, 19> kBuiltinKinds = {
    "AnnotationsTransformer",   "ConfigMapGenerator",
    "HashTransformer",          "ImageTagTransformer",
    "LabelTransformer",         "NamespaceTransformer",
    "PatchJson6902Transformer", "PatchStrategicMergeTransformer",
    "PatchTransformer",         "PrefixSuffixTransformer",
    "PrefixTransformer",        "SuffixTransformer",
    "ReplicaCountTransformer",  "SecretGenerator",
    "ValueAddTransformer",      "ReplacementTransformer",
    "SortOrderTransformer",     "IAMPolicyGenerator",
    "LegacyOrderTransformer"};

void Collector::check_plugin_text(const Node* entry, std::string_view text,
                                  std::string_view field) {
  if (text.find("config.kubernetes.io/function") != std::string_view::npos ||
      text.find("config.k8s.io/function") != std::string_view::npos) {
    refuse(entry,
           fmt::format("its `{}` runs a KRM function (config.kubernetes.io/function), "
                       "which would execute code; sbreview never runs one. Check the "
                       "function's output instead",
                       field),
           Cause::Analyzer);
    return;
  }
  yaml::DocumentReader reader(text, 100'000);
  yaml::Document doc;
  yaml::ParseFailure failure;
  for (int guard = 0; guard < 1000; ++guard) {
    auto status = reader.next(doc, failure);
    if (status == yaml::DocumentReader::Status::End) break;
    if (status != yaml::DocumentReader::Status::Document || doc.root == nullptr) continue;
    const Node* api = doc.root->get("apiVersion");
    const Node* kind = doc.root->get("kind");
    std::string kind_name = kind && kind->is_scalar() ? kind->scalar : "?";
    if (kind_name == "HelmChartInflationGenerator") {
      refuse(entry,
             "uses helmCharts (HelmChartInflationGenerator); rendering it would need "
             "`--enable-helm` and a download. Check the chart itself",
             Cause::Environment);
      return;
    }
    bool builtin =
        api && api->is_scalar() && api->scalar == "builtin" &&
        std::find(kBuiltinKinds.begin(), kBuiltinKinds.end(), kind_name) != kBuiltinKinds.end();
    if (!builtin) {
      refuse(entry,
             fmt::format("its `{}` names the plugin `{}`, which would run code; only "
                         "kustomize's builtin kinds are rendered. Check the plugin's "
                         "output instead",
                         field, kind_name),
             Cause::Analyzer);
      return;
    }
  }
}

void Collector::plugin_config(const Node* entry, std::string_view field) {
  if (!entry->is_scalar()) return;
  if (entry->scalar.find('\n') != std::string::npos) {
    check_plugin_text(entry, entry->scalar, field);
    return;
  }
  auto path = local(entry);
  if (!path) return;
  if (auto it = tree.kustomization_dirs.find(*path); it != tree.kustomization_dirs.end()) {
    k.uses.push_back(it->second);
  } else if (auto id = tree.file(*path)) {
    k.reads.push_back(*id);
    check_plugin_text(entry, tree.sources.files[*id].bytes, field);
  }
}

void for_items(const Node* root, std::string_view key, auto&& fn) {
  const Node* seq = root->get(key);
  if (seq == nullptr || !seq->is_seq()) return;
  for (const Node* item : seq->items) fn(item);
}

// The targets of `replacements:` entries (one list, inline or from a file).
void read_replacements(const Node* list, FileId file, const std::string& note, Kustomization& k) {
  if (list == nullptr || !list->is_seq()) return;
  for (const Node* r : list->items) {
    if (!r->is_map()) continue;
    for_items(r, "targets", [&](const Node* t) {
      const Node* select = t->is_map() ? t->get("select") : nullptr;
      if (select == nullptr || !select->is_map()) return;
      for_items(t, "fieldPaths", [&](const Node* f) {
        if (!f->is_scalar()) return;
        k.field_setters.push_back({scalar_of(select, "kind"), scalar_of(select, "name"),
                                   split_field_path(f->scalar), Location{file, f->line, f->column},
                                   note});
      });
    });
  }
}

void read_setters(const TreeIndex& tree, const Node* root, Kustomization& k) {
  const std::string here = "in " + k.path;
  for_items(root, "replicas", [&](const Node* r) {
    if (!r->is_map() || scalar_of(r, "name").empty()) return;
    k.field_setters.push_back({"",
                               scalar_of(r, "name"),
                               {"spec", "replicas"},
                               Location{k.file, r->line, r->column},
                               "replicas: " + here});
  });
  for_items(root, "replacements", [&](const Node* r) {
    if (!r->is_map()) return;
    if (r->get("source") != nullptr) {
      Node one = *root->get("replacements");
      one.items = {r};
      read_replacements(&one, k.file, "replacements: " + here, k);
      return;
    }
    auto path = resolve_in_tree(k.dir, scalar_of(r, "path"));
    auto id = path ? tree.file(*path) : std::nullopt;
    if (!id) return;
    yaml::DocumentReader reader(tree.sources.files[*id].bytes);
    yaml::Document doc;
    yaml::ParseFailure failure;
    if (reader.next(doc, failure) == yaml::DocumentReader::Status::Document)
      read_replacements(doc.root, *id, "replacements: in " + *path, k);
  });
}

// configMapGenerator / secretGenerator: the files and env files they read.
void read_generators(Collector& c, const Node* root, std::string_view key) {
  for_items(root, key, [&](const Node* gen) {
    if (!gen->is_map()) return;
    for_items(gen, "files", [&](const Node* f) {
      if (!f->is_scalar()) return;
      size_t eq = f->scalar.find('=');
      c.read_file(f, eq == std::string::npos ? f->scalar : f->scalar.substr(eq + 1));
    });
    for_items(gen, "envs", [&](const Node* f) {
      if (f->is_scalar()) c.read_file(f, f->scalar);
    });
    if (const Node* env = gen->get("env"); env && env->is_scalar()) c.read_file(env, env->scalar);
  });
}

void read_fields(Collector& c, const Node* root) {
  for (std::string_view key : {"resources", "bases", "components"}) {
    for_items(root, key, [&](const Node* e) { c.resource(e); });
  }
  for_items(root, "patches", [&](const Node* p) {
    if (p->is_map()) c.patch_from(p, PatchForm::Unknown, read_target(p->get("target")));
  });
  for_items(root, "patchesStrategicMerge",
            [&](const Node* p) { c.patch_from(p, PatchForm::StrategicMerge, std::nullopt); });
  for_items(root, "patchesJson6902", [&](const Node* p) {
    if (p->is_map()) c.patch_from(p, PatchForm::Json6902, read_target(p->get("target")));
  });
  read_generators(c, root, "configMapGenerator");
  read_generators(c, root, "secretGenerator");
  for (std::string_view key : {"crds", "configurations"}) {
    for_items(root, key, [&](const Node* e) {
      if (e->is_scalar()) c.read_file(e, e->scalar);
    });
  }
  if (const Node* api = root->get("openapi"); api && api->is_map()) {
    if (const Node* path = api->get("path"); path && path->is_scalar()) {
      c.read_file(path, path->scalar);
    }
  }
  for_items(root, "replacements", [&](const Node* r) {
    const Node* path = r->is_map() ? r->get("path") : nullptr;
    if (path && path->is_scalar()) c.read_file(path, path->scalar);
  });
  for (std::string_view key : {"generators", "transformers", "validators"}) {
    for_items(root, key, [&](const Node* e) { c.plugin_config(e, key); });
  }
  if (const Node* ns = root->get("namespace"); ns && ns->is_scalar()) {
    c.k.namespace_at = Location{c.k.file, ns->line, ns->column};
  }
  for_items(root, "images", [&](const Node* img) {
    const Node* name = img->is_map() ? img->get("name") : nullptr;
    if (name && name->is_scalar()) {
      c.k.image_names.emplace_back(name->scalar, Location{c.k.file, img->line, img->column});
    }
  });
  std::string chart_home = "charts";
  if (const Node* g = root->get("helmGlobals"); g && g->is_map()) {
    if (std::string home = scalar_of(g, "chartHome"); !home.empty()) chart_home = home;
  }
  std::size_t index = 0;
  for_items(root, "helmCharts", [&](const Node* h) { c.helm_chart(h, index++, chart_home); });
  if (const Node* h = root->key_node("helmChartInflationGenerator")) {
    c.refuse(h,
             "uses `helmChartInflationGenerator` (the field before helmCharts); write the "
             "chart as a `helmCharts:` entry with the chart vendored under charts/ to have it "
             "rendered",
             Cause::Analyzer);
  }
}

Kustomization read_one(const TreeIndex& tree, const SourceFile& file) {
  Kustomization k;
  k.file = file.id;
  k.path = file.path;
  k.dir = dir_of(file.path);
  yaml::DocumentReader reader(file.bytes);
  yaml::Document doc;
  yaml::ParseFailure failure;
  auto status = reader.next(doc, failure);
  if (status == yaml::DocumentReader::Status::Error) {
    // Reported here, not by kustomize: without a tool the cause would otherwise be lost.
    k.refusals.push_back(
        {ProblemKind::RenderFailed,
         fmt::format("kustomization `{}` is not rendered: it does not parse as YAML ({})",
                     file.path, failure.message),
         Location{k.file, std::max<std::uint32_t>(failure.line, 1),
                  std::max<std::uint32_t>(failure.column, 1)},
         Cause::Repository});
    return k;
  }
  if (status != yaml::DocumentReader::Status::Document || !doc.root || !doc.root->is_map()) {
    return k;  // empty or not a mapping: kustomize says what is wrong with it
  }
  if (const Node* kind = doc.root->get("kind"); kind && kind->scalar == "Component") {
    k.component = true;
  }
  Collector c{tree, k, file};
  read_fields(c, doc.root);
  read_setters(tree, doc.root, k);
  return k;
}

}  // namespace

std::vector<std::string> split_field_path(const std::string& path) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : path) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == '.' && depth == 0) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> inflated_chart_dirs(const std::map<FileId, Kustomization>& all) {
  std::vector<std::string> dirs;
  for (const auto& [id, k] : all) {
    for (const HelmChartUse& h : k.helm_charts) dirs.push_back(h.chart_dir);
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  return dirs;
}

std::map<FileId, Kustomization> read_kustomizations(const SourceSet& sources) {
  TreeIndex tree(sources);
  std::map<FileId, Kustomization> out;
  for (const auto& [dir, id] : tree.kustomization_dirs) {
    out.emplace(id, read_one(tree, sources.files[id]));
  }
  return out;
}

}  // namespace sbr::render::kz
