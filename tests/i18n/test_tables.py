"""A language's table is joined from its parts (``<code>.py``, ``<code>_reports.py`` and
``<code>_table.py``): no key may be in two, where one would silently replace the other."""

from __future__ import annotations

import itertools

import pytest

from bot.i18n.languages import PARTS


@pytest.mark.parametrize("language", sorted(PARTS))
def test_the_parts_of_a_language_share_no_key(language: str) -> None:
    for one, other in itertools.combinations(PARTS[language], 2):
        assert set(one.TEXTS) & set(other.TEXTS) == set(), (one.__name__, other.__name__)
