"""Tournament pairings: the knockout bracket, Swiss rounds and round-robin (Berger) tables."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n.core import worded
from bot.rules.tournaments import (
    Entrant,
    Format,
    Pairing,
    Result,
    TournamentError,
    bracket,
    champion,
    is_over,
    pair_round,
    rounds_total,
    seed,
)
from bot.rules.tournaments import pairing as pairing_module

KO, SWISS, RR = Format.KNOCKOUT, Format.SWISS, Format.ROUND_ROBIN


def field(n: int) -> tuple[Entrant, ...]:
    """``n`` entrants; player ids (10*seed + 3) differ from seeds, so a mix-up shows."""
    return seed([(10 * s + 3, f"p{s}", 2000.0 - s) for s in range(1, n + 1)])


def pid(s: int) -> int:
    return 10 * s + 3


def decide(p: Pairing, winner: int | None, reason: str = "played") -> Result:
    if p.second is None:
        return Result(p.round, p.table, p.first, None, p.first, reason="bye")
    return Result(p.round, p.table, p.first, p.second, winner, 5 * (winner == p.first),
                  5 * (winner == p.second), reason)  # fmt: skip


def top_wins(pairings: Sequence[Pairing]) -> list[Result]:
    return [decide(p, p.first) for p in pairings]


def test_rounds_total() -> None:
    assert [rounds_total(KO, n) for n in (2, 3, 4, 5, 8, 9, 64, 65)] == [1, 2, 2, 3, 3, 4, 6, 7]
    assert [rounds_total(RR, n) for n in (2, 3, 4, 9, 10)] == [1, 3, 3, 9, 9]
    assert rounds_total(SWISS, 8, swiss_rounds=7) == 7
    assert rounds_total(SWISS, 7, swiss_rounds=7) == 7
    for fmt, n, rounds in [(SWISS, 8, 8), (SWISS, 8, 0), (SWISS, 8, None), (RR, 11, None),
                           (KO, 1, None), (SWISS, 1, 1)]:  # fmt: skip
        with pytest.raises(TournamentError):
            rounds_total(fmt, n, swiss_rounds=rounds)


def test_seed_by_rating_then_player_id() -> None:
    entrants = seed([(5, "e", 1500), (2, "b", 1700), (9, "i", 1500), (1, "a", 1400)])
    assert [(e.player_id, e.seed) for e in entrants] == [(2, 1), (5, 2), (9, 3), (1, 4)]
    with pytest.raises(TournamentError):
        seed([(1, "a", 1500), (1, "a", 1600)])


# -- knockout ---------------------------------------------------------------------------------


def test_bracket_is_the_usual_seeded_order() -> None:
    assert bracket(2) == [(1, 2)]
    assert bracket(4) == [(1, 4), (2, 3)]
    assert bracket(8) == [(1, 8), (4, 5), (3, 6), (2, 7)]
    assert bracket(16) == [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]


@pytest.mark.parametrize("n", range(2, 65))
def test_knockout_first_round(n: int) -> None:
    entrants = field(n)
    by_id = {e.player_id: e.seed for e in entrants}
    first = pair_round(KO, entrants, [], 1)
    size = 1 << rounds_total(KO, n)
    assert [p.table for p in first] == list(range(1, size // 2 + 1))  # no table empty in round 1
    assert sorted(x for p in first for x in p.players()) == sorted(by_id)
    byes = sorted(by_id[p.first] for p in first if p.is_bye)
    assert byes == list(range(1, size - n + 1))

    slots = [s for pair in bracket(size) for s in pair]
    assert [{by_id[x] for x in p.players()} for p in first] == [
        {s for s in pair if s <= n} for pair in bracket(size)
    ]
    for parts in (2, 4) if size >= 4 else (2,):  # seeds 1-2 in different halves, 1-4 quarters
        assert {slots.index(s) * parts // size for s in range(1, parts + 1)} == set(range(parts))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), data=st.data())
def test_knockout_played_out_has_one_champion(n: int, data: st.DataObject) -> None:
    entrants = field(n)
    results: list[Result] = []
    total = rounds_total(KO, n)
    for round_no in range(1, total + 1):
        assert not is_over(KO, entrants, results)
        pairings = pair_round(KO, entrants, results, round_no)
        assert len(pairings) == 1 << (total - round_no)
        results += [decide(p, data.draw(st.sampled_from(p.players()))) for p in pairings]
    assert is_over(KO, entrants, results)
    final = [r for r in results if r.round == total]
    assert len(final) == 1
    assert champion(KO, entrants, results) == final[0].winner
    with pytest.raises(TournamentError, match="over"):
        pair_round(KO, entrants, results, total + 1)


def test_knockout_forfeit_both_ways_gives_the_next_opponent_a_bye() -> None:
    entrants = field(16)
    r1 = pair_round(KO, entrants, [], 1)
    #  table 1: 1 v 16  -> nobody wins      \
    #  table 2: 8 v 9   -> nobody wins      /  round 2 table 1: empty  \
    #  table 3: 5 v 12  -> 5                \                           > round 3 table 1: bye
    #  table 4: 4 v 13  -> 4                /  round 2 table 2: 5 v 4  /
    results = [decide(p, None if p.table <= 2 else p.first, "forfeit") for p in r1]
    r2 = pair_round(KO, entrants, results, 2)
    assert [(p.table, p.first, p.second) for p in r2[:1]] == [(2, pid(5), pid(4))]
    assert [p.table for p in r2] == [2, 3, 4]
    results += [decide(p, p.second) for p in r2]  # 4 wins table 2
    r3 = pair_round(KO, entrants, results, 3)
    assert r3[0] == Pairing(3, 1, pid(4), None)

    small = field(8)
    r1 = pair_round(KO, small, [], 1)  # 1 v 8, 4 v 5, 3 v 6, 2 v 7
    results = [decide(p, None if p.table == 1 else p.first) for p in r1]
    r2 = pair_round(KO, small, results, 2)
    assert r2 == (Pairing(2, 1, pid(4), None), Pairing(2, 2, pid(3), pid(2)))


def test_knockout_ends_when_only_one_player_can_go_on() -> None:
    entrants = field(4)
    r1 = pair_round(KO, entrants, [], 1)  # 1 v 4, 2 v 3
    results = [decide(r1[0], None, "forfeit"), decide(r1[1], pid(3))]
    assert is_over(KO, entrants, results)
    assert champion(KO, entrants, results) == pid(3)
    with pytest.raises(TournamentError, match="over"):
        pair_round(KO, entrants, results, 2)


def test_knockout_withdrawn_players_are_not_paired() -> None:
    entrants = field(8)
    gone = frozenset({pid(8)})
    r1 = pair_round(KO, entrants, [], 1, withdrawn=gone)
    assert r1[0] == Pairing(1, 1, pid(1), None)
    results = top_wins(r1)
    r2 = pair_round(KO, entrants, results, 2, withdrawn=gone | {pid(4)})
    assert r2 == (Pairing(2, 1, pid(1), None), Pairing(2, 2, pid(3), pid(2)))


def test_knockout_refuses_a_round_before_the_last_is_finished() -> None:
    entrants = field(8)
    results = top_wins(pair_round(KO, entrants, [], 1))[:-1]
    with pytest.raises(TournamentError, match="Round 1 is not finished"):
        pair_round(KO, entrants, results, 2)
    with pytest.raises(TournamentError, match="does not fit"):
        pair_round(KO, entrants, [Result(1, 1, pid(1), pid(2), pid(1))], 2)


# -- Swiss ------------------------------------------------------------------------------------


def seeds_of(pairings: Sequence[Pairing]) -> list[tuple[int, int | None]]:
    return [(p.first // 10, None if p.second is None else p.second // 10) for p in pairings]


def test_swiss_round_one_top_half_against_bottom_half() -> None:
    assert seeds_of(pair_round(SWISS, field(6), [], 1)) == [(1, 4), (2, 5), (3, 6)]
    assert seeds_of(pair_round(SWISS, field(7), [], 1)) == [(1, 4), (2, 5), (3, 6), (7, None)]
    gone = frozenset({pid(2)})
    assert seeds_of(pair_round(SWISS, field(6), [], 1, withdrawn=gone)) == [
        (1, 4),
        (3, 5),
        (6, None),
    ]


def test_swiss_pairs_inside_score_groups_top_half_v_bottom_half() -> None:
    entrants = field(8)
    r1 = pair_round(SWISS, entrants, [], 1)  # 1 v 5, 2 v 6, 3 v 7, 4 v 8
    results = top_wins(r1)
    assert seeds_of(pair_round(SWISS, entrants, results, 2)) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_swiss_lowest_of_an_odd_group_moves_down() -> None:
    entrants = field(8)
    r1 = pair_round(SWISS, entrants, [], 1)
    # 1, 2, 3 win; 4 v 8 forfeited both ways. Groups: {1, 2, 3} on 1 point, {4..8} on 0.
    results = [decide(p, None if p.table == 4 else p.first) for p in r1]
    assert seeds_of(pair_round(SWISS, entrants, results, 2)) == [(1, 2), (3, 4), (5, 7), (6, 8)]


def test_swiss_bye_to_the_lowest_player_without_one() -> None:
    entrants = field(5)
    r1 = pair_round(SWISS, entrants, [], 1)  # 1 v 3, 2 v 4, 5 bye
    results = top_wins(r1)  # 1, 2, 5 on 1 point; 3, 4 on 0
    assert seeds_of(pair_round(SWISS, entrants, results, 2)) == [(1, 2), (5, 3), (4, None)]


def test_swiss_avoids_repeats() -> None:
    entrants = field(4)
    results = top_wins(pair_round(SWISS, entrants, [], 1))  # 1 beat 3, 2 beat 4
    r2 = pair_round(SWISS, entrants, results, 2)
    assert seeds_of(r2) == [(1, 2), (3, 4)]
    results += top_wins(r2)  # 1 on 2 points, 2 and 3 on 1, 4 on 0: 1 v 2 again is refused
    assert seeds_of(pair_round(SWISS, entrants, results, 3)) == [(1, 4), (2, 3)]


def test_swiss_keeps_the_higher_score_groups_whole_first() -> None:
    entrants = field(6)
    a, b, c, d, e, f = (pid(s) for s in range(1, 7))
    results = [
        Result(1, 1, a, e, a), Result(1, 2, b, f, b), Result(1, 3, c, d, c),
        Result(2, 1, a, f, a), Result(2, 2, b, c, b), Result(2, 3, d, e, d),
    ]  # fmt: skip
    # A, B on 2 points; C, D on 1 but they have met; E, F on 0. Either the 1-point players
    # both move down (A v B, C v E, D v F) or both move up (A v C, B v D, E v F): the top
    # group stays whole.
    assert seeds_of(pair_round(SWISS, entrants, results, 3)) == [(1, 2), (3, 5), (4, 6)]


def test_swiss_refuses_an_unfinished_round_and_a_round_too_many() -> None:
    entrants = field(4)
    results = top_wins(pair_round(SWISS, entrants, [], 1))
    with pytest.raises(TournamentError, match="no result for p2, p4"):
        pair_round(SWISS, entrants, results[:1], 2)
    with pytest.raises(TournamentError, match="over"):
        pair_round(SWISS, entrants, results, 2, swiss_rounds=1)


def perfect(players: Sequence[int], allowed: set[frozenset[int]], bye_ok: set[int]) -> bool:
    """Whether ``players`` can all be paired with ``allowed`` pairs (and a bye if odd)."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(tuple(pair) for pair in allowed if pair <= set(players))
    nodes = len(players)
    if nodes % 2:
        graph.add_edges_from(("bye", p) for p in players if p in bye_ok)
        nodes += 1
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == nodes


