"""The real console, ``python -m bot console``, run on a script: this checkout's code (whichever
copy of the package is installed), no ``.env`` read, no setting of the environment's that would
change what it says, analyses at 0-ply by hand."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SETTINGS = ("BACKGAMMON_", "ANALYSIS_", "ENGINE_", "BOT_", "DICE_KEY")


def run_console(tmp_path: Path, *arguments: str, script: str) -> str:
    """What the console printed, given ``script`` on standard input and ``arguments``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(_SETTINGS)}
    env |= {"ANALYSIS_AUTO": "false", "ANALYSIS_PLIES": "0", "ENGINE_WORKERS": "1"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", *arguments],
        input=script,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,  # no .env of the checkout is read
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
