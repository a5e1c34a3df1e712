"""A fixed script of commands played through the console in each of the catalog's languages:
no reply line may still read as English. A line reads as English when, outside `code spans`,
code blocks and the players' names, it holds two or more distinct words of :data:`COMMON`,
common English words that none of the five languages writes. What may stay English is listed
in :data:`ALLOWED`, each entry with why.

The script without GNU Backgammon runs in every language (about a second of CPU each); the
one with GNU Backgammon (`!challenge bot`, `!hint`, `!analysis`, `!review`, `!eval`,
`!puzzle`) is slow and runs in one language drawn by a seed, or in all five with
``TRANSCRIPT_LANGUAGES=all`` (or a list: ``TRANSCRIPT_LANGUAGES=de,tr``)."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from bot.cogs.buttons import BUTTON_SPECS
from bot.i18n.core import ENGLISH, LANGUAGES, Language, Message
from tests.consoles import run_console
from tests.i18n.test_terms import translations

SEED = 7
OTHERS: tuple[Language, ...] = tuple(language for language in LANGUAGES if language != ENGLISH)
NAMES = {"alice", "bob", "GNU", "Backgammon", "gnubg", "XGID", "ID", "Position", "Match"}

# Common English words that are no word in German, Italian, Spanish or Turkish (Greek writes
# none in Latin letters): "in", "a", "no", "match", "pips", "equity" are left out for that.
COMMON = frozenset(
    re.findall(
        r"\S+",
        """
        the and to your you is are of with for it its this that has have not on at or by be was
        will can from here there which when each every they their we our an as if then than too
        only yet all any game games turn plays played play rolls rolled roll double doubles take
        takes pass win wins lose loses point points cube centred dice seed moves move decision
        decisions needed nothing rated unrated ratings change done started analysing analysis
        review advice best better check first before after minutes hours days seconds minute
        hour day second left players player opponent against waits waiting next line""",
    )
)

# What may still read as English, each a piece of a line (a regular expression) and why.
ALLOWED: tuple[tuple[str, str], ...] = ()

# Code: blocks, spans and commands (`!move`, `/move`), which stay English in every language.
SPAN = re.compile(r"```.*?```|`[^`\n]*`|[!/][a-z]+", re.DOTALL)
WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?")  # letters of any script: "análisis" is one word

FAST = """\
alice: !challenge @bob 1
bob: !accept
alice: !roll
bob: !pips
bob: !score
bob: !move 13/7
alice: !double
bob: !resign
alice: !accept
alice: !export
alice: !dice
alice: !help move
alice: !show 4HPwATDgc/ABMA:cAkAAAAAAAAE
alice: !show XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:0:0:0:5:10
alice: !stats
alice: !leaderboard
alice: !challenge @bob 2 clock 2m
bob: !accept
alice: !abort
bob: !abort
alice: !board
carol: !accept
alice: !challenge @bob 1
alice: !challenge @carol 1
alice: !help
alice: !settings
alice: !pips
"""

WITH_GNUBG = """\
alice: !challenge bot 1
alice: !hint
alice: !roll
alice: !hint
alice: !resign
alice: !analysis
alice: !review
alice: !export
alice: !eval 4HPwATDgc/ABMA:cAkAAAAAAAAE
alice: !eval XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:0:0:0:5:10
alice: !puzzle
"""


def english_words(line: str) -> set[str]:
    """The words of :data:`COMMON` in ``line``, outside code and names."""
    words = {word.lower() for word in WORD.findall(SPAN.sub(" ", line)) if word not in NAMES}
    return words & COMMON


def still_english(text: str) -> list[str]:
    """The lines of a reply that read as English and are not allowed to."""
    found = []
    for line in SPAN.sub(" ", text).splitlines():
        if len(english_words(line)) < 2:
            continue
        if any(re.search(pattern, line) for pattern, _ in ALLOWED):
            continue
        found.append(line.strip())
    return found


def transcript(script: str, language: Language, tmp_path: Path) -> list[tuple[str, str]]:
    """(input, reply text) for each reply of the console running ``script`` in ``language``;
    the labels of its buttons, if it has any, on a line of their own after it."""
    arguments = ("--json", "--seed", str(SEED), "--locale", language)
    output = run_console(
        tmp_path, *arguments, "--db", str(tmp_path / f"{language}.sqlite3"), script=script
    )
    said = []
    for line in output.splitlines():
        record = json.loads(line)
        for reply in record["replies"]:
            labels = [f"[{label}]" for label in reply.get("buttons", ())]
            said.append((record["input"], "\n".join([reply["text"], *labels])))
    return said


# Buttons' labels as English shows them: one word each, too short for the detector (symbols,
# ◀ ▶, and Beaver, every language's word, are the same in all).
ENGLISH_LABELS = {
    f"[{spec.worded(ENGLISH)}]" for spec in BUTTON_SPECS if isinstance(spec.label, Message)
} - {"[Beaver]"}


def english_in(script: str, language: Language, tmp_path: Path) -> list[str]:
    found, labels = [], 0
    for typed, text in transcript(script, language, tmp_path):
        found += [f"{typed!r} -> {line}" for line in still_english(text)]
        found += [f"{typed!r} -> {line}" for line in text.splitlines() if line in ENGLISH_LABELS]
        labels += sum(line.startswith("[") for line in text.splitlines())
    assert labels, "the script shows no button"
    return found


def sampled() -> tuple[Language, ...]:
    chosen = os.environ.get("TRANSCRIPT_LANGUAGES", "")
    if chosen == "all":
        return OTHERS
    if chosen:
        return tuple(language for language in OTHERS if language in chosen.split(","))
    return (random.Random(SEED).choice(OTHERS),)


def test_the_script_sees_english_buttons(tmp_path: Path) -> None:
    """English itself: its buttons are found, as a language's untranslated labels would be."""
    found = english_in("alice: !challenge @bob 1\n", ENGLISH, tmp_path)
    assert "'!challenge @bob 1' -> [Accept]" in found


def test_the_detector_sees_english_and_not_the_others() -> None:
    assert still_english("It is your turn: `!roll` to roll the dice.")
    assert still_english("ok\nUnrated: ratings don't change.")
    assert not still_english("alice ist am Zug mit 4-1: `!move <von>/<nach> …` (the code)")
    assert not still_english("**GNU Backgammon gewinnt ein Match auf 1 Punkt 1-0.**")
    assert not still_english("```\nthe board and the pips\n```")


# Entries that name English words on purpose: buttons' labels and answers typed as they are.
NAMES_ENGLISH = {"puzzle_daily_take", "puzzle_daily_double", "/drill.what"}


@pytest.mark.parametrize("language", OTHERS)
def test_no_entry_reads_as_english(language: Language) -> None:
    """Every entry of the catalog, and every slash description, read alone (its fields left
    out): what no script reaches is checked too."""
    found = [
        f"{key}: {text!r}"
        for key, text in translations(language).items()
        if key not in NAMES_ENGLISH and len(english_words(re.sub(r"\{[^}]*\}", " ", text))) >= 2
    ]
    assert found == []


@pytest.mark.parametrize("language", OTHERS)
def test_no_reply_reads_as_english(language: Language, tmp_path: Path) -> None:
    assert english_in(FAST, language, tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("language", sampled())
def test_no_reply_of_gnu_backgammon_reads_as_english(language: Language, tmp_path: Path) -> None:
    assert english_in(WITH_GNUBG, language, tmp_path) == []
