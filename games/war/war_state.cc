// War's rules on a bitboard sized for the board: placing and killing by unit pattern, command, the turn budget, players going out.
#include <array>
#include <string>

#include "core/errors.h"
#include "core/text.h"
#include "games/sub_move_grid/slot_turn_state.h"
#include "games/war/war.h"

namespace boardlab {
namespace {

constexpr int kMaxPlayers = SlotBoard::kMaxPlayers;

// The rules on the set type B of the board's size.
template <typename B>
class BoardState final : public SlotTurnState<WarState, WarGame> {
 public:
  explicit BoardState(const WarGame& game);  // every general on the centre of its seat's block
  void set_up(const std::vector<std::string>& symbols, Player to_move);  // a diagram's cells, two characters each

  TurnBudget budget() const override { return budget_; }
  int general(Player p) const override { return general_[p]; }
  std::vector<int> commanded(Player p) const override { return cells_of(commanded_[p]); }
  std::vector<int> targets_for(Player p, int unit) const override { return cells_of(targets_of(p, unit)); }
  CellView cell(int c) const override;

  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    if (!running() || player != mover_) return out.clear();
    list_sub_moves<B>(planes_, cells(), board_wide_action(), out);
  }
  Action draw_random_action(Rng& rng) const override {
    if (!running()) throw IllegalActionError("random_legal_action: the game is over");
    return random_sub_move<B>(planes_, cells(), board_wide_action(), rng);
  }
  std::string illegality(Action action) const override;
  void apply(Action action) override;
  std::unique_ptr<State> clone() const override { return std::make_unique<BoardState>(*this); }
  std::uint64_t hash() const override;

  // The notation: `end` is a pass when it comes first, and left out of records after sub-moves.
  std::string action_text(Player actor, Action action) const override;
  Action read_action(Player actor, std::string_view text) const override;
  Action implied_turn_end() const override { return running() && turn_.sub_move > 0 ? board_wide_action() : kInvalidAction; }
  std::string to_string() const override;
  std::string status_line() const override;

  // What a player sees, and the image under a symmetry.
  void observation(Player p, std::span<float> out) const override;
  void ownership(Player viewer, std::span<float> out) const override;
  std::unique_ptr<State> mapped(std::span<const int> cell_map, std::span<const Player> seat_map,
                                bool keeps_record) const override;

 private:
  const WarGame& rules() const { return war(); }
  int cells() const { return cells_; }
  B general_bit(Player p) const { return general_[p] < 0 ? B{} : cell_bit<B>(general_[p]); }
  // The cells p's commanded units of type t and its general reach with t's pattern.
  B reach_of(Player p, int t) const {
    return patterns_->spread(t, commanded_[p] & (units_[p][t] | general_bit(p)));
  }
  // The cells p may play at: empty ones and the live units of others (inert ones included).
  B open_to(Player p) const { return patterns_->grid().all & ~(dead_ | live_[p]); }
  // The open cells p reaches with type t: nothing once p is out.
  B targets_of(Player p, int t) const { return general_[p] < 0 ? B{} : reach_of(p, t) & open_to(p); }
  B command_of(Player p) const {
    const B general = general_bit(p);
    return general_[p] < 0 ? B{} : patterns_->command(units_[p], general, general, general);
  }
  // The mover's reach by type, afresh (at the start of a turn), and its sub-moves.
  void refresh_planes() {
    for (int t = 0; t < kUnitTypes; ++t) reach_[t] = reach_of(mover_, t);
    update_planes();
  }
  // The mover's sub-moves now, by type: the open cells it reaches with each type its budget still allows.
  void update_planes() {
    const B open = open_to(mover_);
    for (int t = 0; t < kUnitTypes; ++t) planes_[t] = budget_.allows(t) ? reach_[t] & open : B{};
  }
  bool any_sub_move() const { return any(planes_[0] | planes_[1] | planes_[2] | planes_[3]); }
  bool legal(Action action) const {
    if (!running() || action < 0 || action > board_wide_action()) return false;
    return action == board_wide_action() || has_cell(planes_[action / cells()], action % cells());
  }
  // Each seat's live units, every live unit and each seat's command, from units_ and general_.
  void derive() {
    all_live_ = B{};
    for (Player p = 0; p < standings_.players; ++p) {
      live_[p] = general_bit(p) | units_[p][0] | units_[p][1] | units_[p][2] | units_[p][3];
      all_live_ |= live_[p];
      commanded_[p] = command_of(p);
    }
  }
  void place(int t, int c);
  void kill(int c);
  void next_turn() {
    budget_ = TurnBudget{};
    if (next_seat()) refresh_planes();
  }
  void rehash();
  std::string unit_refusal(int t, int c) const;

