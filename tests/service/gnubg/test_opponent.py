"""Matches against GNU Backgammon (a fake one, see fake_engine.py): they start at once, the bot
takes its turns in the reply flow of the command that handed it the turn, without holding the
channel's lock while it thinks, and survives failures and restarts."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path

import pytest

from bot.gnubg.unavailable import UNAVAILABLE
from bot.rules.match import Match
from bot.rules.matchid import decode_match_id
from bot.service.models import ENGINE_ID, ENGINE_USER, Decision, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock, public
from tests.service.fake_engine import FakeEngine


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture
def service(store: Store, clock: FakeClock, engine: FakeEngine) -> TableService:
    return TableService(
        store, settings=Settings(), dice=seeded_dice(42), clock=clock, images=False, engine=engine
    )


async def person_to_act(service: TableService, place: Place = PLACE) -> None:
    """After any command, the match waits on the person (or is over), never on the bot."""
    table = await service.table(place)
    if table is not None:
        turn = table.match.turn
        assert turn is not None and table.row.player_ids[turn] != ENGINE_ID


async def act(
    service: TableService, user: User, rng: random.Random, place: Place = PLACE
) -> list[Reply]:
    """One decision by the person: a random legal play, or roll, take, reject."""
    table = await service.table(place)
    assert table is not None
    match = table.match
    if match.phase == "roll":
        replies = await service.matches.roll(place, user)
    elif match.phase == "move":
        replies = await service.matches.move(place, user, rng.choice(match.legal_plays()).notation)
    elif match.phase == "doubled":
        replies = await service.matches.take(place, user)
    else:
        replies = await service.matches.reject(place, user)
    await person_to_act(service, place)
    return public(replies)


async def play_against_bot(
    service: TableService, user: User, seed: int, place: Place = PLACE
) -> int:
    rng = random.Random(seed)
    steps = 0
    while await service.table(place) is not None:
        await act(service, user, rng, place)
        steps += 1
        assert steps < 2000, "the match does not end"
    return steps


async def test_challenge_bot_starts_at_once_and_the_bot_moves_in_the_same_reply(
    service: TableService, store: Store, engine: FakeEngine
) -> None:
    replies = public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3 expert"))
    assert "alice vs GNU Backgammon (expert): a 3-point match" in replies[0].text
    assert "unrated" in replies[0].text
    await person_to_act(service)
    row = await store.matches.playing(PLACE.server_id, PLACE.channel_id)
    assert row is not None and row.player_ids == (ALICE.id, ENGINE_ID)
    assert (row.engine_level, row.rated, row.tutor) == ("expert", 0, 0)
    table = await service.table(PLACE)
    assert table is not None
    if table.match.action_count > 1:  # the bot won the opening roll: it has moved already
        assert "GNU Backgammon plays" in "\n".join(reply.text for reply in replies)
        assert "take_turn" in engine.calls
    shown = [
        reply for reply in replies if reply.image is not None or reply.board_viewer is not None
    ]
    assert len(shown) <= 1  # one board per reply flow
    pending = await service.pending_decision(PLACE)
    assert pending is None or pending.user_id == ALICE.id


async def test_a_whole_match_against_the_bot_then_stats_and_leaderboard(
    service: TableService, store: Store
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    assert await play_against_bot(service, ALICE, seed=5) > 5
    row = await store.matches.latest(PLACE.server_id, PLACE.channel_id)
    assert row is not None and row.status == "finished" and row.engine_level == "advanced"
    board = await service.server.leaderboard(PLACE, ALICE)
    assert "GNU Backgammon" not in board[0].text  # unrated: nobody is listed
    [stats] = await service.server.stats(PLACE, ALICE)
    won = int(row.winner == 0)
    assert f"Against GNU Backgammon (won-lost): advanced {won}-{1 - won}." in stats.text
    [its] = await service.server.stats(PLACE, ALICE, ENGINE_USER)
    assert f"By level (won-lost): advanced {1 - won}-{won}." in its.text


async def test_rated_bot_games_count_when_the_setting_says(
    store: Store, clock: FakeClock, engine: FakeEngine
) -> None:
    service = TableService(
        store,
        settings=Settings(bot_games_rated=True),
        dice=seeded_dice(7),
        clock=clock,
        images=False,
        engine=engine,
    )
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "1"))
    await play_against_bot(service, ALICE, seed=1)
    board = await service.server.leaderboard(PLACE, ALICE)
    assert "GNU Backgammon" in board[0].text and "alice" in board[0].text


async def test_no_engine_refuses_in_one_line_and_creates_nothing(
    store: Store, clock: FakeClock
) -> None:
    service = TableService(
        store, settings=Settings(), dice=seeded_dice(1), clock=clock, images=False
    )
    [reply] = await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3")
    assert reply.private and reply.text == UNAVAILABLE and "\n" not in reply.text
    assert await store.matches.latest(PLACE.server_id, PLACE.channel_id) is None
    assert await store.players.get(PLACE.server_id, ENGINE_ID) is None


@pytest.mark.parametrize(
    ("terms", "said"),
    [
        ("3 expert casual", "Name one level"),
        ("3 grandmaster", "may also name a level (beginner, casual"),
        ("30", "1 to 25 points"),
    ],
)
async def test_bad_terms_against_the_bot_are_refused(
    service: TableService, store: Store, terms: str, said: str
) -> None:
    [reply] = await service.matches.challenge(PLACE, ALICE, ENGINE_USER, terms)
    assert reply.private and said in reply.text
    assert await store.matches.latest(PLACE.server_id, PLACE.channel_id) is None


async def test_levels_and_tutor_are_only_for_the_bot(service: TableService) -> None:
    [reply] = await service.matches.challenge(PLACE, ALICE, BOB, "5 tutor")
    assert reply.private and "for games against the bot" in reply.text
    [reply] = await service.matches.challenge(PLACE, ALICE, BOB, "5 expert")
    assert reply.private and "'expert'" in reply.text


async def test_the_bot_doubles_and_the_person_answers(
    service: TableService, engine: FakeEngine
) -> None:
    engine.double_lead = -1000  # it doubles whenever it may
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "money"))
    rng = random.Random(3)
    for _ in range(40):
        table = await service.table(PLACE)
        assert table is not None
        if table.match.phase == "doubled":
            break
        await act(service, ALICE, rng)
    assert table is not None
    assert table.match.phase == "doubled" and table.match.turn == 0
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending.decision is Decision.DOUBLE
    assert pending.user_id == ALICE.id
    replies = public(await service.matches.take(PLACE, ALICE))
    assert "alice takes" in replies[0].text
    table = await service.table(PLACE)
    assert table is not None and table.match.cube_owner == 0 and table.match.cube_value == 2


@pytest.mark.parametrize(("take_limit", "word"), [(1000, "takes"), (-1000, "drops")])
async def test_the_bot_answers_a_double(
    service: TableService, engine: FakeEngine, take_limit: int, word: str
) -> None:
    engine.take_limit = take_limit
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "money"))
    rng = random.Random(4)
    for _ in range(40):
        table = await service.table(PLACE)
        assert table is not None
        if table.match.phase == "roll" and table.match.can_double(0):
            break
        await act(service, ALICE, rng)
    replies = public(await service.matches.double(PLACE, ALICE))
    text = "\n".join(reply.text for reply in replies)
    assert f"GNU Backgammon {word}" in text
    latest = await service.latest_table(PLACE)
    assert latest is not None
    if word == "drops":
        assert latest.match.score[0] == 1 or latest.match.game_number == 2


async def test_resignations_both_ways(service: TableService, engine: FakeEngine) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    rng = random.Random(9)
    table = await service.table(PLACE)
    assert table is not None
    while table.match.phase != "move":
        await act(service, ALICE, rng)
        table = await service.table(PLACE)
        assert table is not None
    engine.accept_resignations = False
    replies = public(await service.matches.resign(PLACE, ALICE, "gammon"))
    assert "GNU Backgammon rejects the resignation" in "\n".join(r.text for r in replies)
    await person_to_act(service)
    engine.accept_resignations = True
    replies = public(await service.matches.resign(PLACE, ALICE, "single"))
    assert "GNU Backgammon accepts the resignation" in "\n".join(r.text for r in replies)
    table = await service.table(PLACE)
    assert table is not None and table.match.score == (0, 1)
    await person_to_act(service)

    engine.resign = 1  # now the bot gives up once a game: reject it, and it plays on
    await act(service, ALICE, rng)
    while (table := await service.table(PLACE)) is not None and table.match.phase != "resigned":
        await act(service, ALICE, rng)
    assert table is not None and table.match.turn == 0
    offers = engine.resignation_questions
    game = table.match.game_number
    public(await service.matches.reject(PLACE, ALICE))
    for _ in range(6):
        table = await service.table(PLACE)
        assert table is not None
        if table.match.game_number != game:
            break
        assert table.match.phase != "resigned"
        await act(service, ALICE, rng)
    assert engine.resignation_questions == offers  # not asked again this game


async def test_each_decision_of_the_bot_is_one_engine_request_about_its_match(
    service: TableService, store: Store, engine: FakeEngine
) -> None:
    engine.double_lead = 15  # it doubles now and then
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "5"))
    row = await store.matches.playing(PLACE.server_id, PLACE.channel_id)
    assert row is not None
    rng = random.Random(6)
    for _ in range(120):
        if await service.table(PLACE) is None:
            break
        await act(service, ALICE, rng)
    # Its resignation, cube and play are decided together: one request per state of the match
    # (before the roll, and after it: its one search), never a second about the same state.
    assert {name for name, _ in engine.asked} == {"take_turn"}
    asked_about = Counter(query.gnubg_id for _, query in engine.asked)
    assert max(asked_about.values()) == 1
    rolled = [key for key in asked_about if decode_match_id(key.split(":")[1]).dice != (0, 0)]
    assert len(rolled) > 20 and len(asked_about) > len(rolled)
    # Each request names the match, so the engine sends them all to its worker.
    assert {query.match_key for _, query in engine.asked} == {row.id}


async def test_an_engine_failure_leaves_the_match_and_the_next_command_retries(
    service: TableService, engine: FakeEngine
) -> None:
    engine.failures = 1000
    replies = public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    table = await service.table(PLACE)
    assert table is not None
    rng = random.Random(2)
    if table.match.turn == 0:  # the person opens: hand the bot its turn
        replies = await act_allowing_bot(service, rng)
        table = await service.table(PLACE)
        assert table is not None
    assert table.match.turn == 1
    said = "\n".join(reply.text for reply in replies)
    assert "GNU Backgammon could not take its turn" in said and "`!board`" in said
    count = table.match.action_count
    refusal, failed = await service.matches.roll(
        PLACE, ALICE
    )  # still the bot's turn, failing again
    assert refusal.private and "not your turn" in refusal.text
    assert "could not take its turn" in failed.text
    engine.failures = 0
    replies = public(await service.matches.board(PLACE, ALICE))
    assert any("GNU Backgammon" in reply.text for reply in replies[1:])
    table = await service.table(PLACE)
    assert table is not None and table.match.action_count > count
    await person_to_act(service)


async def act_allowing_bot(service: TableService, rng: random.Random) -> list[Reply]:
    table = await service.table(PLACE)
    assert table is not None
    if table.match.phase == "roll":
        return public(await service.matches.roll(PLACE, ALICE))
    return public(
        await service.matches.move(PLACE, ALICE, rng.choice(table.match.legal_plays()).notation)
    )


async def test_a_restart_mid_turn_is_finished_by_the_new_service(
    store: Store, db_path: Path, clock: FakeClock
) -> None:
    broken = FakeEngine(failures=1000)
    first = TableService(
        store, settings=Settings(), dice=seeded_dice(11), clock=clock, images=False, engine=broken
    )
    public(await first.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    table = await first.table(PLACE)
    assert table is not None
    if table.match.turn == 0:
        await act_allowing_bot(first, random.Random(1))
    table = await first.table(PLACE)
    assert table is not None and table.match.turn == 1  # the bot owes its turn

    reopened = await Store.open(db_path)  # another process on the same file, after a restart
    try:
        second = TableService(
            reopened,
            settings=Settings(),
            dice=seeded_dice(11),
            clock=clock,
            images=False,
            engine=FakeEngine(),
        )
        resumed = await second.resume_engine()
        assert list(resumed) == [PLACE]
        assert "GNU Backgammon" in resumed[PLACE][0].text
        await person_to_act(second)
        assert await second.resume_engine() == {}
    finally:
        await reopened.close()


async def test_a_turn_another_process_took_is_not_taken_again_from_memory(
    store: Store, db_path: Path, clock: FakeClock
) -> None:
    broken = FakeEngine(failures=1000)
    first = TableService(
        store, settings=Settings(), dice=seeded_dice(11), clock=clock, images=False, engine=broken
    )
    public(await first.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    table = await first.table(PLACE)
    assert table is not None
    if table.match.turn == 0:
        await act_allowing_bot(first, random.Random(1))
    kept = first.repository.kept_playing(PLACE)
    assert kept is not None and kept.match.turn == 1  # in the first's memory, the bot owes

    reopened = await Store.open(db_path)  # another process on the same file takes the turn
    try:
        second = TableService(
            reopened,
            settings=Settings(),
            dice=seeded_dice(11),
            clock=clock,
            images=False,
            engine=FakeEngine(),
        )
        assert list(await second.resume_engine()) == [PLACE]
        taken = await second.table(PLACE)
        assert taken is not None
    finally:
        await reopened.close()

    broken.failures = 0
    # The first still remembers the turn as owed: it may think about it, but carrying it out
    # reads the match again under the lock, finds it moved on, and leaves it.
    assert await first.resume_engine() == {}
    now = await first.table(PLACE)
    assert now is not None
    assert now.row.version == taken.row.version
    assert now.match.action_count == taken.match.action_count
    await person_to_act(first)


async def test_the_bots_roll_is_made_once_a_turn(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    rng = random.Random(8)
    rolls: list[int] = []
    real = Match.roll

    def counted(match: Match, player: int) -> Match:
        rolls.append(player)
        return real(match, player)

    monkeypatch.setattr(Match, "roll", counted)
    turns = 0
    while turns < 6 and (table := await service.table(PLACE)) is not None:
        handing = table.match.phase == "move"  # the person's play hands the bot its turn
        rolls.clear()
        before = table.match.action_count
        await act(service, ALICE, rng)
        after = await service.table(PLACE)
        if handing and after is not None and after.match.action_count > before + 2:
            assert rolls == [1]  # asked of the engine with the roll, carried out with it
            turns += 1
    assert turns == 6


async def test_the_lock_is_free_while_the_bot_thinks(
    service: TableService, engine: FakeEngine
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    rng = random.Random(8)
    while (table := await service.table(PLACE)) is not None and table.match.phase != "move":
        await act(service, ALICE, rng)  # up to the person's move, which hands the bot its turn
    release = engine.pause_next()
    handing = asyncio.create_task(act_allowing_bot(service, rng))
    await asyncio.wait_for(engine.paused.wait(), 5)
    # The bot is thinking: the channel still answers, and other channels play on.
    [pips] = public(await service.matches.pips(PLACE, ALICE))
    assert pips.text.startswith("Pips:")
    other = Place("guild", "other")
    public(await service.matches.challenge(other, BOB, ENGINE_USER, "1"))
    await person_to_act(service, other)
    release.set()
    replies = await asyncio.wait_for(handing, 5)
    assert any("GNU Backgammon" in reply.text for reply in replies)
    await person_to_act(service)


async def test_many_matches_at_once(service: TableService) -> None:
    users = [User(str(2000 + n), f"p{n}") for n in range(6)]
    places = [Place("guild", f"table{n}") for n in range(6)]
    await asyncio.gather(
        *(
            service.matches.challenge(place, user, ENGINE_USER, "1")
            for place, user in zip(places, users, strict=True)
        )
    )
    steps = await asyncio.gather(
        *(
            play_against_bot(service, user, seed, place)
            for seed, (place, user) in enumerate(zip(places, users, strict=True))
        )
    )
    assert all(step > 0 for step in steps)
    for place, user in zip(places, users, strict=True):
        [stats] = await service.server.stats(place, user)
        assert "Against GNU Backgammon (won-lost): advanced" in stats.text


async def test_abort_against_the_bot_needs_only_the_person(service: TableService) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    [reply] = public(await service.matches.abort(PLACE, ALICE))
    assert "aborted by agreement" in reply.text and "unrated" in reply.text
    assert await service.table(PLACE) is None


async def test_other_people_cannot_play_the_persons_side(service: TableService) -> None:
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    [reply] = await service.matches.roll(PLACE, BOB)
    assert reply.private and "Only alice and GNU Backgammon play" in reply.text
