// Kuhn poker's engine: a deal of two cards from three, then at most three betting steps (rules in kuhn_poker.h).
#include "games/kuhn_poker/kuhn_poker.h"

#include <algorithm>
#include <array>

#include "core/errors.h"
#include "core/text.h"
#include "games/kuhn_poker/kuhn_poker_heuristic.h"

namespace boardlab {
namespace {

constexpr char kCards[3] = {'J', 'Q', 'K'};
constexpr Action kPass = 0, kBet = 1;
constexpr int kMaxBets = 3;
constexpr int kObservationSize = 2 + 3 + 2 * kMaxBets;

class KuhnGame final : public Game {
 public:
  explicit KuhnGame(const GameParameters& params) : Game("kuhn_poker", params) {
    traits_.arena_opening_turns = 0;  // the deal varies the games
  }
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
  ObservationShape observation_shape() const override { return {kObservationSize, 1, 1}; }
  int max_game_length() const override { return 2 + kMaxBets; }
  std::unique_ptr<State> new_initial_state() const override;
};

void check_seat(Player p, const char* what) {
  if (p != 0 && p != 1) throw InputError(std::string(what) + ": player " + std::to_string(p) + " is not 0 or 1");
}

class KuhnState final : public State {
 public:
  explicit KuhnState(const KuhnGame& game) : State(game) {}

