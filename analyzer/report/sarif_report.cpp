// SARIF 2.1.0, the reference format: GitHub code scanning reads it. The whole catalog is in
// driver.rules so a rule's help is there even for a run where it did not fire; results point
// into it by ruleIndex. Identity across commits is partialFingerprints (never line-based).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <vector>

#include "analyzer/check/fingerprint.h"
#include "analyzer/config/config.h"
#include "analyzer/report/json_stream.h"
#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/report_util.h"
#include "analyzer/support/build_info.h"

namespace sbr {
namespace {

using Json = report::Json;

constexpr std::string_view kSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
// The key names the fingerprint scheme: a new scheme gets a new key, never new values under
// an old one.
constexpr std::string_view kFingerprintKey = kFingerprintVersion;
constexpr std::string_view kSrcRoot = "%SRCROOT%";
constexpr size_t kMaxSnippet = 400;

// What every part of the log needs: the run, its one redactor and the indexed source lines.
// SARIF columns count UTF-16 code units by default; the model counts bytes. A long line (a
// minified manifest) is indexed once, its count of units every kStride bytes, so that each
// column costs at most kStride bytes of scan: 200 locations on a 50 MB line scanned 10 GB.
class Utf16Columns {
 public:
  std::uint32_t column(std::string_view line, std::uint32_t byte_column) {
    size_t prefix = std::min<size_t>(byte_column - 1, line.size());
    std::uint32_t units = 0;
    size_t from = 0;
    if (line.size() > kStride) {
      std::vector<std::uint32_t>& marks = marks_[line.data()];
      if (marks.empty()) {
        marks.push_back(0);
        for (size_t k = kStride; k <= line.size(); k += kStride)
          marks.push_back(marks.back() + count(line.substr(k - kStride, kStride)));
      }
      units = marks[prefix / kStride];
      from = prefix / kStride * kStride;
    }
    return units + count(line.substr(from, prefix - from)) + 1;
  }

