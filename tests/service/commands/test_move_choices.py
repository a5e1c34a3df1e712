"""The plays offered while typing ``/move``: :func:`play_choices` and the service's source."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.position import Play, Position
from bot.service.commands.choices import CHOICES_SHOWN, play_choices
from bot.service.models import User
from bot.service.table import TableService
from bot.store import Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import public, start_match

UNLIMITED = 10**6


def notations(plays: list[Play]) -> list[str]:
    return [play.notation for play in plays]


def opening(dice: tuple[int, int]) -> list[str]:
    return notations(Position.initial().legal_plays(*dice))


@st.composite
def positions_and_rolls(draw: st.DrawFn) -> tuple[Position, tuple[int, int], list[Play]]:
    """A position reached by random plays from the start, a roll, and its legal plays."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    position = Position.initial()
    for _ in range(draw(st.integers(0, 40))):
        if position.is_game_over():
            break
        position = position.play(
            rng.choice(position.legal_plays(rng.randint(1, 6), rng.randint(1, 6)))
        )
    if position.is_game_over():
        position = Position.initial()
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return position, dice, position.legal_plays(*dice)


# -- the pure choices ---------------------------------------------------------------------------


def test_nothing_typed_offers_the_legal_plays_in_order_at_most_25() -> None:
    plays = opening((1, 1))
    assert len(plays) == 42
    assert play_choices(plays, "") == plays[:CHOICES_SHOWN]
    assert play_choices(opening((6, 5)), "   ") == opening((6, 5))


def test_a_start_point_shows_the_plays_that_start_there() -> None:
    plays = opening((6, 4))
    offered = play_choices(plays, "13/")
    leading = [play for play in plays if play.startswith("13/")]
    later = [play for play in plays if " 13/" in play and play not in leading]
    assert leading and later
    assert offered == leading + later  # each group in the engine's order


def test_plays_that_lead_with_the_move_named_come_first() -> None:
    offered = play_choices(opening((1, 1)), "6/5")
    assert offered[0] == "6/5(4)"
    leading = [play for play in offered if play.startswith("6/5")]
    assert offered[: len(leading)] == leading
    assert all("6/5" in play for play in offered)


def test_moves_in_any_order_and_either_notation() -> None:
    plays = opening((1, 1))
    gnubg = play_choices(plays, "8/7 6/5 ")
    assert gnubg == play_choices(plays, "8-7 6-5 ")
    assert sorted(gnubg) == sorted(play_choices(plays, "6/5 8/7 "))  # led by 6/5 instead
    assert gnubg and all("8/7" in play and "6/5" in play for play in gnubg)
    assert play_choices(plays, "24-23 24-23 ") == play_choices(plays, "24/23(2) ")
    assert all(play.startswith("24/23(2)") for play in play_choices(plays, "24/23(2) "))
    assert play_choices(plays, "8/7(") == play_choices(plays, "8/7")  # a count half typed


def test_the_bar_and_off_are_read_both_ways() -> None:
    entering = notations(Position.from_points({25: 1, 6: 14}, {6: 15}).legal_plays(4, 3))
    assert entering and all(play.startswith("bar/") for play in entering)
    assert play_choices(entering, "25/2") == play_choices(entering, "bar/2")
    assert play_choices(entering, "bar/21") == [p for p in entering if "bar/21" in p]
    bearing = notations(Position.from_points({6: 2, 1: 3}, {1: 2}).legal_plays(6, 1))
    assert play_choices(bearing, "6/0 ") == play_choices(bearing, "6/off ") != []


def test_when_nothing_fits_the_plays_using_a_point_named_come_first_then_the_rest() -> None:
    plays = opening((6, 4))
    offered = play_choices(plays, "13/1")  # no such move
    assert sorted(offered) == sorted(plays)
    using = [play for play in plays if "13/" in play]
    assert offered[: len(using)] == using
    assert play_choices(plays, "xyz") == plays  # never empty while there is a choice


@settings(max_examples=150, deadline=None)
@given(positions_and_rolls(), st.data())
def test_every_choice_is_legal_and_accepted_as_shown(
    case: tuple[Position, tuple[int, int], list[Play]], data: st.DataObject
) -> None:
    position, dice, plays = case
    legal = notations(plays)
    typed = data.draw(st.sampled_from(["", *legal]))
    typed = typed[: data.draw(st.integers(0, len(typed)))]
    offered = play_choices(legal, typed)
    assert len(offered) <= CHOICES_SHOWN and len(set(offered)) == len(offered)
    assert set(offered) <= set(legal)
    for choice in offered:
        if plays[0].steps:
            assert position.parse_play(choice, dice).notation == choice


@settings(max_examples=150, deadline=None)
@given(positions_and_rolls(), st.data())
def test_a_play_is_offered_for_any_start_of_it_and_for_its_moves_in_any_order(
    case: tuple[Position, tuple[int, int], list[Play]], data: st.DataObject
) -> None:
    _, _, plays = case
    legal = notations(plays)
    play = data.draw(st.sampled_from(legal))
    cut = play[: data.draw(st.integers(0, len(play)))]
    assert play in play_choices(legal, cut, limit=UNLIMITED)
    shuffled = data.draw(st.permutations(play.split()))
    fitting = play_choices(legal, " ".join(shuffled) + " ", limit=UNLIMITED)
    assert play in fitting


