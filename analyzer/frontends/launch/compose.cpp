// Compose files: each service becomes a workload (engine Compose). A project is read as compose
// reads it: the base file, then the `compose.override.yaml` beside it, each service's `extends`
// first; values are interpolated with the `.env` beside the base file (compose_interpolate),
// and each key is applied by compose_service with its own file's provenance.
#include <algorithm>
#include <array>
#include <functional>

#include <fmt/format.h>

#include "analyzer/frontends/launch/compose_service.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/yaml/documents.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

using launch::ComposeEnv;
using launch::ComposeLayer;
using yaml::Node;

constexpr std::array<std::string_view, 4> kBaseNames = {
    "compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"};
constexpr std::array<std::string_view, 4> kOverrideNames = {
    "compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml",
    "docker-compose.override.yml"};
// extends chains longer than this are a cycle or an attack, not a configuration.
constexpr int kMaxExtendsDepth = 8;

template <std::size_t N>
const SourceFile* first_beside(const std::string& dir, const std::array<std::string_view, N>& names,
                               const SourceSet* sources) {
  for (auto n : names) {
    if (const SourceFile* f = launch::find_source(sources, dir + std::string(n))) return f;
  }
  return nullptr;
}

bool is_override(const SourceFile& file) {
  const std::string name = lower(base_name(file.path));
  for (auto n : kOverrideNames) {
    if (name == n) return true;
  }
  return false;
}

ComposeEnv env_beside(const std::string& dir, const SourceSet* sources) {
  const SourceFile* f = launch::find_source(sources, dir + ".env");
  return f && f->readable ? launch::parse_dot_env(f->bytes) : ComposeEnv{};
}

const Node* services_of(const Node* root) {
  const Node* s = root && root->is_map() ? root->get("services") : nullptr;
  return s && s->is_map() ? s : nullptr;
}

std::string scalar(const Node* n) {
  auto s = n ? n->as_string() : std::nullopt;
  return s ? std::string(*s) : "";
}

// A file that a compose file reads in (`extends.file`, `include`) and that is not in the
// analysed tree: compose itself fails on it, and what it would add was not seen.
Problem unresolved(FileId file, const Node* at, std::string message) {
  Location loc = at ? launch::at_node(file, at, Frontend::Compose).at : Location{file, 0, 0};
  return Problem{ProblemKind::SourceUnresolved, std::move(message), loc, Cause::Repository};
}

class Project {
 public:
  // `name`: how the project's workloads are named; "" = the first file's path.
  // `project_dir`: the directory every file's relative paths resolve against (a launcher's
  // project); nullopt: each file's own (a base file and the override beside it).
  Project(const FrontendContext& ctx, const ComposeEnv& env, std::string name = "",
          std::optional<std::string> project_dir = std::nullopt)
      : ctx_(ctx), env_(env), name_(std::move(name)), project_dir_(std::move(project_dir)) {}

  // Parses files[i..] one inside the other (each document stays alive while the next is read)
  // and reads the services once all are open. A layer that does not parse is left out (its
  // problem is reported); the others are still read.
  void open(const std::vector<const SourceFile*>& files, std::size_t i, FilePart& out) {
    if (i == files.size()) {
      problems_ = &out.problems;
      read(out);
      return;
    }
    bool opened = false;
    const SourceFile& f = *files[i];
    for_each_document(
        f.bytes, f.id, "compose file", out.problems,
        [&](const yaml::Document& doc) {
          if (doc.root == nullptr || !doc.root->is_map()) return;
          opened = true;
          layers_.push_back({&f, doc.root, project_dir_.value_or(launch::dir_of(f.path)), &env_});
          open(files, i + 1, out);
          layers_.pop_back();
        },
        i == 0 ? static_cast<size_t>(-1) : 1);
    if (!opened && i > 0) open(files, i + 1, out);
  }

 private:
  void read(FilePart& out) const {
    for (const auto& l : layers_) check_includes(l);
    std::vector<std::string> names;  // in order of first definition across the layers
    for (const auto& l : layers_) {
      const Node* svcs = services_of(l.root);
      if (svcs == nullptr) continue;
      for (const auto& [k, v] : svcs->entries) {
        if (std::find(names.begin(), names.end(), k->scalar) == names.end()) {
          names.push_back(k->scalar);
        }
      }
    }
    const std::size_t first = out.workloads.size();
    for (const auto& name : names) read_service(name, out);
    share_built_images(out.workloads, first);
  }

