// Morabaraba rules on 24-bit point masks: placing, moving, flying, shots, GAR no-return, draws, records.
#include "games/morabaraba/morabaraba.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {

using namespace morabaraba;

namespace {

constexpr Action kDecline = MorabarabaGame::kDecline;
constexpr Action kMoveBase = MorabarabaGame::kMoveBase;
constexpr int kCows = MorabarabaGame::kCowsPerPlayer;
constexpr const char* kColour[2] = {"White", "Black"};
constexpr const char* kColourKey[2] = {"white", "black"};

struct ZobristKeys {
  std::uint64_t cow[2][kNumPoints];
  std::uint64_t hand[2][kCows + 1];
  std::uint64_t mover[2];
  std::uint64_t pending;
  std::uint64_t no_return[2][kNumPoints][kNumPoints];
  std::uint64_t three_plies[MorabarabaGame::kThreeCowsPlies + 1];
  std::uint64_t outcome[3];
  std::uint64_t plies_seed;
};

constexpr std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr ZobristKeys make_keys() {
  ZobristKeys keys{};
  std::uint64_t x = 0x6d6f726162617261ULL;
  auto next = [&x]() { return mix(x += 0x9e3779b97f4a7c15ULL); };
  for (auto& player : keys.cow)
    for (auto& key : player) key = next();
  for (auto& player : keys.hand)
    for (auto& key : player) key = next();
  for (auto& key : keys.mover) key = next();
  keys.pending = next();
  for (auto& player : keys.no_return)
    for (auto& cow : player)
      for (auto& key : cow) key = next();
  for (auto& key : keys.three_plies) key = next();
  for (auto& key : keys.outcome) key = next();
  keys.plies_seed = next();
  return keys;
}
constexpr ZobristKeys kKeys = make_keys();

// The ply count enters the hash through a mixer: the cap is a parameter, so no table fits it.
std::uint64_t plies_key(int plies) { return mix(kKeys.plies_seed + static_cast<std::uint64_t>(plies)); }

std::string points_text(Points points) {
  std::string out;
  for (; points; points &= points - 1) {
    if (!out.empty()) out += ' ';
    out += kPointNames[lowest(points)];
  }
  return out;
}

std::string mill_text(Points mill) {
  std::string out;
  for (; mill; mill &= mill - 1) out += (out.empty() ? "" : "-") + std::string(kPointNames[lowest(mill)]);
  return out;
}

std::string trim_space(std::string_view text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

std::vector<std::string> words_of(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// The 8 symmetries of the square on (file, rank), as transpose, then file and rank mirrors.
std::pair<int, int> transform(int t, int file, int rank) {
  if (t & 4) std::swap(file, rank);
  if (t & 1) file = kBoardSide - 1 - file;
  if (t & 2) rank = kBoardSide - 1 - rank;
  return {file, rank};
}

// Outer ring <-> inner ring, the middle one fixed: every line of the board crosses the rings in
// order (outer, middle, inner) or stays on one ring, so adjacency and mills are unchanged, though
// no motion of the square does this.
int swapped_rings(int point) { return kRingPoints * (kRings - 1 - point / kRingPoints) + point % kRingPoints; }

constexpr const char* kSymmetryNames[8] = {
    "identity",
    "mirror files a<->g",
    "mirror ranks 1<->7",
    "rotate 180 (a1->g7)",
    "reflect in the a1-g7 diagonal",
    "rotate 90 counterclockwise (a1->g1)",
    "rotate 90 clockwise (a1->a7)",
    "reflect in the a7-g1 diagonal",
};

}  // namespace

// ---------------------------------------------------------------------------- game

MorabarabaGame::MorabarabaGame(const GameParameters& params)
    : Game("morabaraba", params),
      full_board_draw_(std::get<bool>(params.at("full_board_draw"))),
      move_cap_(static_cast<int>(std::get<std::int64_t>(params.at("move_cap")))) {
  for (int t = 1; t < 16; ++t) {
    // The observation's cells are the points, so the cell permutation is the point one.
    const bool swap = t >= 8;
    const std::string name = t == 8  ? std::string("swap the outer and inner rings")
                             : swap ? std::string(kSymmetryNames[t % 8]) + ", then swap the outer and inner rings"
                                    : std::string(kSymmetryNames[t]);
    Symmetry s{name, std::vector<int>(kNumPoints), std::vector<Action>(kNumActions), {}, {}};
    int image[kNumPoints];
    for (int p = 0; p < kNumPoints; ++p) {
      const auto [file, rank] = transform(t % 8, point_file(p), point_rank(p));
      image[p] = point_at(file, rank);
      if (swap) image[p] = swapped_rings(image[p]);
      s.cell[p] = image[p];
      s.action[p] = image[p];
    }
    for (int from = 0; from < kNumPoints; ++from)
      for (int to = 0; to < kNumPoints; ++to) s.action[move_action(from, to)] = move_action(image[from], image[to]);
    s.action[kDecline] = kDecline;
    symmetries_.push_back(std::move(s));
  }
}

std::unique_ptr<State> MorabarabaGame::new_initial_state() const { return std::make_unique<MorabarabaState>(*this); }

GameSpec morabaraba_spec() {
  return {"morabaraba",
          "Morabaraba: 12 cows each on the 24-point board with diagonals; mills shoot, 3 cows fly",
          {{"full_board_draw", false,
            "a full board after placing (no cow shot) is a draw instead of a loss for White (the published "
            "solution's convention)"},
           {"move_cap", std::int64_t{MorabarabaGame::kDefaultMoveCap},
            "plies (placements and moves) after which the game is drawn; not a rule, reported as a cap"}},
          [](const GameParameters& params) -> std::shared_ptr<const Game> {
            const auto cap = std::get<std::int64_t>(params.at("move_cap"));
            if (cap <= 0 || cap > MorabarabaGame::kMaxMoveCap)
              throw GameParameterError("morabaraba: move_cap must be 1.." +
                                       std::to_string(MorabarabaGame::kMaxMoveCap) + " plies, got " +
                                       std::to_string(cap));
            return std::make_shared<MorabarabaGame>(params);
          },
          {"full_board_draw=true", "move_cap=60"}};
}

// ---------------------------------------------------------------------------- state

MorabarabaState::MorabarabaState(const MorabarabaGame& game)
    : State(game), full_board_draw_(game.full_board_draw()), move_cap_(game.move_cap()) {
  board_hash_ = kKeys.hand[0][kCows] ^ kKeys.hand[1][kCows];
  history_.reserve(static_cast<std::size_t>(std::min(game.max_game_length(), 2048)));
}

int MorabarabaState::parse_point(std::string_view text) {
  if (text.size() != 2) return -1;
  const int file = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
  const int rank = text[1] - '1';
  if (file < 0 || file >= kBoardSide || rank < 0 || rank >= kBoardSide) return -1;
  return point_at(file, rank);
}

Points MorabarabaState::shootable(Player victim) const {
  const Points cows = cows_[victim];
  const Points free = cows & ~points_in_mills(cows);
  return free ? free : cows;
}

Action MorabarabaState::forbidden_return() const {
  const NoReturn r = no_return_[mover_];
  return r.active() ? MorabarabaGame::move_action(r.cow, r.point) : kInvalidAction;
}

void MorabarabaState::drop_dead_no_return(Player p) {
  // A restriction is kept only while it can still bite, so that it never tells equal positions apart.
  const NoReturn r = no_return_[p];
  if (!r.active()) return;
  const Points own = cows_[p];
  if (!(own & bit(r.cow)) || ((cows_[0] | cows_[1]) & bit(r.point)) ||
      !in_mill((own & ~bit(r.cow)) | bit(r.point), r.point))
    no_return_[p] = {};
}

int MorabarabaState::list_moves(Action* out) const {
  const Points empty = kAllPoints & ~(cows_[0] | cows_[1]);
  const bool fly = flies(mover_);
  const Action forbidden = forbidden_return();
  int n = 0;
  for (Points own = cows_[mover_]; own; own &= own - 1) {
    const int from = lowest(own);
    const Action base = MorabarabaGame::move_action(from, 0);
    for (Points to = fly ? empty : kTables.adjacent[from] & empty; to; to &= to - 1) {
      const Action a = base + lowest(to);
      if (a != forbidden) out[n++] = a;
    }
  }
  return n;
}

bool MorabarabaState::has_move(Player p) const {
  const Points empty = kAllPoints & ~(cows_[0] | cows_[1]);
  const NoReturn r = no_return_[p];
  const bool fly = flies(p);
  for (Points own = cows_[p]; own; own &= own - 1) {
    const int from = lowest(own);
    Points to = fly ? empty : kTables.adjacent[from] & empty;
    if (r.active() && from == r.cow) to &= ~bit(r.point);
    if (to) return true;
  }
  return false;
}

// Up to 40 slides (one per edge) or 3 × 21 flights.
constexpr int kMaxMoves = 64;

void MorabarabaState::list_legal_actions(Player player, std::vector<Action>& out) const {
  out.clear();
  if (outcome_ != kOngoing || player != mover_) return;
  if (pending_) {
    for (Points t = shootable(1 - mover_); t; t &= t - 1) out.push_back(lowest(t));
    out.push_back(kDecline);
  } else if (placing()) {
    for (Points e = kAllPoints & ~(cows_[0] | cows_[1]); e; e &= e - 1) out.push_back(lowest(e));
  } else {
    Action moves[kMaxMoves];
    const int n = list_moves(moves);
    out.assign(moves, moves + n);
  }
}

Action MorabarabaState::draw_random_action(Rng& rng) const {
  if (outcome_ != kOngoing) throw IllegalActionError("random_legal_action: the game is over");
  if (pending_) {
    const Points targets = shootable(1 - mover_);
    const int n = count(targets);
    const int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(n + 1)));
    return k == n ? kDecline : select_point(targets, k);
  }
  if (placing()) {
    const Points empty = kAllPoints & ~(cows_[0] | cows_[1]);
    return select_point(empty, static_cast<int>(rng.below(static_cast<std::uint32_t>(count(empty)))));
  }
  // Counting each cow's destinations and picking one by index avoids listing every move.
  const Points empty = kAllPoints & ~(cows_[0] | cows_[1]);
  const bool fly = flies(mover_);
  const NoReturn r = no_return_[mover_];
  int from[MorabarabaGame::kCowsPerPlayer];
  Points to[MorabarabaGame::kCowsPerPlayer];
  int cows = 0, total = 0;
  for (Points own = cows_[mover_]; own; own &= own - 1, ++cows) {
    from[cows] = lowest(own);
    to[cows] = fly ? empty : kTables.adjacent[from[cows]] & empty;
    if (from[cows] == r.cow) to[cows] &= ~bit(r.point);
    total += count(to[cows]);
  }
  int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));  // total > 0: a blocked mover has lost
  for (int i = 0;; ++i) {
    const int n = count(to[i]);
    if (k < n) return MorabarabaGame::move_action(from[i], select_point(to[i], k));
    k -= n;
  }
}

