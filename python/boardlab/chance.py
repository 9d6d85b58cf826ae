"""Drawing chance outcomes in Python (the environments, `boardlab play`): one rule, reproducible from any seeded generator."""

import boardlab


def draw_chance_outcome(state: boardlab.State, rng) -> int:
    """An outcome of the chance node `state`, drawn with its probability.

    `rng` is anything with a `random()` method giving a float in [0, 1): a `random.Random`
    or a `numpy.random.Generator`, so a seeded generator reproduces the draws.
    """
    outcomes = state.chance_outcomes()  # ValueError when this is not a chance node
    pick = rng.random()
    for action, probability in outcomes:
        pick -= probability
        if pick < 0:
            return action
    return outcomes[-1][0]  # the probabilities' rounding left a sliver


def play_chance(state: boardlab.State, rng) -> list[int]:
    """Plays chance nodes from `state` until a player acts or the game ends; returns the outcomes drawn."""
    drawn = []
    while state.is_chance_node():
        action = draw_chance_outcome(state, rng)
        state.apply_action(action)
        drawn.append(action)
    return drawn
