// Child processes without a shell: argv as given, stdout and stderr captured, a time limit
// after which the whole process group is killed. Every child the prover starts is registered,
// so that an interrupted run (SIGINT/SIGTERM) can kill them before it cleans up.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace sbr::prove {

struct ProcessResult {
  int status = -1;  // exit status; 128+N when killed by signal N; -1 when it did not start
  bool timed_out = false;
  std::string out, err;
  std::string error;  // why it did not start
};

// Runs `argv` to completion or `timeout_ms`, with stdin closed. `env` entries (NAME=value)
// are added to (or replace) the prover's environment.
ProcessResult run_process(const std::vector<std::string>& argv, int timeout_ms,
                          const std::vector<std::string>& env = {});

// A running child with pipes: the prover reads the probe's report from stdout while the
// container runs, then closes stdin to let the probe exit.
class Child {
 public:
  Child() = default;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  Child(Child&& o) noexcept;
  Child& operator=(Child&& o) noexcept;
  ~Child();

  // nullopt (and `error`) when the process cannot be started.
  static std::optional<Child> spawn(const std::vector<std::string>& argv, std::string& error,
                                    const std::vector<std::string>& env = {});

  // The next line of stdout (without '\n'); nullopt at end of output or after `timeout_ms`.
  std::optional<std::string> read_line(int timeout_ms, bool& timed_out);
  void close_stdin();
  // Waits for the exit; kills the process group after `timeout_ms`. Collects stderr.
  int wait(int timeout_ms, bool& timed_out);
  const std::string& err() const { return err_; }
  // Reads what stderr holds now, without waiting.
  void drain_err();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, errfd_ = -1;
  std::string buf_, err_;
};

// Kills every registered child's process group (SIGKILL). Safe to call from the signal
// watcher thread.
void kill_all_children();
// While a run cleans up, its podman commands must finish even if a signal arrives: killing
// them would leave containers behind.
void set_cleaning(bool on);

}  // namespace sbr::prove