bool MorabarabaState::legal(Action action) const {
  if (outcome_ != kOngoing || action < 0 || action >= MorabarabaGame::kNumActions) return false;
  const Points occupied = cows_[0] | cows_[1];
  if (pending_) return action == kDecline || (action < kMoveBase && (shootable(1 - mover_) & bit(action)));
  if (placing()) return action < kMoveBase && !(occupied & bit(action));
  if (action < kMoveBase || action == kDecline) return false;
  const int from = (action - kMoveBase) / kNumPoints, to = (action - kMoveBase) % kNumPoints;
  return (cows_[mover_] & bit(from)) && !(occupied & bit(to)) &&
         (flies(mover_) || (kTables.adjacent[from] & bit(to))) && action != forbidden_return();
}

std::string MorabarabaState::illegality(Action action) const {
  if (outcome_ != kOngoing) return "the game is over";
  if (action < 0 || action >= MorabarabaGame::kNumActions)
    return "action " + std::to_string(action) + " is outside 0..600";
  const Player me = mover_, foe = 1 - mover_;
  const std::string who = kColour[me], enemy = kColour[foe];
  const Points occupied = cows_[0] | cows_[1];
  if (pending_) {
    if (action == kDecline) return {};
    if (action >= kMoveBase) return who + " must first shoot a " + enemy + " cow or decline the shot (x-)";
    const std::string where(point_name(action));
    if (!(cows_[foe] & bit(action))) return "there is no " + enemy + " cow on " + where + " to shoot";
    if (shootable(foe) & bit(action)) return {};
    for (Points mill : kTables.mills_through[action])
      if ((cows_[foe] & mill) == mill)
        return "the " + enemy + " cow on " + where + " stands in the mill " + mill_text(mill) + " and " + enemy +
               " has cows outside mills";
    return "the " + enemy + " cow on " + where + " may not be shot";
  }
  if (action == kDecline) return "there is no shot to decline";
  if (placing()) {
    if (action >= kMoveBase)
      return who + " still has " + std::to_string(hand_[me]) + " cow(s) in hand: cows are placed, not moved";
    if (occupied & bit(action)) return std::string(point_name(action)) + " is occupied";
    return {};
  }
  if (action < kMoveBase) return "every cow is placed: a turn moves a cow (from-to)";
  const int from = (action - kMoveBase) / kNumPoints, to = (action - kMoveBase) % kNumPoints;
  const std::string from_name(point_name(from)), to_name(point_name(to));
  if (!(cows_[me] & bit(from))) return who + " has no cow on " + from_name;
  if (occupied & bit(to)) return to_name + " is occupied";
  if (!flies(me) && !(kTables.adjacent[from] & bit(to)))
    return from_name + " and " + to_name + " are not adjacent, and " + who + " has " + std::to_string(cow_count(me)) +
           " cows (only 3 fly)";
  if (action == forbidden_return())
    return "no return (GAR): the cow on " + from_name + " left a mill on " + to_name +
           " to make a new one, and going back now would remake a mill";
  return {};
}

