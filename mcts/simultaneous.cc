// Simultaneous nodes: regret matching and decoupled PUCT per seat, joint children, the seats' policies and results.
#include "mcts/simultaneous.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "core/errors.h"
#include "mcts/gumbel.h"
#include "mcts/search.h"
#include "mcts/selection.h"

namespace boardlab {
namespace {

SeatChoice regret_matching(const Tree& tree, const SeatBlock& block, float exploration, Rng& rng) {
  double positive = 0;
  for (std::int32_t c = 0; c < block.count; ++c) positive += std::max(0.0f, tree[block.first + c].net_value);
  const double uniform = 1.0 / block.count;
  auto probability = [&](std::int32_t c) {
    const double sigma = positive > 0 ? std::max(0.0f, tree[block.first + c].net_value) / positive : uniform;
    return (1 - exploration) * sigma + exploration * uniform;
  };
  const auto share = [&](std::size_t i) { return probability(static_cast<std::int32_t>(i)); };
  const auto c = static_cast<std::int32_t>(draw_index(rng, static_cast<std::size_t>(block.count), share));
  return {block.first + c, static_cast<float>(probability(c))};
}

}  // namespace

void seat_blocks(const Tree& tree, std::int32_t node_index, std::vector<SeatBlock>& out) {
  out.clear();
  const Node& node = tree[node_index];
  const std::int32_t end = node.first_child + node.num_children;
  for (std::int32_t c = node.first_child; c < end;) {
    SeatBlock block{tree[c].mover, c, 0};
    while (c < end && tree[c].mover == block.seat) {
      ++block.count;
      ++c;
    }
    out.push_back(block);
  }
}

SeatChoice select_seat(const Tree& tree, std::int32_t node_index, const SeatBlock& block, const SearchConfig& config,
                       Rng& rng) {
  if (config.simultaneous_selection == SimultaneousSelection::kRegretMatching)
    return regret_matching(tree, block, config.regret_exploration, rng);
  const Node& node = tree[node_index];
  return {select_in_block(tree, block.first, block.count, node.visits + node.in_flight, seat_value(tree, block),
                          config, rng),
          0.0f};
}

void seat_policy(const Tree& tree, const SeatBlock& block, std::span<float> out) {
  int total = 0;
  for (std::int32_t c = 0; c < block.count; ++c) total += tree[block.first + c].visits;
  if (total == 0) {
    for (std::int32_t c = 0; c < block.count; ++c) out[c] = tree[block.first + c].prior;
    return;
  }
  for (std::int32_t c = 0; c < block.count; ++c)
    out[c] = static_cast<float>(tree[block.first + c].visits) / static_cast<float>(total);
}

void update_regrets(Tree& tree, std::int32_t stat, std::int32_t first, std::int32_t count, float probability,
                    float value) {
  for (std::int32_t c = first; c < first + count; ++c) {
    float& regret = tree[c].net_value;
    regret = std::max(0.0f, regret + (c == stat ? value / probability : 0.0f) - value);
  }
}

float seat_value(const Tree& tree, const SeatBlock& block) {
  double sum = 0;
  int visits = 0;
  for (std::int32_t c = 0; c < block.count; ++c) {
    sum += tree[block.first + c].value_sum;
    visits += tree[block.first + c].visits;
  }
  return visits > 0 ? static_cast<float>(sum / visits) : 0.0f;
}

std::int32_t Search::pick_joint(Leaf& leaf, std::int32_t node) {
  // Every seat picks from its own block; the joint action, as the mixed-radix index of the
  // picks within their blocks, names the child. joint_ holds the actions to apply.
  seat_blocks(tree_, node, seats_);
  if (node == Tree::kRoot && matrix_.active()) return pick_root_cell(leaf);
  joint_.assign(players_, kInvalidAction);
  radices_.clear();
  std::uint64_t code = 0, radix = 1;
  for (const SeatBlock& block : seats_) {
    radices_.push_back(radix);
    radix *= static_cast<std::uint64_t>(block.count);
  }
  // Searched seats first; seats a best response models (SearchConfig::model_opponents) then
  // follow their priors given those picks.
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t k = 0; k < seats_.size(); ++k) {
      const SeatBlock& block = seats_[k];
      const bool modelled = config_.model_opponents && block.seat != viewer_;
      if (modelled != (pass == 1)) continue;
      const SeatChoice choice = modelled ? SeatChoice{modelled_pick(node, k, code), 1.0f}
                                         : select_seat(tree_, node, block, config_, rng_);
      ++tree_[choice.stat].in_flight;
      leaf.picks.push_back({choice.stat, block.first, block.count, block.seat, choice.probability});
      joint_[block.seat] = tree_[choice.stat].action;
      code += static_cast<std::uint64_t>(choice.stat - block.first) * radices_[k];
    }
  const std::int32_t child = tree_.joint_child(node, code);
  return child >= 0 ? child : tree_.add_joint_child(node, code);
}

