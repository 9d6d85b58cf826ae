"""States keep their game alive: no Python object order or garbage collection can leave a dangling game."""

import gc

import boardlab


def test_state_outlives_its_game_object():
    state = boardlab.load_game("virus_war").new_initial_state()
    gc.collect()
    assert state.legal_actions() == [0]
    state.apply_action(0)
    assert state.game().name() == "virus_war"
    assert state.record() == "a1 +"  # in the middle of the turn: two sub-moves to go


def test_clone_and_loaded_record_outlive_the_game():
    game = boardlab.load_game("virus_war(strict=true)")
    loaded = game.load_record("a1-b2-c3")
    clone = game.new_initial_state().clone()
    del game
    gc.collect()
    assert loaded.current_player() == 1
    assert loaded.legal_actions() == [99]
    assert clone.legal_actions() == [0]
    assert boardlab.perft(loaded, 2) == 3


def test_many_short_lived_games_and_states():
    states = [boardlab.load_game("virus_war").new_initial_state() for _ in range(200)]
    gc.collect()
    for state in states:
        state.apply_action(0)
    assert all(state.history() == [0] for state in states)

