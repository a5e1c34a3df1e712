"""The keys of the questions buttons answer: one class per kind, each with its ``format`` (the
text a button's custom id carries, ``m7.53``) and its ``parse``.

A key names one question exactly, so a press meant for an older one (a button on an old message)
is told apart from the question asked now. The text of each kind is fixed: buttons sent by any
earlier bot carry it and keep working after a restart. A kind is its class alone: its
``FORMAT`` (a letter, then its whole-number fields in braces) gives its text and its regular
expression, with a named group per field. Every kind is defined here and listed in
:data:`KINDS` (a letter taken twice is refused), and the adapters (buttons, console) take every
kind from there.
"""

from __future__ import annotations

import re
from dataclasses import Field, dataclass, fields
from typing import Any, ClassVar, Self

_FIELD = re.compile(r"\{(\w+)\}")
# A field's digits: no leading zero (each key has one text) and at most 18 of them (a database
# id, so a forged id can't overflow a query).
_DIGITS = "0|[1-9][0-9]{0,17}"


class Key:
    """The key of one question; a subclass per kind, a frozen dataclass of whole numbers."""

    FORMAT: ClassVar[str]  # e.g. "m{match_id}.{actions}": a letter of its own, then its fields
    PATTERN: ClassVar[re.Pattern[str]]
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        letter = cls.FORMAT[0]
        if letter in _BY_LETTER or not letter.isalpha():
            raise TypeError(f"{cls.__name__}: a key's format starts with a letter of its own")
        cls.PATTERN = re.compile(cls.template())
        _BY_LETTER[letter] = cls

    @classmethod
    def template(cls) -> str:
        """The regular expression of this kind's text, a named group of :data:`_DIGITS` per
        field."""
        parts = _FIELD.split(cls.FORMAT)
        return "".join(
            f"(?P<{part}>{_DIGITS})" if odd else re.escape(part) for odd, part in _alternate(parts)
        )

    @classmethod
    def of(cls, found: re.Match[str]) -> Self:
        """The key whose text ``found`` matched (by :meth:`template`, maybe within more)."""
        return cls(**{field.name: int(found[field.name]) for field in fields(cls)})

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """The key of this kind that ``text`` is, or None."""
        found = cls.PATTERN.fullmatch(text)
        return None if found is None else cls.of(found)

    def format(self) -> str:
        return self.FORMAT.format(
            **{field.name: getattr(self, field.name) for field in fields(self)}
        )

    def __str__(self) -> str:
        return self.format()


_BY_LETTER: dict[str, type[Key]] = {}


def _alternate(parts: list[str]) -> list[tuple[bool, str]]:
    """``re.split`` with a group: text at even places, the group's words at odd ones."""
    return [(index % 2 == 1, part) for index, part in enumerate(parts)]


@dataclass(frozen=True)
class MatchKey(Key):
    """A decision in a match (roll or double, take or drop, a resignation): its count of actions
    so far changes with every answer."""

    FORMAT: ClassVar[str] = "m{match_id}.{actions}"
    match_id: int
    actions: int


@dataclass(frozen=True)
class ChallengeKey(Key):
    """A challenge's accept or decline."""

    FORMAT: ClassVar[str] = "c{challenge_id}"
    challenge_id: int


@dataclass(frozen=True)
class RematchKey(Key):
    """The rematch of a finished match (its last message's Rematch button)."""

    FORMAT: ClassVar[str] = "r{match_id}"
    match_id: int


@dataclass(frozen=True)
class SignupKey(Key):
    """A tournament's sign-up message: its Join and Leave buttons."""

    FORMAT: ClassVar[str] = "t{tournament_id}"
    tournament_id: int


@dataclass(frozen=True)
class ReviewKey(Key):
    """A page of a match's review (``!review``), and the analysis' Review button (page 0)."""

    FORMAT: ClassVar[str] = "v{match_id}.{page}"
    match_id: int
    page: int


@dataclass(frozen=True)
class ErrorsKey(Key):
    """A page of a match's list of errors (``!review errors``)."""

    FORMAT: ClassVar[str] = "e{match_id}.{page}"
    match_id: int
    page: int


@dataclass(frozen=True)
class DrillKey(Key):
    """A cube drill's question: the analysed match and the decision it comes from (whose drill
    it is, the presser's awaiting drill says)."""

    FORMAT: ClassVar[str] = "d{match_id}.{decision}"
    match_id: int
    decision: int


@dataclass(frozen=True)
class PuzzleKey(Key):
    """A cube puzzle's question: the puzzle as shown to the one who asked for it (its row of
    answers), so a press answers that showing and no other."""

    FORMAT: ClassVar[str] = "p{shown}"
    shown: int


@dataclass(frozen=True)
class DailyKey(Key):
    """A server's daily puzzle, as posted (its row of ``daily_posts``): its buttons answer that
    day's puzzle only."""

    FORMAT: ClassVar[str] = "y{post}"
    post: int


@dataclass(frozen=True)
class StormKey(Key):
    """A cube puzzle of a storm: the storm and how many puzzles it had shown (this one
    included), so a press answers that puzzle of that run and no other."""

    FORMAT: ClassVar[str] = "s{storm}.{shown}"
    storm: int
    shown: int


KINDS: tuple[type[Key], ...] = tuple(_BY_LETTER.values())


def parse_key(text: str) -> Key | None:
    """The key ``text`` is, of whichever kind its letter says; None when it is none."""
    kind = _BY_LETTER.get(text[:1])
    return None if kind is None else kind.parse(text)


__all__ = [
    "KINDS",
    "ChallengeKey",
    "DailyKey",
    "DrillKey",
    "ErrorsKey",
    "Key",
    "MatchKey",
    "PuzzleKey",
    "RematchKey",
    "ReviewKey",
    "SignupKey",
    "StormKey",
    "parse_key",
]
