"""The game table through the service, as players use it."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import os
import random
from pathlib import Path

import pytest

from bot.service.keys import ChallengeKey, Key
from bot.service.models import Decision, Place, User
from bot.service.records import storage
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import StaleMatchError, Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, play_out, public, start_match, take_turn


async def test_the_warm_up_sets_what_start_made_aside_from_the_collector(
    service: TableService,
) -> None:
    gc.unfreeze()
    try:
        await service.warm_up()
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()  # the rest of the tests' objects stay collectable


# -- challenges ------------------------------------------------------------------------------


async def test_challenge_accept_starts_a_match_with_the_opening_roll(service: TableService) -> None:
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    assert "alice challenges bob to a 3-point match" in offer.text
    assert offer.mention == (BOB.id,)
    assert offer.decision is Decision.CHALLENGE and offer.decision_for == BOB.id
    view = await service.game_view(PLACE)
    assert view is not None and view["phase"] == "challenged" and view["turn"] == "bob"

    [started] = public(await service.matches.accept(PLACE, BOB))
    assert "Dice commitment" in started.text and "Opening roll" in started.text
    table = await service.table(PLACE)
    assert table is not None
    assert table.match.length == 3 and table.names == ("alice", "bob")
    assert table.match.phase in ("move", "roll")
    assert started.mention == (table.row.player_ids[table.match.turn or 0],)


async def test_default_length_and_money(service: TableService) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB))
    challenge = await service.open_challenge(PLACE)
    assert challenge is not None and challenge.match_length == 5
    public(await service.matches.cancel(PLACE, ALICE))
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "money"))
    assert "a money game" in offer.text


@pytest.mark.parametrize("length", ["0.5", "-3", "99", "lots"])
async def test_bad_match_lengths_are_refused(service: TableService, length: str) -> None:
    [reply] = await service.matches.challenge(PLACE, ALICE, BOB, length)
    assert reply.private
    assert await service.open_challenge(PLACE) is None


async def test_challenge_refusals(service: TableService, clock: FakeClock) -> None:
    [me] = await service.matches.challenge(PLACE, ALICE, ALICE, "3")
    assert me.private and "can't challenge yourself" in me.text
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    [again] = await service.matches.challenge(PLACE, CAROL, BOB, "3")
    assert again.private and "already an open challenge" in again.text
    [wrong] = await service.matches.accept(PLACE, CAROL)
    assert wrong.private and "only they can accept" in wrong.text
    [wrong_decline] = await service.matches.decline(PLACE, ALICE)
    assert wrong_decline.private and "cancel" in wrong_decline.text
    [wrong_cancel] = await service.matches.cancel(PLACE, BOB)
    assert wrong_cancel.private and "decline" in wrong_cancel.text
    public(await service.matches.decline(PLACE, BOB))
    [nothing] = await service.matches.accept(PLACE, BOB)
    assert nothing.private and "no challenge" in nothing.text
    # A challenge expires after ten minutes.
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    clock.advance(10 * 60 + 1)
    [late] = await service.matches.accept(PLACE, BOB)
    assert late.private and "alice's challenge to bob expired 1 min ago" in late.text
    assert "challenges last 10 minutes" in late.text
    assert await service.open_challenge(PLACE) is None
    [late_cancel] = await service.matches.cancel(PLACE, ALICE)
    assert late_cancel.private and "expired" in late_cancel.text


async def test_one_match_per_channel_but_channels_are_separate(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    [busy] = await service.matches.challenge(PLACE, CAROL, ALICE, "3")
    assert busy.private and "already being played" in busy.text
    other = Place(PLACE.server_id, "thread-2")
    await start_match(service, other, CAROL, ALICE)
    assert (await service.table(other)) is not None


# -- playing ---------------------------------------------------------------------------------


async def test_only_players_and_only_in_turn(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None
    before = table.row.version
    waiting = (ALICE, BOB)[1 - (table.match.turn or 0)]
    [stranger] = await service.matches.roll(PLACE, CAROL)
    assert stranger.private and "Only alice and bob play at this table" in stranger.text
    [early] = await service.matches.move(PLACE, waiting, "13/7 8/7")
    assert early.private and "not your turn" in early.text
    [nothing_offered] = await service.matches.take(PLACE, waiting)
    assert nothing_offered.private
    after = await service.table(PLACE)
    assert after is not None and after.row.version == before


async def test_bad_moves_change_nothing(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None and table.match.phase == "move"
    mover = (ALICE, BOB)[table.match.turn or 0]
    for text, fragment in (
        ("13/x", "is not a move"),
        ("9/3 8/7", "no checker on 9"),
        ("", "Say which play"),
    ):
        [reply] = await service.matches.move(PLACE, mover, text)
        assert reply.private and fragment in reply.text, reply.text
    [twice] = await service.matches.roll(PLACE, mover)
    assert twice.private
    again = await service.table(PLACE)
    assert again is not None and again.row.version == table.row.version


async def test_whole_match_is_rated_and_exported(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    await play_out(service, PLACE, (ALICE, BOB), seed=1)
    view = await service.game_view(PLACE)
    assert view is not None and view["phase"] == "over"
    winner = view["winner"]
    assert winner in ("alice", "bob") and max(view["score"]) >= 3
    board = await service.server.leaderboard(PLACE, ALICE)
    assert winner in board[0].text.splitlines()[1]
    alice = await service.store.players.get(PLACE.server_id, ALICE.id)
    bob = await service.store.players.get(PLACE.server_id, BOB.id)
    assert alice is not None and bob is not None
    assert alice.rating + bob.rating == pytest.approx(3000.0)  # equal K for newcomers
    assert alice.experience == bob.experience == 3
    [export] = public(await service.matches.export(PLACE, ALICE))
    assert export.file is not None and export.file.filename.endswith(".mat")
    assert b"3 point match" in export.file.data
    assert "Dice seed" in export.text
    # The revealed seed reproduces the commitment.
    table = await service.latest_table(PLACE)
    assert table is not None
    seed = table.match.dice_source.reveal()
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == table.match.commitment


async def test_money_game_is_unrated(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, "money")
    await play_out(service, PLACE, (ALICE, BOB), seed=3)
    alice = await service.store.players.get(PLACE.server_id, ALICE.id)
    assert alice is not None and alice.experience == 0 and alice.wins + alice.losses == 0


async def test_doubles_drops_and_crawford(service: TableService) -> None:
    # Many matches with frequent doubles: drops end games; in the Crawford game nobody may double.
    saw_crawford = saw_drop = False
    for seed in range(6):
        place = Place("guild", f"crawford-{seed}")
        await start_match(service, place, ALICE, BOB, 3)
        rng = random.Random(seed)
        while True:
            table = await service.table(place)
            if table is None:
                break
            match = table.match
            if match.crawford:
                saw_crawford = True
                user = (ALICE, BOB)[match.turn or 0]
                [refused] = await service.matches.double(place, user)
                assert refused.private
                assert match.phase != "roll"  # no cube to turn: the roll happens by itself
            before_games = len(match.games)
            await take_turn(service, place, (ALICE, BOB), rng, double_rate=0.5, drop_rate=0.5)
            after = await service.latest_table(place)
            assert after is not None
            if len(after.match.games) > before_games and after.match.games[-1].by == "drop":
                saw_drop = True
    assert saw_crawford and saw_drop


async def test_resignation_accept_and_reject(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 5)
    table = await service.table(PLACE)
    assert table is not None
    resigner = (ALICE, BOB)[table.match.turn or 0]
    other = BOB if resigner is ALICE else ALICE
    [bad] = await service.matches.resign(PLACE, resigner, "everything")
    assert bad.private and "single" in bad.text
    [offer] = public(await service.matches.resign(PLACE, resigner, "gammon"))
    assert offer.decision is Decision.RESIGNATION and offer.mention == (other.id,)
    [not_yours] = await service.matches.accept(PLACE, resigner)
    assert not_yours.private
    public(await service.matches.reject(PLACE, other))
    table = await service.table(PLACE)
    assert table is not None and table.match.score == (0, 0)
    public(await service.matches.resign(PLACE, resigner, "single"))
    [accepted] = public(await service.matches.accept(PLACE, other))
    assert "wins" in accepted.text
    table = await service.table(PLACE)
    assert table is not None
    seat = 0 if other is ALICE else 1
    assert table.match.score[seat] == 1 and table.match.game_number == 2


async def test_abort_needs_both_players_and_is_unrated(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    [asked] = public(await service.matches.abort(PLACE, ALICE))
    assert asked.mention == (BOB.id,)
    [twice] = await service.matches.abort(PLACE, ALICE)
    assert twice.private and "waiting for bob" in twice.text
    [stranger] = await service.matches.abort(PLACE, CAROL)
    assert stranger.private
    [done] = public(await service.matches.abort(PLACE, BOB))
    assert "aborted" in done.text
    assert await service.table(PLACE) is None
    view = await service.game_view(PLACE)
    assert view is not None and view["phase"] == "over" and view["winner"] is None
    alice = await service.store.players.get(PLACE.server_id, ALICE.id)
    assert alice is not None and alice.experience == 0
    # The table is free again.
    await start_match(service, PLACE, BOB, ALICE, 1)


async def test_claim_after_the_timeout(service: TableService, clock: FakeClock) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    table = await service.table(PLACE)
    assert table is not None
    waiting_for = table.match.turn or 0
    claimer = (ALICE, BOB)[1 - waiting_for]
    [own] = await service.matches.claim(PLACE, (ALICE, BOB)[waiting_for])
    assert own.private and "your own turn" in own.text
    [early] = await service.matches.claim(PLACE, claimer)
    assert early.private and "left to act" in early.text
    clock.advance(24 * 3600 + 5)
    [claimed] = public(await service.matches.claim(PLACE, claimer))
    assert "claims the match" in claimed.text
    view = await service.game_view(PLACE)
    assert view is not None and view["phase"] == "over" and view["winner"] == claimer.name
    winner = await service.store.players.get(PLACE.server_id, claimer.id)
    assert winner is not None and winner.wins == 1 and winner.rating > 1500


async def test_looking_commands(service: TableService) -> None:
    [none] = await service.matches.board(PLACE, ALICE)
    assert none.private
    await start_match(service, PLACE, ALICE, BOB, 3)
    [pips] = public(await service.matches.pips(PLACE, CAROL))
    assert "alice 167, bob 167" in pips.text
    [score] = public(await service.matches.score(PLACE, CAROL))
    assert "alice 0, bob 0 (match to 3)" in score.text and "cube 1, centred" in score.text
    [board] = public(await service.matches.board(PLACE, CAROL))
    assert board.board_viewer is not None
    [export] = public(await service.matches.export(PLACE, CAROL))
    assert "4HPwATDgc/ABMA:" in export.text and export.file is None
    [stats] = public(await service.server.stats(PLACE, CAROL, ALICE))
    assert "alice: rating 1500.0" in stats.text and "1 playing" in stats.text
    [unknown] = await service.server.stats(PLACE, CAROL, User("9", "zed"))
    assert unknown.text.startswith("I can't find zed among this server's players"), unknown.text
    assert "`!stats @bob`" in unknown.text
    [mine] = await service.server.stats(PLACE, User("8", "newcomer"), None)
    assert mine.text.startswith("You have no record here yet"), mine.text
    [helped] = public(await service.server.help(PLACE, CAROL))
    assert "!move" in helped.text and "!leaderboard" in helped.text
    [one] = public(await service.server.help(PLACE, CAROL, "move"))
    assert "Example: `!move 13/7 8/7`" in one.text


async def test_text_commands(service: TableService) -> None:
    users = {"bob": BOB, "alice": ALICE}.get
    public(await service.run(PLACE, ALICE, "!challenge @bob 3", users=lambda w: users(w[1:])))
    # A word far from every command is another bot's: silence. A near miss gets a hint.
    assert await service.run(PLACE, ALICE, "!dance", users=lambda w: None) == []
    [typo] = await service.run(PLACE, ALICE, "!acept", users=lambda w: None)
    assert typo.private and "Unknown command '!acept'. Did you mean `!accept`?" in typo.text
    [who] = await service.run(PLACE, ALICE, "!stats @nobody", users=lambda w: None)
    assert who.private
    assert await service.run(PLACE, ALICE, "just chatting", users=lambda w: None) == []


async def test_images_are_png_from_the_side_that_must_act(store: Store, clock: FakeClock) -> None:
    service = TableService(store, settings=Settings(), dice=seeded_dice(5), clock=clock)
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    [started] = public(await service.matches.accept(PLACE, BOB))
    assert started.image is not None and started.image.startswith(b"\x89PNG\r\n\x1a\n")
    table = await service.table(PLACE)
    assert table is not None
    assert started.board_viewer == table.match.turn


# -- persistence and concurrency ---------------------------------------------------------------


async def test_restart_sees_identical_state_and_continues(db_path: Path, clock: FakeClock) -> None:
    store = await Store.open(db_path)
    first = TableService(store, dice=seeded_dice(9), clock=clock, images=False)
    await start_match(first, PLACE, ALICE, BOB, 5)
    rng = random.Random(4)
    for _ in range(25):
        await take_turn(first, PLACE, (ALICE, BOB), rng)
    before = await first.game_view(PLACE)
    await store.close()

    reopened = await Store.open(db_path)
    second = TableService(reopened, dice=seeded_dice(10), clock=clock, images=False)
    assert await second.game_view(PLACE) == before
    await play_out(second, PLACE, (ALICE, BOB), seed=5)
    view = await second.game_view(PLACE)
    assert view is not None and view["phase"] == "over"
    await reopened.close()


async def test_two_services_on_one_file(db_path: Path, clock: FakeClock) -> None:
    store_a, store_b = await Store.open(db_path), await Store.open(db_path)
    a = TableService(store_a, dice=seeded_dice(1), clock=clock, images=False)
    b = TableService(store_b, dice=seeded_dice(2), clock=clock, images=False)
    await start_match(a, PLACE, ALICE, BOB, 3)
    assert await a.game_view(PLACE) == await b.game_view(PLACE)
    rng = random.Random(8)
    for step in range(30):
        await take_turn(a if step % 2 else b, PLACE, (ALICE, BOB), rng)
        assert await a.game_view(PLACE) == await b.game_view(PLACE)
    await store_a.close()
    await store_b.close()


async def test_stale_writer_fails_cleanly(db_path: Path, clock: FakeClock) -> None:
    store_a, store_b = await Store.open(db_path), await Store.open(db_path)
    a = TableService(store_a, dice=seeded_dice(1), clock=clock, images=False)
    b = TableService(store_b, dice=seeded_dice(2), clock=clock, images=False)
    await start_match(a, PLACE, ALICE, BOB, 3)
    table = await b.table(PLACE)
    assert table is not None and table.match.phase == "move"
    mover = (ALICE, BOB)[table.match.turn or 0]
    play = table.match.legal_plays()[0].notation
    # Process A plays; process B still holds the old version and tries the same.
    public(await a.matches.move(PLACE, mover, play))
    with pytest.raises(StaleMatchError):
        await b.repository.save(table, table.match.move(table.match.turn or 0, play))
    assert await a.game_view(PLACE) == await b.game_view(PLACE)
    await store_a.close()
    await store_b.close()


# Channels playing at once: 16 in CI, BACKGAMMON_TEST_CHANNELS=50 (or more) in full.
CHANNELS = int(os.environ.get("BACKGAMMON_TEST_CHANNELS", "16"))


@pytest.mark.slow
async def test_many_channels_at_once(service: TableService) -> None:
    players = [(User(f"a{n}", f"amy{n}"), User(f"b{n}", f"ben{n}")) for n in range(CHANNELS)]
    places = [Place("guild", f"room-{n}") for n in range(CHANNELS)]
    await asyncio.gather(
        *(
            start_match(service, place, a, b, 1)
            for place, (a, b) in zip(places, players, strict=True)
        )
    )
    await asyncio.gather(
        *(
            play_out(service, place, pair, seed=n)
            for n, (place, pair) in enumerate(zip(places, players, strict=True))
        )
    )
    for place, (a, b) in zip(places, players, strict=True):
        row = await service.store.matches.latest(place.server_id, place.channel_id)
        assert row is not None and row.status == "finished"
        assert row.player_ids == (a.id, b.id)
        stored = storage.replay(row.state, await service.store.matches.actions(row.id), None)
        assert stored.is_over and stored.winner == row.winner
        winner = await service.store.players.get("guild", row.player_ids[stored.winner or 0])
        assert winner is not None and winner.wins == 1


async def test_pending_decision_follows_the_table(service: TableService) -> None:
    assert await service.pending_decision(PLACE) is None
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending[:3] == (Decision.CHALLENGE, BOB.id, "bob")
    public(await service.matches.accept(PLACE, BOB))
    table = await service.table(PLACE)
    assert table is not None
    assert table.match.phase == "move"
    assert await service.pending_decision(PLACE) is None
    mover = (ALICE, BOB)[table.match.turn or 0]
    public(await service.matches.resign(PLACE, mover, "single"))
    other = BOB if mover is ALICE else ALICE
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending[:3] == (Decision.RESIGNATION, other.id, other.name)


async def test_money_game_options_beaver(service: TableService) -> None:
    [wrong] = await service.matches.challenge(PLACE, ALICE, BOB, "5 jacoby")
    assert wrong.private and "for money games" in wrong.text
    [unknown] = await service.matches.challenge(PLACE, ALICE, BOB, "money gin")
    assert unknown.private and "'gin' is not a match option" in unknown.text
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "money jacoby beavers"))
    assert "a money game (Jacoby, beavers)" in offer.text
    public(await service.matches.accept(PLACE, BOB))
    rng = random.Random(2)
    for _ in range(200):  # play on until someone may double, then double and beaver
        table = await service.table(PLACE)
        assert table is not None
        match = table.match
        if match.phase == "roll" and match.can_double(match.on_roll):
            doubler = (ALICE, BOB)[match.on_roll]
            [doubled] = public(await service.matches.double(PLACE, doubler))
            assert doubled.decision is Decision.DOUBLE and doubled.money_game
            taker = (ALICE, BOB)[1 - match.on_roll]
            [beavered] = public(await service.matches.beaver(PLACE, taker))
            assert "beavers: the cube is at 4" in beavered.text
            after = await service.table(PLACE)
            assert after is not None and after.match.cube_owner == 1 - match.on_roll
            assert after.match.options.jacoby
            return
        await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0.0)
    raise AssertionError("nobody could double")


async def test_each_question_has_its_own_key(service: TableService) -> None:
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    pending = await service.pending_decision(PLACE)
    assert pending is not None and offer.decision_key == pending.key
    assert isinstance(pending.key, ChallengeKey)
    public(await service.matches.cancel(PLACE, ALICE))
    [second] = public(await service.matches.challenge(PLACE, ALICE, BOB, "5"))
    assert second.decision_key != offer.decision_key  # a new challenge, a new key
    public(await service.matches.accept(PLACE, BOB))
    rng = random.Random(4)
    keys: list[Key] = []
    for _ in range(60):
        pending = await service.pending_decision(PLACE)
        if pending is not None:
            keys.append(pending.key)
        await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0.3, drop_rate=0.0)
    assert len(keys) > 5 and len(set(keys)) == len(keys)  # no two decisions share a key
