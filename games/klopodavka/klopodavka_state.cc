// Klopodavka's rules on a bitboard sized for the board: sub-moves, kills, revolutions, players going out, ranks.
#include <algorithm>
#include <array>

#include "core/errors.h"
#include "core/text.h"
#include "games/klopodavka/klopodavka.h"
#include "games/sub_move_grid/reach.h"
#include "games/sub_move_grid/slot_turn_state.h"
#include "games/sub_move_grid/sub_move_turn.h"

namespace boardlab {
namespace {

constexpr int kMaxPlayers = KlopodavkaGame::kMaxPlayers;
using End = SlotGameEnd;  // its values index KlopodavkaGame::end_key

template <typename B>
class BoardState final : public SlotTurnState<KlopodavkaState, KlopodavkaGame> {
 public:
  // The start: every seat's block, its main bug in the centre.
  explicit BoardState(const KlopodavkaGame& game);
  // Sets up a diagram's cells (the to_string alphabet, in cell order) with `to_move` to play.
  void set_up(const std::vector<char>& symbols, Player to_move);

  // Where in the turn.
  int sub_move() const override { return turn_.sub_move; }
  int main_bug(Player p) const override { return main_[p]; }

  // Playing.
  void list_legal_actions(Player player, std::vector<Action>& out) const override;
  std::string illegality(Action action) const override;
  Action draw_random_action(Rng& rng) const override;
  void apply(Action action) override;
  std::unique_ptr<State> clone() const override { return std::make_unique<BoardState>(*this); }
  std::unique_ptr<State> mapped(std::span<const int> cell_map, std::span<const Player> seat_map,
                                bool keeps_record) const override;

  // What a player sees.
  CellView cell(int c) const override;
  std::vector<int> reachable(Player p) const override { return cells_of(reach_of(p)); }
  std::vector<int> targets_for(Player p) const override { return cells_of(targets_of(p)); }
  std::vector<int> crown_cells(Player p) const override { return cells_of(crowns_of(p)); }
  void observation(Player p, std::span<float> out) const override;
  void ownership(Player viewer, std::span<float> out) const override;
  std::uint64_t hash() const override;

  // Text and records.
  std::string to_string() const override;
  std::string status_line() const override;
  std::string action_text(Player actor, Action action) const override;
  Action read_action(Player actor, std::string_view text) const override;

 private:
  const KlopodavkaGame& rules() const { return klopodavka(); }
  int cells() const { return cells_; }
  B empty() const { return grid_->all & ~occupied_; }
  // Cells p reaches: next to its live bugs or to the chains of cells it killed touching them.
  B reach_of(Player p) const { return reachable_cells(live_[p], killed_[p], *grid_); }
  // Empty cells and other players' live bugs that p reaches; nothing once p is out.
  B targets_of(Player p) const {
    if (main_[p] < 0) return B{};
    return reach_of(p) & (empty() | (all_live_ & ~live_[p]));
  }
  B crowns_of(Player p) const {
    if (!revolution_ || main_[p] < 0) return B{};
    return ring_centres(live_[p], *grid_) & empty();
  }
  bool legal(Action action) const;
  void kill(int cell, const B& b);
  void next_turn();
  void start_turn() {
    planes_[0] = targets_of(mover_);
    planes_[1] = crowns_of(mover_);
  }
  void rehash();

