"""The static board (strips, frame, felt, points, point numbers), drawn once per image size and
supersampled for smooth edges."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.geometry import Layout, Size, layout, point_number_center, point_x
from bot.render.labels import MIN_TEXT, Label, Role, paint, place
from bot.render.layers import shipped_static

_SUPERSAMPLE = 3


@lru_cache(maxsize=4)
def static_board(size: Size) -> Image.Image:
    """The static board of this size: as shipped (:mod:`bot.render.layers`), or drawn."""
    shipped = shipped_static(size)
    return draw_static_board(size) if shipped is None else shipped


def draw_static_board(size: Size) -> Image.Image:
    geo = layout(size)
    k = _SUPERSAMPLE

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return round(x0 * k), round(y0 * k), round(x1 * k) - 1, round(y1 * k) - 1

    image = Image.new("RGB", (geo.width * k, geo.height * k), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle(box(*geo.top_strip), fill=theme.STRIP)
    draw.rectangle(box(*geo.bottom_strip), fill=theme.STRIP)
    draw.rectangle(box(*geo.status_strip), fill=theme.STATUS)
    bx0, by0, bx1, by1 = geo.board
    draw.rounded_rectangle(
        box(bx0, by0, bx1, by1), radius=round(10 * geo.scale * k), fill=theme.FRAME
    )
    draw.rectangle(box(geo.bar_x0, by0, geo.bar_x1, by1), fill=theme.FRAME_DARK)
    for x0, x1 in ((geo.field_x0, geo.bar_x0), (geo.bar_x1, geo.field_x1)):
        draw.rectangle(box(x0, geo.field_top, x1, geo.field_bottom), fill=theme.FELT)
    draw.rectangle(box(geo.tray_x0, geo.field_top, geo.tray_x1, geo.field_bottom), fill=theme.TRAY)
    line = max(1, round(3 * geo.scale))
    draw.rectangle(
        box(geo.tray_x0, geo.mid_y - line / 2, geo.tray_x1, geo.mid_y + line / 2), fill=theme.FRAME
    )
    half = geo.point_width / 2
    for point in range(1, 25):
        x = point_x(point, size)
        colour = theme.POINT_DARK if point % 2 else theme.POINT_LIGHT
        if point >= 13:
            base, tip = geo.field_top, geo.field_top + geo.triangle
        else:
            base, tip = geo.field_bottom, geo.field_bottom - geo.triangle
        inset = 1.0 * geo.scale
        draw.polygon(
            [
                ((x - half + inset) * k, base * k),
                ((x + half - inset) * k, base * k),
                (x * k, tip * k),
            ],
            fill=colour,
        )
    image = image.resize((geo.width, geo.height), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(image)
    for label in point_labels(size):
        paint(draw, label)
    return image


@lru_cache(maxsize=4)
def point_labels(size: Size) -> tuple[Label, ...]:
    """The point numbers in the frame, 1 to 24."""
    geo = layout(size)
    return tuple(
        number_label("point", point, geo, point_number_center(point, size), theme.FRAME_TEXT)
        for point in range(1, 25)
    )


def number_label(
    role: Role, value: int, geo: Layout, center: tuple[float, float], colour: theme.RGB
) -> Label:
    """A point number or a count, bold, centred on ``center``."""
    return place(role, str(value), number_size(geo), center, colour, bold=True, anchor="mm")


def number_size(geo: Layout) -> int:
    """Point numbers and counts: 22 px (digits 16 px high) in a 900 px wide board, 10 px on a
    phone."""
    return max(10, round(MIN_TEXT * geo.scale))
