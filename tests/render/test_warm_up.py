"""The renderer's warm-up at start makes every sprite a board pastes, so that no board a player
asks for waits while one is drawn (the slowest boards were the first with a new sprite)."""

from __future__ import annotations

from functools import _lru_cache_wrapper
from typing import Any

import pytest
from PIL import ImageFont

from bench.render import game_states, sample_states
from bot.i18n import images as say
from bot.i18n.core import ENGLISH
from bot.render import BoardState, forget_kept, glyphs, render_board, status_text, warm_up
from bot.render.fonts import font
from bot.render.labels import MIN_TEXT
from bot.render.pieces import tray_patch
from bot.render.sprites import checker_sprite, cube_sprite, die_sprite, ring_sprite
from bot.render.status import STATUS_SIZES
from bot.rules import Position

SPRITES: tuple[_lru_cache_wrapper[Any], ...] = (
    checker_sprite,
    ring_sprite,
    die_sprite,
    cube_sprite,
    tray_patch,
)


def test_after_the_warm_up_no_board_makes_a_sprite() -> None:
    forget_kept()
    warm_up()
    made = [cache.cache_info().misses for cache in SPRITES]
    assert all(made)
    boards = list(sample_states().values())
    for seed in range(2):  # hits, the bar, bear-offs
        boards += game_states(seed, 80)
    for state, viewer in boards:
        render_board(state, viewer=viewer)
    assert [cache.cache_info().misses for cache in SPRITES] == made


def test_after_the_warm_up_a_boards_words_and_numbers_are_drawn_from_glyphs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forget_kept()
    warm_up()

    def unchecked(face: ImageFont.FreeTypeFont, pair: str) -> bool:
        raise AssertionError(f"the pair {pair!r} was not checked in the warm-up")

    monkeypatch.setattr(glyphs, "_pair", unchecked)
    waiting = BoardState(Position.initial(), 0, ("", ""))
    for text, face in (
        (say.PIPS(ENGLISH, pips=167), font(MIN_TEXT)),
        (status_text(waiting), font(STATUS_SIZES[0], bold=True)),
        ("21", font(MIN_TEXT, bold=True)),  # a point number in its pill
    ):
        assert glyphs.run_glyphs(face, text, "ltr", (10.5, 40.0)) is not None, text
