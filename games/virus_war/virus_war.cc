// Virus War rules on bitboards: reachability, turns of three sub-moves, passes, strict mode.
#include "games/virus_war/virus_war.h"

#include <algorithm>
#include <cctype>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {
namespace {

constexpr std::string_view kFiles = "abcdefghik";
constexpr int kHomeCorner[2] = {0, kBoardCells - 1};  // a1 for X, k10 for O
constexpr const char* kPlayerName[2] = {"X", "O"};

// Zobrist keys: [cell][content − 1] for the four non-empty contents, then the turn part.
struct ZobristKeys {
  std::uint64_t cell[kBoardCells][4];
  std::uint64_t mover[2];
  std::uint64_t sub_move[3];
  std::uint64_t passed;
  std::uint64_t outcome[3];
};

constexpr ZobristKeys make_keys() {
  ZobristKeys keys{};
  std::uint64_t x = 0x5eedb0a4d1abULL;
  auto next = [&x]() {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  for (auto& cell : keys.cell)
    for (auto& key : cell) key = next();
  for (auto& key : keys.mover) key = next();
  for (auto& key : keys.sub_move) key = next();
  keys.passed = next();
  for (auto& key : keys.outcome) key = next();
  return keys;
}
constexpr ZobristKeys kKeys = make_keys();

std::uint64_t cell_key(int cell, VirusWarState::Cell content) {
  return kKeys.cell[cell][static_cast<int>(content) - 1];
}

// Enemy dead symbols 8-connected to `live` through each other: the chains `live` conducts along.
Bits active_chains(Bits live, Bits enemy_dead) {
  Bits chains = dilate(live) & enemy_dead;
  while (true) {
    const Bits grown = dilate(chains) & enemy_dead;
    if (grown == chains) return chains;
    chains = grown;
  }
}

Bits reachable_cells(Bits live, Bits enemy_dead) { return dilate(live | active_chains(live, enemy_dead)); }

Bits targets_of(Player p, const Bits live[2], const Bits dead[2]) {
  const Bits empty = kAllCells & ~(live[0] | live[1] | dead[0] | dead[1]);
  if ((live[p] | dead[p]) == 0) return empty & bit(kHomeCorner[p]);  // entering: the home corner only
  return reachable_cells(live[p], dead[1 - p]) & (empty | live[1 - p]);
}

int view_cell(Player viewer, int cell) { return viewer == 1 ? kBoardCells - 1 - cell : cell; }

}  // namespace

// ---------------------------------------------------------------------------- game

VirusWarGame::VirusWarGame(const GameParameters& params)
    : Game("virus_war", params), strict_(std::get<bool>(params.at("strict"))) {
  Symmetry transpose{"transpose a1-k10", std::vector<int>(kBoardCells), std::vector<Action>(kNumActions), {}, {}};
  for (int cell = 0; cell < kBoardCells; ++cell) {
    const int image = (cell % kBoardSide) * kBoardSide + cell / kBoardSide;
    transpose.cell[cell] = image;
    transpose.action[cell] = image;
  }
  transpose.action[kPass] = kPass;
  symmetries_.push_back(std::move(transpose));
}

ActionLayout VirusWarGame::action_layout() const {
  ActionLayout layout;
  layout.planes = 1;
  for (int cell = 0; cell < kBoardCells; ++cell) layout.slot.push_back(cell);
  layout.slot.push_back(-1);  // pass
  return layout;
}

Action VirusWarGame::action_to_view(Player viewer, Action action) const {
  return action >= 0 && action < kBoardCells ? view_cell(viewer, action) : action;
}

std::unique_ptr<State> VirusWarGame::new_initial_state() const { return std::make_unique<VirusWarState>(*this); }

GameType VirusWarGame::type() const { return {}; }  // sequential, deterministic, perfect information, zero-sum ±1

std::vector<std::string> VirusWarGame::split_turn(std::string_view turn, bool simultaneous) const {
  if (turn == "--") return {std::string(turn)};  // the pass's other spelling, not two separators
  return Game::split_turn(turn, simultaneous);
}

GameSpec virus_war_spec() {
  return {"virus_war",
          "Virus War: two colonies on 10x10 grow and kill in turns of three sub-moves",
          {{"strict", false,
            "computer rules: no voluntary pass, a player unable to make a full turn loses, no draw"}},
          [](const GameParameters& params) { return std::make_shared<VirusWarGame>(params); },
          {"strict=true"}};
}

// ---------------------------------------------------------------------------- state

VirusWarState::VirusWarState(const VirusWarGame& game) : State(game), strict_(game.strict()) { start_turn(); }

std::unique_ptr<VirusWarState> VirusWarState::from_diagram(const VirusWarGame& game, std::string_view diagram,
                                                           Player to_move) {
  if (to_move != 0 && to_move != 1)
    throw InputError("from_diagram: the player to move must be 0 (X) or 1 (O), not " + std::to_string(to_move));
  auto state = std::make_unique<VirusWarState>(game);
  state->live_[0] = state->live_[1] = state->dead_[0] = state->dead_[1] = 0;
  int read = 0;
  for (char c : diagram) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (read == kBoardCells) throw InputError("from_diagram: more than 100 cells");
    const int rank = kBoardSide - 1 - read / kBoardSide;
    const Bits b = bit(rank * kBoardSide + read % kBoardSide);
    switch (c) {
      case '.': break;
      case 'X': state->live_[0] |= b; break;
      case 'O': state->live_[1] |= b; break;
      case 'x': state->dead_[0] |= b; break;
      case 'o': state->dead_[1] |= b; break;
      default:
        throw InputError("from_diagram: " + quote_input(std::string_view(&c, 1)) + " is not a cell (use . X O x o)");
    }
    ++read;
  }
  if (read != kBoardCells)
    throw InputError("from_diagram: " + std::to_string(read) + " cells given, 100 expected");
  state->has_history_ = false;
  state->mover_ = to_move;
  state->board_hash_ = state->board_hash_from_scratch();
  for (Player p : {0, 1})
    if (state->dead_[p] != 0 && state->live_[p] == 0) {
      state->finish(p == 0 ? kOWins : kXWins);
      return state;
    }
  state->start_turn();
  return state;
}

