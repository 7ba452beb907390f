// `docker compose -f base.yml -f agent.yml up` in a launcher: compose reads exactly those files,
// in that order, and no override file beside them. `COMPOSE_FILE=base.yml:agent.yml` in the
// command's environment (an inline assignment, `env`) does the same when there is no `-f`.
// Without either, compose reads the default files of its directory, which the compose frontend
// already reads on their own.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/launch/run_options.h"
#include "analyzer/support/strings.h"

namespace sbr {

namespace {

constexpr std::size_t kNamedComposeFiles = 3;

// Global options of `docker compose` that take a value (the value is not the subcommand).
constexpr std::string_view kValued[] = {"-p",         "--project-name", "--project-directory",
                                        "--env-file", "--profile",      "--ansi",
                                        "--parallel", "--progress"};
// Subcommands that create or start the services' containers.
constexpr std::string_view kStarts[] = {"up", "run", "create", "start"};

template <std::size_t N>
bool one_of(const std::string_view (&set)[N], std::string_view s) {
  for (std::string_view x : set) {
    if (x == s) return true;
  }
  return false;
}

// Where the compose command's own arguments start, or 0 when `inv` is not compose.
std::size_t compose_args_start(const Invocation& inv) {
  const std::string name = base_name(inv.argv[0].text);
  if (name == "docker-compose" || name == "podman-compose") return 1;
  if (name != "docker" && name != "podman" && name != "nerdctl") return 0;
  std::size_t i = launch::skip_global_options(inv.argv, 1);
  return i < inv.argv.size() && inv.argv[i].text == "compose" ? i + 1 : 0;
}

struct ComposeArgs {
  std::vector<Word> files;
  std::optional<Word> project_dir;  // --project-directory
  std::string subcommand;
  bool detached = false;  // `up -d`: the services outlive the client
};

ComposeArgs parse(const Invocation& inv, std::size_t i) {
  ComposeArgs a;
  for (; i < inv.argv.size(); ++i) {
    const std::string& t = inv.argv[i].text;
    if ((t == "-f" || t == "--file") && i + 1 < inv.argv.size()) {
      a.files.push_back(inv.argv[++i]);
    } else if (t.rfind("--file=", 0) == 0) {
      a.files.push_back(inv.argv[i]);
    } else if (t == "--project-directory" && i + 1 < inv.argv.size()) {
      a.project_dir = inv.argv[++i];
    } else if (t.rfind("--project-directory=", 0) == 0) {
      a.project_dir = inv.argv[i];
      a.project_dir->text.erase(0, std::string_view("--project-directory=").size());
    } else if (one_of(kValued, t)) {
      ++i;
    } else if (t.empty() || t[0] != '-') {
      a.subcommand = t;
      break;
    }
  }
  for (++i; i < inv.argv.size(); ++i) {
    const std::string& t = inv.argv[i].text;
    a.detached = a.detached || t == "-d" || t == "--detach";
  }
  return a;
}

// The value of `NAME=value` among the command's environment words, or nullptr.
const Word* env_word(const Invocation& inv, std::string_view name) {
  const Word* found = nullptr;
  for (const Word& w : inv.env_prefix) {
    if (w.text.size() > name.size() && w.text.starts_with(name) && w.text[name.size()] == '=')
      found = &w;  // the last assignment wins
  }
  return found;
}

// `COMPOSE_FILE=a.yml:b.yml` (separated by COMPOSE_PATH_SEPARATOR, `:` by default) as the
// files `-f` would name, each located at the assignment.
void compose_file_variable(const Invocation& inv, ComposeArgs& a) {
  const Word* var = env_word(inv, "COMPOSE_FILE");
  if (var == nullptr || !a.files.empty()) return;
  std::string sep = ":";
  if (const Word* s = env_word(inv, "COMPOSE_PATH_SEPARATOR")) {
    sep = s->text.substr(s->text.find('=') + 1);
    if (sep.empty()) sep = ":";
  }
  const std::string value = var->text.substr(var->text.find('=') + 1);
  if (var->symbolic && value.empty()) {
    Word w = *var;
    w.text.clear();
    a.files.push_back(std::move(w));
    return;
  }
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(sep, start);
    if (end == std::string::npos) end = value.size();
    if (end > start) {
      Word w = *var;
      w.text = value.substr(start, end - start);
      a.files.push_back(std::move(w));
    }
    start = end + sep.size();
  }
}

// timeout(1) in front of a foreground `compose up` ends the client, and compose stops the
// services when its attached client is killed; detached services outlive it.
void apply_timeout(const Invocation& inv, const ComposeArgs& args, Workload& w) {
  if (!args.detached) launch::apply_timeout_wrapper(inv, w);
}

// Whether the input has a file below `dir` ("" is the top, which always is).
bool has_directory(const SourceSet* sources, const std::string& dir) {
  if (dir.empty()) return true;
  if (sources == nullptr) return false;
  return std::any_of(sources->files.begin(), sources->files.end(),
                     [&](const SourceFile& f) { return f.path.rfind(dir, 0) == 0; });
}

// `--project-directory DIR` as a repository directory ("a/b/", "" for the top): relative to
// where the launcher runs, the repository's top or the script's directory, whichever holds it;
// nullopt for a value the script leaves open or a path outside the repository.
std::optional<std::string> project_directory(const ComposeArgs& a, const LaunchContext& ctx,
                                             const std::string& script) {
  if (!a.project_dir || a.project_dir->symbolic || a.project_dir->text.empty() ||
      a.project_dir->text.front() == '/')
    return std::nullopt;
  for (const std::string& base : {std::string(), launch::dir_of(script)}) {
    std::string dir = launch::normalize_path(base + a.project_dir->text);
    if (dir == ".") dir.clear();
    if (dir.rfind("..", 0) == 0) continue;
    if (!dir.empty() && dir.back() != '/') dir += '/';
    if (has_directory(ctx.sources, dir)) return dir;
  }
  return std::nullopt;
}

// What the command's environment sets: the launcher's exports with a value it knows there, then
// the inline assignments in front of the command (`FOO=1 docker compose up`), which win.
std::vector<std::pair<std::string, std::string>> environment(const Invocation& inv) {
  std::vector<std::pair<std::string, std::string>> out = inv.exported_env;
  for (const Word& w : inv.env_prefix) {
    const auto eq = w.text.find('=');
    if (w.symbolic || eq == std::string::npos || eq == 0) continue;
    out.emplace_back(w.text.substr(0, eq), w.text.substr(eq + 1));
  }
  return out;
}

// A file name the script leaves open is sbreview's gap; a literal one missing from the tree is
// the repository's (compose fails on it too).
Problem unresolved(const Word& w, std::string message) {
  return Problem{ProblemKind::SourceUnresolved, std::move(message), w.from.at,
                 w.symbolic ? Cause::Analyzer : Cause::Repository};
}

}  // namespace

