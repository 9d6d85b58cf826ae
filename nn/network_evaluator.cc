// Encoding and decoding between game states and the network, and the direct evaluator.
#include "nn/network_evaluator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.h"
#include "nn/train_batch.h"

namespace boardlab {

void encode_requests(std::span<const EvalRequest> requests, const ObservationShape& shape, float* out) {
  const auto size = static_cast<std::size_t>(shape.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    requests[i].state->observation(requests[i].player, std::span<float>(out + i * size, size));
  }
}

void decode_outputs(std::span<const EvalRequest> requests, const float* logits, const float* values,
                    const float* score_margins, int num_actions, int num_players, bool standings,
                    std::span<Evaluation> out) {
  // Sized only for a game with standings: most games have none, and this runs for every batch.
  std::vector<double> standing;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const State& state = *requests[i].state;
    const Game& game = state.game();
    const Player mover = requests[i].player;
    if (num_players != game.num_players())
      throw InputError("network evaluator: the network has " + std::to_string(num_players) + " value outputs, " +
                       game.name() + " has " + std::to_string(game.num_players()) + " players");
    if (mover < 0 || mover >= num_players)
      throw InputError("network evaluator: a request for player " + std::to_string(mover) +
                       "; the network evaluates one seat's view (chance and simultaneous nodes ask per seat)");
    const float* row = logits + i * num_actions;
    Evaluation& eval = out[i];
    const auto legal = requests[i].legal;
    eval.prior.resize(legal.size());
    float top = -1e30f;
    for (std::size_t k = 0; k < legal.size(); ++k) {
      eval.prior[k] = row[game.action_to_view(mover, legal[k])];
      top = std::max(top, eval.prior[k]);
    }
    float sum = 0;
    for (float& p : eval.prior) sum += (p = std::exp(p - top));
    for (float& p : eval.prior) p /= sum;
    // Output j is the value of seat mover + j, in the network's range (TrainBatch).
    const GameType type = game.type();
    const bool shifted = standings && game.traits().has_standings;
    if (shifted) {
      standing.resize(static_cast<std::size_t>(num_players));
      state.standing_returns(standing);
    }
    eval.value.resize(num_players);
    for (int j = 0; j < num_players; ++j) {
      const int seat = (mover + j) % num_players;
      const float shift = shifted ? standing_shift(type, standing[seat]) : 0.0f;
      eval.value[seat] = value_from_network(type, std::clamp(values[i * num_players + j] + shift, -1.0f, 1.0f));
    }
    eval.score_margin = score_margins ? score_margins[i] : std::numeric_limits<float>::quiet_NaN();
  }
}

void NetworkEvaluator::evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) {
  const int batch = static_cast<int>(requests.size());
  const ObservationShape shape = model_->input_shape();
  obs_.resize(static_cast<std::size_t>(batch) * shape.size());
  logits_.resize(static_cast<std::size_t>(batch) * model_->num_actions());
  values_.resize(static_cast<std::size_t>(batch) * model_->num_players());
  score_margins_.assign(static_cast<std::size_t>(batch), std::numeric_limits<float>::quiet_NaN());
  encode_requests(requests, shape, obs_.data());
  model_->predict(obs_.data(), batch, logits_.data(), values_.data(), score_margins_.data());
  decode_outputs(requests, logits_.data(), values_.data(), score_margins_.data(), model_->num_actions(),
                 model_->num_players(), model_->config().standings_baseline, out);
}

}  // namespace boardlab
