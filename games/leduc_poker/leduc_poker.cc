// Leduc hold'em's engine: three deals and two betting rounds on fixed arrays, no allocation per step (rules in leduc_poker.h).
#include "games/leduc_poker/leduc_poker.h"

#include <algorithm>
#include <array>

#include "core/errors.h"
#include "core/text.h"
#include "games/leduc_poker/leduc_poker_heuristic.h"

namespace boardlab {
namespace {

constexpr Action kFold = 0, kCall = 1, kRaise = 2;
constexpr int kDeck = 6;
constexpr int kRounds = 2;
constexpr int kMaxRaises = 2;
// c r r c: a check, two raises and the call that ends the round.
constexpr int kMaxBetsPerRound = 2 + kMaxRaises;
constexpr int kRaiseSize[kRounds] = {2, 4};
constexpr int kMaxStake = 1 + kMaxRaises * (2 + 4);
constexpr int kObservationSize = 2 + 2 * kDeck + kRounds * kMaxBetsPerRound * 2;
constexpr const char* kCardNames[kDeck] = {"Js", "Jh", "Qs", "Qh", "Ks", "Kh"};
constexpr char kBetNames[3] = {'f', 'c', 'r'};
constexpr int kBettingBits = kRounds * (3 + 2 * kMaxBetsPerRound);

int rank_of(Action card) { return card / 2; }

void check_seat(Player p, const char* what) {
  if (p != 0 && p != 1) throw InputError(std::string(what) + ": player " + std::to_string(p) + " is not 0 or 1");
}

// The murmur3 finalizer: a bijection, so packed states stay distinct and spread over the bits.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

class LeducGame final : public Game {
 public:
  explicit LeducGame(const GameParameters& params) : Game("leduc_poker", params) {
    traits_.arena_opening_turns = 0;  // the deal varies the games
  }
  GameType type() const override {
    GameType t;
    t.chance = Chance::kChanceNodes;
    t.information = Information::kImperfect;
    t.min_return = -kMaxStake;
    t.max_return = kMaxStake;
    return t;
  }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return kDeck; }
  ObservationShape observation_shape() const override { return {kObservationSize, 1, 1}; }
  int max_game_length() const override { return 3 + kRounds * kMaxBetsPerRound; }
  std::unique_ptr<State> new_initial_state() const override;
};

class LeducState final : public State {
 public:
  explicit LeducState(const LeducGame& game) : State(game) {}

  Player current_player() const override {
    if (folded_ >= 0) return kTerminalPlayer;
    if (dealt_ < 2) return kChancePlayer;
    if (round_over()) return dealt_ == 2 ? kChancePlayer : kTerminalPlayer;
    return static_cast<Player>(count_[round()] % 2);
  }
  int move_number() const override { return dealt_ + count_[0] + count_[1]; }
  void list_legal_actions(Player player, std::vector<Action>& out) const override;
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override;
  void apply(Action action) override;
  void write_returns(std::span<double> out) const override;
  void observation(Player p, std::span<float> out) const override;
  std::uint64_t information_key(Player p) const override;
  std::unique_ptr<State> sample_hidden(Player p, Rng& rng) const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<LeducState>(*this); }
  std::uint64_t hash() const override;
  std::string to_string() const override;
  std::string action_text(Player actor, Action action) const override;
  Action read_action(Player actor, std::string_view text) const override;
  // A private card is seen by the player who gets it; the public card and the bets by all.
  std::string action_seen_by(Player viewer, Player actor, Action action) const override {
    if (actor == kChancePlayer && dealt_ < 2 && viewer != dealt_) return "?";
    return action_to_string(actor, action);
  }
  std::vector<Step> history() const override;

 private:
  int round() const { return dealt_ == 3 ? 1 : 0; }
  // Whether the current round's betting is done: a call ends it unless it is the round's
  // first step (a check, which the other player answers).
  bool round_over() const {
    const int n = count_[round()];
    return n >= 2 && line_[round()][n - 1] == kCall;
  }
  int raises() const {
    const auto& line = line_[round()];
    return static_cast<int>(std::count(line.begin(), line.begin() + count_[round()], kRaise));
  }
  bool in_deck(Action card) const {
    return card >= 0 && card < kDeck && std::find(card_.begin(), card_.begin() + dealt_, card) == card_.begin() + dealt_;
  }
  // The betting of both rounds packed in kBettingBits: per round 3 bits of count, then 2 bits
  // per step in fixed places.
  std::uint64_t betting_code() const {
    std::uint64_t code = 0;
    for (int r = 0; r < kRounds; ++r) {
      std::uint64_t part = static_cast<std::uint64_t>(count_[r]);
      for (int i = 0; i < kMaxBetsPerRound; ++i)
        part = part * 4 + (i < count_[r] ? static_cast<std::uint64_t>(line_[r][i]) : 0);
      code = (code << (kBettingBits / kRounds)) | part;
    }
    return code;
  }