std::int32_t Search::modelled_pick(std::int32_t node, std::size_t k, std::uint64_t code) {
  // The last seat to pick, given the others' picks (`code`), is stratified over the joint
  // children those picks lead to: the visits of each of its actions there stay within one of
  // its prior's share, so a searched action's value is its expectation under the model, not
  // the luck of which picks it met. With several modelled seats, the earlier ones are drawn.
  const SeatBlock& block = seats_[k];
  if (leaf_picks_left(k) > 0) {
    const auto prior = [&](std::size_t c) { return tree_[block.first + static_cast<std::int32_t>(c)].prior; };
    return block.first + static_cast<std::int32_t>(draw_index(rng_, static_cast<std::size_t>(block.count), prior));
  }
  int total = 0;
  std::vector<int>& visits = modelled_visits_;
  visits.assign(static_cast<std::size_t>(block.count), 0);
  for (std::int32_t c = 0; c < block.count; ++c) {
    const std::int32_t child = tree_.joint_child(node, code + static_cast<std::uint64_t>(c) * radices_[k]);
    if (child >= 0) total += visits[c] = tree_[child].visits + tree_[child].in_flight;
  }
  std::int32_t best = 0;
  float best_lag = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < block.count; ++c) {
    const float lag = tree_[block.first + c].prior * static_cast<float>(total + 1) - static_cast<float>(visits[c]);
    if (lag > best_lag) {
      best_lag = lag;
      best = c;
    }
  }
  return block.first + best;
}

int Search::leaf_picks_left(std::size_t k) const {
  // Modelled seats after block k: they pick after it.
  int left = 0;
  for (std::size_t j = k + 1; j < seats_.size(); ++j) left += seats_[j].seat != viewer_ ? 1 : 0;
  return left;
}

std::int32_t Search::find_joint_child(std::int32_t node, std::span<const Step> round) {
  seat_blocks(tree_, node, seats_);
  std::uint64_t code = 0, radix = 1;
  for (const SeatBlock& block : seats_) {
    const auto step = std::find_if(round.begin(), round.end(), [&](const Step& s) { return s.player == block.seat; });
    if (step == round.end()) return -1;
    std::int32_t c = 0;
    while (c < block.count && tree_[block.first + c].action != step->action) ++c;
    if (c == block.count) return -1;
    code += static_cast<std::uint64_t>(c) * radix;
    radix *= static_cast<std::uint64_t>(block.count);
  }
  return tree_.joint_child(node, code);
}

namespace {

// A seat's statistics take its request's priors, normalized (uniform when they sum to 0).
void set_seat_priors(Tree& tree, std::int32_t first, std::span<const float> prior) {
  double total = 0;
  for (float p : prior) total += std::max(p, 0.0f);
  const auto count = static_cast<std::int32_t>(prior.size());
  for (std::int32_t c = 0; c < count; ++c)
    tree[first + c].prior = total > 0 ? static_cast<float>(std::max(prior[c], 0.0f) / total)
                                      : 1.0f / static_cast<float>(count);
}

}  // namespace

