"""The console adapter: ``python -m bot console`` reading commands from standard input."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import parse_line, run_console


@pytest.fixture(autouse=True)
def in_a_folder_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No .env of the checkout is read, and a key file made for a PostgreSQL database (in the
    working folder) is left in the test's folder."""
    monkeypatch.chdir(tmp_path)


def run(
    tmp_path: Path,
    lines: list[str],
    *,
    as_json: bool = True,
    images: bool = False,
    seed: int | None = 3,
    database: Path | str | None = None,
    locale: str | None = None,
) -> str:
    args = argparse.Namespace(
        db=str(database or tmp_path / "console.sqlite3"),
        seed=seed,
        json=as_json,
        images=str(tmp_path / "out") if images else None,
        locale=locale,
    )
    out = io.StringIO()
    assert asyncio.run(run_console(args, lines, out)) == 0
    return out.getvalue()


def test_parse_line() -> None:
    assert parse_line("alice: !challenge @bob 3") == ("general", "alice", "!challenge @bob 3")
    assert parse_line("#side bob:!accept") == ("side", "bob", "!accept")
    assert parse_line("no colon here") is None
    # a command typed without a name, with colons in it, is not a user named "!eval XGID=..."
    assert parse_line("!eval XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10") is None
    assert parse_line("alice smith: !roll") == ("general", "alice smith", "!roll")
    # the form the console prints its own lines in works too
    assert parse_line("[#t1] alice: !board") == ("t1", "alice", "!board")
    assert parse_line("  [#side]  bob:!accept") == ("side", "bob", "!accept")
    assert parse_line("[#t1 alice: !board") is None


def test_json_mode_one_object_per_line(tmp_path: Path, database: Path | str) -> None:
    lines = [
        "alice: !challenge @bob 1",
        "",
        "; a comment",
        "bob: !accept",
        "carol: !roll",
        "#other dave: !board",
        "not a command line",
    ]
    output = run(tmp_path, lines, database=database).splitlines()
    records = [json.loads(line) for line in output]
    assert len(records) == 5  # blank and comment lines are skipped
    challenge, accept, carol, other, garbage = records
    assert challenge["channel"] == "general" and challenge["user"] == "alice"
    assert challenge["input"] == "!challenge @bob 1"
    assert challenge["game"]["phase"] == "challenged"
    game = accept["game"]
    assert game["players"] == ["alice", "bob"] and game["match_length"] == 1
    assert game["phase"] in ("move", "roll") and game["turn"] in ("alice", "bob")
    assert len(game["position_id"]) == 14 and len(game["match_id"]) == 12
    assert game["cube"] == 1 and game["cube_owner"] is None and game["winner"] is None
    assert set(game) == {
        "players",
        "match_length",
        "score",
        "crawford",
        "game_number",
        "phase",
        "turn",
        "dice",
        "cube",
        "cube_owner",
        "position_id",
        "match_id",
        "winner",
    }
    assert accept["replies"][0]["image"] is None and accept["replies"][0]["file"] is None
    assert "Only alice and bob" in carol["replies"][0]["text"]
    assert other["channel"] == "other" and other["game"] is None
    assert "Lines look like" in garbage["replies"][0]["text"]


def test_images_files_and_restart(tmp_path: Path, database: Path | str) -> None:
    first = run(
        tmp_path, ["alice: !challenge @bob 1", "bob: !accept"], images=True, database=database
    )
    record = json.loads(first.splitlines()[-1])
    image = Path(record["replies"][0]["image"])
    assert image.read_bytes().startswith(b"\x89PNG")
    turn = record["game"]["turn"]
    other = "bob" if turn == "alice" else "alice"
    # A second run on the same database continues the same match.
    lines = [f"{turn}: !resign backgammon", f"{other}: !accept", f"{turn}: !export"]
    second = [
        json.loads(line)
        for line in run(tmp_path, lines, images=True, database=database).splitlines()
    ]
    assert second[0]["game"]["phase"] == "resigned" and second[0]["game"]["turn"] == other
    assert second[1]["game"]["phase"] == "over" and second[1]["game"]["winner"] == other
    assert image.read_bytes().startswith(b"\x89PNG")  # the second run wrote new files
    assert Path(second[0]["replies"][0]["image"]) != image
    mat = Path(second[2]["replies"][0]["file"])
    assert mat.suffix == ".mat" and "1 point match" in mat.read_text()