  int dealt_ = 0;         // cards dealt: player 0's, player 1's, then the public card
  Player folded_ = -1;    // the player who folded, or -1
  std::array<Action, 3> card_{};
  std::array<int, 2> stake_{1, 1};  // chips each player has put in the pot
  std::array<int, kRounds> count_{};
  std::array<std::array<Action, kMaxBetsPerRound>, kRounds> line_{};
};

void LeducState::list_legal_actions(Player player, std::vector<Action>& out) const {
  out.clear();
  const Player actor = current_player();
  if (player != actor || actor == kTerminalPlayer) return;
  if (actor == kChancePlayer) {
    for (Action c = 0; c < kDeck; ++c)
      if (in_deck(c)) out.push_back(c);
    return;
  }
  if (stake_[actor] < stake_[1 - actor]) out.push_back(kFold);
  out.push_back(kCall);
  if (raises() < kMaxRaises) out.push_back(kRaise);
}

void LeducState::chance_outcomes(std::vector<ChanceOutcome>& out) const {
  if (!is_chance_node()) return State::chance_outcomes(out);
  out.clear();
  const double p = 1.0 / static_cast<double>(kDeck - dealt_);
  for (Action c = 0; c < kDeck; ++c)
    if (in_deck(c)) out.push_back({c, p});
}

void LeducState::apply(Action action) {
  const Player actor = current_player();
  const std::string illegal = "illegal action " + std::to_string(action) + ": ";
  if (actor == kTerminalPlayer) throw IllegalActionError(illegal + "the game is over");
  if (actor == kChancePlayer) {
    if (!in_deck(action))
      throw IllegalActionError(illegal + (action < 0 || action >= kDeck
                                              ? std::string("the cards are 0..5 (Js Jh Qs Qh Ks Kh)")
                                              : std::string("that card is not in the deck (") + kCardNames[action] +
                                                    " was dealt)"));
    card_[dealt_++] = action;
    return;
  }
  const Player other = 1 - actor;
  if (action < kFold || action > kRaise)
    throw IllegalActionError(illegal + "a player folds (0), calls (1) or raises (2)");
  if (action == kFold && stake_[actor] == stake_[other])
    throw IllegalActionError(illegal + "no bet to fold to: check (1) instead");
  if (action == kRaise && raises() == kMaxRaises)
    throw IllegalActionError(illegal + "this round already holds two raises: fold (0) or call (1)");
  if (action == kFold) folded_ = actor;
  else stake_[actor] = stake_[other] + (action == kRaise ? kRaiseSize[round()] : 0);
  line_[round()][count_[round()]++] = action;
}

void LeducState::write_returns(std::span<double> out) const {
  if (out.size() != 2) throw InputError("returns: a buffer of 2 values is needed, got " + std::to_string(out.size()));
  out[0] = out[1] = 0;
  if (!is_terminal()) return;
  Player winner;
  if (folded_ >= 0) {
    winner = 1 - folded_;
  } else {
    const int shown = rank_of(card_[2]);
    const int r0 = rank_of(card_[0]), r1 = rank_of(card_[1]);
    if (r0 == r1) return;  // equal ranks split the pot: both get their stake back
    winner = r0 == shown ? 0 : r1 == shown ? 1 : r0 > r1 ? 0 : 1;
  }
  // The loser's stake goes to the winner.
  const double won = stake_[1 - winner];
  out[winner] = won;
  out[1 - winner] = -won;
}

void LeducState::observation(Player p, std::span<float> out) const {
  check_seat(p, "observation");
  if (out.size() != kObservationSize)
    throw InputError("observation: a buffer of " + std::to_string(kObservationSize) + " floats is needed, got " +
                     std::to_string(out.size()));
  std::fill(out.begin(), out.end(), 0.0f);
  out[p] = 1.0f;
  if (dealt_ > p) out[2 + card_[p]] = 1.0f;
  if (dealt_ == 3) out[2 + kDeck + card_[2]] = 1.0f;
  for (int r = 0; r < kRounds; ++r)
    for (int i = 0; i < count_[r]; ++i)
      if (line_[r][i] != kFold) out[2 + 2 * kDeck + 2 * (r * kMaxBetsPerRound + i) + (line_[r][i] == kRaise)] = 1.0f;
}

