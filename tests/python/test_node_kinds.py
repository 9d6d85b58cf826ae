"""The State and Game API at every kind of node (a seat's turn, chance, a simultaneous round, the end), on every registered game and toy."""

import random

import numpy as np
import pytest

import boardlab
from helpers import ALL_GAMES, REGISTERED_GAMES, TOY_GAMES, load_any, random_step

SEEDS_PER_GAME = 3


def test_special_players():
    assert boardlab.CHANCE_PLAYER == -1
    assert boardlab.SIMULTANEOUS_PLAYER == -2
    assert boardlab.PUBLIC_VIEWER == -3
    assert boardlab.TERMINAL_PLAYER == -4


def test_game_sets_cover_every_game_and_preset():
    assert {"virus_war", "virus_war(strict=true)", "morabaraba", "morabaraba(move_cap=60)"} <= set(REGISTERED_GAMES)
    assert {"kuhn_poker", "leduc_poker", "biased_rps", "biased_rps(rounds=3)"} <= set(REGISTERED_GAMES)
    assert {"toy_race", "toy_race(players=4,tokens=9)"} <= set(TOY_GAMES)


def test_game_types_of_the_toy_and_the_benchmark_games(load_toy):
    race = load_toy("toy_race").type()
    matrix, kuhn, leduc = (boardlab.load_game(name).type() for name in ("biased_rps", "kuhn_poker", "leduc_poker"))
    GameType = boardlab.GameType
    assert race.dynamics == GameType.Dynamics.SEQUENTIAL and race.chance == GameType.Chance.DETERMINISTIC
    assert matrix.dynamics == GameType.Dynamics.SIMULTANEOUS and matrix.simultaneous
    assert kuhn.chance == GameType.Chance.SETUP and kuhn.has_chance
    assert kuhn.information == GameType.Information.IMPERFECT and not kuhn.perfect_information
    assert (kuhn.min_return, kuhn.max_return, kuhn.return_sum) == (-2, 2, 0)
    assert kuhn.utility == GameType.Utility.ZERO_SUM and kuhn.constant_sum
    assert str(kuhn) == "sequential, chance in the setup, imperfect information, zero-sum, returns in [-2, 2]"
    assert repr(matrix).startswith("<boardlab.GameType simultaneous, deterministic")
    assert leduc.chance == GameType.Chance.CHANCE_NODES and (leduc.min_return, leduc.max_return) == (-13, 13)


@pytest.mark.parametrize("name", ALL_GAMES)
def test_old_readers_agree_with_type(name):
    game = load_any(name)
    kind = game.type()
    assert game.is_simultaneous() is kind.simultaneous
    assert game.has_hidden_information() is (not kind.perfect_information)
    with pytest.raises(AttributeError):
        kind.min_return = 5  # read-only: the game's declaration


def check_node(state: boardlab.State) -> None:
    """Everything the node kind promises, through the Python API."""
    game = state.game()
    n = game.num_players()
    mover = state.current_player()
    assert state.is_terminal() == (mover == boardlab.TERMINAL_PLAYER)
    assert state.is_chance_node() == (mover == boardlab.CHANCE_PLAYER)
    assert state.is_simultaneous_node() == (mover == boardlab.SIMULTANEOUS_PLAYER)
    for p in range(n):
        mask = state.legal_actions_mask(p)
        assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions(),)
        assert np.flatnonzero(mask).tolist() == state.legal_actions(p)
        assert state.observation_tensor(p).shape == game.observation_shape()
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        assert actions == sorted(actions) == state.legal_actions() == state.legal_actions(boardlab.CHANCE_PLAYER)
        assert sum(p for _, p in outcomes) == pytest.approx(1)
        assert all(p > 0 for _, p in outcomes)
        assert all(state.legal_actions(p) == [] for p in range(n))
        for action in actions:
            text = state.action_to_string(action)
            assert state.string_to_action(boardlab.CHANCE_PLAYER, text) == action
    else:
        with pytest.raises(ValueError, match="not a chance node"):
            state.chance_outcomes()
        assert state.legal_actions(boardlab.CHANCE_PLAYER) == []
    if state.is_simultaneous_node():
        for call in (state.legal_actions, state.legal_actions_mask, lambda: state.action_to_string(0)):
            with pytest.raises(ValueError, match="simultaneous node; name the player"):
                call()
        for p in range(n):
            assert state.legal_actions(p), "every seat acts at a simultaneous node"
            for action in state.legal_actions(p):
                assert state.string_to_action(p, state.action_to_string(p, action)) == action
    elif mover >= 0:
        assert state.legal_actions() == state.legal_actions(mover) != []
        assert all(state.legal_actions(p) == [] for p in range(n) if p != mover)
        for action in state.legal_actions():
            assert state.string_to_action(mover, state.action_to_string(mover, action)) == action
    if state.is_terminal():
        assert state.legal_actions() == [] and not state.legal_actions_mask().any()
        assert all(state.legal_actions(p) == [] for p in range(n))
        kind = game.type()
        returns = state.returns()
        assert all(kind.min_return <= r <= kind.max_return for r in returns)
        if kind.constant_sum:
            assert sum(returns) == pytest.approx(kind.return_sum)
    else:
        assert not state.is_truncated()
    assert state.history() == [a for _, a in state.full_history()]


