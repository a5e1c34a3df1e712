"""Every language's translations of the catalog, by key (:mod:`bot.i18n.core` looks them up):
one table per language, from its module, its ``_reports`` and its ``_table`` modules (each a part,
the three together complete: ``tests/i18n`` checks it)."""

from __future__ import annotations

from collections.abc import Mapping

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

TABLES: Mapping[str, Mapping[str, str | tuple[str, str]]] = {
    "el": {**el.TEXTS, **el_reports.TEXTS, **el_table.TEXTS},
    "tr": {**tr.TEXTS, **tr_reports.TEXTS, **tr_table.TEXTS},
    "it": {**it.TEXTS, **it_reports.TEXTS, **it_table.TEXTS},
    "de": {**de.TEXTS, **de_reports.TEXTS, **de_table.TEXTS},
    "es": {**es.TEXTS, **es_reports.TEXTS, **es_table.TEXTS},
}
