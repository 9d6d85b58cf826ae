"""Error messages that echo input, as Python sees them: whole after a NUL, never empty for bytes that are not UTF-8, capped for a huge token; and they name what Python has."""

import pytest

import boardlab

GAMES = ["virus_war", "morabaraba", "squares"]
HUGE = "z" * 5_000_000


@pytest.mark.parametrize("game", GAMES)
def test_action_and_record_errors_show_nul_invalid_utf8_and_cap_the_echo(game):
    state = boardlab.load_game(game).new_initial_state()
    cases = {
        b"a1\x00b": "'a1\\x00b'",
        b"\xff\xfe": "'\\xff\\xfe'",
        HUGE: "' (5000000 bytes)",
    }
    for text, shown in cases.items():
        with pytest.raises(boardlab.NotationError) as error:
            state.string_to_action(0, text)  # seat 0 acts at a simultaneous round (Squares) too
        assert shown in str(error.value) and len(str(error.value)) < 600, str(error.value)[:300]
        with pytest.raises(boardlab.NotationError) as error:
            state.game().load_record(text)
        assert shown in str(error.value) and len(str(error.value)) < 600, str(error.value)[:300]


def test_game_string_errors_show_nul_invalid_utf8_and_cap_the_echo():
    for text, shown in {b"virus\x00war": "'virus\\x00war'", b"virus_war(strict=\xff)": "'\\xff'",
                        HUGE: "(5000000 bytes)"}.items():
        with pytest.raises(boardlab.GameParameterError) as error:
            boardlab.load_game(text)
        assert shown in str(error.value) and len(str(error.value)) < 600, str(error.value)[:300]
    with pytest.raises(boardlab.GameParameterError, match=r"has no parameter 'x\\x00y'"):
        boardlab.load_game("virus_war", {"x\x00y": 1})


def test_quote_input_is_bound_for_python_messages():
    from boardlab._boardlab import quote_input

    assert quote_input(b"a\xff\x00") == "'a\\xff\\x00'"
    assert quote_input(b"x" * 100) == "'" + "x" * 80 + "\u2026' (100 bytes)"


def test_apply_actions_names_what_python_has():
    state = boardlab.load_game("virus_war").new_initial_state()
    with pytest.raises(boardlab.IllegalActionError) as error:
        state.apply_actions([0, 0])
    assert str(error.value).endswith("play one action at a time with apply_action")
    assert "apply()" not in str(error.value)