  // A service without `build:` whose `image:` another service of the project builds runs that
  // build: compose builds the image once, tags it, and starts both from it (a firewall sidecar
  // on the agent's image: its command is a script the agent's Dockerfile COPYs).
  void share_built_images(std::vector<Workload>& ws, std::size_t first) const {
    for (std::size_t i = first; i < ws.size(); ++i) {
      if (!ws[i].dockerfile.empty() || ws[i].image.empty()) continue;
      for (std::size_t j = first; j < ws.size(); ++j) {
        if (j == i || ws[j].dockerfile.empty() || ws[j].image != ws[i].image) continue;
        const std::string dockerfile = ws[j].dockerfile;
        const std::string context = ws[j].build_context;
        launch::attach_dockerfile(ctx_.sources, dockerfile, context, ws[i]);
        break;
      }
    }
  }

  void read_service(const std::string& name, FilePart& out) const {
    Workload w;
    bool started = false;
    const ComposeLayer* built_in = nullptr;  // the last layer with a `build:` (it wins)
    const Node* build = nullptr;
    for (const auto& l : layers_) {
      const Node* svcs = services_of(l.root);
      const Node* svc = svcs ? svcs->get(name) : nullptr;
      if (svc == nullptr || !svc->is_map()) continue;
      if (!started) {
        start(w, l, svcs->key_node(name));
        started = true;
      }
      if (const Node* b = svc->get("build")) {
        built_in = &l;
        build = b;
      }
      const bool extended = apply_extends(l, svc, w, 0);
      launch::apply_compose_service(l, svc, ctx_, extended || &l != &layers_.front(), w);
    }
    if (built_in != nullptr && w.dockerfile.empty()) note_unseen_build(*built_in, build, w);
    if (started) out.workloads.push_back(std::move(w));
  }

  // A `build:` whose Dockerfile is not in the input: the image's user, the files it copies and
  // its start script were not seen (SB0012, inv0_links.cpp). A `dockerfile:` written with a
  // variable is the environment's to fill (a launcher that assembles the Dockerfile at run
  // time); a literal one that is missing is the repository's (compose fails on it).
  void note_unseen_build(const ComposeLayer& l, const Node* build, Workload& w) const {
    auto built = launch::compose_build(l, build, ctx_);
    if (!built) return;
    const Node* file = build->is_map() ? build->get("dockerfile") : nullptr;
    auto raw = file != nullptr ? file->as_string() : std::nullopt;
    w.unseen_build = Workload::UnseenBuild{
        std::move(built->dockerfile), raw && raw->find('$') != std::string_view::npos,
        launch::at_node(l.file->id, file != nullptr ? file : build, Frontend::Compose)};
  }

  void start(Workload& w, const ComposeLayer& l, const Node* key) const {
    w.engine = Engine::Compose;
    w.id.kind = "compose";
    w.id.name = name_.empty() ? l.file->path : name_;
    w.id.render_root = w.id.name;
    w.id.container = key ? key->scalar : "";
    w.object_from = w.pod_spec_from = w.container_from =
        launch::at_node(l.file->id, key, Frontend::Compose);
    w.lifecycle.controller = Controller::ComposeService;
  }

