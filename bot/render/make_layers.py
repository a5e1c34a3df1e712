"""Draw the shipped layers of :mod:`bot.render.layers` afresh (after a change of the look):

python -m bot.render.make_layers
"""

from __future__ import annotations

from pathlib import Path

from bot.render.geometry import DEFAULT_SIZE
from bot.render.layers import FOLDER, path_of
from bot.render.palette import sample_palette
from bot.render.static import draw_static_board


def write() -> list[Path]:
    """Draw the layers of :data:`DEFAULT_SIZE` and write them."""
    FOLDER.mkdir(exist_ok=True)
    static = path_of("static", DEFAULT_SIZE)
    draw_static_board(DEFAULT_SIZE).save(static, optimize=True)
    palette = path_of("palette", DEFAULT_SIZE)
    # a 1x1 image is enough to carry the palette
    sample_palette(DEFAULT_SIZE).resize((1, 1)).save(palette)
    return [static, palette]


if __name__ == "__main__":
    for written in write():
        print(written)
