"""Reading what a player typed: the service's :func:`typed` (NFKC, trimmed) for any argument, and
the engine's :func:`normalise_play_text` for a play (NFKC plus look-alike digits, dashes, slashes
and stars, invisible characters dropped), pinned side by side."""

from __future__ import annotations

import pytest

from bot.rules.notation import normalise_play_text, normalise_typed
from bot.service.matches.presentation import typed

CASES = [
    # (typed, what typed() reads, what normalise_play_text() reads)
    ("13/7 8/7", "13/7 8/7", "13/7 8/7"),
    ("  13/7  ", "13/7", "  13/7  "),
    ("\uff11\uff13\uff0f\uff17", "13/7", "13/7"),  # full-width digits and slash
    ("\u00a013/7\u00a0", "13/7", " 13/7 "),  # non-breaking spaces
    ("\u3000\uff15\u3000", "5", " 5 "),  # ideographic spaces, a full-width digit
    ("\u2163", "IV", "IV"),  # a Roman numeral
    ("x\u00b2", "x2", "x2"),  # a superscript
    ("\ufb01ve", "five", "five"),  # a ligature
    ("\u2460/\u2466", "1/7", "1/7"),  # circled digits
    ("Gammon ", "Gammon", "Gammon "),
    ("", "", ""),
    ("  ", "", "  "),
    # NFKC leaves these alone; only a play reads them as ASCII
    ("13\u20137", "13\u20137", "13-7"),  # an en dash
    ("13\u22127", "13\u22127", "13-7"),  # a minus sign
    ("8\u2044off", "8\u2044off", "8/off"),  # a fraction slash
    ("bar\u29f822", "bar\u29f822", "bar/22"),  # a big solidus
    ("13/7\u2605", "13/7\u2605", "13/7*"),  # a black star
    ("13/7\u2217", "13/7\u2217", "13/7*"),  # an asterisk operator
    ("\u0661\u0663/\u0667", "\u0661\u0663/\u0667", "13/7"),  # Arabic-Indic digits
    ("\u0967\u0969/\u096d", "\u0967\u0969/\u096d", "13/7"),  # Devanagari digits
    ("13/\u200b7", "13/\u200b7", "13/7"),  # a zero-width space
    ("\u200b", "\u200b", ""),
]


@pytest.mark.parametrize(("text", "read", "play"), CASES)
def test_typed_is_nfkc_trimmed(text: str, read: str, play: str) -> None:
    assert typed(text) == read


@pytest.mark.parametrize(("text", "read", "play"), CASES)
def test_both_start_from_the_engine_s_reading(text: str, read: str, play: str) -> None:
    assert typed(text) == normalise_typed(text).strip()
    assert normalise_play_text(normalise_typed(text)) == play


@pytest.mark.parametrize(("text", "read", "play"), CASES)
def test_a_play_is_read_further_but_not_trimmed(text: str, read: str, play: str) -> None:
    assert normalise_play_text(text) == play


@pytest.mark.parametrize(("text", "read", "play"), CASES)
def test_a_play_reads_the_same_whether_or_not_the_service_read_it_first(
    text: str, read: str, play: str
) -> None:
    assert normalise_play_text(typed(text)).strip() == play.strip()
