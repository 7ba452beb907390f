// One prover run on this machine: its run-unique id, its private directory (stand-ins, pod
// files), the probe image it imported, its canaries, and the cleanup that removes every
// container, pod, volume and image carrying the run's label or name, on success, failure,
// timeout and interruption alike.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analyzer/support/result.h"
#include "prover/lib/host_net.h"
#include "prover/lib/process.h"

namespace sbr::prove {

struct SessionOptions {
  std::string runtime_dir;  // parent of the run's directory; "" = $TMPDIR or /tmp
  int command_timeout_ms = 60000;
};

class Session {
 public:
  // Checks that podman answers, imports the probe image and starts the canaries. An error
  // says what is missing (podman not installed, not working) and leaves nothing behind.
  static Result<std::unique_ptr<Session>> open(const SessionOptions& options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Keeps a finished launch's podman process until cleanup waits for it: its teardown then
  // overlaps the next launch.
  void defer(Child child);

  // Removes everything of this run; idempotent. Returns what it could not remove, if anything.
  std::string cleanup();

  const std::string& run_id() const { return run_id_; }
  const std::string& dir() const { return dir_; }
  const std::string& image() const { return image_; }
  const std::string& token() const { return run_id_; }
  bool runsc_available() const { return runsc_; }
  // The containers.conf every podman command of the run reads, and the one `kube play` of a
  // gVisor workload reads (both "" when runsc is missing: podman's own configuration then).
  const std::string& conf() const { return conf_; }
  const std::string& runsc_conf() const { return runsc_conf_; }
  const Canaries& canaries() const { return *canaries_; }
  const std::map<std::string, std::string>& host_namespaces() const { return host_ns_; }
  const std::string& host_kernel() const { return kernel_; }
  const std::string& podman_version() const { return podman_version_; }
  int timeout_ms() const { return options_.command_timeout_ms; }

 private:
  Session() = default;
  Result<bool> setup();
  void write_runsc_conf();

  SessionOptions options_;
  std::string run_id_, dir_, image_, conf_, runsc_conf_, kernel_, podman_version_;
  bool runsc_ = false, cleaned_ = false;
  std::unique_ptr<Canaries> canaries_;
  std::mutex pending_mu_;
  std::vector<Child> pending_;
  std::map<std::string, std::string> host_ns_;
};

// A podman command of this run, with the run's time limit.
ProcessResult podman(const Session& s, const std::vector<std::string>& args,
                     const std::vector<std::string>& env = {});

// The environment of a podman command of this run: the run's containers.conf, then `env`.
std::vector<std::string> podman_env(const Session& s, const std::vector<std::string>& env = {});

// Whether `name` is an executable on PATH.
bool on_path(const std::string& name);

}  // namespace sbr::prove
