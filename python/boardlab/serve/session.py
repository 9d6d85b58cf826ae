"""One game in the web app: its seats (humans who click, bots from player specs), the moves so far, simultaneous commits, undo and resign."""

import io
import random
import secrets
from dataclasses import dataclass, field

import boardlab
from boardlab import _boardlab
from boardlab.chance import draw_chance_outcome
from boardlab.labels import player_labels
from boardlab.match import result_text
from boardlab.player_view import PlayerView
from boardlab.players import PlayerContext, make_player, parse_player_specs


@dataclass
class Move:
    """One entry of a game's log: a seat's action, a simultaneous round (one action per seat) or chance."""

    kind: str  # "act", "joint" or "chance"
    actions: list[int]
    seat: int | None = None  # who acted ("act")
    turn: int = 0  # move_number() before it


def _no_terminal_input(prompt: str) -> str:
    raise RuntimeError("a web game's humans play by clicking, never on the terminal")


@dataclass
class GameSession:
    """A game being played: `log` replays it from the initial state, so undo rebuilds the state exactly."""

    game: boardlab.Game
    specs: list[str]
    # Decides the bots' and chance's draws, and so what a hidden-information game hides: it never
    # leaves the server (game_message), and by default it is 64 bits from the system's secrets.
    seed: int
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    # Per human seat, the secret a page shows to take that seat (the seat's link carries it).
    keys: dict[int, str] = field(default_factory=dict)
    log: list[Move] = field(default_factory=list)
    pending: dict[int, int] = field(default_factory=dict)  # this simultaneous round's choices so far
    resigned: int | None = None
    version: int = 0  # one more at every change: a bot's move thought out for an older version is dropped
    state: boardlab.State | None = None

    @classmethod
    def start(cls, game: boardlab.Game, players: str, seed: int | None = None) -> "GameSession":
        """A new game; ValueError names a bad player list, an unknown kind or a checkpoint that fails."""
        count = len(_boardlab.split_player_specs(players)) if players.strip() else 0
        if count != game.num_players():
            raise ValueError(f"the players name {count} seat(s), {game} has {game.num_players()}: one spec each, "
                             "comma-separated (human,random)")
        specs = parse_player_specs(players, game.num_players())
        seed = seed if seed is not None else secrets.randbits(64)
        session = cls(game, specs, seed)
        session._make_players()
        session.keys = {seat: secrets.token_urlsafe(16) for seat in session.humans()}
        session.state = game.new_initial_state()
        session._play_chance()
        return session

    @classmethod
    def restore(cls, game: boardlab.Game, players: str, record: str, game_id: str,
                keys: dict[int, str]) -> "GameSession":
        """The game `game_id` a page still shows after the server restarted: its players again and its record
        replayed (ValueError names a bad turn), its human seats with the `keys` the page holds (the others
        new ones). The bots' own random streams start afresh."""
        session = cls.start(game, players)
        session.id = game_id
        session.keys.update({seat: key for seat, key in keys.items() if seat in session.keys})
        final = game.load_record(record)
        session.log = log_of(final)
        session.state = session._replay(len(session.log))
        session._play_chance()
        return session

    def _make_players(self) -> None:
        labels = player_labels(self.game)
        seeds = random.Random(self.seed)
        self.players = []
        for seat, spec in enumerate(self.specs):
            seed = seeds.getrandbits(64)
            if spec == "human":
                self.players.append(None)
                continue
            context = PlayerContext(self.game, seat, labels[seat], seed, _no_terminal_input, io.StringIO())
            try:
                self.players.append(make_player(spec, context))
            except ValueError as error:
                raise ValueError(f"{labels[seat]}'s player {spec}: {error}") from None
        self._chance_rng = random.Random(seeds.getrandbits(64))

    # What the game is at.
    def humans(self) -> list[int]:
        return [seat for seat, player in enumerate(self.players) if player is None]

    def over(self) -> bool:
        return self.resigned is not None or self.state.is_terminal()

    def to_act(self) -> list[int]:
        """The seats that must still choose now: the mover, or at a simultaneous round every seat that has not."""
        if self.over() or self.state.is_chance_node():
            return []
        if self.state.is_simultaneous_node():
            return [s for s in range(self.game.num_players()) if s not in self.pending and self.state.legal_actions(s)]
        return [self.state.current_player()]

    def next_bot(self) -> int | None:
        """A bot seat that must act now, if any."""
        return next((seat for seat in self.to_act() if self.players[seat] is not None), None)

    def result(self) -> str | None:
        labels = player_labels(self.game)
        if self.resigned is not None:
            others = [label for seat, label in enumerate(labels) if seat != self.resigned]
            return f"{labels[self.resigned]} resigned: {', '.join(others)} {'wins' if len(others) == 1 else 'win'}"
        if self.state.is_terminal():
            return result_text(self.state.returns(), labels, self.state.is_truncated())
        return None

    def turn_so_far(self, viewer: int) -> list[str]:
        """The actions of the turn in progress (the mover's sub-moves), as `viewer` may see them."""
        if self.over() or self.state.is_simultaneous_node() or self.state.is_chance_node():
            return []
        mover, number = self.state.current_player(), self.state.move_number()
        moves = []
        for move in reversed(self.log):
            if move.kind != "act" or move.seat != mover or move.turn != number:
                break
            moves.append(move)
        if not moves:
            return []
        # Re-read each action at the position where it was played, as the viewer saw it.
        replay = self._replay(len(self.log) - len(moves))
        texts = []
        for move in reversed(moves):
            texts.append(replay.action_seen_by(viewer, mover, move.actions[0]))
            replay.apply_action(move.actions[0])
        return texts

    def view(self, viewer: int) -> PlayerView:
        return PlayerView(self.state, viewer)

    # Changes.
    def play(self, seat: int, action: int) -> None:
        """A seat's choice (a human's click): applied, or at a simultaneous round kept until every seat has
        chosen. ValueError (IllegalActionError from the game) with the reason when it cannot be played."""
        labels = player_labels(self.game)
        if self.resigned is not None:
            raise ValueError("the game is over: a player resigned")
        if self.state.is_terminal():
            raise ValueError("the game is over")
        if seat not in self.to_act():
            if self.state.is_simultaneous_node() and seat in self.pending:
                raise ValueError(f"{labels[seat]} has already chosen this round (undo to change it)")
            raise ValueError(f"it is not {labels[seat]}'s turn")
        if self.state.is_simultaneous_node():
            if action not in self.state.legal_actions(seat):
                raise boardlab.IllegalActionError(
                    f"{self._text(action, seat)} is not a legal move for {labels[seat]} this round")
            self.pending[seat] = action
            self._resolve_round()
        else:
            if not self.game.type().perfect_information and action not in self.state.legal_actions(seat):
                # The game's own reason could tell what the seat may not know (what stands on a hidden cell).
                raise boardlab.IllegalActionError(f"{self._text(action, seat)} is not one of your legal moves")
            turn = self.state.move_number()
            self.state.apply_action(action)  # raises with the game's reason, the state unchanged
            self.log.append(Move("act", [action], seat, turn))
        self._play_chance()
        self.version += 1

    def explain(self, seat: int, text: str) -> str:
        """Why the move written `text` (a click on a point that chooses no legal move) cannot be played."""
        labels = player_labels(self.game)
        if self.over():
            return "the game is over"
        if seat not in self.to_act():
            return f"it is not {labels[seat]}'s turn"
        try:
            action = self.state.string_to_action(seat, text)
        except ValueError as error:
            return str(error)
        if not self.game.type().perfect_information:
            return f"{text} is not one of your legal moves"  # the game's reason might tell what is hidden
        if self.state.is_simultaneous_node():
            return f"{text} is not a legal move for {labels[seat]} this round"
        trial = self.state.clone()
        try:
            trial.apply_action(action)
        except ValueError as error:
            return str(error)
        return f"{text} is legal: choose it again"

    def _text(self, action: int, seat: int) -> str:
        try:
            return self.state.action_to_string(seat, action)
        except ValueError:
            return f"action {action}"

    def _resolve_round(self) -> None:
        seats = range(self.game.num_players())
        if any(s not in self.pending and self.state.legal_actions(s) for s in seats):
            return
        joint = [self.pending.get(s, boardlab.INVALID_ACTION) for s in seats]
        turn = self.state.move_number()
        self.state.apply_actions(joint)
        self.pending.clear()
        self.log.append(Move("joint", joint, None, turn))

    def _play_chance(self) -> None:
        while self.state.is_chance_node():
            outcome = draw_chance_outcome(self.state, self._chance_rng)
            turn = self.state.move_number()
            self.state.apply_action(outcome)
            self.log.append(Move("chance", [outcome], None, turn))

    def bot_state(self) -> tuple[int, boardlab.State]:
        """What a bot thinks on: this version and a copy of the state (the game may change meanwhile)."""
        return self.version, self.state.clone()

    def play_bot(self, seat: int, version: int, actions: list[int]) -> bool:
        """A bot's actions, thought out at `version`: played if the game has not changed since."""
        if version != self.version or seat not in self.to_act():
            return False
        for action in actions:
            self.play(seat, action)
        return True

    def undo(self, seats: list[int]) -> None:
        """Takes back the last choice of one of `seats` (a human's) and whatever followed it: a resignation or
        a choice kept for a simultaneous round first. ValueError when there is none."""
        if self.resigned in seats:
            self.resigned = None
            self.version += 1
            return
        mine = [s for s in seats if s in self.pending]
        if mine:
            for seat in mine:
                del self.pending[seat]
            self._after_undo()
            return
        for index in range(len(self.log) - 1, -1, -1):
            move = self.log[index]
            if (move.kind == "act" and move.seat in seats) or (move.kind == "joint" and any(
                    move.actions[s] != boardlab.INVALID_ACTION for s in seats)):
                self.state = self._replay(index)
                del self.log[index:]
                self.resigned = None
                self._after_undo()
                return
        raise ValueError("nothing to undo: you have made no move yet")

    def _after_undo(self) -> None:
        # Bots choose a simultaneous round again, so that a take-back shows them nothing new.
        self.pending.clear()
        self.version += 1

    def resign(self, seat: int) -> None:
        if self.over():
            raise ValueError("the game is already over")
        self.resigned = seat
        self.version += 1

    def _replay(self, moves: int) -> boardlab.State:
        return replay(self.game, self.log[:moves])


