// Finding messages worded once, in the catalog: a rule's `summary` is a template with named
// parameters ("{workload} runs privileged ({setting})...") that the check fills. A summary that
// names a parameter the check does not supply is a CatalogError, never a garbled message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/check/rule_id.h"
#include "analyzer/support/result.h"

namespace sbr {

struct Rule;

// One named value for a summary. Names are literals in the check.
struct MessageArg {
  const char* name;
  std::string value;
};
using MessageArgs = std::vector<MessageArg>;

// The parameter names a summary uses, in order, or why it is not a valid template: `{name}`
// with name in [a-z0-9_], `{{` and `}}` for literal braces, nothing else.
Result<std::vector<std::string>> summary_parameters(std::string_view summary);

// `rule`'s summary filled with `args` (args it does not use are ignored: helpers supply
// `workload` to every summary). Throws CatalogError when the rule has no summary or a parameter
// is missing.
std::string render_summary(const Rule& rule, const MessageArgs& args);

// The same, for a rule of the embedded catalog; unknown ids throw CatalogError too.
std::string rule_message(RuleId rule, const MessageArgs& args);

}  // namespace sbr
