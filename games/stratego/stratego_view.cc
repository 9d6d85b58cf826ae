// What each Stratego player sees: notation, observations, information keys, and hidden states drawn consistently with a view.
#include <algorithm>
#include <cstring>

#include "core/errors.h"
#include "core/text.h"
#include "games/stratego/stratego.h"

namespace boardlab {

using namespace stratego;

namespace {

constexpr int kSquares = StrategoGame::kSetupSquares;

// The hidden kinds of one side as a viewer knows them: which pieces are unknown, and which of
// those have moved (so are neither Bomb nor Flag).
struct Unknowns {
  std::vector<int> unmoved, moved;  // piece ids
  std::vector<int> left;            // the kinds to deal, one entry per piece (hand included)
};

}  // namespace

std::string StrategoState::action_text(Player actor, Action action) const {
  (void)actor;
  if (action < 0 || action >= StrategoGame::kNumActions) return "?" + std::to_string(action);
  if (action < StrategoGame::kMoveBase) return action == kNoPiece ? "." : std::string(1, kKindChars[action]);
  const auto [from, d, dist] = StrategoGame::move_of(action);
  const int ff = from % kSide + (d == 1 ? dist : d == 3 ? -dist : 0);
  const int fr = from / kSide + (d == 0 ? dist : d == 2 ? -dist : 0);
  const std::string to = ff >= 0 && ff < kSide && fr >= 0 && fr < kSide ? StrategoGame::cell_name(fr * kSide + ff) : "off";
  return StrategoGame::cell_name(from) + "-" + to;
}

Action StrategoState::read_action(Player, std::string_view text) const {
  if (text.size() == 1) {
    if (text[0] == '.') return kNoPiece;
    const int k = kind_of_char(text[0]);
    if (k >= 0) return k;
    throw NotationError(quote_input(text) + " is not a setup piece (1-9, X, B, F, or '.' for an empty square)");
  }
  const auto dash = text.find('-');
  if (dash == std::string_view::npos)
    throw NotationError(quote_input(text) + " is neither a move like a4-a5 nor a setup piece");
  const int from = StrategoGame::parse_cell(text.substr(0, dash));
  const std::string_view rest = text.substr(dash + 1);
  const int to = StrategoGame::parse_cell(rest.substr(0, rest.find('=')));
  if (from < 0 || to < 0)
    throw NotationError(quote_input(text) + ": squares are a1..k10 (files a-k without j)");
  const int df = to % kSide - from % kSide, dr = to / kSide - from / kSide;
  if ((df != 0) == (dr != 0))
    throw NotationError(quote_input(text) + ": a move goes along one rank or one file");
  const int d = dr > 0 ? 0 : df > 0 ? 1 : dr < 0 ? 2 : 3;
  return StrategoGame::move_action(from, d, std::abs(df + dr));
}

std::string StrategoState::action_seen_by(Player viewer, Player actor, Action action) const {
  if (action < StrategoGame::kMoveBase) {
    const Player side = setting_up() ? setup_side() : actor;
    if (viewer == side || action < 0) return action_to_string(actor, action);
    return action == kNoPiece ? "." : "?";
  }
  std::string text = action_to_string(actor, action);
  const int from = StrategoGame::parse_cell(text.substr(0, text.find('-')));
  const int to = StrategoGame::parse_cell(text.substr(text.find('-') + 1));
  if (from >= 0 && to >= 0 && board_[to] >= 0 && board_[from] >= 0)
    text += "=" + std::string(1, kKindChars[kind_at(from)]) + kKindChars[kind_at(to)];
  return text;
}

std::string StrategoState::to_string() const {
  std::string out;
  for (int r = kSide - 1; r >= 0; --r) {
    out += (r + 1 < 10 ? " " : "") + std::to_string(r + 1) + " ";
    for (int f = 0; f < kSide; ++f) {
      const int c = r * kSide + f;
      if (kLakes & bit(c)) out += " ~~";
      else if (board_[c] < 0) out += " ..";
      else out += std::string(" ") + kKindChars[kind_at(c)] + (owner(c) == 0 ? 'r' : 'b');
    }
    out += "\n";
  }
  return out + "    a  b  c  d  e  f  g  h  i  k\n" + status();
}

std::string StrategoState::status() const {
  if (end_ != EndReason::kNone) {
    static const char* kWhy[] = {"", "the Flag was captured", "the loser could not move", "neither side can move",
                                 "neither Flag can be reached", "the move cap"};
    return (winner_ == 2 ? std::string("Draw") : stratego().player_name(winner_) + " wins") + " (" +
           kWhy[static_cast<int>(end_)] + ") after " + std::to_string(plies_) + " moves";
  }
  if (setting_up()) {
    return stratego().player_name(setup_side()) + " sets up " +
           StrategoGame::cell_name(StrategoGame::setup_cell(setup_side(), fill_ % kSquares));
  }
  return stratego().player_name(mover_) + " to move, move " + std::to_string(plies_ + 1);
}

std::optional<Diagram> StrategoState::diagram(Player viewer) const {
  Diagram out;
  out.width = out.height = kSide;
  out.grid = true;
  label_grid(out, {"a", "b", "c", "d", "e", "f", "g", "h", "i", "k"}, kSide, 0.5);
  for (int c = 0; c < kCells; ++c) {
    const double x = c % kSide + 0.5, y = c / kSide + 0.5;
    out.points.push_back({StrategoGame::cell_name(c), x, y});
    if (kLakes & bit(c)) out.areas.push_back({x - 0.5, y - 0.5, 1, 1, "lake", kInvalidPlayer});
    if (board_[c] < 0) continue;
    const std::uint8_t fl = flags_at(c);
    // A rank is public once revealed in a strike or by a Scout's long move; each side knows its own.
    const bool known = fl & (kRevealed | kLongMoved);
    DiagramPiece piece{x, y, 1, owner(c), "hidden", "", {}};
    if (known || viewer == kInvalidPlayer || viewer == owner(c)) {
      piece.kind = kKindNames[kind_at(c)];
      piece.label = std::string(1, kKindChars[kind_at(c)]);
    }
    if (fl & kMoved) piece.marks.push_back("moved");
    if (known) piece.marks.push_back("known");
    out.pieces.push_back(std::move(piece));
  }
  out.status = status();  // whose turn, or the end and why: public facts
  return out;
}

void StrategoState::observation(Player p, std::span<float> out) const {
  if (static_cast<int>(out.size()) != stratego().observation_shape().size())
    throw InputError("observation: buffer has " + std::to_string(out.size()) + " floats, stratego needs " +
                     std::to_string(stratego().observation_shape().size()));
  if (p < 0 || p > 1) throw InputError("observation: player must be 0 or 1, got " + std::to_string(p));
  std::fill(out.begin(), out.end(), 0.0f);
  const Player q = 1 - p;
  const auto view = [p](int cell) { return p == 0 ? cell : kCells - 1 - cell; };
  const auto set = [&](int plane, int cell) { out[plane * kCells + view(cell)] = 1.0f; };
  const auto fill = [&](int plane, float v) { std::fill_n(out.begin() + plane * kCells, kCells, v); };
  const auto& counts = stratego().counts();
  int known[kKinds] = {};
  for (int c = 0; c < kCells; ++c) {
    if (kLakes & bit(c)) set(29, c);
    if (board_[c] < 0) continue;
    const int id = board_[c], k = kind_[id];
    const std::uint8_t fl = flags_[id];
    const bool kind_known = fl & (kRevealed | kLongMoved);
    if (owner(c) == p) {
      set(k, c);
      if (kind_known) set(12, c);
      if (fl & kMoved) set(13, c);
    } else {
      set(26, c);
      if (kind_known) {
        set(14 + k, c);
        ++known[k];
      }
      if (fl & kMoved) set(27, c);
      if (fl & kLongMoved) set(28, c);
    }
  }
  for (int k = 0; k < kKinds; ++k) {
    if (counts[k] == 0) continue;
    // Unseen: not yet captured and not known on the board (during the setup: not yet placed
    // counts as unseen too, since the viewer cannot tell).
    fill(30 + k, static_cast<float>(counts[k] - captured_[q][k] - known[k]) / static_cast<float>(counts[k]));
    fill(42 + k, static_cast<float>(captured_[p][k]) / static_cast<float>(counts[k]));
    fill(54 + k, static_cast<float>(captured_[q][k]) / static_cast<float>(counts[k]));
  }
  if (setting_up()) {
    fill(66, 1.0f);
    if (setup_side() == p) set(67, StrategoGame::setup_cell(p, fill_ % kSquares));
  }
  for (int k = 0; k <= kNoPiece; ++k) {
    const int initial = k == kNoPiece ? kSquares - stratego().pieces_per_side() : counts[k];
    if (initial > 0) fill(68 + k, static_cast<float>(hand_[p][k]) / static_cast<float>(initial));
  }
  // The last moves, newest first: the history ends with them, every setup step before.
  const int observed = stratego().observed_moves();
  int shown = 0;
  for (std::size_t i = history_.size(); i-- > 0 && shown < observed;) {
    const Action action = history_[i].action;
    if (action < StrategoGame::kMoveBase) break;
    const StrategoGame::Move move = StrategoGame::move_of(action);
    set(StrategoGame::kMovePlanes + 2 * shown, move.from);
    set(StrategoGame::kMovePlanes + 2 * shown + 1, move.to());
    ++shown;
  }
  const int after = StrategoGame::kMovePlanes + 2 * observed;
  if (current_player() == p) fill(after, 1.0f);
  fill(after + 1, static_cast<float>(plies_) / static_cast<float>(stratego().move_cap()));
}

std::uint64_t StrategoState::information_key(Player p) const {
  if (p < 0 || p > 1) throw InputError("information_key: player " + std::to_string(p) + " is not a seat of stratego");
  // info_ mixes what p saw step by step (own setup, the opponent's occupied squares, every
  // move, both kinds of every strike): with the rules deterministic, that is p's whole
  // information state. The public counters close it off.
  std::uint64_t h = info_[p] ^ (static_cast<std::uint64_t>(plies_) << 40) ^ static_cast<std::uint64_t>(fill_);
  return h ^ (static_cast<std::uint64_t>(end_) << 56);
}

bool StrategoState::redeal(Player side, Rng& rng) {
  const StrategoGame& g = stratego();
  if (!g.fixed_setup(side).empty()) return true;  // public: nothing to redeal
  Unknowns u;
  int left[kKinds + 1];
  for (int k = 0; k < kKinds; ++k) left[k] = alive_[side][k] + hand_[side][k];
  // Live pieces by cell: their flags say what the viewer knows.
  for (int c = 0; c < kCells; ++c) {
    if (owner(c) != side) continue;
    const int id = board_[c];
    if (flags_[id] & (kRevealed | kLongMoved)) {
      --left[kind_[id]];
      continue;
    }
    (flags_[id] & kMoved ? u.moved : u.unmoved).push_back(id);
  }
  int immobile = 0;
  for (int k = 0; k < kKinds; ++k)
    for (int n = 0; n < left[k]; ++n) u.left.push_back(k);
  for (int k : u.left) immobile += !is_mobile(k);
  // Uniform over the consistent deals: every deal puts the immobile kinds on unmoved pieces
  // (or in hand) and the rest anywhere, and each choice of their places leaves the same number
  // of ways to deal the rest, so a uniform subset for them, then a uniform shuffle, is uniform.
  std::vector<int> slots = u.unmoved;  // who may take an immobile kind, the hand included
  const int hand_size = static_cast<int>(u.left.size()) - static_cast<int>(u.unmoved.size() + u.moved.size());
  for (int h = 0; h < hand_size; ++h) slots.push_back(-1 - h);
  if (immobile > static_cast<int>(slots.size())) return false;
  std::shuffle(slots.begin(), slots.end(), rng);
  std::vector<int> immobile_kinds, mobile_kinds;
  for (int k : u.left) (is_mobile(k) ? mobile_kinds : immobile_kinds).push_back(k);
  std::shuffle(immobile_kinds.begin(), immobile_kinds.end(), rng);
  std::shuffle(mobile_kinds.begin(), mobile_kinds.end(), rng);
  std::vector<int> rest(slots.begin() + immobile, slots.end());
  rest.insert(rest.end(), u.moved.begin(), u.moved.end());
  int hand[kKinds + 1] = {};
  const auto give = [&](int slot, int kind) {
    if (slot < 0) ++hand[kind];
    else kind_[slot] = static_cast<std::int8_t>(kind);
  };
  for (int i = 0; i < immobile; ++i) give(slots[i], immobile_kinds[i]);
  for (std::size_t i = 0; i < rest.size(); ++i) give(rest[i], mobile_kinds[i]);
  for (int k = 0; k < kKinds; ++k) {
    hand_[side][k] = static_cast<std::int8_t>(hand[k]);
    alive_[side][k] = static_cast<std::int8_t>(left[k] - hand[k]);
  }
  for (int c = 0; c < kCells; ++c)
    if (owner(c) == side && (flags_[board_[c]] & (kRevealed | kLongMoved))) ++alive_[side][kind_[board_[c]]];
  return true;
}

bool StrategoState::end_judgement_agrees(const StrategoState& truth) const {
  if (setting_up()) return true;
  if (truth.end_ == EndReason::kFlagCaptured) return true;
  // Judge this position afresh as apply would have, without the move cap's and strike's context.
  const Player p = mover_;
  EndReason reason = EndReason::kNone;
  const bool mine = can_move(p), theirs = can_move(1 - p);
  if (!mine) reason = theirs ? EndReason::kNoMoves : EndReason::kNeitherCanMove;
  else if (flags_unreachable()) reason = EndReason::kFlagUnreachable;
  const EndReason expected = truth.end_ == EndReason::kMoveCap ? EndReason::kNone : truth.end_;
  return reason == expected;
}

std::unique_ptr<State> StrategoState::sample_hidden(Player p, Rng& rng) const {
  if (p < 0 || p > 1) throw InputError("sample_hidden: player must be 0 or 1, got " + std::to_string(p));
  const Player side = 1 - p;
  // Rejection keeps the draw uniform over the deals whose end judgement matches the true one
  // (a deal can wall the mover in or make the Flags unreachable); such deals are rare.
  for (int attempt = 0; attempt < 1000; ++attempt) {
    auto s = std::make_unique<StrategoState>(*this);
    if (!s->redeal(side, rng)) break;
    s->rebuild_masks();
    if (!s->end_judgement_agrees(*this)) continue;
    // The history's setup steps of `side` follow the new kinds.
    const std::vector<Step> steps = history();
    StepLog<2> log;
    log.reserve(steps.size() + 64);
    int fill = stratego().fixed_setup(0).empty() ? 0 : kSquares;
    for (const Step& step : steps) {
      Action a = step.action;
      if (a < StrategoGame::kMoveBase) {
        const Player owner_side = fill < kSquares ? 0 : 1;
        if (owner_side == side) {
          const int id = side * kSquares + fill % kSquares;
          a = s->kind_[id] >= 0 ? s->kind_[id] : kNoPiece;
        }
        ++fill;
        if (fill == kSquares && !stratego().fixed_setup(1).empty()) fill = 2 * kSquares;
      }
      log.push_back(step.player < 0 ? 2 : step.player, a);
    }
    s->history_ = log;
    // Pieces still in hand (the opponent is mid-setup) are not on any square yet; the slots
    // past the fill point are empty.
    for (int i = 0; i < kSquares; ++i) {
      const int id = side * kSquares + i;
      const int global = side * kSquares + i;
      if (global >= fill_) s->kind_[id] = -1;
    }
    return s;
  }
  return clone();  // no other consistent deal was found: the true state is one
}

}  // namespace boardlab