bool compose_from_invocation(const Invocation& inv, const LaunchContext& ctx, FilePart& out) {
  if (inv.argv.empty()) return false;
  std::size_t start = compose_args_start(inv);
  if (start == 0) return false;
  ComposeArgs args = parse(inv, start);
  compose_file_variable(inv, args);
  if (args.files.empty() || !one_of(kStarts, args.subcommand)) return false;
  std::string script = ctx.sources && ctx.script < ctx.sources->files.size()
                           ? ctx.sources->files[ctx.script].path
                           : "";
  std::vector<const SourceFile*> files;
  for (const Word& word : args.files) {
    const Word* w = &word;
    std::string text = w->text.rfind("--file=", 0) == 0 ? w->text.substr(7) : w->text;
    if (w->symbolic && text.empty()) {
      out.problems.push_back(unresolved(
          *w, fmt::format("`compose -f` takes its file from {}: the services it defines were "
                          "not seen",
                          w->origin)));
      continue;
    }
    // A path built on the script-directory idiom is already relative to the repository root
    // (render/bash path_idioms); a plain relative one is relative to the working directory,
    // which is the repository root or the script's directory when the script cd's there.
    const SourceFile* f = nullptr;
    for (const std::string& dir : {std::string(), launch::dir_of(script)}) {
      if (f == nullptr && text.front() != '/') {
        f = launch::find_source(ctx.sources, launch::normalize_path(dir + text));
      }
    }
    if (f == nullptr || !f->readable) {
      // The path as a reader knows it: what the script leaves open is named, not left out.
      std::string shown = w->text.rfind("--file=", 0) == 0 ? text : w->shown();
      out.problems.push_back(unresolved(
          *w, fmt::format("`compose -f {}` reads a file that is not in the analysed tree: the "
                          "services it defines were not seen",
                          shown)));
      continue;
    }
    files.push_back(f);
  }
  FrontendContext fctx;
  fctx.sources = ctx.sources;
  // "compose/base.yml + compose/agent.yml, run by bin/up": the project as that launcher has it.
  // Past three files the overlays are not listed (the model keeps them, compose_files): a
  // launcher that picks overlays per path would give each finding a paragraph of file names,
  // and its paths one name for the reader.
  std::string name;
  for (const SourceFile* f : files) name += (name.empty() ? "" : " + ") + f->path;
  if (files.size() > kNamedComposeFiles) name = files.front()->path + " with its overlays";
  name += ", run by " + script;
  const std::size_t before = out.workloads.size();
  read_compose_project(files, std::move(name), fctx, out, project_directory(args, ctx, script),
                       environment(inv));
  for (std::size_t k = before; k < out.workloads.size(); ++k) {
    // Rendered by this launcher: link_launches drops the standalone reading of the same files.
    out.workloads[k].id.render_root = script;
    for (const SourceFile* f : files) out.workloads[k].compose_files.push_back(f->path);
    apply_timeout(inv, args, out.workloads[k]);
  }
  return true;
}

}  // namespace sbr