  const UnitPatterns<B>* patterns_;
  TurnBudget budget_;
  std::array<std::array<B, kUnitTypes>, kMaxPlayers> units_{};  // each seat's units by type, the general apart
  std::array<B, kMaxPlayers> live_{};                          // each seat's units and general (inert once out)
  std::array<B, kMaxPlayers> commanded_{};                     // joined to the general (none once out)
  std::array<std::int16_t, kMaxPlayers> general_{};            // the general's cell, −1 once out
  B all_live_{};
  B dead_{};
  // The mover's reach by type (reach_of), kept up during its turn: its kills change no source
  // of its own, and a placement adds the sources it joins.
  std::array<B, kUnitTypes> reach_{};
  std::array<B, kUnitTypes> planes_{};  // the mover's sub-moves now, by type
  std::uint64_t board_hash_ = 0;        // units, dead cells, who is out in which order
};

template <typename B>
BoardState<B>::BoardState(const WarGame& game)
    : SlotTurnState<WarState, WarGame>(game, "War", game.max_turns(), kUnitTypes, game.cells()),
      patterns_(&game.patterns().get<B>()) {
  general_.fill(-1);
  for (Player p = 0; p < game.num_players(); ++p) {
    general_[p] = static_cast<std::int16_t>(game.home(p));
    live_[p] = commanded_[p] = general_bit(p);
    all_live_ |= live_[p];
  }
  rehash();
  refresh_planes();
}

template <typename B>
void BoardState<B>::set_up(const std::vector<std::string>& symbols, Player to_move) {
  const int n = standings_.players;
  const auto seat_of = [&](char letter) {
    const char upper = letter >= 'a' && letter <= 'f' ? static_cast<char>(letter - 'a' + 'A') : letter;
    const Player p = upper - 'A';
    if (p < 0 || p >= n)
      throw InputError("from_diagram: " + quote_input(std::string_view(&letter, 1)) + " names no seat of the " +
                       std::to_string(n) + " in this game");
    return p;
  };
  general_.fill(-1);
  for (int c = 0; c < cells(); ++c) {
    const std::string& symbol = symbols[static_cast<std::size_t>(c)];
    const B b = cell_bit<B>(c);
    if (symbol == "..") continue;
    if (symbol == "xx" || symbol == "XX") {
      dead_ |= b;
      continue;
    }
    const Player p = seat_of(symbol[0]);
    if (symbol[1] == 'G' || symbol[1] == 'g') {
      if (general_[p] >= 0) throw InputError("from_diagram: " + who(p) + " has two generals (a player has one)");
      general_[p] = static_cast<std::int16_t>(c);
      continue;
    }
    if (const int t = unit_of_letter(symbol[1]); t >= 0) {
      units_[p][t] |= b;
    } else {
      throw InputError("from_diagram: " + quote_input(symbol) +
                       " is not a cell (.. empty, xx dead, or a seat A-F and a unit G P K T S)");
    }
  }
  derive();
  if (set_up_seats([&](Player p) { return general_[p] >= 0; }, to_move, "general")) refresh_planes();
  rehash();
}

template <typename B>
void BoardState<B>::rehash() {
  const WarGame& g = rules();
  board_hash_ = 0;
  for_each_cell(dead_, [&](int c) { board_hash_ ^= g.dead_key(c); });
  for (Player p = 0; p < standings_.players; ++p) {
    for (int t = 0; t < kUnitTypes; ++t) for_each_cell(units_[p][t], [&](int c) { board_hash_ ^= g.unit_key(p, t, c); });
    board_hash_ ^= general_[p] >= 0 ? g.unit_key(p, kGeneral, general_[p]) : g.out_key(p, standings_.out_order[p]);
  }
}

template <typename B>
std::string BoardState<B>::illegality(Action action) const {
  if (!running()) return "the game is over";
  if (action < 0 || action > board_wide_action()) return action_outside_refusal(action, board_wide_action() + 1);
  if (legal(action)) return {};
  return unit_refusal(action / cells(), action % cells());
}

template <typename B>
std::string BoardState<B>::unit_refusal(int t, int c) const {
  const UnitType& type = kUnitType[t];
  const std::string where = rules().notation().cell_name(c), mover = who(mover_);
  if (!budget_.allows(t)) {
    std::string used;
    for (int u = 0; u < kUnitTypes; ++u) used += std::string(u ? ", " : "") + std::to_string(budget_.used[u]) + " " + kUnitType[u].name;
    return "the turn's budget allows no more " + std::string(type.name) + " sub-moves: " + mover + " used " + used +
           ", and each type may make its base (4 infantry, 2 knight, 2 tank, 1 plane) plus one for each type left "
           "unused this turn";
  }
  const B b = cell_bit<B>(c);
  if (any(dead_ & b)) return where + " is a dead cell: a wall for everyone";
  if (any(live_[mover_] & b)) return where + " already holds a unit of " + mover;
  // Nothing commanded reaches it: say whether an uncommanded unit of the type would.
  const B cut_off = units_[mover_][t] & ~commanded_[mover_];
  const B would = patterns_->spread(t, b) & cut_off;
  if (any(would))
    return "no commanded " + std::string(type.name) + " of " + mover + " nor its general reaches " + where + "; its " +
           type.name + " on " + rules().notation().cell_name(lowest_cell(would)) +
           " does, but is not commanded (no chain of links joins it to its general)";
  return "no commanded " + std::string(type.name) + " of " + mover + " nor its general reaches " + where + " with the " +
         type.name + "'s pattern";
}

template <typename B>
void BoardState<B>::apply(Action action) {
  if (!legal(action)) {
    const std::string name =
        action >= 0 && action <= board_wide_action() ? action_to_string(mover_, action) : std::to_string(action);
    throw IllegalActionError("illegal action " + name + ": " + illegality(action));
  }
  history_.push_back(mover_, action);
  if (action == board_wide_action()) {
    if (turn_.may_pass()) {
      if (pass_drew()) return;
    } else {
      turn_.end_after_sub_moves();
    }
    return next_turn();
  }
  const int t = action / cells(), c = action % cells();
  ++budget_.used[t];
  if (any(all_live_ & cell_bit<B>(c))) {
    kill(c);
    if (!running()) return;
  } else {
    place(t, c);
  }
  turn_.another_sub_move_allowed(TurnBudget::kMostPerTurn);
  update_planes();
  if (any_sub_move()) return;  // the turn goes on while a sub-move is left, until `end`
  turn_.end_after_sub_moves();
  next_turn();
}

template <typename B>
void BoardState<B>::place(int t, int c) {
  const B b = cell_bit<B>(c);
  units_[mover_][t] |= b;
  live_[mover_] |= b;
  all_live_ |= b;
  board_hash_ ^= rules().unit_key(mover_, t, c);
  // Commanded through its source; it may join units cut off before (the flood is needed only then).
  const B before = commanded_[mover_];
  commanded_[mover_] = any(live_[mover_] & ~(before | b))
                           ? patterns_->command(units_[mover_], general_bit(mover_), before | b, b)
                           : before | b;
  const B joined = commanded_[mover_] & ~before;
  for (int u = 0; u < kUnitTypes; ++u)
    if (any(joined & units_[mover_][u])) reach_[u] |= patterns_->spread(u, joined & units_[mover_][u]);
}

template <typename B>
void BoardState<B>::kill(int c) {
  const B b = cell_bit<B>(c);
  Player owner = 0;
  while (!any(live_[owner] & b)) ++owner;
  live_[owner] ^= b;
  all_live_ ^= b;
  dead_ |= b;
  board_hash_ ^= rules().dead_key(c);
  if (general_[owner] != c) {
    int t = 0;
    while (!any(units_[owner][t] & b)) ++t;
    units_[owner][t] ^= b;
    board_hash_ ^= rules().unit_key(owner, t, c);
    if (any(commanded_[owner] & b)) commanded_[owner] = command_of(owner);  // a chain may be cut
    return;
  }
  // The general: its player is out, its units stay on the board, inert.
  general_[owner] = -1;
  commanded_[owner] = B{};
  board_hash_ ^= rules().unit_key(owner, kGeneral, c) ^ rules().out_key(owner, put_out(owner));
}

template <typename B>
void BoardState<B>::observation(Player p, std::span<float> out) const {
  const ObservationShape shape = rules().observation_shape();
  const int n = standings_.players, area = cells();
  if (p < 0 || p >= n) throw InputError("observation: player " + std::to_string(p) + " is not 0.." + std::to_string(n - 1));
  if (static_cast<int>(out.size()) != shape.size())
    throw InputError("observation: buffer has " + std::to_string(out.size()) + " floats, " + std::to_string(shape.size()) + " expected");
  std::fill(out.begin(), out.end(), 0.0f);
  const auto set = [&](int plane, const B& b) {
    for_each_cell(b, [&](int c) { out[static_cast<std::size_t>(plane * area + c)] = 1.0f; });
  };
  const auto fill = [&](int plane, float value) { std::fill_n(out.begin() + plane * area, area, value); };
  B inert{};
  for (int k = 0; k < n; ++k) {
    const Player s = (p + k) % n;
    if (general_[s] < 0) {
      inert |= live_[s];
      fill(7 * k + 6, static_cast<float>(standings_.out_order[s]) / static_cast<float>(n));
      continue;
    }
    for (int t = 0; t < kUnitTypes; ++t) set(7 * k + t, units_[s][t]);
    set(7 * k + 4, general_bit(s));
    set(7 * k + 5, commanded_[s]);
  }
  set(7 * n, dead_);
  set(7 * n + 1, inert);
  for (int t = 0; t < kUnitTypes; ++t) {
    set(7 * n + 2 + t, targets_of(p, t));
    if (running() && mover_ == p)
      fill(7 * n + 6 + t, static_cast<float>(budget_.used[t]) / static_cast<float>(kUnitType[t].base + kUnitTypes - 1));
  }
  fill(7 * n + 10, static_cast<float>(turn_.passes) / static_cast<float>(std::max<int>(standings_.in, 1)));
  fill(7 * n + 11, static_cast<float>(turn_.number) / static_cast<float>(max_turns_));
}

template <typename B>
void BoardState<B>::ownership(Player viewer, std::span<float> out) const {
  const int n = standings_.players;
  if (viewer < 0 || viewer >= n)
    throw InputError("ownership: player " + std::to_string(viewer) + " is not 0.." + std::to_string(n - 1));
  if (static_cast<int>(out.size()) != cells())
    throw InputError("ownership: buffer has " + std::to_string(out.size()) + " floats, " + std::to_string(cells()) + " expected");
  std::fill(out.begin(), out.end(), 0.0f);
  for (Player p = 0; p < n; ++p)
    for_each_cell(live_[p], [&](int c) { out[static_cast<std::size_t>(c)] = p == viewer ? 1.0f : -1.0f; });
}

template <typename B>
std::uint64_t BoardState<B>::hash() const {
  std::uint64_t budget = 0;
  for (int t = 0; t < kUnitTypes; ++t) budget ^= rules().used_key(t, budget_.used[t]);
  return turn_hash(board_hash_, budget);
}

template <typename B>
WarState::CellView BoardState<B>::cell(int c) const {
  const B b = cell_bit<B>(c);
  if (any(dead_ & b)) return {kDead, -1, false};
  for (Player p = 0; p < standings_.players; ++p) {
    if (!any(live_[p] & b)) continue;
    const bool commanded = any(commanded_[p] & b);
    if (general_[p] == c) return {kGeneral, p, commanded};
    int t = 0;
    while (!any(units_[p][t] & b)) ++t;
    return {t, p, commanded};
  }
  return {};
}

template <typename B>
std::string BoardState<B>::to_string() const {
  std::string out = rules().notation().draw(
      [&](int c) -> std::string {
        const CellView view = cell(c);
        if (view.content == kNothing) return "..";
        if (view.content == kDead) return "xx";
        const char seat = static_cast<char>((view.commanded ? 'A' : 'a') + view.owner);
        return {seat, view.content == kGeneral ? 'G' : kUnitType[view.content].letter};
      },
      2);
  return out + status_line();
}

template <typename B>
std::string BoardState<B>::status_line() const {
  std::string used;
  for (int t = 0; t < kUnitTypes; ++t) used += std::string(t ? " " : "") + kUnitType[t].letter + std::to_string(budget_.used[t]);
  return status(who(mover_) + " to move, sub-move " + std::to_string(turn_.sub_move + 1) + " (used " + used +
                    "), turn " + std::to_string(turn_.number + 1) + " of " + std::to_string(max_turns_),
                "the last general");
}

template <typename B>
std::string BoardState<B>::action_text(Player, Action action) const {
  if (action < 0 || action > board_wide_action()) throw InputError(action_outside_refusal(action, board_wide_action() + 1));
  if (action == board_wide_action()) return turn_.sub_move == 0 ? "pass" : "end";
  return kUnitType[action / cells()].letter + rules().notation().cell_name(action % cells());
}

template <typename B>
Action BoardState<B>::read_action(Player, std::string_view text) const {
  if (is_pass_text(text) || text == "end") return board_wide_action();
  const int t = text.empty() ? -1 : unit_of_letter(text.front());
  if (t < 0)
    throw NotationError(quote_input(text) +
                        " is not a War action: expected a unit letter (P infantry, K knight, T tank, S plane) and a "
                        "cell, like Pe5, or end or pass");
  std::string why;
  const int c = rules().notation().parse_cell(text.substr(1), why);
  if (c < 0) throw NotationError(quote_input(text) + " is not a War action: " + why);
  return rules().action_of(t, c);
}

template <typename B>
std::unique_ptr<State> BoardState<B>::mapped(std::span<const int> cell_map, std::span<const Player> seat_map,
                                             bool keeps_record) const {
  // The units and dead cells move; command follows (the patterns are symmetric, so it would map too).
  auto image = std::make_unique<BoardState>(*this);
  image->dead_ = map_cells(dead_, cell_map);
  for (Player p = 0; p < standings_.players; ++p) {
    image->general_[seat_map[p]] = static_cast<std::int16_t>(general_[p] < 0 ? -1 : cell_map[general_[p]]);
    for (int t = 0; t < kUnitTypes; ++t) image->units_[seat_map[p]][t] = map_cells(units_[p][t], cell_map);
  }
  image->map_history_from(*this, cell_map, seat_map, keeps_record);
  image->derive();
  image->rehash();
  if (image->running()) image->refresh_planes();
  return image;
}

}  // namespace

std::unique_ptr<WarState> WarState::initial(const WarGame& game) {
  return state_on_board<WarState, BoardState>(game, game.patterns(), [](auto&) {});
}

std::unique_ptr<WarState> WarState::from_diagram(const WarGame& game, std::string_view diagram, Player to_move) {
  const std::vector<std::string> symbols = read_wide_diagram(diagram, game.width(), game.height(), 2);
  return state_on_board<WarState, BoardState>(game, game.patterns(), [&](auto& state) { state.set_up(symbols, to_move); });
}

}  // namespace boardlab
