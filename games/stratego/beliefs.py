"""What a Stratego agent believes about the enemy pieces it has not identified: P(kind) per square from its weighted deals, and heat maps of it.

An agent's beliefs (boardlab.Agent.beliefs) are deals drawn from its seat's view, each weighed by
how likely the enemy's past decisions (its setup steps and moves) are in that deal under the
agent's network. Averaging the deals' pieces by weight gives P(kind | square) for every enemy
piece; the same deals averaged with equal weights are what the view alone says (a piece that
moved is neither a Bomb nor the Flag, a revealed one is known), so the two maps side by side
show what the enemy's moves told the agent.

    import beliefs  # with games/stratego on sys.path
    agent = boardlab.load_agent("runs/stratego_barrage/checkpoints/latest.pt")
    maps = beliefs.kind_probabilities(agent, state, player=0, deals=256)
    beliefs.plot(maps, state, kinds="FBX1")
"""

import numpy as np

FILES = "abcdefghik"
KINDS = "123456789XBF"  # the labels of State.diagram()'s pieces, Spy to Marshal, Bomb, Flag
NAMES = dict(zip(KINDS, ("Spy", "Scout", "Miner", "Sergeant", "Lieutenant", "Captain", "Major", "Colonel",
                         "General", "Marshal", "Bomb", "Flag")))


def _enemy_kinds(state, enemy: int) -> np.ndarray:
    """[rank, file, kind]: 1 where `enemy` has a piece of that kind in this whole state."""
    out = np.zeros((10, 10, len(KINDS)))
    for piece in state.diagram()["pieces"]:  # the whole state's: every rank shown
        if piece["owner"] == enemy:
            out[int(piece["y"]), int(piece["x"]), KINDS.index(piece["label"])] = 1
    return out


def kind_probabilities(agent, state, player=None, deals: int = 256, window: int = 0, floor: float = 0.1,
                       seed: int = 0) -> dict:
    """P(kind | square) of `player`'s enemy pieces (default player: the mover), a dict:
    posterior and prior ([rank, file, kind] arrays over KINDS, rank 0 the first rank: each square
    with an enemy piece sums to 1, every other square to 0), from the agent's weighted deals and
    from the same deals weighed alike; effective_deals; player and enemy."""
    belief = agent.beliefs(state, player, deals=deals, window=window, floor=floor, seed=seed)
    enemy = 1 - belief["player"]
    pieces = np.stack([_enemy_kinds(deal, enemy) for deal in belief["deals"]])
    weights = np.asarray(belief["weights"])
    return {
        "posterior": np.tensordot(weights, pieces, axes=1),
        "prior": pieces.mean(axis=0),
        "effective_deals": float(belief["effective_deals"]),
        "player": belief["player"],
        "enemy": enemy,
    }


def plot(maps: dict, state=None, kinds: str = "FBX1"):
    """A figure of heat maps, one column per kind in `kinds` (characters of KINDS), the prior on
    top and the posterior below, the board from the believing player's side (its own first rank
    at the bottom). With the whole `state`, a ring marks where each such enemy piece really is."""
    import matplotlib.pyplot as plt

    for kind in kinds:
        if kind not in KINDS:
            raise ValueError(f"kinds: {kind!r} is not one of {KINDS}")
    truth = _enemy_kinds(state, maps["enemy"]) if state is not None else None
    blue = maps["player"] == 1
    fig, axes = plt.subplots(2, len(kinds), figsize=(2.6 * len(kinds), 5.6), squeeze=False)
    for column, kind in enumerate(kinds):
        k = KINDS.index(kind)
        for row, (label, grid) in enumerate((("view alone", maps["prior"]), ("after the moves", maps["posterior"]))):
            ax = axes[row][column]
            picture = grid[:, :, k]
            shown = picture[::-1, ::-1] if blue else picture  # Blue looks from rank 10
            ax.imshow(shown, origin="lower", cmap="viridis", vmin=0, vmax=1)
            if truth is not None:
                real = truth[:, :, k][::-1, ::-1] if blue else truth[:, :, k]
                ranks, files = np.nonzero(real)
                ax.scatter(files, ranks, s=90, facecolors="none", edgecolors="red", linewidths=1.5)
            order = FILES[::-1] if blue else FILES
            ax.set_xticks(range(10), list(order), fontsize=7)
            ax.set_yticks(range(10), [str(10 - r if blue else r + 1) for r in range(10)], fontsize=7)
            ax.set_title(f"{NAMES[kind]}: {label}", fontsize=9)
    fig.suptitle(f"P(kind) of each enemy piece, {maps['effective_deals']:.0f} effective deals"
                 + (" (rings: where it is)" if truth is not None else ""), fontsize=10)
    fig.tight_layout()
    return fig
