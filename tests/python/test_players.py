"""The command line's building blocks in-process: player specs, human input parsing, match results."""

import io
import random

import pytest

import boardlab
from boardlab.errors import CliError
from boardlab.game_args import parse_params
from boardlab.labels import player_labels
from boardlab.match import play_match, result_text
from boardlab.players import GameAbandoned, PlayerContext, make_player, parse_player_specs
from boardlab.players.human import parse_turn, split_moves


def context(game, read_line=input, out=None, seat=0):
    return PlayerContext(game, seat, player_labels(game)[seat], 1, read_line, out or io.StringIO())


def test_player_specs():
    assert parse_player_specs("human, random", 2) == ["human", "random"]
    with pytest.raises(CliError, match="names 3 player"):
        parse_player_specs("random,random,random", 2)
    with pytest.raises(CliError, match="unknown player kind 'nope'"):
        parse_player_specs("nope:100,random", 2)
    assert parse_player_specs("uct:100,agent:x.pt", 2) == ["uct:100", "agent:x.pt"]
    game = boardlab.load_game("virus_war")
    with pytest.raises(CliError, match="takes no argument"):
        make_player("random:3", context(game))
    with pytest.raises(CliError, match="needs an argument, as in uct:1000"):
        make_player("uct", context(game))
    with pytest.raises(ValueError, match="uct needs a number of simulations"):
        make_player("uct:lots", context(game))
    with pytest.raises(ValueError, match="does not exist"):
        make_player("agent:/nonexistent.pt", context(game))


def test_player_specs_split_at_top_level_commas_only():
    assert parse_player_specs("agent:'a,b.pt'(simulations=8), mcts(algorithm=puct,simulations=8)", 2) == [
        "agent:'a,b.pt'(simulations=8)",
        "mcts(algorithm=puct,simulations=8)",
    ]
    assert parse_player_specs("uct(simulations=20),random", 2) == ["uct(simulations=20)", "random"]
    with pytest.raises(CliError, match=r"write 'agent:ck\.pt\(simulations=8\),random'"):
        parse_player_specs("agent:ck.pt,simulations=8,random", 2)
    with pytest.raises(CliError, match=r"'\(' without a closing '\)'"):
        parse_player_specs("mcts(simulations=8,random", 2)
    game = boardlab.load_game("virus_war")
    with pytest.raises(CliError, match="takes no argument or options"):
        make_player("human(x=1)", context(game))
    with pytest.raises(ValueError, match=r"write 'mcts\(simulations=8\)'"):
        make_player("mcts:simulations=8", context(game))


def test_the_spec_parser_is_bound_for_python():
    from boardlab import _boardlab

    assert _boardlab.parse_player_spec("agent:'my,run.pt'(simulations=8)") == ("agent", "my,run.pt", {"simulations": "8"})
    assert _boardlab.player_spec("agent", "my,run.pt", [("simulations", "8")]) == "agent:'my,run.pt'(simulations=8)"
    assert _boardlab.split_player_specs("random,uct:5") == ["random", "uct:5"]
    with pytest.raises(ValueError, match=r"write 'mcts\(algorithm=puct,simulations=8\)'"):
        boardlab.make_bot("mcts:algorithm=puct,simulations=8", game=boardlab.load_game("virus_war"))
    with pytest.raises(ValueError, match=r"write 'mcts\(simulations=8\)'"):
        boardlab.evaluate(["random", "mcts:simulations=8"], game="virus_war", games=1)


def test_search_players_play_legal_moves_reproducibly():
    game = boardlab.load_game("virus_war")
    for spec in ("uct:20", "mcts(simulations=8,algorithm=gumbel)", "mcts"):
        games = []
        for _ in range(2):
            players = [make_player(spec, context(game, seat=s)) for s in range(2)]
            state = game.new_initial_state()
            while not state.is_terminal() and len(state.history()) < 30:
                mover = state.current_player()
                for action in players[mover].act(state, mover):
                    assert action in state.legal_actions()
                    state.apply_action(action)
            games.append(state.history())
        assert games[0] == games[1], spec


