#include "analyzer/cli/baseline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>

#include "analyzer/check/fingerprint.h"

namespace sbr {

using OrderedJson = nlohmann::ordered_json;

void write_baseline(const std::vector<Finding>& findings, const Model& model, std::ostream& out) {
  OrderedJson doc;
  doc["version"] = 1;
  doc["tool"] = "sbreview";
  OrderedJson keys = OrderedJson::array();
  for (const std::string& k : finding_keys(findings)) keys.push_back(k);  // a sorted set
  doc["fingerprints"] = std::move(keys);
  OrderedJson list = OrderedJson::array();
  for (const Finding& f : findings) {
    list.push_back({{"rule", f.rule_id.str()},
                    {"path", model.files.path(f.at.file)},
                    {"subject", f.subject},
                    {"fingerprint", f.fingerprint}});
  }
  doc["findings"] = std::move(list);
  out << doc.dump(2, ' ', false, OrderedJson::error_handler_t::replace) << "\n";
}

Result<std::set<std::string>> read_baseline(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read the baseline"};
  std::stringstream ss;
  ss << in.rdbuf();
  OrderedJson doc = OrderedJson::parse(ss.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Error{path + ": not a JSON baseline"};
  auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || *version != 1)
    return Error{path + ": baseline `version` must be 1"};
  auto it = doc.find("fingerprints");
  if (it == doc.end() || !it->is_array()) {
    return Error{path + ": a baseline needs a `fingerprints` list"};
  }
  std::set<std::string> out;
  for (const OrderedJson& k : *it) {
    if (!k.is_string()) return Error{path + ": `fingerprints` entries are strings"};
    out.insert(k.get<std::string>());
  }
  return out;
}

size_t drop_baselined(std::vector<Finding>& findings, const std::set<std::string>& keys) {
  const size_t before = findings.size();
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding& f) { return known_by(f, keys); }),
                 findings.end());
  return before - findings.size();
}

}  // namespace sbr
