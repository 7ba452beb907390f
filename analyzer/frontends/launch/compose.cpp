// Compose files: each service becomes a workload (engine Compose). A project is read as compose
// reads it: the base file, then the `compose.override.yaml` beside it, each service's `extends`
// first; values are interpolated with the `.env` beside the base file (compose_interpolate),
// and each key is applied by compose_service with its own file's provenance.
#include <algorithm>
#include <array>
#include <functional>

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

class Project {
 public:
  Project(const FrontendContext& ctx, const ComposeEnv& env) : ctx_(ctx), env_(env) {}

  // Parses files[i..] one inside the other (each document stays alive while the next is read)
  // and reads the services once all are open. A layer that does not parse is left out (its
  // problem is reported); the others are still read.
  void open(const std::vector<const SourceFile*>& files, std::size_t i, FilePart& out) {
    if (i == files.size()) {
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
          layers_.push_back({&f, doc.root, launch::dir_of(f.path), &env_});
          open(files, i + 1, out);
          layers_.pop_back();
        },
        i == 0 ? static_cast<size_t>(-1) : 1);
    if (!opened && i > 0) open(files, i + 1, out);
  }

 private:
  void read(FilePart& out) const {
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
    for (const auto& name : names) read_service(name, out);
  }

  void read_service(const std::string& name, FilePart& out) const {
    Workload w;
    bool started = false;
    for (const auto& l : layers_) {
      const Node* svcs = services_of(l.root);
      const Node* svc = svcs ? svcs->get(name) : nullptr;
      if (svc == nullptr || !svc->is_map()) continue;
      if (!started) {
        start(w, l, svcs->key_node(name));
        started = true;
      }
      const bool extended = apply_extends(l, svc, w, 0);
      launch::apply_compose_service(l, svc, ctx_, extended || &l != &layers_.front(), w);
    }
    if (started) out.workloads.push_back(std::move(w));
  }

  static void start(Workload& w, const ComposeLayer& l, const Node* key) {
    w.engine = Engine::Compose;
    w.id.kind = "compose";
    w.id.name = l.file->path;
    w.id.render_root = l.file->path;
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
      if (base == nullptr || base == svc || !base->is_map()) return false;
      const bool deeper = apply_extends(l, base, w, depth + 1);
      launch::apply_compose_service(l, base, ctx_, deeper, w);
      return true;
    }
    const SourceFile* f = launch::find_source(ctx_.sources, launch::normalize_path(l.dir + file));
    if (f == nullptr || !f->readable) return false;
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
    return found;
  }

  const FrontendContext& ctx_;
  const ComposeEnv& env_;
  std::vector<ComposeLayer> layers_;
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

}  // namespace sbr
