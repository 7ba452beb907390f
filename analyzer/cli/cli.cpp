#include "analyzer/cli/cli.h"

#include <fmt/format.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/cli/baseline.h"
#include "analyzer/cli/command.h"
#include "analyzer/cli/completion.h"
#include "analyzer/cli/diff.h"
#include "analyzer/cli/options.h"
#include "analyzer/cli/prove_command.h"
#include "analyzer/cli/render_command.h"
#include "analyzer/cli/repository.h"
#include "analyzer/cli/revision.h"
#include "analyzer/cli/rules_command.h"
#include "analyzer/cli/user_rules.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "analyzer/report/report_util.h"
#include "analyzer/source/working_tree.h"
#include "analyzer/support/build_info.h"

namespace sbr {

namespace {

// The working tree's top level for `path`, through libgit2 (no git binary is run).
std::optional<std::string> git_toplevel(const std::string& path) {
  git_libgit2_init();
  git_buf buf = GIT_BUF_INIT;
  std::optional<std::string> out;
  if (git_repository_discover(&buf, path.c_str(), 0, nullptr) == 0) {
    git_repository* repo = nullptr;
    if (git_repository_open(&repo, buf.ptr) == 0) {
      if (const char* wd = git_repository_workdir(repo)) {
        std::string s = wd;
        if (s.size() > 1 && s.back() == '/') s.pop_back();
        out = s;
      }
      git_repository_free(repo);
    }
  }
  git_buf_dispose(&buf);
  git_libgit2_shutdown();
  return out;
}

std::string first_dir(const Options& o) {
  std::string first = o.paths.empty() ? "." : o.paths.front();
  if (access((first + "/.").c_str(), F_OK) == 0) return first;
  size_t slash = first.rfind('/');
  return slash == std::string::npos ? "." : first.substr(0, slash);
}

// Whether anything is at `path`, a link included (lstat): a link where the configuration goes is
// read and refused, never taken for "no configuration".
bool exists_here(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

// `path` relative to the working directory when it lies below it: findings on the configuration
// name it as they name the files beside it (`.sbreview.yaml`, not the checkout's absolute path,
// which is no SARIF artifact URI).
std::string relative_to_cwd(const std::string& path) {
  char buf[4096];
  if (getcwd(buf, sizeof buf) == nullptr) return path;
  std::string cwd = buf;
  if (cwd != "/" && path.size() > cwd.size() + 1 && path.compare(0, cwd.size(), cwd) == 0 &&
      path[cwd.size()] == '/') {
    return path.substr(cwd.size() + 1);
  }
  return path;
}

std::optional<std::string> find_config(const Options& o) {
  if (o.config) return o.config;
  if (auto top = git_toplevel(first_dir(o))) {
    std::string c = *top + "/.sbreview.yaml";
    if (exists_here(c)) return relative_to_cwd(c);
  }
  if (exists_here(".sbreview.yaml")) return std::string(".sbreview.yaml");
  return std::nullopt;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string repository_top(const Options& o) {
  if (auto top = git_toplevel(first_dir(o))) return *top;
  return ".";
}

std::string today_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

// The configuration's text: --config from disk; else, for a revision, its top-level
// .sbreview.yaml; else find_config on disk. nullopt when there is none.
Result<std::optional<ConfigText>> config_text(const Options& o, const GitTree* revision) {
  if (revision != nullptr && !o.config) return revision_config(*revision);
  auto path = find_config(o);
  if (!path) return std::optional<ConfigText>();
  // The repository's configuration is input like any file of it: a link (out of the tree or
  // not), a FIFO or /dev/zero is refused. One named with --config is the user's: a link to it
  // is followed, the rest holds.
  std::string text;
  ReadResult r = read_regular_file(*path, kMaxConfigBytes, text, o.config.has_value());
  if (!r.ok) {
    return Error{
        fmt::format("{}: cannot read the configuration: {}", report::one_line_safe(*path), r.why)};
  }
  return std::optional<ConfigText>(ConfigText{*path, std::move(text)});
}

bool should_fail(const std::vector<Finding>& findings, const std::string& level) {
  if (level == "none") return false;
  Severity threshold = *parse_severity(level);
  for (const auto& f : findings) {
    if (f.severity != Severity::Note && f.severity >= threshold) return true;
  }
  return false;
}

// Where report paths are relative to. Model paths are relative to a directory root, or to the
// working directory for file roots. SARIF gets %SRCROOT% and, inside a git working tree, URIs
// relative to its top level (GitHub resolves them against the repository); text gets paths
// relative to the working directory (editors open them). With several roots, the walk keeps
// each root in the path, so the working directory is the base.
void set_report_roots(const std::vector<std::string>& paths, ReportContext& ctx) {
  size_t dirs = 0;
  for (const auto& p : paths) dirs += is_directory(p) ? 1 : 0;
  const std::string& first = paths.front();
  // Several roots: the walk keeps each root in the path, so paths are relative to the working
  // directory, as for file roots.
  bool dir = dirs == 1 && paths.size() == 1;
  if (dir) ctx.display_prefix = display_prefix_of(first);
  char* root = realpath(dir ? first.c_str() : ".", nullptr);
  if (root == nullptr) return;
  ctx.source_root = root;
  std::free(root);
  std::optional<std::string> top = git_toplevel(ctx.source_root);
  char* top_real = top ? realpath(top->c_str(), nullptr) : nullptr;
  if (top_real == nullptr) return;
  std::string t = top_real;
  std::free(top_real);
  if (ctx.source_root.size() > t.size() && ctx.source_root.compare(0, t.size(), t) == 0 &&
      ctx.source_root[t.size()] == '/') {
    ctx.uri_prefix = ctx.source_root.substr(t.size() + 1) + "/";
    ctx.source_root = t;
  }
}

Result<Config> read_config(const std::optional<ConfigText>& text) {
  Config config;
  if (!text) return config;
  // The configuration's file id is assigned after the walk; parse once for errors first.
  auto parsed = parse_config(text->text, text->path, kNoFile);
  if (!parsed) return parsed.error();
  config = std::move(*parsed);
  config.path = text->path;
  return config;
}

void give_config_a_file(const std::optional<ConfigText>& text, Analysis& analysis, Config& config) {
  if (!text) return;
  // Locations in the configuration (acceptances) need a file id in this run's table.
  FileId id = analysis.model.files.add(config.path);
  config = std::move(*parse_config(text->text, config.path, id));
}

bool write_reports(const Options& o, const ReportContext& ctx, std::ostream& out,
                   std::ostream& err) {
  for (const auto& spec : o.outputs) {
    std::ofstream file;
    std::ostream* stream = &out;
    if (!spec.path.empty()) {
      file.open(spec.path, std::ios::binary | std::ios::trunc);
      if (!file) {
        err << "sbreview: cannot write " << spec.path << "\n";
        return false;
      }
      stream = &file;
    }
    if (spec.format == "json") {
      write_json(ctx, *stream);
    } else if (spec.format == "sarif") {
      write_sarif(ctx, *stream);
    } else if (spec.format == "github") {
      write_github(ctx, *stream);
    } else if (spec.format == "markdown") {
      write_markdown(ctx, *stream);
    } else {
      bool tty = spec.path.empty() && &out == &std::cout && isatty(STDOUT_FILENO);
      write_text(ctx, *stream, tty);
    }
  }
  return true;
}

namespace {

int write_completion(std::ostream& out, const Catalog& catalog) {
  std::vector<std::string> ids;
  for (const Rule& r : catalog.rules()) ids.push_back(r.id);
  write_bash_completion(parse_usage(kUsage), ids, out);
  return 0;
}

int write_baseline_file(const Options& o, const std::vector<Finding>& findings, const Model& model,
                        std::ostream& out, std::ostream& err) {
  const std::string path = o.outputs.empty() ? "" : o.outputs.front().path;
  if (path.empty()) {
    write_baseline(findings, model, out);
    return 0;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    err << "sbreview: cannot write " << path << "\n";
    return 2;
  }
  write_baseline(findings, model, file);
  err << fmt::format("baseline: {} findings written to {}\n", findings.size(), path);
  return file ? 0 : 2;
}

// The `check` command; CatalogError escapes to run_cli.
int run_check(const Options& o, std::ostream& out, std::ostream& err, const Catalog& builtin) {
  std::optional<RevisionInput> rev;
  if (o.revision) {
    auto r = open_revision(o.repo_dir.value_or("."), *o.revision, o.paths);
    if (!r) {
      err << "sbreview: " << report::one_line_safe(r.error().message) << "\n";
      return 2;
    }
    rev = std::move(*r);
  }
  auto text = config_text(o, rev ? rev->tree.get() : nullptr);
  if (!text) {
    err << "sbreview: " << report::one_line_safe(text.error().message) << "\n";
    return 2;
  }
  auto parsed = read_config(*text);
  if (!parsed) {
    err << "sbreview: " << report::one_line_safe(parsed.error().message) << "\n";
    return 2;
  }
  Config config = std::move(*parsed);
  auto with_user =
      run_catalog(builtin, o, rev ? rev->tree.get() : nullptr, repository_top(o), config);
  if (!with_user) {
    err << "sbreview: " << report::one_line_safe(with_user.error().message) << "\n";
    return 2;
  }
  const Catalog& catalog = *with_user;

  AnalyzeOptions ao;
  ao.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  ao.render = render_options(o);
  RunRepository repository = rev ? revision_repository(*rev) : working_repository(o.paths);
  ao.repository = repository.get();
  Analysis analysis = rev ? analyze(rev->roots, config, ao) : analyze(o.paths, config, ao);
  if (o.parse_only) return 0;
  give_config_a_file(*text, analysis, config);

  if (o.dump_model) {
    write_model_dump(analysis.model, out);
    return 0;
  }

  RunOptions ro;
  ro.today = o.today.empty() ? today_utc() : o.today;
  std::vector<Finding> findings = run_checks(analysis.model, catalog, config, ro);
  if (o.command == "baseline") return write_baseline_file(o, findings, analysis.model, out, err);
  if (o.baseline) {
    auto keys = read_baseline(*o.baseline);
    if (!keys) {
      err << "sbreview: " << report::one_line_safe(keys.error().message) << "\n";
      return 2;
    }
    size_t dropped = drop_baselined(findings, *keys);
    err << fmt::format("baseline {}: {} known findings not reported\n", *o.baseline, dropped);
  }
  ReportContext ctx{analysis.model, analysis.sources, catalog, findings};
  if (rev) {
    set_revision_report_roots(*rev, ctx);
  } else {
    set_report_roots(o.paths, ctx);
  }
  if (!write_reports(o, ctx, out, err)) return 2;
  std::string level = o.fail_on ? *o.fail_on : config.fail_on ? *config.fail_on : "high";
  return should_fail(findings, level) ? 1 : 0;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_cli(args, out, err, &Catalog::embedded);
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            CatalogLoader load) {
  try {
    Options o;
    bool help = false, version = false;
    if (auto e = parse_args(args, o, help, version)) {
      err << "sbreview: " << *e << "\n" << kUsage;
      return 2;
    }
    if (help) {
      out << kUsage;
      return 0;
    }
    if (version) {
      out << "sbreview " << build_version() << " (commit " << build_commit() << ")\n";
      return 0;
    }
    if (o.command == "completion") return write_completion(out, load());
    if (o.paths.empty()) o.paths.push_back(".");
    if (o.outputs.empty()) o.outputs.push_back({"text", ""});
    const Catalog& catalog = load();  // at start-up: a catalog that does not load stops the run
    if (o.command == "render") return run_render(o, out, err);
    if (o.command == "prove") return run_prove(o, out, err, catalog);
    if (o.command == "rules") return run_rules(o, out, err, catalog);
    if (o.command == "explain") return run_explain(o, out, err, catalog);
    if (o.command == "test-rules") return run_test_rules(o, out, err, catalog);
    return o.command == "diff" ? run_diff(o, out, err, catalog) : run_check(o, out, err, catalog);
  } catch (const CatalogError& e) {
    err << "sbreview: internal error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace sbr