def check_swiss_round(
    pairings: Sequence[Pairing], active: list[int], history: list[Result]
) -> None:
    met = {frozenset((r.first, r.second)) for r in history if r.second is not None}
    had_bye = {r.first for r in history if r.second is None}
    points = Counter(r.winner for r in history)
    seen = [x for p in pairings for x in p.players()]
    assert sorted(seen) == sorted(active)  # everyone still in, once; withdrawn players never
    assert [p.table for p in pairings] == list(range(1, len(pairings) + 1))
    assert all(not p.is_bye for p in pairings[:-1])
    fresh = {frozenset((a, b)) for a in active for b in active if a != b} - met
    if perfect(active, fresh, set(active) - had_bye):
        assert not any(frozenset(p.players()) in met for p in pairings if not p.is_bye)
        assert not any(p.first in had_bye for p in pairings if p.is_bye)
        best = max(points[p] for p in active)
        top = [p for p in active if points[p] == best]
        rest = [p for p in active if points[p] < best]
        if (
            len(top) % 2 == 0
            and perfect(top, fresh, set())
            and perfect(rest, fresh, set(rest) - had_bye)
        ):
            # The top group can be paired inside itself, so it is.
            assert all(
                set(p.players()) <= set(top) for p in pairings if set(p.players()) & set(top)
            )


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40), data=st.data(), salt=st.integers(0, 2**32))
def test_swiss_properties(n: int, data: st.DataObject, salt: int) -> None:
    entrants = field(n)
    rounds = data.draw(st.integers(1, min(n - 1 if n % 2 == 0 else n, 7)))
    rng = random.Random(salt)
    results: list[Result] = []
    gone: set[int] = set()
    for round_no in range(1, rounds + 1):
        active = [e.player_id for e in entrants if e.player_id not in gone]
        pairings = pair_round(SWISS, entrants, results, round_no, withdrawn=frozenset(gone))
        check_swiss_round(pairings, active, results)
        for p in pairings:
            winner = rng.choice([p.first, p.second, p.first, p.second, None])
            result = decide(p, winner)
            if p.second is not None and winner is not None:
                result = Result(p.round, p.table, p.first, p.second, winner,
                                rng.randint(0, 7), rng.randint(0, 7))  # fmt: skip
            results.append(result)
        if len(active) > 3 and rng.random() < 0.3:
            gone.add(rng.choice(active))
    over = is_over(SWISS, entrants, results, swiss_rounds=rounds, withdrawn=frozenset(gone))
    assert over
    assert (
        champion(SWISS, entrants, results, swiss_rounds=rounds, withdrawn=frozenset(gone))
        not in gone
    )


