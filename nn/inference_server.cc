// Batching requests across threads, with a size cap and a wait cap.
#include "nn/inference_server.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

#include "core/errors.h"
#include "nn/network_evaluator.h"

namespace boardlab {

using Clock = std::chrono::steady_clock;

struct InferenceServer::Ticket {
  int size = 0;
  const float* obs = nullptr;
  float* logits = nullptr;
  float* values = nullptr;
  float* score_margins = nullptr;
  Clock::time_point submitted;
  bool done = false;
  std::exception_ptr error;
  std::condition_variable finished;
};

InferenceServer::InferenceServer(const Model& model, const InferenceConfig& config)
    : InferenceServer(std::shared_ptr<const Model>(&model, [](const Model*) {}), config) {}

InferenceServer::InferenceServer(std::shared_ptr<const Model> model, const InferenceConfig& config)
    : model_(model ? std::move(model) : throw InputError("inference: no model to serve")),
      shape_(model_->input_shape()),
      actions_(model_->num_actions()),
      players_(model_->num_players()),
      standings_(model_->config().standings_baseline),
      config_(config) {
  if (config.max_batch < 1) throw InputError("inference: max_batch must be at least 1");
  if (config.max_wait_us < 0) throw InputError("inference: max_wait_us must be 0 or more");
  if (config.threads < 0) throw InputError("inference: threads must be 0 or more");
  for (int t = 0; t < config.threads; ++t) threads_.emplace_back([this] { serve(); });
}

InferenceServer::~InferenceServer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (auto& t : threads_) t.join();
}

void InferenceServer::evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) {
  if (requests.empty()) return;
  const int n = static_cast<int>(requests.size());
  std::vector<float> obs(static_cast<std::size_t>(n) * shape_.size());
  std::vector<float> logits(static_cast<std::size_t>(n) * actions_);
  std::vector<float> values(static_cast<std::size_t>(n) * players_);
  // A network without a score head writes none: the answers say so with NaN.
  std::vector<float> score_margins(static_cast<std::size_t>(n), std::numeric_limits<float>::quiet_NaN());
  encode_requests(requests, shape_, obs.data());
  Ticket ticket;
  ticket.size = n;
  ticket.obs = obs.data();
  ticket.logits = logits.data();
  ticket.values = values.data();
  ticket.score_margins = score_margins.data();
  ticket.submitted = Clock::now();
  if (threads_.empty()) {
    run_in_caller(ticket);
  } else {
    std::unique_lock lock(mutex_);
    if (stopping_) throw InputError("inference server is shutting down");
    queue_.push_back(&ticket);
    work_.notify_one();
    ticket.finished.wait(lock, [&] { return ticket.done; });
    stats_.latency_seconds += std::chrono::duration<double>(Clock::now() - ticket.submitted).count();
    ++stats_.requests;
  }
  if (ticket.error) std::rethrow_exception(ticket.error);
  decode_outputs(requests, logits.data(), values.data(), score_margins.data(), actions_, players_, standings_, out);
}

void InferenceServer::run_in_caller(Ticket& ticket) {
  std::shared_ptr<const Model> model;
  {
    std::lock_guard lock(mutex_);
    model = model_;  // this call's version, alive until it ends
  }
  const auto start = Clock::now();
  model->predict(ticket.obs, ticket.size, ticket.logits, ticket.values, ticket.score_margins);
  const auto end = Clock::now();
  std::lock_guard lock(mutex_);
  count_batch(ticket.size, std::chrono::duration<double>(end - start).count());
  stats_.latency_seconds += std::chrono::duration<double>(end - ticket.submitted).count();
  ++stats_.requests;
}

void InferenceServer::set_model(std::shared_ptr<const Model> model, std::int64_t version) {
  if (!model || model->num_actions() != actions_ || model->num_players() != players_ ||
      model->input_shape().size() != shape_.size() || model->config().standings_baseline != standings_)
    throw InputError("inference: a new model must have the shapes and value baseline of the one it replaces");
  std::lock_guard lock(mutex_);
  model_ = std::move(model);
  version_ = version;
}

std::int64_t InferenceServer::model_version() const {
  std::lock_guard lock(mutex_);
  return version_;
}

void InferenceServer::serve() {
  const auto obs_size = static_cast<std::size_t>(shape_.size());
  const auto actions = static_cast<std::size_t>(actions_);
  const auto players = static_cast<std::size_t>(players_);
  std::vector<float> obs, logits, values, score_margins;
  std::vector<Ticket*> batch;
  std::unique_lock lock(mutex_);
  while (true) {
    ++idle_;
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (stopping_ && queue_.empty()) return;
    // Wait (up to max_wait after the oldest request) for the batch to fill, but only when no
    // other server thread is free: an idle one would run the next request sooner than any wait.
    const auto deadline = queue_.front()->submitted + std::chrono::microseconds(config_.max_wait_us);
    auto queued = [&] {
      int total = 0;
      for (const Ticket* t : queue_) total += t->size;
      return total;
    };
    while (!stopping_ && idle_ == 0 && queued() < config_.max_batch &&
           work_.wait_until(lock, deadline) != std::cv_status::timeout) {
    }
    // With other server threads free, take only a share of what is queued so they run the
    // rest in parallel: one big batch on one thread would leave the other cores idle.
    const int limit = idle_ > 0 ? std::min(config_.max_batch, (queued() + idle_) / (idle_ + 1)) : config_.max_batch;
    batch.clear();
    int size = 0;
    while (!queue_.empty() && (batch.empty() || size + queue_.front()->size <= limit)) {
      size += queue_.front()->size;
      batch.push_back(queue_.front());
      queue_.pop_front();
    }
    if (!queue_.empty()) work_.notify_one();  // another server thread may take the rest
    const std::shared_ptr<const Model> model = model_;  // this batch's version, alive until it ends
    lock.unlock();

    obs.resize(size * obs_size);
    logits.resize(size * actions);
    values.resize(size * players);
    // A network without a score head writes none: the answers say so with NaN.
    score_margins.assign(static_cast<std::size_t>(size), std::numeric_limits<float>::quiet_NaN());
    std::size_t offset = 0;
    for (const Ticket* t : batch) {
      std::memcpy(obs.data() + offset * obs_size, t->obs, sizeof(float) * t->size * obs_size);
      offset += t->size;
    }
    std::exception_ptr error;
    const auto start = Clock::now();
    try {
      model->predict(obs.data(), size, logits.data(), values.data(), score_margins.data());
    } catch (...) {
      error = std::current_exception();
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

    lock.lock();
    offset = 0;
    for (Ticket* t : batch) {
      if (!error) {
        std::memcpy(t->logits, logits.data() + offset * actions, sizeof(float) * t->size * actions);
        std::memcpy(t->values, values.data() + offset * players, sizeof(float) * t->size * players);
        std::memcpy(t->score_margins, score_margins.data() + offset, sizeof(float) * t->size);
      }
      offset += t->size;
      t->error = error;
      t->done = true;
      t->finished.notify_one();
    }
    count_batch(size, seconds);
  }
}

void InferenceServer::count_batch(int positions, double network_seconds) {
  ++stats_.batches;
  stats_.positions += static_cast<std::uint64_t>(positions);
  stats_.network_seconds += network_seconds;
}

InferenceStats InferenceServer::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void InferenceServer::reset_stats() {
  std::lock_guard lock(mutex_);
  stats_ = {};
}

}  // namespace boardlab
