"""`boardlab evaluate`: players against each other in the arena, with a results table and ratings with intervals."""

import argparse
import json
import os
import signal
import tempfile

import boardlab
from boardlab.engine import module_for, network_module
from boardlab.errors import CliError
from boardlab.flags import MAX_ARENA_GAMES, MAX_ARENA_THREADS, int_in, seed_type
from boardlab.game_args import parse_params
from boardlab.ladder import ladder_rating_line


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="play players against each other on all cores: results, Elo with 95%% intervals",
        description="Round robin (--players a,b,c), or one player against several "
        "(--player X --against a,b, or --checkpoint PATH --against a,b). A game of n players is played by "
        "every group of n, in every seat order in turn. Ratings: Elo of each two-player game's score (where "
        "its returns lie in the game's range, so a poker hand's chips count), Plackett-Luce of each larger "
        "game's whole ranking.",
    )
    parser.add_argument("--game", help="game string, e.g. virus_war(strict=true); default: the checkpoint's game")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="a game parameter (repeatable)")
    parser.add_argument(
        "--players",
        help="comma-separated players for a round robin: random, heuristic, uct:N, mcts(key=value,...), "
        "agent:PATH(key=value,...) "
        "(options in parentheses; quote a path with commas: agent:'my,run.pt')",
    )
    parser.add_argument("--player", help="the one player that plays each of --against")
    parser.add_argument("--checkpoint", help="a trained checkpoint: plays as agent:PATH against --against")
    parser.add_argument("--simulations", type=int_in(1), help="search budget of the --checkpoint agent (default: its run's evaluation.simulations)")
    parser.add_argument("--against", help="comma-separated opponents of --player or --checkpoint")
    parser.add_argument("--ladder", action="store_true",
                        help="play --player or --checkpoint against every rung of the game's stored ladder (besides "
                        "--against) and rate it with the rungs held at their stored ratings (`boardlab ladder`)")
    parser.add_argument("--games", type=int_in(1, MAX_ARENA_GAMES), default=100, help="games per group of players, a pairing for two-player games (default 100)")
    parser.add_argument("--seed", type=seed_type(), default=0, help="seed for openings and players (default 0)")
    parser.add_argument("--threads", type=int_in(0, MAX_ARENA_THREADS), default=0, help="games in parallel (default: every core)")
    parser.add_argument("--opening", type=int_in(0), help="random opening turns per game (default: the game's own, its "
                        "Game.arena_opening_turns() in Python)")
    parser.add_argument(
        "--out",
        help="folder for results.json, elo.csv, pairings.csv, standings.csv and games.txt (checked before playing; "
        "Ctrl-C or SIGTERM stops the games and still prints and writes the results of those played; a player "
        "with no games then has null ratings and means in the JSON, empty fields in the CSV files and 'no games' "
        "in the table)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of the table")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def split_specs(text: str | None) -> list[str]:
    """Player specs split at the list's top-level commas, by the one spec parser (arena/player_spec.h)."""
    if not text:
        return []
    try:
        return boardlab._boardlab.split_player_specs(text)
    except ValueError as error:
        raise CliError(str(error)) from None


_FILES = (("results.json", "json"), ("elo.csv", "elo_csv"), ("pairings.csv", "pairings_csv"),
          ("standings.csv", "standings_csv"), ("games.txt", "records"))


def _prepare_out(out: str) -> None:
    """Creates the --out folder and proves it writable, so that a bad path fails before any game is played."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise CliError(f"--out '{out}' is a file, not a folder")
    try:
        os.makedirs(out, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        raise CliError(f"--out '{out}' is not a writable folder: {error.strerror}") from None


def _write_out(out: str, report: dict) -> None:
    try:
        for name, key in _FILES:
            with open(os.path.join(out, name), "w") as file:
                file.write(report[key])
    except OSError as error:
        raise CliError(f"cannot write the results to '{out}': {error.strerror}") from None


def run(args: argparse.Namespace) -> int:
    focus = args.player
    if args.checkpoint:
        if focus:
            raise CliError("give --player or --checkpoint, not both")
        options = [("simulations", str(args.simulations))] if args.simulations is not None else []
        focus = boardlab._boardlab.player_spec("agent", args.checkpoint, options)
    elif args.simulations is not None:
        raise CliError("--simulations applies to --checkpoint")
    opponents = split_specs(args.against)
    players = split_specs(args.players)
    if args.ladder and not focus:
        raise CliError("--ladder rates one player: give --player or --checkpoint")
    if focus and not opponents and not args.ladder:
        raise CliError("--against names the opponents of --player/--checkpoint")
    if focus and players:
        raise CliError("use --players for a round robin, or --player/--checkpoint with --against, not both")
    if not focus and len(players) < 2:
        raise CliError("name at least two --players, or --player/--checkpoint with --against")

    game_text = args.game
    if not game_text:
        if not args.checkpoint:
            raise CliError("--game is required (it defaults to the checkpoint's game only with --checkpoint)")
        game_text = network_module().checkpoint_info(args.checkpoint)["game"]
    game = boardlab.load_game(game_text, parse_params(args.param))
    opening = args.opening
    if args.ladder:
        ladder = boardlab._boardlab.find_ladder(game)
        if ladder is None:
            raise CliError(f"{game} has no stored ladder ({boardlab._boardlab.ladder_file(game.name())}); "
                           f"build one with `boardlab ladder '{game}' --write`")
        opponents += [r["player"] for r in ladder["rungs"] if r["player"] not in opponents and r["player"] != focus]
        # The ladder's ratings hold for games opened as its own were.
        opening = ladder["opening_turns"] if opening is None else opening
    if args.out:
        _prepare_out(args.out)

    specs = players if not focus else [focus, *opponents]
    engine = module_for(specs)
    report = engine.run_arena(
        game,
        opponents if focus else players,
        games=args.games,
        against=focus,
        seed=args.seed,
        threads=args.threads,
        opening_turns=opening,
        progress=not args.quiet,
        ladder=args.ladder,
    )
    # The results are printed before the files are written: a failing write loses nothing.
    if args.json:
        results = json.loads(report["json"])
        if args.ladder:
            results["ladder"] = report["ladder"]
        print(json.dumps(results, indent=2), flush=True)
    else:
        played = f"{len(report['games'])} of {report['planned']}" if report["stopped"] else f"{len(report['games'])}"
        print(f"{report['game']}: {played} games in {report['seconds']:.1f} s")
        print(report["table"], end="", flush=True)
        if args.ladder:
            print(ladder_rating_line(report, focus), flush=True)
    if args.out:
        _write_out(args.out, report)
        if not args.json:
            print(f"results written to {args.out}/")
    if report["stopped"]:
        return 128 + (report["signal"] or signal.SIGINT)
    return 0
