// The matrix root: Gumbel-top-k candidates per seat, every joint visited in turn, each seat's policy from the table's equilibrium.
#include "mcts/root_matrix.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <string>

#include "core/errors.h"
#include "mcts/gumbel.h"
#include "mcts/search.h"

namespace boardlab {

void RootMatrix::start(std::vector<Player> seats, std::vector<std::vector<std::int32_t>> candidates) {
  seats_ = std::move(seats);
  candidates_ = std::move(candidates);
  cells_ = 1;
  for (const auto& c : candidates_) cells_ *= c.size();
  visits_.assign(cells_, 0);
  pending_.assign(cells_, 0);
  value_sum_.assign(cells_ * seats_.size(), 0.0);
}

std::int32_t RootMatrix::next_cell() const {
  std::size_t best = 0;
  for (std::size_t c = 1; c < cells_; ++c)
    if (visits_[c] + pending_[c] < visits_[best] + pending_[best]) best = c;
  return static_cast<std::int32_t>(best);
}

std::int32_t RootMatrix::digit(std::int32_t cell, std::size_t k) const {
  auto rest = static_cast<std::size_t>(cell);
  for (std::size_t j = 0; j < k; ++j) rest /= candidates_[j].size();
  return static_cast<std::int32_t>(rest % candidates_[k].size());
}

void RootMatrix::add(std::int32_t cell, std::span<const float> value) {
  const auto c = static_cast<std::size_t>(cell);
  ++visits_[c];
  --pending_[c];
  for (std::size_t k = 0; k < seats_.size(); ++k)
    value_sum_[c * seats_.size() + k] += value[static_cast<std::size_t>(seats_[k])];
}

PayoffTable RootMatrix::table() const {
  const std::size_t blocks = seats_.size();
  PayoffTable table;
  for (const auto& c : candidates_) table.dims.push_back(static_cast<int>(c.size()));
  table.payoff.assign(cells_ * blocks, 0.0);
  std::vector<double> sum(blocks, 0.0);
  int visited = 0;
  for (std::size_t c = 0; c < cells_; ++c) {
    if (visits_[c] == 0) continue;
    ++visited;
    for (std::size_t k = 0; k < blocks; ++k) {
      const double mean = value_sum_[c * blocks + k] / visits_[c];
      table.payoff[c * blocks + k] = mean;
      sum[k] += mean;
    }
  }
  for (std::size_t c = 0; c < cells_; ++c)
    if (visits_[c] == 0 && visited > 0)
      for (std::size_t k = 0; k < blocks; ++k) table.payoff[c * blocks + k] = sum[k] / visited;
  return table;
}

std::vector<int> matrix_candidate_counts(std::span<const int> actions, int wanted, int simulations) {
  const auto choosing = std::count_if(actions.begin(), actions.end(), [](int n) { return n > 1; });
  int k = wanted;
  if (k <= 0) {
    // The largest k with k^choosing <= simulations, at least 2.
    k = 2;
    while (choosing > 0 && std::pow(k + 1, choosing) <= simulations) ++k;
  }
  std::vector<int> counts;
  for (int n : actions) counts.push_back(std::min(n, k));
  return counts;
}

void draw_uniform_candidates(std::int32_t count, int uniform, Rng& rng, std::vector<std::int32_t>& top) {
  const std::size_t kept = top.size() - std::min<std::size_t>(static_cast<std::size_t>(uniform), top.size() - 1);
  const auto draw = [&] { return static_cast<std::int32_t>(rng.below(static_cast<std::uint32_t>(count))); };
  for (auto slot = top.begin() + static_cast<std::ptrdiff_t>(kept); slot != top.end(); ++slot) {
    std::int32_t drawn = draw();
    while (std::find(top.begin(), slot, drawn) != slot) drawn = draw();
    *slot = drawn;
  }
}

void Search::prepare_root_matrix() {
  // Each seat's candidates: Gumbel-top-k of its statistics, k of them drawn without
  // replacement from its prior (matrix_candidate_noise 0: the k likeliest).
  std::vector<int> actions;
  for (const SeatBlock& block : seats_) actions.push_back(block.count);
  const std::vector<int> counts = matrix_candidate_counts(actions, config_.matrix_candidates, simulations_);
  const double cells = std::accumulate(counts.begin(), counts.end(), 1.0, std::multiplies<>());
  if (cells > kMaxMatrixCells)
    throw InputError("search: simultaneous_selection=matrix would table " +
                     std::to_string(static_cast<long long>(cells)) + " joint actions at " + game_->name() +
                     "'s root (matrix_candidates=" + std::to_string(config_.matrix_candidates) + "); at most " +
                     std::to_string(kMaxMatrixCells) + ": lower matrix_candidates");
  std::vector<Player> seats;
  std::vector<std::vector<std::int32_t>> candidates;
  for (std::size_t k = 0; k < seats_.size(); ++k) {
    const SeatBlock& block = seats_[k];
    std::vector<std::int32_t> top;
    gumbel_top_k(tree_, block.first, block.count, counts[k], config_.matrix_candidate_noise, rng_, scratch_, top);
    if (explore_) draw_uniform_candidates(block.count, config_.matrix_uniform_candidates, rng_, top);
    for (std::int32_t& c : top) c += block.first;
    seats.push_back(block.seat);
    candidates.push_back(std::move(top));
  }
  matrix_.start(std::move(seats), std::move(candidates));
}

std::int32_t Search::pick_root_cell(Leaf& leaf) {
  // The least visited joint of the candidates; each seat's pick is its statistic there.
  const std::int32_t cell = matrix_.next_cell();
  matrix_.begin(cell);
  leaf.root_cell = cell;
  joint_.assign(players_, kInvalidAction);
  std::uint64_t code = 0, radix = 1;
  for (std::size_t k = 0; k < seats_.size(); ++k) {
    const SeatBlock& block = seats_[k];
    const std::int32_t stat = matrix_.candidates(k)[static_cast<std::size_t>(matrix_.digit(cell, k))];
    ++tree_[stat].in_flight;
    leaf.picks.push_back({stat, block.first, block.count, block.seat, 0.0f});
    joint_[block.seat] = tree_[stat].action;
    code += static_cast<std::uint64_t>(stat - block.first) * radix;
    radix *= static_cast<std::uint64_t>(block.count);
  }
  const std::int32_t child = tree_.joint_child(Tree::kRoot, code);
  return child >= 0 ? child : tree_.add_joint_child(Tree::kRoot, code);
}

void Search::matrix_results(SearchResult& out) {
  // Each seat's policy is its equilibrium strategy over its candidates (0 elsewhere), its
  // value the table's under the equilibrium, and its move drawn from the strategy: a mixed
  // equilibrium is played by drawing from it.
  const PayoffTable table = matrix_.table();
  const std::vector<std::vector<double>> strategy = solve_equilibrium(table);
  std::vector<double> values;
  for (std::size_t k = 0; k < seats_.size(); ++k) {
    const SeatBlock& block = seats_[k];
    PlayerSearchResult r;
    r.player = block.seat;
    r.policy.assign(static_cast<std::size_t>(block.count), 0.0f);
    for (std::int32_t c = 0; c < block.count; ++c) {
      r.legal.push_back(tree_[block.first + c].action);
      r.visits.push_back(tree_[block.first + c].visits);
    }
    const std::vector<std::int32_t>& candidates = matrix_.candidates(k);
    for (std::size_t i = 0; i < candidates.size(); ++i)
      r.policy[static_cast<std::size_t>(candidates[i] - block.first)] = static_cast<float>(strategy[k][i]);
    action_values(table, strategy, k, values);
    r.value = static_cast<float>(std::inner_product(values.begin(), values.end(), strategy[k].begin(), 0.0));
    const double total = std::accumulate(r.policy.begin(), r.policy.end(), 0.0);
    r.action = r.legal[draw_index(rng_, r.policy, total)];
    out.players.push_back(std::move(r));
  }
}

}  // namespace boardlab
