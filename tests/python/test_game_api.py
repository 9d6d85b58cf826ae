"""The registry and Game objects from Python: loading by name, string, keywords or dict; constants; errors."""

import pytest

import boardlab


def test_registered_games_lists_virus_war():
    assert "virus_war" in boardlab.registered_games()
    assert all(isinstance(name, str) for name in boardlab.registered_games())


def test_game_specs_describe_every_game_and_parameter():
    specs = {spec["name"]: spec for spec in boardlab.game_specs()}
    assert set(specs) == set(boardlab.registered_games())
    virus_war = specs["virus_war"]
    assert "Virus War" in virus_war["description"]
    (strict,) = virus_war["parameters"]
    assert strict == {"name": "strict", "default": False, "type": "bool", "doc": strict["doc"]}
    assert strict["doc"]


@pytest.mark.parametrize(
    "make, strict",
    [
        (lambda: boardlab.load_game("virus_war"), False),
        (lambda: boardlab.load_game("virus_war(strict=true)"), True),
        (lambda: boardlab.load_game(" virus_war( strict = true ) "), True),
        (lambda: boardlab.load_game("virus_war", strict=True), True),
        (lambda: boardlab.load_game("virus_war", strict=False), False),
        (lambda: boardlab.load_game("virus_war", {"strict": True}), True),
        (lambda: boardlab.load_game("virus_war", {"strict": "true"}), True),
        (lambda: boardlab.load_game("virus_war", strict="false"), False),
    ],
)
def test_load_game_forms(make, strict):
    game = make()
    assert game.parameters() == {"strict": strict}
    assert str(game) == f"virus_war(strict={'true' if strict else 'false'})"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: boardlab.load_game("chess"), "unknown game 'chess'"),
        (lambda: boardlab.load_game("virus_war(size=3)"), "no parameter 'size'"),
        (lambda: boardlab.load_game("virus_war", size=3), "no parameter 'size'"),
        (lambda: boardlab.load_game("virus_war(strict=maybe)"), "expects bool"),
        (lambda: boardlab.load_game("virus_war", strict=1), "expects bool"),
        (lambda: boardlab.load_game("virus_war", strict=[True]), "not list"),
        (lambda: boardlab.load_game("virus_war", strict=2**80), "64 bits"),
        (lambda: boardlab.load_game("virus_war(strict=true)", strict=True), "given twice"),
        (lambda: boardlab.load_game("virus_war", {"strict": True}, strict=True), "given twice"),
        (lambda: boardlab.load_game("virus_war(strict=true"), "closing"),
        (lambda: boardlab.load_game("virus_war(strict)"), "key=value"),
        (lambda: boardlab.load_game(""), "not a game name"),
    ],
)
def test_load_game_errors_are_value_errors_naming_the_problem(make, message):
    with pytest.raises(boardlab.GameParameterError, match=message.replace("(", r"\(")) as info:
        make()
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, boardlab.InputError)


def test_load_game_wrong_argument_types_raise_type_error():
    with pytest.raises(TypeError):
        boardlab.load_game(None)
    with pytest.raises(TypeError):
        boardlab.load_game("virus_war", [("strict", True)])


def test_game_constants():
    game = boardlab.load_game("virus_war")
    assert game.name() == "virus_war"
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 101
    assert game.observation_shape() == (10, 10, 10)
    assert isinstance(game.observation_shape(), tuple)
    assert game.observation_wraps_columns() is False
    assert game.max_game_length() == 401
    assert game.is_simultaneous() is False
    assert game.has_hidden_information() is False
    assert repr(game) == "<boardlab.Game virus_war(strict=false)>"


def test_games_compare_by_name_and_parameters():
    assert boardlab.load_game("virus_war") == boardlab.load_game("virus_war(strict=false)")
    assert boardlab.load_game("virus_war") != boardlab.load_game("virus_war(strict=true)")
    assert len({boardlab.load_game("virus_war"), boardlab.load_game("virus_war", strict=False)}) == 1


def test_game_string_loads_back():
    game = boardlab.load_game("virus_war", strict=True)
    assert boardlab.load_game(str(game)) == game


def test_the_rules_string_leaves_out_what_only_changes_the_observation():
    assert boardlab.load_game("virus_war(strict=true)").rules_string() == str(boardlab.load_game("virus_war(strict=true)"))
    shown = boardlab.load_game("stratego(variant=barrage,observed_moves=4)")
    plain = boardlab.load_game("stratego(variant=barrage)")
    assert shown != plain and shown.observation_shape() != plain.observation_shape()
    assert shown.rules_string() == plain.rules_string() and "observed_moves" not in plain.rules_string()


def test_special_values():
    assert boardlab.TERMINAL_PLAYER == -4
    assert boardlab.SIMULTANEOUS_PLAYER == -2
    assert boardlab.INVALID_ACTION == -1


def test_error_hierarchy():
    assert issubclass(boardlab.InputError, ValueError)
    for error in (boardlab.IllegalActionError, boardlab.GameParameterError, boardlab.NotationError):
        assert issubclass(error, boardlab.InputError)


def test_morabaraba_observation_is_three_rings_whose_columns_wrap():
    game = boardlab.load_game("morabaraba")
    assert game.observation_shape()[1:] == (3, 8)
    assert game.observation_wraps_columns() is True
    # Column 7 of a ring is next to column 0: a7 (cell 0) and a4 (cell 7) are neighbours on the board.
    state = game.new_initial_state()
    assert (state.action_to_string(0), state.action_to_string(7)) == ("a7", "a4")
