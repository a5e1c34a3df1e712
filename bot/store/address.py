"""Where the database is: a SQLite file (a path, the default) or a PostgreSQL server (a
``postgresql://user:password@host:port/database`` URL), as ``BACKGAMMON_DB`` and the console's
``--db`` say it. How it is shown never includes the password."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import URL, make_url
from sqlalchemy.exc import ArgumentError

from bot.store.rows import StoreError

POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+asyncpg")


@dataclass(frozen=True, slots=True)
class DatabaseAddress:
    """A database to open: ``path`` for SQLite, else ``url`` (PostgreSQL)."""

    path: Path | None
    url: URL | None

    @classmethod
    def parse(cls, where: str | Path) -> DatabaseAddress:
        """``where`` as a file path or a PostgreSQL URL; :class:`StoreError` naming the problem
        (never the password) when it is a URL of anything else or can't be read."""
        if isinstance(where, Path):
            return cls(where, None)
        text = where.strip()
        scheme, separator, _ = text.partition("://")
        if not separator:
            return cls(Path(text), None)
        if scheme.lower() not in POSTGRES_SCHEMES:
            raise StoreError(
                f"the database {scheme}://… is not supported: give a SQLite file path or a "
                "postgresql://user:password@host:port/database URL"
            )
        try:
            url = make_url(text)
        except (ArgumentError, ValueError) as error:
            raise StoreError(f"the database URL can't be read ({_without_secret(error)})") from None
        if not url.database:
            raise StoreError(
                f"the database URL {_shown(url)} names no database: add /<name> at its end"
            )
        return cls(None, url.set(drivername="postgresql+asyncpg"))

    @property
    def is_sqlite(self) -> bool:
        return self.path is not None

    @property
    def shown(self) -> str:
        """How logs and messages name it (a URL without its password)."""
        if self.path is not None:
            return str(self.path)
        assert self.url is not None
        return _shown(self.url)

    def key_file_default(self) -> Path:
        """Where the dice key lives when no setting says: beside a SQLite file; for a server,
        ``backgammon.key`` in the working directory (every host must hold the same key)."""
        if self.path is not None:
            return self.path.with_name(self.path.name + ".key")
        return Path("backgammon.key")


def _shown(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=True)


def _without_secret(error: Exception) -> str:
    """An error about a URL without the URL itself (it may hold a password)."""
    return type(error).__name__


def shown(where: str | Path) -> str:
    """How a ``BACKGAMMON_DB`` value is named in a log line: a file by its full path, a server
    by its URL without the password."""
    if isinstance(where, Path):
        return str(where.resolve())
    try:
        return DatabaseAddress.parse(where).shown
    except StoreError:
        return "an unreadable database setting"