VirusWarState::Cell VirusWarState::cell(int index) const {
  const Bits b = bit(index);
  if (live_[0] & b) return Cell::kLiveX;
  if (live_[1] & b) return Cell::kLiveO;
  if (dead_[0] & b) return Cell::kDeadX;
  if (dead_[1] & b) return Cell::kDeadO;
  return Cell::kEmpty;
}

Bits VirusWarState::reachable(Player p) const { return reachable_cells(live_[p], dead_[1 - p]); }
Bits VirusWarState::targets_for(Player p) const { return targets_of(p, live_, dead_); }

bool VirusWarState::pass_is_legal() const {
  // A player who has not entered must enter while its corner is free; one with nothing
  // to play must pass, even under strict (which then has already ended the game).
  return outcome_ == kOngoing && sub_move_ == 0 && (targets_ == 0 || (!strict_ && entered(mover_)));
}

void VirusWarState::start_turn() {
  sub_move_ = 0;
  targets_ = targets_of(mover_, live_, dead_);
  if (strict_ && !can_make_full_turn()) finish(mover_ == 0 ? kOWins : kXWins);
}

bool VirusWarState::can_make_full_turn() const {
  // Reachability only grows within a turn and the sub-moves commute, so every maximal
  // turn has the same cells: playing any target greedily finds its length.
  Bits live[2] = {live_[0], live_[1]};
  Bits dead[2] = {dead_[0], dead_[1]};
  const Player me = mover_, enemy = 1 - mover_;
  Bits targets = targets_;
  for (int made = 0; made < VirusWarGame::kSubMovesPerTurn; ++made) {
    if (popcount(targets) >= VirusWarGame::kSubMovesPerTurn - made) return true;
    if (targets == 0) return false;  // literally: a shorter turn does not save the mover, even one that wins
    const Bits b = bit(lowest_cell(targets));
    if (live[enemy] & b) {
      live[enemy] &= ~b;
      dead[enemy] |= b;
    } else {
      live[me] |= b;
    }
    targets = targets_of(me, live, dead);
  }
  return true;
}

void VirusWarState::legal_actions(Player player, std::vector<Action>& out) const {
  out.clear();
  if (outcome_ != kOngoing || player != mover_) return;
  const auto low = static_cast<std::uint64_t>(targets_);
  const auto high = static_cast<std::uint64_t>(targets_ >> 64);
  for (std::uint64_t w = low; w; w &= w - 1) out.push_back(std::countr_zero(w));
  for (std::uint64_t w = high; w; w &= w - 1) out.push_back(64 + std::countr_zero(w));
  if (pass_is_legal()) out.push_back(VirusWarGame::kPass);
}

