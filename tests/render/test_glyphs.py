"""A run drawn from its glyphs kept (:mod:`bot.render.glyphs`) is Pillow's rendering of the whole
run, pixel for pixel: every pip count (0-375) and score (0-25) in every language, 60 turns' last
plays and status lines, each at a seeded pen fraction (``RENDER_GLYPH_FRACTIONS=64``: 150 turns,
each text at each of 64 pen fractions, the full check, about 3 minutes)."""

from __future__ import annotations

import os
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.i18n import images as say
from bot.i18n.core import LANGUAGES
from bot.render import glyphs
from bot.render.board import warm_up
from bot.render.fonts import font
from bot.render.labels import MIN_TEXT
from bot.render.status import STATUS_SIZES
from bot.render.text import draw_text, text_box, text_length
from bot.rules import Position

FRACTIONS = int(os.environ.get("RENDER_GLYPH_FRACTIONS", "1"))
TURNS = 150 if FRACTIONS >= 64 else 60
INK = (40, 50, 60)


def _same_as_pillow(text: str, face: ImageFont.FreeTypeFont, rng: random.Random) -> int:
    """Draw ``text`` at pen fractions (each a 64th, or 128th: a centred text's half) and compare
    with Pillow's own drawing; how many times its glyphs drew it."""
    drawn = 0
    steps = range(0, 128, 2) if FRACTIONS >= 64 else [rng.randrange(128)]
    for step in steps:
        xy = (20 + step / 128, 40 + rng.randrange(128) / 128)
        ours = Image.new("RGB", (560, 80), (250, 240, 230))
        draw_text(ImageDraw.Draw(ours), xy, text, face, INK, "ls")
        pillow = Image.new("RGB", (560, 80), (250, 240, 230))
        ImageDraw.Draw(pillow).text(xy, text, INK, face, "ls")
        assert ours.tobytes() == pillow.tobytes(), (text, face.size, xy)
        assert text_length(text, face) == face.getlength(text), text
        box = text_box(xy, text, face, "ls")
        assert box is not None and pillow.crop(box).getbbox() is not None
        drawn += glyphs.run_glyphs(face, text, "ltr", xy) is not None
    return drawn


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm_up()


@pytest.mark.slow
def test_every_pip_count_and_score_in_every_language_is_pillows() -> None:
    rng = random.Random(32)
    face, drawn = font(MIN_TEXT), 0
    for language in LANGUAGES:
        for pips in range(376):
            drawn += _same_as_pillow(say.PIPS(language, pips=pips), face, rng)
        for score in range(26):
            drawn += _same_as_pillow(say.SCORE(language, score=score), face, rng)
    assert drawn >= 376 * 4  # drawn from glyphs in the languages whose words are ASCII


@pytest.mark.slow
def test_last_plays_and_status_lines_are_pillows() -> None:
    rng = random.Random(6)
    regular, bold = font(MIN_TEXT), font(STATUS_SIZES[0], bold=True)
    position, drawn = Position.initial(), 0
    for turn in range(TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = rng.choice(position.legal_plays(*dice))
        who = ("alice", "bob", "Sir Reginald", "x_y.z-9")[turn % 4]
        for language in LANGUAGES:
            shown = f"{dice[0]}-{dice[1]}"
            text = say.PLAYED(language, who=who, dice=shown, play=play.notation)
            drawn += _same_as_pillow(text, regular, rng)
            status = say.TO_MOVE_DICE(language, who=who, dice=shown)
            drawn += _same_as_pillow(status, bold, rng)
        position = position.play(play)
        if position.is_game_over():
            position = Position.initial()
    assert drawn >= 2 * TURNS  # the names' pairs are checked two a run


def test_a_kerned_pair_is_rendered_whole() -> None:
    face = font(MIN_TEXT)
    assert face.getlength("AV") != face.getlength("A") + face.getlength("V")
    assert not glyphs._pair(face, "AV")
    assert glyphs._pair(face, "12")
    glyphs.warm_pairs(face, "12 pisAV")  # as the warm-up does, whatever ran before
    assert glyphs.run_glyphs(face, "AV", "ltr", (0.0, 0.0)) is None
    assert glyphs.run_glyphs(face, "12 pips", "ltr", (0.5, 0.0)) is not None


def test_a_font_not_warmed_and_other_scripts_are_rendered_whole() -> None:
    assert glyphs.run_glyphs(font(31), "12", "ltr", (0.0, 0.0)) is None
    assert glyphs.run_glyphs(font(MIN_TEXT), "Ωμέγα 12", "ltr", (0.0, 0.0)) is None
    assert glyphs.run_glyphs(font(MIN_TEXT), "12", "rtl", (0.0, 0.0)) is None


def test_a_composed_runs_box_is_its_glyphs_box_and_holds_what_pillow_draws() -> None:
    """The box :func:`glyphs.composed` works out as it places a run's glyphs is the box around
    their masks (what :func:`text_box` boxed mask by mask before), and every pixel Pillow's own
    drawing of the run changes is inside it."""
    face = font(MIN_TEXT)
    glyphs.warm_pairs(face, "0123456789/-:*() ")
    glyphs.warm_texts(face, ["alice played", "bob pips score"])
    rng = random.Random(11)
    for text in ("167 pips", "alice played 6-4: 24/18 13/9*", "bob played 1-1: 8/7(2) 6/5(2)"):
        for _ in range(8):
            xy = (20 + rng.randrange(64) / 64, 40 + rng.randrange(64) / 64)
            found = glyphs.composed(face, text, "ltr", xy)
            assert found is not None, text
            parts, box = found
            assert box == (
                min(x for (x, _), _ in parts),
                min(y for (_, y), _ in parts),
                max(x + mask.size[0] for (x, _), mask in parts),
                max(y + mask.size[1] for (_, y), mask in parts),
            )
            assert text_box(xy, text, face, "ls") == box
            blank = Image.new("RGB", (560, 80), (250, 240, 230))
            pillow = blank.copy()
            ImageDraw.Draw(pillow).text(xy, text, INK, face, "ls")
            drawn = ImageChops.difference(pillow, blank).getbbox()
            assert drawn is not None
            assert box[0] <= drawn[0] and box[1] <= drawn[1], (text, xy)
            assert drawn[2] <= box[2] and drawn[3] <= box[3], (text, xy)
