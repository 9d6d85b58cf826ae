// Stratego games in the Gravon XML format (the archive of human games at gravon.de): read into this engine, written out.
//
// The format, as the archive's files and rhalbersma/gravon's converters write it:
//   <stratego><game type="classic">
//     <field content="...100 characters..."/>
//     <move id="1" source="A4" target="A5"/> ...
//     <player id="1">red name</player><player id="2">blue name</player>
//     <result type="1" winner="1"/>
//   </game></stratego>
// The field content is the board at the start, square a1 first, then b1 .. k1, a2 .. k10 (the
// cells of board.h): 'A' empty, '_' lake, 'B'..'M' Red's Bomb, Spy, Scout, Miner, Sergeant,
// Lieutenant, Captain, Major, Colonel, General, Marshal, Flag, and 'N'..'Y' Blue's in the
// same order (checked against the archive's own field strings as rhalbersma/gravon's
// data/barrage.csv lists them: each holds Red's eight pieces in its first 40 characters and
// Blue's in its last 40, the Flags mostly in the first and last ten, the back ranks; whether
// files run A to K or K to A the fields alone cannot tell, and no archived move list was at
// hand to check it). Squares are file A-K without J, rank 1-10; some archive files wrote J for K,
// which the reader takes as K (as the archive's own repair does). The result's winner is 1
// Red, 2 Blue, 3 a draw; its type is Gravon's ending: 0 the loser could not move, 1 the Flag
// was captured, 2 neither could move, 3 resigned, 4 a tie agreed, 10-14 clocks or absence.
//
// Choices:
// - Only the types classic and barrage are read (the others are other games).
// - The game read is stratego(variant=<type>,two_square_limit=5,chasing_rule=false) with the
//   caller's parameters on top, and, unless given, a move cap past the game's own length: a
//   cap is not a rule, and an archived game must not be cut short. Gravon's two-square limit
//   is 5; its server judged chases by its own rule, not the rule file's, so the reader turns
//   the rule file's off and every archived move replays (chasing_rule=true checks a game
//   against it). A recorded move that the engine's rules refuse is an error naming it.
// - A result the moves contradict (the Flag taken by the side the file says lost) is an error;
//   a result the moves do not reach (a resignation, a clock) is kept beside the state.
// - Writing: the setups and moves from the state's history; a finished game's result (type
//   1, 0 or 2 by the end, 4 for this engine's draws: unreachable Flags and the move cap),
//   or the caller's for one that ended off the board; no field before both setups are done.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "core/game.h"

namespace boardlab::stratego {

struct GravonGame {
  std::shared_ptr<const Game> game;
  std::unique_ptr<State> state;          // the game replayed: setups, then every move
  std::array<std::string, 2> players;    // Red's and Blue's names ("" when the file has none)
  int winner = -1;                       // the file's result: 0 Red, 1 Blue, 2 a draw; -1 none
  int result_type = -1;                  // Gravon's ending code; -1 none
};

// Reads one game. `parameters` ("key=value,...") adds to or overrides the game's parameters
// (not variant nor the setup ones, which the file gives). Throws NotationError naming what
// is wrong (and where) in a malformed file, GameParameterError for bad parameters.
GravonGame read_gravon(std::string_view xml, std::string_view parameters = "");

// Writes a Stratego game (finished or not) as Gravon XML. `winner` and `result_type` (-1:
// from the state) give the result of a game that ended off the board. Throws InputError for
// a state of another game.
std::string write_gravon(const State& state, const std::array<std::string, 2>& players = {},
                         int winner = -1, int result_type = -1);

}  // namespace boardlab::stratego
