"""Range-checked integer flags: every integer a command takes states its range, so that none past what the core holds reaches it."""

import argparse

from boardlab import _boardlab

C_INT_MAX = 2**31 - 1  # the core's counts and budgets are C ints
SEED_MAX = 2**64 - 1  # seeds are 64-bit unsigned
MAX_ARENA_GAMES = _boardlab.MAX_ARENA_GAMES
MAX_ARENA_THREADS = _boardlab.MAX_ARENA_THREADS
MAX_BENCH_CONCURRENT = _boardlab.MAX_BENCH_CONCURRENT


def int_in(low: int, high: int = C_INT_MAX):
    """An argparse type: an integer from low to high, or an error that states the range and what was given."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer from {low:,} to {high:,}, got '{text[:40]}'") from None
        if not low <= value <= high:
            shown = str(value) if len(str(value)) <= 40 else f"{str(value)[:20]}... ({len(str(value))} digits)"
            raise argparse.ArgumentTypeError(f"must be an integer from {low:,} to {high:,}, got {shown}")
        return value

    parse.__name__ = f"integer from {low:,} to {high:,}"
    return parse


def seed_type():
    """An argparse type for a random seed: 0 to 2^64 - 1."""
    return int_in(0, SEED_MAX)
