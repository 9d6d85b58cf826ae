"""Pickling and copying: every value class round-trips at every protocol, live handles refuse with a TypeError, tampered payloads are ValueErrors."""

import copy
import pickle
import random

import pytest

import boardlab
from boardlab import _boardlab
from helpers import REGISTERED_GAMES, load_any, random_states

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def state_facts(state: boardlab.State):
    """Everything a restored state must share with the original."""
    mover = state.current_player()
    return (
        str(state.game()),
        state.full_history(),
        state.hash(),
        mover,
        state.legal_actions() if mover >= 0 or state.is_chance_node() else None,
        state.move_number(),
        state.is_terminal(),
        state.is_truncated(),
        state.returns(),
        state.record(),
        str(state),
    )


def interesting_states(game_string: str):
    """The start, a state in the middle of a turn (a sub-move played, the same seat to move again), a
    state at a turn's first step, and the end of a random game."""
    states = list(random_states(boardlab.load_game(game_string), seed=3))
    mid_turn = [
        s
        for previous, s in zip(states, states[1:])
        if not s.is_terminal() and s.move_number() == previous.move_number() and s.history()
    ]
    picked = {"initial": states[0], "middle": states[len(states) // 2], "terminal": states[-1]}
    if mid_turn:
        picked["mid_turn"] = mid_turn[0]
    return picked


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("game_string", REGISTERED_GAMES)
def test_states_round_trip_at_every_protocol(game_string, protocol):
    picked = interesting_states(game_string)
    assert picked["terminal"].is_terminal()
    for name, state in picked.items():
        restored = pickle.loads(pickle.dumps(state, protocol=protocol))
        assert type(restored) is boardlab.State
        assert state_facts(restored) == state_facts(state), name
        # The restored state plays on like the original.
        if state.is_simultaneous_node():  # Squares: every seat chooses
            joint = [state.legal_actions(p)[0] for p in range(state.game().num_players())]
            state.apply_actions(joint)
            restored.apply_actions(joint)
            assert state_facts(restored) == state_facts(state), name
        elif not state.is_terminal():
            action = state.legal_actions()[0]
            state.apply_action(action)
            restored.apply_action(action)
            assert state_facts(restored) == state_facts(state), name


def test_both_games_have_mid_turn_states():
    # Virus War's turns are runs of sub-moves and Morabaraba's mills add a capture: the round
    # trip above covers a state in the middle of a turn for each.
    for game in ("virus_war", "morabaraba"):
        assert "mid_turn" in interesting_states(game), game


def value_objects():
    """One object of every bound value class, with a name."""
    game = boardlab.load_game("morabaraba")
    virus_war = boardlab.load_game("virus_war(strict=true)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    objects = {
        "Game": virus_war,
        "State": state,
        "GameType": game.type(),
        "Symmetry": virus_war.symmetries()[0] if virus_war.symmetries() else game.symmetries()[0],
        "Dynamics": game.type().dynamics,
        "Chance": game.type().chance,
        "Information": game.type().information,
        "Utility": game.type().utility,
    }
    return objects


VALUE_CLASSES = sorted(value_objects())


def same(a, b):
    if isinstance(a, boardlab.State):
        return state_facts(a) == state_facts(b)
    if isinstance(a, boardlab.Symmetry):
        return (a.name, a.cell, a.action, a.player, a.plane) == (b.name, b.cell, b.action, b.player, b.plane) and a == b
    return a == b


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("name", VALUE_CLASSES)
def test_every_value_class_pickles_at_every_protocol(name, protocol):
    original = value_objects()[name]
    restored = pickle.loads(pickle.dumps(original, protocol=protocol))
    assert type(restored) is type(original)
    assert same(restored, original)


@pytest.mark.parametrize("name", VALUE_CLASSES)
def test_every_value_class_copies(name):
    original = value_objects()[name]
    for twin in (copy.copy(original), copy.deepcopy(original), copy.deepcopy([original, original])[0]):
        assert type(twin) is type(original)
        assert same(twin, original)


def test_the_module_binds_no_class_this_file_forgets():
    # A new bound class must be added here: to the value classes (and pickle), or to the live ones.
    bound = {
        name
        for name, value in vars(_boardlab).items()
        if isinstance(value, type) and not issubclass(value, BaseException)
    }
    nested = {name for cls in (boardlab.GameType,) for name, v in vars(cls).items() if isinstance(v, type)}
    assert bound | nested == set(VALUE_CLASSES) | {"Bot", "StopToken"}


def test_a_deep_copied_state_is_independent():
    state = boardlab.load_game("virus_war").new_initial_state()
    twin = copy.deepcopy(state)
    twin.apply_action(twin.legal_actions()[0])
    assert state.history() == [] and len(twin.history()) == 1


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_bot_refuses_pickling_with_a_type_error(protocol):
    bot = boardlab.make_bot("random", boardlab.load_game("virus_war"))
    with pytest.raises(TypeError, match="cannot pickle or copy boardlab.Bot: .*make_bot"):
        pickle.dumps(bot, protocol=protocol)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_stop_token_refuses_pickling_with_a_type_error(protocol):
    # A copy would not stop the search that polls the original.
    with pytest.raises(TypeError, match="cannot pickle or copy boardlab.StopToken"):
        pickle.dumps(boardlab.StopToken(1.0), protocol=protocol)


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy])
def test_a_bot_refuses_copying_with_a_type_error(how):
    bot = boardlab.make_bot("uct:5", boardlab.load_game("virus_war"))
    with pytest.raises(TypeError, match="cannot pickle or copy boardlab.Bot"):
        how(bot)


