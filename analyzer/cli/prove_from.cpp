#include "analyzer/cli/prove_from.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "analyzer/check/fingerprint.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/support/severity.h"
#include "invariants/common.h"

namespace sbr {
namespace {

using Json = nlohmann::json;

// A number where SARIF has an integer that does not fit (`"startLine": 1e41`): converting it
// would be undefined behaviour (UBSan, the `sarif` fuzz target), so it makes the file an error.
struct BadNumber : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The integer `key` of `obj`, or `fallback` when it is absent.
template <class T>
T whole(const Json& obj, const char* key, T fallback) {
  auto it = obj.find(key);
  if (it == obj.end()) return fallback;
  if (it->is_number_unsigned() && std::in_range<T>(it->get<std::uint64_t>())) {
    return static_cast<T>(it->get<std::uint64_t>());
  }
  if (it->is_number_integer() && std::in_range<T>(it->get<std::int64_t>())) {
    return static_cast<T>(it->get<std::int64_t>());
  }
  throw BadNumber(std::string("`") + key + "` is not an integer in range");
}

FileId file_of(const Model& model, std::string uri, const std::string& uri_prefix) {
  if (!uri_prefix.empty() && uri.rfind(uri_prefix, 0) == 0) uri.erase(0, uri_prefix.size());
  for (size_t i = 0; i < model.files.paths.size(); ++i) {
    if (model.files.paths[i] == uri) return static_cast<FileId>(i);
  }
  return kNoFile;
}

Location location_of(const Json& result, const Model& model, const std::string& uri_prefix) {
  Location at;
  const Json* loc = nullptr;
  if (auto l = result.find("locations"); l != result.end() && l->is_array() && !l->empty()) {
    loc = &(*l)[0];
  }
  if (loc == nullptr) return at;
  const Json& phys = loc->value("physicalLocation", Json::object());
  std::string uri = phys.value("artifactLocation", Json::object()).value("uri", "");
  at.file = file_of(model, uri, uri_prefix);
  const Json& region = phys.value("region", Json::object());
  at.line = whole<std::uint32_t>(region, "startLine", 0);
  at.column = whole<std::uint32_t>(region, "startColumn", 0);
  return at;
}

// A finding rebuilt from a SARIF result that this run does not report.
Finding rebuilt(const Json& r, RuleId id, const Model& model, const std::string& uri_prefix) {
  Finding f;
  f.rule_id = id;
  f.message = r.value("message", Json::object()).value("text", "");
  f.at = location_of(r, model, uri_prefix);
  const Json& props = r.value("properties", Json::object());
  f.subject = props.value("subject", "");
  f.invariant = whole<int>(props, "invariant", 0);
  if (auto s = parse_severity(props.value("severity", "note"))) f.severity = *s;
  if (auto t = parse_threat_class(props.value("threat-class", ""))) f.threat = *t;
  for (const Workload& w : model.workloads) {
    if (inv::subject_of(w) == f.subject) f.identity = identity_key(w.id);
  }
  const Json& fps = r.value("partialFingerprints", Json::object());
  f.fingerprint = fps.value(std::string(kFingerprintVersion), "");
  return f;
}

Result<std::vector<Finding>> read_results(std::string_view text, const std::string& path,
                                          const Model& model, const Catalog& catalog,
                                          const std::vector<Finding>& current,
                                          const std::string& uri_prefix) {
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("runs") || !doc["runs"].is_array()) {
    return Error{path + ": not a SARIF log"};
  }
  std::vector<Finding> out;
  for (const Json& run : doc["runs"]) {
    if (!run.is_object() || !run.contains("results") || !run["results"].is_array()) continue;
    for (const Json& r : run["results"]) {
      if (!r.is_object()) continue;
      // Fixed findings of a diff (baselineState absent) are not in the sandbox any more.
      if (r.value("baselineState", "") == "absent") continue;
      auto id = RuleId::parse(r.value("ruleId", ""));
      if (!id || catalog.find(*id) == nullptr) {
        return Error{path + ": result with unknown rule `" + r.value("ruleId", "") + "`"};
      }
      std::string fp = r.value("partialFingerprints", Json::object())
                           .value(std::string(kFingerprintVersion), "");
      const Finding* same = nullptr;
      for (const Finding& f : current) {
        if (!fp.empty() && f.fingerprint == fp) same = &f;
      }
      out.push_back(same != nullptr ? *same : rebuilt(r, *id, model, uri_prefix));
    }
  }
  return out;
}

}  // namespace

Result<std::vector<Finding>> findings_from_sarif(const std::string& path, const Model& model,
                                                 const Catalog& catalog,
                                                 const std::vector<Finding>& current,
                                                 const std::string& uri_prefix) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read the SARIF file"};
  std::stringstream ss;
  ss << in.rdbuf();
  return findings_from_sarif_text(ss.str(), path, model, catalog, current, uri_prefix);
}

Result<std::vector<Finding>> findings_from_sarif_text(std::string_view text,
                                                      const std::string& path, const Model& model,
                                                      const Catalog& catalog,
                                                      const std::vector<Finding>& current,
                                                      const std::string& uri_prefix) {
  // The file may come from anywhere: a field of the wrong JSON type makes nlohmann throw, and
  // that is a file that is not a SARIF log as sbreview writes it, never a crash.
  try {
    return read_results(text, path, model, catalog, current, uri_prefix);
  } catch (const Json::exception& e) {
    return Error{path + ": not a SARIF log (" + e.what() + ")"};
  } catch (const BadNumber& e) {
    return Error{path + ": not a SARIF log (" + e.what() + ")"};
  }
}

}  // namespace sbr
