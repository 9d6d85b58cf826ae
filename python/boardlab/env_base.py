"""What boardlab's AEC and Parallel environments share: PettingZoo's base classes (or stand-ins), spaces, observations, game loading."""

import operator

import numpy as np

import boardlab
from boardlab.chance import play_chance
from boardlab.player_view import PlayerView
from boardlab.spaces import Box, Dict, Discrete

try:  # pragma: no cover - depends on the user's machine
    from pettingzoo import AECEnv, ParallelEnv

    HAVE_PETTINGZOO = True
except ImportError:
    HAVE_PETTINGZOO = False

    class _StandInEnv:
        """What PettingZoo's two base classes share, as far as boardlab's environments rely on it."""

        metadata: dict = {}

        @property
        def num_agents(self) -> int:
            return len(self.agents)

        @property
        def max_num_agents(self) -> int:
            return len(self.possible_agents)

        def close(self):
            pass

        @property
        def unwrapped(self):
            return self

        def __str__(self):
            return self.metadata.get("name", type(self).__name__)

    class AECEnv(_StandInEnv):
        """The part of pettingzoo.AECEnv that boardlab's environments rely on."""

        def agent_iter(self, max_iter: int = 2**63):
            for _ in range(max_iter):
                if not self.agents:
                    return
                yield self.agent_selection

        def last(self, observe: bool = True):
            agent = self.agent_selection
            observation = self.observe(agent) if observe else None
            return (
                observation,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )

        def _clear_rewards(self):
            for agent in self.rewards:
                self.rewards[agent] = 0

        def _accumulate_rewards(self):
            for agent, reward in self.rewards.items():
                self._cumulative_rewards[agent] += reward

        def _dead_agents(self) -> list:
            return [agent for agent in self.agents if self.terminations[agent] or self.truncations[agent]]

        def _deads_step_first(self):
            """Selects the first agent that is done, keeping the one it replaces for after its last step."""
            dead = self._dead_agents()
            if dead:
                self._skip_agent_selection = self.agent_selection
                self.agent_selection = dead[0]
            return self.agent_selection

        def _was_dead_step(self, action):
            """Removes the selected agent, which is done; selects the next one done, or the one skipped for it."""
            if action is not None:
                raise ValueError("when an agent is dead, the only valid action is None")
            agent = self.agent_selection
            del self.terminations[agent]
            del self.truncations[agent]
            del self.rewards[agent]
            del self._cumulative_rewards[agent]
            del self.infos[agent]
            self.agents.remove(agent)
            dead = self._dead_agents()
            if dead:
                if getattr(self, "_skip_agent_selection", None) is None:
                    self._skip_agent_selection = self.agent_selection
                self.agent_selection = dead[0]
            else:
                if getattr(self, "_skip_agent_selection", None) is not None:
                    self.agent_selection = self._skip_agent_selection
                self._skip_agent_selection = None
            self._clear_rewards()

    class ParallelEnv(_StandInEnv):
        """The part of pettingzoo.ParallelEnv that boardlab's environments rely on."""


RENDER_MODES = ["ansi", "human", "svg"]


def load_env_game(game: "str | boardlab.Game", params: dict) -> boardlab.Game:
    if isinstance(game, boardlab.Game):
        if params:
            raise ValueError(f"parameters {sorted(params)} given with a Game object: put them in the game instead")
        return game
    return boardlab.load_game(game, **params)


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
    return render_mode


class GameSpaces:
    """The agents of a game and their spaces, made once: PettingZoo's tests require the same objects on every call."""

    def __init__(self, game: boardlab.Game):
        self.game = game
        self.agents = [f"player_{p}" for p in range(game.num_players())]
        self.players = {agent: p for p, agent in enumerate(self.agents)}
        n = game.num_distinct_actions()
        shape = game.observation_shape()
        self.observation = {
            agent: Dict(
                {
                    "observation": Box(0.0, 1.0, shape=shape, dtype=np.float32),
                    "action_mask": Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for agent in self.agents
        }
        self.action = {agent: Discrete(n) for agent in self.agents}

    def player(self, agent: str) -> int:
        try:
            return self.players[agent]
        except KeyError:
            raise ValueError(f"unknown agent {agent!r} (agents: {', '.join(self.agents)})") from None

    def seed(self, seed: int | None) -> None:
        """Seeds the action spaces' sampling (one stream per agent) when a seed is given."""
        if seed is not None:
            for i, agent in enumerate(self.agents):
                self.action[agent].seed(seed + i)


class GameEnv:
    """What both environments do with their game: spaces, per-agent observations, reset with seeded chance.

    Mixed into the AEC and Parallel classes; `_set_game` is called from their constructors.
    """

    def _set_game(self, game: boardlab.Game, render_mode: str | None) -> None:
        self.game = game
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {**self.metadata, "name": f"boardlab_{game.name()}"}
        self._spaces = GameSpaces(game)
        self.possible_agents = self._spaces.agents[:]
        self.agents = []
        # The true state, for the environment's owner; not named `state`, which is PettingZoo's method
        # for a global observation.
        self.game_state = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self._spaces.observation[agent]

    def action_space(self, agent):
        return self._spaces.action[agent]

    def observe(self, agent: str) -> dict:
        self._check_started("observe")
        return observation(self.game_state, self._spaces.player(agent))

    # The two states in which a call has no game to act on, refused alike by both environments
    # with one ValueError, where PettingZoo's own bookkeeping would fail with an AttributeError
    # (nothing set up before reset) or a KeyError (an agent already removed).
    def _check_started(self, call: str) -> None:
        if self.game_state is None:
            raise ValueError(f"{call}(): call reset() first: there is no game yet")

    def _check_live(self, call: str) -> None:
        self._check_started(call)
        if not self.agents:
            raise ValueError(f"{call}(): the game is over: every agent is done, call reset()")

    def _new_game(self, seed: int | None) -> None:
        """A new game from the initial state, its leading chance nodes drawn from the seeded generator."""
        self._rng = np.random.default_rng(seed)
        self._spaces.seed(seed)
        self.game_state = self.game.new_initial_state()
        play_chance(self.game_state, self._rng)
        self.agents = self.possible_agents[:]

    def render(self, agent: str | None = None):
        """The game in the render mode: the whole board, or with `agent` what that agent may know (another's
        hidden pieces stay hidden until the game is over). PettingZoo's render() is the first form."""
        if self.game_state is None:
            return None
        view = None if agent is None else PlayerView(self.game_state, self._spaces.player(agent))
        return render_state(self.game_state, self.render_mode, view)

    def close(self):
        self.game_state = None


def observation(state: boardlab.State, player: int) -> dict:
    """What `player` sees: its own observation tensor (never another's) and its legal actions as an int8 mask."""
    # Zeros for a player who does not act now (another's turn, chance, the end).
    return {"observation": state.observation_tensor(player), "action_mask": state.legal_actions_mask(player)}


def integer_action(agent: str, action) -> int:
    """An action as a Python int: ints and numpy integers pass, anything else is a TypeError naming the agent."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"{agent}'s action must be an integer, not a bool")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"{agent}'s action must be an integer, not {type(action).__name__}") from None


def render_state(state: boardlab.State, render_mode: str | None, view: PlayerView | None = None):
    """The state, or where `view` is given only what it shows, as the render mode asks."""
    if render_mode == "svg":
        return boardlab.render.view_svg(view) if view else boardlab.render.svg(state)
    text = boardlab.render.view_text(view) if view else str(state)
    if render_mode == "human":
        print(text)
        return None
    return text