def check_views(state: boardlab.State, rng: random.Random) -> None:
    """Each player's view: its key, record and observation agree on every state it cannot tell apart."""
    game = state.game()
    perfect = game.type().perfect_information
    if perfect:
        assert state.public_record() == state.record()
    for p in range(game.num_players()):
        key = state.information_key(p)
        assert isinstance(key, int) and 0 <= key < 2**64
        if perfect:
            assert key == state.hash()
            assert state.record_for(p) == state.record()
        seed = rng.getrandbits(64)
        sample = state.sample_hidden(p, seed=seed)
        assert sample.sample_hidden(p, seed=seed).information_key(p) == key
        assert sample.information_key(p) == key
        assert sample.record_for(p) == state.record_for(p)
        assert np.array_equal(sample.observation_tensor(p), state.observation_tensor(p))
        assert sample.legal_actions(p) == state.legal_actions(p)
        assert sample.move_number() == state.move_number()
        assert state.sample_hidden(p, seed=seed).history() == sample.history()  # the seed reproduces the draw
        if perfect:
            assert sample.hash() == state.hash() and sample.history() == state.history()


@pytest.mark.parametrize("name", ALL_GAMES)
def test_random_games_through_every_kind_of_node(name):
    game = load_any(name)
    seeds = range(SEEDS_PER_GAME if name in REGISTERED_GAMES else 12)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while True:
            check_node(state)
            if steps % 7 == 0 or state.is_terminal():
                check_views(state, rng)
            if state.is_terminal():
                break
            number, before = state.move_number(), len(state.history())
            simultaneous = state.is_simultaneous_node()
            random_step(state, rng)
            # A simultaneous round is one step per seat and a turn of its own.
            assert len(state.history()) == before + (game.num_players() if simultaneous else 1)
            assert state.move_number() >= number
            if simultaneous:
                assert state.move_number() == number + 1
                assert [p for p, _ in state.full_history()[before:]] == list(range(game.num_players()))
            steps += 1
        assert len(state.history()) <= game.max_game_length()
        # The record, full and as each player saw it, reads back.
        loaded = game.load_record(state.record())
        assert loaded.full_history() == state.full_history() and loaded.returns() == state.returns()
        for viewer in [boardlab.PUBLIC_VIEWER, *range(game.num_players())]:
            seen = state.record_for(viewer)
            drawn = game.sample_record(seen, viewer, seed=seed)
            assert drawn.record_for(viewer) == seen
            assert drawn.is_terminal()


def test_toy_race_sub_moves_turns_and_rank_returns(load_toy):
    game = load_toy("toy_race")  # 3 players, 7 tokens
    state = game.new_initial_state()
    seen = []
    for text in "2 end 1 1 2 1".split():
        seen.append((state.current_player(), state.move_number()))
        state.apply_action(state.string_to_action(text))
    # The mover repeats within a turn; move_number() advances when the turn ends.
    assert seen == [(0, 0), (0, 0), (1, 1), (1, 1), (2, 2), (2, 2)]
    assert state.is_terminal() and state.move_number() == 3
    assert state.record() == "2-end 1-1 2-1"
    assert state.full_history() == [(0, 1), (0, 2), (1, 0), (1, 0), (2, 1), (2, 0)]
    # Held 2, 2, 3: P2 first, P0 and P1 share second and third place.
    assert state.returns() == [-0.5, -0.5, 1.0]
    assert repr(state).endswith("after 6 steps, terminal>")


