"""The random player: a uniformly random legal action of its seat, reproducible from its seed."""

import random

import boardlab


class RandomPlayer:
    def __init__(self, seed: int):
        self._rng = random.Random(seed)

    def act(self, state: boardlab.State, seat: int, stop=None) -> list[int]:
        return [self._rng.choice(state.legal_actions(seat))]
