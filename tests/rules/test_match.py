"""Match play: the cube, scoring, Crawford, resignations, the options, refusals and replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

import pytest

from bot.rules import (
    DEFAULT_AUTOMATIC_DOUBLES,
    MAX_AUTOMATIC_DOUBLES,
    Action,
    Beavered,
    Doubled,
    Dropped,
    GameOver,
    GameStarted,
    IllegalActionError,
    Match,
    MatchError,
    MatchOptions,
    MatchOptionsError,
    MatchOver,
    MatchOverError,
    Moved,
    MoveError,
    NotYourTurnError,
    OpeningRoll,
    Play,
    Position,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    ScriptedDice,
    Took,
    VerifiableDice,
)
from bot.rules.match import MAX_CUBE
from bot.rules.randomplay import Policy, random_match, random_states
from bot.rules.state import evolved
from tests.rules.matchplay import set_up

# -- how games end ---------------------------------------------------------------------------

# Player 0 (on roll) has one checker left on their 1-point; a 6-5 bears it off by itself.
LAST_CHECKER = {1: 1}
ENDINGS = {
    # opponent's side, from its own point of view (25 = bar)
    "single": ({6: 5}, 1),
    "gammon": ({12: 15}, 2),
    "backgammon": ({19: 1, 12: 14}, 3),  # a checker in the winner's home board
}


@pytest.mark.parametrize("length", [0, 15])
@pytest.mark.parametrize(("cube", "owner"), [(1, None), (2, 1), (4, 0)])
@pytest.mark.parametrize("result", ["single", "gammon", "backgammon"])
def test_game_won_by_bearing_off_scores_level_times_cube(
    length: int,
    cube: int,
    owner: int | None,
    result: Literal["single", "gammon", "backgammon"],
) -> None:
    opponent, level = ENDINGS[result]
    match = set_up(length, LAST_CHECKER, opponent, rolls=[(6, 5), (4, 2)], cube=cube, owner=owner)
    after = match.roll(0)
    moved = [e for e in after.events if isinstance(e, Moved)]
    assert moved == [Moved(0, (6, 5), "1/off", ((1, 0),), (), forced=True)]
    over = next(e for e in after.events if isinstance(e, GameOver))
    assert over == GameOver(
        1,
        0,
        level * cube,
        result,
        "play",
        cube,
        (level * cube, 0),
    )
    assert after.score == (level * cube, 0)
    if length == 0:
        assert after.phase == "over" and after.winner == 0
        assert after.events[-1] == MatchOver(0, (level * cube, 0))
    else:
        assert after.phase == "move" and after.game_number == 2 and after.winner is None
        assert GameStarted(2, (level * cube, 0), False) in after.events
        assert after.cube_value == 1 and after.cube_owner is None


def test_backgammon_with_a_checker_on_the_bar() -> None:
    match = set_up(0, LAST_CHECKER, {25: 1, 12: 14}, rolls=[(6, 5)])
    after = match.roll(0)
    assert after.games[-1].result == "backgammon" and after.score == (3, 0)


@pytest.mark.parametrize(("cube", "owner"), [(1, None), (2, 0), (4, 0), (2, None)])
def test_drop_scores_the_cube_before_the_double(cube: int, owner: int | None) -> None:
    match = set_up(
        7, {6: 5, 8: 5, 13: 5}, {6: 5, 8: 5, 13: 5}, rolls=[(3, 1)], cube=cube, owner=owner
    )
    doubled = match.double(0)
    assert doubled.phase == "doubled" and doubled.turn == 1 and doubled.on_roll == 0
    assert doubled.offered_cube == cube * 2
    assert doubled.events == (Doubled(0, cube * 2),)
    dropped = doubled.drop(1)
    assert dropped.score == (cube, 0)
    assert dropped.events[:2] == (
        Dropped(1, cube * 2),
        GameOver(1, 0, cube, "single", "drop", cube, (cube, 0)),
    )
    assert dropped.game_number == 2


def test_take_gives_the_taker_the_cube_and_the_doubler_rolls() -> None:
    match = set_up(7, {6: 5, 8: 5, 13: 5}, {6: 5, 8: 5, 13: 5}, rolls=[(3, 1)], cube=2, owner=0)
    taken = match.double(0).take(1)
    assert (taken.cube_value, taken.cube_owner, taken.phase, taken.on_roll) == (4, 1, "roll", 0)
    assert taken.events == (Took(1, 4),)
    assert not taken.can_double(0) and not taken.can_double(1)  # 1 owns it but is not on roll
    rolled = taken.roll(0)
    assert rolled.events[0] == Rolled(0, (3, 1))


# -- a whole scripted match: Crawford, post-Crawford, resignations --------------------------


def test_scripted_three_point_match_with_crawford_and_post_crawford() -> None:
    dice = ScriptedDice.rolls((6, 5), (5, 6), (3, 1), (6, 5), (3, 1), (4, 2))
    match = Match.start(3, dice=dice)
    assert (match.game_number, match.on_roll, match.phase, match.dice) == (1, 0, "move", (6, 5))
    assert match.events == (GameStarted(1, (0, 0), False), OpeningRoll((6, 5), 0, 1))

    # Game 1: player 0 resigns a gammon at once; player 1 leads 2-0 and is 1-away.
    match = match.resign(0, "gammon")
    assert match.phase == "resigned" and match.turn == 1
    assert match.events == (ResignationOffered(0, 2, 2),)
    match = match.accept_resignation(1)
    assert match.score == (0, 2)
    assert match.events[:2] == (
        ResignationAccepted(1, 2, 2),
        GameOver(1, 1, 2, "gammon", "resignation", 1, (0, 2)),
    )

    # Game 2 is the Crawford game: no doubling.
    assert match.crawford and not match.post_crawford and match.game_number == 2
    assert match.events[2] == GameStarted(2, (0, 2), True)
    assert match.on_roll == 1 and match.dice == (6, 5)
    match = match.move(1, "24/18 13/8")
    assert match.phase == "roll" and match.on_roll == 0
    assert not match.can_double(0)
    with pytest.raises(IllegalActionError, match="Crawford"):
        match.double(0)
    match = match.roll(0).move(0, "8/5 6/5")
    assert not match.can_double(1)
    match = match.resign(1, 1).accept_resignation(0)
    assert match.score == (1, 2)

    # Game 3 is post-Crawford: the trailer may double, the leader's cube is dead.
    assert not match.crawford and match.post_crawford and match.game_number == 3
    match = match.move(0, "24/18 13/8")
    assert not match.can_double(1)
    with pytest.raises(IllegalActionError, match="dead"):
        match.double(1)
    match = match.roll(1).move(1, "8/5 6/5")
    assert match.can_double(0)
    match = match.double(0).take(1)
    assert (match.cube_value, match.cube_owner) == (2, 1)
    match = match.roll(0).move(0, "8/4 6/4")
    assert not match.can_double(1)  # owns the cube, but 2 + 2 >= 3
    match = match.resign(1, "single").accept_resignation(0)
    assert match.score == (3, 2) and match.winner == 0 and match.phase == "over"
    assert match.events[-2:] == (
        GameOver(3, 0, 2, "single", "resignation", 2, (3, 2)),
        MatchOver(0, (3, 2)),
    )
    assert [game.points for game in match.games] == [2, 1, 2]


def test_crawford_off_allows_doubling_at_one_away() -> None:
    match = Match.start(3, crawford=False, dice=ScriptedDice.rolls((6, 5), (5, 6), (3, 1)))
    match = match.resign(0, 2).accept_resignation(1)
    assert not match.crawford and match.score == (0, 2)
    match = match.move(1, "24/18 13/8")
    assert match.can_double(0)


def test_money_game_ends_on_a_drop() -> None:
    # In match play a live cube means a drop never ends the match; a money game does.
    match = Match.start(0, dice=ScriptedDice.rolls((6, 5)))
    match = match.move(0, "24/13").double(1).drop(0)
    assert match.phase == "over" and match.winner == 1 and match.score == (0, 1)
    assert match.events[-1] == MatchOver(1, (0, 1))
    assert match.revealed_seed is not None


def test_match_can_never_end_on_a_drop_because_of_the_live_cube() -> None:
    for match in random_states(7, 3, Policy(double=0.5, drop=0.9)):
        if match.is_over:
            assert match.games[-1].by != "drop"


# -- money-game options ----------------------------------------------------------------------


def test_beaver_redoubles_and_keeps_the_cube() -> None:
    match = Match.start(0, beavers=True, dice=ScriptedDice.rolls((6, 5), (3, 1)))
    match = match.move(0, "24/13").double(1)
    beavered = match.beaver(0)
    assert (beavered.cube_value, beavered.cube_owner) == (4, 0)
    assert (beavered.phase, beavered.on_roll, beavered.turn) == ("roll", 1, 1)
    assert beavered.events == (Beavered(0, 4),)
    assert not beavered.can_double(1)
    rolled = beavered.roll(1)
    assert rolled.dice == (3, 1)
    over = rolled.resign(1, 1).accept_resignation(0)
    assert over.score == (4, 0) and over.winner == 0


@pytest.mark.parametrize(
    ("length", "beavers", "message"), [(0, False, "not allowed"), (5, False, "money")]
)
def test_beaver_refused_unless_enabled(length: int, beavers: bool, message: str) -> None:
    match = Match.start(length, beavers=beavers, dice=ScriptedDice.rolls((6, 5)))
    match = match.move(0, "24/13").double(1)
    with pytest.raises(IllegalActionError, match=message):
        match.beaver(0)


@pytest.mark.parametrize(
    ("jacoby", "cube", "owner", "points", "flag"),
    [
        (True, 1, None, 1, True),  # gammon counts single on a centred cube
        (True, 2, 1, 4, False),  # the cube was turned: gammons count
        (False, 1, None, 2, False),
    ],
)
def test_jacoby_rule(jacoby: bool, cube: int, owner: int | None, points: int, flag: bool) -> None:
    match = set_up(0, LAST_CHECKER, {12: 15}, rolls=[(6, 5)], cube=cube, owner=owner, jacoby=jacoby)
    after = match.roll(0)
    over = after.games[-1]
    assert (over.result, over.points, over.jacoby) == ("gammon", points, flag)
    assert after.score == (points, 0)


def test_jacoby_does_not_reduce_a_resigned_gammon() -> None:
    # As in gnubg: an accepted resignation scores its level times the cube.
    match = Match.start(0, jacoby=True, dice=ScriptedDice.rolls((6, 5)))
    assert match.resign(0, "gammon").accept_resignation(1).score == (0, 2)


def test_automatic_doubles_turn_the_cube_on_equal_opening_dice_up_to_the_limit() -> None:
    dice = ScriptedDice.rolls((3, 3), (4, 4), (2, 2), (5, 6))
    match = Match.start(0, automatic_doubles=2, dice=dice)
    openings = [e for e in match.events if isinstance(e, OpeningRoll)]
    assert openings == [
        OpeningRoll((3, 3), None, 2, True),
        OpeningRoll((4, 4), None, 4, True),
        OpeningRoll((2, 2), None, 4, False),
        OpeningRoll((5, 6), 1, 4),
    ]
    assert (match.cube_value, match.cube_owner, match.on_roll, match.dice) == (4, None, 1, (6, 5))
    assert match.auto_doubles == 2
    assert match.resign(1).accept_resignation(0).score == (4, 0)


def test_automatic_doubles_off_and_true() -> None:
    # Three tied opening rolls: ``True`` is the house rule of one automatic double a game, so
    # the cube stops at 2 (it used to reach 8 before anyone moved).
    dice = ScriptedDice.rolls((3, 3), (4, 4), (1, 1), (2, 2), (5, 6))
    assert Match.start(0, dice=dice).cube_value == 1
    match = Match.start(0, automatic_doubles=True, dice=dice)
    assert (match.cube_value, match.auto_doubles) == (2, 1)
    assert match.options.automatic_doubles == DEFAULT_AUTOMATIC_DOUBLES == 1
    assert match.options.to_data()["automatic_doubles"] == 1
    capped = Match.start(0, automatic_doubles=MAX_AUTOMATIC_DOUBLES, dice=dice)
    assert capped.cube_value == 8


@pytest.mark.parametrize("count", [-1, 4, 64, 2.5, "1", None])
def test_automatic_doubles_are_zero_to_three(count: object) -> None:
    with pytest.raises(
        MatchOptionsError,
        match=r"automatic doubles are how many per game: "
        r"0 \(off\) to 3, not",
    ):
        Match.start(0, automatic_doubles=count)  # type: ignore[arg-type]


def test_stored_automatic_doubles_replay_as_they_were_played() -> None:
    # A row stored before ``True`` meant one: its 3 is kept, not read as "on".
    dice = ScriptedDice.rolls((3, 3), (4, 4), (1, 1), (2, 2), (5, 6), (2, 1))
    stored = {
        "format": 1,
        "options": {
            "length": 0,
            "crawford": False,
            "jacoby": False,
            "beavers": False,
            "automatic_doubles": 3,
        },
        "dice": dice.to_data(),
        "actions": [{"action": "move", "player": 1, "play": "13/7 13/8"}],
    }
    match = Match.from_data(stored)
    assert (match.options.automatic_doubles, match.cube_value, match.auto_doubles) == (3, 8, 3)
    assert match.to_data()["options"] == stored["options"]
    assert Match.from_data(json.loads(json.dumps(match.to_data()))) == match


@pytest.mark.parametrize("option", ["jacoby", "beavers", "automatic_doubles"])
def test_money_options_are_refused_in_match_play(option: str) -> None:
    with pytest.raises(ValueError, match="money"):
        options: dict[str, Any] = {option: True}
        Match.start(5, **options)


@pytest.mark.parametrize("length", [-1, 65, 2.5, True])
def test_bad_lengths(length: object) -> None:
    with pytest.raises(ValueError):
        MatchOptions(length=length)  # type: ignore[arg-type]


# -- resignations ------------------------------------------------------------------------------


def test_rejected_resignation_resumes_where_it_was() -> None:
    match = Match.start(5, dice=ScriptedDice.rolls((6, 5), (2, 1)))
    offered = match.resign(0, "backgammon")
    assert offered.resignation == 3 and offered.turn == 1
    back = offered.reject_resignation(1)
    assert back.events == (ResignationRejected(1, 3),)
    assert (back.phase, back.dice, back.resignation, back.turn) == ("move", (6, 5), 0, 0)
    assert back.legal_plays() == match.legal_plays()
    before_roll = back.move(0, "24/13")
    resumed = before_roll.resign(1, 1).reject_resignation(0)
    assert (resumed.phase, resumed.dice, resumed.on_roll) == ("roll", None, 1)
    assert resumed.roll(1).dice == (2, 1)


@pytest.mark.parametrize(
    ("level", "points"), [("single", 2), ("gammon", 4), ("backgammon", 6), (2, 4)]
)
def test_accepted_resignation_scores_level_times_cube(level: str | int, points: int) -> None:
    match = set_up(9, {6: 5, 8: 5, 13: 5}, {6: 5, 8: 5, 13: 5}, rolls=[(3, 1)], cube=2, owner=1)
    over = match.resign(0, level).accept_resignation(1)
    assert over.score == (0, points)
    assert over.games[-1].by == "resignation"


@pytest.mark.parametrize("level", [0, 4, "all", True])
def test_bad_resignation_levels(level: object) -> None:
    match = Match.start(5, dice=ScriptedDice.rolls((6, 5)))
    with pytest.raises(IllegalActionError):
        match.resign(0, level)  # type: ignore[arg-type]


# -- forced plays and no legal play -----------------------------------------------------------


def test_no_legal_move_happens_by_itself() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}  # the opponent's home board is closed
    match = set_up(5, {25: 1, 6: 14}, closed, rolls=[(6, 5)])
    after = match.roll(0)
    assert after.events == (
        Rolled(0, (6, 5)),
        Moved(0, (6, 5), "no legal move", (), (), forced=True),
    )
    assert after.events[1].no_legal_move
    assert (after.phase, after.on_roll) == ("roll", 1)


def test_forced_play_happens_by_itself() -> None:
    # only the opponent's 6-point is open, and our 13 (their 12) is closed
    nearly = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 12: 2, 13: 3}
    match = set_up(5, {25: 1, 6: 14}, nearly, rolls=[(6, 6)])
    after = match.roll(0)
    moved = after.events[1]
    assert isinstance(moved, Moved) and moved.forced and moved.play == "bar/19"
    assert after.on_roll == 1


# -- refusals ---------------------------------------------------------------------------------

Attempt = Callable[[Match, int], Match]
ATTEMPTS: dict[str, Attempt] = {
    "roll": lambda m, p: m.roll(p),
    "move": lambda m, p: m.move(p, m.legal_plays()[0].notation if m.legal_plays() else "24/13"),
    "double": lambda m, p: m.double(p),
    "take": lambda m, p: m.take(p),
    "drop": lambda m, p: m.drop(p),
    "beaver": lambda m, p: m.beaver(p),
    "resign": lambda m, p: m.resign(p, 1),
    "accept": lambda m, p: m.accept_resignation(p),
    "reject": lambda m, p: m.reject_resignation(p),
}
# (phase, player relative to the one on roll) -> the actions allowed
ALLOWED = {
    ("roll", 0): {"roll", "double", "resign"},
    ("move", 0): {"move", "resign"},
    ("doubled", 1): {"take", "drop", "beaver"},
    ("resigned", 1): {"accept", "reject"},
}


def _phases() -> list[Match]:
    roll = Match.start(0, beavers=True, dice=ScriptedDice.rolls((6, 5), (3, 1), (2, 2)))
    roll = roll.move(0, "24/13")  # player 1 to roll
    move = roll.roll(1)
    doubled = roll.double(1)
    resigned = move.resign(1, 2)
    over = resigned.accept_resignation(0)
    return [roll, move, doubled, resigned, over]


@pytest.mark.parametrize("state", _phases(), ids=lambda m: m.phase)
@pytest.mark.parametrize("relative", [0, 1])
@pytest.mark.parametrize("action", sorted(ATTEMPTS))
def test_every_action_in_every_phase(state: Match, relative: int, action: str) -> None:
    player = state.on_roll if relative == 0 else 1 - state.on_roll
    snapshot = state.to_data()
    allowed = ALLOWED.get((state.phase, relative), set())
    if action in allowed:
        after = ATTEMPTS[action](state, player)
        assert after != state and after.actions[-1].kind == action
        return
    with pytest.raises(MatchError) as caught:
        ATTEMPTS[action](state, player)
    message = str(caught.value)
    assert message and len(message) < 100
    if state.phase == "over":
        assert isinstance(caught.value, MatchOverError)
    assert state.to_data() == snapshot  # nothing changed


def test_refusal_messages() -> None:
    match = Match.start(5, dice=ScriptedDice.rolls((6, 5), (3, 1), (4, 2)))
    with pytest.raises(NotYourTurnError, match="not your turn to move"):
        match.move(1, "24/13")
    with pytest.raises(IllegalActionError, match="already rolled 6-5"):
        match.roll(0)
    with pytest.raises(IllegalActionError, match="no double to take"):
        match.take(1)
    match = match.move(0, "24/13")
    with pytest.raises(NotYourTurnError, match="not your turn to roll"):
        match.roll(0)
    with pytest.raises(IllegalActionError, match="roll the dice before you move"):
        match.move(1, "24/13")
    match = match.double(1).take(0)
    with pytest.raises(IllegalActionError, match="the cube is your opponent's: only they"):
        match.double(1)
    match = match.roll(1).move(1, "8/5 6/5")
    with pytest.raises(NotYourTurnError, match="your own double"):
        match.double(0).take(0)
    with pytest.raises(MatchError, match="0 or 1"):
        match.roll(2)


def test_illegal_plays_raise_move_errors_and_change_nothing() -> None:
    match = Match.start(5, dice=ScriptedDice.rolls((6, 5)))
    for text in ("13/x", "24/14", "6/off"):
        with pytest.raises(MoveError):
            match.move(0, text)
    assert match.phase == "move" and match.actions == ()


# -- record, replay, serialisation ------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "length", "options"),
    [
        (1, 5, {}),
        (2, 7, {}),
        (3, 0, {"jacoby": True, "beavers": True, "automatic_doubles": 3}),
        (4, 3, {"crawford": False}),
    ],
)
def test_replay_of_serialised_record_is_identical(
    seed: int, length: int, options: dict[str, object]
) -> None:
    policy = Policy(resign=0.02, double=0.1, drop=0.3, beaver=0.3, accept=0.5)
    states = list(random_states(seed, length, policy, **options))
    final = states[-1]
    data = json.loads(json.dumps(final.to_data()))
    rebuilt = Match.from_data(data)
    assert rebuilt == final
    assert rebuilt.record == final.record and rebuilt.events == final.events
    assert rebuilt.match_id() == final.match_id()
    # any prefix replays to the state it was
    middle = len(final.actions) // 2
    prefix = Match.replay(final.options, final.dice_source, final.actions[:middle])
    assert prefix == states[middle]


def test_actions_and_events_serialise() -> None:
    match = random_match(5, 3, Policy(resign=0.05, double=0.2))
    for action in match.actions:
        assert Action.from_data(json.loads(json.dumps(action.to_data()))) == action
    for event in match.record:
        data = json.loads(json.dumps(event.to_data()))
        assert data["event"] == event.kind


def test_invariants_over_many_random_matches() -> None:
    for seed in range(40):
        match = random_match(seed, 1 + seed % 9, Policy(resign=0.02, double=0.1, drop=0.4))
        # the score is the sum of the games
        totals = [0, 0]
        for game in match.games:
            totals[game.winner] += game.points
        assert tuple(totals) == match.score
        assert match.winner is not None and match.score[match.winner] >= match.length
        # no double in a Crawford game, and exactly one Crawford game once someone is 1-away
        crawford_games = [e.game for e in match.record if isinstance(e, GameStarted) and e.crawford]
        assert len(crawford_games) <= 1
        game_crawford = False
        for event in match.record:
            if isinstance(event, GameStarted):
                game_crawford = event.crawford
            if isinstance(event, Doubled):
                assert not game_crawford
        # every action is in the log, every roll and play in the record
        assert sum(isinstance(e, (Rolled, Moved)) for e in match.record) >= len(
            [a for a in match.actions if a.kind in ("roll", "move")]
        )


def test_a_long_replay_generates_a_few_play_lists_per_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What makes a replay costly is the generation of legal plays: a replay does it a few times
    per move (reading the play, then playing it), whatever the length of the history; a replay
    that re-checked the history would do it once per earlier move. bench/long_match.py times it."""
    match = random_match(11, 15, Policy(resign=0.0, double=0.03, drop=0.2))
    moves = sum(action.kind == "move" for action in match.actions)
    assert len(match.actions) > 300 and moves > 100
    generated = 0
    generate = Position.legal_plays

    def counted(self: Position, *dice: int) -> list[Play]:
        nonlocal generated
        generated += 1
        return generate(self, *dice)

    monkeypatch.setattr(Position, "legal_plays", counted)
    again = Match.from_data(match.to_data())
    assert again.snapshot() == match.snapshot()
    assert moves <= generated <= 3 * moves


