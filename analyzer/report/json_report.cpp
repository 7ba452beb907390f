// The JSON report: a flat, documented shape (docs/output-formats.md) for scripts. Every finding
// object has every key; absent values are null, so consumers never probe for keys.
#include <nlohmann/json.hpp>

#include "analyzer/config/config.h"
#include "analyzer/engine/boundary.h"
#include "analyzer/report/json_stream.h"
#include "analyzer/report/redact.h"
#include "analyzer/report/report.h"
#include "analyzer/report/report_util.h"
#include "analyzer/support/build_info.h"

namespace sbr {
namespace {

using Json = report::Json;

constexpr int kShapeVersion = 1;

Json location_json(const ReportContext& ctx, const Location& loc) {
  Json j;
  j["file"] = loc.valid() ? Json(ctx.model.files.path(loc.file)) : Json(nullptr);
  j["line"] = loc.line;
  j["column"] = loc.column;
  return j;
}

// One finding per fact (check/group.h): the other workloads with the same fact, and the other
// rules' reasons folded into it, each with the fingerprint it would have had alone so that a
// baseline or a diff can match it.
void add_grouping(const Redactor& redact, const Finding& f, Json& j) {
  Json shared = Json::array();
  for (const SharedWith& s : f.shared_with) {
    shared.push_back({{"subject", redact(s.subject)}, {"fingerprint", s.fingerprint}});
  }
  j["shared_with"] = std::move(shared);
  Json reasons = Json::array();
  for (const Reason& r : f.reasons) {
    reasons.push_back({{"rule", r.rule_id.str()},
                       {"invariant", r.invariant},
                       {"severity", severity_name(r.severity)},
                       {"message", redact(r.message)},
                       {"fingerprint", r.fingerprint}});
  }
  j["reasons"] = std::move(reasons);
}

Json note_json(const Redactor& redact, const RuntimeNote& n) {
  return {{"verdict", n.verdict},
          {"observed", redact(n.observed)},
          {"runtime", n.runtime},
          {"reason", redact(n.reason)}};
}

// `prove`: each launch, what it left out and the controls it checked.
Json launches_json(const Redactor& redact, const std::vector<RuntimeLaunch>& launches) {
  Json list = Json::array();
  for (const RuntimeLaunch& l : launches) {
    Json j;
    j["subject"] = redact(l.subject);
    j["name"] = redact(l.label);
    j["launch"] = l.launch.empty() ? Json(nullptr) : Json(l.launch);
    j["runtime"] = l.runtime.empty() ? Json(nullptr) : Json(l.runtime);
    j["engine_note"] = l.engine_note.empty() ? Json(nullptr) : Json(l.engine_note);
    j["error"] = l.error.empty() ? Json(nullptr) : Json(redact(l.error));
    Json np = Json::array();
    for (const auto& n : l.not_passed) np.push_back(redact(n));
    j["not_passed"] = std::move(np);
    Json controls = Json::array();
    for (const RuntimeControlRow& c : l.controls) {
      Json cj = {{"control", c.name}, {"invariant", c.invariant}, {"expected", c.expected}};
      cj.update(note_json(redact, c.note));
      controls.push_back(std::move(cj));
    }
    j["controls"] = std::move(controls);
    list.push_back(std::move(j));
  }
  return list;
}

Json finding_json(const ReportContext& ctx, const Redactor& redact, const Finding& f,
                  const RuntimeNote* note = nullptr) {
  const Rule* rule = ctx.catalog.find(f.rule_id);
  auto or_null = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
  Json j;
  j["rule"] = f.rule_id.str();
  j["slug"] = rule ? Json(rule->slug) : Json(nullptr);
  j["title"] = rule ? Json(rule->title) : Json(nullptr);
  j["invariant"] = f.invariant;
  j["severity"] = severity_name(f.severity);
  j["cause"] = f.cause ? Json(cause_name(*f.cause)) : Json(nullptr);
  j["message"] = redact(f.message.str());
  j["location"] = location_json(ctx, f.at);
  Json related = Json::array();
  for (const Related& r : f.related) {
    Json rj = location_json(ctx, r.at);
    rj["message"] = redact(r.message);
    related.push_back(std::move(rj));
  }
  j["related"] = std::move(related);
  // The provenance chain: where the value came from, nearest first (an added key: shape 1
  // consumers that ignore unknown keys keep working).
  Json via = Json::array();
  for (const Step& step : f.via()) {
    Json sj = location_json(ctx, step.at);
    sj["role"] = step_role_name(step.role);
    sj["note"] = or_null(redact(step.note));
    via.push_back(std::move(sj));
  }
  j["via"] = std::move(via);
  j["subject"] = redact(f.subject);
  j["threat_class"] = threat_class_name(f.threat);
  j["threat_class_reason"] = or_null(redact(f.threat_reason));
  j["condition"] = or_null(redact(f.condition().text));
  j["fingerprint"] = f.fingerprint;
  j["accepted_reason"] = or_null(redact(f.accepted_reason));
  j["suppression_kind"] = or_null(f.suppression_kind);
  add_grouping(redact, f, j);
  std::string remediation = rule ? rule->remediation_for(f.engine, f.cause) : std::string();
  while (!remediation.empty() && (remediation.back() == '\n' || remediation.back() == ' ')) {
    remediation.pop_back();
  }
  j["remediation"] = or_null(remediation);
  j["origin"] =
      rule ? Json({{"kind", rule->origin.kind}, {"detail", rule->origin.detail}}) : Json(nullptr);
  j["runtime"] = note != nullptr ? note_json(redact, *note) : Json(nullptr);
  return j;
}

// The boundary-vs-floor table (engine/boundary.h), the same rows the text report ends with,
// written a row at a time.
void workloads_json(const ReportContext& ctx, const Redactor& redact,
                    const report::ElementSink& sink) {
  for (const Workload* w : engine::boundary_order(ctx.model)) {
    const engine::BoundaryRow r = engine::boundary_row(ctx.model, *w);
    Json j;
    j["name"] = redact(r.name);
    j["subject"] = redact(r.subject);
    j["engine"] = engine_name(r.engine);
    j["threat_class"] = threat_class_name(r.threat);
    j["threat_class_reason"] = redact(r.threat_reason);
    j["boundary"] = {{"runtime", r.runtime},
                     {"user_namespace", r.user_namespace},
                     {"seccomp", redact(r.seccomp)},
                     {"capabilities", r.capabilities},
                     {"no_new_privileges", r.no_new_privileges},
                     {"user", redact(r.user)}};
    j["floor"] = r.floor;
    j["meets_floor"] = r.meets;
    j["shortfall"] = r.shortfall.empty() ? Json(nullptr) : Json(r.shortfall);
    sink(j);
  }
}

}  // namespace

void write_json(const ReportContext& ctx, std::ostream& out) {
  Redactor redact(ctx.model);
  report::Counts counts = report::count_findings(ctx.findings);

  Json doc;
  doc["version"] = kShapeVersion;
  doc["tool"]["name"] = report::kToolName;
  doc["tool"]["version"] = semantic_version();
  doc["tool"]["information_uri"] = report::kInformationUri;

  Json summary;
  summary["findings"] = ctx.findings.size();
  for (Severity s :
       {Severity::Critical, Severity::High, Severity::Medium, Severity::Low, Severity::Note}) {
    summary["by_severity"][std::string(severity_name(s))] =
        counts.by_severity[static_cast<size_t>(s)];
  }
  for (int inv = 0; inv <= 7; ++inv) {
    auto it = counts.by_invariant.find(inv);
    summary["by_invariant"][std::to_string(inv)] = it == counts.by_invariant.end() ? 0 : it->second;
  }
  summary["accepted"] = counts.accepted;
  summary["files"] = ctx.model.summary.files_seen;
  summary["kubernetes_documents"] = ctx.model.summary.kubernetes_documents;
  summary["other_yaml_documents"] = ctx.model.summary.other_yaml_documents;
  doc["summary"] = std::move(summary);
  doc["files"] = report::stream_placeholder();

  // Findings are written one at a time (report/json_stream.h): never the whole list as a tree.
  auto each = [&](const std::vector<Finding>& list) {
    return [&ctx, &redact, &list](const report::ElementSink& sink) {
      for (const Finding& f : list) sink(finding_json(ctx, redact, f));
    };
  };
  // Every path the walk met and what became of it (docs/robustness.md).
  auto files = [&ctx, &redact](const report::ElementSink& sink) {
    for (const FileRecord& f : ctx.model.summary.files) {
      Json j;
      const std::string& path = f.path_in(ctx.model.files);
      j["path"] = redact(path);
      j["status"] = file_status_name(f.status);
      j["reason"] = f.reason.empty() ? Json(nullptr) : Json(redact(f.reason));
      // An excluded directory listed as one entry: how many files it stands for.
      if (!path.empty() && path.back() == '/') j["files"] = f.count;
      sink(j);
    }
  };
  // A proved run adds each finding's runtime verdict (docs/prover.md).
  auto findings = [&ctx, &redact](const report::ElementSink& sink) {
    for (size_t i = 0; i < ctx.findings.size(); ++i) {
      const RuntimeNote* note = i < ctx.runtime.size() ? &ctx.runtime[i] : nullptr;
      sink(finding_json(ctx, redact, ctx.findings[i], note));
    }
  };
  std::vector<report::StreamedArray> streamed{{"files", files}, {"findings", findings}};
  doc["findings"] = report::stream_placeholder();
  if (!ctx.fixed.empty()) {
    doc["fixed"] = report::stream_placeholder();
    streamed.push_back({"fixed", each(ctx.fixed)});
  }
  doc["workloads"] = report::stream_placeholder();
  streamed.push_back({"workloads", [&ctx, &redact](const report::ElementSink& sink) {
                        workloads_json(ctx, redact, sink);
                      }});
  if (!ctx.launches.empty()) doc["launches"] = launches_json(redact, ctx.launches);
  report::write_streamed(out, doc, streamed);
}

}  // namespace sbr
