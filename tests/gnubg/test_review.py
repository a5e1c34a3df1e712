"""Every decision of an analysed match (``MatchAnalysis.decisions``), with GNU Backgammon as the
judge: its own record of the match (``gnubg.match()``), its ``show statistics match`` in this
process, and its hints through a worker.

The matches: seeded random self-play (as in test_analysis.py) and a match gnubg plays against
itself at "intermediate" (tests/gnubg/selfplay.py), which has realistic cube action; analysed
at 0-ply, one at 2-ply (slow)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

gnubg = pytest.importorskip("gnubg")

from bot.gnubg import analysis, worker  # noqa: E402
from bot.gnubg.api import MatchAnalysis, Query  # noqa: E402
from bot.gnubg.capture import captured_output  # noqa: E402
from bot.gnubg.decisions import (  # noqa: E402
    LISTED,
    LUCK,
    THRESHOLDS,
    ReviewedDecision,
    skill_of,
)
from bot.rules.position import Position  # noqa: E402
from bot.rules.randomplay import Policy, random_states  # noqa: E402
from tests.gnubg.analysis_pool import SpawnPool  # noqa: E402
from tests.gnubg.selfplay import gnubg_match  # noqa: E402
from tests.gnubg.test_analysis import (  # noqa: E402
    NAMES,
    analysed_by_gnubg,
    match_mat,
    money_mat,
)

MATCH = match_mat(5)  # 3 points, random players: a double taken, a redouble passed
MONEY = money_mat(6)  # a money game, random players
MONEY_BEAVERED = money_mat(6, beaver=0.3)


@pytest.fixture(scope="module")
def pool() -> Iterator[SpawnPool]:
    workers = SpawnPool()
    yield workers
    asyncio.run(workers.close())


@pytest.fixture(scope="module")
def hints() -> Iterator[SpawnPool]:
    """A worker for gnubg's hints (apart: a hint replaces the match an analysis worker holds)."""
    workers = SpawnPool()
    yield workers
    asyncio.run(workers.close())


@pytest.fixture(scope="module")
def bot_mat(hints: SpawnPool) -> str:
    """5 points, gnubg against itself at "intermediate": 6 games, over 400 decisions, with a
    missed double, a wrong double, a wrong take and a wrong pass."""
    return asyncio.run(hints.call(gnubg_match, 18, 5, "intermediate", NAMES, timeout=120))


def analyse(pool: SpawnPool, mat: str, plies: int = 0, **options: Any) -> MatchAnalysis:
    return asyncio.run(analysis.analyse(pool, mat, plies=plies, timeout=120, **options))


# -- gnubg's own view, in this process ------------------------------------------------------------


@dataclass
class Judge:
    """What gnubg itself says of a match it analysed: {(section, label): the two columns' text}
    from ``show statistics match``, and its record of each game (``gnubg.match()``)."""

    statistics: dict[tuple[str, str], list[str]]
    games: list[list[dict[str, Any]]]
    money: bool

    def count(self, section: str, label: str, side: int) -> int:
        return int(self.statistics[(section, label)][side].split()[0])

    def figures(self, section: str, label: str, side: int) -> list[float]:
        """A column's numbers: EMG, then MWC in percent (match play) or points (money)."""
        return [
            float(n) for n in re.findall(r"[+-]?\d+\.\d+", self.statistics[(section, label)][side])
        ]


def judge(mat: str, *, plies: int = 0, jacoby: bool = False, beavers: bool = False) -> Judge:
    with analysed_by_gnubg(mat, plies=plies, jacoby=jacoby, beavers=beavers):
        record = gnubg.match()
    with captured_output() as printed:
        gnubg.command("show statistics match")
    table: dict[tuple[str, str], list[str]] = {}
    section = ""
    for line in printed.text.splitlines():
        if re.fullmatch(r"(\w+) statistics", line.strip()):
            section = line.split()[0]
        elif len(line) > 41 and line[0] != " ":
            label = re.sub(r"\s*\(.*$", "", line[:41]).strip()
            table.setdefault((section, label), [line[41:65].strip(), line[65:].strip()])
    money = record["match-info"].get("match-length", 0) == 0
    return Judge(table, [game["game"] for game in record["games"]], money)


