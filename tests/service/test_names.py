"""Display names made safe: no bidi or control characters, no Zalgo, no Markdown, no pings."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.service.models import (
    BIDI_CONTROLS,
    FALLBACK_NAME,
    MARKDOWN_CHARACTERS,
    MAX_GRAPHEMES,
    MAX_MARKS,
    ZWJ,
    clean_name,
    graphemes,
    markdown_safe,
)

RLO = "\u202e"
FAMILY = "👨\u200d👩\u200d👧\u200d👦"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("alice", "alice"),
        (f"{RLO}evil", "evil"),
        ("a\u2066b\u2069c\u200fd\u061ce\u202af", "abcdef"),
        ("  two \t\n words  ", "two words"),
        ("zero\u200bwidth\ufeff\u2060", "zerowidth"),
        ("bell\x07\x00\x1b[31m", "bell[31m"),
        ("\u3164\u3164", FALLBACK_NAME),
        ("", FALLBACK_NAME),
        (RLO, FALLBACK_NAME),
        ("e\u0301", "é"),
        ("Zalgo\u0338\u0322\u0316\u0317\u0318", "Zalgo\u0338\u0322"),
        ("山田太郎", "山田太郎"),
        ("عربي", "عربي"),
        (FAMILY, FAMILY),
        ("❤\ufe0f\u200d🔥", "❤\ufe0f\u200d🔥"),
        ("👍🏽", "👍🏽"),
        ("🇯🇵🇫🇷", "🇯🇵🇫🇷"),
        ("a\u200db", "ab"),
        ("**bold**", "**bold**"),
        ("x" * 40, "x" * (MAX_GRAPHEMES - 1) + "…"),
        ("x" * MAX_GRAPHEMES, "x" * MAX_GRAPHEMES),
        ("y" * 500, "y" * 31 + "…"),
    ],
)
def test_clean_name(raw: str, expected: str) -> None:
    assert clean_name(raw) == expected


def test_the_reversed_board_text_from_the_issue() -> None:
    assert clean_name(f"nothing{RLO} to move 3-4") == "nothing to move 3-4"


def test_length_counts_user_perceived_characters() -> None:
    flags = "🇯🇵" * 40
    assert clean_name(flags) == "🇯🇵" * (MAX_GRAPHEMES - 1) + "…"
    assert len(graphemes(clean_name(FAMILY * 40))) == MAX_GRAPHEMES
    assert len(graphemes(clean_name("e\u0301" * 40))) == MAX_GRAPHEMES


def test_zwj_chains_are_cut_to_four_emoji() -> None:
    chain = ZWJ.join(["👨"] * 10)
    assert clean_name(chain) == ZWJ.join(["👨"] * 4)


def _is_markless(char: str) -> bool:
    return unicodedata.category(char) not in ("Mn", "Me")


def _bad(char: str) -> bool:
    return char in BIDI_CONTROLS or (
        unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") and char != ZWJ
    )


names = st.text(st.characters(codec=None), max_size=120) | st.text(
    st.sampled_from(
        [
            *BIDI_CONTROLS,
            "\u0301",
            "\u0338",
            "\ufe0f",
            ZWJ,
            "👨",
            "🏽",
            "🇯",
            " ",
            "\n",
            "a",
            "\u3164",
            "\u200b",
            "*",
            "@",
        ]
    ),
    max_size=120,
)


@given(names)
@example(f"{RLO}evil")
@example("a\u0301\u0302\u0303 \u0304")
@example("\u0301 a")
@example("👨\u200d\ufe0f")
def test_clean_names_are_safe_bounded_and_stable(raw: str) -> None:
    name = clean_name(raw)
    assert name
    assert name == name.strip()
    assert not any(_bad(char) for char in name)
    assert "  " not in name and all(char == " " or not char.isspace() for char in name)
    clusters = graphemes(name)
    assert len(clusters) <= MAX_GRAPHEMES
    assert len(name) <= MAX_GRAPHEMES * 16
    for cluster in clusters:
        run = 0
        for char in cluster:
            run = 0 if _is_markless(char) else run + 1
            assert run <= MAX_MARKS
    assert unicodedata.is_normalized("NFC", name)
    assert clean_name(name) == name


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("**bold**", r"\*\*bold\*\*"),
        ("__x__ ~~y~~ ||z||", r"\_\_x\_\_ \~\~y\~\~ \|\|z\|\|"),
        ("a`b", r"a\`b"),
        ("# head", r"\# head"),
        ("> quote", r"\> quote"),
        ("-# small", r"\-\# small"),
        ("[x](https://e.com)", r"\[x\]\(https\://e\.com\)"),
        ("back\\slash", r"back\\slash"),
        ("@everyone", "@\u200beveryone"),
        ("@here", "@\u200bhere"),
        ("<@123456789012345678>", "\\<@\u200b123456789012345678\\>"),
        ("<#123>", r"\<\#123\>"),
        ("alice", "alice"),
        ("山田 🙂", "山田 🙂"),
    ],
)
def test_markdown_safe(name: str, expected: str) -> None:
    assert markdown_safe(name) == expected


@given(st.text(st.sampled_from([*MARKDOWN_CHARACTERS, "@", "a", "1", " ", "é"]), max_size=60))
def test_markdown_safe_leaves_no_bare_markdown_or_ping(name: str) -> None:
    escaped = markdown_safe(name)
    index = 0
    unescaped: list[str] = []
    while index < len(escaped):
        char = escaped[index]
        if char == "\\":
            assert escaped[index + 1] in MARKDOWN_CHARACTERS
            unescaped.append(escaped[index + 1])
            index += 2
            continue
        assert char not in MARKDOWN_CHARACTERS
        if char == "@":
            assert not escaped[index + 1 : index + 2].isalnum()
        if char != "\u200b":
            unescaped.append(char)
        index += 1
    assert "".join(unescaped) == name
