"""The status line: whose turn it is and what they must do, or who won."""

from __future__ import annotations

from PIL import ImageFont

from bot.i18n import images as say
from bot.i18n.core import ENGLISH, Language
from bot.i18n.words import level_text, points_text
from bot.render.fonts import font
from bot.render.state import BoardState
from bot.render.text import fit_text, text_length
from bot.rules.notation import dice_text

__all__ = ["actor", "fitted_status", "status_fit", "status_text"]


def status_text(state: BoardState, *, language: Language = ENGLISH) -> str:
    """The status line: whose turn it is and what they must do, or who won."""
    mover, other = state.players[state.on_roll], state.players[1 - state.on_roll]
    return _status(state, mover, other, {0: state.players[0], 1: state.players[1]}, language)


def fitted_status(
    state: BoardState,
    face: ImageFont.FreeTypeFont,
    room: float,
    scale: float = 1.0,
    *,
    language: Language = ENGLISH,
) -> str:
    """The status line as drawn in ``room`` pixels: whole names if it fits, first as it is and
    then, for a double or a resignation, without who must answer (the swatch and the strip's
    bar show that); else the same with names shortened, then the whole line cut."""
    return _fitted(state, face, room, scale, language)[0]


def status_fit(
    state: BoardState, room: float, scale: float = 1.0, *, language: Language = ENGLISH
) -> tuple[str, int, bool]:
    """The status line for ``room`` pixels, the size of its bold font and whether a name or
    the line was cut: 24 px (at ``scale`` 1) if it fits, down to 22 px; then cut at 22 px."""
    sizes = sorted({max(10, round(size * scale)) for size in STATUS_SIZES}, reverse=True)
    for short in _BRIEFER:
        text = _status_with(state, state.players, language, short=short)
        for size in sizes:
            if text_length(text, font(size, bold=True)) <= room:
                return text, size, False
    text, whole = _fitted(state, font(sizes[-1], bold=True), room, scale, language)
    return text, sizes[-1], not whole


STATUS_SIZES = (24, 23, 22)
_BRIEFER = (False, True)
"""How briefly the line is put, tried in turn: whole, then without who must answer an offer."""


def _fitted(
    state: BoardState,
    face: ImageFont.FreeTypeFont,
    room: float,
    scale: float,
    language: Language,
) -> tuple[str, bool]:
    """The status line and whether it shows the names whole."""
    for short in _BRIEFER:
        text = _status_with(state, state.players, language, short=short)
        if text_length(text, face) <= room:
            return text, True
    text = ""
    tries = [(name_room, False) for name_room in (240, 180, 140)]
    tries += [(name_room, True) for name_room in (240, 180, 140, 110, 80)]
    for name_room, short in tries:
        names = tuple(fit_text(name, face, name_room * scale) for name in state.players)
        text = _status_with(state, (names[0], names[1]), language, short=short)
        if text_length(text, face) <= room:
            return text, False
    return fit_text(text, face, room), False


def _status_with(
    state: BoardState, names: tuple[str, str], language: Language, *, short: bool
) -> str:
    by_player = {0: names[0], 1: names[1]}
    return _status(
        state,
        by_player[state.on_roll],
        by_player[1 - state.on_roll],
        by_player,
        language,
        short=short,
    )


def _status(
    state: BoardState,
    mover: str,
    other: str,
    names: dict[int, str],
    language: Language,
    *,
    short: bool = False,
) -> str:
    if state.phase == "roll":  # the bot rolls at once for a player who can't double
        return say.TO_ROLL(language, who=mover)
    if state.phase == "move":
        if state.dice is None:
            return say.TO_MOVE(language, who=mover)
        return say.TO_MOVE_DICE(language, who=mover, dice=dice_text(state.dice))
    if state.phase == "doubled":
        beaver = state.beavers and state.match_length <= 0
        answers = (say.TAKE_DROP_OR_BEAVER if beaver else say.TAKE_OR_DROP)(language)
        doubled = say.DOUBLED_TO(language, who=mover, cube=2 * state.cube_value)
        if short:
            return say.DOUBLED_SHORT(language, doubled=doubled, answers=answers)
        return say.DOUBLED_ANSWER(language, doubled=doubled, other=other, answers=answers)
    if state.phase == "resigned":
        offer = say.OFFERS_TO_RESIGN(language, who=mover)
        if state.resignation:
            offer = say.OFFERS_TO_RESIGN_LEVEL(
                language,
                who=mover,
                level=level_text(state.resignation, language),
                points=points_text(state.resignation * state.cube_value, language),
            )
        return offer if short else say.RESIGN_ANSWER(language, offer=offer, other=other)
    if state.winner is None:
        return say.GAME_OVER(language)
    return _won(state, names[state.winner], language)


def _won(state: BoardState, winner: str, language: Language) -> str:
    """Who won, what (a gammon or backgammon is named) and, in a match that ends, the score."""
    assert state.winner is not None
    big = state.result if state.result in ("gammon", "backgammon") else None
    if state.match_length > 0 and state.score[state.winner] >= state.match_length:
        final = f"{state.score[state.winner]}-{state.score[1 - state.winner]}"
        if big:
            return say.WINS_BIG_AND_MATCH[big](language, who=winner, score=final)
        return say.WINS_MATCH(language, who=winner, score=final)
    points = points_text(state.points, language)
    if big and state.points:
        return say.WINS_BIG_POINTS[big](language, who=winner, points=points)
    if big:
        return say.WINS_BIG[big](language, who=winner)
    if state.points:
        return say.WINS_POINTS(language, who=winner, points=points)
    return say.WINS_GAME(language, who=winner)


def actor(state: BoardState) -> int | None:
    """The player the game is waiting for, if any."""
    if state.phase in ("roll", "move"):
        return state.on_roll
    if state.phase in ("doubled", "resigned"):
        return 1 - state.on_roll
    return None
