"""`boardlab play`: a game between humans and bots in the terminal, printed turn by turn, for every kind of game."""

import argparse
import random
import sys
from typing import Callable, TextIO

import boardlab
from boardlab.flags import seed_type
from boardlab.game_args import add_game_arguments, load_game_from_args
from boardlab.labels import player_labels
from boardlab.match import audience_for, play_match, result_text
from boardlab.players import PLAYER_KINDS, GameAbandoned, PlayerContext, make_player, parse_player_specs
from boardlab.players.human import read_terminal_line


def register(subparsers) -> None:
    kinds = ", ".join(f"{name} ({kind.help})" for name, kind in PLAYER_KINDS.items())
    parser = subparsers.add_parser("play", help="play a game in the terminal")
    add_game_arguments(parser)
    parser.add_argument(
        "--players",
        default="human,random",
        help=f"one player per seat, comma-separated, first to move first (default human,random); kinds: {kinds}",
    )
    parser.add_argument("--seed", type=seed_type(), help="seed for the bots and chance (default: drawn and printed)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return play_game(load_game_from_args(args), args.players, args.seed)


def play_game(
    game: boardlab.Game,
    players: str,
    seed: int | None = None,
    read_line: Callable[[str], str] = read_terminal_line,
    out: TextIO = sys.stdout,
) -> int:
    """Plays one game of `game` (any boardlab.Game, toys included) between the players `players` names
    (`human,random`), printing it on `out`; humans type on `read_line`. The seed fixes the bots and chance."""
    specs = parse_player_specs(players, game.num_players())
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    labels = player_labels(game)
    seeds = random.Random(seed)
    seats = [
        make_player(spec, PlayerContext(game, seat, labels[seat], seeds.getrandbits(64), read_line, out))
        for seat, spec in enumerate(specs)
    ]
    chance_rng = random.Random(seeds.getrandbits(64))
    humans = [seat for seat, spec in enumerate(specs) if spec == "human"]
    listing = ", ".join(f"{label} {spec}" for label, spec in zip(labels, specs))
    print(f"{game}: {listing}; seed {seed}", file=out, flush=True)

    state = game.new_initial_state()
    try:
        play_match(state, seats, labels, out, chance_rng, audience_for(game, humans))
    except GameAbandoned as reason:
        print(f"\nGame abandoned ({reason}) after {len(state.history())} move(s).", file=out)
        # The whole record would show what a player at a hidden-information game may not know yet.
        hidden = not game.type().perfect_information
        print(f"Record{' (public)' if hidden else ''}: {state.public_record() if hidden else state.record()}", file=out)
        return 0
    print(f"\n{state}", file=out)
    print(f"Result: {result_text(state.returns(), labels, state.is_truncated())}", file=out)
    print(f"Record: {state.record()}", file=out, flush=True)
    return 0