def test_cube_stops_at_its_limit() -> None:
    match = set_up(
        0, {6: 5, 8: 5, 13: 5}, {6: 5, 8: 5, 13: 5}, rolls=[], cube=MAX_CUBE, owner=0, beavers=True
    )
    assert not match.can_double(0)
    with pytest.raises(IllegalActionError, match="limit"):
        match.double(0)
    half = set_up(
        0,
        {6: 5, 8: 5, 13: 5},
        {6: 5, 8: 5, 13: 5},
        rolls=[],
        cube=MAX_CUBE // 2,
        owner=0,
        beavers=True,
    ).double(0)
    with pytest.raises(IllegalActionError, match="above"):
        half.beaver(1)


def test_properties_for_the_ui() -> None:
    dice = VerifiableDice.seeded("ui")
    match = Match.start(7, dice=dice)
    assert match.length == 7 and match.score == (0, 0) and match.game_number == 1
    assert match.commitment == dice.commitment and match.revealed_seed is None
    assert match.turn == match.on_roll and match.phase == "move"
    assert match.position.mover == match.position.initial().mover
    assert match.pip_counts() == (167, 167)
    assert match.gnubg_id() == f"{match.position_id()}:{match.match_id()}"
    assert "VerifiableDice" in repr(dice) and dice.reveal() not in repr(dice)


