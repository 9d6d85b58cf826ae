"""Shared test helpers: random games through the Python API."""

import random

import boardlab


def random_states(game: boardlab.Game, seed: int):
    """Every state of one uniformly random game, from the initial state to the terminal one."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state.clone()


def random_final_state(game: boardlab.Game, seed: int) -> boardlab.State:
    *_, last = random_states(game, seed)
    return last
