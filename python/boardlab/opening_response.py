"""A best response at a simultaneous first round: one reply chosen against the target's sampled opening, the target's own play after it.

A trained best responder (boardlab.exploit) learns from scratch, and in a game whose first round offers a
thousand actions it may never find the one reply that punishes a predictable opening. This responder looks
for that reply directly. In each seat it samples the target's first actions in the other seats, ranks every
legal reply by its value against them one ply deep (the target's own network, or the returns where the round
ends the game), screens the best few in short games by sequential halving, and plays the one that scored most.
Where the first round ends every game, its one-ply values are the replies' returns against the sampled openings,
and the screen, which could only add noise, is skipped. After the reply,
the target plays every seat, the responder's included: the reply is the only thing the responder adds, so
what it wins is a lower bound on the target's exploitability, as good as the first round's reply.

The final games are played afresh after the screening, so picking the best of the screened replies does not
inflate the score they report.
"""

import collections
import math
import random

import boardlab
from boardlab.exploit import final_lines
from boardlab.stats import mean_interval


def play(game, players: list, seed: int):
    """One game of `players` (one a seat, each with act(state, seat)), chance outcomes drawn by `seed`: the final
    state."""
    draw = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(draw.choices(outcomes, weights)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([player.act(state, s) for s, player in enumerate(players)])
        else:
            state.apply_action(players[state.current_player()].act(state, state.current_player()))
    return state


class FirstForced:
    """A player whose first decision is `reply`, and every later one `bot`'s."""

    def __init__(self, reply: int, bot):
        self.reply, self.bot = reply, bot

    def act(self, state, seat: int) -> int:
        if self.reply is None:
            return self.bot.act(state, seat)
        reply, self.reply = self.reply, None
        return reply


def forced_game(game, make_target, seat: int, reply: int, seed: int):
    """One game of the target in every seat (make_target(seed) -> a bot with act(state, seat)), `seat`'s first
    action forced to `reply`: the final state (its history() begins with the first round)."""
    bots = [make_target(seed * game.num_players() + s + 1) for s in range(game.num_players())]
    bots[seat] = FirstForced(reply, bots[seat])
    return play(game, bots, seed)


def seat_score(game, returns: list[float], seat: int) -> float:
    """What a game is worth to `seat`, as the arena's tables count it: its mean pair points against the others."""
    kind, seats = game.type(), game.num_players()
    span = kind.max_return - kind.min_return
    others = [r for s, r in enumerate(returns) if s != seat]
    return sum(boardlab.pair_points(returns[seat], o, seats, span) for o in others) / len(others)


def sampled_openings(game, make_target, seat: int, samples: int) -> collections.Counter:
    """The target's first actions in every seat but `seat`, in `samples` decisions from the initial state:
    a Counter of joint tuples, `seat`'s entry None."""
    state, bot = game.new_initial_state(), make_target(0)
    openings = collections.Counter()
    for _ in range(samples):
        if hasattr(bot, "restart"):
            bot.restart()
        openings[tuple(None if s == seat else bot.act(state, s) for s in range(game.num_players()))] += 1
    return openings


def ranked_replies(game, value, seat: int, openings: collections.Counter, most: int) -> tuple[list, float, bool]:
    """Every legal reply of `seat`, best first, with its mean one-ply value against the `most` commonest
    `openings` (value(state, seat) for a position that goes on, the returns where the round ends the game),
    the share of the samples those openings cover, and whether every value was a game's returns."""
    kept = openings.most_common(most)
    total = sum(n for _, n in kept)
    initial = game.new_initial_state()
    ranked, exact = [], True
    for reply in initial.legal_actions(seat):
        worth = 0.0
        for joint, n in kept:
            state = initial.clone()
            state.apply_actions([reply if s == seat else a for s, a in enumerate(joint)])
            exact = exact and state.is_terminal()
            worth += n * (seat_value(state.returns(), seat) if state.is_terminal() else value(state, seat))
        ranked.append((worth / total, reply))
    ranked.sort(key=lambda item: -item[0])
    return ranked, total / sum(openings.values()), exact


def seat_value(values, seat: int) -> float:
    """One seat's value ahead of the others' mean, scaled to equal its own value where the values sum to zero."""
    values = list(values)
    others = (sum(values) - values[seat]) / (len(values) - 1)
    return (values[seat] - others) * (len(values) - 1) / len(values)


def screen(game, make_target, seat: int, ranked: list, candidates: int, screen_games: int, seed: int) -> list[dict]:
    """The `candidates` best-ranked replies screened in `seat` by sequential halving (Karnin et al., 2013):
    `candidates` x `screen_games` games in all, spread over rounds that each play every surviving reply alike
    and keep its better half (the better ranked one one ply deep on a tie), so the budget goes to the replies
    that might be best. Best first: the survivors of the later rounds ahead, then by score. Every reply plays
    the same seeds in turn, so two replies' games differ by the reply alone."""
    alive = [{"reply": reply, "rank": rank, "one_ply_value": worth, "scores": []}
             for rank, (worth, reply) in enumerate(ranked[:candidates])]
    budget, rounds, out = len(alive) * screen_games, max(1, math.ceil(math.log2(len(alive)))), []
    order = lambda c: (-sum(c["scores"]) / len(c["scores"]), c["rank"])  # noqa: E731
    for round_ in range(rounds):
        per = max(1, budget // (len(alive) * rounds))
        for c in alive:
            played = len(c["scores"])
            c["scores"] += [seat_score(game, forced_game(game, make_target, seat, c["reply"], seed + played + g).returns(),
                                       seat) for g in range(per)]
        alive.sort(key=order)
        keep = len(alive) if round_ == rounds - 1 else math.ceil(len(alive) / 2)
        out = alive[keep:] + out
        alive = alive[:keep]
    return [{"reply": c["reply"], "rank": c["rank"], "one_ply_value": c["one_ply_value"],
             "screen_score": sum(c["scores"]) / len(c["scores"]), "screen_games": len(c["scores"])}
            for c in alive + out]


def unscreened(ranked: list, candidates: int) -> list[dict]:
    """The `candidates` best-ranked replies as they stand one ply deep, for a round whose values are exact."""
    return [{"reply": reply, "rank": rank, "one_ply_value": worth, "screen_score": None, "screen_games": 0}
            for rank, (worth, reply) in enumerate(ranked[:candidates])]


def best_reply(game, make_target, value, seat: int, samples: int, candidates: int, screen_games: int,
               most_openings: int, seed: int) -> dict:
    """`seat`'s reply to the target's sampled openings: ranked one ply deep, the best few screened in games."""
    initial = game.new_initial_state()
    name = lambda a: initial.action_to_string(seat, a)  # noqa: E731
    openings = sampled_openings(game, make_target, seat, samples)
    ranked, covered, exact = ranked_replies(game, value, seat, openings, most_openings)
    skip = exact and covered == 1.0
    screened = unscreened(ranked, candidates) if skip else screen(game, make_target, seat, ranked, candidates,
                                                                  screen_games, seed)
    return {"seat": seat, "action": screened[0]["reply"], "reply": name(screened[0]["reply"]),
            "target_openings": {"/".join("-" if a is None else initial.action_to_string(s, a) for s, a in enumerate(joint)): n
                                for joint, n in openings.most_common()},
            "ranked_against_share": covered, "screen_skipped": skip,
            "screened": [{**c, "reply": name(c["reply"])} for c in screened]}


def opening_response(game, make_target, value, samples: int = 100, candidates: int = 8, screen_games: int = 10,
                     games: int = 100, seed: int = 0, most_openings: int = 16, log=None) -> dict:
    """Each seat's best first-round reply to the target (make_target(seed) -> a bot; value(state, seat) -> the
    target network's value of a position for the seat, on seat_value's scale), chosen as the module says, then
    `games` fresh games, seats taking turns: the replies and their final score."""
    if not game.new_initial_state().is_simultaneous_node():
        raise ValueError(f"an opening response needs a game whose first round is simultaneous; {game.name()} "
                         "starts with one seat to move")
    for key, number in (("samples", samples), ("candidates", candidates), ("screen_games", screen_games),
                        ("games", games), ("most_openings", most_openings)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValueError(f"opening_response: {key} must be a whole number of 1 or more, got {number!r}")
    replies = []
    for seat in range(game.num_players()):
        replies.append(best_reply(game, make_target, value, seat, samples, candidates, screen_games, most_openings,
                                  seed + 1_000_000 * (seat + 1)))
        if log:
            log(f"seat {seat}: reply {replies[-1]['reply']} ({screen_words(replies[-1])})")
    scores, won, records, one_round = [], [], set(), True
    for g in range(games):
        seat = g % game.num_players()
        final = forced_game(game, make_target, seat, replies[seat]["action"], seed + g)
        scores.append(seat_score(game, final.returns(), seat))
        won.append(final.returns()[seat])
        records.add((seat, final.record()))  # a deterministic target replays one game a seat
        one_round = one_round and len(final.history()) == game.num_players()
    return {"method": "opening", "game": game.name(), "samples": samples, "candidates": candidates,
            "screen_games": screen_games, "replies": [{k: v for k, v in r.items() if k != "action"} for r in replies],
            "final": {"games": games, "distinct_games": len(records), "one_round": one_round,
                      "score": mean_interval(scores).as_dict(), "mean_return": mean_interval(won).as_dict()}}


def screen_words(reply: dict) -> str:
    """How a seat's reply was chosen, for people."""
    best = reply["screened"][0]
    if reply["screen_skipped"]:
        return f"one-ply value {best['one_ply_value']:+.2f}, the round's returns: not screened"
    return (f"one-ply value {best['one_ply_value']:+.2f}, screened {100 * best['screen_score']:.0f}% "
            f"in {best['screen_games']} games")


def opening_response_to(target: str, game=None, **options) -> dict:
    """opening_response against a player spec (agent:CK(...), uct:200, ...), valued by the agent's network;
    a player without one can be answered only where the first round ends the game. `game`: by default the
    agent's."""
    kind, checkpoint, _ = boardlab._boardlab.parse_player_spec(target)
    agent = boardlab.load_agent(checkpoint) if kind == "agent" else None
    if game is None:
        if agent is None:
            raise ValueError(f"name the game: only an agent:CHECKPOINT target knows its own, not {target}")
        game = agent.game()
    if not isinstance(game, boardlab.Game):
        game = boardlab.load_game(game)

    def value(state, seat: int) -> float:
        if agent is None:
            raise ValueError(f"the first round of {game.name()} does not end the game: ranking replies needs the "
                             f"target's network, and {target} has none (give an agent:CHECKPOINT target)")
        return seat_value(agent.value(state, seat), seat)

    result = opening_response(game, lambda seed: boardlab.make_bot(target, game, seed), value, **options)
    return {"target": target, **result}


def opening_table(result: dict) -> str:
    """The result for people: each seat's reply and what the target opened with, then the final games."""
    lines = [f"opening response to {result['target']} in {result['game']}: {result['samples']} sampled openings a seat, "
             f"the best {result['candidates']} replies one ply deep screened by sequential halving in "
             f"{result['candidates'] * result['screen_games']} games"]
    for r in result["replies"]:
        opened = ", ".join(f"{joint} {n}" for joint, n in list(r["target_openings"].items())[:4])
        lines.append(f"  seat {r['seat']}: {r['reply']} ({screen_words(r)}) against the target's {opened}"
                     + (", ..." if len(r["target_openings"]) > 4 else ""))
    lines += final_lines(result["final"])
    lines.append("after its reply the responder plays as the target does: the score is what that one reply wins")
    return "\n".join(lines) + "\n"
