"""The `heuristic` player kind: each game's own rule-based player, from the command line and from Python, and the refusal for a game without one."""

import re

import pytest

import boardlab
from boardlab.players import PLAYER_KINDS

WITH_HEURISTIC = ["squares", "klopodavka", "stratego", "war"]


def test_evaluate_plays_the_squares_heuristic_against_random(run_cli):
    result = run_cli("evaluate", "--game", "squares", "--player", "heuristic", "--against", "random", "--games", "20",
                     "--quiet")
    assert result.returncode == 0, result.stderr
    row = re.search(r"^heuristic\s+vs random\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)%", result.stdout, re.M)
    assert row, result.stdout
    wins, draws, losses = (int(row.group(i)) for i in (1, 2, 3))
    assert wins + draws + losses == 20
    assert wins >= 16, result.stdout  # seeded, so always the same 20 games; the player wins ~95%


def test_a_game_without_a_heuristic_player_is_refused_with_the_games_that_have_one(run_cli):
    result = run_cli("evaluate", "--game", "virus_war", "--player", "heuristic", "--against", "random", "--games", "2")
    assert result.returncode != 0
    assert ("player 'heuristic': virus_war has no heuristic player (games with one: squares, klopodavka, stratego, "
            "war, kuhn_poker, leduc_poker)") in result.stderr
    with pytest.raises(ValueError, match="virus_war has no heuristic player"):
        boardlab.make_bot("heuristic", boardlab.load_game("virus_war"), 1)


def test_heuristic_takes_no_argument(run_cli):
    with pytest.raises(ValueError, match="heuristic takes no argument or options"):
        boardlab.make_bot("heuristic:3", boardlab.load_game("squares"), 1)


@pytest.mark.parametrize("name", WITH_HEURISTIC)
def test_make_bot_plays_legal_moves_in_every_game_that_has_one(name):
    game = boardlab.load_game(name)
    state = game.new_initial_state()
    bot = boardlab.make_bot("heuristic", game, 7)
    for _ in range(20):
        if state.is_terminal():
            break
        if state.is_simultaneous_node():
            actions = [bot.act(state, seat) for seat in range(game.num_players())]
            for seat, action in enumerate(actions):
                assert action in state.legal_actions(seat)
            state.apply_actions(actions)
        else:
            seat = state.current_player()
            action = bot.act(state, seat)
            assert action in state.legal_actions(seat)
            state.apply_action(action)


def test_the_kind_is_offered_to_players_and_pages(run_cli):
    assert "heuristic" in PLAYER_KINDS
    result = run_cli("play", "squares", "--players", "heuristic,random", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "Result:" in result.stdout
