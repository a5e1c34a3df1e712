"""A language's table is joined from two modules (``<code>.py`` and ``<code>_reports.py``): no
key may be in both, where one would silently replace the other."""

from __future__ import annotations

from bot.i18n.languages import (
    de,
    de_reports,
    el,
    el_reports,
    es,
    es_reports,
    it,
    it_reports,
    tr,
    tr_reports,
)


def test_the_parts_of_a_language_share_no_key() -> None:
    for main, more in (
        (de, de_reports),
        (el, el_reports),
        (es, es_reports),
        (it, it_reports),
        (tr, tr_reports),
    ):
        assert set(main.TEXTS) & set(more.TEXTS) == set(), main.__name__
