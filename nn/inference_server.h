// The inference server: one model, requests from every search thread merged into large batches.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "config/config_schema.h"
#include "mcts/evaluator.h"
#include "nn/model.h"

namespace boardlab {

struct InferenceConfig {
  int max_batch = 256;    // positions per network call, at most
  int max_wait_us = 100;  // how long a batch waits for more requests once one has arrived
  // Network threads, each running one merged batch at a time (one LibTorch thread each). 0:
  // none, each self-play worker runs its own batch. On 2 CPU cores with a learner, none gave
  // self-play 0.92-0.94 of the raw network's rate, two threads 0.69-0.75 (boardlab bench
  // virus_war --nn); a GPU, which wants the workers' batches merged, wants 1 or 2.
  int threads = 0;

  template <class V>
  void visit(V& v) {
    v("max_batch", max_batch, "positions per network call, at most", Range::between(1, 65536));
    v("max_wait_us", max_wait_us, "microseconds a batch waits to fill", Range::between(0, 1000000));
    v("threads", threads, "network threads of the inference server (0: each caller runs its own batch)",
      Range::between(0, 64));
  }
};

struct InferenceStats {
  std::uint64_t batches = 0;
  std::uint64_t positions = 0;
  double latency_seconds = 0;  // summed over requests: from submission to answer
  std::uint64_t requests = 0;
  double network_seconds = 0;  // time inside the network
  double mean_batch() const { return batches ? static_cast<double>(positions) / static_cast<double>(batches) : 0; }
  double mean_latency_ms() const { return requests ? 1e3 * latency_seconds / static_cast<double>(requests) : 0; }
};

// An Evaluator that any number of threads may call at once. Callers encode their own
// positions and decode their answers, so the server threads only batch and run the model.
//
// With threads = 0 there are no server threads: each caller runs its own request through
// the model on its own thread. Nothing is merged, and nothing is handed between threads
// either: on a CPU whose cores the callers already fill, the hand-off (two wake-ups and the
// batch's wait a call) is time the network does not run.
//
// The model is versioned: set_model() replaces it between batches, and each batch runs on
// the model it started with, held alive by its shared_ptr. A training run publishes
// snapshots this way (KataGo's and Lc0's versioned networks), so self-play never reads
// weights or BatchNorm statistics the trainer is changing.
class InferenceServer final : public Evaluator {
 public:
  // Serves `model`, which must outlive the server and never be trained while it serves.
  InferenceServer(const Model& model, const InferenceConfig& config);
  // Serves a shared model (version 0) until set_model replaces it.
  InferenceServer(std::shared_ptr<const Model> model, const InferenceConfig& config);
  ~InferenceServer() override;
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override;

  // Batches that start from now on use `model` (same game shapes; InputError otherwise).
  void set_model(std::shared_ptr<const Model> model, std::int64_t version);
  std::int64_t model_version() const;
  // A network answers alike until set_model replaces it: its version is the model's.
  std::int64_t answer_version() const override { return model_version(); }

  InferenceStats stats() const;
  void reset_stats();

 private:
  struct Ticket;
  void serve();
  void run_in_caller(Ticket& ticket);                   // threads = 0
  void count_batch(int positions, double network_seconds);  // with mutex_ held

  std::shared_ptr<const Model> model_;  // guarded by mutex_
  std::int64_t version_ = 0;
  ObservationShape shape_;
  int actions_ = 0, players_ = 0;
  bool standings_ = false;  // the models' NetworkConfig::standings_baseline
  InferenceConfig config_;
  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::deque<Ticket*> queue_;
  bool stopping_ = false;
  int idle_ = 0;  // server threads waiting for work
  InferenceStats stats_;
  std::vector<std::thread> threads_;
};

}  // namespace boardlab
