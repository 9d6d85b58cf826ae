// Tests for the tree search: forced wins, sub-move value backup, seeds, Gumbel, virtual loss, tree reuse, bad input.
#include "mcts/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"
#include "core/rng.h"
#include "games/registry.h"
#include "games/virus_war/virus_war.h"
#include "mcts/bots.h"
#include "mcts/gumbel.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search_config.h"
#include "mcts/search_driver.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

const VirusWarGame& game() {
  static const auto loaded = load_game("virus_war");
  return dynamic_cast<const VirusWarGame&>(*loaded);
}

// Cell index from its name, computed here rather than by the engine's parser.
int at(std::string_view name) {
  constexpr std::string_view kFiles = "abcdefghik";
  const int file = static_cast<int>(kFiles.find(name[0]));
  const int rank = std::stoi(std::string(name.substr(1)));
  return 10 * (rank - 1) + file;
}

// X to move at the start of its turn, the given cells set, the rest empty.
std::unique_ptr<State> position(const std::vector<std::pair<const char*, char>>& cells) {
  std::string rows(100, '.');
  for (const auto& [name, symbol] : cells) {
    const int c = at(name);
    rows[static_cast<std::size_t>((9 - c / 10) * 10 + c % 10)] = symbol;
  }
  return VirusWarState::from_diagram(game(), rows, 0);
}

// A position reached by `actions` random actions from the start (so it has a history).
std::unique_ptr<State> random_position(std::uint64_t seed, int actions) {
  std::unique_ptr<State> state = game().new_initial_state();
  Rng rng(seed);
  for (int i = 0; i < actions; ++i) {
    state->apply(state->random_legal_action(rng));
    if (state->is_terminal()) {
      state = game().new_initial_state();
      i = -1;
    }
  }
  return state;
}

SearchConfig config_for(SearchAlgorithm algorithm, int simulations) {
  SearchConfig config;
  config.algorithm = algorithm;
  config.simulations = simulations;
  return config;
}

SearchResult run(Search& search, const State& state, Evaluator& evaluator) {
  search.start(PlayerView::of_mover(state));
  SearchDriver driver(evaluator);
  Search* searches[] = {&search};
  driver.run(searches);
  EXPECT_TRUE(search.done());
  return search.result();
}

bool is_legal(const State& state, Action action) {
  const std::vector<Action> legal = state.legal_actions();
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

// A node's proven return vector, empty when it is not proven.
std::vector<float> proven(const Tree& tree, std::int32_t node) {
  if (!tree.is_proven(node)) return {};
  const std::span<const float> value = tree.proven_value(node);
  return {value.begin(), value.end()};
}

void expect_same(const SearchResult& a, const SearchResult& b) {
  EXPECT_EQ(a.action, b.action);
  EXPECT_EQ(a.legal, b.legal);
  EXPECT_EQ(a.visits, b.visits);
  EXPECT_EQ(a.policy, b.policy);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.simulations, b.simulations);
  EXPECT_EQ(a.proven_win, b.proven_win);
}

// ---------------------------------------------------------------------------------------
// Forced wins within X's turn of three sub-moves.

struct WinPosition {
  const char* name;
  std::vector<std::pair<const char*, char>> cells;
  int fewest_sub_moves;  // in the shortest win
};

// X wins by killing every live O this turn; the other targets and the pass are decoys
// (a pass, or two reproductions, leave an O alive).
const std::vector<WinPosition>& win_positions() {
  static const std::vector<WinPosition> positions = {
      // One O, next to X: killing it wins at once. The X at h9 adds 8 decoy targets.
      {"kill_in_1", {{"e5", 'X'}, {"f6", 'O'}, {"h9", 'X'}}, 1},
      // Two O on either side of X, 17 legal actions.
      {"kill_in_2", {{"e5", 'X'}, {"f6", 'O'}, {"d4", 'O'}, {"h9", 'X'}}, 2},
      // Three O, all next to X: every sub-move must kill.
      {"kill_in_3", {{"e5", 'X'}, {"f6", 'O'}, {"d4", 'O'}, {"e6", 'O'}}, 3},
      // A chain: c3 is reachable only through dead b2, d4 only through dead c3, so the
      // only win is b2, c3, d4 in that order.
      {"chain", {{"a1", 'X'}, {"b2", 'O'}, {"c3", 'O'}, {"d4", 'O'}}, 3},
      // Kill b2, reproduce next to d2 (c1, c2 or c3, reachable through dead b2), kill d2.
      {"reproduce_then_kill", {{"a1", 'X'}, {"b2", 'O'}, {"d2", 'O'}}, 3},
  };
  return positions;
}

const WinPosition& win_position_named(std::string_view name) {
  for (const WinPosition& p : win_positions())
    if (p.name == name) return p;
  throw InputError("no test position " + std::string(name));
}

std::unique_ptr<State> win_position(const WinPosition& p) { return position(p.cells); }

// Plays X's searched sub-moves, one fresh search each, and expects the game to end with
// X's win before O moves, every search having proved it.
void expect_search_wins(std::string_view name, const SearchConfig& config,
                        const std::function<std::unique_ptr<Evaluator>()>& make_evaluator) {
  const WinPosition& p = win_position_named(name);
  SCOPED_TRACE(std::string(p.name) + " with " + std::string(algorithm_name(config.algorithm)));
  std::unique_ptr<State> state = win_position(p);
  ASSERT_FALSE(state->is_terminal());
  ASSERT_EQ(state->current_player(), 0);
  int sub_moves = 0;
  while (!state->is_terminal()) {
    ASSERT_EQ(state->current_player(), 0) << "X's turn ended without a win after " << sub_moves << " sub-moves";
    std::unique_ptr<Evaluator> evaluator = make_evaluator();
    Search search(game(), config, 1234 + static_cast<std::uint64_t>(sub_moves));
    const SearchResult result = run(search, *state, *evaluator);
    ASSERT_TRUE(is_legal(*state, result.action));
    EXPECT_TRUE(result.proven_win) << "sub-move " << sub_moves + 1 << ": " << state->action_to_string(result.action);
    EXPECT_EQ(proven(search.tree(), Tree::kRoot), (std::vector<float>{1.0f, -1.0f}));
    state->apply(result.action);
    ++sub_moves;
  }
  EXPECT_EQ(state->returns(), (std::vector<double>{1.0, -1.0}));
  EXPECT_GE(sub_moves, p.fewest_sub_moves);
  EXPECT_LE(sub_moves, 3);
}

std::unique_ptr<Evaluator> uniform_evaluator() {
  return std::make_unique<FunctionEvaluator>(FunctionEvaluator::uniform(2));
}

std::unique_ptr<Evaluator> rollout_evaluator() { return std::make_unique<RolloutEvaluator>(99); }

// Every root action considered, so that these tests are about the search rather than
// about which actions Gumbel sampling keeps.
SearchConfig gumbel_config(int simulations) {
  SearchConfig config = config_for(SearchAlgorithm::kGumbel, simulations);
  config.gumbel_considered = 32;
  return config;
}

