// A workload turned into a launch the prover may run: an allowlist, not a denylist. Only the
// options the prover knows to be safe are passed (capabilities, security options, user,
// read-only root, resource limits, network mode, publish, tmpfs, runtime); every host path is
// replaced by a stand-in the prover creates, the image by the probe image and the command by
// the probe. Everything not passed is listed with the reason, so the judgments that depend on
// it say "not verifiable". Pure: planning reads the model only, never the host.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr::prove {

enum class LaunchKind : std::uint8_t {
  None,       // nothing is launched (why_not says why)
  PodmanRun,  // launchers, compose services, devcontainers: `podman run`
  KubePlay,   // Kubernetes containers: `podman kube play` of a generated Pod
};

// A host path (or named volume) of a mount, replaced by one the prover owns.
struct StandIn {
  enum class Kind : std::uint8_t { Directory, Socket, Volume };
  Kind kind = Kind::Directory;
  std::string written;  // the host path or volume name as the configuration writes it
  std::string target;   // where it is mounted inside
  std::string name;     // its name: a file name under the stand-in directory, or a volume name
  bool read_only = false;
  // A directory that holds a runtime socket (/var/run): the stand-in holds a socket of this
  // name, so that reaching a socket through the mount is measured.
  std::string socket_inside;
};

struct PublishPlan {
  std::string spec;     // as written
  std::string host_ip;  // as written; "" binds every interface
  int host_port = 0;    // a free port of this machine in place of the written one
  int container_port = 0;
  std::string protocol = "tcp";
  bool passed = false;
  std::string reason;  // why it was not passed
};

// Something of the configuration the launch leaves out, and why.
struct NotPassed {
  std::string what;    // "--device /dev/kvm", "hostIPC", "mount /etc:/host-etc option :U"
  std::string reason;  // "reaches a host device"
};

struct LaunchPlan {
  LaunchKind kind = LaunchKind::None;
  std::string why_not;               // kind None: why nothing is launched
  std::string runtime = "runc";      // "runc" or "runsc"
  std::string engine_note;           // "a docker launcher, run on podman"; "" for podman itself
  std::vector<std::string> options;  // `podman run` options (PodmanRun)
  std::string pod_json;              // the generated `kind: Pod` (KubePlay)
  std::vector<StandIn> stand_ins;
  std::vector<PublishPlan> publishes;
  std::vector<NotPassed> not_passed;
  std::string network;                // the network mode launched: none, bridge, host...
  std::vector<std::string> mounts;    // targets the probe reports on
  std::vector<std::string> paths;     // sockets the probe tries to reach
  std::vector<int> listen;            // container ports the probe listens on
  std::string seccomp_profile;        // repository profile written beside the stand-ins
  std::string seccomp_profile_bytes;  // its bytes
};

struct PlanContext {
  std::string run_id;       // run-unique: in every name and label
  std::string name;         // this launch's container (or pod) name
  std::string image;        // the probe image
  std::string standin_dir;  // absolute directory of this launch's stand-ins
  bool runsc_available = false;
  std::function<int()> free_port;  // a free TCP port on this machine
  // A file of the analysed source set by its path in the model ("" when it is not there).
  std::function<std::optional<std::string>(const std::string&)> repo_file;
};

inline constexpr const char* kRunLabel = "sbreview.prove.run";

LaunchPlan plan_launch(const Workload& w, const Model& model, const PlanContext& ctx);

// The probe's part of the command line: what the runner knows only at launch time.
struct ProbeArgs {
  std::string token;
  std::vector<std::string> canaries;  // NAME=ADDR:PORT
  int linger_ms = 3000;
};
std::vector<std::string> probe_command(const LaunchPlan& p, const ProbeArgs& a, bool stdin_ends);

// `podman run ...` for a PodmanRun plan (without the leading "podman").
std::vector<std::string> podman_run_args(const LaunchPlan& p, const PlanContext& ctx,
                                         const ProbeArgs& a);

// Internals shared by the two planners (plan_podman.cpp, plan_kube.cpp).
namespace detail {
void plan_podman(const Workload& w, const Model& model, const PlanContext& ctx, LaunchPlan& p);
void plan_kube(const Workload& w, const Model& model, const PlanContext& ctx, LaunchPlan& p);
// The stand-in for a host-path mount (name-based: the analysed host is not this machine).
StandIn stand_in_for(const Mount& m, size_t index);
std::string standin_path(const PlanContext& ctx, const StandIn& s);
}  // namespace detail

}  // namespace sbr::prove
