"""The state from the viewer's side: which player is drawn at the bottom, and their counts."""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.geometry import Side
from bot.render.state import BoardState


@dataclass(frozen=True)
class View:
    """The board as drawn for the player at the bottom (the viewer, or the player on roll for a
    spectator)."""

    state: BoardState
    bottom: int

    @property
    def top(self) -> int:
        return 1 - self.bottom

    def side_of(self, player: int) -> Side:
        return "bottom" if player == self.bottom else "top"

    def counts(self, player: int) -> tuple[int, ...]:
        """The player's 25 counts on their own numbering (index 24 = bar)."""
        position = self.state.position
        return position.mover if player == self.state.on_roll else position.opponent

    def viewer_point(self, player: int, point: int) -> int:
        """The viewer's number for ``player``'s ``point`` (1-24)."""
        return point if player == self.bottom else 25 - point

    def count_on(self, player: int, viewer_point: int) -> int:
        return self.counts(player)[self.viewer_point(player, viewer_point) - 1]

    def pips(self, player: int) -> int:
        return sum((index + 1) * count for index, count in enumerate(self.counts(player)))

    def off(self, player: int) -> int:
        return max(0, 15 - sum(self.counts(player)))
