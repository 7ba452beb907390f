// podman/docker/nerdctl invocations into workloads: `run`/`create` (also under `container`),
// `pod create` (remembered for the containers that join the pod) and `kube play FILE`.
#include <algorithm>

#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/frontends/launch/apply_options.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/launch/run_options.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

struct EngineGuess {
  bool is_engine = false;
  Engine engine = Engine::Docker;
  bool unresolved = false;
};

// argv[0] as an engine: podman, docker, nerdctl by name (any directory); a symbolic word the
// renderer could not resolve is an engine only when followed by a run-like subcommand.
EngineGuess engine_of(const Word& w, const LaunchContext& ctx) {
  std::string name = base_name(w.text);
  if (name == "podman" || name == "podman-remote") return {true, Engine::Podman, false};
  if (name == "docker" || name == "nerdctl") return {true, Engine::Docker, false};
  if (w.symbolic) {
    // INVARIANTS.md: an unresolved engine is judged as docker (the weaker defaults) unless the
    // configuration names it.
    if (ctx.configured_engine) return {true, *ctx.configured_engine, false};
    return {true, Engine::Docker, true};
  }
  return {};
}

std::string script_path(const LaunchContext& ctx) {
  if (ctx.sources && ctx.script < ctx.sources->files.size()) {
    return ctx.sources->files[ctx.script].path;
  }
  return "";
}

// How a reader finds an unnamed launch: the function it is in and its line ("run_agent, line
// 14"; "line 14" at the top level), and the file when it is not the script the workload is
// named after (a function in a sourced library).
// Where the launch is anchored: its engine word, or the command when that word came from a
// variable (`"${docker_cmd[@]}" run`): the array's definition is where the word was written,
// not where this container starts, and every launch of the function would meet there.
const Provenance& launch_anchor(const Invocation& inv) {
  return inv.argv[0].from.via().empty() ? inv.argv[0].from : inv.from;
}

std::string launch_label(const Invocation& inv, const LaunchContext& ctx) {
  const Location& at = launch_anchor(inv).at;
  std::string where = "line " + std::to_string(at.line);
  if (ctx.sources && at.file != ctx.script && at.file < ctx.sources->files.size())
    where = ctx.sources->files[at.file].path + ":" + std::to_string(at.line);
  std::string fn;
  for (const auto& f : inv.call_path)
    if (f.rfind("source ", 0) != 0) fn = f;
  return fn.empty() ? where : fn + ", " + where;
}

Workload base_workload(const Invocation& inv, const EngineGuess& g, const LaunchContext& ctx) {
  Workload w;
  w.engine = g.engine;
  w.engine_unresolved = g.unresolved;
  w.id.kind = "launcher";
  w.id.name = script_path(ctx);
  w.id.render_root = w.id.name;
  w.id.container = launch_label(inv, ctx);
  w.object_from = launch_anchor(inv);
  w.container_from = w.object_from;
  w.pod_spec_from = w.object_from;
  w.lifecycle.controller = Controller::Launcher;
  if (inv.via_sudo) w.rootful = fact(true, inv.from);
  return w;
}

// timeout(1) in front of the engine ends the client, and with it a foreground container (the
// engine stops a container whose attached client is killed with --rm / sig-proxy). A detached
// one outlives the client, so the wrapper is no wall clock for it. DURATION 0 means none.
void apply_wrappers(const Invocation& inv, const launch::ParsedRun& args, Workload& w) {
  for (const auto& o : args.options) {
    if (o.name == "detach") return;
  }
  launch::apply_timeout_wrapper(inv, w);
}

// The image without tag or digest: a version bump is the same workload.
std::string image_repository(const std::string& image) {
  std::string repo = image.substr(0, image.find('@'));
  std::size_t colon = repo.rfind(':');
  if (colon != std::string::npos && repo.find('/', colon) == std::string::npos) repo.resize(colon);
  return repo;
}

// Where the launch is by structure (WorkloadId::launch_path): the functions called on the way
// (none at the top level) and the engine command, "main>start_agent>podman run"; then the
// container's --name or else its image, then "#N" only for the Nth launch with all of that in
// common. Unrelated launches elsewhere leave it unchanged.
std::string launch_path(const Invocation& inv, std::size_t sub_at, std::size_t sub_end,
                        const std::string& name, const Word* image, const LaunchContext& ctx) {
  std::string path;
  for (const auto& f : inv.call_path) path += f + ">";
  const Word& engine = inv.argv[0];
  path +=
      (engine.symbolic || engine.text.empty() ? std::string("$engine") : base_name(engine.text));
  for (std::size_t k = sub_at; k < sub_end && k < inv.argv.size(); ++k) {
    path += " " + inv.argv[k].text;
  }
  if (!name.empty()) {
    path += ":name=" + name;
  } else if (image != nullptr && !image->symbolic && !image->text.empty()) {
    path += ":image=" + image_repository(image->text);
  }
  int n = ++ctx.launch_state().launch_paths[path];
  if (n > 1) path += "#" + std::to_string(n);
  return path;
}

