"""How a match is played: its length and rules (:class:`MatchOptions`) and the limits of the
game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_LENGTH = 64  # the longest match GNU Backgammon plays
MAX_CUBE = 1 << 12  # the cube stops at 4096
DEFAULT_AUTOMATIC_DOUBLES = 1  # ``automatic_doubles=True``: one per game, the usual house rule
MAX_AUTOMATIC_DOUBLES = 3  # the most automatic doubles per game a match may ask for


class MatchOptionsError(ValueError):
    """Options no match can be played with; the message says which and why."""


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """How the match is played. ``length`` 0 is a money game (a single game).

    ``automatic_doubles`` is how many times per game equal opening dice may turn the cube: 0
    (off) to :data:`MAX_AUTOMATIC_DOUBLES`; ``True`` means :data:`DEFAULT_AUTOMATIC_DOUBLES`.
    Stored data keeps the number, so a match replays with the cap it was played under.
    ``jacoby``, ``beavers`` and ``automatic_doubles`` are money-game options.
    """

    length: int = 0
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not isinstance(self.length, int):
            raise MatchOptionsError(f"the match length must be a whole number, not {self.length!r}")
        if not 0 <= self.length <= MAX_LENGTH:
            raise MatchOptionsError(
                f"a match is 1 to {MAX_LENGTH} points (0 for a money game), not {self.length}"
            )
        auto = self.automatic_doubles
        if auto is True:
            object.__setattr__(self, "automatic_doubles", DEFAULT_AUTOMATIC_DOUBLES)
        elif auto is False:
            object.__setattr__(self, "automatic_doubles", 0)
        elif not isinstance(auto, int) or not 0 <= auto <= MAX_AUTOMATIC_DOUBLES:
            raise MatchOptionsError(
                f"automatic doubles are how many per game: 0 (off) to {MAX_AUTOMATIC_DOUBLES}, "
                f"not {auto!r}"
            )
        if self.length:
            for name in ("jacoby", "beavers", "automatic_doubles"):
                if getattr(self, name):
                    raise MatchOptionsError(f"{name.replace('_', ' ')} is a money-game option")
        else:
            object.__setattr__(self, "crawford", False)

    @property
    def money(self) -> bool:
        return self.length == 0

    def to_data(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "automatic_doubles": self.automatic_doubles,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchOptions:
        return cls(
            length=int(data["length"]),
            crawford=bool(data["crawford"]),
            jacoby=bool(data["jacoby"]),
            beavers=bool(data["beavers"]),
            automatic_doubles=int(data["automatic_doubles"]),
        )
