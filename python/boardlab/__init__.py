"""boardlab: self-play reinforcement learning for board games; the C++ game core from Python.

Names follow OpenSpiel's pyspiel: load_game(), Game.new_initial_state(), State.apply_action()...
Every kind of game has the same API: Game.type() says which kind; at a chance node
(CHANCE_PLAYER) chance_outcomes() lists the draws, at a simultaneous node every seat has
legal_actions(player) and apply_actions() takes one action each, and for hidden information
observation_tensor(player), information_key(player), record_for(player) and
sample_hidden(player) hold only what that player may know.
Every error on bad input is a ValueError subclass (InputError and its kinds) with the reason;
a file the system would not write (a full disk) is FileError, an OSError.
"""

from boardlab._boardlab import (
    CHANCE_PLAYER,
    INVALID_ACTION,
    PUBLIC_VIEWER,
    SIMULTANEOUS_PLAYER,
    TERMINAL_PLAYER,
    FileError,
    Game,
    GameParameterError,
    GameType,
    IllegalActionError,
    InputError,
    NotationError,
    State,
    StopToken,
    Symmetry,
    exploitability,
    find_ladder,
    game_specs,
    games_source_dir,
    load_game,
    pair_points,
    pair_score,
    perft,
    random_play,
    registered_games,
)
from boardlab import _boardlab

from boardlab import render  # noqa: E402  (needs the classes above)
from boardlab.agents import bot_policy, evaluate, load_agent, make_bot  # noqa: E402
from boardlab.plots import plot_metrics  # noqa: E402
from boardlab.runs import Run, train  # noqa: E402


def load_record(game: "Game | str", text: str) -> State:
    """The final state of a game written in the game's notation (State.record()); ValueError names a bad turn."""
    if not isinstance(game, Game):
        game = load_game(game)
    return game.load_record(text)


# States draw themselves in notebooks; str(state) stays the terminal picture.
State._repr_svg_ = lambda self: render.svg(self)

__all__ = [
    "CHANCE_PLAYER",
    "INVALID_ACTION",
    "PUBLIC_VIEWER",
    "SIMULTANEOUS_PLAYER",
    "TERMINAL_PLAYER",
    "FileError",
    "Game",
    "GameParameterError",
    "GameType",
    "IllegalActionError",
    "InputError",
    "NotationError",
    "State",
    "StopToken",
    "Symmetry",
    "exploitability",
    "find_ladder",
    "game_specs",
    "games_source_dir",
    "Run",
    "bot_policy",
    "evaluate",
    "load_agent",
    "load_record",
    "make_bot",
    "plot_metrics",
    "train",
    "render",
    "load_game",
    "pair_points",
    "pair_score",
    "perft",
    "random_play",
    "registered_games",
]

# Each game's own functions (bound in its folder, games/GAME/*_bindings.cc: a game's file formats, say),
# re-exported by the names the module lists.
globals().update({name: getattr(_boardlab, name) for name in _boardlab.GAME_FUNCTIONS})
__all__ += list(_boardlab.GAME_FUNCTIONS)
