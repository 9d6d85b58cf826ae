"""Every State method pyspiel also has takes pyspiel's arguments in pyspiel's order: the player first, and optional
only where pyspiel has a form without it. Each is called both ways here."""

import numpy as np
import pytest

import boardlab

# pyspiel's signatures of the methods boardlab shares: (name, its forms' argument names).
PYSPIEL_STATE_METHODS = [
    ("action_to_string", [("player", "action"), ("action",)]),
    ("string_to_action", [("player", "text"), ("text",)]),
    ("legal_actions", [("player",), ()]),
    ("legal_actions_mask", [("player",), ()]),
    ("observation_tensor", [("player",), ()]),
    ("apply_action", [("action",)]),
    ("apply_actions", [("actions",)]),
    ("chance_outcomes", [()]),
    ("returns", [()]),
    ("current_player", [()]),
    ("is_terminal", [()]),
    ("is_chance_node", [()]),
    ("is_simultaneous_node", [()]),
    ("move_number", [()]),
    ("history", [()]),
    ("clone", [()]),
]


def _same(a, b) -> bool:
    return np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b


def test_every_shared_method_takes_pyspiels_argument_names_and_its_forms_agree():
    turn = boardlab.load_game("virus_war").new_initial_state()  # player 0 to move: the one actor
    # Where a method needs another kind of node: a simultaneous round, a chance node.
    where = {"apply_actions": boardlab.load_game("biased_rps").new_initial_state(),
             "chance_outcomes": boardlab.load_game("kuhn_poker").new_initial_state()}
    values = {"player": 0, "action": 0, "text": "a1", "actions": [0, 1]}
    for name, forms in PYSPIEL_STATE_METHODS:
        results = []
        for form in forms:
            state = where.get(name, turn).clone()
            results.append(getattr(state, name)(**{arg: values[arg] for arg in form}))
        assert all(_same(results[0], r) for r in results[1:]), name  # with the player and without it


def test_notation_takes_the_player_first_and_names_the_same_action_both_ways():
    game = boardlab.load_game("kuhn_poker")
    state = game.new_initial_state()
    # At chance, the one actor is chance: both forms name the same card.
    assert state.action_to_string(boardlab.CHANCE_PLAYER, 2) == state.action_to_string(2) == "K"
    assert state.string_to_action(boardlab.CHANCE_PLAYER, "K") == state.string_to_action("K") == 2
    state.apply_action(2)
    state.apply_action(0)
    # Player 0 to bet: (player, action) as pyspiel; a bet is action 1, "b".
    assert state.action_to_string(0, 1) == state.action_to_string(1) == "b"
    assert state.string_to_action(0, "b") == state.string_to_action("b") == 1
    assert state.action_to_string(player=0, action=1) == "b"
    assert state.string_to_action(player=0, text="p") == 0


def test_the_old_order_with_a_keyword_is_refused_not_misread():
    state = boardlab.load_game("virus_war").new_initial_state()
    with pytest.raises(TypeError):
        state.action_to_string(5, player=0)
    with pytest.raises(TypeError):
        state.string_to_action("a1", player=0)


def test_a_simultaneous_round_needs_the_player_as_pyspiel_does():
    game = boardlab.load_game("biased_rps")
    state = game.new_initial_state()
    assert state.is_simultaneous_node()
    assert [state.action_to_string(p, 1) for p in (0, 1)] == ["P", "P"]
    with pytest.raises(ValueError):
        state.action_to_string(1)  # two actors: the one-argument form cannot choose
    assert state.legal_actions(0) == state.legal_actions(1) == [0, 1, 2]
    assert np.array_equal(state.legal_actions_mask(1), [1, 1, 1])
    assert state.observation_tensor(0).shape == state.observation_tensor(1).shape
