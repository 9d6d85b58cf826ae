"""The web app without a browser: game sessions (moves, refusals, simultaneous rounds, hidden information, undo, resign), records, runs, its WebSocket and `boardlab serve`."""

import asyncio
import json
import os
import re
import subprocess

import pytest

import boardlab
from boardlab import render
from boardlab.player_view import PlayerView
from boardlab.serve import board
from boardlab.serve.analysis import RecordAnalysis, read_record
from boardlab.serve.app import make_app
from boardlab.serve.game_message import game_message, page_seats
from boardlab.serve.run_watch import RunsFolder, run_summary
from boardlab.serve.session import GameSession, log_of

from conftest import LAUNCHER


def ws_path(app) -> str:
    """The WebSocket's address with the app's token, as the page the server prints connects."""
    return f"/ws?token={app['boardlab'].access.token}"


def start(game: str, players: str, seed: int = 1) -> GameSession:
    return GameSession.start(boardlab.load_game(game), players, seed)


def test_every_drawn_game_names_the_points_its_moves_are_clicked_on():
    # The games drawn whole (a hidden-information game is drawn from a seat's view: its own test).
    drawn = [name for name in boardlab.registered_games()
             if render.drawing(name) and boardlab.load_game(name).type().perfect_information]
    assert len(drawn) >= 5
    for name in drawn:
        state = boardlab.load_game(name).new_initial_state()
        shown = board.position(PlayerView(state, state.current_player() if not state.is_simultaneous_node() else 0))
        names = {p["name"] for p in shown["points"]}
        assert shown["svg"] == render.svg(state), name  # the notebooks' drawing, shared
        assert shown["moves"], name
        for move in shown["moves"]:
            assert set(move["points"]) <= names, (name, move)
        # Every move but a pass is chosen on the board.
        assert any(move["points"] for move in shown["moves"]), name


def test_move_clicks_follow_the_notation():
    # A unit letter before the cell is notation, not a file (games/morabaraba has its shots and moves).
    war = boardlab.load_game("war")
    names = {n for n, _, _ in render.points(war.new_initial_state())}
    assert render.action_points(war, "Pe5", names) == ["e5"]
    wide = boardlab.load_game("war(width=30,height=30)")
    wide_names = {n for n, _, _ in render.points(wide.new_initial_state())}
    assert render.action_points(wide, "Pab12", wide_names) == ["ab12"]


def test_a_human_move_is_played_and_an_illegal_one_refused_with_the_reason():
    session = start("virus_war", "human,human")
    with pytest.raises(ValueError, match="k10|X"):
        session.play(0, session.state.string_to_action("k10"))
    assert session.state.history() == []
    with pytest.raises(ValueError, match="not O's turn"):
        session.play(1, 0)
    session.play(0, session.state.string_to_action("a1"))
    assert session.state.history() == [0] and session.version == 1
    assert session.turn_so_far(0) == ["a1"]
    assert session.explain(1, "k10") == "it is not O's turn"
    assert "zz9" in session.explain(0, "zz9")  # an unknown point: the notation's reason


def test_undo_takes_back_the_humans_last_move_and_the_bots_reply():
    session = start("virus_war", "human,random")
    while session.next_bot() is None and not session.over():
        session.play(0, session.state.legal_actions()[0])
    # O (random) is to move: play its reply as the server would.
    version, state = session.bot_state()
    while (seat := session.next_bot()) is not None:
        version, state = session.bot_state()
        assert session.play_bot(seat, version, session.players[seat].act(state, seat))
    assert len(session.log) == 6
    session.undo([0])
    # Back to before X's third sub-move: X is to move again, O's turn gone.
    assert len(session.log) == 2 and session.to_act() == [0]
    session.undo([0])
    session.undo([0])
    assert session.log == []
    with pytest.raises(ValueError, match="nothing to undo"):
        session.undo([0])


def test_a_bot_move_for_an_older_position_is_dropped():
    session = start("virus_war", "random,human")
    version, state = session.bot_state()
    action = session.players[0].act(state, 0)
    session.version += 1  # the game changed while the bot thought (an undo)
    assert not session.play_bot(0, version, action)
    assert session.log == []


