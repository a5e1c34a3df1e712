"""XGIDs: documented examples field by field, round trips, and gnubg's own ``set xgid`` as the
oracle of what each field means."""

from __future__ import annotations

import dataclasses

import gnubg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.errors import PositionTextError
from bot.rules.pasted import PastedPosition, read_position
from bot.rules.position import Position
from bot.rules.xgid import Xgid, decode_xgid, encode_xgid, position_string
from tests.rules.pasted_states import boards, pasted_positions

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def side(points: dict[int, int]) -> tuple[int, ...]:
    """25 counts from ``{point: checkers}`` (25 = the bar)."""
    return tuple(points.get(index + 1, 0) for index in range(25))


def test_the_starting_position_field_by_field() -> None:
    xgid = decode_xgid(START)
    assert xgid == Xgid(bottom=START_SIDE, top=START_SIDE)  # every other field its default
    assert (xgid.cube_log2, xgid.cube_position, xgid.turn, xgid.dice_field) == (0, 0, 1, "00")
    assert (xgid.score_bottom, xgid.score_top, xgid.rules, xgid.length) == (0, 0, 0, 0)
    assert xgid.max_cube_log2 == 10
    assert encode_xgid(xgid) == START
    pasted = read_position(START)
    assert pasted.position == Position.initial()
    assert pasted.on_roll == 1  # X, gnubg's player 1
    assert pasted.gnubg_id() == "4HPwATDgc/ABMA:cAkAAAAAAAAE"  # what gnubg's set xgid makes


def test_a_match_position_field_by_field() -> None:
    # O to play 6-3 at 0-0 in a 3-point match, X owning a 2-cube; XG's cube limit 2^8.
    text = "XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8"
    xgid = decode_xgid(text)
    assert xgid.bottom == side({3: 2, 6: 5, 8: 2, 13: 4, 14: 2})  # X, on X's own points
    # O's checkers on X's points 1, 10, 12, 17, 19, 20, 21 are O's 24, 15, 13, 8, 6, 5, 4
    assert xgid.top == side({24: 1, 15: 1, 13: 4, 8: 2, 6: 2, 5: 3, 4: 2})
    assert (xgid.cube_log2, xgid.cube_position, xgid.turn) == (1, 1, -1)
    assert (xgid.dice, xgid.offer) == ((6, 3), "")
    assert (xgid.score_bottom, xgid.score_top, xgid.rules, xgid.length) == (0, 0, 0, 3)
    assert xgid.max_cube_log2 == 8
    assert encode_xgid(xgid) == text

    pasted = read_position(text)
    assert pasted.on_roll == 0  # O
    assert pasted.position.mover == xgid.top
    assert (pasted.cube, pasted.cube_owner, pasted.dice) == (2, 1, (6, 3))
    assert (pasted.length, pasted.score, pasted.crawford, pasted.max_cube) == (
        3,
        (0, 0),
        False,
        256,
    )
    assert pasted.xgid() == text


def test_the_eighth_field_means_crawford_in_a_match_and_jacoby_beavers_for_money() -> None:
    board = "-b----E-C---eE---c-e----B-"
    crawford = read_position(f"XGID={board}:0:0:1:00:4:2:1:5:10")
    assert crawford.crawford and crawford.score == (2, 4)  # (O, X): X leads 4-2
    assert not read_position(f"XGID={board}:0:0:1:00:4:2:0:5:10").crawford
    money = {rules: read_position(f"XGID={board}:0:0:1:00:0:0:{rules}:0:10") for rules in range(4)}
    assert [(p.jacoby, p.beavers) for p in money.values()] == [
        (False, False),
        (True, False),
        (False, True),
        (True, True),
    ]


def test_the_larger_die_comes_first_as_gnubg_writes_it() -> None:
    pasted = read_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:13:0:0:0:0:10")
    assert pasted.dice == (3, 1)
    assert pasted.xgid() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


