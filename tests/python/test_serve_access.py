"""The web app's threat model, tried as a hostile page would: other origins and hosts, the token, files outside --runs, seats of other pages, hidden pieces, huge bots, floods and malformed messages."""

import asyncio
import copy
import json
import os
import re
import time

import pytest

import boardlab
from boardlab.serve import access
from boardlab.serve.app import MAX_ERROR, REFUSED_CLOSE, make_app
from boardlab.serve.game_message import game_message
from boardlab.serve.messages import MAX_MESSAGE_BYTES, MessageError, parse_message
from boardlab.serve.rate_limit import BURST, MESSAGES_PER_SECOND
from boardlab.serve.session import GameSession, log_of

# Runs forever without a stop: a billion simulations, each averaging 4,096 random playouts.
ENDLESS_BOT = "uct(simulations=100000,rollouts=4096)"


def ws_path(app, token: "str | None" = None) -> str:
    return f"/ws?token={token if token is not None else app['boardlab'].access.token}"


async def receive(ws, timeout: float = 30) -> dict:
    # wait_for, not receive(timeout=): the server's heartbeat pings would restart that timeout forever.
    return json.loads((await asyncio.wait_for(ws.receive(), timeout)).data)


async def connect(client, app):
    ws = await client.ws_connect(ws_path(app))
    assert (await receive(ws))["type"] == "hello"
    return ws


def serve(app, work):
    """Runs `work(client)` against the app on a test server."""
    from aiohttp.test_utils import TestClient, TestServer

    async def run():
        async with TestClient(TestServer(app)) as client:
            return await work(client)

    return asyncio.run(run())


async def ask(ws, message) -> dict:
    await ws.send_str(message if isinstance(message, str) else json.dumps(message))
    return await receive(ws)


# 1. Who can connect.
def test_a_page_of_another_site_gets_nothing(tmp_path):
    from aiohttp import WSServerHandshakeError

    app = make_app(str(tmp_path), 0)

    async def work(client):
        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect(ws_path(app), headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        with pytest.raises(WSServerHandshakeError):
            await client.ws_connect(ws_path(app), headers={"Origin": "null"})
        own = f"http://{client.host}:{client.port}"
        ws = await client.ws_connect(ws_path(app), headers={"Origin": own})
        assert (await receive(ws))["type"] == "hello"
        await ws.close()

    serve(app, work)


def test_dns_rebinding_is_refused_by_the_host_check(tmp_path):
    app = make_app(str(tmp_path), 0, allowed_hosts=["boardlab.lan"])

    async def work(client):
        # evil.example resolving to 127.0.0.1: its page is same-origin with itself, but its Host names it.
        rebound = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
        for path in ("/", "/static/app.js", ws_path(app)):
            response = await client.get(path, headers=rebound)
            assert response.status == 403 and "evil.example" in await response.text()
        for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "boardlab.lan:8000", "10.1.2.3:80"):
            assert (await client.get("/", headers={"Host": host})).status == 200, host

    serve(app, work)


def test_a_connection_without_the_token_is_told_why_and_closed(tmp_path):
    app = make_app(str(tmp_path), 0, token="right-token-0123456789")

    async def work(client):
        for path in ("/ws", ws_path(app, "wrong-token-0123456789")):
            ws = await client.ws_connect(path)
            refused = await receive(ws)
            assert refused["type"] == "refused" and "token" in refused["message"]
            await ws.receive()
            assert ws.close_code == REFUSED_CLOSE
        ws = await connect(client, app)
        await ws.close()

    serve(app, work)


def test_the_token_file_is_made_private_and_read_again(tmp_path):
    path = tmp_path / "state" / "serve-token"
    token = access.load_token(path)
    assert len(token) >= 32 and os.stat(path).st_mode & 0o777 == 0o600
    assert access.load_token(path) == token
    os.chmod(path, 0o644)
    with pytest.raises(ValueError, match="other users"):
        access.load_token(path)
    os.chmod(path, 0o600)
    path.write_text("x\n")
    with pytest.raises(ValueError, match="holds no token"):
        access.load_token(path)