void MorabarabaState::shoot(int point) {
  const Player me = mover_, foe = 1 - mover_;
  cows_[foe] &= ~bit(point);
  board_hash_ ^= kKeys.cow[foe][point];
  drop_dead_no_return(foe);
  if (cow_count(foe) <= 2) return finish(me == 0 ? kWhiteWins : kBlackWins, EndReason::kTwoCows);
  three_plies_ = 0;  // counted from the moment both have 3 (this shot, if it made it so)
}

void MorabarabaState::apply(Action action) {
  if (!legal(action)) {
    const std::string name =
        action >= 0 && action < MorabarabaGame::kNumActions ? action_to_string(mover_, action) : std::to_string(action);
    throw IllegalActionError("illegal action " + name + ": " + illegality(action));
  }
  history_.push_back(mover_, action);
  const Player me = mover_, foe = 1 - mover_;
  if (pending_) {
    pending_ = false;
    if (action != kDecline) {
      shoot(action);
      if (outcome_ != kOngoing) return;
    }
    return end_turn();
  }
  no_return_[me] = {};  // it held for this move only
  int to;
  if (action < kMoveBase) {
    to = action;
    cows_[me] |= bit(to);
    board_hash_ ^= kKeys.cow[me][to] ^ kKeys.hand[me][hand_[me]] ^ kKeys.hand[me][hand_[me] - 1];
    --hand_[me];
  } else {
    const int from = (action - kMoveBase) / kNumPoints;
    to = (action - kMoveBase) % kNumPoints;
    const bool left_mill = in_mill(cows_[me], from);
    cows_[me] ^= bit(from) | bit(to);
    board_hash_ ^= kKeys.cow[me][from] ^ kKeys.cow[me][to];
    if (left_mill && in_mill(cows_[me], to))
      no_return_[me] = {static_cast<std::int8_t>(to), static_cast<std::int8_t>(from)};
  }
  drop_dead_no_return(foe);  // the cow may have landed on the opponent's no-return point
  ++plies_;
  if (both_have_three()) ++three_plies_;
  if (cows_[foe] != 0 && in_mill(cows_[me], to)) {
    pending_ = true;
    return;
  }
  end_turn();
}

