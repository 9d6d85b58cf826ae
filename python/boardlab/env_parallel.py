"""The Parallel environment: one boardlab game of simultaneous moves as a PettingZoo ParallelEnv."""

import boardlab
from boardlab.chance import play_chance
from boardlab.env_base import RENDER_MODES, ParallelEnv, GameEnv, integer_action, load_env_game


class BoardlabParallelEnv(GameEnv, ParallelEnv):
    """One boardlab game with simultaneous moves as a Parallel environment.

    `step({agent: action})` plays one round: at a simultaneous node every live agent gives its
    action and they are applied together; at a node where one seat acts alone only its action
    is used (the others' masks are zeros and their entries may be left out). Chance nodes are
    played by the environment with the generator `reset(seed)` seeds. When the game ends every
    agent leaves `agents` in the same step; a game ended by a cap that is not a rule sets
    `truncations`, one ended by its rules `terminations`.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "boardlab", "is_parallelizable": True}

    def __init__(self, game: "str | boardlab.Game", render_mode: str | None = None, **params):
        super().__init__()
        game = load_env_game(game, params)
        if not game.type().simultaneous:
            raise ValueError(
                f"{game} is turn-based (no simultaneous moves): use boardlab.env.aec_env() "
                "(PettingZoo's AEC API), not the Parallel environment"
            )
        self._set_game(game, render_mode)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._new_game(seed)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict):
        self._check_live("step")
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ValueError(f"actions for {sorted(unknown)}, who are not live agents (agents: {self.agents})")
        state = self.game_state
        if state.is_simultaneous_node():
            missing = [agent for agent in self.agents if actions.get(agent) is None]
            if missing:
                raise ValueError(f"every seat acts at once here: no action for {', '.join(missing)}")
            state.apply_actions([integer_action(agent, actions[agent]) for agent in self.agents])
        else:
            mover = self.possible_agents[state.current_player()]
            if actions.get(mover) is None:
                raise ValueError(f"{mover} acts alone here and gave no action")
            state.apply_action(integer_action(mover, actions[mover]))
        play_chance(state, self._rng)

        live = self.agents
        observations = self._observations()
        rewards = {agent: 0.0 for agent in live}
        terminations = {agent: False for agent in live}
        truncations = {agent: False for agent in live}
        infos = {agent: {} for agent in live}
        if state.is_terminal():
            returns = state.returns()
            ended = truncations if state.is_truncated() else terminations
            for agent in live:
                rewards[agent] = float(returns[self._spaces.player(agent)])
                ended[agent] = True
            self.agents = []  # finished agents leave in the step that ends them
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict:
        return {agent: self.observe(agent) for agent in self.agents}
