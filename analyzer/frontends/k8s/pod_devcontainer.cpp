#include "analyzer/frontends/k8s/pod_devcontainer.h"

#include <algorithm>
#include <string_view>

#include "analyzer/frontends/shell_words.h"
#include "analyzer/support/strings.h"

namespace sbr::k8s {
namespace {

constexpr std::string_view kImage = "ghcr.io/coder/envbuilder";

// The literal value of NAME (or of its pre-1.0 name without the ENVBUILDER_ prefix, which
// envbuilder still reads) in the container's environment. A value from a Secret or one the
// input does not spell is unknown.
struct Setting {
  bool present = false;
  bool known = false;
  std::string name;
  std::string value;
  Provenance from;
};

Setting setting(const Workload& w, std::string_view name) {
  Setting s;
  for (std::string_view n : {name, name.substr(std::string_view("ENVBUILDER_").size())}) {
    for (const EnvVar& e : w.env) {
      if (e.name != n) continue;
      s.present = true;
      s.known = e.source == EnvSource::Literal;
      s.name = e.name;
      s.value = e.value;
      s.from = e.from;
    }
    if (s.present) return s;
  }
  return s;
}

bool runs_envbuilder(const Workload& w) {
  if (w.image.starts_with(kImage)) return true;
  // A mirrored image still reads its settings from these variables, which nothing else reads.
  return std::any_of(w.env.begin(), w.env.end(), [](const EnvVar& e) {
    return e.name == "ENVBUILDER_GIT_URL" || e.name == "ENVBUILDER_DEVCONTAINER_DIR" ||
           e.name == "ENVBUILDER_DEVCONTAINER_JSON_PATH" || e.name == "ENVBUILDER_INIT_SCRIPT";
  });
}

// A git URL that names a directory of this machine, not a remote repository.
bool local_repository(std::string_view url) {
  return url.starts_with("file://") || url.starts_with("/") || url.starts_with(".");
}

std::string join(const std::string& dir, const std::string& path) {
  if (path.starts_with("/") || dir.empty()) return path;
  return dir.back() == '/' ? dir + path : dir + "/" + path;
}

// The checkout-relative path of `path` inside the checkout at `workspace`; nullopt when the
// path lies outside it (the tool would read a file the repository does not hold).
std::optional<std::string> in_checkout(std::string path, const std::string& workspace) {
  while (path.starts_with("./")) path.erase(0, 2);
  if (!path.starts_with("/")) return path;
  std::string root = workspace.ends_with("/") ? workspace : workspace + "/";
  if (!path.starts_with(root)) return std::nullopt;
  path.erase(0, root.size());
  while (path.starts_with("./")) path.erase(0, 2);
  return path;
}

bool names_this_repository(const std::string& url, const std::vector<std::string>& urls) {
  const std::string want = normalized_git_url(url);
  return std::any_of(urls.begin(), urls.end(),
                     [&](const std::string& u) { return normalized_git_url(u) == want; });
}

// The tried paths for a checkout at `workspace` (envbuilder's and the CLI's order when only
// the folder is given): `.devcontainer/devcontainer.json`, then `.devcontainer.json`.
void default_paths(const std::string& workspace, PodDevcontainer& d) {
  if (auto p = in_checkout(join(workspace, ".devcontainer/devcontainer.json"), workspace)) {
    d.paths.push_back(*p);
  }
  d.paths.emplace_back(".devcontainer.json");
}

// A command line as words, each with where it is written: the container's argv, and the shell
// text a `sh -c` in it runs (split into its simple commands, all located at the text).
using Line = std::vector<std::pair<std::string, Provenance>>;

std::vector<Line> command_lines(const std::vector<Fact<std::string>>& argv) {
  std::vector<Line> out;
  auto shell_text = [&](const Fact<std::string>& text) {
    for (auto& words : simple_commands(text.value)) {
      Line l;
      for (auto& word : words) l.emplace_back(std::move(word), text.from);
      out.push_back(std::move(l));
    }
  };
  if (argv.size() == 1 && argv[0].value.find(' ') != std::string::npos) {
    shell_text(argv[0]);
    return out;
  }
  Line whole;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    whole.emplace_back(argv[i].value, argv[i].from);
    if (argv[i].value == "-c" && i + 1 < argv.size()) shell_text(argv[i + 1]);
  }
  out.push_back(std::move(whole));
  return out;
}

// The value of `--NAME VALUE` or `--NAME=VALUE` in `l` after `from`.
std::optional<std::pair<std::string, Provenance>> option(const Line& l, std::size_t from,
                                                         std::string_view name) {
  const std::string flag = "--" + std::string(name);
  for (std::size_t i = from; i < l.size(); ++i) {
    if (l[i].first == flag && i + 1 < l.size()) return l[i + 1];
    if (l[i].first.starts_with(flag + "=")) {
      return std::make_pair(l[i].first.substr(flag.size() + 1), l[i].second);
    }
  }
  return std::nullopt;
}

// Where `devcontainer up` is in `l`: the index of `up` after the CLI's program (`devcontainer`,
// or the package `@devcontainers/cli` that npx, `npm exec` or `pnpm dlx` runs).
std::optional<std::size_t> cli_up(const Line& l) {
  for (std::size_t i = 0; i < l.size(); ++i) {
    const std::string& word = l[i].first;
    if (base_name(word) != "devcontainer" && !word.starts_with("@devcontainers/cli")) continue;
    for (std::size_t j = i + 1; j < l.size(); ++j) {
      if (l[j].first.starts_with("-")) continue;
      if (l[j].first == "up") return j;
      break;
    }
  }
  return std::nullopt;
}

std::string absolute_in(const Workload& w, const std::string& path) {
  if (path.starts_with("/")) return path;
  if (!w.working_dir || !w.working_dir->value.starts_with("/")) return "";
  return path == "." ? w.working_dir->value : join(w.working_dir->value, path);
}

}  // namespace

