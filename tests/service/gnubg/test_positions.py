"""``!show`` and ``!eval`` through the service, with a fake GNU Backgammon that answers fixed
evaluations (the real engine's numbers are its own tests' business)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.gnubg.api import (
    CubeAdvice,
    EngineFailure,
    Evaluation,
    PlayOption,
    Probabilities,
    Query,
)
from bot.gnubg.unavailable import UnavailableEngine
from bot.i18n.core import Language
from bot.i18n.gnubg import TIMED_OUT
from bot.rules.pasted import read_position
from bot.service.models import Reply
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
OPENING_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
CHANCES = Probabilities(0.542, 0.151, 0.006, 0.12, 0.005)
NO_DOUBLE = CubeAdvice(
    no_double=0.442,
    double_take=0.378,
    double_pass=1.0,
    proper="No double, take",
    double=False,
    take=True,
    beaver=False,
    plies=2,
    probabilities=CHANCES,
)
PLAYS = (
    PlayOption("8/5 6/5", 0.204, 0.0, 2, CHANCES),
    PlayOption("24/23 13/10", -0.016, -0.220, 2, CHANCES),
    PlayOption("13/10 6/5", -0.031, -0.235, 1, CHANCES),
)


class FakeEngine(UnavailableEngine):
    """Answers ``evaluate`` with a fixed evaluation (or raises ``failure``), noting each query;
    ``gate``, when set, holds every answer until it opens."""

    def __init__(self, evaluation: Evaluation, failure: Exception | None = None) -> None:
        self.evaluation = evaluation
        self.failure = failure
        self.queries: list[tuple[Query, int]] = []
        self.gate: asyncio.Event | None = None
        self.asked = asyncio.Event()

    @property
    def available(self) -> bool:
        return True

    async def evaluate(self, query: Query, *, plies: int = 2) -> Evaluation:
        self.queries.append((query, plies))
        self.asked.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.failure is not None:
            raise self.failure
        return self.evaluation


def build(
    store: Store, clock: FakeClock, engine: FakeEngine | None = None, *, images: bool = False
) -> TableService:
    return TableService(
        store, settings=Settings(), dice=seeded_dice(3), clock=clock, images=images, engine=engine
    )


@pytest.fixture
async def drawing(store: Store, clock: FakeClock) -> AsyncIterator[TableService]:
    service = build(store, clock, images=True)
    yield service
    service.close()


def only(replies: list[Reply]) -> Reply:
    assert len(replies) == 1
    return replies[0]


# -- !show ----------------------------------------------------------------------------------------


async def test_show_draws_the_board_from_the_player_on_roll_with_a_summary(
    drawing: TableService,
) -> None:
    reply = only(await drawing.gnubg.show(PLACE, ALICE, OPENING_31))
    assert not reply.private
    assert reply.image is not None and reply.image.startswith(b"\x89PNG")
    first, ids = reply.text.splitlines()
    assert first == ("X to play 3-1 · money game · cube 1, centred · pips X 167, O 167 (even)")
    assert ids == f"gnubg ID `4HPwATDgc/ABMA:cIkFAAAAAAAE` · `{OPENING_31}`"


async def test_show_words_a_match_the_cube_and_the_race(service: TableService) -> None:
    reply = only(
        await service.gnubg.show(
            PLACE, ALICE, "XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8"
        )
    )
    assert reply.text.splitlines()[0] == (
        "O to play 6-3 · 3-point match, X 0, O 0 · cube 2, X owns it · "
        "pips X 132, O 142 (X leads by 10)"
    )
    crawford = only(await service.gnubg.show(PLACE, ALICE, "4HPwATDgc/ABMA:8AmgAEAAEAAE"))
    assert crawford.text.startswith(
        "X to roll or double · 5-point match, X 2, O 4, Crawford game · no cube (Crawford)"
    )
    doubled = only(
        await service.gnubg.show(
            PLACE, ALICE, "XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:2:1:0:7:10"
        )
    )
    assert doubled.text.startswith(
        "O doubles to 4: X to take or pass · 7-point match, X 2, O 1 · cube 2, centred"
    )
    money = only(
        await service.gnubg.show(
            PLACE, ALICE, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10"
        )
    )
    assert "money game (Jacoby, beavers)" in money.text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "There is no position after the command."),
        ("hello", "That is not a position the bot can read (you typed 'hello')."),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",
            "An XGID has 10 fields separated by colons, this has 9",
        ),
    ],
)
async def test_a_bad_paste_gets_one_private_reply_naming_the_forms(
    service: TableService, text: str, reason: str
) -> None:
    for command in (service.gnubg.show, service.gnubg.evaluate):
        reply = only(await command(PLACE, ALICE, text))
        assert reply.private and reply.image is None
        assert reply.text.startswith(reason)
        assert reply.text.endswith(
            "a gnubg ID (`4HPwATDgc/ABMA:cAkAAAAAAAAE`) or a Position ID alone."
        )
    assert await service.table(PLACE) is None and await service.open_challenge(PLACE) is None


async def test_the_console_router_reaches_both_commands(service: TableService) -> None:
    replies = await service.run(PLACE, ALICE, f"!show {START}", users=lambda name: None)
    assert only(replies).text.startswith("X to roll or double")
    refused = only(await service.run(PLACE, ALICE, "!eval", users=lambda name: None))
    assert refused.private and refused.text.startswith("There is no position")


# -- !eval ----------------------------------------------------------------------------------------


async def test_eval_with_dice_lists_the_best_plays(store: Store, clock: FakeClock) -> None:
    engine = FakeEngine(Evaluation(CHANCES, 0.123, 2, plays=PLAYS))
    service = build(store, clock, engine)
    reply = only(await service.gnubg.evaluate(PLACE, ALICE, OPENING_31))
    assert engine.queries == [(Query(read_position(OPENING_31).gnubg_id()), 2)]
    lines = reply.text.splitlines()
    assert lines[2] == (
        "gnubg 2-ply, for X before the roll (any roll, not yet this 3-1): win "
        "54.2% (gammon 15.1%, backgammon 0.6%), lose 45.8% (gammon 12.0%, "
        "backgammon 0.5%); cubeless equity +0.123"
    )
    assert lines[3] == "Best plays for X's 3-1 (cubeful equity):"
    assert lines[4:] == [
        "```",
        "1. 8/5 6/5      +0.204  2-ply",
        "2. 24/23 13/10  -0.016 (-0.220)  2-ply",
        "3. 13/10 6/5    -0.031 (-0.235)  1-ply",
        "```",
    ]


async def test_eval_before_a_roll_gives_the_cube_action(store: Store, clock: FakeClock) -> None:
    engine = FakeEngine(Evaluation(CHANCES, 0.123, 2, cube=NO_DOUBLE))
    service = build(store, clock, engine)
    text = only(
        await service.gnubg.evaluate(
            PLACE, ALICE, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:10"
        )
    ).text
    assert engine.queries[0][0].jacoby and not engine.queries[0][0].beavers
    assert text.splitlines()[3] == (
        "Cube: **No double, take**. No double +0.442 · Double, take +0.378 (-0.064) · "
        "Double, pass +1.000 (+0.558) (cubeful, for X)"
    )
    assert "Best plays" not in text


async def test_eval_of_a_double_offered_asks_from_the_doublers_side_and_answers_the_taker(
    store: Store, clock: FakeClock
) -> None:
    beaver = CubeAdvice(
        no_double=0.1,
        double_take=-0.2,
        double_pass=1.0,
        proper="No double, beaver",
        double=False,
        take=True,
        beaver=True,
        plies=2,
        probabilities=CHANCES,
    )
    engine = FakeEngine(Evaluation(CHANCES, -0.05, 2, cube=beaver))
    service = build(store, clock, engine)
    doubled = "XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:0:0:2:0:10"
    text = only(await service.gnubg.evaluate(PLACE, ALICE, doubled)).text
    [(query, _)] = engine.queries
    assert query.gnubg_id == read_position(doubled).before_double().gnubg_id()
    assert query.beavers
    assert text.splitlines()[3] == (
        "X should **beaver** (No double, beaver). No double +0.100 · Double, take -0.200 "
        "(-0.300) · Double, pass +1.000 (+0.900) (cubeful, for O)"
    )
    assert "gnubg 2-ply, for O:" in text


async def test_eval_in_the_crawford_game_and_with_no_legal_play(
    store: Store, clock: FakeClock
) -> None:
    service = build(store, clock, FakeEngine(Evaluation(CHANCES, 0.0, 2)))
    crawford = only(await service.gnubg.evaluate(PLACE, ALICE, "4HPwATDgc/ABMA:8AmgAEAAEAAE")).text
    assert crawford.splitlines()[3] == "Cube: X can't double here."
    # X on the bar against O's closed board (X's points 19-24 are O's 6 to 1)
    closed = "XGID=-" + "-" * 18 + "bbbbbb" + "A:0:0:1:66:0:0:0:0:10"
    reply = only(await service.gnubg.evaluate(PLACE, ALICE, closed))
    assert reply.text.splitlines()[-1] == "X has no legal play with 6-6."


async def test_eval_says_in_one_line_when_gnubg_is_missing_or_fails(
    drawing: TableService, store: Store, clock: FakeClock
) -> None:
    missing = only(await drawing.gnubg.evaluate(PLACE, ALICE, START))
    assert missing.image is not None  # the board still comes
    assert missing.text.splitlines()[2] == (
        "No analysis: GNU Backgammon isn't installed where this bot runs (its package has no "
        "build for this machine), so the bot opponent, hints and analysis are off."
    )
    failure = EngineFailure(TIMED_OUT.said(seconds="30"), retry=True)
    failing = build(store, clock, FakeEngine(Evaluation(CHANCES, 0.0, 2), failure=failure))
    failed = only(await failing.gnubg.evaluate(PLACE, ALICE, START))
    assert failed.text.splitlines()[2:] == [
        "No analysis: GNU Backgammon thought for more than 30 s and was stopped; it has been "
        "restarted. Try again."
    ]
    german = only(await failing.gnubg.evaluate(PLACE, replace(ALICE, language="de"), START))
    assert german.text.splitlines()[2:] == [
        "Keine Analyse: GNU Backgammon hat länger als 30 s gebraucht und wurde angehalten; es "
        "wurde neu gestartet. Versuch es noch einmal."
    ]


async def test_gnubg_thinking_holds_no_channel_lock(store: Store, clock: FakeClock) -> None:
    engine = FakeEngine(Evaluation(CHANCES, 0.0, 2, cube=NO_DOUBLE))
    engine.gate = asyncio.Event()
    service = build(store, clock, engine)
    thinking = asyncio.create_task(service.gnubg.evaluate(PLACE, ALICE, START))
    await asyncio.wait_for(engine.asked.wait(), timeout=5)
    # The channel carries on while gnubg thinks: a challenge there is answered at once.
    challenged = await asyncio.wait_for(
        service.matches.challenge(PLACE, ALICE, BOB, "3"), timeout=5
    )
    assert not challenged[0].private
    assert await service.open_challenge(PLACE) is not None
    assert not thinking.done()
    engine.gate.set()
    assert "No double, take" in only(await thinking).text


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Eine XGID hat 10 durch Doppelpunkte getrennte Felder, diese hat 9"),
        ("el", "Ένα XGID έχει 10 πεδία χωρισμένα με άνω και κάτω τελεία, αυτό έχει 9"),
        ("tr", "Bir XGID iki nokta üst üste ile ayrılmış 10 alandan oluşur, bunda 9 var"),  # noqa: RUF001
        ("it", "Un XGID ha 10 campi separati da due punti, questo ne ha 9"),
        ("es", "Un XGID tiene 10 campos separados por dos puntos, este tiene 9"),
    ],
)
async def test_a_bad_paste_is_refused_in_the_players_language(
    service: TableService, language: Language, said: str
) -> None:
    """The rules' reason is a value the service words: a German player reads German."""
    user = replace(ALICE, language=language)
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0"
    reply = only(await service.gnubg.show(PLACE, user, text))
    assert reply.private and reply.text.startswith(said)
    reason = only(await service.gnubg.show(PLACE, user, "AAAAAAAAAAAAAA"))
    assert "X" in reason.text and "no checkers" not in reason.text
