"""Game selection on the command line: a game string plus repeated `--param key=value`."""

import argparse

import boardlab
from boardlab.errors import CliError


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game name, optionally with parameters: virus_war(strict=true)")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game parameter (repeatable); `boardlab games` lists them",
    )


def parse_params(items: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise CliError(f"--param '{item}' is not of the form key=value")
        if key in params:
            raise CliError(f"--param '{key}' given twice")
        params[key] = value.strip()
    return params


def load_game_from_args(args: argparse.Namespace) -> boardlab.Game:
    # Values stay text: the game's parameter specs give them their types.
    return boardlab.load_game(args.game, parse_params(args.param))
