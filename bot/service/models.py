"""What the adapters hand the service and get back: users, places, tables, replies, and the
values a reply carries (the jobs it shows, the match it ended); players' names made safe to show
(:func:`clean_name`, :func:`markdown_safe`); and what a command raises turned into replies
(:func:`replies_of`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from bot.i18n import errors as trouble
from bot.i18n import play as say
from bot.i18n.core import ENGLISH, Language, Text, worded
from bot.i18n.words import sentence
from bot.rules import MoveError
from bot.rules.errors import Refused
from bot.rules.match import Match, MatchError
from bot.service.keys import (
    ChallengeKey,
    DailyKey,
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
from bot.store import DatabaseBusy, DatabaseDown, DiskFull, MatchRow, StaleMatchError
from bot.store.matches import TimerRow

# Player names made safe to show: :func:`clean_name` for any text or image, then
# :func:`markdown_safe` for a name inside a Discord message.
#
# A Discord display name is whatever its owner typed: bidi controls that reverse the text after
# them (U+202E turned a board's "3-4 move to nothing" into "3-4 evom ot nothing"), control and
# format characters that show as boxes, invisible fillers, stacks of combining marks ("Zalgo"),
# Markdown that formats or breaks the message around it, and text that looks like a mention.
MAX_GRAPHEMES = 32  # Discord display names are at most 32 characters
MAX_MARKS = 2  # combining marks kept on one base character
MAX_JOINED = 4  # emoji joined by ZWJ into one picture (a family of four)
FALLBACK_NAME = "player"
ELLIPSIS = "\u2026"

ZWJ = "\u200d"
ZWSP = "\u200b"
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
# Letters and symbols that draw nothing: names made of them look empty.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)  # skin tones
_REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})

# Discord Markdown: emphasis, underline, strike, spoiler, code, quotes, headings, subtext,
# lists, masked links, and "<...>" (mentions, custom emoji, timestamps).
MARKDOWN_CHARACTERS = frozenset("\\*_~`|>#-[]()<:.+=!")
_PING = re.compile(r"@(?=\w)")
NAMES_CACHED = 4096  # names cleaned and escaped kept (every board and status names both players)


@lru_cache(maxsize=NAMES_CACHED)
def clean_name(raw: str) -> str:
    """``raw`` (a display name) made safe to show anywhere, as plain text.

    NFC-normalised; bidi controls, control, format, private-use and unassigned characters
    removed (a zero-width joiner is kept only between two emoji, a variation selector only right
    after its base); blank fillers and every run of whitespace become one space, none at the
    ends; at most :data:`MAX_MARKS` combining marks per base and :data:`MAX_GRAPHEMES`
    user-perceived characters (a longer name is cut to one less and ends with "…"). Never
    empty: :data:`FALLBACK_NAME` when nothing is left.
    ``clean_name(clean_name(x)) == clean_name(x)``.
    """
    text = unicodedata.normalize("NFC", raw)
    clusters = _clusters(_drop_invisible(text))
    if len(clusters) > MAX_GRAPHEMES:  # cut, and shown to be cut
        text = "".join(clusters[: MAX_GRAPHEMES - 1]).strip() + ELLIPSIS
    else:
        text = "".join(clusters).strip()
    text = unicodedata.normalize("NFC", text)
    return text or FALLBACK_NAME


@lru_cache(maxsize=NAMES_CACHED)
def markdown_safe(name: str) -> str:
    """``name`` (from :func:`clean_name`) escaped for the text of a Discord message.

    Every Markdown character gets a backslash, so ``**bold**`` shows as typed, and a zero-width
    space goes after each ``@`` that starts a word, so ``@everyone`` or ``<@123>`` do not look
    like (or work as) mentions. Never put a name inside a code span or block: nothing can be
    escaped there, and a backtick in the name would end it. Only for text Discord parses as
    Markdown (message content, embed descriptions and field values): button labels, select
    options and file names would show the backslashes; use :func:`clean_name` alone there.
    """
    escaped = "".join("\\" + char if char in MARKDOWN_CHARACTERS else char for char in name)
    return _PING.sub("@" + ZWSP, escaped)


def graphemes(text: str) -> list[str]:
    """``text`` split into user-perceived characters (simplified: a base with its combining
    marks, variation selector and skin tone; emoji joined by ZWJ; flag pairs)."""
    clusters: list[str] = []
    joining = False
    for char in text:
        if clusters and (joining or _extends(char, clusters[-1])):
            clusters[-1] += char
        else:
            clusters.append(char)
        joining = char == ZWJ
    return clusters


def _drop_invisible(text: str) -> str:
    kept: list[str] = []
    for index, char in enumerate(text):
        if char == ZWJ:
            after = text[index + 1] if index + 1 < len(text) else ""
            if kept and _is_emoji(_base_before(kept)) and _is_emoji(after):
                kept.append(char)
            continue
        if char in BLANKS or char.isspace() or unicodedata.category(char).startswith("Z"):
            if kept and kept[-1] != " ":
                kept.append(" ")
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in _DROPPED_CATEGORIES:
            continue
        if (_is_mark(char) or _is_selector(char)) and (not kept or kept[-1] == " "):
            continue  # a mark on nothing
        kept.append(char)
    return "".join(kept)


def _clusters(text: str) -> list[str]:
    """Grapheme clusters with their extras trimmed: marks capped, one variation selector and
    skin tone per base, at most :data:`MAX_JOINED` emoji per ZWJ sequence."""
    trimmed: list[str] = []
    for cluster in graphemes(text):
        parts: list[str] = []
        marks = selectors = joined = 0
        for char in cluster:
            if char == ZWJ:
                joined += 1
                if joined >= MAX_JOINED:
                    break
                marks = selectors = 0
                parts.append(char)
            elif _is_selector(char):
                if selectors == 0 and not marks:
                    parts.append(char)
                selectors += 1
            elif _is_mark(char):
                if marks < MAX_MARKS and not selectors:
                    parts.append(char)
                marks += 1
            else:
                parts.append(char)
        trimmed.append("".join(parts))
    return trimmed


def _extends(char: str, cluster: str) -> bool:
    code = ord(char)
    if code in _EMOJI_MODIFIERS:
        return _is_emoji(cluster[0])
    if code in _REGIONAL_INDICATORS:
        pairs = sum(ord(c) in _REGIONAL_INDICATORS for c in cluster)
        return len(cluster) == pairs and pairs == 1
    return char == ZWJ or _is_mark(char) or _is_selector(char)


def _base_before(kept: list[str]) -> str:
    for char in reversed(kept):
        if not (_is_selector(char) or ord(char) in _EMOJI_MODIFIERS):
            return char
    return ""


def _is_mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me") and not _is_selector(char)


def _is_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _is_emoji(char: str) -> bool:
    """A pictograph that can take part in a ZWJ sequence (symbols, not letters)."""
    return bool(char) and unicodedata.category(char) in ("So", "Sk") and ord(char) >= 0x2000


@dataclass(frozen=True, slots=True)
class User:
    """Someone who typed a command. ``id`` is stable (a Discord snowflake, or a console name).
    ``language``: the language the command is answered in (the adapter's choice: the user's
    Discord locale, else the server's): it is how the service is handed it, with the command.
    It takes no part in equality or hashing, so a user is the same key (a lock, a seat, a
    dict's) whatever language they write in."""

    id: str
    name: str
    language: Language = field(default=ENGLISH, compare=False)

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


# The server of every DM and group DM (the bot's own, or friends' where a user installed it).
PRIVATE_SERVER = "dm"


@dataclass(frozen=True, slots=True)
class Place:
    """A table: one channel (or thread) of one server, or a DM or group DM. Each holds at most
    one match."""

    server_id: str
    channel_id: str

    @property
    def private(self) -> bool:
        """A DM or group DM: in no server, so on no leaderboard; its matches are unrated."""
        return self.server_id == PRIVATE_SERVER


def shown_prefix(prefix: str, place: Place) -> str:
    """How a command is shown to be typed at ``place``: as a slash command in a DM or group DM,
    where a user install's bot is often no member and no typed message reaches it."""
    return "/" if place.private else prefix


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
        return markdown_safe(self.plain[0]), markdown_safe(self.plain[1])

    def seat(self, user: User) -> int | None:
        return seat_of(self.row.player_ids, user)

    @property
    def place(self) -> Place:
        """Where the match is played (its thread, if it has one)."""
        return Place(self.row.server_id, self.row.channel_id)


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
    server_id: str = field(default="", compare=False)  # whose language its matches speak


def paired_in(replies: Iterable[Reply]) -> list[RoundPaired]:
    """The rounds ``replies`` show paired, each once, in order."""
    return list(dict.fromkeys(reply.paired for reply in replies if reply.paired is not None))


@dataclass(frozen=True, slots=True)
class TurnQueued:
    """What happened: a bot turn was queued behind others (:mod:`bot.service.gnubg.opponent`);
    its number follows it."""

    number: int
    language: Language = field(compare=False)  # the command's that queued it


@dataclass(frozen=True, slots=True)
class AnalysisQueued:
    """What happened: a match's analysis by GNU Backgammon was queued
    (:mod:`bot.service.gnubg.analysis`); the match's id follows it."""

    match_id: int
    language: Language = field(compare=False)  # the command's that follows it


# A background job a reply shows queued, whose progress its message shows
# (TableService.follow follows it).
Job = TurnQueued | AnalysisQueued


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
    DAILY_PLAY = "daily_play"  # the daily puzzle, a play: its Answer (anyone, privately)
    DAILY_DOUBLE = "daily_double"  # the daily puzzle before the roll: double / no double
    DAILY_TAKE = "daily_take"  # the daily puzzle facing a double: take / pass
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
    Decision.DAILY_PLAY: DailyKey,
    Decision.DAILY_DOUBLE: DailyKey,
    Decision.DAILY_TAKE: DailyKey,
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

    @property
    def shows_an_end(self) -> bool:
        """This reply shows a match's end: it gets a summary and its followers
        (:class:`~bot.service.endings.Endings`)."""
        return self.ended is not None or self.decision is Decision.REMATCH


class Refusal(Exception):
    """A command that changes nothing: the text says what is wrong and what to do. Mostly
    worded already; a :class:`Said` where whoever raises it knows no language (a reading of the
    store), worded by whoever answers (:meth:`worded`)."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.said = text

    @property
    def text(self) -> str:
        """The text, English where it is still to be worded."""
        return str(self.said)

    def worded(self, language: Language) -> str:
        """The text in ``language``."""
        return worded(self.said, language)


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

    def __str__(self) -> str:  # for operators: settings and logs are English
        return f"{self.count} per {wait_duration(self.seconds, language=ENGLISH)}"


# What a command may meet in the store that is nobody's mistake and passes: one line each.
STORE_TROUBLE = (DatabaseBusy, DiskFull, DatabaseDown)


def store_trouble(error: DatabaseBusy | DiskFull | DatabaseDown, language: Language) -> Reply:
    """The reply to a database that can't be used right now (held by another program, on a
    full disk, a server not answering): what happened, and what to do, in ``language``."""
    if isinstance(error, DatabaseDown):
        return Reply(trouble.DATABASE_DOWN(language), private=True)
    said = trouble.DATABASE_BUSY if isinstance(error, DatabaseBusy) else trouble.DISK_FULL
    return Reply(said(language), private=True)


def reason_of(error: Exception, language: Language) -> str:
    """What ``error`` says, in ``language`` where it is a refusal of the rules (whose reason is
    a value for the reader's language), else its text."""
    return worded(error.reason, language) if isinstance(error, Refused) else str(error)


async def replies_of(
    work: Callable[[], Awaitable[list[Reply]]], forget: Callable[[int], None], language: Language
) -> list[Reply]:
    """``work``'s replies; what it raises as replies in ``language`` (``forget``: a match
    another process changed, to read again)."""
    try:
        return await work()
    except Refusal as refusal:
        return [Reply(refusal.worded(language), private=True)]
    except MoveError as error:  # how to find a legal play, never one (it would read as advice)
        reason = sentence(reason_of(error, language), language)
        return [Reply(say.MOVE_REFUSED(language, reason=reason), private=True)]
    except MatchError as error:
        return [Reply(sentence(reason_of(error, language), language), private=True)]
    except StaleMatchError as error:
        if error.match_id is not None:
            forget(error.match_id)
        return [Reply(trouble.RACE_LOST(language), private=True)]
    except STORE_TROUBLE as error:  # nothing was written, nothing kept in memory
        return [store_trouble(error, language)]
