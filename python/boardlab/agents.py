"""Trained agents from checkpoints, and the arena from Python with names or agents as players."""

import os

import boardlab
from boardlab.engine import module_for, network_module


def load_agent(checkpoint: "str | os.PathLike", simulations: "int | None" = None, seed: int = 0):
    """An agent with act(state, player=None), policy(state, player=None) -> (prior, search policy) numpy arrays,
    value(state, player=None), analyse(state, player=None) and, where something is hidden,
    beliefs(state, player=None) (deals weighed by the other seats' moves); `player` names the seat at a
    simultaneous round. It plays the search its run evaluated with (the config saved in the
    checkpoint); `simulations` changes the budget."""
    # The C++ loader checks the path: missing, a folder, a device or FIFO, too large, not UTF-8 text.
    return network_module().Agent(os.fspath(checkpoint), simulations, seed)


def _spec(player) -> str:
    if isinstance(player, str):
        return player
    spec = getattr(player, "spec", None)
    if isinstance(spec, str):
        return spec
    raise ValueError(
        f"a player is a spec like 'uct:200' or 'mcts(simulations=64)', or an agent from load_agent(), not {player!r}"
    )


def evaluate(players, game=None, games: int = 100, against=None, seed: int = 0, threads: int = 0,
             opening_turns: int | None = None, progress: bool = False, ladder: bool = False) -> dict:
    """Plays players against each other (round robin, or `against` versus each) on all cores.

    players: specs ("random", "uct:200", "mcts(simulations=64)", "agent:PATH(simulations=8)"; arena/player_spec.h)
    or agents from load_agent(). game: a Game or a game string; by default the agents' game. `games` games per
    group of as many players as the game seats, cycling through the seat orders, each opened by `opening_turns`
    random turns (None: the game's own, Game.arena_opening_turns()). Returns a dict with "table" (text),
    "elo" (per player: elo, stderr, low, high of the 95% interval, fitted to each game's outcome: Elo of
    boardlab.pair_score for two players, so a poker player's chips count; Plackett-Luce of the whole ranking for
    more; rated False and None for these where no game links the player to the anchor, as for one that played no
    game), "standings" (per player: games, mean_return, mean_rank, truncated, moves, ms_per_move: the wall-clock
    milliseconds of its choices; the means None with no games),
    "pairings" (wins, draws, losses, score of every pair within the games; for two players also score_first and
    score_second, a's score in each seat), "games" (group, seats, returns, truncated, length, record), "truncated"
    (games ended by a cap) and JSON/CSV forms ("json", "elo_csv", "pairings_csv", "standings_csv", "records").
    Ctrl-C or SIGTERM stops the games within a move: the result then holds the games played, with "stopped" True,
    "planned" (the games scheduled) and "signal". ladder=True also rates every player against the game's stored
    ladder (`boardlab ladder`), its rungs held at their stored ratings: "ladder" (else None) holds the rungs and
    per player elo, low, high.
    """
    specs = [_spec(p) for p in players]
    focus = _spec(against) if against is not None else None
    if game is None:
        agents = [p for p in [*players, against] if p is not None and not isinstance(p, str)]
        if not agents:
            raise ValueError("name the game (only agents know their own)")
        game = agents[0].game()
    if not isinstance(game, boardlab.Game):
        game = boardlab.load_game(game)
    engine = module_for(specs + ([focus] if focus else []))
    return engine.run_arena(game, specs, games=games, against=focus, seed=seed, threads=threads,
                            opening_turns=opening_turns, progress=progress, ladder=ladder)


def make_bot(spec: str, game, seed: int = 0):
    """A C++ player from a spec ("random", "uct:200", "mcts(algorithm=puct,simulations=64)", "agent:PATH"):
    bot.act(state) -> action."""
    if not isinstance(game, boardlab.Game):
        game = boardlab.load_game(game)
    return module_for([spec]).make_bot(spec, game, seed)


def bot_policy(spec: str, game, samples: int = 100, seed: int = 0):
    """A policy for boardlab.exploitability from any player spec (uct:1000, heuristic, agent:PATH): at each
    information set, how often the player chose each legal action in `samples` fresh decisions (a restarted
    bot each time, its random stream going on). A deterministic player is measured exactly; a searching one
    within the sampling error, about 1/sqrt(samples) per probability."""
    if not isinstance(game, boardlab.Game):
        game = boardlab.load_game(game)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"bot_policy: samples must be a whole number of 1 or more, got {samples!r}")
    bot = make_bot(spec, game, seed)

    def policy(state, player):
        legal = state.legal_actions(player)
        counts = [0] * len(legal)
        for _ in range(samples):
            bot.restart()
            counts[legal.index(bot.act(state, player))] += 1
        return [c / samples for c in counts]

    return policy
