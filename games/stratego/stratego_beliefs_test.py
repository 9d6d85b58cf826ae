"""Agent.beliefs (deals weighed by the enemy's past decisions under the agent's network) and games/stratego/beliefs.py's maps of them."""

import numpy as np
import pytest

import boardlab
from conftest import REPO, TINY_TRAINING
from helpers import load_script

beliefs = load_script(REPO / "games" / "stratego" / "beliefs.py", "stratego_beliefs")


def _agent(tmp_path, config, steps):
    run = boardlab.train(REPO / "configs" / config, [*TINY_TRAINING, f"run.max_steps={steps}"], out=tmp_path / "run",
                         log=lambda line: None)
    return boardlab.load_agent(run.latest_checkpoint, simulations=2)


def test_each_deal_is_weighed_by_the_likelihood_of_the_enemys_decisions_in_it(tmp_path):
    agent = _agent(tmp_path, "kuhn_poker.yaml", 20)
    game = agent.game()
    state = game.new_initial_state()
    for action in (2, 0, 1):  # player 0 holds the king, player 1 the jack; player 0 bets
        state.apply_action(action)
    floor = 0.25
    belief = agent.beliefs(state, deals=200, floor=floor, seed=3)
    assert belief["player"] == 1
    # Player 1 cannot tell the queen from the king: every deal keeps its own jack, both cards
    # of player 0 turn up among 200 draws.
    held = {deal.history()[0] for deal in belief["deals"]}
    assert held == {1, 2} and {deal.history()[1] for deal in belief["deals"]} == {0}
    # Bayes' rule by hand: each deal's weight is the network's probability of player 0's bet
    # holding that deal's card, mixed with the floor, normalised over the drawn deals.
    likelihood = []
    for deal in belief["deals"]:
        before = game.new_initial_state()
        for action in deal.history()[:2]:
            before.apply_action(action)
        prior = agent.policy(before, 0)[0]
        likelihood.append((1 - floor) * prior[1] / (prior[0] + prior[1]) + floor / 2)
    expected = np.array(likelihood) / sum(likelihood)
    assert np.allclose(belief["weights"], expected, atol=1e-5)
    assert sum(belief["weights"]) == pytest.approx(1)
    assert 1 <= belief["effective_deals"] <= 200


def test_an_agent_refuses_beliefs_it_cannot_have(tmp_path):
    kuhn = _agent(tmp_path, "kuhn_poker.yaml", 2)
    state = kuhn.game().new_initial_state()
    for action in (2, 0):
        state.apply_action(action)
    with pytest.raises(boardlab.InputError, match="beliefs: floor is the uniform share .* not 1.5"):
        kuhn.beliefs(state, floor=1.5)
    with pytest.raises(boardlab.InputError, match="beliefs: deals"):
        kuhn.beliefs(state, deals=0)
    with pytest.raises(boardlab.InputError, match="beliefs: player 2 is not a seat"):
        kuhn.beliefs(state, player=2)
    virus_war = _agent(tmp_path / "v", "virus_war.yaml", 2)
    with pytest.raises(boardlab.InputError, match="beliefs: virus_war hides nothing from any player"):
        virus_war.beliefs(virus_war.game().new_initial_state())


def test_the_maps_give_each_enemy_piece_a_kind_and_keep_what_the_view_rules_out(tmp_path):
    agent = _agent(tmp_path, "stratego_barrage.yaml", 2)
    state = agent.game().new_initial_state()
    rng = np.random.default_rng(5)
    # Both sides set up, then random moves until Blue has moved a piece and Red is to move.
    while not (state.observation_tensor(0)[27].any() and state.current_player() == 0):
        state.apply_action(int(rng.choice(state.legal_actions())))
        assert not state.is_terminal()
    maps = beliefs.kind_probabilities(agent, state, deals=32, seed=1)
    assert maps["player"] == 0 and maps["enemy"] == 1
    truth = beliefs._enemy_kinds(state, 1)
    for name in ("prior", "posterior"):
        grid = maps[name]
        # Every square Blue holds sums to 1 over the kinds, every other square to 0, and each
        # kind's total is the number of Blue's pieces of that kind still on the board.
        assert np.allclose(grid.sum(axis=2), truth.sum(axis=2))
        assert np.allclose(grid.sum(axis=(0, 1)), truth.sum(axis=(0, 1)))
        # A Blue piece that moved (observation plane 27, in Red's frame: the board's) is
        # neither a Bomb nor the Flag in any deal.
        moved = state.observation_tensor(0)[27] > 0
        for kind in "BF":
            assert np.all(grid[:, :, beliefs.KINDS.index(kind)][moved] == 0)
    assert 1 <= maps["effective_deals"] <= 32
    assert len(beliefs.plot(maps, state, kinds="FB").axes) == 4
    with pytest.raises(ValueError, match="kinds: 'Q' is not one of 123456789XBF"):
        beliefs.plot(maps, kinds="FQ")
