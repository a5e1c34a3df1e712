"""Why a match refuses an action now: the checks behind :class:`~bot.rules.match.Match`'s
actions and the short :class:`~bot.rules.errors.MatchError` each refusal raises."""

from __future__ import annotations

from bot.rules.errors import (
    IllegalActionError,
    MatchError,
    MatchOverError,
    NotYourTurnError,
    PartialRecordError,
)
from bot.rules.state import MAX_CUBE, MatchState
from bot.rules.text import level_text


def require_full_record(match: MatchState, purpose: str) -> None:
    if not match.has_full_record:
        raise PartialRecordError(
            f"{purpose} needs the whole record, and this match was "
            "restored from a snapshot: replay its actions instead"
        )


def check_player(match: MatchState, player: int) -> None:
    if isinstance(player, bool) or player not in (0, 1):
        raise MatchError(f"a player is 0 or 1, not {player!r}")
    if match.phase == "over":
        raise MatchOverError("the match is over")


def not_now(match: MatchState, player: int, verb: str) -> MatchError:
    """Why ``player`` can't ``verb`` now (they are not the one who must act, or must answer
    something first)."""
    if match.phase == "doubled":
        if player == match.turn:
            return IllegalActionError(
                f"you have been doubled to {match.cube_value * 2}: take or drop first"
            )
        return NotYourTurnError("it is not your turn: your opponent must take or drop your double")
    if match.phase == "resigned":
        if player == match.turn:
            return IllegalActionError(
                f"your opponent offers to resign "
                f"{level_text(match.resignation)}: accept or reject "
                "first"
            )
        return NotYourTurnError(
            "it is not your turn: your opponent must accept or reject your resignation"
        )
    return NotYourTurnError(f"it is not your turn to {verb}")


def double_refusal(match: MatchState, player: int) -> MatchError | None:
    """Why ``player`` may not double now, None if they may. The reasons that hold whoever's
    turn it is (no cube in this game, or none for this player) come before the turn."""
    if isinstance(player, bool) or player not in (0, 1):
        return MatchError(f"a player is 0 or 1, not {player!r}")
    if match.phase == "over":
        return MatchOverError("the match is over")
    if match.length == 1:
        return IllegalActionError("there is no doubling in a 1-point match")
    if match.crawford:
        return IllegalActionError("there is no doubling in the Crawford game")
    if match.phase in ("doubled", "resigned"):
        return not_now(match, player, "double")
    if match.cube_owner is not None and match.cube_owner != player:
        return IllegalActionError("the cube is your opponent's: only they can double now")
    if match.length and match.score[player] + match.cube_value >= match.length:
        return IllegalActionError(
            "the cube is dead: winning this game already wins you the "
            "match, so a double can't gain you anything"
        )
    if match.cube_value * 2 > MAX_CUBE:
        return IllegalActionError(f"the cube is already at {match.cube_value}, its limit")
    if player != match.on_roll:
        return NotYourTurnError("it is not your turn to double")
    if match.phase == "move":
        return IllegalActionError("you have already rolled: double before you roll")
    return None


def check_answer_to_double(match: MatchState, player: int, verb: str) -> None:
    check_player(match, player)
    if match.phase != "doubled":
        raise IllegalActionError(f"there is no double to {verb}")
    if player == match.on_roll:
        raise NotYourTurnError(f"you can't {verb} your own double: your opponent answers it")


def check_answer_to_resignation(match: MatchState, player: int, verb: str) -> None:
    check_player(match, player)
    if match.phase != "resigned":
        raise IllegalActionError(f"there is no resignation to {verb}")
    if player == match.on_roll:
        raise NotYourTurnError(f"you can't {verb} your own resignation: your opponent answers it")
