"""Whole tournaments through the console's adapter (the same command handling as Discord), on
SQLite and PostgreSQL: a knockout of 8, a Swiss of 9 players over 4 rounds with a removed player,
a deadline forfeit, a fixed result and a restart in the middle, and a round robin of 5."""

from __future__ import annotations

import io
import itertools
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TypedDict, Unpack

import pytest

from bot.console import SERVER, Console, ConsoleChannels, ConsoleClock
from bot.gnubg.api import Engine
from bot.service.keys import SignupKey
from bot.service.models import Decision, Place, RoundPaired, User, paired_in
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.console_lines import said
from tests.service.fake_analyst import FakeAnalyst, result

START = 1_790_000_000.0
HOME = "lobby"


class MoreSettings(TypedDict, total=False):
    """The Settings a :class:`Table` may be given beyond its own."""

    match_threads: bool


class Table:
    """A console on a store, restarted at will (a new service on the same database)."""

    def __init__(
        self, store: Store, engine: Engine | None = None, **settings: Unpack[MoreSettings]
    ) -> None:
        self.store = store
        self.engine = engine
        self.settings = settings  # more Settings, e.g. match_threads=False
        self.clock = ConsoleClock(START)
        self.out = io.StringIO()
        self.seed = itertools.count(7)
        self.restart()

    def restart(self) -> None:
        service = TableService(
            self.store,
            settings=Settings(analysis_auto=self.engine is not None, **self.settings),
            dice=seeded_dice(next(self.seed)),
            clock=self.clock,
            images=False,
            engine=self.engine,
        )
        self.service = service
        self.console = Console(service, self.out, images=None, as_json=False, clock=self.clock)

    async def say(self, line: str) -> str:
        """Carry out one console line; what the bot printed for it."""
        return await said(self.console, self.out, line)

    async def finish(self, channel: str) -> str:
        """End the match in ``channel``: the player on roll resigns a single game and the
        other accepts (1-point matches: the match is over). The winner's name."""
        table = await self.service.table(Place(SERVER, channel))
        assert table is not None, channel
        turn = table.match.turn
        assert turn is not None
        loser, winner = table.plain[turn], table.plain[1 - turn]
        await self.say(f"#{channel} {loser}: !resign")
        said = await self.say(f"#{channel} {winner}: !accept")
        assert "wins" in said or "won" in said, said
        return winner

    async def open_channels(self, tournament_id: int) -> list[str]:
        row = await self.store.tournaments.get(tournament_id)
        assert row is not None
        return [
            p.channel_id
            for p in await self.store.tournaments.pairings(tournament_id)
            if p.round == row.round and p.decided_at is None and p.channel_id is not None
        ]

    async def play_round(self, tournament_id: int) -> None:
        for channel in await self.open_channels(tournament_id):
            await self.finish(channel)


async def created(table: Table, terms: str, players: list[str]) -> int:
    said = await table.say(f"#{HOME} org: !tournament create {terms}")
    assert "opens a tournament" in said, said
    for name in players:
        assert "joins" in await table.say(f"#{HOME} {name}: !join")
    row = await table.store.tournaments.latest(SERVER)
    assert row is not None
    return row.id


def names(count: int) -> list[str]:
    return [f"p{n}" for n in range(1, count + 1)]


async def test_an_8_player_knockout_is_played_to_its_champion(table: Table) -> None:
    tid = await created(table, "Spring knockout 1", names(8))
    said = await table.say(f"#{HOME} org: !tournament start")
    assert "Quarter-finals" in said and said.count("[#spring-r1-") >= 4, said
    await table.play_round(tid)
    # A knockout's standings say how far each player went: match points, Buchholz and the
    # points difference would only be noise.
    shown = await table.say(f"#{HOME} p1: !tournament")
    assert shown.count(": still in") == 4 and shown.count(": out in the quarter-finals") == 4
    assert "Buchholz" not in shown and "match point" not in shown, shown
    for _ in range(2):
        await table.play_round(tid)
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.status == "finished" and row.champion_id is not None
    pairings = await table.store.tournaments.pairings(tid)
    assert [sum(p.round == r for p in pairings) for r in (1, 2, 3)] == [4, 2, 1]
    final = next(p for p in pairings if p.round == 3)
    champion = next(
        e for e in await table.store.tournaments.entrants(tid) if e.number == final.winner
    )
    assert champion.user_id == row.champion_id
    shown = await table.say(f"#{HOME} p1: !tournament")
    assert "finished" in shown and "Standings" in shown
    assert f"1. {champion.name}: champion" in shown
    assert shown.count(": out in the final") == 1 and shown.count(": out in the semi-finals") == 2
    # The champion's record shows in !stats.
    assert "1 won" in await table.say(f"#{HOME} {champion.name}: !stats")
    # Over, its results are final: the champion, the standings and !stats stay one truth.
    loser = next(
        e
        for e in await table.store.tournaments.entrants(tid)
        if e.number != final.winner and e.number in (final.first, final.second)
    )
    for fix in (f"result 3.1 @{loser.name} appeal", f"remove @{champion.name} cheat"):
        said = await table.say(f"#{HOME} org: !tournament Spring {fix}")
        assert "Spring is finished: its results are final." in said, said
    again = await table.store.tournaments.get(tid)
    assert again == row
    assert f"1. {champion.name}:" in await table.say(f"#{HOME} p1: !tournament Spring")


