"""The human player: shows the board, reads a sub-move or a whole turn in notation, explains bad input."""

from typing import Callable, TextIO

import boardlab

HELP = (
    "Type one move in the game's notation (e.g. e5), or a whole turn (a1-b2-c3 or a1 b2 c3);"
    " '?' lists the legal moves, 'quit' leaves."
)


class GameAbandoned(Exception):
    """The human left: quit, or the end of the input."""


def split_moves(text: str) -> list[str]:
    """`a1-b2-c3`, `a1 b2 c3` → the parts; `--` alone is a move (a pass in some notations)."""
    parts: list[str] = []
    for token in text.split():
        parts.extend([token] if token == "--" else [part for part in token.split("-") if part])
    return parts


def parse_turn(state: boardlab.State, text: str) -> list[int]:
    """The actions `text` names, all by the player to move and legal in sequence, or ValueError."""
    parts = split_moves(text)
    if not parts:
        raise ValueError("no move given")
    mover = state.current_player()
    trial = state.clone()
    actions = []
    for done, part in enumerate(parts):
        if trial.is_terminal() or trial.current_player() != mover:
            raise ValueError(f"'{part}' is one move too many: the turn ends after {done} move(s)")
        action = trial.string_to_action(part)
        trial.apply_action(action)
        actions.append(action)
    return actions


class HumanPlayer:
    def __init__(self, label: str, read_line: Callable[[str], str], out: TextIO):
        self._label = label
        self._read_line = read_line
        self._out = out

    def act(self, state: boardlab.State) -> list[int]:
        print(f"\n{state}", file=self._out, flush=True)
        while True:
            try:
                line = self._read_line(f"{self._label}> ").strip()
            except EOFError:
                raise GameAbandoned("end of input") from None
            if not line:
                continue
            if line in ("quit", "exit"):
                raise GameAbandoned("quit")
            if line in ("?", "help"):
                legal = " ".join(state.action_to_string(a) for a in state.legal_actions())
                print(f"{HELP}\nLegal moves: {legal}", file=self._out, flush=True)
                continue
            try:
                return parse_turn(state, line)
            except ValueError as error:
                print(f"  {error}; try again ('?' for help)", file=self._out, flush=True)
