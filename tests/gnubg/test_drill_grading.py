"""``!drill`` graded by the real GNU Backgammon, through the console's adapter as
tests/service/review/test_drills.py drives it: drills made of a real 2-ply analysis
(tests/gnubg/fixtures/match3-2ply-excerpt.txt, gnubg 1.1.0a16's export of the first moves of a
3-point match), answered with gnubg's best play (right, named its best) and with the play made
in the match (wrong, losing what the analysis recorded for it at the same depth).

The two checker errors of the excerpt take both ways through the rating: bob's 6-5 (13/2) is
among the five plays gnubg's hint scores at 2-ply; alice's 2-2 (8/4 8/6(2)) is not (gnubg's
filters leave it at 0-ply, 0.803), so ``rate_play`` scores it at 2-ply by itself: 0.851, the
analysis' figure."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.console import SERVER, ConsoleClock
from bot.gnubg import installed
from bot.gnubg.api import Query
from bot.gnubg.decisions import ReviewedDecision
from bot.service.review.drills import DRILLED, drill_rows
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.gnubg.test_review_text import two_ply
from tests.service.console_lines import ConsoleTable

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not installed(), reason="needs gnubg"),
    pytest.mark.asyncio(loop_scope="module"),
]

if installed():
    from bot.gnubg.engine import GnubgEngine

START = 1_790_000_000.0
DAY = 86_400.0
DECISIONS = two_ply()
PLIES = 2  # the excerpt's depth
LOSS = re.compile(r"loses (\d+\.\d{3}) ")


def error_of(seat: int) -> ReviewedDecision:
    (found,) = (
        d for d in DECISIONS if d.kind == "checker" and d.skill in DRILLED and d.player == seat
    )
    return found


@pytest_asyncio.fixture(loop_scope="module")
async def drilling(
    tmp_path: Path, engine: GnubgEngine
) -> AsyncIterator[tuple[ConsoleTable, ConsoleClock]]:
    store = await Store.open(tmp_path / "table.sqlite3")
    clock = ConsoleClock(START)
    service = TableService(
        store,
        settings=Settings(analysis_auto=False),
        dice=seeded_dice(5),
        clock=clock,
        images=False,
        engine=engine,
    )
    table = ConsoleTable(service)
    try:
        await table.say("alice: !challenge @bob 3")
        await table.say("bob: !accept")
        rows = drill_rows(SERVER, 1, ("alice", "bob"), DECISIONS, PLIES, START)
        async with store.transaction() as tx:
            await tx.drills.add([row for row in rows if row["kind"] == "checker"])
        yield table, clock
    finally:
        service.close()
        await store.close()


async def test_the_engine_rates_the_two_plays_at_their_depths(engine: GnubgEngine) -> None:
    inside, outside = error_of(1), error_of(0)
    rating = await engine.rate_play(Query(inside.gnubg_id), inside.played or "", plies=PLIES)
    assert rating.played.plies == PLIES and abs(rating.loss - inside.loss) <= 0.002
    rating = await engine.rate_play(Query(outside.gnubg_id), outside.played or "", plies=PLIES)
    # outside the five the filters keep: scored again at the full ply, as the analysis did
    assert rating.played.plies == PLIES and abs(rating.loss - outside.loss) <= 0.002
    assert rating.best.play == outside.best


@pytest.mark.parametrize("seat", [1, 0], ids=["in-the-top-five", "below-them"])
async def test_a_real_drill_is_graded_as_gnubg_analysed_it(
    drilling: tuple[ConsoleTable, ConsoleClock], seat: int
) -> None:
    table, clock = drilling
    error = error_of(seat)
    player = ("alice", "bob")[seat]
    assert error.played and error.best and error.dice
    shown = await table.say(f"{player}: !drill")
    assert f"Drill for {player}" in shown and f"{error.dice[0]}-{error.dice[1]}" in shown
    assert error.best not in shown and "(only you)" not in shown
    # The play made in the match: wrong, losing what the analysis recorded for it.
    answer = await table.say(f"{player}: !drill {error.played}")
    assert "Not this time" in answer and f"gnubg's best: **{error.best}**" in answer, answer
    found = LOSS.search(answer)
    assert found is not None, answer
    assert abs(float(found.group(1)) - error.loss) <= 0.002, (answer, error.loss)
    # Back tomorrow; gnubg's best play: right, and named its best.
    clock.advance(DAY)
    assert f"Drill for {player}" in await table.say(f"{player}: !drill")
    answer = await table.say(f"{player}: !drill {error.best}")
    assert "Right" in answer and f"**{error.best}** is gnubg's best play" in answer, answer
