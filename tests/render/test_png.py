"""bot/render/png.py: the PNG it writes is read back by Pillow as the very image it was given."""

from __future__ import annotations

import io
import random
from itertools import pairwise

import pytest
from PIL import Image

from bot.render.png import deflated, png_bytes, png_of_runs


@pytest.mark.parametrize(("size", "colours"), [((1, 1), 1), ((7, 3), 5), ((900, 734), 256)])
def test_a_palette_image_reads_back_the_same(size: tuple[int, int], colours: int) -> None:
    rng = random.Random(32)
    image = Image.new("P", size)
    image.putpalette(bytes(rng.randrange(256) for _ in range(3 * colours)))
    image.putdata([rng.randrange(colours) for _ in range(size[0] * size[1])])
    with Image.open(io.BytesIO(png_bytes(image))) as read:
        assert read.format == "PNG"
        assert read.mode == "P"
        assert read.size == size
        assert read.tobytes() == image.tobytes()
        assert read.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_only_palette_images_are_written() -> None:
    with pytest.raises(ValueError, match="palette image"):
        png_bytes(Image.new("RGB", (2, 2)))


def test_rows_deflated_apart_read_back_in_any_order() -> None:
    rng = random.Random(4)
    width, height = 30, 12
    palette = bytes(rng.randrange(256) for _ in range(3 * 4))
    pictures = [bytes(rng.randrange(4) for _ in range(width * height)) for _ in range(2)]
    cuts = list(pairwise((0, 3, 4, 9, height)))

    def rows(picture: bytes, top: int, bottom: int) -> bytes:
        return b"".join(b"\0" + picture[y * width : (y + 1) * width] for y in range(top, bottom))

    runs = [[deflated(rows(picture, *cut)) for cut in cuts] for picture in pictures]
    mixed = [runs[index % 2][index] for index in range(len(cuts))]
    expected = b"".join(
        pictures[index % 2][top * width : bottom * width]
        for index, (top, bottom) in enumerate(cuts)
    )
    with Image.open(io.BytesIO(png_of_runs((width, height), palette, mixed))) as read:
        assert read.tobytes() == expected
        assert read.getpalette() == list(palette)
