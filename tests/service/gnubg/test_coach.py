"""``!hint`` and the tutor, with the fake engine: who may ask, what the advice says, and the
tutor's comments on costly plays and cube actions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.gnubg.api import BAD_THRESHOLD, CubeAdvice
from bot.service.gnubg.coach import cube_loss, tutored_in_order
from bot.service.models import ENGINE_USER, Place, Reply
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, public, start_match
from tests.service.fake_engine import EVEN, STEP, FakeEngine
from tests.service.gnubg.test_opponent import act


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture
def service(store: Store, clock: FakeClock, engine: FakeEngine) -> TableService:
    return TableService(
        store, settings=Settings(), dice=seeded_dice(42), clock=clock, images=False, engine=engine
    )


async def until(service: TableService, phase: str, *, can_double: bool = False) -> None:
    """Play the person's side of a game against the bot until they face ``phase``."""
    rng = random.Random(6)
    for _ in range(200):
        table = await service.table(PLACE)
        assert table is not None
        match = table.match
        if match.phase == phase and (not can_double or match.can_double(0)):
            return
        await act(service, ALICE, rng)
    raise AssertionError(f"never reached {phase}")


async def test_hints_are_refused_between_people_unless_the_challenge_said_hints(
    service: TableService, engine: FakeEngine
) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    [reply] = await service.gnubg.hint(PLACE, ALICE)
    assert reply.private and "Hints are off in this match" in reply.text
    assert "`!challenge @bob 5 hints`" in reply.text and engine.calls == []


async def test_a_hints_challenge_is_unrated_and_allows_hints_to_the_player_deciding(
    service: TableService, store: Store
) -> None:
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "5 hints"))
    assert "a 5-point match with hints (unrated)" in offer.text
    [started] = public(await service.matches.accept(PLACE, BOB))
    assert "with hints (unrated)" in started.text
    row = await store.matches.playing(PLACE.server_id, PLACE.channel_id)
    assert row is not None and (row.hints, row.rated, row.engine_level) == (1, 0, None)
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    mover = (ALICE, BOB)[table.match.turn]
    waiting = (ALICE, BOB)[1 - table.match.turn]
    [hint] = await service.gnubg.hint(PLACE, mover)
    assert hint.private and "Best plays for" in hint.text
    [wait] = await service.gnubg.hint(PLACE, waiting)
    assert wait.private and "not your decision now" in wait.text
    [watcher] = await service.gnubg.hint(PLACE, CAROL)
    assert watcher.private and "for the players of this match" in watcher.text


async def test_a_hints_match_leaves_ratings_alone(service: TableService, store: Store) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "1 hints"))
    public(await service.matches.accept(PLACE, BOB))
    table = await service.table(PLACE)
    assert table is not None
    public(await service.matches.resign(PLACE, (ALICE, BOB)[table.match.on_roll], "backgammon"))
    public(await service.matches.accept(PLACE, (ALICE, BOB)[1 - table.match.on_roll]))
    row = await store.matches.latest(PLACE.server_id, PLACE.channel_id)
    assert row is not None and row.status == "finished"
    for user in (ALICE, BOB):
        player = await store.players.get(PLACE.server_id, user.id)
        assert player is not None and player.wins + player.losses == 0


async def test_hint_after_the_roll_lists_five_plays_with_their_differences(
    service: TableService,
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    await until(service, "move")
    [hint] = await service.gnubg.hint(PLACE, ALICE)
    table = await service.table(PLACE)
    assert table is not None
    plays = table.match.legal_plays()
    assert hint.private
    lines = [line for line in hint.text.splitlines() if line[:2] in {"1.", "2.", "3.", "4.", "5."}]
    assert len(lines) == min(5, len(plays))
    assert lines[0].startswith(f"1. {plays[0].notation}") and "+0.000" in lines[0]
    if len(lines) > 1:
        assert lines[1].startswith(f"2. {plays[1].notation}") and f"({-STEP:+.3f})" in lines[1]


async def test_hint_before_the_roll_gives_the_cube_decision(
    service: TableService, engine: FakeEngine
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "money"))
    await until(service, "roll", can_double=True)
    [hint] = await service.gnubg.hint(PLACE, ALICE)
    assert hint.private
    assert "No double" in hint.text and "Double, take" in hint.text
    assert "Double, pass" in hint.text and "Proper cube action: **No double, take**" in hint.text


async def test_hint_facing_a_double_says_take_or_pass(
    service: TableService, engine: FakeEngine
) -> None:
    engine.double_lead = -1000
    engine.take_limit = -1000  # whoever doubles is too far ahead: pass
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "money"))
    await until(service, "doubled")
    [hint] = await service.gnubg.hint(PLACE, ALICE)
    assert hint.private and "Facing the double" in hint.text and "**Pass**" in hint.text


async def test_a_german_hint_speaks_german_with_gnubgs_numbers_kept(
    service: TableService, engine: FakeEngine
) -> None:
    """The cube table's German labels line up in one column; the equities and gnubg's own
    proper action are as gnubg gave them."""
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "money"))
    await until(service, "roll", can_double=True)
    [hint] = await service.gnubg.hint(PLACE, replace(ALICE, language="de"))
    [english] = await service.gnubg.hint(PLACE, ALICE)
    assert hint.text.startswith("Doppler-Rat (") and "Richtige Doppler-Aktion" in hint.text
    rows = hint.text.split("```")[1].strip().splitlines()
    assert [row.split("   ")[0] for row in rows] == [
        "Kein Doppel",
        "Doppel, annehmen",
        "Doppel, ablehnen",
    ]
    assert len({len(row) for row in rows}) == 1  # one column of equities
    numbers = [row.split()[-1] for row in english.text.split("```")[1].strip().splitlines()]
    assert [row.split()[-1] for row in rows] == numbers
    assert "**No double, take**" in hint.text


