"""The tables of matches, players, challenges, analyses, tournaments and drills, and the helpers
every table uses (see :mod:`bot.store.schema`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CheckConstraint,
    Column,
    ColumnElement,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    literal_column,
    text,
)

SCHEMA_VERSION = 24  # the last numbered SQL migration these tables include
FIRST_SHARED_MIGRATION = 12  # from here on, migrations run on both databases

metadata = MetaData()


def fixed(value: str | int) -> ColumnElement[Any]:
    """A constant written into the statement itself, not sent as a parameter: a query whose
    condition names it (``status = 'playing'``) can then be served by the partial index with
    that condition (SQLite can't match a parameter against an index's condition)."""
    if isinstance(value, int):
        return literal_column(str(value), Integer)
    assert "'" not in value
    return literal_column(f"'{value}'", Text)


def flag_column(name: str, default: int) -> Column[int]:
    return Column(
        name,
        Integer,
        CheckConstraint(f"{name} IN (0, 1)"),
        nullable=False,
        server_default=text(str(default)),
    )


def partial_where(where: str) -> dict[str, Any]:
    """A partial index's condition, for both databases."""
    return {"sqlite_where": text(where), "postgresql_where": text(where)}


servers = Table(
    "servers",
    metadata,
    Column("id", Text, primary_key=True),
    Column("created_at", Float, nullable=False),
    # Schema 20: the server's time zone (an IANA name; None: UTC), for its daily puzzle's hour.
    Column("time_zone", Text),
    Column("language", Text),  # schema 22: its typed commands' language (NULL: English)
)

