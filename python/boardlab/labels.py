"""How the command line names each game's seats: the game's own names (X and O in Virus War)."""

import boardlab


def player_labels(game: boardlab.Game) -> list[str]:
    return [game.player_name(p) for p in range(game.num_players())]
