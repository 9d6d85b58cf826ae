"""PettingZoo environments for every boardlab game: AEC for turn-based games, Parallel for simultaneous ones.

With `pettingzoo` installed the environments are real `pettingzoo.AECEnv` / `ParallelEnv`
instances and pass its API tests; without it, minimal stand-in base classes with the same
behaviour are used. Agents are "player_0", "player_1", ...; an agent making sub-moves is
selected again (AEC). Observations are {"observation": float32 C×H×W, what that agent may
know from its point of view, "action_mask": int8 mask of its legal actions (zeros when it
does not act)}. Chance nodes are played by the environment, reproducibly from
`reset(seed=...)`. Rewards come only at the end: the game's returns; a game cut short by a
cap that is not a rule is truncated, not terminated.
"""

import boardlab
from boardlab.env_aec import BoardlabAECEnv
from boardlab.env_base import HAVE_PETTINGZOO
from boardlab.env_parallel import BoardlabParallelEnv


def aec_env(game: "str | boardlab.Game", render_mode: str | None = None, **params) -> BoardlabAECEnv:
    """An AEC environment for a turn-based game: aec_env("virus_war", strict=True)."""
    return BoardlabAECEnv(game, render_mode=render_mode, **params)


def env(game: "str | boardlab.Game", render_mode: str | None = None, **params) -> BoardlabAECEnv:
    """PettingZoo's conventional name for the AEC constructor."""
    return aec_env(game, render_mode=render_mode, **params)


def parallel_env(game: "str | boardlab.Game", render_mode: str | None = None, **params) -> BoardlabParallelEnv:
    """A Parallel environment for a game with simultaneous moves (a boardlab.Game, or a name with parameters)."""
    return BoardlabParallelEnv(game, render_mode=render_mode, **params)


__all__ = ["HAVE_PETTINGZOO", "BoardlabAECEnv", "BoardlabParallelEnv", "aec_env", "env", "parallel_env"]
