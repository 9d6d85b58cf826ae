// toy_matrix: biased rock-paper-scissors played for `rounds` simultaneous rounds.
//
// Each round both players choose rock, paper or scissors at once; player 0 scores
// kToyMatrixPayoff[its choice][the other's] (paper beats rock by 1/2, scissors beat paper
// by 1/2, rock beats scissors by 1) and player 1 the opposite. Returns are the mean score
// over the rounds: zero-sum, in [-1, 1]. The unique equilibrium of a round is
// (1/4, 1/2, 1/4) for both players. Actions 0 1 2 are `R` `P` `S`; a round reads `R/P`.
// The observation: the last round's choices (one-hot, the viewer's first) and the rounds left.
#include <array>

#include "core/errors.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

constexpr char kNames[3] = {'R', 'P', 'S'};

class MatrixGame final : public Game {
 public:
  explicit MatrixGame(const GameParameters& params)
      : Game("toy_matrix", params), rounds_(static_cast<int>(std::get<std::int64_t>(params.at("rounds")))) {}
  GameType type() const override {
    GameType t;
    t.dynamics = Dynamics::kSimultaneous;
    return t;
  }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 3; }
  ObservationShape observation_shape() const override { return {7, 1, 1}; }
  int max_game_length() const override { return 2 * rounds_; }
  std::unique_ptr<State> new_initial_state() const override;
  int rounds() const { return rounds_; }

 private:
  int rounds_;
};

class MatrixState final : public State {
 public:
  explicit MatrixState(const MatrixGame& game) : State(game) {}

  Player current_player() const override {
    return round() == static_cast<const MatrixGame&>(game()).rounds() ? kTerminalPlayer : kSimultaneousPlayer;
  }
  int move_number() const override { return round(); }
  void legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (is_terminal() || (player != 0 && player != 1)) return;
    out = {0, 1, 2};
  }
  void apply(Action) override {
    throw IllegalActionError("toy_matrix: both players choose at once; use apply_joint");
  }
  void apply_joint(std::span<const Action> actions) override {
    if (is_terminal()) throw IllegalActionError("illegal joint action: the game is over");
    if (actions.size() != 2)
      throw IllegalActionError("illegal joint action: one action per player (2), got " + std::to_string(actions.size()));
    for (std::size_t p = 0; p < 2; ++p)
      if (actions[p] < 0 || actions[p] > 2)
        throw IllegalActionError("illegal action " + std::to_string(actions[p]) + " of P" + std::to_string(p) +
                                 ": actions are 0 (R), 1 (P) and 2 (S)");
    history_.push_back({0, actions[0]});
    history_.push_back({1, actions[1]});
    score_ += kToyMatrixPayoff[actions[0]][actions[1]];
  }
  void returns(std::span<double> out) const override {
    if (out.size() != 2) throw InputError("returns: buffer of the wrong size");
    const double mean = is_terminal() ? score_ / static_cast<const MatrixGame&>(game()).rounds() : 0.0;
    out[0] = mean;
    out[1] = -mean;
  }
  void observation(Player p, std::span<float> out) const override {
    if ((p != 0 && p != 1) || out.size() != 7) throw InputError("observation: bad player or buffer size");
    std::fill(out.begin(), out.end(), 0.0f);
    if (round() > 0) {
      out[history_[history_.size() - 2 + p].action] = 1.0f;
      out[3 + history_[history_.size() - 1 - p].action] = 1.0f;
    }
    const auto& g = static_cast<const MatrixGame&>(game());
    out[6] = static_cast<float>(g.rounds() - round()) / static_cast<float>(g.rounds());
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<MatrixState>(*this); }
  // The rounds played and the score decide the rest of the game; the last round's choices
  // are what the observation shows besides.
  std::uint64_t hash() const override {
    std::uint64_t h = 0xcbf29ce484222325ULL ^ static_cast<std::uint64_t>(round());
    h *= 0x100000001b3ULL;
    h = (h ^ static_cast<std::uint64_t>(static_cast<std::int64_t>(score_ * 4))) * 0x100000001b3ULL;
    const std::uint64_t last = round() > 0 ? static_cast<std::uint64_t>(1 + 3 * history_[history_.size() - 2].action +
                                                                         history_.back().action)
                                           : 0;
    return (h ^ last) * 0x100000001b3ULL;
  }
  std::string to_string() const override {
    std::string out = "round " + std::to_string(round()) + ", score " + std::to_string(score_);
    for (std::size_t i = 0; i < history_.size(); i += 2)
      out += std::string(i ? " " : ": ") + kNames[history_[i].action] + "/" + kNames[history_[i + 1].action];
    return out;
  }
  using State::action_to_string;
  using State::string_to_action;
  std::string action_to_string(Player, Action action) const override {
    if (action < 0 || action > 2) throw InputError("action " + std::to_string(action) + " is outside 0..2");
    return std::string(1, kNames[action]);
  }
  Action string_to_action(Player, std::string_view text) const override {
    for (Action a = 0; a < 3; ++a)
      if (text.size() == 1 && text[0] == kNames[a]) return a;
    throw NotationError("'" + std::string(text) + "' is not a toy_matrix action (R, P or S)");
  }
  std::vector<Step> history() const override { return history_; }

 private:
  int round() const { return static_cast<int>(history_.size() / 2); }

  double score_ = 0;
  std::vector<Step> history_;
};

std::unique_ptr<State> MatrixGame::new_initial_state() const { return std::make_unique<MatrixState>(*this); }

}  // namespace

GameSpec toy_matrix_spec() {
  return {"toy_matrix",
          "biased rock-paper-scissors, simultaneous rounds, equilibrium (1/4, 1/2, 1/4)",
          {{"rounds", std::int64_t{1}, "rounds played, 1..10"}},
          [](const GameParameters& params) -> std::shared_ptr<const Game> {
            const auto rounds = std::get<std::int64_t>(params.at("rounds"));
            if (rounds < 1 || rounds > 10) throw GameParameterError("toy_matrix: rounds must be 1..10");
            return std::make_shared<MatrixGame>(params);
          },
          {"rounds=3"}};
}

}  // namespace boardlab
