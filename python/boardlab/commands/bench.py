"""`boardlab bench`: speed of the game core (random play, hidden-state samples), the search, the network."""

import argparse
import json

import boardlab
from boardlab.engine import network_module
from boardlab.errors import CliError
from boardlab.flags import MAX_BENCH_CONCURRENT, int_in, seed_type
from boardlab.game_args import add_game_arguments, load_game_from_args


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="speed: random play on one core; --search for the tree search; --nn for the network in self-play",
    )
    add_game_arguments(parser)
    parser.add_argument("--seconds", type=float, default=3.0, help="how long each measurement runs (default 3)")
    parser.add_argument("--min-games", type=int_in(0), default=1, help="random play: at least this many games (default 1)")
    parser.add_argument("--seed", type=seed_type(), default=0, help="random seed (default 0)")
    parser.add_argument(
        "--search",
        action="store_true",
        help="simulations/s of the search alone (a free evaluator) for 1 and --concurrent games, and of uct:N",
    )
    parser.add_argument("--concurrent", type=int_in(1, MAX_BENCH_CONCURRENT), default=64, help="--search: concurrent games (default 64)")
    parser.add_argument("--simulations", type=int_in(1), default=800, help="--search: simulations per move (default 800)")
    parser.add_argument(
        "--nn",
        action="store_true",
        help="raw network evaluations/s and self-play simulations/s with the same network (uses --config)",
    )
    parser.add_argument("--config", default="configs/virus_war.yaml", help="--nn: the training config to measure")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="--nn: config overrides")
    parser.add_argument("--json", action="store_true", help="print one JSON object for machines")
    parser.set_defaults(run=run)


def _random_play(game, args) -> dict:
    stats = boardlab.random_play(game, args.seconds, args.min_games, args.seed)
    result = {**stats, "mean_game_length": stats["actions"] / stats["games"]}
    if not game.type().perfect_information:
        # What the information-set search pays per simulation before it plays a single move.
        result["hidden_sample"] = boardlab._boardlab.hidden_sample_bench(game, min(args.seconds, 1.0), args.seed)
    return result


def _search(game, args) -> dict:
    search = boardlab._boardlab.search_bench
    return {
        "search_alone_1_game": search(game, f"simulations={args.simulations}", "free", 1, args.seconds, args.seed),
        f"search_alone_{args.concurrent}_games": search(
            game, f"simulations={args.simulations}", "free", args.concurrent, args.seconds, args.seed
        ),
        f"uct_{args.simulations}": search(
            game, f"algorithm=uct,simulations={args.simulations}", "rollout", 1, args.seconds, args.seed
        ),
    }


def run(args: argparse.Namespace) -> int:
    if not args.seconds >= 0:
        raise CliError("--seconds must be 0 or more")
    game = load_game_from_args(args)
    result: dict = {"game": str(game), "seed": args.seed}
    if args.nn:
        # The network half reads the game from the config; the named game must agree.
        for item in args.set:
            if item.partition("=")[0].strip() == "game":
                raise CliError(
                    f"--set {item}: bench measures the game it names ({game}); name the game once, as the argument"
                )
        overrides = [f"game={game}", *args.set]
        # Alone, then as in a training run: a learner training on the other core meanwhile.
        seconds = max(args.seconds, 1.0)
        result["network"] = network_module().bench_network(args.config, overrides, seconds)
        result["network_with_training"] = network_module().bench_network(args.config, overrides, seconds, True)
    elif args.search:
        result["search"] = _search(game, args)
    else:
        result.update(_random_play(game, args))
    if args.json:
        print(json.dumps(result))
        return 0
    if "actions" in result:
        stats = result
        print(f"{game}: random play on one core, seed {args.seed}")
        print(
            f"  {stats['games']:,} games, {stats['actions']:,} actions (mean game length {stats['mean_game_length']:.1f})"
            f" in {stats['seconds']:.2f} s"
        )
        print(f"  {stats['actions_per_second']:,.0f} actions/s, {stats['games_per_second']:,.1f} games/s")
        if "hidden_sample" in stats:
            h = stats["hidden_sample"]
            print(f"  one hidden-state sample (sample_hidden): {h['microseconds_per_sample']:,.2f} us,"
                  f" {h['samples_per_second']:,.0f} samples/s ({h['samples']:,} samples)")
        if stats["rounds"]:
            # A round is one joint action: the unit a simultaneous game advances by.
            print(f"  {stats['rounds_per_second']:,.0f} rounds/s ({stats['rounds']:,} simultaneous rounds,"
                  f" {stats['rounds'] / stats['games']:.1f} per game)")
    if "search" in result:
        print(f"{game}: search speed, {args.simulations} simulations per move, one thread")
        for name, stats in result["search"].items():
            print(
                f"  {name:<24} {stats['simulations_per_second']:>12,.0f} simulations/s"
                f"  (mean batch {stats['mean_batch']:.1f}, {stats['decisions']} moves)"
            )
    if "network" in result:
        n = result["network"]
        print(f"{n['game']}: network {n['blocks']}x{n['channels']} on {n['device']}, batch {n['batch']},"
              f" {n['workers']} worker(s)")
        print(f"  raw network            {n['evaluations_per_second']:>10,.0f} evaluations/s")
        print(f"  self-play              {n['selfplay_simulations_per_second']:>10,.0f} simulations/s"
              f" ({n['selfplay_evaluations_per_second']:,.0f} evaluations/s, mean batch {n['mean_batch']:.1f},"
              f" {100 * n['reused_share']:.1f}% of positions from the cache)")
        print(f"  ratio                  {n['ratio']:>10.2f}  (self-play simulations / raw evaluations; 1 = the network bounds)")
        print_cpu_share(n)
        t = result["network_with_training"]
        print(f"  with a learner training meanwhile ({t['training_steps_per_second']:,.1f} steps/s):")
        print(f"  raw network            {t['evaluations_per_second']:>10,.0f} evaluations/s")
        print(f"  self-play              {t['selfplay_simulations_per_second']:>10,.0f} simulations/s"
              f" ({t['selfplay_evaluations_per_second']:,.0f} evaluations/s, mean batch {t['mean_batch']:.1f},"
              f" {100 * t['reused_share']:.1f}% of positions from the cache)")
        print(f"  ratio                  {t['ratio']:>10.2f}")
        print_cpu_share(t)
    return 0


def print_cpu_share(n):
    """The ratio per CPU second of the measuring threads, and the cores each half's threads got:
    the ratio is their product's, so a gap shows as the work's or as the scheduler's share."""
    print(f"  per CPU second         {n['cpu_ratio']:>10.2f}  (the measuring threads had {n['raw_cores']:.2f} cores"
          f" in the raw half, {n['selfplay_cores']:.2f} in self-play)")
