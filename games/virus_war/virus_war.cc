// Virus War rules on bitboards: reachability, turns of three sub-moves, passes, strict mode.
#include "games/virus_war/virus_war.h"

#include <algorithm>

#include "core/errors.h"
#include "core/text.h"
#include "games/sub_move_grid/grid_notation.h"
#include "games/sub_move_grid/reach.h"

namespace boardlab {
namespace {

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

const GridNotation& notation() {
  static const GridNotation kNotation(kBoardSide, kBoardSide);
  return kNotation;
}

// The opponent's dead symbols are the cells p killed: p conducts along them (games/sub_move_grid/reach.h).
Bits reachable_for(Player p, const Bits live[2], const Bits dead[2]) {
  return reachable_cells(live[p], dead[1 - p], kVirusWarGrid);
}

Bits targets_of(Player p, const Bits live[2], const Bits dead[2]) {
  const Bits empty = kVirusWarGrid.all & ~(live[0] | live[1] | dead[0] | dead[1]);
  if ((live[p] | dead[p]) == 0) return empty & cell_bit<Bits>(kHomeCorner[p]);  // entering: the home corner only
  return reachable_for(p, live, dead) & (empty | live[1 - p]);
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
  traits_.action_layout = cell_layout();
  traits_.pass_action = kPass;
  traits_.has_ownership = true;
}

// A cell action at its cell (the viewer's frame's action is its frame's cell); pass board-wide.
ActionLayout VirusWarGame::cell_layout() {
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
  return split_sub_move_turn(*this, turn, simultaneous);
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
  const std::vector<char> symbols = read_diagram(diagram, kBoardSide, kBoardSide);
  for (int cell = 0; cell < kBoardCells; ++cell) {
    const char c = symbols[static_cast<std::size_t>(cell)];
    const Bits b = cell_bit<Bits>(cell);
    switch (c) {
      case '.': break;
      case 'X': state->live_[0] |= b; break;
      case 'O': state->live_[1] |= b; break;
      case 'x': state->dead_[0] |= b; break;
      case 'o': state->dead_[1] |= b; break;
      default:
        throw InputError("from_diagram: " + quote_input(std::string_view(&c, 1)) + " is not a cell (use . X O x o)");
    }
  }
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
  const Bits b = cell_bit<Bits>(index);
  if (live_[0] & b) return Cell::kLiveX;
  if (live_[1] & b) return Cell::kLiveO;
  if (dead_[0] & b) return Cell::kDeadX;
  if (dead_[1] & b) return Cell::kDeadO;
  return Cell::kEmpty;
}

Bits VirusWarState::reachable(Player p) const { return reachable_for(p, live_, dead_); }
Bits VirusWarState::targets_for(Player p) const { return targets_of(p, live_, dead_); }

bool VirusWarState::pass_is_legal() const {
  // A player who has not entered must enter while its corner is free; one with nothing
  // to play must pass, even under strict (which then has already ended the game).
  return outcome_ == kOngoing && turn_.may_pass() && (targets_ == 0 || (!strict_ && entered(mover_)));
}

void VirusWarState::start_turn() {
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
    const Bits b = cell_bit<Bits>(lowest_cell(targets));
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

void VirusWarState::list_legal_actions(Player player, std::vector<Action>& out) const {
  if (outcome_ != kOngoing || player != mover_) return out.clear();
  list_sub_moves<Bits>({&targets_, 1}, 0, pass_is_legal() ? VirusWarGame::kPass : kInvalidAction, out);
}

Action VirusWarState::draw_random_action(Rng& rng) const {
  if (outcome_ != kOngoing) throw IllegalActionError("random_legal_action: the game is over");
  return random_sub_move<Bits>({&targets_, 1}, 0, pass_is_legal() ? VirusWarGame::kPass : kInvalidAction, rng);
}

std::string VirusWarState::illegality(Action action) const {
  if (outcome_ != kOngoing) return "the game is over";
  if (action < 0 || action >= VirusWarGame::kNumActions) return action_outside_refusal(action, VirusWarGame::kNumActions);
  const std::string who = kPlayerName[mover_];
  if (action == VirusWarGame::kPass) {
    if (pass_is_legal()) return {};
    if (!turn_.may_pass()) return mid_turn_pass_refusal(who, turn_.sub_move, VirusWarGame::kSubMovesPerTurn);
    if (!entered(mover_)) return who + " must enter at " + cell_name(kHomeCorner[mover_]) + " on its first turn";
    return "strict rules allow no voluntary pass";
  }
  if (has_cell(targets_, action)) return {};
  const std::string where = cell_name(action);
  if (!entered(mover_)) return who + " has not entered yet: its only placement is " + cell_name(kHomeCorner[mover_]);
  switch (cell(action)) {
    case Cell::kDeadX:
    case Cell::kDeadO: return where + " is dead and stays dead";
    case Cell::kLiveX:
    case Cell::kLiveO:
      if (has_cell(live_[mover_], action)) return where + " already holds a live " + who;
      [[fallthrough]];
    default: return where + " is not reachable for " + who;
  }
}

void VirusWarState::apply(Action action) {
  if (outcome_ != kOngoing || action < 0 || action >= VirusWarGame::kNumActions ||
      (action == VirusWarGame::kPass ? !pass_is_legal() : !has_cell(targets_, action))) {
    const std::string name = action >= 0 && action < VirusWarGame::kNumActions ? action_to_string(mover_, action)
                                                                               : std::to_string(action);
    throw IllegalActionError("illegal action " + name + ": " + illegality(action));
  }
  history_[length_++] = static_cast<std::uint8_t>(action | (mover_ << 7));
  const Player me = mover_, enemy = 1 - mover_;
  if (action == VirusWarGame::kPass) {
    if (turn_.pass(2)) return finish(kDraw);  // a pass answered by a pass
    mover_ = enemy;
    return start_turn();
  }
  const Bits b = cell_bit<Bits>(action);
  if (live_[enemy] & b) {
    live_[enemy] &= ~b;
    dead_[enemy] |= b;
    board_hash_ ^= cell_key(action, enemy == 0 ? Cell::kLiveX : Cell::kLiveO) ^
                   cell_key(action, enemy == 0 ? Cell::kDeadX : Cell::kDeadO);
    if (live_[enemy] == 0) {
      turn_.end_with_the_game();
      return finish(me == 0 ? kXWins : kOWins);
    }
  } else {
    live_[me] |= b;
    board_hash_ ^= cell_key(action, me == 0 ? Cell::kLiveX : Cell::kLiveO);
  }
  if (turn_.another_sub_move_allowed(VirusWarGame::kSubMovesPerTurn)) {
    targets_ = targets_of(me, live_, dead_);
    if (targets_ != 0) return;  // the turn goes on while any target is left
  }
  turn_.end_after_sub_moves();
  mover_ = enemy;
  start_turn();
}

void VirusWarState::write_returns(std::span<double> out) const {
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
  if (outcome_ == kOngoing && mover_ == p) fill_plane(6 + turn_.sub_move);
  if (previous_turn_passed()) fill_plane(9);
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
  std::uint64_t h = board_hash_ ^ (previous_turn_passed() ? kKeys.passed : 0);
  if (outcome_ != kOngoing) return h ^ kKeys.outcome[outcome_];
  return h ^ kKeys.mover[mover_] ^ kKeys.sub_move[turn_.sub_move];
}

std::string VirusWarState::to_string() const {
  static constexpr char kSymbol[] = {'.', 'X', 'O', 'x', 'o'};
  return notation().draw([&](int c) { return kSymbol[static_cast<int>(cell(c))]; }) + status();
}

std::string VirusWarState::status() const {
  switch (outcome_) {
    case kXWins: return "X wins";
    case kOWins: return "O wins";
    case kDraw: return "draw";
    default: break;
  }
  std::string out =
      std::string(kPlayerName[mover_]) + " to move, sub-move " + std::to_string(turn_.sub_move + 1) + " of 3";
  if (previous_turn_passed()) out += " (" + std::string(kPlayerName[1 - mover_]) + " passed)";
  return out;
}

std::optional<Diagram> VirusWarState::diagram(Player) const {
  Diagram out = notation().diagram();
  for (int c = 0; c < kBoardCells; ++c) {
    const Cell here = cell(c);
    if (here == Cell::kEmpty) continue;
    const bool cross = here == Cell::kLiveX || here == Cell::kDeadX;
    DiagramPiece piece{notation().centre_x(c), notation().centre_y(c), 1, cross ? 0 : 1, cross ? "cross" : "nought", "", {}};
    if (here == Cell::kDeadX || here == Cell::kDeadO) piece.marks.push_back("killed");
    out.pieces.push_back(std::move(piece));
  }
  out.status = status();
  return out;
}

std::string VirusWarState::cell_name(int index) { return notation().cell_name(index); }

std::string VirusWarState::action_text(Player, Action action) const {
  if (action == VirusWarGame::kPass) return "pass";
  if (action < 0 || action >= kBoardCells) throw InputError(action_outside_refusal(action, VirusWarGame::kNumActions));
  return cell_name(action);
}

Action VirusWarState::read_action(Player, std::string_view text) const {
  if (is_pass_text(text)) return VirusWarGame::kPass;
  std::string why;
  const int cell = notation().parse_cell(text, why);
  if (cell < 0) throw NotationError(quote_input(text) + " is not a Virus War action: " + why);
  return cell;
}

std::vector<Step> VirusWarState::history() const {
  std::vector<Step> out(length_);
  for (int i = 0; i < length_; ++i) out[i] = {history_[i] >> 7, history_[i] & 0x7f};
  return out;
}

}  // namespace boardlab
