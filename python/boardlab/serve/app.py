"""The web app's server (aiohttp): the page and its files, and one WebSocket per page carrying play, analysis and run watching."""

import asyncio
import json
import pathlib
import secrets
import traceback
import weakref

from aiohttp import WSMsgType, web

import boardlab
from boardlab.labels import player_labels
from boardlab.player_view import PlayerView
from boardlab.players import PLAYER_KINDS
from boardlab.serve import board
from boardlab.serve.access import TOKEN_BYTES, Access, token_matches
from boardlab.serve.analysis import AgentCache, RecordAnalysis, analyse, read_record
from boardlab.serve.game_message import game_message, page_seats
from boardlab.serve.messages import MAX_MESSAGE_BYTES, MessageError, clip, parse_message
from boardlab.serve.page_bots import DEFAULT_MOVE_SECONDS, BotPool, Thinking, page_players
from boardlab.serve.rate_limit import RateLimit
from boardlab.serve.run_watch import RunsFolder, run_stamp, run_summary
from boardlab.serve.session import GameSession

STATIC = pathlib.Path(__file__).with_name("static")
RUN_POLL_SECONDS = 1.0  # how often a watched run's files are checked for news
REPLAY_SECONDS = 0.6  # between the frames of a self-play game playing out
MAX_SESSIONS = 200  # games kept for their pages; the oldest that no page shows go first
MAX_PAGES = 64  # connections at once: each may keep a bot thinking and a run watched
MAX_ERROR = 300  # characters of an error a page is shown: a reason, never a whole echoed input
# How a page is told why it may not connect (then it stops reconnecting): the WebSocket close code.
REFUSED_CLOSE = 4403
# The player kinds a page offers: on a page a human clicks rather than types, and an agent's
# checkpoint is a file inside the runs folder.
PAGE_KINDS = [{"name": name, "help": {"human": "you, clicking on the board",
                                      "agent": "a trained network, agent:RUN/checkpoints/latest.pt (a path inside "
                                               "the runs folder)"}.get(name, kind.help)}
              for name, kind in PLAYER_KINDS.items()]


class Client:
    """One page: its WebSocket, the game it plays or watches and the seats it clicks for, its analysis,
    and the run it watches."""

    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws
        self.session: GameSession | None = None
        self.seats: list[int] = []
        self.owner = False  # started its game: it hands out the other human seats' links
        self.analysis: RecordAnalysis | None = None
        self.position = 0
        self.agent_spec: tuple[str, int | None] | None = None
        self.watch_task: asyncio.Task | None = None
        self.rate = RateLimit()

    async def send(self, message: dict) -> None:
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(message))