// Budgets: with no knowledge in the evaluator, the 3-sub-move wins need a few hundred
// to a few thousand simulations (measured over 20 search seeds per position, these
// budgets found the win in at least 19; proven roots stop the search early).
TEST(SearchWins, PuctFindsTheWinningSubMovesWithUniformPriors) {
  for (const WinPosition& p : win_positions())
    expect_search_wins(p.name, config_for(SearchAlgorithm::kPuct, 2000), uniform_evaluator);
}

TEST(SearchWins, PuctFindsTheWinningSubMovesWithRollouts) {
  // (chain is left out: random rollouts mislead PUCT there in about a third of the seeds.)
  for (const char* name : {"kill_in_1", "kill_in_2", "kill_in_3", "reproduce_then_kill"})
    expect_search_wins(name, config_for(SearchAlgorithm::kPuct, 1000), rollout_evaluator);
}

TEST(SearchWins, GumbelFindsTheWinningSubMovesWithUniformPriors) {
  for (const WinPosition& p : win_positions()) expect_search_wins(p.name, gumbel_config(2000), uniform_evaluator);
}

TEST(SearchWins, GumbelFindsTheWinningSubMovesWithRollouts) {
  // Only the shallow wins: Gumbel's deterministic interior rule follows the best
  // completed Q, and σ's scale grows with the visits, so with noisy ±1 rollout values
  // some siblings are never tried and a 3-sub-move kill may never be reached, whatever
  // the budget (the rule of the paper and of mctx, meant for learned priors).
  for (const char* name : {"kill_in_1", "kill_in_2"}) expect_search_wins(name, gumbel_config(300), rollout_evaluator);
}

TEST(SearchWins, UctFindsTheWinningSubMovesWithRollouts) {
  for (const WinPosition& p : win_positions())
    expect_search_wins(p.name, config_for(SearchAlgorithm::kUct, 1000), rollout_evaluator);
}

TEST(SearchWins, PuctWithTranspositionsFindsTheWinningSubMoves) {
  // Sub-moves in either order reach one position, whose children are then shared.
  SearchConfig config = config_for(SearchAlgorithm::kPuct, 2000);
  config.transpositions = true;
  for (const WinPosition& p : win_positions()) expect_search_wins(p.name, config, uniform_evaluator);
}

TEST(SearchWins, NoWinIsClaimedWhereNoneExistsThisTurn) {
  // Four live O, only three sub-moves: X cannot win this turn, and O can answer.
  const auto state = position({{"e5", 'X'}, {"f6", 'O'}, {"d4", 'O'}, {"e6", 'O'}, {"d5", 'O'}});
  for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kGumbel, SearchAlgorithm::kUct}) {
    SCOPED_TRACE(std::string(algorithm_name(algorithm)));
    RolloutEvaluator evaluator(5);
    Search search(game(), config_for(algorithm, 400), 5);
    const SearchResult result = run(search, *state, evaluator);
    EXPECT_FALSE(result.proven_win);
    EXPECT_NE(proven(search.tree(), Tree::kRoot), (std::vector<float>{1.0f, -1.0f}));
    EXPECT_TRUE(is_legal(*state, result.action));
    EXPECT_EQ(result.simulations, 400);
  }
}

// ---------------------------------------------------------------------------------------
// Value backup and visit counts.

// Walks every node of the tree with its state, parent first.
void walk(const Tree& tree, std::int32_t node, const State& state,
          const std::function<void(std::int32_t node, const State& state, std::int32_t parent)>& visit,
          std::int32_t parent = -1) {
  visit(node, state, parent);
  const Node& n = tree[node];
  for (std::int32_t c = 0; c < n.num_children; ++c) {
    std::unique_ptr<State> child = state.clone();
    child->apply(tree[n.first_child + c].action);
    walk(tree, n.first_child + c, *child, visit, node);
  }
}

// Drives a search by hand: collect, answer with `f`, back up.
void drive(Search& search, const State& root, const FunctionEvaluator::Function& f) {
  search.start(PlayerView::of_mover(root));
  std::vector<Evaluation> evals;
  while (!search.done()) {
    const int n = search.collect();
    evals.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) f(*search.requests()[i].state, search.requests()[i].legal, evals[i]);
    search.backup(evals);
  }
}

// Priors that send the search down the first legal action, so the tree gets deep.
void peaked_priors(std::span<const Action> legal, Evaluation& eval) {
  eval.prior.assign(legal.size(), 0.05f);
  eval.prior[0] = 1.0f;
}

// A quiet position: X and O far apart, each with a few targets (the game can only end
// here by two passes in a row).
std::unique_ptr<State> quiet_position() {
  return position({{"a1", 'X'}, {"b1", 'X'}, {"k10", 'O'}, {"i10", 'O'}, {"k9", 'O'}});
}

TEST(SearchBackup, EachEdgeHoldsTheValueOfThePlayerWhoChoseIt) {
  // Every leaf is worth +0.5 to X and -0.25 to O (not zero-sum, so that taking the
  // wrong player's value and negating it are told apart): every edge's mean is its
  // chooser's value, +0.5 for X's sub-moves (the edge from X's third sub-move into O's
  // turn included) and -0.25 for O's.
  const auto root = quiet_position();
  SearchConfig config = config_for(SearchAlgorithm::kPuct, 120);
  Search search(game(), config, 3);
  drive(search, *root, [](const State&, std::span<const Action> legal, Evaluation& eval) {
    peaked_priors(legal, eval);
    eval.value = {0.5f, -0.25f};
  });
  const Tree& tree = search.tree();
  int x_edges = 0, o_edges = 0, x_to_o_edges = 0, o_to_x_edges = 0;
  walk(tree, Tree::kRoot, *root, [&](std::int32_t node, const State& state, std::int32_t parent) {
    const Node& n = tree[node];
    ASSERT_NE(n.status, NodeStatus::kTerminal);
    if (n.status == NodeStatus::kExpanded) {
      EXPECT_EQ(n.mover, state.current_player());
    }
    if (parent < 0 || n.visits == 0) return;
    const Player chooser = tree[parent].mover;
    EXPECT_FLOAT_EQ(n.mean_value(), chooser == 0 ? 0.5f : -0.25f) << "edge " << state.history().size();
    (chooser == 0 ? x_edges : o_edges) += 1;
    if (n.status == NodeStatus::kExpanded && n.mover != chooser) (chooser == 0 ? x_to_o_edges : o_to_x_edges) += 1;
  });
  // The tree reaches past X's turn, through O's and into X's next one.
  EXPECT_GT(x_edges, 3);
  EXPECT_GT(o_edges, 3);
  EXPECT_GE(x_to_o_edges, 1);
  EXPECT_GE(o_to_x_edges, 1);
}

