// Fuzz targets (docs/robustness.md): each takes arbitrary bytes, runs one part of sbreview on
// them as a pull request could present them, and must return without crashing, hanging or
// tripping a sanitizer. The same functions run under libFuzzer (libfuzzer_main.cpp, the
// `fuzz` preset: clang, ASan, UBSan) and under the deterministic smoke driver CTest runs
// (smoke_main.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sbr::fuzz {

using Target = int (*)(const std::uint8_t* data, std::size_t size);

struct TargetInfo {
  std::string_view name;  // also the seed corpus folder: tests/fuzz/corpus/<name>
  Target run;
};

// A Kubernetes YAML stream (manifest.yaml): the YAML reader, the Kubernetes frontend and
// linker, every check, and the three report writers.
int kubernetes(const std::uint8_t* data, std::size_t size);
// A launcher (run.sh): tree-sitter-bash, the evaluator, the launch and gate frontends, checks.
int launcher(const std::uint8_t* data, std::size_t size);
// A container configuration: the first byte picks the file (compose.yaml, devcontainer.json,
// Dockerfile, an nft ruleset, squid.conf, a seccomp profile); the rest is its text.
int containers(const std::uint8_t* data, std::size_t size);
// A Helm chart: values.yaml, a NUL byte, then templates/pod.yaml: the chart engine (Go
// templates, sprig, toYaml), the rendered stream's source map, and the Kubernetes checks.
int chart(const std::uint8_t* data, std::size_t size);
// Two YAML streams, a NUL byte between them: the second spliced from the first's documents
// (yaml_splice.h, a Helm switch's flipped render); whenever the splice is taken it must equal
// the whole read of the second stream node for node, else the target aborts.
int splice(const std::uint8_t* data, std::size_t size);
// `.sbreview.yaml`: the configuration loader.
int config(const std::uint8_t* data, std::size_t size);
// A threat model (SECURITY.md) beside a fixed launcher: cmark-gfm, the claims reader and
// vocabulary, and the claim checker judging what it read against the launcher's facts.
int markdown(const std::uint8_t* data, std::size_t size);
// A SARIF log given to `prove --from`: the reader that matches its results to a fixed model's
// findings or rebuilds them.
int sarif(const std::uint8_t* data, std::size_t size);

// Structure-aware targets (generators.h): the bytes are choices in a grammar, not the text.
// A chart whose templates/_helpers.tpl and templates/pod.yaml are Go templates built from the
// engine's functions, variables and nested blocks.
int chart_gen(const std::uint8_t* data, std::size_t size);
// A SECURITY.md of claims, block quotes and lists nested up to 40,000 deep, and tables up to
// 2,000 x 2,000 cells, beside the fixed launcher.
int markdown_gen(const std::uint8_t* data, std::size_t size);
// `.sbreview.yaml` and a user rule in `.sbreview/rules/`: when both load, the whole pipeline
// runs with them on a fixed launcher and pod (matchers, regexes, severities, suppressions).
int config_rules(const std::uint8_t* data, std::size_t size);

// Every target, for the drivers.
const TargetInfo* find_target(std::string_view name);
std::string_view target_names();

}  // namespace sbr::fuzz