def replay(game: boardlab.Game, moves: list[Move]) -> boardlab.State:
    """The state after `moves` from the initial state."""
    state = game.new_initial_state()
    for move in moves:
        if move.kind == "joint":
            state.apply_actions(move.actions)
        else:
            state.apply_action(move.actions[0])
    return state


def log_of(state: boardlab.State) -> list[Move]:
    """The moves that led to `state` from the initial state, a simultaneous round as one move (its steps,
    one per seat, are consecutive in history())."""
    game = state.game()
    replay = game.new_initial_state()
    steps = state.full_history()
    moves, i = [], 0
    while i < len(steps):
        turn = replay.move_number()
        if replay.is_simultaneous_node():
            joint = [boardlab.INVALID_ACTION] * game.num_players()
            while i < len(steps) and joint[steps[i][0]] == boardlab.INVALID_ACTION and steps[i][0] >= 0:
                joint[steps[i][0]] = steps[i][1]
                i += 1
            replay.apply_actions(joint)
            moves.append(Move("joint", joint, None, turn))
            continue
        player, action = steps[i]
        replay.apply_action(action)
        moves.append(Move("chance" if player == boardlab.CHANCE_PLAYER else "act", [action],
                          None if player == boardlab.CHANCE_PLAYER else player, turn))
        i += 1
    return moves
