"""The look does not change: every reference board (``board_references.py``: the bench's samples
and seeded random states, drawn by the renderer before it was made fast) comes out with the same
pixels, within :data:`TOLERANCE` on each channel."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.render.state import PHASES
from tests.render.board_references import Reference, references

TOLERANCE = 0
"""Largest difference allowed on any channel of any pixel (0-255). The renderer draws the same
RGB image as before and maps it on the same fixed palette, so it is exact."""

REFERENCES = references()


def _rgb(png: bytes | str) -> Image.Image:
    with Image.open(io.BytesIO(png) if isinstance(png, bytes) else png) as image:
        return image.convert("RGB")


@pytest.mark.parametrize("reference", REFERENCES, ids=[ref.name for ref in REFERENCES])
def test_board_keeps_its_pixels(reference: Reference) -> None:
    expected = _rgb(str(reference.path))
    drawn = _rgb(reference.render())
    assert drawn.size == expected.size
    counts = ImageChops.difference(drawn, expected).histogram()  # 256 a channel
    worst = max(index % 256 for index, count in enumerate(counts) if count)
    assert worst <= TOLERANCE, f"{reference.name}: a channel differs by {worst}"


def test_references_cover_every_phase_viewer_and_size() -> None:
    assert {ref.state.phase for ref in REFERENCES} == set(PHASES)
    assert {ref.viewer for ref in REFERENCES} == {0, 1, None}
    assert len({ref.size for ref in REFERENCES}) == 2
    assert any(ref.arrows for ref in REFERENCES)
    assert any(ref.state.clock for ref in REFERENCES)
    assert any(ref.state.last_play for ref in REFERENCES)
