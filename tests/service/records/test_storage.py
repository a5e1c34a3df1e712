"""The codec between a match and its stored parts: state, snapshot and action log."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from bot.rules import Match, VerifiableDice
from bot.rules.dice import DiceKeyError, KeyedDice
from bot.rules.randomplay import Policy, random_states
from bot.service.records import storage
from bot.service.records.storage import StoredMatchError

KEY = b"a test dice key of some length"


class Row:
    """A match row and its log, as the store would keep them."""

    def __init__(self, match: Match) -> None:
        self.state = storage.state_text(match)
        self.snapshot = storage.snapshot_text(match)
        self.log: list[tuple[int, str]] = []
        self.written: list[int] = []
        self.save(match, 0)

    def save(self, match: Match, stored: int) -> None:
        changes = storage.changes(match, stored)
        assert changes.first_seq == len(self.log)
        self.log += [(changes.first_seq + i, text) for i, text in enumerate(changes.actions)]
        self.snapshot = changes.snapshot
        self.written.append(changes.size)


def test_a_match_saved_and_restored_at_every_command_is_the_replayed_match() -> None:
    """The hot path: load from the snapshot, act, save the changes; the log replays exactly."""
    states = list(random_states(5, 7, Policy(double=0.1, resign=0.01)))
    final = states[-1]
    row = Row(states[0])
    for following in states[1:]:
        loaded = storage.restore(row.state, row.snapshot, None)
        after = loaded.apply(following.actions[-1])
        assert after.snapshot() == following.snapshot()
        row.save(after, loaded.action_count)
    replayed = storage.replay(row.state, row.log, None)
    assert replayed.to_data() == final.to_data()
    assert replayed.record == final.record
    assert storage.check(row.snapshot, replayed) == []
    assert max(row.written) < 1000  # a snapshot and one action: no growth with the match


def test_several_actions_in_one_save_and_a_cached_match_saved_again() -> None:
    states = list(random_states(6, 3))
    row = Row(states[0])
    cached = storage.restore(row.state, row.snapshot, None)
    stored = 0
    for step in (3, 10, 11, 40, len(states) - 1):
        for following in states[cached.action_count + 1 : step + 1]:
            cached = cached.apply(following.actions[-1])
        row.save(cached, stored)  # the match kept in memory since it was restored
        stored = cached.action_count
    assert storage.replay(row.state, row.log, None).to_data() == states[-1].to_data()


def test_the_state_holds_options_and_dice_but_no_action_and_no_keyed_seed() -> None:
    dice = KeyedDice.derive(KEY, b"nonce-0123456789")
    match = Match.start(0, jacoby=True, beavers=True, dice=dice)
    state = json.loads(storage.state_text(match))
    assert set(state) == {"format", "options", "dice"}
    assert state["dice"] == {"kind": "keyed", "nonce": b"nonce-0123456789".hex()}
    assert dice.reveal() not in storage.state_text(match) + storage.snapshot_text(match)
    restored = storage.restore(storage.state_text(match), storage.snapshot_text(match), KEY)
    assert restored.snapshot() == match.snapshot()
    with pytest.raises(DiceKeyError):
        storage.restore(storage.state_text(match), storage.snapshot_text(match), None)


def test_changes_need_the_actions_since_the_store_s_count() -> None:
    states = list(random_states(7, 3))
    restored = storage.compact(states[20])
    later = restored.apply(states[21].actions[-1])
    assert storage.changes(later, 20).actions == (storage.action_text(states[21].actions[-1]),)
    assert storage.changes(later, 21).actions == ()
    for stored in (19, 22):
        with pytest.raises(ValueError, match=f"holds {stored} actions"):
            storage.changes(later, stored)


def test_check_names_what_disagrees() -> None:
    states = list(random_states(8, 5))
    match = states[-1]
    snapshot = match.snapshot()
    assert storage.check(storage.snapshot_text(match), match) == []
    assert storage.check(json.dumps(snapshot | {"score": [0, 0], "actions": 3}), match) == [
        "actions",
        "score",
    ]
    assert storage.check(storage.snapshot_text(states[-2]), match) != []
    assert storage.check("{not json", match) == ["snapshot"]
    assert storage.check("[]", match) == ["snapshot"]


def state_with(**change: Any) -> str:
    # Seeded: the state is in the test's id, which every xdist worker must collect alike.
    match = Match.start(3, dice=VerifiableDice.seeded(3))
    return json.dumps(json.loads(storage.state_text(match)) | change)


@pytest.mark.parametrize(
    ("state", "log", "message"),
    [
        ("[1, 2]", [], "a JSON object, not list"),
        ("{", [], "can't be read"),
        (state_with(format=2), [], "unknown format 2"),
        (state_with(actions=[]), [], "its actions are in the state"),
        (None, [(1, '{"action": "roll", "player": 0}')], "action 1 where 0 belongs"),
        (None, [(0, '{"action": "fly", "player": 0}')], "action 0 can't be read"),
        (None, [(0, "{")], "action 0 can't be read"),
    ],
)
def test_replay_refuses_what_it_can_t_read(
    state: str | None, log: list[tuple[int, str]], message: str
) -> None:
    match = Match.start(3, dice=VerifiableDice.seeded(3))
    with pytest.raises(StoredMatchError, match=message):
        storage.replay(state or storage.state_text(match), log, None)


def test_restore_refuses_a_damaged_snapshot_or_another_match_s() -> None:
    match = Match.start(3, dice=VerifiableDice.seeded(3))
    state = storage.state_text(match)
    with pytest.raises(StoredMatchError, match="snapshot that can't be read"):
        storage.restore(state, "{", None)
    with pytest.raises(StoredMatchError, match="snapshot that can't be read"):
        storage.restore(state, json.dumps(match.snapshot() | {"format": 7}), None)
    other = storage.snapshot_text(Match.start(5, dice=VerifiableDice.seeded(3)))
    with pytest.raises(StoredMatchError, match="not the match's"):
        storage.restore(state, other, None)


def deep_size(value: object, seen: set[int] | None = None) -> int:
    """Bytes of ``value`` and everything it holds (each object once)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, (tuple, list)):
        return size + sum(deep_size(item, seen) for item in value)
    if isinstance(value, dict):
        return size + sum(deep_size(k, seen) + deep_size(v, seen) for k, v in value.items())
    for cls in type(value).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(value, name):
                size += deep_size(getattr(value, name), seen)
    return size


