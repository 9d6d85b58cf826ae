"""Analysis in the web app: a record read into positions to step through, and what an agent thinks of the one shown."""

import threading

import boardlab
from boardlab.agents import load_agent
from boardlab.labels import player_labels
from boardlab.serve.session import Move, log_of, replay


def read_record(text: str, game: "boardlab.Game | None") -> tuple[boardlab.Game, str]:
    """The game and the record in `text`: a record in the game's notation, optionally after a first line
    naming the game (`virus_war(strict=true)`, as the web app's downloads start); else `game`."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if len(lines) > 1:
        try:
            named = boardlab.load_game(lines[0])
        except ValueError:
            named = None
        if named is not None:
            return named, " ".join(lines[1:])
    if game is None:
        raise ValueError("choose the game of this record (or start the text with a line naming it)")
    return game, " ".join(lines)


class RecordAnalysis:
    """A game read from a record, as positions 0..len(moves): position i is the state after i moves."""

    def __init__(self, game: boardlab.Game, record: str):
        self.game = game
        # A bad record raises ValueError naming its turn (load_record's message).
        self.final = game.load_record(record)
        self.moves: list[Move] = log_of(self.final)
        self._texts = self._move_texts()

    def _move_texts(self) -> list[str]:
        labels = player_labels(self.game)
        state = self.game.new_initial_state()
        texts = []
        for move in self.moves:
            if move.kind == "joint":
                texts.append("/".join(state.action_to_string(s, a) for s, a in enumerate(move.actions)))
                state.apply_actions(move.actions)
                continue
            who = "chance" if move.kind == "chance" else labels[move.seat]
            texts.append(f"{who} {state.action_to_string(move.actions[0])}")
            state.apply_action(move.actions[0])
        return texts

    def listing(self) -> list[dict]:
        """Each move: its text and the turn it belongs to (move_number() before it)."""
        return [{"text": text, "turn": move.turn} for text, move in zip(self._texts, self.moves)]

    def state_at(self, position: int) -> boardlab.State:
        if not 0 <= position <= len(self.moves):
            raise ValueError(f"position {position} is outside this game (0 to {len(self.moves)})")
        return replay(self.game, self.moves[:position])


class AgentCache:
    """Loaded agents by checkpoint and budget: loading a network takes a while, analysing one position less."""

    def __init__(self):
        self._agents = {}
        self._lock = threading.Lock()

    def get(self, checkpoint: str, simulations: int | None):
        key = (checkpoint, simulations)
        with self._lock:
            if key not in self._agents:
                self._agents[key] = load_agent(checkpoint, simulations)
            return self._agents[key]


def analyse(agent, state: boardlab.State, points: dict[str, str] | None = None) -> list[dict]:
    """What `agent` thinks of `state` for each seat that acts there: the network's prior and the search's
    visits and policy per legal action, the values for every player and the best line, in the game's
    notation. Nothing for a finished game or a chance node."""
    if state.is_terminal() or state.is_chance_node():
        return []
    game = state.game()
    labels = player_labels(game)
    seats = [s for s in range(game.num_players()) if state.legal_actions(s)] if state.is_simultaneous_node() \
        else [state.current_player()]
    out = []
    for seat in seats:
        result = agent.analyse(state, seat)
        actions = []
        for action in state.legal_actions(seat):
            actions.append({
                "action": action,
                "text": state.action_to_string(seat, action),
                "prior": round(float(result["prior"][action]), 4),
                "visits": int(result["visits"][action]),
                "policy": round(float(result["policy"][action]), 4),
            })
        actions.sort(key=lambda a: (-a["visits"], -a["prior"]))
        out.append({
            "seat": seat,
            "label": labels[seat],
            "actions": actions,
            "value": {labels[p]: round(float(v), 3) for p, v in enumerate(result["value"])},
            "search_value": round(float(result["search_value"]), 3),
            "simulations": int(result["simulations"]),
            "line": _line_texts(state, result["line"]) if not state.is_simultaneous_node() else [],
        })
    return out


def _line_texts(state: boardlab.State, line: list[int]) -> list[str]:
    """The best line in notation, each action by its mover (`X e5`), as far as it stays legal."""
    labels = player_labels(state.game())
    trial = state.clone()
    texts = []
    for action in line:
        if trial.is_terminal() or trial.is_chance_node() or trial.is_simultaneous_node():
            break
        mover = trial.current_player()
        try:
            text = trial.action_to_string(action)
            trial.apply_action(action)
        except ValueError:
            break
        texts.append(f"{labels[mover]} {text}")
    return texts
