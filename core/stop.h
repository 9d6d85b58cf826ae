// Stopping long work on request: one process-wide flag that SIGINT and SIGTERM set and every long loop polls.
//
// Long C++ calls (search, arena, benchmarks, self-play, training) run for minutes with no
// Python frame to see a signal. Each polls stop_requested() between its steps and ends
// early: a search with its best move so far, an arena with the games it finished, a
// training run at its next safe point with a checkpoint. A StopOnSignals guard turns
// SIGINT and SIGTERM into that request for the duration of one such call.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>

namespace boardlab {

// True once a stop was asked for: by a signal under a StopOnSignals guard, or request_stop().
bool stop_requested() noexcept;
// Asks every long loop to stop at its next check. `signal` records why (0: not a signal);
// async-signal-safe.
void request_stop(int signal = 0) noexcept;
// The signal that asked for the stop, 0 when none did.
int stop_signal() noexcept;
// Withdraws the request (a test, or a caller that handled the stop and goes on).
void clear_stop() noexcept;

// A stop for one piece of work, besides the process-wide request: another thread asks
// for it (a web page that left, an undo), or a deadline passes (a per-move time cap). The
// work polls requested() where it polls stop_requested(); the token outlives the work.
class StopToken {
 public:
  StopToken() = default;
  // Requested by itself once `seconds` have passed from now.
  explicit StopToken(double seconds);
  StopToken(const StopToken&) = delete;
  StopToken& operator=(const StopToken&) = delete;

  // Thread-safe, and safe to call any number of times.
  void request() noexcept { requested_.store(true, std::memory_order_release); }
  bool requested() const noexcept;

 private:
  std::atomic<bool> requested_{false};
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

// While alive, SIGINT and SIGTERM request a stop instead of running their previous
// handlers (Python's included); the previous handlers come back when the last guard goes.
// A signal that was ignored stays ignored.
// The first guard starts with no request pending and the last withdraws the request as it
// ends: read signal() before it goes, so that the caller can report the interruption
// (return partial results, or forward() the signal to the handler that had it before, e.g.
// Python's, which raises KeyboardInterrupt). Guards may nest and may live on several
// threads at once; they share the one request.
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  // The signal that has asked to stop so far, 0 when none did.
  int signal() const noexcept { return stop_signal(); }

  // Delivers `signal` (if not 0) to the handler that had it before any guard: call it once
  // the guards are gone, with the signal() read before they went.
  static void forward(int signal) noexcept;
};

}  // namespace boardlab
