// Deals weighted by what the other seats did: a belief over what the searching player cannot see.
//
// Information-set search draws its deals as the game's sample_hidden draws them: uniformly
// among the hidden states the player cannot rule out, whatever the other seats' moves said
// about them (a Kuhn poker bet from an honest player means a king; a Stratego piece that
// walks up to the Marshal is probably not the Spy). A DealBelief draws a fixed set of deals
// and weighs each by the likelihood of the other seats' past decisions in it, asking the
// evaluator for their policy at each (the network's policy, from that seat's observation in
// that deal): by Bayes' rule, P(deal | what was played) ∝ P(deal) · Π π_seat(action | its
// information), and the drawn deals already follow P(deal). The search then draws each
// simulation's deal from this weighted set instead of the view.
//
// The evaluator is a model of the other seats, not the seats themselves: every policy is
// mixed with a uniform share (`floor`) so that a move the model thought impossible
// weakens a deal rather than ruling it out. `window` limits the weighing to the last
// decisions of the other seats (the cost is deals × window evaluations per search), and
// the player's own decisions never count: they are the same in every deal.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/game.h"
#include "core/player_view.h"
#include "core/rng.h"
#include "mcts/evaluator.h"

namespace boardlab {

class DealBelief {
 public:
  // Draws `deals` deals from `view` and prepares a request for each of the other seats'
  // last `window` decisions in each deal (0: all of them). Deals of a position set up
  // without a history (State::starts_from_initial_state) get no requests.
  void start(const PlayerView& view, int deals, int window, Rng& rng);
  // The evaluations the weights need, in one batch; empty when no other seat has decided
  // yet (every deal then weighs the same).
  std::span<const EvalRequest> requests() const { return requests_; }
  // Sets the weights from the answers to requests(), in their order.
  void weigh(std::span<const Evaluation> evals, float floor);
  // A copy of one deal, drawn by weight.
  std::unique_ptr<State> draw(Rng& rng) const;

  int size() const { return static_cast<int>(deals_.size()); }
  // Each deal's normalized weight, and the deal itself (for inspection and tests).
  std::span<const double> weights() const { return weights_; }
  const State& deal(int i) const { return *deals_[static_cast<std::size_t>(i)]; }
  // Kish's effective number of deals, (Σw)² / Σw²: the size of an equally weighted set
  // that would be as informative. Near 1, one deal has taken all the weight.
  double effective_deals() const;

 private:
  // One decision of another seat in one deal: the state before it, what was legal there
  // and the index of the action taken among the legal ones.
  struct Decision {
    int deal = 0;
    std::unique_ptr<State> state;
    std::vector<Action> legal;
    std::size_t taken = 0;
  };
  void add_decisions(int deal, Player viewer, int window);
  // Scales the weights to sum to 1 and sets their running sums, which draw() searches.
  void normalize();

  std::vector<std::unique_ptr<State>> deals_;
  std::vector<Decision> decisions_;
  std::vector<EvalRequest> requests_;
  std::vector<double> weights_;
  std::vector<double> cumulative_;
};

}  // namespace boardlab
