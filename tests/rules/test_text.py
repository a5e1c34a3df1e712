"""The English every layer shares: dice, counts, points, resignation levels and sentences."""

from __future__ import annotations

import pytest

from bot.i18n.words import level_text, points_text, sentence
from bot.rules.notation import dice_text
from bot.rules.text import plural


def test_dice_are_written_high_low_as_rolled() -> None:
    assert dice_text((6, 1)) == "6-1"
    assert dice_text((3, 3)) == "3-3"


@pytest.mark.parametrize(("count", "text"), [(0, "0 pips"), (1, "1 pip"), (2, "2 pips")])
def test_plural_says_one_alone_in_the_singular(count: int, text: str) -> None:
    assert plural(count, "pip") == text


@pytest.mark.parametrize(("points", "text"), [(1, "1 point"), (2, "2 points"), (64, "64 points")])
def test_points(points: int, text: str) -> None:
    assert points_text(points, "en") == text


def test_levels() -> None:
    assert [level_text(level, "en") for level in (1, 2, 3)] == [
        "a single game",
        "a gammon",
        "a backgammon",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ""),
        ("   ", ""),
        ("it is not your turn", "It is not your turn."),
        ("  roll first  ", "Roll first."),
        ("done!", "Done!"),
        ("really?", "Really?"),
        ("already a sentence.", "Already a sentence."),
        ("x", "X."),
        ("`!move` first", "`!move` first."),
    ],
)
def test_sentence_capitalises_and_ends_with_a_stop(text: str, expected: str) -> None:
    assert sentence(text, "en") == expected


@pytest.mark.parametrize(
    ("count", "word", "many", "text"),
    [
        (1, "blunder", None, "1 blunder"),
        (2, "blunder", None, "2 blunders"),
        (1, "match", None, "1 match"),
        (3, "match", None, "3 matches"),
        (1, "die", "dice", "1 die"),
        (2, "die", "dice", "2 dice"),
    ],
)
def test_plural_agrees_with_the_count(count: int, word: str, many: str | None, text: str) -> None:
    assert plural(count, word, many) == text