void MorabarabaState::end_turn() {
  mover_ = 1 - mover_;
  judge_turn_start();
}

void MorabarabaState::judge_turn_start() {
  if (!placing() && !has_move(mover_)) {
    if (full_board_draw_ && (cows_[0] | cows_[1]) == kAllPoints) return finish(kDraw, EndReason::kFullBoardDraw);
    return finish(mover_ == 0 ? kBlackWins : kWhiteWins, EndReason::kBlockade);
  }
  if (three_plies_ >= MorabarabaGame::kThreeCowsPlies) return finish(kDraw, EndReason::kThreeCowsDraw);
  if (plies_ >= move_cap_) return finish(kDraw, EndReason::kMoveCap);
}

void MorabarabaState::write_returns(std::span<double> out) const {
  if (out.size() != 2) throw InputError("returns: Morabaraba has 2 players, buffer has " + std::to_string(out.size()));
  out[0] = out[1] = 0;
  if (outcome_ == kWhiteWins || outcome_ == kBlackWins) {
    out[outcome_] = 1;
    out[1 - outcome_] = -1;
  }
}

void MorabarabaState::observation(Player p, std::span<float> out) const {
  if (p != 0 && p != 1) throw InputError("observation: player " + std::to_string(p) + " is not 0 or 1");
  constexpr std::size_t kSize = static_cast<std::size_t>(MorabarabaGame::kNumPlanes * kNumPoints);
  if (out.size() != kSize)
    throw InputError("observation: buffer has " + std::to_string(out.size()) + " floats, " + std::to_string(kSize) +
                     " expected");
  std::fill(out.begin(), out.end(), 0.0f);
  const Player q = 1 - p;
  auto mark = [&](int plane, Points points) {
    for (; points; points &= points - 1) out[plane * kNumPoints + lowest(points)] = 1.0f;
  };
  auto fill = [&](int plane, float value) { std::fill_n(out.begin() + plane * kNumPoints, kNumPoints, value); };
  mark(0, cows_[p]);
  mark(1, cows_[q]);
  mark(2, kCorners);
  fill(3, static_cast<float>(hand_[p]) / kCows);
  fill(4, static_cast<float>(hand_[q]) / kCows);
  if (cow_count(p) == 3) fill(5, 1.0f);
  if (cow_count(q) == 3) fill(6, 1.0f);
  if (outcome_ == kOngoing && mover_ == p) fill(7, 1.0f);
  if (shot_pending()) fill(8, 1.0f);
  mark(9, shootable(q));
  mark(10, shootable(p));
  for (Player who : {p, q}) {
    const NoReturn r = no_return_[who];
    if (!r.active()) continue;
    const int plane = who == p ? 11 : 13;
    mark(plane, bit(r.cow));
    mark(plane + 1, bit(r.point));
  }
  fill(15, static_cast<float>(three_plies_) / MorabarabaGame::kThreeCowsPlies);
  fill(16, static_cast<float>(plies_) / static_cast<float>(move_cap_));
}