def play_swiss(n: int, rounds: int, rng: random.Random) -> tuple[list[Result], set[int]]:
    entrants = field(n)
    results: list[Result] = []
    gone: set[int] = set()
    for round_no in range(1, rounds + 1):
        active = [e.player_id for e in entrants if e.player_id not in gone]
        pairings = pair_round(SWISS, entrants, results, round_no, withdrawn=frozenset(gone))
        seen = [x for p in pairings for x in p.players()]
        assert sorted(seen) == sorted(active)
        met = {frozenset((r.first, r.second)) for r in results}
        assert not any(frozenset((p.first, p.second)) in met for p in pairings)  # nor a 2nd bye
        results += [decide(p, rng.choice([p.first, p.second, None][: 2 + (rng.random() < 0.05)]))
                    for p in pairings]  # fmt: skip
        if rng.random() < 0.5:
            gone.add(rng.choice(active))
    return results, gone


def test_swiss_256_players_8_rounds() -> None:
    play_swiss(256, 8, random.Random(256))


def crossings(pairings: Sequence[Pairing], history: list[Result], active: list[int]) -> list[int]:
    """Repeats, then how many pairs cross each score boundary from the top (bye: lowest)."""
    points = Counter(r.winner for r in history)
    met = Counter(frozenset((r.first, r.second)) for r in history)
    scores = [*sorted({points[p] for p in active}, reverse=True), -1]
    out = [sum(met[frozenset((p.first, p.second))] for p in pairings)] + [0] * len(scores)
    for p in pairings:
        low = -1 if p.second is None else min(points[p.first], points[p.second])
        for boundary in range(scores.index(max(points[x] for x in p.players())), scores.index(low)):
            out[1 + boundary] += 1
    return out


