"""A tournament as values: its format, entrants, the pairings of each round and their results.

Pure and immutable, like the rest of ``bot.rules``: the store keeps these, the service decides
what happens next from them, the renderer draws them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.rules.errors import Refused

__all__ = [
    "MAX_ROUND_ROBIN",
    "Entrant",
    "Format",
    "Pairing",
    "Result",
    "Standing",
    "TournamentError",
]

MAX_ROUND_ROBIN = 10  # entrants in one round-robin group


class TournamentError(Refused):
    """A tournament action the rules refuse: its ``reason`` (a :class:`~bot.i18n.core.Said`) is
    worded where it is said."""


class Format(StrEnum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"
    ROUND_ROBIN = "roundrobin"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in the tournament. ``seed`` 1 is the strongest (by server rating at the start)."""

    player_id: int
    name: str
    seed: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """Table ``table`` (from 1) of round ``round`` (from 1): ``first`` plays ``second``, or has a
    bye when ``second`` is None. In a knockout, tables are the bracket's slots in order, so the
    winners of tables 2k-1 and 2k meet at table k of the next round."""

    round: int
    table: int
    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Result:
    """How the pairing at (``round``, ``table``) ended. ``winner`` is None when neither player
    wins (a forfeit both ways). ``first_points``/``second_points``: the points each scored in the
    match (0 when decided without play). ``reason``: "played", "resigned", "time", "forfeit",
    "bye", "removed", "fixed: <organiser's reason>" and the like, shown as is."""

    round: int
    table: int
    first: int
    second: int | None
    winner: int | None
    first_points: int = 0
    second_points: int = 0
    reason: str = "played"

    def points_of(self, player_id: int) -> int:
        return self.first_points if player_id == self.first else self.second_points

    def opponent_of(self, player_id: int) -> int | None:
        return self.second if player_id == self.first else self.first


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings. ``played``, ``wins`` and ``losses`` count matches played (a
    bye is a win without a game: in ``byes`` alone); ``match_points``: 1 per match won (a Swiss
    or knockout bye counts as a win; a round-robin rest does not). Ties are broken by
    ``buchholz`` (the sum of the opponents' match points), then ``points_difference`` (points
    won minus points lost over all matches), then head to head; ``rank`` is shared only when all
    of these are equal."""

    rank: int
    player_id: int
    name: str
    played: int
    wins: int
    losses: int
    byes: int
    match_points: int
    buchholz: int
    points_difference: int
    withdrawn: bool = False
