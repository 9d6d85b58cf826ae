"""How a player's Stratego games ended: won, lost and drawn, each by its reason (Flag captured, no move left, the cap...).

An evaluation's scores say how often an agent loses; this says how. It reads the games.txt that
`boardlab evaluate --out DIR` writes, replays each record, and counts the endings from the side of one
player, named by the start of its name in the records (`agent`, `uct:200`). Usage:

    /usr/bin/python3 games/stratego/endings.py DIR/games.txt --player agent [--game 'stratego(variant=barrage)']

prints JSON: for each result, the reasons with their counts and the median number of moves, and the
seat (Red or Blue) each loss was played in.
"""
import argparse
import collections
import json
import re
import statistics
import sys

LINE = re.compile(r"^\[(?P<names>.*)\] \[(?P<returns>[-+0-9.,]+)\] (?P<record>.*)$")
STATUS = re.compile(r"\((?P<reason>[^)]*)\) after (?P<moves>\d+) moves$")
SEATS = ("Red", "Blue")


def seat_of(names: str, player: str, where: str) -> int:
    """The seat of the player whose name starts with `player`, in a record's comma-joined names (two seats)."""
    first = names.startswith(player)
    # The second name starts after a comma; names may hold commas themselves (agent:CK(a=1,b=2)).
    second = any(names[i + 1:].startswith(player) for i, c in enumerate(names) if c == ",")
    if first == second:
        raise ValueError(f"{where}: {'both players' if first else 'no player'} of [{names}] start with {player!r}")
    return 0 if first else 1


def endings(lines, player: str, game) -> dict:
    """The endings of `player`'s games among `lines` (games.txt), from its side."""
    tally = {result: collections.Counter() for result in ("won", "lost", "drawn")}
    moves = {result: [] for result in tally}
    lost_as = collections.Counter()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        match = LINE.match(line.rstrip("\n"))
        if not match:
            raise ValueError(f"line {number}: not a game of games.txt ([players] [returns] record)")
        seat = seat_of(match["names"], player, f"line {number}")
        state = game.load_record(match["record"])
        if not state.is_terminal():
            raise ValueError(f"line {number}: the record does not end the game")
        last = str(state).rstrip().splitlines()[-1]
        status = STATUS.search(last)
        if not status:
            raise ValueError(f"line {number}: the game's last line, {last!r}, names no reason and length")
        mine = state.returns()[seat]
        result = "won" if mine > 0 else "lost" if mine < 0 else "drawn"
        tally[result][status["reason"]] += 1
        moves[result].append(int(status["moves"]))
        if result == "lost":
            lost_as[SEATS[seat]] += 1
    return {"player": player, "games": sum(len(m) for m in moves.values()),
            **{result: {"games": len(moves[result]), "reasons": dict(tally[result].most_common()),
                        "median_moves": statistics.median(moves[result]) if moves[result] else None}
               for result in tally},
            "lost_as": dict(lost_as)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", help="an evaluation's games.txt (boardlab evaluate --out DIR)")
    parser.add_argument("--player", required=True, help="the start of the player's name in the records: agent, uct:200")
    parser.add_argument("--game", default="stratego", help="the game string (default: classic stratego)")
    args = parser.parse_args(argv)
    import boardlab
    try:
        game = boardlab.load_game(args.game)
        with open(args.games) as f:
            print(json.dumps(endings(f, args.player, game)))
    except (OSError, ValueError) as e:
        sys.exit(f"endings: {e}")


if __name__ == "__main__":
    main()
