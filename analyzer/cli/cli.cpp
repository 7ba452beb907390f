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
#include "analyzer/cli/revision.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"

namespace sbr {
namespace {

constexpr const char* kUsage = R"(usage: sbreview check [options] [PATH...]

Reviews the configuration of sandboxes that run untrusted code (Kubernetes manifests, ...).
PATH defaults to the current directory; directories are read recursively.

options:
  --format text|json|sarif   output format (repeatable; pairs with the --output after it)
  --output FILE              write the preceding --format to FILE (default: stdout)
  --fail-on LEVEL            critical|high|medium|low|none (default: high); exit 1 when a
                             finding at or above LEVEL is reported
  --config FILE              configuration (default: .sbreview.yaml at the git top level of
                             the first PATH, else in the current directory; with --revision,
                             .sbreview.yaml at the top of that revision)
  --revision REV             analyse the git revision REV (commit, branch, tag, HEAD~2...)
                             without checking it out; PATHs name paths in that revision,
                             relative to the current directory's place in the repository
  -C DIR                     with --revision: the repository is the one containing DIR, and
                             PATHs are relative to DIR (default: the current directory)
  --dump-model               print the model instead of findings
  --jobs N                   worker threads (default: the number of cores)
  --version                  print the version
  --help                     print this help

exit status: 0 clean, 1 findings at or above --fail-on, 2 usage, configuration or internal error
)";

struct OutputSpec {
  std::string format;
  std::string path;  // "" = stdout
};

struct Options {
  std::vector<std::string> paths;
  std::vector<OutputSpec> outputs;
  std::optional<std::string> fail_on;
  std::optional<std::string> config;
  std::optional<std::string> revision;
  std::optional<std::string> repo_dir;  // -C
  bool dump_model = false;
  bool parse_only = false;  // hidden: stop after building the model (benchmark baseline)
  unsigned jobs = 0;
  std::string today;
};

std::string today_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

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

std::optional<std::string> find_config(const Options& o) {
  if (o.config) return o.config;
  std::string first = o.paths.empty() ? "." : o.paths.front();
  std::string dir = first;
  if (access((first + "/.").c_str(), F_OK) != 0) {
    size_t slash = first.rfind('/');
    dir = slash == std::string::npos ? "." : first.substr(0, slash);
  }
  if (auto top = git_toplevel(dir)) {
    std::string c = *top + "/.sbreview.yaml";
    if (access(c.c_str(), R_OK) == 0) return c;
  }
  if (access(".sbreview.yaml", R_OK) == 0) return std::string(".sbreview.yaml");
  return std::nullopt;
}

// The configuration's text: --config from disk; else, for a revision, its top-level
// .sbreview.yaml; else find_config on disk. nullopt when there is none.
Result<std::optional<ConfigText>> config_text(const Options& o, const GitTree* revision) {
  if (revision != nullptr && !o.config) return revision_config(*revision);
  auto path = find_config(o);
  if (!path) return std::optional<ConfigText>();
  std::ifstream in(*path, std::ios::binary);
  if (!in) return Error{*path + ": cannot read the configuration"};
  std::stringstream ss;
  ss << in.rdbuf();
  return std::optional<ConfigText>(ConfigText{*path, ss.str()});
}

// Parses arguments; returns an error message on bad usage.
std::optional<std::string> parse_args(const std::vector<std::string>& args, Options& o, bool& help,
                                      bool& version) {
  size_t i = 0;
  auto value = [&](const std::string& flag) -> std::optional<std::string> {
    if (i + 1 >= args.size()) return std::nullopt;
    return args[++i];
  };
  bool saw_command = false;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string flag = a, inline_value;
    bool has_inline = false;
    if (a.rfind("--", 0) == 0) {
      if (size_t eq = a.find('='); eq != std::string::npos) {
        flag = a.substr(0, eq);
        inline_value = a.substr(eq + 1);
        has_inline = true;
      }
    }
    auto get = [&]() -> std::optional<std::string> {
      if (has_inline) return inline_value;
      return value(flag);
    };
    if (flag == "--help" || flag == "-h") {
      help = true;
    } else if (flag == "--version") {
      version = true;
    } else if (flag == "--format") {
      auto v = get();
      if (!v || (*v != "text" && *v != "json" && *v != "sarif")) {
        return "--format takes text, json or sarif";
      }
      o.outputs.push_back({*v, ""});
    } else if (flag == "--output" || flag == "-o") {
      auto v = get();
      if (!v) return "--output takes a file name";
      if (o.outputs.empty()) o.outputs.push_back({"text", ""});
      if (!o.outputs.back().path.empty()) return "each --output follows its own --format";
      o.outputs.back().path = *v;
    } else if (flag == "--fail-on") {
      auto v = get();
      auto sev = v ? parse_severity(*v) : std::nullopt;
      if (!v || (*v != "none" && (!sev || *sev == Severity::Note))) {
        return "--fail-on takes critical, high, medium, low or none";
      }
      o.fail_on = *v;
    } else if (flag == "--config") {
      auto v = get();
      if (!v) return "--config takes a file name";
      o.config = *v;
    } else if (flag == "--revision") {
      auto v = get();
      if (!v || v->empty()) return "--revision takes a git revision";
      o.revision = *v;
    } else if (flag == "-C") {
      auto v = get();
      if (!v || v->empty()) return "-C takes a directory";
      o.repo_dir = *v;
    } else if (flag == "--dump-model") {
      o.dump_model = true;
    } else if (flag == "--parse-only") {  // not in the usage text: a benchmark baseline
      o.parse_only = true;
    } else if (flag == "--jobs" || flag == "-j") {
      auto v = get();
      if (!v) return "--jobs takes a number";
      try {
        int n = std::stoi(*v);
        if (n < 1 || n > 256) return "--jobs takes a number from 1 to 256";
        o.jobs = static_cast<unsigned>(n);
      } catch (...) {
        return "--jobs takes a number";
      }
    } else if (flag == "--today") {  // for reproducible tests of acceptance expiry
      auto v = get();
      if (!v) return "--today takes a date";
      o.today = *v;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return "unknown option " + a;
    } else if (!saw_command) {
      if (a != "check") return "unknown command `" + a + "` (try `sbreview check`)";
      saw_command = true;
    } else {
      o.paths.push_back(a);
    }
  }
  if (!saw_command && !help && !version) return "missing command (try `sbreview check`)";
  if (o.repo_dir && !o.revision) return "-C names the repository of --revision; give --revision";
  return std::nullopt;
}

