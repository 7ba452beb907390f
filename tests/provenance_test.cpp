// Provenance chains: a launcher value that comes through a variable, a default, an array
// built in a function or a function argument carries the places it passed through, and the
// reports show them (SARIF relatedLocations and codeFlows, text "via ...", JSON "via").
#include <catch2/catch.hpp>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace provenance_test {

using namespace sbr;
namespace fs = std::filesystem;

namespace {

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("sbr-provenance") {}
};

const char* const kScript =
    "#!/bin/bash\n"                                   // 1
    "set -euo pipefail\n"                             // 2
    "NET_MODE=${NET_MODE:-host}\n"                    // 3
    "build_flags() {\n"                               // 4
    "  flags+=(--privileged)\n"                       // 5
    "  flags+=(--network \"$NET_MODE\")\n"            // 6
    "}\n"                                             // 7
    "flags=()\n"                                      // 8
    "build_flags\n"                                   // 9
    "podman run --rm \"${flags[@]}\" agent:1 loop\n"  // 10
    "start() {\n"                                     // 11
    "  podman run --rm --cap-add \"$1\" agent:1\n"    // 12
    "}\n"                                             // 13
    "CAP=NET_RAW\n"                                   // 14
    "start \"$CAP\"\n";                               // 15

struct Run {
  TempDir dir;
  Analysis an;
  std::vector<Finding> findings;
  Run() {
    std::ofstream(dir.path / "run.sh", std::ios::binary) << kScript;
    Config config;
    an = analyze({dir.path.string()}, config, {});
    findings = run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"});
  }
  const Finding& one(std::string_view rule) const {
    const Finding* hit = nullptr;
    for (const auto& f : findings) {
      if (f.rule_id == rule) hit = &f;
    }
    REQUIRE(hit != nullptr);
    return *hit;
  }
  std::string report(void (*writer)(const ReportContext&, std::ostream&)) const {
    ReportContext ctx{an.model, an.sources, Catalog::embedded(), findings};
    std::ostringstream os;
    writer(ctx, os);
    return os.str();
  }
};

std::vector<std::pair<StepRole, std::uint32_t>> chain(const Finding& f) {
  std::vector<std::pair<StepRole, std::uint32_t>> out;
  for (const auto& s : f.via()) out.emplace_back(s.role, s.at.line);
  return out;
}

void write_text_plain(const ReportContext& ctx, std::ostream& out) {
  write_text(ctx, out, false);
}

}  // namespace

TEST_CASE("a flag built in a function and expanded through an array has its chain",
          "[provenance]") {
  Run r;
  const Finding& priv = r.one("SB1001");
  CHECK(priv.at.line == 5);  // the element, where the fix goes
  using C = std::vector<std::pair<StepRole, std::uint32_t>>;
  CHECK(chain(priv) == C{{StepRole::Used, 10}});
  REQUIRE(priv.via().size() == 1);
  CHECK(priv.via()[0].note == "flags");

  // --network "$NET_MODE": assigned on line 3 from the default there, then the array's use.
  const Finding& net = r.one("SB1003");
  CHECK(net.at.line == 6);
  CHECK(chain(net) == C{{StepRole::Assigned, 3}, {StepRole::Default, 3}, {StepRole::Used, 10}});
  CHECK(net.via()[0].note == "NET_MODE");
}

TEST_CASE("a value passed to a function points at the call with the assignment behind it",
          "[provenance]") {
  Run r;
  const Finding& cap = r.one("SB2004");
  CHECK(cap.at.line == 15);  // the argument at the call site
  using C = std::vector<std::pair<StepRole, std::uint32_t>>;
  CHECK(chain(cap) == C{{StepRole::Assigned, 14}, {StepRole::Used, 12}});
}

TEST_CASE("SARIF carries the chain as relatedLocations and a code flow", "[provenance]") {
  Run r;
  auto log = nlohmann::json::parse(r.report(write_sarif));
  const nlohmann::json* priv = nullptr;
  const nlohmann::json* net = nullptr;
  for (const auto& res : log["runs"][0]["results"]) {
    if (res["ruleId"] == "SB1001") priv = &res;
    if (res["ruleId"] == "SB1003") net = &res;
  }
  REQUIRE(priv != nullptr);
  REQUIRE(net != nullptr);
  auto lines = [](const nlohmann::json& res) {
    std::vector<std::pair<std::string, int>> out;
    for (const auto& l : res["relatedLocations"]) {
      out.emplace_back(l["message"]["text"].get<std::string>(),
                       l["physicalLocation"]["region"]["startLine"].get<int>());
    }
    return out;
  };
  using L = std::vector<std::pair<std::string, int>>;
  CHECK(lines(*priv) == L{{"used flags", 10}});
  CHECK(lines(*net) == L{{"assigned NET_MODE", 3}, {"default NET_MODE", 3}, {"used flags", 10}});
  // GitHub shows a related location only when the message links to it.
  std::string text = (*net)["message"]["text"];
  CHECK(text.find("(via: [assigned NET_MODE](1); [default NET_MODE](2); [used flags](3))") !=
        std::string::npos);
  // The flow runs from where the value came from to the finding.
  const auto& flow = (*net)["codeFlows"][0]["threadFlows"][0]["locations"];
  REQUIRE(flow.size() == 4);
  CHECK(flow[0]["location"]["message"]["text"] == "default NET_MODE");
  CHECK(flow[1]["location"]["message"]["text"] == "assigned NET_MODE");
  CHECK(flow[2]["location"]["physicalLocation"]["region"]["startLine"] == 6);
  CHECK(flow[3]["location"]["message"]["text"] == "used flags");
  CHECK(flow[3]["location"]["physicalLocation"]["region"]["startLine"] == 10);
  CHECK((*net)["partialFingerprints"].contains("sbreview/v3"));
}

TEST_CASE("text and JSON show the chain", "[provenance]") {
  Run r;
  std::string text = r.report(write_text_plain);
  CHECK(text.find("  via: run.sh:3 (assigned NET_MODE), run.sh:3 (default NET_MODE), run.sh:10 "
                  "(used flags)\n") != std::string::npos);
  auto doc = nlohmann::json::parse(r.report(write_json));
  bool seen = false;
  for (const auto& f : doc["findings"]) {
    if (f["rule"] != "SB2004") continue;
    seen = true;
    REQUIRE(f["via"].size() == 2);
    CHECK(f["via"][0]["role"] == "assigned");
    CHECK(f["via"][0]["line"] == 14);
    CHECK(f["via"][0]["note"] == "CAP");
    CHECK(f["via"][1]["role"] == "used");
  }
  CHECK(seen);
}

}  // namespace provenance_test
