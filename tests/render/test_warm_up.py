"""The renderer's warm-up at start makes every sprite a board pastes, so that no board a player
asks for waits while one is drawn (the slowest boards were the first with a new sprite)."""

from __future__ import annotations

from functools import _lru_cache_wrapper
from typing import Any

from bench.render import game_states, sample_states
from bot.render import forget_kept, render_board, warm_up
from bot.render.pieces import tray_patch
from bot.render.sprites import checker_sprite, cube_sprite, die_sprite, ring_sprite

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
