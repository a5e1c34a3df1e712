"""Discord's message components as the fake checks and reads them: the action rows of a classic
message, and the layout components of one flagged IS_COMPONENTS_V2 (containers, sections, text
displays, media galleries, separators, action rows), which carries no content or embeds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Json = dict[str, Any]

COMPONENTS_V2 = 1 << 15  # message flag: the message is made of layout components
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY = 1, 2, 9, 10, 11, 12
SEPARATOR, CONTAINER = 14, 17
# Which components each kind may hold (a section: text displays, and one accessory).
HOLDS = {
    CONTAINER: {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR},
    ACTION_ROW: {BUTTON},
    SECTION: {TEXT_DISPLAY},
}
TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR, CONTAINER}
MAX_TEXT = 4000  # characters of text displays in one message
MAX_COMPONENTS = 40  # components in one message, nested ones included


def walk(components: list[Json]) -> Iterator[Json]:
    """Every component, nested ones after their parent, in order."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        accessory = component.get("accessory")
        if accessory is not None:
            yield accessory


def texts(components: list[Json]) -> list[str]:
    return [c["content"] for c in walk(components) if c.get("type") == TEXT_DISPLAY]


def media_urls(components: list[Json]) -> list[str]:
    return [
        item["media"]["url"]
        for c in walk(components)
        if c.get("type") == MEDIA_GALLERY
        for item in c.get("items") or []
    ]


def _rows_problem(rows: list[Json]) -> str | None:
    if len(rows) > 5:
        return f"components: {len(rows)} rows, at most 5"
    for row in rows:
        if row.get("type") != ACTION_ROW or not 1 <= len(row.get("components", [])) <= 5:
            return "components: each row is an action row of 1 to 5 components"
    return None


def _layout_problem(body: Json, names: set[str]) -> str | None:
    if body.get("content") or body.get("embeds"):
        return "a message with IS_COMPONENTS_V2 has no content or embeds"
    components = body.get("components") or []
    if not components:
        return "a message with IS_COMPONENTS_V2 needs components"
    for component in components:
        if component.get("type") not in TOP_LEVEL:
            return f"component type {component.get('type')} can't be at the top of a message"
    every = list(walk(components))
    if len(every) > MAX_COMPONENTS:
        return f"components: {len(every)}, at most {MAX_COMPONENTS}"
    for component in every:
        kind = int(component.get("type") or 0)
        for child in component.get("components") or []:
            if child.get("type") not in HOLDS.get(kind, set()):
                return f"component type {kind} can't hold type {child.get('type')}"
        if kind == ACTION_ROW and not 1 <= len(component.get("components") or []) <= 5:
            return "an action row holds 1 to 5 components"
        if kind == MEDIA_GALLERY and not 1 <= len(component.get("items") or []) <= 10:
            return "a media gallery holds 1 to 10 items"
    if sum(map(len, texts(components))) > MAX_TEXT:
        return f"text displays: more than {MAX_TEXT} characters"
    for url in media_urls(components):
        if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
            return f"media {url}: no such attachment"
    return None


def components_problem(body: Json, names: set[str]) -> str | None:
    """Why Discord would refuse the components of ``body`` (``names``: the files the message
    will hold), or None."""
    flags = int(body.get("flags") or 0)
    problem = (
        _layout_problem(body, names)
        if flags & COMPONENTS_V2
        else _rows_problem(body.get("components") or [])
    )
    if problem is not None:
        return problem
    for item in walk(body.get("components") or []):
        if len(item.get("label") or "") > 80 or len(item.get("custom_id") or "") > 100:
            return f"component {item}: label at most 80, custom_id at most 100 characters"
    custom_ids = [c["custom_id"] for c in walk(body.get("components") or []) if "custom_id" in c]
    if len(set(custom_ids)) != len(custom_ids):
        return f"components: custom_ids repeat: {custom_ids}"
    return None
