"""Who plays whom in each round of a tournament.

Entrants are seeded by server rating: seed 1 is the highest rated, equal ratings go to the lower
player id. A player who withdraws is never paired again in a knockout or a Swiss.

**Knockout.** A bracket of 2^k places (the smallest that holds everyone) in the usual seeded
order (1 v 16, 8 v 9, 5 v 12, 4 v 13, 3 v 14, 6 v 11, 7 v 10, 2 v 15 for 16 places), so seeds 1
and 2 can meet only in the final, seeds 1 to 4 only in the semi-finals, and so on. The empty
places are byes, and they go to the top seeds. The winners of tables 2k-1 and 2k meet at table k
of the next round. Nobody goes on from a match that both players forfeit, nor a player who
withdraws: the next opponent gets a bye (or, if nobody comes from either side, that table is
empty). The tournament is over when the final has a result, or earlier when at most one player
can still go on.

**Swiss.** Round 1 by seeds, top half against bottom half (1 v n/2+1, 2 v n/2+2, ...). Later
rounds rank players by match points, then seed, and pair them, in this order of priority:
nobody meets the same opponent twice, and nobody gets a second bye, while the round can be paired
that way at all; players meet others on the same score, filling the highest score groups first
(the bye counts as the lowest score); inside a score group the top half meets the bottom half in
order (1st v (g/2+1)th, ...), the lowest-ranked players move down when a group must give players
to the next one, and the bye goes to the lowest-ranked player who has not had one. A bye is a
win: one match point. Byes must be recorded as results like any match.

**Round robin.** Everyone meets everyone once, by FIDE's Berger tables (the circle method) on
the seeds: in round r, seeds i and j (not the last) meet when i + j = r + 1 modulo m - 1, m being
the number of players made even. With an odd number of players, the player who would meet the
missing one rests (no match point, not counted as played). Withdrawn players stay in the
schedule: their remaining matches are forfeits, decided by whoever runs the tournament.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.i18n import tournaments as say
from bot.i18n.core import Text, chained
from bot.rules.tournaments.model import (
    MAX_ROUND_ROBIN,
    Entrant,
    Format,
    Pairing,
    Result,
    TournamentError,
)

__all__ = [
    "KnockoutWalk",
    "berger_round",
    "bracket",
    "knockout_walk",
    "pair_round",
    "round_robin_missing",
    "rounds_total",
    "seed",
    "swiss_missing",
]


def rounds_total(fmt: Format, entrants: int, *, swiss_rounds: int | None = None) -> int:
    """How many rounds a tournament of ``entrants`` players has."""
    if entrants < 2:
        raise TournamentError(say.RULE_NEEDS_TWO.said())
    most = entrants - 1 if entrants % 2 == 0 else entrants
    if fmt is Format.KNOCKOUT:
        return (entrants - 1).bit_length()
    if fmt is Format.ROUND_ROBIN:
        if entrants > MAX_ROUND_ROBIN:
            raise TournamentError(
                say.RULE_ROUND_ROBIN_MOST.said(most=MAX_ROUND_ROBIN, entered=entrants)
            )
        return most
    if swiss_rounds is None or not 1 <= swiss_rounds <= most:
        raise TournamentError(say.RULE_SWISS_ROUNDS.said(entrants=entrants, most=most))
    return swiss_rounds


def seed(players: Sequence[tuple[int, str, float]]) -> tuple[Entrant, ...]:
    """Entrants from (player id, name, rating): the highest rating is seed 1."""
    ordered = sorted(players, key=lambda p: (-p[2], p[0]))
    if len({p[0] for p in ordered}) != len(ordered):
        raise TournamentError(say.RULE_ENTER_ONCE.said())
    return tuple(Entrant(pid, name, n) for n, (pid, name, _) in enumerate(ordered, start=1))


def pair_round(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round_no: int,
    *,
    withdrawn: frozenset[int] = frozenset(),
    swiss_rounds: int | None = None,
) -> tuple[Pairing, ...]:
    """The pairings of round ``round_no`` (from 1), given the results of the earlier rounds.

    ``swiss_rounds``, when given, lets a Swiss refuse a round past its last one. Raises
    :class:`TournamentError` when an earlier round has a pairing without a result, or when the
    tournament is over."""
    ordered = sorted(entrants, key=lambda e: e.seed)
    total = rounds_total(fmt, len(ordered), swiss_rounds=swiss_rounds or 1)
    if round_no < 1:
        raise TournamentError(say.RULE_ROUNDS_FROM_ONE.said())
    if fmt is Format.KNOCKOUT:
        walk = knockout_walk(ordered, results, withdrawn, last_round=round_no)
        if (walk.over_after is not None and walk.over_after < round_no) or round_no > total:
            raise TournamentError(say.RULE_OVER.said())
        if walk.current < round_no:
            raise TournamentError(say.RULE_NOT_FINISHED.said(round=walk.current))
        return tuple(walk.pairings[round_no])
    if fmt is Format.ROUND_ROBIN:
        if round_no > total:
            raise TournamentError(say.RULE_OVER_ALL_MET.said())
        for earlier in range(1, round_no):
            _check_round_robin_round(ordered, results, earlier)
        return berger_round(ordered, round_no)
    if swiss_rounds is not None and round_no > total:
        raise TournamentError(say.RULE_OVER_ROUNDS.said(total))
    active = [e for e in ordered if e.player_id not in withdrawn]
    if len(active) < 2:
        raise TournamentError(say.RULE_OVER_FEW.said())
    for earlier in range(1, round_no):
        missing = swiss_missing(active, results, earlier)
        if missing:
            names: Text = ", ".join(missing[:5])
            if missing[5:]:
                names = say.RULE_AND_MORE.said(len(missing) - 5, names=names)
            raise TournamentError(say.RULE_NO_RESULT.said(round=earlier, names=names))
    return _swiss(active, [r for r in results if r.round < round_no], round_no)


# -- knockout ---------------------------------------------------------------------------------


def bracket(size: int) -> list[tuple[int, int]]:
    """The seeds at each table of round 1 of a bracket of ``size`` (a power of 2) places."""
    order = [1]
    while len(order) < size:
        places = len(order) * 2
        grown: list[int] = []
        for i, s in enumerate(order):
            # Alternating which side the new seed goes keeps 1 and 2 apart, then 1-4, and so on.
            grown += (s, places + 1 - s) if i % 2 == 0 else (places + 1 - s, s)
        order = grown
    return [(min(a, b), max(a, b)) for a, b in zip(order[::2], order[1::2], strict=True)]


@dataclass
class KnockoutWalk:
    """A knockout followed from round 1 as far as its results go: each round's pairings up to
    ``current`` (the first round not finished), the results (with the byes that have none added
    as wins), the round it ended after, if it has, and per player the round that put them
    ``out`` and the last round they went ``through``."""

    rounds: int
    pairings: dict[int, list[Pairing]] = field(default_factory=dict)
    played: list[Result] = field(default_factory=list)
    current: int = 1
    over_after: int | None = None
    final_winner: int | None = None
    out: dict[int, int] = field(default_factory=dict)
    through: dict[int, int] = field(default_factory=dict)
    left: list[int] = field(default_factory=list)


def knockout_walk(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    withdrawn: frozenset[int],
    *,
    last_round: int | None = None,
) -> KnockoutWalk:
    """Follow the bracket round by round (up to ``last_round``) from the results."""
    ordered = sorted(entrants, key=lambda e: e.seed)
    walk = KnockoutWalk(rounds_total(Format.KNOCKOUT, len(ordered)))
    by_seed = {e.seed: e.player_id for e in ordered}
    slots: list[int | None] = [by_seed.get(s) for pair in bracket(1 << walk.rounds) for s in pair]
    found = {(r.round, r.table): r for r in results}
    for round_no in range(1, min(walk.rounds, last_round or walk.rounds) + 1):
        walk.current = round_no
        pairings = walk.pairings[round_no] = []
        decided = len(walk.played)
        going_on: list[int | None] = []
        finished = True
        for table, (a, b) in enumerate(zip(slots[::2], slots[1::2], strict=True), start=1):
            result = found.get((round_no, table))
            if result is not None:
                _check_bracket_result(result, a, b)
                pairings.append(Pairing(round_no, table, result.first, result.second))
                walk.played.append(result)
                going_on.append(result.winner)
                continue
            here = [p for p in (a, b) if p is not None and p not in withdrawn]
            if len(here) == 2:
                pairings.append(Pairing(round_no, table, here[0], here[1]))
                finished = False
                going_on.append(None)
            elif here:
                pairings.append(Pairing(round_no, table, here[0], None))
                walk.played.append(Result(round_no, table, here[0], None, here[0], reason="bye"))
                going_on.append(here[0])
            else:
                going_on.append(None)
        for result in walk.played[decided:]:
            for player in (result.first, result.second):
                if player is not None and player != result.winner:
                    walk.out[player] = round_no
            if result.winner is not None:
                walk.through[result.winner] = round_no
        if not finished:
            return walk
        slots = going_on
        walk.left = [p for p in going_on if p is not None and p not in withdrawn]
        if round_no == walk.rounds or len(walk.left) <= 1:
            walk.over_after = round_no
            walk.current = round_no + 1
            if round_no == walk.rounds:
                final = found.get((round_no, 1))
                walk.final_winner = final.winner if final is not None else None
            elif walk.left:
                walk.final_winner = walk.left[0]
            return walk
        walk.current = round_no + 1
    return walk


def _check_bracket_result(result: Result, a: int | None, b: int | None) -> None:
    players = {result.first, result.second} - {None}
    if not players <= {a, b} or (result.winner is not None and result.winner not in players):
        raise TournamentError(say.RULE_NOT_THE_BRACKET.said(round=result.round, table=result.table))


# -- Swiss ------------------------------------------------------------------------------------


def swiss_missing(active: Sequence[Entrant], results: Sequence[Result], round_no: int) -> list[str]:
    """The names of active players with no result in ``round_no`` (empty when it is complete)."""
    seen = Counter(
        p for r in results if r.round == round_no for p in (r.first, r.second) if p is not None
    )
    for e in active:
        if seen[e.player_id] > 1:
            raise TournamentError(say.RULE_TWO_RESULTS.said(name=e.name, round=round_no))
    return [e.name for e in active if seen[e.player_id] == 0]


def _swiss(active: list[Entrant], earlier: list[Result], round_no: int) -> tuple[Pairing, ...]:
    active = list(active)
    if round_no == 1:
        bye = active.pop() if len(active) % 2 else None
        half = len(active) // 2
        pairs: list[tuple[int, int | None]] = [
            (active[i].player_id, active[i + half].player_id) for i in range(half)
        ]
    else:
        points: Counter[int] = Counter()
        byes: Counter[int] = Counter()
        met: Counter[frozenset[int]] = Counter()
        for r in earlier:
            if r.winner is not None:
                points[r.winner] += 1
            if r.second is None:
                byes[r.first] += 1
            else:
                met[frozenset((r.first, r.second))] += 1
        ranked = sorted(active, key=lambda e: (-points[e.player_id], e.seed))
        ids = [e.player_id for e in ranked]
        bye_at, matched = _swiss_matching(ids, [points[p] for p in ids], byes, met)
        pairs = [(ids[i], ids[j]) for i, j in matched]
        bye = ranked[bye_at] if bye_at is not None else None
    pairings = [Pairing(round_no, t, a, b) for t, (a, b) in enumerate(pairs, start=1)]
    if bye is not None:
        pairings.append(Pairing(round_no, len(pairings) + 1, bye.player_id, None))
    return tuple(pairings)


# Up to COMPLETE_UP_TO players, every pair is an edge of the graph. Above, a complete graph is
# too slow for networkx (0.2 to 0.7 s for 256 players), so the first tries only link players up
# to a window apart in rank, or from their ideal opponent in their group; wider tries follow when
# that graph cannot pair everyone. The tests compare both on sample tournaments: same repeats,
# same crossings of score groups (only the order inside groups may differ a little).
COMPLETE_UP_TO = 64
WINDOWS: tuple[int | None, ...] = (6, 16, None)


class _Weights:
    """The cost of each possible pairing of players ranked 0..n-1 (``n`` stands for the bye).

    Lexicographic tiers, each unit bigger than all the tiers below can add up to over a whole
    round: repeats (and second byes), then crossings of score boundaries from the top down (one
    crossing of a higher boundary costs more than any number of lower ones), then the order
    inside groups."""

    def __init__(
        self, ids: list[int], points: list[int], byes: Counter[int], met: Counter[frozenset[int]]
    ) -> None:
        n = self.n = len(ids)
        self.ids, self.byes, self.met = ids, byes, met
        self.bye = n if n % 2 else None
        scores = sorted(set(points), reverse=True)
        self.group = [scores.index(p) for p in points]
        self.start = {g: self.group.index(g) for g in set(self.group)}
        self.size = Counter(self.group)
        self.levels = levels = len(scores) + (self.bye is not None)
        base = n // 2 + 2
        self.order_unit = 2 * n * (n // 2 + 1) + 1
        self.repeat_unit: int = (base ** max(levels - 1, 0) + 1) * self.order_unit
        self.cross: list[int] = [0] * (levels + 1)
        for g in range(levels):
            self.cross[g + 1] = self.cross[g] + base ** max(levels - 2 - g, 0)

    def met_before(self, i: int, j: int) -> int:
        if j == self.bye:
            return self.byes[self.ids[i]]
        return self.met[frozenset((self.ids[i], self.ids[j]))]

    def penalty(self, i: int, j: int) -> int:
        group, start, size = self.group, self.start, self.size
        a = group[i]
        if j == self.bye:
            b = self.levels - 1
            order = start[a] + size[a] - 1 - i
        elif a == (b := group[j]):
            order = abs(j - i - size[a] // 2)
        else:
            # The lowest of the upper group moves down to meet the top of the lower group.
            order = (start[a] + size[a] - 1 - i) + (j - start[b])
        crossings = self.cross[b] - self.cross[a]
        return self.met_before(i, j) * self.repeat_unit + crossings * self.order_unit + order


def _swiss_matching(
    ids: list[int], points: list[int], byes: Counter[int], met: Counter[frozenset[int]]
) -> tuple[int | None, list[tuple[int, int]]]:
    """Pair players ranked 0..n-1 (indices into ``ids``): (who gets the bye, the pairs)."""
    # Imported here: networkx takes ~0.1 s to import, which every process start would pay
    # (the bot, its console, each test's subprocess) for the few that pair a Swiss round.
    import networkx as nx

    w = _Weights(ids, points, byes, met)
    n, bye = w.n, w.bye
    top = (max([*met.values(), *byes.values(), 0]) + 2) * w.repeat_unit  # every weight > 0
    tries = (None,) if n <= COMPLETE_UP_TO else WINDOWS
    for window in (*tries, "repeats"):
        graph = nx.Graph()
        for i in range(n):
            for j in _candidates(i, window, w):
                if window == "repeats" or not w.met_before(i, j):
                    graph.add_edge(i, j, weight=top - w.penalty(i, j))
        if bye is not None:
            fresh = [i for i in range(n) if not byes[ids[i]]]
            near = range(n) if window == "repeats" else fresh if window is None else fresh[-32:]
            for i in near:
                graph.add_edge(i, bye, weight=top - w.penalty(i, bye))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == n + (bye is not None):
            break
    pairs = sorted((min(i, j), max(i, j)) for i, j in matching)
    bye_at = next((i for i, j in pairs if j == bye), None)
    return bye_at, [(i, j) for i, j in pairs if j != bye]


def _candidates(i: int, window: int | str | None, w: _Weights) -> set[int]:
    """Players ranked below ``i`` that may meet ``i`` in a try with this window."""
    n = w.n
    if not isinstance(window, int):
        return set(range(i + 1, n))
    near = set(range(i + 1, min(n, i + window + 1)))
    g = w.group[i]
    ideal = i + w.size[g] // 2
    if ideal < w.start[g] + w.size[g]:
        near.update(range(max(i + 1, ideal - window), min(n, ideal + window + 1)))
    return near


# -- round robin ------------------------------------------------------------------------------


def berger_round(entrants: Sequence[Entrant], round_no: int) -> tuple[Pairing, ...]:
    """Round ``round_no`` of the Berger tables on the seeds; the rest, if any, last."""
    ordered = sorted(entrants, key=lambda e: e.seed)
    m = len(ordered) + len(ordered) % 2
    ids: list[int | None] = [e.player_id for e in ordered] + [None] * (m - len(ordered))
    mod = m - 1
    pairs: list[tuple[int, int]] = []
    for i in range(1, m):
        partner = (round_no + 1 - i) % mod or mod
        if partner == i:
            pairs.append((i, m))
        elif i < partner:
            pairs.append((i, partner))
    pairs.sort(key=lambda p: (ids[p[1] - 1] is None, p[0]))
    out: list[Pairing] = []
    for table, (a, b) in enumerate(pairs, start=1):
        first, second = ids[a - 1], ids[b - 1]
        assert first is not None
        out.append(Pairing(round_no, table, first, second))
    return tuple(out)


def round_robin_missing(
    entrants: Sequence[Entrant], results: Sequence[Result], round_no: int
) -> list[Pairing]:
    """The matches (not rests) of round ``round_no`` that have no result yet."""
    done = {frozenset((r.first, r.second)) for r in results if r.round == round_no}
    return [
        p
        for p in berger_round(entrants, round_no)
        if p.second is not None and frozenset(p.players()) not in done
    ]


def _check_round_robin_round(
    entrants: Sequence[Entrant], results: Sequence[Result], r: int
) -> None:
    missing = round_robin_missing(entrants, results, r)
    if missing:
        names = {e.player_id: e.name for e in entrants}
        shown = chained(
            say.RULE_COMMA,
            (say.PLAYERS.said(first=names[p.first], second=names[p.second or 0]) for p in missing),
        )
        raise TournamentError(say.RULE_NO_RESULT.said(round=r, names=shown))