  // `extends: NAME` or `extends: {service: NAME, file: PATH}`: the named service is applied
  // first, then the extending one on top. Returns whether anything was extended.
  bool apply_extends(const ComposeLayer& l, const Node* svc, Workload& w, int depth) const {
    const Node* ext = svc->get("extends");
    if (ext == nullptr || depth >= kMaxExtendsDepth) return false;
    std::string name = ext->is_map() ? scalar(ext->get("service")) : scalar(ext);
    std::string file = ext->is_map() ? scalar(ext->get("file")) : "";
    if (name.empty()) return false;
    if (file.empty()) {
      const Node* svcs = services_of(l.root);
      const Node* base = svcs ? svcs->get(name) : nullptr;
      if (base == nullptr || base == svc || !base->is_map()) {
        if (base == nullptr) {
          report(unresolved(l.file->id, ext,
                            fmt::format("`extends` names service `{}`, which "
                                        "{} does not define",
                                        name, l.file->path)));
        }
        return false;
      }
      const bool deeper = apply_extends(l, base, w, depth + 1);
      launch::apply_compose_service(l, base, ctx_, deeper, w);
      return true;
    }
    const std::string path = launch::normalize_path(l.dir + file);
    const SourceFile* f = launch::find_source(ctx_.sources, path);
    if (f == nullptr || !f->readable) {
      report(unresolved(l.file->id, ext->get("file"),
                        fmt::format("`extends` reads {}, which is not in the analysed tree: what "
                                    "service `{}` adds from it was not seen",
                                    path, name)));
      return false;
    }
    bool found = false;
    std::vector<Problem> reported_with_that_file;  // its own reading reports its problems
    for_each_document(
        f->bytes, f->id, "compose file", reported_with_that_file,
        [&](const yaml::Document& doc) {
          const Node* svcs = services_of(doc.root);
          const Node* base = svcs ? svcs->get(name) : nullptr;
          if (base == nullptr || !base->is_map()) return;
          ComposeLayer other{f, doc.root, launch::dir_of(f->path), l.env};
          const bool deeper = apply_extends(other, base, w, depth + 1);
          launch::apply_compose_service(other, base, ctx_, deeper, w);
          found = true;
        },
        1);
    if (!found) {
      report(unresolved(
          l.file->id, ext,
          fmt::format("`extends` names service `{}`, which {} does not define", name, f->path)));
    }
    return found;
  }

  // `include: [PATH, {path: PATH | [PATH...]}]`: compose loads each as a project of its own
  // directory and adds its services. Every included file in the tree is read as compose on its
  // own (by name or content) with exactly that directory, so only a missing one is left.
  void check_includes(const ComposeLayer& l) const {
    const Node* inc = l.root->get("include");
    if (inc == nullptr || !inc->is_seq()) return;
    std::vector<const Node*> paths;
    for (const Node* item : inc->items) {
      const Node* p = item->is_map() ? item->get("path") : item;
      if (p != nullptr && p->is_seq()) {
        paths.insert(paths.end(), p->items.begin(), p->items.end());
      } else if (p != nullptr) {
        paths.push_back(p);
      }
    }
    for (const Node* p : paths) {
      const std::string file = scalar(p);
      if (file.empty()) continue;
      const std::string path = launch::normalize_path(l.dir + file);
      const SourceFile* f = launch::find_source(ctx_.sources, path);
      if (f != nullptr && f->readable) continue;
      report(unresolved(l.file->id, p,
                        fmt::format("`include` reads {}, which is not in the analysed tree: the "
                                    "services it adds were not seen",
                                    path)));
    }
  }

  // A service read twice (by extends from two services) reports its problem once.
  void report(Problem p) const {
    if (problems_ == nullptr) return;
    for (const Problem& q : *problems_) {
      if (q.at == p.at && q.message == p.message) return;
    }
    problems_->push_back(std::move(p));
  }

  const FrontendContext& ctx_;
  const ComposeEnv& env_;
  std::string name_;
  std::vector<ComposeLayer> layers_;
  std::vector<Problem>* problems_ = nullptr;
  std::optional<std::string> project_dir_;
};

}  // namespace

void read_compose_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  const std::string dir = launch::dir_of(file.path);
  // An override file is a layer of the base file beside it, read with that base.
  if (is_override(file) && first_beside(dir, kBaseNames, ctx.sources) != nullptr) return;
  std::vector<const SourceFile*> files = {&file};
  if (!is_override(file) && first_beside(dir, kBaseNames, ctx.sources) == &file) {
    if (const SourceFile* o = first_beside(dir, kOverrideNames, ctx.sources); o && o->readable) {
      files.push_back(o);
    }
  }
  ComposeEnv env = env_beside(dir, ctx.sources);
  Project(ctx, env).open(files, 0, out);
}

void read_compose_project(const std::vector<const SourceFile*>& files, std::string name,
                          const FrontendContext& ctx, FilePart& out,
                          const std::optional<std::string>& project_dir,
                          const std::vector<std::pair<std::string, std::string>>& environment) {
  if (files.empty()) return;
  // The project directory, and so its `.env`, is the first file's (compose's own default).
  const std::string dir = project_dir.value_or(launch::dir_of(files.front()->path));
  ComposeEnv env = env_beside(dir, ctx.sources);
  // The shell's environment wins over `.env`, as in compose.
  for (const auto& [k, v] : environment) env.values[k] = v;
  Project(ctx, env, std::move(name), dir).open(files, 0, out);
}

}  // namespace sbr
