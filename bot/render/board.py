"""Drawing the board: a :class:`BoardState` and a viewer in, PNG bytes out. No I/O.

The static board (strips, frame, felt, points, point numbers) is drawn once per image size,
supersampled for smooth edges, and copied for each image; checkers, dice and the cube are
anti-aliased sprites drawn once per size and pasted.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.text import dice_text, level_text, points_text
from bot.render import theme
from bot.render.fonts import font
from bot.render.geometry import (
    DEFAULT_SIZE,
    MAX_BAR_STACK,
    MAX_STACK,
    Layout,
    Side,
    Size,
    bar_center,
    checker_center,
    cube_center,
    dice_centers,
    layout,
    point_number_center,
    point_x,
    roller_area_center,
    tray_count_center,
    tray_slab_box,
)
from bot.render.state import BoardState, LastPlay
from bot.render.text import ELLIPSIS, draw_text, fit_text, text_length

__all__ = ["actor", "encode_png", "fit_text", "fitted_status", "render_board", "render_image",
           "status_text"]

_SUPERSAMPLE = 3
_SPRITE_SUPERSAMPLE = 4
_BAR = 25
_OFF = 0


def render_board(
    state: BoardState,
    *,
    viewer: int | None,
    size: Size = DEFAULT_SIZE,
    last_play: LastPlay | None = None,
) -> bytes:
    """The board as PNG bytes, seen by player ``viewer`` (0 or 1; ``None`` = a spectator, who
    sees it from the side of the player on roll). ``last_play`` overrides ``state.last_play``."""
    image = render_image(state, viewer=viewer, size=size, last_play=last_play)
    return encode_png(image, palette=_palette(image.size))


def render_image(
    state: BoardState,
    *,
    viewer: int | None,
    size: Size = DEFAULT_SIZE,
    last_play: LastPlay | None = None,
) -> Image.Image:
    """The board as an RGB Pillow image (what :func:`render_board` encodes)."""
    if viewer not in (None, 0, 1):
        raise ValueError(f"viewer must be 0, 1 or None (a spectator), not {viewer!r}")
    size = (int(size[0]), int(size[1]))
    view = _View(state, state.on_roll if viewer is None else viewer)
    image = _static_board(size).copy()
    draw = ImageDraw.Draw(image)
    painter = _Painter(image, draw, layout(size), view)
    painter.checkers()
    painter.cube()
    painter.dice()
    painter.last_play(last_play if last_play is not None else state.last_play)
    painter.strips()
    return image


def encode_png(image: Image.Image, *, palette: Image.Image | None = None) -> bytes:
    """PNG bytes with a 256-colour palette (the board has few colours), fast zlib settings.

    With ``palette`` (a "P" image) every pixel takes the nearest colour of that palette, which is
    five times quicker than working out a new palette for each image.
    """
    if palette is None:
        paletted = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                                  dither=Image.Dither.NONE)
    else:
        paletted = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, format="PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


@lru_cache(maxsize=4)
def _palette(size: Size) -> Image.Image:
    """One palette for every board of this size, taken from sample boards that show every
    colour the renderer draws (both checkers, highlights, hits, dice, cube, all the text)."""
    samples = [render_image(state, viewer=viewer, size=size)
               for state in _palette_samples() for viewer in (0, 1)]
    sheet = Image.new("RGB", (size[0], size[1] * len(samples)))
    for index, sample in enumerate(samples):
        sheet.paste(sample, (0, size[1] * index))
    return sheet.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _palette_samples() -> list[BoardState]:
    from bot.engine import Position

    start = Position.initial()
    busy = Position.from_points({25: 1, 23: 1, 13: 7, 8: 3, 6: 3}, {25: 2, 6: 9, 8: 2, 1: 1})
    played = busy.legal_plays(3, 1)[0]
    bear = Position.from_points({3: 2, 1: 1}, {6: 2, 25: 1})
    return [
        BoardState(start, on_roll=0, players=("alice", "bob"), match_length=5, dice=(6, 5),
                   phase="move", last_play=LastPlay(1, played), cube_value=2, cube_owner=1),
        BoardState(busy, on_roll=1, players=("A long player name", "bob"), score=(4, 2),
                   match_length=5, crawford=True, dice=(3, 1), dice_used=1, phase="move",
                   last_play=LastPlay(0, played)),
        BoardState(busy, on_roll=0, players=("alice", "bob"), cube_value=4, phase="doubled"),
        BoardState(bear, on_roll=1, players=("alice", "bob"), phase="resigned", cube_owner=0),
        BoardState(bear, on_roll=0, players=("alice", "bob"), phase="over", winner=0,
                   score=(3, 0), match_length=3),
    ]


def status_text(state: BoardState) -> str:
    """The status line: whose turn it is and what they must do, or who won."""
    mover, other = state.players[state.on_roll], state.players[1 - state.on_roll]
    return _status(state, mover, other, {0: state.players[0], 1: state.players[1]})


def fitted_status(state: BoardState, face: ImageFont.FreeTypeFont, room: float,
                  scale: float = 1.0) -> str:
    """The status line as drawn in ``room`` pixels: names shortened first; then, for a double or
    a resignation, without who must answer (the swatch and the strip's bar show that)."""
    tries = [(name_room, False) for name_room in (240, 180, 140)]
    tries += [(name_room, True) for name_room in (240, 180, 140, 110, 80)]
    text = ""
    for name_room, short in tries:
        names = {p: fit_text(state.players[p], face, name_room * scale) for p in (0, 1)}
        text = _status(state, names[state.on_roll], names[1 - state.on_roll], names, short=short)
        if text_length(text, face) <= room:
            return text
    return fit_text(text, face, room)


def _status(state: BoardState, mover: str, other: str, names: dict[int, str], *,
            short: bool = False) -> str:
    if state.phase == "roll":
        return f"{mover} to roll"
    if state.phase == "move":
        if state.dice is None:
            return f"{mover} to move"
        return f"{mover} to move {dice_text(state.dice)}"
    if state.phase == "doubled":
        answers = "take, drop or beaver" if state.beavers and state.match_length <= 0 else \
            "take or drop"
        doubled = f"{mover} doubled to {2 * state.cube_value}"
        return f"{doubled}: {answers}?" if short else f"{doubled} — {other} to {answers}"
    if state.phase == "resigned":
        offer = f"{mover} offers to resign"
        if state.resignation:
            points = points_text(state.resignation * state.cube_value)
            offer = f"{offer} {level_text(state.resignation)} ({points})"
        return offer if short else f"{offer} — {other} to accept or reject"
    if state.winner is None:
        return "game over"
    return _won(state, names[state.winner])


def _won(state: BoardState, winner: str) -> str:
    """Who won, what (a gammon or backgammon is named) and, in a match that ends, the score."""
    assert state.winner is not None
    big = state.result in ("gammon", "backgammon")
    if state.match_length > 0 and state.score[state.winner] >= state.match_length:
        final = f"{state.score[state.winner]}-{state.score[1 - state.winner]}"
        if big:
            return f"{winner} wins a {state.result} and the match {final}"
        return f"{winner} wins the match {final}"
    if big and state.points:
        return f"{winner} wins a {state.result}: {points_text(state.points)}"
    if big:
        return f"{winner} wins a {state.result}"
    if state.points:
        return f"{winner} wins {points_text(state.points)}"
    return f"{winner} wins the game"


def actor(state: BoardState) -> int | None:
    """The player the game is waiting for, if any."""
    if state.phase in ("roll", "move"):
        return state.on_roll
    if state.phase in ("doubled", "resigned"):
        return 1 - state.on_roll
    return None


# -- the state from the viewer's side ----------------------------------------------------------


@dataclass(frozen=True)
class _View:
    state: BoardState
    bottom: int

    @property
    def top(self) -> int:
        return 1 - self.bottom

    def side_of(self, player: int) -> Side:
        return "bottom" if player == self.bottom else "top"

    def counts(self, player: int) -> tuple[int, ...]:
        """The player's 25 counts on their own numbering (index 24 = bar)."""
        position = self.state.position
        return position.mover if player == self.state.on_roll else position.opponent

    def viewer_point(self, player: int, point: int) -> int:
        """The viewer's number for ``player``'s ``point`` (1-24)."""
        return point if player == self.bottom else 25 - point

    def count_on(self, player: int, viewer_point: int) -> int:
        return self.counts(player)[self.viewer_point(player, viewer_point) - 1]

    def pips(self, player: int) -> int:
        return sum((index + 1) * count for index, count in enumerate(self.counts(player)))

    def off(self, player: int) -> int:
        return max(0, 15 - sum(self.counts(player)))


# -- sprites -----------------------------------------------------------------------------------


def _downsample(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")


@lru_cache(maxsize=32)
def _checker_sprite(diameter: int, player: int) -> Image.Image:
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
    draw.ellipse((groove, groove, big - 1 - groove, big - 1 - groove), outline=colours.rim,
                 width=max(2, round(big * 0.025)))
    return _downsample(image, (diameter, diameter))


@lru_cache(maxsize=8)
def _ring_sprite(diameter: int, width: int, dashed: bool) -> Image.Image:
    """A highlight ring around a checker that just arrived, or (dashed) where one just left."""
    big = diameter * _SPRITE_SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (0, 0, big - 1, big - 1)
    colour = (*theme.HIGHLIGHT, 255)
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
def _die_sprite(side: int, value: int, player: int, dim: bool) -> Image.Image:
    colours = theme.PLAYER_COLOURS[player]
    big = side * _SPRITE_SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(_SPRITE_SUPERSAMPLE, round(big * 0.05))
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=round(big * 0.18), fill=colours.fill,
                           outline=colours.outline, width=edge)
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
def _cube_sprite(side: int, text: str, dim: bool, ring: bool) -> Image.Image:
    big = side * _SPRITE_SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(_SPRITE_SUPERSAMPLE, round(big * 0.05))
    outline = theme.HIGHLIGHT if ring else theme.CUBE_OUTLINE
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=round(big * 0.16), fill=theme.CUBE,
                           outline=outline, width=edge * (2 if ring else 1))
    face = font(round(big * (0.5 if len(text) < 3 else 0.4)), bold=True)
    draw.text((big / 2, big / 2), text, font=face, fill=theme.CUBE_TEXT, anchor="mm")
    sprite = _downsample(image, (side, side))
    if dim:
        sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 45 // 100))
    return sprite