TEST(SearchBackup, ValueSumsAndVisitsAddUpOverEverySubtree) {
  // State-dependent values, different for each player: a node's value_sum must be the
  // sum, over every evaluation in its subtree, of the value for its parent's mover.
  auto value_of = [](const State& state, Player p) {
    const std::uint64_t h = state.hash() * (p == 0 ? 0x9e3779b97f4a7c15ULL : 0xc2b2ae3d27d4eb4fULL);
    return static_cast<float>((h >> 40) % 1000) / 1000.0f - 0.5f;
  };
  const auto root = quiet_position();
  int all_terminals = 0;
  for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kGumbel, SearchAlgorithm::kUct}) {
    SCOPED_TRACE(std::string(algorithm_name(algorithm)));
    for (int leaves_per_step : {1, 4}) {
      SearchConfig config = config_for(algorithm, 150);
      config.leaves_per_step = leaves_per_step;
      Search search(game(), config, 11);
      drive(search, *root, [&](const State& state, std::span<const Action> legal, Evaluation& eval) {
        peaked_priors(legal, eval);
        eval.value = {value_of(state, 0), value_of(state, 1)};
      });
      const Tree& tree = search.tree();
      // Expected sums by recursion over the subtree, in double. A terminal node backs up
      // the game's returns on every visit; a visit that stops at a proven node backs up
      // its proven value.
      std::function<double(std::int32_t, const State&, Player)> expected_sum = [&](std::int32_t node,
                                                                                   const State& state, Player p) {
        const Node& n = tree[node];
        if (n.status == NodeStatus::kTerminal) return n.visits * state.returns()[p];
        if (n.status != NodeStatus::kExpanded) return 0.0;
        double sum = value_of(state, p);
        int children_visits = 0;
        for (std::int32_t c = 0; c < n.num_children; ++c) {
          std::unique_ptr<State> child = state.clone();
          child->apply(tree[n.first_child + c].action);
          sum += expected_sum(n.first_child + c, *child, p);
          children_visits += tree[n.first_child + c].visits;
        }
        if (n.proven != kUnproven) sum += static_cast<double>(n.visits - 1 - children_visits) * tree.proven_value(node)[p];
        return sum;
      };
      int checked = 0, terminals = 0;
      walk(tree, Tree::kRoot, *root, [&](std::int32_t node, const State& state, std::int32_t parent) {
        const Node& n = tree[node];
        ASSERT_NE(n.status, NodeStatus::kPending);
        EXPECT_EQ(n.in_flight, 0);
        int children_visits = 0;
        for (std::int32_t c = 0; c < n.num_children; ++c) children_visits += tree[n.first_child + c].visits;
        switch (n.status) {
          case NodeStatus::kExpanded:
            // Its own evaluation once plus every visit below it, plus the visits that
            // stopped here once it was proven.
            if (n.proven == kUnproven) {
              EXPECT_EQ(n.visits, 1 + children_visits);
            } else {
              EXPECT_GE(n.visits, 1 + children_visits);
            }
            EXPECT_EQ(n.mover, state.current_player());
            EXPECT_FLOAT_EQ(n.net_value, value_of(state, n.mover));
            break;
          case NodeStatus::kTerminal:
            EXPECT_TRUE(state.is_terminal());
            EXPECT_GE(n.visits, 1);
            EXPECT_EQ(n.num_children, 0);
            ++terminals;
            break;
          default:
            EXPECT_EQ(n.visits, 0);
            EXPECT_EQ(n.value_sum, 0.0f);
        }
        if (parent < 0) return;
        EXPECT_NEAR(n.value_sum, expected_sum(node, state, tree[parent].mover), 1e-4);
        ++checked;
      });
      EXPECT_GT(checked, 150);
      all_terminals += terminals;
      const SearchResult result = search.result();
      EXPECT_EQ(tree[Tree::kRoot].visits, 1 + result.simulations);
      EXPECT_EQ(result.simulations, 150);
      EXPECT_EQ(std::accumulate(result.visits.begin(), result.visits.end(), 0), 150);
      // The root value is the mean over every evaluation, for the root's mover (X).
      EXPECT_NEAR(result.value, expected_sum(Tree::kRoot, *root, 0) / 151.0, 1e-5);
    }
  }
  // Some searches reached the end of the game (two passes in a row), so terminal
  // backups were checked too.
  EXPECT_GT(all_terminals, 0);
}

TEST(SearchBackup, TerminalLeavesBackUpTheGameReturns) {
  // In kill_in_1, every line that kills f6 ends the game: those edges average +1 for X.
  const auto state = win_position(win_position_named("kill_in_1"));
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  Search search(game(), config_for(SearchAlgorithm::kPuct, 50), 1);
  const SearchResult result = run(search, *state, evaluator);
  EXPECT_TRUE(result.proven_win);
  EXPECT_EQ(result.action, at("f6"));  // the immediate win is preferred
  const Tree& tree = search.tree();
  const std::int32_t win = tree.find_child(Tree::kRoot, at("f6"));
  ASSERT_GE(win, 0);
  EXPECT_EQ(tree[win].status, NodeStatus::kTerminal);
  EXPECT_EQ(proven(tree, win), (std::vector<float>{1.0f, -1.0f}));
  EXPECT_FLOAT_EQ(tree[win].mean_value(), 1.0f);
}

TEST(SearchBackup, DrawValueIsWhatADrawnEndIsWorthInsideTheSearch) {
  // After O's pass, X's pass ends the game in a draw: worth 0 to both, or the contempt.
  const std::unique_ptr<State> state = game().load_record("a1-b2-c3 k10-i9-h8 d4-e5-f6 pass");
  ASSERT_EQ(state->current_player(), 0);
  for (const float contempt : {0.0f, -0.5f}) {
    SearchConfig config = config_for(SearchAlgorithm::kPuct, 200);
    config.draw_value = contempt;
    FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
    Search search(game(), config, 1);
    run(search, *state, evaluator);
    const Tree& tree = search.tree();
    const std::int32_t pass = tree.find_child(Tree::kRoot, VirusWarGame::kPass);
    ASSERT_GE(pass, 0);
    ASSERT_GT(tree[pass].visits, 0);
    EXPECT_EQ(tree[pass].status, NodeStatus::kTerminal);
    EXPECT_FLOAT_EQ(tree[pass].mean_value(), contempt) << "contempt " << contempt;
    EXPECT_EQ(proven(tree, pass), (std::vector<float>{contempt, contempt}));
  }
}

// Whether x is a whole multiple of `grid` (within float rounding of a value sum).
bool on_grid(double x, double grid) { return std::abs(x / grid - std::round(x / grid)) < 1e-3; }

