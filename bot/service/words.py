"""Turning match events and states into short sentences for the channel."""

from __future__ import annotations

from typing import Any

from bot.engine.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    GameOver,
    GameStarted,
    MatchOver,
    Moved,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Took,
)
from bot.engine.match import Match
from bot.engine.options import DEFAULT_AUTOMATIC_DOUBLES
from bot.engine.text import dice_text, level_text, points_text


def match_kind(length: int) -> str:
    return "a money game" if length == 0 else f"a {length}-point match"


def options_text(options: dict[str, Any]) -> str:
    """`` (Jacoby, beavers)`` for the money-game options that are on, else nothing."""
    names = [
        label for key, label in (("jacoby", "Jacoby"), ("beavers", "beavers")) if options.get(key)
    ]
    auto = options.get("automatic_doubles")
    if auto:
        most = DEFAULT_AUTOMATIC_DOUBLES if auto is True else int(auto)
        names.append(f"automatic doubles, at most {most} per game")
    return f" ({', '.join(names)})" if names else ""


def score_text(match: Match, names: tuple[str, str]) -> str:
    if match.length == 0:
        return f"{names[0]} {match.score[0]}, {names[1]} {match.score[1]} (money game)"
    text = f"{names[0]} {match.score[0]}, {names[1]} {match.score[1]} (match to {match.length})"
    if match.crawford:
        text += ", Crawford game"
    elif match.post_crawford:
        text += ", post-Crawford"
    return text


def describe(event: Event, names: tuple[str, str], *, money: bool = False) -> str | None:
    """One line for an event, or None for events the board and prompt already say.

    ``money``: the event is from a money game, which has no match score to speak of."""
    if isinstance(event, GameStarted):
        if event.game == 1:
            return None
        crawford = " (Crawford game: no doubling)" if event.crawford else ""
        return f"Game {event.game} at {event.score[0]}-{event.score[1]}{crawford}."
    if isinstance(event, OpeningRoll):
        first, second = event.dice
        rolls = f"{names[0]} rolls {first}, {names[1]} rolls {second}"
        if event.winner is None:
            cube = f": the cube turns to {event.cube}" if event.automatic_double else ""
            return f"Opening roll: {rolls}; a tie, rolling again{cube}."
        high, low = max(event.dice), min(event.dice)
        return f"Opening roll: {rolls}. {names[event.winner]} moves first with {high}-{low}."
    if isinstance(event, Rolled):
        return f"{names[event.player]} rolls {dice_text(event.dice)}."
    if isinstance(event, Moved):
        who = names[event.player]
        if event.no_legal_move:
            return f"{who} can't move with {dice_text(event.dice)}."
        forced = " (forced)" if event.forced else ""
        return f"{who} plays {dice_text(event.dice)}: {event.play}{forced}."
    if isinstance(event, Doubled):
        return f"{names[event.player]} doubles to {event.cube}."
    if isinstance(event, Took):
        return f"{names[event.player]} takes: the cube is at {event.cube}."
    if isinstance(event, Beavered):
        who = names[event.player]
        return f"{who} beavers: the cube is at {event.cube}, and {who} owns it."
    if isinstance(event, Dropped):
        return f"{names[event.player]} drops."
    if isinstance(event, ResignationOffered):
        return (
            f"{names[event.player]} offers to resign {level_text(event.level)} "
            f"({points_text(event.points)})."
        )
    if isinstance(event, ResignationAccepted):
        return f"{names[event.player]} accepts the resignation."
    if isinstance(event, ResignationRejected):
        return f"{names[event.player]} rejects the resignation: play on."
    if isinstance(event, GameOver):
        kind = {"single": "", "gammon": " a gammon", "backgammon": " a backgammon"}[event.result]
        jacoby = (
            " (Jacoby rule: gammons count single with the cube centred)" if event.jacoby else ""
        )
        score = "" if money else f" Score {names[0]} {event.score[0]}, {names[1]} {event.score[1]}."
        return f"{names[event.winner]} wins{kind}: {points_text(event.points)}{jacoby}.{score}"
    if isinstance(event, MatchOver):
        if money:
            return None  # the game's line said it all
        return f"**{names[event.winner]} wins the match {max(event.score)}-{min(event.score)}.**"
    return None
