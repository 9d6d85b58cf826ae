"""`boardlab play`: a game between humans and bots in the terminal, printed move by move."""

import argparse
import random
import sys

from boardlab.game_args import add_game_arguments, load_game_from_args
from boardlab.labels import player_labels
from boardlab.match import play_match, result_text
from boardlab.players import PLAYER_KINDS, GameAbandoned, PlayerContext, make_player, parse_player_specs


def register(subparsers) -> None:
    kinds = ", ".join(f"{name} ({kind.help})" for name, kind in PLAYER_KINDS.items())
    parser = subparsers.add_parser("play", help="play a game in the terminal")
    add_game_arguments(parser)
    parser.add_argument(
        "--players",
        default="human,random",
        help=f"one player per seat, comma-separated, first to move first (default human,random); kinds: {kinds}",
    )
    parser.add_argument("--seed", type=int, help="seed for the bots (default: drawn and printed)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = load_game_from_args(args)
    specs = parse_player_specs(args.players, game.num_players())
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    labels = player_labels(game)
    seat_seeds = random.Random(seed)
    players = [
        make_player(spec, PlayerContext(game, seat, labels[seat], seat_seeds.getrandbits(64), input, sys.stdout))
        for seat, spec in enumerate(specs)
    ]
    seats = ", ".join(f"{label} {spec}" for label, spec in zip(labels, specs))
    print(f"{game}: {seats}; seed {seed}", flush=True)

    state = game.new_initial_state()
    try:
        play_match(state, players, labels, sys.stdout)
    except GameAbandoned as reason:
        print(f"\nGame abandoned ({reason}) after {len(state.history())} move(s).")
        print(f"Record: {state.record()}")
        return 0
    print(f"\n{state}")
    print(f"Result: {result_text(state.returns(), labels)}")
    print(f"Record: {state.record()}")
    return 0
