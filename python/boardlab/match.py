"""One game between players, printed turn by turn in the game's notation, and its result."""

from typing import TextIO

import boardlab
from boardlab.errors import CliError
from boardlab.players import Player


def play_match(state: boardlab.State, players: list[Player], labels: list[str], out: TextIO) -> None:
    """Plays `state` to the end in place, printing each finished turn in the game's record notation (`X: a1-b2-c3`)."""
    turn_start = len(state.record())
    while not state.is_terminal():
        mover = state.current_player()
        if mover < 0:
            raise CliError(f"{state.game().name()} has simultaneous moves; `play` does not support them yet")
        for action in players[mover].act(state):
            if state.is_terminal() or state.current_player() != mover:
                raise RuntimeError(f"player {labels[mover]} chose actions past the end of its turn")
            state.apply_action(action)
            if state.is_terminal() or state.current_player() != mover:
                # The record's new words are the turn as the game writes it (Morabaraba: d1-d2xd5).
                record = state.record()
                print(f"{labels[mover]}: {record[turn_start:].strip()}", file=out, flush=True)
                turn_start = len(record)


def result_text(returns: list[float], labels: list[str]) -> str:
    """`X wins (X +1, O -1)`, `draw (...)`, or for several winners `X, Z win (...)`."""
    scores = ", ".join(f"{label} {value:+g}" if value else f"{label} 0" for label, value in zip(labels, returns))
    best = max(returns)
    if all(value == best for value in returns):
        return f"draw ({scores})"
    winners = [label for label, value in zip(labels, returns) if value == best]
    verb = "wins" if len(winners) == 1 else "win"
    return f"{', '.join(winners)} {verb} ({scores})"
