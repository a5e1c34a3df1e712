"""bot/render/png.py: the PNG it writes is read back by Pillow as the very image it was given."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.png import png_bytes


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
