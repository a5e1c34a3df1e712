"""Standings and tie-breaks: match points, Buchholz, points difference, head to head, shared
ranks; the end of a tournament and its champion."""

from __future__ import annotations

import pytest

from bot.rules.tournaments import (
    Entrant,
    Format,
    Pairing,
    Result,
    Standing,
    champion,
    is_over,
    pair_round,
    seed,
    standings,
)

KO, SWISS, RR = Format.KNOCKOUT, Format.SWISS, Format.ROUND_ROBIN


def field(*names: str) -> tuple[Entrant, ...]:
    """Entrants named by letter, seeded in the order given; player id = the letter's code."""
    return seed([(ord(name), name, 2000.0 - i) for i, name in enumerate(names)])


def won(round_no: int, table: int, winner: str, loser: str, score: str = "5-3") -> Result:
    """``winner`` beat ``loser`` ``score`` (winner's points first)."""
    w, lost = (int(x) for x in score.split("-"))
    return Result(round_no, table, ord(winner), ord(loser), ord(winner), w, lost)


def lines(table: tuple[Standing, ...]) -> list[tuple[int, str, int, int, int]]:
    """(rank, name, match points, Buchholz, points difference) per line."""
    return [(s.rank, s.name, s.match_points, s.buchholz, s.points_difference) for s in table]


def test_swiss_tie_broken_by_points_difference() -> None:
    entrants = field("A", "B", "C", "D")
    results = [
        won(1, 1, "A", "C", "5-2"),
        won(1, 2, "D", "B", "5-4"),
        won(2, 1, "D", "A", "5-3"),
        won(2, 2, "B", "C", "5-0"),
    ]
    # Buchholz: A met C (0) and D (2) = 2; B met D and C = 2; C met A and B = 2; D met B, A = 2.
    # Points difference: A +3 -2 = +1; B -1 +5 = +4; C -3 -5 = -8; D +1 +2 = +3.
    assert lines(standings(SWISS, entrants, results)) == [
        (1, "D", 2, 2, 3),
        (2, "B", 1, 2, 4),
        (3, "A", 1, 2, 1),
        (4, "C", 0, 2, -8),
    ]


def test_swiss_tie_broken_by_buchholz() -> None:
    entrants = field("A", "B", "C", "D", "E", "F")
    results = [
        won(1, 1, "A", "D"), won(1, 2, "B", "E"), won(1, 3, "C", "F"),
        won(2, 1, "A", "B"), won(2, 2, "C", "E"), won(2, 3, "D", "F"),
    ]  # fmt: skip
    # On 1 point: B (met E 0, A 2: Buchholz 2) and D (met A 2, F 0: 2); C has 2 points.
    # On 2 points: A (met D 1, B 1: 2) and C (met F 0, E 0: 0).
    table = standings(SWISS, entrants, results)
    assert lines(table)[:2] == [(1, "A", 2, 2, 4), (2, "C", 2, 0, 4)]
    assert [(s.rank, s.name) for s in table[2:]] == [(3, "B"), (3, "D"), (5, "E"), (5, "F")]


def test_shared_ranks_are_listed_by_seed() -> None:
    entrants = field("A", "B", "C", "D")
    results = [won(1, 1, "A", "C"), won(1, 2, "B", "D")]
    table = standings(SWISS, entrants, results)
    assert [(s.rank, s.name) for s in table] == [(1, "A"), (1, "B"), (3, "C"), (3, "D")]


def test_head_to_head_between_two() -> None:
    entrants = field("A", "B", "C", "D")
    results = [  # a round robin: A and B both on 2 wins, Buchholz 4 and +2; A beat B
        won(1, 1, "A", "D"), won(1, 2, "B", "C"),
        won(2, 1, "A", "B"), won(2, 2, "D", "C"),
        won(3, 1, "C", "A"), won(3, 2, "B", "D"),
    ]  # fmt: skip
    assert lines(standings(RR, entrants, results)) == [
        (1, "A", 2, 4, 2),
        (2, "B", 2, 4, 2),
        (3, "D", 1, 5, -2),  # D beat C: they are level on everything else
        (4, "C", 1, 5, -2),
    ]


def test_head_to_head_among_three() -> None:
    entrants = field("Z", "Y", "R", "Q", "P", "X")
    games = [  # a round robin of 6, every match 5-3
        ("P", "Q"), ("P", "R"), ("Q", "R"),  # among P, Q, R: P 2 wins, Q 1, R 0
        ("Q", "X"), ("R", "X"), ("R", "Y"),  # ... which their other wins make up for
        ("X", "P"), ("Y", "P"), ("Z", "P"), ("Y", "Q"), ("Z", "Q"), ("Z", "R"),
        ("Y", "X"), ("Z", "X"), ("Z", "Y"),
    ]  # fmt: skip
    results = [won(1, i, w, lost) for i, (w, lost) in enumerate(games, start=1)]
    table = standings(RR, entrants, results)
    assert [(s.rank, s.name, s.match_points) for s in table] == [
        (1, "Z", 5), (2, "Y", 3), (3, "P", 2), (4, "Q", 2), (5, "R", 2), (6, "X", 1),
    ]  # fmt: skip