def test_resign_ends_the_game_and_undo_takes_it_back():
    session = start("morabaraba", "human,human")
    session.resign(0)
    assert session.over() and session.result() == "White resigned: Black wins"
    with pytest.raises(ValueError, match="over"):
        session.play(1, 0)
    session.undo([0, 1])
    assert not session.over()


def test_a_simultaneous_round_waits_for_every_seat():
    session = start("squares", "human,human")
    red = session.state.string_to_action(0, "2a1")
    blue = session.state.string_to_action(1, "2m7")
    session.play(0, red)
    assert session.pending == {0: red} and session.to_act() == [1] and session.log == []
    with pytest.raises(ValueError, match="already chosen"):
        session.play(0, red)
    session.undo([0])  # a choice not yet resolved is taken back first
    assert session.pending == {} and session.to_act() == [0, 1]
    session.play(0, red)
    session.play(1, blue)
    assert session.pending == {} and session.state.record() == "2a1/2m7"
    assert [m.kind for m in session.log] == ["joint"]


def test_a_simultaneous_round_against_a_bot_commits_both():
    session = start("squares", "human,random")
    assert session.next_bot() == 1
    version, state = session.bot_state()
    assert session.play_bot(1, version, session.players[1].act(state, 1))
    assert 1 in session.pending and session.to_act() == [0]
    session.play(0, session.state.string_to_action(0, "2a1"))
    assert len(session.log) == 1 and session.state.record().startswith("2a1/")


def snapshot_for(session, seats):
    return game_message(session, seats)


def secret_tokens(state, seat):
    """Tokens of the whole record that `seat`'s record does not show."""
    return set(state.record().split()) - set(state.record_for(seat).split())


def test_hidden_information_shows_only_the_seats_own_view():
    game = boardlab.load_game("kuhn_poker")
    session = GameSession.start(game, "human,random", 3)
    message = snapshot_for(session, [0])
    assert session.state.record_for(0) != session.state.record()  # the deal is hidden
    assert message["record"] == session.state.record_for(0)
    hidden = {t for t in re.split(r"[\s/]+", session.state.record()) if t} - \
        {t for t in re.split(r"[\s/]+", session.state.record_for(0)) if t}
    assert hidden
    text = json.dumps(message)
    assert str(session.state) not in text
    assert session.state.record() not in text
    texts = re.findall(r">([^<]*)</text>", message["svg"])
    assert not hidden & {t for line in texts for t in re.split(r"[\s/:,()]+", line)}
    assert message["moves"] and all(not m["points"] for m in message["moves"])  # chosen from the list
    # A refusal gives no reason that could tell what is hidden.
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in session.state.legal_actions(0))
    with pytest.raises(ValueError, match="not one of your legal moves"):
        session.play(0, illegal)
    # A spectator sees the public record only; at the end the whole record shows.
    public = snapshot_for(session, [])
    assert public["record"] == session.state.public_record() and public["moves"] == []
    while not session.over():
        if (seat := session.next_bot()) is not None:
            version, state = session.bot_state()
            session.play_bot(seat, version, session.players[seat].act(state, seat))
        else:
            session.play(0, session.state.legal_actions(0)[0])
    assert snapshot_for(session, [0])["record"] == session.state.record()


def test_a_hidden_information_game_draws_from_the_seats_view():
    # The page's picture is the seat's diagram (State.diagram(seat)), never the whole state's.
    session = start("stratego(variant=barrage)", "human,human", 4)
    while session.state.move_number() < 2:  # both setups, drawn at random
        session.play(session.state.current_player(), session.state.legal_actions()[-1])
    message = game_message(session, [0])
    assert message["svg"] == render.view_svg(PlayerView(session.state, 0)) != render.svg(session.state)
    blue_ranks = {p["label"] for p in session.state.diagram()["pieces"] if p["owner"] == 1}
    shown = {p["label"] for p in session.state.diagram(0)["pieces"] if p["owner"] == 1}
    assert blue_ranks != {""} and shown == {""}