void Search::expand_simultaneous(std::int32_t node_index, const Leaf& leaf, std::span<const Evaluation> evals) {
  if (leaf.completes_seats) {
    // The waiting seats' blocks are there: their priors arrive.
    seat_blocks(tree_, node_index, seats_);
    for (std::size_t r = 0; r < evals.size(); ++r) {
      const Player seat = leaf.request_player(r);
      const auto block = std::find_if(seats_.begin(), seats_.end(), [&](const SeatBlock& b) { return b.seat == seat; });
      set_seat_priors(tree_, block->first, evals[r].prior);
    }
    tree_[node_index].status = NodeStatus::kExpanded;
    return;
  }
  // One block per seat with legal actions, in seat order, priors from that seat's request
  // (kPendingPrior for the seats a lazy leaf defers).
  const std::size_t seats = 1 + static_cast<std::size_t>(leaf.num_seats);
  std::int32_t count = 0;
  double joint_actions = 1;
  for (std::size_t r = 0; r < seats; ++r) {
    count += static_cast<std::int32_t>(leaf.request_legal(r).size());
    joint_actions *= static_cast<double>(leaf.request_legal(r).size());
  }
  if (joint_actions >= 0x1p63)
    throw InputError("search: " + game_->name() + " has a simultaneous round with " + std::to_string(joint_actions) +
                     " joint actions; the tree indexes them in 63 bits");
  std::int32_t first = tree_.add_children(node_index, count);
  for (std::size_t r = 0; r < seats; ++r) {
    const std::vector<Action>& legal = leaf.request_legal(r);
    for (std::size_t c = 0; c < legal.size(); ++c) {
      Node& stat = tree_[first + static_cast<std::int32_t>(c)];
      stat.action = legal[c];
      stat.mover = static_cast<std::int8_t>(leaf.request_player(r));
      stat.prior = kPendingPrior;
    }
    if (r < evals.size()) set_seat_priors(tree_, first, evals[r].prior);
    first += static_cast<std::int32_t>(legal.size());
  }
  Node& node = tree_[node_index];
  node.mover = static_cast<std::int8_t>(kSimultaneousPlayer);
  node.status = evals.size() < seats ? NodeStatus::kPartlyExpanded : NodeStatus::kExpanded;
}

void Search::simultaneous_results(SearchResult& out) {
  // A mixed equilibrium is played by drawing from it, so under regret matching each seat
  // samples its move from its average strategy; under PUCT moves follow the visits, as
  // at a turn; the matrix root plays its equilibrium.
  seat_blocks(tree_, Tree::kRoot, seats_);
  if (matrix_.active()) return matrix_results(out);
  for (const SeatBlock& block : seats_) {
    PlayerSearchResult r;
    r.player = block.seat;
    r.legal.resize(block.count);
    r.visits.resize(block.count);
    r.policy.resize(block.count);
    for (std::int32_t c = 0; c < block.count; ++c) {
      r.legal[c] = tree_[block.first + c].action;
      r.visits[c] = tree_[block.first + c].visits;
    }
    seat_policy(tree_, block, r.policy);
    r.value = seat_value(tree_, block);
    std::int32_t chosen = 0;
    const bool regret = config_.simultaneous_selection == SimultaneousSelection::kRegretMatching;
    const bool sample = regret || config_.temperature > 0;
    if (sample) {
      // Regret matching plays its average strategy; PUCT samples by visits (r.policy is the
      // visit share until the improved target below replaces it).
      std::vector<double> weights(block.count);
      for (std::int32_t c = 0; c < block.count; ++c)
        weights[c] = regret ? r.policy[c] : std::pow(static_cast<double>(r.policy[c]), 1.0 / config_.temperature);
      const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
      chosen = static_cast<std::int32_t>(draw_index(rng_, weights, sum));
    } else if (config_.model_opponents && block.seat == viewer_ && std::any_of(r.visits.begin(), r.visits.end(),
                                                                                   [](int v) { return v > 0; })) {
      chosen = best_valued_child(tree_, block.first, block.count) - block.first;
    } else {
      for (std::int32_t c = 1; c < block.count; ++c) {
        const Node& a = tree_[block.first + c];
        const Node& b = tree_[block.first + chosen];
        if (a.visits > b.visits || (a.visits == b.visits && a.prior > b.prior)) chosen = c;
      }
    }
    r.action = r.legal[chosen];
    const bool visited = std::any_of(r.visits.begin(), r.visits.end(), [](int v) { return v > 0; });
    if (!regret && config_.policy_target == PolicyTarget::kCompletedQ && visited && block.count > 1)
      improved_policy(tree_, block.first, block.count, r.value, config_, r.policy);
    out.players.push_back(std::move(r));
  }
}

}  // namespace boardlab
