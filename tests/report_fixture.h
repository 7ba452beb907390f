// A hand-built run for the report tests: a model with literal secrets, the sources behind it, a
// small catalog and one finding of each shape (whole-file, accepted, related, leaking,
// conditional). No frontend is involved, so the writers are tested alone.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/report/report.h"

namespace sbr::test {

inline constexpr const char* kDbPassword = "hunter2-db-secret";
inline constexpr const char* kAnthropicKey = "sk-ant-api03-AAAAbbbbCCCCddddEEEEffff1234";

inline const char* const kAgentYaml =
    "apiVersion: v1\n"                                           // 1
    "kind: Pod\n"                                                // 2
    "metadata:\n"                                                // 3
    "  name: agent\n"                                            // 4
    "spec:\n"                                                    // 5
    "  containers:\n"                                            // 6
    "  - name: main\n"                                           // 7
    "    image: agent:1\n"                                       // 8
    "    securityContext:\n"                                     // 9
    "      privileged: true\n"                                   // 10
    "    env:\n"                                                 // 11
    "    - name: DB_PASSWORD\n"                                  // 12
    "      value: hunter2-db-secret\n"                           // 13
    "    - name: ANTHROPIC_API_KEY\n"                            // 14
    "      value: sk-ant-api03-AAAAbbbbCCCCddddEEEEffff1234\n";  // 15

inline const char* const kLaunchSh =
    "#!/bin/bash\n"
    "if [[ $MODE == full ]]; then\n"
    "\tpodman run --privileged agent\n"
    "fi\n";

// "é" is two bytes and one UTF-16 unit: byte column 17 (`privileged`) is UTF-16 column 16.
// The ESC byte checks that text output never passes control characters to the terminal.
inline const char* const kUnicodeYaml = "# café\nlabel: é\x1b[31m: privileged\n";

inline Rule make_rule(std::string id, std::string slug, int invariant, Severity s) {
  Rule r;
  r.id = std::move(id);
  r.slug = std::move(slug);
  r.title = "Title of " + r.slug;
  r.invariant = invariant;
  r.severity = s;
  r.message = "Why " + r.slug + " matters.\n";
  r.remediation = "Fix " + r.slug + ".\n";
  r.references = {"https://example.org/" + r.slug};
  r.applies_to = {"kubernetes"};
  r.origin = {"invariant", "Invariant " + std::to_string(invariant)};
  r.tool_notification = r.id == "SB0002";  // an unreadable file, as in the real catalog
  return r;
}

struct ReportFixture {
  Model model;
  SourceSet sources;
  Catalog catalog;
  std::vector<Finding> findings;

  ReportFixture() {
    auto add_file = [&](std::string path, std::string bytes, bool readable) {
      SourceFile f;
      f.id = model.files.add(path);
      f.path = path;
      f.bytes = std::move(bytes);
      f.readable = readable;
      sources.files.push_back(std::move(f));
      return sources.files.back().id;
    };
    FileId broken = add_file("broken.yaml", "", false);
    FileId agent = add_file("k8s/agent.yaml", kAgentYaml, true);
    FileId launch = add_file("launch.sh", kLaunchSh, true);
    FileId uni = add_file("unicode.yaml", kUnicodeYaml, true);
    model.summary.files_seen = 4;
    model.summary.kubernetes_documents = 1;
    model.summary.other_yaml_documents = 1;

    Workload w;
    w.id = {"Pod", "", "default", "agent", "main", "k8s/agent.yaml"};
    w.env.push_back(
        {"DB_PASSWORD", kDbPassword, EnvSource::Literal, "", false, {{agent, 13, 14}}, false});
    w.env.push_back({"ANTHROPIC_API_KEY",
                     kAnthropicKey,
                     EnvSource::Literal,
                     "",
                     false,
                     {{agent, 15, 14}},
                     false});
    w.env.push_back({"LOG_LEVEL", "debug", EnvSource::Literal, "", false, {{agent, 0, 0}}, false});
    model.workloads.push_back(std::move(w));

    for (Rule r : {make_rule("SB0002", "unreadable-file", 0, Severity::High),
                   make_rule("SB1001", "privileged-container", 1, Severity::Critical),
                   make_rule("SB4001", "literal-secret-env", 4, Severity::High),
                   make_rule("SB5001", "unused-in-this-run", 5, Severity::High),
                   make_rule("SB6001", "no-limits", 6, Severity::Medium),
                   make_rule("SB7001", "conditional-thing", 7, Severity::Low)}) {
      catalog.add(std::move(r));
    }

    auto add = [&](std::string rule, Location at, std::string message, Severity s) -> Finding& {
      Finding f;
      f.rule_id = *RuleId::parse(rule);
      f.at = at;
      f.message = std::move(message);
      f.subject = "Pod/default/agent/main";
      f.fact_path = rule + ".path";
      f.severity = s;
      f.invariant = catalog.find(f.rule_id)->invariant;
      findings.push_back(std::move(f));
      return findings.back();
    };
    Finding& unread =
        add("SB0002", {broken, 0, 0}, "file cannot be read: Permission denied", Severity::High);
    unread.subject = "broken.yaml";
    Finding& accepted = add("SB6001", {agent, 7, 5},
                            "container main of Pod/default/agent has no limits", Severity::Note);
    accepted.accepted_reason = "the batch node enforces its own limits";
    Finding& priv = add("SB1001", {agent, 10, 7},
                        "container main of Pod/default/agent is privileged", Severity::Critical);
    priv.related.push_back({{agent, 5, 1}, "the pod spec"});
    // A careless check that put the value in its message: the writers must still redact it.
    Finding& leak =
        add("SB4001", {agent, 13, 14}, std::string("DB_PASSWORD holds the literal ") + kDbPassword,
            Severity::High);
    leak.related.push_back(
        {{agent, 15, 14}, std::string("also ANTHROPIC_API_KEY=") + kAnthropicKey});
    Finding& cond = add("SB7001", {launch, 3, 2}, "podman run is privileged", Severity::Low);
    cond.subject = "launcher/launch.sh/launch 1";
    cond.set_condition({"[[ $MODE == full ]]", true});
    add("SB1001", {uni, 2, 17}, "privileged after a multi-byte character", Severity::Critical);
    for (Finding& f : findings) f.fingerprint = fingerprint(f);
  }

  ReportContext ctx() const { return {model, sources, catalog, findings, "/work/repo"}; }

  std::string text(bool color = false) const {
    std::ostringstream s;
    write_text(ctx(), s, color);
    return s.str();
  }
  std::string json() const {
    std::ostringstream s;
    write_json(ctx(), s);
    return s.str();
  }
  std::string sarif() const {
    std::ostringstream s;
    write_sarif(ctx(), s);
    return s.str();
  }
};

}  // namespace sbr::test