@pytest.mark.parametrize("n", [99, 130])
def test_swiss_windows_cost_no_repeat_or_crossing(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    entrants = field(n)
    rng = random.Random(n)
    results: list[Result] = []
    gone: set[int] = set()
    for round_no in range(1, 7):
        active = [e.player_id for e in entrants if e.player_id not in gone]
        wd = frozenset(gone)
        monkeypatch.setattr(pairing_module, "COMPLETE_UP_TO", 1000)
        complete = pair_round(SWISS, entrants, results, round_no, withdrawn=wd)
        monkeypatch.setattr(pairing_module, "COMPLETE_UP_TO", 64)
        windowed = pair_round(SWISS, entrants, results, round_no, withdrawn=wd)
        assert crossings(windowed, results, active) == crossings(complete, results, active)
        results += [decide(p, rng.choice([p.first, p.second, None])) for p in windowed]
        gone.add(rng.choice(active))


# -- round robin ------------------------------------------------------------------------------


def test_berger_tables_for_six() -> None:
    entrants = field(6)
    fide = [  # FIDE's Berger table for 6 players
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    for round_no, expected in enumerate(fide, start=1):
        got = pair_round(RR, entrants, round_robin_results(entrants, round_no), round_no)
        assert {frozenset(p) for p in seeds_of(got)} == {frozenset(p) for p in expected}


def round_robin_results(entrants: Sequence[Entrant], upto: int) -> list[Result]:
    results: list[Result] = []
    for n in range(1, upto):
        results += top_wins(pair_round(RR, entrants, results, n))
    return results


@pytest.mark.parametrize("n", range(2, 11))
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    entrants = field(n)
    met: Counter[frozenset[int]] = Counter()
    rests: Counter[int] = Counter()
    results: list[Result] = []
    gone = frozenset({pid(1)})  # still scheduled: the organiser forfeits their matches
    for round_no in range(1, rounds_total(RR, n) + 1):
        pairings = pair_round(RR, entrants, results, round_no, withdrawn=gone)
        seen = [x for p in pairings for x in p.players()]
        assert len(seen) == len(set(seen)) == n
        assert all(not p.is_bye for p in pairings[:-1])
        met.update(frozenset(p.players()) for p in pairings if not p.is_bye)
        rests.update(p.first for p in pairings if p.is_bye)
        results += top_wins(pairings)
    ids = [e.player_id for e in entrants]
    assert met == Counter(frozenset((a, b)) for a in ids for b in ids if a < b)
    assert rests == (Counter(ids) if n % 2 else Counter())
    assert is_over(RR, entrants, results)
    with pytest.raises(TournamentError, match="over"):
        pair_round(RR, entrants, results, rounds_total(RR, n) + 1)


def test_round_robin_refuses_an_unfinished_round() -> None:
    entrants = field(4)
    results = top_wins(pair_round(RR, entrants, [], 1))
    with pytest.raises(
        TournamentError, match=r"Round 1 is not finished yet: no result for p2 vs p3"
    ) as refused:
        pair_round(RR, entrants, results[:1], 2)
    # A value the service words in the reader's language.
    said = refused.value.reason
    assert worded(said, "de") == "Runde 1 ist noch nicht beendet: kein Ergebnis für p2 gegen p3."
    assert not is_over(RR, entrants, results)
