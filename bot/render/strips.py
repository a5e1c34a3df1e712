"""The text strips: each player's name, pips and score, the match or last play, and the status
line.

A player's strip: a bar at its left edge while the game waits for that player, their checker,
their name, and at the right two rows: pips, score (and the clock) above, the match (top strip)
or the last play (bottom strip) below. All the text is 22 px or more at the default size (10 px
on a phone). A name starts at 26 px and shrinks to fit, down to 22 px; a name still too long
takes two lines, and only one too long for two lines is cut, with an ellipsis.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import images as say
from bot.i18n.core import ENGLISH, Language
from bot.render import theme
from bot.render.arrows import ArrowKind, ArrowPath, draw_arrows, sample_path
from bot.render.fonts import font
from bot.render.geometry import Box, Layout
from bot.render.labels import MIN_TEXT, Label, Role, paint, pixel_box, place
from bot.render.pieces import Op, drawn_or_recorded, pasted
from bot.render.sprites import checker_sprite, sprite_box
from bot.render.status import actor, status_fit
from bot.render.text import (
    ELLIPSIS,
    draw_text,
    fit_text,
    text_box,
    text_length,
    wrap_text,
)
from bot.render.view import View
from bot.rules.notation import dice_text
from bot.rules.text import bank_text

NAME_SIZES = (26, 25, 24, 23, 22)
"""A name's font sizes at the default size, tried largest first."""
_SEPARATOR = " · "
RGB = theme.RGB
LEGEND: dict[ArrowKind, RGB] = {
    "played": theme.ARROW_PLAYED,
    "best": theme.ARROW_BEST,
    "candidate": theme.ARROW_CANDIDATE,
}
"""The colour of each kind of arrow's word in the legend (the word: ``images.LEGEND``)."""
Part = tuple[str, Role | None, RGB, bool]
"""A piece of a strip's row of details: text, role (None for a separator), colour, bold."""


