"""Text that is not UTF-8 (a lone surrogate: Python's form of an undecodable byte in argv or a file name) is a ValueError naming the function and the argument, for every bound function; C++ messages holding stray bytes reach Python whole."""

import re

import pytest

import boardlab
from boardlab import _boardlab

nn = pytest.importorskip("boardlab._boardlab_nn")

GAME = boardlab.load_game("virus_war")
STRATEGO = boardlab.load_game("stratego(variant=barrage)")
BYTE = "\udcff"  # the byte \xff as Python decodes argv and file names (surrogateescape)


def state():
    return GAME.new_initial_state()


# Every bound parameter that takes text: a call passing `v` as that argument, and how the
# message names it.
CALLS = {
    ("load_game", "game"): (lambda v: boardlab.load_game(v), "load_game: game"),
    ("Game.load_record", "record"): (lambda v: GAME.load_record(v), "load_record: record"),
    ("Game.sample_record", "record"): (lambda v: GAME.sample_record(v, boardlab.PUBLIC_VIEWER), "sample_record: record"),
    ("State.string_to_action", "text"): (lambda v: state().string_to_action(v), "string_to_action: text"),
    ("check_text", "text"): (lambda v: _boardlab.check_text(v, "here"), "here"),
    ("check_text", "what"): (lambda v: _boardlab.check_text("x", v), "check_text: what"),
    ("run_arena", "players"): (lambda v: _boardlab.run_arena(GAME, ["random", v], games=1), "run_arena: players[1]"),
    ("run_arena", "against"): (lambda v: _boardlab.run_arena(GAME, ["random"], games=1, against=v), "run_arena: against"),
    ("make_bot", "spec"): (lambda v: _boardlab.make_bot(v, GAME), "make_bot: spec"),
    ("search_bench", "options"): (lambda v: _boardlab.search_bench(GAME, options=v, seconds=0), "search_bench: options"),
    ("search_bench", "evaluator"): (lambda v: _boardlab.search_bench(GAME, evaluator=v, seconds=0), "search_bench: evaluator"),
    ("split_player_specs", "text"): (lambda v: _boardlab.split_player_specs(v), "split_player_specs: text"),
    ("ladder_file", "game_name"): (lambda v: _boardlab.ladder_file(v), "ladder_file: game name"),
    ("read_ladders", "path"): (lambda v: _boardlab.read_ladders(v), "read_ladders: path"),
    ("store_ladder", "path"): (lambda v: _boardlab.store_ladder(v, {}), "store_ladder: path"),
    ("parse_player_spec", "text"): (lambda v: _boardlab.parse_player_spec(v), "parse_player_spec: text"),
    ("player_spec", "kind"): (lambda v: _boardlab.player_spec(v), "player_spec: kind"),
    ("player_spec", "argument"): (lambda v: _boardlab.player_spec("agent", v), "player_spec: argument"),
    ("player_spec", "options"): (lambda v: _boardlab.player_spec("uct", "8", [("a", "1"), ("b", v)]), "player_spec: options[1]"),
    ("load_gravon", "xml"): (lambda v: _boardlab.load_gravon(v), "load_gravon: xml"),
    ("load_gravon", "parameters"): (lambda v: _boardlab.load_gravon("<game/>", v), "load_gravon: parameters"),
    ("to_gravon", "players"): (lambda v: _boardlab.to_gravon(STRATEGO.new_initial_state(), ["Red", v]), "to_gravon: players[1]"),
    ("GameType.Dynamics.__init__", "name"): (lambda v: boardlab.GameType.Dynamics(v), "GameType.Dynamics: name"),
    ("GameType.Chance.__init__", "name"): (lambda v: boardlab.GameType.Chance(v), "GameType.Chance: name"),
    ("GameType.Information.__init__", "name"): (lambda v: boardlab.GameType.Information(v), "GameType.Information: name"),
    ("GameType.Utility.__init__", "name"): (lambda v: boardlab.GameType.Utility(v), "GameType.Utility: name"),
    ("nn.run_arena", "players"): (lambda v: nn.run_arena(GAME, ["random", v], games=1), "run_arena: players[1]"),
    ("nn.run_arena", "against"): (lambda v: nn.run_arena(GAME, ["random"], games=1, against=v), "run_arena: against"),
    ("nn.make_bot", "spec"): (lambda v: nn.make_bot(v, GAME), "make_bot: spec"),
    ("nn.train", "config"): (lambda v: nn.train(v), "train: config"),
    ("nn.train", "overrides"): (lambda v: nn.train("", ["run.max_steps=1", v]), "train: overrides[1]"),
    ("nn.train", "out"): (lambda v: nn.train("", [], out=v), "train: out"),
    ("nn.bench_network", "config"): (lambda v: nn.bench_network(v), "bench_network: config"),
    ("nn.bench_network", "overrides"): (lambda v: nn.bench_network("", [v]), "bench_network: overrides[0]"),
    ("nn.checkpoint_info", "path"): (lambda v: nn.checkpoint_info(v), "checkpoint_info: path"),
    ("nn.Agent.__init__", "checkpoint"): (lambda v: nn.Agent(v), "Agent: checkpoint"),
    ("nn.config_yaml", "config"): (lambda v: nn.config_yaml(v), "config_yaml: config"),
    ("nn.config_yaml", "overrides"): (lambda v: nn.config_yaml("", [v]), "config_yaml: overrides[0]"),
}


