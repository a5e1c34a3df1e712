from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from bot.rules.state import evolved


@dataclass(frozen=True, slots=True)
class Slotted:
    number: int
    name: str = "a"
    _hidden: tuple[int, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Plain:
    number: int
    name: str = "a"


@dataclass(frozen=True)
class Checked:
    number: int

    def __post_init__(self) -> None:
        if self.number < 0:
            raise ValueError("negative")


@pytest.mark.parametrize("value", [Slotted(1, "b", (3,)), Plain(1, "b")])
def test_an_evolved_value_is_the_replaced_one(value: Slotted | Plain) -> None:
    made = evolved(value, name="c")
    assert made == replace(value, name="c") and type(made) is type(value)
    assert made.name == "c" and made.number == 1 and value.name == "b"
    assert evolved(value) == value and evolved(value) is not value


def test_a_field_compared_or_not_is_copied() -> None:
    assert evolved(Slotted(1, "b", (3,)), number=2)._hidden == (3,)


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="no field 'nmae'"):
        evolved(Slotted(1), nmae="c")


def test_a_class_that_checks_its_fields_is_refused() -> None:
    with pytest.raises(TypeError, match="runs nothing at construction"):
        evolved(Checked(1), number=-1)