def test_params():
    assert parse_params(["strict=true", " a = b "]) == {"strict": "true", "a": "b"}
    for bad in (["strict"], ["=1"], ["a=1", "a=2"]):
        with pytest.raises(CliError):
            parse_params(bad)


def test_labels():
    assert player_labels(boardlab.load_game("virus_war")) == ["X", "O"]


def test_split_moves():
    assert split_moves("a1-b2-c3") == ["a1", "b2", "c3"]
    assert split_moves(" a1 b2  c3 ") == ["a1", "b2", "c3"]
    assert split_moves("a1 - b2") == ["a1", "b2"]
    assert split_moves("pass") == ["pass"]
    assert split_moves("--") == ["--"]


def test_parse_turn_validates_the_whole_turn_without_changing_the_state():
    state = boardlab.load_game("virus_war").new_initial_state()
    assert parse_turn(state, "a1-b2-c3") == [0, 11, 22]
    assert parse_turn(state, "a1") == [0]
    with pytest.raises(ValueError, match="one move too many"):
        parse_turn(state, "a1-b2-c3-d4")
    with pytest.raises(ValueError, match="illegal action e5"):
        parse_turn(state, "a1-e5")
    with pytest.raises(ValueError, match="no move"):
        parse_turn(state, " - ")
    assert state.history() == []


def test_result_text():
    assert result_text([1.0, -1.0], ["X", "O"]) == "X wins (X +1, O -1)"
    assert result_text([-1.0, 1.0], ["X", "O"]) == "O wins (X -1, O +1)"
    assert result_text([0.0, 0.0], ["X", "O"]) == "draw (X 0, O 0)"
    assert result_text([1.0, 1.0, -2.0], ["A", "B", "C"]) == "A, B win (A +1, B +1, C -2)"


def test_match_between_random_players_prints_whole_turns():
    game = boardlab.load_game("virus_war")
    players = [make_player("random", context(game, seat=seat)) for seat in (0, 1)]
    out = io.StringIO()
    state = game.new_initial_state()
    play_match(state, players, ["X", "O"], out, random.Random(0))
    assert state.is_terminal()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("X: a1-")
    assert lines[1].startswith("O: k10-")
    # The printed turns are the record.
    assert " ".join(line.split(": ")[1] for line in lines) == state.record()


def test_human_player_names_bytes_that_are_not_utf8_and_asks_again():
    game = boardlab.load_game("virus_war")
    # As read under the C locale (surrogate escapes), by a strict reader, and a lone surrogate.
    lines = iter(["a\udcff1", "\ud800", "a1-b2"])
    raised = [False]

    def read_line(prompt):
        if not raised[0]:
            raised[0] = True
            raise UnicodeDecodeError("utf-8", b"x\xfe", 1, 2, "invalid start byte")
        return next(lines)

    out = io.StringIO()
    human = make_player("human", context(game, read_line, out))
    assert human.act(game.new_initial_state(), 0) == [0, 11]
    text = out.getvalue()
    assert "the input is not UTF-8 text (bytes '\\xfe'); try again" in text
    assert "'a\\xff1' is not UTF-8 text (bytes \\xff); try again" in text
    assert "'\\xed\\xa0\\x80' is not UTF-8 text" in text


def test_human_player_retries_after_bad_input_and_stops_at_end_of_input():
    game = boardlab.load_game("virus_war")
    lines = iter(["", "zz", "b5", "?", "a1-b2"])

    def read_line(prompt):
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    human = make_player("human", context(game, read_line, out))
    state = game.new_initial_state()
    assert human.act(state, 0) == [0, 11]
    text = out.getvalue()
    assert "'zz' is not a Virus War action" in text
    assert "illegal action b5" in text
    assert "Legal moves: a1" in text
    with pytest.raises(GameAbandoned, match="end of input"):
        human.act(state, 0)
