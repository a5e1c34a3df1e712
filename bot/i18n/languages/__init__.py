"""Every language's translations of the catalog, by key (:mod:`bot.i18n.core` looks them up):
one table per language, from its module and its ``_reports`` module (each a part, the two
together complete: ``tests/i18n`` checks it)."""

from __future__ import annotations

from collections.abc import Mapping

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

TABLES: Mapping[str, Mapping[str, str | tuple[str, str]]] = {
    "el": {**el.TEXTS, **el_reports.TEXTS},
    "tr": {**tr.TEXTS, **tr_reports.TEXTS},
    "it": {**it.TEXTS, **it_reports.TEXTS},
    "de": {**de.TEXTS, **de_reports.TEXTS},
    "es": {**es.TEXTS, **es_reports.TEXTS},
}
