"""What the store hands back: rows as frozen values, and its errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn


class StoreError(RuntimeError):
    """The database can't be opened or used: the message says which file and why."""


class OutdatedSchema(StoreError):
    """A database opened as it is (no upgrade) is at an older schema version than this bot's."""

    def __init__(self, shown: str, found: int, current: int) -> None:
        super().__init__(
            f"the database {shown} is at schema version {found}, older than this bot's {current}"
        )
        self.found = found


class DatabaseBusy(StoreError):
    """Another program held the database for longer than the busy timeout; nothing was
    written. The same command works once it lets go."""


class DiskFull(StoreError):
    """The disk (or the file-size limit) is full, or a write to it failed; nothing of the
    transaction was written."""


class DatabaseDown(StoreError):
    """The database server does not answer (stopped, restarting, out of reach): the statement
    or transaction it broke off did not happen (a commit left unanswered may have). Each use
    tries the server again, so commands work again once it answers."""


def raise_translated(error: Exception) -> NoReturn:
    """Raise the database's ``error`` as the store's when it is one a person can act on (a database
    held by another program, a full disk); else as it is."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        raise DatabaseBusy("the database is busy: another program is holding it") from error
    if "full" in text:
        raise DiskFull("the disk is full: nothing could be saved") from error
    if "disk i/o error" in text:  # e.g. a write past the file-size limit (EFBIG)
        raise DiskFull("a write to the disk failed: nothing could be saved") from error
    raise error


class StaleMatchError(RuntimeError):
    """Another writer changed the match (or challenge) since it was read; nothing was written.

    ``match_id`` names the match, when it was one (its cached copy is out of date)."""

    def __init__(self, text: str, match_id: int | None = None) -> None:
        super().__init__(text)
        self.match_id = match_id


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player of a server: their rating and record. ``wins`` and ``losses`` count rated
    matches; ``finished`` and ``aborted`` every match (schema 14); ``analysed_*`` their
    analysed matches (:class:`~bot.store.analyses.PrSummary`)."""

    server_id: str
    user_id: str
    name: str
    rating: float
    experience: int
    wins: int
    losses: int
    finished: int
    aborted: int
    analysed_matches: int
    analysed_decisions: int
    analysed_pr_sum: float


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    server_id: str
    channel_id: str
    challenger_id: str
    challenged_id: str
    match_length: int
    created_at: float
    expires_at: float
    status: str
    options: str = "{}"
    hints: int = 0  # schema 6: ``!hint`` allowed in the match it starts
    clock_seconds: float | None = None  # schema 8: bank per point of a clocked match


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match. ``state``: JSON of what never changes (options and dice); ``snapshot``: JSON
    of its current state, None until first written (rows from before schema 5); its actions
    are rows of ``match_actions`` (:meth:`~bot.store.matches.Matches.actions`)."""

    id: int
    server_id: str
    channel_id: str
    player0_id: str
    player1_id: str
    match_length: int
    state: str
    version: int
    status: str
    winner: int | None
    ending: str | None
    abort_offered_by: int | None
    created_at: float
    last_action_at: float
    snapshot: str | None = None
    # schema 6 (see migrations/006_opponent.sql)
    engine_level: str | None = None
    tutor: int = 0
    hints: int = 0
    rated: int = 1
    # schema 9 (see migrations/009_match_threads.sql)
    parent_channel_id: str | None = None

    @property
    def player_ids(self) -> tuple[str, str]:
        return self.player0_id, self.player1_id


def describe_error(error: BaseException) -> str:
    """The database's own words for ``error``, without SQLAlchemy's wrapping."""
    original = getattr(error, "orig", None)
    return str(original if original is not None else error).strip().splitlines()[0]
