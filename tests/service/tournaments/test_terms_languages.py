"""A tournament's terms refused in the organiser's language: the command words and the example
stay as typed, the sentence around them is translated, English is as it was."""

from __future__ import annotations

import pytest

from bot.i18n.core import Language
from bot.service.models import Refusal
from bot.service.tournaments.terms import read_terms


def refusal(text: str, language: Language = "en") -> str:
    with pytest.raises(Refusal) as raised:
        read_terms(text, "!", language=language)
    return raised.value.text


def test_a_length_out_of_range_names_what_is_wrong_in_each_language() -> None:
    assert refusal("Spring knockout 99") == (
        "'99' is not a match length (1-25), e.g. `!tournament create Spring knockout 3`."
    )
    german = refusal("Spring knockout 99", "de")
    assert german.startswith("'99' ist keine gültige Angabe für die Matchlänge (1-25)")
    assert german.endswith("z. B. `!tournament create Spring knockout 3`.")
    assert "uzunluğu" in refusal("Spring knockout 99", "tr")


@pytest.mark.parametrize(
    ("text", "spanish"),
    [
        ("Spring", "Di el formato después del nombre"),
        ("Spring knockout 3 clock 2m days 3", "Elige `clock` (en vivo) o `days`"),
        ("Spring knockout 3 start 90d", "Un torneo empieza entre 1 minuto y 30 días"),
        ("Spring knockout 3 soon", "'soon' no es una condición de torneo"),
    ],
)
def test_spanish_refusals_of_the_terms(text: str, spanish: str) -> None:
    assert refusal(text, "es").startswith(spanish)