TEST(SearchBackup, RolloutWeightMixesOnePlayoutIntoEachLeafValue) {
  // The evaluator says 0.5 for X everywhere, and a game return z is -1, 0 or +1. A leaf
  // backs up (1 - w) · 0.5 + w · z: at w = 0 a multiple of 1/2, at w = 1/4 one of 1/8
  // (0.125, 0.375, 0.625, never a multiple of 1/2 alone), at w = 1 a whole number; terminal
  // leaves back up z itself. So each edge's value sum lies on that grid, and with playouts
  // some edge leaves the coarser grid of the evaluator alone.
  const auto state = random_position(5, 12);
  ASSERT_EQ(state->current_player(), 0);
  FunctionEvaluator evaluator([](const State&, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.assign(legal.size(), 1.0f);
    eval.value = {0.5f, -0.5f};
  });
  for (const auto& [w, grid] : {std::pair{0.0f, 0.5}, std::pair{0.25f, 0.125}, std::pair{1.0f, 1.0}}) {
    SCOPED_TRACE(w);
    SearchConfig config = config_for(SearchAlgorithm::kPuct, 300);
    config.rollout_weight = w;
    Search search(game(), config, 3);
    run(search, *state, evaluator);
    const Tree& tree = search.tree();
    const Node& root = tree[Tree::kRoot];
    int off_coarse_grid = 0;
    for (std::int32_t c = 0; c < root.num_children; ++c) {
      const Node& child = tree[root.first_child + c];
      EXPECT_TRUE(on_grid(child.value_sum, grid)) << "child " << c << " sums " << child.value_sum;
      if (w == 0.25f) off_coarse_grid += !on_grid(child.value_sum, 0.5);
      if (w == 1.0f) off_coarse_grid += child.visits > 0 && !on_grid(child.value_sum - 0.5 * child.visits, 1.0);
    }
    if (w > 0) {
      EXPECT_GT(off_coarse_grid, 0) << "no edge's values show a playout";
    }
  }
}

TEST(SearchBackup, RolloutsAverageThatManyPlayoutsPerLeaf) {
  // At rollout_weight 1 a leaf backs up the mean of `rollouts` playout returns, each -1, 0
  // or +1: with 4 playouts a multiple of 1/4, and some edge's sum leaves the whole numbers
  // that single playouts give.
  const auto state = random_position(5, 12);
  const auto evaluator = uniform_evaluator();
  SearchConfig config = config_for(SearchAlgorithm::kPuct, 300);
  config.rollout_weight = 1;
  config.rollouts = 4;
  Search search(game(), config, 3);
  run(search, *state, *evaluator);
  const Tree& tree = search.tree();
  const Node& root = tree[Tree::kRoot];
  int off_whole = 0;
  for (std::int32_t c = 0; c < root.num_children; ++c) {
    const Node& child = tree[root.first_child + c];
    EXPECT_TRUE(on_grid(child.value_sum, 0.25)) << "child " << c << " sums " << child.value_sum;
    off_whole += !on_grid(child.value_sum, 1.0);
  }
  EXPECT_GT(off_whole, 0) << "no edge's values show a mean of several playouts";
}

