"""GnubgEngine's lanes: the bot's turns ask the play lane first, the rest as advice; the
analysis worker yields the CPU to the play workers."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import pytest

from bot.gnubg.api import ADVICE_PRIORITY, LEVELS, TURN_PRIORITY, Query, TurnChoice
from bot.gnubg.engine import ANALYSIS_NICENESS, GnubgEngine
from bot.rules import Match
from bot.settings import Settings


class Recorder:
    """A play lane that notes each call's priority and affinity, and answers at once."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, int | None]] = []

    async def call(
        self,
        function: Callable[..., Any],
        *args: Any,
        timeout: float,
        affinity: int | None = None,
        priority: int = TURN_PRIORITY,
    ) -> Any:
        self.asked.append((function.__name__, priority, affinity))
        return TurnChoice() if function.__name__ == "take_turn" else ()


async def test_the_bots_turns_go_first_and_everything_else_as_advice() -> None:
    engine = GnubgEngine(Settings(engine_workers=1))
    lane = Recorder()
    engine.play_pool = lane  # type: ignore[assignment]
    query = Query.of(Match.start(3), match_key=12)
    await engine.take_turn(query, LEVELS["expert"])  # always the bot's own turn
    await engine.hint_plays(query)
    await engine.cube_advice(query, LEVELS["expert"])  # the coach's
    await engine.cube_advice(query, LEVELS["expert"], priority=TURN_PRIORITY)  # the bot's
    await engine.resignation_answer(query, LEVELS["expert"], priority=TURN_PRIORITY)
    assert lane.asked == [
        ("take_turn", TURN_PRIORITY, 12),
        ("hint_plays", ADVICE_PRIORITY, 12),
        ("cube_advice", ADVICE_PRIORITY, 12),
        ("cube_advice", TURN_PRIORITY, 12),
        ("resignation_answer", TURN_PRIORITY, 12),
    ]


@pytest.mark.skipif(sys.platform != "linux", reason="niceness as Linux counts it")
async def test_the_analysis_worker_runs_at_a_lower_cpu_priority() -> None:
    engine = GnubgEngine(Settings(engine_workers=1))
    try:
        await engine.start()
        [play] = engine.play_pool.pids()
        [analysis] = engine.analysis_pool.pids()
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, play) == ours
        assert os.getpriority(os.PRIO_PROCESS, analysis) == min(ours + ANALYSIS_NICENESS, 19)
    finally:
        await engine.close()
