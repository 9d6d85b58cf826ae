"""`boardlab perft`: move-generator counts for depths 1..N from the initial state, with times."""

import argparse
import time

import boardlab
from boardlab.flags import int_in
from boardlab.game_args import add_game_arguments, load_game_from_args


def register(subparsers) -> None:
    parser = subparsers.add_parser("perft", help="count action sequences of each depth (sub-moves count one)")
    add_game_arguments(parser)
    parser.add_argument("depth", type=int_in(1), help="the deepest depth to count")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = load_game_from_args(args)
    state = game.new_initial_state()
    print(game)
    print(f"{'depth':>5} {'count':>16} {'seconds':>10} {'per second':>14}")
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        count = boardlab.perft(state, depth)
        seconds = time.perf_counter() - start
        rate = f"{count / seconds:,.0f}" if seconds > 0 else "-"
        print(f"{depth:>5} {count:>16,} {seconds:>10.3f} {rate:>14}", flush=True)
    return 0
