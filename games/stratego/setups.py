"""Stratego's setups in a run's self-play records: where the Flag stands, how spread out (entropy), what guards it.

A setup is 40 characters in fill order (games/stratego/stratego.h: from the own back rank,
left to right as seen from the own side), so Red's and Blue's read alike and are counted
together. Usage (the run folder of `boardlab train`):

    /usr/bin/python3 games/stratego/setups.py RUN [--last 300] [--plot flags.png] [--every 500]
    .venv/bin/python3 games/stratego/setups.py --player agent:CK [--games 200]   # boardlab installed (scripts/setup.sh)

prints the Flag-square distribution of the last games as JSON; --every N prints its entropy
over each block of N games instead (how it moved during the run); --plot draws the Flag
squares of the last games as a heat map over the 4 setup ranks. With --player, the setups
are the ones that player makes, as it would in a game (an agent's evaluation search, which
may differ from self-play's), both sides each time.
"""
import argparse
import collections
import json
import math
import os
import sys

FILES = "abcdefghik"
SETUP_SQUARES = 40


def square(index):
    return f"{FILES[index % 10]}{index // 10 + 1}"


def setups(path):
    """Every side's setup string, game by game (a list of lists), from a run's selfplay.txt."""
    games = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            sides = [turn for turn in line.split()[1:3] if len(turn) == SETUP_SQUARES]
            if len(sides) != 2:
                raise ValueError(f"{path}:{number}: the first two turns are not two {SETUP_SQUARES}-square setups")
            games.append(sides)
    return games


def player_setups(spec, games, game_string, seed):
    """The setups `spec` makes as Red and as Blue, `games` times, each by a fresh bot."""
    import boardlab
    from boardlab.agents import make_bot
    game = boardlab.load_game(game_string)
    made = []
    for number in range(games):
        bot = make_bot(spec, game, seed + number)
        state = game.new_initial_state()
        while state.move_number() < 2:
            state.apply_action(bot.act(state))
        made.append(state.record().split()[:2])
    return made


def entropy_bits(counts):
    total = sum(counts.values())
    return -sum(c / total * math.log2(c / total) for c in counts.values()) if total else 0.0


def flag_statistics(games):
    flags = collections.Counter()
    guarded = 0
    sides = [setup for game in games for setup in game]
    for setup in sides:
        f = setup.index("F")
        flags[square(f)] += 1
        beside = [f - 10, f + 10] + ([f - 1] if f % 10 else []) + ([f + 1] if f % 10 != 9 else [])
        guarded += any(0 <= j < SETUP_SQUARES and setup[j] == "B" for j in beside)
    back_rank = sum(c for s, c in flags.items() if s[1:] == "1")
    return {
        "setups": len(sides),
        "flag_entropy_bits": round(entropy_bits(flags), 3),
        "distinct_flag_squares": len(flags),
        "flag_on_back_rank": round(back_rank / len(sides), 3) if sides else None,
        "flag_beside_a_bomb": round(guarded / len(sides), 3) if sides else None,
        "top_flag_squares": flags.most_common(8),
    }, flags


def plot(flags, total, title, path=None):
    """A heat map of the Flag's squares over the 4 setup ranks (share of `total` setups); written to
    `path` when given, and returned."""
    import matplotlib.pyplot as plt
    grid = [[0.0] * 10 for _ in range(4)]
    for s, c in flags.items():
        grid[int(s[1:]) - 1][FILES.index(s[0])] = c / total
    fig, ax = plt.subplots(figsize=(6, 2.8))
    image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0)
    ax.set_xticks(range(10), list(FILES))
    ax.set_yticks(range(4), ["1", "2", "3", "4"])
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="share of setups")
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=120)
    return fig


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", help="a run folder (its games/selfplay.txt) or a selfplay.txt")
    parser.add_argument("--player", help="a player spec (agent:CK, heuristic, ...) whose own setups are counted")
    parser.add_argument("--games", type=int, default=200, help="--player: setups made, each side (default 200)")
    parser.add_argument("--game", default="stratego(variant=barrage)", help="--player: the game string")
    parser.add_argument("--seed", type=int, default=0, help="--player: the first bot's seed")
    parser.add_argument("--last", type=int, default=300, help="games counted, the latest (default 300)")
    parser.add_argument("--every", type=int, default=0, help="print the Flag entropy per block of this many games")
    parser.add_argument("--plot", help="write a heat map of the last games' Flag squares to this file")
    args = parser.parse_args(argv)
    if (args.run is None) == (args.player is None):
        parser.error("give a run folder or --player, one of them")
    try:
        if args.player:
            games = player_setups(args.player, args.games, args.game, args.seed)
        else:
            games = setups(args.run if os.path.isfile(args.run) else os.path.join(args.run, "games", "selfplay.txt"))
    except (OSError, ValueError) as e:
        sys.exit(f"setups: {e}")
    if args.every > 0:
        for start in range(0, len(games), args.every):
            block = games[start:start + args.every]
            stats, _ = flag_statistics(block)
            print(json.dumps({"games": [start + 1, start + len(block)], "flag_entropy_bits": stats["flag_entropy_bits"],
                              "flag_on_back_rank": stats["flag_on_back_rank"]}))
        return
    last = games[-args.last:]
    stats, flags = flag_statistics(last)
    print(json.dumps(stats))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        plot(flags, stats["setups"], f"Flag squares, last {len(last)} self-play games", args.plot)


if __name__ == "__main__":
    main()