TEST(SearchExpand, PriorTemperatureRaisesEachPriorToOneOverT) {
  // The evaluator's prior of the k-th legal action is proportional to k + 1; each root
  // child's prior must be (k + 1)^(1/T), renormalised: unchanged at T = 1, the square root
  // at T = 2, and flat (within 1%) at T = 1000.
  const auto state = random_position(5, 12);
  FunctionEvaluator evaluator([](const State&, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.resize(legal.size());
    for (std::size_t k = 0; k < legal.size(); ++k) eval.prior[k] = static_cast<float>(k + 1);
    eval.value = {0.0f, 0.0f};
  });
  for (const float t : {1.0f, 2.0f, 1000.0f}) {
    SCOPED_TRACE(t);
    SearchConfig config = config_for(SearchAlgorithm::kPuct, 2);
    config.prior_temperature = t;
    Search search(game(), config, 3);
    run(search, *state, evaluator);
    const Tree& tree = search.tree();
    const Node& root = tree[Tree::kRoot];
    ASSERT_GT(root.num_children, 2);
    double total = 0;
    for (std::int32_t c = 0; c < root.num_children; ++c) total += std::pow(c + 1.0, 1.0 / t);
    for (std::int32_t c = 0; c < root.num_children; ++c)
      EXPECT_NEAR(tree[root.first_child + c].prior, std::pow(c + 1.0, 1.0 / t) / total, 1e-5) << "child " << c;
    if (t == 1000.0f) {
      const float first = tree[root.first_child].prior;
      const float last = tree[root.first_child + root.num_children - 1].prior;
      EXPECT_LT(last / first, 1.01f);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Seeds.

TEST(SearchSeeds, SameSeedSameSearchDifferentSeedDifferentSearch) {
  const auto state = random_position(21, 15);
  struct Case {
    const char* name;
    SearchConfig config;
    bool rollouts;
  };
  SearchConfig puct = config_for(SearchAlgorithm::kPuct, 200);
  puct.dirichlet_epsilon = 0.25f;
  SearchConfig gumbel = config_for(SearchAlgorithm::kGumbel, 200);
  SearchConfig uct = config_for(SearchAlgorithm::kUct, 200);
  SearchConfig puct_sampled = puct;
  puct_sampled.temperature = 1.0f;
  puct_sampled.leaves_per_step = 4;
  for (const Case& c : {Case{"puct+dirichlet", puct, false}, Case{"gumbel", gumbel, false},
                        Case{"uct+rollouts", uct, true}, Case{"puct sampled, 4 leaves", puct_sampled, true}}) {
    SCOPED_TRACE(c.name);
    auto search_with = [&](std::uint64_t seed) {
      std::unique_ptr<Evaluator> evaluator =
          c.rollouts ? std::unique_ptr<Evaluator>(std::make_unique<RolloutEvaluator>(seed)) : uniform_evaluator();
      Search search(game(), c.config, seed);
      return run(search, *state, *evaluator);
    };
    const SearchResult a = search_with(7);
    const SearchResult b = search_with(7);
    expect_same(a, b);
    // Other seeds change the noise, the rollouts or the tie-breaking order.
    int differ = 0;
    for (std::uint64_t seed = 8; seed < 12; ++seed) differ += search_with(seed).visits != a.visits;
    EXPECT_GE(differ, 3);
  }
}

TEST(SearchSeeds, SearchBotsWithTheSameSeedPlayTheSameGame) {
  for (const char* spec :
       {"uct:40", "mcts(algorithm=gumbel,simulations=16)", "mcts(simulations=16,dirichlet_epsilon=0.25)"}) {
    SCOPED_TRACE(spec);
    auto play = [&](std::uint64_t seed) {
      auto x = make_search_bot(spec, game(), seed);
      auto o = make_search_bot(spec, game(), seed + 1);
      std::unique_ptr<State> state = game().new_initial_state();
      for (int i = 0; i < 40 && !state->is_terminal(); ++i)
        state->apply((state->current_player() == 0 ? x : o)->act(PlayerView::of_mover(*state)));
      return state->history();
    };
    EXPECT_EQ(play(3), play(3));
    EXPECT_NE(play(3), play(5));
  }
}

// ---------------------------------------------------------------------------------------
// Gumbel.

// The schedule's entries for simulations 0..n-1, as a table.
std::vector<int> halving_visit_schedule(int considered, int simulations) {
  const HalvingSchedule schedule(considered, simulations);
  std::vector<int> table;
  for (int k = 0; k < simulations; ++k) table.push_back(schedule.target(k));
  return table;
}

TEST(SearchGumbel, HalvingScheduleMatchesSequentialHalving) {
  // m=4, n=8: log2(4) = 2 phases; phase 1 gives each of 4 actions floor(8/(2·4)) = 1
  // visit, phase 2 each of the best 2 floor(8/(2·2)) = 2 visits. Entry k is the visits
  // the chosen action has before simulation k.
  EXPECT_EQ(halving_visit_schedule(4, 8), (std::vector<int>{0, 0, 0, 0, 1, 1, 2, 2}));
  // m=16, n=64 (mctx's default): 4 phases of 1, 2, 4 and 8 visits to 16, 8, 4, 2 actions.
  std::vector<int> expected(16, 0);
  for (int v : {1, 2}) expected.insert(expected.end(), 8, v);
  for (int v : {3, 4, 5, 6}) expected.insert(expected.end(), 4, v);
  for (int v = 7; v <= 14; ++v) expected.insert(expected.end(), 2, v);
  EXPECT_EQ(halving_visit_schedule(16, 64), expected);
  // m=3, n=10: 2 phases (1 visit to 3, then 2 visits to 2), and the two survivors share
  // what is left.
  EXPECT_EQ(halving_visit_schedule(3, 10), (std::vector<int>{0, 0, 0, 1, 1, 2, 2, 3, 3, 4}));
  // A budget smaller than the actions: the first n actions once each.
  EXPECT_EQ(halving_visit_schedule(8, 5), (std::vector<int>{0, 0, 0, 0, 0}));
  // One action takes every simulation.
  EXPECT_EQ(halving_visit_schedule(1, 4), (std::vector<int>{0, 1, 2, 3}));
  // General shape: n entries, non-decreasing, every action visited once first, and
  // fewer actions reach each higher count.
  for (int m = 1; m <= 20; ++m) {
    for (int n = 1; n <= 200; n += 7) {
      const std::vector<int> s = halving_visit_schedule(m, n);
      ASSERT_EQ(static_cast<int>(s.size()), n);
      ASSERT_TRUE(std::is_sorted(s.begin(), s.end())) << m << " " << n;
      for (int k = 0; k < std::min(m, n); ++k) ASSERT_EQ(s[k], 0);
      const int top = s.back();
      for (int v = 1; v <= top; ++v)
        ASSERT_LE(std::count(s.begin(), s.end(), v), std::count(s.begin(), s.end(), v - 1)) << m << " " << n;
    }
  }
}

TEST(SearchGumbel, AHugeBudgetNeedsNoTable) {
  // A budget of 10^9 built a 4 GB table before the first step; computed on demand, the
  // schedule is the same: m=16 gives 4 phases of n/4 simulations each, n/64 visits to each
  // of 16 actions, n/32 to 8, n/16 to 4, then the last two share the rest.
  const int n = 1'000'000'000;
  const HalvingSchedule schedule(16, n);
  EXPECT_EQ(schedule.target(0), 0);
  EXPECT_EQ(schedule.target(n / 4 - 1), n / 64 - 1);
  EXPECT_EQ(schedule.target(n / 4), n / 64);
  EXPECT_EQ(schedule.target(n / 2), n / 64 + n / 32);
  EXPECT_EQ(schedule.target(3 * (n / 4)), n / 64 + n / 32 + n / 16);
  EXPECT_EQ(schedule.target(n - 1), n / 64 + n / 32 + n / 16 + (n - 1 - 3 * (n / 4)) / 2);
  EXPECT_EQ(schedule.target(std::int64_t{n} * 4), schedule.target(n - 1));  // past the budget: the last
  // And a search at that budget starts and steps at once.
  const auto game = load_game("virus_war");
  auto state = game->new_initial_state();
  std::vector<Action> legal = state->legal_actions();
  while (legal.size() < 2) {
    state->apply(legal.front());
    legal = state->legal_actions();
  }
  SearchConfig config;
  config.algorithm = SearchAlgorithm::kGumbel;
  config.simulations = n;
  Search search(*game, config, 1);
  search.start(PlayerView(*state, state->current_player()));
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  SearchDriver driver(evaluator);
  Search* searches[] = {&search};
  for (int i = 0; i < 100; ++i) driver.step(searches);
  EXPECT_FALSE(search.done());
  EXPECT_TRUE(search.has_result());
}

TEST(SearchGumbel, ImprovedPolicyIsTheSoftmaxOfLogPriorPlusSigmaOfCompletedQ) {
  // A root with three children: two visited, one not.
  Tree tree;
  Node& root = tree[Tree::kRoot];
  root.status = NodeStatus::kExpanded;
  root.mover = 0;
  root.net_value = 0.2f;
  root.visits = 4;
  const std::int32_t first = tree.add_children(Tree::kRoot, 3);
  const float priors[] = {0.5f, 0.3f, 0.2f};
  const int visits[] = {2, 1, 0};
  const float sums[] = {1.0f, -0.5f, 0.0f};
  for (int c = 0; c < 3; ++c) {
    tree[first + c].prior = priors[c];
    tree[first + c].visits = visits[c];
    tree[first + c].value_sum = sums[c];
    tree[first + c].action = c;
  }
  SearchConfig config;
  // By hand: q = (0.5, -0.5); v_mix = (0.2 + 3 · (0.5·0.5 + 0.3·(−0.5)) / 0.8) / 4 = 0.14375;
  // completed q = (0.5, −0.5, 0.14375), rescaled by its range to [0, 1] and multiplied
  // by (c_visit + max N) · c_scale = (50 + 2) · 0.1.
  const double v_mix = (0.2 + 3 * (0.5 * 0.5 + 0.3 * -0.5) / 0.8) / 4;
  const double completed[] = {0.5, -0.5, v_mix};
  double logits[3], total = 0;
  for (int c = 0; c < 3; ++c) {
    logits[c] = std::log(priors[c]) + 5.2 * (completed[c] + 0.5) / 1.0;
    total += std::exp(logits[c]);
  }
  std::vector<float> sigma(3), policy(3);
  sigma_completed_q(tree, Tree::kRoot, config, sigma);
  EXPECT_NEAR(sigma[0], 5.2, 1e-5);
  EXPECT_NEAR(sigma[1], 0.0, 1e-5);
  EXPECT_NEAR(sigma[2], 5.2 * (v_mix + 0.5), 1e-5);
  improved_policy(tree, Tree::kRoot, config, policy);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(policy[c], std::exp(logits[c]) / total, 1e-6) << c;
}

TEST(SearchGumbel, SearchPolicyIsADistributionAndScaleZeroIsDeterministic) {
  const auto state = random_position(33, 12);
  SearchConfig config = config_for(SearchAlgorithm::kGumbel, 32);
  for (std::uint64_t seed : {1, 2, 3}) {
    RolloutEvaluator evaluator(seed);
    Search search(game(), config, seed);
    const SearchResult result = run(search, *state, evaluator);
    ASSERT_EQ(result.policy.size(), result.legal.size());
    EXPECT_NEAR(std::accumulate(result.policy.begin(), result.policy.end(), 0.0), 1.0, 1e-5);
    for (float p : result.policy) EXPECT_GE(p, 0.0f);
    EXPECT_TRUE(is_legal(*state, result.action));
    EXPECT_EQ(result.simulations, 32);
  }
  // Without Gumbel noise the search seed changes nothing (the evaluator's seed is fixed).
  config.gumbel_scale = 0;
  auto search_with = [&](std::uint64_t seed) {
    RolloutEvaluator evaluator(77);
    Search search(game(), config, seed);
    return run(search, *state, evaluator);
  };
  const SearchResult a = search_with(1);
  for (std::uint64_t seed : {2, 3, 4}) expect_same(a, search_with(seed));
  // With noise it does.
  config.gumbel_scale = 1;
  int differ = 0;
  for (std::uint64_t seed : {2, 3, 4}) differ += search_with(seed).visits != search_with(1).visits;
  EXPECT_GE(differ, 2);
}

TEST(SearchGumbel, FewSimulationsGoToTheConsideredActionsByTheSchedule) {
  // Uniform priors, zero values, m=4 of many actions, 8 simulations: exactly 4 root
  // actions are visited, 1 + 1 + 3 + 3 times (the schedule 0,0,0,0,1,1,2,2).
  const auto state = random_position(5, 9);
  ASSERT_GT(state->legal_actions().size(), 4u);
  SearchConfig config = config_for(SearchAlgorithm::kGumbel, 8);
  config.gumbel_considered = 4;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  Search search(game(), config, 9);
  const SearchResult result = run(search, *state, evaluator);
  std::vector<int> visited;
  for (int v : result.visits)
    if (v > 0) visited.push_back(v);
  std::sort(visited.begin(), visited.end());
  EXPECT_EQ(visited, (std::vector<int>{1, 1, 3, 3}));
  // The action played is one of the two most visited.
  const auto chosen = std::find(result.legal.begin(), result.legal.end(), result.action) - result.legal.begin();
  EXPECT_EQ(result.visits[chosen], 3);
}

// ---------------------------------------------------------------------------------------
// Budgets per decision (playout cap randomization).

TEST(SearchBudget, EachStartSearchesWithItsOwnBudgetAndNoise) {
  const auto state = random_position(5, 9);
  const std::size_t n = state->legal_actions().size();
  ASSERT_GT(n, 4u);
  SearchConfig config = config_for(SearchAlgorithm::kPuct, 40);
  config.dirichlet_epsilon = 0.5f;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  SearchDriver driver(evaluator);
  Search search(game(), config, 3);
  Search* searches[] = {&search};
  const auto root_priors = [&] {
    std::vector<float> priors;
    const Node& root = search.tree()[Tree::kRoot];
    for (std::int32_t c = 0; c < root.num_children; ++c) priors.push_back(search.tree()[root.first_child + c].prior);
    return priors;
  };
  const std::vector<float> uniform(n, 1.0f / static_cast<float>(n));
  // The config's budget, with noise: the priors move away from uniform.
  search.start(PlayerView::of_mover(*state));
  driver.run(searches);
  EXPECT_EQ(search.result().simulations, 40);
  EXPECT_NE(root_priors(), uniform);
  // A fast start of the same Search: its own budget, the priors as the evaluator gave them.
  search.start(PlayerView::of_mover(*state), {5, false});
  driver.run(searches);
  EXPECT_EQ(search.result().simulations, 5);
  const std::vector<float> priors = root_priors();
  ASSERT_EQ(priors.size(), n);
  for (std::size_t c = 0; c < n; ++c) EXPECT_FLOAT_EQ(priors[c], uniform[c]);
  // And back to the full budget.
  search.start(PlayerView::of_mover(*state));
  driver.run(searches);
  EXPECT_EQ(search.result().simulations, 40);

  // Gumbel halves over the start's budget: 8 simulations among 4 considered actions.
  SearchConfig gumbel = config_for(SearchAlgorithm::kGumbel, 64);
  gumbel.gumbel_considered = 4;
  Search halving(game(), gumbel, 9);
  Search* halvings[] = {&halving};
  halving.start(PlayerView::of_mover(*state), {8, false});
  driver.run(halvings);
  const SearchResult result = halving.result();
  std::vector<int> visited;
  for (int v : result.visits)
    if (v > 0) visited.push_back(v);
  std::sort(visited.begin(), visited.end());
  EXPECT_EQ(visited, (std::vector<int>{1, 1, 3, 3}));

  EXPECT_EQ(error_of<InputError>([&] { search.start(PlayerView::of_mover(*state), {0, true}); }),
            "search: a decision needs a budget of at least 1 simulation, got 0");
}

TEST(SearchDone, SingleLegalActionNeedsNoSimulation) {
  // At the start X must enter at a1 (no pass before entering): one legal action.
  const auto state = game().new_initial_state();
  ASSERT_EQ(state->legal_actions(), std::vector<Action>{at("a1")});
  for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kGumbel, SearchAlgorithm::kUct}) {
    SCOPED_TRACE(std::string(algorithm_name(algorithm)));
    int calls = 0;
    FunctionEvaluator evaluator([&](const State&, std::span<const Action> legal, Evaluation& eval) {
      ++calls;
      eval.prior.assign(legal.size(), 1.0f);
      eval.value.assign(2, 0.0f);
    });
    Search search(game(), config_for(algorithm, 100), 1);
    search.start(PlayerView::of_mover(*state));
    EXPECT_FALSE(search.done());
    EXPECT_EQ(search.collect(), 1);  // the root's own evaluation
    std::vector<Evaluation> evals(1);
    evaluator.evaluate(search.requests(), evals);
    search.backup(evals);
    EXPECT_TRUE(search.done());
    const SearchResult result = search.result();
    EXPECT_EQ(result.action, at("a1"));
    EXPECT_EQ(result.simulations, 0);
    EXPECT_EQ(result.policy, std::vector<float>{1.0f});
    EXPECT_EQ(calls, 1);
  }
}

// ---------------------------------------------------------------------------------------
// Virtual loss.

TEST(SearchVirtualLoss, LeavesOfOneStepAreDistinctAndInFlightReturnsToZero) {
  const auto root = random_position(17, 10);
  const std::size_t root_length = root->history().size();
  for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kGumbel, SearchAlgorithm::kUct}) {
    SCOPED_TRACE(std::string(algorithm_name(algorithm)));
    SearchConfig config = config_for(algorithm, 200);
    config.leaves_per_step = 8;
    Search search(game(), config, 4);
    RolloutEvaluator evaluator(4);
    search.start(PlayerView::of_mover(*root));
    std::vector<Evaluation> evals;
    int steps = 0, leaves = 0, full_steps = 0;
    while (!search.done()) {
      const int n = search.collect();
      const Tree& tree = search.tree();
      ASSERT_EQ(n, static_cast<int>(search.requests().size()));
      // Each request is a distinct pending node, found by following its actions.
      std::set<std::int32_t> nodes;
      for (const EvalRequest& request : search.requests()) {
        const std::vector<Step> history = request.state->history();
        std::int32_t node = Tree::kRoot;
        for (std::size_t i = root_length; i < history.size(); ++i) {
          node = tree.find_child(node, history[i].action);
          ASSERT_GE(node, 0);
        }
        EXPECT_EQ(tree[node].status, NodeStatus::kPending);
        nodes.insert(node);
      }
      EXPECT_EQ(nodes.size(), static_cast<std::size_t>(n));
      // Every node's in_flight is the number of pending leaves at or below it.
      std::function<int(std::int32_t)> pending_below = [&](std::int32_t node) {
        int count = tree[node].status == NodeStatus::kPending ? 1 : 0;
        for (std::int32_t c = 0; c < tree[node].num_children; ++c) count += pending_below(tree[node].first_child + c);
        if (node != Tree::kRoot) {
          EXPECT_EQ(tree[node].in_flight, count);
        }
        return count;
      };
      EXPECT_EQ(pending_below(Tree::kRoot), n);
      evals.resize(static_cast<std::size_t>(n));
      evaluator.evaluate(search.requests(), evals);
      search.backup(evals);
      for (std::int32_t i = 0; i < tree.size(); ++i) {
        ASSERT_EQ(tree[i].in_flight, 0) << "node " << i;
        ASSERT_NE(tree[i].status, NodeStatus::kPending) << "node " << i;
      }
      ++steps;
      leaves += n;
      full_steps += n == 8;
    }
    const SearchResult result = search.result();
    EXPECT_EQ(result.simulations, 200);
    // Virtual loss spreads the leaves: nearly every step fills its batch (the first is
    // the root alone).
    EXPECT_GE(full_steps, 200 / 8 - 3);
    EXPECT_LE(steps, 200 / 8 + 5);
  }
}