// Seat, own card, cards dealt, public card and betting, packed exactly (no two information
// states share a key) and mixed.
std::uint64_t LeducState::information_key(Player p) const {
  check_seat(p, "information_key");
  std::uint64_t key = 0x1edcULL * 2 + static_cast<std::uint64_t>(p);
  key = key * 8 + (dealt_ > p ? static_cast<std::uint64_t>(card_[p]) + 1 : 0);
  key = key * 4 + static_cast<std::uint64_t>(dealt_);
  key = key * 8 + (dealt_ == 3 ? static_cast<std::uint64_t>(card_[2]) + 1 : 0);
  return mix((key << kBettingBits) | betting_code());
}

std::uint64_t LeducState::hash() const {
  std::uint64_t code = 0x1ed0cULL;
  for (int i = 0; i < 3; ++i) code = code * 8 + (i < dealt_ ? static_cast<std::uint64_t>(card_[i]) + 1 : 0);
  return mix((code << kBettingBits) | betting_code());
}

std::unique_ptr<State> LeducState::sample_hidden(Player p, Rng& rng) const {
  check_seat(p, "sample_hidden");
  auto out = std::make_unique<LeducState>(*this);
  const int other = 1 - p;
  if (dealt_ <= other) return out;
  // The other private card: any card that p has not seen, each equally likely.
  std::array<Action, kDeck> candidates{};
  std::uint32_t n = 0;
  for (Action c = 0; c < kDeck; ++c) {
    const bool seen = (dealt_ > p && c == card_[p]) || (dealt_ == 3 && c == card_[2]);
    if (!seen) candidates[n++] = c;
  }
  out->card_[other] = candidates[rng.below(n)];
  return out;
}

std::string LeducState::to_string() const {
  std::string out;
  for (int p = 0; p < 2; ++p) out += "P" + std::to_string(p) + " " + (dealt_ > p ? kCardNames[card_[p]] : "--") + ", ";
  out += std::string("public ") + (dealt_ == 3 ? kCardNames[card_[2]] : "--");
  out += "; stakes " + std::to_string(stake_[0]) + " " + std::to_string(stake_[1]) + "; betting '";
  for (int r = 0; r <= round(); ++r) {
    if (r == 1) out += '/';  // the rounds apart once the public card is out
    for (int i = 0; i < count_[r]; ++i) out += kBetNames[line_[r][i]];
  }
  out += "'";
  if (folded_ >= 0) out += "; P" + std::to_string(folded_) + " folded";
  return out + (is_terminal() ? "; over" : "");
}

std::string LeducState::action_text(Player actor, Action action) const {
  if (actor == kChancePlayer) {
    if (action < 0 || action >= kDeck) throw InputError("card " + std::to_string(action) + " is outside 0..5");
    return kCardNames[action];
  }
  if (action < kFold || action > kRaise) throw InputError("action " + std::to_string(action) + " is outside 0..2");
  return std::string(1, kBetNames[action]);
}

Action LeducState::read_action(Player actor, std::string_view text) const {
  if (actor == kChancePlayer) {
    for (Action c = 0; c < kDeck; ++c)
      if (text == kCardNames[c]) return c;
    throw NotationError(quote_input(text) + " is not a card (Js Jh Qs Qh Ks Kh)");
  }
  for (Action a = kFold; a <= kRaise; ++a)
    if (text.size() == 1 && text[0] == kBetNames[a]) return a;
  throw NotationError(quote_input(text) + " is not a Leduc poker action (f, c or r)");
}

std::vector<Step> LeducState::history() const {
  std::vector<Step> out;
  out.reserve(static_cast<std::size_t>(move_number()));
  for (int i = 0; i < std::min(dealt_, 2); ++i) out.push_back({kChancePlayer, card_[i]});
  for (int r = 0; r < kRounds; ++r) {
    if (r == 1 && dealt_ == 3) out.push_back({kChancePlayer, card_[2]});
    for (int i = 0; i < count_[r]; ++i) out.push_back({static_cast<Player>(i % 2), line_[r][i]});
  }
  return out;
}

std::unique_ptr<State> LeducGame::new_initial_state() const { return std::make_unique<LeducState>(*this); }

}  // namespace

GameSpec leduc_poker_spec() {
  GameSpec spec{"leduc_poker",
                "Leduc hold'em: six cards, a private and a public card, two betting rounds (exact answers known)",
                {},
                [](const GameParameters& params) -> std::shared_ptr<const Game> { return std::make_shared<LeducGame>(params); },
                {}};
  spec.heuristic = make_leduc_poker_heuristic;
  return spec;
}

}  // namespace boardlab
