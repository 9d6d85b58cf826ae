"""The `boardlab` command line: parses arguments, runs a subcommand, turns bad input into exit code 2."""

import argparse
import os
import signal
import sys
import threading

import boardlab
from boardlab.commands import bench, evaluate, exploit, games, ladder, perft, play, report, serve, sweep, train
from boardlab.errors import CliError, Terminated
from boardlab.players import quote

COMMANDS = (games, play, perft, bench, evaluate, ladder, exploit, train, sweep, report, serve)


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line like every other bad input (a flag's range included), and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="boardlab", description="Self-play reinforcement learning for board games."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def _terminate(signum, frame):
    raise Terminated()


def _check_text(argv: list[str]) -> None:
    """Every argument as UTF-8 text, before any is used. Python decodes an undecodable byte of argv as a lone
    surrogate ('\\udcff' for \\xff), which no C++ function can take: one line naming the argument here instead of
    a failure deep in a command. Paths may legally hold such bytes on Linux; they are refused too."""
    for arg in argv:
        boardlab._boardlab.check_text(arg, f"argument {quote(arg)}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        _check_text(argv)
    except boardlab.InputError as error:
        print(f"boardlab: error: {error}", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    # SIGTERM stops a command as Ctrl-C does: a long C++ call ends at its next check (a
    # training run with a checkpoint, an evaluation with its partial table), Python code at once.
    own_sigterm = threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    if own_sigterm:
        signal.signal(signal.SIGTERM, _terminate)
    try:
        return args.run(args) or 0
    except (boardlab.InputError, CliError) as error:
        print(f"boardlab {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        print("\nterminated" if isinstance(stop, Terminated) else "\ninterrupted", file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)
    except BrokenPipeError:
        # The reader (e.g. `| head`) left; point stdout at nothing so the exit flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except boardlab.FileError as error:
        # The system would not write a file (a full disk): the message names it and why.
        print(f"boardlab {args.command}: error: {error}", file=sys.stderr)
        return 1
    finally:
        if own_sigterm:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