// ---------------------------------------------------------------------------------------
// Tree reuse.

TEST(SearchTreeReuse, TheSubtreeOfThePlayedActionsIsKept) {
  for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kGumbel, SearchAlgorithm::kUct}) {
    SCOPED_TRACE(std::string(algorithm_name(algorithm)));
    SearchConfig config = config_for(algorithm, 300);
    config.reuse_tree = true;
    Search search(game(), config, 8);
    RolloutEvaluator evaluator(8);
    std::unique_ptr<State> state = random_position(40, 7);
    SearchResult result = run(search, *state, evaluator);
    int reused = 0;
    for (int move = 0; move < 6 && !state->is_terminal(); ++move) {
      // Play the chosen action, then (every other time) a reply from the same tree.
      const std::int32_t child = search.tree().find_child(Tree::kRoot, result.action);
      ASSERT_GE(child, 0);
      std::int32_t kept = child;
      int expected_visits = search.tree()[child].visits;
      state->apply(result.action);
      if (move % 2 == 1 && !state->is_terminal() && search.tree()[child].status == NodeStatus::kExpanded) {
        // Follow the most visited reply too: two actions since the last root.
        const Node& c = search.tree()[child];
        std::int32_t best = c.first_child;
        for (std::int32_t g = c.first_child; g < c.first_child + c.num_children; ++g)
          if (search.tree()[g].visits > search.tree()[best].visits) best = g;
        kept = best;
        expected_visits = search.tree()[best].visits;
        state->apply(search.tree()[best].action);
      }
      if (state->is_terminal()) break;
      const bool expanded = search.tree()[kept].status == NodeStatus::kExpanded;
      search.start(PlayerView::of_mover(*state));
      const Node& root = search.tree()[Tree::kRoot];
      if (expanded) {
        // Before any new simulation the root already carries its old visits.
        EXPECT_EQ(root.visits, expected_visits);
        EXPECT_GT(root.visits, 1);
        EXPECT_EQ(root.status, NodeStatus::kExpanded);
        ++reused;
      } else {
        EXPECT_EQ(root.visits, 0);
      }
      SearchDriver driver(evaluator);
      Search* searches[] = {&search};
      driver.run(searches);
      result = search.result();
      EXPECT_TRUE(is_legal(*state, result.action));
      EXPECT_EQ(result.legal, state->legal_actions());
      // The kept visits plus this search's simulations (unless the root was proven).
      if (search.tree()[Tree::kRoot].proven == kUnproven && search.tree()[Tree::kRoot].num_children > 1) {
        EXPECT_EQ(search.tree()[Tree::kRoot].visits, std::max(expected_visits, expanded ? 0 : 1) + 300);
      }
      for (std::int32_t i = 0; i < search.tree().size(); ++i) ASSERT_EQ(search.tree()[i].in_flight, 0);
    }
    EXPECT_GE(reused, 4);
  }
}