def test_a_toy_state_pickles_but_names_the_unknown_game_when_loaded(load_toy):
    # Toys live outside the registry that unpickling loads games from.
    state = load_toy("toy_race").new_initial_state()
    data = pickle.dumps(state, protocol=0)
    with pytest.raises(ValueError, match="cannot unpickle State: the game string: .*toy_race"):
        pickle.loads(data)


def restore(cls, payload):
    """What unpickling does with a payload: a fresh instance and __setstate__."""
    obj = cls.__new__(cls)
    obj.__setstate__(payload)
    return obj



@pytest.mark.parametrize(
    "cls, payload, message",
    [
        (boardlab.State, None, "the payload is of type NoneType, not a tuple"),
        (boardlab.State, [1, "virus_war", ()], "the payload is of type list, not a tuple"),
        (boardlab.State, (1, "virus_war"), "the payload has 2 items, not 3"),
        (boardlab.State, (2, "virus_war", ()), "the payload's version is 2, not 1"),
        (boardlab.State, ("1", "virus_war", ()), "version is '1', not 1"),
        (boardlab.State, (1, 7, ()), "the game string is of type int, not a str"),
        (boardlab.State, (1, "chess", ()), "the game string: .*chess"),
        (boardlab.State, (1, "virus_war", 5), "the history is of type int"),
        (boardlab.State, (1, "virus_war", ((0, 0, 0),)), r"step 1 is \(0, 0, 0\), not a \(player, action\) pair"),
        (boardlab.State, (1, "virus_war", ((0, 10**6),)), r"step 1: the action 1000000 is not an action 0\.\.100"),
        (boardlab.State, (1, "virus_war", ((0, 2**70),)), "the action 1180591620717411303424 is not an action"),
        (boardlab.State, (1, "virus_war", ((0, "a1"),)), "the action 'a1' is not an action"),
        (boardlab.State, (1, "virus_war", ((9, 0),)), "the player 9 is not a seat 0..1"),
        (boardlab.State, (1, "virus_war", ((True, 0),)), "the player True is not a seat"),
        (boardlab.State, (1, "virus_war", ((1, 0),)), r"step 1 names O \(seat 1\) but X \(seat 0\) acts there"),
        (boardlab.State, (1, "virus_war", ((0, 0), (0, 0))), "the history: step 2: illegal action"),
        (boardlab.Game, (1,), "the payload has 1 items, not 2"),
        (boardlab.Game, (1, "virus_war(nope=1)"), "the game string: .*nope"),
        (boardlab.Game, (1, b"virus_war"), "the game string is of type bytes"),
        (boardlab.GameType, (1, 0, 0, 0, 7, -1.0, 1.0, 0.0), r"utility is 7, not 0\.\.2"),
        (boardlab.GameType, (1, 0, 0, 0, 0, "-1", 1.0, 0.0), "min_return is of type str"),
        (boardlab.Symmetry, (1, "x", (0, "a"), (), (), ()), r"cell\[1\] is 'a'"),
        (boardlab.Symmetry, (1, "x", 3, (), (), ()), "cell is of type int"),
    ],
)
def test_a_tampered_payload_is_a_value_error_naming_it(cls, payload, message):
    with pytest.raises(ValueError, match=f"cannot unpickle {cls.__name__}: .*{message}"):
        restore(cls, payload)


def test_a_tampered_pickle_stream_is_a_value_error():
    state = boardlab.load_game("virus_war").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    data = pickle.dumps(state, protocol=0)
    assert b"virus_war" in data
    with pytest.raises(ValueError, match="cannot unpickle State: the game string: .*virus_waz"):
        pickle.loads(data.replace(b"virus_war", b"virus_waz"))


def test_a_tampered_enum_name_is_a_value_error():
    with pytest.raises(ValueError, match="cannot unpickle GameType.Dynamics: 'SIDEWAYS' is none of SEQUENTIAL, SIMULTANEOUS"):
        boardlab.GameType.Dynamics("SIDEWAYS")


def test_a_huge_tampered_item_is_not_echoed_whole():
    with pytest.raises(ValueError) as error:
        restore(boardlab.State, (1, "virus_war", (("x" * 1_000_000, 0),)))
    assert len(str(error.value)) < 300


def test_pickled_states_keep_their_random_continuations():
    # A restored state and its original take the same random game from here.
    state = random_states(boardlab.load_game("morabaraba"), seed=5)
    for _ in range(20):
        original = next(state)
    restored = pickle.loads(pickle.dumps(original, protocol=2))
    a, b = random.Random(9), random.Random(9)
    while not original.is_terminal():
        action = a.choice(original.legal_actions())
        assert b.choice(restored.legal_actions()) == action
        original.apply_action(action)
        restored.apply_action(action)
    assert restored.returns() == original.returns()


def test_load_any_games_pickle():
    for text in REGISTERED_GAMES:
        game = load_any(text)
        assert pickle.loads(pickle.dumps(game, protocol=0)) == game
