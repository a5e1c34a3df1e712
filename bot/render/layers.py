"""The board's costly layers for the size Discord sees, drawn ahead and shipped in ``layers/``.

Drawing the static board (supersampled three times, then shrunk) and working out the boards'
palette (from 14 sample boards) took half a second on the first board after a start. At
:data:`~bot.render.geometry.DEFAULT_SIZE` the renderer reads both from here instead, a few
milliseconds; other sizes are still drawn. ``tests/render/test_layers.py`` checks that the
files hold what the code draws; after a change of the look, draw them again:

    python -m bot.render.make_layers
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.render.geometry import DEFAULT_SIZE, Size

FOLDER = Path(__file__).with_name("layers")


def path_of(kind: str, size: Size) -> Path:
    return FOLDER / f"{kind}-{size[0]}x{size[1]}.png"


def shipped_static(size: Size) -> Image.Image | None:
    """The static board of this size as shipped (RGB), or None where none is."""
    path = path_of("static", size)
    if size != DEFAULT_SIZE or not path.is_file():
        return None
    with Image.open(path) as image:
        return image.convert("RGB")


def shipped_palette(size: Size) -> Image.Image | None:
    """The palette of the boards of this size as shipped (a "P" image), or None."""
    path = path_of("palette", size)
    if size != DEFAULT_SIZE or not path.is_file():
        return None
    with Image.open(path) as image:
        image.load()
        return image
