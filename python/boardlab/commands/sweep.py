"""`boardlab sweep`: a grid of configurations × seeds, trained and evaluated, into a table of mean ± 95% interval."""

import argparse
import sys

from boardlab import sweep
from boardlab.commands.evaluate import split_specs
from boardlab.errors import CliError
from boardlab.flags import MAX_ARENA_GAMES, int_in


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected minutes (a number above 0), got '{text[:40]}'") from None
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"minutes must lie above 0 and below 1,000,000, got {text[:40]}")
    return value


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "sweep",
        help="train a grid of configurations × seeds, evaluate each, table mean ± 95%% interval across seeds",
        description="Runs `boardlab train` for every configuration of the --grid (the cartesian product of its keys' "
        "values) with seeds 1..N, one after another, into OUT/<configuration>/seed<k>; then plays each final "
        "checkpoint on the game's ladder when it has one and against --against (else the config's evaluation "
        "opponents), and writes OUT/sweep.md and OUT/sweep.json: each seed's figures and per configuration the "
        "mean with the 95%% interval of the mean (Student t). Rerun the same command to continue: finished jobs "
        "are skipped, a killed run resumes. Under mpirun or srun each rank runs the jobs whose index ≡ rank mod "
        "ranks (from OMPI_COMM_WORLD_RANK/SIZE or SLURM_PROCID/NTASKS, or --rank/--ranks); then `boardlab sweep "
        "--collect OUT` makes the tables.",
    )
    parser.add_argument("--config", help="the YAML config every job starts from")
    parser.add_argument("--seeds", type=int_in(1, 1000), default=3, help="seeds per configuration (default 3)")
    parser.add_argument("--first-seed", type=int_in(0, 2**31 - 1000), default=1, help="the first seed (default 1)")
    parser.add_argument("--grid", action="append", default=[], metavar="KEY=A,B",
                        help="a config key and its values, e.g. search.simulations=16,32 (repeatable: the product)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config key set the same in every job, e.g. run.max_steps=2000")
    parser.add_argument("--out", help="the sweep folder (also where a rerun continues)")
    parser.add_argument("--minutes", type=_minutes, help="each run's wall-clock limit (run.max_minutes)")
    parser.add_argument("--eval-games", type=int_in(1, MAX_ARENA_GAMES), default=100,
                        help="games of each final checkpoint against each opponent (default 100)")
    parser.add_argument("--against", help="comma-separated opponents of each final checkpoint, e.g. random,uct:200")
    parser.add_argument("--rank", type=int_in(0), help="this process's rank (with --ranks): run jobs ≡ rank mod ranks")
    parser.add_argument("--ranks", type=int_in(1), help="the number of ranks sharing the sweep")
    parser.add_argument("--collect", metavar="OUT", help="only make the tables of the sweep folder OUT from its finished jobs")
    parser.set_defaults(run=run)


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    if args.collect:
        if args.config or args.grid or args.set or args.out:
            raise CliError("--collect OUT only reads a sweep folder: give no --config, --grid, --set or --out")
        print(sweep.collect(args.collect)["markdown"], end="")
        return 0
    if not args.config:
        raise CliError("give --config FILE (or --collect OUT to tabulate a sweep folder)")
    if not args.out:
        raise CliError("give --out DIR: the sweep folder, where a rerun continues")
    rank, ranks = sweep.rank_of(args.rank, args.ranks)
    plan = sweep.make_plan(args.config, sweep.parse_grid(args.grid), args.set, args.seeds, args.first_seed,
                           args.minutes, args.eval_games, split_specs(args.against))
    sweep.store_plan(args.out, plan)  # a folder holding another sweep is refused before anything is said
    mine = sweep.jobs_of_rank(plan, rank, ranks)
    _log(f"sweep: {len(plan.labels())} configurations × {len(plan.seeds)} seeds = {len(plan.jobs)} jobs"
         + (f"; rank {rank} of {ranks} runs {len(mine)} of them" if ranks > 1 else ""))
    try:
        sweep.run_sweep(args.out, plan, rank, ranks, log=_log)
    except sweep.SweepStopped as stop:
        _log(f"stopped; rerun the same command to continue the sweep in {args.out}")
        return 128 + stop.signum
    if ranks > 1:
        _log(f"rank {rank}: its jobs are done; when every rank's are, tabulate with: boardlab sweep --collect {args.out}")
        return 0
    print(sweep.collect(args.out)["markdown"], end="")
    return 0
