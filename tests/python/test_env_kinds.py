"""The AEC and Parallel environments on every kind of game: PettingZoo's rules, chance, hidden information, sub-moves, n agents, truncation."""

from collections import Counter

import numpy as np
import pytest

import boardlab
from boardlab import env as envs
from helpers import ALL_GAMES, load_any
from pettingzoo_rules import check_aec_game, check_parallel_game

TURN_BASED = [name for name in ALL_GAMES if not load_any(name).type().simultaneous]
SIMULTANEOUS = [name for name in ALL_GAMES if load_any(name).type().simultaneous]


def test_every_game_has_an_environment():
    assert {"toy_race", "kuhn_poker", "leduc_poker", "virus_war", "morabaraba"} <= set(TURN_BASED)
    assert {"biased_rps", "biased_rps(rounds=3)", "squares"} <= set(SIMULTANEOUS)


@pytest.mark.parametrize("name", TURN_BASED)
def test_aec_rules_on_every_turn_based_game(name):
    environment = envs.aec_env(load_any(name))
    rng = np.random.default_rng(0)
    # Eight games of the small ones (the toy, the poker benchmarks), two of the board games.
    for seed in range(8 if environment.game.max_game_length() <= 20 else 2):
        game = check_aec_game(environment, seed, rng)
        # The rewards each agent collected are its return.
        assert [game["rewards"][a] for a in environment.possible_agents] == pytest.approx(game["returns"])
        assert game["ended"] == ("truncation" if environment.game_state.is_truncated() else "termination")


@pytest.mark.parametrize("name", SIMULTANEOUS)
def test_parallel_rules_on_every_simultaneous_game(name):
    environment = envs.parallel_env(load_any(name))
    rng = np.random.default_rng(0)
    for seed in range(8):
        game = check_parallel_game(environment, seed, rng)
        # Every step is one round of the game, which counts its rounds as turns.
        assert game["rounds"] == environment.game_state.move_number()
        if "rounds" in environment.game.parameters():  # biased_rps plays a fixed number of rounds
            assert game["rounds"] == environment.game.parameters()["rounds"]
        assert [game["rewards"][a] for a in environment.possible_agents] == pytest.approx(game["returns"])
        assert game["ended"] == "termination"


def test_pettingzoo_own_api_tests(load_toy):
    pytest.importorskip("pettingzoo", reason="PettingZoo is not a Debian package; the rules above stand in for it")
    from pettingzoo.test import api_test, parallel_api_test

    for game in (boardlab.load_game("kuhn_poker"), load_toy("toy_race"), boardlab.load_game("virus_war")):
        api_test(envs.aec_env(game), num_cycles=100)
    parallel_api_test(envs.parallel_env(boardlab.load_game("biased_rps(rounds=3)")), num_cycles=100)


def test_each_environment_refuses_the_other_kind_of_game():
    with pytest.raises(ValueError, match="biased_rps\\(rounds=1\\) has simultaneous moves: use boardlab.env.parallel_env"):
        envs.aec_env(boardlab.load_game("biased_rps"))
    with pytest.raises(ValueError, match="virus_war\\(strict=false\\) is turn-based .*use boardlab.env.aec_env"):
        envs.parallel_env("virus_war")
    with pytest.raises(ValueError, match="parameters \\['rounds'\\] given with a Game object"):
        envs.parallel_env(boardlab.load_game("biased_rps"), rounds=2)


def test_aec_chance_is_played_by_the_environment_reproducibly():
    environment = envs.aec_env(boardlab.load_game("kuhn_poker"))
    deals = Counter()
    for seed in range(90):
        environment.reset(seed=seed)
        state = environment.game_state
        # Both cards are dealt before any agent is selected; chance never is one.
        assert [p for p, _ in state.full_history()] == [boardlab.CHANCE_PLAYER] * 2
        assert environment.agent_selection == "player_0"
        deals[state.record()] += 1
        environment.reset(seed=seed)
        assert environment.game_state.record() == state.record()  # the seed reproduces the deal
    # Six deals, each with probability 1/6.
    assert set(deals) == {"J Q", "J K", "Q J", "Q K", "K J", "K Q"}
    assert min(deals.values()) >= 5


