// Small games local to the LibTorch-layer tests, each built to exercise one thing the toys do not: seat-permuting symmetries, chance in a perfect-information game, wide stored fields.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/game.h"

namespace boardlab::nn_testing {

// ---------------------------------------------------------------------------- vote
// Three players vote at once for `kRounds` rounds. A vote is relative to the voter: 0
// abstains, 1 votes for the next seat, 2 for the previous one. A seat's return is its
// votes minus the mean, over 6. Its symmetries permute the seats: "mirror" swaps seats 1
// and 2 (a vote for the next seat becomes one for the previous: actions 1 and 2 and the
// planes of the next and previous seats swap), and holds in every round but the second;
// "turn" moves every seat one on, which changes nothing the viewer sees.
// Observation planes (one cell): votes received by the viewer, the next seat, the
// previous seat (each over 6), and the round over kRounds.
class VoteGame final : public Game {
 public:
  static constexpr int kRounds = 3;
  VoteGame() : Game("test_vote", {}) {
    symmetries_.push_back({"mirror", {0}, {0, 2, 1}, {0, 2, 1}, {0, 2, 1, 3}});
    symmetries_.push_back({"turn", {0}, {0, 1, 2}, {1, 2, 0}, {}});
  }
  GameType type() const override {
    GameType t;
    t.dynamics = Dynamics::kSimultaneous;
    return t;
  }
  int num_players() const override { return 3; }
  int num_distinct_actions() const override { return 3; }
  ObservationShape observation_shape() const override { return {4, 1, 1}; }
  int max_game_length() const override { return 3 * kRounds; }
  const std::vector<Symmetry>& symmetries() const override { return symmetries_; }
  bool symmetry_holds(const State& state, int index) const override;
  std::unique_ptr<State> new_initial_state() const override;

 private:
  std::vector<Symmetry> symmetries_;
};

class VoteState final : public State {
 public:
  explicit VoteState(const VoteGame& game) : State(game) {}
  int round() const { return static_cast<int>(history_.size()) / 3; }
  Player current_player() const override { return round() == VoteGame::kRounds ? kTerminalPlayer : kSimultaneousPlayer; }
  int move_number() const override { return round(); }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (!is_terminal() && player >= 0 && player < 3) out = {0, 1, 2};
  }
  void apply(Action) override { throw IllegalActionError("test_vote: every seat votes at once; use apply_joint"); }
  void apply_joint(std::span<const Action> actions) override {
    if (is_terminal() || actions.size() != 3) throw IllegalActionError("test_vote: three votes, before the end");
    for (Action a : actions)
      if (a < 0 || a > 2) throw IllegalActionError("test_vote: a vote is 0, 1 or 2");
    for (int p = 0; p < 3; ++p) {
      history_.push_back({p, actions[p]});
      if (actions[p] != 0) ++votes_[(p + (actions[p] == 1 ? 1 : 2)) % 3];
    }
  }
  void write_returns(std::span<double> out) const override {
    const double mean = (votes_[0] + votes_[1] + votes_[2]) / 3.0;
    for (int p = 0; p < 3; ++p) out[p] = is_terminal() ? (votes_[p] - mean) / 6.0 : 0.0;
  }
  void observation(Player p, std::span<float> out) const override {
    if (p < 0 || p > 2 || out.size() != 4) throw InputError("test_vote: bad observation request");
    for (int j = 0; j < 3; ++j) out[j] = static_cast<float>(votes_[(p + j) % 3]) / 6.0f;
    out[3] = static_cast<float>(round()) / VoteGame::kRounds;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<VoteState>(*this); }
  std::uint64_t hash() const override {
    std::uint64_t h = 1469598103934665603ULL;
    for (const Step& s : history_) h = (h ^ static_cast<std::uint64_t>(s.action + 3 * s.player)) * 1099511628211ULL;
    return h;
  }
  std::string to_string() const override {
    return "votes " + std::to_string(votes_[0]) + " " + std::to_string(votes_[1]) + " " + std::to_string(votes_[2]);
  }
  std::string action_text(Player, Action action) const override { return std::to_string(action); }
  Action read_action(Player, std::string_view text) const override {
    if (text.size() == 1 && text[0] >= '0' && text[0] <= '2') return text[0] - '0';
    throw NotationError("test_vote: a vote is 0, 1 or 2");
  }
  std::vector<Step> history() const override { return history_; }

 private:
  int votes_[3] = {0, 0, 0};
  std::vector<Step> history_;
};

inline bool VoteGame::symmetry_holds(const State& state, int index) const {
  return index != 0 || static_cast<const VoteState&>(state).round() != 1;
}
inline std::unique_ptr<State> VoteGame::new_initial_state() const { return std::make_unique<VoteState>(*this); }

// ---------------------------------------------------------------------------- coin nim
// Perfect information with chance: chance tosses a biased coin (heads, action 1, with
// kHeads) for a pile of 5 tokens, or 4 on tails; then two players take turns taking one
// (action 0) or two (action 1) tokens, and whoever takes the last wins. With one token
// left the move is forced. Observation: the pile, one-hot over 0..5.
class CoinNimGame final : public Game {
 public:
  static constexpr double kHeads = 0.8;
  CoinNimGame() : Game("test_coin_nim", {}) {}
  GameType type() const override {
    GameType t;
    t.chance = Chance::kSetup;
    return t;
  }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 2; }
  ObservationShape observation_shape() const override { return {6, 1, 1}; }
  int max_game_length() const override { return 6; }
  std::unique_ptr<State> new_initial_state() const override;
};