def _paste(image: Image.Image, sprite: Image.Image, center: tuple[float, float]) -> None:
    x = round(center[0] - sprite.width / 2)
    y = round(center[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)


# -- the static board --------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _static_board(size: Size) -> Image.Image:
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
    draw.rounded_rectangle(box(bx0, by0, bx1, by1), radius=round(10 * geo.scale * k),
                           fill=theme.FRAME)
    draw.rectangle(box(geo.bar_x0, by0, geo.bar_x1, by1), fill=theme.FRAME_DARK)
    for x0, x1 in ((geo.field_x0, geo.bar_x0), (geo.bar_x1, geo.field_x1)):
        draw.rectangle(box(x0, geo.field_top, x1, geo.field_bottom), fill=theme.FELT)
    draw.rectangle(box(geo.tray_x0, geo.field_top, geo.tray_x1, geo.field_bottom),
                   fill=theme.TRAY)
    line = max(1, round(3 * geo.scale))
    draw.rectangle(box(geo.tray_x0, geo.mid_y - line / 2, geo.tray_x1, geo.mid_y + line / 2),
                   fill=theme.FRAME)
    half = geo.point_width / 2
    for point in range(1, 25):
        x = point_x(point, size)
        colour = theme.POINT_DARK if point % 2 else theme.POINT_LIGHT
        if point >= 13:
            base, tip = geo.field_top, geo.field_top + geo.triangle
        else:
            base, tip = geo.field_bottom, geo.field_bottom - geo.triangle
        inset = 1.0 * geo.scale
        draw.polygon([((x - half + inset) * k, base * k), ((x + half - inset) * k, base * k),
                      (x * k, tip * k)], fill=colour)
    image = image.resize((geo.width, geo.height), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(image)
    numbers = font(_number_size(geo), bold=True)
    for point in range(1, 25):
        draw.text(point_number_center(point, size), str(point), font=numbers,
                  fill=theme.FRAME_TEXT, anchor="mm")
    return image


def _number_size(geo: Layout) -> int:
    """Point numbers and counts: a 20 px font has digits about 14.6 px high."""
    return max(10, round(20 * geo.scale))


# -- the moving parts --------------------------------------------------------------------------


class _Painter:
    def __init__(self, image: Image.Image, draw: ImageDraw.ImageDraw, geo: Layout,
                 view: _View) -> None:
        self.image = image
        self.draw = draw
        self.geo = geo
        self.view = view
        self.state = view.state
        self.size: Size = (geo.width, geo.height)
        self.count_font = font(_number_size(geo), bold=True)

    def checkers(self) -> None:
        view, size = self.view, self.size
        for player in (0, 1):
            sprite = _checker_sprite(self.geo.checker, player)
            text = theme.PLAYER_COLOURS[player].text
            for point in range(1, 25):
                count = view.count_on(player, point)
                for index in range(min(count, MAX_STACK)):
                    _paste(self.image, sprite, checker_center(point, index, size))
                if count > MAX_STACK:
                    self.draw.text(checker_center(point, MAX_STACK - 1, size), str(count),
                                   font=self.count_font, fill=text, anchor="mm")
            side = view.side_of(player)
            on_bar = view.counts(player)[24]
            for index in range(min(on_bar, MAX_BAR_STACK)):
                _paste(self.image, sprite, bar_center(side, index, size))
            if on_bar > MAX_BAR_STACK:
                self.draw.text(bar_center(side, MAX_BAR_STACK - 1, size), str(on_bar),
                               font=self.count_font, fill=text, anchor="mm")
            self.tray(player, side)

    def tray(self, player: int, side: Side) -> None:
        colours = theme.PLAYER_COLOURS[player]
        off = self.view.off(player)
        for index in range(off):
            self.draw.rounded_rectangle(tray_slab_box(side, index, self.size),
                                        radius=max(1, round(3 * self.geo.scale)),
                                        fill=colours.fill, outline=colours.outline)
        if off:
            self.draw.text(tray_count_center(side, off, self.size), str(off), font=self.count_font,
                           fill=theme.FRAME_TEXT, anchor="mm")

    def cube(self) -> None:
        state, geo = self.state, self.geo
        if state.phase == "doubled":
            offered = str(2 * state.cube_value)
            center = roller_area_center(self.view.side_of(state.on_roll), self.size)
            _paste(self.image, _cube_sprite(round(geo.cube * 1.15), offered, False, True), center)
            return
        if state.phase == "over":
            return
        where = None if state.cube_owner is None else self.view.side_of(state.cube_owner)
        text = "64" if where is None and state.cube_value == 1 else str(state.cube_value)
        sprite = _cube_sprite(geo.cube, text, state.crawford, False)
        _paste(self.image, sprite, cube_center(where, self.size))

    def dice(self) -> None:
        state = self.state
        if state.dice is None or state.phase != "move":
            return
        first, second = state.dice
        values = [first] * 4 if first == second else [first, second]
        side = self.view.side_of(state.on_roll)
        for index, (value, center) in enumerate(
            zip(values, dice_centers(side, len(values), self.size), strict=True)
        ):
            dim = index < state.dice_used
            _paste(self.image, _die_sprite(self.geo.die, value, state.on_roll, dim), center)

    def last_play(self, last: LastPlay | None) -> None:
        if last is None:
            return
        view, size, geo = self.view, self.size, self.geo
        player, play = last.player, last.play
        side = view.side_of(player)
        net: Counter[int] = Counter()
        for source, dest in play.steps:
            net[source] -= 1
            net[dest] += 1
        ring_width = max(2, round(3 * geo.scale))
        ring = _ring_sprite(geo.checker + 2 * ring_width, ring_width, False)
        ghost = _ring_sprite(geo.checker - 2, ring_width, True)
        marked: dict[int, bool] = {}
        for point, change in net.items():
            if change == 0 or point in (_BAR, _OFF):
                continue
            target = view.viewer_point(player, point)
            here = view.count_on(player, target)
            if change > 0:
                for index in range(max(0, min(here, MAX_STACK) - change), min(here, MAX_STACK)):
                    _paste(self.image, ring, checker_center(target, index, size))
                marked[target] = True
            else:
                for index in range(here, min(here - change, MAX_STACK)):
                    _paste(self.image, ghost, checker_center(target, index, size))
                marked.setdefault(target, False)
        if net[_OFF] > 0:
            off = view.off(player)
            for index in range(max(0, off - net[_OFF]), off):
                x0, y0, x1, y1 = tray_slab_box(side, index, size)
                self.draw.rounded_rectangle((x0 - 2, y0 - 1, x1 + 2, y1 + 1),
                                            radius=max(1, round(3 * geo.scale)),
                                            outline=theme.HIGHLIGHT, width=2)
        if net[_BAR] < 0:
            on_bar = view.counts(player)[24]
            if on_bar < MAX_BAR_STACK:
                _paste(self.image, ghost, bar_center(side, on_bar, size))
        for target, arrived in sorted(marked.items()):
            self.number_pill(target, filled=arrived)
        for point in play.hits:
            self.hit_badge(view.viewer_point(player, point))

    def number_pill(self, point: int, *, filled: bool) -> None:
        geo = self.geo
        x, y = point_number_center(point, self.size)
        half_w = geo.point_width / 2 - 3 * geo.scale
        half_h = (geo.field_top - geo.board[1] - geo.frame) / 2 - 1
        box = (x - half_w, y - half_h, x + half_w, y + half_h)
        radius = round(half_h)
        if filled:
            self.draw.rounded_rectangle(box, radius=radius, fill=theme.HIGHLIGHT)
            colour = theme.HIGHLIGHT_TEXT
        else:
            self.draw.rounded_rectangle(box, radius=radius, fill=theme.FRAME,
                                        outline=theme.HIGHLIGHT, width=max(2, round(2 * geo.scale)))
            colour = theme.HIGHLIGHT
        self.draw.text((x, y), str(point), font=self.count_font, fill=colour, anchor="mm")

    def hit_badge(self, point: int) -> None:
        """A magenta disc with a white cross at the edge end of the point where a blot was hit."""
        geo = self.geo
        x = point_x(point, self.size)
        radius = geo.checker * 0.24
        top = point >= 13
        edge = geo.field_top if top else geo.field_bottom
        cx = x + geo.point_width / 2 - radius * 0.6
        cy = edge + radius * 1.05 if top else edge - radius * 1.05
        self.draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=theme.HIT,
                          outline=theme.TEXT, width=max(1, round(2 * geo.scale)))
        arm = radius * 0.45
        width = max(2, round(3 * geo.scale))
        self.draw.line((cx - arm, cy - arm, cx + arm, cy + arm), fill=theme.TEXT, width=width)
        self.draw.line((cx - arm, cy + arm, cx + arm, cy - arm), fill=theme.TEXT, width=width)

    # -- text ----------------------------------------------------------------------------------

    def strips(self) -> None:
        state, view, geo = self.state, self.view, self.geo
        waiting = actor(state)
        right_text, right_colour = self.match_text()
        self.player_strip(view.top, geo.top_strip, waiting, right_text, right_colour)
        self.player_strip(view.bottom, geo.bottom_strip, waiting, self.last_play_text(),
                          theme.MUTED)
        self.status_strip()

    def match_text(self) -> tuple[str, tuple[int, int, int]]:
        state = self.state
        if state.match_length > 0:
            text = f"Match to {state.match_length}"
            if state.crawford:
                return f"{text} · Crawford game", theme.CRAWFORD
            return text, theme.MUTED
        return "Money game", theme.MUTED

    def last_play_text(self) -> str:
        last = self.state.last_play
        if last is None:
            return ""
        name = self.state.players[last.player]
        short = fit_text(name, font(round(17 * self.geo.scale)), 150 * self.geo.scale)
        return f"{short} played {dice_text(last.play.dice)}: {last.play.notation}"

    def player_strip(self, player: int, strip: tuple[int, int, int, int], waiting: int | None,
                     right: str, right_colour: tuple[int, int, int]) -> None:
        state, geo, view = self.state, self.geo, self.view
        x0, y0, x1, y1 = strip
        cy = (y0 + y1) / 2
        scale = geo.scale
        if waiting == player:
            self.draw.rectangle((x0, y0, x0 + round(6 * scale) - 1, y1 - 1), fill=theme.HIGHLIGHT)
        swatch = _checker_sprite(round((y1 - y0) * 0.62), player)
        x = x0 + 16 * scale
        _paste(self.image, swatch, (x + swatch.width / 2, cy))
        x += swatch.width + 10 * scale
        name_font = font(round(20 * scale), bold=True)
        name = fit_text(state.players[player], name_font, 270 * scale)
        draw_text(self.draw, (x, cy), name, name_font, theme.TEXT, "lm")
        x += text_length(name, name_font) + 14 * scale
        detail_font = font(round(17 * scale))
        details = [f"{view.pips(player)} pips"]
        if state.match_length > 0 or state.score != (0, 0):
            details.append(f"score {state.score[player]}")
        if state.phase == "over" and state.winner == player:
            details.append("winner")
        detail = " · ".join(details)
        self.draw.text((x, cy), detail, font=detail_font, fill=theme.MUTED, anchor="lm")
        x += detail_font.getlength(detail) + 20 * scale
        if right:
            right_font = font(round(17 * scale))
            room = x1 - 14 * scale - x
            text = fit_text(right, right_font, room)
            if text != ELLIPSIS:
                draw_text(self.draw, (x1 - 14 * scale, cy), text, right_font, right_colour, "rm")

    def status_strip(self) -> None:
        state, geo = self.state, self.geo
        x0, y0, x1, y1 = geo.status_strip
        face = font(round(21 * geo.scale), bold=True)
        text = fitted_status(state, face, (x1 - x0) - 80 * geo.scale, geo.scale)
        cy = (y0 + y1) / 2
        who = actor(state)
        if who is None:
            who = state.winner
        gap = 10 * geo.scale
        width = text_length(text, face)
        swatch = None if who is None else _checker_sprite(round((y1 - y0) * 0.56), who)
        if swatch is not None:
            width += swatch.width + gap
        x = (x0 + x1 - width) / 2
        if swatch is not None:
            _paste(self.image, swatch, (x + swatch.width / 2, cy))
            x += swatch.width + gap
        draw_text(self.draw, (x, cy), text, face, theme.TEXT, "lm")
