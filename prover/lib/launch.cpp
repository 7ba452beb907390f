#include "prover/lib/launch.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "prover/lib/host_net.h"
#include "prover/lib/interrupt.h"
#include "prover/lib/process.h"

namespace sbr::prove {
namespace {

// Stand-ins and their listening sockets; closed when the launch is over (the directory goes
// with the session).
struct StandIns {
  std::vector<int> sockets;
  ~StandIns() {
    for (int fd : sockets) close(fd);
  }
};

bool listen_unix(const std::string& path, StandIns& keep) {
  sockaddr_un a{};
  if (path.size() >= sizeof a.sun_path) return false;
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size());
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 8) != 0) {
    close(fd);
    return false;
  }
  chmod(path.c_str(), 0777);  // any container user may connect: the mount is what is measured
  keep.sockets.push_back(fd);
  return true;
}

std::string create_stand_ins(Session& s, const LaunchPlan& plan, const PlanContext& ctx,
                             StandIns& keep) {
  if (mkdir(ctx.standin_dir.c_str(), 0755) != 0) return "cannot create " + ctx.standin_dir;
  for (const StandIn& si : plan.stand_ins) {
    std::string path = detail::standin_path(ctx, si);
    if (si.kind == StandIn::Kind::Volume) {
      ProcessResult r = podman(
          s, {"volume", "create", "--label", fmt::format("{}={}", kRunLabel, ctx.run_id), path});
      if (r.status != 0) return "podman volume create failed: " + r.err;
    } else if (si.kind == StandIn::Kind::Socket) {
      if (!listen_unix(path, keep)) return "cannot create the stand-in socket " + path;
    } else {
      // World-writable, so that "writable" measures the mount's flags, not who owns it.
      if (mkdir(path.c_str(), 0777) != 0 || chmod(path.c_str(), 0777) != 0) {
        return "cannot create the stand-in " + path;
      }
      if (!si.socket_inside.empty() && !listen_unix(path + "/" + si.socket_inside, keep)) {
        return "cannot create a stand-in socket in " + path;
      }
    }
  }
  if (!plan.seccomp_profile.empty()) {
    std::ofstream(plan.seccomp_profile, std::ios::binary) << plan.seccomp_profile_bytes;
  }
  return {};
}

void look_at_ports(const LaunchPlan& plan, const std::string& token, Observation& o) {
  for (const PublishPlan& p : plan.publishes) {
    PortBinding b;
    b.host_port = p.host_port;
    if (p.passed) {
      b.addresses = host_listening_addresses(p.host_port);
      bool v4 = false, v6 = false;
      for (const auto& a : b.addresses) {
        v4 = v4 || a == "0.0.0.0" || a.rfind("127.", 0) == 0;
        v6 = v6 || a == "::" || a == "::1";
      }
      b.reached_probe = (v4 && reaches_probe(p.host_port, token, false)) ||
                        (!v4 && v6 && reaches_probe(p.host_port, token, true));
    }
    o.bindings.push_back(std::move(b));
  }
}

// Reads lines until the probe's report; false (with the reason) when there is none.
bool read_report(Child& c, int timeout_ms, Observation& o) {
  for (;;) {
    bool timed_out = false;
    auto line = c.read_line(timeout_ms, timed_out);
    if (!line) {
      o.timed_out = timed_out;
      return false;
    }
    if (line->rfind("SBREVIEW-PROBE-REPORT ", 0) != 0) continue;
    auto r = parse_probe_report(*line);
    if (!r) {
      o.error = r.error().message;
      return false;
    }
    o.probe = std::move(*r);
    return true;
  }
}

std::string last_words(const std::string& err) {
  // podman's error is its last line; conmon and syslog chatter come before it.
  std::string s = err;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  size_t nl = s.rfind('\n');
  s = nl == std::string::npos ? s : s.substr(nl + 1);
  return s.empty() ? "podman said nothing" : s;
}

