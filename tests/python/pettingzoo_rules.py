"""The rules PettingZoo's api_test and parallel_api_test enforce (shared/PETTINGZOO.md), as assertions that run without PettingZoo."""

from collections import defaultdict

import numpy as np
import pytest

from boardlab.env_base import AECEnv


def _check_observation(env, agent, observation) -> None:
    space = env.observation_space(agent)
    assert space is env.observation_space(agent)  # rule 3: the same object on every call
    assert env.action_space(agent) is env.action_space(agent)
    assert space.contains(observation)  # rule 4: shape, bounds, dtype
    assert observation["observation"].dtype == space["observation"].dtype
    mask = observation["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space(agent).n,)  # rule 5


def check_aec_game(env, seed: int, rng: np.random.Generator) -> dict:
    """Plays one game with random legal actions, asserting the AEC rules after every step.

    Returns what happened: the agents selected in order, the final returns, and whether the
    game ended by termination or truncation.
    """
    assert isinstance(env, AECEnv)  # rule 1
    # Rule 12: render is overridden, so close is too.
    assert type(env).render is not getattr(AECEnv, "render", None) and type(env).close is not AECEnv.close
    env.reset(seed=seed, options=None)  # rule 2: both keywords
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    accumulated = defaultdict(float)
    totals = defaultdict(float)
    selected = []
    finished = set()
    ended = None
    for agent in env.agent_iter(max_iter=100_000):
        assert agent in env.possible_agents  # chance is never an agent
        observation, reward, termination, truncation, info = env.last()
        _check_observation(env, agent, observation)
        assert type(termination) is bool and type(truncation) is bool  # rule 6
        assert np.isscalar(reward) and not isinstance(reward, np.ndarray)  # rule 8
        assert isinstance(info, dict)
        assert reward == pytest.approx(accumulated[agent])  # rule 7: the sum since it last acted
        accumulated[agent] = 0
        totals[agent] += reward
        if termination or truncation:
            ended = ended or ("truncation" if truncation else "termination")
            assert not observation["action_mask"].any()
            finished.add(agent)
            action = None
        else:
            assert agent not in finished
            player = env.possible_agents.index(agent)
            legal = np.flatnonzero(observation["action_mask"])
            assert legal.tolist() == env.game_state.legal_actions(player)
            # Rule 11: numpy integers are actions.
            action = np.int32(rng.choice(legal))
            selected.append(agent)
        assert env.step(action) is None  # rule 11
        for other, value in env.rewards.items():
            accumulated[other] += value
        # Rule 9: the bookkeeping covers exactly the agents left.
        for table in (env.rewards, env.terminations, env.truncations, env.infos):
            assert set(table) == set(env.agents)
        assert env.num_agents == len(env.agents)
        # Rule 10: after the end the agents leave one by one, each stepped with None.
        if finished:
            assert len(env.agents) == len(env.possible_agents) - len(finished)
    assert env.agents == [] and finished == set(env.possible_agents)
    return {"selected": selected, "returns": env.game_state.returns(), "ended": ended, "rewards": dict(totals)}


def sample_masked(observation: dict, rng: np.random.Generator):
    legal = np.flatnonzero(observation["action_mask"])
    return rng.choice(legal) if len(legal) else 0


def check_parallel_game(env, seed: int, rng: np.random.Generator) -> dict:
    """Plays one game with random legal actions, asserting the Parallel rules after every step."""
    observations, infos = env.reset(seed=seed, options={"options": 1})
    assert isinstance(observations, dict) and isinstance(infos, dict)
    assert set(observations) == set(infos) == set(env.agents) == set(env.possible_agents)
    live = set(env.agents)
    totals = defaultdict(float)
    rounds = 0
    ended = None
    while live:
        for agent in env.agents:
            _check_observation(env, agent, observations[agent])
        actions = {agent: sample_masked(observations[agent], rng) for agent in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        rounds += 1
        for table in (observations, rewards, terminations, truncations, infos):
            assert isinstance(table, dict) and set(table) == live  # every agent live before the step
        for agent in live:
            assert type(terminations[agent]) is bool and type(truncations[agent]) is bool
            assert np.isscalar(rewards[agent]) and isinstance(infos[agent], dict)
            totals[agent] += rewards[agent]
        finished = {agent for agent in live if terminations[agent] or truncations[agent]}
        if finished:
            ended = "truncation" if any(truncations.values()) else "termination"
        live -= finished
        # Finished agents leave `agents` in the step that ends them, and never come back.
        assert set(env.agents) == live
        assert rounds <= env.game.max_game_length()
    return {"rounds": rounds, "returns": env.game_state.returns(), "ended": ended, "rewards": dict(totals)}
