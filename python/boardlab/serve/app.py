"""The web app's server (aiohttp): the page and its files, and one WebSocket per page carrying play, analysis and run watching."""

import asyncio
import json
import pathlib
import traceback
import weakref

from aiohttp import WSMsgType, web

import boardlab
from boardlab.labels import player_labels
from boardlab.player_view import PlayerView
from boardlab.players import PLAYER_KINDS
from boardlab.serve import board
from boardlab.serve.game_message import game_message, page_seats
from boardlab.serve.analysis import AgentCache, RecordAnalysis, analyse, read_record
from boardlab.serve.run_watch import RunsFolder, run_stamp, run_summary
from boardlab.serve.session import GameSession

STATIC = pathlib.Path(__file__).with_name("static")
RUN_POLL_SECONDS = 1.0  # how often a watched run's files are checked for news
REPLAY_SECONDS = 0.6  # between the frames of a self-play game playing out
MAX_SESSIONS = 200  # games kept for their pages; the oldest that no page shows go first


class Client:
    """One page: its WebSocket, the game it plays or watches and the seats it clicks for, its analysis,
    and the run it watches."""

    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws
        self.session: GameSession | None = None
        self.seats: list[int] = []
        self.analysis: RecordAnalysis | None = None
        self.position = 0
        self.agent_spec: tuple[str, int | None] | None = None
        self.watch_task: asyncio.Task | None = None

    async def send(self, message: dict) -> None:
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(message))


