"""One game between players at any kind of node, printed turn by turn in the game's notation, and its result."""

from typing import TextIO

import boardlab
from boardlab.chance import draw_chance_outcome
from boardlab.players import Player


def audience_for(game: boardlab.Game, human_seats: list[int]) -> int | None:
    """Whose view the printed game shows: everything (None) for perfect information or bots alone; at a
    hidden-information game the one human's own view, or the public one when several humans share the screen."""
    if game.type().perfect_information or not human_seats:
        return None
    return human_seats[0] if len(human_seats) == 1 else boardlab.PUBLIC_VIEWER


def _record_words(state: boardlab.State, audience: int | None) -> list[str]:
    return (state.record() if audience is None else state.record_for(audience)).split()


def play_match(
    state: boardlab.State,
    players: list[Player],
    labels: list[str],
    out: TextIO,
    chance_rng,
    audience: int | None = None,
) -> None:
    """Plays `state` to the end in place, printing each finished turn as the game writes it (`X: a1-b2-c3`,
    `chance: J`, `P0/P1: R/P`), as `audience` sees it (audience_for).

    Chance outcomes are drawn from `chance_rng` (anything with `random()`); at a simultaneous node every
    player gives its action for its seat; at a seat's turn its player gives one or more actions of it.
    Turns end where move_number() changes.
    """
    printed_words = len(_record_words(state, audience))
    printed_steps = len(state.full_history())
    while not state.is_terminal():
        number = state.move_number()
        if state.is_chance_node():
            state.apply_action(draw_chance_outcome(state, chance_rng))
        elif state.is_simultaneous_node():
            joint = []
            for seat, player in enumerate(players):
                actions = player.act(state, seat)
                if len(actions) != 1:
                    raise RuntimeError(f"player {labels[seat]} gave {len(actions)} actions for one simultaneous round")
                joint.append(actions[0])
            state.apply_actions(joint)
        else:
            mover = state.current_player()
            for action in players[mover].act(state, mover):
                if state.is_terminal() or state.move_number() != number:
                    raise RuntimeError(f"player {labels[mover]} chose actions past the end of its turn")
                state.apply_action(action)
        if state.is_terminal() or state.move_number() != number:
            words = _record_words(state, audience)
            steps = state.full_history()
            print(f"{_actors(steps[printed_steps:], labels)}: {' '.join(words[printed_words:])}", file=out, flush=True)
            printed_words, printed_steps = len(words), len(steps)


def _actors(steps: list[tuple[int, int]], labels: list[str]) -> str:
    """Who made these steps: `X`, `chance`, or `P0/P1` for a simultaneous round."""
    names: list[str] = []
    for player, _ in steps:
        name = "chance" if player == boardlab.CHANCE_PLAYER else labels[player]
        if name not in names:
            names.append(name)
    return "/".join(names)


def result_text(returns: list[float], labels: list[str], truncated: bool = False) -> str:
    """`X wins (X +1, O -1)`, `draw (...)`, for several winners `X, Z win (...)`, or `truncated ...` for a game
    a cap ended before its rules did."""
    scores = ", ".join(f"{label} {value:+g}" if value else f"{label} 0" for label, value in zip(labels, returns))
    if truncated:
        return f"truncated by a cap that is not a rule, undecided ({scores})"
    best = max(returns)
    if all(value == best for value in returns):
        return f"draw ({scores})"
    winners = [label for label, value in zip(labels, returns) if value == best]
    verb = "wins" if len(winners) == 1 else "win"
    return f"{', '.join(winners)} {verb} ({scores})"
