"""Board images are drawn once per state and side: a second look costs no render."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from bot.render import BoardState, render_board
from bot.service.matches import presentation as images_module
from bot.service.matches.presentation import BoardImages, board_state
from bot.service.table import Table, TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, public, start_match


class CountedRender:
    """The real renderer, counting its calls (by viewer)."""

    def __init__(self) -> None:
        self.viewers: list[int | None] = []

    def __call__(self, state: BoardState, **kwargs: Any) -> bytes:
        self.viewers.append(kwargs.get("viewer"))
        return render_board(state, **kwargs)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> CountedRender:
    counted = CountedRender()
    monkeypatch.setattr(images_module, "render_board", counted)
    return counted


@pytest.fixture
async def drawing(store: Store, clock: FakeClock) -> AsyncIterator[TableService]:
    service = TableService(store, settings=Settings(), dice=seeded_dice(5), clock=clock)
    yield service
    service.close()


async def _table(service: TableService) -> Table:
    table = await service.table(PLACE)
    assert table is not None
    return table


async def test_a_second_board_of_the_same_state_is_not_drawn_again(
    drawing: TableService, renders: CountedRender
) -> None:
    await start_match(drawing, PLACE, ALICE, BOB)
    table = await _table(drawing)
    assert table.match.phase == "move"
    assert len(renders.viewers) == 1  # the status message of the start
    mover = (ALICE, BOB)[table.match.turn or 0]
    [first] = public(await drawing.matches.board(PLACE, mover))
    [spectator] = public(await drawing.matches.board(PLACE, CAROL))  # sees the side on roll too
    [again] = public(await drawing.matches.board(PLACE, mover))
    assert len(renders.viewers) == 1
    assert first.image is not None and first.image == spectator.image == again.image
    other = (ALICE, BOB)[1 - (table.match.turn or 0)]
    [theirs] = public(await drawing.matches.board(PLACE, other))  # the other side: drawn once
    public(await drawing.matches.board(PLACE, other))
    assert renders.viewers[1:] == [1 - (table.match.turn or 0)]
    assert theirs.image is not None and theirs.image != first.image


async def test_a_new_version_is_drawn_anew(drawing: TableService, renders: CountedRender) -> None:
    await start_match(drawing, PLACE, ALICE, BOB)
    table = await _table(drawing)
    mover = (ALICE, BOB)[table.match.turn or 0]
    [before] = public(await drawing.matches.board(PLACE, CAROL))
    public(await drawing.matches.move(PLACE, mover, table.match.legal_plays()[0].notation))
    assert len(renders.viewers) == 2  # the start, then the status message after the move
    moved = await _table(drawing)
    assert moved.match.turn == moved.match.on_roll
    [after] = public(await drawing.matches.board(PLACE, CAROL))  # the status message's picture
    assert len(renders.viewers) == 2
    assert before.image != after.image
    public(await drawing.matches.abort(PLACE, ALICE))  # a new version, the same position
    [asked] = public(await drawing.matches.board(PLACE, CAROL))
    assert len(renders.viewers) == 3
    assert asked.image == after.image


async def test_kept_images_are_bounded_by_bytes(
    drawing: TableService, renders: CountedRender
) -> None:
    await start_match(drawing, PLACE, ALICE, BOB)
    table = await _table(drawing)
    size = len(await drawing.images.board(table, 0, language="en") or b"")
    images = BoardImages(bytes_kept=size * 2 + size // 2)  # room for two boards
    try:
        versions = [Table(replace(table.row, version=v), table.match, table.plain) for v in (7, 8)]
        renders.viewers.clear()
        for each in (*versions, versions[0]):
            await images.board(each, 0, language="en")
        assert len(renders.viewers) == 2  # both kept
        third = Table(replace(table.row, version=9), table.match, table.plain)
        await images.board(third, 0, language="en")  # drops the least recently shown: version 8
        await images.board(versions[0], 0, language="en")
        assert len(renders.viewers) == 3
        await images.board(versions[1], 0, language="en")
        assert len(renders.viewers) == 4
    finally:
        images.close()


async def test_a_renamed_player_gets_a_new_picture(
    drawing: TableService, renders: CountedRender
) -> None:
    await start_match(drawing, PLACE, ALICE, BOB)
    table = await _table(drawing)
    renders.viewers.clear()
    await drawing.images.board(table, 0, language="en")
    renamed = Table(table.row, table.match, ("alicia", table.plain[1]))
    await drawing.images.board(renamed, 0, language="en")
    assert len(renders.viewers) == 2


async def test_no_images_when_they_are_off(service: TableService, renders: CountedRender) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    [board] = public(await service.matches.board(PLACE, CAROL))
    assert board.image is None and renders.viewers == []


async def test_the_board_is_drawn_in_the_commands_language_and_kept_per_language(
    drawing: TableService, renders: CountedRender
) -> None:
    """A German player's ``!board`` shows the board in German (as the renderer draws it in
    German), an English one's after it the English board: the kept PNGs are per language."""
    await start_match(drawing, PLACE, ALICE, BOB)
    table = await _table(drawing)
    mover = (ALICE, BOB)[table.match.turn or 0]
    [english] = public(await drawing.matches.board(PLACE, mover))
    [german] = public(await drawing.matches.board(PLACE, replace(mover, language="de")))
    [again] = public(await drawing.matches.board(PLACE, mover))
    assert english.image is not None and german.image is not None
    assert german.image != english.image == again.image
    state = board_state(table.match, table.plain)
    assert german.image == render_board(state, viewer=table.match.turn, language="de")
    assert len(renders.viewers) == 2  # English once (the start's), German once
