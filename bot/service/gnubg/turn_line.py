"""The line of bot turns under way in this process (the opponent's back-pressure)."""

from __future__ import annotations

from bot.service.models import Place


class TurnLine:
    """The places whose bot turn is under way, in order. Each turn that ends moves every
    queued turn's message behind it (``Opponent.queued``): their places in line are worked
    out once for all of them, not once for each."""

    def __init__(self) -> None:
        self._places: dict[Place, None] = {}
        self._ahead: dict[Place, int] | None = {}

    def __len__(self) -> int:
        return len(self._places)

    def __contains__(self, place: Place) -> bool:
        return place in self._places

    def join(self, place: Place) -> None:
        """``place`` at the end of the line, unless it is in line already."""
        if place not in self._places:
            self._places[place] = None
            self._ahead = None

    def leave(self, place: Place) -> None:
        if place in self._places:
            del self._places[place]
            self._ahead = None

    def ahead(self, place: Place) -> int:
        """How many places came before ``place`` (0 for a place not in line)."""
        if self._ahead is None:
            self._ahead = {other: index for index, other in enumerate(self._places)}
        return self._ahead.get(place, 0)
