"""Integer arguments past their range (2**31, 2**64, 10**30, negative counts) are ValueErrors naming the function, the argument and the range, for every bound function."""

import re

import pytest

import boardlab
from boardlab import _boardlab

GAME = boardlab.load_game("virus_war")
STRATEGO = boardlab.load_game("stratego(variant=barrage)")


def state():
    return GAME.new_initial_state()


# Every bound function with an integer argument, and a call that passes `value` as that argument.
CALLS = {
    ("Game.player_name", "player"): lambda v: GAME.player_name(v),
    ("Game.symmetry_holds", "index"): lambda v: GAME.symmetry_holds(state(), v),
    ("Game.apply_symmetry", "index"): lambda v: GAME.apply_symmetry(state(), v),
    ("Game.sample_record", "max_nodes"): lambda v: GAME.sample_record("", boardlab.PUBLIC_VIEWER, max_nodes=v),
    ("Game.sample_record", "seed"): lambda v: GAME.sample_record("", boardlab.PUBLIC_VIEWER, seed=v),
    ("Game.sample_record", "viewer"): lambda v: GAME.sample_record("", v),
    ("State.legal_actions", "player"): lambda v: state().legal_actions(v),
    ("State.legal_actions_mask", "player"): lambda v: state().legal_actions_mask(v),
    ("State.apply_action", "action"): lambda v: state().apply_action(v),
    ("State.apply_actions", "actions"): None,  # a simultaneous game's: test_apply_actions_checks_each_action
    ("State.observation_tensor", "player"): lambda v: state().observation_tensor(v),
    ("State.information_key", "player"): lambda v: state().information_key(v),
    ("State.is_out", "player"): lambda v: state().is_out(v),
    ("State.diagram", "viewer"): lambda v: state().diagram(v),
    ("State.sample_hidden", "player"): lambda v: state().sample_hidden(v),
    ("State.sample_hidden", "seed"): lambda v: state().sample_hidden(0, seed=v),
    ("State.action_to_string", "action"): lambda v: state().action_to_string(v),
    ("State.action_to_string", "player"): lambda v: state().action_to_string(v, 0),
    ("State.string_to_action", "player"): lambda v: state().string_to_action(v, "a1"),
    ("State.action_seen_by", "action"): lambda v: state().action_seen_by(0, 0, v),
    ("State.action_seen_by", "actor"): lambda v: state().action_seen_by(0, v, 0),
    ("State.action_seen_by", "viewer"): lambda v: state().action_seen_by(v, 0, 0),
    ("State.record_for", "player"): lambda v: state().record_for(v),
    ("perft", "depth"): lambda v: boardlab.perft(state(), v),
    ("pair_points", "seats"): lambda v: boardlab.pair_points(1, -1, v, 2),
    ("random_play", "min_games"): lambda v: boardlab.random_play(GAME, 0, min_games=v),
    ("random_play", "seed"): lambda v: boardlab.random_play(GAME, 0, seed=v),
    ("Bot.act", "player"): lambda v: _boardlab.make_bot("random", GAME).act(state(), v),
    ("run_arena", "games"): lambda v: _boardlab.run_arena(GAME, ["random", "random"], games=v),
    ("run_arena", "opening_turns"): lambda v: _boardlab.run_arena(GAME, ["random", "random"], games=1, opening_turns=v),
    ("run_arena", "seed"): lambda v: _boardlab.run_arena(GAME, ["random", "random"], games=1, seed=v),
    ("run_arena", "threads"): lambda v: _boardlab.run_arena(GAME, ["random", "random"], games=1, threads=v),
    ("make_bot", "seed"): lambda v: _boardlab.make_bot("random", GAME, v),
    ("search_bench", "concurrent"): lambda v: _boardlab.search_bench(GAME, concurrent=v, seconds=0),
    ("search_bench", "seed"): lambda v: _boardlab.search_bench(GAME, seconds=0, seed=v),
    ("exploitability", "max_nodes"): lambda v: boardlab.exploitability(GAME, "uniform", max_nodes=v),
    ("hidden_sample_bench", "seed"): lambda v: _boardlab.hidden_sample_bench(GAME, 0, seed=v),
    ("to_gravon", "winner"): lambda v: boardlab.to_gravon(STRATEGO.new_initial_state(), winner=v, result_type=3),
    ("to_gravon", "result_type"): lambda v: boardlab.to_gravon(STRATEGO.new_initial_state(), winner=0, result_type=v),
}


