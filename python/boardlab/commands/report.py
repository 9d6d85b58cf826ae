"""`boardlab report`: results tables and plots rebuilt from run folders, or the results README from its manifest."""

import argparse
import pathlib

from boardlab import report
from boardlab.errors import CliError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report",
        help="tables (mean ± 95%% interval across seeds) and plots from run or sweep folders",
        description="Reads each run folder (a sweep folder stands for its runs): its final evaluation, ladder rating, "
        "length, steps and games; groups runs whose config.yaml is the same but for the seed, and prints a table of "
        "each group's mean ± 95%% interval (Student t) and of every run. --out also writes report.md, report.json "
        "and a plot per group of its rating over steps, a line per seed. --results DIR instead regenerates "
        "DIR/README.md from DIR/runs.yaml and the metrics files beside it.",
    )
    parser.add_argument("runs", nargs="*", metavar="RUN", help="run folders or sweep folders")
    parser.add_argument("--out", help="folder for report.md, report.json and plots/")
    parser.add_argument("--results", metavar="DIR", help="regenerate DIR/README.md from DIR/runs.yaml (e.g. experiments/results)")
    parser.add_argument("--check", action="store_true", help="with --results: write nothing, exit 1 if README.md is stale")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.results:
        from boardlab import results

        if args.runs or args.out:
            raise CliError("--results DIR reads that folder's manifest: give no RUN folders or --out")
        folder = pathlib.Path(args.results)
        text = results.generate(folder)
        readme = folder / "README.md"
        if args.check:
            if not readme.is_file() or readme.read_text() != text:
                print(f"{readme} is stale: regenerate it with `boardlab report --results {folder}`")
                return 1
            print(f"{readme} is up to date")
            return 0
        readme.write_text(text)
        print(f"wrote {readme}")
        return 0
    if args.check:
        raise CliError("--check applies to --results")
    if not args.runs:
        raise CliError("name at least one run or sweep folder (or --results DIR)")
    result = report.report(args.runs, args.out)
    print(result["markdown"], end="")
    if args.out:
        print(f"\nwritten to {args.out}/ (report.md, report.json, plots/)")
    return 0