std::uint64_t MorabarabaState::hash() const {
  std::uint64_t h = board_hash_ ^ plies_key(plies_) ^ kKeys.three_plies[three_plies_];
  for (Player p : {0, 1})
    if (no_return_[p].active()) h ^= kKeys.no_return[p][no_return_[p].cow][no_return_[p].point];
  if (outcome_ != kOngoing) return h ^ kKeys.outcome[outcome_];
  return h ^ kKeys.mover[mover_] ^ (pending_ ? kKeys.pending : 0);
}

std::string MorabarabaState::position_text() const {
  std::string out = "white: " + points_text(cows_[0]) + "; black: " + points_text(cows_[1]) +
                    "; hands: " + std::to_string(hand_[0]) + " " + std::to_string(hand_[1]) +
                    "; to_move: " + kColourKey[mover_];
  if (pending_) out += "; shot: pending";
  for (Player p : {0, 1})
    if (no_return_[p].active())
      out += "; no_return: " + std::string(kColourKey[p]) + " " + std::string(point_name(no_return_[p].cow)) + " " +
             std::string(point_name(no_return_[p].point));
  if (plies_ != 0) out += "; plies: " + std::to_string(plies_);
  if (three_plies_ != 0) out += "; three_cows: " + std::to_string(three_plies_);
  return out;
}

