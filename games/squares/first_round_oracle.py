"""The first round as the network values it: a double oracle over all 1,165 first squares, each joint valued one ply deep.

A Squares agent's first-round prior is near flat, so its search, which considers a handful of candidates a
seat, cannot find the mixed strategy the round needs. This script asks whether the network's values hold
one: it solves the round as a zero-sum matrix game whose payoff for a joint (a, b) is the network's value of
the position after it (half of seat 0's value less seat 1's), growing each seat's strategy set by its best
reply to the other's equilibrium mix (a double oracle: McMahan, Gordon and Blum 2003) until neither reply
gains more than the tolerance. Each iteration values every first square against the other seat's support,
so it costs about 1,165 network evaluations per square in that support.

    python3 games/squares/first_round_oracle.py CHECKPOINT [--iterations 40] [--tolerance 0.02]

It prints each iteration's value, what each seat's best reply gains (their sum is the mix's exploitability
as the network values it) and the supports. With --games it then plays the agent with its first square drawn
from the mixes: against the opening probe's reply to them (the square that removes the most of them) and
against the heuristic, reporting what each of those opponents scores; --respond adds the opening response
(`boardlab exploit --opening`), which ranks every reply by the network and screens the best in games. --mix
plays given mixes instead of solving: a uniform one over some squares, or an earlier run's.

    python3 games/squares/first_round_oracle.py CHECKPOINT --games 100 --respond
    python3 games/squares/first_round_oracle.py CHECKPOINT --games 50 --respond --mix 4h8,4i8,4k8,4h9,4i9
"""

import argparse
import collections
import json
import random
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import linprog

import boardlab
from boardlab.opening_response import opening_response, play, seat_value

sys.path.insert(0, str(Path(__file__).resolve().parent))
import opening_probe  # noqa: E402  (the probe's reply rule, beside this script)