def test_footprint_is_within_a_factor_two_of_the_real_size() -> None:
    states = list(random_states(9, 9, Policy(double=0.05)))
    for match in states[:: max(1, len(states) // 40)]:
        for kept in (match, storage.compact(match)):
            estimate = storage.footprint(kept)
            real = deep_size(kept)
            assert real / 2 <= estimate <= real * 2, (kept.action_count, estimate, real)
    assert storage.footprint(storage.compact(states[-1])) < 5000


@pytest.mark.parametrize(
    ("length", "options"),
    [(0, {"jacoby": True, "beavers": True, "automatic_doubles": 2}), (1, {}), (5, {}), (7, {})],
)
def test_stored_texts_are_the_standard_library_s_compact_json(
    length: int, options: dict[str, Any]
) -> None:
    """orjson writes them, and must write what ``json.dumps`` did: every snapshot, state and
    action of random matches, byte for byte."""
    compact = (",", ":")
    policy = Policy(double=0.2, resign=0.05)
    for seed in range(3):
        states = list(random_states(seed, length, policy, **options))
        assert storage.state_text(states[0]) == json.dumps(
            json.loads(storage.state_text(states[0])), separators=compact
        )
        for match in states:
            assert storage.snapshot_text(match) == json.dumps(match.snapshot(), separators=compact)
        for action in states[-1].actions:
            assert storage.action_text(action) == json.dumps(action.to_data(), separators=compact)


@pytest.mark.parametrize(
    "data",
    [{"name": "Ελληνικά ü"}, {"big": 2**70}, {"n": [1, None, True, 'a"b']}, {1: "key"}],
)
def test_json_beyond_orjson_or_ascii_is_the_standard_library_s(data: Any) -> None:
    assert storage._dumps(data) == json.dumps(data, separators=(",", ":"))
