"""Faults of real disks and databases, met by the real console process: each ends in one clear
reply, no traceback, and nothing already stored is lost."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.service.locks import DATABASE_BUSY


class ConsoleProcess:
    """``python -m bot console --json`` on a database, fed one line at a time."""

    def __init__(self, database: Path, *extra: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("BACKGAMMON_", "DICE_"))}
        env |= {"ANALYSIS_AUTO": "false", "ENGINE_WORKERS": "1"}
        command = [sys.executable, "-m", "bot", "console", "--json", "--seed", "7"]
        self.process = subprocess.Popen(
            [*command, "--db", str(database), *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=database.parent,
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
    assert texts(busy) == [DATABASE_BUSY]
    assert _actions(database) == actions_before  # nothing half-written

    again = console.say(f"{who}: {command}")  # the lock is gone: the same command works
    assert texts(again) and texts(again) != [DATABASE_BUSY]
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
        for _ in range(8)
    ]
    for process in started:
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 1
        assert errors.splitlines() == [
            f"Can't start: can't open the database {database}: unable to open database file"
        ], errors
