"""Every language's translations of the catalog, by key (:mod:`bot.i18n.core` looks them up):
one table per language, joined from its parts (its module, its ``_reports``, ``_table`` and
``_images`` modules, so that each stays small), the parts together complete: ``tests/i18n``
checks it."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from bot.i18n.languages import (
    de,
    de_images,
    de_reports,
    de_table,
    el,
    el_images,
    el_reports,
    el_table,
    es,
    es_images,
    es_reports,
    es_table,
    it,
    it_images,
    it_reports,
    it_table,
    tr,
    tr_images,
    tr_reports,
    tr_table,
)

Translation = str | tuple[str, str]

# Each language's modules; a key stands in one of them only (tests/i18n/test_tables.py).
PARTS: Mapping[str, tuple[ModuleType, ...]] = {
    "el": (el, el_reports, el_table, el_images),
    "tr": (tr, tr_reports, tr_table, tr_images),
    "it": (it, it_reports, it_table, it_images),
    "de": (de, de_reports, de_table, de_images),
    "es": (es, es_reports, es_table, es_images),
}


def _joined(parts: tuple[ModuleType, ...]) -> dict[str, Translation]:
    table: dict[str, Translation] = {}
    for part in parts:
        table.update(part.TEXTS)
    return table


TABLES: Mapping[str, Mapping[str, Translation]] = {
    language: _joined(parts) for language, parts in PARTS.items()
}
