"""No reply is written in English in place: every text handed to ``Reply``, ``Refusal`` or a
player's error of the rules comes from the catalog (bot/i18n), so that it is said in every
language. A new reply written in place fails here, listed, unless :data:`ALLOWED` says why it
stays English (one line each)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
# The texts that stay English on purpose, by file and the start of what they say: why.
ALLOWED = {
    ("bot/console.py", "Lines look like"): "the console's own usage line, for whoever runs it",
    ("bot/console.py", "(time) It is now"): "the console's clock, an operator's test tool",
}
SAID = {
    "PositionTextError",
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
    "TournamentError",
    "EngineFailure",
    "EngineUnavailable",
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
            span = lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
            if any("# a caller's bug" in line for line in span):
                continue
            if any(_written_in_place(text) for text in texts):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _said(place: str) -> str:
    """The first lines of the call at ``place`` (``path:line``)."""
    path, line = place.rsplit(":", 1)
    source = (ROOT / path).read_text(encoding="utf-8").splitlines()
    return " ".join(source[int(line) - 1 : int(line) + 2])


def _allowed(place: str) -> bool:
    return any(place.startswith(f"{file}:") and start in _said(place) for file, start in ALLOWED)


def test_no_reply_is_written_in_english_in_place() -> None:
    places = [place for place in untranslated() if not _allowed(place)]
    assert places == [], "\n".join(places)


def test_each_allowed_english_text_is_still_there() -> None:
    """An allow-list line whose text moved to the catalog (or went away) is removed."""
    places = untranslated()
    for file, start in ALLOWED:
        assert any(p.startswith(f"{file}:") and start in _said(p) for p in places), start


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
