"""Settings from the environment and an optional ``.env`` file, in one object."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.gnubg.api import DEFAULT_LEVEL, LEVEL_NAMES

MAX_MATCH_LENGTH = 25  # the longest match the bot plays
MAX_ENGINE_WORKERS = 16  # ENGINE_WORKERS' ceiling, and the default's on larger machines
# How fast the bot answers one player's commands in one channel: this many in these seconds
# (2 a second, bursts of 8); past that it asks them to slow down.
PLAYER_COMMANDS = 8
PLAYER_SECONDS = 4.0


class SettingsError(ValueError):
    """A setting has a value the bot can't use."""


# Discord's own endpoints. DISCORD_API_URL and DISCORD_GATEWAY_URL exist for tests against a
# local fake of Discord (tests/e2e); never change them in production.
DISCORD_API_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity (a container's or ``taskset``'s
    limit), not the machine's count, where the platform tells it; at least 1."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if counted is not None:
        cores: int | None = counted()
    elif hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:
        cores = os.cpu_count()
    return max(1, cores or 1)


def default_engine_workers() -> int:
    """``ENGINE_WORKERS`` unless set: a gnubg worker per usable core (at most
    :data:`MAX_ENGINE_WORKERS`)."""
    return min(usable_cores(), MAX_ENGINE_WORKERS)


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of a .env file; blank lines and ``#`` comments skipped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True)
class Settings:
    """Every setting. Secrets are left out of ``repr`` so a logged ``Settings`` shows none."""

    discord_token: str | None = field(default=None, repr=False)
    # A SQLite file, or a PostgreSQL URL (a str: postgresql://user:password@host:port/db).
    database: Path | str = Path("backgammon.sqlite3")
    command_prefix: str = "!"
    dev_guild_id: int | None = None
    default_match_length: int = 5
    claim_timeout_hours: float = 24.0
    challenge_timeout_minutes: float = 10.0
    log_level: str = "INFO"
    dice_key: str | None = field(default=None, repr=False)  # hex; else the key file
    dice_key_file: Path | None = None  # default: the SQLite file's path + ".key"
    discord_api_url: str = DISCORD_API_URL
    discord_gateway_url: str = DISCORD_GATEWAY_URL
    # Sharding (one process may run a range of the bot's shards; all share the database file).
    shard_count: int | None = None  # total shards over all processes; None: Discord's advice
    shard_ids: tuple[int, ...] | None = None  # this process's shards; None: all of them
    # GNU Backgammon (the opponent, hints and analysis; see bot/gnubg).
    bot_level: str = DEFAULT_LEVEL  # the default level of the bot opponent (gnubg's names)
    bot_games_rated: bool = False  # whether games against the bot count on the leaderboard
    analysis_auto: bool = True  # analyse each finished match in the background
    analysis_plies: int = 2  # the depth of match analysis (0-2)
    # gnubg worker processes for moves and hints (analysis has its own): one per usable core
    engine_workers: int = field(default_factory=default_engine_workers)
    engine_timeout_seconds: float = 10.0  # a worker that takes longer is killed and restarted
    # How long a command waits while another program (a backup, the sqlite3 shell) holds the
    # SQLite file before it is told the database is busy.
    database_busy_seconds: float = 10.0
    # Correspondence play, clocks and threads.
    reminder_hours: float = 12.0  # ping the player to act once per turn after this long
    deadline_poll_seconds: float = 5.0  # how often the bot looks for what fell due
    clock_delay_seconds: float = 15.0  # a clocked match: the free delay before a bank runs
    match_threads: bool = True  # an accepted challenge in a text channel gets its own thread
    # One message per table (Discord's layout components), edited move by move; off: a new
    # message per reply, as clients without layout components show them.
    table_layout: bool = True
    # Members with the role of this name organise tournaments, as Manage Server does.
    tournament_role: str | None = None
    # A player's commands in a channel: at most this many answered in these seconds.
    player_commands: int = PLAYER_COMMANDS
    player_seconds: float = PLAYER_SECONDS

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, dotenv: Path | None = None) -> Settings:
        """The environment wins over ``.env`` (default: ``./.env``)."""
        values = read_dotenv(dotenv if dotenv is not None else Path(".env"))
        values.update(os.environ if environ is None else environ)

        def text(name: str) -> str | None:
            value = values.get(name, "").strip()
            return value or None

        def number(
            name: str,
            default: float,
            *,
            whole: bool = False,
            low: float = 0,
            high: float | None = None,
        ) -> float:
            raw = text(name)
            if raw is None:
                return default
            try:
                value = int(raw) if whole else float(raw)
            except ValueError:
                kind = "a whole number" if whole else "a number"
                raise SettingsError(f"{name} must be {kind}, not {raw!r}") from None
            if value < low:
                raise SettingsError(f"{name} must be at least {low:g}, not {raw!r}")
            if high is not None and value > high:
                raise SettingsError(f"{name} must be at most {high:g}, not {raw!r}")
            return value

        def url(name: str, default: str, schemes: tuple[str, ...]) -> str:
            value = text(name) or default
            if not value.startswith(schemes):
                raise SettingsError(f"{name} must start with {' or '.join(schemes)}, not {value!r}")
            return value

        def flag(name: str, default: bool) -> bool:
            raw = text(name)
            if raw is None:
                return default
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise SettingsError(f"{name} must be true or false, not {raw!r}")

        guild = text("DEV_GUILD_ID")
        level = (text("LOG_LEVEL") or "INFO").upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        shard_count, shard_ids = _shards(text("SHARD_COUNT"), text("SHARD_IDS"))
        bot_level = (text("BOT_LEVEL") or DEFAULT_LEVEL).lower()
        if bot_level not in LEVEL_NAMES:
            raise SettingsError(
                f"BOT_LEVEL must be one of {', '.join(LEVEL_NAMES)}, not {bot_level!r}"
            )
        return cls(
            discord_token=text("DISCORD_TOKEN"),
            database=database_setting(text("BACKGAMMON_DB") or "backgammon.sqlite3"),
            command_prefix=text("COMMAND_PREFIX") or "!",
            dev_guild_id=int(number("DEV_GUILD_ID", 0, whole=True)) if guild else None,
            default_match_length=int(
                number("DEFAULT_MATCH_LENGTH", 5, whole=True, low=1, high=MAX_MATCH_LENGTH)
            ),
            claim_timeout_hours=number("CLAIM_TIMEOUT_HOURS", 24.0, low=0.01),
            challenge_timeout_minutes=number("CHALLENGE_TIMEOUT_MINUTES", 10.0, low=0.1),
            log_level=level,
            dice_key=text("DICE_KEY"),
            dice_key_file=Path(key_file) if (key_file := text("DICE_KEY_FILE")) else None,
            discord_api_url=url("DISCORD_API_URL", DISCORD_API_URL, ("https://", "http://")),
            discord_gateway_url=url(
                "DISCORD_GATEWAY_URL", DISCORD_GATEWAY_URL, ("wss://", "ws://")
            ),
            shard_count=shard_count,
            shard_ids=shard_ids,
            bot_level=bot_level,
            bot_games_rated=flag("BOT_GAMES_RATED", False),
            analysis_auto=flag("ANALYSIS_AUTO", True),
            analysis_plies=int(number("ANALYSIS_PLIES", 2, whole=True, low=0, high=2)),
            engine_workers=int(
                number(
                    "ENGINE_WORKERS",
                    default_engine_workers(),
                    whole=True,
                    low=1,
                    high=MAX_ENGINE_WORKERS,
                )
            ),
            engine_timeout_seconds=number("ENGINE_TIMEOUT_SECONDS", 10.0, low=0.5),
            database_busy_seconds=number("DATABASE_BUSY_SECONDS", 10.0, low=0.1, high=600),
            reminder_hours=number("REMINDER_HOURS", 12.0, low=0.001),
            deadline_poll_seconds=number("DEADLINE_POLL_SECONDS", 5.0, low=0.1, high=60),
            clock_delay_seconds=number("CLOCK_DELAY_SECONDS", 15.0, low=0, high=300),
            match_threads=flag("MATCH_THREADS", True),
            table_layout=flag("TABLE_LAYOUT", True),
            tournament_role=text("TOURNAMENT_ROLE"),
            player_commands=int(
                number("PLAYER_COMMANDS", PLAYER_COMMANDS, whole=True, low=1, high=1000)
            ),
            player_seconds=number("PLAYER_SECONDS", PLAYER_SECONDS, low=0.5, high=3600),
        )


