"""A language's table is joined from three modules (``<code>.py``, ``<code>_reports.py`` and
``<code>_table.py``): no key may be in two, where one would silently replace the other."""

from __future__ import annotations

import itertools

from bot.i18n.languages import (
    de,
    de_reports,
    de_table,
    el,
    el_reports,
    el_table,
    es,
    es_reports,
    es_table,
    it,
    it_reports,
    it_table,
    tr,
    tr_reports,
    tr_table,
)


def test_the_parts_of_a_language_share_no_key() -> None:
    for parts in (
        (de, de_reports, de_table),
        (el, el_reports, el_table),
        (es, es_reports, es_table),
        (it, it_reports, it_table),
        (tr, tr_reports, tr_table),
    ):
        for one, other in itertools.combinations(parts, 2):
            assert set(one.TEXTS) & set(other.TEXTS) == set(), (one.__name__, other.__name__)
