// toy_kuhn: Kuhn poker, the smallest poker: hidden cards dealt by chance, two betting rounds at most.
//
// Three cards J < Q < K. Each player antes 1; chance deals one card to player 0, then one to
// player 1 (two chance steps, each its own turn). Player 0 passes or bets 1; after a pass
// player 1 passes (showdown for 1) or bets, which player 0 calls (showdown for 2) or folds;
// after a bet player 1 calls (showdown for 2) or folds. The higher card wins the showdown.
// Returns are the chips won: in [-2, 2], zero-sum; player 0's equilibrium value is -1/18.
// Actions: chance deals 0 1 2 (`J` `Q` `K`), players pass 0 (`p`) or bet 1 (`b`).
// Hidden information: a player sees its own card only; the other's card reads `?` in its
// record and in the public one. The observation is the viewer's seat, its card and the
// betting so far (3 rounds × pass/bet), as in OpenSpiel's information-state tensor.
#include <algorithm>
#include <array>

#include "core/errors.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

constexpr char kCards[3] = {'J', 'Q', 'K'};
constexpr Action kPass = 0, kBet = 1;

class KuhnGame final : public Game {
 public:
  explicit KuhnGame(const GameParameters& params) : Game("toy_kuhn", params) {}
  GameType type() const override {
    GameType t;
    t.chance = Chance::kSetup;
    t.information = Information::kImperfect;
    t.min_return = -2;
    t.max_return = 2;
    return t;
  }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 3; }
  ObservationShape observation_shape() const override { return {11, 1, 1}; }
  int max_game_length() const override { return 5; }
  std::unique_ptr<State> new_initial_state() const override;
};

class KuhnState final : public State {
 public:
  explicit KuhnState(const KuhnGame& game) : State(game) {}

