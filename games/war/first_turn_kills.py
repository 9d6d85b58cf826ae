"""Whether War's first player can kill a general on its first turn, on each board: the engine's own moves, searched.

A kill needs a commanded unit of the killing type whose pattern reaches the general, and units of
one type chain only from that type or from the own general; so the first turn's kills are those of
one type's chains from the general, as long as the budget lets one type run (its base and one extra
sub-move for each type left unused). This searches those chains with the engine itself, breadth first
by the cells each type reaches, and prints, for each board, the first kill it finds as a turn in the
game's notation, or that there is none. Usage:

    /usr/bin/python3 games/war/first_turn_kills.py --players 4 --sizes 10-20

configs/war.yaml's board is the smallest square one without such a kill.
"""
import argparse
import json
import sys

import boardlab

TYPES = "PKTS"  # infantry, knights, tanks, planes: the planes of War's actions, in order


def first_turn_kill(game_string: str):
    """The first player's shortest first-turn sub-moves that put a player out, as text, or None."""
    game = boardlab.load_game(game_string)
    start = game.new_initial_state()
    cells = (game.num_distinct_actions() - 1) // len(TYPES)
    for kind in range(len(TYPES)):
        frontier, reached = [(start, [])], set()
        while frontier:
            after = []
            for state, line in frontier:
                for action in state.legal_actions():
                    if action // cells != kind or action == game.num_distinct_actions() - 1:
                        continue
                    child = state.clone()
                    text = child.action_to_string(action)
                    child.apply_action(action)
                    if any(child.is_out(p) for p in range(1, game.num_players())):
                        return "-".join(line + [text])
                    if action not in reached and child.current_player() == 0:
                        reached.add(action)
                        after.append((child, line + [text]))
            frontier = after
    return None


def sizes(text: str) -> list:
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes: {text!r} is not N or N-M (board sides)") from None
    if first > last:
        raise argparse.ArgumentTypeError(f"sizes: {text!r} runs backwards")
    return list(range(first, last + 1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, help="players (2 to 6; default 4)")
    parser.add_argument("--sizes", type=sizes, default=sizes("10-20"), help="square board sides, N or N-M (default 10-20)")
    args = parser.parse_args(argv)
    result = {}
    for side in args.sizes:
        game = f"war(players={args.players},width={side},height={side})"
        try:
            result[game] = first_turn_kill(game)
        except ValueError as e:  # the game refuses the board (too small for its start blocks)
            print(f"first_turn_kills: {e}", file=sys.stderr)
            return 2
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