async def test_a_spanish_hint_refusal_and_facing_a_double(
    service: TableService, engine: FakeEngine
) -> None:
    engine.double_lead = -1000
    engine.take_limit = -1000
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "money"))
    [watcher] = await service.gnubg.hint(PLACE, replace(CAROL, language="es"))
    assert watcher.text == "Las pistas son para los jugadores de este match."
    await until(service, "doubled")
    [hint] = await service.gnubg.hint(PLACE, replace(ALICE, language="es"))
    assert hint.text.startswith("Ante el doblaje") and "**Pasar**" in hint.text


async def test_no_hint_without_the_engine(store: Store, clock: FakeClock) -> None:
    service = TableService(
        store, settings=Settings(), dice=seeded_dice(1), clock=clock, images=False
    )
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3 hints"))
    public(await service.matches.accept(PLACE, BOB))
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    [reply] = await service.gnubg.hint(PLACE, (ALICE, BOB)[table.match.turn])
    assert reply.private and "isn't installed" in reply.text


async def test_the_tutor_comments_on_a_costly_play_only(
    service: TableService, engine: FakeEngine
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "5 tutor"))
    other = Place("guild", "no-tutor")
    public(await service.matches.challenge(other, BOB, ENGINE_USER, "5"))
    comments = 0
    rng = random.Random(12)
    for _ in range(30):
        table = await service.table(PLACE)
        assert table is not None
        match = table.match
        if match.phase != "move":
            await act(service, ALICE, rng)
            continue
        plays = match.legal_plays()
        worst = plays[-1].notation
        replies = public(await service.matches.move(PLACE, ALICE, worst))
        tutor = [reply for reply in replies if reply.text.startswith("Tutor:")]
        if len(plays) > 1:
            loss = STEP * (len(plays) - 1)
            assert len(tutor) == 1 and f"loses {loss:.3f}" in tutor[0].text
            assert f"Better: `{plays[0].notation}`" in tutor[0].text
            comments += 1
            assert replies.index(tutor[0]) < len(replies) - 1  # before the bot's turn
        else:
            assert tutor == []
    assert comments > 3
    while (table := await service.table(PLACE)) is not None and table.match.phase != "move":
        await act(service, ALICE, rng)
    assert table is not None
    best = table.match.legal_plays()[0].notation
    replies = public(await service.matches.move(PLACE, ALICE, best))
    assert not [reply for reply in replies if reply.text.startswith("Tutor:")]
    while (table := await service.table(other)) is not None and table.match.phase != "move":
        await act(service, BOB, rng, other)
    assert table is not None
    replies = public(await service.matches.move(other, BOB, table.match.legal_plays()[-1].notation))
    assert not [reply for reply in replies if reply.text.startswith("Tutor:")]


async def test_the_tutor_comments_on_a_wrong_double(
    service: TableService, engine: FakeEngine
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "money tutor"))
    await until(service, "roll", can_double=True)
    replies = public(await service.matches.double(PLACE, ALICE))
    [tutor] = [reply for reply in replies if reply.text.startswith("Tutor:")]
    assert "You doubled" in tutor.text and "Proper cube action: **No double, take**" in tutor.text


def test_cube_loss_for_each_action() -> None:
    good_double = CubeAdvice(0.5, 0.8, 1.0, "Double, take", True, True, False, 2, EVEN)
    assert cube_loss(good_double, "roll") == pytest.approx(0.3)
    assert cube_loss(good_double, "double") == 0.0
    assert cube_loss(good_double, "take") == 0.0
    assert cube_loss(good_double, "drop") == pytest.approx(0.2)
    pass_ = CubeAdvice(0.9, 1.4, 1.0, "Double, pass", True, False, False, 2, EVEN)
    assert cube_loss(pass_, "take") == pytest.approx(0.4)
    assert cube_loss(pass_, "take") > BAD_THRESHOLD
    assert cube_loss(pass_, "drop") == 0.0


def test_the_tutor_comment_follows_the_decision_it_judges() -> None:
    comment = Reply("Tutor: `13/7` loses 0.100 in equity.")
    status = Reply(
        "Alice plays 13/7.\nBot rolls 21 and plays 6/4 5/4.\nAlice: `!roll`.",
        image=b"png",
        announces=(1, 2),
    )
    ordered = tutored_in_order([status], [comment])
    assert [reply.text for reply in ordered] == [
        "Alice plays 13/7.",
        comment.text,
        "Bot rolls 21 and plays 6/4 5/4.\nAlice: `!roll`.",
    ]
    assert ordered[0].image is None and ordered[2].image == b"png"
    assert ordered[2].announces == (1, 2)
    short = Reply("Alice plays 13/7.\nBot is thinking…", announces=(1, 2))
    assert tutored_in_order([short], [comment]) == [short, comment]
    assert tutored_in_order([short], []) == [short]
