"""A match restored from its snapshot plays on exactly like the match replayed from its actions."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from bot.rules import (
    Match,
    MatchError,
    PartialRecordError,
    ScriptedDice,
    SnapshotError,
    VerifiableDice,
)
from bot.rules.randomplay import Policy, random_states
from bot.rules.state import last_play_event, state_fields

SNAPSHOT_LIMIT = 2048  # bytes of JSON, at any point of any match

CASES: list[tuple[int, int, Policy, dict[str, Any]]] = [
    (1, 1, Policy(), {}),
    (2, 3, Policy(resign=0.03, double=0.2), {}),
    (3, 5, Policy(double=0.1, drop=0.2), {}),
    (4, 7, Policy(resign=0.02, accept=0.2), {"crawford": False}),
    (
        5,
        0,
        Policy(double=0.2, drop=0.1, beaver=0.4),
        {"jacoby": True, "beavers": True, "automatic_doubles": 3},
    ),
    (6, 0, Policy(resign=0.05, accept=0.3), {"jacoby": True, "automatic_doubles": 1}),
    (7, 0, Policy(double=0.3, drop=0.0, beaver=0.5), {"beavers": True}),
    (8, 25, Policy(double=0.02, drop=0.5), {}),
]


def through_json(match: Match) -> Match:
    """``match`` stored as its snapshot's JSON text and restored."""
    text = json.dumps(match.snapshot(), separators=(",", ":"))
    return Match.from_snapshot(json.loads(text), match.dice_source)


def assert_same_state(restored: Match, replayed: Match) -> None:
    for name in state_fields():
        assert getattr(restored, name) == getattr(replayed, name), name
    assert restored.action_count == replayed.action_count == len(replayed.actions)
    assert restored.games[-1:] == replayed.games[-1:]
    assert last_play_event(restored.record) == last_play_event(replayed.record)
    assert restored.legal_plays() == replayed.legal_plays()
    assert restored.gnubg_id() == replayed.gnubg_id()
    assert restored.turn == replayed.turn
    assert restored.offered_cube == replayed.offered_cube
    assert restored.pip_counts() == replayed.pip_counts()
    assert [restored.can_double(p) for p in (0, 1)] == [replayed.can_double(p) for p in (0, 1)]
    assert restored.snapshot() == replayed.snapshot()


@pytest.mark.parametrize(("seed", "length", "policy", "options"), CASES)
def test_every_step_restored_plays_on_like_the_replay(
    seed: int, length: int, policy: Policy, options: dict[str, Any]
) -> None:
    states = list(random_states(seed, length, policy, **options))
    assert states[-1].is_over
    restored_chain = through_json(states[0])  # restored once, then played on to the end
    for index, replayed in enumerate(states):
        restored = through_json(replayed)
        assert_same_state(restored, replayed)
        assert_same_state(restored_chain, replayed)
        assert not restored.events
        if index + 1 < len(states):
            following = states[index + 1]
            action = following.actions[-1]
            for match in (restored.apply(action), restored_chain.apply(action)):
                assert match.events == following.events
                assert_same_state(match, following)
            restored_chain = restored_chain.apply(action)
    assert restored_chain.games[-1] == states[-1].games[-1]
    assert restored_chain.actions == states[-1].actions
    assert restored_chain.earlier_actions == 0


ANSWERS: list[Callable[[Match, int], Match]] = [
    Match.roll,
    Match.double,
    Match.take,
    Match.drop,
    Match.beaver,
    Match.accept_resignation,
    Match.reject_resignation,
    lambda match, player: match.resign(player, 2),
    lambda match, player: match.move(player, "24/23"),
]


def outcome(act: Callable[[Match, int], Match], match: Match, player: int) -> object:
    try:
        after = act(match, player)
    except MatchError as error:  # move errors too are ValueErrors with a message
        return type(error), str(error)
    except ValueError as error:
        return type(error), str(error)
    return after.snapshot(), after.events


@pytest.mark.parametrize(("seed", "length", "policy", "options"), CASES[1:7:2])
def test_every_action_is_taken_or_refused_alike(
    seed: int, length: int, policy: Policy, options: dict[str, Any]
) -> None:
    for replayed in random_states(seed, length, policy, **options):
        restored = through_json(replayed)
        for act in ANSWERS:
            for player in (0, 1):
                assert outcome(act, restored, player) == outcome(act, replayed, player)


