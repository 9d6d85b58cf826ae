"""Pictures of states: SVG in notebooks (_repr_svg_), the terminal text, and the fallback for games without a drawer."""

import html
import xml.etree.ElementTree as ET

import boardlab
from boardlab import render


def test_virus_war_svg_draws_every_symbol():
    state = boardlab.load_game("virus_war").load_record("a1-b2-c3 k10-i9-h8")
    picture = state._repr_svg_()
    root = ET.fromstring(picture)  # well-formed XML
    assert root.tag.endswith("svg")
    # Three crosses (each one path) and three noughts (circles).
    assert picture.count("<path") == 3
    assert picture.count("<circle") == 3
    assert "X to move" in picture


def test_dead_symbols_are_marked():
    # Random play until both colours have lost symbols: killed O are filled, killed X circled.
    import random

    rng = random.Random(3)
    state = boardlab.load_game("virus_war").new_initial_state()
    while True:
        planes = state.observation_tensor(0)
        if planes[2].sum() >= 1 and planes[3].sum() >= 1:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    picture = render.svg(state)
    assert picture.count('fill="#2471a3"') == int(planes[3].sum())
    assert picture.count('r="14.4" fill="none" stroke="#222"') == int(planes[2].sum())


def test_text_fallback_is_a_valid_svg():
    picture = render.text_svg("line <1>\nline & 2")
    ET.fromstring(picture)
    assert "&lt;1&gt;" in picture and "&amp;" in picture


def test_load_record_helper():
    state = boardlab.load_record("virus_war", "a1-b2-c3")
    assert state.current_player() == 1
    assert boardlab.load_record(boardlab.load_game("virus_war"), state.record()).history() == state.history()


def test_games_without_a_drawing_draw_as_text_in_a_box(load_toy):
    for state in (load_toy("toy_race").new_initial_state(),
                  *(boardlab.load_game(name).new_initial_state() for name in ("biased_rps", "kuhn_poker", "leduc_poker"))):
        picture = state._repr_svg_()
        ET.fromstring(picture)
        assert html.escape(str(state).splitlines()[0]) in picture


def test_squares_svg_draws_every_square_and_green_cell():
    # Red 4c3 and Blue 4e4 collide into a 2x3 green zone; Red adds 2a1.
    state = boardlab.load_game("squares").load_record("4c3/4e4 2a1/pass")
    assert render.squares.squares_on_field(state) == [(0, 4, 2, 2), (0, 2, 0, 0), (1, 4, 4, 3)]
    picture = state._repr_svg_()
    ET.fromstring(picture)
    assert picture.count('class="square"') == 3
    assert picture.count('class="green"') == 6
    assert picture.count('fill="#c0392b"') == 2 and picture.count('fill="#2471a3"') == 1
    # The grid points are labelled a..v without j and 1..21.
    assert ">v</text>" in picture and ">21</text>" in picture and ">j</text>" not in picture
    assert "Red 20, Blue 16; round 3: Red and Blue choose" in picture


def test_squares_svg_of_a_whole_random_game():
    import random

    rng = random.Random(4)
    state = boardlab.load_game("squares").new_initial_state()
    while not state.is_terminal():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
    picture = render.svg(state)
    ET.fromstring(picture)
    squares = render.squares.squares_on_field(state)
    assert squares and picture.count('class="square"') == len(squares)
    assert picture.count('class="green"') == int(state.observation_tensor(0)[2].sum())


def test_klopodavka_svg_gives_each_player_a_colour_and_crowns_main_bugs():
    from boardlab.render import klopodavka

    state = boardlab.load_game("klopodavka(players=4,width=10,height=10)").new_initial_state()
    picture = render.svg(state)
    ET.fromstring(picture)
    # Four blocks: a lettered main bug and 8 bugs each, in the player's colour.
    for seat, letter in enumerate("ABCD"):
        assert f'font-weight="bold">{letter}</text>' in picture
        assert picture.count(f'fill="{klopodavka.COLOURS[seat]}" stroke="{klopodavka.COLOURS[seat]}"') == 8
    assert "A to move" in picture


def test_klopodavka_killed_cells_take_the_killers_colour_and_inert_bugs_are_hollow():
    import random

    from boardlab.render import klopodavka

    rng = random.Random(4)
    game = boardlab.load_game("klopodavka(players=3,width=11,height=11)")
    while True:  # a random game in which someone went out and left bugs behind
        state = game.new_initial_state()
        while not state.is_terminal() and "out in order" not in str(state):
            state.apply_action(rng.choice(state.legal_actions()))
        board = "\n".join(str(state).splitlines()[:11])
        out = [seat for seat in range(3) if state.observation_tensor(0)[5 * seat + 4, 0, 0] > 0]
        if out and any(chr(ord("a") + seat) in board for seat in out):
            break
    picture = render.svg(state)
    ET.fromstring(picture)
    symbols = [symbol for row in board.splitlines() for symbol in row.split()[1:]]  # past the rank labels
    for seat in range(3):
        killed = symbols.count(str(seat + 1))
        assert picture.count(f'fill="{klopodavka.COLOURS[seat]}" opacity="0.45"') == killed
        bugs = symbols.count(chr(ord("a") + seat))
        fill = "none" if seat in out else klopodavka.COLOURS[seat]
        assert picture.count(f'fill="{fill}" stroke="{klopodavka.COLOURS[seat]}"') == bugs


