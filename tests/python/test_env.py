"""The AEC environment against PettingZoo's documented API (the checks its api_test makes), with random agents."""

import numpy as np
import pytest

import boardlab
from boardlab import env as envs


def play_random_game(environment, seed):
    """Random legal agents to the end; returns (steps, per-agent reward sums, final returns, sub-move repeats)."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {agent: 0.0 for agent in environment.possible_agents}
    steps = 0
    repeats = 0
    previous = None
    returns = None
    for agent in environment.agent_iter(max_iter=10_000):
        observation, reward, termination, truncation, info = environment.last()
        totals[agent] += reward
        # Shapes, dtypes and the space itself.
        space = environment.observation_space(agent)
        assert space.contains(observation)
        assert observation["observation"].dtype == np.float32
        assert observation["action_mask"].dtype == np.int8
        assert type(termination) is bool and type(truncation) is bool
        assert isinstance(info, dict)
        assert np.isscalar(reward)
        if termination or truncation:
            if returns is None:
                returns = environment.game_state.returns()
            assert environment.step(None) is None
            continue
        mask = observation["action_mask"]
        legal = environment.game_state.legal_actions()
        assert np.flatnonzero(mask).tolist() == legal
        action = np.int32(rng.choice(legal))
        repeats += agent == previous
        previous = agent
        assert environment.step(action) is None
        steps += 1
        # After every step, the bookkeeping dicts cover exactly the live agents.
        for table in (environment.rewards, environment.terminations, environment.truncations, environment.infos):
            assert set(table) == set(environment.agents)
    return steps, totals, returns, repeats


@pytest.mark.parametrize("params", [{}, {"strict": True}])
def test_random_agents_to_the_end_of_many_games(params):
    environment = envs.env("virus_war", **params)
    for seed in range(30):
        steps, totals, returns, repeats = play_random_game(environment, seed)
        assert steps > 0 and repeats > 0  # Virus War's sub-moves: the same agent again
        # The rewards each agent collected sum to its return.
        assert [totals[a] for a in environment.possible_agents] == pytest.approx(returns)
        assert environment.agents == []


def test_reset_with_a_seed_reproduces_the_game():
    environment = envs.env("virus_war")
    histories = []
    for _ in range(2):
        play_random_game(environment, 7)
        histories.append(environment.game_state.history() if environment.game_state else None)
    assert histories[0] == histories[1]
    environment.reset(seed=3)
    first = environment.observe(environment.agent_selection)
    environment.reset(seed=3)
    again = environment.observe(environment.agent_selection)
    assert np.array_equal(first["observation"], again["observation"])
    environment.reset(seed=None, options=None)  # both keywords are accepted


def test_spaces_are_the_same_objects_every_call():
    environment = envs.env("virus_war")
    for agent in environment.possible_agents:
        assert environment.observation_space(agent) is environment.observation_space(agent)
        assert environment.action_space(agent) is environment.action_space(agent)
        assert environment.action_space(agent).n == 101
        assert environment.observation_space(agent)["observation"].shape == (10, 10, 10)


def test_masks_are_zero_for_the_agent_not_to_move():
    environment = envs.env("virus_war")
    environment.reset()
    other = environment.possible_agents[1 - environment.possible_agents.index(environment.agent_selection)]
    assert not environment.observe(other)["action_mask"].any()


def test_illegal_action_raises_with_the_reason_and_changes_nothing():
    environment = envs.env("virus_war")
    environment.reset()
    with pytest.raises(ValueError, match="must enter at a1|only placement is a1"):
        environment.step(55)
    assert environment.game_state.history() == []
    with pytest.raises(ValueError, match="needs an action"):
        environment.step(None)


def test_calls_before_reset_and_after_the_end_are_one_clear_value_error():
    # Issue 36: AttributeError before reset(), and KeyError: 'player_1' from a step once every
    # agent was done; now the one ValueError the Parallel environment gives too.
    environment = envs.env("virus_war")
    assert environment.agent_selection is None and environment.agents == []
    before = r"call reset\(\) first: there is no game yet$"
    for name, call in [("step", lambda: environment.step(0)), ("last", environment.last),
                       ("observe", lambda: environment.observe("player_0"))]:
        with pytest.raises(ValueError, match=f"^{name}\\(\\): {before}"):
            call()
    assert list(environment.agent_iter()) == []  # no agent to iterate before reset() either
    play_random_game(environment, 0)
    assert environment.agents == []
    over = r"the game is over: every agent is done, call reset\(\)$"
    for name, call in [("step", lambda: environment.step(None)), ("step", lambda: environment.step(0)),
                       ("last", environment.last)]:
        with pytest.raises(ValueError, match=f"^{name}\\(\\): {over}"):
            call()
    # The final position can still be observed, and reset() starts again.
    assert not environment.observe("player_1")["action_mask"].any()
    environment.reset(seed=1)
    assert environment.last()[2] is False
    environment.close()
    with pytest.raises(ValueError, match=before):
        environment.last()


def test_render_modes():
    environment = envs.env("virus_war", render_mode="ansi")
    environment.reset()
    assert "X to move" in environment.render()
    assert envs.env("virus_war", render_mode="svg").render() is None  # before reset
    svg_env = envs.env("virus_war", render_mode="svg")
    svg_env.reset()
    assert svg_env.render().startswith("<svg")
    with pytest.raises(ValueError, match="render_mode"):
        envs.env("virus_war", render_mode="rgb_array")


def test_a_game_object_or_a_string_with_parameters():
    game = boardlab.load_game("virus_war(strict=true)")
    assert envs.aec_env(game).game == game
    assert envs.aec_env("virus_war", strict=True).game == game
    with pytest.raises(ValueError, match="no parameter 'nope'"):
        envs.aec_env("virus_war", nope=1)


def test_stand_in_spaces_behave_like_gymnasium():
    environment = envs.env("virus_war")
    environment.reset(seed=1)
    agent = environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    space = environment.action_space(agent)
    assert all(space.sample(mask) == 0 for _ in range(5))  # only a1 is legal at the start
    assert space.contains(100) and not space.contains(101) and not space.contains(True)
