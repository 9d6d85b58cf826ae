"""The AEC environment: one boardlab game of turns (sub-moves, n players, chance, hidden information) as a PettingZoo AECEnv."""

import boardlab
from boardlab.chance import play_chance
from boardlab.env_base import RENDER_MODES, AECEnv, GameEnv, integer_action, load_env_game


class BoardlabAECEnv(GameEnv, AECEnv):
    """One turn-based boardlab game as an AEC environment.

    The agent to act is the game's current player, so an agent making sub-moves is selected
    again. Chance nodes are played by the environment with the generator `reset(seed)` seeds,
    so a seed reproduces the game; chance is never an agent. Each agent observes only its own
    `observation_tensor(player)`; `env.game_state`, the true state, is for bookkeeping, not for
    agents (and `render(agent)` draws only what `agent` may know). A game ended by a cap that is not a rule (`is_truncated()`) sets `truncations`,
    a game ended by its rules `terminations`. `step`, `last` and `observe` before `reset()`,
    and `step` or `last` once every agent is done, raise one ValueError saying so.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "boardlab", "is_parallelizable": False}

    def __init__(self, game: "str | boardlab.Game", render_mode: str | None = None, **params):
        super().__init__()
        game = load_env_game(game, params)
        if game.type().simultaneous:
            raise ValueError(
                f"{game} has simultaneous moves: use boardlab.env.parallel_env() (PettingZoo's Parallel API), "
                "not the AEC environment"
            )
        self._set_game(game, render_mode)
        self.agent_selection = None  # until reset(): no agent is to act

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._new_game(seed)
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._after_move()
        self._accumulate_rewards()  # nonzero only for a game that chance alone ended

    def step(self, action) -> None:
        self._check_live("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: step() needs an action, not None")
        action = integer_action(agent, action)
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.game_state.apply_action(action)  # an illegal action raises ValueError with the reason, changing nothing
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True):
        self._check_live("last")
        return super().last(observe)

    def _after_move(self) -> None:
        """Plays chance, then selects the agent to act, or ends the game for everyone."""
        play_chance(self.game_state, self._rng)
        if not self.game_state.is_terminal():
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
            return
        returns = self.game_state.returns()
        ended = self.truncations if self.game_state.is_truncated() else self.terminations
        for agent in self.agents:
            self.rewards[agent] = float(returns[self._spaces.player(agent)])
            ended[agent] = True
        # PettingZoo's convention: every agent is then selected once, to be stepped with None.
        self.agent_selection = self.agents[0]
