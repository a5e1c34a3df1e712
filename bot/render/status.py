"""The status line: whose turn it is and what they must do, or who won."""

from __future__ import annotations

from PIL import ImageFont

from bot.render.state import BoardState
from bot.render.text import fit_text, text_length
from bot.rules.text import dice_text, level_text, points_text

__all__ = ["actor", "fitted_status", "status_text"]


def status_text(state: BoardState) -> str:
    """The status line: whose turn it is and what they must do, or who won."""
    mover, other = state.players[state.on_roll], state.players[1 - state.on_roll]
    return _status(state, mover, other, {0: state.players[0], 1: state.players[1]})


def fitted_status(
    state: BoardState, face: ImageFont.FreeTypeFont, room: float, scale: float = 1.0
) -> str:
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