std::string MorabarabaState::to_string() const {
  // The board with its lines; each point is two columns apart, rank 7 on top.
  static constexpr const char* kPicture[13] = {
      ".-----.-----.",
      "|\\    |    /|",
      "| .---.---. |",
      "| |\\  |  /| |",
      "| | .-.-. | |",
      "| | |   | | |",
      ".-.-.   .-.-.",
      "| | |   | | |",
      "| | .-.-. | |",
      "| |/  |  \\| |",
      "| .---.---. |",
      "|/    |    \\|",
      ".-----.-----.",
  };
  std::string rows[13];
  for (int line = 0; line < 13; ++line) rows[line] = kPicture[line];
  for (Player p : {0, 1})
    for (Points c = cows_[p]; c; c &= c - 1)
      rows[2 * (kBoardSide - 1 - point_rank(lowest(c)))][static_cast<std::size_t>(2 * point_file(lowest(c)))] =
          p == 0 ? 'W' : 'B';
  std::string out;
  for (int line = 0; line < 13; ++line)
    out += (line % 2 == 0 ? std::to_string(kBoardSide - line / 2) + " " : std::string("  ")) + rows[line] + "\n";
  return out + "  a b c d e f g\n" + position_text() + "\n" + status();
}

std::string MorabarabaState::status() const {
  static constexpr const char* kEnd[] = {"",
                                         "the loser has 2 cows left",
                                         "the loser cannot move",
                                         "full board after placing",
                                         "10 moves each at 3 cows without a shot",
                                         "move cap reached"};
  const std::string why = kEnd[static_cast<int>(end_)];
  switch (outcome_) {
    case kWhiteWins: return "White wins (" + why + ")";
    case kBlackWins: return "Black wins (" + why + ")";
    case kDraw: return "draw (" + why + ")";
    default: break;
  }
  const std::string who = kColour[mover_];
  if (pending_) return who + " to shoot a " + kColour[1 - mover_] + " cow or decline";
  if (placing()) return who + " to place (" + std::to_string(hand_[mover_]) + " in hand)";
  return who + (flies(mover_) ? " to fly" : " to move");
}

std::optional<Diagram> MorabarabaState::diagram(Player) const {
  Diagram out;
  out.width = out.height = kBoardSide - 1;  // the points lie on the lines' ends and crossings
  label_grid(out, {"a", "b", "c", "d", "e", "f", "g"}, kBoardSide, 0);
  for (int point = 0; point < kNumPoints; ++point) {
    const double x = point_file(point), y = point_rank(point);
    out.points.push_back({std::string(point_name(point)), x, y});
    for (Points next = kTables.adjacent[point]; next; next &= next - 1) {
      const int other = lowest(next);
      if (other > point) out.lines.push_back({x, y, static_cast<double>(point_file(other)), static_cast<double>(point_rank(other))});
    }
    for (Player p : {0, 1})
      if (cows_[p] & bit(point)) out.pieces.push_back({x, y, 0.6, p, "cow", "", {}});
  }
  out.status = status();
  return out;
}

std::string MorabarabaState::action_text(Player, Action action) const {
  if (action < 0 || action >= MorabarabaGame::kNumActions)
    throw InputError("action " + std::to_string(action) + " is outside 0..600");
  if (action == kDecline) return "x-";
  if (action < kMoveBase) return (shot_pending() ? "x" : "") + std::string(point_name(action));
  const int from = (action - kMoveBase) / kNumPoints, to = (action - kMoveBase) % kNumPoints;
  return std::string(point_name(from)) + "-" + std::string(point_name(to));
}

Action MorabarabaState::read_action(Player, std::string_view text) const {
  const auto fail = [&](const std::string& why) -> Action {
    throw NotationError(quote_input(text) + " is not a Morabaraba action: " + why);
  };
  const auto point = [&](std::string_view name) -> int {
    const int p = parse_point(name);
    if (p < 0) fail(quote_input(name) + " is not a point (the points are " + points_text(kAllPoints) + ")");
    return p;
  };
  if (text.empty()) return fail("it is empty");
  if (text[0] == 'x' || text[0] == 'X') {
    if (text.substr(1) == "-") return kDecline;
    return point(text.substr(1));
  }
  const auto dash = text.find('-');
  if (dash == std::string_view::npos) return point(text);
  const auto shot = text.find_first_of("xX");
  if (shot != std::string_view::npos) return fail("a ply and its shot are two actions; give them one at a time");
  return MorabarabaGame::move_action(point(text.substr(0, dash)), point(text.substr(dash + 1)));
}

