"""`boardlab games`: every registered game with its description, kind, parameters and presets."""

import argparse
import json

import boardlab


def register(subparsers) -> None:
    parser = subparsers.add_parser("games", help="list the games and their parameters")
    parser.add_argument("--json", action="store_true", help="print one JSON array for machines")
    parser.set_defaults(run=run)


def _value_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def run(args: argparse.Namespace) -> int:
    specs = boardlab.game_specs()
    for spec in specs:
        # What kind of game it is, as the game declares it (Game::type()).
        spec["kind"] = str(boardlab.load_game(spec["name"]).type())
    if args.json:
        print(json.dumps(specs, indent=2))
        return 0
    for spec in specs:
        print(f"{spec['name']}: {spec['description']}")
        print(f"  {spec['kind']}")
        if not spec["parameters"]:
            print("  (no parameters)")
        for param in spec["parameters"]:
            setting = f"{param['name']}={_value_text(param['default'])}"
            print(f"  {setting:<24} {param['type']:<6} {param['doc']}")
        if spec["presets"]:
            print(f"  presets: {'; '.join(spec['presets'])}")
    return 0
