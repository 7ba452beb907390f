// devcontainer.json (JSON with comments): one workload (engine Devcontainer). runArgs go through
// the podman/docker option parser; mounts through the --mount parser.
#include "analyzer/frontends/bash/bash_frontend.h"
#include "analyzer/frontends/container_paths.h"
#include "analyzer/frontends/launch/apply_options.h"
#include "analyzer/frontends/launch/compose_interpolate.h"
#include "analyzer/frontends/launch/devcontainer_features.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/launch/run_options.h"
#include "analyzer/frontends/launch/specs.h"
#include "analyzer/frontends/yaml/documents.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

using yaml::Node;

std::string str(const Node* n) {
  auto s = n ? n->as_string() : std::nullopt;
  return s ? std::string(*s) : "";
}

// Where the devcontainer CLI puts the workspace: the local folder it opens (relative to the
// repository, "." for its top) and the folder in the container (`workspaceFolder`, by default
// `/workspaces/` + the local folder's name; the top's name is the checkout's, which the input
// does not say: `<workspace>`).
struct Folders {
  std::string local = ".";
  std::string container = "/workspaces/<workspace>";
};

// The devcontainer CLI's `${...}` variables in a mount spec, as the paths they stand for: the
// host's home, the local workspace folder, a `${localEnv:NAME[:default]}` (its default, else
// unknown). So messages name `~/.claude`, never an unexpanded `${localEnv:HOME}/.claude`.
std::string devcontainer_variables(const std::string& spec, const Folders& folders) {
  std::string out;
  std::size_t i = 0;
  while (i < spec.size()) {
    std::size_t open = spec.find("${", i);
    std::size_t close = open == std::string::npos ? open : spec.find('}', open);
    if (close == std::string::npos) {
      out += spec.substr(i);
      break;
    }
    out += spec.substr(i, open - i);
    std::string var = spec.substr(open + 2, close - open - 2);
    i = close + 1;
    if (var == "localWorkspaceFolder") {
      out += folders.local;
    } else if (var == "containerWorkspaceFolder") {
      out += folders.container;
    } else if (var == "localWorkspaceFolderBasename" && folders.local != ".") {
      out += base_name(folders.local);
    } else if (var == "localWorkspaceFolderBasename" || var == "devcontainerId") {
      out += "<" + var + ">";
    } else if (var.rfind("localEnv:", 0) == 0 || var.rfind("env:", 0) == 0) {
      std::string name = var.substr(var.find(':') + 1);
      std::size_t colon = name.find(':');
      std::string fallback = colon == std::string::npos ? "" : name.substr(colon + 1);
      name = name.substr(0, colon);
      out += name == "HOME" || name == "USERPROFILE" ? "~"
             : !fallback.empty()                     ? fallback
                                                     : launch::unknown_placeholder(name);
    } else {
      out += "<unknown " + var + ">";
    }
  }
  return out;
}

// A lifecycle command is a string, an array (argv) or an object of named commands.
// A string runs under a shell (rendered by the bash frontend); an array runs as argv.
void lifecycle_commands(const Node* n, const std::string& key, FileId file, const Folders& folders,
                        const FrontendContext& ctx, FilePart& out, Workload& w) {
  if (n == nullptr) return;
  Provenance at = launch::at_node(file, n, Frontend::Devcontainer);
  // initializeCommand runs on the host, before the container exists; the others inside it.
  auto& into = key.rfind("initializeCommand", 0) == 0 ? w.host_commands : w.setup_commands;
  if (n->is_scalar()) {
    into.push_back(fact(key + ": " + devcontainer_variables(str(n), folders), at));
    // The JSON string starts one column after its opening quote.
    read_embedded_shell(file, str(n), n->line, n->column + (n->quoted ? 1 : 0), ctx, out);
  } else if (n->is_seq()) {
    std::string joined;
    for (const Node* i : n->items) joined += (joined.empty() ? "" : " ") + str(i);
    into.push_back(fact(key + ": " + devcontainer_variables(joined, folders), at));
  } else if (n->is_map()) {
    for (const auto& [k, v] : n->entries) {
      lifecycle_commands(v, key + "." + str(k), file, folders, ctx, out, w);
    }
  }
}