# 2. Files a page may name.
def test_a_page_names_checkpoints_inside_the_runs_folder_only_and_learns_nothing_of_others(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    os.mkfifo(runs / "fifo.pt")
    (runs / "zero.pt").symlink_to("/dev/zero")
    app = make_app(str(runs), 0)
    paths = ["/dev/zero", "/etc/shadow", "/etc/passwd", "/no/such/file.pt", "../outside.pt", "fifo.pt",
             "zero.pt", "x" * 900]

    async def work(client):
        ws = await connect(client, app)
        replies = [await ask(ws, {"type": "agent", "checkpoint": path}) for path in paths]
        players = await ask(ws, {"type": "new_game", "game": "virus_war", "players": "human,agent:/dev/zero"})
        await ws.close()
        return replies, players

    started = time.monotonic()
    replies, players = serve(app, work)
    assert time.monotonic() - started < 60  # no device read, no FIFO waited on
    for path, reply in zip(paths, replies):
        assert reply["type"] == "error" and len(reply["message"]) <= MAX_ERROR, path[:40]
        # The one refusal whatever the file: only the name the page sent differs.
        assert reply["message"].startswith("no checkpoint ") and "in the runs folder" in reply["message"], path[:40]
    assert players["type"] == "error" and players["message"].startswith("no checkpoint '/dev/zero'")


# 3. What a seat sees.
def test_no_message_of_a_hidden_game_carries_what_decides_the_other_seats_pieces(tmp_path):
    app = make_app(str(tmp_path), 0)
    game = "stratego"

    async def work(client):
        ws = await connect(client, app)
        seeded = await ask(ws, {"type": "new_game", "game": game, "params": {"variant": "barrage"},
                                "players": "human,random", "seed": 7})
        started = await ask(ws, {"type": "new_game", "game": game, "params": {"variant": "barrage"},
                                 "players": "human,random"})
        seen = [started]
        session = app["boardlab"].sessions[started["id"]]
        # Both setups (a piece or nothing on each of the 40 squares of a side), then moves.
        while not session.over() and session.state.move_number() < 6 and len(seen) < 400:
            latest = seen[-1]
            if latest.get("acting") is None or not latest["moves"]:
                seen.append(await receive(ws))
                continue
            seen.append(await ask(ws, {"type": "play", "seat": 0, "action": latest["moves"][0]["action"]}))
        await ws.close()
        return seeded, seen, session

    seeded, seen, session = serve(app, work)
    assert seeded["type"] == "error" and "seed" in seeded["message"]
    state = session.state
    assert state.move_number() >= 2, "both setups are played"
    own = set(re.split(r"[\s/]+", state.record_for(0)))
    secret = set(re.split(r"[\s/]+", state.record_for(1))) - own
    for message in seen:
        assert message["type"] == "game", message
        assert "seed" not in message and str(session.seed) not in json.dumps(message)
        words = set(re.split(r"[\s/:,()<>\"=]+", json.dumps(message)))
        assert not secret & words, secret & words


def test_what_a_seat_is_sent_does_not_change_with_the_pieces_it_cannot_see():
    session = GameSession.start(boardlab.load_game("stratego(variant=barrage)"), "human,random", 3)
    while session.state.move_number() < 4:
        seat = session.state.current_player()
        if session.players[seat] is None:
            session.play(seat, session.state.legal_actions()[0])
        else:
            version, state = session.bot_state()
            session.play_bot(seat, version, session.players[seat].act(state, seat))
    shown = game_message(session, [0])
    dealt = set()
    for seed in range(5):
        twin = copy.copy(session)
        twin.state = session.state.sample_hidden(0, seed)
        twin.log = log_of(twin.state)
        dealt.add(twin.state.record())
        assert game_message(twin, [0]) == shown
    assert len(dealt - {session.state.record()}) >= 4  # Blue's ranks were dealt anew


# 4. Bots a page starts.
def test_a_page_cannot_start_a_bot_beyond_its_limits(tmp_path):
    app = make_app(str(tmp_path), 0)
    specs = ["uct:1000000000", "mcts(simulations=1000000000)", "uct(simulations=100001)",
             "mcts(cache_positions=16777216)"]

    async def work(client):
        ws = await connect(client, app)
        replies = [await ask(ws, {"type": "new_game", "game": "virus_war", "players": f"human,{spec}"})
                   for spec in specs]
        await ws.close()
        return replies

    for spec, reply in zip(specs, serve(app, work)):
        assert reply["type"] == "error" and "a page's bots take" in reply["message"], (spec, reply)


def test_a_bot_stops_thinking_when_its_page_leaves_undoes_or_starts_another_game(tmp_path):
    app = make_app(str(tmp_path), 0, move_seconds=3600)
    state = app["boardlab"]

    async def idle(timeout: float = 30) -> bool:
        deadline = time.monotonic() + timeout
        while state.thinking or state.driving:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def work(client):
        ws = await connect(client, app)
        for _ in range(6):  # each new game gives up the last one's bot
            started = await ask(ws, {"type": "new_game", "game": "virus_war", "players": f"{ENDLESS_BOT},human"})
            assert started["type"] == "game", started
        await asyncio.sleep(0.5)
        assert len(state.thinking) == 1
        # Another page's bots still move.
        other = await connect(client, app)
        started = await ask(other, {"type": "new_game", "game": "virus_war", "players": "random,human"})
        while (reply := await receive(other))["acting"] is None:
            pass
        assert reply["record"], reply
        await other.close()
        await ws.close()  # the page leaves: its bot stops
        return await idle()

    assert serve(app, work)


def test_a_bot_move_is_capped_in_time():
    game = boardlab.load_game("virus_war")
    bot = boardlab.make_bot(ENDLESS_BOT, game, 1)
    state = game.new_initial_state()
    action = bot.act(state, stop=boardlab.StopToken(0.2))
    assert action in state.legal_actions()
    token = boardlab.StopToken()
    token.request()
    assert token.requested and bot.act(state, stop=token) in state.legal_actions()
    with pytest.raises(ValueError, match="seconds"):
        boardlab.StopToken(float("nan"))


# 5. Seats.
def test_a_seat_is_taken_only_with_its_key():
    app = make_app("/nonexistent", 0)

    async def work(client):
        owner, other = await connect(client, app), await connect(client, app)
        started = await ask(owner, {"type": "new_game", "game": "kuhn_poker", "players": "human,human"})
        [link] = started["links"]
        game_id = started["id"]
        replies = [await ask(other, message) for message in (
            {"type": "join", "id": game_id, "seats": [1]},
            {"type": "join", "id": game_id, "seats": [1], "keys": ["guess"]},
            {"type": "join", "id": game_id, "seats": [0], "keys": [link["key"]]},
            {"type": "join", "id": game_id, "seats": [5], "keys": [link["key"]]},
            {"type": "join", "id": game_id},
            {"type": "join", "id": game_id, "seats": [1], "keys": [link["key"]]},
        )]
        await owner.close()
        await other.close()
        return started, replies

    started, (no_key, guessed, wrong_seat, no_seat, watching, joined) = serve(app, work)
    assert started["seats"] == [0] and len(started["keys"]) == 1 and "seed" not in started
    assert no_key["type"] == "error" and "key" in no_key["message"]
    assert guessed["type"] == "error" and "wrong" in guessed["message"]
    assert wrong_seat["type"] == "error" and "wrong" in wrong_seat["message"]
    assert no_seat["type"] == "error" and "no human seat" in no_seat["message"]
    # Without seats a page watches: the public view, no moves, no keys, no links.
    assert watching["type"] == "game" and watching["seats"] == [] and watching["viewer"] == boardlab.PUBLIC_VIEWER
    assert watching["keys"] == [] and watching["links"] == [] and watching["moves"] == []
    assert joined["type"] == "game" and joined["seats"] == [1] and joined["links"] == []


# 6. Floods.
def test_a_flood_from_one_page_is_dropped_and_others_are_served(tmp_path):
    app = make_app(str(tmp_path), 0)

    async def work(client):
        flooder = await connect(client, app)
        started = time.monotonic()
        for _ in range(5000):
            await flooder.send_str(json.dumps({"type": "runs"}))
        other = await client.ws_connect(ws_path(app))
        hello = await receive(other, timeout=10)
        replies = await _until_marker(flooder)
        await other.close()
        await flooder.close()
        return hello, replies, time.monotonic() - started

    hello, replies, elapsed = serve(app, work)
    assert hello["type"] == "hello"
    answered = [r for r in replies if r["type"] == "runs"]
    told = [r for r in replies if r["type"] == "error"]
    assert len(answered) <= BURST + MESSAGES_PER_SECOND * elapsed + 1 and len(answered) < 5000
    assert told and "too many messages" in told[0]["message"]


async def _until_marker(ws) -> list[dict]:
    """Every reply up to the answer to a marker message (everything sent before it was handled); the
    marker is sent again while the rate limit drops it."""
    replies = []
    for _ in range(50):
        await ws.send_str(json.dumps({"type": "bogus"}))
        try:
            while True:
                reply = await receive(ws, timeout=1)
                if reply.get("message", "").startswith("unknown message"):
                    return replies
                replies.append(reply)
        except asyncio.TimeoutError:
            continue
    raise AssertionError("the marker was never answered")


# 7. Malformed messages: one line each, and the connection goes on.
MALFORMED = [
    ('{"type":"new_game","game":"virus_war","players":"human,human","seed":1e400}', "seed"),
    ('{"type":"new_game","game":"virus_war","players":"human,human","seed":-1}', "seed"),
    ('{"type":"new_game","game":"virus_war","players":"human,human","seed":NaN}', "NaN"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"type":"watch_run","path":"' + "p" * 100_000 + '"}', "at most"),
    ('{"type":"join","id":"000000000000","seats":["a"]}', "seats[0] must be a whole number"),
    ('{"type":"join","id":"000000000000","seats":[999]}', "seats[0] must be from 0"),
    ('{"type":"join","id":"../../etc","seats":[]}', "game id"),
    ('{"type":"play","seat":true,"action":0}', "seat must be a whole number"),
    ('{"type":"play","seat":0}', "action is missing"),
    ('{"type":"runs","extra":1}', "unknown field"),
    ('{"type":"step","position":"1; drop"}', "position must be a whole number"),
    ('{"type":"analyse","text":{"a":1}}', "text must be text"),
    ('{"type":"new_game","game":"virus_war","params":{"strict":["x"]},"players":"human,human"}', "must be text"),
    ("\"not an object\"", "JSON object"),
    ("{bad json", "not JSON"),
    ('{"type":"' + "t" * 5000 + '"}', "unknown message"),
]


@pytest.mark.parametrize("data,reason", MALFORMED, ids=[reason for _, reason in MALFORMED])
def test_a_malformed_message_gets_one_line_naming_what_and_why(data, reason):
    with pytest.raises(MessageError, match=re.escape(reason)) as refused:
        parse_message(data)
    assert "\n" not in str(refused.value) and len(str(refused.value)) <= MAX_ERROR


def test_over_the_websocket_malformed_messages_leave_the_connection_working(tmp_path):
    app = make_app(str(tmp_path), 0)

    async def work(client):
        ws = await connect(client, app)
        replies = [await ask(ws, data) for data, _ in MALFORMED[:6]]
        await ws.send_bytes(b"\xff\x00")
        binary = await receive(ws)
        after = await ask(ws, {"type": "runs"})
        await ws.send_str(" " * (MAX_MESSAGE_BYTES + 1))
        await ws.receive()
        closed = ws.close_code
        return replies, binary, after, closed

    replies, binary, after, closed = serve(app, work)
    for (data, reason), reply in zip(MALFORMED, replies):
        assert reply["type"] == "error" and reason in reply["message"] and len(reply["message"]) <= MAX_ERROR
    assert "binary" in binary["message"] and after["type"] == "runs"
    assert closed == 1009  # too big: refused by the WebSocket itself


# The message fuzzer's saved inputs, replayed as ctest replays the libFuzzer targets'.
def test_the_message_fuzzers_saved_inputs_are_answered():
    from conftest import REPO
    from helpers import load_script

    fuzz = REPO / "fuzz"
    target = load_script(fuzz / "serve_message.py", "serve_message_fuzz")
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        app = target.make_app()
        inputs = target.read_inputs([str(fuzz / "corpus" / "serve_message"), str(fuzz / "regressions" / "serve_message")])
        assert len(inputs) >= 17
        for data in inputs:
            assert target.check(app, data) is None, data[:200]
        # And a few hundred mutations of them, as the fuzzer makes.
        rng = __import__("random").Random(1)
        for _ in range(300):
            data = target.mutate(rng, rng.choice(inputs))
            assert target.check(app, data) is None, data[:200]
    finally:
        app.bots.shutdown()
        loop.close()
        asyncio.set_event_loop(None)
