"""The `boardlab` command line: parses arguments, runs a subcommand, turns bad input into exit code 2."""

import argparse
import os
import sys

import boardlab
from boardlab.commands import bench, evaluate, games, perft, play, train
from boardlab.errors import CliError

COMMANDS = (games, play, perft, bench, evaluate, train)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardlab", description="Self-play reinforcement learning for board games."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except (boardlab.InputError, CliError) as error:
        print(f"boardlab {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) left; point stdout at nothing so the exit flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except boardlab.FileError as error:
        # The system would not write a file (a full disk): the message names it and why.
        print(f"boardlab {args.command}: error: {error}", file=sys.stderr)
        return 1
