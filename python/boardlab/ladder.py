"""Rating ladders: a game's reference players rated once from a round robin (arena/ladder.h), rebuilt and read from Python."""

import datetime
import itertools
import os

import boardlab
from boardlab import _boardlab
from boardlab.engine import module_for

# The reference players a ladder starts from: random, then rollout UCT from weak to strong
# (a game with a heuristic player of its own adds it, since rollout UCT is weak in some games).
DEFAULT_RUNGS = ("random", "uct:50", "uct:200", "uct:1000", "uct:10000")


def has_heuristic(game) -> bool:
    """Whether the game has a heuristic player of its own (the `heuristic` player kind)."""
    try:
        _boardlab.make_bot("heuristic", game, 0)
    except ValueError:
        return False
    return True


def default_players(game) -> list[str]:
    """The rungs of the game's stored ladder, weakest first, or DEFAULT_RUNGS (and `heuristic` where the game has one)."""
    stored = _boardlab.find_ladder(game)
    if stored:
        return [rung["player"] for rung in stored["rungs"]]
    return [*DEFAULT_RUNGS, *(["heuristic"] if has_heuristic(game) else [])]


def ladder_groups(num_players: int, seats: int, span: int) -> list[list[int]]:
    """The tables a ladder plays: every group of `seats` players whose positions in the list (weakest first)
    lie within `span` of each other (0: every group, a full round robin). Neighbours decide a ladder's
    ratings; random against the strongest rung only costs time."""
    if seats > num_players:
        raise ValueError(f"a ladder of {num_players} players cannot fill a table of {seats}")
    reach = max(span, seats - 1) if span > 0 else num_players
    return [list(g) for g in itertools.combinations(range(num_players), seats) if g[-1] - g[0] <= reach]


def build_ladder(game, players=None, games: int = 100, span: int = 2, seed: int = 0, threads: int = 0,
                 opening_turns: int | None = None, progress: bool = False) -> dict:
    """Plays the ladder's round robin (see ladder_groups) and fits its ratings, random (or the first player) = 0.

    Returns {"ladder": the ladder as store_ladder takes it (rungs weakest first, 95% intervals),
    "report": the arena's results}. A ladder stopped early (Ctrl-C) has report["stopped"] set and is
    not meant to be stored."""
    if not isinstance(game, boardlab.Game):
        game = boardlab.load_game(game)
    players = list(players) if players else default_players(game)
    if len(players) < 2:
        raise ValueError("a ladder needs at least two players")
    groups = ladder_groups(len(players), game.num_players(), span)
    opening = game.arena_opening_turns() if opening_turns is None else opening_turns
    engine = module_for(players)
    report = engine.run_arena(game, players, games=games, seed=seed, threads=threads, opening_turns=opening,
                              progress=progress, groups=groups)
    games_of = {s["player"]: s["games"] for s in report["standings"]}
    rungs = []
    for rating in report["elo"]:
        if not rating["rated"]:
            raise ValueError(f"{rating['player']} played no game linked to the others: no rating to store")
        rungs.append({"player": rating["player"], "elo": rating["elo"], "low": rating["low"],
                      "high": rating["high"], "games": games_of[rating["player"]]})
    rungs.sort(key=lambda r: r["elo"])
    built = f"{datetime.date.today().isoformat()}, {threads or os.cpu_count()} threads, span {span}"
    ladder = {"game": game.rules_string(), "rungs": rungs, "games_per_group": games, "opening_turns": opening,
              "seed": seed, "seconds": report["seconds"], "built": built}
    return {"ladder": ladder, "report": report}


def ladder_table(ladder: dict) -> str:
    """The ladder for people: one line per rung, strongest first."""
    lines = [f"{ladder['game']}: {len(ladder['rungs'])} rungs, Elo with random = 0 and 95% intervals",
             f"  {'player':<34} {'elo':>8}  {'95% interval':>18}  {'games':>6}"]
    for rung in reversed(ladder["rungs"]):
        interval = f"[{rung['low']:+.0f}, {rung['high']:+.0f}]"
        lines.append(f"  {rung['player']:<34} {rung['elo']:>+8.0f}  {interval:>18}  {rung['games']:>6}")
    return "\n".join(lines) + "\n"


def ladder_rating_line(report: dict, player: str) -> str:
    """One line: `player`'s rating on the game's stored ladder, from an arena run with ladder=True."""
    ladder = report["ladder"]
    for rating in ladder["ratings"]:
        if rating["player"] == player:
            if not rating["rated"]:
                return f"{player}: no games against the ladder's rungs"
            return (f"{player}: {rating['elo']:+.0f} [{rating['low']:+.0f}, {rating['high']:+.0f}] on the ladder of "
                    f"{ladder['game']} (rungs held at their stored ratings, random = 0)")
    raise ValueError(f"{player} did not play")
