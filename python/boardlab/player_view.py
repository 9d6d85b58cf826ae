"""What one player may know of a state, for Python code that shows a game to that player: the mirror of core/player_view.h."""

import boardlab


class PlayerView:
    """The state as `viewer` may know it: a seat, boardlab.PUBLIC_VIEWER for what everyone knows, or None
    for an analyst reading a whole record, from whom nothing is hidden.

    Code that shows a game to a person (the web app) reads the game through a view only, so that at a
    hidden-information game nothing the viewer may not see can reach it: the state itself is private.
    At a perfect-information game, and once any game is over, nothing is hidden and the whole state
    shows (as `boardlab play` prints the whole record at the end).
    """

    def __init__(self, state: boardlab.State, viewer: int):
        game = state.game()
        if viewer is not None and viewer != boardlab.PUBLIC_VIEWER and not 0 <= viewer < game.num_players():
            raise ValueError(f"viewer {viewer} is not a seat of {game} (0 to {game.num_players() - 1}) "
                             "nor PUBLIC_VIEWER")
        self._state = state
        self.viewer = viewer

    # Public facts.
    def game(self) -> boardlab.Game:
        return self._state.game()

    def current_player(self) -> int:
        return self._state.current_player()

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    def is_simultaneous_node(self) -> bool:
        return self._state.is_simultaneous_node()

    def is_chance_node(self) -> bool:
        return self._state.is_chance_node()

    def move_number(self) -> int:
        return self._state.move_number()

    def returns(self) -> list[float]:
        return self._state.returns()

    def is_truncated(self) -> bool:
        return self._state.is_truncated()

    @property
    def hides(self) -> bool:
        """Something of the state is hidden from this viewer: a hidden-information game still going on."""
        return self.viewer is not None and not self._state.game().type().perfect_information \
            and not self._state.is_terminal()

    def full_state(self) -> boardlab.State:
        """The state itself, for drawing it, where nothing is hidden from the viewer (else ValueError)."""
        if self.hides:
            raise ValueError("the state is hidden from this viewer: draw it from the view")
        return self._state

    # The viewer's own knowledge.
    def acts(self) -> bool:
        """The viewer is to act: the seat to move, or any seat with a choice at a simultaneous round."""
        if self.viewer in (None, boardlab.PUBLIC_VIEWER) or self._state.is_terminal() or self._state.is_chance_node():
            return False
        if self._state.is_simultaneous_node():
            return bool(self._state.legal_actions(self.viewer))
        return self._state.current_player() == self.viewer

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions(self.viewer) if self.acts() else []

    def action_to_string(self, action: int) -> str:
        return self._state.action_to_string(self.viewer, action) if self.viewer not in (None, boardlab.PUBLIC_VIEWER) \
            else self._state.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self._state.string_to_action(self.viewer, text) if self.viewer not in (None, boardlab.PUBLIC_VIEWER) \
            else self._state.string_to_action(text)

    def record(self) -> str:
        """The game so far as the viewer saw it (the whole record where nothing is hidden)."""
        if not self.hides:
            return self._state.record()
        return self._state.record_for(self.viewer)

    def diagram(self) -> dict | None:
        """The board as the viewer may see it (State.diagram: the engine leaves out what it may not know;
        everything where nothing is hidden from it), or None for a game without a board to draw."""
        return self._state.diagram(self.viewer if self.hides else None)

    def observation_tensor(self):
        if self.viewer in (None, boardlab.PUBLIC_VIEWER):
            raise ValueError("only a seat has an observation: take a seat's view")
        return self._state.observation_tensor(self.viewer)
