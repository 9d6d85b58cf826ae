"""PettingZoo-style environments for every boardlab game: AEC for turn-based games (sub-moves included).

With `pettingzoo` installed the environments are real `pettingzoo.AECEnv` instances and pass
its API test; without it, a minimal stand-in base class with the same behaviour is used.
Agents are "player_0", "player_1", ...; an agent making sub-moves is selected again.
Observations are {"observation": float32 C×H×W from the agent's point of view,
"action_mask": int8 legal-action mask (zeros when it is not the agent's move)}.
Rewards come only at the end: the game's returns.
"""

import numpy as np

import boardlab
from boardlab.spaces import Box, Dict, Discrete

try:  # pragma: no cover - depends on the user's machine
    from pettingzoo import AECEnv

    HAVE_PETTINGZOO = True
except ImportError:
    HAVE_PETTINGZOO = False

    class AECEnv:
        """The part of pettingzoo.AECEnv that boardlab's environments rely on."""

        metadata: dict = {}

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

        def _was_dead_step(self, action):
            if action is not None:
                raise ValueError("when an agent is dead, the only valid action is None")
            agent = self.agent_selection
            del self.terminations[agent]
            del self.truncations[agent]
            del self.rewards[agent]
            del self._cumulative_rewards[agent]
            del self.infos[agent]
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            self._clear_rewards()

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


class BoardlabAECEnv(AECEnv):
    """One boardlab game as an AEC environment."""

    metadata = {"render_modes": ["ansi", "human", "svg"], "name": "boardlab", "is_parallelizable": False}

    def __init__(self, game: "str | boardlab.Game", render_mode: str | None = None, **params):
        super().__init__()
        self.game = game if isinstance(game, boardlab.Game) else boardlab.load_game(game, **params)
        if self.game.is_simultaneous():
            raise ValueError(f"{self.game} has simultaneous moves: use parallel_env()")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"boardlab_{self.game.name()}"}
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players())]
        n = self.game.num_distinct_actions()
        shape = self.game.observation_shape()
        # The same space objects on every call (PettingZoo's API test checks identity).
        self._observation_spaces = {
            agent: Dict(
                {
                    "observation": Box(0.0, 1.0, shape=shape, dtype=np.float32),
                    "action_mask": Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: Discrete(n) for agent in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def _player(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        # The games are deterministic: the seed seeds the action spaces' sampling.
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + i)
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict:
        player = self._player(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == player:
            mask = self.state.legal_actions_mask()
        return {"observation": self.state.observation_tensor(player), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: step() needs an action, not None")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.state.apply_action(int(action))  # an illegal action raises ValueError with the reason
        if self.state.is_terminal():
            returns = self.state.returns()
            for agent_name in self.agents:
                self.rewards[agent_name] = float(returns[self._player(agent_name)])
                self.terminations[agent_name] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.state is None:
            return None
        if self.render_mode == "svg":
            return boardlab.render.svg(self.state)
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.state = None


def aec_env(game: "str | boardlab.Game", render_mode: str | None = None, **params) -> BoardlabAECEnv:
    """An AEC environment for a turn-based game: aec_env("virus_war", strict=True)."""
    return BoardlabAECEnv(game, render_mode=render_mode, **params)


def env(game: "str | boardlab.Game", render_mode: str | None = None, **params) -> BoardlabAECEnv:
    """PettingZoo's conventional name for the AEC constructor."""
    return aec_env(game, render_mode=render_mode, **params)
