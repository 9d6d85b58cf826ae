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
    agents (and `render(agent)` draws only what `agent` may know). A game ended by a cap that is
    not a rule (`is_truncated()`) sets `truncations`, a game ended by its rules `terminations`.
    A player knocked out of a game that goes on (Klopodavka, War: `is_out`) is terminated at
    once with its settled return, selected next to be stepped with None, and leaves `agents`;
    the others play on. `step`, `last` and `observe` before `reset()`, and `step` or `last`
    once every agent is done, raise one ValueError saying so.
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
        self._skip_agent_selection = None  # PettingZoo's: the agent to select after the dead ones' last steps
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
        """Plays chance, then ends the game for the agents it is over for, and selects the agent to act."""
        play_chance(self.game_state, self._rng)
        state = self.game_state
        returns = state.returns()
        ended = self.truncations if state.is_truncated() else self.terminations
        for agent in self.agents:
            player = self._spaces.player(agent)
            if not (self.terminations[agent] or self.truncations[agent]) and (
                state.is_terminal() or state.is_out(player)
            ):
                self.rewards[agent] = float(returns[player])
                (ended if state.is_terminal() else self.terminations)[agent] = True
        if state.is_terminal():
            # PettingZoo's convention: every agent is then selected once, to be stepped with None.
            self.agent_selection = self.agents[0]
            return
        # An agent just knocked out is selected first, to be stepped with None; then the mover.
        self.agent_selection = self.possible_agents[state.current_player()]
        self._deads_step_first()