players = Table(
    "players",
    metadata,
    Column("server_id", Text, ForeignKey("servers.id"), nullable=False),
    Column("user_id", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("rating", Float, nullable=False, server_default=text("1500")),
    Column("experience", Integer, nullable=False, server_default=text("0")),
    Column("wins", Integer, nullable=False, server_default=text("0")),  # rated matches
    Column("losses", Integer, nullable=False, server_default=text("0")),
    # Counters added to in the transaction that ends a match or stores an analysis (schema 14):
    # ``!stats`` reads one row, however long the server's history.
    Column("finished", Integer, nullable=False, server_default=text("0")),  # rated or not
    Column("aborted", Integer, nullable=False, server_default=text("0")),
    Column("analysed_matches", Integer, nullable=False, server_default=text("0")),
    Column("analysed_decisions", Integer, nullable=False, server_default=text("0")),
    # The sum over their analysed matches of PR x decisions: their PR is this / decisions.
    Column("analysed_pr_sum", Float, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("server_id", "user_id"),
)
# The leaderboard in its order (the players who finished a rated match), and a player's rank
# counted in it: reads of this index alone (``losses`` is there for the condition).
Index(
    "players_ranked",
    players.c.server_id,
    players.c.rating.desc(),
    players.c.wins.desc(),
    players.c.name,
    players.c.losses,
    **partial_where("wins + losses > 0"),
)

CHALLENGE_STATUSES = ("open", "accepted", "declined", "cancelled", "expired")
challenges = Table(
    "challenges",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("server_id", Text, nullable=False),
    Column("channel_id", Text, nullable=False),
    Column("challenger_id", Text, nullable=False),
    Column("challenged_id", Text, nullable=False),
    Column("match_length", Integer, CheckConstraint("match_length >= 0"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column(
        "status",
        Text,
        CheckConstraint("status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')"),
        nullable=False,
    ),
    Column("options", Text, nullable=False, server_default=text("'{}'")),
    flag_column("hints", 0),
    Column("clock_seconds", Float),
    ForeignKeyConstraint(["server_id", "challenger_id"], ["players.server_id", "players.user_id"]),
    ForeignKeyConstraint(["server_id", "challenged_id"], ["players.server_id", "players.user_id"]),
)
Index(
    "challenges_one_open_per_channel",
    challenges.c.server_id,
    challenges.c.channel_id,
    unique=True,
    **partial_where("status = 'open'"),
)
Index(
    "challenges_open_by_expiry",
    challenges.c.expires_at,
    **partial_where("status = 'open'"),
)
Index(
    "challenges_by_challenger",
    challenges.c.server_id,
    challenges.c.challenger_id,
    challenges.c.created_at,
)

matches = Table(
    "matches",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("server_id", Text, nullable=False),
    Column("channel_id", Text, nullable=False),
    Column("player0_id", Text, nullable=False),
    Column("player1_id", Text, nullable=False),
    Column("match_length", Integer, CheckConstraint("match_length >= 0"), nullable=False),
    Column("state", Text, nullable=False),  # JSON: options and dice (bot/rules/state.py)
    Column("version", Integer, nullable=False, server_default=text("1")),
    Column(
        "status",
        Text,
        CheckConstraint("status IN ('playing', 'finished', 'aborted')"),
        nullable=False,
    ),
    Column("winner", Integer, CheckConstraint("winner IN (0, 1)")),
    Column("ending", Text),
    Column("abort_offered_by", Integer, CheckConstraint("abort_offered_by IN (0, 1)")),
    Column("created_at", Float, nullable=False),
    Column("last_action_at", Float, nullable=False),
    Column("snapshot", Text),  # JSON of the current state, rewritten at each save
    Column("engine_level", Text),  # gnubg's level when the engine holds a seat
    flag_column("tutor", 0),
    flag_column("hints", 0),
    flag_column("rated", 1),
    Column("parent_channel_id", Text),  # played in a thread of this channel
    ForeignKeyConstraint(["server_id", "player0_id"], ["players.server_id", "players.user_id"]),
    ForeignKeyConstraint(["server_id", "player1_id"], ["players.server_id", "players.user_id"]),
)
Index(
    "matches_one_playing_per_channel",
    matches.c.server_id,
    matches.c.channel_id,
    unique=True,
    **partial_where("status = 'playing'"),
)
Index("matches_by_channel", matches.c.server_id, matches.c.channel_id, matches.c.id)
# Every match being played (the matches to re-post, the engine's owed turns at start), in id
# order, without a walk through the finished ones.
Index("matches_playing", matches.c.status, **partial_where("status = 'playing'"))
Index(
    "matches_by_parent",
    matches.c.server_id,
    matches.c.parent_channel_id,
    **partial_where("parent_channel_id IS NOT NULL AND status = 'playing'"),
)
Index(
    "matches_by_parent_newest",
    matches.c.server_id,
    matches.c.parent_channel_id,
    matches.c.id,
    **partial_where("parent_channel_id IS NOT NULL"),
)
Index("matches_playing_by_player0", matches.c.player0_id, **partial_where("status = 'playing'"))
# A player's matches of a server by seat, newest last (schema 16: their last analysed ones).
Index("matches_by_player0", matches.c.server_id, matches.c.player0_id, matches.c.id)
Index("matches_by_player1", matches.c.server_id, matches.c.player1_id, matches.c.id)
Index("matches_playing_by_player1", matches.c.player1_id, **partial_where("status = 'playing'"))

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("server_id", Text, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("experience_before", Integer, nullable=False),
    PrimaryKeyConstraint("match_id", "user_id"),
    ForeignKeyConstraint(["server_id", "user_id"], ["players.server_id", "players.user_id"]),
)

match_announcements = Table(
    "match_announcements",
    metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True, autoincrement=False),
    Column("version", Integer, nullable=False),
    Column("shown_at", Float, nullable=False, server_default=text("0")),
    Column("message_id", Text),  # the table's one message (schema 23), edited at each move
)

VERSION_NAME = "schema_version"  # PostgreSQL's schema version, a row of meta (SQLite: user_version)
meta = Table(
    "meta",
    metadata,
    Column("name", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

match_actions = Table(
    "match_actions",
    metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("seq", Integer, CheckConstraint("seq >= 0"), nullable=False),
    Column("action", Text, nullable=False),  # JSON: {"action": "move", "player": 0, ...}
    PrimaryKeyConstraint("match_id", "seq"),
    sqlite_with_rowid=False,
)

ANALYSIS_STATUSES = ("queued", "running", "done", "failed")
analyses = Table(
    "analyses",
    metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True, autoincrement=False),
    Column("plies", Integer, CheckConstraint("plies >= 0"), nullable=False),
    Column(
        "status",
        Text,
        CheckConstraint("status IN ('queued', 'running', 'done', 'failed')"),
        nullable=False,
    ),
    Column("result", Text),  # JSON of a bot.gnubg.api.MatchAnalysis, when done
    Column("error", Text),  # a line for the players, when failed
    Column("requested_at", Float, nullable=False),
    Column("started_at", Float),
    Column("finished_at", Float),
    Column("asked_by", Text),  # the user who asked (NULL: started when the match ended)
    Column("worker", Text),  # the process running it, when running
    Column("lease_until", Float),  # running: when another process may take it over
    Column("games_done", Integer, nullable=False, server_default=text("0")),
    Column("games_total", Integer, nullable=False, server_default=text("0")),
)
Index(
    "analyses_unfinished",
    analyses.c.status,
    **partial_where("status IN ('queued', 'running')"),
)

analysis_players = Table(
    "analysis_players",
    metadata,
    Column("match_id", Integer, ForeignKey("analyses.match_id"), nullable=False),
    Column("seat", Integer, CheckConstraint("seat IN (0, 1)"), nullable=False),
    Column("server_id", Text, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("pr", Float, nullable=False),
    Column("error_rate", Float, nullable=False),  # gnubg's mEMG per decision
    Column("decisions", Integer, CheckConstraint("decisions >= 0"), nullable=False),
    PrimaryKeyConstraint("match_id", "seat"),
)

match_timers = Table(
    "match_timers",
    metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True, autoincrement=False),
    Column("turn_started_at", Float, nullable=False),
    flag_column("reminded", 0),
    Column("bank0", Float),
    Column("bank1", Float),
    Column("delay", Float),
    Column("flag_at", Float),
)
Index("match_timers_to_remind", match_timers.c.turn_started_at, **partial_where("reminded = 0"))
Index("match_timers_to_flag", match_timers.c.flag_at, **partial_where("flag_at IS NOT NULL"))

dice_counts = Table(
    "dice_counts",
    metadata,
    Column("server_id", Text, primary_key=True),
    *(
        Column(name, Integer, nullable=False, server_default=text("0"))
        for name in ("face1", "face2", "face3", "face4", "face5", "face6", "rolls", "doubles")
    ),
)

engine_records = Table(  # schema 14: finished matches against GNU Backgammon, by level
    "engine_records",
    metadata,
    Column("server_id", Text, nullable=False),
    Column("user_id", Text, nullable=False),  # the engine's own user too (its record by level)
    Column("level", Text, nullable=False),
    Column("wins", Integer, nullable=False, server_default=text("0")),
    Column("losses", Integer, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("server_id", "user_id", "level"),
    ForeignKeyConstraint(["server_id", "user_id"], ["players.server_id", "players.user_id"]),
)

# Schema 15: tournaments run by the bot (bot/service/tournaments). A tournament's entrants are
# numbered as they join (``number``: the pairing rules' player number); each pairing of a round
# is a row of ``tournament_matches``, opened as a match (``match_id``, ``channel_id``) and then
# decided (``decided_at``). ``tournament_log`` keeps what the organiser did, with reasons.
TOURNAMENT_STATUSES = ("signup", "running", "paused", "finished", "cancelled")
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("server_id", Text, nullable=False),
    Column("channel_id", Text, nullable=False),  # where it was created: its news go there
    Column("name", Text, nullable=False),
    Column("format", Text, nullable=False),  # knockout, swiss, roundrobin
    Column("swiss_rounds", Integer),
    Column("match_length", Integer, nullable=False),
    Column("clock_seconds", Float),  # a clock per point, or None
    Column("deadline_days", Float),  # correspondence: days per match, or None
    flag_column("rated", 1),
    Column("size_limit", Integer, nullable=False),
    Column("starts_at", Float),  # None: when the organiser starts it
    Column(
        "status",
        Text,
        CheckConstraint(
            "status IN ('signup', 'running', 'paused', 'finished', 'cancelled')",
            name="tournaments_status",
        ),
        nullable=False,
    ),
    Column("round", Integer, nullable=False, server_default=text("0")),
    Column("organiser_id", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("champion_id", Text),
    Column("signup_message", Text),  # the sign-up message's key, for its buttons
    Column("paused_at", Float),  # schema 17: when the pause began (None: not paused)
)
# The tournaments not over, by server (``!tournament`` and sign-up), and by start time.
Index(
    "tournaments_active",
    tournaments.c.server_id,
    tournaments.c.id,
    **partial_where("status IN ('signup', 'running', 'paused')"),
)
Index("tournaments_to_start", tournaments.c.starts_at, **partial_where("status = 'signup'"))
Index("tournaments_by_server", tournaments.c.server_id, tournaments.c.id)  # a server's newest
# Schema 17: the running ones, for the poll that moves a tournament on whatever state it is in.
Index(
    "tournaments_running",
    tournaments.c.status,
    tournaments.c.id,
    **partial_where("status = 'running'"),
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("seed", Integer),  # set at the start
    Column("joined_at", Float, nullable=False),
    flag_column("withdrawn", 0),
    PrimaryKeyConstraint("tournament_id", "number"),
)
Index(
    "tournament_entrants_by_user",
    tournament_entrants.c.tournament_id,
    tournament_entrants.c.user_id,
    unique=True,
)
Index("tournament_entrants_of_user", tournament_entrants.c.user_id)  # a player's record

tournament_matches = Table(
    "tournament_matches",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("first", Integer, nullable=False),  # entrant numbers
    Column("second", Integer),  # None: a bye
    Column("match_id", Integer),
    Column("channel_id", Text),
    Column("deadline", Float),
    Column("winner", Integer),  # an entrant number; None with decided_at: nobody won
    Column("first_points", Integer, nullable=False, server_default=text("0")),
    Column("second_points", Integer, nullable=False, server_default=text("0")),
    Column("reason", Text),
    Column("decided_at", Float),
    # Schema 17: what was said of it once, not at every poll: ``undecided`` (its match ended
    # without a winner, the organiser decides), ``waiting`` (for its channel to be free).
    Column("notice", Text),
    PrimaryKeyConstraint("tournament_id", "round", "table_no"),
)
Index(
    "tournament_matches_by_match",
    tournament_matches.c.match_id,
    **partial_where("match_id IS NOT NULL"),
)
# The pairings still to be decided (opened, past their deadline, or waiting for a place): keyed
# by the column of its condition, so the deadline poll searches it instead of walking the rest.
Index(
    "tournament_matches_undecided",
    tournament_matches.c.decided_at,
    tournament_matches.c.tournament_id,
    **partial_where("decided_at IS NULL"),
)

tournament_log = Table(
    "tournament_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("at", Float, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("text", Text, nullable=False),
)
Index("tournament_log_by_tournament", tournament_log.c.tournament_id, tournament_log.c.id)

# Schema 16: drills of each player's own mistakes (bot/store/drills.py): one row per decision of
# an analysed match that gnubg marked bad or very bad, with its spaced-repetition state (SM-2:
# bot/service/review/schedule.py). ``shown_at`` set: the drill the player was shown last and
# that awaits their answer (one per player at most).
drills = Table(
    "drills",
    metadata,
    Column("server_id", Text, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("match_id", Integer, nullable=False),
    Column("decision", Integer, nullable=False),  # its index in the analysis's decisions
    Column("game", Integer, nullable=False),
    Column("move", Integer, nullable=False),
    Column("kind", Text, nullable=False),  # 'checker', 'cube' or 'take'
    Column("gnubg_id", Text, nullable=False),  # the position before the decision
    Column("dice", Integer),  # checker: 10 x die1 + die2
    Column("played", Text),  # what the player did in the match
    Column("best", Text),  # gnubg's best play, or its proper action for the player
    Column("proper", Text),  # cube and take: gnubg's verdict, from the doubler's side
    Column("loss", Float, nullable=False),  # the equity the player lost in the match
    Column("skill", Text, nullable=False),  # gnubg's mark: 'bad' or 'very bad'
    Column("plies", Integer, nullable=False),  # the analysis's
    Column("streak", Integer, nullable=False, server_default=text("0")),  # right in a row
    Column("interval_days", Float, nullable=False, server_default=text("0")),
    Column("ease", Float, nullable=False, server_default=text("2.5")),
    Column("due_at", Float, nullable=False),
    Column("reps", Integer, nullable=False, server_default=text("0")),  # answers given
    Column("lapses", Integer, nullable=False, server_default=text("0")),  # wrong answers
    Column("last_right", Integer),  # the last answer: 1 right, 0 wrong, None: none yet
    Column("last_answer_at", Float),
    Column("shown_at", Float),  # awaiting an answer since
    Column("created_at", Float, nullable=False),
    # Schema 21: a puzzle the player missed (its key; match_id 0, decision from the key), graded
    # from the puzzle's stored ranking (bot/service/review/drills.py)
    Column("puzzle", Text),
    PrimaryKeyConstraint("server_id", "user_id", "match_id", "decision"),
)
Index("drills_due", drills.c.server_id, drills.c.user_id, drills.c.due_at)
