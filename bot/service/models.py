"""What the adapters hand the service and get back: users, places, tables, replies, and the
values a reply carries (the jobs it shows, the match it ended)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from bot.rules.match import Match
from bot.service.keys import (
    ChallengeKey,
    DrillKey,
    ErrorsKey,
    Key,
    MatchKey,
    PuzzleKey,
    RematchKey,
    ReviewKey,
    SignupKey,
    StormKey,
)
from bot.service.records.durations import wait_duration
from bot.service.records.names import clean_name
from bot.service.records.names import markdown_safe as md
from bot.store import MatchRow
from bot.store.matches import TimerRow


@dataclass(frozen=True, slots=True)
class User:
    """Someone who typed a command. ``id`` is stable (a Discord snowflake, or a console name)."""

    id: str
    name: str

    def __post_init__(self) -> None:
        # Display names are chosen by users: only ever keep a cleaned one (no bidi tricks,
        # control characters or Zalgo; bounded length). See :func:`clean_name`.
        object.__setattr__(self, "name", clean_name(self.name))


# GNU Backgammon's seat in a match against the bot: stored like a player. The id can't be a
# Discord snowflake (digits) or a console name (no colons), and is never pinged.
ENGINE_USER = User("engine:gnubg", "GNU Backgammon")
ENGINE_ID = ENGINE_USER.id


def engine_seat_of(player_ids: tuple[str, str]) -> int | None:
    """GNU Backgammon's seat among a match's players, or None when two people play."""
    return player_ids.index(ENGINE_ID) if ENGINE_ID in player_ids else None


@dataclass(frozen=True, slots=True)
class Place:
    """A table: one channel (or thread) of one server. Each holds at most one match."""

    server_id: str
    channel_id: str


@dataclass(slots=True)
class Table:
    """A channel's match as read from the store."""

    row: MatchRow
    match: Match
    plain: tuple[str, str]  # the players' names as images, records and data show them
    timer: TimerRow | None = None  # schema 8: when its decision began, the clock's banks

    @property
    def names(self) -> tuple[str, str]:
        """The players' names as message text shows them (Markdown escaped)."""
        return md(self.plain[0]), md(self.plain[1])

    def seat(self, user: User) -> int | None:
        return seat_of(self.row.player_ids, user)


def seat_of(player_ids: tuple[str, str], user: User) -> int | None:
    """``user``'s seat among ``player_ids``, or None (they don't play)."""
    if user.id == player_ids[0]:
        return 0
    if user.id == player_ids[1]:
        return 1
    return None


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """What happened: a command finished a match (played out, dropped, resigned, claimed, run
    out of time; not aborted nor voided). ``table``: the match as it now stands (its row with
    the winner and the ending, its rules :class:`Match`): what follows an end is told from
    this, never read again."""

    table: Table


@dataclass(frozen=True, slots=True)
class RoundPaired:
    """What happened: a tournament's new round was paired, and its matches wait to be opened
    where the adapter opens them (threads of the tournament's channel; channels in the console).
    The adapter hands the replies back with its way of opening them
    (:meth:`TableService.open_rounds <bot.service.table.TableService.open_rounds>`)."""

    tournament_id: int


def paired_in(replies: Iterable[Reply]) -> list[RoundPaired]:
    """The rounds ``replies`` show paired, each once, in order."""
    return list(dict.fromkeys(reply.paired for reply in replies if reply.paired is not None))


@dataclass(frozen=True, slots=True)
class TurnJob:
    """A bot turn queued behind others (:mod:`bot.service.gnubg.opponent`), by its number."""

    number: int


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """A match's analysis by GNU Backgammon (:mod:`bot.service.gnubg.analysis`)."""

    match_id: int


# A background job a message shows the progress of (TableService.follow follows it).
Job = TurnJob | AnalysisJob


def place_link(place: Place) -> str:
    """A channel or thread as message text: Discord's link for an id, else its name."""
    return f"<#{place.channel_id}>" if place.channel_id.isdigit() else f"#{place.channel_id}"


class Decision(Enum):
    """A question a player must answer; the Discord layer turns each into buttons."""

    CHALLENGE = "challenge"  # accept / decline
    DOUBLE = "double"  # take / drop (beaver in money games)
    RESIGNATION = "resignation"  # accept / reject
    TURN = "turn"  # roll / double
    REMATCH = "rematch"  # after a match: the same match again (either player may answer)
    SIGNUP = "signup"  # a tournament's sign-up: join / leave (anyone may answer)
    REVIEW = "review"  # a page of a match's review: first, previous, next... (anyone may press)
    REVIEW_ERRORS = "review_errors"  # a page of ``!review errors``: first, previous... (anyone)
    ANALYSED = "analysed"  # a match's analysis: its Review button opens the review (anyone)
    DRILL_DOUBLE = "drill_double"  # a cube drill before the roll: double / no double
    DRILL_TAKE = "drill_take"  # a cube drill facing a double: take / pass
    PUZZLE_DOUBLE = "puzzle_double"  # a cube puzzle before the roll: double / no double
    PUZZLE_TAKE = "puzzle_take"  # a cube puzzle facing a double: take / pass
    STORM_DOUBLE = "storm_double"  # a storm's cube puzzle before the roll: double / no double
    STORM_TAKE = "storm_take"  # a storm's cube puzzle facing a double: take / pass

    @property
    def key_kind(self) -> type[Key]:
        """The kind of key this question's buttons carry."""
        return _KEY_KINDS[self]


