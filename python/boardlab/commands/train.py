"""`boardlab train`: a training run from a YAML config, to a run folder, ending with its evaluation table."""

import argparse
import os
import signal

from boardlab.engine import network_module
from boardlab.errors import CliError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train an agent from a YAML config (self-play, learning, evaluation)",
        description="Ctrl-C or SIGTERM stops the run at its next safe point with a checkpoint "
        "(exit code 130 or 143); --resume continues it.",
    )
    parser.add_argument("--config", help="the YAML config, e.g. configs/virus_war.yaml")
    parser.add_argument("--out", help="run folder to create (default runs/<game>-<date>-<time>)")
    parser.add_argument("--resume", metavar="RUN", help="continue the run in this folder from its latest checkpoint")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key, e.g. training.batch_size=64"
    )
    parser.add_argument(
        "--print-config",
        action="store_true",
        help="print every key and exit: the defaults, or with --config or --resume the run's values after --set",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    nn = network_module()
    if args.resume and args.out:
        raise CliError("--resume names the run folder; --out is for new runs")
    if args.resume and args.config:
        raise CliError("--resume uses the run's own config.yaml; change keys with --set")
    if not args.resume and not args.config and not args.print_config:
        raise CliError("give --config FILE for a new run, or --resume RUN")
    if args.config and not os.path.exists(args.config):
        raise CliError(f"config file '{args.config}' does not exist")
    if args.print_config:
        if args.set and not (args.config or args.resume):
            raise CliError("--set changes a config: give --config FILE or --resume RUN with --print-config")
        print(nn.config_yaml(config_of(args), args.set) if args.config or args.resume else nn.default_config_yaml(), end="")
        return 0
    summary = nn.train(
        config=args.config or "", overrides=args.set, out=args.resume or args.out or "", resume=bool(args.resume)
    )
    if summary["rank"] > 0:
        return 0  # an actor rank of an MPI job: the learner (rank 0) reports the run
    print(f"\nrun folder: {summary['run_dir']}")
    print(f"{summary['steps']} steps, {summary['games']} games, {summary['positions']} positions in {summary['seconds'] / 60:.1f} min")
    print(f"latest checkpoint: {summary['latest_checkpoint']}")
    if summary["final_evaluation"]:
        print("\nfinal evaluation:")
        print(summary["final_evaluation"], end="")
    if summary["interrupted"]:
        print(f"stopped early; continue with: boardlab train --resume {summary['run_dir']}")
        return 128 + (summary["signal"] or signal.SIGINT)
    return 0


def config_of(args: argparse.Namespace) -> str:
    """The config file a new run reads, or the one a resumed run wrote."""
    if args.config:
        return args.config
    path = os.path.join(args.resume, "config.yaml")
    if not os.path.exists(path):
        raise CliError(f"'{args.resume}' holds no config.yaml: is it a run folder?")
    return path
