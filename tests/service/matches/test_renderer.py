"""The renderer's thread: its calls run in order in a thread of their own, each answered on the
event loop's future (a result or the call's error); closing it draws what was given first."""

from __future__ import annotations

import asyncio
import functools
import threading
import time

import pytest

from bot.service.matches.renderer import Renderer


async def test_calls_run_in_order_in_one_thread_and_answer_on_the_loop() -> None:
    renderer = Renderer()
    ran: list[tuple[int, str]] = []

    def call(n: int) -> int:
        time.sleep(0.01 if n == 0 else 0)  # a later call waits for the one before
        ran.append((n, threading.current_thread().name))
        return n * n

    try:
        futures = [renderer.run(functools.partial(call, n)) for n in range(4)]
        assert await asyncio.gather(*futures) == [0, 1, 4, 9]
        assert ran == [(n, "render_0") for n in range(4)]
        assert all(future.get_loop() is asyncio.get_running_loop() for future in futures)
    finally:
        renderer.close()


async def test_an_error_reaches_the_caller_and_the_thread_goes_on() -> None:
    renderer = Renderer()

    def broken() -> bytes:
        raise ValueError("no board")

    try:
        with pytest.raises(ValueError, match="no board"):
            await renderer.run(broken)
        assert await renderer.run(lambda: b"png") == b"png"
    finally:
        renderer.close()


async def test_a_caller_that_stopped_waiting_leaves_the_next_call_answered() -> None:
    renderer = Renderer()
    release = threading.Event()
    try:
        slow = renderer.run(release.wait)
        slow.cancel()
        later = renderer.run(lambda: "drawn")
        release.set()
        assert await later == "drawn"
        assert slow.cancelled()
    finally:
        renderer.close()


async def test_closing_draws_what_was_given_then_refuses_more() -> None:
    renderer = Renderer()
    drawn: list[int] = []
    futures = [renderer.run(functools.partial(drawn.append, n)) for n in range(3)]
    renderer.close()
    assert drawn == [0, 1, 2]
    await asyncio.sleep(0)  # the answers' callbacks
    assert all(future.done() for future in futures)
    with pytest.raises(RuntimeError, match="closed"):
        renderer.run(lambda: None)
