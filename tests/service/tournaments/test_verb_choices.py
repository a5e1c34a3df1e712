"""``/tournament``'s autocomplete: the verbs, a new tournament's formats and terms, the verbs for
a tournament named first; every sent choice is read by the tournament command as typed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.tournaments.terms import VERB_CHOICES, read_terms, verb_choices


def shown(text: str) -> list[str]:
    return [name for name, _ in verb_choices(text)]


def test_nothing_typed_lists_every_verb_with_examples() -> None:
    assert verb_choices("") == list(VERB_CHOICES)
    assert shown("re") == ["report", "resume", "remove @user reason", "result 2.3 @winner reason"]
    assert verb_choices("remo") == [("remove @user reason", "remove")]  # sent: the verb alone


def test_a_new_tournament_gets_its_formats_then_the_terms_not_said() -> None:
    assert shown("create  Spring") == [
        "create Spring knockout 3",
        "create Spring swiss 4 rounds 1",
        "create Spring roundrobin 5",
    ]
    after = shown("create Spring knockout 3 days 3")
    assert after[0] == "create Spring knockout 3 days 3"
    assert not any("clock" in choice for choice in after)  # correspondence or live, not both
    assert "create Spring knockout 3 days 3 unrated" in after


@pytest.mark.parametrize(
    "text", ["", "cr", "create Spring", "create Spring swiss 4 rounds 1", "create L roundrobin 5"]
)
def test_every_create_choice_reads_as_terms(text: str) -> None:
    for _, sent in verb_choices(text):
        if sent.startswith("create ") and len(sent.split()) >= 4:
            terms = read_terms(sent.removeprefix("create "), "!", language="en")
            assert terms.name and terms.length >= 1


def test_a_tournament_named_first_gets_its_verbs() -> None:
    assert shown("Spring")[:3] == ["Spring", "Spring join", "Spring leave"]
    assert shown("Spring st") == ["Spring start"]
    assert shown("#3 rep") == ["#3 report"]
    assert shown("join Spring") == ["join Spring"]  # a verb, then more: as typed
    assert shown("Spring zz") == ["Spring zz"]


@given(st.text(max_size=120))
def test_any_text_gets_at_most_25_choices_discord_can_show(text: str) -> None:
    choices = verb_choices(text)
    assert len(choices) <= 25
    assert all(sent.strip() for _, sent in choices) or not text.strip()
