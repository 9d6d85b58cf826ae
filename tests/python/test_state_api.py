"""State objects from Python: moves, masks, observations, notation, records, clones and bad input."""

import copy

import numpy as np
import pytest

import boardlab
from helpers import random_final_state, random_states


@pytest.fixture
def game():
    return boardlab.load_game("virus_war")


@pytest.fixture
def state(game):
    return game.new_initial_state()


def test_initial_state(state, game):
    assert state.current_player() == 0
    assert state.legal_actions() == [0]  # X must enter at a1
    assert not state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.history() == []
    assert state.record() == ""
    assert "X to move, sub-move 1 of 3" in str(state)
    assert state.game() == game
    assert repr(state) == "<boardlab.State virus_war(strict=false) after 0 steps, player 0 to move>"


def test_sub_moves_repeat_the_current_player(state):
    for cell in ("a1", "b2", "c3"):
        assert state.current_player() == 0
        state.apply_action(state.string_to_action(cell))
    assert state.current_player() == 1
    assert state.history() == [0, 11, 22]
    assert state.record() == "a1-b2-c3"


def test_illegal_action_raises_value_error_with_the_reason_and_leaves_the_state(state):
    before = (state.hash(), state.history(), str(state))
    with pytest.raises(ValueError, match=r"illegal action b5: X has not entered yet: its only placement is a1"):
        state.apply_action(state.string_to_action("b5"))
    with pytest.raises(boardlab.IllegalActionError, match="outside 0..100"):
        state.apply_action(-1)
    with pytest.raises(boardlab.IllegalActionError, match="outside 0..100"):
        state.apply_action(101)
    assert (state.hash(), state.history(), str(state)) == before
    state.apply_action(0)
    with pytest.raises(ValueError, match="a1 already holds a live X"):
        state.apply_action(0)


def test_pass_is_refused_in_the_middle_of_a_turn(state):
    state.apply_action(0)
    with pytest.raises(ValueError, match="only allowed instead of the first sub-move"):
        state.apply_action(state.string_to_action("pass"))


def test_numpy_integers_are_actions(state):
    state.apply_action(np.int64(0))
    state.apply_action(np.int32(1))
    state.apply_action(np.array(state.legal_actions())[0])
    assert len(state.history()) == 3


@pytest.mark.parametrize("bad", ["a1", 1.0, None, [0], True])
def test_wrong_action_types_raise_type_error(state, bad):
    with pytest.raises(TypeError):
        state.apply_action(bad)
    assert state.history() == []


@pytest.mark.parametrize("big", [2**31, 2**40, 2**70, -(2**70)])
def test_integers_past_the_c_range_are_value_errors_naming_them(state, big):
    with pytest.raises(boardlab.IllegalActionError, match=f"apply_action: action {big} is outside 0..100"):
        state.apply_action(big)
    for call in (lambda: state.legal_actions(big), lambda: state.observation_tensor(big),
                 lambda: state.information_key(big), lambda: state.record_for(big)):
        with pytest.raises(ValueError, match=f"{big} is not a seat 0..1"):
            call()
    with pytest.raises(ValueError, match=f"action {big} is outside"):
        state.action_to_string(big)
    assert state.history() == []


def test_legal_actions_mask_equals_legal_actions(game):
    for strict, seed in ((False, 1), (True, 2)):
        for s in random_states(boardlab.load_game("virus_war", strict=strict), seed):
            mask = s.legal_actions_mask()
            assert mask.dtype == np.int8
            assert mask.shape == (game.num_distinct_actions(),)
            assert set(np.unique(mask)) <= {0, 1}
            assert np.flatnonzero(mask).tolist() == s.legal_actions()


def test_legal_actions_for_a_player(state):
    assert state.legal_actions(0) == [0]
    assert state.legal_actions(1) == []  # not O's move
    with pytest.raises(ValueError, match="player 2 is not a seat"):
        state.legal_actions(2)