async def test_a_paired_round_is_a_value_the_adapter_hands_back_to_open_its_matches(
    table: Table,
) -> None:
    tid = await created(table, "Spring knockout 1", names(4))
    service, home = table.service, Place(SERVER, HOME)
    started = await service.tournament_commands.tournament(
        home, User("org", "org"), "start", organiser=True
    )  # no way of opening threads given: the round waits for the adapter's
    assert paired_in(started) == [RoundPaired(tid)]
    assert await table.open_channels(tid) == []
    opened = await service.open_rounds(started, ConsoleChannels())
    channels = await table.open_channels(tid)
    assert sorted(channels) == ["spring-r1-1", "spring-r1-2"]
    assert {reply.place for reply in opened if reply.announces} == {
        Place(SERVER, channel) for channel in channels
    }
    assert await service.open_rounds(opened, ConsoleChannels()) == []  # none paired there


async def test_a_swiss_with_a_removal_a_forfeit_a_fix_and_a_restart(table: Table) -> None:
    tid = await created(table, "Autumn swiss 4 rounds 1 days 2", names(9))
    await table.say(f"#{HOME} org: !tournament start")
    byes = []
    round1 = [p for p in await table.store.tournaments.pairings(tid) if p.round == 1]
    assert len(round1) == 5 and sum(p.second is None for p in round1) == 1
    byes += [p.first for p in round1 if p.second is None]
    await table.play_round(tid)

    # Round 2: p9 is removed (their match forfeited), one match is left past its deadline.
    said = await table.say(f"#{HOME} org: !tournament remove @p9 no-show")
    assert "removes p9" in said, said
    channels = await table.open_channels(tid)
    stalled, others = channels[0], channels[1:]
    for channel in others:
        await table.finish(channel)
    table.restart()  # the process is killed mid-round: a new one carries on
    said = await table.say("~ 3d")
    assert "past the deadline" in said, said
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.round == 3, said

    # The organiser fixes a result of round 2 with a reason, shown in the standings' pairing.
    stalled_pairing = next(
        p for p in await table.store.tournaments.pairings(tid) if p.channel_id == stalled
    )
    winner = (await table.store.tournaments.entrants(tid))[stalled_pairing.first - 1].name
    label = f"{stalled_pairing.round}.{stalled_pairing.table_no}"
    said = await table.say(f"#{HOME} org: !tournament result {label} @{winner} both agreed")
    assert "both agreed" in said and "wins" in said, said

    await table.play_round(tid)
    await table.play_round(tid)
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.status == "finished"
    pairings = await table.store.tournaments.pairings(tid)
    met = Counter(frozenset((p.first, p.second)) for p in pairings if p.second is not None)
    assert max(met.values()) == 1  # no pairing repeated
    entrants = await table.store.tournaments.entrants(tid)
    removed = next(e.number for e in entrants if e.name == "p9")
    assert all(removed not in (p.first, p.second) for p in pairings if p.round >= 3)
    for round_no in range(1, 5):  # every active player once per round
        seated = [x for p in pairings if p.round == round_no for x in (p.first, p.second) if x]
        assert len(seated) == len(set(seated))
    log = await table.store.tournaments.log(tid)
    assert any("no-show" in entry.text for entry in log)
    assert any("both agreed" in entry.text for entry in log)


async def test_a_round_robin_of_5(table: Table) -> None:
    tid = await created(table, "League roundrobin 1", names(5))
    await table.say(f"#{HOME} org: !tournament start")
    for _ in range(5):
        await table.play_round(tid)
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.status == "finished"
    played = [p for p in await table.store.tournaments.pairings(tid) if p.second is not None]
    assert len(played) == 10  # everyone met everyone once
    assert len({frozenset((p.first, p.second)) for p in played}) == 10


async def test_only_organisers_run_a_tournament(table: Table) -> None:
    await created(table, "Spring knockout 3", names(2))
    member = User("p1", "p1")
    place = Place(SERVER, HOME)
    said = await table.service.tournament_commands.tournament(
        place, member, "start", organiser=False
    )
    assert said[0].private and "Only organisers" in said[0].text
    said = await table.service.tournament_commands.tournament(
        place, member, "create X knockout 1", organiser=False
    )
    assert said[0].private and "Only organisers" in said[0].text
    row = await table.store.tournaments.latest(SERVER)
    assert row is not None and row.status == "signup"