TEST(SearchTreeReuse, AnUnrelatedPositionStartsAFreshTree) {
  SearchConfig config = config_for(SearchAlgorithm::kPuct, 100);
  config.reuse_tree = true;
  Search search(game(), config, 8);
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  // Another game's position: its history does not continue the last root's.
  run(search, *random_position(1, 12), evaluator);
  const auto other = random_position(2, 12);
  search.start(PlayerView::of_mover(*other));
  EXPECT_EQ(search.tree()[Tree::kRoot].visits, 0);
  EXPECT_EQ(search.tree().size(), 1);
  // Two positions set up from diagrams have no history at all: the second is not a
  // continuation of the first and must not inherit its tree.
  const auto first = position({{"e5", 'X'}, {"k10", 'O'}});
  const auto second = position({{"a1", 'X'}, {"k1", 'O'}, {"k10", 'O'}});
  run(search, *first, evaluator);
  search.start(PlayerView::of_mover(*second));
  EXPECT_EQ(search.tree()[Tree::kRoot].visits, 0);
  SearchDriver driver(evaluator);
  Search* searches[] = {&search};
  driver.run(searches);
  const SearchResult result = search.result();
  EXPECT_EQ(result.legal, second->legal_actions());
  EXPECT_TRUE(is_legal(*second, result.action));
}

// ---------------------------------------------------------------------------------------
// Bad input.

