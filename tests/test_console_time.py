"""The console's clock: ``~ 25h`` moves it and lets what fell due happen; ``--clock`` starts it."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.console import main, read_shift, read_start, run_console

START = "2026-11-22T10:00:00"


def run(tmp_path: Path, lines: list[str], *, clock: str | None = START) -> list[dict[str, Any]]:
    args = argparse.Namespace(
        db=str(tmp_path / "console.sqlite3"),
        seed=3,
        json=True,
        images=None,
        clock=read_start(clock) if clock else None,
    )
    out = io.StringIO()
    assert asyncio.run(run_console(args, lines, out)) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_shifts_and_start_times_are_read() -> None:
    assert read_shift("~ 25h") == 25 * 3600
    assert read_shift("~90s") == 90 and read_shift("~ 2d") == 2 * 86400
    assert read_shift("~ 1.5 m") == 90
    assert read_shift("~ soon") is None
    assert read_start("2026-11-22T10:00:00") == 1795341600.0
    assert read_start("2026-11-22T11:00:00+01:00") == 1795341600.0
    with pytest.raises(argparse.ArgumentTypeError, match="not an ISO 8601 time"):
        read_start("tomorrow")


LINES = [
    "alice: !challenge @bob 3",
    "bob: !accept",
    "~ 13h",
    "~ 1h",
    "~ 11h",
    "#live carol: !challenge @dave 1 clock 30s",
    "#live dave: !accept",
    "~ 2m",
    "#other erin: !challenge @frank",
    "~ 11m",
    "~ soon",
]


def test_moving_time_reminds_flags_expires_and_allows_claims(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANALYSIS_AUTO", "false")
    monkeypatch.setenv("BOT_LEVEL", "advanced")
    records = run(tmp_path, LINES)
    # One JSON object per input line, always: what fell due comes in the line's own object.
    inputs = [record["input"] for record in records]
    assert len(records) == len(LINES), inputs
    texts = [[reply["text"] for reply in record["replies"]] for record in records]
    first = inputs.index("~ 13h")
    assert texts[first][0] == "(time) It is now 2026-11-22T23:00:00+00:00."
    assert texts[first][1].startswith("Reminder: ")  # the player to act, after 12 hours
    assert texts[first + 1] == ["(time) It is now 2026-11-23T00:00:00+00:00."]  # once per turn
    flag = inputs.index("~ 2m")
    assert any("ran out of time on the clock" in text for text in texts[flag])
    assert records[flag]["channel"] == "live"  # all of it fell due there
    assert records[flag]["game"]["phase"] == "over"
    expiry = inputs.index("~ 11m")
    [expired] = [r for r in records[expiry]["replies"] if "expired" in r["text"]]
    assert "erin's challenge to frank expired unanswered" in expired["text"]
    assert texts[-1] == ["Move the clock with `~ 25h` (units s, m, h, d)."]
    # 25 hours have passed since the first match's last move: it may be claimed.
    claimed = run(tmp_path, ["alice: !claim", "bob: !claim"], clock="2026-11-23T12:00:00")
    assert any(
        "claims the match" in text
        for r in claimed
        for text in [reply["text"] for reply in r["replies"]]
    )


def test_a_bad_clock_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--clock", "tomorrow"])
    assert "not an ISO 8601 time" in capsys.readouterr().err


def test_moving_time_posts_the_daily_puzzle_once_a_day(tmp_path: Path) -> None:
    lines = [
        "alice: !puzzle daily #daily 11:00",
        "~ 59m",
        "~ 1m",
        "~ 2h",
        "#daily bob: !puzzle daily",
        "~ 1d",
    ]
    records = run(tmp_path, lines)
    texts = [[reply["text"] for reply in record["replies"]] for record in records]
    assert "posted in #daily every day at 11:00 (UTC)" in texts[0][0]
    assert texts[1] == ["(time) It is now 2026-11-22T10:59:00+00:00."]
    [post] = [r for r in records[2]["replies"] if "Daily puzzle" in r["text"]]
    assert records[2]["channel"] == "daily"
    assert post["text"].startswith("**Daily puzzle of Sun 22 Nov 2026**")
    assert texts[3] == ["(time) It is now 2026-11-22T13:00:00+00:00."]  # once
    assert "**Daily puzzle of Sun 22 Nov 2026** (in #daily)" in texts[4][0]
    [later] = [text for text in texts[5] if "Daily puzzle" in text]
    assert later.startswith("**Daily puzzle of Mon 23 Nov 2026**")
    assert "Yesterday's: nobody answered; gnubg's best was " in later