def test_observation_tensor_dtype_shape_and_viewpoint(state, game):
    for player in (0, 1):
        obs = state.observation_tensor(player)
        assert obs.dtype == np.float32
        assert obs.shape == game.observation_shape()
    assert np.array_equal(state.observation_tensor(), state.observation_tensor(0))
    for cell in ("a1", "b2", "c3"):
        state.apply_action(state.string_to_action(cell))
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    assert mine[0].sum() == 3 and mine[1].sum() == 0  # X's own live symbols
    assert theirs[0].sum() == 0 and theirs[1].sum() == 3
    assert theirs[1, 9, 9] == 1  # O sees the board turned: X's a1 lands in O's far corner
    assert theirs[6].all()  # O is to move, sub-move 1
    # Each side sees the other's targets: X's are the cells around its chain, O's its home corner.
    assert theirs[5].sum() == mine[4].sum() > 0 and mine[5].sum() == theirs[4].sum() == 1
    obs = state.observation_tensor(1)
    obs[:] = 7  # a fresh array each time: writing to it changes nothing
    assert state.observation_tensor(1).max() == 1


@pytest.mark.parametrize("bad", [-1, 2, 100])
def test_observation_tensor_rejects_bad_players(state, bad):
    with pytest.raises(ValueError, match="not a seat"):
        state.observation_tensor(bad)


def test_observation_at_terminal_needs_a_player(game):
    final = random_final_state(game, 3)
    with pytest.raises(ValueError, match="name the viewer"):
        final.observation_tensor()
    assert final.observation_tensor(1).shape == (10, 10, 10)


def test_terminal_state(game):
    final = random_final_state(game, 4)
    assert final.is_terminal()
    assert final.current_player() == boardlab.TERMINAL_PLAYER
    assert final.legal_actions() == []
    assert not final.legal_actions_mask().any()
    returns = final.returns()
    assert len(returns) == 2 and sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
    assert isinstance(returns[0], float)
    with pytest.raises(ValueError, match="the game is over"):
        final.apply_action(0)
    assert repr(final).endswith("terminal>")


def test_clone_is_independent(state):
    state.apply_action(0)
    clone = state.clone()
    for twin in (copy.copy(state), copy.deepcopy(state)):
        assert twin.hash() == state.hash() and twin.history() == state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == 2
    assert state.history() == [0]
    assert clone.hash() != state.hash()


def test_action_notation_round_trips(game):
    for s in random_states(game, 5):
        for action in s.legal_actions():
            assert s.string_to_action(s.action_to_string(action)) == action
    state = game.new_initial_state()
    assert state.action_to_string(100) == "pass"
    assert state.string_to_action("pass") == 100
    assert state.string_to_action("K10") == 99


def test_notation_errors(state):
    with pytest.raises(boardlab.NotationError, match="there is no j"):
        state.string_to_action("j5")
    with pytest.raises(ValueError, match="not a Virus War action"):
        state.string_to_action("a11")
    with pytest.raises(ValueError, match="outside 0..100"):
        state.action_to_string(101)
    with pytest.raises(ValueError, match="outside"):
        state.action_to_string(-5)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_record_round_trip(strict, seed):
    game = boardlab.load_game("virus_war", strict=strict)
    final = random_final_state(game, seed)
    loaded = game.load_record(final.record())
    assert loaded.history() == final.history()
    assert loaded.hash() == final.hash()
    assert str(loaded) == str(final)
    assert loaded.returns() == final.returns()


def test_load_record_errors_name_the_turn(game):
    with pytest.raises(boardlab.NotationError, match="record turn 2 'z9'"):
        game.load_record("a1-b2-c3 z9")
    with pytest.raises(ValueError, match="incomplete"):
        game.load_record("a1-b2")


def test_hash_is_path_independent(game):
    a, b = game.new_initial_state(), game.new_initial_state()
    for cell in ("a1", "b1", "b2"):
        a.apply_action(a.string_to_action(cell))
    for cell in ("a1", "b2", "b1"):
        b.apply_action(b.string_to_action(cell))
    assert a.hash() == b.hash()
    assert isinstance(a.hash(), int) and 0 <= a.hash() < 2**64


def test_apply_actions_refused_without_simultaneous_moves(state):
    with pytest.raises(ValueError, match="no simultaneous moves"):
        state.apply_actions([0, 1])
    with pytest.raises(TypeError):
        state.apply_actions("ab")