class Strips:
    """The player strips above and below the board, and the status line."""

    def __init__(
        self,
        image: Image.Image,
        draw: ImageDraw.ImageDraw,
        geo: Layout,
        view: View,
        legend: tuple[ArrowKind, ...] = (),
        *,
        language: Language = ENGLISH,
        ops: list[Op] | None = None,
    ) -> None:
        self.image = image
        self.ops = ops
        """Given, what the strips draw is added there (:class:`bot.render.pieces.Pieces`'s)
        instead of drawn."""
        self.language = language
        """The language of the words drawn (every kept strip's key holds it)."""
        self.legend = legend
        """The kinds of arrow drawn on the board, keyed at the ends of the status line."""
        self.draw = draw
        self.geo = geo
        self.view = view
        self.state = view.state
        self.labels: list[Label] = []
        """The texts drawn, in the order drawn."""
        self._details: dict[int, tuple[Part, ...]] = {}

    def size(self, base: int) -> int:
        """A font size of ``base`` pixels at the default size, scaled."""
        return max(10, round(base * self.geo.scale))

    def add(self, label: Label) -> Label:
        self.labels.append(label)
        if self.ops is None:
            paint(self.draw, label)
        elif (box := pixel_box(label)) is not None:
            self.ops.append((box, ("label", label), partial(_paint, label)))
        return label

    def _op(
        self,
        box: Box,
        key: tuple[object, ...],
        draw: Callable[[Image.Image, ImageDraw.ImageDraw], object],
    ) -> None:
        drawn_or_recorded((box, key, draw), self.image, self.draw, self.ops)

    def _swatch(self, diameter: int, player: int, center: tuple[float, float]) -> None:
        swatch = checker_sprite(diameter, player)
        key = ("swatch", diameter, player, center)
        self._op(sprite_box(swatch, center), key, partial(pasted, swatch, center))

    def paint(self) -> None:
        for _, _, painter in self.parts():
            painter()

    def parts(self) -> tuple[tuple[Box, tuple[object, ...], Callable[[], None]], ...]:
        """Each strip's box, what its pixels depend on besides the image's size, and what paints
        it: a strip with the same key paints the same pixels in its box (a board keeps them
        mapped), as each strip paints only inside its own box."""
        state, view, geo = self.state, self.view, self.geo
        waiting = actor(state)
        right_text, right_colour = self.match_text()
        last = state.last_play
        played = None if last is None else (state.players[last.player], last.play)
        status = self.status_fit()
        who = actor(state)
        if who is None:
            who = state.winner
        return (
            (
                geo.top_strip,
                self._player_key(view.top, waiting, right_text, right_colour, None),
                partial(
                    self.player_strip, view.top, geo.top_strip, waiting, right_text, right_colour
                ),
            ),
            (
                geo.bottom_strip,
                self._player_key(view.bottom, waiting, "", theme.MUTED, played),
                partial(
                    self.player_strip,
                    view.bottom,
                    geo.bottom_strip,
                    waiting,
                    "",
                    theme.MUTED,
                    last_play=True,
                ),
            ),
            (
                geo.status_strip,
                ("status", self.language, status, who, self.legend),
                partial(self.status_strip, status),
            ),
        )

    def _player_key(
        self, player: int, waiting: int | None, right: str, colour: RGB, played: object
    ) -> tuple[object, ...]:
        return (
            "player",
            self.language,
            player,
            waiting == player,
            self.state.players[player],
            self.details(player),
            right,
            colour,
            played,
        )

    def match_text(self) -> tuple[str, RGB]:
        state, language = self.state, self.language
        if state.match_length > 0:
            text = say.MATCH_TO(language, state.match_length)
            if state.crawford:
                return say.CRAWFORD_GAME(language, match=text), theme.CRAWFORD
            return text, theme.MUTED
        return say.MONEY_GAME(language), theme.MUTED

    def last_play_text(self, room: float) -> str:
        """The last play in ``room`` pixels: with its player's name whole if it fits, else with
        the name shortened; "" when there is none."""
        last = self.state.last_play
        if last is None:
            return ""
        face = font(self.size(MIN_TEXT))
        name = self.state.players[last.player]
        dice, play = dice_text(last.play.dice), last.play.notation
        text = say.PLAYED(self.language, who=name, dice=dice, play=play)
        if text_length(text, face) <= room:
            return text
        for name_room in (200, 150, 100):
            short = fit_text(name, face, name_room * self.geo.scale)
            text = say.PLAYED(self.language, who=short, dice=dice, play=play)
            if text_length(text, face) <= room:
                return text
        return text

    def player_strip(
        self,
        player: int,
        strip: tuple[int, int, int, int],
        waiting: int | None,
        right: str,
        right_colour: RGB,
        *,
        last_play: bool = False,
    ) -> None:
        geo = self.geo
        x0, y0, x1, y1 = strip
        cy = (y0 + y1) / 2
        scale = geo.scale
        if waiting == player:
            bar = (x0, y0, x0 + round(6 * scale) - 1, y1 - 1)
            draw = partial(_bar, bar)
            self._op((x0, y0, bar[2] + 1, y1), ("bar", bar), draw)
        diameter = round(32 * scale)
        x = x0 + 16 * scale
        self._swatch(diameter, player, (x + diameter / 2, cy))
        name_x = x + diameter + 10 * scale
        right_x = x1 - 14 * scale
        gap = 20 * scale
        pitch = 27 * scale  # the rows' line boxes (ascender to descender) just touch
        text_size = self.size(MIN_TEXT)
        face = font(text_size)

        # The right-hand rows: pips, score (winner) and clock; under them the match or last play.
        row = self.details(player)
        row_width = sum(text_length(text, font(text_size, bold=bold)) for text, _, _, bold in row)
        if last_play:
            right = self.last_play_text(math.inf)
        second = text_length(right, face) if right else 0.0
        reserve = min(second, 330 * scale)
        name_room = right_x - max(row_width, reserve) - gap - name_x
        name = self.name(player, name_x, cy, name_room)
        row_y = cy - pitch / 2 if right else cy
        x = right_x - row_width
        for text, role, colour, bold in row:
            if role is None:
                box = text_box((x, row_y), text, face, "lm")
                if box is not None:
                    key = ("text", text, text_size, colour, x, row_y)
                    self._op(box, key, partial(_text, (x, row_y), text, face, colour))
            else:
                self.add(place(role, text, text_size, (x, row_y), colour, bold=bold))
            x += text_length(text, font(text_size, bold=bold))
        if right:
            room = right_x - (name.box[2] + gap)
            text = right
            if last_play and text_length(right, face) > room:
                text = self.last_play_text(room)
            shown = fit_text(text, face, room)
            if shown != ELLIPSIS:
                self.add(
                    place(
                        "last_play" if last_play else "match",
                        shown,
                        text_size,
                        (right_x, cy + pitch / 2),
                        right_colour,
                        anchor="rm",
                        cut=shown != right,
                    )
                )

    def details(self, player: int) -> tuple[Part, ...]:
        """The right-hand row, left to right: (text, role or None for a separator, colour,
        bold)."""
        found = self._details.get(player)
        if found is None:
            found = self._details[player] = tuple(self._row(player))
        return found

    def _row(self, player: int) -> list[Part]:
        state, language = self.state, self.language
        pips = say.PIPS(language, pips=self.view.pips(player))
        parts: list[Part] = [(pips, "pips", theme.MUTED, False)]
        if state.match_length > 0 or state.score != (0, 0):
            score = say.SCORE(language, score=state.score[player])
            parts.append((score, "score", theme.MUTED, False))
        if state.phase == "over" and state.winner == player:
            parts.append((say.WINNER(language), "winner", theme.MUTED, False))
        row: list[Part] = []
        for part in parts:
            if row:
                row.append((_SEPARATOR, None, theme.MUTED, False))
            row.append(part)
        if state.clock is not None:
            running = state.clock_running == player
            text = bank_text(state.clock[player])
            if running and state.clock_delay > 0:
                text += f" +{math.ceil(state.clock_delay)}s"
            row.append(("   ", None, theme.MUTED, False))
            row.append((text, "clock", theme.HIGHLIGHT if running else theme.MUTED, running))
        return row

    def name(self, player: int, x: float, cy: float, room: float) -> Label:
        """``player``'s name at ``x``, in ``room`` pixels: the largest size it fits at, else on
        two lines at the smallest, else cut."""
        text = " ".join(self.state.players[player].split())
        sizes = sorted({self.size(size) for size in NAME_SIZES}, reverse=True)
        for size in sizes:
            if text_length(text, font(size, bold=True)) <= room:
                return self.add(place("name", text, size, (x, cy), theme.TEXT, bold=True))
        size = sizes[-1]
        lines, cut = wrap_text(text, font(size, bold=True), room)
        pitch = 25 * self.geo.scale
        return self.add(
            place("name", lines, size, (x, cy), theme.TEXT, bold=True, pitch=pitch, cut=cut)
        )

    def status_fit(self) -> tuple[str, int, bool]:
        """The status line's text, font size and whether it was cut, in the room the arrows'
        legend leaves."""
        x0, _, x1, _ = self.geo.status_strip
        room = (x1 - x0) - 64 * self.geo.scale - 2 * self.legend_reserve()
        return status_fit(self.state, room, self.geo.scale, language=self.language)

    def status_strip(self, fitted: tuple[str, int, bool] | None = None) -> None:
        """The status line (``fitted``: its :meth:`status_fit`, when worked out already)."""
        state, geo = self.state, self.geo
        x0, y0, x1, y1 = geo.status_strip
        cy = (y0 + y1) / 2
        self.arrow_legend(cy)
        text, size, cut = self.status_fit() if fitted is None else fitted
        face = font(size, bold=True)
        who = actor(state)
        if who is None:
            who = state.winner
        gap = 10 * geo.scale
        width = text_length(text, face)
        diameter = round((y1 - y0) * 0.56)
        if who is not None:
            width += diameter + gap
        x = (x0 + x1 - width) / 2
        if who is not None:
            self._swatch(diameter, who, (x + diameter / 2, cy))
            x += diameter + gap
        self.add(place("status", text, size, (x, cy), theme.TEXT, bold=True, cut=cut))

    def arrow_legend(self, cy: float) -> None:
        """A sample of each kind of arrow drawn with its word ("played", "best"), the first at
        the left end of the status line and the next at the right end."""
        geo = self.geo
        x0, _, x1, _ = geo.status_strip
        size = self.size(MIN_TEXT)
        face = font(size)
        margin, length, gap = 14 * geo.scale, 72 * geo.scale, 8 * geo.scale
        for index, kind in enumerate(self.legend[:2]):
            word, colour = say.LEGEND[kind](self.language), LEGEND[kind]
            width = length + gap + text_length(word, face)
            left = x0 + margin if index == 0 else x1 - margin - width
            sample = sample_path(kind, (left, cy), (left + length, cy), geo)
            key = ("legend", kind, left, cy)
            self._op(geo.status_strip, key, partial(_arrow, geo, sample))
            self.add(place("legend", word, size, (left + length + gap, cy), colour))

    def legend_reserve(self) -> float:
        """The room each end of the status line gives the arrows' legend (0 without arrows)."""
        geo = self.geo
        face = font(self.size(MIN_TEXT))
        margin, length, gap = 14 * geo.scale, 72 * geo.scale, 8 * geo.scale
        reserve = 0.0
        for kind in self.legend[:2]:
            width = length + gap + text_length(say.LEGEND[kind](self.language), face)
            reserve = max(reserve, margin + width + gap)
        return reserve


def _paint(label: Label, _: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    paint(draw, label)


def _bar(box: Box, _: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    draw.rectangle(box, fill=theme.HIGHLIGHT)


def _text(
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    colour: RGB,
    _: Image.Image,
    draw: ImageDraw.ImageDraw,
) -> None:
    draw_text(draw, xy, text, face, colour)


def _arrow(geo: Layout, sample: ArrowPath, image: Image.Image, _: ImageDraw.ImageDraw) -> None:
    draw_arrows(image, geo, [sample])