@pytest.mark.parametrize(
    ("terms", "wanted"),
    [
        ("Spring", "Say the format"),
        ("knockout 3", "name first"),
        ("Spring knockout", "match length"),
        ("Spring swiss 1", "how many Swiss rounds"),
        ("Spring knockout 3 clock 2m days 3", "not both"),
        ("Spring knockout 3 sideways", "not a tournament term"),
        ("Spring knockout 99", "not a match length"),
    ],
)
async def test_bad_terms_get_one_specific_reply_and_change_nothing(
    table: Table, terms: str, wanted: str
) -> None:
    said = await table.say(f"#{HOME} org: !tournament create {terms}")
    assert wanted in said and "(only you)" in said, said
    assert await table.store.tournaments.latest(SERVER) is None


async def test_the_signup_buttons_answer_the_presser_alone(table: Table) -> None:
    tid = await created(table, "Spring knockout 1", [])
    place = Place(SERVER, HOME)
    pressed = await table.service.press(place, User("p7", "p7"), "join", SignupKey(tid))
    signup, answer = pressed.replies
    assert not pressed.closed and answer.private and "joins" in answer.text
    # The pressed message shows its entrants now, with its buttons.
    assert signup.edits and not signup.private and signup.decision is Decision.SIGNUP
    assert signup.decision_key == SignupKey(tid) and "Entrants (1): p7" in signup.text
    again = await table.service.press(place, User("p7", "p7"), "join", SignupKey(tid))
    assert "already" in again.replies[1].text and again.replies[1].private
    left = await table.service.press(place, User("p7", "p7"), "leave", SignupKey(tid))
    signup, answer = left.replies
    assert "leaves" in answer.text and "Entrants (0): nobody yet" in signup.text
    assert await table.store.tournaments.entrants(tid) == []


async def test_a_press_after_the_start_closes_the_signup_buttons(table: Table) -> None:
    tid = await created(table, "Spring knockout 1", names(4))
    place = Place(SERVER, HOME)
    await table.say(f"#{HOME} org: !tournament start")
    for action in ("join", "leave"):
        late = await table.service.press(place, User("p9", "p9"), action, SignupKey(tid))
        [reply] = late.replies
        assert late.closed and reply.private and reply.stale, reply
        assert "has started" in reply.text
    assert len(await table.store.tournaments.entrants(tid)) == 4


async def test_the_report_sums_each_players_analysed_matches(db_path: Path | str) -> None:
    store = await Store.open(db_path)
    try:
        table = Table(store, FakeAnalyst(result((6.5, 11.25))))
        tid = await created(table, "Spring knockout 1", names(4))
        await table.say(f"#{HOME} org: !tournament start")
        await table.play_round(tid)
        await table.play_round(tid)
        report = await table.say(f"#{HOME} p2: !tournament report")
    finally:
        await store.close()
    assert "is over" in report and "analysed 3 of its 3 matches" in report, report
    # Every match gave seat 0 a PR of 6.5 and seat 1 11.25, each with 0.321 EMG of luck.
    lines = [line for line in report.splitlines() if re.match(r"\d+\. ", line)]
    assert len(lines) == 4
    assert all("PR 6.5" in line or "PR 11.2" in line or "PR 8." in line for line in lines), lines
    assert sum("luck +0.64" in line for line in lines) == 2  # the finalists played twice
    assert sum("luck +0.32" in line for line in lines) == 2


async def test_the_report_leaves_out_matches_too_short_to_rate(db_path: Path | str) -> None:
    """Round 1's matches end after a move (seat 0: one decision, a blunder, PR 200; seat 1:
    none): no PR, best or luck of theirs reaches the report, which says how many were too
    short; the final (PR 6.5 and 11.25) alone makes the finalists' figures."""
    short = result((200.0, 0.0))
    one, none = (
        replace(player, checker_decisions=n, cube_decisions=0)
        for player, n in zip(short.players, (1, 0), strict=True)
    )
    analyst = FakeAnalyst(replace(short, players=(one, none)))
    store = await Store.open(db_path)
    try:
        table = Table(store, analyst)
        tid = await created(table, "Spring knockout 1", names(4))
        await table.say(f"#{HOME} org: !tournament start")
        await table.play_round(tid)
        analyst.result = result((6.5, 11.25))
        await table.play_round(tid)
        report = await table.say(f"#{HOME} p2: !tournament report")
    finally:
        await store.close()
    assert "analysed 3 of its 3 matches" in report, report
    lines = [line for line in report.splitlines() if re.match(r"\d+\. ", line)]
    assert "PR 200" not in report and "best 0.0" not in report, report
    finalists = [line for line in lines if "PR " in line]
    assert len(finalists) == 2, lines
    assert all("over 1 analysed" in line and "1 too short to rate" in line for line in finalists)
    assert all("luck +0.32" in line for line in finalists), finalists
    others = [line for line in lines if "PR " not in line]
    assert len(others) == 2 and all(line.endswith("; 1 too short to rate") for line in others)


