"""Bots a page starts: their specs held to the page's limits, their moves thought on a bounded pool of threads, each move capped in time and stopped when nobody waits for it any more."""

import asyncio
import concurrent.futures
import os
import threading

import boardlab
from boardlab import _boardlab
from boardlab.serve.messages import MAX_SIMULATIONS, clip
from boardlab.serve.run_watch import RunsFolder

# Options a page may raise no higher: a search's budget, and the evaluation cache, which is
# allocated whole (1 << 24 positions would take gigabytes).
PAGE_OPTION_LIMITS = {"simulations": MAX_SIMULATIONS, "cache_positions": 1 << 16}
DEFAULT_MOVE_SECONDS = 10.0  # the longest a page's bot thinks about one move: then it plays its best so far


def page_players(players: str, runs: RunsFolder) -> str:
    """The players a page asked for, as the server will make them: budgets within PAGE_OPTION_LIMITS and
    an agent's checkpoint a file inside the runs folder (its path relative to it); ValueError otherwise."""
    specs = []
    for spec in _boardlab.split_player_specs(players) if players.strip() else []:
        kind, argument, options = _boardlab.parse_player_spec(spec)
        if kind == "uct" and argument is not None:
            options = {"simulations": argument, **options}
            argument = None
        for key, limit in PAGE_OPTION_LIMITS.items():
            if key in options and not _within(options[key], limit):
                raise ValueError(f"player {clip(spec)}: a page's bots take {key} up to {limit:,}")
        if kind == "agent" and argument is not None:
            argument = runs.checkpoint(argument)
        specs.append(_boardlab.player_spec(kind, argument, list(options.items())) if kind != "human" else spec)
    return ",".join(specs)


def _within(value: str, limit: int) -> bool:
    # The bot's own parser says what is wrong with a value that is no number; here only its size counts.
    return not value.strip().isdigit() or int(value) <= limit


class Thinking:
    """One bot move being thought: cancel() from the event loop stops it, whether it thinks already
    or still waits for a thread."""

    def __init__(self):
        self._lock = threading.Lock()
        self._cancelled = False
        self._token: "boardlab.StopToken | None" = None

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            if self._token is not None:
                self._token.request()

    def start(self, seconds: float) -> "boardlab.StopToken | None":
        """The token the search polls, its clock started now; None when cancelled before it began."""
        with self._lock:
            if self._cancelled:
                return None
            self._token = boardlab.StopToken(seconds)
            return self._token


class BotPool:
    """The threads page bots think on: few (a bot thinks on one core), apart from those that load agents
    and analyse, so that busy bots never hold up another page's analysis."""

    def __init__(self, move_seconds: float = DEFAULT_MOVE_SECONDS, threads: int | None = None):
        self.move_seconds = move_seconds
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=threads or max(2, os.cpu_count() or 2), thread_name_prefix="page-bot")

    async def act(self, player, state: boardlab.State, seat: int, thinking: Thinking) -> list[int] | None:
        """`player`'s actions at `state`, or None when the move was cancelled before it began. Its search
        ends at thinking.cancel() or after move_seconds, whichever is first, with its best move so far."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._think, player, state, seat, thinking)

    def _think(self, player, state: boardlab.State, seat: int, thinking: Thinking) -> list[int] | None:
        # The move's clock starts when a thread takes it up, not while it waits for one.
        token = thinking.start(self.move_seconds)
        if token is None:
            return None
        return player.act(state, seat, token)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
