"""The board's costly layers for the size Discord sees, drawn ahead and shipped in ``layers/``.

Drawing the static board (supersampled three times, then shrunk) and working out the boards'
palette (from 14 sample boards) took half a second on the first board after a start. At
:data:`~bot.render.geometry.DEFAULT_SIZE` the renderer reads both from here instead, a few
milliseconds; other sizes are still drawn. ``tests/render/test_layers.py`` checks that the
files hold what the code draws; after a change of the look, write them again:

    python -c "from bot.render.layers import write; write()"
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.render.geometry import DEFAULT_SIZE, Size

FOLDER = Path(__file__).with_name("layers")


def _path(kind: str, size: Size) -> Path:
    return FOLDER / f"{kind}-{size[0]}x{size[1]}.png"


def shipped_static(size: Size) -> Image.Image | None:
    """The static board of this size as shipped (RGB), or None where none is."""
    path = _path("static", size)
    if size != DEFAULT_SIZE or not path.is_file():
        return None
    with Image.open(path) as image:
        return image.convert("RGB")


def shipped_palette(size: Size) -> Image.Image | None:
    """The palette of the boards of this size as shipped (a "P" image), or None."""
    path = _path("palette", size)
    if size != DEFAULT_SIZE or not path.is_file():
        return None
    with Image.open(path) as image:
        image.load()
        return image


def write() -> list[Path]:
    """Draw the layers of :data:`DEFAULT_SIZE` afresh and write them."""
    from bot.render.board import sample_palette
    from bot.render.static import draw_static_board

    FOLDER.mkdir(exist_ok=True)
    static = _path("static", DEFAULT_SIZE)
    draw_static_board(DEFAULT_SIZE).save(static, optimize=True)
    palette = _path("palette", DEFAULT_SIZE)
    # a 1x1 image is enough to carry the palette
    sample_palette(DEFAULT_SIZE).resize((1, 1)).save(palette)
    return [static, palette]
