"""bot.render.forget_kept: the renderer as a new process has it, for benchmarks and tests."""

from __future__ import annotations

import importlib
import pkgutil
from functools import _lru_cache_wrapper
from types import ModuleType

import bot.render
from bench.render import game_states, sample_states
from bot.bounded import Bounded
from bot.render import forget_kept, glyphs, render_board, render_image, warm_up
from bot.render.chart import render_chart
from bot.render.fonts import font
from bot.render.sprites import checker_sprite


def _render_modules() -> list[ModuleType]:
    """Every module of bot.render, each imported (so that each has made what it keeps)."""
    return [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(bot.render.__path__, "bot.render.")
        if info.name != "bot.render.make_layers"  # a script, never run by the bot
    ]


def test_forgetting_leaves_no_cache_of_the_renderer_filled() -> None:
    modules = _render_modules()
    warm_up()
    for state, viewer in game_states(5, 12):
        render_board(state, viewer=viewer, language="el")
        render_image(state, viewer=None)
    render_chart((), ("alice", "bob"), length=0, plies=2)
    assert glyphs._PAIRS and checker_sprite.cache_info().currsize
    forget_kept()
    filled = [
        f"{module.__name__}.{name}"
        for module in modules
        for name, value in vars(module).items()
        if (isinstance(value, _lru_cache_wrapper) and value.cache_info().currsize)
        or (isinstance(value, Bounded) and len(value))
    ]
    assert not filled
    assert not glyphs._PAIRS and not glyphs._GLYPHS


def test_a_board_after_forgetting_is_drawn_anew_the_same() -> None:
    state, viewer = sample_states()["middle"]
    warm_up()
    before = render_board(state, viewer=viewer)
    assert glyphs.run_glyphs(font(22), "167", "ltr", (10.0, 10.0)) is not None
    forget_kept()
    assert glyphs.run_glyphs(font(22), "167", "ltr", (10.0, 10.0)) is None  # pairs unchecked
    assert render_board(state, viewer=viewer) == before
    assert checker_sprite.cache_info().misses  # made again
