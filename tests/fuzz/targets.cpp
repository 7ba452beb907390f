#include "tests/fuzz/targets.h"

#include <array>
#include <cstdlib>
#include <ostream>
#include <streambuf>
#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/cli/prove_from.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "analyzer/source/memory_tree.h"
#include "analyzer/support/yaml_splice.h"
#include "tests/fuzz/generators.h"
#include "tests/yaml_splice_util.h"

namespace sbr::fuzz {

namespace {

// Counts what the writers produce and throws it away: the reports are exercised (escaping,
// redaction, invalid UTF-8) without keeping their bytes.
class NullBuf final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

int run_tree(const MemoryTree& tree, const Config& config = Config{},
             const Catalog& catalog = Catalog::embedded()) {
  AnalyzeOptions options;
  options.ask_bash = false;  // a bash process per input would slow the campaign a hundredfold
  Analysis analysis = analyze(tree, config, options);
  RunOptions run;
  run.today = "2026-06-15";
  std::vector<Finding> findings = run_checks(analysis.model, catalog, config, run);
  NullBuf buf;
  std::ostream out(&buf);
  ReportContext ctx{analysis.model, analysis.sources, catalog, findings};
  write_text(ctx, out, false);
  write_json(ctx, out);
  write_sarif(ctx, out);
  return 0;
}

int run_file(const char* name, const std::uint8_t* data, std::size_t size) {
  MemoryTree tree;
  tree.add_file(name, std::string(reinterpret_cast<const char*>(data), size));
  return run_tree(tree);
}

}  // namespace

int kubernetes(const std::uint8_t* data, std::size_t size) {
  return run_file("manifest.yaml", data, size);
}

int launcher(const std::uint8_t* data, std::size_t size) {
  return run_file("run.sh", data, size);
}

int containers(const std::uint8_t* data, std::size_t size) {
  static constexpr std::array<const char*, 6> kNames = {
      "compose.yaml", ".devcontainer/devcontainer.json", "Dockerfile", "egress.nft", "squid.conf",
      "seccomp.json"};
  if (size == 0) return 0;
  MemoryTree tree;
  tree.add_file(kNames[data[0] % kNames.size()],
                std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  return run_tree(tree);
}

int chart(const std::uint8_t* data, std::size_t size) {
  // values.yaml, then the template after the first NUL byte; Chart.yaml is fixed so that the
  // chart engine runs on every input.
  std::string_view all(reinterpret_cast<const char*>(data), size);
  size_t cut = all.find('\0');
  MemoryTree tree;
  tree.add_file("chart/Chart.yaml", "apiVersion: v2\nname: fuzz\nversion: 0.1.0\n");
  tree.add_file("chart/values.yaml", std::string(all.substr(0, cut)));
  tree.add_file("chart/templates/pod.yaml",
                cut == std::string_view::npos ? "" : std::string(all.substr(cut + 1)));
  return run_tree(tree);
}

int splice(const std::uint8_t* data, std::size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  size_t cut = all.find('\0');
  if (cut == std::string_view::npos) return 0;
  std::string_view before = all.substr(0, cut), after = all.substr(cut + 1);
  auto base = test::read_whole(before);
  if (!base) return 0;
  auto spliced = yaml::splice_stream(before, *base, after);
  if (!spliced) return 0;
  auto whole = test::read_whole(after);
  std::string why;
  if (!whole || !test::same_documents(*spliced, *whole, why)) std::abort();
  return 0;
}

int config(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)parse_config(text, ".sbreview.yaml", FileId{0});
  return 0;
}

namespace {

// The launcher the threat model speaks about, and the model a SARIF log is read against.
constexpr const char* kLauncher = R"(#!/usr/bin/env bash
set -euo pipefail
exec podman run --rm -it --cap-drop ALL --security-opt no-new-privileges \
  --read-only --pids-limit 256 --memory 2g -v "$PWD:/workspace" agent:latest "$@"
)";

}  // namespace

int markdown(const std::uint8_t* data, std::size_t size) {
  MemoryTree tree;
  tree.add_file("run.sh", kLauncher);
  tree.add_file("SECURITY.md", std::string(reinterpret_cast<const char*>(data), size));
  return run_tree(tree);
}

