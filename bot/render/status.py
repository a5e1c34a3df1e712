"""The status line: whose turn it is and what they must do, or who won."""

from __future__ import annotations

from PIL import ImageFont

from bot.i18n.core import ENGLISH
from bot.i18n.words import level_text
from bot.render.fonts import font
from bot.render.state import BoardState
from bot.render.text import fit_text, text_length
from bot.rules.notation import dice_text
from bot.rules.text import plural

__all__ = ["actor", "fitted_status", "status_fit", "status_text"]


def status_text(state: BoardState) -> str:
    """The status line: whose turn it is and what they must do, or who won."""
    mover, other = state.players[state.on_roll], state.players[1 - state.on_roll]
    return _status(state, mover, other, {0: state.players[0], 1: state.players[1]})


def fitted_status(
    state: BoardState, face: ImageFont.FreeTypeFont, room: float, scale: float = 1.0
) -> str:
    """The status line as drawn in ``room`` pixels: whole names if it fits, first as it is and
    then, for a double or a resignation, without who must answer (the swatch and the strip's
    bar show that); else the same with names shortened, then the whole line cut."""
    return _fitted(state, face, room, scale)[0]


def status_fit(state: BoardState, room: float, scale: float = 1.0) -> tuple[str, int, bool]:
    """The status line for ``room`` pixels, the size of its bold font and whether a name or
    the line was cut: 24 px (at ``scale`` 1) if it fits, down to 22 px; then cut at 22 px."""
    sizes = sorted({max(10, round(size * scale)) for size in STATUS_SIZES}, reverse=True)
    for short in _BRIEFER:
        for size in sizes:
            text = _status_with(state, state.players, short=short)
            if text_length(text, font(size, bold=True)) <= room:
                return text, size, False
    text, whole = _fitted(state, font(sizes[-1], bold=True), room, scale)
    return text, sizes[-1], not whole


STATUS_SIZES = (24, 23, 22)
_BRIEFER = (False, True)
"""How briefly the line is put, tried in turn: whole, then without who must answer an offer."""


def _fitted(
    state: BoardState, face: ImageFont.FreeTypeFont, room: float, scale: float
) -> tuple[str, bool]:
    """The status line and whether it shows the names whole."""
    for short in _BRIEFER:
        text = _status_with(state, state.players, short=short)
        if text_length(text, face) <= room:
            return text, True
    text = ""
    tries = [(name_room, False) for name_room in (240, 180, 140)]
    tries += [(name_room, True) for name_room in (240, 180, 140, 110, 80)]
    for name_room, short in tries:
        names = tuple(fit_text(name, face, name_room * scale) for name in state.players)
        text = _status_with(state, (names[0], names[1]), short=short)
        if text_length(text, face) <= room:
            return text, False
    return fit_text(text, face, room), False


def _status_with(state: BoardState, names: tuple[str, str], *, short: bool) -> str:
    by_player = {0: names[0], 1: names[1]}
    return _status(
        state, by_player[state.on_roll], by_player[1 - state.on_roll], by_player, short=short
    )


def _status(
    state: BoardState, mover: str, other: str, names: dict[int, str], *, short: bool = False
) -> str:
    if state.phase == "roll":  # the bot rolls at once for a player who can't double
        return f"{mover} to roll or double"
    if state.phase == "move":
        if state.dice is None:
            return f"{mover} to move"
        return f"{mover} to move {dice_text(state.dice)}"
    if state.phase == "doubled":
        answers = (
            "take, drop or beaver" if state.beavers and state.match_length <= 0 else "take or drop"
        )
        doubled = f"{mover} doubled to {2 * state.cube_value}"
        return f"{doubled}: {answers}?" if short else f"{doubled} — {other} to {answers}"
    if state.phase == "resigned":
        offer = f"{mover} offers to resign"
        if state.resignation:
            points = plural(state.resignation * state.cube_value, "point")
            offer = f"{offer} {level_text(state.resignation, ENGLISH)} ({points})"
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
        return f"{winner} wins a {state.result}: {plural(state.points, 'point')}"
    if big:
        return f"{winner} wins a {state.result}"
    if state.points:
        return f"{winner} wins {plural(state.points, 'point')}"
    return f"{winner} wins the game"


def actor(state: BoardState) -> int | None:
    """The player the game is waiting for, if any."""
    if state.phase in ("roll", "move"):
        return state.on_roll
    if state.phase in ("doubled", "resigned"):
        return 1 - state.on_roll
    return None