class App:
    """The server's state: the games being played (by id), the pages showing each, loaded agents."""

    def __init__(self, runs: str, bot_delay: float, load_game):
        self.runs = RunsFolder(runs)
        self.load_game = load_game
        self.bot_delay = bot_delay
        self.sessions: dict[str, GameSession] = {}
        self.watchers: dict[str, "weakref.WeakSet[Client]"] = {}
        self.driving: set[str] = set()
        self.agents = AgentCache()
        self.pages: "weakref.WeakSet[Client]" = weakref.WeakSet()

    # The page's first message: what it may choose from.
    def hello(self) -> dict:
        games = boardlab.game_specs()
        for spec in games:
            # Seats at the default parameters: the page offers a player per seat.
            spec["num_players"] = boardlab.load_game(spec["name"]).num_players()
        # On the page a human clicks rather than types.
        kinds = [{"name": name, "help": "you, clicking on the board" if name == "human" else kind.help}
                 for name, kind in PLAYER_KINDS.items()]
        return {"type": "hello", "games": games, "kinds": kinds, "runs": self.runs.list(),
                "runs_root": str(self.runs.root)}

    def _game(self, name: str, params: dict) -> boardlab.Game:
        if not isinstance(params, dict):
            raise ValueError("the game's parameters must be key=value pairs")
        params = {str(k): str(v) for k, v in params.items() if str(v).strip() != ""}
        return self.load_game(str(name), params)

    # Play.
    def snapshot(self, client: Client) -> dict:
        return game_message(client.session, client.seats)

    async def broadcast(self, session: GameSession) -> None:
        for client in list(self.watchers.get(session.id, ())):
            await client.send(self.snapshot(client))

    def attach(self, client: Client, session: GameSession, seats: list[int]) -> None:
        if client.session is not None and client.session.id in self.watchers:
            self.watchers[client.session.id].discard(client)
        client.session, client.seats = session, seats
        self.sessions[session.id] = session
        self.watchers.setdefault(session.id, weakref.WeakSet()).add(client)
        for old in list(self.sessions)[: max(0, len(self.sessions) - MAX_SESSIONS)]:
            if not self.watchers.get(old):
                del self.sessions[old]
                self.watchers.pop(old, None)

    async def drive(self, session: GameSession) -> None:
        """Plays the bots' moves one after the other until a human is to choose or the game ends."""
        if session.id in self.driving:
            return
        self.driving.add(session.id)
        loop = asyncio.get_running_loop()
        try:
            while (seat := session.next_bot()) is not None:
                version, state = session.bot_state()
                player = session.players[seat]
                try:
                    actions = await loop.run_in_executor(None, player.act, state, seat)
                except Exception as error:  # a bot that fails is reported, not fatal to the server
                    for client in list(self.watchers.get(session.id, ())):
                        await client.send({"type": "error", "where": "play",
                                           "message": f"{player_labels(session.game)[seat]}'s bot failed: {error}"})
                    return
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                if session.play_bot(seat, version, actions):
                    await self.broadcast(session)
        finally:
            self.driving.discard(session.id)

    async def new_game(self, client: Client, message: dict) -> None:
        game = self._game(message.get("game", ""), message.get("params") or {})
        session = GameSession.start(game, str(message.get("players", "")), _seed(message.get("seed")))
        self.attach(client, session, page_seats(session))
        await client.send(self.snapshot(client))
        asyncio.ensure_future(self.drive(session))

    async def join(self, client: Client, message: dict) -> None:
        session = self.sessions.get(str(message.get("id")))
        if session is None:
            record = message.get("record")
            if not message.get("restore") or record is None:
                raise ValueError("this game is no longer on the server (it restarted): start a new one")
            game = self._game(message.get("game", ""), {})
            if not game.type().perfect_information:
                raise ValueError("the server restarted, and a hidden-information game cannot be restored from "
                                 "one player's view: start a new one")
            session = GameSession.restore(game, str(message.get("players", "")), _seed(message.get("seed")), record)
            session.id = str(message.get("id"))
        seats = message.get("seats")
        seats = page_seats(session) if seats is None else [int(s) for s in seats if int(s) in session.humans()]
        self.attach(client, session, seats)
        await client.send(self.snapshot(client))
        asyncio.ensure_future(self.drive(session))

    def _client_session(self, client: Client) -> GameSession:
        if client.session is None:
            raise ValueError("no game: start one first")
        return client.session

    async def play(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        seat = int(message.get("seat", -1))
        if seat not in client.seats:
            raise ValueError("this page does not play that seat")
        session.play(seat, int(message["action"]))
        await self.broadcast(session)
        asyncio.ensure_future(self.drive(session))

    async def refuse_click(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        seat = message.get("seat")
        text = str(message.get("text", ""))
        if seat is None or int(seat) not in client.seats:
            reason = "it is not your turn" if session.to_act() else "the game is over"
        else:
            reason = session.explain(int(seat), text)
        await client.send({"type": "error", "where": "play", "message": f"{text}: {reason}"})

    async def undo(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        session.undo(client.seats)
        await self.broadcast(session)
        asyncio.ensure_future(self.drive(session))

    async def resign(self, client: Client, message: dict) -> None:
        session = self._client_session(client)
        acting = [s for s in session.to_act() if s in client.seats]
        seat = acting[0] if acting else (client.seats[0] if client.seats else None)
        if seat is None:
            raise ValueError("only a player can resign")
        session.resign(seat)
        await self.broadcast(session)

    # Analysis.
    async def analyse_record(self, client: Client, message: dict) -> None:
        default = message.get("game")
        game = self._game(default, message.get("params") or {}) if default else None
        text = str(message.get("text", ""))
        if message.get("run") is not None:
            run = self.runs.open(str(message["run"]))
            game = boardlab.load_game(_run_game(run))
        if not text.strip():
            raise ValueError("the record is empty: paste one or choose a file")
        game, record = read_record(text, game)
        client.analysis = RecordAnalysis(game, record)
        client.position = len(client.analysis.moves) if message.get("at_end") else 0
        await self.send_position(client)

    async def step(self, client: Client, message: dict) -> None:
        if client.analysis is None:
            raise ValueError("open a record first")
        position = int(message.get("position", 0))
        client.position = max(0, min(position, len(client.analysis.moves)))
        await self.send_position(client)

    async def set_agent(self, client: Client, message: dict) -> None:
        checkpoint = str(message.get("checkpoint", "")).strip()
        if not checkpoint:
            client.agent_spec = None
        else:
            path = self.runs.checkpoint(checkpoint) if message.get("in_runs") else checkpoint
            simulations = message.get("simulations")
            simulations = int(simulations) if simulations not in (None, "") else None
            if simulations is not None and not 1 <= simulations <= 100000:
                raise ValueError(f"simulations must be from 1 to 100,000, got {simulations}")
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
        run = self.runs.open(str(message.get("path", "")))
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
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        client = Client(ws)
        self.pages.add(client)
        await client.send(self.hello())
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self.dispatch(client, msg.data)
        finally:
            if client.watch_task is not None:
                client.watch_task.cancel()
            if client.session is not None and client.session.id in self.watchers:
                self.watchers[client.session.id].discard(client)
        return ws

    async def dispatch(self, client: Client, data: str) -> None:
        try:
            message = json.loads(data)
            kind = message.get("type") if isinstance(message, dict) else None
        except json.JSONDecodeError:
            message, kind = {}, None
        if kind not in self.HANDLERS:
            await client.send({"type": "error", "where": "page", "message": f"unknown message {str(kind)[:40]!r}"})
            return
        where, handler = self.HANDLERS[kind]
        try:
            await handler(self, client, message)
        except (ValueError, KeyError, TypeError) as error:
            # Bad input of every kind (an illegal move, a bad record or spec, a missing checkpoint)
            # is shown on the page with its reason; the connection and the server go on.
            text = str(error) if not isinstance(error, KeyError) else f"missing field {error}"
            await client.send({"type": "error", "where": where, "message": text, "request": kind})
        except Exception as error:  # a bug: the page hears of it and keeps its connection, the log has the trace
            traceback.print_exc()
            await client.send({"type": "error", "where": where, "request": kind,
                               "message": f"the server failed on this request ({type(error).__name__}: {error})"})




def _seed(value) -> int | None:
    if value in (None, ""):
        return None
    seed = int(value)
    if not 0 <= seed < 2**64:
        raise ValueError(f"the seed must be from 0 to 2^64 - 1, got {seed}")
    return seed


def _status(state: boardlab.State) -> str:
    return str(state).splitlines()[-1] if str(state) else ""


def _run_game(run) -> str:
    from boardlab.serve.run_watch import _config_game

    return _config_game(run.path / "config.yaml")


def make_app(runs: str = "runs", bot_delay: float = 0.2, load_game=boardlab.load_game) -> web.Application:
    """The web app: `runs` the folder of run folders to show, `bot_delay` seconds before each bot move;
    `load_game(name, params)` makes the games pages ask for (the registry; tests add the toys)."""
    app = web.Application()
    state = App(runs, bot_delay, load_game)
    app["boardlab"] = state

    async def index(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def close_pages(app_: web.Application) -> None:
        # A stopping server closes its WebSockets rather than waiting for the pages to leave;
        # they reconnect to the next one.
        for client in list(state.pages):
            if client.watch_task is not None:
                client.watch_task.cancel()
            await client.ws.close(code=1001, message=b"server shutdown")

    app.on_shutdown.append(close_pages)
    app.router.add_get("/", index)
    app.router.add_get("/ws", state.websocket)
    app.router.add_static("/static/", STATIC)
    return app