// Pod-level options a container inherits when it joins the pod.
void inherit_pod(const Workload& pod, Workload& w) {
  w.network.mode = pod.network.mode;
  w.network.mode_arg = pod.network.mode_arg;
  w.network.host_network = pod.network.host_network;
  w.network.host_pid = pod.network.host_pid;
  w.network.host_ipc = pod.network.host_ipc;
  w.network.host_uts = pod.network.host_uts;
  w.network.ports = pod.network.ports;
  w.network.host_loopback = pod.network.host_loopback;
  w.identity.userns = pod.identity.userns;
  w.mounts = pod.mounts;
  w.resources = pod.resources;
}

bool kube_play(const Invocation& inv, std::size_t i, const EngineGuess& g, const LaunchContext& ctx,
               FilePart& out) {
  launch::ParsedRun args = launch::parse_run_args(inv.argv, i, false);
  if (!args.has_image) return true;  // `kube play` with nothing to play: nothing starts
  const Word& file_word = args.image;
  // Relative to the script's directory (where launchers usually `cd`), else to the root.
  const SourceFile* found = nullptr;
  if (!file_word.text.empty() && file_word.text.front() != '/') {
    found = launch::find_source(ctx.sources, launch::dir_of(script_path(ctx)) + file_word.text);
    if (found == nullptr) found = launch::find_source(ctx.sources, file_word.text);
  }
  if (found == nullptr || !found->readable) {
    out.problems.push_back(
        {ProblemKind::RenderFailed,
         "podman kube play: `" + (file_word.text.empty() ? file_word.origin : file_word.text) +
             "` is not a file in the analysed tree; its pods were not reviewed",
         file_word.from.at, file_word.symbolic ? Cause::Analyzer : Cause::Repository});
    return true;
  }
  FilePart played;
  read_kubernetes_file(*found, played);
  for (auto& w : played.workloads) {
    w.engine = Engine::PodmanKubePlay;
    w.engine_unresolved = g.unresolved;
    if (inv.via_sudo) w.rootful = fact(true, inv.from);
    out.workloads.push_back(std::move(w));
  }
  for (auto& p : played.problems) out.problems.push_back(std::move(p));
  return true;
}

// Records which Dockerfile a tag is built from. Only literal tags and files are remembered.
void remember_build(const Invocation& inv, std::size_t i, const LaunchContext& ctx) {
  std::vector<std::string> tags;
  std::string file, context;
  for (; i < inv.argv.size(); ++i) {
    const Word& w = inv.argv[i];
    const std::string& t = w.text;
    auto value = [&](std::string_view lng, std::string_view shrt) -> std::optional<std::string> {
      if (t == lng || t == shrt) {
        if (i + 1 < inv.argv.size()) return inv.argv[++i].text;
        return std::string();
      }
      std::string eq = std::string(lng) + "=";
      if (t.rfind(eq, 0) == 0) return t.substr(eq.size());
      return std::nullopt;
    };
    if (auto v = value("--tag", "-t")) {
      tags.push_back(*v);
    } else if (auto f = value("--file", "-f")) {
      file = *f;
    } else if (!t.empty() && t[0] == '-') {
      // Build options with a value: skip it so it is not taken for the context.
      static const char* const kValued[] = {
          "--build-arg",  "--target",   "--platform", "--label",   "--network",
          "--secret",     "--layers",   "--format",   "--iidfile", "--build-context",
          "--cache-from", "--cache-to", "--volume",   "-v",        "--authfile"};
      for (const char* k : kValued) {
        if (t == k) {
          ++i;
          break;
        }
      }
    } else {
      context = t;
    }
  }
  if (tags.empty()) return;
  std::string base = launch::dir_of(script_path(ctx));
  std::string dir = context.empty() ? base : base + context + "/";
  std::string path;
  if (!file.empty()) {
    path = file.front() == '/' ? file : base + file;
  } else {
    path = launch::find_source(ctx.sources, dir + "Containerfile") ? dir + "Containerfile"
                                                                   : dir + "Dockerfile";
  }
  for (const auto& t : tags) {
    ctx.launch_state().built_images[t] = {launch::normalize_path(path),
                                          launch::normalize_path(dir)};
  }
}

}  // namespace

