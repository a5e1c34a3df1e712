"""A board is mapped on its palette box by box: only where something was drawn over the static
board; every pixel the same as the whole image mapped at once."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from bench.render import game_states, sample_states
from bot.render import BoardState
from bot.render.board import _palette, _palette_samples, _paletted, _render, merged
from bot.render.geometry import DEFAULT_SIZE

Case = tuple[BoardState, int | None]


def _cases() -> list[Case]:
    cases: list[Case] = list(sample_states().values())
    cases += [
        (state, viewer)
        for state, arrows in _palette_samples()
        if not arrows
        for viewer in (0, 1, None)
    ]
    for seed in range(8):  # random games: hits, the bar, bear-offs, stacks over five
        cases += game_states(seed, 80)
    return cases


@pytest.mark.parametrize("case", _cases()[:12] + random.Random(32).sample(_cases()[12:], 60))
def test_a_board_mapped_where_drawn_is_the_whole_board_mapped(case: Case) -> None:
    state, viewer = case
    image, _, drawn = _render(state, viewer, DEFAULT_SIZE, None, ())
    assert drawn is not None
    whole = image.quantize(palette=_palette(image.size), dither=Image.Dither.NONE)
    assert _paletted(image, drawn).tobytes() == whole.tobytes()


def test_a_board_with_arrows_is_mapped_whole() -> None:
    state, arrows = next((state, arrows) for state, arrows in _palette_samples() if arrows)
    assert _render(state, 0, DEFAULT_SIZE, None, arrows)[2] is None


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
