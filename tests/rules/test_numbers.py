"""The one reader of numbers players type: every decimal script, nothing else, never an error."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.notation import MOST_DIGITS, decimal_number, whole_number, whole_number_in


@given(st.text(max_size=30))
def test_any_text_is_read_or_refused_never_an_error(text: str) -> None:
    number = whole_number(text)
    assert number is None or (0 <= number < 10**MOST_DIGITS and str(number) == str(int(text)))
    fraction = decimal_number(text)
    assert fraction is None or 0 <= fraction < 10**MOST_DIGITS


@given(st.integers(0, 10**MOST_DIGITS - 1))
def test_every_number_in_range_is_read(number: int) -> None:
    assert whole_number(str(number)) == number
    assert decimal_number(f"{number}.5") == number + 0.5


def test_digits_of_other_scripts_and_what_is_no_number() -> None:
    assert whole_number("١٢") == 12 and whole_number("१२") == 12
    assert decimal_number("٣.٥") == 3.5  # noqa: RUF001 (Arabic-Indic digits)
    for word in ("፩", "፲", "½", "-1", "+3", "2.5", "1e9", "0x10", "", " 3", "3\u200b"):
        assert whole_number(word) is None, word
    assert whole_number("9" * MOST_DIGITS) == 10**MOST_DIGITS - 1
    assert whole_number("9" * (MOST_DIGITS + 1)) is None
    assert whole_number("9" * 5_000) is None  # past Python's own limit for int()
    for word in ("nan", "inf", "1e3", "2.", ".5", "-0.5", "1.2.3"):
        assert decimal_number(word) is None, word
    assert whole_number_in("3", 1, 25) == 3
    assert whole_number_in("26", 1, 25) is None
