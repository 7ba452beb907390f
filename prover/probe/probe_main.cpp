// sbreview_probe: the program the prover runs in place of a workload's image and command. It
// reports what the sandbox looks like from inside as one JSON line on stdout, then answers on
// the published ports until the prover closes stdin or the linger time is over.
//
//   sbreview_probe --token T [--listen PORT]... [--canary NAME=ADDR:PORT]... [--mount PATH]...
//                  [--path PATH]... [--linger-ms N] [--until-stdin-eof]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "prover/probe/probe.h"

namespace {

using sbr::probe::Json;
using sbr::probe::Request;

bool parse_canary(const std::string& v, sbr::probe::Canary& c) {
  size_t eq = v.find('='), colon = v.rfind(':');
  if (eq == std::string::npos || colon == std::string::npos || colon < eq) return false;
  c.name = v.substr(0, eq);
  c.host = v.substr(eq + 1, colon - eq - 1);
  c.port = std::atoi(v.substr(colon + 1).c_str());
  return c.port > 0 && c.port < 65536;
}

bool parse_args(int argc, char** argv, Request& r) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--until-stdin-eof") {
      r.until_stdin_eof = true;
      continue;
    }
    if (i + 1 >= argc) return false;
    std::string v = argv[++i];
    if (a == "--token") {
      r.token = v;
    } else if (a == "--listen") {
      r.listen.push_back(std::atoi(v.c_str()));
    } else if (a == "--canary") {
      sbr::probe::Canary c;
      if (!parse_canary(v, c)) return false;
      r.canaries.push_back(c);
    } else if (a == "--mount") {
      r.mounts.push_back(v);
    } else if (a == "--path") {
      r.paths.push_back(v);
    } else if (a == "--linger-ms") {
      r.linger_ms = std::atoi(v.c_str());
    } else {
      return false;
    }
  }
  return !r.token.empty();
}

}  // namespace

namespace {

int probe_main(int argc, char** argv) {
  Request r;
  if (!parse_args(argc, argv, r)) {
    std::fputs("usage: sbreview_probe --token T [--listen PORT]... [--canary N=A:P]...\n", stderr);
    return 2;
  }
  sbr::probe::Listeners listeners = sbr::probe::open_listeners(r);
  Json report;
  report["probe"] = 1;
  report["token"] = r.token;
  report["identity"] = sbr::probe::identity();
  report["kernel"] = sbr::probe::kernel();
  report["namespaces"] = sbr::probe::namespaces();
  report["filesystem"] = sbr::probe::filesystem(r);
  report["paths"] = sbr::probe::paths(r);
  report["cgroup"] = sbr::probe::cgroup();
  report["network"] = sbr::probe::network(r);
  report["listen"] = listeners.report;
  report["env"] = sbr::probe::environment_names();
  std::string line =
      "SBREVIEW-PROBE-REPORT " + report.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
  sbr::probe::serve(r, listeners);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return probe_main(argc, argv);
  } catch (const std::exception& e) {
    // No report is a failed launch for the prover (SB0040), with this on stderr.
    std::fprintf(stderr, "sbreview_probe: %s\n", e.what());
    return 1;
  }
}
