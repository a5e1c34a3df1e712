"""Scripted players that drive whole matches through the service, as people would type."""

from __future__ import annotations

import random

from bot.service.models import Place, Reply, User
from bot.service.table import TableService


class FakeClock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def public(replies: list[Reply]) -> list[Reply]:
    """Replies that are not refusals; fails the test on a refusal."""
    refusals = [reply.text for reply in replies if reply.private]
    assert not refusals, refusals
    return replies


async def start_match(
    service: TableService, place: Place, a: User, b: User, length: str | int | None = 3
) -> None:
    public(await service.matches.challenge(place, a, b, length))
    public(await service.matches.accept(place, b))


async def take_turn(
    service: TableService,
    place: Place,
    users: tuple[User, User],
    rng: random.Random,
    *,
    double_rate: float = 0.15,
    drop_rate: float = 0.3,
    resign_rate: float = 0.0,
) -> bool:
    """One decision by whoever must act; False once the match is over."""
    table = await service.table(place)
    if table is None:
        return False
    match = table.match
    turn = match.turn
    assert turn is not None
    user = users[turn]
    if match.phase == "roll":
        if rng.random() < double_rate:
            public(await service.matches.double(place, user))
        else:
            public(await service.matches.roll(place, user))
    elif match.phase == "move":
        if rng.random() < resign_rate:
            public(await service.matches.resign(place, user, rng.choice(["single", "gammon"])))
        else:
            play = rng.choice(match.legal_plays())
            public(await service.matches.move(place, user, play.notation))
    elif match.phase == "doubled":
        if rng.random() < drop_rate:
            public(await service.matches.drop(place, user))
        else:
            public(await service.matches.take(place, user))
    elif match.phase == "resigned":
        if rng.random() < 0.5:
            public(await service.matches.accept(place, user))
        else:
            public(await service.matches.reject(place, user))
    return True


async def play_out(
    service: TableService, place: Place, users: tuple[User, User], seed: int, **rates: float
) -> int:
    """Play the channel's match to its end; returns the number of decisions taken."""
    rng = random.Random(seed)
    steps = 0
    while await take_turn(service, place, users, rng, **rates):
        steps += 1
        assert steps < 5000, "the match does not end"
    return steps
