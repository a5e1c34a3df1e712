"""How a match is stored: what never changes, a snapshot of its state, and a log of its actions.

A match row's ``state`` (:func:`state_text`) is written once, when the match is created: the
format, the options and the dice (a seed, or only the nonce of keyed dice). Its ``snapshot``
(:func:`snapshot_text`, a few hundred bytes whatever the match's length) is rewritten at each
save, and each action is appended once to ``match_actions`` as JSON (:func:`action_text`), its
``seq`` counting from 0. So a save is one update and one insert (:func:`changes`), and:

- :func:`restore` rebuilds the match from its state and snapshot: the hot path, no replay;
- :func:`replay` rebuilds it from the whole log, with its full record (``!export``'s ``.mat``,
  audits, and rows whose snapshot is missing): it costs a replay, so run it off the event loop;
- :func:`check` says where a snapshot and the replay of the log disagree.

Pure functions: no I/O. The store (:mod:`bot.store`) reads and writes the texts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from bot.rules import Action, Match, MatchOptions, SnapshotError
from bot.rules.dice import DiceKeyError, DiceSource, dice_from_data
from bot.rules.match import FORMAT_VERSION

# Measured with a deep sys.getsizeof (tests/service/records/test_storage.py checks the estimate).
_BASE_BYTES = 2500  # the state: position, options, dice, the snapshot's two events
_HISTORY_BYTES = 160  # an action or an event held
_PLAY_BYTES = 250  # a legal play held


class StoredMatchError(ValueError):
    """Stored texts that don't make a match; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Changes:
    """What a save writes: the new ``snapshot``, and the ``actions`` (JSON texts) to append as
    ``first_seq``, ``first_seq + 1``, ..."""

    snapshot: str
    first_seq: int
    actions: tuple[str, ...]

    @property
    def size(self) -> int:
        """Bytes of text written."""
        return len(self.snapshot) + sum(len(action) for action in self.actions)


_ENCODER = json.JSONEncoder(separators=(",", ":"))  # (``json.dumps`` makes one a call)


def _dumps(data: Any) -> str:
    """``data`` as the standard library's compact JSON, made by orjson (a save's snapshot in
    1.5 us, not 7-10). The two write the same text but where orjson keeps letters beyond ASCII
    unescaped (the standard library's is written then) and for floats (``1e16``, not
    ``1e+16``; NaN): the rules store none."""
    try:
        text = orjson.dumps(data).decode()
    except TypeError:  # what orjson does not take (an integer beyond 64 bits, a key not text)
        return _ENCODER.encode(data)
    return text if text.isascii() else _ENCODER.encode(data)


def state_text(match: Match) -> str:
    """The ``state`` of a new match's row: its format, options and dice, no action."""
    return _dumps(
        {
            "format": FORMAT_VERSION,
            "options": match.options.to_data(),
            "dice": match.dice_source.to_data(),
        }
    )


def snapshot_text(match: Match) -> str:
    """The ``snapshot`` of the match's row: :meth:`Match.snapshot` as JSON."""
    return _dumps(match.snapshot())


def action_text(action: Action) -> str:
    """One row of the log."""
    return _dumps(action.to_data())


def changes(match: Match, stored: int) -> Changes:
    """What to write when the store's log holds the first ``stored`` actions of ``match``
    (the ``action_count`` of the match as it was loaded): its snapshot and the actions since.

    ``match`` must still hold those actions: a match restored from a snapshot holds only the
    ones taken since (``stored`` below its ``earlier_actions`` raises ValueError).
    """
    start = stored - match.earlier_actions
    if not 0 <= stored <= match.action_count or start < 0:
        raise ValueError(
            f"the store holds {stored} actions, and this match has taken "
            f"{match.action_count}, holding those from {match.earlier_actions}"
        )
    return Changes(
        snapshot_text(match), stored, tuple(action_text(action) for action in match.actions[start:])
    )


def restore(state: str, snapshot: str, dice_key: bytes | None) -> Match:
    """The match of a row from its ``state`` and ``snapshot`` (``dice_key``: the server's key,
    for keyed dice). It plays on like the replayed match but holds no earlier history
    (:attr:`Match.has_full_record` is False)."""
    options, dice = _state(state, dice_key)
    try:
        match = Match.from_snapshot(json.loads(snapshot), dice)
    except (json.JSONDecodeError, SnapshotError) as error:
        raise StoredMatchError(f"a match snapshot that can't be read: {error}") from error
    if match.options != options:
        raise StoredMatchError(
            f"the snapshot's options {match.options} are not the match's {options}"
        )
    return match


def replay(state: str, actions: Iterable[tuple[int, str]], dice_key: bytes | None) -> Match:
    """The match of a row replayed from its ``state`` and its whole log, ``(seq, action JSON)``
    in order from 0 (what ``store.matches.actions`` reads), with its full record. It costs a
    replay of every action: run it off the event loop. Any action the rules refuse raises
    the engine's error (a ``ValueError``)."""
    options, dice = _state(state, dice_key)
    match = Match.with_options(options, dice=dice)
    for expected, (seq, text) in enumerate(actions):
        if seq != expected:
            raise StoredMatchError(f"the action log has action {seq} where {expected} belongs")
        try:
            action = Action.from_data(json.loads(text))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise StoredMatchError(f"action {seq} can't be read: {text[:80]!r}") from error
        match = match.apply(action)
    return match


def check(snapshot: str, replayed: Match) -> list[str]:
    """The names of the snapshot's entries that disagree with the match ``replayed`` from the
    log (``"snapshot"`` when it can't be read at all); empty when they agree."""
    try:
        stored = json.loads(snapshot)
    except json.JSONDecodeError:
        return ["snapshot"]
    if not isinstance(stored, dict):
        return ["snapshot"]
    expected = replayed.snapshot()
    return sorted(
        name for name in expected.keys() | stored.keys() if stored.get(name) != expected.get(name)
    )


def compact(match: Match) -> Match:
    """``match`` as :func:`restore` would give it back after a save: the same state and play
    without its history, so a match kept in memory between commands stays small."""
    return match.compacted()


def footprint(match: Match) -> int:
    """About how many bytes ``match`` takes in memory (within a factor of two), to bound a
    cache of matches by bytes: its state, the history it holds, and its legal plays (computed
    here if they were not yet: whoever shows the match needs them anyway)."""
    history = len(match.actions) + len(match.record) + len(match.games)
    return _BASE_BYTES + _HISTORY_BYTES * history + _PLAY_BYTES * len(match.legal_plays())


def _state(state: str, dice_key: bytes | None) -> tuple[MatchOptions, DiceSource]:
    try:
        data = json.loads(state)
        if not isinstance(data, dict):
            raise TypeError(f"a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown format {data.get('format')!r}")
        if "actions" in data:
            raise ValueError(
                "its actions are in the state, not in the log (a row from before "
                "schema 5 that the migration left, or written since by older code)"
            )
        return MatchOptions.from_data(data["options"]), dice_from_data(data["dice"], key=dice_key)
    except DiceKeyError:
        raise  # the server's key is missing: not a damaged row
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise StoredMatchError(f"a match state that can't be read: {error}") from error