bool workloads_from_invocation(const Invocation& inv, const LaunchContext& ctx, FilePart& out) {
  if (inv.argv.empty()) return false;
  if (compose_from_invocation(inv, ctx, out)) return true;
  EngineGuess g = engine_of(inv.argv[0], ctx);
  if (!g.is_engine) return false;
  std::size_t i = launch::skip_global_options(inv.argv, 1);
  if (i >= inv.argv.size()) return false;
  std::string sub = inv.argv[i].text;
  std::string sub2 = i + 1 < inv.argv.size() ? inv.argv[i + 1].text : "";
  bool run = false, pod_create = false, play = false;
  if (sub == "build" || (sub == "image" && sub2 == "build") ||
      (sub == "buildx" && sub2 == "build")) {
    remember_build(inv, i + (sub == "build" ? 1 : 2), ctx);
    return false;  // builds an image, starts nothing
  }
  if (sub == "run" || sub == "create") {
    run = true;
    i += 1;
  } else if (sub == "container" && (sub2 == "run" || sub2 == "create")) {
    run = true;
    i += 2;
  } else if ((sub == "kube" && sub2 == "play") || (sub == "play" && sub2 == "kube")) {
    play = true;
    i += 2;
  } else if (sub == "pod" && sub2 == "create") {
    pod_create = true;
    i += 2;
  }
  // A symbolic command followed by anything else is not judged to be an engine.
  if (!run && !pod_create && !play) return false;
  if (play) return kube_play(inv, i, g, ctx, out);

  std::size_t sub_at = launch::skip_global_options(inv.argv, 1);
  std::size_t sub_end = i;
  Workload w = base_workload(inv, g, ctx);
  launch::ParsedRun args = launch::parse_run_args(inv.argv, i, pod_create);
  if (pod_create) {
    launch::ApplyOutcome outcome;
    launch::apply_options(args, w, outcome);
    // `podman pod create NAME` (positional) or `--name NAME`.
    std::string name = outcome.name ? outcome.name->value : "";
    for (const auto& o : args.options) {
      if (!o.known && !o.flag.text.empty() && o.flag.text[0] != '-') name = o.flag.text;
    }
    if (!name.empty()) ctx.launch_state().pods[name] = std::move(w);
    return true;
  }

  for (Problem& p : launch::unknown_option_words(args)) out.problems.push_back(std::move(p));
  launch::ApplyOutcome outcome;
  // Apply once to learn --pod, then start again from the pod's options so that the
  // container's own flags override what it inherits.
  launch::apply_options(args, w, outcome);
  if (outcome.pod) {
    std::string pod = outcome.pod->value;
    if (pod.rfind("new:", 0) == 0) pod = pod.substr(4);
    auto& pods = ctx.launch_state().pods;
    auto it = pods.find(pod);
    if (it != pods.end()) {
      Workload fresh = base_workload(inv, g, ctx);
      inherit_pod(it->second, fresh);
      launch::ApplyOutcome again;
      launch::apply_options(args, fresh, again);
      fresh.siblings.push_back({"pod " + pod, "", true, false, outcome.pod->from});
      w = std::move(fresh);
    }
  }
  if (outcome.name && !outcome.name->value.empty()) w.id.container = outcome.name->value;
  apply_wrappers(inv, args, w);
  if (args.has_image) {
    w.image = args.image.text.empty() ? args.image.origin : args.image.text;
    auto& built = ctx.launch_state().built_images;
    if (auto it = built.find(args.image.text); it != built.end()) {
      launch::attach_dockerfile(ctx.sources, it->second.first, it->second.second, w);
    }
    if (args.image_uncertain) {
      w.unknown_options.push_back(
          fact("image `" + w.image + "` follows an unknown option that may take it as a value",
               args.image.from));
    }
  }
  if (!args.has_image && args.open_before_image) {
    // Said, not guessed: the open words may hold the image, or options and then nothing.
    w.unknown_options.push_back(
        fact(std::string("image unknown: no word after the open ones is certainly the image"),
             inv.from));
  }
  auto add_word = [&w](const Word& x) {
    if (x.symbolic || x.tainted) w.command_open.push_back(w.command.size());
    w.command.push_back(fact(x.text, x.from));
  };
  for (const auto& o : args.options) {
    if (o.name == "entrypoint" && o.has_value) add_word(o.value);
  }
  for (const auto& c : args.command) add_word(c);
  launch::read_script_commands(w);
  w.id.launch_path = launch_path(inv, sub_at, sub_end, outcome.name ? outcome.name->value : "",
                                 args.has_image ? &args.image : nullptr, ctx);
  out.workloads.push_back(std::move(w));
  return true;
}

}  // namespace sbr
