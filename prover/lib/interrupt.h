// SIGINT/SIGTERM/SIGHUP during a run: the prover must still remove what it created. While an
// Interrupts object lives, those signals are blocked in every thread the prover starts (create
// it first) and a watcher thread takes them: it records the signal and kills the running
// podman children, so every wait returns quickly and the run's cleanup follows. The caller
// then re-raises the signal (`reraise`), so the process ends as the signal says.
#pragma once

#include <signal.h>

#include <atomic>
#include <thread>

namespace sbr::prove {

class Interrupts {
 public:
  Interrupts();
  ~Interrupts();
  Interrupts(const Interrupts&) = delete;
  Interrupts& operator=(const Interrupts&) = delete;

  // The signal that arrived, 0 when none has.
  int signal() const { return signal_.load(); }
  // Restores the signal mask and ends the process with the recorded signal (if any).
  void reraise();

 private:
  sigset_t set_{}, old_{};
  std::atomic<int> signal_{0};
  std::atomic<bool> stop_{false};
  std::thread watcher_;
};

// The signal of the Interrupts object alive in this process, 0 when none (or none arrived).
int interrupted();

}  // namespace sbr::prove
