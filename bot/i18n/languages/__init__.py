"""Every language's translations of the catalog, by key (:mod:`bot.i18n.core` looks them up):
one module per language, each a complete table (``tests/i18n`` checks it)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n.languages import de, el, es, it, tr

TABLES: Mapping[str, Mapping[str, str | tuple[str, str]]] = {
    "el": el.TEXTS,
    "tr": tr.TEXTS,
    "it": it.TEXTS,
    "de": de.TEXTS,
    "es": es.TEXTS,
}