# -- why there is no cube ------------------------------------------------------------------------

_START = {24: 2, 13: 5, 8: 3, 6: 5}


def _refusal(match: Match, player: int) -> str:
    assert not match.can_double(player)
    with pytest.raises(MatchError) as raised:
        match.double(player)
    return str(raised.value)


@pytest.mark.parametrize("rolled", [False, True])
def test_no_doubling_in_the_crawford_game_whoever_asks_and_when(rolled: bool) -> None:
    match = set_up(5, _START, _START, rolls=[(3, 1)], score=(4, 2), crawford=True)
    match = match.roll(0) if rolled else match
    for player in (0, 1):
        assert _refusal(match, player) == "there is no doubling in the Crawford game"


@pytest.mark.parametrize("rolled", [False, True])
def test_no_doubling_in_a_one_point_match(rolled: bool) -> None:
    match = Match.start(1, dice=ScriptedDice.rolls((6, 5), (3, 1)))
    match = match.move(0, "24/18 13/8")
    match = match.roll(1) if rolled else match
    for player in (0, 1):
        assert _refusal(match, player) == "there is no doubling in a 1-point match"


@pytest.mark.parametrize("rolled", [False, True])
def test_a_dead_cube_says_so_before_and_after_the_roll(rolled: bool) -> None:
    # 5-point match, post-Crawford at 4-1: a single win already gives player 0 the match.
    match = set_up(5, _START, _START, rolls=[(3, 1)], score=(4, 1), post_crawford=True)
    match = match.roll(0) if rolled else match
    assert _refusal(match, 0) == (
        "the cube is dead: winning this game already wins you the "
        "match, so a double can't gain you anything"
    )
    # The trailer's cube is live: they may double on their turn, before rolling.
    played = match.move(0, "8/5 6/5") if rolled else match.roll(0).move(0, "8/5 6/5")
    assert played.can_double(1)


