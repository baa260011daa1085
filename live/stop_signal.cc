#include "live/stop_signal.h"

#include <signal.h>

#include <atomic>

namespace drainsim::live {

namespace {

std::atomic<int> g_stop_signal{0};
std::atomic<bool> g_stop{false};
static_assert(std::atomic<int>::is_always_lock_free);

void OnSignal(int signal_number) {
  int expected = 0;
  g_stop_signal.compare_exchange_strong(expected, signal_number);
  g_stop.store(true);
}

}  // namespace

void InstallStopHandlers() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

bool StopRequested() { return g_stop.load(); }
int StopSignal() { return g_stop_signal.load(); }
void RequestStop() { g_stop.store(true); }

}  // namespace drainsim::live
