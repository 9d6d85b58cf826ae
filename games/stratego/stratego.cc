// Stratego's rules: parameters, setup steps, move generation with the repetition rules, strikes and every end of the game.
#include "games/stratego/stratego.h"

#include <algorithm>
#include <cstring>

#include "core/errors.h"
#include "core/text.h"
#include "games/stratego/stratego_heuristic.h"

namespace boardlab {

using namespace stratego;

namespace {

std::vector<std::int8_t> parse_setup(std::string_view text, const std::array<std::int8_t, kKinds>& counts,
                                     bool barrage, const char* which) {
  const std::string where = std::string("stratego: ") + which + " ";
  if (text.size() != StrategoGame::kSetupSquares)
    throw GameParameterError(where + "must have 40 characters (one per setup square in fill order), got " +
                             std::to_string(text.size()));
  std::vector<std::int8_t> out;
  std::array<int, kKinds> seen{};
  for (char c : text) {
    const int kind = c == '.' ? kNoPiece : kind_of_char(c);
    if (kind < 0)
      throw GameParameterError(where + "has " + quote_input(std::string(1, c)) +
                               ", not a piece (1-9, X, B, F) or '.' for an empty square");
    if (kind == kNoPiece && !barrage) throw GameParameterError(where + "leaves a square empty; classic fills all 40");
    if (kind != kNoPiece) ++seen[kind];
    out.push_back(static_cast<std::int8_t>(kind));
  }
  for (int k = 0; k < kKinds; ++k)
    if (seen[k] != counts[k])
      throw GameParameterError(where + "has " + std::to_string(seen[k]) + " " + std::string(kKindNames[k]) +
                               "(s), the variant needs " + std::to_string(counts[k]));
  return out;
}

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

// ---------------------------------------------------------------------------- game

StrategoGame::StrategoGame(const GameParameters& params) : Game("stratego", params) {
  const std::string variant = std::get<std::string>(params.at("variant"));
  if (variant != "classic" && variant != "barrage")
    throw GameParameterError("stratego: variant must be classic or barrage, got " + quote_input(variant));
  barrage_ = variant == "barrage";
  counts_ = barrage_ ? kBarrageCounts : kClassicCounts;
  pieces_ = 0;
  for (int c : counts_) pieces_ += c;
  const auto limit = std::get<std::int64_t>(params.at("two_square_limit"));
  if (limit < 1 || limit > 100)
    throw GameParameterError("stratego: two_square_limit must be 1..100 moves, got " + std::to_string(limit));
  two_square_limit_ = static_cast<int>(limit);
  chasing_rule_ = std::get<bool>(params.at("chasing_rule"));
  auto cap = std::get<std::int64_t>(params.at("move_cap"));
  if (cap == 0) cap = barrage_ ? 1000 : 2000;
  if (cap < 1 || cap > kMaxMoveCap)
    throw GameParameterError("stratego: move_cap must be 1.." + std::to_string(kMaxMoveCap) +
                             " plies (0: the variant's default), got " + std::to_string(cap));
  move_cap_ = static_cast<int>(cap);
  const auto observed = std::get<std::int64_t>(params.at("observed_moves"));
  if (observed < 1 || observed > kMaxObservedMoves)
    throw GameParameterError("stratego: observed_moves must be 1.." + std::to_string(kMaxObservedMoves) + ", got " +
                             std::to_string(observed));
  observed_moves_ = static_cast<int>(observed);
  observation_parameters_ = {"observed_moves"};
  const std::string setup = std::get<std::string>(params.at("setup"));
  if (setup != "play" && setup != "random")
    throw GameParameterError("stratego: setup must be play or random, got " + quote_input(setup));
  mode_ = setup == "random" ? SetupMode::kRandom : SetupMode::kPlay;
  const char* names[2] = {"red_setup", "blue_setup"};
  for (Player p : {0, 1}) {
    const std::string text = std::get<std::string>(params.at(names[p]));
    if (!text.empty()) fixed_[p] = parse_setup(text, counts_, barrage_, names[p]);
  }
  traits_.action_layout = move_layout();
  // A side that sets up by its own actions spends its first turn on it, so random opening turns
  // would replace the setups, the choice a player is judged by first, with random ones; the
  // setups the players draw vary the games instead.
  if (mode_ == SetupMode::kPlay && (fixed_[0].empty() || fixed_[1].empty())) traits_.arena_opening_turns = 0;
}

GameType StrategoGame::type() const {
  GameType t;
  t.information = Information::kImperfect;
  if (mode_ == SetupMode::kRandom && (fixed_[0].empty() || fixed_[1].empty())) t.chance = Chance::kSetup;
  return t;
}

Action StrategoGame::action_to_view(Player viewer, Action action) const {
  if (viewer != 1 || action < kMoveBase) return action;
  const Move move = move_of(action);
  return move_action(kCells - 1 - move.from, (move.direction + 2) % kDirs, move.distance);
}

// A move at its square, one plane per direction and distance; setup actions board-wide.
ActionLayout StrategoGame::move_layout() {
  ActionLayout layout;
  layout.planes = kDirs * kMaxDistance;
  layout.slot.assign(kNumActions, -1);  // setup actions are board-wide choices
  for (int cell = 0; cell < kCells; ++cell)
    for (int d = 0; d < kDirs; ++d)
      for (int dist = 1; dist <= kMaxDistance; ++dist)
        layout.slot[move_action(cell, d, dist)] = (d * kMaxDistance + dist - 1) * kCells + cell;
  return layout;
}

std::unique_ptr<State> StrategoGame::new_initial_state() const { return std::make_unique<StrategoState>(*this); }

std::string StrategoGame::format_turn(std::span<const std::string> steps, bool) const {
  std::string out;
  for (const std::string& s : steps) out += s;  // a setup's characters together; a move alone
  return out;
}

std::vector<std::string> StrategoGame::split_turn(std::string_view turn, bool) const {
  if (turn.find('-') != std::string_view::npos) return {std::string(turn)};
  std::vector<std::string> parts;
  for (char c : turn) parts.emplace_back(1, c);
  if (parts.empty()) parts.emplace_back();
  return parts;
}

std::string StrategoGame::cell_name(int cell) {
  return std::string(1, kFiles[cell % kSide]) + std::to_string(cell / kSide + 1);
}

int StrategoGame::parse_cell(std::string_view text) {
  if (text.size() < 2 || text.size() > 3) return -1;
  const char f = static_cast<char>(text[0] | 0x20);
  const auto file = kFiles.find(f);
  if (file == std::string_view::npos) return -1;
  int rank = 0;
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9') return -1;
    rank = rank * 10 + (c - '0');
  }
  if (rank < 1 || rank > kSide || (text.size() == 3 && text[1] == '0')) return -1;
  return (rank - 1) * kSide + static_cast<int>(file);
}

GameSpec stratego_spec() {
  GameSpec spec{"stratego",
                "Stratego: hidden ranks on a 10x10 board with two lakes; classic 40 pieces or the 8-piece barrage",
                {{"variant", std::string("classic"), "classic (40 pieces a side) or barrage (8 pieces)"},
                 {"two_square_limit", std::int64_t{3},
                  "moves of one piece in a row between the same two squares (the next is illegal); ISF and Gravon "
                  "use 5"},
                 {"chasing_rule", true,
                  "the chasing rule of the rule file (a third chase in a row is illegal); false replays games played "
                  "without it (the Gravon reader's default)"},
                 {"move_cap", std::int64_t{0},
                  "plies after which the game is drawn as a cap (0: 2000 classic, 1000 barrage); not a rule"},
                 {"observed_moves", std::int64_t{1},
                  "how many of the last moves the observation shows (1..32), newest first; changes only the "
                  "network's input, not the rules or the ladder"},
                 {"setup", std::string("play"),
                  "play: each side places its pieces as actions; random: both drawn by chance"},
                 {"red_setup", std::string(""),
                  "Red's 40 setup characters in fill order (1-9 X B F, '.' empty), fixed"},
                 {"blue_setup", std::string(""), "Blue's 40 setup characters in fill order, fixed"}},
                [](const GameParameters& params) -> std::shared_ptr<const Game> {
                  return std::make_shared<StrategoGame>(params);
                },
                {"variant=barrage", "observed_moves=4,setup=random,variant=barrage"}};
  spec.heuristic = make_stratego_heuristic;
  return spec;
}

// ---------------------------------------------------------------------------- state

StrategoState::StrategoState(const StrategoGame& game) : State(game), game_(&game) {
  std::memset(board_, -1, sizeof board_);
  std::memset(kind_, -1, sizeof kind_);
  for (Player p : {0, 1}) {
    for (int k = 0; k < kKinds; ++k) hand_[p][k] = game.counts()[k];
    hand_[p][kNoPiece] = static_cast<std::int8_t>(StrategoGame::kSetupSquares - game.pieces_per_side());
  }
  history_.reserve(static_cast<std::size_t>(std::min(game.max_game_length(), 1200)));
  for (Player p : {0, 1}) {
    if (game.fixed_setup(p).empty()) continue;
    // A fixed setup is public (the game string says it), so both players' keys know it.
    fill_ = p * StrategoGame::kSetupSquares;
    for (int i = 0; i < StrategoGame::kSetupSquares; ++i) {
      const int kind = game.fixed_setup(p)[i];
      place(p, i, kind);
      mix_info(0, kind);
      mix_info(1, kind);
    }
  }
  fill_ = game.fixed_setup(0).empty() ? 0 : game.fixed_setup(1).empty() ? StrategoGame::kSetupSquares
                                                                         : 2 * StrategoGame::kSetupSquares;
  if (!setting_up()) judge_after_move(true);
}

Player StrategoState::current_player() const {
  if (end_ != EndReason::kNone) return kTerminalPlayer;
  if (setting_up()) return stratego().setup_mode() == StrategoGame::SetupMode::kRandom ? kChancePlayer : setup_side();
  return mover_;
}

int StrategoState::move_number() const {
  const int fixed = !stratego().fixed_setup(0).empty() + !stratego().fixed_setup(1).empty();
  const int done_setups = fill_ / StrategoGame::kSetupSquares - fixed;
  return done_setups + plies_;
}

void StrategoState::mix_info(Player p, std::uint64_t value) { info_[p] = mix64(info_[p] ^ (value + 0x632be59bd9b4e019ULL)); }

void StrategoState::place(Player p, int slot, int kind) {
  --hand_[p][kind];
  if (kind == kNoPiece) return;
  const int id = p * StrategoGame::kSetupSquares + slot;
  const int cell = StrategoGame::setup_cell(p, slot);
  kind_[id] = static_cast<std::int8_t>(kind);
  board_[cell] = static_cast<std::int8_t>(id);
  ++alive_[p][kind];
  occ_[p] |= bit(cell);
  if (is_mobile(kind)) mobile_[p] |= bit(cell);
  if (kind == kScout) scouts_[p] |= bit(cell);
}

void StrategoState::rebuild_masks() {
  for (Player p : {0, 1}) occ_[p] = mobile_[p] = scouts_[p] = 0;
  for (int c = 0; c < kCells; ++c) {
    if (board_[c] < 0) continue;
    const int p = owner(c), k = kind_[board_[c]];
    occ_[p] |= bit(c);
    if (is_mobile(k)) mobile_[p] |= bit(c);
    if (k == kScout) scouts_[p] |= bit(c);
  }
}

StrategoState::Forbidden StrategoState::forbidden(Player p) const {
  Forbidden f;
  if (ts_count_[p] >= stratego().two_square_limit() && ts_to_[p] >= 0) {
    f.ts_from = ts_to_[p];
    f.ts_to = ts_from_[p];
  }
  const Player q = 1 - p;
  if (stratego().chasing_rule() && chase_count_[p] >= 2 && last_from_[q] == chase_target_[p]) {
    const int x = chase_piece_[p], t = last_to_[q];
    if (x >= 0 && t >= 0 && owner(x) == p && owner(t) == q && !(dilate(bit(x)) & bit(t)) && t != x) {
      f.chase_from = x;
      f.chase_to = dilate(bit(t)) & ~occ_[0] & ~occ_[1] & ~kLakes;
    }
  }
  return f;
}

void StrategoState::generate(Player p, Moves& m) const {
  const Bits own = occ_[p], enemy = occ_[1 - p], any = own | enemy;
  const Bits open = kBoard & ~kLakes & ~own;
  const Bits mobile = mobile_[p];
  // A piece moves one square in direction d when the square there is open: the open squares
  // shifted back against d are the pieces' squares that can.
  for (int d = 0; d < kDirs; ++d) m.step[d] = mobile & shift(open, (d + 2) % kDirs);
  m.scouts = scouts_[p];
  int i = 0, longer = 0;
  for (Bits s = m.scouts; s; s &= s - 1, ++i) {
    const int from = lowest(s);
    m.longer_before[i] = longer;
    for (int d = 0; d < kDirs; ++d) {
      const Bits blockers = kRays.ray[from][d] & any;
      int reach = kRays.length[from][d];
      if (blockers) {
        // The first piece in the way: up to it, and onto it when it is the enemy's. Northward
        // and eastward the ray's cells ascend from `from`, southward and westward they descend.
        const int b = d < 2 ? lowest(blockers) : highest(blockers);
        const Bits before = d < 2 ? bit(b) - 1 : ~((bit(b) << 1) - 1);
        reach = count(kRays.ray[from][d] & before) + ((enemy & bit(b)) ? 1 : 0);
      }
      m.reach[i][d] = static_cast<std::int8_t>(reach);
      longer += std::max(reach - 1, 0);
    }
  }
  m.longer_before[i] = longer;
  const int scouts = i;
  // Take out the moves the repetition rules forbid (each move once, though both rules may name it).
  m.forbidden = forbidden(p);
  const auto take_out = [&](int from, int to) {
    if (!(mobile & bit(from))) return;
    const int df = to % kSide - from % kSide, dr = to / kSide - from / kSide;
    if ((df != 0) == (dr != 0)) return;
    const int d = dr > 0 ? 0 : df > 0 ? 1 : dr < 0 ? 2 : 3;
    const int dist = std::abs(df + dr);
    if (dist == 1) {
      m.step[d] &= ~bit(from);
    } else if (m.scouts & bit(from)) {
      const int at = count(m.scouts & (bit(from) - 1));
      if (dist <= m.reach[at][d])
        for (int j = at + 1; j <= scouts; ++j) --m.longer_before[j];
    }
  };
  const Forbidden& f = m.forbidden;
  if (f.ts_from >= 0) take_out(f.ts_from, f.ts_to);
  if (f.chase_from >= 0)
    for (Bits t = f.chase_to; t; t &= t - 1) {
      const int to = lowest(t);
      if (f.chase_from != f.ts_from || to != f.ts_to) take_out(f.chase_from, to);
    }
  m.total = count(m.step[0]) + count(m.step[1]) + count(m.step[2]) + count(m.step[3]) + m.longer_before[scouts];
}

int StrategoState::list_moves(Player p, Action* out) const {
  Moves m;
  generate(p, m);
  Action* end = out;
  for (Bits u = m.step[0] | m.step[1] | m.step[2] | m.step[3] | m.scouts; u; u &= u - 1) end = moves_of(m, lowest(u), end);
  return static_cast<int>(end - out);
}

bool StrategoState::can_move(Player p) const {
  const Bits targets = kBoard & ~kLakes & ~occ_[p];
  const Bits movers = mobile_[p] & (((targets >> kSide) | (targets << kSide) | ((targets & ~kFileA) >> 1) |
                                     ((targets & ~kFileK) << 1)) & kBoard);
  // The repetition rules forbid moves of at most two pieces.
  if (count(movers) > 2) return true;
  if (!movers) return false;
  const Forbidden f = forbidden(p);
  for (Bits m = movers; m; m &= m - 1) {
    const int from = lowest(m);
    for (int d = 0; d < kDirs; ++d) {
      const int to = kNeighbours.next[from][d];
      if (to >= 0 && !(occ_[p] & bit(to)) && !f.forbids(from, to)) return true;
    }
  }
  return false;
}

bool StrategoState::flags_unreachable() const {
  Bits immobile[2], bombs[2];
  int flag[2] = {-1, -1};
  for (Player p : {0, 1}) {
    immobile[p] = occ_[p] & ~mobile_[p];
    bombs[p] = 0;
    for (Bits m = immobile[p]; m; m &= m - 1) {
      const int c = lowest(m);
      if (kind_at(c) == kFlag) flag[p] = c;
      else bombs[p] |= bit(c);
    }
  }
  for (Player s : {0, 1}) {
    const Player e = 1 - s;
    if (flag[e] < 0) return false;  // taken: the game is over anyway
    const Bits passable = kBoard & ~kLakes & ~immobile[s] & ~(alive_[s][kMiner] == 0 ? bombs[e] : Bits{0});
    Bits reach = mobile_[s];
    while (true) {
      if (reach & bit(flag[e])) return false;
      const Bits next = (reach | dilate(reach)) & (passable | mobile_[s]);
      if (next == reach) break;
      reach = next;
    }
  }
  return true;
}

void StrategoState::list_legal_actions(Player player, std::vector<Action>& out) const {
  out.clear();
  if (player != current_player() || player == kTerminalPlayer) return;
  if (setting_up()) {
    for (Action k = 0; k <= kNoPiece; ++k)
      if (setup_allows(k)) out.push_back(k);
    return;
  }
  Action buf[kMaxMoves];
  const int n = list_moves(player, buf);
  out.assign(buf, buf + n);
}

void StrategoState::chance_outcomes(std::vector<ChanceOutcome>& out) const {
  if (!is_chance_node()) return State::chance_outcomes(out);
  out.clear();
  const Player side = setup_side();
  const int left = (side + 1) * StrategoGame::kSetupSquares - fill_;
  for (int k = 0; k <= kNoPiece; ++k)
    if (hand_[side][k] > 0) out.push_back({k, static_cast<double>(hand_[side][k]) / left});
}

Action StrategoState::draw_random_action(Rng& rng) const {
  if (is_chance_node()) {
    // As State::random_legal_action draws from chance_outcomes, the same arithmetic, no list.
    const Player side = setup_side();
    const int left = (side + 1) * StrategoGame::kSetupSquares - fill_;
    return static_cast<Action>(draw_index(rng, kNoPiece + 1, [&](std::size_t k) {
      return static_cast<double>(std::max<int>(hand_[side][k], 0)) / left;
    }));
  }
  if (current_player() < 0) return State::draw_random_action(rng);
  // The r-th legal action in ascending order, as State::random_legal_action would pick it from
  // the whole list (the golden playthroughs hold its draws), without building the list.
  if (setting_up()) {
    Action kinds[kKinds + 1];
    int n = 0;
    for (Action k = 0; k <= kNoPiece; ++k)
      if (setup_allows(k)) kinds[n++] = k;
    return kinds[rng.below(static_cast<std::uint32_t>(n))];
  }
  Moves m;
  generate(mover_, m);
  if (m.total == 0) return State::draw_random_action(rng);  // throws with the reason
  int r = static_cast<int>(rng.below(static_cast<std::uint32_t>(m.total)));
  // Walk the pieces that can move, ascending, each counted by a few bit tests (a binary search
  // over the cells took longer: its branches are coin flips).
  int scout = 0;
  for (Bits u = m.step[0] | m.step[1] | m.step[2] | m.step[3] | m.scouts; u; u &= u - 1) {
    const int c = lowest(u);
    const Bits b = bit(c);
    int n = ((m.step[0] & b) != 0) + ((m.step[1] & b) != 0) + ((m.step[2] & b) != 0) + ((m.step[3] & b) != 0);
    if (m.scouts & b) {
      n += m.longer_before[scout + 1] - m.longer_before[scout];
      ++scout;
    }
    if (r >= n) {
      r -= n;
      continue;
    }
    Action buf[2 * StrategoGame::kMaxDistance];
    moves_of(m, c, buf);
    return buf[r];
  }
  return State::draw_random_action(rng);  // not reached: r < total
}

bool StrategoState::setup_allows(Action kind) const {
  const Player side = setup_side();
  if (hand_[side][kind] <= 0) return false;
  if (kind != kNoPiece) return true;
  // An empty square only while the squares left outnumber the pieces in hand.
  int pieces_left = 0;
  for (int k = 0; k < kKinds; ++k) pieces_left += hand_[side][k];
  return (side + 1) * StrategoGame::kSetupSquares - fill_ > pieces_left;
}

std::string StrategoState::illegality(Action action) const {
  if (is_terminal()) return "the game is over";
  if (action < 0 || action >= StrategoGame::kNumActions)
    return "action " + std::to_string(action) + " is outside 0.." + std::to_string(StrategoGame::kNumActions - 1);
  if (setting_up()) {
    if (action >= StrategoGame::kMoveBase) return "the setup is not finished: name a piece for " +
                                                  StrategoGame::cell_name(StrategoGame::setup_cell(setup_side(), fill_ % 40));
    if (setup_allows(action)) return "";
    if (action == kNoPiece) return "every remaining square must hold one of the pieces still in hand";
    return "no " + std::string(kKindNames[action]) + " is left in hand";
  }
  if (action < StrategoGame::kMoveBase) return "the setup is over: play a move";
  const StrategoGame::Move move = StrategoGame::move_of(action);
  // Not a structured binding: the lambda below captures `from` (clang 14 cannot capture one).
  const int from = move.from, d = move.direction, dist = move.distance;
  // The messages are built only on the way out: apply runs this on every move.
  const auto name = [from] { return StrategoGame::cell_name(from); };
  if (owner(from) != mover_) return name() + " holds no piece of " + stratego().player_name(mover_);
  if (!(mobile_[mover_] & bit(from))) return "the " + std::string(kKindNames[kind_at(from)]) + " on " + name() + " cannot move";
  if (dist > 1 && !(scouts_[mover_] & bit(from))) return "only a Scout moves more than one square";
  int to = from;
  for (int i = 1; i <= dist; ++i) {
    to = kNeighbours.next[to][d];
    if (to < 0) return "the move leaves the board or enters a lake";
    if (i < dist && board_[to] >= 0) return "a Scout cannot pass over " + StrategoGame::cell_name(to);
  }
  if (owner(to) == mover_) return StrategoGame::cell_name(to) + " holds an own piece";
  const Forbidden f = forbidden(mover_);
  if (from == f.ts_from && to == f.ts_to)
    return "the two-square rule: this piece may not shuttle between " + name() + " and " + StrategoGame::cell_name(to) +
           " more than " + std::to_string(stratego().two_square_limit()) + " times in a row";
  if (f.forbids(from, to)) return "the chasing rule: a third chase in a row of the same piece is not allowed";
  return "";
}

void StrategoState::apply(Action action) {
  const std::string why = illegality(action);
  if (!why.empty()) throw IllegalActionError("illegal action " + std::to_string(action) + ": " + why);
  const Player actor = current_player();
  history_.push_back(actor < 0 ? 2 : actor, action);
  if (setting_up()) {
    const Player side = setup_side();
    const int slot = fill_ % StrategoGame::kSetupSquares;
    place(side, slot, action);
    mix_info(side, static_cast<std::uint64_t>(action));
    mix_info(1 - side, action == kNoPiece ? 100 : 101);
    ++fill_;
    if (fill_ % StrategoGame::kSetupSquares == 0) ++setup_turns_;
    if (fill_ == StrategoGame::kSetupSquares && !stratego().fixed_setup(1).empty()) fill_ = 2 * StrategoGame::kSetupSquares;
    if (!setting_up()) judge_after_move(true);
    return;
  }
  const auto [from, d, dist] = StrategoGame::move_of(action);
  int to = from;
  for (int i = 0; i < dist; ++i) to = kNeighbours.next[to][d];
  for (Player p : {0, 1}) mix_info(p, static_cast<std::uint64_t>(action) + 1000);
  const bool struck = board_[to] >= 0;
  play_move(from, to);
  ++plies_;
  mover_ = 1 - mover_;
  judge_after_move(struck);
}

void StrategoState::play_move(int from, int to) {
  const Player p = mover_, q = 1 - p;
  const int id = board_[from];
  // The repetition rules, judged on the move before it changes the board.
  const bool struck = board_[to] >= 0;
  const int f = last_from_[q], t = last_to_[q];
  const bool chase = !struck && f >= 0 && t >= 0 && owner(t) == q && (dilate(bit(from)) & bit(f)) &&
                     !(dilate(bit(from)) & bit(t)) && t != from && (dilate(bit(to)) & bit(t));
  if (chase) {
    chase_count_[p] = static_cast<std::int8_t>(
        chase_count_[p] > 0 && chase_target_[p] == f && chase_piece_[p] == from ? chase_count_[p] + 1 : 1);
    chase_piece_[p] = static_cast<std::int8_t>(to);
    chase_target_[p] = static_cast<std::int8_t>(t);
  } else {
    chase_count_[p] = 0;
  }
  ts_count_[p] = static_cast<std::int8_t>(ts_count_[p] > 0 && from == ts_to_[p] && to == ts_from_[p] ? ts_count_[p] + 1 : 1);
  ts_from_[p] = static_cast<std::int8_t>(from);
  ts_to_[p] = static_cast<std::int8_t>(to);
  last_from_[p] = static_cast<std::int8_t>(from);
  last_to_[p] = static_cast<std::int8_t>(to);

  flags_[id] |= kMoved;
  if (kind_[id] == kScout && (std::abs(to - from) != 1 && std::abs(to - from) != kSide)) flags_[id] |= kLongMoved;
  const int kind = kind_[id];
  const auto lift = [&](Player side, int cell) {
    occ_[side] &= ~bit(cell);
    mobile_[side] &= ~bit(cell);
    scouts_[side] &= ~bit(cell);
  };
  const auto put = [&](Player side, int cell, int k) {
    occ_[side] |= bit(cell);
    if (is_mobile(k)) mobile_[side] |= bit(cell);
    if (k == kScout) scouts_[side] |= bit(cell);
  };
  if (!struck) {
    lift(p, from);
    put(p, to, kind);
    board_[to] = board_[from];
    board_[from] = -1;
    return;
  }
  const int victim = board_[to], vkind = kind_[victim];
  flags_[id] |= kRevealed;
  flags_[victim] |= kRevealed;
  for (Player v : {0, 1}) {
    mix_info(v, 2000 + static_cast<std::uint64_t>(kind));
    mix_info(v, 3000 + static_cast<std::uint64_t>(vkind));
  }
  const int result = strike(kind, vkind);
  lift(p, from);
  board_[from] = -1;
  if (result >= 0) {  // the defender falls
    lift(q, to);
    board_[to] = -1;
    --alive_[q][vkind];
    ++captured_[q][vkind];
  }
  if (result <= 0) {  // the attacker falls
    --alive_[p][kind];
    ++captured_[p][kind];
    ts_count_[p] = 0;
    chase_count_[p] = 0;
  } else {
    put(p, to, kind);
    board_[to] = static_cast<std::int8_t>(id);
  }
  if (vkind == kFlag) finish(p, EndReason::kFlagCaptured);
}

void StrategoState::judge_after_move(bool struck) {
  if (end_ != EndReason::kNone) return;
  const Player p = mover_;
  if (!can_move(p)) {
    finish(can_move(1 - p) ? 1 - p : 2, can_move(1 - p) ? EndReason::kNoMoves : EndReason::kNeitherCanMove);
    return;
  }
  if (struck && flags_unreachable()) {
    finish(2, EndReason::kFlagUnreachable);
    return;
  }
  if (plies_ >= stratego().move_cap()) finish(2, EndReason::kMoveCap);
}

void StrategoState::write_returns(std::span<double> out) const {
  out[0] = out[1] = 0;
  if (winner_ == 0 || winner_ == 1) {
    out[winner_] = 1;
    out[1 - winner_] = -1;
  }
}

std::vector<Step> StrategoState::history() const {
  std::vector<Step> out(history_.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Step s = history_[i];
    out[i] = {s.player == 2 ? kChancePlayer : s.player, s.action};
  }
  return out;
}

std::uint64_t StrategoState::hash() const {
  std::uint64_t h = 0x51ed2701a3c5b1f3ULL;
  for (int c = 0; c < kCells; ++c)
    if (board_[c] >= 0)
      h = mix64(h ^ (static_cast<std::uint64_t>(c) << 16 | static_cast<std::uint64_t>(kind_[board_[c]]) << 8 |
                     static_cast<std::uint64_t>(owner(c)) << 4 | flags_[board_[c]]));
  for (Player p : {0, 1}) {
    for (int k = 0; k <= kNoPiece; ++k) h = mix64(h ^ (static_cast<std::uint64_t>(hand_[p][k]) + 64 * k + 4096 * p));
    for (int k = 0; k < kKinds; ++k) h = mix64(h ^ (static_cast<std::uint64_t>(captured_[p][k]) + 64 * k + 8192 * p));
    const std::int8_t v[] = {last_from_[p], last_to_[p], ts_from_[p], ts_to_[p], ts_count_[p],
                             chase_count_[p], chase_piece_[p], chase_target_[p]};
    for (std::int8_t x : v) h = mix64(h ^ static_cast<std::uint8_t>(x));
  }
  const std::uint64_t tail[] = {static_cast<std::uint64_t>(fill_), static_cast<std::uint64_t>(mover_),
                                static_cast<std::uint64_t>(plies_), static_cast<std::uint64_t>(end_),
                                static_cast<std::uint64_t>(winner_ + 1)};
  for (std::uint64_t x : tail) h = mix64(h ^ x);
  return h;
}

}  // namespace boardlab
