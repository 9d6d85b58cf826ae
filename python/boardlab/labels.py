"""How the command line names each game's seats (X and O in Virus War); "P0", "P1"... otherwise."""

import boardlab

# The core API has no player names yet; this table is the one place that knows them.
_LABELS = {
    "virus_war": ("X", "O"),
}


def player_labels(game: boardlab.Game) -> list[str]:
    known = _LABELS.get(game.name(), ())
    return [known[p] if p < len(known) else f"P{p}" for p in range(game.num_players())]
