"""Sample queries for GNU Backgammon: self-play positions under a spread of cube and match
states, for checks against gnubg itself and for benchmarks."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bot.gnubg.api import Query
from bot.rules.matchid import MatchIdFields, encode_match_id
from bot.rules.position import Position
from bot.rules.randomplay import self_play_positions


@dataclass(frozen=True, slots=True)
class Context:
    """A cube and score state; ``owner`` is relative: "me" (on roll), "them" or None."""

    length: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    owner: str | None = None
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False


CONTEXTS = (
    Context(),
    Context(jacoby=True),
    Context(cube=2, owner="me"),
    Context(cube=2, owner="them", jacoby=True),
    Context(length=7, score=(2, 4)),
    Context(length=5, score=(4, 2), crawford=True),
    Context(length=9, score=(3, 1), cube=2, owner="me"),
    Context(length=3, score=(0, 0)),
)
# Every kind of state gnubg is asked about: money with and without Jacoby and beavers, the cube
# centred or owned, match scores before, in and after the Crawford game, 1-point and DMP.
EVERY_CONTEXT = (
    *CONTEXTS,
    Context(jacoby=True, beavers=True),
    Context(cube=2, owner="them", beavers=True),
    Context(cube=4, owner="me", jacoby=True, beavers=True),
    Context(length=1),
    Context(length=5, score=(4, 2)),
    Context(length=5, score=(4, 4)),
    Context(length=7, score=(5, 3), cube=2, owner="them"),
)


@dataclass(frozen=True, slots=True)
class Case:
    position: Position
    dice: tuple[int, int] | None
    on_roll: int
    context: Context

    @property
    def owner(self) -> int | None:
        if self.context.owner is None:
            return None
        return self.on_roll if self.context.owner == "me" else 1 - self.on_roll

    def query(self) -> Query:
        c = self.context
        fields = MatchIdFields(
            cube=c.cube,
            cube_owner=self.owner,
            on_roll=self.on_roll,
            crawford=c.crawford,
            turn=self.on_roll,
            dice=self.dice or (0, 0),
            length=c.length,
            score=c.score,
            jacoby=c.jacoby,
        )
        return Query(
            f"{self.position.position_id()}:{encode_match_id(fields)}",
            jacoby=c.jacoby,
            beavers=c.beavers,
        )

    def board(self) -> list[list[int]]:
        """The position as gnubg's Python functions take it."""
        return [list(self.position.opponent), list(self.position.mover)]


def cases(
    seed: int, count: int, *, rolled: bool = True, contexts: Sequence[Context] = CONTEXTS
) -> Iterator[Case]:
    """``count`` cases from seeded self-play, cycling through ``contexts``."""
    for index, (position, dice) in enumerate(self_play_positions(seed, count * 3)):
        if index % 3:
            continue  # spread the positions over whole games
        if position.is_game_over():
            continue
        context = contexts[index // 3 % len(contexts)]
        yield Case(position, dice if rolled else None, index % 2, context)
