"""Training curves with matplotlib: losses, Elo with its 95% interval, throughput, and the learning diagnostics."""


def _series(rows, key, x):
    points = [(r[x], r[key]) for r in rows if r.get(key) is not None and r.get(x) is not None]
    return [p[0] for p in points], [p[1] for p in points]


def plot_metrics(run, x="step", figsize=(15, 7)):
    """Six panels from a Run (or run folder), against `x` ("step", or "minutes" for a learning curve).

    Top: losses; Elo (random = 0) with its 95% interval and the score against each opponent at each
    evaluation; self-play positions/s.
    Bottom, the diagnostics that say why a policy does or does not learn: the policy's KL divergence
    from the search policy with both entropies; value calibration (mean predicted value for the mover
    against the mean result, by game phase); self-play draw and pass rates and game length.
    Returns the figure.
    """
    import matplotlib.pyplot as plt

    from boardlab.runs import Run

    if x not in ("step", "minutes"):
        raise ValueError(f"x must be 'step' or 'minutes', not {x!r}")
    if not isinstance(run, Run):
        run = Run.open(run)
    rows = run.metrics_rows()
    for r in rows:
        r["minutes"] = r["seconds"] / 60 if r.get("seconds") is not None else None
    fig, axes = plt.subplots(2, 3, figsize=figsize)
    (losses, elo, speed), (policy, value, games) = axes

    for key, label in (("policy_loss", "policy"), ("value_loss", "value"), ("ownership_loss", "ownership")):
        xs, ys = _series(rows, key, x)
        if any(ys):
            losses.plot(xs, ys, label=label, marker=".")
    losses.set(title="losses", xlabel=x)
    losses.legend()

    _plot_ratings(elo, rows, x)

    speed.plot(*_series(rows, "positions_per_s", x))
    speed.set(title="self-play positions/s", xlabel=x)

    for key, label in (
        ("policy_kl", "KL(search ‖ network)"),
        ("policy_entropy", "network entropy"),
        ("policy_target_entropy", "search policy entropy"),
    ):
        policy.plot(*_series(rows, key, x), label=label)
    policy.set(title="policy (nats)", xlabel=x)
    policy.legend()

    for phase, color in (("opening", "C0"), ("middle", "C1"), ("end", "C2")):
        value.plot(*_series(rows, f"value_predicted_{phase}", x), color=color, label=f"{phase}: predicted")
        value.plot(*_series(rows, f"value_outcome_{phase}", x), color=color, linestyle="--", label=f"{phase}: result")
    value.set(title="value calibration (mover's view)", xlabel=x)
    value.legend(fontsize="small")

    games.plot(*_series(rows, "draw_rate", x), label="draw rate")
    games.plot(*_series(rows, "pass_rate", x), label="pass rate (per turn)")
    games.set(title="self-play games", xlabel=x)
    games.legend(loc="upper left")
    length = games.twinx()
    length.plot(*_series(rows, "game_length", x), color="C3", label="game length (turns)")
    length.set(ylabel="turns")
    length.legend(loc="upper right")
    fig.tight_layout()
    return fig


def _plot_ratings(elo, rows: list[dict], x: str) -> None:
    """The ratings panel: the network's rating with its 95% interval, and its score against each opponent."""
    # The ladder rating (its rungs held at their stored ratings) rises as long as the ladder's top is
    # stronger; the evaluation's own fit, anchored at a random player the network always beats, goes flat.
    on_ladder = [r for r in rows if r.get("ladder_elo") is not None]
    rated = on_ladder or [r for r in rows if r.get("elo") is not None]
    key = "ladder_elo" if on_ladder else "elo"
    if rated:
        xs = [r[x] for r in rated]
        elo.plot(xs, [r[key] for r in rated], marker="o", label="ladder" if on_ladder else "Elo")
        low, high = ("ladder_low", "ladder_high") if on_ladder else ("elo_low", "elo_high")
        elo.fill_between(xs, [r[low] for r in rated], [r[high] for r in rated], alpha=0.25)
    title = "Elo on the game's ladder" if on_ladder else "Elo"
    elo.set(title=f"{title} (random = 0), 95% interval; scores", xlabel=x, ylabel="Elo")
    # A fit over a few games per opponent is dominated by the sure win against `random`, so the
    # panel also draws each opponent's score: that is where a run's progress against strong
    # opponents shows.
    opponents = sorted({key for r in rows for key in r if key.startswith("score_vs_") and r[key] is not None})
    if opponents:
        scores = elo.twinx()
        for i, key in enumerate(opponents):
            xs, ys = _series(rows, key, x)
            scores.plot(xs, [100 * y for y in ys], color=f"C{i + 1}", linestyle=":", marker=".", label=key[len("score_vs_") :])
        scores.set(ylabel="score %", ylim=(0, 100))
        scores.legend(loc="lower right", fontsize="small")