  Player current_player() const override {
    if (dealt_ < 2) return kChancePlayer;
    if (over()) return kTerminalPlayer;
    return static_cast<Player>(bets_ % 2);
  }
  int move_number() const override { return dealt_ + bets_; }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (is_terminal() || player != current_player()) return;
    if (player == kChancePlayer) {
      for (Action c = 0; c < 3; ++c)
        if (dealt_ == 0 || c != card_[0]) out.push_back(c);
    } else {
      out.push_back(kPass);
      out.push_back(kBet);
    }
  }
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override {
    if (!is_chance_node()) return State::chance_outcomes(out);
    out.clear();
    const double p = dealt_ == 0 ? 1.0 / 3 : 0.5;
    for (Action c = 0; c < 3; ++c)
      if (dealt_ == 0 || c != card_[0]) out.push_back({c, p});
  }
  void apply(Action action) override {
    const Player actor = current_player();
    if (actor == kTerminalPlayer) throw IllegalActionError("illegal action " + std::to_string(action) + ": the game is over");
    if (actor == kChancePlayer) {
      if (action < 0 || action > 2 || (dealt_ == 1 && action == card_[0]))
        throw IllegalActionError("illegal action " + std::to_string(action) + ": that card is not in the deck" +
                                 (dealt_ == 1 ? " (the deck holds J 0, Q 1 and K 2 but player 0's card)"
                                              : " (the deck holds J 0, Q 1 and K 2)"));
      card_[dealt_++] = action;
      return;
    }
    if (action != kPass && action != kBet)
      throw IllegalActionError("illegal action " + std::to_string(action) + ": a player passes (0) or bets (1)");
    line_[bets_++] = action;
  }
  void write_returns(std::span<double> out) const override {
    if (out.size() != 2) throw InputError("returns: a buffer of 2 values is needed, got " + std::to_string(out.size()));
    out[0] = out[1] = 0;
    if (dealt_ < 2 || !over()) return;
    double to_zero;  // what player 0 wins
    const Player folder = folded();
    if (folder >= 0) {
      to_zero = folder == 0 ? -1 : 1;
    } else {
      const bool raised = std::find(line_.begin(), line_.begin() + bets_, kBet) != line_.begin() + bets_;
      to_zero = (card_[0] > card_[1] ? 1 : -1) * (raised ? 2 : 1);
    }
    out[0] = to_zero;
    out[1] = -to_zero;
  }
  void observation(Player p, std::span<float> out) const override {
    check_seat(p, "observation");
    if (out.size() != kObservationSize)
      throw InputError("observation: a buffer of " + std::to_string(kObservationSize) + " floats is needed, got " +
                       std::to_string(out.size()));
    std::fill(out.begin(), out.end(), 0.0f);
    out[p] = 1.0f;
    if (dealt_ > p) out[2 + card_[p]] = 1.0f;
    for (int i = 0; i < bets_; ++i) out[5 + 2 * i + line_[i]] = 1.0f;
  }
  // Seat, own card (0 before it is dealt), cards dealt so far and the betting, packed
  // exactly: two different information states never share a key.
  std::uint64_t information_key(Player p) const override {
    check_seat(p, "information_key");
    std::uint64_t key = 0x51ed27ULL + static_cast<std::uint64_t>(p);
    key = key * 8 + (dealt_ > p ? static_cast<std::uint64_t>(card_[p]) + 1 : 0);
    key = key * 8 + static_cast<std::uint64_t>(dealt_);
    for (int i = 0; i < bets_; ++i) key = key * 4 + static_cast<std::uint64_t>(line_[i]) + 1;
    return key;
  }
  std::unique_ptr<State> sample_hidden(Player p, Rng& rng) const override {
    check_seat(p, "sample_hidden");
    auto out = std::make_unique<KuhnState>(*this);
    const int other = 1 - p;
    if (dealt_ > other) {
      // The other card is any card p does not hold, each equally likely.
      std::array<Action, 3> candidates{};
      std::uint32_t n = 0;
      for (Action c = 0; c < 3; ++c)
        if (dealt_ <= p || c != card_[p]) candidates[n++] = c;
      out->card_[other] = candidates[rng.below(n)];
    }
    return out;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<KuhnState>(*this); }
  std::uint64_t hash() const override {
    std::uint64_t h = 0x3c6ef372fe94f82bULL;
    for (int i = 0; i < dealt_; ++i) h = (h ^ static_cast<std::uint64_t>(card_[i] + 1 + 4 * i)) * 0x100000001b3ULL;
    for (int i = 0; i < bets_; ++i) h = (h ^ static_cast<std::uint64_t>(line_[i] + 16)) * 0x100000001b3ULL;
    return (h ^ static_cast<std::uint64_t>(dealt_ + 8 * bets_)) * 0x100000001b3ULL;
  }
  std::string to_string() const override {
    std::string out = "cards ";
    for (int i = 0; i < 2; ++i) out += i < dealt_ ? kCards[card_[i]] : '-';
    out += ", betting '";
    for (int i = 0; i < bets_; ++i) out += line_[i] == kPass ? 'p' : 'b';
    return out + "'" + (over() ? ", over" : "");
  }
  std::string action_text(Player actor, Action action) const override {
    if (actor == kChancePlayer) {
      if (action < 0 || action > 2) throw InputError("card " + std::to_string(action) + " is outside 0..2");
      return std::string(1, kCards[action]);
    }
    if (action != kPass && action != kBet) throw InputError("action " + std::to_string(action) + " is not 0 or 1");
    return action == kPass ? "p" : "b";
  }
  Action read_action(Player actor, std::string_view text) const override {
    if (actor == kChancePlayer) {
      for (Action c = 0; c < 3; ++c)
        if (text.size() == 1 && text[0] == kCards[c]) return c;
      throw NotationError(quote_input(text) + " is not a card (J, Q or K)");
    }
    if (text == "p") return kPass;
    if (text == "b") return kBet;
    throw NotationError(quote_input(text) + " is not a Kuhn poker action (p or b)");
  }
  // A dealt card is seen by the player who gets it; bets are public.
  std::string action_seen_by(Player viewer, Player actor, Action action) const override {
    if (actor == kChancePlayer && viewer != dealt_) return "?";
    return action_to_string(actor, action);
  }
  std::vector<Step> history() const override {
    std::vector<Step> out;
    out.reserve(static_cast<std::size_t>(dealt_ + bets_));
    for (int i = 0; i < dealt_; ++i) out.push_back({kChancePlayer, card_[i]});
    for (int i = 0; i < bets_; ++i) out.push_back({static_cast<Player>(i % 2), line_[i]});
    return out;
  }

 private:
  // The player who passed facing a bet, or -1.
  Player folded() const {
    if (bets_ < 2 || line_[bets_ - 1] != kPass || line_[bets_ - 2] != kBet) return -1;
    return static_cast<Player>((bets_ - 1) % 2);
  }
  // pp, bp, bb, pbp and pbb end the game; only p and pb go on.
  bool over() const { return bets_ == kMaxBets || (bets_ == 2 && !(line_[0] == kPass && line_[1] == kBet)); }

  int dealt_ = 0;
  int bets_ = 0;
  std::array<Action, 2> card_{};
  std::array<Action, kMaxBets> line_{};
};

std::unique_ptr<State> KuhnGame::new_initial_state() const { return std::make_unique<KuhnState>(*this); }

}  // namespace

GameSpec kuhn_poker_spec() {
  GameSpec spec{"kuhn_poker", "Kuhn poker: three cards, one hidden card each dealt by chance, one bet (exact answers known)",
                {},
                [](const GameParameters& params) -> std::shared_ptr<const Game> { return std::make_shared<KuhnGame>(params); },
                {}};
  spec.heuristic = make_kuhn_poker_heuristic;
  return spec;
}

}  // namespace boardlab