def notation(steps: tuple[tuple[int, int], ...]) -> str:
    """gnubg's move tuple as text the rules read (25 = bar, 0 = off)."""
    name = {25: "bar", 0: "off"}
    return " ".join(f"{name.get(a, a)}/{name.get(b, b)}" for a, b in steps)


# -- the decisions, one by one ------------------------------------------------------------------


def check_against_gnubgs_record(decisions: tuple[ReviewedDecision, ...], own: Judge) -> None:
    """Every roll and every double, take and pass gnubg has in its record of the match is a
    decision, in order, by the same player, from the same position, with the same play."""
    player = {"X": 0, "O": 1}  # gnubg's X is the first name of the .mat: player 0
    for game, record in enumerate(own.games, start=1):
        ours = [
            d
            for d in decisions
            if d.game == game
            and not (d.kind == "cube" and d.played in ("No double", "No redouble"))
        ]
        kinds = {"Double": "double", "Redouble": "double", "Take": "take", "Pass": "drop"}
        expected = [(a["action"], player[a["player"]]) for a in record]
        assert [
            (
                "move"
                if d.kind == "checker"
                else "double"
                if d.played == "Beaver"
                else kinds[d.played or ""],
                d.player,
            )
            for d in ours
        ] == expected
        for d, action in zip(ours, record, strict=True):
            if "board" in action:
                assert d.gnubg_id.split(":")[0] == action["board"]
            if d.kind != "checker":
                continue
            assert d.dice is not None and sorted(d.dice) == sorted(action["dice"])
            if not action["move"]:
                assert d.played is None and d.candidates == ()
                continue
            before = Position.from_position_id(action["board"])
            made = before.parse_play(notation(action["move"]), d.dice).result
            assert d.played is not None
            assert before.parse_play(d.played, d.dice).result == made


def check_checker_figures(decisions: tuple[ReviewedDecision, ...], plies: int) -> None:
    """gnubg's best play heads the list, the others follow by equity with the play made at its
    rank among all of gnubg's plays; the loss is the played play's difference, its mark
    gnubg's class of that loss; the play made "agrees" only when it ties the best."""
    rolls = [d for d in decisions if d.kind == "checker" and d.played is not None]
    assert rolls
    for d in rolls:
        best, played = d.candidates[0], d.played_candidate
        assert played is not None
        others = [c.equity for c in d.candidates[1:]]
        assert others == sorted(others, reverse=True)
        assert played.rank is not None and played.rank >= d.candidates.index(played) + 1
        assert len(d.candidates) <= LISTED + 1
        assert d.agrees == (played.difference == 0) and consistent_mark(d), d
        assert d.best_plays >= sum(c.difference == 0 for c in d.candidates) >= 1
        assert (d.best, best.rank, best.difference) == (best.play, 1, 0.0)
        assert all(c.difference <= 0 for c in d.candidates)
        for c in d.candidates:  # the difference is to the best, as gnubg computed it
            assert c.difference == pytest.approx(c.equity - best.equity, abs=0.0011)
        assert d.loss == -played.difference >= 0
        assert [c.rank for c in d.candidates[:-1]] == list(range(1, len(d.candidates)))
        assert all(c.plies <= plies and c.cubeful for c in d.candidates)
        if d.forced:
            assert d.candidates == (played,) and d.loss == 0
        if played.mwc is not None:  # match play
            assert played.mwc_difference is not None and d.loss_mwc == -played.mwc_difference


