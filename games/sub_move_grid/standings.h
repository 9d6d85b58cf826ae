// Players going out one by one in Klopodavka and War: who is still in, the order the others went out, the rank returns and the status line.
//
// A player is out when its one vital piece (Klopodavka's main bug, War's general) is killed;
// the last one in wins at once, and every surviving player passing in a row, or the turn cap,
// draws among the survivors. Those still in share the first place; the others rank by when
// they went out (later is better), and returns go linearly from +1 to −1, ties averaged: an
// out player's is settled at once, since only players still in can rank above it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "core/errors.h"
#include "core/rank_returns.h"
#include "core/types.h"
#include "games/sub_move_grid/start_slots.h"

namespace boardlab {

// How such a game ended; the values index the games' end keys.
enum class SlotGameEnd : std::uint8_t { kNone, kLastStanding, kAllPassed, kTurnCap };

struct Standings {
  static constexpr int kMaxPlayers = SlotBoard::kMaxPlayers;
  std::array<std::int8_t, kMaxPlayers> out_order{};  // 0 while in; 1 for the first out, ...
  std::int8_t players = 0;
  std::int8_t in = 0;
  std::int8_t out = 0;  // the order the last player out got

  Standings() = default;
  explicit Standings(int n) : players(static_cast<std::int8_t>(n)), in(static_cast<std::int8_t>(n)) {}

  bool is_out(Player p) const { return out_order[p] != 0; }
  // p goes out now; its order (1 for the first out).
  int put_out(Player p) {
    --in;
    return out_order[p] = ++out;
  }
  // A position set up directly: the players marked out went out before it, tied.
  void set_up(std::span<const bool> is_in) {
    in = out = 0;
    for (Player p = 0; p < players; ++p) {
      in += is_in[p];
      out_order[p] = is_in[p] ? 0 : 1;
    }
    out = in < players ? 1 : 0;
  }

  void returns(std::span<double> values, const char* game) const {
    if (static_cast<int>(values.size()) != players)
      throw InputError(std::string("returns: this ") + game + " has " + std::to_string(players) + " players, buffer has " +
                       std::to_string(values.size()));
    std::array<int, kMaxPlayers> standing{};
    for (Player p = 0; p < players; ++p) standing[p] = out_order[p] == 0 ? kMaxPlayers + 1 : out_order[p];
    rank_returns(std::span<const int>(standing.data(), static_cast<std::size_t>(players)), values);
  }

  // The end of a status line: the result, passes in a row and who went out in which order.
  // `name(p)` names seat p; `last` says what the winner kept ("the last general").
  template <typename Name>
  std::string status(SlotGameEnd end, const char* last, int max_turns, int passes, Name name) const {
    std::string survivors, text;
    for (Player p = 0; p < players; ++p)
      if (!is_out(p)) survivors += (survivors.empty() ? "" : ", ") + name(p);
    switch (end) {
      case SlotGameEnd::kNone: break;
      case SlotGameEnd::kLastStanding: text = survivors + " wins: " + last; break;
      case SlotGameEnd::kAllPassed: text = "draw among " + survivors + ": every player still in passed"; break;
      case SlotGameEnd::kTurnCap:
        text = "draw among " + survivors + ": the turn cap (" + std::to_string(max_turns) + ") is reached";
        break;
    }
    if (passes > 0) text += "; " + std::to_string(passes) + " pass(es) in a row";
    std::string gone;
    for (int order = 1; order <= out; ++order)
      for (Player p = 0; p < players; ++p)
        if (out_order[p] == order) gone += (gone.empty() ? "" : ", ") + name(p) + " (" + std::to_string(order) + ")";
    if (!gone.empty()) text += "; out in order: " + gone;
    return text;
  }
};

}  // namespace boardlab