Action VirusWarState::random_legal_action(Rng& rng) const {
  if (outcome_ != kOngoing) throw IllegalActionError("random_legal_action: the game is over");
  const int cells = popcount(targets_);
  const int choices = cells + (pass_is_legal() ? 1 : 0);
  const int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(choices)));
  return k == cells ? VirusWarGame::kPass : select_cell(targets_, k);
}

std::string VirusWarState::illegality(Action action) const {
  if (outcome_ != kOngoing) return "the game is over";
  if (action < 0 || action >= VirusWarGame::kNumActions)
    return "action " + std::to_string(action) + " is outside 0..100";
  const std::string who = kPlayerName[mover_];
  if (action == VirusWarGame::kPass) {
    if (pass_is_legal()) return {};
    if (sub_move_ != 0)
      return "a pass is only allowed instead of the first sub-move, and " + who + " is on sub-move " +
             std::to_string(sub_move_ + 1) + " of 3";
    if (!entered(mover_)) return who + " must enter at " + cell_name(kHomeCorner[mover_]) + " on its first turn";
    return "strict rules allow no voluntary pass";
  }
  if (targets_ & bit(action)) return {};
  const std::string where = cell_name(action);
  if (!entered(mover_)) return who + " has not entered yet: its only placement is " + cell_name(kHomeCorner[mover_]);
  switch (cell(action)) {
    case Cell::kDeadX:
    case Cell::kDeadO: return where + " is dead and stays dead";
    case Cell::kLiveX:
    case Cell::kLiveO:
      if (live_[mover_] & bit(action)) return where + " already holds a live " + who;
      [[fallthrough]];
    default: return where + " is not reachable for " + who;
  }
}

void VirusWarState::apply(Action action) {
  if (outcome_ != kOngoing || action < 0 || action >= VirusWarGame::kNumActions ||
      (action == VirusWarGame::kPass ? !pass_is_legal() : !(targets_ & bit(action)))) {
    const std::string name = action >= 0 && action < VirusWarGame::kNumActions ? action_to_string(mover_, action)
                                                                               : std::to_string(action);
    throw IllegalActionError("illegal action " + name + ": " + illegality(action));
  }
  history_[length_++] = static_cast<std::uint8_t>(action | (mover_ << 7));
  const Player me = mover_, enemy = 1 - mover_;
  if (action == VirusWarGame::kPass) {
    ++turn_;
    if (passed_) return finish(kDraw);
    passed_ = true;
    mover_ = enemy;
    return start_turn();
  }
  const Bits b = bit(action);
  if (live_[enemy] & b) {
    live_[enemy] &= ~b;
    dead_[enemy] |= b;
    board_hash_ ^= cell_key(action, enemy == 0 ? Cell::kLiveX : Cell::kLiveO) ^
                   cell_key(action, enemy == 0 ? Cell::kDeadX : Cell::kDeadO);
    if (live_[enemy] == 0) {
      ++turn_;  // the winning sub-move ends the turn and the game
      return finish(me == 0 ? kXWins : kOWins);
    }
  } else {
    live_[me] |= b;
    board_hash_ ^= cell_key(action, me == 0 ? Cell::kLiveX : Cell::kLiveO);
  }
  if (++sub_move_ < VirusWarGame::kSubMovesPerTurn) {
    targets_ = targets_of(me, live_, dead_);
    if (targets_ != 0) return;  // the turn goes on while any target is left
  }
  passed_ = false;
  mover_ = enemy;
  ++turn_;
  start_turn();
}

void VirusWarState::returns(std::span<double> out) const {
  if (out.size() != 2) throw InputError("returns: Virus War has 2 players, buffer has " + std::to_string(out.size()));
  out[0] = out[1] = 0;
  if (outcome_ == kXWins || outcome_ == kOWins) {
    out[outcome_] = 1;
    out[1 - outcome_] = -1;
  }
}

void VirusWarState::observation(Player p, std::span<float> out) const {
  if (p != 0 && p != 1) throw InputError("observation: player " + std::to_string(p) + " is not 0 or 1");
  if (out.size() != static_cast<std::size_t>(VirusWarGame::kNumPlanes * kBoardCells))
    throw InputError("observation: buffer has " + std::to_string(out.size()) + " floats, " +
                     std::to_string(VirusWarGame::kNumPlanes * kBoardCells) + " expected");
  std::fill(out.begin(), out.end(), 0.0f);
  const Bits planes[6] = {live_[p],     live_[1 - p], dead_[p], dead_[1 - p], targets_of(p, live_, dead_),
                          targets_of(1 - p, live_, dead_)};
  for (int plane = 0; plane < 6; ++plane)
    for (Bits b = planes[plane]; b; b &= b - 1) out[plane * kBoardCells + view_cell(p, lowest_cell(b))] = 1.0f;
  auto fill_plane = [&](int plane) {
    std::fill_n(out.begin() + plane * kBoardCells, kBoardCells, 1.0f);
  };
  if (outcome_ == kOngoing && mover_ == p) fill_plane(6 + sub_move_);
  if (passed_) fill_plane(9);
}

