"""A board is mapped on its palette box by box: only where something was drawn over the static
board, its pieces kept mapped for the next board with the same pieces (a roll's board after the
play before it), each strip kept mapped for the next board that shows the same in it; every pixel
the same as the whole image mapped at once."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops, ImageDraw

from bench.render import game_states, sample_states
from bot.bounded import Bounded
from bot.render import BoardState, board, forget_kept, png, render_board, render_image
from bot.render.geometry import DEFAULT_SIZE, layout
from bot.render.palette import merged, palette, paletted
from bot.render.samples import palette_samples
from bot.render.static import static_board
from bot.render.strips import Strips
from bot.render.view import View
from bot.render.whole import drawn_whole

Case = tuple[BoardState, int | None]


def _cases() -> list[Case]:
    cases: list[Case] = list(sample_states().values())
    cases += [
        (state, viewer)
        for state, arrows in palette_samples()
        if not arrows
        for viewer in (0, 1, None)
    ]
    for seed in range(8):  # random games: hits, the bar, bear-offs, stacks over five
        cases += game_states(seed, 80)
    return cases


@pytest.mark.parametrize("case", _cases()[:12] + random.Random(32).sample(_cases()[12:], 60))
def test_a_board_mapped_where_drawn_is_the_whole_board_mapped(case: Case) -> None:
    state, viewer = case
    image, _, drawn = drawn_whole(state, viewer, DEFAULT_SIZE, None, ())
    assert drawn is not None
    whole = image.quantize(palette=palette(image.size), dither=Image.Dither.NONE)
    assert paletted(image, drawn).tobytes() == whole.tobytes()


def test_a_board_with_arrows_is_mapped_whole() -> None:
    state, arrows = next((state, arrows) for state, arrows in palette_samples() if arrows)
    assert drawn_whole(state, 0, DEFAULT_SIZE, None, arrows)[2] is None


def test_merged_boxes_hold_every_pixel_of_the_boxes() -> None:
    rng = random.Random(5)
    for _ in range(200):
        boxes = []
        for _ in range(rng.randint(0, 12)):
            x, y = rng.randint(0, 60), rng.randint(0, 60)
            boxes.append((x, y, x + rng.randint(1, 20), y + rng.randint(1, 20)))
        out = merged(boxes)
        assert len(out) <= len(boxes)
        for x0, y0, x1, y1 in boxes:
            for x, y in ((x0, y0), (x1 - 1, y1 - 1), (x0, y1 - 1), (x1 - 1, y0)):
                assert any(a <= x < c and b <= y < d for a, b, c, d in out)
    stack = [(10, 10 + 45 * n, 55, 55 + 45 * n) for n in range(5)]  # checkers touching
    assert merged(stack) == [(10, 10, 55, 235)]


def _whole(state: BoardState, viewer: int | None) -> Image.Image:
    image = render_image(state, viewer=viewer)
    return image.quantize(palette=palette(image.size), dither=Image.Dither.NONE)


def _same_pixels(png: bytes, expected: Image.Image) -> bool:
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image.tobytes() == expected.tobytes() and image.getpalette() == expected.getpalette()


def test_boards_drawn_over_kept_pieces_are_the_whole_boards() -> None:
    forget_kept()
    kept = 0
    for state, viewer in game_states(3, 40):
        # the roll's board after the play before it, then the board of that roll (same pieces)
        for shown in (replace(state, dice=None, phase="roll"), state, replace(state, dice_used=1)):
            before = len(board._LAYERS)
            assert _same_pixels(render_board(shown, viewer=viewer), _whole(shown, viewer))
            kept += len(board._LAYERS) == before
    assert kept >= 60  # most boards reused the pieces of the board before


def test_a_rolls_board_deflates_only_the_rows_of_its_dice_and_status_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forget_kept()
    deflated: list[int] = []

    def counted(data: memoryview) -> png.Run:
        deflated.append(len(data))
        return png.deflated(data)

    monkeypatch.setattr(board, "deflated", counted)
    width = DEFAULT_SIZE[0] + 1
    cuts = board._cuts(DEFAULT_SIZE)
    dice, status = cuts[2] - cuts[1], cuts[4] - cuts[3]
    for state, viewer in game_states(6, 12):
        before = replace(state, dice=None, phase="roll")
        assert _same_pixels(render_board(before, viewer=viewer), _whole(before, viewer))
        deflated.clear()
        assert _same_pixels(render_board(state, viewer=viewer), _whole(state, viewer))
        if state.dice is not None and state.phase == "move":
            assert deflated == [dice * width, status * width]


def test_a_board_whose_pieces_changed_does_not_reuse_them() -> None:
    state, viewer = sample_states()["middle"]
    render_board(state, viewer=viewer)
    for changed in (
        replace(state, cube_value=4),
        replace(state, cube_owner=0),
        replace(state, last_play=None),
        replace(state, phase="doubled", dice=None),
        replace(state, position=state.position.swapped()),
        replace(state, on_roll=1 - state.on_roll),  # the same position, the other's on roll
    ):
        assert _same_pixels(render_board(changed, viewer=viewer), _whole(changed, viewer))
    other = 0 if viewer == 1 else 1
    assert _same_pixels(render_board(state, viewer=other), _whole(state, other))


def test_the_pieces_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board, "_LAYERS", Bounded(8))
    for state, viewer in game_states(4, 30):
        render_board(state, viewer=viewer)
        assert len(board._LAYERS) <= 8
    assert len(board._LAYERS) == 8


@pytest.mark.parametrize("case", random.Random(7).sample(_cases(), 40))
def test_each_strip_paints_only_inside_its_box(case: Case) -> None:
    state, viewer = case
    static = static_board(DEFAULT_SIZE)
    view = View(state, state.on_roll if viewer is None else viewer)
    for index in range(3):
        image = static.copy()
        box, _, paint = Strips(image, ImageDraw.Draw(image), layout(DEFAULT_SIZE), view).parts()[
            index
        ]
        paint()
        changed = ImageChops.difference(image, static).getbbox()
        assert changed is not None
        assert box[0] <= changed[0] and box[1] <= changed[1]
        assert changed[2] <= box[2] and changed[3] <= box[3]


def test_a_strip_kept_is_painted_anew_when_what_it_shows_changes() -> None:
    state, viewer = sample_states()["middle"]
    render_board(state, viewer=viewer)
    assert board._STRIPS
    last = state.last_play
    assert last is not None
    for changed in (
        replace(state, players=("carol", "bob")),
        replace(state, players=("alice", "dave")),
        replace(state, score=(3, 4)),
        replace(state, match_length=9),
        replace(state, match_length=0, score=(0, 0)),
        replace(state, crawford=True),
        replace(state, last_play=replace(last, player=1 - last.player)),
        replace(state, phase="roll", dice=None),
        replace(state, on_roll=1 - state.on_roll),
        replace(state, clock=(90.0, 45.0), clock_running=state.on_roll, clock_delay=7.0),
        replace(state, clock=(90.0, 44.0), clock_running=state.on_roll, clock_delay=7.0),
    ):
        assert _same_pixels(render_board(changed, viewer=viewer), _whole(changed, viewer))
        assert _same_pixels(render_board(state, viewer=viewer), _whole(state, viewer))


def test_the_strips_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board, "_STRIPS", Bounded(8))
    for state, viewer in game_states(4, 30):
        render_board(state, viewer=viewer)
        assert len(board._STRIPS) <= 8
    assert len(board._STRIPS) == 8
