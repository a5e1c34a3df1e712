"""A board pastes tiles kept mapped on the palette (:mod:`bot.render.tiles`): its pieces in
groups whose boxes are apart, its strips in parts boxed by their letters' coverage; what it has
not kept it draws on its thread's canvas, maps and wipes. Every pixel is the whole image's mapped
at once, over many seeded games' boards (``RENDER_TILE_GAMES`` games of 80 turns, each turn's
board, its roll's board and a spectator's; 1 by default, about 240 boards, names in other
scripts; ``RENDER_TILE_GAMES=200`` the full check, 43,866 boards), their texts drawn from
glyphs kept (:mod:`bot.render.glyphs`) where the whole image's are rendered whole."""

from __future__ import annotations

import io
import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from PIL import Image, ImageChops, ImageDraw

from bench.render import game_states
from bot.bounded import Bounded
from bot.i18n.core import ENGLISH, LANGUAGES, Language
from bot.render import BoardState, board, forget_kept, glyphs, render_board, render_image
from bot.render.board import _canvas, warm_up
from bot.render.fonts import font
from bot.render.geometry import DEFAULT_SIZE, layout
from bot.render.palette import palette
from bot.render.pieces import Pieces
from bot.render.static import static_board
from bot.render.text import draw_text, text_box
from bot.render.tiles import groups
from bot.render.view import View

GAMES = int(os.environ.get("RENDER_TILE_GAMES", "1"))
NAMES = (
    ("alice", "bob"),
    ("Sir Reginald Backgammonington III", "the_quiet_one_from_discord_12345"),
    ("Ωμέγα Ζήτα", "日本語の名前"),
    ("مرحبا بالعالم", "Z̷̢a̴l̵g̶o̷ ñame"),
    ("🎲🎲 dice", "𐌰𐌹𐌽𐍃 Gothic"),
)


def _same_as_whole(state: BoardState, viewer: int | None, language: Language = ENGLISH) -> bool:
    shown = render_board(state, viewer=viewer, language=language)
    fonts = dict(glyphs._PAIRS)
    glyphs._PAIRS.clear()  # the whole image's texts as Pillow renders them, no glyphs kept
    try:
        whole = render_image(state, viewer=viewer, language=language)
    finally:
        glyphs._PAIRS.update(fonts)
    mapped = whole.quantize(palette=palette(whole.size), dither=Image.Dither.NONE)
    with Image.open(io.BytesIO(shown)) as image:
        image.load()
        return image.tobytes() == mapped.tobytes() and image.getpalette() == mapped.getpalette()


@pytest.mark.slow
def test_seeded_games_boards_are_the_whole_images_mapped() -> None:
    warm_up()
    checked = 0
    for seed in range(GAMES):
        names = NAMES[(seed + 3) % len(NAMES)]  # the first: names in other scripts
        languages: tuple[Language, ...] = ("en", "de", "el")
        language = languages[(seed + 1) % 3]
        for state, viewer in game_states(100 + seed, 80):
            state = replace(state, players=names)
            for shown, seen_by in (
                (state, viewer),  # a new position's board
                (replace(state, dice=None, phase="roll"), 1 - (viewer or 0)),  # its roll's
                (replace(state, dice_used=1), None),  # a spectator's
            ):
                assert _same_as_whole(shown, seen_by, language), (seed, state, seen_by)
                checked += 1
    assert checked >= 3 * 60 * GAMES


def test_the_canvas_is_wiped_after_each_board() -> None:
    forget_kept()
    for state, viewer in game_states(9, 40):
        render_board(state, viewer=viewer)
    assert (
        ImageChops.difference(_canvas(DEFAULT_SIZE), static_board(DEFAULT_SIZE)).getbbox() is None
    )


def _pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image.tobytes()


def test_boards_drawn_in_two_threads_at_once_are_those_drawn_in_one() -> None:
    """Each thread draws on a canvas and pastes into rows of its own (a board's PNG is deflated
    from its thread's rows): two threads drawing a game's boards (and their rolls') at once, each
    in its own order, make the pixels one thread makes."""
    boards = []
    for state, viewer in game_states(13, 24):
        boards += [(replace(state, dice=None, phase="roll"), viewer), (state, viewer)]
    forget_kept()
    warm_up()
    alone = [_pixels(render_board(state, viewer=viewer)) for state, viewer in boards]
    forget_kept()
    warm_up()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # the threads take turns inside each board
    try:
        with ThreadPoolExecutor(2) as pool:
            forward, backward = pool.map(
                lambda shown: [
                    _pixels(render_board(state, viewer=viewer)) for state, viewer in shown
                ],
                (boards, boards[::-1]),
            )
    finally:
        sys.setswitchinterval(interval)
    assert forward == alone
    assert backward == alone[::-1]


def test_a_board_whose_groups_cannot_be_made_apart_is_drawn_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(board, "groups", lambda ops: None)
    for state, viewer in game_states(11, 12):
        assert _same_as_whole(state, viewer)


def test_after_the_warm_up_a_board_draws_no_stack_die_or_lone_mark() -> None:
    forget_kept()
    warm_up()
    kept = set(board._LAYERS) | set(board._DICE)
    for state, viewer in game_states(12, 80):
        render_board(state, viewer=viewer)
    made = (set(board._LAYERS) | set(board._DICE)) - kept
    assert made  # groups of a stack and the last play's rings over it
    assert all(len(key) > 2 for key in made), [key for key in made if len(key) == 2]


