"""Errors a player can cause. All are ``ValueError`` subclasses whose message quotes the input."""

from __future__ import annotations


class MoveError(ValueError):
    """A typed play that cannot be carried out."""


class InvalidMoveError(MoveError):
    """The text cannot be read as a play at all (``'13/x' is not a move``)."""


class IllegalMoveError(MoveError):
    """The text reads as a play, but the rules forbid it in this position."""


class AmbiguousMoveError(MoveError):
    """The text matches more than one legal play."""