_KEY_KINDS: dict[Decision, type[Key]] = {
    Decision.CHALLENGE: ChallengeKey,
    Decision.DOUBLE: MatchKey,
    Decision.RESIGNATION: MatchKey,
    Decision.TURN: MatchKey,
    Decision.REMATCH: RematchKey,
    Decision.SIGNUP: SignupKey,
    Decision.REVIEW: ReviewKey,
    Decision.REVIEW_ERRORS: ErrorsKey,
    Decision.ANALYSED: ReviewKey,
    Decision.DRILL_DOUBLE: DrillKey,
    Decision.DRILL_TAKE: DrillKey,
    Decision.PUZZLE_DOUBLE: PuzzleKey,
    Decision.PUZZLE_TAKE: PuzzleKey,
    Decision.STORM_DOUBLE: StormKey,
    Decision.STORM_TAKE: StormKey,
}


class Pending(NamedTuple):
    """The question a table waits on: who must answer it and which one it is.

    ``key`` names this very question, so an answer meant for an older one (a button on an old
    message) can be told apart: a :class:`ChallengeKey`, a :class:`MatchKey` (its count of
    actions changes with every answer) or the :class:`RematchKey` of a finished match.
    """

    decision: Decision
    user_id: str
    name: str
    key: Key
    others: tuple[str, ...] = ()  # others who may answer too (the winner, for a rematch)
    # A rematch challenge: the key of the finished match's Rematch button, which accepts it now.
    rematch_key: RematchKey | None = None

    def answerable_by(self, user_id: str) -> bool:
        return user_id == self.user_id or user_id in self.others


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a :class:`Sheet`: a heading and its lines."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Sheet:
    """A reply in parts (``!help``): on Discord an embed with a field per section, elsewhere
    its :meth:`text`."""

    title: str
    description: str
    sections: tuple[Section, ...]

    def text(self) -> str:
        lines = [f"**{self.title}**", self.description]
        for section in self.sections:
            lines += [f"__{section.title}__", *section.lines]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Reply:
    """One message from the bot.

    ``mention`` holds the ids of users to ping (only the player who must act); ``private`` marks
    a refusal meant only for the user who typed the command (ephemeral in Discord).
    """

    text: str
    image: bytes | None = None
    file: Attachment | None = None
    mention: tuple[str, ...] = ()
    decision: Decision | None = None
    decision_for: str | None = None
    decision_key: Key | None = None  # which question exactly: see :class:`Pending`
    money_game: bool = False
    private: bool = False
    board_viewer: int | None = None  # set when the reply shows the board (from this side)
    announces: tuple[int, int] | None = None  # (match id, version) whose state it shows
    # A background job this message shows the progress of: the adapter follows it
    # (TableService.follow) and shows each new message in place of this one.
    job: Job | None = None
    # Where to post it when that is not where the command was typed: the thread a match was
    # just moved to, or the channel a thread's match came from (its result).
    place: Place | None = None
    sheet: Sheet | None = None  # the same as ``text``, in parts (Discord shows an embed)
    # The match this reply shows ended: what follows (its result in the channel a thread came
    # from, its analysis, its tournament) is handed this (see :mod:`bot.service.endings`).
    ended: MatchEnded | None = None
    # The answer to a press on a question no longer asked: the buttons it came from are closed.
    stale: bool = False
    # A tournament's new round, whose matches wait to be opened (see :class:`RoundPaired`).
    paired: RoundPaired | None = None
    # The answer to a press that turns the pressed message's page (a review): it replaces that
    # message rather than following it.
    edits: bool = False


class Refusal(Exception):
    """A command that changes nothing: the text says what is wrong and what to do."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class LimitError(ValueError):
    """A rate that can't be used."""


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``count`` events in any ``seconds`` long window."""

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or not self.seconds > 0:
            raise LimitError(
                f"a rate needs at least 1 event in more than 0 s, not {self.count} in "
                f"{self.seconds!r} s"
            )

    def __str__(self) -> str:
        return f"{self.count} per {wait_duration(self.seconds)}"
