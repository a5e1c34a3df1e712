"""Regressions from the bot's first hostile try-out: each test is one situation it got wrong."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import random
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.i18n.core import ENGLISH
from bot.i18n.reports import CHECK_THE_DICE
from bot.rules.dice import verify_seed
from bot.service.commands.help import help_text
from bot.service.commands.registry import COMMANDS
from bot.service.matches.challenges import CHALLENGE_RATE
from bot.service.matches.reading import DamagedMatch
from bot.service.models import Place, Reply, User
from bot.service.records.dicekey import DiceKeyFileError, check_key, load_or_create_key, server_key
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings, SettingsError
from bot.store import StaleMatchError, Store, StoreError
from bot.store.schema import matches
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, play_out, public, start_match, take_turn

FULL_WIDTH = str.maketrans("0123456789/", "".join(chr(0xFF10 + d) for d in range(10)) + "\uff0f")


# -- challenge terms -------------------------------------------------------------------------


async def test_zero_points_is_refused_and_points_words_are_read(
    service: TableService, clock: FakeClock
) -> None:
    [zero] = await service.matches.challenge(PLACE, ALICE, BOB, "0")
    assert zero.private and "not 0" in zero.text and "`money`" in zero.text
    assert await service.open_challenge(PLACE) is None
    words = ("3 points", "3 point", "3 pt", "3 pts", "3pts", "3pt", "3 p", "\uff13", "3 POINTS")
    for terms in words:
        public(await service.matches.challenge(PLACE, ALICE, BOB, terms))
        challenge = await service.open_challenge(PLACE)
        assert challenge is not None and challenge.match_length == 3, terms
        public(await service.matches.cancel(PLACE, ALICE))
        clock.advance(CHALLENGE_RATE.seconds / CHALLENGE_RATE.count)  # within the rate
    [points_only] = await service.matches.challenge(PLACE, ALICE, BOB, "points")
    assert points_only.private and "is not a match length" in points_only.text


async def test_automatic_doubles_take_an_optional_cap(service: TableService) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "money auto 2 jacoby"))
    challenge = await service.open_challenge(PLACE)
    assert challenge is not None
    assert json.loads(challenge.options) == {"automatic_doubles": 2, "jacoby": True}
    public(await service.matches.cancel(PLACE, ALICE))
    [too_many] = await service.matches.challenge(PLACE, ALICE, BOB, "money auto 9")
    assert too_many.private and "not 9" in too_many.text
    assert await service.open_challenge(PLACE) is None


async def test_long_terms_are_quoted_short(service: TableService) -> None:
    [reply] = await service.matches.challenge(PLACE, ALICE, BOB, "x" * 3000)
    assert reply.private and len(reply.text) < 200 and "…" in reply.text


# -- what players type -----------------------------------------------------------------------


async def test_full_width_moves_are_read(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None and table.match.phase == "move"
    play = table.match.legal_plays()[0].notation
    mover = (ALICE, BOB)[table.match.on_roll]
    [moved] = public(await service.matches.move(PLACE, mover, play.translate(FULL_WIDTH)))
    assert "plays" in moved.text


async def test_a_lapsed_abort_request_is_announced(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None
    mover = (ALICE, BOB)[table.match.turn or 0]
    other = BOB if mover is ALICE else ALICE
    public(await service.matches.abort(PLACE, mover))
    rng = random.Random(1)
    await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0.0)
    table = await service.table(PLACE)
    assert table is not None and table.row.abort_offered_by is None
    # The asker played on: their request lapses, and the channel is told.
    public(await service.matches.abort(PLACE, other))
    replies = await _act_once(service, rng)
    assert any(f"{other.name}'s request" in r.text or "request lapses" in r.text for r in replies)


async def _act_once(service: TableService, rng: random.Random) -> list[Reply]:
    table = await service.table(PLACE)
    assert table is not None
    match = table.match
    user = (ALICE, BOB)[match.turn or 0]
    if match.phase == "roll":
        return public(await service.matches.roll(PLACE, user))
    if match.phase == "move":
        return public(
            await service.matches.move(PLACE, user, rng.choice(match.legal_plays()).notation)
        )
    if match.phase == "doubled":
        return public(await service.matches.take(PLACE, user))
    return public(await service.matches.reject(PLACE, user))


async def test_the_asker_playing_on_lapses_the_request(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None
    mover = (ALICE, BOB)[table.match.turn or 0]
    public(await service.matches.abort(PLACE, mover))
    replies = await _act_once(service, random.Random(2))
    assert f"{mover.name}'s request to abort lapses: they played on." in replies[0].text


# -- money games say no match ----------------------------------------------------------------


async def test_a_money_game_ends_without_a_match_score(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, "money")
    replies: list[Reply] = []
    rng = random.Random(5)
    while (table := await service.table(PLACE)) is not None:
        replies += await _act_once(service, rng)
        assert table is not None
    [board] = public(await service.matches.board(PLACE, ALICE))
    replies.append(board)
    text = "\n".join(reply.text for reply in replies)
    assert "won the money game:" in board.text
    assert "wins the match" not in text and "won the match" not in text
    assert "wins the money game:" in text
    assert "Score alice" not in text


async def test_beaver_wording(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, "money beavers")
    rng = random.Random(3)
    for _ in range(300):
        table = await service.table(PLACE)
        assert table is not None
        match = table.match
        if match.phase == "roll" and match.can_double(match.on_roll):
            doubler = (ALICE, BOB)[match.on_roll]
            taker = (ALICE, BOB)[1 - match.on_roll]
            [asked] = public(await service.matches.double(PLACE, doubler))
            assert (
                f"{taker.name}: `!take` (the cube goes to 2), `!drop` or `!beaver` (take and "
                "redouble at once: the cube goes to 4, yours)." in asked.text
            )
            [beavered] = public(await service.matches.beaver(PLACE, taker))
            assert f"the cube is at 4, and {taker.name} owns it" in beavered.text
            return
        await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0.0)
    raise AssertionError("nobody could double")


# -- help reads the settings -----------------------------------------------------------------


def test_help_reads_the_settings() -> None:
    settings = Settings(challenge_timeout_minutes=30, claim_timeout_hours=48)
    challenge = help_text(settings, COMMANDS, "challenge", language="en")
    assert "30 minutes" in challenge and "10 minutes" not in challenge
    for option in ("jacoby", "beavers", "auto"):
        assert f"`{option}`" in challenge
    assert "48 hours" in help_text(settings, COMMANDS, "claim", language="en")
    assert "30 minutes" in help_text(settings, COMMANDS, language="en") and "48 hours" in help_text(
        settings, COMMANDS, language="en"
    )
    double = help_text(settings, COMMANDS, "double", language="en")
    assert "Crawford" in double and "dead" in double and "1-point match" in double
    assert "Manage Messages" in help_text(settings, COMMANDS, "void", language="en")


# -- settings --------------------------------------------------------------------------------


def test_default_match_length_is_capped(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="DEFAULT_MATCH_LENGTH must be at most 25"):
        Settings.load({"DEFAULT_MATCH_LENGTH": "30"}, dotenv=tmp_path / "none")
    assert (
        Settings.load({"DEFAULT_MATCH_LENGTH": "25"}, dotenv=tmp_path / "none").default_match_length
        == 25
    )


def test_secrets_stay_out_of_repr(tmp_path: Path) -> None:
    settings = Settings.load(
        {"DISCORD_TOKEN": "MTIz.token-value", "DICE_KEY": "ab" * 32}, dotenv=tmp_path / "none"
    )
    for shown in (repr(settings), str(settings), f"{settings}"):
        assert "token-value" not in shown and "ab" * 32 not in shown
    assert settings.discord_token == "MTIz.token-value"


# -- the dice key ----------------------------------------------------------------------------


async def test_a_copy_of_the_database_reveals_no_seed(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "bot.sqlite3"
    key = bytes(range(32))
    store = await Store.open(path)
    service = TableService(store, dice_key=key, clock=clock, images=False)
    await start_match(service, PLACE, ALICE, BOB, 1)
    table = await service.table(PLACE)
    assert table is not None
    seed = table.match.dice_source.reveal()
    assert json.loads(table.row.state)["dice"]["kind"] == "keyed"
    await store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("bot.sqlite3"))
    assert seed.encode() not in raw and bytes.fromhex(seed) not in raw

    # The same key replays the match; it plays to the end and reveals a seed that checks.
    store = await Store.open(path)
    again = TableService(store, dice_key=key, clock=clock, images=False)
    await play_out(again, PLACE, (ALICE, BOB), seed=3)
    [export] = public(await again.matches.export(PLACE, ALICE))
    shown = export.text.split("Dice seed: `")[1].split("`")[0]
    commitment = export.text.split("Dice commitment: `")[1].split("`")[0]
    assert shown == seed and verify_seed(shown, commitment)
    assert commitment == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    # How to check the rolls is said in the reply: Discord's users never see the README.
    assert CHECK_THE_DICE("en") in export.text and "README" not in export.text
    await store.close()


async def test_the_key_file_is_made_once_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    try:
        key = await server_key(Settings(), store)
        key_file = tmp_path / "bot.sqlite3.key"
        assert key_file.stat().st_mode & 0o777 == 0o600
        assert await server_key(Settings(), store) == key  # read back, not remade
        with pytest.raises(StoreError, match="not the one this database was used with"):
            await check_key(store, bytes(32), "a wrong key")
        with pytest.raises(StoreError, match="DICE_KEY"):
            await server_key(Settings(dice_key="cd" * 32), store)
    finally:
        await store.close()
    key_file.unlink()  # lost: said as missing, and no new key is made in its place
    store = await Store.open(path)
    try:
        with pytest.raises(StoreError, match=f"the dice key file {key_file} is missing"):
            await server_key(Settings(), store)
        assert not key_file.exists()
    finally:
        await store.close()
    (tmp_path / "broken.key").write_text("not hex")
    with pytest.raises(DiceKeyFileError, match="hex digits"):
        load_or_create_key(tmp_path / "broken.key")


# -- matches that no longer replay, and moderators -------------------------------------------


async def test_a_damaged_snapshot_is_rebuilt_from_the_action_log(
    service: TableService, store: Store
) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    rng = random.Random(5)
    for _ in range(6):
        await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0)
    before = await service.table(PLACE)
    assert before is not None
    async with store.transaction() as tx:
        await tx.execute(
            update(matches).where(matches.c.id == before.row.id).values(snapshot="{broken")
        )
    service.repository.match_cache.clear()  # as after a restart
    after = await service.table(PLACE)
    assert after is not None and after.match.snapshot() == before.match.snapshot()
    row = await store.matches.get(before.row.id)
    assert row is not None and row.snapshot is not None and row.snapshot.startswith("{")
    for _ in range(6):  # and play goes on
        await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0)


async def test_a_match_that_cant_be_read_is_said_kept_exported_and_voided_by_a_moderator(
    service: TableService, store: Store
) -> None:
    other = Place(PLACE.server_id, "other")
    await start_match(service, PLACE, ALICE, BOB)
    await start_match(service, other, CAROL, BOB)
    rng = random.Random(2)
    for _ in range(4):
        await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0)
    table = await service.table(PLACE)
    assert table is not None
    match_id = table.row.id
    async with store.transaction() as tx:  # the snapshot and the state the log replays from
        await tx.execute(
            update(matches)
            .where(matches.c.id == match_id)
            .values(state='{"format": 99}', snapshot="{broken")
        )
    service.repository.match_cache.clear()  # as after a restart
    assert await service.pending_decision(PLACE) is None
    for command in (service.matches.roll(PLACE, ALICE), service.matches.board(PLACE, CAROL)):
        [said] = await command
        assert not said.private  # the whole channel hears it, at every command
        assert said.text.startswith(
            f"The match here, alice vs bob (#{match_id}), can't be read: its record in the "
            "database is damaged (error "
        )
        assert "A moderator can `!void` it" in said.text
    row = await store.matches.get(match_id)
    assert row is not None and row.status == "playing" and row.version == table.row.version
    [refused] = await service.matches.challenge(PLACE, ALICE, BOB, "1")
    assert refused.text.startswith("The match here, alice vs bob")  # the table is not free
    assert await service.table(other) is not None  # other channels are never affected
    public(await service.matches.board(other, CAROL))

    [exported] = public(await service.matches.export(other, CAROL, f"#{match_id}"))
    assert exported.file is not None
    assert exported.file.filename == f"match-{match_id}-damaged.json"
    held = json.loads(exported.file.data)
    assert held["id"] == match_id and held["snapshot"] == "{broken"
    assert "withheld" in held["state"] and held["actions"]

    [done] = public(await service.matches.void(PLACE, CAROL, moderator=True))
    assert done.text == (
        "carol voided the damaged match between alice and bob: unrated, and the table is free."
    )
    row = await store.matches.get(match_id)
    assert row is not None and row.status == "aborted" and row.ending == "unreadable"
    alice = await store.players.get(PLACE.server_id, ALICE.id)
    assert alice is not None and alice.wins + alice.losses == 0
    [board] = await service.matches.board(PLACE, CAROL)
    assert board.private and "is void: its record was damaged" in board.text
    [german] = await service.matches.board(PLACE, dataclasses.replace(CAROL, language="de"))
    assert german.private and german.text == (  # the reader has no language: the command's
        "Das letzte Match hier, alice gegen bob, ist ungültig: sein Eintrag war beschädigt."
    )
    [again] = public(await service.matches.export(PLACE, CAROL))
    assert again.file is not None and again.file.filename == f"match-{match_id}-damaged.json"
    public(await service.matches.challenge(PLACE, ALICE, BOB, "1"))  # the table is free again


async def test_a_match_that_cant_be_read_is_a_value_each_command_turns_into_its_news(
    service: TableService, store: Store
) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None
    async with store.transaction() as tx:
        await tx.execute(
            update(matches)
            .where(matches.c.id == table.row.id)
            .values(state='{"format": 99}', snapshot="{broken")
        )
    service.repository.match_cache.clear()
    damaged = await service.repository.table(PLACE)  # returned, not raised
    assert isinstance(damaged, DamagedMatch)
    assert damaged.row.id == table.row.id and damaged.names == ("alice", "bob")
    again = await service.repository.require(PLACE, language=ENGLISH)
    assert isinstance(again, DamagedMatch) and again.row == damaged.row
    news = damaged.text(ENGLISH).split("(error ")[0]  # each reading logs its own error id
    assert await service.repository.table(PLACE, repair=False) is None  # an adapter's look
    for command in (
        service.matches.move(PLACE, ALICE, "24/18"),
        service.matches.accept(PLACE, BOB),
        service.matches.abort(PLACE, ALICE),
        service.matches.pips(PLACE, CAROL),
        service.gnubg.hint(PLACE, ALICE),
    ):
        [said] = await command
        assert said.text.startswith(news) and not said.private, said
    [refused] = await service.matches.challenge(PLACE, CAROL, BOB, "1")
    assert refused.private and refused.text.startswith(news)  # the table is not free


async def test_export_names_its_match_and_never_answers_another(
    service: TableService, store: Store
) -> None:
    await start_match(service, PLACE, ALICE, BOB, 1)
    await play_out(service, PLACE, (ALICE, BOB), 3)
    first = await service.latest_table(PLACE)
    assert first is not None
    await start_match(service, PLACE, ALICE, CAROL, 1)
    [playing] = public(await service.matches.export(PLACE, BOB))
    assert playing.text.startswith("Match #2, alice vs carol.") and playing.file is None
    [finished] = public(await service.matches.export(PLACE, BOB, "1"))
    assert finished.text.startswith("Match #1, alice vs bob.")
    assert finished.file is not None and finished.file.filename == "match-1.mat"
    [elsewhere] = public(await service.matches.export(Place(PLACE.server_id, "x"), BOB, "#2"))
    assert elsewhere.text.startswith("Match #2, alice vs carol.")
    [missing] = await service.matches.export(PLACE, BOB, "3")
    assert missing.private and missing.text == "There is no match #3 on this server."
    [foreign] = await service.matches.export(Place("another server", "c"), BOB, "1")
    assert foreign.private and foreign.text == "There is no match #1 on this server."
    [words] = await service.matches.export(PLACE, BOB, "last")
    assert words.private and words.text.startswith("'last' is not a match number")


async def test_moderators_void_a_match(service: TableService, store: Store) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    [nope] = await service.matches.void(PLACE, CAROL, moderator=False)
    assert nope.private and "Manage Messages" in nope.text
    assert await service.table(PLACE) is not None
    [done] = public(await service.matches.void(PLACE, CAROL, moderator=True))
    assert "carol voided the match between alice and bob" in done.text
    assert await service.table(PLACE) is None
    [board] = public(await service.matches.board(PLACE, ALICE))
    assert "voided by a moderator (unrated)" in board.text
    [nothing] = await service.matches.void(PLACE, CAROL, moderator=True)
    assert nothing.private and "no match" in nothing.text


# -- races and memory ------------------------------------------------------------------------


async def test_locks_do_not_outlive_their_commands(service: TableService) -> None:
    places = [Place("guild", f"c{i}") for i in range(30)]
    await asyncio.gather(*(service.matches.board(place, ALICE) for place in places))
    await start_match(service, PLACE, ALICE, BOB)
    assert len(service.locks) == 0


async def test_the_name_cache_is_bounded(
    service: TableService, monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    monkeypatch.setattr(service.repository.name_cache, "size", 5)
    for i in range(20):
        public(await service.matches.challenge(Place("guild", f"c{i}"), ALICE, BOB, "1"))
        clock.advance(CHALLENGE_RATE.seconds / CHALLENGE_RATE.count)
        service.repository.remember(PLACE, type(ALICE)(f"u{i}", f"user{i}"))
    assert len(service.repository.name_cache) <= 5


async def test_a_stale_command_keeps_the_other_matches_cached(
    db_path: Path, store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(store, dice=seeded_dice(1), clock=clock, images=False)
    other_place = Place("guild", "other")
    await start_match(service, PLACE, ALICE, BOB)
    await start_match(service, other_place, CAROL, BOB)
    here = await store.matches.playing(PLACE.server_id, PLACE.channel_id)
    there = await store.matches.playing(other_place.server_id, other_place.channel_id)
    assert here is not None and there is not None

    real_save = service.repository.save

    async def racing_save(*args: object, **kwargs: object) -> object:
        raise StaleMatchError("someone else wrote first", here.id)

    monkeypatch.setattr(service.repository, "save", racing_save)
    table = await service.table(PLACE)
    assert table is not None
    user = (ALICE, BOB)[table.match.turn or 0]
    match = table.match
    if match.phase == "move":
        [reply] = await service.matches.move(PLACE, user, match.legal_plays()[0].notation)
    else:
        [reply] = await service.matches.roll(PLACE, user)
    assert reply.private and "changed while your command ran" in reply.text
    kept = service.repository.match_cache
    assert here.id not in kept and there.id in kept
    monkeypatch.setattr(service.repository, "save", real_save)


async def test_expiry_is_written_only_under_the_lock(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    clock.advance(3600)
    assert await service.pending_decision(PLACE) is None
    row = await store.challenges.latest(PLACE.server_id, PLACE.channel_id)
    assert row is not None and row.status == "open"  # reading wrote nothing
    replies = await asyncio.gather(
        service.matches.accept(PLACE, BOB),
        service.matches.decline(PLACE, BOB),
        service.matches.cancel(PLACE, ALICE),
    )
    for [reply] in replies:
        assert reply.private and "expired" in reply.text
    row = await store.challenges.latest(PLACE.server_id, PLACE.channel_id)
    assert row is not None and row.status == "expired"


# -- names chosen by users -------------------------------------------------------------------


async def test_hostile_names_are_cleaned_and_escaped(service: TableService) -> None:
    mallory = User("2001", "\u202emallory**_x_**\u0007")
    assert mallory.name == "mallory**_x_**"  # no bidi override, no control character
    [offer] = public(await service.matches.challenge(PLACE, mallory, BOB, "1"))
    assert offer.text.startswith("mallory\\*\\*\\_x\\_\\*\\* challenges bob")
    assert "\u202e" not in offer.text
    everyone = User("2002", "@everyone")
    [stats] = public(await service.server.stats(PLACE, everyone))
    assert "@everyone" not in stats.text  # never looks like (or works as) a mention


async def test_an_answer_to_an_older_question_is_refused_under_the_lock(
    service: TableService,
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    old = await service.pending_decision(PLACE)
    assert old is not None
    public(await service.matches.cancel(PLACE, ALICE))
    public(await service.matches.challenge(PLACE, ALICE, BOB, "5"))
    # A press on the first challenge's Accept, landing after the second challenge was made.
    [stale] = (await service.press(PLACE, BOB, "accept", old.key)).replies
    assert stale.private and "out of date" in stale.text
    assert await service.table(PLACE) is None  # nothing was accepted
    now = await service.pending_decision(PLACE)
    assert now is not None
    [started] = public((await service.press(PLACE, BOB, "accept", now.key)).replies)
    assert "bob accepts" in started.text and "5-point match" in started.text


async def test_the_claim_clock_starts_when_the_waiting_player_was_shown_the_game(
    service: TableService, clock: FakeClock
) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None
    await service.mark_all_announced({table.row.id: table.row.version})  # the start was shown
    rng = random.Random(7)
    await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0.0)  # its message failed
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    waiting = (ALICE, BOB)[table.match.turn]
    claimer = BOB if waiting is ALICE else ALICE
    clock.advance(25 * 3600)
    [never_told] = await service.matches.claim(PLACE, claimer)
    assert never_told.private and "hasn't been shown the game as it stands" in never_told.text
    [board] = public(await service.matches.board(PLACE, claimer))
    assert board.announces == (table.row.id, table.row.version)
    match_id, version = board.announces
    await service.mark_all_announced({match_id: version})  # the adapter sent it: shown from now
    clock.advance(23 * 3600)
    [early] = await service.matches.claim(PLACE, claimer)
    assert early.private and "left to act" in early.text
    clock.advance(2 * 3600)
    [claimed] = public(await service.matches.claim(PLACE, claimer))
    assert "claims the match" in claimed.text


async def test_the_automatic_double_cap_is_said(service: TableService) -> None:
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "money auto"))
    assert "(automatic doubles, at most 1 per game)" in offer.text
    public(await service.matches.cancel(PLACE, ALICE))
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "money beavers auto 2"))
    assert "(beavers, automatic doubles, at most 2 per game)" in offer.text


async def test_three_unaccepted_challenges_per_ten_minutes_and_accepted_ones_are_free(
    service: TableService, clock: FakeClock
) -> None:
    for _ in range(5):  # a series with a willing opponent is never held up
        await start_match(service, PLACE, ALICE, BOB, 1)
        public(await service.matches.abort(PLACE, ALICE))
        public(await service.matches.abort(PLACE, BOB))
    for _ in range(3):
        public(await service.matches.challenge(PLACE, ALICE, CAROL, "1"))
        public(await service.matches.decline(PLACE, CAROL))
        clock.advance(60)
    [refusal] = await service.matches.challenge(PLACE, ALICE, CAROL, "1")
    assert refusal.private and refusal.text == (
        "You can send at most 3 challenges in 10 minutes on this server: try again in 7 minutes."
    )
    assert await service.open_challenge(PLACE) is None
    public(
        await service.matches.challenge(Place("other guild", "c"), ALICE, CAROL, "1")
    )  # per server
    clock.advance(7 * 60)
    public(await service.matches.challenge(PLACE, ALICE, CAROL, "1"))


async def test_a_game_command_at_an_empty_table_says_where_your_match_is(
    service: TableService,
) -> None:
    lounge, empty = Place(PLACE.server_id, "lounge"), Place(PLACE.server_id, "empty")
    await start_match(service, lounge, ALICE, BOB)
    for command in (
        service.matches.roll,
        service.matches.pips,
        service.matches.board,
        service.gnubg.hint,
        service.matches.abort,
    ):
        [told] = await command(empty, ALICE)
        assert told.private and told.text == (
            "There is no match at this table: yours is in #lounge (alice vs bob). Play there "
            "(each channel or thread is its own table)."
        ), command
    [moved] = await service.matches.move(empty, BOB, "13/7 8/7")
    assert moved.text.startswith("There is no match at this table: yours is in #lounge")
    [nobody] = await service.matches.roll(empty, CAROL)  # carol plays nowhere
    assert nobody.text.startswith("There is no match at this table. Start one with")
    await start_match(service, Place(PLACE.server_id, "den"), CAROL, ALICE)
    [both] = await service.matches.roll(empty, ALICE)
    assert "yours are in #lounge (alice vs bob), #den (carol vs alice)." in both.text
    [elsewhere] = await service.matches.roll(Place("another server", "c"), ALICE)
    assert elsewhere.text.startswith("There is no match at this table. Start one with")
