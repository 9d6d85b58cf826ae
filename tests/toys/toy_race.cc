// toy_race: a token race for 2-4 players with turns of one or two sub-moves and rank returns.
//
// A pile of `tokens` tokens; players take turns in seat order. A turn's first sub-move takes
// one or two tokens; then the player may take one more token (a second sub-move) or end its
// turn. The game ends when the pile is empty. Players are ranked by the tokens they hold
// (most first), and returns go linearly from +1 (first) to -1 (last), ties averaged: they
// sum to zero. Taking 1 then 1 and taking 2 then ending reach the same position: the
// hash sees only the position.
// Actions: 0 take one, 1 take two, 2 end the turn; notation `1`, `2`, `end`; a turn `1-1`.
// Its final score (an auxiliary training target) is the tokens each seat holds, so two
// seats' scores differ by `tokens` at most.
#include <algorithm>
#include <array>

#include "core/errors.h"
#include "core/rank_returns.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

constexpr Action kTakeOne = 0, kTakeTwo = 1, kEnd = 2;
constexpr int kMaxPlayers = 4;

class RaceGame final : public Game {
 public:
  explicit RaceGame(const GameParameters& params)
      : Game("toy_race", params),
        players_(static_cast<int>(std::get<std::int64_t>(params.at("players")))),
        tokens_(static_cast<int>(std::get<std::int64_t>(params.at("tokens")))) {
    traits_.max_score_margin = tokens_;
  }
  GameType type() const override { return {}; }  // sequential, deterministic, perfect information, zero-sum ±1
  int num_players() const override { return players_; }
  int num_distinct_actions() const override { return 3; }
  // Tokens left, each seat's tokens from the viewer on, the viewer's sub-move flag.
  ObservationShape observation_shape() const override { return {2 + players_, 1, 1}; }
  int max_game_length() const override { return 2 * tokens_; }
  std::unique_ptr<State> new_initial_state() const override;
  int tokens() const { return tokens_; }

 private:
  int players_;
  int tokens_;
};

class RaceState final : public State {
 public:
  explicit RaceState(const RaceGame& game) : State(game), pile_(game.tokens()) {}

  Player current_player() const override { return pile_ == 0 ? kTerminalPlayer : mover_; }
  int move_number() const override { return turn_; }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (is_terminal() || player != current_player()) return;
    if (!second_) {
      out.push_back(kTakeOne);
      if (pile_ >= 2) out.push_back(kTakeTwo);
    } else {
      out.push_back(kTakeOne);
      out.push_back(kEnd);
    }
  }
  void apply(Action action) override {
    std::vector<Action> legal;
    legal_actions(current_player(), legal);
    if (std::find(legal.begin(), legal.end(), action) == legal.end())
      throw IllegalActionError("illegal action " + std::to_string(action) + ": " +
                               (pile_ == 0                             ? std::string("the game is over")
                                : action == kTakeTwo && second_        ? std::string("a second sub-move takes one token")
                                : action == kTakeTwo                   ? std::string("only one token is left")
                                : action == kEnd && !second_           ? std::string("a turn takes at least one token")
                                                                       : std::string("actions are 0, 1 and 2")));
    history_.push_back({mover_, action});
    if (action == kEnd || second_) {
      held_[mover_] += action == kEnd ? 0 : 1;
      pile_ -= action == kEnd ? 0 : 1;
      return next_turn();
    }
    const int taken = action == kTakeOne ? 1 : 2;
    held_[mover_] += taken;
    pile_ -= taken;
    if (pile_ == 0) return next_turn();
    second_ = true;
  }
  void write_returns(std::span<double> out) const override {
    const int n = game().num_players();
    if (static_cast<int>(out.size()) != n) throw InputError("returns: buffer of the wrong size");
    std::fill(out.begin(), out.end(), 0.0);
    if (pile_ != 0) return;
    rank_returns(std::span<const int>(held_.data(), static_cast<std::size_t>(n)), out);
  }
  void scores(std::span<double> out) const override {
    const int n = game().num_players();
    if (pile_ != 0) throw InputError("scores: the race is not over");
    if (static_cast<int>(out.size()) != n) throw InputError("scores: buffer of the wrong size");
    for (int p = 0; p < n; ++p) out[p] = held_[p];
  }
  void observation(Player p, std::span<float> out) const override {
    const int n = game().num_players();
    const auto& g = static_cast<const RaceGame&>(game());
    if (p < 0 || p >= n || static_cast<int>(out.size()) != g.observation_shape().size())
      throw InputError("observation: bad player or buffer size");
    out[0] = static_cast<float>(pile_) / static_cast<float>(g.tokens());
    for (int j = 0; j < n; ++j) out[1 + j] = static_cast<float>(held_[(p + j) % n]) / static_cast<float>(g.tokens());
    out[1 + n] = second_ && mover_ == p ? 1.0f : 0.0f;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<RaceState>(*this); }
  std::uint64_t hash() const override {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(pile_ + 1);
    for (int p = 0; p < kMaxPlayers; ++p) h = (h ^ static_cast<std::uint64_t>(held_[p])) * 0x100000001b3ULL;
    h = (h ^ static_cast<std::uint64_t>(pile_ == 0 ? 7 : mover_)) * 0x100000001b3ULL;
    return (h ^ (second_ ? 1u : 0u)) * 0x100000001b3ULL;
  }
  std::string to_string() const override {
    std::string out = "pile " + std::to_string(pile_) + ", held";
    for (int p = 0; p < game().num_players(); ++p) out += " " + std::to_string(held_[p]);
    if (pile_ == 0) return out + ", over";
    return out + ", P" + std::to_string(mover_) + (second_ ? " may take one more or end" : " to take");
  }
  std::string action_text(Player, Action action) const override {
    switch (action) {
      case kTakeOne: return "1";
      case kTakeTwo: return "2";
      case kEnd: return "end";
      default: throw InputError("action " + std::to_string(action) + " is outside 0..2");
    }
  }
  Action read_action(Player, std::string_view text) const override {
    if (text == "1") return kTakeOne;
    if (text == "2") return kTakeTwo;
    if (text == "end") return kEnd;
    throw NotationError("'" + std::string(text) + "' is not a toy_race action (1, 2 or end)");
  }
  std::vector<Step> history() const override { return history_; }

 private:
  void next_turn() {
    second_ = false;
    ++turn_;
    mover_ = (mover_ + 1) % game().num_players();
  }

  int pile_;
  Player mover_ = 0;
  bool second_ = false;
  int turn_ = 0;
  std::array<int, kMaxPlayers> held_{};
  std::vector<Step> history_;
};

std::unique_ptr<State> RaceGame::new_initial_state() const { return std::make_unique<RaceState>(*this); }

}  // namespace

GameSpec toy_race_spec() {
  return {"toy_race",
          "a token race: turns of one or two sub-moves, ranked by tokens held",
          {{"players", std::int64_t{3}, "2..4"}, {"tokens", std::int64_t{7}, "the pile, 1..20"}},
          [](const GameParameters& params) -> std::shared_ptr<const Game> {
            const auto players = std::get<std::int64_t>(params.at("players"));
            const auto tokens = std::get<std::int64_t>(params.at("tokens"));
            if (players < 2 || players > kMaxPlayers) throw GameParameterError("toy_race: players must be 2..4");
            if (tokens < 1 || tokens > 20) throw GameParameterError("toy_race: tokens must be 1..20");
            return std::make_shared<RaceGame>(params);
          },
          {"players=2,tokens=5", "players=4,tokens=9"}};
}

}  // namespace boardlab
