#include "prover/lib/interrupt.h"

#include <pthread.h>
#include <time.h>

#include "prover/lib/process.h"

namespace sbr::prove {
namespace {

std::atomic<Interrupts*> g_current{nullptr};

}  // namespace

Interrupts::Interrupts() {
  sigemptyset(&set_);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set_, s);
  pthread_sigmask(SIG_BLOCK, &set_, &old_);
  g_current.store(this);
  watcher_ = std::thread([this] {
    while (!stop_.load()) {
      timespec tick{0, 100L * 1000 * 1000};
      int s = sigtimedwait(&set_, nullptr, &tick);
      if (s > 0) {
        signal_.store(s);
        kill_all_children();
      }
    }
  });
}

Interrupts::~Interrupts() {
  stop_.store(true);
  if (watcher_.joinable()) watcher_.join();
  g_current.store(nullptr);
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

void Interrupts::reraise() {
  int s = signal_.load();
  stop_.store(true);
  if (watcher_.joinable()) watcher_.join();
  g_current.store(nullptr);
  if (s == 0) return;
  ::signal(s, SIG_DFL);
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, s);
  pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  raise(s);
}

int interrupted() {
  Interrupts* i = g_current.load();
  return i != nullptr ? i->signal() : 0;
}

}  // namespace sbr::prove