def test_text_mode_prints_an_ascii_board(tmp_path: Path) -> None:
    text = run(tmp_path, ["alice: !challenge @bob 3", "bob: !accept"], as_json=False)
    assert "[#general] bot: alice challenges bob" in text
    assert "+13-14-15-16-17-18" in text and "X = " in text


def test_module_entry_point(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--db",
            str(tmp_path / "x.sqlite3"),
            "--json",
            "--seed",
            "1",
        ],
        input="alice: !challenge @bob 3\nbob: !accept\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert len(done.stdout.splitlines()) == 2
    assert "seeded" in done.stderr


def test_a_rematch_offered_and_accepted(tmp_path: Path) -> None:
    started = run(tmp_path, ["alice: !challenge @bob 1", "bob: !accept"])
    record = json.loads(started.splitlines()[-1])
    turn = record["game"]["turn"]
    other = "bob" if turn == "alice" else "alice"
    lines = [
        f"{turn}: !resign backgammon",
        f"{other}: !accept",
        "carol: !rematch",
        f"{turn}: !rematch",
        f"{turn}: !rematch",
        f"{other}: !rematch",
    ]
    ended, refused, offered, again, accepted = [
        json.loads(line) for line in run(tmp_path, lines).splitlines()
    ][1:]
    assert "`!rematch`" in ended["replies"][0]["text"]
    assert "Only alice and bob" in refused["replies"][0]["text"]
    assert offered["replies"][0]["text"].startswith(f"Rematch! {turn} challenges {other}")
    assert offered["game"]["phase"] == "challenged"
    assert "already" in again["replies"][0]["text"]
    assert f"{other} accepts" in accepted["replies"][0]["text"]
    assert accepted["game"]["players"] == [turn, other] and accepted["game"]["match_length"] == 1


def test_words_of_other_clients_get_one_line(tmp_path: Path) -> None:
    lines = ["alice: !challenge @bob 1", "bob: !accept", "alice: !undo", "bob: !quit", "bob: !zzz"]
    records = [json.loads(line) for line in run(tmp_path, lines).splitlines()]
    undo, quit_, unknown = records[2:]
    assert [r["text"] for r in undo["replies"]] == [
        "A play is final once it is sent: there is no undo. Send the whole roll in one "
        "`!move <from>/<to> …`; `/move` lists the legal plays before you pick one."
    ]
    [said] = quit_["replies"]
    assert said["text"].startswith("`!resign` gives up the game")
    assert unknown["replies"] == []  # far-off words stay silent
    assert undo["game"] == records[1]["game"]  # nothing changed


def test_a_long_name_is_shown_cut_to_32_characters_everywhere(tmp_path: Path) -> None:
    long = "a" * 500
    lines = [
        f"{long}: !challenge @bob 1",
        "bob: !accept",
        f"{long}: !board",
        f"carol: !stats @{long}",
    ]
    records = [json.loads(line) for line in run(tmp_path, lines).splitlines()]
    shown = "a" * 31 + "…"
    for record in records:
        for reply in record["replies"]:
            assert "a" * 32 not in reply["text"], reply["text"]
        assert record["game"]["players"][0] == shown
    assert any(shown in reply["text"] for reply in records[0]["replies"])


def test_the_text_boards_lines_are_in_the_consoles_language(tmp_path: Path) -> None:
    lines = ["alice: !challenge @bob 1", "bob: !accept"]
    german = run(tmp_path, lines, as_json=False, locale="de")
    assert (
        " O: Bar 0, abgetragen 0, Pips 167\n X: Bar 0, abgetragen 0, Pips 167 (am Wurf)" in german
    )
    assert "pips" not in german and "on roll" not in german
    english = run(tmp_path, lines, as_json=False, database=tmp_path / "en.sqlite3")
    assert " X: bar 0, off 0, pips 167 (on roll)\n Position ID: 4HPwATDgc/ABMA" in english