def solve_zero_sum(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """An equilibrium (row mix, column mix, value) of the zero-sum game where the row player gets payoff[r, c]."""
    rows, cols = payoff.shape
    # The row player maximises v subject to x^T payoff >= v in every column; the column player, by duality,
    # minimises w subject to payoff y <= w in every row.
    row = linprog(np.r_[np.zeros(rows), -1.0], A_ub=np.c_[-payoff.T, np.ones(cols)], b_ub=np.zeros(cols),
                  A_eq=np.r_[np.ones(rows), 0.0][None], b_eq=[1.0], bounds=[(0, None)] * rows + [(None, None)])
    col = linprog(np.r_[np.zeros(cols), 1.0], A_ub=np.c_[payoff, -np.ones(rows)], b_ub=np.zeros(rows),
                  A_eq=np.r_[np.ones(cols), 0.0][None], b_eq=[1.0], bounds=[(0, None)] * cols + [(None, None)])
    if not (row.success and col.success):
        raise RuntimeError(f"the matrix game's linear programs failed: {row.message}; {col.message}")
    return np.clip(row.x[:rows], 0, None), np.clip(col.x[:cols], 0, None), float(row.x[rows])


def double_oracle(payoff, actions: int, rows: list[int], cols: list[int], iterations: int, tolerance: float,
                  log=lambda line: None) -> dict:
    """Grows the strategy sets `rows` and `cols` (action indices below `actions`) by best replies until neither
    gains more than `tolerance` or `iterations` pass. payoff(a, b): the row player's payoff for the joint."""
    history = []
    for it in range(iterations):
        x, y, value = solve_zero_sum(np.array([[payoff(a, b) for b in cols] for a in rows]))
        xs = [(a, w) for a, w in zip(rows, x) if w > 1e-4]
        ys = [(b, w) for b, w in zip(cols, y) if w > 1e-4]
        against_cols = np.array([sum(w * payoff(a, b) for b, w in ys) for a in range(actions)])
        against_rows = np.array([sum(w * payoff(a, b) for a, w in xs) for b in range(actions)])
        row_reply, col_reply = int(np.argmax(against_cols)), int(np.argmin(against_rows))
        step = {"iteration": it, "value": value, "row_gain": float(against_cols[row_reply] - value),
                "col_gain": float(value - against_rows[col_reply]), "row_reply": row_reply, "col_reply": col_reply,
                "row_mix": xs, "col_mix": ys}
        history.append(step)
        log(step)
        if step["row_gain"] <= tolerance and step["col_gain"] <= tolerance:
            break
        rows += [row_reply] if row_reply not in rows else []
        cols += [col_reply] if col_reply not in cols else []
    return {"history": history, "converged": history[-1]["row_gain"] <= tolerance
            and history[-1]["col_gain"] <= tolerance}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint")
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--tolerance", type=float, default=0.02, help="best-reply gain (value units) that ends it")
    parser.add_argument("--games", type=int, default=0,
                        help="then play the agent opening from the mixes: this many games against the opening probe's "
                        "reply to them and as many against the heuristic")
    parser.add_argument("--respond", action="store_true", help="with --games, also answer the mixed opening by the "
                        "opening response (boardlab exploit --opening): its best screened reply, --games fresh games")
    parser.add_argument("--mix", help="play these mixes instead of solving: squares joined by commas (one uniform mix "
                        "for both seats) or the output of an earlier run (its last iteration's mixes)")
    args = parser.parse_args(argv)
    agent = boardlab.load_agent(args.checkpoint)
    game = boardlab.load_game("squares")
    summary = {} if args.mix else solve(agent, game, args.iterations, args.tolerance)
    mixes = given_mixes(args.mix) if args.mix else summary.pop("mixes")
    if args.games > 0:
        summary.update(play_mix(game, agent.spec, mixes, args.games))
        if args.respond:
            summary.update(respond_to_mix(game, agent, mixes, args.games))
    print(json.dumps(summary))
    return 0


def solve(agent, game, iterations: int, tolerance: float) -> dict:
    """The double oracle on the agent's network, each iteration printed: the summary, with the final mixes."""
    empty = game.new_initial_state()
    squares = [a for a in empty.legal_actions(0) if empty.action_to_string(0, a) != "pass"]
    name = lambda i: empty.action_to_string(0, squares[i])  # noqa: E731
    values = {}

    def payoff(a: int, b: int) -> float:
        if (a, b) not in values:
            state = game.new_initial_state()
            state.apply_actions([squares[a], squares[b]])
            v = agent.value(state, 0)
            values[(a, b)] = float(v[0] - v[1]) / 2
        return values[(a, b)]

    def log(step):
        mixes = {k: [(name(i), round(w, 3)) for i, w in step[k]] for k in ("row_mix", "col_mix")}
        print(json.dumps({"iteration": step["iteration"], "value": round(step["value"], 3),
                          "gains": [round(step["row_gain"], 3), round(step["col_gain"], 3)],
                          "replies": [name(step["row_reply"]), name(step["col_reply"])], **mixes}), flush=True)

    starts = [int(np.argmax(np.asarray(agent.policy(empty, seat)[0])[squares])) for seat in (0, 1)]
    result = double_oracle(payoff, len(squares), [starts[0]], [starts[1]], iterations, tolerance, log)
    last = result["history"][-1]
    return {"converged": result["converged"], "iterations": len(result["history"]),
            "exploitability": round(last["row_gain"] + last["col_gain"], 3), "network_evaluations": len(values),
            "mixes": [[(name(i), w) for i, w in last[k]] for k in ("row_mix", "col_mix")]}


def given_mixes(text: str) -> list:
    """--mix: a uniform mix over comma-joined squares for both seats, or the last mixes an earlier run printed."""
    if Path(text).is_file():
        steps = [json.loads(line) for line in Path(text).read_text().splitlines() if line.startswith('{"iteration"')]
        if not steps:
            raise SystemExit(f"--mix: '{text}' holds no iteration of this script")
        return [steps[-1]["row_mix"], steps[-1]["col_mix"]]
    squares, empty = text.split(","), boardlab.load_game("squares").new_initial_state()
    for square in squares:
        try:
            empty.string_to_action(0, square)
        except ValueError as error:
            raise SystemExit(f"--mix: '{square}' is neither a file nor a first square ({error})") from None
    return [[(s, 1 / len(squares)) for s in squares]] * 2


def respond_to_mix(game, agent, mixes, games: int, **options) -> dict:
    """The opening response (its defaults, or `options`) to the agent opening from the mixes: its replies and the
    score of its games."""
    result = opening_response(game, lambda seed: MixedOpening(boardlab.make_bot(agent.spec, game, seed=seed), mixes, seed),
                              lambda state, seat: seat_value(agent.value(state, seat), seat), games=games, seed=5,
                              **options)
    return {"response_replies": [r["reply"] for r in result["replies"]], "response_score": result["final"]["score"]}


class MixedOpening:
    """A player (`bot`, with act(state, seat)) whose first square is drawn from its seat's mix (`mixes[seat]`:
    (square, weight) pairs)."""

    def __init__(self, bot, mixes, seed: int):
        self.bot = bot
        self.mixes = mixes
        self.rng = random.Random(seed)

    def act(self, state, seat: int) -> int:
        if state.move_number() > 0:
            return self.bot.act(state, seat)
        squares, weights = zip(*self.mixes[seat])
        return state.string_to_action(seat, self.rng.choices(squares, weights)[0])


def play_mix(game, spec: str, mixes, games: int) -> dict:
    """The agent opening from the mixes, in `games` games against the opening probe's reply to them (the agent
    playing on for both seats) and `games` against the heuristic, seats alternating: the other side's scores."""
    played = collections.Counter()
    for mix in mixes:
        for square, weight in mix:
            played[square] += weight / len(mixes)
    empty = game.new_initial_state()
    reply, share = opening_probe.best_reply([empty.action_to_string(0, a) for a in empty.legal_actions(0)], played)

    def agent(seed: int) -> MixedOpening:
        return MixedOpening(boardlab.make_bot(spec, game, seed=seed), mixes, seed)

    probed = opening_probe.probe(game, agent, reply, games)
    heuristic = 0.0
    for g in range(games):
        opening, other = agent(1000 + g), boardlab.make_bot("heuristic", game, seed=2000 + g)
        seat = g % 2
        state = play(game, [opening if s == seat else other for s in range(2)], seed=g)
        heuristic += (1 - state.returns()[seat]) / 2
    return {"probe_reply": reply, "reply_removes": round(share, 3), "probe_score": probed["score"],
            "heuristic_score": heuristic / games}


if __name__ == "__main__":
    raise SystemExit(main())