def test_over_the_websocket_each_seat_of_a_hidden_game_gets_only_its_own_view():
    from aiohttp.test_utils import TestClient, TestServer

    app = make_app("/nonexistent", 0)

    async def play():
        async with TestClient(TestServer(app)) as client:
            first, second = await client.ws_connect(ws_path(app)), await client.ws_connect(ws_path(app))
            for ws in (first, second):
                await ws.receive()  # the greeting
            await first.send_str(json.dumps({"type": "new_game", "game": "kuhn_poker", "players": "human,human"}))
            started = json.loads((await first.receive(timeout=20)).data)
            # The other human opens the seat link, which carries its seat's key.
            [link] = started["links"]
            await second.send_str(json.dumps({"type": "join", "id": started["id"], "seats": [link["seat"]],
                                              "keys": [link["key"]]}))
            joined = json.loads((await second.receive(timeout=20)).data)
            await first.close()
            await second.close()
            return started, joined

    started, joined = asyncio.run(play())
    session = app["boardlab"].sessions[started["id"]]
    state = session.state
    assert started["seats"] == [0] and joined["seats"] == [1]
    assert started["record"] == state.record_for(0) and joined["record"] == state.record_for(1)
    for message, other in ((started, 1), (joined, 0)):
        text = json.dumps(message)
        assert state.record() not in text and str(state) not in text
        own = set(re.split(r"[\s/]+", message["record"]))
        others_secret = set(re.split(r"[\s/]+", state.record_for(other))) - own
        words = set(re.split(r"[\s/:,()<>\"=]+", text))
        assert not others_secret & words, (others_secret, message["record"])
    # Seat 0 acts: its page has the moves, seat 1's none.
    assert started["moves"] and joined["moves"] == []


def test_a_hidden_information_game_with_two_humans_gives_the_page_one_seat():
    game = boardlab.load_game("kuhn_poker")
    session = GameSession.start(game, "human,human", 3)
    assert page_seats(session) == [0]
    assert page_seats(start("virus_war", "human,human")) == [0, 1]


def test_bad_players_are_refused_with_what_was_wrong():
    game = boardlab.load_game("virus_war")
    with pytest.raises(ValueError, match="unknown player kind 'robot'"):
        GameSession.start(game, "human,robot")
    with pytest.raises(ValueError, match=r"the players name 1 seat\(s\), virus_war\(strict=false\) has 2"):
        GameSession.start(game, "human")
    with pytest.raises(ValueError, match="nope.pt"):
        GameSession.start(game, "human,agent:nope.pt")


def test_records_read_with_or_without_the_game_line():
    game, record = read_record("virus_war(strict=true)\na1-b2-c3\nk10-i9-h8\n", None)
    assert str(game) == "virus_war(strict=true)" and record == "a1-b2-c3 k10-i9-h8"
    game, record = read_record("a1-b2-c3", boardlab.load_game("virus_war"))
    analysis = RecordAnalysis(game, record)
    assert len(analysis.moves) == 3 and analysis.state_at(2).history() == [0, 11]
    assert analysis.listing()[0] == {"text": "X a1", "turn": 0}
    with pytest.raises(ValueError, match="choose the game"):
        read_record("a1-b2-c3", None)
    with pytest.raises(ValueError, match="turn 2"):
        RecordAnalysis(boardlab.load_game("virus_war"), "a1-b2-c3 k10-zz")


def test_simultaneous_records_step_by_round():
    state = boardlab.load_game("squares").load_record("4c3/4e4 2a1/pass")
    moves = log_of(state)
    assert [m.kind for m in moves] == ["joint", "joint"]
    analysis = RecordAnalysis(state.game(), state.record())
    assert analysis.listing()[0]["text"] == "4c3/4e4"
    assert analysis.state_at(2).record() == state.record()


def test_a_game_restored_after_a_restart_continues_from_its_record():
    session = start("morabaraba", "human,human")
    for move in ("a7", "b6", "d7"):
        session.play(session.to_act()[0], session.state.string_to_action(move))
    restored = GameSession.restore(session.game, "human,human", session.state.record(), session.id,
                                   {0: session.keys[0]})
    assert restored.state.record() == session.state.record() and restored.to_act() == [1]
    # The page's seat keeps its key; the seat it did not claim gets a new one.
    assert restored.id == session.id and restored.keys[0] == session.keys[0] and restored.keys[1] != session.keys[1]