std::string url_without_credentials(const std::string& url) {
  std::size_t scheme = url.find("://");
  std::size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  std::size_t slash = url.find('/', start);
  std::size_t at = url.rfind('@', slash == std::string::npos ? url.size() : slash);
  if (scheme == std::string::npos || at == std::string::npos || at < start) return url;
  return url.substr(0, start) + url.substr(at + 1);
}

std::string normalized_git_url(std::string url) {
  url = lower(url_without_credentials(url));
  if (std::size_t hash = url.find('#'); hash != std::string::npos) url.erase(hash);
  if (std::size_t scheme = url.find("://"); scheme != std::string::npos) {
    url.erase(0, scheme + 3);
  } else if (std::size_t at = url.find('@'); at != std::string::npos && url.find(':') > at) {
    // scp-like `git@host:owner/repo`
    url.erase(0, at + 1);
    if (std::size_t colon = url.find(':'); colon != std::string::npos) url[colon] = '/';
  }
  while (url.ends_with("/")) url.pop_back();
  if (url.ends_with(".git")) url.erase(url.size() - 4);
  return url;
}

std::optional<PodDevcontainer> envbuilder_devcontainer(
    const Workload& w, const std::vector<std::string>& repository_urls) {
  if (!runs_envbuilder(w)) return std::nullopt;
  PodDevcontainer d;
  d.from = w.container_from;
  Setting url = setting(w, "ENVBUILDER_GIT_URL");
  Setting folder = setting(w, "ENVBUILDER_WORKSPACE_FOLDER");
  Setting dir = setting(w, "ENVBUILDER_DEVCONTAINER_DIR");
  Setting json = setting(w, "ENVBUILDER_DEVCONTAINER_JSON_PATH");
  for (const Setting* s : {&url, &folder, &dir, &json}) {
    if (s->present && !s->known) {
      d.from = s->from;
      d.unknown = s->name +
                  " is not written in the input (it comes from a Secret, a ConfigMap "
                  "or the downward API)";
      return d;
    }
  }
  if (url.present && !local_repository(url.value) &&
      !names_this_repository(url.value, repository_urls)) {
    d.from = url.from;
    d.remote_url = url_without_credentials(url.value);
    d.unknown = "envbuilder clones " + d.remote_url +
                ", which is not declared as this repository (.sbreview.yaml `repository.urls`)";
  }
  // envbuilder's defaults: the checkout at /workspaces/empty without a URL, the folder
  // .devcontainer in it, devcontainer.json in that folder.
  std::string workspace = folder.present && !folder.value.empty()      ? folder.value
                          : url.present && local_repository(url.value) ? url.value
                                                                       : "/workspaces/empty";
  if (workspace.starts_with("file://")) workspace.erase(0, 7);
  if (!dir.present && !json.present) {
    default_paths(workspace, d);
    return d;
  }
  std::string dj = join(join(workspace, dir.present ? dir.value : ".devcontainer"),
                        json.present ? json.value : "devcontainer.json");
  if (auto p = in_checkout(dj, workspace)) d.paths.push_back(*p);
  if (d.remote_url.empty()) d.from = json.present ? json.from : dir.from;
  if (d.paths.empty() && d.unknown.empty()) {
    d.unknown = "envbuilder reads " + dj + ", outside its checkout at " + workspace;
  }
  return d;
}

std::optional<PodDevcontainer> cli_devcontainer(const Workload& w) {
  for (const Line& l : command_lines(w.command)) {
    auto up = cli_up(l);
    if (!up) continue;
    PodDevcontainer d;
    d.tool = PodDevcontainerTool::Cli;
    d.from = l[*up].second;
    auto folder_opt = option(l, *up, "workspace-folder");
    // Without --workspace-folder the CLI opens the directory it runs in.
    std::string folder = absolute_in(w, folder_opt ? folder_opt->first : ".");
    if (folder_opt) d.from = folder_opt->second;
    if (folder.empty()) {
      d.unknown =
          "`devcontainer up` opens a workspace folder the input does not fix (a relative "
          "or missing --workspace-folder, and no workingDir)";
      return d;
    }
    if (auto config = option(l, *up, "config")) {
      d.from = config->second;
      std::string path = absolute_in(w, config->first);
      if (auto p = path.empty() ? std::nullopt : in_checkout(path, folder)) {
        d.paths.push_back(*p);
      } else {
        d.unknown = "`devcontainer up --config " + config->first +
                    "` reads a file outside its workspace folder " + folder;
      }
      return d;
    }
    default_paths(folder, d);
    return d;
  }
  return std::nullopt;
}

}  // namespace sbr::k8s
