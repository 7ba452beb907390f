#include "analyzer/cli/rules_command.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "analyzer/cli/command.h"
#include "analyzer/cli/rule_tests.h"
#include "analyzer/cli/user_rules.h"
#include "analyzer/report/catalog_docs.h"
#include "analyzer/report/report_util.h"

namespace sbr {
namespace embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& rule_pages();
}

namespace {

// The catalog with the repository's and --rules DIR's user rules, for listing and explaining.
Result<Catalog> listed_catalog(const Options& o, const Catalog& builtin) {
  auto text = config_text(o, nullptr);
  if (!text) return text.error();
  auto config = read_config(*text);
  if (!config) return config.error();
  return run_catalog(builtin, o, nullptr, repository_top(o), *config);
}

std::string read_disk(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string_view embedded_page(const Rule& rule) {
  std::string want = "docs/rules/" + rule.id + "-" + rule.slug + ".md";
  for (const auto& [path, text] : embedded::rule_pages()) {
    if (path == want) return text;
  }
  return {};
}

int run_rules(const Options& o, std::ostream& out, std::ostream& err, const Catalog& builtin) {
  auto catalog = listed_catalog(o, builtin);
  if (!catalog) {
    err << "sbreview: " << report::one_line_safe(catalog.error().message) << "\n";
    return 2;
  }
  std::string format = o.outputs.empty() ? "text" : o.outputs.front().format;
  if (format == "json") {
    report::write_rules_json(*catalog, o.invariant, out);
  } else if (format == "markdown") {
    report::write_rules_index(*catalog, out);
  } else {
    report::write_rules_text(*catalog, o.invariant, out);
  }
  return 0;
}

int run_explain(const Options& o, std::ostream& out, std::ostream& err, const Catalog& builtin) {
  auto catalog = listed_catalog(o, builtin);
  if (!catalog) {
    err << "sbreview: " << report::one_line_safe(catalog.error().message) << "\n";
    return 2;
  }
  const Rule* r = catalog->find(o.rule);
  if (r == nullptr) {
    for (const Rule& x : catalog->rules()) {
      if (x.slug == o.rule) r = &x;
    }
  }
  if (r == nullptr) {
    err << "sbreview: no rule " << o.rule << " (see `sbreview rules`)\n";
    return 2;
  }
  std::string page = r->user ? read_disk(report::page_of(*r)) : std::string(embedded_page(*r));
  if (page.empty()) {
    page = fmt::format("# {} {}\n\n{}\n\n{}\n\n## How to fix\n{}\n", r->id, r->slug, r->title,
                       r->message, r->remediation);
  }
  out << page;
  if (!page.empty() && page.back() != '\n') out << "\n";
  out << fmt::format("\n## Origin\n{} ({})\n", r->origin.detail, r->origin.kind);
  out << fmt::format("\n## How the prover confirms it\n{}\n",
                     r->prover.empty() ? "not stated" : r->prover);
  out << fmt::format("\n## Implemented by\n{}\n", report::implementation_of(*r) == "data"
                                                      ? "data: its `match:` in " + r->file
                                                      : report::implementation_of(*r));
  return 0;
}

int run_test_rules(const Options& o, std::ostream& out, std::ostream& err, const Catalog& builtin) {
  size_t passed = 0, failed = 0, skipped = 0;
  for (const std::string& dir : o.paths) {
    auto files = rule_files_on_disk(dir);
    if (!files) {
      err << "sbreview: " << report::one_line_safe(files.error().message) << "\n";
      return 2;
    }
    bool project = !files->empty() && std::all_of(files->begin(), files->end(), [](const auto& f) {
      size_t slash = f.first.rfind('/');
      return f.first.compare(slash + 1, 2, "SB") == 0;
    });
    // A project's rules/ is a whole catalog, judged closed world as its fixtures are written;
    // a directory of user rules joins the built-in catalog and answers for its own rules.
    Options here = o;
    here.paths = {dir};
    here.rule_dirs.clear();
    Result<Catalog> catalog = Error{};
    if (project) {
      std::vector<std::pair<std::string_view, std::string_view>> views(files->begin(),
                                                                       files->end());
      catalog = Catalog::load(views);
    } else {
      // `<repo>/.sbreview/rules` is configured by `<repo>/.sbreview.yaml` (its rule_prefix).
      std::string top = dir;
      while (top.size() > 1 && top.back() == '/') top.pop_back();
      const std::string tail = "/.sbreview/rules";
      bool in_repo = top.size() >= tail.size() &&
                     top.compare(top.size() - tail.size(), tail.size(), tail) == 0;
      if (!here.config && in_repo) {
        std::string cfg = top.substr(0, top.size() - tail.size());
        cfg = (cfg.empty() ? "." : cfg) + "/.sbreview.yaml";
        if (std::ifstream(cfg).good()) here.config = cfg;
      }
      auto text = config_text(here, nullptr);
      auto config = text ? read_config(*text) : Result<Config>(text.error());
      if (!config) {
        err << "sbreview: " << report::one_line_safe(config.error().message) << "\n";
        return 2;
      }
      RuleSource source;
      source.user = true;
      if (!config->rule_prefix.empty()) source.prefixes.push_back(config->rule_prefix);
      std::vector<std::pair<std::string, std::string>> owned(files->begin(), files->end());
      catalog = builtin.with_user_rules(owned, source);
    }
    if (!catalog) {
      err << "sbreview: " << report::one_line_safe(catalog.error().message) << "\n";
      return 2;
    }
    ruletest::FixtureRun run;
    run.catalog = &*catalog;
    for (const Rule& r : catalog->rules()) {
      if (!project && !r.user) continue;
      // The prover's own findings come from launching a workload: `check` never reports them,
      // and their fixtures are proved on real podman (tests/prover_podman_test.cpp).
      if (r.implemented_by.rfind("prover/", 0) == 0) {
        out << fmt::format("skip {} {}: reported by `sbreview prove` only\n", r.id, r.slug);
        ++skipped;
        continue;
      }
      std::string fixtures = ruletest::fixtures_for(dir, r);
      if (fixtures.empty()) {
        if (!r.data && !r.user) {  // a C++ rule its own tests exercise (a diff-only rule)
          out << fmt::format("skip {} {}: no fixture directory\n", r.id, r.slug);
          ++skipped;
          continue;
        }
        std::string stem = r.file.substr(r.file.rfind('/') + 1);
        out << fmt::format("FAIL {} {}: no fixture directory {}/{}/\n", r.id, r.slug, dir,
                           stem.substr(0, stem.rfind('.')));
        ++failed;
        continue;
      }
      auto failures = ruletest::test_rule(r, fixtures, project, run);
      if (failures.empty()) {
        ++passed;
        continue;
      }
      ++failed;
      out << fmt::format("FAIL {} {}\n", r.id, r.slug);
      for (const auto& f : failures) out << "  " << f << "\n";
    }
  }
  out << fmt::format("test-rules: {} passed, {} failed, {} skipped\n", passed, failed, skipped);
  return failed > 0 ? 1 : 0;
}

}  // namespace sbr