def text_parameters():
    """(function, parameter) for every text parameter of every function, method and constructor both modules
    bind, nested classes included, read from pybind11's signatures (`name: str`, `Optional[str]`,
    `List[str]`, `List[Tuple[str, str]]`)."""
    found = set()

    def scan(prefix, namespace):
        for name, value in vars(namespace).items():
            if isinstance(value, type) and value.__module__.startswith("boardlab"):
                scan(f"{prefix}{name}.", value)
            elif callable(value):
                for parameter in re.findall(r"(\w+): (?:Optional\[|List\[(?:Tuple\[)?)?str\b", value.__doc__ or ""):
                    found.add((prefix + name, parameter))

    scan("", _boardlab)
    scan("nn.", nn)
    return found


def test_every_text_parameter_is_in_the_table():
    # A new bound function taking text must be added to CALLS, and read its text as a TextArg
    # through text_arg() (python/module/arguments.h): a std::string parameter answers a lone
    # surrogate with pybind11's signature dump.
    assert text_parameters() == set(CALLS)


@pytest.mark.parametrize("function, parameter", list(CALLS), ids=str)
def test_text_that_is_not_utf8_is_a_value_error_naming_the_argument(function, parameter):
    call, what = CALLS[function, parameter]
    with pytest.raises(ValueError) as error:
        call("x" + BYTE)
    assert str(error.value) == f"{what}: not UTF-8 text (it holds the undecodable byte \\xff)"
    assert isinstance(error.value, boardlab.InputError)


def test_a_surrogate_written_into_the_text_is_named_as_one():
    with pytest.raises(ValueError, match=r"^string_to_action: text: not UTF-8 text \(it holds the lone surrogate \\ud800\)$"):
        state().string_to_action("a1\ud800")


def test_parameter_names_and_values_given_as_a_dict_or_keywords_are_checked_too():
    with pytest.raises(ValueError, match=r"^load_game: a parameter name: not UTF-8 text \(.*\\xff\)$"):
        boardlab.load_game("virus_war", {BYTE: True})
    with pytest.raises(ValueError, match=r"^load_game: a parameter name: not UTF-8 text \(.*\\xff\)$"):
        boardlab.load_game("virus_war", **{BYTE: True})
    with pytest.raises(ValueError, match=r"^load_game: parameter 'strict': not UTF-8 text \(.*\\xff\)$"):
        boardlab.load_game("virus_war", strict=BYTE)


def test_a_pickled_game_string_that_is_not_utf8_is_refused_by_name():
    game = boardlab.Game.__new__(boardlab.Game)
    with pytest.raises(ValueError, match=r"^cannot unpickle Game: the game string: not UTF-8 text \(.*\\xff\)$"):
        game.__setstate__((1, "virus_war" + BYTE))


def test_text_and_bytes_still_load():
    assert GAME.new_initial_state().string_to_action("a1") == GAME.new_initial_state().string_to_action(b"a1")
    assert _boardlab.check_text("caf\u00e9", "here") is None
    with pytest.raises(TypeError):
        state().string_to_action(1)


def test_a_message_quoting_a_stray_byte_reaches_python_whole(tmp_path):
    # yaml-cpp quotes the byte it stopped at; Python dropped such a message and raised an empty one.
    config = tmp_path / "bad.yaml"
    config.write_bytes(b'training:\n  batch_size: "\\\xff"\n')
    with pytest.raises(ValueError) as error:
        nn.config_yaml(str(config))
    assert str(error.value) == f"{config}:2: YAML syntax error: unknown escape character: \\xff"
