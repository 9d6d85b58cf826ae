"""boardlab: self-play reinforcement learning for board games; the C++ game core from Python.

Names follow OpenSpiel's pyspiel: load_game(), Game.new_initial_state(), State.apply_action()...
Every error on bad input is a ValueError subclass (InputError and its kinds) with the reason.
"""

from boardlab._boardlab import (
    INVALID_ACTION,
    SIMULTANEOUS_PLAYER,
    TERMINAL_PLAYER,
    Game,
    GameParameterError,
    IllegalActionError,
    InputError,
    NotationError,
    State,
    game_specs,
    load_game,
    perft,
    random_play,
    registered_games,
)

__all__ = [
    "INVALID_ACTION",
    "SIMULTANEOUS_PLAYER",
    "TERMINAL_PLAYER",
    "Game",
    "GameParameterError",
    "IllegalActionError",
    "InputError",
    "NotationError",
    "State",
    "game_specs",
    "load_game",
    "perft",
    "random_play",
    "registered_games",
]
