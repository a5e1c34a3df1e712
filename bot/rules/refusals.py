"""Why a match refuses an action now: the checks behind :class:`~bot.rules.match.Match`'s
actions and the short :class:`~bot.rules.errors.MatchError` each refusal raises."""

from __future__ import annotations

from bot.i18n import rules as say
from bot.rules.errors import (
    IllegalActionError,
    MatchError,
    MatchOverError,
    NotYourTurnError,
    PartialRecordError,
)
from bot.rules.options import MAX_CUBE
from bot.rules.state import MatchState
from bot.rules.text import level_text


def require_full_record(match: MatchState, purpose: str) -> None:
    if not match.has_full_record:
        raise PartialRecordError(
            f"{purpose} needs the whole record, and this match was "
            "restored from a snapshot: replay its actions instead"
        )


def check_player(match: MatchState, player: int) -> None:
    if isinstance(player, bool) or player not in (0, 1):
        raise MatchError(f"a player is 0 or 1, not {player!r}")  # a caller's bug
    if match.phase == "over":
        raise MatchOverError(say.MATCH_OVER())


def not_now(match: MatchState, player: int, verb: str) -> MatchError:
    """Why ``player`` can't ``verb`` now (they are not the one who must act, or must answer
    something first)."""
    if match.phase == "doubled":
        if player == match.turn:
            return IllegalActionError(say.DOUBLED_ANSWER_FIRST(cube=match.cube_value * 2))
        return NotYourTurnError(say.WAIT_DOUBLE_ANSWER())
    if match.phase == "resigned":
        if player == match.turn:
            return IllegalActionError(
                say.RESIGNATION_ANSWER_FIRST(level=level_text(match.resignation))
            )
        return NotYourTurnError(say.WAIT_RESIGNATION_ANSWER())
    return NotYourTurnError(say.NOT_YOUR_TURN_TO[verb]())


def double_refusal(match: MatchState, player: int) -> MatchError | None:
    """Why ``player`` may not double now, None if they may. The reasons that hold whoever's
    turn it is (no cube in this game, or none for this player) come before the turn."""
    if isinstance(player, bool) or player not in (0, 1):
        return MatchError(f"a player is 0 or 1, not {player!r}")  # a caller's bug
    if match.phase == "over":
        return MatchOverError(say.MATCH_OVER())
    if match.length == 1:
        return IllegalActionError(say.NO_DOUBLING_ONE_POINT())
    if match.crawford:
        return IllegalActionError(say.NO_DOUBLING_CRAWFORD())
    if match.phase in ("doubled", "resigned"):
        return not_now(match, player, "double")
    if match.cube_owner is not None and match.cube_owner != player:
        return IllegalActionError(say.CUBE_OPPONENTS())
    if match.length and match.score[player] + match.cube_value >= match.length:
        return IllegalActionError(say.CUBE_DEAD())
    if match.cube_value * 2 > MAX_CUBE:
        return IllegalActionError(say.CUBE_AT_LIMIT(cube=match.cube_value))
    if player != match.on_roll:
        return NotYourTurnError(say.NOT_YOUR_TURN_TO["double"]())
    if match.phase == "move":
        return IllegalActionError(say.DOUBLE_BEFORE_ROLL())
    return None


def check_answer_to_double(match: MatchState, player: int, verb: str) -> None:
    check_player(match, player)
    if match.phase != "doubled":
        raise IllegalActionError(say.NO_DOUBLE_TO[verb]())
    if player == match.on_roll:
        raise NotYourTurnError(say.OWN_DOUBLE[verb]())


def check_answer_to_resignation(match: MatchState, player: int, verb: str) -> None:
    check_player(match, player)
    if match.phase != "resigned":
        raise IllegalActionError(say.NO_RESIGNATION_TO[verb]())
    if player == match.on_roll:
        raise NotYourTurnError(say.OWN_RESIGNATION[verb]())
