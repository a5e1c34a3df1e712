"""Names in any script on the board: fallback fonts, runs, right-to-left order, truncation."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from bot.render import BoardState, render_board, render_image
from bot.render import runs as runs_module
from bot.render.fonts import (
    BOLD,
    FALLBACKS,
    FONT_DIR,
    REGULAR,
    REGULAR_FALLBACKS,
    FontFileError,
    coverage,
    font,
    read_cmap,
)
from bot.render.geometry import DEFAULT_SIZE, layout
from bot.render.runs import REPLACEMENT, Run, runs, shown_text
from bot.render.text import ELLIPSIS, draw_text, fit_text
from bot.rules import Position

SAMPLES = [
    "Ω🙂 山田太郎",
    "عربي",
    "Zalgơ̸̢",
    "**bold**",
    "김민준",
    "नमस्ते",
    "ภาษาไทย",
    "வணக்கம்",
    "বাংলা",
    "שלום",
    "ᚠᛇᚻ",
    "Ελένη",
    "Дмитрий",
    "👨\u200d👩\u200d👧 ❤️ 🇯🇵 👍🏽",
    "𒀭𒂗𒍪",  # cuneiform, and the other scripts past the Basic Multilingual Plane
    "𓀀𓁐 Ra",
    "𐌰𐌱𐌲 𔐀 𖠀",
]


def test_fallback_fonts_and_their_licences_ship_with_the_repository() -> None:
    for path in (
        *FALLBACKS,
        *REGULAR_FALLBACKS,
        FONT_DIR / "LICENSE-Noto.txt",
        FONT_DIR / "LICENSE-Unifont.txt",
    ):
        assert path.is_file(), path
    total = sum(path.stat().st_size for path in FONT_DIR.iterdir())
    # Both weights of the scripts' fonts, and every script a name may be written in (the four
    # Noto fonts of scripts Unifont leaves out: 1.9 MB).
    assert total < 13 * 1024 * 1024


@pytest.mark.parametrize("text", ["李小龙", "김민준", "عربي", "नमस्ते", "ภาษาไทย"])
def test_a_name_in_regular_text_is_not_drawn_bold(text: str) -> None:
    # CJK and other scripts were drawn bold in regular lines, which reads as a winner's highlight.
    (regular,) = runs(text, font(24))
    (bold,) = runs(text, font(24, bold=True))
    assert regular.path in REGULAR_FALLBACKS and "Regular" in regular.path.name
    assert bold.path in FALLBACKS and "Bold" in bold.path.name

    def ink(bold: bool) -> int:
        image = Image.new("RGB", (300, 60), (0, 0, 0))
        draw_text(ImageDraw.Draw(image), (10, 30), text, font(24, bold=bold), (255, 255, 255))
        return sum(1 for value in image.convert("L").tobytes() if value > 128)

    assert ink(False) < 0.9 * ink(True)


def test_cmap_reader_knows_which_font_draws_what() -> None:
    dejavu = coverage(BOLD)
    assert "a" in dejavu and "Ω" in dejavu and "ש" in dejavu
    assert "山" not in dejavu and "🙂" not in dejavu
    assert "ع" not in dejavu  # Arabic words come whole from Noto Sans Arabic
    by_name = {path.name: coverage(path) for path in FALLBACKS}
    assert "山" in by_name["NotoSansCJKjp-Bold-subset.otf"]
    assert "김" in by_name["NotoSansCJKjp-Bold-subset.otf"]
    assert "🙂" in by_name["NotoEmoji-Bold.ttf"]
    assert "ع" in by_name["NotoSansArabic-Bold.ttf"]
    assert "ᚠ" in by_name["unifont-subset.otf"]
    with pytest.raises(FontFileError):
        read_cmap(b"\x00\x01\x00\x00\x00\x00" + b"\x00" * 20, "junk")


@pytest.mark.parametrize("text", SAMPLES)
def test_every_character_of_a_name_has_a_glyph(text: str) -> None:
    found = runs(text, font(20, bold=True))
    shown = "".join(run.text for run in found)
    assert REPLACEMENT not in shown
    assert sorted(shown) == sorted(text)
    for run in found:
        covered = coverage(run.path)
        for char in run.text:
            assert char in covered or char == " ", (run, char)


def _drawn(text: str, size: int = 24) -> bytes:
    image = Image.new("RGB", (600, 60), (0, 0, 0))
    draw_text(ImageDraw.Draw(image), (10, 30), text, font(size, bold=True), (255, 255, 255))
    return image.convert("L").tobytes()


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("山田", "田山"),
        ("🙂", "🔥"),
        ("عربي", "عرب"),
        ("नम", "मन"),
        ("김", "민"),
        ("ᚠ", "ᛇ"),
    ],
)
def test_distinct_characters_are_drawn_distinctly_not_as_boxes(one: str, other: str) -> None:
    # Before the fallbacks, every character DejaVu lacks was the same empty box.
    assert _drawn(one) != _drawn(other)
    assert any(_drawn(one))


def test_invisible_and_bidi_characters_draw_nothing() -> None:
    assert _drawn("\u202eevil") == _drawn("evil")
    assert _drawn("e\u200bvil\u2066") == _drawn("evil")
    assert runs("\ue000\x07", font(20)) == ()


def test_compatibility_forms_are_drawn_as_plain_letters() -> None:
    script = "\U0001d4ea\U0001d4f5\U0001d4f2\U0001d4ec\U0001d4ee"  # mathematical script "alice"
    assert _drawn(script) == _drawn("alice")


def test_right_to_left_words_are_laid_out_right_to_left() -> None:
    found = runs("alice שלום עולם", font(20))
    assert [run.text for run in found] == ["alice", " ", "עולם", " ", "שלום"]
    assert [run.rtl for run in found] == [False, False, True, False, True]
    arabic = runs("a عربي عرب", font(20))
    assert [run.text for run in arabic][-3:] == ["عرب", " ", "عربي"]


def test_without_raqm_right_to_left_runs_are_reversed() -> None:
    basic = ImageFont.truetype(str(REGULAR), 20, layout_engine=ImageFont.Layout.BASIC)
    assert shown_text(basic, Run("שלום", REGULAR, rtl=True)) == "םולש"
    assert shown_text(basic, Run("abc", REGULAR)) == "abc"


def test_truncation_never_splits_a_character_or_an_emoji_sequence() -> None:
    face = font(20, bold=True)
    family = "👨\u200d👩\u200d👧"
    for text in ("e\u0301" * 40, family * 20, "🇯🇵" * 30, "山田太郎" * 10):
        short = fit_text(text, face, 120)
        assert short.endswith(ELLIPSIS)
        kept = short[:-1]
        assert text.startswith(kept)
        rest = text[len(kept) :]
        assert not unicodedata.category(rest[0]).startswith("M")
        assert rest[0] not in ("\u200d", "\U0001f1f5")
        assert not kept.endswith("\u200d")


def _strips(players: tuple[str, str]) -> Image.Image:
    board = BoardState(Position.initial(), 0, players, phase="move", dice=(3, 4))
    return render_image(board, viewer=0)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("山田太郎", "田中太郎"),
        ("김민준", "이민준"),
        ("🙂", "🔥"),
        ("नमक", "कमन"),
        ("ᚠᛇ", "ᛇᚠ"),
    ],
)
def test_board_shows_names_in_any_script(one: str, other: str) -> None:
    # Before the fallbacks both names were rows of identical boxes: the strips were the same.
    geo = layout(DEFAULT_SIZE)
    box = geo.bottom_strip
    assert _strips((one, "bob")).crop(box).tobytes() != _strips((other, "bob")).crop(box).tobytes()


def test_png_with_emoji_and_cjk_names_stays_small() -> None:
    """(bench/render.py times such boards: a test asserts no times.)"""
    names = ("👨\u200d👩\u200d👧🙂😀🎲❤️🇯🇵👍🏽🔥✨🎉🐉", "山田太郎 김민준 عربي नमस्ते ภาษาไทย")
    board = BoardState(Position.initial(), 0, names, phase="doubled", cube_value=2)
    for viewer in (0, 1, None):
        assert len(render_board(board, viewer=viewer)) <= 80 * 1024


@pytest.mark.parametrize("halo", [None, (20, 30, 40), (250, 250, 250)])
def test_kept_letters_draw_what_pillow_draws(halo: tuple[int, int, int] | None) -> None:
    """draw_text keeps each text's rendered letters (bot.render.text._mask): the pixels are
    Pillow's own ``ImageDraw.text`` of each run, at every fraction of a pixel, halo or not."""
    size = 23
    for index, text in enumerate(SAMPLES):
        x, y = 10 + index * 0.37, 40 + index * 0.61
        kept = Image.new("RGB", (500, 80), (40, 50, 60))
        draw_text(ImageDraw.Draw(kept), (x, y), text, font(size), (250, 250, 250), "ls", halo=halo)
        drawn = Image.new("RGB", (500, 80), (40, 50, 60))
        pen = ImageDraw.Draw(drawn)
        for run in runs(text, font(size)):
            face = ImageFont.truetype(str(run.path), size)
            shown = shown_text(face, run)
            direction = None
            if face.layout_engine == ImageFont.Layout.RAQM:
                direction = "rtl" if run.rtl else "ltr"
            pen.text(
                (x, y),
                shown,
                fill=(250, 250, 250),
                font=face,
                anchor="ls",
                direction=direction,
                stroke_width=0 if halo is None else max(2, size // 8),
                stroke_fill=halo,
            )
            x += face.getlength(shown, direction=direction)
        assert kept.tobytes() == drawn.tobytes(), text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1))
def test_plain_ascii_runs_are_the_general_ones(text: str) -> None:
    for primary in (REGULAR, BOLD):
        assert runs_module.path_runs(text, primary) == runs_module._split_runs(text, primary)
