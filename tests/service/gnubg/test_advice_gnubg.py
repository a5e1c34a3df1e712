"""``!eval`` on pasted positions and ``!hint`` in a game against the bot, through the service
with the real GNU Backgammon, against gnubg's own ``hint`` run here (the oracle, main thread,
output captured): the same plays in the same order with the same equities and plies, the same
cube action."""

from __future__ import annotations

import multiprocessing
import random
import re
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
import pytest_asyncio

from bot.gnubg import installed
from bot.service.models import ENGINE_ID, ENGINE_USER
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service import oracle
from tests.service.conftest import ALICE, PLACE
from tests.service.driver import FakeClock, public

pytestmark = [
    pytest.mark.skipif(not installed(), reason="needs gnubg"),
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.timeout(180),
]

if installed():
    from bot.gnubg.engine import GnubgEngine

PLIES = oracle.PLIES  # !eval and !hint think at 2-ply
# gnubg in a process of its own: in this one, other tests' use of gnubg (hundreds of `set xgid`,
# imported matches) changed its pruned 2-ply rankings of close plays.
ORACLE = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))


@pytest.fixture(scope="module", autouse=True)
def oracle_process() -> Iterator[None]:
    yield
    ORACLE.shutdown()


PLAY_LINE = re.compile(r"^\d+\. (.+?)\s+([+-]\d+\.\d{3})(?: \([+-]\d+\.\d{3}\))?\s+(\d)-ply$")
HINT_LINE = re.compile(r"^\s*\*?\s*\d+\.\s+Cubeful\s+(\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]\d+\.\d+)")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine() -> AsyncIterator[GnubgEngine]:
    engine = GnubgEngine(Settings(engine_workers=1))
    await engine.start()
    yield engine
    await engine.close()


@pytest_asyncio.fixture(loop_scope="module")
async def service(tmp_path: Path, engine: GnubgEngine) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "table.sqlite3")
    service = TableService(
        store,
        settings=Settings(),
        dice=seeded_dice(3),
        clock=FakeClock(),
        images=False,
        engine=engine,
    )
    yield service
    service.close()
    await store.close()


def gnubg_hint(
    position: str, *, count: int = 5, jacoby: bool | None = None, own_filters: bool = False
) -> str:
    """gnubg's own ``hint`` text, from the oracle's process (see :mod:`tests.service.oracle`)."""
    return ORACLE.submit(
        oracle.hint, position, count=count, jacoby=jacoby, own_filters=own_filters
    ).result(timeout=120)


def assert_gnubgs_plays(
    plays: list[tuple[str, str, int]], position: str, jacoby: bool | None = None
) -> None:
    """The hint's lines (docs/gnubg.md): gnubg's own hint's first play first; after it, by equity,
    the plays gnubg's filters kept at 2-ply and the best of the top five at 0-ply, each with
    gnubg's own figure."""
    own = oracle_plays(gnubg_hint(position, jacoby=jacoby, own_filters=True))
    top = {line[0]: line for line in oracle_plays(gnubg_hint(position, jacoby=jacoby))}
    kept = {line[0]: line for line in own[1:] if line[2] == oracle.PLIES}
    assert plays[0][0] == own[0][0], (position, plays, own)
    if own[0][2] == oracle.PLIES:
        assert plays[0] == own[0]
    assert set(kept) <= {line[0] for line in plays} or len(plays) == 5
    for line in plays[1:]:
        assert line == kept.get(line[0], top.get(line[0])), (position, plays)
    equities = [float(line[1]) for line in plays[1:]]
    assert equities == sorted(equities, reverse=True), plays
    assert all(line[2] == oracle.PLIES for line in plays) or len(top) == 1, plays
    assert len(plays) == min(5, len(top)), plays


def oracle_plays(text: str) -> list[tuple[str, str, int]]:
    return [
        (m[2], f"{float(m[3]):+.3f}", int(m[1]))
        for line in text.splitlines()
        if (m := HINT_LINE.match(line))
    ]


def oracle_cube(text: str) -> str | None:
    found = re.search(r"Proper cube action:\s*(.+?)\s*(?:\(|$)", text, re.MULTILINE)
    if found is None:
        assert "You cannot double" in text, text
        return None
    return found[1]


