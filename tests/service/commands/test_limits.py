"""The limiter: who gets an answer, and how soon (fake clock, no Discord)."""

from __future__ import annotations

import pytest

from bot.service.commands.limits import Gate, Limiter, Limits, SeatCache, Verdict
from bot.service.models import LimitError, Place, Rate
from tests.service.driver import FakeClock

HERE = Place("guild", "channel")
THERE = Place("guild", "other")
ELSEWHERE = Place("other guild", "channel")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
def limiter(clock: FakeClock) -> Limiter:
    return Limiter(clock=clock)


def verdicts(
    limiter: Limiter,
    clock: FakeClock,
    count: int,
    *,
    is_player: bool,
    place: Place = HERE,
    user: str = "u",
    step: float = 0.003,
) -> list[Verdict]:
    found = []
    for _ in range(count):
        found.append(limiter.check(place, user, is_player=is_player).verdict)
        clock.advance(step)
    return found


def test_a_player_plays_fast_then_is_told_once_to_slow_down(
    limiter: Limiter, clock: FakeClock
) -> None:
    got = verdicts(limiter, clock, 20, is_player=True)
    assert got[:8] == [Verdict.ALLOW] * 8
    assert got[8] is Verdict.REFUSE
    assert got[9:] == [Verdict.DROP] * 11
    clock.advance(4.0)
    assert verdicts(limiter, clock, 8, is_player=True) == [Verdict.ALLOW] * 8


def test_the_slow_down_text_says_how_long_to_wait(limiter: Limiter, clock: FakeClock) -> None:
    for _ in range(8):
        limiter.check(HERE, "u", is_player=True)
    clock.advance(1.0)
    check = limiter.check(HERE, "u", is_player=True)
    assert check.verdict is Verdict.REFUSE
    assert check.text("en") == "Slow down: at most 8 commands in 4 seconds. Try again in 3 seconds."


def test_a_player_at_two_commands_a_second_is_never_refused(
    limiter: Limiter, clock: FakeClock
) -> None:
    assert verdicts(limiter, clock, 200, is_player=True, step=0.5) == [Verdict.ALLOW] * 200


def test_a_non_player_gets_two_replies_per_ten_seconds_and_silence(
    limiter: Limiter, clock: FakeClock
) -> None:
    got = verdicts(limiter, clock, 100, is_player=False)  # 100 commands in 0.3 s
    assert got[:2] == [Verdict.ALLOW] * 2
    assert got[2:] == [Verdict.DROP] * 98
    clock.advance(10.0)
    assert limiter.check(HERE, "u", is_player=False).verdict is Verdict.ALLOW


def test_non_players_together_get_three_replies_per_ten_seconds(
    limiter: Limiter, clock: FakeClock
) -> None:
    got = [limiter.check(HERE, f"user{n}", is_player=False).verdict for n in range(10)]
    assert got == [Verdict.ALLOW] * 3 + [Verdict.DROP] * 7
    # ... in that channel only, and the players are not slowed by them
    assert limiter.check(THERE, "user9", is_player=False).verdict is Verdict.ALLOW
    assert verdicts(limiter, clock, 8, is_player=True, user="player") == [Verdict.ALLOW] * 8


def test_a_dropped_command_spends_nothing(limiter: Limiter, clock: FakeClock) -> None:
    for _ in range(2):
        limiter.check(HERE, "u", is_player=False)
    for _ in range(50):
        dropped = limiter.check(HERE, "u", is_player=False)
        assert dropped.verdict is Verdict.DROP
        # what an interaction, which must be answered, is told instead of silence
        assert dropped.text("en").startswith(
            "Slow down: at most 2 commands in 10 seconds. Try again in"
        )
    clock.advance(10)
    assert limiter.check(HERE, "u", is_player=False).verdict is Verdict.ALLOW


def test_idle_windows_are_forgotten(limiter: Limiter, clock: FakeClock) -> None:
    for n in range(1000):
        limiter.check(Place("g", str(n)), f"u{n}", is_player=n % 2 == 0)
    assert limiter.size > 1000
    clock.advance(11)
    limiter.check(HERE, "u", is_player=True)
    assert limiter.size == 1


def test_memory_is_bounded_even_under_a_flood(clock: FakeClock) -> None:
    limiter = Limiter(clock=clock, max_windows=50)
    for n in range(1000):
        limiter.check(Place("g", "c"), f"u{n}", is_player=True)
    assert limiter.size <= 50


@pytest.mark.parametrize(("count", "seconds"), [(0, 1.0), (1, 0.0), (2, -1.0)])
def test_a_rate_must_allow_something(count: int, seconds: float) -> None:
    with pytest.raises(LimitError, match="at least 1 event"):
        Rate(count, seconds)


def test_the_numbers() -> None:
    limits = Limits()
    assert str(limits.player) == "8 per 4 seconds"
    assert str(limits.watcher) == "2 per 10 seconds"
    assert str(limits.watchers) == "3 per 10 seconds"


def test_the_seat_cache_expires_and_is_bounded(clock: FakeClock) -> None:
    cache = SeatCache(clock=clock, ttl=30, max_places=2)
    cache.put(HERE, frozenset({"a"}))
    assert cache.get(HERE) == frozenset({"a"})
    clock.advance(30)
    assert cache.get(HERE) is None
    for n in range(5):
        cache.put(Place("g", str(n)), frozenset())
    assert cache.size == 2


async def test_the_gate_reads_the_seats_once_for_a_flood(clock: FakeClock) -> None:
    reads: list[Place] = []

    async def seats(place: Place) -> frozenset[str]:
        reads.append(place)
        return frozenset({"alice", "bob"})

    gate = Gate(Limiter(clock=clock), seats, SeatCache(clock=clock))
    got = [(await gate.check(HERE, "carol")).verdict for _ in range(100)]
    assert got.count(Verdict.ALLOW) == 2
    assert len(reads) == 3  # read again only after an allowed command
    before = len(reads)
    assert (await gate.check(HERE, "alice")).verdict is Verdict.ALLOW
    assert (await gate.check(HERE, "bob")).verdict is Verdict.ALLOW
    assert len(reads) == before + 1


async def test_the_owner_and_moderators_always_pass(clock: FakeClock) -> None:
    async def seats(place: Place) -> frozenset[str]:
        return frozenset()

    gate = Gate(Limiter(clock=clock), seats, SeatCache(clock=clock))
    got = [(await gate.check(HERE, "mod", privileged=True)).verdict for _ in range(50)]
    assert got == [Verdict.ALLOW] * 50
    assert (await gate.check(HERE, "carol")).verdict is Verdict.ALLOW  # not spent by the mod
