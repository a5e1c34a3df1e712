"""What the bot still says only in English: the places in bot/ that write a reply's text in
place (a string or an f-string handed to ``Reply``, ``Refusal`` or a player's error of the
rules) rather than taking it from the catalog. Their count is written down in
docs/translating.md; the test fails when it changes, listing them, so that converting a reply
(or adding an English one) updates the count, and the catalog only grows."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
DOC = ROOT / "docs" / "translating.md"
SAID = {
    "Reply",
    "Refusal",
    "MatchError",
    "NotYourTurnError",
    "IllegalActionError",
    "MatchOverError",
    "MoveError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
}


def _written_in_place(node: ast.expr) -> bool:
    """A text written where it is said: a literal, an f-string, a constant's name, or one of
    those joined or chosen between."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(node.value.strip())
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Name):
        return node.id.isupper()
    if isinstance(node, ast.BinOp):
        return _written_in_place(node.left) or _written_in_place(node.right)
    if isinstance(node, ast.IfExp):
        return _written_in_place(node.body) or _written_in_place(node.orelse)
    return False


def untranslated() -> list[str]:
    """``path:line`` of each reply written in place, in bot/ (but for a text no player sees: an
    error its line marks ``# a caller's bug``)."""
    found = []
    for path in sorted(BOT.rglob("*.py")):
        if BOT / "i18n" in path.parents:
            continue
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id not in SAID:
                continue
            texts = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "text")]
            if "# a caller's bug" in lines[node.lineno - 1]:
                continue
            if any(_written_in_place(text) for text in texts):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def documented_count() -> int:
    found = re.search(r"still English: \*\*(\d+)\*\* places", DOC.read_text(encoding="utf-8"))
    assert found, "docs/translating.md says how many replies are still English"
    return int(found[1])


def test_the_replies_still_in_english_are_as_many_as_documented() -> None:
    places = untranslated()
    assert len(places) == documented_count(), "\n".join(places)


def test_the_play_path_is_in_the_catalog() -> None:
    """Nothing said while playing is written in place: the rules' refusals and the service's
    play, its prompts and its reading of commands."""
    play_path = (
        "bot/rules/match.py",
        "bot/rules/diagnose.py",
        "bot/rules/notation.py",
        "bot/service/matches/commands.py",
        "bot/service/matches/presentation.py",
        "bot/service/commands/schema.py",
    )
    assert [place for place in untranslated() if place.startswith(play_path)] == []