def test_a_run_folder_is_listed_and_summarised(tiny_runs):
    folder = RunsFolder(tiny_runs)
    assert [r["path"] for r in folder.list()] == ["tiny"]
    summary = run_summary(folder, folder.open("tiny"))
    assert summary["game"] == "virus_war" and summary["metrics"]["step"][-1] == 4
    assert summary["games"] and summary["games"][0]["record"]
    assert summary["checkpoints"][0] == "tiny/checkpoints/latest.pt"
    assert summary["evaluations"]
    with pytest.raises(ValueError, match="outside the runs folder"):
        folder.open("../..")
    with pytest.raises(ValueError, match="not a boardlab run folder"):
        folder.open(".")


def test_a_trained_agent_plays_a_seat(tiny_runs):
    checkpoint = tiny_runs / "tiny" / "checkpoints" / "latest.pt"
    session = start("virus_war", f"agent:{checkpoint}(simulations=4),human")
    assert session.next_bot() == 0
    while (seat := session.next_bot()) is not None:
        version, state = session.bot_state()
        assert session.play_bot(seat, version, session.players[seat].act(state, seat))
    assert session.to_act() == [1] and session.state.record().startswith("a1")


def test_an_agent_analyses_a_position(tiny_runs):
    from boardlab.serve.analysis import analyse

    agent = boardlab.load_agent(tiny_runs / "tiny" / "checkpoints" / "latest.pt", simulations=16)
    state = boardlab.load_record("virus_war", "a1-b2-c3")
    state.apply_action(state.string_to_action("k10"))  # O's second sub-move is a choice (its first is forced)
    result = agent.analyse(state)
    assert result["player"] == 1 and result["visits"].sum() > 0 and len(result["value"]) == 2
    # The line starts with a most visited action (the search's own choice breaks ties its way).
    assert result["line"] and result["visits"][result["line"][0]] == result["visits"].max()
    (seat,) = analyse(agent, state)
    assert seat["label"] == "O" and seat["line"][0].startswith("O ")
    assert abs(sum(a["prior"] for a in seat["actions"]) - 1) < 0.01
    with pytest.raises(ValueError, match="line_length"):
        agent.analyse(state, line_length=-1)


def test_a_watched_run_is_sent_again_when_it_changes_and_its_newest_game_plays_out(tiny_runs, tmp_path):
    import shutil

    from aiohttp.test_utils import TestClient, TestServer

    shutil.copytree(tiny_runs / "tiny", tmp_path / "live")
    metrics = tmp_path / "live" / "metrics.csv"

    async def watch():
        app = make_app(str(tmp_path), 0)
        async with TestClient(TestServer(app)) as client:
            ws = await client.ws_connect(ws_path(app))
            assert [r["path"] for r in json.loads((await ws.receive()).data)["runs"]] == ["live"]
            await ws.send_str(json.dumps({"type": "watch_run", "path": "live"}))
            seen = []
            while len([m for m in seen if m["type"] == "run"]) < 2:
                message = json.loads((await ws.receive(timeout=20)).data)
                seen.append(message)
                if message["type"] == "replay" and message["position"] == 1:
                    # Training goes on: a new row of metrics.
                    header = metrics.read_text().splitlines()[0].split(",")
                    row = ["99" if key == "step" else "" for key in header]
                    with open(metrics, "a") as f:
                        f.write(",".join(row) + "\n")
            await ws.close()
            return seen

    seen = asyncio.run(watch())
    runs = [m for m in seen if m["type"] == "run"]
    assert runs[0]["metrics"]["step"][-1] == 4 and runs[1]["metrics"]["step"][-1] == 99
    replays = [m for m in seen if m["type"] == "replay"]
    assert [m["position"] for m in replays[:2]] == [0, 1] and "<svg" in replays[0]["svg"]


async def _converse(app, messages):
    """Sends `messages` over the app's WebSocket and returns every reply to each (after the greeting)."""
    from aiohttp.test_utils import TestClient, TestServer

    replies = []
    async with TestClient(TestServer(app)) as client:
        ws = await client.ws_connect(ws_path(app))
        hello = json.loads((await ws.receive()).data)
        assert hello["type"] == "hello" and {g["name"] for g in hello["games"]} >= {"virus_war", "squares"}
        for message in messages:
            await ws.send_str(json.dumps(message))
            replies.append(json.loads((await ws.receive(timeout=30)).data))
        page = await client.get("/")
        assert page.status == 200 and "app.js" in await page.text()
        script = await client.get("/static/app.js")
        assert script.status == 200
        await ws.close()
    return replies


