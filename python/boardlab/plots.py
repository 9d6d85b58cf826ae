"""Training curves with matplotlib: losses, Elo with its 95% interval, throughput."""


def plot_metrics(run, figsize=(12, 3.5)):
    """Three panels from a Run (or run folder): losses, Elo ± 95% interval, positions/s. Returns the figure."""
    import matplotlib.pyplot as plt

    from boardlab.runs import Run

    if not isinstance(run, Run):
        run = Run.open(run)
    rows = run.metrics_rows()
    fig, (losses, elo, speed) = plt.subplots(1, 3, figsize=figsize)
    trained = [r for r in rows if r["total_loss"] is not None]
    steps = [r["step"] for r in trained]
    losses.plot(steps, [r["policy_loss"] for r in trained], label="policy", marker=".")
    losses.plot(steps, [r["value_loss"] for r in trained], label="value", marker=".")
    losses.set(title="losses", xlabel="step")
    losses.legend()
    rated = [r for r in rows if r["elo"] is not None]
    if rated:
        x = [r["step"] for r in rated]
        elo.plot(x, [r["elo"] for r in rated], marker="o")
        elo.fill_between(x, [r["elo_low"] for r in rated], [r["elo_high"] for r in rated], alpha=0.25)
    elo.set(title="Elo (random = 0), 95% interval", xlabel="step")
    speed.plot([r["step"] for r in rows], [r["positions_per_s"] for r in rows])
    speed.set(title="self-play positions/s", xlabel="step")
    fig.tight_layout()
    return fig