def test_the_opponents_cube_says_whose_it_is_even_after_rolling() -> None:
    match = set_up(7, _START, _START, rolls=[(3, 1)], cube=2, owner=1)
    refusal = "the cube is your opponent's: only they can double now"
    assert _refusal(match, 0) == refusal
    assert _refusal(match.roll(0), 0) == refusal


def test_already_rolled_is_said_only_when_it_is_the_reason() -> None:
    match = set_up(7, _START, _START, rolls=[(3, 1)])
    assert match.can_double(0)
    assert _refusal(match.roll(0), 0) == "you have already rolled: double before you roll"
    assert _refusal(match, 1) == "it is not your turn to double"


def test_the_cube_at_its_limit() -> None:
    match = set_up(0, _START, _START, rolls=[(3, 1)], cube=MAX_CUBE, owner=0)
    assert _refusal(match, 0) == f"the cube is already at {MAX_CUBE}, its limit"


def test_an_evolved_match_equals_the_replaced_one() -> None:
    match = Match.start(3, dice=VerifiableDice.seeded("evolved"))
    changes: dict[str, Any] = {"phase": "doubled", "cube_value": 2, "resignation": 0}
    made = evolved(match, **changes)
    assert made == replace(match, **changes) and type(made) is Match
    assert all(getattr(made, name) is getattr(match, name) for name in ("position", "record"))
    with pytest.raises(TypeError, match="no field"):
        evolved(match, phaze="roll")