def check_cube_decisions(decisions: tuple[ReviewedDecision, ...], beavers: bool) -> None:
    """Each cube decision names gnubg's action: the decider's half of its verdict."""
    for index, d in enumerate(decisions):
        if d.kind == "checker" or d.cube is None:
            continue
        first, _, second = d.cube.proper.partition(", ")
        if d.kind == "cube":
            assert d.best == first
            assert d.played in ("No double", "No redouble", "Double", "Redouble")
        else:
            answer = second.capitalize()
            assert d.best == ("Take" if answer == "Beaver" and not beavers else answer)
            assert d.cube == decisions[index - 1].cube  # the double's analysis, same side
        assert (d.loss > 0) <= d.wrong  # gnubg only alerts a wrong action
        if d.wrong:
            assert d.played != d.best and d.loss >= 0 and not d.agrees
        assert consistent_mark(d), d  # gnubg's mark is the loss shown, at its thresholds
        assert d.error <= d.wrong  # a mark only where gnubg would act otherwise
        cube = d.cube
        assert cube.best == max(cube.no_double, min(cube.double_take, cube.double_pass))


def consistent_mark(d: ReviewedDecision) -> bool:
    """gnubg's mark is its threshold class of the loss shown (rounded to 0.001 as gnubg prints
    it: a loss printed at a threshold may be marked either way)."""
    near = any(abs(d.loss - line) <= 0.0005 for line in THRESHOLDS.values())
    return d.skill == skill_of(d.loss) or near


def check_counts(result: MatchAnalysis, own: Judge) -> None:
    """The decisions add up to gnubg's statistics: its counts exactly, its totals within the
    rounding of each decision's figure to 0.001."""
    for side, figures in enumerate(result.players):
        mine = [d for d in result.decisions if d.player == side]
        rolls = [d for d in mine if d.kind == "checker"]
        cube = [d for d in mine if d.kind != "checker" and d.cube is not None]

        def count(label: str, section: str = "Chequerplay", side: int = side) -> int:
            return own.count(section, label, side)

        assert len(rolls) == count("Total moves")
        assert (
            sum(not d.forced for d in rolls) == count("Unforced moves") == figures.checker_decisions
        )
        for skill, label in (
            ("doubtful", "Moves marked doubtful"),
            ("bad", "Moves marked bad"),
            ("very bad", "Moves marked very bad"),
        ):
            assert sum(d.skill == skill for d in rolls) == count(label)
        assert sum(d.error for d in rolls) == figures.checker_errors
        assert sum(d.blunder for d in rolls) == figures.checker_blunders
        total = -own.figures("Chequerplay", "Error total EMG", side)[0]
        assert sum(d.loss for d in rolls) == pytest.approx(total, abs=0.0005 * len(rolls) + 1e-9)
        if not own.money:  # gnubg sums each loss turned into MWC at the score: near enough
            percent = -own.figures("Chequerplay", "Error total EMG", side)[1]
            lost = sum(d.loss_mwc or 0 for d in rolls)
            assert 100 * lost == pytest.approx(percent, rel=0.003, abs=0.05)
        luck = own.figures("Luck", "Luck total EMG", side)
        assert sum(d.luck or 0 for d in rolls) == pytest.approx(
            luck[0] if luck else 0.0, abs=0.0005 * len(rolls) + 1e-9
        )
        for mark, label in zip(
            LUCK,
            (
                "Rolls marked very unlucky",
                "Rolls marked unlucky",
                "Rolls unmarked",
                "Rolls marked lucky",
                "Rolls marked very lucky",
            ),
            strict=True,
        ):
            assert sum(d.luck_mark == mark for d in rolls) == count(label, "Luck")

        assert len(cube) == count("Total cube decisions", "Cube")
        doubles = [d for d in cube if d.kind == "cube" and d.played in ("Double", "Redouble")]
        takes = [d for d in cube if d.played == "Take"]
        passes = [d for d in cube if d.played == "Pass"]
        assert (len(doubles), len(takes), len(passes)) == (
            count("Doubles", "Cube"),
            count("Takes", "Cube"),
            count("Passes", "Cube"),
        )
        # gnubg's "close" uses its own figures; these are rounded to 0.001: bounds only
        actual = [d for d in cube if d.kind == "take" or d in doubles]
        sure = [d for d in cube if d not in actual and d.cube and close(d, -0.001)]
        maybe = [d for d in cube if d not in actual and d.cube and close(d, 0.001)]
        close_count = count("Close or actual cube decisions", "Cube")
        assert len(actual) + len(sure) <= close_count <= len(actual) + len(maybe)
        assert close_count == figures.cube_decisions
        missed = count("Missed doubles below CP", "Cube") + count("Missed doubles above CP", "Cube")
        wrong = count("Wrong doubles below DP", "Cube") + count("Wrong doubles above TG", "Cube")
        no_doubles = [d for d in cube if d.kind == "cube" and d not in doubles]
        for group, counted in (
            (no_doubles, missed),
            (doubles, wrong),
            (takes, count("Wrong takes", "Cube")),
            (passes, count("Wrong passes", "Cube")),
        ):
            # gnubg's verdict and its statistics can part where its figures tie (to 0.001):
            # it said "Double, pass" at 1.000 each, and counted a wrong double of -0.000
            wrongs = sum(d.wrong for d in group)
            assert abs(wrongs - counted) <= sum(tie(d) for d in group), (wrongs, counted)
        # the figures' cube errors are gnubg's marks, as the review shows them
        assert sum(d.error for d in cube) == figures.cube_errors
        assert sum(d.blunder for d in cube) == figures.cube_blunders
        cube_total = own.figures("Cube", "Error total EMG", side)
        assert sum(d.loss for d in cube) == pytest.approx(
            -cube_total[0] if cube_total else 0.0, abs=0.0005 * len(cube) + 1e-9
        )


