// The _boardlab extension module: boardlab's games, states and tools for Python.
#include "bindings.h"
#include "game_bindings.h"

#include "arena/arena.h"
#include "core/types.h"

PYBIND11_MODULE(_boardlab, m) {
  using namespace boardlab;
  m.doc() = "boardlab's C++ game core: games, states, perft and random play";
  m.attr("CHANCE_PLAYER") = kChancePlayer;
  m.attr("SIMULTANEOUS_PLAYER") = kSimultaneousPlayer;
  m.attr("PUBLIC_VIEWER") = kPublicViewer;
  m.attr("TERMINAL_PLAYER") = kTerminalPlayer;
  m.attr("INVALID_ACTION") = kInvalidAction;
  // The command line states these ranges in its flags (boardlab/flags.py).
  m.attr("MAX_ARENA_GAMES") = kMaxArenaGames;
  m.attr("MAX_ARENA_THREADS") = kMaxArenaThreads;
  // Errors first: the classes below name them in their translations.
  python::bind_errors(m);
  python::bind_game(m);
  python::bind_state(m);
  python::bind_registry(m);
  python::bind_tools(m);
  python::bind_search(m);
  python::bind_ladder(m);
  // Last: a game's own functions may take and return the classes above.
  python::bind_games_own(m);
}