void run_podman(Session& s, const LaunchPlan& plan, const PlanContext& ctx, Observation& o) {
  ProbeArgs a{s.token(), s.canaries().probe_args(), 5000};
  std::vector<std::string> argv = {"podman"};
  auto args = podman_run_args(plan, ctx, a);
  argv.insert(argv.end(), args.begin(), args.end());
  auto child = Child::spawn(argv, o.error, podman_env(s));
  if (!child) return;
  if (read_report(*child, s.timeout_ms(), o)) {
    o.launched = true;
    look_at_ports(plan, s.token(), o);
  }
  // The probe exits when stdin closes and `--rm` removes the container; podman's teardown
  // overlaps the next launch (the session waits for it before its cleanup).
  child->close_stdin();
  child->drain_err();
  o.engine_stderr = child->err();
  if (o.launched) {
    s.defer(std::move(*child));
    return;
  }
  podman(s, {"rm", "-f", "-t", "0", ctx.name});
  bool late = false;
  child->wait(5000, late);
  o.engine_stderr = child->err();
  if (o.error.empty()) o.error = last_words(o.engine_stderr);
}

// The probe's report from the container's log. `podman logs -f` can end before the log holds
// anything (under gVisor the log is written after the container has exited), so the log is
// read again until the report is in it or the time is up.
bool poll_report(Session& s, const std::string& container, Observation& o) {
  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + std::chrono::milliseconds(s.timeout_ms());
  bool exited = false;
  for (int round = 0;; ++round) {
    ProcessResult logs = podman(s, {"logs", container});
    std::istringstream in(logs.out);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("SBREVIEW-PROBE-REPORT ", 0) != 0) continue;
      auto r = parse_probe_report(line);
      if (!r) {
        o.error = r.error().message;
        return false;
      }
      o.probe = std::move(*r);
      return true;
    }
    if (Clock::now() >= deadline || interrupted() != 0) {
      o.timed_out = interrupted() == 0 && !exited;
      o.error = exited ? "the container exited without a report: " + last_words(logs.err)
                       : last_words(logs.err);
      return false;
    }
    // A container that exited without a report (it could not start) is given two seconds for
    // its log to arrive, not the whole time limit.
    if (!exited && round % 5 == 4) {
      ProcessResult st =
          podman(s, {"container", "inspect", "--format", "{{.State.Status}}", container});
      if (st.out.rfind("exited", 0) == 0 || st.status != 0) {
        exited = true;
        deadline = std::min(deadline, Clock::now() + std::chrono::seconds(2));
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void run_kube(Session& s, const LaunchPlan& plan, const PlanContext& ctx, Observation& o) {
  ProbeArgs a{s.token(), s.canaries().probe_args(), plan.listen.empty() ? 0 : 5000};
  auto pod = nlohmann::ordered_json::parse(plan.pod_json);
  pod["spec"]["containers"][0]["command"] = probe_command(plan, a, false);
  std::string file = ctx.standin_dir + "/pod.json";
  std::ofstream(file, std::ios::binary) << pod.dump();
  std::vector<std::string> args = {"kube", "play"};
  std::vector<std::string> env;
  if (plan.runtime == "runsc") {
    args.insert(args.end(), {"--network", "none"});
    env.push_back("CONTAINERS_CONF=" + s.runsc_conf());
  }
  args.push_back(file);
  ProcessResult play = podman(s, args, env);
  o.engine_stderr = play.err;
  if (play.status != 0) {
    o.timed_out = play.timed_out;
    o.error = last_words(play.err + play.error);
  } else if (poll_report(s, ctx.name + "-probe", o)) {
    o.launched = true;
    look_at_ports(plan, s.token(), o);
  }
  // The pod is left to the session's sweep, which removes every pod of the run at once: one
  // pod at a time costs a second each here.
}

}  // namespace

Observation launch(Session& s, const LaunchPlan& plan, const PlanContext& ctx) {
  Observation o;
  o.runtime = "podman/" + plan.runtime;
  o.host_namespaces = s.host_namespaces();
  o.host_kernel_release = s.host_kernel();
  if (plan.kind == LaunchKind::None) return o;
  StandIns keep;
  if (std::string e = create_stand_ins(s, plan, ctx, keep); !e.empty()) {
    o.error = e;
    return o;
  }
  if (plan.kind == LaunchKind::PodmanRun) {
    run_podman(s, plan, ctx, o);
  } else {
    run_kube(s, plan, ctx, o);
  }
  for (const StandIn& si : plan.stand_ins) {
    if (si.kind == StandIn::Kind::Volume)
      podman(s, {"volume", "rm", "-f", detail::standin_path(ctx, si)});
  }
  return o;
}

}  // namespace sbr::prove
