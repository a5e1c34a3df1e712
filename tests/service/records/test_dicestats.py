"""``!dice``: the server's counters, kept as matches are saved, and the chi-square tests."""

from __future__ import annotations

import math

import pytest

from bot.rules.events import OpeningRoll, Rolled
from bot.service.models import Place
from bot.service.records.dicestats import dice_reply, doubles_test, faces_test
from bot.service.table import TableService
from bot.store.dice import DiceCounts
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import play_out, public, start_match


def test_the_faces_test_against_known_chi_square_figures() -> None:
    fair = faces_test((100, 100, 100, 100, 100, 100))
    assert fair.statistic == 0 and fair.p_value == pytest.approx(1.0)
    # 5 degrees of freedom: P(X >= 11.0705) = 0.05, P(X >= 15.0863) = 0.01 (tables).
    skewed = faces_test((120, 100, 100, 100, 100, 80))
    assert skewed.statistic == pytest.approx(8.0)
    assert skewed.p_value == pytest.approx(0.15624, abs=1e-4)
    assert faces_test((50, 50, 50, 50, 50, 50 + 60)).p_value < 0.001


def test_the_doubles_test() -> None:
    even = doubles_test(600, 100)
    assert even.statistic == 0 and even.p_value == pytest.approx(1.0)
    many = doubles_test(600, 130)  # (30^2/100) + (30^2/500) = 10.8
    assert many.statistic == pytest.approx(10.8)
    assert many.p_value == pytest.approx(math.erfc(math.sqrt(5.4)))
    assert many.p_value == pytest.approx(0.001015, abs=1e-5)


def test_the_reply_says_counts_shares_and_the_verdict() -> None:
    reply = dice_reply(DiceCounts((10, 10, 10, 10, 10, 10), 20, 4), language="en")
    assert "60 dice, opening rolls included" in reply.text
    assert "1:       10  16.67%" in reply.text
    assert "Doubles: 4 of 20 rolls (20.00%, expected 16.67%)" in reply.text
    assert "in line with fair dice" in reply.text
    assert "No dice" in dice_reply(DiceCounts((0,) * 6, 0, 0), language="en").text


def test_too_few_dice_get_the_counts_and_no_verdict() -> None:
    opening = dice_reply(
        DiceCounts((0, 0, 1, 0, 1, 0), 0, 0), language="en"
    ).text  # one opening roll
    assert "2 dice" in opening and "3:        1  50.00%" in opening
    assert "Too few rolls to judge the dice yet" in opening
    assert "chi-square" not in opening and "fair dice" not in opening and "p =" not in opening
    # 30 dice: the faces can be judged; 15 rolls: the doubles not yet
    some = dice_reply(DiceCounts((5, 5, 5, 5, 5, 5), 15, 3), language="en").text
    assert "p = 1.000: in line with fair dice" in some
    assert "Doubles: 3 of 15 rolls (20.00%, expected 16.67%)." in some
    assert "Too few rolls to judge" in some


@pytest.mark.parametrize(
    ("faces", "verdict"),
    [
        ((60, 50, 50, 50, 50, 40), "in line with fair dice"),  # p = 0.549
        ((70, 50, 50, 50, 45, 35), "a little unusual for fair dice"),  # p = 0.023
        ((75, 50, 50, 50, 40, 35), "unusual for fair dice"),  # p = 0.0019
        ((90, 50, 50, 50, 40, 20), "very unusual for fair dice"),
    ],
)
def test_the_verdict_follows_p_honestly(faces: tuple[int, ...], verdict: str) -> None:
    text = dice_reply(DiceCounts(faces, 150, 25), language="en").text  # type: ignore[arg-type]
    p_value = faces_test(faces).p_value
    assert f"p = {p_value:.3f}: {verdict}" in text, (p_value, text)
    assert ("by chance alone." in text.splitlines()[-1]) and (
        ("some will see a p this small" in text) == (p_value < 0.05)
    )


async def test_every_die_of_a_match_is_counted_once(service: TableService) -> None:
    [empty] = await service.server.dice(PLACE, ALICE)
    assert "No dice" in empty.text
    await start_match(service, PLACE, ALICE, BOB, 3)
    await play_out(service, PLACE, (ALICE, BOB), seed=3)
    other = Place("guild", "other")
    await start_match(service, other, BOB, CAROL, 1)
    await play_out(service, other, (BOB, CAROL), seed=4)

    faces = [0] * 6
    rolls = doubles = 0
    for place in (PLACE, other):
        table = await service.latest_table(place)
        assert table is not None
        full = await service.repository.record(table.row)  # replayed from the log
        for event in full.record:
            if isinstance(event, OpeningRoll):
                for die in event.dice:
                    faces[die - 1] += 1
            elif isinstance(event, Rolled):
                rolls += 1
                doubles += event.dice[0] == event.dice[1]
                for die in event.dice:
                    faces[die - 1] += 1
    counted = await service.store.dice.counts(PLACE.server_id)
    assert counted == DiceCounts(tuple(faces), rolls, doubles)  # type: ignore[arg-type]
    assert counted.dice > 100
    assert await service.store.dice.counts("another server") == DiceCounts((0,) * 6, 0, 0)
    [shown] = public(await service.server.dice(PLACE, ALICE))
    assert f"{counted.dice:,} dice" in shown.text
