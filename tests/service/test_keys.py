"""The question keys: each kind reads back what it writes, and reads the text the bot's buttons
carried before the keys were typed (old messages' buttons keep working after a restart)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import ClassVar

import pytest

from bot.service.keys import (
    KINDS,
    ChallengeKey,
    DailyKey,
    DrillKey,
    ErrorsKey,
    Key,
    MatchKey,
    PuzzleKey,
    RematchKey,
    ReviewKey,
    SignupKey,
    StormKey,
    parse_key,
)

# How the bot wrote each kind before this module (presentation.py, review/room.py, drills.py,
# tournaments/rounds.py), from the same numbers in the same order.
BEFORE: dict[type[Key], Callable[..., str]] = {
    MatchKey: lambda match, actions: f"m{match}.{actions}",
    ChallengeKey: lambda challenge: f"c{challenge}",
    RematchKey: lambda match: f"r{match}",
    SignupKey: lambda tournament: f"t{tournament}",
    ReviewKey: lambda match, page: f"v{match}.{page}",
    ErrorsKey: lambda match, page: f"e{match}.{page}",
    DrillKey: lambda match, decision: f"d{match}.{decision}",
    PuzzleKey: lambda shown: f"p{shown}",
    DailyKey: lambda post: f"y{post}",
    StormKey: lambda storm, shown: f"s{storm}.{shown}",
}


def numbers(rng: random.Random, count: int) -> list[int]:
    return [rng.choice((0, 1, 9, 10, rng.randrange(10**6), 10**18 - 1)) for _ in range(count)]


def test_every_kind_is_listed_once_with_a_letter_of_its_own() -> None:
    kinds = {kind for kind in Key.__subclasses__() if kind.__module__ == Key.__module__}
    assert set(BEFORE) == set(KINDS) == kinds
    assert len({kind.FORMAT[0] for kind in KINDS}) == len(KINDS)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_key_written_before_reads_as_its_kind_and_writes_the_same(kind: type[Key]) -> None:
    rng = random.Random(kind.__name__)
    for _ in range(200):
        values = numbers(rng, len(fields(kind)))
        old = BEFORE[kind](*values)
        key = parse_key(old)
        assert key == kind(*values) and type(key) is kind
        assert key.format() == str(key) == old
        assert kind.parse(old) == key
        for other in KINDS:  # no other kind reads it
            assert other is kind or other.parse(old) is None


@pytest.mark.parametrize(
    "text",
    ["", "m", "m7", "m7.", "m.7", "m7.5.3", "m-1.2", "m 7.5", "M7.5", "c1.2", "c", "r1.0", "x1",
     "t", "v12", "e1.2.3", "d1", "m\uff17.5", "c1\n", " c1", "m7.53 ",
     "m07.5", "c00", "r1000000000000000000", "t" + "9" * 30],
)  # fmt: skip
def test_anything_else_is_no_key(text: str) -> None:
    assert parse_key(text) is None
    assert all(kind.parse(text) is None for kind in KINDS)


def test_keys_are_values_that_tell_questions_apart() -> None:
    assert MatchKey(7, 53) == MatchKey(7, 53) and MatchKey(7, 53) != MatchKey(7, 54)
    assert parse_key("v1.0") != parse_key("e1.0")  # the same numbers, another question
    assert len({MatchKey(1, 1), MatchKey(1, 1), RematchKey(1)}) == 2
    with pytest.raises(AttributeError):
        MatchKey(7, 53).actions = 54  # type: ignore[misc]


def test_a_kind_must_have_a_letter_of_its_own() -> None:
    with pytest.raises(TypeError, match="a letter of its own"):

        @dataclass(frozen=True)
        class Clash(Key):  # the letter of MatchKey
            FORMAT: ClassVar[str] = "m{number}"
            number: int

    assert parse_key("m1.2") == MatchKey(1, 2)