// `dockerComposeFile` (a path or a list, relative to devcontainer.json) and `service`.
void compose_link(const Node* root, const SourceFile& file, Workload& w) {
  const Node* svc = root->get("service");
  const Node* files = root->get("dockerComposeFile");
  if (svc == nullptr || !svc->is_scalar() || files == nullptr) return;
  std::string dir = launch::dir_of(file.path);
  std::vector<const Node*> list = files->is_seq() ? files->items : std::vector<const Node*>{files};
  for (const Node* f : list) {
    if (f->is_scalar()) w.compose_files.push_back(launch::normalize_path(dir + str(f)));
  }
  w.compose_service = fact(str(svc), launch::at_node(file.id, svc, Frontend::Devcontainer));
}

}  // namespace

namespace {

// The workspace folders, local and in the container: `workspaceFolder` when written (with the
// CLI's variables), else the default the CLI uses.
Folders folders_of(const Node* root, const SourceFile& file) {
  Folders f;
  std::string local = devcontainer_workspace_folder(file.path);
  if (!local.empty()) {
    f.local = local;
    f.container = "/workspaces/" + base_name(local);
  }
  if (const Node* wf = root->get("workspaceFolder"); wf && wf->is_scalar()) {
    Folders defaults = f;
    f.container = devcontainer_variables(str(wf), defaults);
  }
  return f;
}

// `mounts`, and `workspaceMount` or (without it, and without `dockerComposeFile`) the bind of
// the local workspace folder that the CLI adds.
void read_mounts(const Node* root, FileId file, const Folders& folders, Workload& w) {
  auto at = [&](const Node* n) { return launch::at_node(file, n, Frontend::Devcontainer); };
  auto mount = [&](const Node* m) {
    std::string spec;
    if (m->is_scalar()) {
      spec = str(m);
    } else if (m->is_map()) {
      spec = "type=" + str(m->get("type")) + ",source=" + str(m->get("source")) +
             ",target=" + str(m->get("target"));
      if (auto ro = m->get("readonly") ? m->get("readonly")->as_bool() : std::nullopt; ro && *ro) {
        spec += ",readonly";
      }
    } else {
      return;
    }
    launch::add_mount(launch::parse_mount(devcontainer_variables(spec, folders)), at(m), w);
  };
  if (const Node* ms = root->get("mounts"); ms && ms->is_seq()) {
    for (const Node* m : ms->items) mount(m);
  }
  if (const Node* wm = root->get("workspaceMount")) {
    mount(wm);
  } else if (root->get("dockerComposeFile") == nullptr) {
    // Without workspaceMount the devcontainer CLI binds the workspace folder (the one holding
    // .devcontainer/) read-write at /workspaces/NAME: the agent writes the repository. NAME is
    // the local folder's: for the repository's top, the checkout's, which the input does not
    // name.
    std::string name = folders.local == "." ? "<workspace>" : base_name(folders.local);
    launch::add_mount(
        launch::parse_mount("type=bind,source=" + folders.local + ",target=/workspaces/" + name),
        at(root), w);
  }
}

// `build.dockerfile` / `dockerFile` and the context, both relative to devcontainer.json (the
// context defaults to its directory).
void read_build(const Node* root, const SourceFile& file, const FrontendContext& ctx, Workload& w) {
  std::string dir = launch::dir_of(file.path);
  std::string dockerfile, context;
  if (const Node* b = root->get("build"); b && b->is_map()) {
    dockerfile = str(b->get("dockerfile"));
    context = str(b->get("context"));
  }
  if (dockerfile.empty()) dockerfile = str(root->get("dockerFile"));
  if (context.empty()) context = str(root->get("context"));
  if (context.empty()) context = ".";
  if (!dockerfile.empty())
    launch::attach_dockerfile(ctx.sources, dir + dockerfile, dir + context, w);
}

// `runArgs` through the `podman run` parser, then the keys that are run options of their own.
void read_run_options(const Node* root, FileId file, Workload& w) {
  auto at = [&](const Node* n) { return launch::at_node(file, n, Frontend::Devcontainer); };
  if (const Node* ra = root->get("runArgs"); ra && ra->is_seq()) {
    std::vector<Word> words;
    for (const Node* a : ra->items) {
      Word wd;
      wd.text = str(a);
      wd.from = at(a);
      words.push_back(std::move(wd));
    }
    launch::ParsedRun run = launch::parse_run_args(words, 0, true);
    launch::ApplyOutcome outcome;
    launch::apply_options(run, w, outcome);
  }
  // containerUser is who the container's processes run as. remoteUser only picks the user of
  // the tool's sessions; PID 1 and everything the image starts keep the container's user (and
  // the usual devcontainer images give the session user passwordless sudo), so it does not
  // lower the container's identity.
  if (const Node* u = root->get("containerUser"); u && u->is_scalar()) {
    launch::apply_user(str(u), at(u), w);
  }
  if (const Node* p = root->get("privileged")) {
    if (auto b = p->as_bool()) w.identity.privileged = fact(*b, at(p));
  }
  if (const Node* p = root->get("init")) {
    if (auto b = p->as_bool()) w.init = fact(*b, at(p));
  }
  if (const Node* caps = root->get("capAdd"); caps && caps->is_seq()) {
    for (const Node* c : caps->items) launch::apply_capability(str(c), at(c), true, w);
  }
  if (const Node* so = root->get("securityOpt"); so && so->is_seq()) {
    for (const Node* s : so->items) launch::apply_security_opt(str(s), at(s), w);
  }
}

// `containerEnv`/`remoteEnv`, and `appPort`: published by the devcontainer CLI like `-p PORT`
// (every interface); `forwardPorts` are forwarded by the tool to the local machine's loopback,
// not published.
void read_env_and_ports(const Node* root, FileId file, Workload& w) {
  auto at = [&](const Node* n) { return launch::at_node(file, n, Frontend::Devcontainer); };
  for (const char* key : {"containerEnv", "remoteEnv"}) {
    if (const Node* env = root->get(key); env && env->is_map()) {
      for (const auto& [k, v] : env->entries) {
        launch::apply_env_assignment(str(k) + "=" + str(v), false, false, at(k), w);
      }
    }
  }
  if (const Node* ap = root->get("appPort")) {
    std::vector<const Node*> ports = ap->is_seq() ? ap->items : std::vector<const Node*>{ap};
    for (const Node* p : ports) {
      std::string spec = str(p);
      if (p->as_int()) spec = spec + ":" + spec;
      launch::apply_publish(spec, false, at(p), w);
    }
  }
}

void read_devcontainer_document(const SourceFile& file, const FrontendContext& ctx, FilePart& out,
                                const yaml::Document& doc) {
  if (doc.root == nullptr || !doc.root->is_map()) {
    // An empty or non-object devcontainer.json configures nothing the CLI could start.
    out.problems.push_back({ProblemKind::InvalidObject,
                            "devcontainer.json is not a JSON object; nothing in it was reviewed",
                            Location{file.id, 1, 1}});
    return;
  }
  const Node* root = doc.root;
  auto at = [&](const Node* n) { return launch::at_node(file.id, n, Frontend::Devcontainer); };

  Workload w;
  w.engine = Engine::Devcontainer;
  w.id.kind = "devcontainer";
  w.id.name = file.path;
  w.id.render_root = file.path;
  std::string name = str(root->get("name"));
  w.id.container = name.empty() ? "devcontainer" : name;
  w.object_from = w.pod_spec_from = w.container_from = at(root);
  // A run option the file lacks (--memory, --cap-drop, --runtime) is added to `runArgs`: its
  // key is where a finding about it points, when the file has one.
  if (const Node* ra = root->key_node("runArgs")) w.pod_spec_from = w.container_from = at(ra);
  w.lifecycle.controller = Controller::Devcontainer;
  w.image = str(root->get("image"));
  const Folders folders = folders_of(root, file);

  read_run_options(root, file.id, w);
  launch::apply_devcontainer_features(root->get("features"), file.id, w);
  compose_link(root, file, w);
  read_mounts(root, file.id, folders, w);
  // The lifecycle commands run in the workspace folder (with dockerComposeFile, only a written
  // workspaceFolder says which).
  const Node* wf = root->get("workspaceFolder");
  if (wf != nullptr || root->get("dockerComposeFile") == nullptr) {
    w.working_dir = fact(folders.container, at(wf != nullptr ? wf : root));
  }
  read_env_and_ports(root, file.id, w);
  for (const char* key : {"initializeCommand", "onCreateCommand", "updateContentCommand",
                          "postCreateCommand", "postStartCommand", "postAttachCommand"}) {
    lifecycle_commands(root->get(key), key, file.id, folders, ctx, out, w);
  }
  read_build(root, file, ctx, w);
  out.workloads.push_back(std::move(w));
}

}  // namespace

void read_devcontainer_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  std::string text = yaml::strip_jsonc(file.bytes);
  bool seen = false;
  size_t problems = out.problems.size();
  for_each_document(
      text, file.id, "devcontainer.json", out.problems,
      [&](const yaml::Document& doc) {
        seen = true;
        read_devcontainer_document(file, ctx, out, doc);
      },
      1);
  if (!seen && problems == out.problems.size()) {
    out.problems.push_back({ProblemKind::InvalidObject,
                            "devcontainer.json is empty; nothing in it was reviewed",
                            Location{file.id, 1, 1}});
  }
}

}  // namespace sbr
