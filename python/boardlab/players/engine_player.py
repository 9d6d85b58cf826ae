"""A seat played by a C++ bot (uct, mcts, a trained agent): one action per call, its search on the C++ side."""

import boardlab
from boardlab.engine import make_bot


class EnginePlayer:
    def __init__(self, spec: str, game: boardlab.Game, seed: int):
        # Masked to 64 bits: the C++ seed is unsigned.
        self._bot = make_bot(spec, game, seed & (2**64 - 1))

    def act(self, state: boardlab.State) -> list[int]:
        return [self._bot.act(state)]
