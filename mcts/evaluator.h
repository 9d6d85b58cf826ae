// The batched evaluator the search calls: priors over legal actions and a value per player, for many states at once.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/game.h"

namespace boardlab {

// One position to evaluate for one player: `player` acts here (the mover, or one seat of a
// simultaneous round) and `legal` lists its legal actions (ascending), as the search already
// generated them; the state is not terminal. For a hidden-information game the state is
// one the searching player cannot tell apart from the true one (a sample), and an
// evaluator that looks only at `player`'s observation learns nothing hidden.
struct EvalRequest {
  const State* state = nullptr;
  Player player = kInvalidPlayer;
  std::span<const Action> legal;
};

// The answer: prior[i] is the probability of legal[i] (they need not be normalized; the
// search normalizes), value[p] the expected return of player p, in [-1, 1], and, from an
// evaluator that predicts one (a network with a score head), score_margin the requesting
// player's expected final score margin (core/score_margin.h), read by search.score_utility.
// The vectors keep their capacity between calls, so steady-state search allocates nothing here.
struct Evaluation {
  std::vector<float> prior;
  std::vector<float> value;
  float score_margin = std::numeric_limits<float>::quiet_NaN();  // NaN: not predicted
};

// Searches gather leaves from many trees and make one call per step, so a network sees
// large batches even on one core. An implementation need not be thread-safe unless it
// says so: give each search thread its own, or share a thread-safe one (the inference server).
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // out.size() == requests.size(); out[i] answers requests[i].
  virtual void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) = 0;

  // Whether answers may be reused, and for how long: an evaluator that returns a version
  // promises that, while it returns that version, one position and seat always get the same
  // answer (a network gives a new version whenever its weights change). kNotReusable, the
  // default, for answers that differ from call to call (random playouts) or that nothing
  // promises not to. Read before a call, the version may be older than the answers of that
  // call, never newer.
  static constexpr std::int64_t kNotReusable = -1;
  virtual std::int64_t answer_version() const { return kNotReusable; }
};

}  // namespace boardlab