def test_war_svg_gives_each_player_a_colour_and_each_unit_its_letter():
    from boardlab.render import war

    game = boardlab.load_game("war(players=4,width=12,height=12)")
    state = game.new_initial_state()
    for text in ["Pc3", "Kd3", "Sg7", "end"]:  # A: infantry, knight, plane; then B to move
        state.apply_action(state.string_to_action(text))
    picture = render.svg(state)
    ET.fromstring(picture)
    # Four generals, lettered G, ringed in black and filled with their player's colour.
    assert picture.count('font-weight="bold">G</text>') == 4
    for seat in range(4):
        assert picture.count(f'fill="{war.COLOURS[seat]}" stroke="#111"') == 1
    # A's three commanded units, filled in A's colour with their letters.
    assert picture.count(f'fill="{war.COLOURS[0]}" stroke="{war.COLOURS[0]}"') == 3
    for letter in "PKS":
        assert f'font-weight="bold">{letter}</text>' in picture
    assert "B to move" in picture


def test_war_dead_cells_are_crossed_and_cut_off_or_inert_units_hollow():
    import random

    from boardlab.render import war

    rng = random.Random(3)
    game = boardlab.load_game("war(players=3,width=11,height=11)")
    while True:  # a random game with dead cells and units cut off from their general (or inert)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            board = [symbol for row in str(state).splitlines()[:11] for symbol in row.split()[1:]]
            if "xx" in board and any(s[0].islower() and s[1] != "G" for s in board if s != "xx"):
                break
        else:
            continue
        break
    picture = render.svg(state)
    ET.fromstring(picture)
    assert picture.count(f'fill="{war.DEAD}"') == board.count("xx")
    for seat in range(3):
        hollow = sum(1 for s in board if s[0] == chr(ord("a") + seat) and s[1] != "G")
        filled = sum(1 for s in board if s[0] == chr(ord("A") + seat) and s[1] != "G")
        assert picture.count(f'fill="none" stroke="{war.COLOURS[seat]}"') == hollow
        assert picture.count(f'fill="{war.COLOURS[seat]}" stroke="{war.COLOURS[seat]}"') == filled


def _barrage_after_setups(blue_order):
    """Barrage with Red's setup drawn from one seed and Blue's pieces on the same squares in the order
    `blue_order` gives their kinds (a function of the list of Blue's piece actions)."""
    import random

    rng = random.Random(5)
    state = boardlab.load_game("stratego(variant=barrage)").new_initial_state()
    while state.current_player() == 0:
        state.apply_action(rng.choice(state.legal_actions()))
    blue = []
    probe = state.clone()
    while probe.current_player() == 1 and probe.move_number() == state.move_number():
        action = rng.choice(probe.legal_actions())
        blue.append(action)
        probe.apply_action(action)
    pieces = blue_order([a for a in blue if a != 12])
    for action in blue:
        state.apply_action(12 if action == 12 else pieces.pop(0))
    return state


def test_stratego_whole_board_shows_every_rank_and_a_seats_view_only_what_it_may_know():
    from boardlab.player_view import PlayerView

    first = _barrage_after_setups(lambda kinds: kinds)
    second = _barrage_after_setups(lambda kinds: kinds[::-1])
    assert str(first) != str(second)  # Blue's ranks differ ...
    for seat_view in (render.stratego.view_svg, render.stratego.view_text):  # ... which Red cannot see
        assert seat_view(PlayerView(first, 0)) == seat_view(PlayerView(second, 0))
    assert render.svg(first) != render.svg(second)

    # The whole board labels all 16 pieces; Red's view labels its own 8 and draws Blue's 8 as backs.
    whole = ET.fromstring(render.svg(first))
    labels = [t.text for t in whole.iter() if t.tag.endswith("text") and t.get("fill") == "white"]
    assert sorted(labels) == sorted("FB1X9322" * 2)  # Flag, Bomb, Spy, Marshal, General, Miner, two Scouts
    text = render.stratego.view_text(PlayerView(first, 0))
    assert text.count("?b") == 8 and sum(text.count(k + "r") for k in render.stratego.KINDS) == 8
    assert text.count("~~") == 8 and text.splitlines()[-1] == "Red to move"
    # In the web app and the terminal a seat's picture comes from the view drawer.
    assert render.view_svg(PlayerView(first, 1)) == render.stratego.view_svg(PlayerView(first, 1))