def test_the_websocket_plays_and_refuses_with_reasons(tmp_path):
    app = make_app(str(tmp_path), 0)
    replies = asyncio.run(_converse(app, [
        {"type": "new_game", "game": "virus_war", "players": "human,human", "seed": 5},
        {"type": "play", "seat": 0, "action": 99},
        {"type": "play", "seat": 0, "action": 0},
        {"type": "refused_click", "seat": 1, "text": "a1"},
        {"type": "new_game", "game": "virus_war", "players": "human,wizard"},
        {"type": "new_game", "game": "chess", "players": "human,random"},
        {"type": "new_game", "game": "virus_war", "params": {"strict": "maybe"}, "players": "human,random"},
        {"type": "analyse", "game": "virus_war", "text": "a1-b2-c3 k10-i9-q4"},
        {"type": "agent", "checkpoint": "missing.pt"},
        {"type": "watch_run", "path": "../../etc"},
        {"type": "bogus"},
        "not even an object",
    ]))
    started, illegal, played, refused, kind, game, param, record, checkpoint, outside, bogus, junk = replies
    assert started["type"] == "game" and started["seats"] == [0, 1] and started["acting"] == 0
    assert [m["text"] for m in started["moves"]] == ["a1"] and started["moves"][0]["points"] == ["a1"]
    assert illegal["type"] == "error" and illegal["where"] == "play" and "k10" in illegal["message"]
    assert played["type"] == "game" and played["record"] == "a1 +" and played["turn"] == ["a1"]
    assert refused["type"] == "error" and "a1" in refused["message"]
    assert "unknown player kind 'wizard'" in kind["message"]
    assert "unknown game 'chess'" in game["message"]
    assert "strict" in param["message"]
    assert record["where"] == "analyse" and "turn 2" in record["message"]
    assert "missing.pt" in checkpoint["message"]
    assert "outside the runs folder" in outside["message"]
    assert bogus["type"] == "error" and "bogus" in bogus["message"]
    assert junk["type"] == "error"


def test_serve_says_where_it_listens_and_stops_on_sigterm(tmp_path):
    # The token is kept where XDG says state goes: here, not in the home folder.
    environment = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    server = subprocess.Popen([str(LAUNCHER), "serve", "--port", "0", "--runs", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    try:
        line = server.stdout.readline()
        match = re.match(r"boardlab serve: http://127\.0\.0\.1:\d+/#token=([\w-]+) \(bound to 127\.0\.0\.1: only "
                         r"this machine", line)
        assert match, line
        token_file = tmp_path / "state" / "boardlab" / "serve-token"
        assert token_file.read_text().strip() == match.group(1) and token_file.stat().st_mode & 0o777 == 0o600
    finally:
        server.terminate()
        assert server.wait(timeout=10) == 143
    result = subprocess.run([str(LAUNCHER), "serve", "--port", "70000"], capture_output=True, text=True)
    assert result.returncode == 2 and "65,535" in result.stderr


def test_stratego_is_clicked_on_from_the_seats_own_view():
    import random

    session = start("stratego(variant=barrage)", "human,human", 2)
    message = game_message(session, [0])
    assert len(message["points"]) == 100
    assert message["moves"] and all(not m["points"] for m in message["moves"])  # a setup piece: from the list
    rng = random.Random(2)
    while session.state.move_number() < 2:  # both setups
        seat = session.state.current_player()
        session.play(seat, rng.choice(session.state.legal_actions()))
    message = game_message(session, [0])
    assert message["svg"] == render.view_svg(PlayerView(session.state, 0))
    names = {p["name"] for p in message["points"]}
    assert message["moves"] and all(len(m["points"]) == 2 and set(m["points"]) <= names for m in message["moves"])
    # A spectator sees the public diagram: every piece as its back (none was revealed yet), nothing to play.
    public = game_message(session, [])
    assert public["moves"] == [] and public["svg"] == render.view_svg(PlayerView(session.state, boardlab.PUBLIC_VIEWER))
    assert 'fill="white"' not in public["svg"]