  const Grid<B>* grid_;
  std::int8_t players_;
  std::int8_t submoves_;
  bool revolution_;
  std::array<B, kMaxPlayers> live_{};    // each seat's bugs, main bug included (inert once out)
  std::array<B, kMaxPlayers> killed_{};  // the cells each seat killed: its conductors, walls to the others
  B all_live_{};
  B occupied_{};  // live bugs and killed cells: everything but the empty cells
  std::array<B, 2> planes_{};  // the mover's targets and crowning cells now: its actions by plane
  std::array<std::int16_t, kMaxPlayers> main_{};      // the main bug's cell, −1 once out
  std::uint64_t board_hash_ = 0;                      // cells, main bugs and who is out in which order
};

template <typename B>
BoardState<B>::BoardState(const KlopodavkaGame& game)
    : SlotTurnState<KlopodavkaState, KlopodavkaGame>(game, "Klopodavka", game.max_turns(), 2, game.cells()),
      grid_(&game.grids().get<B>()),
      players_(static_cast<std::int8_t>(game.num_players())),
      submoves_(static_cast<std::int8_t>(game.submoves())),
      revolution_(game.revolution()) {
  const int width = game.width();
  for (Player p = 0; p < players_; ++p) {
    const int home = game.home(p);
    main_[p] = static_cast<std::int16_t>(home);
    for (int dr = -1; dr <= 1; ++dr)
      for (int df = -1; df <= 1; ++df) live_[p] |= cell_bit<B>(home + dr * width + df);
    all_live_ |= live_[p];
  }
  occupied_ = all_live_;
  rehash();
  start_turn();
}

template <typename B>
void BoardState<B>::set_up(const std::vector<char>& symbols, Player to_move) {
  const int n = players_;
  for (Player p = 0; p < n; ++p) live_[p] = killed_[p] = B{};
  main_.fill(-1);
  const auto seat_of = [&](char c, char first) {
    const Player p = c - first;
    if (p >= n) throw InputError("from_diagram: " + quote_input(std::string_view(&c, 1)) + " names a player beyond the " + std::to_string(n) + " in this game");
    return p;
  };
  for (int c = 0; c < cells(); ++c) {
    const char symbol = symbols[static_cast<std::size_t>(c)];
    const B b = cell_bit<B>(c);
    if (symbol >= 'a' && symbol <= 'f') {
      live_[seat_of(symbol, 'a')] |= b;
    } else if (symbol >= 'A' && symbol <= 'F') {
      const Player p = seat_of(symbol, 'A');
      if (main_[p] >= 0) throw InputError("from_diagram: " + who(p) + " has two main bugs (a player has one at a time)");
      main_[p] = static_cast<std::int16_t>(c);
      live_[p] |= b;
    } else if (symbol >= '1' && symbol <= '6') {
      killed_[seat_of(symbol, '1')] |= b;
    } else if (symbol != '.') {
      throw InputError("from_diagram: " + quote_input(std::string_view(&symbol, 1)) +
                       " is not a cell (use . for empty, a-f for bugs, A-F for main bugs, 1-6 for cells A-F killed)");
    }
  }
  all_live_ = occupied_ = B{};
  for (Player p = 0; p < n; ++p) {
    all_live_ |= live_[p];
    occupied_ |= live_[p] | killed_[p];
  }
  const bool on = set_up_seats([&](Player p) { return main_[p] >= 0; }, to_move, "main bug");
  rehash();
  if (on) start_turn();
}

template <typename B>
void BoardState<B>::rehash() {
  const KlopodavkaGame& g = rules();
  board_hash_ = 0;
  for (Player p = 0; p < players_; ++p) {
    for_each_cell(live_[p], [&](int c) { board_hash_ ^= g.bug_key(p, c); });
    for_each_cell(killed_[p], [&](int c) { board_hash_ ^= g.killed_key(p, c); });
    board_hash_ ^= main_[p] >= 0 ? g.main_key(p, main_[p]) : g.out_key(p, standings_.out_order[p]);
  }
}

template <typename B>
bool BoardState<B>::legal(Action action) const {
  if (!running() || action < 0) return false;
  if (action < cells()) return has_cell(planes_[0], action);
  if (action < 2 * cells()) return has_cell(planes_[1], action - cells());
  return action == 2 * cells() && turn_.may_pass();
}

template <typename B>
void BoardState<B>::list_legal_actions(Player player, std::vector<Action>& out) const {
  if (!running() || player != mover_) return out.clear();
  list_sub_moves<B>(planes_, cells(), turn_.may_pass() ? rules().pass() : kInvalidAction, out);
}

template <typename B>
Action BoardState<B>::draw_random_action(Rng& rng) const {
  if (!running()) throw IllegalActionError("random_legal_action: the game is over");
  return random_sub_move<B>(planes_, cells(), turn_.may_pass() ? rules().pass() : kInvalidAction, rng);
}

template <typename B>
std::string BoardState<B>::illegality(Action action) const {
  if (!running()) return "the game is over";
  const int n = cells();
  if (action < 0 || action > 2 * n) return action_outside_refusal(action, 2 * n + 1);
  if (legal(action)) return {};
  const std::string mover = who(mover_);
  if (action == 2 * n) return mid_turn_pass_refusal(mover, turn_.sub_move, submoves_);
  const int c = action % n;
  const std::string where = rules().notation().cell_name(c);
  if (action >= n) {
    if (!revolution_) return "revolutions are not played (revolution=false)";
    if (has_cell(occupied_, c)) return "a new main bug needs an empty cell, and " + where + " is not empty";
    return "a new main bug needs a ring of 8 live bugs of " + mover + " around " + where;
  }
  const CellView view = cell(c);
  if (view.content == Content::kKilled) return where + " is dead and stays dead";
  if (view.owner == mover_) return where + " already holds a live bug of " + mover;
  return where + " is not reachable for " + mover;
}

template <typename B>
void BoardState<B>::apply(Action action) {
  if (!legal(action)) {
    const std::string name = action >= 0 && action <= 2 * cells() ? action_to_string(mover_, action) : std::to_string(action);
    throw IllegalActionError("illegal action " + name + ": " + illegality(action));
  }
  history_.push_back(mover_, action);
  const int n = cells();
  if (action == 2 * n) {
    if (pass_drew()) return;
    return next_turn();
  }
  const Player me = mover_;
  const int c = action < n ? action : action - n;
  const B b = cell_bit<B>(c);
  if (action < n && any(all_live_ & b)) {
    kill(c, b);
    if (!running()) return;
  } else {
    live_[me] |= b;
    all_live_ |= b;
    occupied_ |= b;
    board_hash_ ^= rules().bug_key(me, c);
    if (action >= n) {  // a revolution: the old main bug becomes an ordinary one
      board_hash_ ^= rules().main_key(me, main_[me]) ^ rules().main_key(me, c);
      main_[me] = static_cast<std::int16_t>(c);
    }
  }
  if (turn_.another_sub_move_allowed(submoves_)) {
    planes_[0] = targets_of(me);
    if (any(planes_[0])) {
      planes_[1] = crowns_of(me);
      return;  // the turn goes on while any target is left
    }
  }
  turn_.end_after_sub_moves();
  next_turn();
}

template <typename B>
void BoardState<B>::kill(int cell, const B& b) {
  Player owner = 0;
  while (!any(live_[owner] & b)) ++owner;
  live_[owner] ^= b;
  all_live_ ^= b;
  killed_[mover_] |= b;
  board_hash_ ^= rules().bug_key(owner, cell) ^ rules().killed_key(mover_, cell);
  if (main_[owner] != cell) return;
  // The main bug: its player is out, its other bugs stay on the board, inert.
  main_[owner] = -1;
  board_hash_ ^= rules().main_key(owner, cell) ^ rules().out_key(owner, put_out(owner));
}

template <typename B>
void BoardState<B>::next_turn() {
  if (next_seat()) start_turn();
}

template <typename B>
void BoardState<B>::observation(Player p, std::span<float> out) const {
  const ObservationShape shape = rules().observation_shape();
  if (p < 0 || p >= players_) throw InputError("observation: player " + std::to_string(p) + " is not 0.." + std::to_string(players_ - 1));
  if (static_cast<int>(out.size()) != shape.size())
    throw InputError("observation: buffer has " + std::to_string(out.size()) + " floats, " + std::to_string(shape.size()) + " expected");
  std::fill(out.begin(), out.end(), 0.0f);
  const int n = players_, area = cells();
  const auto set = [&](int plane, const B& b) {
    for_each_cell(b, [&](int c) { out[static_cast<std::size_t>(plane * area + c)] = 1.0f; });
  };
  const auto fill = [&](int plane, float value) {
    std::fill_n(out.begin() + plane * area, area, value);
  };
  B inert{};
  for (int k = 0; k < n; ++k) {
    const Player s = (p + k) % n;
    set(5 * k + 2, killed_[s]);
    if (main_[s] < 0) {
      inert |= live_[s];
      fill(5 * k + 4, static_cast<float>(standings_.out_order[s]) / static_cast<float>(n));
      continue;
    }
    set(5 * k, live_[s]);
    out[static_cast<std::size_t>((5 * k + 1) * area + main_[s])] = 1.0f;
    set(5 * k + 3, targets_of(s));
  }
  set(5 * n, inert);
  set(5 * n + 1, crowns_of(p));
  if (running() && mover_ == p) fill(5 * n + 2 + turn_.sub_move, 1.0f);
  fill(5 * n + 2 + submoves_, static_cast<float>(turn_.passes) / static_cast<float>(std::max<int>(standings_.in, 1)));
  fill(5 * n + 3 + submoves_, static_cast<float>(turn_.number) / static_cast<float>(max_turns_));
}

template <typename B>
void BoardState<B>::ownership(Player viewer, std::span<float> out) const {
  if (viewer < 0 || viewer >= players_) throw InputError("ownership: player " + std::to_string(viewer) + " is not 0.." + std::to_string(players_ - 1));
  if (static_cast<int>(out.size()) != cells())
    throw InputError("ownership: buffer has " + std::to_string(out.size()) + " floats, " + std::to_string(cells()) + " expected");
  std::fill(out.begin(), out.end(), 0.0f);
  for (Player p = 0; p < players_; ++p)
    for_each_cell(live_[p] | killed_[p], [&](int c) { out[static_cast<std::size_t>(c)] = p == viewer ? 1.0f : -1.0f; });
}

template <typename B>
std::uint64_t BoardState<B>::hash() const {
  const KlopodavkaGame& g = rules();
  return turn_hash(board_hash_, g.turn_state_key(turn_.sub_move));
}

template <typename B>
KlopodavkaState::CellView BoardState<B>::cell(int c) const {
  const B b = cell_bit<B>(c);
  for (Player p = 0; p < players_; ++p) {
    if (main_[p] == c) return {Content::kMainBug, p};
    if (any(live_[p] & b)) return {Content::kBug, p};
    if (any(killed_[p] & b)) return {Content::kKilled, p};
  }
  return {};
}

template <typename B>
std::string BoardState<B>::to_string() const {
  std::string out = rules().notation().draw([&](int c) {
    const CellView view = cell(c);
    switch (view.content) {
      case Content::kBug: return static_cast<char>('a' + view.owner);
      case Content::kMainBug: return static_cast<char>('A' + view.owner);
      case Content::kKilled: return static_cast<char>('1' + view.owner);
      default: return '.';
    }
  });
  return out + status_line();
}

template <typename B>
std::string BoardState<B>::status_line() const {
  return status(who(mover_) + " to move, sub-move " + std::to_string(turn_.sub_move + 1) + " of " +
                    std::to_string(submoves_) + ", turn " + std::to_string(turn_.number + 1) + " of " +
                    std::to_string(max_turns_),
                "the last main bug");
}

template <typename B>
std::string BoardState<B>::action_text(Player, Action action) const {
  const int n = cells();
  if (action < 0 || action > 2 * n) throw InputError(action_outside_refusal(action, 2 * n + 1));
  if (action == 2 * n) return "pass";
  return (action >= n ? "*" : "") + rules().notation().cell_name(action % n);
}

template <typename B>
Action BoardState<B>::read_action(Player, std::string_view text) const {
  if (is_pass_text(text)) return rules().pass();
  const bool crown = !text.empty() && text.front() == '*';
  std::string why;
  const int c = rules().notation().parse_cell(crown ? text.substr(1) : text, why);
  if (c < 0) throw NotationError(quote_input(text) + " is not a Klopodavka action: " + why + (crown ? "" : " (a crowning is written *e5)"));
  return crown ? rules().crown_action(c) : c;
}

template <typename B>
std::unique_ptr<State> BoardState<B>::mapped(std::span<const int> cell_map, std::span<const Player> seat_map,
                                             bool keeps_record) const {
  auto image = std::make_unique<BoardState>(*this);
  for (Player p = 0; p < players_; ++p) {
    const Player q = seat_map[p];
    image->live_[q] = map_cells(live_[p], cell_map);
    image->killed_[q] = map_cells(killed_[p], cell_map);
    image->main_[q] = static_cast<std::int16_t>(main_[p] < 0 ? -1 : cell_map[main_[p]]);
  }
  image->all_live_ = map_cells(all_live_, cell_map);
  image->occupied_ = map_cells(occupied_, cell_map);
  image->map_history_from(*this, cell_map, seat_map, keeps_record);
  image->rehash();
  if (running()) image->start_turn();
  return image;
}

}  // namespace

std::unique_ptr<KlopodavkaState> KlopodavkaState::initial(const KlopodavkaGame& game) {
  return state_on_board<KlopodavkaState, BoardState>(game, game.grids(), [](auto&) {});
}

std::unique_ptr<KlopodavkaState> KlopodavkaState::from_diagram(const KlopodavkaGame& game, std::string_view diagram,
                                                               Player to_move) {
  const std::vector<char> symbols = read_diagram(diagram, game.width(), game.height());
  return state_on_board<KlopodavkaState, BoardState>(game, game.grids(), [&](auto& state) { state.set_up(symbols, to_move); });
}

}  // namespace boardlab