std::vector<Step> MorabarabaState::history() const {
  std::vector<Step> out(history_.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = history_[i];
  return out;
}

std::string MorabarabaGame::format_turn(std::span<const std::string> steps, bool) const {
  std::string out;
  for (const std::string& step : steps) out += step;  // a shot decision (`xe4`, `x-`) joins its ply
  return out;
}

std::vector<std::string> MorabarabaGame::split_turn(std::string_view turn, bool) const {
  const auto x = turn.find_first_of("xX");
  if (x == 0 || x == std::string_view::npos) return {std::string(turn)};
  return {std::string(turn.substr(0, x)), std::string(turn.substr(x))};
}

std::unique_ptr<State> MorabarabaGame::load_record(std::string_view record) const {
  auto state = std::make_unique<MorabarabaState>(*this);
  const RecordTurns read = record_turns(record);
  int ply = 0, number = 0;
  std::string_view word;
  // The message is built only on failure: records of whole games are read in bulk.
  const auto where = [&] {
    const bool shot_only = word.find_first_of("xX") == 0;
    return "record ply " + std::to_string(ply) + (shot_only ? " (its shot)" : "") + " " + quote_input(word);
  };
  for (const std::string& turn : read.turns) {
    word = turn;
    const auto x = word.find_first_of("xX");
    const std::string_view move = word.substr(0, x);
    const std::string_view shot = x == std::string_view::npos ? std::string_view() : word.substr(x);
    if (!move.empty()) ++ply;
    const auto fail = [&](const std::string& why) { throw NotationError(where() + ": " + why); };
    if (state->is_terminal()) fail("the game is already over");
    try {
      if (state->shot_pending() && !move.empty())
        throw NotationError(player_name(state->current_player()) + " must first decide the shot earned by ply " +
                            std::to_string(ply - 1) + " (xPOINT or x- after it)");
      if (!move.empty()) {
        number = state->move_number();
        state->apply(state->string_to_action(move));
        if (!shot.empty() && !state->shot_pending())
          throw NotationError(std::string(move) + " makes no mill" +
                              (state->is_terminal() ? " and ended the game" : "") + ": there is no shot to take");
      } else if (!state->shot_pending()) {
        throw NotationError(ply == 0 ? "a record starts with a placement, not a shot"
                                     : "no mill was made: there is no shot to take");
      }
      if (!shot.empty()) state->apply(state->string_to_action(shot));
    } catch (const InputError& e) {
      fail(e.what());
    }
  }
  // A ply whose shot is still to decide goes on: the record then ends with kTurnGoesOn.
  if (!read.turns.empty()) close_record_turn(*state, number, read.goes_on, where());
  return state;
}

namespace {

[[noreturn]] void fail_text(const std::string& why) { throw InputError("from_text: " + why); }

Player text_colour(const std::string& word) {
  if (word == "white") return 0;
  if (word == "black") return 1;
  fail_text(quote_input(word) + " is not a colour (white or black)");
}

int text_number(const std::string& word, int low, int high, const std::string& what) {
  const auto refuse = [&] {
    fail_text(what + " must be a number " + std::to_string(low) + ".." + std::to_string(high) + ", not " + quote_input(word));
  };
  int value = 0;
  for (char c : word) {
    if (c < '0' || c > '9' || value > high) refuse();
    value = value * 10 + (c - '0');
  }
  if (word.empty() || value < low || value > high) refuse();
  return value;
}

int text_point(const std::string& word) {
  const int p = MorabarabaState::parse_point(word);
  if (p < 0) fail_text(quote_input(word) + " is not a point");
  return p;
}

}  // namespace

std::unique_ptr<MorabarabaState> MorabarabaState::from_text(const MorabarabaGame& game, std::string_view text) {
  auto state = std::make_unique<MorabarabaState>(game);
  state->has_history_ = false;
  state->cows_[0] = state->cows_[1] = 0;
  state->hand_[0] = state->hand_[1] = 0;
  TextClauses read;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find(';', start), text.size());
    const std::string clause = trim_space(text.substr(start, end - start));
    start = end + 1;
    if (!clause.empty()) state->read_text_clause(clause, read);
  }
  state->finish_text(read);
  return state;
}

