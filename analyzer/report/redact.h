// One redactor for every string that leaves sbreview: finding messages, related messages, source
// lines and the model dump. What the secret checks judge secret (engine/secrets.h) is what is
// redacted here, so a value that made a finding never shows up in that finding's output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr {

class Redactor {
 public:
  // Collects the secret values of `model` once: literal env values whose name looks secret or
  // whose value is in a key format, and cluster data values (ConfigMap/Secret) that look secret.
  // Values shorter than eight characters or made of letters only ("postgres") are words, not
  // secrets to hunt for in other text; key formats are redacted whatever their length.
  explicit Redactor(const Model& model);
  // For tests and callers that know extra secret values.
  explicit Redactor(const std::vector<std::string>& secrets);

  // `text` with every known secret value that stands as a whole token (not inside a longer
  // word) and every recognisable key replaced by secrets::kRedacted.
  std::string operator()(std::string_view text) const;

  const std::vector<std::string>& secrets() const { return secrets_; }  // longest first
  // The length of the longest secret value (0 when there is none).
  size_t longest() const { return secrets_.empty() ? 0 : secrets_.front().size(); }

 private:
  void add(std::string_view value);
  void add_line(std::string_view line);  // one line of a multi-line value
  void finish();

  std::vector<std::string> secrets_;
  // Secrets by their first four bytes: a 10,000-workload model holds tens of thousands of
  // values, and every output string is scanned once instead of once per secret.
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> by_prefix_;
};

}  // namespace sbr