def database_setting(value: str) -> Path | str:
    """``BACKGAMMON_DB`` (or ``--db``): a URL stays text, anything else is a SQLite file."""
    return value.strip() if "://" in value else Path(value)


def _shards(count: str | None, ids: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` (a whole number) and ``SHARD_IDS`` (e.g. ``0-3`` or ``0,1,2`` or
    ``0-3,8``), checked together."""
    total = None
    if count is not None:
        try:
            total = int(count)
        except ValueError:
            raise SettingsError(f"SHARD_COUNT must be a whole number, not {count!r}") from None
        if total < 1:
            raise SettingsError(f"SHARD_COUNT must be at least 1, not {count!r}")
    if ids is None:
        return total, None
    if total is None:
        raise SettingsError(
            f"SHARD_IDS={ids} needs SHARD_COUNT too: the number of shards of all processes "
            "together (each process runs some of them)"
        )
    return total, _shard_ids(ids, total)


def _shard_ids(raw: str, total: int) -> tuple[int, ...]:
    ids: set[int] = set()
    for part in raw.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise SettingsError(
                f"SHARD_IDS must be shard numbers like 0-3 or 0,1,2, not {raw!r}"
            ) from None
        if first < 0 or last < first:
            raise SettingsError(f"SHARD_IDS has the empty or negative range {part.strip()!r}")
        if last >= total:
            raise SettingsError(
                f"SHARD_IDS={raw} goes up to {last}, but with SHARD_COUNT={total} the shards "
                f"are 0 to {total - 1}"
            )
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))