::testing::AssertionResult contains(const std::string& message, const std::string& part) {
  if (message.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << message << "' does not contain '" << part << "'";
}

TEST(SearchInput, OptionsNameTheProblem) {
  auto option_error = [](std::string_view options) {
    SearchConfig c;
    return error_of([&] { set_search_options(c, options); });
  };
  EXPECT_EQ(option_error("simulatons=5"), "unknown search option 'simulatons'; did you mean 'simulations'?");
  EXPECT_TRUE(contains(option_error("budget=5"), "unknown search option 'budget' (known: algorithm, simulations, "));
  EXPECT_EQ(option_error("simulations=abc"), "search option 'simulations': expected an integer, got 'abc'");
  EXPECT_EQ(option_error("simulations=8x"), "search option 'simulations': expected an integer, got '8x'");
  EXPECT_EQ(option_error("simulations=0"), "search option 'simulations': expected an integer >= 1, got 0");
  EXPECT_EQ(option_error("c_puct=1.5x"), "search option 'c_puct': expected a number, got '1.5x'");
  EXPECT_EQ(option_error("c_puct=0"), "search option 'c_puct': expected a number > 0, got 0");
  EXPECT_EQ(option_error("reuse_tree=yes"), "search option 'reuse_tree': expected true or false, got 'yes'");
  EXPECT_EQ(option_error("algorithm=alphabeta"),
            "search option 'algorithm': expected one of puct, gumbel, uct, got 'alphabeta'");
  EXPECT_EQ(option_error("simulations=8,c_puct"), "search option 'c_puct' is not of the form key=value");
  // Good options are all applied, with the spellings of booleans configs use.
  SearchConfig good;
  set_search_options(good, "algorithm=gumbel,simulations=8,reuse_tree=true,gumbel_scale=0,transpositions=1");
  EXPECT_EQ(good.algorithm, SearchAlgorithm::kGumbel);
  EXPECT_EQ(good.simulations, 8);
  EXPECT_TRUE(good.reuse_tree);
  EXPECT_TRUE(good.transpositions);
  EXPECT_EQ(good.gumbel_scale, 0.0f);
  // Ranges of values set in code are checked by validate() and by the Search constructor.
  SearchConfig bad;
  bad.dirichlet_epsilon = 1.5f;
  EXPECT_EQ(error_of([&] { validate(bad); }), "search option 'dirichlet_epsilon': expected a number in [0, 1], got 1.5");
  bad = SearchConfig{};
  bad.leaves_per_step = 0;
  EXPECT_EQ(error_of([&] { Search search(game(), bad, 1); }),
            "search option 'leaves_per_step': expected an integer in [1, 4096], got 0");
  validate(SearchConfig{});  // the defaults pass
}

TEST(SearchInput, BotSpecsNameTheProblem) {
  auto bot_error = [](std::string_view spec) { return error_of([&] { make_search_bot(spec, game(), 1); }); };
  EXPECT_TRUE(contains(bot_error("uct:abc"), "player 'uct:abc': uct needs a number of simulations, as in uct:1000"));
  EXPECT_TRUE(contains(bot_error("uct"), "uct needs a number of simulations"));
  EXPECT_TRUE(contains(bot_error("uct:0"), "uct needs a number of simulations"));
  EXPECT_TRUE(contains(bot_error("nope"), "player 'nope': unknown kind 'nope' (known: random, heuristic, uct:N, uct(key=value,...), mcts("));
  EXPECT_EQ(bot_error("mcts(simulations=0)"),
            "player 'mcts(simulations=0)': search option 'simulations': expected an integer >= 1, got 0");
  EXPECT_EQ(bot_error("mcts(simulatons=4)"),
            "player 'mcts(simulatons=4)': unknown search option 'simulatons'; did you mean 'simulations'?");
  EXPECT_EQ(bot_error("uct:10(algoritm=puct)"),
            "player 'uct:10(algoritm=puct)': unknown search option 'algoritm'; did you mean 'algorithm'?");
  EXPECT_EQ(bot_error("uct:10(rollouts=0)"),
            "player 'uct:10(rollouts=0)': search option 'rollouts': expected an integer in [1, 4096], got 0");
  EXPECT_TRUE(contains(bot_error("random:3"), "player 'random:3': random takes no argument or options"));
  EXPECT_EQ(bot_error("heuristic"), "player 'heuristic': virus_war has no heuristic player (games with one: squares, "
                                    "klopodavka, stratego, war, kuhn_poker, leduc_poker)");
  EXPECT_EQ(bot_error("heuristic:2"), "player 'heuristic:2': heuristic takes no argument or options");
  EXPECT_TRUE(contains(bot_error("mcts:simulations=8,algorithm=puct"), "write 'mcts(simulations=8,algorithm=puct)'"));
  EXPECT_TRUE(contains(bot_error("mcts:x.pt"), "mcts takes no argument after ':'"));
  EXPECT_TRUE(contains(bot_error("uct:5(simulations=4)"), "simulations given twice"));
  // Good specs make bots that play legal actions.
  const auto state = random_position(3, 6);
  for (const char* spec : {"random", "uct:20", "uct:20(uct_c=2,rollouts=2)", "mcts", "mcts(algorithm=gumbel)"}) {
    SCOPED_TRACE(spec);
    auto bot = make_search_bot(spec, game(), 2);
    EXPECT_TRUE(is_legal(*state, bot->act(PlayerView::of_mover(*state))));
  }
}

TEST(SearchInput, EvaluatorAnswersOfTheWrongSizeAreRejected) {
  const auto state = random_position(3, 6);
  const std::size_t legal = state->legal_actions().size();
  auto evaluate_with = [&](int extra_priors, int players) {
    FunctionEvaluator evaluator([&](const State&, std::span<const Action> actions, Evaluation& eval) {
      eval.prior.assign(actions.size() + static_cast<std::size_t>(extra_priors), 1.0f);
      eval.value.assign(static_cast<std::size_t>(players), 0.0f);
    });
    Search search(game(), config_for(SearchAlgorithm::kPuct, 10), 1);
    return error_of([&] { run(search, *state, evaluator); });
  };
  EXPECT_EQ(evaluate_with(0, 2), "no error");
  EXPECT_TRUE(contains(evaluate_with(1, 2), "evaluator returned " + std::to_string(legal + 1) +
                                                " priors and 2 values for " + std::to_string(legal) +
                                                " legal actions and 2 players"));
  EXPECT_TRUE(contains(evaluate_with(-1, 2), "evaluator returned " + std::to_string(legal - 1) + " priors"));
  EXPECT_TRUE(contains(evaluate_with(0, 1), "priors and 1 values for"));
}

TEST(SearchInput, SearchMisuseIsRejected) {
  Search search(game(), SearchConfig{}, 1);
  const auto won = position({{"e5", 'X'}, {"f6", 'o'}});  // O has no live symbol left: X has won
  ASSERT_TRUE(won->is_terminal());
  EXPECT_TRUE(contains(error_of([&] { search.start(PlayerView(*won, 0)); }), "search: the game is already over"));
  search.start(PlayerView::of_mover(*random_position(1, 5)));
  EXPECT_TRUE(contains(error_of([&] { search.result(); }), "search result requested before the root was evaluated"));
  ASSERT_EQ(search.collect(), 1);
  std::vector<Evaluation> none;
  EXPECT_TRUE(contains(error_of([&] { search.backup(none); }), "search backup: 0 evaluations for 1 leaves"));
}

}  // namespace
}  // namespace boardlab