def oracle_cube_equities(text: str) -> dict[str, str]:
    """gnubg's three cubeful equities by the bot's labels: No double, Double, take/pass."""
    found = {}
    for line in text.splitlines():
        m = re.match(r"^\s*\d\.\s+(.+?)\s+([+-]\d+\.\d{3})", line)
        if m is None:
            continue
        words = m[1].lower()
        label = (
            "No double"
            if words.startswith("no ")
            else "Double, pass"
            if "pass" in words
            else "Double, take"
        )
        found[label] = m[2]
    return found


def bot_plays(text: str) -> list[tuple[str, str, int]]:
    return [
        (m[1], m[2], int(m[3]))
        for line in text.splitlines()
        if (m := PLAY_LINE.match(line.strip()))
    ]


# Pasted as players paste them: the opening 31 (money), a 3-point match with the cube at 2,
# a money game with Jacoby before the roll, a cube owned by the opponent, a race, a double
# offered, and gnubg IDs.
ROLLED = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
    "XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8",
    "4HPwATDgc/ABMA:cIkFAAAAAAAE",
    "XGID=-BBBBCC------------ccbbbb-:0:0:1:66:0:0:0:0:10",
]
BEFORE_ROLL = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:10",
    "XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:00:0:0:0:3:8",
    "XGID=aBBBBBC------------bbbbc--:0:0:1:00:0:0:0:0:10",
    "XGID=--BBBBB-A---------abbbbbb-:0:0:1:00:0:0:1:0:10",
]


@pytest.mark.parametrize("position", ROLLED)
async def test_eval_after_a_roll_lists_gnubgs_five_best_plays(
    service: TableService, position: str
) -> None:
    [reply] = public(await service.gnubg.evaluate(PLACE, ALICE, position))
    plays = bot_plays(reply.text)
    assert plays, reply.text
    assert_gnubgs_plays(plays, position)


@pytest.mark.parametrize("position", BEFORE_ROLL)
async def test_eval_before_a_roll_gives_gnubgs_cube_action(
    service: TableService, position: str
) -> None:
    [reply] = public(await service.gnubg.evaluate(PLACE, ALICE, position))
    expected = oracle_cube(gnubg_hint(position))
    if expected is None:
        assert "can't double here" in reply.text, reply.text
        return
    assert f"Cube: **{expected}**." in reply.text, (expected, reply.text)
    equities = oracle_cube_equities(gnubg_hint(position))
    assert len(equities) == 3, equities
    for label, equity in equities.items():
        assert f"{label} {equity}" in reply.text, (label, equity, reply.text)


async def test_eval_of_a_double_offered_answers_the_taker(service: TableService) -> None:
    doubled = "XGID=aBBBBBC------------bbbbc--:1:0:1:D:0:0:0:0:10"
    [reply] = public(await service.gnubg.evaluate(PLACE, ALICE, doubled))
    proper = oracle_cube(gnubg_hint("XGID=aBBBBBC------------bbbbc--:0:0:1:00:0:0:0:0:10"))
    assert proper is not None
    answer = proper.partition(", ")[2].split()[0].lower()
    assert f"should **{answer}** ({proper})" in reply.text, (proper, reply.text)


@pytest.mark.slow
async def test_hint_in_a_bot_game_ranks_plays_as_gnubg(service: TableService) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "5 expert"))
    rng = random.Random(5)
    compared = cubes = 0
    for _ in range(60):
        table = await service.table(PLACE)
        if table is None:
            break
        match = table.match
        assert table.row.player_ids[match.turn or 0] != ENGINE_ID
        seat = match.turn or 0
        if match.phase == "move":
            [hint] = await service.gnubg.hint(PLACE, ALICE)
            assert hint.private
            plays = bot_plays(hint.text)
            assert_gnubgs_plays(plays, match.gnubg_id(), jacoby=False)
            compared += len(plays) > 1
            public(
                await service.matches.move(PLACE, ALICE, rng.choice(match.legal_plays()).notation)
            )
        elif match.phase == "roll":
            if match.can_double(seat):
                [hint] = await service.gnubg.hint(PLACE, ALICE)
                proper = oracle_cube(gnubg_hint(match.gnubg_id(), jacoby=False))
                assert f"Proper cube action: **{proper}**." in hint.text, hint.text
                cubes += 1
            public(await service.matches.roll(PLACE, ALICE))
        elif match.phase == "doubled":
            public(await service.matches.take(PLACE, ALICE))
        else:
            public(await service.matches.accept(PLACE, ALICE))
    assert compared >= 5 and cubes >= 1, (compared, cubes)
