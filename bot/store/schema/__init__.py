"""The database's tables, written once for SQLite and PostgreSQL: every query is built from them,
and a new database (of either kind) is created from them. Times are seconds since the epoch
(floats); flags are 0/1 integers, as SQLite has always stored them.

The numbered SQL files in ``migrations/`` bring an older database up to :data:`SCHEMA_VERSION`,
which is what these tables describe (``tests/store/test_schema.py`` checks that both agree).
Those before :data:`FIRST_SHARED_MIGRATION` are the history of SQLite files written before this
module existed; from it on, each is written for both databases, and a change of these tables
comes with one.
"""

from bot.store.schema.core import (
    ANALYSIS_STATUSES,
    CHALLENGE_STATUSES,
    FIRST_SHARED_MIGRATION,
    SCHEMA_VERSION,
    TOURNAMENT_STATUSES,
    VERSION_NAME,
    analyses,
    analysis_players,
    challenges,
    dice_counts,
    drills,
    engine_records,
    fixed,
    match_actions,
    match_announcements,
    match_timers,
    matches,
    meta,
    metadata,
    players,
    rating_changes,
    servers,
    tournament_entrants,
    tournament_log,
    tournament_matches,
    tournaments,
)
from bot.store.schema.puzzles import (
    daily_posts,
    puzzle_answers,
    puzzle_dailies,
    puzzle_players,
    puzzle_ratings,
    puzzle_storms,
    server_puzzles,
)

__all__ = [
    "ANALYSIS_STATUSES",
    "CHALLENGE_STATUSES",
    "FIRST_SHARED_MIGRATION",
    "SCHEMA_VERSION",
    "TOURNAMENT_STATUSES",
    "VERSION_NAME",
    "analyses",
    "analysis_players",
    "challenges",
    "daily_posts",
    "dice_counts",
    "drills",
    "engine_records",
    "fixed",
    "match_actions",
    "match_announcements",
    "match_timers",
    "matches",
    "meta",
    "metadata",
    "players",
    "puzzle_answers",
    "puzzle_dailies",
    "puzzle_players",
    "puzzle_ratings",
    "puzzle_storms",
    "rating_changes",
    "server_puzzles",
    "servers",
    "tournament_entrants",
    "tournament_log",
    "tournament_matches",
    "tournaments",
]
