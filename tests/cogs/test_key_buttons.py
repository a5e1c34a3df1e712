"""Every kind of question key through every front end that presses buttons: Discord's buttons
(discord.py's own dispatch to the kind's dynamic item, and a press its message has lost) and the
console's ``[action]`` lines. Each press must reach the service as the very key the question
carried; a new kind fails here until it has an example (and so a walk of its own)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cogs.buttons import KEY_BUTTONS, buttons_for, decision_view, lost_press
from bot.console import SERVER, Console
from bot.discord_bot import BackgammonBot
from bot.service.keys import (
    KINDS,
    ChallengeKey,
    DailyKey,
    DrillKey,
    ErrorsKey,
    Key,
    MatchKey,
    PuzzleKey,
    RematchKey,
    ReviewKey,
    SignupKey,
    StormKey,
)
from bot.service.matches.threads import ThreadOpener
from bot.service.models import Decision, Place, Reply, User
from bot.service.table import Pressed, TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import CHANNEL_ID, SEED, Person, Wire

BOB = Person(300000000000000002, "bob")

# A question of each kind (ids up to the largest a key holds), and a decision its buttons answer.
EXAMPLES: dict[type[Key], tuple[Key, Decision]] = {
    MatchKey: (MatchKey(7, 53), Decision.DOUBLE),
    ChallengeKey: (ChallengeKey(12), Decision.CHALLENGE),
    RematchKey: (RematchKey(10**18 - 1), Decision.REMATCH),
    SignupKey: (SignupKey(3), Decision.SIGNUP),
    ReviewKey: (ReviewKey(4, 1319), Decision.REVIEW),
    ErrorsKey: (ErrorsKey(4, 0), Decision.REVIEW_ERRORS),
    DrillKey: (DrillKey(9, 120), Decision.DRILL_DOUBLE),
    PuzzleKey: (PuzzleKey(10**18 - 1), Decision.PUZZLE_TAKE),
    DailyKey: (DailyKey(365), Decision.DAILY_DOUBLE),
    StormKey: (StormKey(5, 12), Decision.STORM_DOUBLE),
}
WALKS = [EXAMPLES[kind] for kind in KINDS]


class Presses:
    """Stands in for :meth:`TableService.press`: what each press handed the service."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, Key | None]] = []

    async def __call__(
        self,
        place: Place,
        user: User,
        action: str,
        key: Key | None,
        *,
        threads: ThreadOpener | None = None,
    ) -> Pressed:
        self.seen.append((user.id, action, key))
        return Pressed([Reply(f"pressed {action}", private=True)], closed=False)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "keys.sqlite3")
    service = TableService(store, settings=Settings(), dice=seeded_dice(SEED), images=False)
    yield service
    service.close()
    await store.close()


def test_every_kind_has_a_walk_and_a_dynamic_item_of_its_own() -> None:
    assert set(EXAMPLES) == set(KINDS) == set(KEY_BUTTONS)
    assert all(type(key) is kind for kind, (key, _) in EXAMPLES.items())
    templates = {button.__discord_ui_compiled_template__.pattern for button in KEY_BUTTONS.values()}
    assert len(templates) == len(KINDS)
    # Every question's buttons carry a key of one kind, and every kind is some question's.
    assert {decision.key_kind for decision in Decision} == set(KINDS)
    assert all(decision.key_kind is type(key) for key, decision in EXAMPLES.values())


def test_a_view_refuses_a_key_of_another_kind() -> None:
    with pytest.raises(ValueError, match="not asked by a ChallengeKey"):
        decision_view(Decision.TURN, ChallengeKey(1), language="en")


@pytest.mark.parametrize(("key", "decision"), WALKS, ids=lambda value: str(value))
async def test_discord_buttons_hand_the_service_their_question(
    service: TableService, monkeypatch: pytest.MonkeyPatch, key: Key, decision: Decision
) -> None:
    presses = Presses()
    monkeypatch.setattr(service, "press", presses)
    bot = BackgammonBot(service, Settings(match_threads=False))
    await bot._async_setup_hook()
    await bot.setup_hook()
    wire = Wire(bot)
    wire.join(BOB)
    channel: Any = wire._place(CHANNEL_ID)
    [message] = await wire.run(channel.send("?", view=decision_view(decision, key, language="en")))
    actions = [spec.action for spec in buttons_for(decision)]
    assert message.custom_ids == [f"bg:{action}:{key.format()}" for action in actions]
    for custom_id in message.custom_ids:
        [answer] = await wire.press(BOB, message, custom_id)
        assert answer.ephemeral and answer.content.startswith("pressed ")
    assert presses.seen == [(str(BOB.id), action, key) for action in actions]
    # A press its message no longer shows reaches the service with the same key.
    for action in actions:
        interaction: Any = FakeInteraction(f"bg:{action}:{key.format()}")
        assert lost_press(interaction) == (action, key)


class FakeInteraction:
    """What :func:`lost_press` reads of an interaction: a press with no message."""

    def __init__(self, custom_id: str) -> None:
        self.type = discord.InteractionType.component
        self.data = {"custom_id": custom_id, "component_type": 2}
        self.message = None


@pytest.mark.parametrize(("key", "decision"), WALKS, ids=lambda value: str(value))
async def test_console_presses_hand_the_service_their_question(
    service: TableService, monkeypatch: pytest.MonkeyPatch, key: Key, decision: Decision
) -> None:
    presses = Presses()
    monkeypatch.setattr(service, "press", presses)
    out = io.StringIO()
    console = Console(service, out, images=None, as_json=False)
    place = Place(SERVER, "general")
    actions = [spec.action for spec in buttons_for(decision)]
    [first, *_] = actions
    await console.handle(f"bob: [{first}]")  # nothing asked yet: no press
    assert presses.seen == [] and f"has a `{first}` button" in out.getvalue()
    await console.handle(f"bob: [{first} {key.format()}]")  # the key as a button id carries it
    # The question shown with its buttons: each is pressed on it by its action alone.
    await console._show(place, "", "", [Reply("?", decision=decision, decision_key=key)])
    for action in actions:
        await console.handle(f"bob: [{action}]")
    assert presses.seen == [("bob", action, key) for action in [first, *actions]]
    await console.handle(f"#elsewhere bob: [{first}]")  # another channel's buttons are its own
    assert len(presses.seen) == 1 + len(actions)
