"""Who plays a seat: player kinds made from command-line specs like `human`, `random`, `uct:100`, `mcts(simulations=8)`."""

from dataclasses import dataclass
from typing import Callable, Protocol, TextIO

import boardlab
from boardlab import _boardlab
from boardlab.errors import CliError
from boardlab.players.engine_player import EnginePlayer
from boardlab.players.human import GameAbandoned, HumanPlayer
from boardlab.players.random_player import RandomPlayer


class Player(Protocol):
    def act(self, state: boardlab.State, seat: int, stop: "boardlab.StopToken | None" = None) -> list[int]:
        """The actions of `seat`, which acts at `state`: at its turn one or more actions, legal one after the
        other within the turn (move_number() unchanged until the last); at a simultaneous node exactly one.
        A player uses only what `seat` may know: its legal actions, its observation, its record. A searching
        player ends early with its best move so far once `stop` is requested or its time is up."""


@dataclass
class PlayerContext:
    """What a player kind may need to build a player for one seat."""

    game: boardlab.Game
    seat: int
    label: str
    seed: int
    read_line: Callable[[str], str]
    out: TextIO


@dataclass(frozen=True)
class PlayerKind:
    name: str
    help: str
    # Receives the parsed spec: the text after `kind:` (None without a colon) and the options.
    make: Callable[[str, str | None, dict[str, str], PlayerContext], Player]


def _without_argument(kind: str, make: Callable[[PlayerContext], Player]):
    def build(spec: str, arg: str | None, options: dict[str, str], context: PlayerContext) -> Player:
        if arg is not None or options:
            raise CliError(f"player kind '{kind}' takes no argument or options, got {quote(spec)}")
        return make(context)

    return build


def _engine(kind: str, needs_argument: bool):
    """A kind played by a C++ bot; the whole spec goes to the C++ factory, which checks it."""

    def build(spec: str, arg: str | None, options: dict[str, str], context: PlayerContext) -> Player:
        if needs_argument and arg is None and not (kind == "uct" and "simulations" in options):
            raise CliError(f"player kind '{kind}' needs an argument, as in {_EXAMPLES[kind]}")
        return EnginePlayer(spec, context.game, context.seed)

    return build


def quote(text: str) -> str:
    return _boardlab.quote_input(text.encode("utf-8", "surrogateescape"))


_EXAMPLES = {
    "uct": "uct:1000",
    "mcts": "mcts(algorithm=gumbel,simulations=64)",
    "agent": "agent:runs/NAME/checkpoints/latest.pt(simulations=64)",
}


# Adding a player kind (a search, a trained agent) is one entry here.
PLAYER_KINDS = {
    kind.name: kind
    for kind in (
        PlayerKind(
            "human",
            "you, typing moves in the game's notation",
            _without_argument("human", lambda c: HumanPlayer(c.label, c.read_line, c.out)),
        ),
        PlayerKind(
            "random",
            "uniformly random legal moves",
            _without_argument("random", lambda c: RandomPlayer(c.seed)),
        ),
        PlayerKind(
            "heuristic", "the game's own rule-based player, for the games that have one", _engine("heuristic", False)
        ),
        PlayerKind("uct", "UCT with random rollouts, uct:N for N simulations", _engine("uct", True)),
        PlayerKind("mcts", "PUCT/Gumbel search over rollouts, mcts(key=value,...)", _engine("mcts", False)),
        PlayerKind("agent", "a trained network, agent:CHECKPOINT[(simulations=N)]", _engine("agent", True)),
    )
}


def parse_player_specs(text: str, num_players: int) -> list[str]:
    """`human,random` → one spec per seat, checked against the known kinds. The list splits at its top-level
    commas only: options go in parentheses, `agent:ck.pt(simulations=8),random` (arena/player_spec.h)."""
    try:
        specs = _boardlab.split_player_specs(text)
    except ValueError as error:
        raise CliError(str(error)) from None
    if len(specs) != num_players:
        raise CliError(f"--players names {len(specs)} player(s), the game has {num_players}")
    for spec in specs:
        kind = _boardlab.parse_player_spec(spec)[0]
        if kind not in PLAYER_KINDS:
            raise CliError(f"unknown player kind '{kind}' (known: {', '.join(PLAYER_KINDS)})")
    return specs


def make_player(spec: str, context: PlayerContext) -> Player:
    kind, arg, options = _boardlab.parse_player_spec(spec)
    if kind not in PLAYER_KINDS:
        raise CliError(f"unknown player kind '{kind}' (known: {', '.join(PLAYER_KINDS)})")
    return PLAYER_KINDS[kind].make(spec, arg, options, context)


__all__ = [
    "GameAbandoned",
    "PLAYER_KINDS",
    "Player",
    "PlayerContext",
    "PlayerKind",
    "make_player",
    "parse_player_specs",
]