def test_a_double_offered_belongs_to_the_player_on_turn() -> None:
    pasted = read_position("XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:2:1:0:7:10")
    assert pasted.doubled and pasted.on_roll == 0  # O doubled to 4...
    assert pasted.turn == 1 and pasted.cube == 2  # ...X must take or pass
    assert pasted.phase == "doubled"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "10 fields"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "26 characters"),
        ("XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "O's bar"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10", "the dice"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "field 2"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube position"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", "X has 29 checkers"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10", "Crawford"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "0-3"),
        ("XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10", "32768"),
        ("XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:2:0:10", "beaver"),
        ("XGID=-b----E-C---eE---c-e----B-:1:0:1:R:0:0:2:0:10", "raccoon"),
        ("XGID=-b----E-C---eE---c-e----B-:0:1:1:00:0:0:0:0:10", "cube of 1"),
        ("XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:0:0:0:0:10", "O owns the cube"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", "already won"),
        ("XGID=-b----E-C---eE---c-e----B-:1:0:1:00:6:0:1:7:10", "no cube in the Crawford"),
        ("XGID=-b----------e----c-e------:0:0:1:00:0:0:0:0:10", "X has no checkers left"),
    ],
)
def test_bad_xgids_say_what_is_wrong_and_quote_the_text(text: str, reason: str) -> None:
    with pytest.raises(PositionTextError) as raised:
        read_position(text)
    message = str(raised.value)
    assert reason in message
    assert "(you typed 'XGID=" in message


# -- round trips ---------------------------------------------------------------------------------


@st.composite
def xgids(draw: st.DrawFn) -> Xgid:
    board = draw(boards())
    dice = draw(st.tuples(st.integers(1, 6), st.integers(1, 6)) | st.just((0, 0)))
    offer = "" if dice != (0, 0) else draw(st.sampled_from(("", "D", "B", "R")))
    numbers = st.integers(0, 99)
    return Xgid(
        board.mover,
        board.opponent,
        draw(st.integers(0, 15)),
        draw(st.integers(-1, 1)),
        draw(st.sampled_from((-1, 1))),
        dice,
        offer,
        draw(numbers),
        draw(numbers),
        draw(st.integers(0, 3)),
        draw(numbers),
        draw(st.integers(0, 15)),
    )


@given(xgids())
def test_fields_survive_writing_and_reading(xgid: Xgid) -> None:
    text = encode_xgid(xgid)
    assert decode_xgid(text) == xgid
    assert decode_xgid(text.removeprefix("XGID=")) == xgid
    assert len(position_string(xgid.bottom, xgid.top)) == 26


@given(pasted_positions())
def test_positions_survive_both_ids(pasted: PastedPosition) -> None:
    assert read_position(pasted.xgid()) == pasted
    # A gnubg ID carries neither beavers nor XG's cube limit.
    plain = dataclasses.replace(pasted, beavers=False, max_cube=1024)
    assert read_position(pasted.gnubg_id()) == plain
    assert read_position(f"`{pasted.gnubg_id()}`") == plain


# -- gnubg's reading of the same XGID ------------------------------------------------------------


def gnubg_reading(xgid: str) -> str:
    """``PositionID:MatchID`` of the state gnubg's ``set xgid`` sets up."""
    gnubg.command(f"set xgid {xgid}")
    return f"{gnubg.positionid()}:{gnubg.matchid()}"


def as_gnubg_sets_it(pasted: PastedPosition) -> PastedPosition:
    """gnubg steps back from a double offered (its Match IDs can't hold one), and swaps the
    players so that the one on roll is its player 1 (the bottom, X)."""
    pasted = pasted.before_double()
    if pasted.on_roll == 1:
        return pasted
    owner = None if pasted.cube_owner is None else 1 - pasted.cube_owner
    return dataclasses.replace(
        pasted, on_roll=1, cube_owner=owner, score=(pasted.score[1], pasted.score[0])
    )


@settings(max_examples=400, deadline=None)
@given(pasted_positions())
def test_gnubg_reads_each_xgid_as_we_do(pasted: PastedPosition) -> None:
    assert gnubg_reading(pasted.xgid()) == as_gnubg_sets_it(pasted).gnubg_id()
