"""`boardlab play` at every kind of node: chance drawn and printed, simultaneous rounds, hidden information, sub-moves, truncation."""

import io
import random
import re

import pytest

import boardlab
from boardlab.commands.play import play_game
from boardlab.match import audience_for, play_match
from boardlab.players import PlayerContext, make_player
from boardlab.players.human import parse_turn


def lines_reader(*lines):
    feed = iter(lines)

    def read_line(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read_line


def play(game, players, seed, *typed):
    out = io.StringIO()
    assert play_game(game, players, seed, read_line=lines_reader(*typed), out=out) == 0
    return out.getvalue()


def turn_lines(text):
    """The printed turns: `label: turn` lines between the header and the final position."""
    return re.findall(r"^([\w/]+): (\S+)$", text, re.M)


def test_simultaneous_rounds_between_random_bots():
    game = boardlab.load_game("biased_rps(rounds=3)")
    text = play(game, "random,random", 1)
    assert text.startswith("biased_rps(rounds=3): P0 random, P1 random; seed 1\n")
    turns = turn_lines(text)
    assert [label for label, _ in turns] == ["P0/P1"] * 3
    assert all(re.fullmatch(r"[RPS]/[RPS]", turn) for _, turn in turns)
    record = re.search(r"^Record: (.*)$", text, re.M).group(1)
    assert record == " ".join(turn for _, turn in turns)
    final = game.load_record(record)
    assert re.search(r"^Result: (P0 wins|P1 wins|draw) \(", text, re.M)
    assert f"P0 {final.returns()[0]:+g}" in text or final.returns()[0] == 0
    assert play(game, "random,random", 1) == text  # the seed fixes every choice
    assert len({play(game, "random,random", seed) for seed in range(6)}) > 1


def test_chance_is_drawn_and_printed():
    game = boardlab.load_game("kuhn_poker")
    text = play(game, "random,random", 2)
    turns = turn_lines(text)
    # Bots alone: the printed game is the full one, both deals shown.
    assert [label for label, _ in turns[:2]] == ["chance", "chance"]
    assert all(turn in "JQK" for _, turn in turns[:2]) and turns[0][1] != turns[1][1]
    assert [label for label, _ in turns[2:]] == ["P0", "P1", "P0"][: len(turns) - 2]
    record = re.search(r"^Record: (.*)$", text, re.M).group(1)
    assert record == " ".join(turn for _, turn in turns)
    assert game.load_record(record).is_terminal()
    assert play(game, "random,random", 2) == text
    # Over seeds, every card is dealt.
    dealt = {turn_lines(play(game, "random,random", seed))[0][1] for seed in range(20)}
    assert dealt == {"J", "Q", "K"}


def test_a_human_at_a_hidden_information_game_sees_only_its_own_view():
    game = boardlab.load_game("kuhn_poker")
    for seed in range(6):
        text = play(game, "human,random", seed, "?", "x", "b", "b")
        before_end = text.split("\ncards ")[0]  # the full state is printed once, after the game
        assert text.count("cards ") == 1
        own = re.search(r"^chance: ([JQK])$", before_end, re.M).group(1)
        # The other card is dealt as '?', in the printed game and in the human's record.
        assert re.search(r"^chance: \?$", before_end, re.M)
        assert f"The game as {game.player_name(0)} saw it: {own} ?" in before_end
        assert "Legal moves: p b" in before_end
        assert "'x' is not a Kuhn poker action" in before_end
        assert "Every player chooses at once" not in before_end
        assert re.search(r"^Result: ", text, re.M)
        record = re.search(r"^Record: (.*)$", text, re.M).group(1)
        assert record.split()[0] == own


def test_a_human_in_a_simultaneous_round():
    game = boardlab.load_game("biased_rps(rounds=2)")
    text = play(game, "random,human", 4, "?", "X", "R P", "P", "S")
    assert "Every player chooses at once" in text and "Legal moves: R P S" in text
    assert "'X' is not a biased_rps action" in text
    assert "type one move" in text
    turns = turn_lines(text)
    assert [turn.split("/")[1] for _, turn in turns] == ["P", "S"]
    abandoned = play(game, "human,random", 4, "quit")
    assert "Game abandoned (quit) after 0 move(s)." in abandoned


def test_a_human_types_a_whole_turn_of_sub_moves(load_toy):
    game = load_toy("toy_race(players=2,tokens=5)")
    text = play(game, "human,random", 1, "1-1-1", "2 end")
    assert "one move too many: the turn ends after 2 move(s)" in text
    assert re.search(r"^P0: 2-end$", text, re.M)
    state = game.new_initial_state()
    assert parse_turn(state, "1") == [0]  # one sub-move: the turn goes on
    assert parse_turn(state, "1 1") == [0, 0]
    with pytest.raises(ValueError, match="'end' is one move too many"):
        parse_turn(state, "1 1 end")


def test_the_match_loop_with_random_players_is_deterministic(load_toy):
    for name in ("biased_rps(rounds=3)", "kuhn_poker", "toy_race(players=4,tokens=9)"):
        game = load_toy(name) if name.startswith("toy_") else boardlab.load_game(name)
        labels = [game.player_name(p) for p in range(game.num_players())]
        outputs = []
        for _ in range(2):
            players = [
                make_player("random", PlayerContext(game, seat, labels[seat], 10 + seat, input, io.StringIO()))
                for seat in range(game.num_players())
            ]
            out = io.StringIO()
            state = game.new_initial_state()
            play_match(state, players, labels, out, random.Random(7))
            assert state.is_terminal()
            outputs.append((out.getvalue(), state.record()))
        assert outputs[0] == outputs[1]
        text, record = outputs[0]
        assert " ".join(turn for _, turn in turn_lines(text)) == record


def test_the_printed_game_follows_the_audience():
    kuhn = boardlab.load_game("kuhn_poker")
    assert audience_for(kuhn, []) is None
    assert audience_for(kuhn, [1]) == 1
    assert audience_for(kuhn, [0, 1]) == boardlab.PUBLIC_VIEWER
    assert audience_for(boardlab.load_game("virus_war"), [0]) is None
    players = [make_player("random", PlayerContext(kuhn, s, f"P{s}", s, input, io.StringIO())) for s in (0, 1)]
    out = io.StringIO()
    state = kuhn.new_initial_state()
    play_match(state, players, ["P0", "P1"], out, random.Random(3), audience=boardlab.PUBLIC_VIEWER)
    assert out.getvalue().startswith("chance: ?\nchance: ?\n")


def test_play_command_reports_a_truncated_game(run_cli):
    result = run_cli("play", "morabaraba(move_cap=10)", "--players", "random,random", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "Result: truncated by a cap that is not a rule, undecided (White 0, Black 0)" in result.stdout
    assert len(turn_lines(result.stdout)) == 10