def tie(d: ReviewedDecision) -> bool:
    """gnubg's figures for the decision's two choices are equal as printed."""
    assert d.cube is not None
    cube = d.cube
    if d.kind == "take":
        return abs(cube.double_take - cube.double_pass) < 0.0015
    return abs(cube.no_double - min(cube.double_take, cube.double_pass)) < 0.0015


def close(d: ReviewedDecision, margin: float) -> bool:
    assert d.cube is not None
    return d.cube.best - min(d.cube.double_take, 1.0) < 0.16 + margin


def check_all(result: MatchAnalysis, own: Judge, *, plies: int = 0, beavers: bool = False) -> None:
    assert result.decisions
    assert [d.game for d in result.decisions] == sorted(d.game for d in result.decisions)
    check_against_gnubgs_record(result.decisions, own)
    check_checker_figures(result.decisions, plies)
    check_cube_decisions(result.decisions, beavers)
    check_counts(result, own)
    stored = json.loads(json.dumps(result.to_data()))
    again = MatchAnalysis.from_data(stored)  # the chart and seconds are stored rounded
    assert again.decisions == result.decisions
    assert json.loads(json.dumps(again.to_data())) == stored


def test_a_match_between_random_players(pool: SpawnPool) -> None:
    result = analyse(pool, MATCH)
    check_all(result, judge(MATCH))
    assert {d.kind for d in result.decisions} == {"checker", "cube", "take"}
    assert all(d.loss_mwc is not None for d in result.decisions)
    # each position is one the bot's match went through, as Match.gnubg_id writes it (but the
    # rolls it played by itself: forced, or without a legal play)
    states = {state.gnubg_id() for state in random_states(5, 3, Policy(resign=0.0, double=0.05))}
    assert all(d.gnubg_id in states for d in result.decisions if not d.forced)


def test_a_money_game(pool: SpawnPool) -> None:
    result = analyse(pool, MONEY, jacoby=True)
    check_all(result, judge(MONEY, jacoby=True, beavers=True), beavers=True)
    assert all(d.loss_mwc is None and d.luck_mwc is None for d in result.decisions)


