"""Shared test helpers: every registered game and toy with its presets, and random games at every kind of node."""

import importlib.util
import random

import _boardlab_toys

import boardlab
from boardlab.chance import draw_chance_outcome


def _with_presets(names, presets_of, plays_defaults=lambda name: True) -> list[str]:
    out = []
    for name in names:
        if plays_defaults(name):
            out.append(name)
        out.extend(f"{name}({preset})" for preset in presets_of(name))
    return out


_SPECS = {spec["name"]: spec for spec in boardlab.game_specs()}
# Game strings: every registered game and every toy, each with its presets ("virus_war(strict=true)"),
# and its defaults unless the game keeps them out of the shared suites (a board too big to play there).
REGISTERED_GAMES = _with_presets(
    _SPECS, lambda name: _SPECS[name]["presets"], lambda name: _SPECS[name]["suites_play_defaults"]
)
TOY_GAMES = _with_presets(_boardlab_toys.toy_names(), _boardlab_toys.toy_presets)
ALL_GAMES = REGISTERED_GAMES + TOY_GAMES


def load_any(text: str) -> boardlab.Game:
    """A registered game or a toy from its game string."""
    name = text.partition("(")[0].strip()
    return _boardlab_toys.load_toy(text) if name in _boardlab_toys.toy_names() else boardlab.load_game(text)


def random_step(state: boardlab.State, rng: random.Random) -> None:
    """One random step at any node: a chance outcome with its probability, every seat's action at a
    simultaneous node, or the mover's action."""
    if state.is_chance_node():
        state.apply_action(draw_chance_outcome(state, rng))
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.game().num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def random_states(game: boardlab.Game, seed: int):
    """Every state of one random game (random_step), from the initial state to the terminal one."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        random_step(state, rng)
        yield state.clone()


def random_final_state(game: boardlab.Game, seed: int) -> boardlab.State:
    *_, last = random_states(game, seed)
    return last


def load_script(path, module_name: str):
    """A Python file outside the package (a game folder's script, a fuzz driver), loaded as a module."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