def test_aec_agents_see_only_their_own_view():
    environment = envs.aec_env(boardlab.load_game("kuhn_poker"))
    seen_by_card = {}
    for seed in range(60):
        environment.reset(seed=seed)
        state = environment.game_state
        for player, agent in enumerate(environment.possible_agents):
            observation = environment.observe(agent)["observation"]
            assert np.array_equal(observation, state.observation_tensor(player))
        # Player 0's first observation depends on its own card only, not on player 1's.
        own_card = state.record_for(0).split()[0]
        first = environment.observe("player_0")["observation"].tobytes()
        assert seen_by_card.setdefault(own_card, first) == first
    assert len(seen_by_card) == 3


@pytest.mark.parametrize("mode", ["ansi", "svg"])
def test_aec_renders_one_agents_view_of_hidden_pieces(mode):
    # Barrage with both setups drawn by chance: after reset the pieces stand, each side hidden from the other.
    environment = envs.aec_env(boardlab.load_game("stratego(variant=barrage,setup=random)"), render_mode=mode)
    environment.reset(seed=3)
    state = environment.game_state
    assert not state.is_chance_node() and not state.is_terminal()
    mine = environment.render("player_0")
    assert mine != environment.render()  # the whole board shows Blue's pieces; Red's view does not
    # A state Red cannot tell apart from this one, Blue's pieces drawn again, looks the same to Red.
    other = state.sample_hidden(0, seed=11)
    assert str(other) != str(state)
    environment.game_state = other
    assert environment.render("player_0") == mine
    assert environment.render("player_1") != mine
    with pytest.raises(ValueError, match="unknown agent"):
        environment.render("player_7")


def test_aec_sub_moves_and_four_agents(load_toy):
    environment = envs.aec_env(load_toy("toy_race(players=4,tokens=9)"))
    assert environment.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    game = check_aec_game(environment, 3, np.random.default_rng(3))
    repeats = sum(a == b for a, b in zip(game["selected"], game["selected"][1:]))
    assert repeats > 0  # the same agent selected again for its second sub-move
    # Rank returns: more tokens, a higher reward; equal tokens, equal rewards.
    held = [0] * 4
    for player, action in environment.game_state.full_history():
        held[player] += (1, 2, 0)[action]
    assert sum(held) == 9
    rewards = [game["rewards"][agent] for agent in environment.possible_agents]
    for p in range(4):
        for q in range(4):
            assert (held[p] > held[q]) == (rewards[p] > rewards[q])
    assert sum(rewards) == pytest.approx(0)


def test_aec_truncation_by_a_move_cap():
    environment = envs.aec_env("morabaraba", move_cap=10)
    environment.reset(seed=0)
    rng = np.random.default_rng(0)
    flags = []
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        if termination or truncation:
            flags.append((agent, termination, truncation, reward))
            environment.step(None)
        else:
            environment.step(rng.choice(np.flatnonzero(observation["action_mask"])))
    # 10 plies cannot decide the game: the cap ends it as truncated, not terminated.
    assert environment.game_state.is_truncated()
    assert flags == [("player_0", False, True, 0.0), ("player_1", False, True, 0.0)]


def test_aec_termination_by_the_rules():
    environment = envs.aec_env("virus_war")
    game = check_aec_game(environment, 5, np.random.default_rng(5))
    assert game["ended"] == "termination" and not environment.game_state.is_truncated()


# On the 10x10 board random War players hardly ever reach a general; on 11x11 about one game in three.
@pytest.mark.parametrize("name", ["klopodavka(players=4)", "war(players=4,width=11,height=11)"])
def test_aec_a_player_knocked_out_leaves_while_the_others_play_on(name):
    # PettingZoo's convention for an agent that finishes early: terminated when it is out, with
    # its settled return, stepped once with None, gone from `agents`; then the mover is selected.
    environment = envs.aec_env(name)
    rng = np.random.default_rng(0)
    for seed in range(20):
        environment.reset(seed=seed)
        early = {}
        for agent in environment.agent_iter():
            observation, reward, termination, truncation, _ = environment.last()
            state = environment.game_state
            if termination and not state.is_terminal():
                assert state.is_out(environment.possible_agents.index(agent))
                assert not observation["action_mask"].any()
                early[agent] = reward
                environment.step(None)
                assert agent not in environment.agents and len(environment.agents) > 1
                assert environment.agent_selection == environment.possible_agents[state.current_player()]
            elif termination or truncation:
                environment.step(None)
            else:
                environment.step(rng.choice(np.flatnonzero(observation["action_mask"])))
        if early:
            break
    assert early, f"no player of {name} went out before the end of 20 random games"
    returns = environment.game_state.returns()
    for agent, reward in early.items():
        assert reward == returns[environment.possible_agents.index(agent)] < max(returns)


