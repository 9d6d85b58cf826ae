"""The human player: shows what its seat may see, reads a sub-move, a whole turn or a simultaneous choice in notation, explains bad input."""

import sys
from typing import Callable, TextIO

import boardlab
from boardlab._boardlab import quote_input

HELP = (
    "Type one move in the game's notation (e.g. e5), or a whole turn (a1-b2-c3 or a1 b2 c3);"
    " '?' lists the legal moves, 'quit' leaves."
)
SIMULTANEOUS_HELP = (
    "Every player chooses at once: type your move in the game's notation; '?' lists the legal moves, 'quit' leaves."
)


class GameAbandoned(Exception):
    """The human left: quit, or the end of the input."""


def split_moves(text: str) -> list[str]:
    """`a1-b2-c3`, `a1 b2 c3` → the parts; `--` alone is a move (a pass in some notations)."""
    parts: list[str] = []
    for token in text.split():
        parts.extend([token] if token == "--" else [part for part in token.split("-") if part])
    return parts


def _turn_over(state: boardlab.State, number: int) -> bool:
    """The turn numbered `number` has ended at `state` (move_number() tells, not the player to move)."""
    return state.is_terminal() or state.move_number() != number


def _token_actions(trial: boardlab.State, token: str, number: int, done: int) -> list[int]:
    """The actions one typed word names, in the game's notation, applied to `trial` as they are read.

    A word is one action (`a1`, `pass`, Morabaraba's `d1-d2`), or several joined by `-`
    (`a1-b2-c3`), or whatever the game's record notation reads as one ply (`d1-d2xd5`).
    `done` actions of turn `number` came before it.
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
            if _turn_over(probe, number):
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
    number = state.move_number()
    trial = state.clone()
    actions: list[int] = []
    for token in tokens:
        if _turn_over(trial, number):
            raise ValueError(f"'{token}' is one move too many: the turn ends after {len(actions)} move(s)")
        actions.extend(_token_actions(trial, token, number, len(actions)))
    # A ply read by the record reader may not run past the mover's turn either.
    replay = state.clone()
    for done, action in enumerate(actions):
        if _turn_over(replay, number):
            raise ValueError(f"one move too many: the turn ends after {done} move(s)")
        replay.apply_action(action)
    return actions


def parse_choice(state: boardlab.State, seat: int, text: str) -> int:
    """The one action of `seat` that `text` names at a simultaneous node, legal for it, or ValueError."""
    words = text.split()
    if len(words) != 1:
        raise ValueError("type one move: every player chooses one at once")
    action = state.string_to_action(seat, words[0])
    if action not in state.legal_actions(seat):
        raise ValueError(f"'{words[0]}' is not a legal move for you here")
    return action


def read_terminal_line(prompt: str) -> str:
    """input(), with bytes that are not UTF-8 kept as surrogate escapes (as Python does under the C
    locale) rather than raising UnicodeDecodeError mid-read, which would lose the rest of the buffer."""
    if getattr(sys.stdin, "errors", None) == "strict":
        sys.stdin.reconfigure(errors="surrogateescape")
    return input(prompt)


def invalid_text(line: str) -> str | None:
    """Why `line` cannot be a move when it holds bytes that are not UTF-8 (read as surrogate escapes),
    naming them; None for valid text."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        raw = line.encode("utf-8", "surrogateescape" if _escaped_bytes_only(line) else "surrogatepass")
        bad = sorted({f"\\x{ord(c) - 0xDC00:02x}" for c in line if 0xDC80 <= ord(c) <= 0xDCFF})
        return f"{quote_input(raw)} is not UTF-8 text (bytes {' '.join(bad) or 'of a surrogate'})"
    return None


def _escaped_bytes_only(line: str) -> bool:
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in line)


class HumanPlayer:
    def __init__(self, label: str, read_line: Callable[[str], str], out: TextIO):
        self._label = label
        self._read_line = read_line
        self._out = out

    def act(self, state: boardlab.State, seat: int, stop=None) -> list[int]:
        simultaneous = state.is_simultaneous_node()
        print(f"\n{self._view(state, seat)}", file=self._out, flush=True)
        while True:
            try:
                line = self._read_line(f"{self._label}> ").strip()
            except EOFError:
                raise GameAbandoned("end of input") from None
            except UnicodeDecodeError as error:  # a reader that decodes strictly
                bad = quote_input(error.object[error.start : error.end])
                print(f"  the input is not UTF-8 text (bytes {bad}); try again ('?' for help)", file=self._out, flush=True)
                continue
            if (why := invalid_text(line)) is not None:
                print(f"  {why}; try again ('?' for help)", file=self._out, flush=True)
                continue
            if not line:
                continue
            if line in ("quit", "exit"):
                raise GameAbandoned("quit")
            if line in ("?", "help"):
                print(f"{SIMULTANEOUS_HELP if simultaneous else HELP}\n{self._legal_moves(state, seat)}",
                      file=self._out, flush=True)
                continue
            try:
                return [parse_choice(state, seat, line)] if simultaneous else parse_turn(state, line)
            except ValueError as error:
                print(f"  {error}; try again ('?' for help)", file=self._out, flush=True)

    def _view(self, state: boardlab.State, seat: int) -> str:
        """The board for perfect information; at a hidden-information game what the seat may know (its board
        where the game draws one, its record) and its legal moves, never the state itself."""
        from boardlab.player_view import PlayerView
        from boardlab.render import view_text

        view = PlayerView(state, seat)
        return f"{view_text(view)}\n{self._legal_moves(state, seat)}" if view.hides else view_text(view)

    @staticmethod
    def _legal_moves(state: boardlab.State, seat: int) -> str:
        return "Legal moves: " + " ".join(state.action_to_string(seat, a) for a in state.legal_actions(seat))