def test_a_match_gnubg_played(pool: SpawnPool, bot_mat: str) -> None:
    result = analyse(pool, bot_mat)
    own = judge(bot_mat)
    check_all(result, own)
    errors = {(d.kind, d.played) for d in result.decisions if d.wrong and d.kind != "checker"}
    assert errors >= {("cube", "No double"), ("cube", "Double"), ("take", "Take"), ("take", "Pass")}


def test_gnubgs_hint_agrees_on_the_best_play(pool: SpawnPool, hints: SpawnPool) -> None:
    """At 0-ply gnubg's hint for each position finds a play as good as the analysis's best
    (the same play but for ties: several plays that end the game alike)."""
    result = analyse(pool, MATCH)
    rolls = [d for d in result.decisions if d.kind == "checker" and not d.forced]

    async def best_plays() -> list[Any]:
        return [
            (await hints.call(worker.hint_plays, Query(d.gnubg_id), 1, 0, timeout=30))[0]
            for d in rolls
        ]

    for d, hint in zip(rolls, asyncio.run(best_plays()), strict=True):
        assert hint.equity == pytest.approx(d.candidates[0].equity, abs=0.0015)
        assert (
            hint.play == d.best
            or hint.equity == pytest.approx(-1.0, abs=0.002)
            or (hint.equity == pytest.approx(1.0, abs=0.002))
        )


def test_beavers_as_gnubg_exports_them(pool: SpawnPool) -> None:
    """gnubg doesn't analyse a beaver, nor the take of it ("Cannot analyse beaver nor
    raccoons!"): both are decisions without figures. Its statistics then disagree with its own
    export (1.1.0a16): they count the beaver's take as an analysed take, and leave out the
    missed doubles the export marks; so only the checker play is compared here."""
    result = analyse(pool, MONEY_BEAVERED, jacoby=True)
    own = judge(MONEY_BEAVERED, jacoby=True, beavers=True)
    answers = [(d.player, d.played, d.cube) for d in result.decisions if d.kind == "take"]
    assert (1, "Beaver", None) in answers and (0, "Take", None) in answers
    check_against_gnubgs_record(result.decisions, own)
    check_checker_figures(result.decisions, 0)
    check_cube_decisions(result.decisions, beavers=True)
    for side in (0, 1):
        rolls = [d for d in result.decisions if d.player == side and d.kind == "checker"]
        assert len(rolls) == own.count("Chequerplay", "Total moves", side)
        assert sum(d.error for d in rolls) == result.players[side].checker_errors


@pytest.mark.slow
def test_a_match_analysed_at_2_ply(pool: SpawnPool, hints: SpawnPool) -> None:
    """At 2-ply gnubg's list mixes depths (its move filters): the decisions keep each one's.
    (A 3-point match gnubg played at "intermediate", 115 decisions: 41 cube decisions, a wrong
    take, and checker plays of every mark.)"""
    mat = asyncio.run(hints.call(gnubg_match, 21, 3, "intermediate", NAMES, timeout=120))
    result = analyse(pool, mat, plies=2)
    check_all(result, judge(mat, plies=2), plies=2)
    depths = {c.plies for d in result.decisions for c in d.candidates}
    assert 2 in depths and len(depths) > 1


@pytest.mark.slow
def test_a_25_point_match_is_stored_in_under_200_kb(pool: SpawnPool, hints: SpawnPool) -> None:
    """A 25-point match gnubg played against itself at "advanced": some 20 games, 800 rolls
    and 500 cube decisions."""
    mat = asyncio.run(hints.call(gnubg_match, 11, 25, "advanced", NAMES, timeout=300))
    result = analyse(pool, mat)
    check_all(result, judge(mat))
    size = len(json.dumps(result.to_data(), separators=(",", ":")))
    assert len(result.decisions) > 1000
    assert size < 200_000, f"{size} bytes for {len(result.decisions)} decisions"