def test_snapshot_stays_small_through_a_long_match() -> None:
    largest, finals = 0, []
    for seed, policy in ((11, Policy(double=0.0)), (12, Policy(double=0.1, drop=0.3))):
        for match in random_states(seed, 25, policy):
            largest = max(largest, len(json.dumps(match.snapshot())))
        assert match.is_over and len(match.actions) > 250
        finals.append(match)
    assert finals[0].game_number > 15 and finals[1].cube_value >= 16  # many games; high cubes
    assert largest < SNAPSHOT_LIMIT


def test_a_restored_match_refuses_what_needs_the_whole_record() -> None:
    replayed = list(random_states(2, 3))[40]
    restored = through_json(replayed)
    assert replayed.has_full_record and not restored.has_full_record
    with pytest.raises(PartialRecordError, match="replay its actions"):
        restored.to_data()
    with pytest.raises(PartialRecordError, match=r"\.mat record"):
        restored.to_mat()
    assert "replayed" not in replayed.to_mat()  # the replayed match still writes both
    assert Match.from_data(replayed.to_data()).snapshot() == restored.snapshot()


def test_the_board_mark_survives_a_no_legal_move_and_stops_at_a_new_game() -> None:
    # Random play meets both: a dance after a play, and a new game after a finished one.
    seen_no_move = seen_new_game = False
    for replayed in random_states(21, 5, Policy(double=0.0)):
        restored = through_json(replayed)
        mark = last_play_event(replayed.record)
        assert last_play_event(restored.record) == mark
        events = replayed.events
        if any(getattr(e, "play", "") == "no legal move" for e in events) and mark:
            seen_no_move = True
        if any(e.kind == "game_started" for e in events):
            seen_new_game = seen_new_game or replayed.game_number > 1
    assert seen_no_move and seen_new_game


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 9}, "unknown match snapshot format 9"),
        ({"actions": -1}, "action count"),
        ({"position": "not an id"}, "damaged"),
        ({"last_play": {"event": "game_over"}}, "damaged"),
        ({"last_game": {"event": "rolled", "player": 0, "dice": [3, 1]}}, "game_over is a rolled"),
    ],
)
def test_a_damaged_snapshot_is_refused(change: dict[str, Any], message: str) -> None:
    data = Match.start(3, dice=VerifiableDice.seeded(1)).snapshot() | change
    with pytest.raises(SnapshotError, match=message):
        Match.from_snapshot(data, VerifiableDice.seeded(1))


def test_a_snapshot_without_a_field_is_refused() -> None:
    data = Match.start(3, dice=ScriptedDice.rolls("31", "62")).snapshot()
    del data["cube_value"]
    with pytest.raises(SnapshotError, match="cube_value"):
        Match.from_snapshot(data, ScriptedDice.rolls("31", "62"))


@pytest.mark.parametrize(("seed", "length", "policy", "options"), CASES)
def test_compacted_is_the_match_restored_from_its_snapshot(
    seed: int, length: int, policy: Policy, options: dict[str, Any]
) -> None:
    """:meth:`Match.compacted` skips the round trip through the snapshot's data: the same match,
    field for field (the legal plays kept), and it plays on the same."""
    states = list(random_states(seed, length, policy, **options))
    for index, replayed in enumerate(states):
        compact = replayed.compacted()
        restored = through_json(replayed)
        assert compact == restored
        assert compact.legal_plays() == restored.legal_plays()
        assert compact.compacted() == restored
        if index + 1 < len(states):
            action = states[index + 1].actions[-1]
            assert compact.apply(action) == restored.apply(action)


@pytest.mark.parametrize(("seed", "length", "policy", "options"), CASES[:3])
def test_a_snapshot_is_plain_json_data(
    seed: int, length: int, policy: Policy, options: dict[str, Any]
) -> None:
    """Every state field is written as JSON reads it back (no tuple left as a tuple): the store
    compares a stored snapshot with a replayed match's by their data."""
    for match in random_states(seed, length, policy, **options):
        data = match.snapshot()
        assert json.loads(json.dumps(data)) == data
        assert set(state_fields()) <= data.keys()
