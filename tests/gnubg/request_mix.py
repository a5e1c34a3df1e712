"""A seeded random mix of the requests a play worker serves, and a way to ask each of them of a
gnubg that has served nothing before (the reference of ``test_worker_state``).

Every request is a module-level function and its arguments, run through :func:`outcome` (so
an answer and a refusal compare alike). The states come from matches two seeded random players
play (money with and without Jacoby and beavers, matches of 1 to 7 points: scores, owned cubes,
Crawford and post-Crawford games, doubles and resignations offered); the noisy levels are
gnubg's deterministic ones, so every answer is a function of the request alone.
"""

from __future__ import annotations

import importlib
import os
import pickle
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from bot.gnubg import analysis, mwc, session, worker
from bot.gnubg.api import LEVELS, Query
from bot.rules.match import Match
from bot.rules.randomplay import Policy, random_match, random_states
from bot.service.gnubg.opponent import before_double

Outcome = tuple[str, Any]  # ("answer", value) or ("error", "QueryError: text")

# (length, options): the kinds of match the states come from
GAMES: tuple[tuple[int, dict[str, bool]], ...] = (
    (0, {}),
    (0, {"jacoby": True}),
    (0, {"beavers": True}),
    (0, {"jacoby": True, "beavers": True}),
    (1, {}),
    (3, {}),
    (5, {}),
    (7, {}),
)
POLICY = Policy(resign=0.02, double=0.08, drop=0.3, beaver=0.3)


@dataclass(frozen=True, slots=True)
class Request:
    function: Callable[..., Any]
    args: tuple[Any, ...]

    def __str__(self) -> str:
        shown = ", ".join(repr(arg) for arg in self.args)
        return f"{self.function.__module__}.{self.function.__name__}({shown})"


def outcome(function: Callable[..., Any], *args: Any) -> Outcome:
    """``function(*args)``'s answer, or the refusal it raised (worker side)."""
    try:
        return ("answer", function(*args))
    except (ValueError, analysis.AnalysisRequestError) as error:  # QueryError is a ValueError
        return ("error", f"{type(error).__name__}: {error}")


def load_gnubg() -> None:
    """The initializer of the process :func:`pristine` runs in: gnubg imported (its nets
    loaded), nothing else; its thread starts with ``set threads 1``, which a forked child
    would not have, so each child starts it itself."""
    importlib.import_module("gnubg")


def pristine(function: Callable[..., Any], *args: Any) -> Outcome:
    """:func:`outcome` in a child forked from this process (see :func:`load_gnubg`), which
    starts as a worker does and serves this one request: a fresh worker's answer."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            session.initialise()
            with os.fdopen(write, "wb") as sink:
                pickle.dump(outcome(function, *args), sink)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as source:
        data = source.read()
    os.waitpid(pid, 0)
    answer: Outcome = pickle.loads(data)
    return answer


def whole_analysis(job: analysis.AnalysisJob) -> Any:
    """A whole analysis in one call (the pool's three kinds of call, in order), its time left
    out: the same figures however the worker got there."""
    games = analysis.begin_analysis(job)
    for game in range(1, games + 1):
        analysis.analyse_game(job, game)
    result = analysis.finish_analysis(job)
    return None if result is None else replace(result, seconds=0.0)


def _states(rng: random.Random) -> Iterator[Match]:
    while True:
        length, options = rng.choice(GAMES)
        states = list(random_states(rng.randrange(10**6), length, POLICY, **options))
        yield from rng.sample(states, min(len(states), 6))


def _analysis(rng: random.Random) -> Request:
    length, options = rng.choice(GAMES[:2] + GAMES[4:6])
    mat = random_match(rng.randrange(10**6), length, POLICY, **options).to_mat(("ann", "bo"))
    job = analysis.AnalysisJob(mat, rng.choice((0, 0, 1)), jacoby=bool(options.get("jacoby")))
    return Request(whole_analysis, (job,))


def _requests_for(match: Match, rng: random.Random) -> list[Request]:
    """The requests the bot could make of ``match``'s state."""
    query = Query.of(match)
    level = rng.choice(list(LEVELS.values()))
    turn = Request(worker.take_turn, (query, level, rng.random() < 0.7))
    found: list[Request] = [Request(worker.evaluate, (query, rng.choice((0, 1, 2, 2))))]
    if match.phase == "roll":
        found += [turn, turn]
        if match.can_double(match.turn or 0):
            found.append(Request(worker.cube_advice, (query, level)))
            rolled = match.roll(match.on_roll)
            if rolled.turn == match.on_roll:  # the bot's turn in one request, as it asks it
                found.append(Request(worker.take_turn, (*turn.args, rolled.gnubg_id())))
    elif match.phase == "move":
        plays = match.legal_plays()
        found += [turn, turn, Request(worker.choose_play, (query, level))]
        found.append(Request(worker.hint_plays, (query, 5, rng.choice((0, 1, 2, 2, 2)))))
        if plays[0].steps:
            play = rng.choice(plays).notation
            found.append(Request(worker.rate_play, (query, play, rng.choice((0, 1, 2, 2)))))
    elif match.phase == "doubled":
        found.append(Request(worker.cube_advice, (before_double(match), level)))
    elif match.phase == "resigned":
        found.append(Request(worker.resignation_answer, (query, level)))
    if match.options.length and match.phase in ("roll", "move", "doubled"):
        found.append(Request(mwc.match_winning_chance, (query, rng.randint(0, 1), 2)))
    return found


def request_mix(seed: int, count: int, analyses: float = 0.01) -> list[Request]:
    """``count`` requests in a seeded random order; about ``analyses`` of them analyses."""
    rng = random.Random(seed)
    mix: list[Request] = []
    states = _states(rng)
    while len(mix) < count:
        if rng.random() < analyses:
            mix.append(_analysis(rng))
            continue
        match = next(states)
        if match.is_over:
            continue
        mix.append(rng.choice(_requests_for(match, rng)))
    return mix