bool should_fail(const std::vector<Finding>& findings, const std::string& level) {
  if (level == "none") return false;
  Severity threshold = *parse_severity(level);
  for (const auto& f : findings) {
    if (f.severity != Severity::Note && f.severity >= threshold) return true;
  }
  return false;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
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

// The `check` command; CatalogError escapes to run_cli.
int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
              CatalogLoader load) {
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
    out << "sbreview " << SBR_VERSION << "\n";
    return 0;
  }
  if (o.paths.empty()) o.paths.push_back(".");
  if (o.outputs.empty()) o.outputs.push_back({"text", ""});
  const Catalog& catalog = load();  // at start-up: a catalog that does not load stops the run

  std::optional<RevisionInput> rev;
  if (o.revision) {
    auto r = open_revision(o.repo_dir.value_or("."), *o.revision, o.paths);
    if (!r) {
      err << "sbreview: " << r.error().message << "\n";
      return 2;
    }
    rev = std::move(*r);
  }
  auto text = config_text(o, rev ? rev->tree.get() : nullptr);
  if (!text) {
    err << "sbreview: " << text.error().message << "\n";
    return 2;
  }
  Config config;
  if (*text) {
    // The configuration's file id is assigned after the walk; parse once for errors first.
    auto parsed = parse_config((*text)->text, (*text)->path, kNoFile);
    if (!parsed) {
      err << "sbreview: " << parsed.error().message << "\n";
      return 2;
    }
    config = std::move(*parsed);
    config.path = (*text)->path;
  }

  AnalyzeOptions ao;
  ao.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  Analysis analysis = rev ? analyze(rev->roots, config, ao) : analyze(o.paths, config, ao);
  if (o.parse_only) return 0;
  if (*text) {
    // Locations in the configuration (acceptances) need a file id in this run's table.
    FileId id = analysis.model.files.add(config.path);
    config = std::move(*parse_config((*text)->text, config.path, id));
  }

  if (o.dump_model) {
    write_model_dump(analysis.model, out);
    return 0;
  }

  RunOptions ro;
  ro.today = o.today.empty() ? today_utc() : o.today;
  std::vector<Finding> findings = run_checks(analysis.model, catalog, config, ro);
  ReportContext ctx{analysis.model, analysis.sources, catalog, findings};
  if (rev) {
    set_revision_report_roots(*rev, ctx);
  } else {
    set_report_roots(o.paths, ctx);
  }
  for (const auto& spec : o.outputs) {
    std::ofstream file;
    std::ostream* stream = &out;
    if (!spec.path.empty()) {
      file.open(spec.path, std::ios::binary | std::ios::trunc);
      if (!file) {
        err << "sbreview: cannot write " << spec.path << "\n";
        return 2;
      }
      stream = &file;
    }
    if (spec.format == "json") {
      write_json(ctx, *stream);
    } else if (spec.format == "sarif") {
      write_sarif(ctx, *stream);
    } else {
      bool tty = spec.path.empty() && &out == &std::cout && isatty(STDOUT_FILENO);
      write_text(ctx, *stream, tty);
    }
  }
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
    return run_check(args, out, err, load);
  } catch (const CatalogError& e) {
    err << "sbreview: internal error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace sbr