class App:
    """The server's state: the games being played (by id), the pages showing each, loaded agents."""

    def __init__(self, runs: str, bot_delay: float, load_game, access: Access, move_seconds: float):
        self.runs = RunsFolder(runs)
        self.load_game = load_game
        self.bot_delay = bot_delay
        self.access = access
        self.sessions: dict[str, GameSession] = {}
        self.watchers: dict[str, "weakref.WeakSet[Client]"] = {}
        self.driving: set[str] = set()
        self.thinking: dict[str, Thinking] = {}  # by game: the bot move being thought
        self.bots = BotPool(move_seconds)
        self.agents = AgentCache()
        self.pages: "weakref.WeakSet[Client]" = weakref.WeakSet()

    # The page's first message: what it may choose from.
    def hello(self) -> dict:
        games = boardlab.game_specs()
        for spec in games:
            # Seats at the default parameters: the page offers a player per seat.
            spec["num_players"] = boardlab.load_game(spec["name"]).num_players()
        return {"type": "hello", "games": games, "kinds": PAGE_KINDS, "runs": self.runs.list(),
                "runs_root": str(self.runs.root)}

    # Play.
    def snapshot(self, client: Client) -> dict:
        return game_message(client.session, client.seats, client.owner)

    async def broadcast(self, session: GameSession) -> None:
        for client in list(self.watchers.get(session.id, ())):
            await client.send(self.snapshot(client))

    def attach(self, client: Client, session: GameSession, seats: list[int]) -> None:
        previous = client.session
        self.detach(client)
        client.session, client.seats = session, seats
        self.sessions[session.id] = session
        self.watchers.setdefault(session.id, weakref.WeakSet()).add(client)
        for old in list(self.sessions)[: max(0, len(self.sessions) - MAX_SESSIONS)]:
            if not self.watchers.get(old):
                del self.sessions[old]
                self.watchers.pop(old, None)
        if previous is not None and previous is not session:
            self.stop_unwatched(previous)

    def detach(self, client: Client) -> None:
        """The page no longer shows its game (then stop_unwatched stops the bots of a game no page shows)."""
        if client.session is not None and client.session.id in self.watchers:
            self.watchers[client.session.id].discard(client)

    def stop_unwatched(self, session: GameSession) -> None:
        # Nobody waits for this game's bots: the move being thought is given up, and drive()
        # goes on only when a page shows the game again.
        if not self.watchers.get(session.id):
            self.stop_thinking(session)

    def stop_thinking(self, session: GameSession) -> None:
        thinking = self.thinking.get(session.id)
        if thinking is not None:
            thinking.cancel()

    async def drive(self, session: GameSession) -> None:
        """Plays the bots' moves one after the other until a human is to choose, the game ends or no page
        shows it any more."""
        if session.id in self.driving:
            return
        self.driving.add(session.id)
        try:
            while (seat := session.next_bot()) is not None and self.watchers.get(session.id):
                version, state = session.bot_state()
                player = session.players[seat]
                self.thinking[session.id] = thinking = Thinking()
                try:
                    actions = await self.bots.act(player, state, seat, thinking)
                except Exception as error:  # a bot that fails is reported, not fatal to the server
                    await self._tell(session, f"{player_labels(session.game)[seat]}'s bot failed: {clip(error, 200)}")
                    return
                finally:
                    self.thinking.pop(session.id, None)
                if actions is None:  # given up before it began: the loop looks again at who is to move
                    continue
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                if session.play_bot(seat, version, actions):
                    await self.broadcast(session)
        finally:
            self.driving.discard(session.id)

    async def _tell(self, session: GameSession, text: str) -> None:
        for client in list(self.watchers.get(session.id, ())):
            await client.send({"type": "error", "where": "play", "message": text})

    async def new_game(self, client: Client, message: dict) -> None:
        game = self.load_game(message["game"], message["params"] or {})
        if message["seed"] is not None and not game.type().perfect_information:
            raise ValueError(f"{game.name()} has hidden information, and a seed would let this page work out "
                             "the other seats' pieces: leave the seed empty")
        players = page_players(message["players"] or "", self.runs)
        session = GameSession.start(game, players, message["seed"])
        self.attach(client, session, page_seats(session))
        client.owner = True
        await client.send(self.snapshot(client))
        asyncio.ensure_future(self.drive(session))

    async def join(self, client: Client, message: dict) -> None:
        """A page takes the seats its link names (each with the seat's key), or watches with none."""
        session = self.sessions.get(message["id"]) or self._restore(message)
        seats, keys = message["seats"] or [], message["keys"] or []
        if len(keys) != len(seats):
            raise ValueError("a page takes a seat with that seat's key: open the link its game's page gave")
        labels = player_labels(session.game)
        for seat, key in zip(seats, keys):
            if seat not in session.humans():
                raise ValueError(f"seat {seat} is no human seat of this game (humans: "
                                 f"{', '.join(labels[s] for s in session.humans()) or 'none'})")
            if not token_matches(session.keys[seat], key):
                raise ValueError(f"the key for {labels[seat]}'s seat is wrong: open the link its game's page gave")
        self.attach(client, session, seats)
        client.owner = False
        await client.send(self.snapshot(client))
        asyncio.ensure_future(self.drive(session))

    def _restore(self, message: dict) -> GameSession:
        """The game a page still shows after the server restarted, from the record it sends; its seats keep
        the keys the page holds."""
        record = message["record"]
        if not message["restore"] or record is None:
            raise ValueError("this game is no longer on the server (it restarted): start a new one")
        game = self.load_game(message["game"] or "", {})
        if not game.type().perfect_information:
            raise ValueError("the server restarted, and a hidden-information game cannot be restored from "
                             "one player's view: start a new one")
        players = page_players(message["players"] or "", self.runs)
        keys = dict(zip(message["seats"] or [], message["keys"] or []))
        return GameSession.restore(game, players, record, message["id"], keys)

    def _client_session(self, client: Client) -> GameSession:
        if client.session is None:
            raise ValueError("no game: start one first")
        return client.session

    async def play(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        seat = message["seat"]
        if seat not in client.seats:
            raise ValueError("this page does not play that seat")
        session.play(seat, message["action"])
        await self.broadcast(session)
        asyncio.ensure_future(self.drive(session))

    async def refuse_click(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        seat, text = message["seat"], message["text"]
        if seat is None or seat not in client.seats:
            reason = "it is not your turn" if session.to_act() else "the game is over"
        else:
            reason = session.explain(seat, text)
        await client.send({"type": "error", "where": "play", "message": clip(f"{text}: {reason}", MAX_ERROR)})

    async def undo(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        session.undo(client.seats)
        self.stop_thinking(session)  # the bot thought about a position that is gone
        await self.broadcast(session)
        asyncio.ensure_future(self.drive(session))

    async def resign(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        acting = [s for s in session.to_act() if s in client.seats]
        seat = acting[0] if acting else (client.seats[0] if client.seats else None)
        if seat is None:
            raise ValueError("only a player can resign")
        session.resign(seat)
        self.stop_thinking(session)
        await self.broadcast(session)

    # Analysis.
    async def analyse_record(self, client: Client, message: dict) -> None:
        default = message["game"]
        game = self.load_game(default, message["params"] or {}) if default else None
        text = message["text"]
        if message["run"] is not None:
            run = self.runs.open(message["run"])
            game = boardlab.load_game(_run_game(run))
        if not text.strip():
            raise ValueError("the record is empty: paste one or choose a file")
        game, record = read_record(text, game)
        client.analysis = RecordAnalysis(game, record)
        client.position = len(client.analysis.moves) if message["at_end"] else 0
        await self.send_position(client)

    async def step(self, client: Client, message: dict) -> None:
        if client.analysis is None:
            raise ValueError("open a record first")
        client.position = min(message["position"], len(client.analysis.moves))
        await self.send_position(client)

    async def set_agent(self, client: Client, message: dict) -> None:
        checkpoint = message["checkpoint"].strip()
        if not checkpoint:
            client.agent_spec = None
        else:
            # A page names checkpoints inside the runs folder only, and hears the same refusal for
            # every other path, so that it learns nothing of the files outside.
            path = self.runs.checkpoint(checkpoint)
            simulations = message["simulations"]
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, self.agents.get, path, simulations)  # refuses a bad checkpoint now
            client.agent_spec = (path, simulations)
        if client.analysis is not None:
            await self.send_position(client)

    async def send_position(self, client: Client) -> None:
        analysis = client.analysis
        state = analysis.state_at(client.position)
        shown = board.picture(PlayerView(state, None))
        labels = player_labels(analysis.game)
        message = {
            "type": "analysis",
            "game": str(analysis.game),
            "labels": labels,
            "moves": analysis.listing(),
            "position": client.position,
            "status": _status(state),
            "record": state.record(),
            **shown,
            "agent": None,
        }
        if client.agent_spec is not None:
            agent = self.agents.get(*client.agent_spec)
            if str(agent.game()) != str(analysis.game):
                message["agent_error"] = f"the agent plays {agent.game()}, this record is {analysis.game}"
            else:
                names = {p["name"] for p in shown["points"]}
                loop = asyncio.get_running_loop()
                seats = await loop.run_in_executor(None, analyse, agent, state)
                for seat in seats:
                    for action in seat["actions"]:
                        clicks = boardlab.render.action_points(analysis.game, action["text"], names)
                        action["point"] = clicks[-1] if clicks else None
                message["agent"] = {"checkpoint": client.agent_spec[0], "seats": seats}
        await client.send(message)

    # Runs.
    async def watch_run(self, client: Client, message: dict) -> None:
        run = self.runs.open(message["path"])
        if client.watch_task is not None:
            client.watch_task.cancel()
        client.watch_task = asyncio.ensure_future(self._watch(client, run))

    async def _watch(self, client: Client, run) -> None:
        try:
            await self._watch_loop(client, run)
        except asyncio.CancelledError:
            pass
        except (OSError, ValueError) as error:  # the run folder went away or holds what does not read
            await client.send({"type": "error", "where": "runs", "message": f"{run.path}: {error}"})

    async def _watch_loop(self, client: Client, run) -> None:
        """Sends the run, again whenever its files change, and plays out its newest self-play game."""
        stamp = None
        game = boardlab.load_game(_run_game(run))
        replay: RecordAnalysis | None = None
        replay_record = None
        frame = 0
        next_frame = 0.0
        loop = asyncio.get_running_loop()
        while not client.ws.closed:
            now = loop.time()
            if run_stamp(run) != stamp:
                stamp = run_stamp(run)
                summary = run_summary(self.runs, run)
                await client.send({"type": "run", **summary})
                newest = summary["games"][0]["record"] if summary["games"] else None
                if newest is not None and newest != replay_record:
                    try:
                        replay, replay_record, frame = RecordAnalysis(game, newest), newest, 0
                    except ValueError as error:
                        await client.send({"type": "error", "where": "runs",
                                           "message": f"the newest self-play game does not read: {error}"})
                        replay_record = newest
            if replay is not None and now >= next_frame:
                state = replay.state_at(frame)
                await client.send({"type": "replay", "path": str(run.path.relative_to(self.runs.root)),
                                   "index": summary["game_count"], "position": frame,
                                   "length": len(replay.moves), "status": _status(state),
                                   **board.picture(PlayerView(state, None))})
                # At the end the game stays a moment, then starts again (or the next newest one).
                frame = frame + 1 if frame < len(replay.moves) else 0
                next_frame = now + (REPLAY_SECONDS * 4 if frame == 0 else REPLAY_SECONDS)
            await asyncio.sleep(min(RUN_POLL_SECONDS, REPLAY_SECONDS))

    async def list_runs(self, client: Client, message: dict) -> None:
        await client.send({"type": "runs", "runs": self.runs.list(), "runs_root": str(self.runs.root)})

    HANDLERS = {
        "new_game": ("play", new_game),
        "join": ("play", join),
        "play": ("play", play),
        "refused_click": ("play", refuse_click),
        "undo": ("play", undo),
        "resign": ("play", resign),
        "analyse": ("analyse", analyse_record),
        "step": ("analyse", step),
        "agent": ("analyse", set_agent),
        "watch_run": ("runs", watch_run),
        "runs": ("runs", list_runs),
    }

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        refusal = self.access.origin_problem(request.headers.get("Origin"), request.host)
        if refusal is not None:  # another site's page: refused before the upgrade, told nothing
            raise web.HTTPForbidden(text=refusal + "\n")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE_BYTES)
        await ws.prepare(request)
        refusal = self.access.token_problem(request.query.get("token"))
        if refusal is None and len(self.pages) >= MAX_PAGES:
            refusal = f"{MAX_PAGES} pages are connected already: close one"
        if refusal is not None:
            # Only this server's own page gets here: it shows why, and stops reconnecting.
            await ws.send_str(json.dumps({"type": "refused", "message": refusal}))
            await ws.close(code=REFUSED_CLOSE, message=b"refused")
            return ws
        client = Client(ws)
        self.pages.add(client)
        await client.send(self.hello())
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self.receive(client, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await client.send(_error("page", "the page sends text messages (JSON), not binary ones"))
        finally:
            if client.watch_task is not None:
                client.watch_task.cancel()
            self.pages.discard(client)
            session = client.session
            self.detach(client)
            if session is not None:
                self.stop_unwatched(session)
        return ws

    async def receive(self, client: Client, data: str) -> None:
        """One message from a page, if within its rate; those above it are dropped, and the page is told
        how many when it is heard again."""
        if not client.rate.allow():
            if client.rate.refused == 1:
                await client.send(_error("page", f"too many messages: this page may send "
                                                 f"{client.rate.rate:g} a second; the others are dropped"))
            return
        client.rate.refused = 0
        await self.dispatch(client, data)

    async def dispatch(self, client: Client, data: str) -> None:
        try:
            kind, message = parse_message(data)
        except MessageError as error:
            await client.send(_error("page", str(error)))
            return
        where, handler = self.HANDLERS[kind]
        try:
            await handler(self, client, message)
        except (ValueError, KeyError) as error:
            # Bad input of every kind (an illegal move, a bad record or spec, a missing checkpoint)
            # is shown on the page with its reason; the connection and the server go on.
            await client.send({**_error(where, clip(error, MAX_ERROR)), "request": kind})
        except Exception as error:  # a bug: the page hears of it and keeps its connection, the log has the trace
            traceback.print_exc()
            await client.send({**_error(where, f"the server failed on this request ({type(error).__name__}); "
                                               "its terminal shows where"), "request": kind})


def _error(where: str, text: str) -> dict:
    return {"type": "error", "where": where, "message": text}


def _status(state: boardlab.State) -> str:
    return str(state).splitlines()[-1] if str(state) else ""


def _run_game(run) -> str:
    from boardlab.serve.run_watch import _config_game

    return _config_game(run.path / "config.yaml")


def make_app(runs: str = "runs", bot_delay: float = 0.2, load_game=boardlab.load_game, token: str | None = None,
             allowed_hosts: "tuple[str, ...] | list[str]" = (),
             move_seconds: float = DEFAULT_MOVE_SECONDS) -> web.Application:
    """The web app: `runs` the folder of run folders to show, `bot_delay` seconds before each bot move;
    `load_game(name, params)` makes the games pages ask for (the registry; tests add the toys). A page
    connects with `token` (a new random one by default: app["boardlab"].access.token), from this server's
    own origin, by an IP address, localhost or one of `allowed_hosts`; its bots think at most
    `move_seconds` a move."""
    app = web.Application(middlewares=[_host_check])
    access = Access(token or secrets.token_urlsafe(TOKEN_BYTES), allowed_hosts)
    state = App(runs, bot_delay, load_game, access, move_seconds)
    app["boardlab"] = state

    async def index(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def close_pages(app_: web.Application) -> None:
        # A stopping server closes its WebSockets rather than waiting for the pages to leave;
        # they reconnect to the next one.
        for thinking in list(state.thinking.values()):
            thinking.cancel()
        for client in list(state.pages):
            if client.watch_task is not None:
                client.watch_task.cancel()
            await client.ws.close(code=1001, message=b"server shutdown")
        state.bots.shutdown()

    app.on_shutdown.append(close_pages)
    app.router.add_get("/", index)
    app.router.add_get("/ws", state.websocket)
    app.router.add_static("/static/", STATIC)
    return app


@web.middleware
async def _host_check(request: web.Request, handler):
    """Every request names this server as its Host: a page of another site that reached it through
    DNS rebinding (its own name, resolving here) gets nothing, not even the page."""
    refusal = request.app["boardlab"].access.host_problem(request.headers.get("Host"))
    if refusal is not None:
        raise web.HTTPForbidden(text=refusal + "\n")
    return await handler(request)
