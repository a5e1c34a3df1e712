"""The text strips: each player's name, pips and score, the match or last play, and the status
line."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.fonts import font
from bot.render.geometry import Layout
from bot.render.sprites import checker_sprite, paste
from bot.render.status import actor, fitted_status
from bot.render.text import ELLIPSIS, draw_text, fit_text, text_length
from bot.render.view import View
from bot.rules.text import bank_text, dice_text


class Strips:
    """The player strips above and below the board, and the status line."""

    def __init__(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, geo: Layout, view: View
    ) -> None:
        self.image = image
        self.draw = draw
        self.geo = geo
        self.view = view
        self.state = view.state

    def paint(self) -> None:
        state, view, geo = self.state, self.view, self.geo
        waiting = actor(state)
        right_text, right_colour = self.match_text()
        self.player_strip(view.top, geo.top_strip, waiting, right_text, right_colour)
        self.player_strip(
            view.bottom, geo.bottom_strip, waiting, self.last_play_text(), theme.MUTED
        )
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

    def player_strip(
        self,
        player: int,
        strip: tuple[int, int, int, int],
        waiting: int | None,
        right: str,
        right_colour: tuple[int, int, int],
    ) -> None:
        state, geo, view = self.state, self.geo, self.view
        x0, y0, x1, y1 = strip
        cy = (y0 + y1) / 2
        scale = geo.scale
        if waiting == player:
            self.draw.rectangle((x0, y0, x0 + round(6 * scale) - 1, y1 - 1), fill=theme.HIGHLIGHT)
        swatch = checker_sprite(round((y1 - y0) * 0.62), player)
        x = x0 + 16 * scale
        paste(self.image, swatch, (x + swatch.width / 2, cy))
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
        x = self.clock(player, x, cy)
        if right:
            right_font = font(round(17 * scale))
            room = x1 - 14 * scale - x
            text = fit_text(right, right_font, room)
            if text != ELLIPSIS:
                draw_text(self.draw, (x1 - 14 * scale, cy), text, right_font, right_colour, "rm")

    def clock(self, player: int, x: float, cy: float) -> float:
        """``player``'s bank, after their details (bold and bright while it runs, with the
        delay still free); where the strip goes on."""
        state, scale = self.state, self.geo.scale
        if state.clock is None:
            return x
        running = state.clock_running == player
        text = bank_text(state.clock[player])
        if running and state.clock_delay > 0:
            text += f" +{math.ceil(state.clock_delay)}s"
        face = font(round(17 * scale), bold=running)
        colour = theme.HIGHLIGHT if running else theme.MUTED
        self.draw.text((x, cy), text, font=face, fill=colour, anchor="lm")
        return x + face.getlength(text) + 20 * scale

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
        swatch = None if who is None else checker_sprite(round((y1 - y0) * 0.56), who)
        if swatch is not None:
            width += swatch.width + gap
        x = (x0 + x1 - width) / 2
        if swatch is not None:
            paste(self.image, swatch, (x + swatch.width / 2, cy))
            x += swatch.width + gap
        draw_text(self.draw, (x, cy), text, face, theme.TEXT, "lm")
