"""A place's lock: one holder at a time, and no entry left once no one holds or waits for it,
even when a waiter was cancelled."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.commands.guard import PlaceLocks
from bot.service.models import Place

PLACE = Place("guild", "c1")


async def test_one_holder_at_a_time_per_place_and_none_kept_after() -> None:
    locks = PlaceLocks()
    order: list[str] = []

    async def hold(name: str, place: Place) -> None:
        async with locks.held(place):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(hold("a", PLACE), hold("b", PLACE), hold("c", Place("guild", "c2")))
    assert order.index("a out") < order.index("b in")  # b waited for a
    assert order.index("c in") < order.index("a out")  # another place's lock: no wait
    assert len(locks) == 0


async def test_a_waiter_cancelled_leaves_no_entry_and_the_lock_free() -> None:
    locks = PlaceLocks()
    inside = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.held(PLACE):
            inside.set()
            await release.wait()

    async def waiter() -> None:
        async with locks.held(PLACE):
            pytest.fail("the waiter was cancelled before it held the lock")

    first = asyncio.create_task(holder())
    await inside.wait()
    second = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await second
    release.set()
    await first
    assert len(locks) == 0
    async with locks.held(PLACE):  # free again
        assert len(locks) == 1
    with pytest.raises(ValueError, match="inside"):
        async with locks.held(PLACE):
            raise ValueError("inside")
    assert len(locks) == 0
