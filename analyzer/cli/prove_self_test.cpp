#include "analyzer/cli/prove_self_test.h"
#include "analyzer/report/report_util.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "prover/lib/interrupt.h"
#include "prover/lib/self_test.h"

namespace sbr {
namespace {

void write_rows(const std::vector<prove::SelfTestRow>& rows, const std::string& podman,
                const std::string& format, std::ostream& out) {
  if (format == "json") {
    nlohmann::ordered_json doc;
    doc["podman"] = podman;
    doc["rows"] = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
      doc["rows"].push_back({{"launch", r.launch},
                             {"field", r.field},
                             {"expected", r.expected},
                             {"observed", r.observed},
                             {"status", r.status}});
    }
    out << doc.dump(2) << "\n";
    return;
  }
  out << "podman " << podman << "\n";
  out << fmt::format("{:<18} {:<36} {:<22} {}\n", "launch", "field", "status", "observed");
  for (const auto& r : rows) {
    out << fmt::format("{:<18} {:<36} {:<22} {}\n", r.launch, r.field, r.status, r.observed);
  }
}

}  // namespace

int run_prove_self_test(const Options& o, std::ostream& out, std::ostream& err) {
  prove::Interrupts interrupts;
  prove::SessionOptions so;
  so.runtime_dir = o.runtime_dir.value_or("");
  so.command_timeout_ms = static_cast<int>(o.timeout.value_or(30)) * 1000;
  auto session = prove::Session::open(so);
  if (!session) {
    err << "sbreview: prove: " << report::one_line_safe(session.error().message) << "\n";
    return 2;
  }
  auto rows = prove::self_test(**session);
  std::string leftovers = (*session)->cleanup();
  if (interrupts.signal() != 0) {
    interrupts.reraise();
    return 130;
  }
  for (const auto& spec : o.outputs) {
    std::ofstream file;
    if (!spec.path.empty()) file.open(spec.path, std::ios::binary | std::ios::trunc);
    write_rows(rows, (*session)->podman_version(), spec.format, spec.path.empty() ? out : file);
  }
  if (!leftovers.empty()) {
    err << "sbreview: prove: cleanup: " << leftovers << "\n";
    return 2;
  }
  // A launch that failed measured nothing: podman is not working as the prover needs.
  for (const auto& r : rows) {
    if (r.status == "not run" && r.observed != "runsc is not installed") {
      err << "sbreview: prove: a self-test launch failed (" << r.launch << ", " << r.field
          << "): " << r.observed << "\n";
      return 2;
    }
  }
  return 0;
}

}  // namespace sbr
