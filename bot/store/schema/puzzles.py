"""The puzzles' tables (schema 19 on): ratings, the server's own puzzles, the answers, the daily
puzzle and storms (see :mod:`bot.store.schema`)."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    text,
)

from bot.store.schema.core import flag_column, metadata, partial_where

# Schema 19: puzzles (bot/store/puzzles.py). Each player's Glicko-2 puzzle rating per server and
# across servers (``server_id`` '': every server's answers); each puzzle's own rating, one across
# servers, by its key (a row once someone answered it); the puzzles a server's analysed matches
# made; and every puzzle shown, with its answer once given (``answered_at`` None: awaited).
puzzle_players = Table(
    "puzzle_players",
    metadata,
    Column("server_id", Text, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("name", Text, nullable=False),  # as last seen answering
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("rated_at", Float, nullable=False),
    Column("answers", Integer, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("server_id", "user_id"),
)
Index("puzzle_players_top", puzzle_players.c.server_id, puzzle_players.c.rating)

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle", Text, primary_key=True),  # the puzzle's key
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("rated_at", Float, nullable=False),
    Column("answers", Integer, nullable=False, server_default=text("0")),
    Column("solved", Integer, nullable=False, server_default=text("0")),
)

server_puzzles = Table(
    "server_puzzles",
    metadata,
    Column("server_id", Text, nullable=False),
    Column("puzzle", Text, nullable=False),  # the puzzle's key
    Column("data", Text, nullable=False),  # the puzzle as JSON (bot/rules/puzzles.py)
    Column("first_rating", Float, nullable=False),
    Column("match_id", Integer, nullable=False),  # the analysed match it comes from
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("server_id", "puzzle"),
)
Index("server_puzzles_by_rating", server_puzzles.c.server_id, server_puzzles.c.first_rating)

puzzle_answers = Table(
    "puzzle_answers",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("server_id", Text, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("puzzle", Text, nullable=False),
    Column("shown_at", Float, nullable=False),
    flag_column("rated", 1),  # 0: a replay of a miss (``!puzzle misses``), which rates nothing
    Column("answered_at", Float),
    Column("answer", Text),  # as graded (gnubg's spelling of a play, or the cube action)
    Column("right", Integer),  # 1 right, 0 wrong
    Column("loss", Float),  # the equity the answer lost against gnubg's best
    # Schema 20: the server's daily puzzle it answers (``daily_posts.id``), else None.
    Column("daily_id", Integer),
)
Index(
    "puzzle_answers_by_player",
    puzzle_answers.c.server_id,
    puzzle_answers.c.user_id,
    puzzle_answers.c.id,
)

# Schema 20: the daily puzzle (bot/store/dailies.py). A server's setting: the channel and the
# local minute of the day it is posted at, and when the next post is due (the poll reads the
# settings due by ``next_at``'s index); each day's post, claimed by its unique (server, day)
# before it is posted, with how many answered it and how many found gnubg's best. A member's
# answer is a row of ``puzzle_answers`` with its ``daily_id``, one per member and post.
puzzle_dailies = Table(
    "puzzle_dailies",
    metadata,
    Column("server_id", Text, primary_key=True),
    Column("channel_id", Text, nullable=False),
    Column("minute", Integer, nullable=False),  # minutes after the server's local midnight
    Column("next_at", Float, nullable=False),  # when the next post is due (UTC timestamp)
    Column("set_by", Text, nullable=False),
    Column("set_at", Float, nullable=False),
)
Index("puzzle_dailies_due", puzzle_dailies.c.next_at)

daily_posts = Table(
    "daily_posts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("server_id", Text, nullable=False),
    Column("day", Text, nullable=False),  # the server's local date, 2026-11-27
    Column("channel_id", Text, nullable=False),
    Column("puzzle", Text, nullable=False),  # the puzzle's key
    Column("posted_at", Float, nullable=False),
    Column("answers", Integer, nullable=False, server_default=text("0")),
    Column("found", Integer, nullable=False, server_default=text("0")),
    # Schema 24: when its message was sent (None: claimed, not known to be sent), and until when
    # the claim holds: an unsent post past its lease is claimed again and sent (at least once).
    Column("sent_at", Float),
    Column("lease_until", Float),
    UniqueConstraint("server_id", "day", name="daily_posts_day"),
    UniqueConstraint("server_id", "puzzle", name="daily_posts_puzzle"),
)
Index("daily_posts_unsent", daily_posts.c.lease_until, **partial_where("sent_at IS NULL"))
Index(
    "puzzle_answers_daily",
    puzzle_answers.c.daily_id,
    puzzle_answers.c.user_id,
    unique=True,
    **partial_where("daily_id IS NOT NULL"),
)

# Schema 21: puzzle storms (``!puzzle storm``, bot/store/storms.py): a player's timed run of
# puzzles, ``ends_at`` brought forward by each wrong answer; ``finished_at`` None while it runs
# (one running per player, by the partial unique index), ``puzzle`` the one awaiting the answer.
puzzle_storms = Table(
    "puzzle_storms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("server_id", Text, nullable=False),
    Column("channel_id", Text, nullable=False),  # where it was started: its end is told there
    Column("user_id", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("ends_at", Float, nullable=False),
    Column("puzzle", Text),  # awaiting the answer
    Column("seen", Text, nullable=False, server_default=text("''")),  # its puzzles' keys, spaced
    Column("score", Integer, nullable=False, server_default=text("0")),  # right answers
    Column("wrong", Integer, nullable=False, server_default=text("0")),
    Column("finished_at", Float),
)
Index(
    "puzzle_storms_running",
    puzzle_storms.c.user_id,
    unique=True,
    **partial_where("finished_at IS NULL"),
)
Index("puzzle_storms_ending", puzzle_storms.c.ends_at, **partial_where("finished_at IS NULL"))
Index(
    "puzzle_storms_best",
    puzzle_storms.c.server_id,
    puzzle_storms.c.user_id,
    puzzle_storms.c.score,
)
