"""Faults of real disks and databases, met by the real console process: each ends in one clear
reply, no traceback, and nothing already stored is lost.

- another program holding the database: for a moment, and past the busy timeout mid-match;
- a damaged snapshot (rebuilt from the action log) and a damaged action log (said, kept);
- the dice key file gone;
- a full disk during a move (a file-size limit set on the running process);
- many processes failing to open the same database at once.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.i18n.core import ENGLISH
from bot.i18n.errors import DATABASE_BUSY, DISK_FULL
from bot.rules.position import Position

ROOT = Path(__file__).resolve().parents[1]
# The consoles' busy timeout (DATABASE_BUSY_SECONDS, 10 s by default): the held database's
# tests wait it out for real, so a short one keeps them short.
BUSY_SECONDS = 2.0
HELD_SECONDS = 1.5 * BUSY_SECONDS


class ConsoleProcess:
    """``python -m bot console --json`` on a database, fed one line at a time."""

    def __init__(
        self, database: Path | str, *extra: str, seeded: bool = True, folder: Path | None = None
    ) -> None:
        """``folder``: where it runs (a SQLite database's own by default)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("BACKGAMMON_", "DICE_"))}
        env |= {
            "ANALYSIS_AUTO": "false",
            "ENGINE_WORKERS": "1",
            "DATABASE_BUSY_SECONDS": str(BUSY_SECONDS),
        }
        # The code under test, whatever folder the console runs in (not an installed copy's).
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
        command = [sys.executable, "-m", "bot", "console", "--json"]
        command += ["--seed", "7"] if seeded else []  # else the keyed dice of production
        self.process = subprocess.Popen(
            [*command, "--db", str(database), *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=folder or Path(database).parent,
            # A write past a file-size limit fails (EFBIG) instead of killing the process.
            preexec_fn=lambda: signal.signal(signal.SIGXFSZ, signal.SIG_IGN),
        )

    def say(self, line: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, self.finish()[1]
        record: dict[str, Any] = json.loads(answer)
        return record

    def finish(self) -> tuple[int, str]:
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        return code, self.process.stderr.read()


def texts(record: dict[str, Any]) -> list[str]:
    return [reply["text"] for reply in record["replies"]]


def to_act(record: dict[str, Any]) -> tuple[str, str]:
    game = record["game"]
    return game["turn"], game["phase"]


def next_line(record: dict[str, Any], channel: str = "") -> str:
    """The command of whoever must act in ``record``'s game: a roll, or their first legal play."""
    game = record["game"]
    who, phase = game["turn"], game["phase"]
    where = f"[#{channel}] " if channel else ""
    if phase == "roll":
        return f"{where}{who}: !roll"
    plays = Position.from_position_id(game["position_id"]).legal_plays(*game["dice"])
    return f"{where}{who}: !move {plays[0].notation}" if plays else f"{where}{who}: !board"


def started(console: ConsoleProcess, channel: str = "", turns: int = 0) -> dict[str, Any]:
    where = f"[#{channel}] " if channel else ""
    console.say(f"{where}alice: !challenge @bob 3")
    record = console.say(f"{where}bob: !accept")
    for _ in range(turns):
        record = console.say(next_line(record, channel))
    return record


def clean_exit(console: ConsoleProcess) -> None:
    code, errors = console.finish()
    assert code == 0 and "Traceback" not in errors, errors


@pytest.mark.slow
def test_a_database_held_by_another_program_is_said_and_the_console_goes_on(
    tmp_path: Path,
) -> None:
    database = tmp_path / "held.sqlite3"
    console = ConsoleProcess(database)
    console.say("alice: !challenge @bob 3")
    started = console.say("bob: !accept")
    who, phase = to_act(started)
    command = "!roll" if phase == "roll" else "!board"
    actions_before = _actions(database)

    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # e.g. the sqlite3 shell, or a backup tool
    try:
        busy = console.say(f"{who}: {command}")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert texts(busy) == [DATABASE_BUSY(ENGLISH)]
    assert _actions(database) == actions_before  # nothing half-written

    again = console.say(f"{who}: {command}")  # the lock is gone: the same command works
    assert texts(again) and texts(again) != [DATABASE_BUSY(ENGLISH)]
    code, errors = console.finish()
    assert code == 0 and "Traceback" not in errors, errors


def _actions(database: Path) -> list[tuple[int, int, str]]:
    with sqlite3.connect(database) as reader:
        return list(reader.execute("SELECT match_id, seq, action FROM match_actions ORDER BY 1, 2"))


@pytest.mark.slow
def test_consoles_that_cant_open_their_database_say_one_line_and_exit(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a regular file, not a folder")
    database = tmp_path / "file" / "bot.sqlite3"
    command = [sys.executable, "-m", "bot", "console", "--db", str(database)]
    started = [
        subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
        )
        for _ in range(4)
    ]
    for process in started:
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 1
        assert errors.splitlines() == [
            f"Can't start: can't open the database {database}: unable to open database file"
        ], errors


@pytest.mark.slow
def test_a_database_held_past_the_busy_timeout_mid_match(tmp_path: Path) -> None:
    """The first command waits the busy timeout and is told; the next one waits for the lock to
    go (at one and a half timeouts) and goes through."""
    database = tmp_path / "held.sqlite3"
    console = ConsoleProcess(database)
    record = started(console, turns=3)
    actions_before = _actions(database)
    holder = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    released = threading.Timer(HELD_SECONDS, lambda: holder.execute("ROLLBACK"))
    began = time.monotonic()
    released.start()
    try:
        busy = console.say(next_line(record))
        assert texts(busy) == [DATABASE_BUSY(ENGLISH)]
        assert _actions(database) == actions_before  # nothing half-written
        played = console.say(next_line(record))
        assert texts(played) and texts(played) != [DATABASE_BUSY(ENGLISH)]
        assert time.monotonic() - began >= HELD_SECONDS
    finally:
        released.join()
        holder.close()
    assert len(_actions(database)) == len(actions_before) + 1  # that one command, once
    clean_exit(console)


@pytest.mark.slow
def test_a_damaged_snapshot_is_rebuilt_from_the_log_across_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    console = ConsoleProcess(database)
    record = started(console, turns=5)
    clean_exit(console)
    with sqlite3.connect(database) as writer:
        writer.execute("UPDATE matches SET snapshot = '{broken'")
    console = ConsoleProcess(database)
    board = console.say("carol: !board")
    assert board["game"] == record["game"]  # as it was, from the log
    for _ in range(4):
        record = console.say(next_line(record))
        assert record["game"] is not None, texts(record)
    clean_exit(console)


@pytest.mark.slow
def test_a_damaged_action_log_is_said_in_its_channel_and_kept(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    console = ConsoleProcess(database)
    started(console, "t1", turns=4)
    elsewhere = started(console, "t2", turns=2)
    clean_exit(console)
    with sqlite3.connect(database) as writer:
        writer.execute("UPDATE matches SET snapshot = '{broken' WHERE channel_id = 't1'")
        writer.execute("UPDATE match_actions SET action = 'not json' WHERE match_id = 1")
        stored = list(writer.execute("SELECT * FROM matches WHERE id = 1"))

    console = ConsoleProcess(database)
    for line in ("[#t1] alice: !roll", "[#t1] bob: !board", "[#t1] bob: !board"):
        said = texts(console.say(line))
        assert len(said) == 1 and said[0].startswith(
            "The match here, alice vs bob (#1), can't be read: its record in the database is "
            "damaged"
        ), said
    assert texts(console.say(next_line(elsewhere, "t2")))  # another channel plays on
    exported = console.say("[#t2] carol: !export 1")
    assert texts(exported)[0].startswith("Match #1's record is damaged")
    clean_exit(console)
    with sqlite3.connect(database) as reader:
        assert list(reader.execute("SELECT * FROM matches WHERE id = 1")) == stored  # kept


@pytest.mark.slow
def test_a_missing_key_file_stops_the_start_and_says_so(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    console = ConsoleProcess(database, seeded=False)
    started(console, turns=1)
    clean_exit(console)
    key = Path(f"{database}.key")
    key.unlink()
    console = ConsoleProcess(database, seeded=False)
    code, errors = console.finish()
    assert code == 1 and "Traceback" not in errors
    assert f"the dice key file {key} is missing" in errors, errors
    assert not key.exists()  # no new key was made


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux's prlimit")
def test_a_full_disk_during_a_move_is_said_and_loses_nothing(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    console = ConsoleProcess(database)
    record = started(console, turns=4)
    actions_before = _actions(database)
    pid = console.process.pid
    # No file may grow at all: a limit at the files' sizes let a write through whenever SQLite
    # had checkpointed and was writing its log from the start again.
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
    for _ in range(3):
        full = console.say(next_line(record))
        assert texts(full) == [DISK_FULL(ENGLISH)]
    assert _actions(database) == actions_before  # nothing half-written, nothing lost
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    played = console.say(next_line(record))
    assert played["game"] != record["game"]
    assert len(_actions(database)) > len(actions_before)
    clean_exit(console)
