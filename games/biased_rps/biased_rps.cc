// Biased rock-paper-scissors' engine: `rounds` simultaneous rounds scored by one payoff table (rules in biased_rps.h).
#include "games/biased_rps/biased_rps.h"

#include <algorithm>
#include <array>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {
namespace {

constexpr char kNames[3] = {'R', 'P', 'S'};
constexpr int kMaxRounds = 10;
constexpr int kObservationSize = 7;

class RpsGame final : public Game {
 public:
  explicit RpsGame(const GameParameters& params)
      : Game("biased_rps", params), rounds_(static_cast<int>(std::get<std::int64_t>(params.at("rounds")))) {
    traits_.arena_opening_turns = 0;  // a random opening round would decide the game, not vary it
  }
  GameType type() const override {
    GameType t;
    t.dynamics = Dynamics::kSimultaneous;
    return t;
  }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 3; }
  ObservationShape observation_shape() const override { return {kObservationSize, 1, 1}; }
  int max_game_length() const override { return 2 * rounds_; }
  std::unique_ptr<State> new_initial_state() const override;
  int rounds() const { return rounds_; }

 private:
  int rounds_;
};

class RpsState final : public State {
 public:
  explicit RpsState(const RpsGame& game) : State(game) {}

  Player current_player() const override { return played_ == rounds() ? kTerminalPlayer : kSimultaneousPlayer; }
  int move_number() const override { return played_; }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (is_terminal() || (player != 0 && player != 1)) return;
    out.insert(out.end(), {0, 1, 2});
  }
  void apply(Action) override {
    throw IllegalActionError("biased_rps: both players choose at once; use apply_joint");
  }
  void apply_joint(std::span<const Action> actions) override {
    if (is_terminal()) throw IllegalActionError("illegal joint action: the game is over");
    if (actions.size() != 2)
      throw IllegalActionError("illegal joint action: one action per player (2), got " + std::to_string(actions.size()));
    for (std::size_t p = 0; p < 2; ++p)
      if (actions[p] < 0 || actions[p] > 2)
        throw IllegalActionError("illegal action " + std::to_string(actions[p]) + " of P" + std::to_string(p) +
                                 ": actions are 0 (R), 1 (P) and 2 (S)");
    choices_[played_] = {actions[0], actions[1]};
    ++played_;
    score_ += kBiasedRpsPayoff[actions[0]][actions[1]];
  }
  void write_returns(std::span<double> out) const override {
    if (out.size() != 2) throw InputError("returns: a buffer of 2 values is needed, got " + std::to_string(out.size()));
    const double mean = is_terminal() ? score_ / rounds() : 0.0;
    out[0] = mean;
    out[1] = -mean;
  }
  void observation(Player p, std::span<float> out) const override {
    if (p != 0 && p != 1) throw InputError("observation: player " + std::to_string(p) + " is not 0 or 1");
    if (out.size() != kObservationSize)
      throw InputError("observation: a buffer of " + std::to_string(kObservationSize) + " floats is needed, got " +
                       std::to_string(out.size()));
    std::fill(out.begin(), out.end(), 0.0f);
    if (played_ > 0) {
      const auto& last = choices_[played_ - 1];
      out[last[p]] = 1.0f;
      out[3 + last[1 - p]] = 1.0f;
    }
    out[6] = static_cast<float>(rounds() - played_) / static_cast<float>(rounds());
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<RpsState>(*this); }
  // The rounds played and the score decide the rest of the game; the last round's choices
  // are what the observation shows besides.
  std::uint64_t hash() const override {
    std::uint64_t h = 0xcbf29ce484222325ULL ^ static_cast<std::uint64_t>(played_);
    h *= 0x100000001b3ULL;
    h = (h ^ static_cast<std::uint64_t>(static_cast<std::int64_t>(score_ * 4))) * 0x100000001b3ULL;
    const std::uint64_t last =
        played_ > 0 ? static_cast<std::uint64_t>(1 + 3 * choices_[played_ - 1][0] + choices_[played_ - 1][1]) : 0;
    return (h ^ last) * 0x100000001b3ULL;
  }
  std::string to_string() const override {
    std::string out = "round " + std::to_string(played_) + ", score " + std::to_string(score_);
    for (int i = 0; i < played_; ++i)
      out += std::string(i ? " " : ": ") + kNames[choices_[i][0]] + "/" + kNames[choices_[i][1]];
    return out;
  }
  std::string action_text(Player, Action action) const override {
    if (action < 0 || action > 2) throw InputError("action " + std::to_string(action) + " is outside 0..2");
    return std::string(1, kNames[action]);
  }
  Action read_action(Player, std::string_view text) const override {
    for (Action a = 0; a < 3; ++a)
      if (text.size() == 1 && text[0] == kNames[a]) return a;
    throw NotationError(quote_input(text) + " is not a biased_rps action (R, P or S)");
  }
  std::vector<Step> history() const override {
    std::vector<Step> out;
    out.reserve(2 * static_cast<std::size_t>(played_));
    for (int i = 0; i < played_; ++i) {
      out.push_back({0, choices_[i][0]});
      out.push_back({1, choices_[i][1]});
    }
    return out;
  }

 private:
  int rounds() const { return static_cast<const RpsGame&>(game()).rounds(); }

  int played_ = 0;
  double score_ = 0;
  std::array<std::array<Action, 2>, kMaxRounds> choices_{};
};

std::unique_ptr<State> RpsGame::new_initial_state() const { return std::make_unique<RpsState>(*this); }

}  // namespace

GameSpec biased_rps_spec() {
  return {"biased_rps",
          "Biased rock-paper-scissors: simultaneous rounds, rock's win counts double, equilibrium (1/4, 1/2, 1/4)",
          {{"rounds", std::int64_t{1}, "rounds played, 1..10"}},
          [](const GameParameters& params) -> std::shared_ptr<const Game> {
            const auto rounds = std::get<std::int64_t>(params.at("rounds"));
            if (rounds < 1 || rounds > kMaxRounds)
              throw GameParameterError("biased_rps: rounds must be 1..10, got " + std::to_string(rounds));
            return std::make_shared<RpsGame>(params);
          },
          {"rounds=3"}};
}

}  // namespace boardlab
