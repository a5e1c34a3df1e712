"""Colours: one palette for the board (``!show``, ``!eval``), the analysis chart and the tournament
images. The sides differ by lightness (ivory vs. navy), not by hue, so they read for colour-blind
players and in greyscale; every checker has an outline that contrasts with both point colours,
and the image is opaque so Discord's dark and light themes don't show through."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class CheckerColours:
    name: str
    fill: RGB
    rim: RGB
    outline: RGB
    text: RGB


PLAYER_COLOURS: tuple[CheckerColours, CheckerColours] = (
    CheckerColours(
        "ivory", fill=(242, 234, 214), rim=(203, 190, 160), outline=(44, 36, 28), text=(30, 30, 36)
    ),
    CheckerColours(
        "navy", fill=(34, 50, 86), rim=(66, 88, 136), outline=(222, 230, 244), text=(245, 245, 250)
    ),
)

BACKGROUND: RGB = (30, 33, 40)
STRIP: RGB = (38, 42, 51)
STATUS: RGB = (47, 52, 64)
TEXT: RGB = (238, 240, 244)
MUTED: RGB = (186, 193, 206)
"""Secondary text: 4.5:1 or more on every panel it is drawn on (WCAG), even a winner's band."""
FRAME: RGB = (94, 62, 40)
FRAME_DARK: RGB = (64, 41, 26)
FRAME_TEXT: RGB = (246, 234, 208)
FELT: RGB = (44, 98, 88)
POINT_LIGHT: RGB = (220, 200, 160)
POINT_DARK: RGB = (158, 74, 52)
TRAY: RGB = (48, 32, 21)
HIGHLIGHT: RGB = (255, 200, 40)
HIGHLIGHT_TEXT: RGB = (30, 24, 10)
HIT: RGB = (232, 60, 170)
CUBE: RGB = (250, 250, 246)
CUBE_TEXT: RGB = (24, 24, 28)
CUBE_OUTLINE: RGB = (20, 20, 24)
CRAWFORD: RGB = (120, 170, 255)
ARROW_PLAYED: RGB = (255, 184, 28)
"""The play made, drawn as solid arrows (``!review``): a warm amber."""
ARROW_BEST: RGB = (70, 222, 250)
"""GNU Backgammon's best play, drawn as dashed arrows: a cyan."""
ARROW_CANDIDATE: RGB = (206, 150, 255)
"""Another candidate play, drawn as thinner solid arrows: a violet."""
ARROW_EDGE: RGB = (16, 18, 24)
"""The dark edge round every arrow: it reads on the felt, the points and both checkers."""
GRID: RGB = (70, 76, 90)
"""Grid lines on a panel (the analysis chart's, the tournament images')."""
LINE: RGB = (84, 90, 106)
"""Connectors and rules of the tournament images."""
WIN: RGB = (92, 200, 132)
"""A win, a winner's path, a strong PR: a green."""
LOSS: RGB = (240, 116, 108)
"""A loss, a withdrawal, a weak PR: a red light enough to read on a panel."""
AMBER: RGB = (236, 190, 70)
"""A middling PR, between :data:`WIN` and :data:`LOSS`."""
MEDALS: tuple[RGB, RGB, RGB] = ((246, 196, 64), (200, 208, 220), (232, 168, 118))
"""Gold, silver and bronze: the first three ranks."""


def blend(colour: RGB, under: RGB, amount: float) -> RGB:
    """``colour`` laid over ``under`` with opacity ``amount`` (0..1)."""
    r, g, b = (round(c * amount + u * (1 - amount)) for c, u in zip(colour, under, strict=True))
    return r, g, b


PLAYER_FILLS: tuple[RGB, RGB] = (
    blend(PLAYER_COLOURS[0].fill, STRIP, 0.72),
    blend(PLAYER_COLOURS[1].rim, STRIP, 0.9),
)
"""Each player's colour as an area on a panel (the chart's): their checkers' colours, softened."""
PLAYER_TEXT: tuple[RGB, RGB] = (PLAYER_COLOURS[0].fill, (150, 172, 226))
"""Each player's colour for text on the dark background: ivory, and a navy light enough to
read."""
