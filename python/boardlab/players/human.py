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


def _token_actions(trial: boardlab.State, token: str, mover: int, done: int) -> list[int]:
    """The actions one typed word names, in the game's notation, applied to `trial` as they are read.

    A word is one action (`a1`, `pass`, Morabaraba's `d1-d2`), or several joined by `-`
    (`a1-b2-c3`), or whatever the game's record notation reads as one ply (`d1-d2xd5`).
    `done` actions of the turn came before it.
    """
    try:
        action = trial.string_to_action(token)
    except ValueError:
        pass
    else:
        trial.apply_action(action)
        return [action]
    parts = split_moves(token)
    probe = trial.clone()
    actions: list[int] = []
    split_error = None
    try:
        for part in parts:
            if probe.is_terminal() or probe.current_player() != mover:
                raise _TooMany(f"'{part}' is one move too many: the turn ends after {done + len(actions)} move(s)")
            action = probe.string_to_action(part)
            probe.apply_action(action)
            actions.append(action)
    except _TooMany:
        raise
    except ValueError as error:
        split_error = error
    if split_error is None:
        for action in actions:
            trial.apply_action(action)
        return actions
    # The game's own record reader, continuing the game so far (Morabaraba's `d1-d2xd5`).
    before = len(trial.history())
    try:
        after = trial.game().load_record(f"{trial.record()} {token}")
    except ValueError:
        raise split_error from None
    actions = after.history()[before:]
    for action in actions:
        trial.apply_action(action)
    return actions


class _TooMany(ValueError):
    pass


def parse_turn(state: boardlab.State, text: str) -> list[int]:
    """The actions `text` names, all by the player to move and legal in sequence, or ValueError."""
    tokens = [token for token in text.split() if split_moves(token)]
    if not tokens:
        raise ValueError("no move given")
    mover = state.current_player()
    trial = state.clone()
    actions: list[int] = []
    for token in tokens:
        if trial.is_terminal() or trial.current_player() != mover:
            raise ValueError(f"'{token}' is one move too many: the turn ends after {len(actions)} move(s)")
        actions.extend(_token_actions(trial, token, mover, len(actions)))
    # A ply read by the record reader may not run past the mover's turn either.
    replay = state.clone()
    for done, action in enumerate(actions):
        if replay.is_terminal() or replay.current_player() != mover:
            raise ValueError(f"one move too many: the turn ends after {done} move(s)")
        replay.apply_action(action)
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
