"""The console's JSON for a whole scripted 5-point match (doubles, refusals, a resignation, the
export, GNU Backgammon's analysis and the records) is byte for byte what it was: a restructuring
of the code changes nothing a user sees.

When a change of behaviour is meant, write the expected output anew with
``REGENERATE_GOLDEN=1 pytest tests/golden`` and read its diff before committing it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.golden.make_script import SEED, START

HERE = Path(__file__).parent
SCRIPT = HERE / "match.txt"
EXPECTED = HERE / "match.jsonl"
# How long GNU Backgammon took is the one figure that is the machine's, not the match's.
TOOK = re.compile(r"(GNU Backgammon at \d-ply)(, \d+\.\d s)?\.")


def steady(output: str) -> str:
    return TOOK.sub(r"\1, N s.", output)


def console_output(tmp_path: Path, database: Path | str) -> str:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("BACKGAMMON_", "ANALYSIS_", "ENGINE_", "BOT_", "DICE_KEY"))
    }
    env |= {"ANALYSIS_AUTO": "false", "ANALYSIS_PLIES": "0", "ENGINE_WORKERS": "1"}
    command = [sys.executable, "-m", "bot", "console", "--json", "--seed", str(SEED)]
    command += ["--clock", START, "--db", str(database)]
    done = subprocess.run(
        command,
        input=SCRIPT.read_text(),
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,  # no .env of the checkout is read
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return steady(done.stdout)


@pytest.mark.slow
def test_the_console_answers_a_whole_match_as_it_did(tmp_path: Path, database: Path | str) -> None:
    """On a SQLite file and on PostgreSQL alike: the database changes nothing a user sees."""
    output = console_output(tmp_path, database)
    if os.environ.get("REGENERATE_GOLDEN") and isinstance(database, Path):
        EXPECTED.write_text(output)
    expected = EXPECTED.read_text()
    assert output.splitlines() == expected.splitlines()
    assert output == expected