 private:
  static constexpr size_t kStride = 4096;
  static std::uint32_t count(std::string_view bytes) {
    std::uint32_t units = 0;
    for (char ch : bytes) {
      auto c = static_cast<unsigned char>(ch);
      if ((c & 0xC0) == 0x80) continue;  // continuation byte
      units += c >= 0xF0 ? 2 : 1;        // 4-byte sequences are surrogate pairs
    }
    return units;
  }
  std::unordered_map<const char*, std::vector<std::uint32_t>> marks_;  // by the line's text
};

struct Emit {
  const ReportContext& ctx;
  Redactor redact;
  report::SourceLines lines;
  mutable Utf16Columns columns;
};

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  return std::string(s);
}

Json physical_location(const Emit& e, const Location& loc) {
  const ReportContext& ctx = e.ctx;
  const Redactor& redact = e.redact;
  Json artifact;
  artifact["uri"] = report::uri_encode_path(ctx.uri_prefix + ctx.model.files.path(loc.file));
  artifact["uriBaseId"] = kSrcRoot;
  Json region;
  if (loc.line == 0) {
    // A whole-file problem: GitHub needs a line, and the first is where the file starts.
    region["startLine"] = 1;
  } else {
    region["startLine"] = loc.line;
    auto line = e.lines.line(loc);
    if (loc.column > 0)
      region["startColumn"] = line ? e.columns.column(*line, loc.column) : loc.column;
    // A minified file is one huge line: a snippet of it would repeat the file in every result.
    if (line && line->size() <= kMaxSnippet) region["snippet"]["text"] = redact(*line);
  }
  Json physical;
  physical["artifactLocation"] = std::move(artifact);
  physical["region"] = std::move(region);
  return physical;
}

Json location(const Emit& e, const Location& loc) {
  Json l;
  l["physicalLocation"] = physical_location(e, loc);
  return l;
}

Json rule_json(const Rule& r) {
  std::string message = trimmed(r.message), remediation = trimmed(r.remediation);
  std::string text = message + "\n\nRemediation: " + remediation;
  std::string markdown = message + "\n\n**Remediation:** " + remediation;
  if (!r.references.empty()) {
    text += "\n\nReferences:";
    markdown += "\n\n**References:**\n";
    for (const auto& ref : r.references) {
      text += "\n- " + ref;
      markdown += "\n- <" + ref + ">";
    }
  }
  Json j;
  j["id"] = r.id;
  j["name"] = r.slug;
  j["shortDescription"]["text"] = trimmed(r.title);
  j["fullDescription"]["text"] = message;
  if (!r.user) j["helpUri"] = report::rule_help_uri(r);  // a user rule's page is the user's
  j["help"]["text"] = text;
  j["help"]["markdown"] = markdown;
  j["defaultConfiguration"]["level"] = report::sarif_level(r.severity);
  Json props;
  props["security-severity"] = report::security_severity(r.severity);
  // Tags are what GitHub filters alerts by: the invariant and the kinds of input it applies to.
  Json tags = Json::array({"security", "invariant-" + std::to_string(r.invariant)});
  for (const auto& a : r.applies_to) tags.push_back(a);
  props["tags"] = std::move(tags);
  props["precision"] = "high";
  props["invariant"] = r.invariant;
  props["severity"] = severity_name(r.severity);
  if (r.cause) props["cause"] = cause_name(*r.cause);  // the default; a result may differ
  props["applies-to"] = r.applies_to;
  props["origin"]["kind"] = r.origin.kind;
  props["origin"]["detail"] = r.origin.detail;
  if (!r.prover.empty()) props["prover"] = r.prover;
  props["implemented-by"] = r.data ? "data" : r.implemented_by;
  j["properties"] = std::move(props);
  return j;
}

// Once a message embeds links, its literal '[', ']' and '\\' are escaped (SARIF 3.11.6).
std::string escape_link_text(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// A step's message in SARIF: its role, and the variable or function it names.
std::string step_message(const Redactor& redact, const Step& s) {
  std::string text(step_role_name(s.role));
  if (!s.note.empty()) text += " " + redact(s.note);
  return text;
}

// GitHub shows related locations only when the message links to them: "[text](id)". The
// related facts come first, then the provenance chain's steps; ids follow that order.
std::string message_with_links(const Emit& e, const Finding& f) {
  const Redactor& redact = e.redact;
  std::string related, via;
  int id = 1;
  for (const Related& r : f.related) {
    if (r.at.valid()) {
      std::string label = escape_link_text(redact(r.message));
      related += fmt::format("{}[{}]({})", related.empty() ? "" : "; ",
                             label.empty() ? "here" : label, id);
    }
    ++id;
  }
  for (const Step& s : f.via()) {
    if (s.at.valid()) {
      via += fmt::format("{}[{}]({})", via.empty() ? "" : "; ",
                         escape_link_text(step_message(redact, s)), id);
    }
    ++id;
  }
  const std::string message = report::message_with_reasons(f);
  if (related.empty() && via.empty()) return redact(message);
  std::string text = escape_link_text(redact(message));
  if (!related.empty()) text += " (related: " + related + ")";
  if (!via.empty()) text += " (via: " + via + ")";
  return text;
}

// The value's flow as one thread, in the order it ran: where it came from (the chain's earlier
// steps, farthest first), the finding's place, then where it is used when the finding stays at
// the place the value is written (an array element).
Json code_flows(const Emit& e, const Finding& f, const Location& primary) {
  Json steps = Json::array();
  auto add = [&](const Location& at, std::string text) {
    if (!at.valid()) return;
    Json l = location(e, at);
    l["message"]["text"] = std::move(text);
    steps.push_back(Json{{"location", std::move(l)}});
  };
  for (auto it = f.via().rbegin(); it != f.via().rend(); ++it) {
    if (it->role != StepRole::Used) add(it->at, step_message(e.redact, *it));
  }
  add(primary, "the finding");
  for (const Step& s : f.via()) {
    if (s.role == StepRole::Used) add(s.at, step_message(e.redact, s));
  }
  Json thread;
  thread["locations"] = std::move(steps);
  Json flow;
  flow["threadFlows"] = Json::array({std::move(thread)});
  return Json::array({std::move(flow)});
}

// One finding per fact (check/group.h): the other workloads and the folded rules, each with
// the fingerprint it would have had alone, so that code scanning's history can be matched.
void add_grouping_properties(const Redactor& redact, const Finding& f, Json& props) {
  if (!f.shared_with.empty()) {
    Json shared = Json::array();
    for (const SharedWith& s : f.shared_with) {
      shared.push_back({{"subject", redact(s.subject)}, {"fingerprint", s.fingerprint}});
    }
    props["shared-with"] = std::move(shared);
  }
  if (!f.reasons.empty()) {
    Json reasons = Json::array();
    for (const Reason& r : f.reasons) {
      reasons.push_back({{"rule", r.rule_id.str()},
                         {"invariant", r.invariant},
                         {"severity", severity_name(r.severity)},
                         {"fingerprint", r.fingerprint}});
    }
    props["folded-reasons"] = std::move(reasons);
  }
}

Json result_json(const Emit& e, const Finding& f) {
  const ReportContext& ctx = e.ctx;
  const Redactor& redact = e.redact;
  bool accepted = !f.accepted_reason.empty();
  Json j;
  j["ruleId"] = f.rule_id.str();
  if (int index = ctx.catalog.index_of(f.rule_id); index >= 0) {
    j["ruleIndex"] = index;
    // A user rule lives in tool.extensions[0] (the repository's own rules), not the driver.
    if (f.rule_id.is_user()) {
      j["rule"] = {{"id", f.rule_id.str()}, {"index", index}, {"toolComponent", {{"index", 0}}}};
    }
  }
  j["level"] = accepted ? std::string_view("note") : report::sarif_level(f.severity);
  j["message"]["text"] = message_with_links(e, f);
  // GitHub rejects a result without a physical location: a finding that has no location of its
  // own (an engine default) is shown at its first located contributing fact.
  const Location* primary = f.at.valid() ? &f.at : nullptr;
  for (const Related& r : f.related) {
    if (primary == nullptr && r.at.valid()) primary = &r.at;
  }
  if (primary != nullptr) j["locations"] = Json::array({location(e, *primary)});
  if (!f.related.empty()) {
    Json related = Json::array();
    int id = 1;
    for (const Related& r : f.related) {
      Json l;
      l["id"] = id++;
      if (r.at.valid()) l["physicalLocation"] = physical_location(e, r.at);
      l["message"]["text"] = redact(r.message);
      related.push_back(std::move(l));
    }
    j["relatedLocations"] = std::move(related);
  }
  if (!f.via().empty()) {
    Json& related = j["relatedLocations"];
    if (related.is_null()) related = Json::array();
    int id = static_cast<int>(f.related.size()) + 1;
    for (const Step& s : f.via()) {
      Json l;
      l["id"] = id++;
      if (s.at.valid()) l["physicalLocation"] = physical_location(e, s.at);
      l["message"]["text"] = step_message(redact, s);
      related.push_back(std::move(l));
    }
    if (primary != nullptr) j["codeFlows"] = code_flows(e, f, *primary);
  }
  j["partialFingerprints"][std::string(kFingerprintKey)] = f.fingerprint;
  if (accepted) {
    Json s;
    s["kind"] = f.suppression_kind.empty() ? "external" : f.suppression_kind;
    s["justification"] = redact(f.accepted_reason);
    j["suppressions"] = Json::array({std::move(s)});
  }
  Json props;
  props["invariant"] = f.invariant;
  props["threat-class"] = threat_class_name(f.threat);
  if (!f.threat_reason.empty()) props["threat-class-reason"] = redact(f.threat_reason);
  props["severity"] = severity_name(f.severity);
  // The rule's security-severity is its catalog severity; a result judged lower (threat class,
  // a non-default switch, an acceptance) or higher (a folded reason) says its own, which code
  // scanning shows for the alert instead (docs/output-formats.md, "Severity per result").
  props["security-severity"] = report::security_severity(f.severity);
  if (f.cause) props["cause"] = cause_name(*f.cause);
  props["subject"] = redact(f.subject);
  if (!f.condition().always()) props["condition"] = redact(f.condition().text);
  if (accepted) props["accepted-reason"] = redact(f.accepted_reason);
  add_grouping_properties(redact, f, props);
  j["properties"] = std::move(props);
  return j;
}

// `prove`'s verdict (docs/output-formats.md, "properties.runtime").
Json runtime_json(const Redactor& redact, const RuntimeNote& n) {
  Json j;
  j["verdict"] = n.verdict;
  j["observed"] = redact(n.observed);
  j["runtime"] = n.runtime;
  j["reason"] = redact(n.reason);
  return j;
}

// Every launch of a `prove` run, with what was left out of it and the controls it checked.
Json launches_properties(const Redactor& redact, const std::vector<RuntimeLaunch>& launches) {
  Json list = Json::array();
  for (const RuntimeLaunch& l : launches) {
    Json j;
    j["subject"] = redact(l.subject);
    j["launch"] = l.launch;
    j["runtime"] = l.runtime;
    if (!l.engine_note.empty()) j["engine-note"] = l.engine_note;
    if (!l.error.empty()) j["error"] = redact(l.error);
    Json np = Json::array();
    for (const auto& n : l.not_passed) np.push_back(redact(n));
    j["not-passed"] = std::move(np);
    Json controls = Json::array();
    for (const RuntimeControlRow& c : l.controls) {
      Json cj = runtime_json(redact, c.note);
      cj["control"] = c.name;
      cj["invariant"] = c.invariant;
      cj["expected"] = c.expected;
      controls.push_back(std::move(cj));
    }
    j["controls"] = std::move(controls);
    list.push_back(std::move(j));
  }
  return list;
}

Json invocation_json(const Emit& e) {
  const ReportContext& ctx = e.ctx;
  const Redactor& redact = e.redact;
  Json notifications = Json::array();
  std::set<FileId> notified;
  for (const Finding& f : ctx.findings) {
    // A file that was never read (catalog `tool_notification`) is also shown on the tool's
    // status by GitHub, not only as an alert.
    const Rule* rule = ctx.catalog.find(f.rule_id);
    if (rule == nullptr || !rule->tool_notification) continue;
    notified.insert(f.at.file);
    Json n;
    if (f.at.valid()) n["locations"] = Json::array({location(e, f.at)});
    n["message"]["text"] = redact(f.message.str());
    n["level"] = report::sarif_level(f.severity) == "error" ? "error" : "warning";
    n["associatedRule"]["id"] = f.rule_id.str();
    if (int index = ctx.catalog.index_of(f.rule_id); index >= 0 && !f.rule_id.is_user()) {
      n["associatedRule"]["index"] = index;
    }
    notifications.push_back(std::move(n));
  }
  // A file skipped for a reason no tool_notification rule reports (binary content, the
  // wall-clock guard): the tool's status names it too.
  for (const FileRecord& f : ctx.model.summary.files) {
    if (f.status != FileStatus::Skipped || notified.count(f.file) > 0) continue;
    Json n;
    n["locations"] = Json::array({location(e, Location{f.file, 0, 0})});
    n["message"]["text"] = redact("not analysed: " + f.reason);
    n["level"] = "warning";
    notifications.push_back(std::move(n));
  }
  Json inv;
  inv["executionSuccessful"] = true;
  if (!notifications.empty()) inv["toolExecutionNotifications"] = std::move(notifications);
  return inv;
}

}  // namespace

void write_sarif(const ReportContext& ctx, std::ostream& out) {
  Emit e{ctx, Redactor(ctx.model), report::SourceLines(ctx.sources), {}};

  Json driver;
  driver["name"] = report::kToolName;
  driver["version"] = semantic_version();
  driver["semanticVersion"] = semantic_version();
  driver["informationUri"] = report::kInformationUri;
  Json rules = Json::array();
  Json user_rules = Json::array();
  for (const Rule& r : ctx.catalog.rules()) (r.user ? user_rules : rules).push_back(rule_json(r));
  driver["rules"] = std::move(rules);

  Json run;
  run["tool"]["driver"] = std::move(driver);
  if (!user_rules.empty()) {
    // The repository's own rules (.sbreview/rules/, --rules DIR), with their own metadata.
    Json ext;
    ext["name"] = "sbreview-user-rules";
    ext["fullName"] = "sbreview rules of the analysed repository";
    ext["rules"] = std::move(user_rules);
    run["tool"]["extensions"] = Json::array({std::move(ext)});
  }
  run["invocations"] = Json::array({invocation_json(e)});
  if (!ctx.source_root.empty() && ctx.source_root.front() == '/') {
    std::string root = ctx.source_root;
    if (root.back() != '/') root += '/';
    run["originalUriBaseIds"][std::string(kSrcRoot)]["uri"] =
        "file://" + report::uri_encode_path(root);
  }
  run["columnKind"] = "utf16CodeUnits";
  // Results are written one at a time (report/json_stream.h): never the whole list as a tree.
  run["results"] = report::stream_placeholder();
  auto results = [&](const report::ElementSink& sink) {
    for (size_t i = 0; i < ctx.findings.size(); ++i) {
      Json r = result_json(e, ctx.findings[i]);
      if (i < ctx.baseline_states.size()) r["baselineState"] = ctx.baseline_states[i];
      if (i < ctx.runtime.size())
        r["properties"]["runtime"] = runtime_json(e.redact, ctx.runtime[i]);
      sink(r);
    }
    for (const Finding& f : ctx.fixed) {
      Json r = result_json(e, f);
      r["baselineState"] = "absent";
      sink(r);
    }
  };
  if (!ctx.launches.empty())
    run["properties"]["runtime-launches"] = launches_properties(e.redact, ctx.launches);

  Json log;
  log["$schema"] = kSchema;
  log["version"] = "2.1.0";
  log["runs"] = Json::array({std::move(run)});
  // Invalid UTF-8 from an input file must not abort the report: it is replaced, not thrown.
  report::write_streamed(out, log, {{"results", results}});
}

}  // namespace sbr