def test_parallel_rounds_rewards_and_the_end():
    environment = envs.parallel_env(boardlab.load_game("biased_rps(rounds=3)"), render_mode="ansi")
    observations, infos = environment.reset(seed=1)
    assert environment.render() == "round 0, score 0.000000"
    mask = observations["player_0"]["action_mask"]
    assert mask.dtype == np.int8 and mask.tolist() == [1, 1, 1]
    assert infos == {"player_0": {}, "player_1": {}}
    space = environment.observation_space("player_1")
    for actions in ({"player_0": 0, "player_1": 1}, {"player_0": np.int32(2), "player_1": np.int64(1)}):
        observations, rewards, terminations, truncations, _ = environment.step(actions)
        assert rewards == {"player_0": 0.0, "player_1": 0.0}
        assert not any(terminations.values()) and environment.agents == ["player_0", "player_1"]
    # player_1 observes the last round from its own side: its paper first, then the other's scissors.
    assert observations["player_1"]["observation"].ravel()[:6].tolist() == [0, 1, 0, 0, 0, 1]
    assert environment.observation_space("player_1") is space
    observations, rewards, terminations, truncations, _ = environment.step({"player_0": 0, "player_1": 2})
    # R/P, S/P, R/S: -1/2, +1/2, +1 for player 0, a mean of 1/3.
    assert rewards == {"player_0": pytest.approx(1 / 3), "player_1": pytest.approx(-1 / 3)}
    assert terminations == {"player_0": True, "player_1": True}
    assert truncations == {"player_0": False, "player_1": False}
    assert environment.agents == [] and set(observations) == {"player_0", "player_1"}
    assert environment.game_state.record() == "R/P S/P R/S"
    with pytest.raises(ValueError, match=r"^step\(\): the game is over: every agent is done, call reset\(\)$"):
        environment.step({})


def test_parallel_step_before_reset_says_so():
    # The one refusal the AEC environment gives too (test_env.py), not "the game is over".
    environment = envs.parallel_env(boardlab.load_game("biased_rps(rounds=1)"))
    for call in (lambda: environment.step({"player_0": 0, "player_1": 0}), lambda: environment.observe("player_0")):
        with pytest.raises(ValueError, match=r"call reset\(\) first: there is no game yet$"):
            call()
    environment.reset()
    environment.close()
    with pytest.raises(ValueError, match=r"^step\(\): call reset\(\) first"):
        environment.step({"player_0": 0, "player_1": 0})


def test_parallel_step_errors_change_nothing():
    environment = envs.parallel_env(boardlab.load_game("biased_rps(rounds=2)"))
    environment.reset()
    cases = [
        ({"player_0": 0}, "no action for player_1"),
        ({"player_0": 0, "player_1": None}, "no action for player_1"),
        ({"player_0": 0, "player_1": 1, "player_7": 0}, "player_7"),
        ({"player_0": 3, "player_1": 1}, "action 3 is outside 0..2"),
    ]
    for actions, message in cases:
        with pytest.raises(ValueError, match=message):
            environment.step(actions)
        assert environment.game_state.history() == [] and environment.agents == ["player_0", "player_1"]
    with pytest.raises(TypeError, match="player_1's action must be an integer, not float"):
        environment.step({"player_0": 0, "player_1": 1.0})
    assert environment.game_state.history() == []


def test_parallel_reset_is_reproducible_and_seeds_the_action_spaces():
    environment = envs.parallel_env(boardlab.load_game("biased_rps(rounds=3)"))
    draws = []
    for _ in range(2):
        environment.reset(seed=4)
        draws.append([environment.action_space("player_0").sample() for _ in range(10)])
    assert draws[0] == draws[1]
    assert environment.metadata["is_parallelizable"] and environment.metadata["name"] == "boardlab_biased_rps"


def test_aec_step_rejects_non_integer_actions(load_toy):
    environment = envs.aec_env(load_toy("toy_race"))
    environment.reset()
    with pytest.raises(TypeError, match="player_0's action must be an integer, not float"):
        environment.step(1.0)
    with pytest.raises(TypeError, match="not a bool"):
        environment.step(True)
    assert environment.game_state.history() == []
