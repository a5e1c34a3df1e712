"""Numbers as each language writes them, and gnubg's cube verdicts in every language."""

from __future__ import annotations

import pytest

from bot.gnubg.stored_decisions import _PROPER
from bot.i18n.core import Language
from bot.i18n.numbers import decimal, percent, whole
from bot.i18n.reports import CUBE_ACTIONS, cube_action


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", ("16.67%", "1234.5", "12,345")),
        ("de", ("16,67 %", "1234,5", "12.345")),
        ("tr", ("%16,67", "1234,5", "12.345")),
        ("el", ("16,67%", "1234,5", "12.345")),
        ("it", ("16,67%", "1234,5", "12.345")),
        ("es", ("16,67%", "1234,5", "12.345")),
    ],
)
def test_a_number_is_written_as_the_language_writes_it(
    language: Language, shown: tuple[str, str, str]
) -> None:
    assert (
        percent(100 / 6, 2, language),
        decimal(1234.5, 1, language),
        whole(12345, language),
    ) == shown


def test_every_cube_verdict_of_gnubg_is_in_the_catalog() -> None:
    assert set(_PROPER) == set(CUBE_ACTIONS)
    assert cube_action("No double, take", "de") == "Kein Doppel, annehmen"
    assert cube_action("Some later verdict", "de") == "Some later verdict"
