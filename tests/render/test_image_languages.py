"""Every image reads in every language: the words of a translation (longer than English in
German and Greek) are as large as English's, inside the image, apart from each other and
readable against what is under them; the status line and the names are cut no more than in
English; and a board kept in pieces never shows another language's strips."""

from __future__ import annotations

import itertools

import pytest

from bot.i18n.core import LANGUAGES, Language
from bot.render import BoardState, render_board
from bot.render.geometry import DEFAULT_SIZE, layout
from bot.render.whole import board_labels
from bot.rules import Position
from tests.render.image_kinds import PLAYERS, board_states, boards, charts, tournaments
from tests.render.readable import decode, problems
from tests.render.test_phone_text import GNU, LONG, SIZES


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kinds", [boards, charts, tournaments], ids=lambda kinds: kinds.__name__)
def test_every_image_reads_in_every_language(language: Language, kinds: object) -> None:
    assert callable(kinds)
    for drawn in kinds(language):
        found = problems(drawn.image, drawn.labels)
        assert not found, (drawn.kind, *found[:8])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_status_line_and_names_are_whole_in_every_language_and_size(
    language: Language,
) -> None:
    """With short names the status line is never cut (it shrinks, then drops who must answer
    an offer); GNU Backgammon's name is never cut in it, whatever the other name, and each name
    in its strip is whole."""
    for (_, state), size in itertools.product(board_states(PLAYERS), SIZES):
        labels = board_labels(state, viewer=0, size=size, language=language)
        (status,) = [label for label in labels if label.role == "status"]
        assert not status.cut, (size, status.text)
    for (_, state), size in itertools.product(board_states((GNU, LONG)), SIZES):
        labels = board_labels(state, viewer=0, size=size, language=language)
        for label in labels:
            if label.role == "status" and GNU[:6] in label.text:
                assert GNU in label.text and not label.cut, (size, label.text)
            if label.role == "name":
                assert not label.cut and "".join(label.text.split()) in (GNU.replace(" ", ""), LONG)


def _strip(png: bytes, box: tuple[float, float, float, float]) -> bytes:
    """The pixels of ``png`` in ``box``."""
    x0, y0, x1, y1 = box
    return decode(png).crop((int(x0), int(y0), int(x1), int(y1))).tobytes()


def test_a_german_board_never_reuses_an_english_strip() -> None:
    """The board keeps each strip drawn (mapped on its palette) for the next board that shows
    the same: a German board after the English one of the same state draws its own strips, in
    German, and the English board after it is the English one again."""
    state = BoardState(
        Position.initial(), 0, ("alice", "bob"), match_length=5, dice=(6, 4), phase="move"
    )
    english = render_board(state, viewer=0)
    german = render_board(state, viewer=0, language="de")
    status = layout(DEFAULT_SIZE).status_strip
    assert _strip(english, status) != _strip(german, status)
    assert render_board(state, viewer=0) == english
    texts = {label.role: label.text for label in board_labels(state, viewer=0, language="de")}
    assert texts["status"] == "alice zieht 6-4"
    assert texts["pips"] == "167 Pips"
    assert texts["score"] == "Punkte 0"
    assert texts["match"] == "Match auf 5 Punkte"
    top, bottom = layout(DEFAULT_SIZE).top_strip, layout(DEFAULT_SIZE).bottom_strip
    for box in (top, bottom):
        assert _strip(english, box) != _strip(german, box)
