"""Events and actions live in :mod:`bot.rules.events`; :mod:`bot.rules.match` still offers every
name it used to define; a draft carries every field of the match it was made from."""

from __future__ import annotations

import dataclasses
import inspect
from typing import get_args

import pytest

from bot.rules import Match, MatchOptions, VerifiableDice, events, match
from bot.rules.events import Action, Event
from bot.rules.randomplay import Policy, random_states
from bot.rules.state import Draft

EVENT_CLASSES = [
    value
    for value in vars(events).values()
    if inspect.isclass(value) and issubclass(value, events._Event) and value is not events._Event
]


def test_the_event_union_names_every_event_once() -> None:
    assert set(get_args(Event)) == set(EVENT_CLASSES)
    kinds = [cls.kind for cls in EVENT_CLASSES]
    assert len(kinds) == len(set(kinds)) == 13


def test_match_still_offers_the_names_it_used_to_define() -> None:
    for name in match.__all__:
        assert hasattr(match, name), name
    for cls in EVENT_CLASSES:
        assert getattr(match, cls.__name__) is cls
    assert match.Action is Action


@pytest.mark.parametrize(
    "kind", ["roll", "move", "double", "take", "drop", "beaver", "resign", "accept", "reject"]
)
def test_every_action_kind_reads_back(kind: str) -> None:
    action = Action.from_data({"action": kind, "player": 1})
    assert action == Action(kind, 1)  # type: ignore[arg-type]


def test_an_unknown_action_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown action 'castle'"):
        Action.from_data({"action": "castle", "player": 0})


@pytest.mark.parametrize("seed", range(3))
def test_a_draft_changes_no_field_it_is_not_told_to(seed: int) -> None:
    """The state is listed once, on Match: a draft copies all of it, whatever it holds."""
    policy = Policy(resign=0.05, double=0.2, beaver=0.3)
    for state in random_states(
        seed,
        3 if seed else 0,
        policy,
        **({} if seed else {"beavers": True, "jacoby": True, "automatic_doubles": 2}),
    ):
        again = Draft(state, state.actions).freeze()
        for field in dataclasses.fields(state):
            expected = (
                len(state.record) if field.name == "events_start" else getattr(state, field.name)
            )
            if field.compare:
                assert getattr(again, field.name) == expected, field.name


def test_the_defaults_of_match_are_the_state_before_the_first_game() -> None:
    blank = Match(MatchOptions(length=3), VerifiableDice.seeded(1))
    started = Draft(blank, ())
    started.start_game()
    assert started.freeze() == Match.start(3, dice=VerifiableDice.seeded(1))


def test_every_event_comes_back_from_its_data() -> None:
    record = [
        event
        for seed in (1, 2)
        for event in list(
            random_states(
                seed,
                0,
                Policy(double=0.3, drop=0.1, beaver=0.5, resign=0.02),
                beavers=True,
                jacoby=True,
                automatic_doubles=3,
            )
        )[-1].record
    ]
    record += list(random_states(3, 7, Policy(resign=0.02, accept=0.2)))[-1].record
    assert {type(event) for event in record} == set(EVENT_CLASSES)
    for event in record:
        assert events.event_from_data(event.to_data()) == event


def test_unknown_event_data_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown event 'teleported'"):
        events.event_from_data({"event": "teleported"})