void VirusWarState::ownership(Player viewer, std::span<float> out) const {
  if (viewer != 0 && viewer != 1) throw InputError("ownership: player " + std::to_string(viewer) + " is not 0 or 1");
  if (out.size() != static_cast<std::size_t>(kBoardCells))
    throw InputError("ownership: buffer has " + std::to_string(out.size()) + " floats, 100 expected");
  std::fill(out.begin(), out.end(), 0.0f);
  for (Bits b = live_[viewer] | dead_[1 - viewer]; b; b &= b - 1) out[view_cell(viewer, lowest_cell(b))] = 1.0f;
  for (Bits b = live_[1 - viewer] | dead_[viewer]; b; b &= b - 1) out[view_cell(viewer, lowest_cell(b))] = -1.0f;
}

std::uint64_t VirusWarState::board_hash_from_scratch() const {
  std::uint64_t h = 0;
  for (int c = 0; c < kBoardCells; ++c)
    if (cell(c) != Cell::kEmpty) h ^= cell_key(c, cell(c));
  return h;
}

std::uint64_t VirusWarState::hash() const {
  std::uint64_t h = board_hash_ ^ (passed_ ? kKeys.passed : 0);
  if (outcome_ != kOngoing) return h ^ kKeys.outcome[outcome_];
  return h ^ kKeys.mover[mover_] ^ kKeys.sub_move[sub_move_];
}

std::string VirusWarState::to_string() const {
  static constexpr char kSymbol[] = {'.', 'X', 'O', 'x', 'o'};
  std::string out;
  for (int rank = kBoardSide - 1; rank >= 0; --rank) {
    out += (rank + 1 < 10 ? " " : "") + std::to_string(rank + 1);
    for (int file = 0; file < kBoardSide; ++file) {
      out += ' ';
      out += kSymbol[static_cast<int>(cell(rank * kBoardSide + file))];
    }
    out += '\n';
  }
  out += "   a b c d e f g h i k\n";
  switch (outcome_) {
    case kXWins: return out + "X wins";
    case kOWins: return out + "O wins";
    case kDraw: return out + "draw";
    default: break;
  }
  out += std::string(kPlayerName[mover_]) + " to move, sub-move " + std::to_string(sub_move_ + 1) + " of 3";
  if (passed_) out += " (" + std::string(kPlayerName[1 - mover_]) + " passed)";
  return out;
}

std::string VirusWarState::cell_name(int index) {
  return std::string(1, kFiles[index % kBoardSide]) + std::to_string(index / kBoardSide + 1);
}

std::string VirusWarState::action_to_string(Player, Action action) const {
  if (action == VirusWarGame::kPass) return "pass";
  if (action < 0 || action >= kBoardCells)
    throw InputError("action " + std::to_string(action) + " is outside 0..100");
  return cell_name(action);
}

Action VirusWarState::string_to_action(Player, std::string_view text) const {
  if (text == "pass" || text == "--") return VirusWarGame::kPass;
  const auto fail = [&](const std::string& why) -> Action {
    throw NotationError(quote_input(text) + " is not a Virus War action: " + why);
  };
  if (text.size() < 2 || text.size() > 3) return fail("expected a cell like e5 or k10, or pass");
  const auto file = kFiles.find(static_cast<char>(std::tolower(static_cast<unsigned char>(text[0]))));
  if (file == std::string_view::npos) return fail("files are a b c d e f g h i k (there is no j)");
  int rank = 0;
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9') return fail("the rank must be a number 1..10");
    rank = rank * 10 + (c - '0');
  }
  if (rank < 1 || rank > kBoardSide || text[1] == '0') return fail("the rank must be a number 1..10");
  return (rank - 1) * kBoardSide + static_cast<int>(file);
}

std::vector<Step> VirusWarState::history() const {
  std::vector<Step> out(length_);
  for (int i = 0; i < length_; ++i) out[i] = {history_[i] >> 7, history_[i] & 0x7f};
  return out;
}

}  // namespace boardlab
