"""The console's JSON for a whole scripted 5-point match (doubles, refusals, a resignation, the
export, GNU Backgammon's analysis and the records) is byte for byte what it was: a restructuring
of the code changes nothing a user sees.

When a change of behaviour is meant, write the expected output anew with
``REGENERATE_GOLDEN=1 pytest tests/golden`` and read its diff before committing it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.consoles import run_console
from tests.golden.make_script import SEED, START

HERE = Path(__file__).parent
SCRIPT = HERE / "match.txt"
EXPECTED = HERE / "match.jsonl"
# How long GNU Backgammon took is the one figure that is the machine's, not the match's.
TOOK = re.compile(r"(GNU Backgammon at \d-ply)(, \d+\.\d s)?\.")


def steady(output: str) -> str:
    return TOOK.sub(r"\1, N s.", output)


def console_output(tmp_path: Path, database: Path | str) -> str:
    arguments = ("--json", "--seed", str(SEED), "--clock", START, "--db", str(database))
    return steady(run_console(tmp_path, *arguments, script=SCRIPT.read_text()))


@pytest.mark.slow
def test_the_console_answers_a_whole_match_as_it_did(tmp_path: Path, database: Path | str) -> None:
    """On a SQLite file and on PostgreSQL alike: the database changes nothing a user sees."""
    output = console_output(tmp_path, database)
    if os.environ.get("REGENERATE_GOLDEN") and isinstance(database, Path):
        EXPECTED.write_text(output)
    expected = EXPECTED.read_text()
    assert output.splitlines() == expected.splitlines()
    assert output == expected
