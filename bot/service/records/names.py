"""Player names made safe to show: :func:`clean_name` for any text or image, then
:func:`markdown_safe` for a name inside a Discord message.

A Discord display name is whatever its owner typed: bidi controls that reverse the text after
them (U+202E turned a board's "3-4 move to nothing" into "3-4 evom ot nothing"), control and
format characters that show as boxes, invisible fillers, stacks of combining marks ("Zalgo"),
Markdown that formats or breaks the message around it, and text that looks like a mention.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

MAX_GRAPHEMES = 32  # Discord display names are at most 32 characters
MAX_MARKS = 2  # combining marks kept on one base character
MAX_JOINED = 4  # emoji joined by ZWJ into one picture (a family of four)
FALLBACK_NAME = "player"
ELLIPSIS = "\u2026"

ZWJ = "\u200d"
ZWSP = "\u200b"
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
# Letters and symbols that draw nothing: names made of them look empty.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)  # skin tones
_REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})

# Discord Markdown: emphasis, underline, strike, spoiler, code, quotes, headings, subtext,
# lists, masked links, and "<...>" (mentions, custom emoji, timestamps).
MARKDOWN_CHARACTERS = frozenset("\\*_~`|>#-[]()<:.+=!")
_PING = re.compile(r"@(?=\w)")
NAMES_CACHED = 4096  # names cleaned and escaped kept (every board and status names both players)


@lru_cache(maxsize=NAMES_CACHED)
def clean_name(raw: str) -> str:
    """``raw`` (a display name) made safe to show anywhere, as plain text.

    NFC-normalised; bidi controls, control, format, private-use and unassigned characters
    removed (a zero-width joiner is kept only between two emoji, a variation selector only right
    after its base); blank fillers and every run of whitespace become one space, none at the
    ends; at most :data:`MAX_MARKS` combining marks per base and :data:`MAX_GRAPHEMES`
    user-perceived characters (a longer name is cut to one less and ends with "…"). Never
    empty: :data:`FALLBACK_NAME` when nothing is left.
    ``clean_name(clean_name(x)) == clean_name(x)``.
    """
    text = unicodedata.normalize("NFC", raw)
    clusters = _clusters(_drop_invisible(text))
    if len(clusters) > MAX_GRAPHEMES:  # cut, and shown to be cut
        text = "".join(clusters[: MAX_GRAPHEMES - 1]).strip() + ELLIPSIS
    else:
        text = "".join(clusters).strip()
    text = unicodedata.normalize("NFC", text)
    return text or FALLBACK_NAME


@lru_cache(maxsize=NAMES_CACHED)
def markdown_safe(name: str) -> str:
    """``name`` (from :func:`clean_name`) escaped for the text of a Discord message.

    Every Markdown character gets a backslash, so ``**bold**`` shows as typed, and a zero-width
    space goes after each ``@`` that starts a word, so ``@everyone`` or ``<@123>`` do not look
    like (or work as) mentions. Never put a name inside a code span or block: nothing can be
    escaped there, and a backtick in the name would end it. Only for text Discord parses as
    Markdown (message content, embed descriptions and field values): button labels, select
    options and file names would show the backslashes; use :func:`clean_name` alone there.
    """
    escaped = "".join("\\" + char if char in MARKDOWN_CHARACTERS else char for char in name)
    return _PING.sub("@" + ZWSP, escaped)


def graphemes(text: str) -> list[str]:
    """``text`` split into user-perceived characters (simplified: a base with its combining
    marks, variation selector and skin tone; emoji joined by ZWJ; flag pairs)."""
    clusters: list[str] = []
    joining = False
    for char in text:
        if clusters and (joining or _extends(char, clusters[-1])):
            clusters[-1] += char
        else:
            clusters.append(char)
        joining = char == ZWJ
    return clusters


def _drop_invisible(text: str) -> str:
    kept: list[str] = []
    for index, char in enumerate(text):
        if char == ZWJ:
            after = text[index + 1] if index + 1 < len(text) else ""
            if kept and _is_emoji(_base_before(kept)) and _is_emoji(after):
                kept.append(char)
            continue
        if char in BLANKS or char.isspace() or unicodedata.category(char).startswith("Z"):
            if kept and kept[-1] != " ":
                kept.append(" ")
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in _DROPPED_CATEGORIES:
            continue
        if (_is_mark(char) or _is_selector(char)) and (not kept or kept[-1] == " "):
            continue  # a mark on nothing
        kept.append(char)
    return "".join(kept)


def _clusters(text: str) -> list[str]:
    """Grapheme clusters with their extras trimmed: marks capped, one variation selector and
    skin tone per base, at most :data:`MAX_JOINED` emoji per ZWJ sequence."""
    trimmed: list[str] = []
    for cluster in graphemes(text):
        parts: list[str] = []
        marks = selectors = joined = 0
        for char in cluster:
            if char == ZWJ:
                joined += 1
                if joined >= MAX_JOINED:
                    break
                marks = selectors = 0
                parts.append(char)
            elif _is_selector(char):
                if selectors == 0 and not marks:
                    parts.append(char)
                selectors += 1
            elif _is_mark(char):
                if marks < MAX_MARKS and not selectors:
                    parts.append(char)
                marks += 1
            else:
                parts.append(char)
        trimmed.append("".join(parts))
    return trimmed


def _extends(char: str, cluster: str) -> bool:
    code = ord(char)
    if code in _EMOJI_MODIFIERS:
        return _is_emoji(cluster[0])
    if code in _REGIONAL_INDICATORS:
        pairs = sum(ord(c) in _REGIONAL_INDICATORS for c in cluster)
        return len(cluster) == pairs and pairs == 1
    return char == ZWJ or _is_mark(char) or _is_selector(char)


def _base_before(kept: list[str]) -> str:
    for char in reversed(kept):
        if not (_is_selector(char) or ord(char) in _EMOJI_MODIFIERS):
            return char
    return ""


def _is_mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me") and not _is_selector(char)


def _is_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _is_emoji(char: str) -> bool:
    """A pictograph that can take part in a ZWJ sequence (symbols, not letters)."""
    return bool(char) and unicodedata.category(char) in ("So", "Sk") and ord(char) >= 0x2000
