// The process-wide stop request and the guard that lets SIGINT and SIGTERM set it.
#include "core/stop.h"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace boardlab {
namespace {

// Lock-free atomics are the only shared state a signal handler may touch.
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM};
constexpr int kNumSignals = sizeof kSignals / sizeof kSignals[0];

// The guards alive and the handlers the first one replaced.
std::mutex g_mutex;
int g_depth = 0;
struct sigaction g_previous[kNumSignals];

extern "C" void on_stop_signal(int signal) { request_stop(signal); }

}  // namespace

bool stop_requested() noexcept { return g_stop.load(std::memory_order_relaxed); }

void request_stop(int signal) noexcept {
  if (signal != 0) g_signal.store(signal, std::memory_order_relaxed);
  g_stop.store(true, std::memory_order_release);
}

int stop_signal() noexcept { return g_signal.load(std::memory_order_relaxed); }

void clear_stop() noexcept {
  g_stop.store(false, std::memory_order_relaxed);
  g_signal.store(0, std::memory_order_relaxed);
}

StopToken::StopToken(double seconds)
    : deadline_(std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds))) {}

bool StopToken::requested() const noexcept {
  if (requested_.load(std::memory_order_acquire)) return true;
  return deadline_ && std::chrono::steady_clock::now() >= *deadline_;
}

StopOnSignals::StopOnSignals() {
  std::lock_guard lock(g_mutex);
  if (g_depth++ > 0) return;
  clear_stop();
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Restarted system calls: the work goes on until it polls the request, as it would
  // without the signal.
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < kNumSignals; ++i) {
    sigaction(kSignals[i], nullptr, &g_previous[i]);
    // An ignored signal stays ignored (`nohup`, a shell's background job).
    if (g_previous[i].sa_handler != SIG_IGN) sigaction(kSignals[i], &action, nullptr);
  }
}

StopOnSignals::~StopOnSignals() {
  std::lock_guard lock(g_mutex);
  if (--g_depth > 0) return;
  for (int i = 0; i < kNumSignals; ++i) sigaction(kSignals[i], &g_previous[i], nullptr);
  // The work that was stopped has ended: later work starts afresh.
  clear_stop();
}

void StopOnSignals::forward(int signal) noexcept {
  if (signal != 0) ::raise(signal);
}

}  // namespace boardlab
