"""What a predictable first square costs: the agent against itself, one seat's first square forced to the one that removes the agent's most often.

A first round is a matrix game: a square is removed by any smaller one the other player places on it in
the same round. An agent whose first square can be predicted concedes that round to whoever places the
right smaller square, and a best responder trained from scratch may never find that one square among
1,166. This probe plays the reply directly: it samples the agent's first square from the empty board,
forces the square that removes it most often (ties to the larger side), and lets the agent play both seats
from then on. Its score is a lower bound on what a best response wins.

    python3 games/squares/opening_probe.py CHECKPOINT [--games 100] [--forced 6h5]
    python3 games/squares/opening_probe.py 'agent:CHECKPOINT(simulations=128)' --games 100
"""

import argparse
import collections
import json
import sys

import boardlab
from boardlab import render
from boardlab.opening_response import forced_game

_notation = render.drawing("squares")


def square(text: str):
    """A placement's (side, x, y) from its notation (`6h5`: side 6, lower-left corner h5), None for pass."""
    placed = _notation.SQUARE.fullmatch(text)
    return None if placed is None else (int(placed[1]), _notation.FILES.index(placed[2]), int(placed[3]) - 1)


def overlap(a, b) -> bool:
    """Whether two squares' interiors intersect (the rule file's overlap)."""
    (sa, xa, ya), (sb, xb, yb) = a, b
    return xa < xb + sb and xb < xa + sa and ya < yb + sb and yb < ya + sa


def round_gain(mine, theirs) -> int:
    """+1 when my square removes theirs in the same round, -1 when theirs removes mine, else 0."""
    if mine is None or theirs is None or not overlap(mine, theirs) or mine[0] == theirs[0]:
        return 0
    return 1 if mine[0] < theirs[0] else -1


def best_reply(options: list[str], played: collections.Counter) -> tuple[str, float]:
    """The placement among `options` that removes the agent's first square (`played`: notation -> count) most
    often, less the times it is removed itself; ties to the larger side. Returns it and that net share."""
    total = sum(played.values())
    theirs = [(square(p), n) for p, n in played.items()]
    mine = [(square(o), o) for o in options if square(o)]
    share, _, best = max((sum(n * round_gain(m, t) for t, n in theirs) / total, m[0], o) for m, o in mine)
    return best, share


def first_squares(game, agent, samples: int) -> collections.Counter:
    """The agent's first squares in `samples` decisions from the empty board, half in each seat (a network
    may open differently in each)."""
    state = game.new_initial_state()
    return collections.Counter(state.action_to_string(i % 2, agent.act(state, i % 2)) for i in range(samples))


def probe(game, make_agent, forced: str, games: int) -> dict:
    """`games` games of the agent (make_agent(seed): an object with act(state, seat)) against itself, the prober's
    first square `forced`, seats alternating: the prober's score and the agent's first squares."""
    score, firsts = 0.0, collections.Counter()
    for g in range(games):
        prober = g % 2
        reply = game.new_initial_state().string_to_action(prober, forced)
        final = forced_game(game, make_agent, prober, reply, seed=g)
        firsts[final.action_to_string(1 - prober, final.history()[1 - prober])] += 1  # the first round: one a seat
        score += (final.returns()[prober] + 1) / 2
    return {"forced": forced, "games": games, "score": score / games, "agent_first_squares": dict(firsts)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent", help="a checkpoint, or an agent spec with search options: 'agent:CK(simulations=128)'")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--samples", type=int, default=100, help="first-round decisions sampled to choose the reply")
    parser.add_argument("--forced", help="the prober's first square (default: the best reply to the samples)")
    args = parser.parse_args(argv)
    game = boardlab.load_game("squares")
    spec = args.agent if args.agent.startswith("agent:") else boardlab.load_agent(args.agent).spec
    result = {"agent": spec}
    if args.forced is None:
        played = first_squares(game, boardlab.make_bot(spec, game, seed=12345), args.samples)
        empty = game.new_initial_state()
        options = [empty.action_to_string(0, a) for a in empty.legal_actions(0)]
        args.forced, share = best_reply(options, played)
        result.update(sampled_first_squares=dict(played.most_common()), reply_removes=share)
    result.update(probe(game, lambda seed: boardlab.make_bot(spec, game, seed=seed), args.forced, args.games))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