def _box(
    ops: list[tuple[int, int, int, int]],
) -> list[tuple[tuple[int, int, int, int], tuple[()], None]]:
    return [(box, (), None) for box in ops]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_groups_are_apart_and_hold_every_op_once() -> None:
    rng = random.Random(32)
    for _ in range(300):
        boxes = []
        for _ in range(rng.randint(0, 30)):
            x, y = rng.randint(0, 200), rng.randint(0, 200)
            boxes.append((x, y, x + rng.randint(1, 40), y + rng.randint(1, 40)))
        found = groups(_box(boxes))  # type: ignore[arg-type]
        if found is None:
            continue
        assert sorted(index for _, members in found for index in members) == list(range(len(boxes)))
        for box, members in found:
            assert list(members) == sorted(members)  # the order they are drawn in
            for index in members:
                x0, y0, x1, y1 = boxes[index]
                assert box[0] <= x0 and box[1] <= y0 and x1 <= box[2] and y1 <= box[3]
        for index, (first, _) in enumerate(found):
            assert not any(_overlap(first, other) for other, _ in found[index + 1 :])
    touching = [(0, 0, 10, 10), (10, 0, 20, 10), (0, 10, 10, 20)]  # edges meet: apart
    assert len(groups(_box(touching)) or []) == 3  # type: ignore[arg-type]


def test_groups_that_one_sweep_cannot_make_apart_are_none() -> None:
    # the first closes before the third, which joins the second over the first's rows
    boxes = [(0, 0, 10, 10), (5, 20, 30, 30), (12, 5, 20, 25)]
    assert groups(_box(boxes)) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", [name for pair in NAMES for name in pair] + ["alice played 6-5: 24/13", "12", "Éj̊"]
)
@pytest.mark.parametrize("halo", [None, (0, 0, 0)])
def test_a_text_draws_only_inside_its_box(text: str, halo: tuple[int, int, int] | None) -> None:
    for size, x, y in ((22, 40.3, 50.7), (26, 41.0, 49.25)):
        face = font(size, bold=size > 22)
        image = Image.new("RGB", (700, 100), (40, 50, 60))
        draw_text(ImageDraw.Draw(image), (x, y), text, face, (250, 240, 230), "lm", halo=halo)
        changed = ImageChops.difference(image, Image.new("RGB", (700, 100), (40, 50, 60)))
        drawn = changed.getbbox()
        box = text_box((x, y), text, face, "lm", halo=halo is not None)
        assert drawn is not None and box is not None
        assert box[0] <= drawn[0] and box[1] <= drawn[1], (box, drawn)
        assert drawn[2] <= box[2] and drawn[3] <= box[3], (box, drawn)


def test_the_strips_parts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board, "_CELLS", Bounded(8))
    monkeypatch.setattr(board, "_DICE", Bounded(4))
    monkeypatch.setattr(board, "_STRIPS", Bounded(board.STRIPS_KEPT))
    for state, viewer in game_states(13, 30):
        render_board(state, viewer=viewer, language=ENGLISH)
        assert len(board._CELLS) <= 8
        assert len(board._DICE) <= 4
    assert len(board._CELLS) == 8
    assert len(board._DICE) == 4


@pytest.mark.parametrize("filled", [False, True])
def test_a_pill_draws_only_inside_its_box(filled: bool) -> None:
    """A pill's box is as tight as Pillow draws it (so that it stays apart from the checker
    below it): drawn over a colour it never uses, every pixel it changes is inside."""
    sentinel = (1, 2, 3)
    state, _ = game_states(3, 2)[0]
    for point in range(1, 25):
        image = Image.new("RGB", DEFAULT_SIZE, sentinel)
        pieces = Pieces(image, ImageDraw.Draw(image), layout(DEFAULT_SIZE), View(state, 0))
        pieces.number_pill(point, filled=filled)
        drawn = ImageChops.difference(image, Image.new("RGB", DEFAULT_SIZE, sentinel)).getbbox()
        (box,) = pieces.drawn
        assert drawn is not None
        assert box[0] <= drawn[0] and box[1] <= drawn[1], (point, box, drawn)
        assert drawn[2] <= box[2] and drawn[3] <= box[3], (point, box, drawn)


def test_a_rolls_board_pastes_the_pieces_of_the_board_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(board, "_BOARDS", Bounded(6))
    for state, viewer in game_states(14, 30):
        render_board(replace(state, dice=None, phase="roll"), viewer=viewer)
        before = set(board._BOARDS)
        assert _same_as_whole(state, viewer)  # the same pieces, and dice
        assert set(board._BOARDS) == before
        assert len(board._BOARDS) <= 6
    assert len(board._BOARDS) == 6


@pytest.mark.slow
def test_boards_with_texts_drawn_from_glyphs_are_the_whole_images_mapped() -> None:
    warm_up()
    for language in LANGUAGES:
        for state, viewer in game_states(7, 20):
            state = replace(state, players=("alice", "Sir Reginald"), score=(3, 11))
            assert _same_as_whole(state, viewer, language), (language, state)
    assert glyphs._PAIRS[font(22)]["al"] and glyphs._PAIRS[font(22)]["ir"]
