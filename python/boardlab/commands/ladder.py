"""`boardlab ladder`: rebuild a game's rating ladder from a round robin of its reference players, and store it."""

import argparse
import json
import signal

import boardlab
from boardlab import _boardlab
from boardlab.commands.evaluate import split_specs
from boardlab.errors import CliError
from boardlab.flags import MAX_ARENA_GAMES, MAX_ARENA_THREADS, int_in, seed_type
from boardlab.game_args import parse_params
from boardlab.ladder import DEFAULT_RUNGS, build_ladder, ladder_table


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "ladder",
        help="rate a game's reference players from a round robin: the ladder later evaluations are rated on",
        description="Plays the reference players of a game against their neighbours on the ladder (--span), fits "
        "their ratings (random = 0, 95% intervals) and, with --write, stores them in games/NAME/ladder.yaml, "
        "where `boardlab evaluate --ladder` and training runs' evaluations read them. Without --players: the "
        f"stored ladder's rungs, or {', '.join(DEFAULT_RUNGS)} and the game's heuristic player if it has one.",
    )
    parser.add_argument("game", help="game string, e.g. virus_war or 'virus_war(strict=true)'")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="a game parameter (repeatable)")
    parser.add_argument("--players", help="comma-separated player specs, weakest first (the order --span reads)")
    parser.add_argument("--games", type=int_in(1, MAX_ARENA_GAMES), default=100, help="games per table (default 100)")
    parser.add_argument("--span", type=int_in(0), default=2,
                        help="tables only of players at most this far apart in the list (default 2; 0: full round robin)")
    parser.add_argument("--seed", type=seed_type(), default=0, help="seed of openings and players (default 0)")
    parser.add_argument("--threads", type=int_in(0, MAX_ARENA_THREADS), default=0, help="games in parallel (default: every core)")
    parser.add_argument("--opening", type=int_in(0), help="random opening turns per game (default: the game's own)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--write", action="store_true", help="store the ladder in the game's folder (games/NAME/ladder.yaml)")
    where.add_argument("--out", help="store the ladder in this ladder file instead")
    parser.add_argument("--json", action="store_true", help="print the ladder as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = boardlab.load_game(args.game, parse_params(args.param))
    players = split_specs(args.players) or None
    built = build_ladder(game, players, games=args.games, span=args.span, seed=args.seed, threads=args.threads,
                         opening_turns=args.opening, progress=not args.quiet)
    ladder, report = built["ladder"], built["report"]
    if args.json:
        print(json.dumps(ladder, indent=2), flush=True)
    else:
        print(f"{report['game']}: {len(report['games'])} games in {report['seconds']:.0f} s")
        print(report["table"], end="")
        print(ladder_table(ladder), end="", flush=True)
    if report["stopped"]:
        print("stopped early: the ladder is not stored")
        return 128 + (report["signal"] or signal.SIGINT)
    target = args.out or (_boardlab.ladder_file(game.name()) if args.write else None)
    if target:
        try:
            _boardlab.store_ladder(target, ladder)
        except OSError as error:
            raise CliError(f"cannot store the ladder in '{target}': {error}") from None
        print(f"ladder stored in {target}")
    return 0
