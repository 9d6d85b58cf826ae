"""The Python API around runs: train() and Run, load_agent(), evaluate(), make_bot(), plot_metrics()."""

import numpy as np
import pytest

import boardlab

TINY = {
    "run.max_steps": 4,
    "replay.min_positions": 100,
    "self_play.lead_positions": 200,
    "self_play.concurrent_games": 4,
    "network.channels": 8,
    "network.blocks": 1,
    "evaluation.every_steps": 2,
    "evaluation.games": 2,
    "evaluation.simulations": 2,
    "evaluation.opponents": ["random"],
    "checkpoint.every_steps": 2,
}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from conftest import REPO

    lines = []
    result = boardlab.train(REPO / "configs" / "virus_war.yaml", TINY, out=tmp_path_factory.mktemp("runs") / "r", log=lines.append)
    assert lines and "training virus_war" in lines[0]
    return result


def test_train_returns_a_run_with_every_part(run):
    assert run.summary["steps"] == 4
    assert run.latest_checkpoint.is_file()
    assert [p.name for p in run.checkpoints][-1] == "step_000000004.pt"
    assert "network:" in run.config and "channels: 8" in run.config
    rows = run.metrics_rows()
    assert rows and rows[-1]["step"] == 4 and rows[-1]["policy_loss"] > 0
    assert set(run.evaluations) >= {2, 4}
    games = run.games
    assert games and all(len(g["returns"]) == 2 for g in games)
    state = boardlab.load_record("virus_war", games[0]["record"])
    assert state.is_terminal() and state.returns() == games[0]["returns"]
    assert "finished at step 4" in run.log


def test_run_open_and_resume(run):
    again = boardlab.Run.open(run.path)
    assert again.checkpoints == run.checkpoints
    again.resume(["run.max_steps=6"], log=lambda line: None)
    assert again.summary["steps"] == 6
    steps = [r["step"] for r in again.metrics_rows()]
    assert steps == sorted(steps) and steps[-1] == 6
    with pytest.raises(ValueError, match="not a boardlab run folder"):
        boardlab.Run.open(run.path / "checkpoints")


def test_overrides_as_a_dict_are_checked(tmp_path):
    from conftest import REPO

    with pytest.raises(ValueError, match="--set training.batch_size=lots: expected an integer"):
        boardlab.train(REPO / "configs" / "virus_war.yaml", {"training.batch_size": "lots"}, out=tmp_path / "x")
    with pytest.raises(ValueError, match="unknown key 'training.batchsize'"):
        boardlab.train(REPO / "configs" / "virus_war.yaml", ["training.batchsize=3"], out=tmp_path / "y")


def test_agent_acts_and_shows_its_policy_and_value(run):
    agent = boardlab.load_agent(run.latest_checkpoint, simulations=4)
    game = agent.game()
    state = game.load_record("a1-b2-c3")
    action = agent.act(state)
    assert action in state.legal_actions()
    prior, searched = agent.policy(state)
    assert prior.shape == searched.shape == (game.num_distinct_actions(),)
    legal = state.legal_actions_mask().astype(bool)
    assert prior[legal].sum() == pytest.approx(1, abs=1e-4) and not prior[~legal].any()
    assert searched[legal].sum() == pytest.approx(1, abs=1e-4) and not searched[~legal].any()
    value = agent.value(state)
    assert value.shape == (2,) and np.all(np.abs(value) <= 1)
    assert agent.spec.startswith("agent:") and agent.simulations == 4
    with pytest.raises(ValueError, match="plays virus_war\\(strict=false\\), not virus_war\\(strict=true\\)"):
        agent.act(boardlab.load_game("virus_war(strict=true)").new_initial_state())
    with pytest.raises(ValueError, match="does not exist"):
        boardlab.load_agent(run.path / "nope.pt")


def test_evaluate_with_names_and_agents(run):
    agent = boardlab.load_agent(run.latest_checkpoint, simulations=2)
    report = boardlab.evaluate(["random", "uct:10"], against=agent, games=2)
    assert {e["player"] for e in report["elo"]} == {agent.spec, "random", "uct:10"}
    assert len(report["games"]) == 4 and "vs" in report["table"]
    names_only = boardlab.evaluate(["random", "uct:10"], game="virus_war", games=2)
    assert len(names_only["pairings"]) == 1
    with pytest.raises(ValueError, match="name the game"):
        boardlab.evaluate(["random", "uct:10"])
    with pytest.raises(ValueError, match="not 3"):
        boardlab.evaluate(["random", 3], game="virus_war")


def test_make_bot_plays_legal_moves():
    game = boardlab.load_game("virus_war")
    bot = boardlab.make_bot("uct:10", game, seed=1)
    state = game.new_initial_state()
    for _ in range(10):
        action = bot.act(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_plot_metrics_draws_losses_elo_and_the_diagnostics(run):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    figure = boardlab.plot_metrics(run)
    losses, elo, speed, policy, value, games = figure.axes[:6]
    assert losses.lines  # the loss curves
    assert elo.lines and elo.lines[0].get_xdata().size >= 1  # every evaluation reaches the Elo panel
    scores = next(a for a in figure.axes[6:] if a.get_ylabel() == "score %")  # and each opponent's score
    assert {line.get_label() for line in scores.lines} >= {"random"}
    assert all(0 <= y <= 100 for line in scores.lines for y in line.get_ydata())
    assert policy.lines and value.lines and games.lines
    by_minutes = boardlab.plot_metrics(run, x="minutes")
    assert by_minutes.axes[1].get_xlabel() == "minutes"
    with pytest.raises(ValueError, match="step"):
        boardlab.plot_metrics(run, x="hours")


def test_checkpoints_load_in_python_torch(run):
    torch = pytest.importorskip("torch")
    archive = torch.jit.load(str(run.latest_checkpoint))
    parameters = dict(archive.named_parameters())
    assert "model.input_conv.weight" in parameters and "model.policy_fc.weight" in parameters
    assert parameters["model.policy_fc.weight"].shape[0] == 101  # one logit per Virus War action
    assert archive.step == int(run.checkpoints[-1].stem.split("_")[1])  # latest.pt is the newest step
    assert archive.game == "virus_war(strict=false)"
    assert "network:" in archive.config_yaml


def test_run_games_mark_the_games_a_cap_truncated(tmp_path):
    (tmp_path / "config.yaml").write_text("game: morabaraba\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "selfplay.txt").write_text("[1,-1] a1 d1\n[0,0] a1-a4 d1-d4 (truncated)\n")
    games = boardlab.Run(tmp_path).games
    assert games == [
        {"returns": [1.0, -1.0], "record": "a1 d1", "truncated": False},
        {"returns": [0.0, 0.0], "record": "a1-a4 d1-d4", "truncated": True},
    ]