  Player current_player() const override {
    if (dealt_ < 2) return kChancePlayer;
    if (over()) return kTerminalPlayer;
    return static_cast<Player>(bets_.size() % 2);
  }
  int move_number() const override { return dealt_ + static_cast<int>(bets_.size()); }
  void legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (player != current_player() || is_terminal()) return;  // nobody acts at the end
    if (player == kChancePlayer) {
      for (Action c = 0; c < 3; ++c)
        if (dealt_ == 0 || c != card_[0]) out.push_back(c);
    } else {
      out = {kPass, kBet};
    }
  }
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override {
    if (!is_chance_node()) return State::chance_outcomes(out);
    out.clear();
    std::vector<Action> cards;
    legal_actions(kChancePlayer, cards);
    for (Action c : cards) out.push_back({c, 1.0 / static_cast<double>(cards.size())});
  }
  void apply(Action action) override {
    const Player actor = current_player();
    std::vector<Action> legal;
    legal_actions(actor, legal);
    if (std::find(legal.begin(), legal.end(), action) == legal.end())
      throw IllegalActionError("illegal action " + std::to_string(action) + ": " +
                               (actor == kTerminalPlayer ? std::string("the game is over")
                                : actor == kChancePlayer ? std::string("that card is not in the deck")
                                                         : std::string("a player passes (0) or bets (1)")));
    if (actor == kChancePlayer) {
      card_[dealt_++] = action;
    } else {
      bets_.push_back(action);
    }
  }
  void returns(std::span<double> out) const override {
    if (out.size() != 2) throw InputError("returns: buffer of the wrong size");
    out[0] = out[1] = 0;
    if (!over()) return;
    const std::string line = betting();
    double to_zero;  // what player 0 wins
    if (line == "bp") to_zero = 1;        // player 1 folded
    else if (line == "pbp") to_zero = -1;  // player 0 folded
    else to_zero = (card_[0] > card_[1] ? 1 : -1) * (line == "pp" ? 1 : 2);
    out[0] = to_zero;
    out[1] = -to_zero;
  }
  void observation(Player p, std::span<float> out) const override {
    if ((p != 0 && p != 1) || out.size() != 11) throw InputError("observation: bad player or buffer size");
    std::fill(out.begin(), out.end(), 0.0f);
    out[p] = 1.0f;
    if (dealt_ > p) out[2 + card_[p]] = 1.0f;
    for (std::size_t i = 0; i < bets_.size(); ++i) out[5 + 2 * i + bets_[i]] = 1.0f;
  }
  std::uint64_t information_key(Player p) const override {
    if (p != 0 && p != 1) throw InputError("information_key: player " + std::to_string(p) + " is not 0 or 1");
    std::uint64_t key = 0x51ed27ULL + static_cast<std::uint64_t>(p);
    key = key * 8 + (dealt_ > p ? static_cast<std::uint64_t>(card_[p]) + 1 : 0);
    key = key * 8 + static_cast<std::uint64_t>(std::min(dealt_, 2));
    for (Action b : bets_) key = key * 4 + static_cast<std::uint64_t>(b) + 1;
    return key;
  }
  std::unique_ptr<State> sample_hidden(Player p, Rng& rng) const override {
    if (p != 0 && p != 1) throw InputError("sample_hidden: player " + std::to_string(p) + " is not 0 or 1");
    auto out = std::make_unique<KuhnState>(*this);
    const int other = 1 - p;
    if (dealt_ > other) {
      // The other card is either card p does not hold, with equal chance.
      std::vector<Action> candidates;
      for (Action c = 0; c < 3; ++c)
        if (dealt_ <= p || c != card_[p]) candidates.push_back(c);
      out->card_[other] = candidates[rng.below(static_cast<std::uint32_t>(candidates.size()))];
    }
    return out;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<KuhnState>(*this); }
  std::uint64_t hash() const override {
    std::uint64_t h = 0x3c6ef372fe94f82bULL;
    for (int i = 0; i < dealt_; ++i) h = (h ^ static_cast<std::uint64_t>(card_[i] + 1 + 4 * i)) * 0x100000001b3ULL;
    for (Action b : bets_) h = (h ^ static_cast<std::uint64_t>(b + 16)) * 0x100000001b3ULL;
    return (h ^ static_cast<std::uint64_t>(dealt_ + 8 * bets_.size())) * 0x100000001b3ULL;
  }
  std::string to_string() const override {
    std::string out = "cards ";
    for (int i = 0; i < 2; ++i) out += i < dealt_ ? kCards[card_[i]] : '-';
    return out + ", betting '" + betting() + "'" + (over() ? ", over" : "");
  }
  using State::action_to_string;
  using State::string_to_action;
  std::string action_to_string(Player actor, Action action) const override {
    if (actor == kChancePlayer) {
      if (action < 0 || action > 2) throw InputError("card " + std::to_string(action) + " is outside 0..2");
      return std::string(1, kCards[action]);
    }
    if (action != kPass && action != kBet) throw InputError("action " + std::to_string(action) + " is not 0 or 1");
    return action == kPass ? "p" : "b";
  }
  Action string_to_action(Player actor, std::string_view text) const override {
    if (actor == kChancePlayer) {
      for (Action c = 0; c < 3; ++c)
        if (text.size() == 1 && text[0] == kCards[c]) return c;
      throw NotationError("'" + std::string(text) + "' is not a card (J, Q or K)");
    }
    if (text == "p") return kPass;
    if (text == "b") return kBet;
    throw NotationError("'" + std::string(text) + "' is not a Kuhn action (p or b)");
  }
  // A dealt card is seen by the player who gets it; bets are public.
  std::string action_seen_by(Player viewer, Player actor, Action action) const override {
    if (actor == kChancePlayer && viewer != dealt_) return "?";
    return action_to_string(actor, action);
  }
  std::vector<Step> history() const override {
    std::vector<Step> out;
    for (int i = 0; i < dealt_; ++i) out.push_back({kChancePlayer, card_[i]});
    for (Action b : bets_) out.push_back({static_cast<Player>(out.size() % 2), b});
    return out;
  }

 private:
  std::string betting() const {
    std::string out;
    for (Action b : bets_) out += b == kPass ? 'p' : 'b';
    return out;
  }
  bool over() const {
    const std::string line = betting();
    return line == "pp" || line == "bb" || line == "bp" || line == "pbb" || line == "pbp";
  }

  int dealt_ = 0;
  std::array<Action, 2> card_{};
  std::vector<Action> bets_;
};

std::unique_ptr<State> KuhnGame::new_initial_state() const { return std::make_unique<KuhnState>(*this); }

}  // namespace

GameSpec toy_kuhn_spec() {
  return {"toy_kuhn", "Kuhn poker: one hidden card each, dealt by chance, one bet",
          {},
          [](const GameParameters& params) -> std::shared_ptr<const Game> { return std::make_shared<KuhnGame>(params); },
          {}};
}

}  // namespace boardlab
