// A workload built from a Dockerfile in the input gets the image's facts: its final USER (root
// when none is written) unless the workload sets its own, its ENV, and what the image grants,
// with files it copies from the build context read from the repository.
#include "analyzer/frontends/launch/apply_options.h"
#include "analyzer/frontends/launch/image_grants.h"
#include "analyzer/frontends/launch/launch_util.h"

namespace sbr::launch {
namespace {

// The repository files a COPY/ADD source names under the context, with the in-container path
// each lands at: a file, or every file below a directory. A glob or a path outside the input
// resolves to nothing (unknown), never to a file of the same name elsewhere.
std::vector<std::pair<const SourceFile*, std::string>> copied_files(const SourceSet& sources,
                                                                    const std::string& context,
                                                                    const std::string& source,
                                                                    const std::string& dest) {
  std::vector<std::pair<const SourceFile*, std::string>> out;
  std::string repo = normalize_path(context + "/" + source);
  if (repo.starts_with("..")) return out;
  bool into_dir = dest.ends_with("/");
  for (const SourceFile& f : sources.files) {
    if (f.path == repo) {
      std::string name = f.path.substr(f.path.rfind('/') + 1);
      out.emplace_back(&f, into_dir ? dest + name : dest);
    } else if (f.path.starts_with(repo.empty() ? "" : repo + "/")) {
      std::string rel = repo.empty() ? f.path : f.path.substr(repo.size() + 1);
      out.emplace_back(&f, (into_dir ? dest : dest + "/") + rel);
    }
  }
  return out;
}

// Every repository file the image's COPY/ADD put into the container, and the grants of the
// sudoers files among them.
void copied_files_of(const SourceSet* sources, const std::string& context, const ImageBuild& b,
                     Workload& w) {
  if (sources == nullptr) return;
  for (const ImageCopy& c : b.copies) {
    if (!c.from_stage.empty() || !c.inline_text.empty()) continue;
    for (const std::string& src : c.sources) {
      for (const auto& [f, target] : copied_files(*sources, context, src, c.dest)) {
        w.image_files.push_back({target, f->path, c.from});
        if (!is_sudoers_path(target) || !f->readable) continue;
        for (auto& g : sudoers_grants(f->bytes, f->path, c.from)) w.image_grants.push_back(g);
      }
    }
  }
}

// The ENTRYPOINT and CMD scripts that are repository files. CMD is replaced by a command the
// workload gives itself (compose `command:`, the arguments after the image).
void start_scripts_of(const ImageBuild& b, Workload& w) {
  auto resolve = [&](const std::vector<Fact<std::string>>& candidates) {
    for (const auto& c : candidates) {
      for (auto it = w.image_files.rbegin(); it != w.image_files.rend(); ++it) {
        if (it->container_path != c.value) continue;
        w.start_scripts.push_back({c.value, it->repo_path, c.from});
        return;
      }
    }
  };
  resolve(b.entrypoint_scripts);
  if (w.command.empty()) resolve(b.cmd_scripts);
}

}  // namespace

void attach_dockerfile(const SourceSet* sources, const std::string& path,
                       const std::string& context, Workload& w) {
  const SourceFile* f = find_source(sources, path);
  if (f == nullptr || !f->readable) return;
  ImageBuild b = parse_dockerfile(*f);
  w.dockerfile = f->path;
  w.build_context = normalize_path(context);
  bool user_set = w.identity.run_as_user || w.identity.user_name;
  // Same reading as --user; a final stage without USER (and without a stage to inherit one
  // from) runs as the base image's user, which for the images built upon here is root.
  if (!user_set && b.final_user) {
    apply_user(b.final_user->value, b.final_user->from, w);
  } else if (!user_set && !b.bases.empty()) {
    apply_user("root", b.final_from, w);
  }
  for (auto& e : b.env) w.env.push_back(e);
  if (!w.working_dir) w.working_dir = b.final_workdir;
  w.image_grants = b.grants;
  copied_files_of(sources, w.build_context, b, w);
  start_scripts_of(b, w);
}

}  // namespace sbr::launch
