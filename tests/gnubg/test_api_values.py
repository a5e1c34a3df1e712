"""The values that cross to a worker and back pickle as their class and fields (a fifth of a
request's pickling time goes otherwise): every field comes back, equal and of its type."""

from __future__ import annotations

import pickle

import pytest

from bot.gnubg.api import (
    LEVELS,
    CubeAdvice,
    Level,
    PlayOption,
    Probabilities,
    Query,
    TurnChoice,
)

CHANCES = Probabilities(0.61, 0.12, 0.01, 0.08, 0.004)
VALUES = [
    Query("4HPwATDgc/ABMA:cAkAAAAAAAAA", jacoby=True, beavers=True, match_key=12),
    Query("4HPwATDgc/ABMA:cAkAAAAAAAAA"),
    *LEVELS.values(),
    Level("1-ply", 1, 0.0, deterministic=False, prune=True),
    CHANCES,
    PlayOption("8/5 6/5", 0.204, -0.01, 2, CHANCES),
    CubeAdvice(0.4, 0.3, 1.0, "No double, take", False, True, False, 2, CHANCES),
    TurnChoice(resign=2),
    TurnChoice(double=True),
    TurnChoice(play="bar/22 6/off"),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_value_comes_back_from_a_pickle_as_it_went(value: object) -> None:
    for protocol in (pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(value, protocol))
        assert back == value and type(back) is type(value)
        assert repr(back) == repr(value)  # every field, with its type (True is not 1)