class CoinNimState final : public State {
 public:
  explicit CoinNimState(const CoinNimGame& game) : State(game) {}
  Player current_player() const override {
    if (history_.empty()) return kChancePlayer;
    return pile_ == 0 ? kTerminalPlayer : static_cast<Player>((history_.size() - 1) % 2);
  }
  int move_number() const override { return static_cast<int>(history_.size()); }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (player != current_player()) return;
    if (player == kChancePlayer || pile_ >= 2) out = {0, 1};
    else out = {0};
  }
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override {
    if (!is_chance_node()) return State::chance_outcomes(out);
    out = {{0, 1 - CoinNimGame::kHeads}, {1, CoinNimGame::kHeads}};
  }
  void apply(Action action) override {
    const Player actor = current_player();
    const std::vector<Action> legal = legal_actions(actor);
    if (std::find(legal.begin(), legal.end(), action) == legal.end())
      throw IllegalActionError("test_coin_nim: illegal action " + std::to_string(action));
    if (actor == kChancePlayer) pile_ = action == 1 ? 5 : 4;
    else pile_ -= action + 1;
    history_.push_back({actor, action});
  }
  void write_returns(std::span<double> out) const override {
    out[0] = out[1] = 0;
    if (!is_terminal()) return;
    const auto winner = static_cast<std::size_t>((history_.size() - 2) % 2);  // who took the last token
    out[winner] = 1;
    out[1 - winner] = -1;
  }
  void observation(Player, std::span<float> out) const override {
    std::fill(out.begin(), out.end(), 0.0f);
    out[static_cast<std::size_t>(std::max(pile_, 0))] = 1.0f;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<CoinNimState>(*this); }
  std::uint64_t hash() const override { return static_cast<std::uint64_t>(pile_ * 16 + static_cast<int>(history_.size())); }
  std::string to_string() const override { return "pile " + std::to_string(pile_); }
  std::string action_text(Player actor, Action action) const override {
    if (actor == kChancePlayer) return action == 1 ? "H" : "T";
    return std::to_string(action + 1);
  }
  Action read_action(Player actor, std::string_view text) const override {
    if (actor == kChancePlayer && (text == "H" || text == "T")) return text == "H" ? 1 : 0;
    if (actor != kChancePlayer && (text == "1" || text == "2")) return text == "1" ? 0 : 1;
    throw NotationError("test_coin_nim: no such action '" + std::string(text) + "'");
  }
  std::vector<Step> history() const override { return history_; }

 private:
  int pile_ = 0;
  std::vector<Step> history_;
};

inline std::unique_ptr<State> CoinNimGame::new_initial_state() const { return std::make_unique<CoinNimState>(*this); }

// ---------------------------------------------------------------------------- count
// A game sized to test stored widths: `players` seats take turns for `length` steps, each
// choosing one of the two highest of `actions` actions; max_game_length() declares
// `declared` steps (a game that lies about it, when smaller than `length`). The
// observation is the number of steps played, so an example tells its ply.
class CountGame final : public Game {
 public:
  CountGame(int players, int actions, int length, int declared)
      : Game("test_count", {}), players_(players), actions_(actions), length_(length), declared_(declared) {}
  GameType type() const override { return {}; }
  int num_players() const override { return players_; }
  int num_distinct_actions() const override { return actions_; }
  ObservationShape observation_shape() const override { return {1, 1, 1}; }
  int max_game_length() const override { return declared_; }
  int length() const { return length_; }
  std::unique_ptr<State> new_initial_state() const override;

 private:
  int players_, actions_, length_, declared_;
};

class CountState final : public State {
 public:
  // Actions applied by every count state so far: how much a sample replays.
  static inline std::atomic<long> applied{0};

  explicit CountState(const CountGame& game) : State(game) {}
  const CountGame& count_game() const { return static_cast<const CountGame&>(game()); }
  Player current_player() const override {
    return steps_ == count_game().length() ? kTerminalPlayer : steps_ % count_game().num_players();
  }
  int move_number() const override { return steps_; }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    const int a = count_game().num_distinct_actions();
    if (player == current_player() && player >= 0) out = {a - 2, a - 1};
  }
  void apply(Action action) override {
    const int a = count_game().num_distinct_actions();
    if (is_terminal() || action < a - 2 || action >= a) throw IllegalActionError("test_count: illegal action");
    ++applied;
    highest_.push_back(action == a - 1);
    ++steps_;
  }
  void write_returns(std::span<double> out) const override { std::fill(out.begin(), out.end(), 0.0); }
  void observation(Player, std::span<float> out) const override { out[0] = static_cast<float>(steps_); }
  std::unique_ptr<State> clone() const override { return std::make_unique<CountState>(*this); }
  std::uint64_t hash() const override { return static_cast<std::uint64_t>(steps_); }
  std::string to_string() const override { return std::to_string(steps_) + " steps"; }
  std::string action_text(Player, Action action) const override { return std::to_string(action); }
  Action read_action(Player, std::string_view text) const override { return std::stoi(std::string(text)); }
  std::vector<Step> history() const override {
    std::vector<Step> out;
    const int n = count_game().num_players(), a = count_game().num_distinct_actions();
    for (std::size_t i = 0; i < highest_.size(); ++i)
      out.push_back({static_cast<Player>(i % static_cast<std::size_t>(n)), highest_[i] ? a - 1 : a - 2});
    return out;
  }

 private:
  int steps_ = 0;
  std::vector<bool> highest_;  // per step: the highest action, or the one below (a bit, for 70,000-step games)
};

inline std::unique_ptr<State> CountGame::new_initial_state() const { return std::make_unique<CountState>(*this); }

}  // namespace boardlab::nn_testing
