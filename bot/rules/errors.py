"""Errors a player can cause: ``ValueError`` subclasses whose message is meant for the player.
A refused play gives the reason first, then a short quote of the input (:func:`typed`)."""

from __future__ import annotations

from bot.i18n.core import Text
from bot.i18n.rules import TYPED


class Refused(ValueError):
    """A refusal meant for the player: its ``reason`` is a value (:class:`~bot.i18n.core.Said`)
    the service words in the command's language; ``str()`` is the English."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)


class MoveError(Refused):
    """A typed play that cannot be carried out."""


class InvalidMoveError(MoveError):
    """The text cannot be read as a play at all (``'13/x' is not a move``)."""


class IllegalMoveError(MoveError):
    """The text reads as a play, but the rules forbid it in this position."""


class AmbiguousMoveError(MoveError):
    """The text matches more than one legal play."""


class MatchError(Refused):
    """An action the match refuses; the message is meant for the player."""


class NotYourTurnError(MatchError):
    """The player acted when it was the other player's turn or decision."""


class IllegalActionError(MatchError):
    """It is the player's turn, but the rules or the state of play forbid this action."""


class MatchOverError(MatchError):
    """The match is over: nothing more can be done."""


QUOTE_LIMIT = 40  # characters of the player's input a message quotes back


def excerpt(text: str) -> str:
    """``text`` quoted for a message: one line, printable, at most :data:`QUOTE_LIMIT`
    characters (then ``…``), so a huge input never crowds out the reason."""
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if len(flat) > QUOTE_LIMIT:
        flat = flat[:QUOTE_LIMIT].rstrip() + "…"
    return f"'{flat}'"


def typed(reason: Text, text: str) -> Text:
    """A message for a refused input: the reason first, then a short quote of what was typed."""
    return TYPED.said(reason=reason, quoted=excerpt(text)) if text.strip() else reason


class PositionTextError(Refused):
    """Pasted text that is not a position the bot can read (an XGID, a gnubg ID), or not a
    state in play: the reason (a value the service words), then a short quote of the text."""


class PartialRecordError(ValueError):
    """The match was restored from a snapshot: it holds only what came after, so what needs
    the whole record (its actions for storage, the ``.mat`` file) must come from a replay."""


class SnapshotError(ValueError):
    """Snapshot data that no match can be restored from; the message says what is wrong."""