void MorabarabaState::read_text_clause(const std::string& clause, TextClauses& read) {
  const auto colon = clause.find(':');
  if (colon == std::string::npos) fail_text(quote_input(clause) + " is not of the form key: values");
  const std::string key = trim_space(std::string_view(clause).substr(0, colon));
  const std::vector<std::string> values = words_of(std::string_view(clause).substr(colon + 1));
  auto expect = [&](std::size_t n) {
    if (values.size() != n) fail_text(quote_input(key) + " takes " + std::to_string(n) + " value(s): " + quote_input(clause));
  };
  if (key == "white" || key == "black") {
    const Player p = text_colour(key);
    for (const std::string& word : values) {
      const int c = text_point(word);
      if ((cows_[0] | cows_[1]) & bit(c)) fail_text(word + " is listed twice");  // a point's name
      cows_[p] |= bit(c);
    }
  } else if (key == "hands") {
    expect(2);
    for (Player p : {0, 1}) hand_[p] = static_cast<std::int8_t>(text_number(values[p], 0, kCows, "a hand"));
  } else if (key == "to_move") {
    expect(1);
    mover_ = text_colour(values[0]);
    read.to_move_given = true;
  } else if (key == "shot") {
    expect(1);
    if (values[0] != "pending") fail_text("'shot' takes the value 'pending'");
    pending_ = true;
  } else if (key == "no_return") {
    expect(3);
    read.no_return[text_colour(values[0])] = {static_cast<std::int8_t>(text_point(values[1])),
                                              static_cast<std::int8_t>(text_point(values[2]))};
  } else if (key == "plies") {
    expect(1);
    plies_ = text_number(values[0], 0, MorabarabaGame::kMaxMoveCap, "plies");
  } else if (key == "three_cows") {
    expect(1);
    three_plies_ = static_cast<std::int8_t>(text_number(values[0], 0, MorabarabaGame::kThreeCowsPlies, "three_cows"));
  } else {
    fail_text("unknown key " + quote_input(key) + " (white, black, hands, to_move, shot, no_return, plies, three_cows)");
  }
}

void MorabarabaState::finish_text(const TextClauses& read) {
  if (!read.to_move_given) fail_text("'to_move: white' or 'to_move: black' is required");
  for (Player p : {0, 1})
    if (cow_count(p) > kCows) fail_text(std::string(kColour[p]) + " has " + std::to_string(cow_count(p)) + " cows, more than 12");
  const Player mover = mover_, foe = 1 - mover;
  if (placing()) {
    // Placements alternate from White, so the hands say who places next.
    const int diff = hand_[1] - hand_[0];
    if (diff != 0 && diff != 1) fail_text("hands differ by more than the one placement White makes first");
    const Player placer = diff == 0 ? 0 : 1;
    if (pending_ ? mover == placer : mover != placer)
      fail_text(std::string("with these hands ") + kColour[placer] + " places next" +
                (pending_ ? ", so the pending shot is " + std::string(kColour[1 - placer]) + "'s" : ""));
  }
  if (pending_ && cows_[foe] == 0) fail_text("a shot is pending but there is no enemy cow to shoot");
  if (three_plies_ != 0 && !both_have_three()) fail_text("three_cows counts plies while both players have exactly 3 cows");
  for (Player p : {0, 1}) {
    const NoReturn r = read.no_return[p];
    if (!r.active()) continue;
    no_return_[p] = r;
    drop_dead_no_return(p);
    if (placing() || !no_return_[p].active())
      fail_text("the no_return restriction of " + std::string(kColour[p]) +
                " cannot bite: it needs the moving phase, its cow on the first point, the second point empty, "
                "and a mill that the return would remake");
  }
  std::uint64_t h = kKeys.hand[0][hand_[0]] ^ kKeys.hand[1][hand_[1]];
  for (Player p : {0, 1})
    for (Points c = cows_[p]; c; c &= c - 1) h ^= kKeys.cow[p][lowest(c)];
  board_hash_ = h;
  const bool white_lost = cow_count(0) <= 2, black_lost = cow_count(1) <= 2;
  if (white_lost && black_lost) fail_text("both players have at most 2 cows");
  if (white_lost || black_lost) finish(white_lost ? kBlackWins : kWhiteWins, EndReason::kTwoCows);
  else if (!pending_) judge_turn_start();
}

}  // namespace boardlab
