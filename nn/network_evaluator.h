// Positions to network inputs and network outputs to search priors and values; the in-thread network evaluator.
#pragma once

#include <span>
#include <vector>

#include "mcts/evaluator.h"
#include "nn/model.h"

namespace boardlab {

// Observations in each request's player's view, C×H×W floats per request.
void encode_requests(std::span<const EvalRequest> requests, const ObservationShape& shape, float* out);

// Softmax of the logits over each request's legal actions (mapped into its player's view),
// and values turned from player-relative seats back to absolute seats and from the
// network's range back to the game's returns (value_from_network); score_margins (one per
// request, NaN or a null pointer for none) becomes each answer's score_margin. `standings`: the
// network learned values relative to each state's standing returns (NetworkConfig::standings_baseline),
// which are added back where the game declares them. Throws InputError for a request that is not for
// a seat, or a network with another number of players.
void decode_outputs(std::span<const EvalRequest> requests, const float* logits, const float* values,
                    const float* score_margins, int num_actions, int num_players, bool standings,
                    std::span<Evaluation> out);

// Runs the model in the calling thread: for single-threaded players (arena agents).
class NetworkEvaluator final : public Evaluator {
 public:
  explicit NetworkEvaluator(const Model& model) : model_(&model) {}
  void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override;
  // The model never changes under it.
  std::int64_t answer_version() const override { return 0; }

 private:
  const Model* model_;
  std::vector<float> obs_, logits_, values_, score_margins_;
};

}  // namespace boardlab
