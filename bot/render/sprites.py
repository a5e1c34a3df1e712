"""Sprites: checkers, highlight rings, dice and the cube, anti-aliased and drawn once per size."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.fonts import font

_SPRITE_SUPERSAMPLE = 4


def _downsample(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")


@lru_cache(maxsize=32)
def checker_sprite(diameter: int, player: int) -> Image.Image:
    colours = theme.PLAYER_COLOURS[player]
    big = diameter * _SPRITE_SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, big - 1, big - 1), fill=colours.outline)
    edge = max(_SPRITE_SUPERSAMPLE, round(big * 0.055))
    draw.ellipse((edge, edge, big - 1 - edge, big - 1 - edge), fill=colours.rim)
    inner = round(big * 0.15)
    draw.ellipse((inner, inner, big - 1 - inner, big - 1 - inner), fill=colours.fill)
    groove = round(big * 0.28)
    draw.ellipse(
        (groove, groove, big - 1 - groove, big - 1 - groove),
        outline=colours.rim,
        width=max(2, round(big * 0.025)),
    )
    return _downsample(image, (diameter, diameter))


@lru_cache(maxsize=8)
def ring_sprite(diameter: int, width: int, dashed: bool) -> Image.Image:
    """A highlight ring around a checker that just arrived, or (dashed) where one just left."""
    big = diameter * _SPRITE_SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (0, 0, big - 1, big - 1)
    colour = theme.HIGHLIGHT
    if dashed:
        dashes = 12
        step = 360 / dashes
        for dash in range(dashes):
            start = dash * step
            draw.arc(box, start, start + step * 0.6, fill=colour, width=width * _SPRITE_SUPERSAMPLE)
    else:
        draw.ellipse(box, outline=colour, width=width * _SPRITE_SUPERSAMPLE)
    return _downsample(image, (diameter, diameter))


@lru_cache(maxsize=64)
def die_sprite(side: int, value: int, player: int, dim: bool) -> Image.Image:
    colours = theme.PLAYER_COLOURS[player]
    big = side * _SPRITE_SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(_SPRITE_SUPERSAMPLE, round(big * 0.05))
    draw.rounded_rectangle(
        (0, 0, big - 1, big - 1),
        radius=round(big * 0.18),
        fill=colours.fill,
        outline=colours.outline,
        width=edge,
    )
    pip = big * 0.095
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }[value]
    for fx, fy in spots:
        x, y = fx * big, fy * big
        draw.ellipse((x - pip, y - pip, x + pip, y + pip), fill=colours.text)
    sprite = _downsample(image, (side, side))
    if dim:
        alpha = sprite.getchannel("A").point(lambda a: a * 38 // 100)
        sprite.putalpha(alpha)
    return sprite


@lru_cache(maxsize=32)
def cube_sprite(side: int, text: str, ring: bool) -> Image.Image:
    big = side * _SPRITE_SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(_SPRITE_SUPERSAMPLE, round(big * 0.05))
    outline = theme.HIGHLIGHT if ring else theme.CUBE_OUTLINE
    draw.rounded_rectangle(
        (0, 0, big - 1, big - 1),
        radius=round(big * 0.16),
        fill=theme.CUBE,
        outline=outline,
        width=edge * (2 if ring else 1),
    )
    face = font(round(cube_text_size(side, text) * _SPRITE_SUPERSAMPLE), bold=True)
    draw.text((big / 2, big / 2), text, font=face, fill=theme.CUBE_TEXT, anchor="mm")
    return _downsample(image, (side, side))


def cube_text_size(side: int, text: str) -> float:
    """The font size (pixels) of ``text`` on a cube ``side`` pixels wide: half its side (23 px on
    the 900 px board's cube), less for three digits so that they fit."""
    return side * (0.5 if len(text) < 3 else 0.4)


def paste(
    image: Image.Image, sprite: Image.Image, center: tuple[float, float]
) -> tuple[int, int, int, int]:
    """``sprite`` (RGBA) blended onto ``image`` (RGB), centred on ``center``: what
    ``image.paste(sprite, (x, y), sprite)`` does, without its checks (a board pastes 40). The
    box it covered."""
    box = sprite_box(sprite, center)
    image.im.paste(sprite.im, box, sprite.im)
    return box


def sprite_box(sprite: Image.Image, center: tuple[float, float]) -> tuple[int, int, int, int]:
    """The box :func:`paste` covers with ``sprite`` centred on ``center``."""
    width, height = sprite.size
    x = round(center[0] - width / 2)
    y = round(center[1] - height / 2)
    return x, y, x + width, y + height