def test_biased_rps_joint_actions():
    game = boardlab.load_game("biased_rps(rounds=2)")
    state = game.new_initial_state()
    assert state.current_player() == boardlab.SIMULTANEOUS_PLAYER
    assert repr(state).endswith("simultaneous move>")
    state.apply_actions([state.string_to_action(0, "R"), np.int64(1)])
    state.apply_actions(np.array([2, 1]))
    assert state.record() == "R/P S/P" and state.move_number() == 2
    assert state.full_history() == [(0, 0), (1, 1), (0, 2), (1, 1)]
    # Paper beats rock by 1/2, scissors beat paper by 1/2: the mean is 0 for P0.
    assert state.returns() == [0.0, 0.0]
    one = boardlab.load_game("biased_rps").new_initial_state()
    one.apply_actions([0, 2])  # rock beats scissors by 1
    assert one.returns() == [1.0, -1.0]
    assert game.load_record("R/P S/P").history() == state.history()


def test_joint_action_errors_name_what_and_why_and_change_nothing():
    state = boardlab.load_game("biased_rps(rounds=2)").new_initial_state()
    state.apply_actions([0, 0])
    before = (state.history(), state.hash(), state.move_number())
    cases = [
        (lambda: state.apply_actions([0]), "one action per seat \\(2\\), got 1"),
        (lambda: state.apply_actions([0, 1, 2]), "one action per seat \\(2\\), got 3"),
        (lambda: state.apply_actions([0, 3]), "P1 \\(player 1\\): action 3 is outside 0..2"),
        (lambda: state.apply_actions([2**40, 0]), "action 1099511627776 is outside 0..2"),
        (lambda: state.apply_action(0), "simultaneous node; use apply_actions"),
    ]
    for call, message in cases:
        with pytest.raises(boardlab.IllegalActionError, match=message):
            call()
        assert (state.history(), state.hash(), state.move_number()) == before
    with pytest.raises(TypeError):
        state.apply_actions([0, "R"])
    state.apply_actions([1, 1])
    with pytest.raises(boardlab.IllegalActionError, match="not a simultaneous node \\(the game is over\\)"):
        state.apply_actions([0, 0])
    kuhn = boardlab.load_game("kuhn_poker").new_initial_state()
    with pytest.raises(boardlab.IllegalActionError, match="kuhn_poker has no simultaneous moves; play one action"):
        kuhn.apply_actions([0, 0])


def deal(game, *cards):
    state = game.new_initial_state()
    for card in cards:
        state.apply_action(state.string_to_action(card))
    return state


def test_kuhn_chance_outcomes_and_hidden_cards():
    game = boardlab.load_game("kuhn_poker")
    state = game.new_initial_state()
    assert state.is_chance_node() and repr(state).endswith("chance node>")
    assert state.chance_outcomes() == [(0, pytest.approx(1 / 3)), (1, pytest.approx(1 / 3)), (2, pytest.approx(1 / 3))]
    # Chance deals player 0's card: player 0 sees it, player 1 and spectators do not.
    assert [state.action_seen_by(0, boardlab.CHANCE_PLAYER, a) for a in range(3)] == ["J", "Q", "K"]
    assert state.action_seen_by(1, boardlab.CHANCE_PLAYER, 2) == "?"
    assert state.action_seen_by(boardlab.PUBLIC_VIEWER, boardlab.CHANCE_PLAYER, 2) == "?"
    state.apply_action(1)  # Q to player 0
    assert state.chance_outcomes() == [(0, 0.5), (2, 0.5)]
    with pytest.raises(boardlab.IllegalActionError, match="not in the deck"):
        state.apply_action(1)
    state.apply_action(2)  # K to player 1
    assert state.current_player() == 0 and state.move_number() == 2
    assert state.record() == "Q K"
    assert state.record_for(0) == "Q ?" and state.record_for(1) == "? K" and state.public_record() == "? ?"
    assert state.action_to_string(1) == "b" and state.action_to_string(boardlab.CHANCE_PLAYER, 2) == "K"


