"""Standings, tie-breaks, the end of a tournament and its champion.

Each match won is 1 match point. A bye is a win without a game (1 match point, no points won or
lost, and neither a match played nor a win or loss in the W-L of games), except a round-robin
rest, which is worth nothing. A match both players forfeit
is played and lost by both, with no match point. Players are ranked by:

1. match points;
2. Buchholz: the sum of the match points of the opponents they met (byes add nothing);
3. points difference: the points won minus the points lost in all matches;
4. head to head: the wins among the matches between the tied players themselves (between two
   players: the winner of their match ranks higher).

Players equal on all of these share a rank (1, 2, 2, 4) and are listed by seed. In a Swiss or
a round robin, players who withdrew are ranked after everyone still playing, among themselves by
the same rules. A knockout ranks by how far players went: the champion, then the finalist, then
the semi-finalists sharing 3rd, and so on (a player who withdraws goes out in the round they
would have played next; while a round is on, players still in rank above those out at the same
stage); players who share a rank are listed by the tie-breaks above.

A Swiss is over when every player still in has a result in its last round (or fewer than 2
players are left), a round robin when every match has a result, a knockout when its final has a
result or at most one player can go on. The champion is the final's winner in a knockout, the
first of the standings otherwise (a complete tie for first goes to the better seed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.i18n import tournaments as say
from bot.rules.tournaments.model import Entrant, Format, Result, Standing, TournamentError
from bot.rules.tournaments.pairing import (
    berger_round,
    knockout_walk,
    round_robin_missing,
    rounds_total,
    swiss_missing,
)

__all__ = ["champion", "is_over", "standings"]


@dataclass
class _Line:
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    bye_wins: int = 0  # byes that won a match point (a round-robin rest does not)
    difference: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    withdrawn: frozenset[int] = frozenset(),
) -> tuple[Standing, ...]:
    """One line per entrant, best first."""
    ordered = sorted(entrants, key=lambda e: e.seed)
    if fmt is Format.KNOCKOUT:
        walk = knockout_walk(ordered, results, withdrawn)
        counted = walk.played
    elif fmt is Format.ROUND_ROBIN:
        counted = _with_rests(ordered, results)
    else:
        counted = list(results)
    lines = _tally(ordered, counted)
    byes_count = fmt is not Format.ROUND_ROBIN
    points = {p: line.wins + (line.bye_wins if byes_count else 0) for p, line in lines.items()}
    buchholz = {p: sum(points[o] for o in line.opponents) for p, line in lines.items()}

    def tie_breaks(e: Entrant) -> tuple[int, int, int]:
        p = e.player_id
        return (-points[p], -buchholz[p], -lines[p].difference)

    if fmt is Format.KNOCKOUT:
        # Shared by the round reached; the tie-breaks only order the lines.
        def reached(e: Entrant) -> tuple[int, ...]:
            p = e.player_id
            still_in = p not in walk.out and p not in withdrawn
            return (-walk.through.get(p, 0), not still_in)

        ordered.sort(key=lambda e: (reached(e), tie_breaks(e), e.seed))
        shared = {e.player_id: reached(e) for e in ordered}
    else:
        first = {e.player_id: (e.player_id in withdrawn, *tie_breaks(e)) for e in ordered}
        mutual = _head_to_head(first, counted)
        shared = {p: (*key, -mutual[p]) for p, key in first.items()}
        ordered.sort(key=lambda e: (shared[e.player_id], e.seed))
    table: list[Standing] = []
    for i, e in enumerate(ordered):
        p, line = e.player_id, lines[e.player_id]
        rank = table[-1].rank if i and shared[p] == shared[ordered[i - 1].player_id] else i + 1
        table.append(
            Standing(
                rank=rank,
                player_id=p,
                name=e.name,
                played=line.played,
                wins=line.wins,
                losses=line.losses,
                byes=line.byes,
                match_points=points[p],
                buchholz=buchholz[p],
                points_difference=line.difference,
                withdrawn=p in withdrawn,
            )
        )
    return tuple(table)


def is_over(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    swiss_rounds: int | None = None,
    withdrawn: frozenset[int] = frozenset(),
) -> bool:
    """Whether the tournament has ended (a Swiss needs ``swiss_rounds``)."""
    ordered = sorted(entrants, key=lambda e: e.seed)
    total = rounds_total(fmt, len(ordered), swiss_rounds=swiss_rounds)
    if fmt is Format.KNOCKOUT:
        return knockout_walk(ordered, results, withdrawn).over_after is not None
    if fmt is Format.ROUND_ROBIN:
        return not any(round_robin_missing(ordered, results, r) for r in range(1, total + 1))
    active = [e for e in ordered if e.player_id not in withdrawn]
    return len(active) < 2 or not swiss_missing(active, results, total)


def champion(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    swiss_rounds: int | None = None,
    withdrawn: frozenset[int] = frozenset(),
) -> int | None:
    """The winner's player id once the tournament is over, else None (also None when nobody
    won: a final both players forfeited, or everyone withdrew)."""
    if not is_over(fmt, entrants, results, swiss_rounds=swiss_rounds, withdrawn=withdrawn):
        return None
    if fmt is Format.KNOCKOUT:
        return knockout_walk(entrants, results, withdrawn).final_winner
    table = standings(fmt, entrants, results, withdrawn=withdrawn)
    return None if table[0].withdrawn else table[0].player_id


def _tally(entrants: Sequence[Entrant], results: Sequence[Result]) -> dict[int, _Line]:
    lines = {e.player_id: _Line() for e in entrants}
    for r in results:
        if r.first not in lines or (r.second is not None and r.second not in lines):
            raise TournamentError(say.RULE_STRANGER.said(round=r.round, table=r.table))
        if r.second is None:
            lines[r.first].byes += 1
            lines[r.first].bye_wins += r.winner == r.first
            continue
        for me, other in ((r.first, r.second), (r.second, r.first)):
            line = lines[me]
            line.played += 1
            line.opponents.append(other)
            line.difference += r.points_of(me) - r.points_of(other)
            if r.winner == me:
                line.wins += 1
            else:
                line.losses += 1
    return lines


def _head_to_head(
    keys: Mapping[int, tuple[object, ...]], results: Sequence[Result]
) -> Counter[int]:
    """Per player, the matches won against players with the same ``keys``."""
    mutual: Counter[int] = Counter()
    for r in results:
        if r.second is not None and r.winner is not None and keys[r.first] == keys[r.second]:
            mutual[r.winner] += 1
    return mutual


def _with_rests(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Result]:
    """The results, with the round-robin rests of every round begun that have none."""
    rested = {(r.round, r.first) for r in results if r.second is None}
    out = list(results)
    for round_no in range(1, max((r.round for r in results), default=0) + 1):
        for p in berger_round(entrants, round_no):
            if p.second is None and (round_no, p.first) not in rested:
                out.append(Result(round_no, p.table, p.first, None, None, reason="rest"))
    return out
