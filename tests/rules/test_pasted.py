"""Reading pasted gnubg IDs in each form people paste them, and gnubg's own encoders (and the
bot's matches) as the oracle of the IDs written back."""

from __future__ import annotations

import dataclasses

import gnubg
import pytest
from hypothesis import given, settings

from bot.rules.errors import PositionTextError
from bot.rules.pasted import PastedPosition, read_position
from bot.rules.position import Position
from bot.rules.randomplay import Policy, random_states
from tests.rules.pasted_states import pasted_positions

START_ID = "4HPwATDgc/ABMA"
# gnubg's examples (shared/gnubg-notes.md): 7-point match, 0-0, player 0 on roll, rolled 3-1;
# a 5-point match at 4-2, the Crawford game, player 1 on roll.
ROLLED = "MIHlAAAAAAAE"
CRAWFORD = "8AmgAEAAEAAE"


@pytest.mark.parametrize(
    "text",
    [
        f"{START_ID}:{ROLLED}",
        f" `{START_ID}:{ROLLED}` ",
        f"{START_ID} {ROLLED}",
        f"{START_ID} : {ROLLED}",
        f"Position ID: {START_ID} Match ID: {ROLLED}",
        f" GNU Backgammon  Position ID: {START_ID}\n                 Match ID   : {ROLLED}\n",
    ],
)
def test_every_form_of_a_gnubg_id(text: str) -> None:
    pasted = read_position(text)
    assert pasted == PastedPosition(Position.initial(), on_roll=0, dice=(3, 1), length=7)
    assert pasted.gnubg_id() == f"{START_ID}:{ROLLED}"


def test_a_position_id_alone_is_a_money_game_with_x_to_roll() -> None:
    pasted = read_position(START_ID)
    assert pasted == PastedPosition(Position.initial(), on_roll=1)
    assert pasted.phase == "roll" and pasted.pip_counts() == (167, 167)


def test_the_crawford_example() -> None:
    pasted = read_position(f"{START_ID}:{CRAWFORD}")
    assert (pasted.on_roll, pasted.length, pasted.score, pasted.crawford) == (1, 5, (4, 2), True)
    assert pasted.xgid() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:1:5:10"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no position after the command"),
        ("hello there", "not a position the bot can read"),
        ("4HPwATDgc/ABM", "not a position the bot can read"),
        ("////////////// MIHlAAAAAAAE", "is not a Position ID"),
        (f"{START_ID}:MAngAAAAAAAE", "Match ID's turn"),  # player 1 to act, 0 on roll
        (f"{START_ID}:MIHhAAAAAAAE", "one die"),
        (f"Position ID: {START_ID} Match ID: MIHlAAAA", "is not a Match ID"),
        (f"{START_ID}:AQxgADAACAAE", "not in play"),  # a 3-point match over on a drop
        (f"{START_ID}:cEEXAAAAAAAA", "resignation"),
        ("AAAAAAAAAAAAAA", "no checkers left"),
    ],
)
def test_bad_gnubg_ids_say_what_is_wrong(text: str, reason: str) -> None:
    with pytest.raises(PositionTextError) as raised:
        read_position(text)
    assert reason in str(raised.value)
    if text.strip():
        assert "(you typed '" in str(raised.value)


def test_a_position_id_with_both_sides_on_one_point_is_refused() -> None:
    # Player on roll with a checker on its 1-point, the other on its 24-point: the same point.
    board = [[0] * 25, [0] * 25]
    board[1][0] = board[0][23] = 1
    with pytest.raises(PositionTextError, match="both players have checkers on point 1"):
        read_position(gnubg.position_id(board))


def test_the_state_is_checked_when_built() -> None:
    with pytest.raises(ValueError, match="no cube in the Crawford game"):
        PastedPosition(
            Position.initial(), length=5, score=(4, 0), crawford=True, cube=2, cube_owner=0
        )
    with pytest.raises(ValueError, match="money games"):
        PastedPosition(Position.initial(), length=5, jacoby=True)


# -- gnubg's own encoders ------------------------------------------------------------------------


def gnubg_ids(pasted: PastedPosition) -> str:
    board = [list(pasted.position.opponent), list(pasted.position.mover)]
    owner = -1 if pasted.cube_owner is None else pasted.cube_owner
    cube = gnubg.cubeinfo(
        pasted.cube, owner, pasted.on_roll, pasted.length, pasted.score, int(pasted.crawford), 0
    )
    cube = {**cube, "jacoby": int(pasted.jacoby), "score": pasted.score}  # money: a session's
    state = gnubg.posinfo(pasted.turn, 0, int(pasted.doubled), 1, pasted.dice or (0, 0))
    return f"{gnubg.position_id(board)}:{gnubg.match_id(cube, state)}"


@settings(max_examples=500, deadline=None)
@given(pasted_positions())
def test_ids_agree_with_gnubgs_encoders(pasted: PastedPosition) -> None:
    assert pasted.gnubg_id() == gnubg_ids(pasted)


def test_every_state_in_play_of_random_matches_reads_back() -> None:
    read = 0
    cases = [(5, {}), (0, {"jacoby": True}), (7, {})]
    for seed in range(9):
        length, options = cases[seed % len(cases)]
        policy = Policy(resign=0.0, double=0.15, drop=0.3)
        for match in random_states(seed, length, policy, **options):
            if match.phase not in ("roll", "move", "doubled"):
                continue
            pasted = read_position(match.gnubg_id())
            assert pasted.gnubg_id() == match.gnubg_id()
            assert pasted.position == match.position
            assert pasted.pip_counts() == match.pip_counts()
            assert (pasted.on_roll, pasted.phase) == (match.on_roll, match.phase)
            assert read_position(pasted.xgid()) == pasted
            read += 1
    assert read > 500


def test_before_double_is_the_doublers_turn() -> None:
    pasted = read_position("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:0:10")
    before = pasted.before_double()
    assert (before.doubled, before.turn, before.phase) == (False, 1, "roll")
    assert dataclasses.replace(before, doubled=True) == pasted