def test_kuhn_views_hide_exactly_the_other_card():
    game = boardlab.load_game("kuhn_poker")
    qk, qj, jk = deal(game, "Q", "K"), deal(game, "Q", "J"), deal(game, "J", "K")
    # Player 0 holds Q in both qk and qj: it cannot tell them apart; player 1 can.
    assert qk.information_key(0) == qj.information_key(0)
    assert np.array_equal(qk.observation_tensor(0), qj.observation_tensor(0))
    assert qk.information_key(1) != qj.information_key(1)
    assert qk.information_key(1) == jk.information_key(1) != qk.information_key(0)
    # A sampled state redraws only the other player's card, never the viewer's own.
    others = {qk.sample_hidden(0, seed=seed).record() for seed in range(40)}
    assert others == {"Q J", "Q K"}
    assert {qk.sample_hidden(1, seed=seed).record() for seed in range(40)} == {"J K", "Q K"}


def test_kuhn_sample_record_fits_the_viewers_record():
    game = boardlab.load_game("kuhn_poker")
    state = deal(game, "K", "J")
    state.apply_action(1)  # player 0 bets
    seen = state.record_for(1)
    assert seen == "? J b"
    drawn = {game.sample_record(seen, 1, seed=seed).record() for seed in range(40)}
    assert drawn == {"K J b", "Q J b"}
    assert game.sample_record(seen, 1, seed=5).record() == game.sample_record(seen, 1, seed=5).record()
    with pytest.raises(boardlab.NotationError, match="no game fits the record"):
        game.sample_record("? J x", 1, seed=0)
    with pytest.raises(ValueError, match="viewer 2 is not a seat 0..1 of kuhn_poker, nor PUBLIC_VIEWER"):
        game.sample_record(seen, 2)
    with pytest.raises(ValueError, match="max_nodes must be 1..2147483647, got 4294967296"):
        game.sample_record(seen, 1, max_nodes=2**32)
    # A search cut short says so.
    with pytest.raises(boardlab.NotationError, match="no game fitting the record was found in 1 tries"):
        game.sample_record(seen, 1, seed=0, max_nodes=1)