def integer_parameters():
    """(function, parameter) for every integer parameter of every function and method _boardlab binds,
    read from pybind11's signatures (`name: int`, `name: Optional[int]`, `name: List[int]`)."""
    found = set()
    for name, value in vars(_boardlab).items():
        members = vars(value).items() if isinstance(value, type) else [("", value)]
        for member, function in members:
            if not callable(function) or isinstance(function, type) or member.startswith("__"):
                continue
            doc = function.__doc__ or ""
            for parameter in re.findall(r"(\w+): (?:Optional\[|List\[)?int\b", doc):
                found.add((f"{name}.{member}" if member else name, parameter))
    return found


def test_every_integer_parameter_is_in_the_table():
    # A new bound function with an integer argument must be added to CALLS (and read its
    # integers as IntArg/SeedArg, python/module/arguments.h).
    assert integer_parameters() == set(CALLS)


# Out of range for every integer argument; and per kind, the first value past its range.
OUT_OF_EVERY_RANGE = [2**64, 10**30, -(2**64)]
PAST_THE_END = {"seed": [-1], "min_games": [2**63, -1]}
C_INT = [2**31, 2**63, -(2**31) - 1]
# How messages name an argument when its parameter has another name.
NAMED = {"actor": "player", "viewer": "viewer", "player": ("player", "viewer"), "actions": "action"}


def cases():
    for (function, parameter), call in CALLS.items():
        if call:
            for value in OUT_OF_EVERY_RANGE + PAST_THE_END.get(parameter, C_INT):
                yield function, parameter, value


@pytest.mark.parametrize("function, parameter, value", list(cases()), ids=str)
def test_an_integer_out_of_range_is_a_value_error_naming_the_argument(function, parameter, value):
    with pytest.raises(ValueError) as error:
        CALLS[function, parameter](value)
    message = str(error.value)
    assert not isinstance(error.value, TypeError)
    assert message.startswith(function.rpartition(".")[2] + ": "), message
    names = NAMED.get(parameter, parameter)
    assert any(name in message for name in ([names] if isinstance(names, str) else names)), message
    assert str(value) in message, message
    assert re.search(r"\d\.\.\d|2\*\*64", message), message  # the range it must be in


def test_a_negative_count_names_its_range():
    with pytest.raises(ValueError, match=r"^run_arena: games must be 1\.\.2147483647, got 0$"):
        _boardlab.run_arena(GAME, ["random", "random"], games=0)
    with pytest.raises(ValueError, match=r"^random_play: min_games must be 0\.\.9223372036854775807, got -1$"):
        boardlab.random_play(GAME, 0, min_games=-1)
    with pytest.raises(ValueError, match=r"^make_bot: seed must be 0\.\.2\*\*64-1, got -1$"):
        _boardlab.make_bot("random", GAME, -1)


def test_an_integer_too_long_to_print_is_named_by_its_size():
    with pytest.raises(ValueError, match=r"^perft: depth must be 0\.\.2147483647, got an integer of 33220 bits$"):
        boardlab.perft(state(), 10**10000)


def test_apply_actions_checks_each_action():
    matrix = boardlab.load_game("biased_rps").new_initial_state()
    with pytest.raises(ValueError, match=r"apply_actions: .*action 18446744073709551616 is outside 0\.\."):
        matrix.apply_actions([2**64, 0])


def test_wrong_types_stay_type_errors():
    with pytest.raises(TypeError):
        state().apply_action(1.5)
    with pytest.raises(TypeError):
        state().apply_action("a1")
