"""Every language's translations of the catalog, by key (:mod:`bot.i18n.core` looks them up)."""

from __future__ import annotations

from collections.abc import Mapping

TABLES: Mapping[str, Mapping[str, str | tuple[str, str]]] = {}