def test_bad_players_and_actions_are_value_errors_naming_them():
    state = deal(boardlab.load_game("kuhn_poker"), "J", "Q")
    before = state.full_history()
    cases = [
        (lambda: state.legal_actions(2), "legal_actions: player 2 is not a seat 0..1 of kuhn_poker, nor CHANCE_PLAYER"),
        (lambda: state.legal_actions_mask(-2), "legal_actions_mask: player -2 is not a seat"),
        (lambda: state.information_key(boardlab.CHANCE_PLAYER), "information_key: player -1 is not a seat 0..1"),
        (lambda: state.sample_hidden(5, seed=1), "sample_hidden: player 5 is not a seat"),
        (lambda: state.sample_hidden(0, seed=-1), "sample_hidden: seed must be 0\\.\\.2\\*\\*64-1, got -1"),
        (lambda: state.sample_hidden(0, seed=2**64), "sample_hidden: seed must be 0..2\\*\\*64-1, got 18446744073709551616"),
        (lambda: state.record_for(boardlab.CHANCE_PLAYER), "record_for: viewer -1 is not a seat 0..1"),
        (lambda: state.action_seen_by(3, 0, 0), "action_seen_by: viewer 3 is not a seat"),
        (lambda: state.action_seen_by(0, boardlab.PUBLIC_VIEWER, 0), "action_seen_by: player -3 is not a seat"),
        (lambda: state.action_seen_by(0, 0, 7), "action_seen_by: action 7 is outside 0..2"),
        (lambda: state.action_to_string(9, 0), "action_to_string: player 9 is not a seat"),
        (lambda: state.string_to_action(2**63, "p"), f"player {2**63} is not a seat"),
        (lambda: state.observation_tensor(2), "observation_tensor: player 2 is not a seat"),
        (lambda: state.game().player_name(2), "player_name: player 2 is not a seat"),
        (lambda: state.string_to_action("x"), "'x' is not a Kuhn poker action"),
        (lambda: state.apply_action(2), "a player passes \\(0\\) or bets \\(1\\)"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
        assert state.full_history() == before
    with pytest.raises(ValueError, match="a chance node\\); name the viewer"):
        boardlab.load_game("kuhn_poker").new_initial_state().observation_tensor()


def test_toy_errors_raised_in_toy_code_are_boardlab_value_errors(load_toy):
    with pytest.raises(boardlab.GameParameterError, match="unknown toy game 'toy_chess'"):
        load_toy("toy_chess")
    with pytest.raises(boardlab.GameParameterError, match="players must be 2..4"):
        load_toy("toy_race(players=5)")
    with pytest.raises(boardlab.GameParameterError, match="no parameter 'size'"):
        load_toy("toy_race(size=3)")
    state = load_toy("toy_race").new_initial_state()
    state.apply_action(0)
    # Thrown by the toy's own apply(), through _boardlab's binding.
    with pytest.raises(boardlab.IllegalActionError, match="a second sub-move takes one token"):
        state.apply_action(1)
    assert issubclass(boardlab.GameParameterError, ValueError)


def test_toys_are_boardlab_games(load_toy):
    import gc

    game = load_toy("toy_race(players=4,tokens=9)")
    assert isinstance(game, boardlab.Game)
    assert str(game) == "toy_race(players=4,tokens=9)" and game.num_players() == 4
    assert game == load_toy("toy_race(tokens=9,players=4)")
    state = game.new_initial_state()
    del game
    gc.collect()  # the state keeps its toy game alive
    state.apply_action(1)
    assert state.game().name() == "toy_race"
    # Take one or two, then one more or end: 2 first sub-moves, 4 lines of two.
    assert boardlab.perft(load_toy("toy_race(players=2,tokens=3)").new_initial_state(), 2) == 4


def test_bots_act_from_a_players_view_at_every_kind_of_node():
    matrix = boardlab.load_game("biased_rps").new_initial_state()
    bot = boardlab.make_bot("random", matrix.game(), seed=3)
    with pytest.raises(ValueError, match="simultaneous round: name the player"):
        bot.act(matrix)
    assert {bot.act(matrix, 1) for _ in range(30)} == {0, 1, 2}
    with pytest.raises(ValueError, match="act: player 2 is not a seat"):
        bot.act(matrix, 2)
    kuhn = boardlab.load_game("kuhn_poker").new_initial_state()
    with pytest.raises(ValueError, match="a chance node"):
        bot.act(kuhn)
    kuhn = deal(kuhn.game(), "J", "Q")
    assert bot.act(kuhn) in (0, 1) and bot.act(kuhn, 0) in (0, 1)
    with pytest.raises(ValueError, match="does not act here"):
        bot.act(kuhn, 1)


def test_morabaraba_truncation_by_the_move_cap():
    game = boardlab.load_game("morabaraba(move_cap=10)")
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        random_step(state, rng)
    # 10 plies cannot decide a game of 12 cows each: the cap ended it, not a rule.
    assert state.is_truncated() and state.returns() == [0.0, 0.0]
    assert repr(state).endswith("terminal (truncated)>")
    decided = boardlab.load_game("virus_war").new_initial_state()
    rng = random.Random(1)
    while not decided.is_terminal():
        random_step(decided, rng)
    assert not decided.is_truncated()


def test_symmetries_from_python():
    game = boardlab.load_game("morabaraba")
    symmetries = game.symmetries()
    # The square's 8 (identity left out), each also with the outer and inner rings swapped.
    assert len(symmetries) == 15 and all(isinstance(s, boardlab.Symmetry) for s in symmetries)
    assert len({s.name for s in symmetries}) == 15
    state = game.load_record("a7 g1 e5 f4")
    legal = set(state.legal_actions())
    for index, symmetry in enumerate(symmetries):
        assert len(symmetry.action) == game.num_distinct_actions()
        assert sorted(symmetry.action) == list(range(game.num_distinct_actions()))  # a permutation
        assert game.symmetry_holds(state, index)
        image = game.apply_symmetry(state, index)
        assert image.move_number() == state.move_number()
        assert set(image.legal_actions()) == {symmetry.action[a] for a in legal}
    with pytest.raises(ValueError, match="index 15 is not one of morabaraba's 15 symmetries \\(0..14\\)"):
        game.apply_symmetry(state, 15)
    with pytest.raises(ValueError, match="belongs to virus_war"):
        game.symmetry_holds(boardlab.load_game("virus_war").new_initial_state(), 0)


def test_game_specs_list_presets():
    specs = {spec["name"]: spec for spec in boardlab.game_specs()}
    assert "strict=true" in specs["virus_war"]["presets"]
    assert "move_cap=60" in specs["morabaraba"]["presets"]
