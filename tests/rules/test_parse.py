"""Typed plays: every accepted notation, and errors that say what is wrong."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Position
from bot.rules.notation import parse_segments

START = Position.initial()


@pytest.mark.parametrize(
    ("text", "dice", "expected"),
    [
        ("13/7 8/7", (6, 1), "13/7 8/7"),
        ("8/7 13/7", (1, 6), "13/7 8/7"),
        ("13-7 8-7", (6, 1), "13/7 8/7"),
        ("  13/7    8/7  ", (6, 1), "13/7 8/7"),
        ("13 / 7, 8 / 7", (6, 1), "13/7 8/7"),
        ("24/13", (6, 5), "24/13"),
        ("24/18/13", (6, 5), "24/13"),
        ("13/8/2", (6, 5), "13/2"),
        ("24/18 18/13", (6, 5), "24/13"),
        ("13/2", (6, 5), "13/2"),
        ("8/6(2) 6/4(2)", (2, 2), "8/4(2)"),
        ("8/2(2)", (3, 3), "8/2(2)"),
        ("8/5/2(2)", (3, 3), "8/2(2)"),
        ("13/7(2) 24/18(2)", (6, 6), "24/18(2) 13/7(2)"),
        ("24/18 24/18 13/7 13/7", (6, 6), "24/18(2) 13/7(2)"),
        ("13/11 13/11 13/11 13/11", (2, 2), "13/11(4)"),
        ("13/5", (2, 2), "13/5"),
    ],
)
def test_accepted_notations_from_the_start(text: str, dice: tuple[int, int], expected: str) -> None:
    assert START.parse_play(text, dice).notation == expected


def test_case_and_stars_and_fibs_words() -> None:
    # X on the bar; O has a blot on X's 22 (O's 3 point).
    pos = Position.from_points({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {3: 1, 6: 5, 8: 3, 13: 6})
    for text in (
        "bar/22* 24/23",
        "BAR/22 24/23",
        "b/22 24/23",
        "25/22* 24/23",
        "bar-22 24-23",
        "24/23 Bar/22*",
        "B-22* 24-23",
    ):
        assert pos.parse_play(text, (3, 1)).notation == "bar/22* 24/23", text
    assert pos.parse_play("bar/22/21", (1, 3)).notation == "bar/22*/21"


def test_bearing_off_words() -> None:
    # X: two on the 6 point, the rest off; O far away.
    pos = Position.from_points({6: 2}, {6: 15})
    for text in ("6/off 6/off", "6/off(2)", "6/0 6/0", "6-off 6-off", "6/o 6/O", "6/OFF(2)"):
        assert pos.parse_play(text, (6, 6)).notation == "6/off(2)"


def test_bear_off_notation_exact() -> None:
    pos = Position.from_points({6: 2, 5: 1}, {6: 15})
    assert pos.parse_play("6/off 6/off 5/off", (6, 6)).notation == "6/off(2) 5/off"
    assert pos.parse_play("6/off(2) 5/off", (6, 6)).notation == "6/off(2) 5/off"
    assert pos.parse_play("6-off 5/0", (6, 5)).notation == "6/off 5/off"
    assert pos.parse_play("5/off 6/0", (5, 6)).notation == "6/off 5/off"


def test_intermediate_hit_must_be_named_or_is_inferred() -> None:
    # O blot on X's 18 (O's 7); X's 19 is open, so 24/13 means the quiet route through 19.
    pos = Position.from_points({24: 2, 8: 8, 6: 5}, {7: 1, 5: 5, 8: 5, 13: 4})
    assert pos.parse_play("24/13", (6, 5)).notation == "24/13"
    assert pos.parse_play("24/18/13", (6, 5)).notation == "24/18*/13"
    assert pos.parse_play("24/18*/13", (6, 5)).notation == "24/18*/13"
    # Close 19 (O's 6 point is X's 19): the only way through 24/13 hits on 18.
    closed = Position.from_points({24: 2, 8: 8, 6: 5}, {7: 1, 6: 5, 8: 5, 13: 4})
    assert closed.parse_play("24/13", (6, 5)) == closed.parse_play("24/18*/13", (6, 5))


def test_ambiguous_play_lists_the_choices() -> None:
    # O blots on X's 18 and 19 (O's 7 and 6): 24/13 must hit one of them, which one?
    pos = Position.from_points({24: 2, 8: 8, 6: 5}, {7: 1, 6: 1, 8: 5, 13: 8})
    with pytest.raises(AmbiguousMoveError) as raised:
        pos.parse_play("24/13", (6, 5))
    message = str(raised.value)
    assert "'24/13'" in message
    assert "24/18*/13" in message and "24/19*/13" in message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("13/x", "that is not a move: 'x' in '13/x' is not a point; use from/to like 13/7"),
        ("", "is not a move: use from/to like 13/7"),
        ("13", "needs from/to"),
        ("13/30", "there is no point 30"),
        ("8/2(9)", "a count must be 1 to 4"),
        ("6/bar", "can't move to the bar"),
        ("off/6", "'off' can only come last"),
        ("13/7(x)", "write a count like 8/2(2)"),
        ("hello world", "'hello' needs from/to"),
        ("13/x7 8/7", "'x7' in '13/x7' is not a point"),
    ],
)
def test_unreadable_input(text: str, fragment: str) -> None:
    with pytest.raises(InvalidMoveError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        START.parse_play(text, (6, 1))


def test_illegal_messages() -> None:
    with pytest.raises(IllegalMoveError, match="goes backwards"):
        START.parse_play("7/13 8/7", (6, 1))
    with pytest.raises(IllegalMoveError, match="you have no checker on 9"):
        START.parse_play("9/3 8/7", (6, 1))
    with pytest.raises(IllegalMoveError, match=r"^you must play both dice \(you typed"):
        START.parse_play("13/7", (6, 1))
    with pytest.raises(IllegalMoveError, match="is 4 pips, which your 6-1 can't make"):
        START.parse_play("13/9 8/7", (6, 1))
    with pytest.raises(IllegalMoveError, match="you must play all four 3s"):
        START.parse_play("8/5 6/3", (3, 3))
    with pytest.raises(IllegalMoveError, match="you have only 2 checkers on 24"):
        START.parse_play("24/21(3) 8/5", (3, 3))


def test_closed_point_message_counts_the_checkers() -> None:
    # From the start, O has 3 checkers on X's 17? no: O's 8 point is X's 17 (3 checkers).
    with pytest.raises(IllegalMoveError, match="17 is closed: your opponent has 3 checkers there"):
        START.parse_play("24/17", (6, 1))
    with pytest.raises(IllegalMoveError) as raised:
        START.parse_play("13/7 13/12", (6, 1))
    assert str(raised.value) == (
        "12 is closed: your opponent has 5 checkers there (you typed '13/7 13/12')"
    )


def test_bar_first_message() -> None:
    pos = Position.from_points({25: 1, 6: 14}, {5: 2, 6: 13})
    with pytest.raises(IllegalMoveError, match="you have a checker on the bar: enter it first"):
        pos.parse_play("6/1 6/3", (5, 3))


def test_larger_die_message() -> None:
    pos = Position.from_points({24: 1, 1: 14}, {12: 2, 2: 13})
    with pytest.raises(IllegalMoveError, match="you must play the 6 when only one die can be"):
        pos.parse_play("24/19", (6, 5))
    assert pos.parse_play("24/18", (6, 5)).notation == "24/18"


def test_bear_off_with_checker_outside_message() -> None:
    pos = Position.from_points({8: 1, 6: 4}, {1: 15})
    with pytest.raises(IllegalMoveError, match="can't bear off while a checker is outside"):
        pos.parse_play("8/7 6/off", (6, 1))
    # ... but bringing the last checker home first makes it legal in the same turn.
    home = Position.from_points({7: 1, 6: 5}, {1: 15})
    assert home.parse_play("7/6 6/off", (1, 6)).notation == "7/off"


def test_no_legal_move_input() -> None:
    pos = Position.from_points({25: 1, 6: 14}, {5: 2, 6: 13})
    assert pos.parse_play("", (5, 6)).notation == "no legal move"
    assert pos.parse_play("pass", (5, 6)).steps == ()
    with pytest.raises(IllegalMoveError, match="you have no legal move with 5-6"):
        pos.parse_play("bar/20", (5, 6))
    with pytest.raises(IllegalMoveError, match="you have a legal play"):
        START.parse_play("no legal move", (6, 5))


def test_segments_layer() -> None:
    [segment] = parse_segments(" 24/18*/13 (2) ")
    assert segment.path == (24, 18, 13)
    assert segment.count == 2
    assert [s.path for s in parse_segments("bar-22 6-off 6/0 b/20 25/21")] == [
        (25, 22),
        (6, 0),
        (6, 0),
        (25, 20),
        (25, 21),
    ]


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=40))
def test_parse_play_raises_only_move_errors_on_any_text(text: str) -> None:
    with contextlib.suppress(InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        START.parse_play(text, (6, 5))


_MOVE_ALPHABET = st.sampled_from([*list("0123456789/-*() ,"), "bar", "off", "b", "o", "25"])


@settings(max_examples=600, deadline=None)
@given(st.lists(_MOVE_ALPHABET, max_size=16).map("".join), st.integers(1, 6), st.integers(1, 6))
def test_parse_play_on_move_like_text(text: str, d1: int, d2: int) -> None:
    for position in (START, Position.from_points({25: 2, 6: 13}, {5: 2, 6: 13})):
        try:
            play = position.parse_play(text, (d1, d2))
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
            continue
        assert play in position.legal_plays(d1, d2)