# -- the service's source -----------------------------------------------------------------------


async def test_the_mover_gets_the_plays_of_their_roll(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None and table.match.phase == "move"
    mover = (ALICE, BOB)[table.match.turn or 0]
    legal = notations(table.match.legal_plays())
    assert await service.matches.move_choices(PLACE, mover, "") == legal[:CHOICES_SHOWN]
    typed = legal[-1][:3]
    assert await service.matches.move_choices(PLACE, mover, typed) == play_choices(legal, typed)
    choice = (await service.matches.move_choices(PLACE, mover, typed))[0]
    [moved] = public(await service.matches.move(PLACE, mover, choice))
    assert choice in moved.text


async def test_other_players_get_nothing(service: TableService) -> None:
    assert await service.matches.move_choices(PLACE, ALICE, "") == []  # no match
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    waiting = (ALICE, BOB)[1 - table.match.turn]
    assert await service.matches.move_choices(PLACE, waiting, "") == []
    assert await service.matches.move_choices(PLACE, CAROL, "13/") == []


async def test_nothing_when_the_mover_must_roll(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    for _ in range(20):
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        user = (ALICE, BOB)[table.match.turn]
        if table.match.phase == "roll":
            assert await service.matches.move_choices(PLACE, user, "") == []
            return
        public(await service.matches.move(PLACE, user, table.match.legal_plays()[0].notation))
    raise AssertionError("nobody was asked to roll")


# -- from memory ----------------------------------------------------------------------------------


async def choices_and_reads(service: TableService, user: User, typed: str) -> tuple[list[str], int]:
    """The choices offered to ``user`` and how many statements the store ran for them."""
    seen: list[str] = []
    await service.store.trace(seen.append)
    try:
        return await service.matches.move_choices(PLACE, user, typed), len(seen)
    finally:
        await service.store.trace(None)


async def test_a_match_kept_in_memory_answers_with_no_read(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    for _ in range(12):  # through rolls, moves and automatic rolls: memory follows every save
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        mover = (ALICE, BOB)[table.match.turn]
        expected = (
            play_choices(notations(table.match.legal_plays()), "13/")
            if table.match.phase == "move"
            else []
        )
        for user in (ALICE, BOB, CAROL):
            offered, reads = await choices_and_reads(service, user, "13/")
            assert (offered, reads) == ((expected if user == mover else []), 0)
        if table.match.phase == "move":
            public(await service.matches.move(PLACE, mover, table.match.legal_plays()[-1].notation))
        else:
            public(await service.matches.roll(PLACE, mover))


async def test_the_kept_plays_notation_is_worked_out_when_first_asked(
    service: TableService,
) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    kept = service.repository.kept_playing(PLACE)
    assert kept is not None and kept.match.phase == "move"
    assert kept._plays is None  # a play typed, or the bot's, needs no list of every play
    mover = (ALICE, BOB)[kept.match.turn or 0]
    offered, _ = await choices_and_reads(service, mover, "")
    assert kept._plays == tuple(notations(kept.match.legal_plays()))
    assert offered == list(kept.plays[:CHOICES_SHOWN])


async def test_after_a_restart_the_first_answer_reads_the_match_then_memory(
    service: TableService, store: Store
) -> None:
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None and table.match.phase == "move"
    mover = (ALICE, BOB)[table.match.turn or 0]
    restarted = TableService(store, settings=service.settings, images=False)
    first, reads = await choices_and_reads(restarted, mover, "")
    again, none = await choices_and_reads(restarted, mover, "")
    assert first == again == notations(table.match.legal_plays())[:CHOICES_SHOWN]
    assert reads == 3 and none == 0  # the match with its timer, and its players' names
    restarted.close()


async def test_a_change_by_another_process_may_be_offered_stale_but_never_played(
    service: TableService, store: Store
) -> None:
    """Two processes on one database: the one that did not make the move offers the plays of
    the position it kept (acceptable for autocomplete), and a play sent from them is judged
    against the store under the lock."""
    await start_match(service, PLACE, ALICE, BOB)
    table = await service.table(PLACE)
    assert table is not None and table.match.phase == "move" and table.match.turn is not None
    mover = (ALICE, BOB)[table.match.turn]
    other = await Store.open(store.address)
    elsewhere = TableService(other, settings=service.settings, images=False)
    try:
        stale = await service.matches.move_choices(PLACE, mover, "")
        public(await elsewhere.matches.move(PLACE, mover, stale[0]))
        assert await service.matches.move_choices(PLACE, mover, "") == stale  # as kept: out of date
        [refused] = await service.matches.move(PLACE, mover, stale[0])
        assert refused.private
        now = await elsewhere.table(PLACE)
        assert now is not None and now.row.version > table.row.version
        kept = service.repository.kept_playing(PLACE)
        assert kept is not None and kept.version == now.row.version  # read again under the lock
    finally:
        elsewhere.close()
        await other.close()
