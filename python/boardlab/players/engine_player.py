"""A seat played by a C++ bot (uct, mcts, a trained agent): one action per call, its search on the C++ side, from its seat's view."""

import boardlab
from boardlab.engine import make_bot


class EnginePlayer:
    def __init__(self, spec: str, game: boardlab.Game, seed: int):
        # Masked to 64 bits: the C++ seed is unsigned.
        self._bot = make_bot(spec, game, seed & (2**64 - 1))

    def act(self, state: boardlab.State, seat: int, stop: "boardlab.StopToken | None" = None) -> list[int]:
        # The bot receives the seat's view, never the true state of a hidden-information game.
        return [self._bot.act(state, seat, stop)]