def test_mutual_wins_among_three_can_leave_a_shared_rank() -> None:
    entrants = field("A", "B", "C")
    results = [won(1, 1, "A", "B"), won(2, 1, "B", "C"), won(3, 1, "C", "A")]
    table = standings(RR, entrants, results)
    assert [(s.rank, s.name, s.byes, s.played) for s in table] == [
        (1, "A", 1, 2),
        (1, "B", 1, 2),
        (1, "C", 1, 2),
    ]


def test_byes_rests_and_forfeits() -> None:
    entrants = field("A", "B", "C")
    bye = Result(1, 2, ord("C"), None, ord("C"), reason="bye")
    nobody = Result(1, 1, ord("A"), ord("B"), None, reason="forfeit")
    swiss = {s.name: s for s in standings(SWISS, entrants, [nobody, bye])}
    # A bye is a win without a game: a match point, and no match played, won or lost.
    c = swiss["C"]
    assert (c.match_points, c.byes, c.played, c.wins, c.losses) == (1, 1, 0, 0, 0)
    assert (swiss["A"].match_points, swiss["A"].losses, swiss["A"].played) == (0, 1, 1)
    assert swiss["A"].buchholz == 0 and swiss["C"].buchholz == 0
    assert swiss["C"].rank == 1 and swiss["A"].rank == swiss["B"].rank == 2
    # A round-robin rest is no win, counted even when not recorded.
    first = pair_round(RR, entrants, [], 1)
    assert first[-1] == Pairing(1, 2, ord("A"), None)
    results = [Result(1, 1, first[0].first, first[0].second, first[0].second, 1, 5)]
    rr = {s.name: s for s in standings(RR, entrants, results)}
    assert (rr["A"].byes, rr["A"].match_points, rr["A"].played) == (1, 0, 0)
    recorded = [*results, Result(1, 2, ord("A"), None, ord("A"), reason="bye")]
    assert standings(RR, entrants, recorded) == standings(RR, entrants, results)


def test_withdrawn_players_rank_after_those_still_in() -> None:
    entrants = field("A", "B", "C", "D")
    results = [won(1, 1, "A", "C"), won(1, 2, "B", "D")]
    table = standings(SWISS, entrants, results, withdrawn=frozenset({ord("A")}))
    assert [(s.rank, s.name, s.withdrawn) for s in table] == [
        (1, "B", False),
        (2, "C", False),
        (2, "D", False),
        (4, "A", True),
    ]


def test_knockout_ranks_by_round_reached() -> None:
    entrants = field(*"ABCDEFGH")
    results: list[Result] = []
    for round_no in (1, 2, 3):
        for p in pair_round(KO, entrants, results, round_no):
            assert p.second is not None
            # H beats A, then the better seed wins every match; G (seed 7) loses 0-5.
            winner = p.second if (round_no, p.table) == (1, 1) else min(p.players())
            margin = 5 if ord("G") in p.players() else 1
            points = (5, 5 - margin) if winner == p.first else (5 - margin, 5)
            results.append(Result(round_no, p.table, p.first, p.second, winner, *points))
    # Round 1: A v H (H wins), D v E, C v F, B v G. Semis: H v D, C v B. Final: D v B.
    table = standings(KO, entrants, results)
    assert [(s.rank, s.name) for s in table] == [
        (1, "B"), (2, "D"), (3, "C"), (3, "H"), (5, "G"), (5, "E"), (5, "A"), (5, "F"),
    ]  # fmt: skip
    # Shared ranks listed by the tie-breaks: C (Buchholz 3) before H (2); G lost to the
    # champion (Buchholz 3), E to the finalist (2), A and F (1) by seed.
    assert is_over(KO, entrants, results)
    assert champion(KO, entrants, results) == ord("B")


def test_knockout_final_forfeited_both_ways_has_no_champion() -> None:
    entrants = field("A", "B")
    results = [Result(1, 1, ord("A"), ord("B"), None, reason="forfeit")]
    assert is_over(KO, entrants, results)
    assert champion(KO, entrants, results) is None
    assert [s.rank for s in standings(KO, entrants, results)] == [1, 1]


def test_swiss_champion_once_the_last_round_is_in() -> None:
    entrants = field("A", "B", "C", "D")
    results = [won(1, 1, "A", "C"), won(1, 2, "B", "D"), won(2, 1, "A", "B")]
    assert not is_over(SWISS, entrants, results, swiss_rounds=2)
    assert champion(SWISS, entrants, results, swiss_rounds=2) is None
    results.append(won(2, 2, "D", "C"))
    assert is_over(SWISS, entrants, results, swiss_rounds=2)
    assert champion(SWISS, entrants, results, swiss_rounds=2) == ord("A")
    gone = frozenset({ord("A")})
    assert champion(SWISS, entrants, results, swiss_rounds=2, withdrawn=gone) == ord("B")


def test_unknown_players_are_refused() -> None:
    with pytest.raises(ValueError, match="not in the tournament"):
        standings(SWISS, field("A", "B"), [won(1, 1, "A", "Q")])
