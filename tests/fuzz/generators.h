// Structure-aware inputs for the fuzz targets (docs/robustness.md#fuzzing): a byte-level
// mutator rarely writes a Go template that parses or a Markdown document nested 10,000 deep,
// so these targets read their bytes as choices in a small grammar instead. Every byte string
// is a valid choice sequence (running out of bytes ends each construct), so libFuzzer's
// mutations move through well-formed inputs, and the same bytes always give the same text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sbr::fuzz {

// The fuzzer's bytes read as choices; 0 once they run out.
class Choices {
 public:
  Choices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return at_ >= size_; }
  unsigned byte();
  // A number below `n` (n > 0); two bytes when n is above 256.
  std::size_t below(std::size_t n);
  // One of `items`.
  template <std::size_t N>
  std::string_view pick(const std::string_view (&items)[N]) {
    return items[below(N)];
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

// A Helm chart's values.yaml and one template: actions, pipelines of the engine's functions,
// variables, if/with/range/define/include/tpl nested to the choices' depth, around Kubernetes
// manifest text a security check reads (privileged, hostPath, hostNetwork, capabilities).
struct GeneratedChart {
  std::string values;
  std::string helpers;  // templates/_helpers.tpl: defines the template includes
  std::string templ;    // templates/pod.yaml
};
GeneratedChart generate_chart(Choices& c);

// A SECURITY.md of headings, claims in the vocabulary of the claim reader, block quotes and
// lists nested up to tens of thousands deep, and tables up to thousands of cells.
std::string generate_markdown(Choices& c);

// `.sbreview.yaml` and one user rule (`.sbreview/rules/*.yaml`): keys the loader knows with
// values of every YAML type, and a rule whose matcher, fields and regexes are chosen.
struct GeneratedConfig {
  std::string config;
  std::string rule;
};
GeneratedConfig generate_config(Choices& c);

}  // namespace sbr::fuzz