async def test_a_pause_stops_the_deadlines_and_resume_moves_them_on(table: Table) -> None:
    tid = await created(table, "Spring knockout 1 days 2", names(2))
    await table.say(f"#{HOME} org: !tournament start")
    assert len(await table.open_channels(tid)) == 1
    await table.say(f"#{HOME} org: !tournament pause")
    said = await table.say("~ 3d")  # past the deadline, but paused: nothing happens
    assert "past the deadline" not in said, said
    resumed = await table.say(f"#{HOME} org: !tournament resume")
    assert "resumes" in resumed and "72 h" in resumed, resumed
    assert "past the deadline" not in await table.say("~ 1d")  # 2 days from the start
    said = await table.say("~ 1d")  # 2 days of play are over
    assert "past the deadline, forfeit both ways" in said, said
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.status == "finished" and row.champion_id is None


async def test_a_tournament_is_named_before_or_after_the_word(table: Table) -> None:
    spring = await created(table, "Spring knockout 1", [])
    autumn = await created(table, "Autumn knockout 1", [])
    for name in names(2):
        assert "joins Autumn" in await table.say(f"#{HOME} {name}: !join Autumn")
    said = await table.say(f"#{HOME} org: !tournament start")
    assert "Several tournaments are on" in said, said
    assert "starts: 2 players" in await table.say(f"#{HOME} org: !tournament Autumn start")
    assert "joins Spring" in await table.say(f"#{HOME} p1: !tournament #{spring} join")
    rows = [await table.store.tournaments.get(n) for n in (spring, autumn)]
    assert [row.status for row in rows if row] == ["signup", "running"]


async def test_names_are_unique_while_open_and_a_finished_one_is_found_by_name(
    table: Table,
) -> None:
    autumn = await created(table, "Autumn knockout 1", names(2))
    await table.say(f"#{HOME} org: !tournament start")
    await table.play_round(autumn)
    spring = await created(table, "Spring knockout 1", [])
    said = await table.say(f"#{HOME} org: !tournament create spring swiss 2 rounds 1")
    assert "A tournament called 'spring' is already on here" in said, said
    # The finished one by its name, not the one on now.
    said = await table.say(f"#{HOME} p1: !tournament Autumn")
    assert "**Autumn**" in said and "finished" in said and "Spring" not in said, said
    assert "**Spring**" in await table.say(f"#{HOME} p1: !tournament")
    said = await table.say(f"#{HOME} p1: !tournament Winter")
    assert "There is no tournament called 'Winter'" in said, said
    # A name is free again once its tournament is over: the newest of it is shown.
    again = await created(table, "autumn knockout 1", [])
    assert "Entrants (0)" in await table.say(f"#{HOME} p1: !tournament AUTUMN")
    rows = [await table.store.tournaments.get(n) for n in (autumn, spring, again)]
    assert [row.status for row in rows if row] == ["finished", "signup", "signup"]


async def test_a_swiss_shows_seeds_until_its_first_round_is_over_and_a_bye_plays_no_game(
    table: Table,
) -> None:
    tid = await created(table, "Autumn swiss 2 rounds 1", names(3))
    await table.say(f"#{HOME} org: !tournament start")
    snapshot = await table.service.tournaments.rounds.snapshot(tid)
    [bye] = [p for p in snapshot.round_pairings() if p.second is None]
    assert bye.decided_at is not None  # decided at the pairing, with round 1 still on
    said = await table.say(f"#{HOME} p1: !tournament")
    assert "__Seeds__" in said and "__Standings" not in said, said
    assert [line.rank for line in snapshot.standings] == [1, 2, 3]  # each by seed, no #1 bye
    assert snapshot.seeds_only and snapshot.rounds_done == 0
    await table.play_round(tid)
    snapshot = await table.service.tournaments.rounds.snapshot(tid)
    assert snapshot.rounds_done == 1 and not snapshot.seeds_only
    line = next(s for s in snapshot.standings if s.player_id == bye.first)
    # A bye is a win without a game: a match point, and no match played, won or lost.
    assert (line.match_points, line.byes, line.played, line.wins, line.losses) == (1, 1, 0, 0, 0)
    said = await table.say(f"#{HOME} p1: !tournament")
    assert "__Standings after round 1__" in said, said
    name = snapshot.by_number[bye.first].name
    assert f"{name}: 1 match point (with a bye: a win without a game), 0-0" in said, said