int chart_gen(const std::uint8_t* data, std::size_t size) {
  Choices choices(data, size);
  GeneratedChart generated = generate_chart(choices);
  if (getenv("DBG"))
    fprintf(stderr, "VALUES<<%s>>\nHELP<<%s>>\nTPL<<%s>>\n", generated.values.c_str(),
            generated.helpers.c_str(), generated.templ.c_str());
  MemoryTree tree;
  tree.add_file("chart/Chart.yaml", "apiVersion: v2\nname: fuzz\nversion: 0.1.0\n");
  tree.add_file("chart/values.yaml", generated.values);
  tree.add_file("chart/templates/_helpers.tpl", generated.helpers);
  tree.add_file("chart/templates/pod.yaml", generated.templ);
  return run_tree(tree);
}

int markdown_gen(const std::uint8_t* data, std::size_t size) {
  Choices choices(data, size);
  MemoryTree tree;
  tree.add_file("run.sh", kLauncher);
  tree.add_file("SECURITY.md", generate_markdown(choices));
  return run_tree(tree);
}

int config_rules(const std::uint8_t* data, std::size_t size) {
  Choices choices(data, size);
  GeneratedConfig generated = generate_config(choices);
  auto config = parse_config(generated.config, ".sbreview.yaml", FileId{0});
  if (getenv("DBG"))
    fprintf(stderr, "CONFIG<<%s>>\nRULE<<%s>>\n", generated.config.c_str(), generated.rule.c_str());
  if (!config) {
    if (getenv("DBG")) fprintf(stderr, "cfg: %s\n", config.error().message.c_str());
    return 0;
  }  // refused with exit 2 by the command line
  RuleSource source;
  source.user = true;
  source.prefixes.push_back(config->rule_prefix);
  auto catalog =
      Catalog::embedded().with_user_rules({{".sbreview/rules/fuzz.yaml", generated.rule}}, source);
  if (!catalog) {
    if (getenv("DBG")) fprintf(stderr, "cat: %s\n", catalog.error().message.c_str());
    return 0;
  }
  if (getenv("DBG")) fprintf(stderr, "RUN\n");
  MemoryTree tree;
  tree.add_file("run.sh", kLauncher);
  tree.add_file(
      "deploy/pod.yaml",
      "apiVersion: v1\nkind: Pod\nmetadata: {name: agent}\nspec:\n  containers:\n"
      "  - name: agent\n    image: docker.io/agent:1\n    env: [{name: TOKEN, value: x}]\n"
      "    volumeMounts: [{name: h, mountPath: /h}]\n"
      "  volumes: [{name: h, hostPath: {path: /var/run}}]\n");
  return run_tree(tree, *config, *catalog);
}

int sarif(const std::uint8_t* data, std::size_t size) {
  struct Fixed {
    Analysis analysis;
    std::vector<Finding> findings;
  };
  static const Fixed* fixed = [] {
    MemoryTree tree;
    tree.add_file("run.sh", kLauncher);
    auto* f = new Fixed{analyze(tree, Config{}, AnalyzeOptions{}), {}};
    f->findings = run_checks(f->analysis.model, Catalog::embedded(), Config{}, RunOptions{});
    return f;
  }();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)findings_from_sarif_text(text, "fuzz.sarif", fixed->analysis.model, Catalog::embedded(),
                                 fixed->findings, "");
  return 0;
}

namespace {
constexpr std::array<TargetInfo, 11> kTargets = {{{"kubernetes", kubernetes},
                                                  {"launcher", launcher},
                                                  {"containers", containers},
                                                  {"chart", chart},
                                                  {"splice", splice},
                                                  {"config", config},
                                                  {"markdown", markdown},
                                                  {"sarif", sarif},
                                                  {"chart_gen", chart_gen},
                                                  {"markdown_gen", markdown_gen},
                                                  {"config_rules", config_rules}}};
}  // namespace

const TargetInfo* find_target(std::string_view name) {
  for (const TargetInfo& t : kTargets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string_view target_names() {
  return "kubernetes, launcher, containers, chart, splice, config, markdown, sarif, chart_gen, "
         "markdown_gen, config_rules";
}

}  // namespace sbr::fuzz
