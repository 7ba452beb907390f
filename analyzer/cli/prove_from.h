// `prove --from FILE.sarif`: the results of an earlier `check --format sarif` as findings of
// this run's model, so that the prover judges them. A result is matched to this run's finding
// by fingerprint; otherwise it is rebuilt from the SARIF (rule, message, location, subject) and
// judged against the workload its subject names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/finding.h"
#include "analyzer/model/model.h"
#include "analyzer/support/result.h"

namespace sbr {

Result<std::vector<Finding>> findings_from_sarif(const std::string& path, const Model& model,
                                                 const Catalog& catalog,
                                                 const std::vector<Finding>& current,
                                                 const std::string& uri_prefix);

// The same, from the file's text; `path` names it in errors. A field of an unexpected JSON type
// is an error like any other file that is not a SARIF log.
Result<std::vector<Finding>> findings_from_sarif_text(std::string_view text,
                                                      const std::string& path, const Model& model,
                                                      const Catalog& catalog,
                                                      const std::vector<Finding>& current,
                                                      const std::string& uri_prefix);

}  // namespace sbr
