"""Every button: the right player, the wrong one, a stale press, and a press after a restart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.buttons import BUTTONS, DecisionButton, DecisionView, decision_view
from bot.cogs.presses import STALE, press
from bot.discord_bot import BackgammonBot
from bot.service.models import Decision, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.fakes import (
    ALICE,
    BOB,
    CAROL,
    PLACE,
    PNG,
    SEED,
    FakeInteraction,
    FakeMember,
    file_bytes,
)

MEMBERS = {str(member.id): member for member in (ALICE, BOB)}


def user(member: FakeMember) -> User:
    return User(str(member.id), member.display_name)


def public(replies: list[Reply]) -> list[Reply]:
    assert replies and not any(reply.private for reply in replies), replies
    return replies


async def challenged(service: TableService) -> FakeMember:
    public(await service.challenge(PLACE, user(ALICE), user(BOB), 3))
    return BOB


async def at_turn(service: TableService) -> FakeMember:
    """A 3-point match where someone must roll or double; returns them."""
    await challenged(service)
    public(await service.accept(PLACE, user(BOB)))
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    mover = MEMBERS[table.row.player_ids[table.match.turn]]
    public(await service.move(PLACE, user(mover), table.match.legal_plays()[0].notation))
    return await waiting_on(service, Decision.TURN)


async def doubled(service: TableService) -> FakeMember:
    roller = await at_turn(service)
    public(await service.double(PLACE, user(roller)))
    return await waiting_on(service, Decision.DOUBLE)


async def resigned(service: TableService) -> FakeMember:
    roller = await at_turn(service)
    public(await service.resign(PLACE, user(roller), "gammon"))
    return await waiting_on(service, Decision.RESIGNATION)


async def waiting_on(service: TableService, decision: Decision) -> FakeMember:
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending[0] is decision
    return MEMBERS[pending[1]]


def other(member: FakeMember) -> FakeMember:
    return ALICE if member == BOB else BOB


Setup = Callable[[TableService], Awaitable[FakeMember]]
SETUPS: dict[Decision, Setup] = {
    Decision.CHALLENGE: challenged,
    Decision.TURN: at_turn,
    Decision.DOUBLE: doubled,
    Decision.RESIGNATION: resigned,
}


# -- the decision, without Discord ------------------------------------------------------------


@pytest.mark.parametrize(
    ("button", "after"),
    [
        ("bg:challenge:accept", "move"),
        ("bg:challenge:decline", None),
        ("bg:turn:roll", "move"),
        ("bg:turn:double", "doubled"),
        ("bg:double:take", "move"),  # the doubler can't redouble: their roll is automatic
        ("bg:double:drop", "move"),  # the next game starts with its opening roll
        ("bg:resign:accept", "move"),
        ("bg:resign:reject", "roll"),
    ],
)
async def test_the_right_player_presses(
    service: TableService, button: str, after: str | None
) -> None:
    spec = BUTTONS[button]
    player = await SETUPS[spec.decision](service)
    result = await press(service, PLACE, user(player), button)
    assert result.remove_buttons
    public(result.replies)
    table = await service.table(PLACE)
    assert (table.match.phase if table else None) == after
    if after is not None:
        assert result.replies[-1].image is not None and result.replies[-1].image.startswith(PNG)


@pytest.mark.parametrize("button", sorted(BUTTONS))
async def test_anyone_else_is_told_whose_decision_it_is(service: TableService, button: str) -> None:
    player = await SETUPS[BUTTONS[button].decision](service)
    before = await service.pending_decision(PLACE)
    for intruder in (other(player), CAROL):
        result = await press(service, PLACE, user(intruder), button)
        assert [(r.text, r.private) for r in result.replies] == [
            (f"Not your decision: waiting for {player.display_name}.", True)
        ]
        assert not result.remove_buttons
    assert await service.pending_decision(PLACE) == before


@pytest.mark.parametrize("button", sorted(BUTTONS))
async def test_a_stale_button_is_refused_and_loses_its_buttons(
    service: TableService, button: str
) -> None:
    # Each button is pressed when the table waits on another kind of decision (or none).
    decision = BUTTONS[button].decision
    stale_setup = at_turn if decision is not Decision.TURN else doubled
    player = await stale_setup(service)
    before = await service.pending_decision(PLACE)
    result = await press(service, PLACE, user(player), button)
    assert [(r.text, r.private) for r in result.replies] == [(STALE, True)]
    assert result.remove_buttons
    assert await service.pending_decision(PLACE) == before


async def test_a_button_pressed_twice_is_stale_the_second_time(service: TableService) -> None:
    roller = await at_turn(service)
    public((await press(service, PLACE, user(roller), "bg:turn:roll")).replies)
    again = await press(service, PLACE, user(roller), "bg:turn:roll")
    assert again.replies[0].text == STALE


async def test_buttons_of_a_finished_challenge_are_stale(service: TableService) -> None:
    await challenged(service)
    public(await service.cancel(PLACE, user(ALICE)))
    result = await press(service, PLACE, user(BOB), "bg:challenge:accept")
    assert result.replies[0].text == STALE


async def test_beaver_is_refused_where_beavers_are_off(service: TableService) -> None:
    taker = await doubled(service)
    result = await press(service, PLACE, user(taker), "bg:double:beaver")
    assert result.replies[0].private
    assert "beaver" in result.replies[0].text.lower()
    assert not result.remove_buttons  # the double still waits for an answer
    assert (await service.pending_decision(PLACE)) is not None


async def test_an_unknown_button_is_stale(service: TableService) -> None:
    await challenged(service)
    assert (await press(service, PLACE, user(BOB), "bg:nope")).replies[0].text == STALE


# -- the views --------------------------------------------------------------------------------


def test_each_decision_shows_only_its_buttons() -> None:
    assert decision_view(Decision.CHALLENGE).custom_ids == [
        "bg:challenge:accept",
        "bg:challenge:decline",
    ]
    assert decision_view(Decision.DOUBLE).custom_ids == ["bg:double:take", "bg:double:drop"]
    assert decision_view(Decision.DOUBLE, money_game=True).custom_ids == [
        "bg:double:take",
        "bg:double:drop",
        "bg:double:beaver",
    ]
    assert decision_view(Decision.RESIGNATION).custom_ids == [
        "bg:resign:accept",
        "bg:resign:reject",
    ]
    assert decision_view(Decision.TURN).custom_ids == ["bg:turn:roll", "bg:turn:double"]
    for decision in Decision:
        view = decision_view(decision)
        assert view.timeout is None
        assert not view.is_dispatchable()  # a layout: nothing is stored per message


async def registered_bot(service: TableService, settings: Settings) -> BackgammonBot:
    bot = BackgammonBot(service, settings)
    await bot.setup_hook()
    return bot


def registered_button(bot: BackgammonBot, custom_id: str) -> DecisionButton:
    for view in bot.persistent_views:
        for item in view.children:
            if isinstance(item, DecisionButton) and item.custom_id == custom_id:
                return item
    raise AssertionError(f"{custom_id} is not registered")


async def test_every_button_is_registered_as_persistent(
    service: TableService, settings: Settings
) -> None:
    bot = await registered_bot(service, settings)
    views = bot.persistent_views
    assert all(isinstance(view, DecisionView) and view.is_persistent() for view in views)
    ids = [
        item.spec.custom_id
        for view in views
        for item in view.children
        if isinstance(item, DecisionButton)
    ]
    assert sorted(ids) == sorted(BUTTONS)


# -- the callbacks, through the registered view -----------------------------------------------


async def click(bot: BackgammonBot, custom_id: str, member: FakeMember) -> FakeInteraction:
    interaction = FakeInteraction(member)
    await registered_button(bot, custom_id).callback(interaction)  # type: ignore[arg-type]
    assert interaction.response.deferred  # answered at once, within Discord's 3 seconds
    return interaction


def only_sent(interaction: FakeInteraction) -> dict[str, Any]:
    assert len(interaction.followup.sent) == 1, interaction.followup.sent
    return interaction.followup.sent[0]


async def test_callback_right_player(service: TableService, settings: Settings) -> None:
    bot = await registered_bot(service, settings)
    await challenged(service)
    interaction = await click(bot, "bg:challenge:accept", BOB)
    sent = only_sent(interaction)
    assert not sent.get("ephemeral")
    assert [file.filename for file in sent["files"]] == ["board.png"]
    assert file_bytes(sent["files"][0]).startswith(PNG)
    table = await service.table(PLACE)
    assert table is not None
    to_act = table.row.player_ids[table.match.turn or 0]
    assert sent["content"].startswith(f"<@{to_act}> ")
    assert [u.id for u in sent["allowed_mentions"].users] == [int(to_act)]
    assert interaction.original_edits == [{"view": None}]  # the pressed message loses its buttons


async def test_callback_posts_the_next_decision_with_its_buttons(
    service: TableService, settings: Settings
) -> None:
    bot = await registered_bot(service, settings)
    roller = await at_turn(service)
    interaction = await click(bot, "bg:turn:double", roller)
    view = only_sent(interaction)["view"]
    assert isinstance(view, DecisionView)
    assert view.custom_ids == ["bg:double:take", "bg:double:drop"]
    message = interaction.followup.messages[0]
    assert bot.live.message_id(PLACE) == message.id

    taker = other(roller)
    take = await click(bot, "bg:double:take", taker)
    assert take.original_edits == [{"view": None}]
    assert await service.pending_decision(PLACE) is None  # the doubler's roll is automatic
    assert bot.live.message_id(PLACE) is None


async def test_callback_wrong_player(service: TableService, settings: Settings) -> None:
    bot = await registered_bot(service, settings)
    await challenged(service)
    interaction = await click(bot, "bg:challenge:accept", CAROL)
    assert only_sent(interaction)["content"] == "Not your decision: waiting for bob."
    assert only_sent(interaction)["ephemeral"] is True
    assert interaction.original_edits == []  # the buttons stay for bob
    assert await service.table(PLACE) is None


async def test_callback_stale(service: TableService, settings: Settings) -> None:
    bot = await registered_bot(service, settings)
    await challenged(service)
    public(await service.decline(PLACE, user(BOB)))
    interaction = await click(bot, "bg:challenge:accept", BOB)
    assert only_sent(interaction)["content"] == STALE
    assert only_sent(interaction)["ephemeral"] is True
    assert interaction.original_edits == [{"view": None}]


async def test_callback_after_a_restart(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    store = await Store.open(path)
    first = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    await registered_bot(first, settings)
    await challenged(first)
    first.close()
    await store.close()

    store = await Store.open(path)
    second = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    try:
        bot = await registered_bot(second, settings)  # a new process: nothing in memory
        interaction = await click(bot, "bg:challenge:accept", BOB)
        assert not only_sent(interaction).get("ephemeral")
        assert interaction.original_edits == [{"view": None}]
        table = await second.table(PLACE)
        assert table is not None and table.names == ("alice", "bob")
    finally:
        second.close()
        await store.close()


async def test_a_failing_press_gets_an_apology(
    service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await registered_bot(service, settings)

    async def broken(place: object) -> None:
        raise RuntimeError("store gone")

    monkeypatch.setattr(service, "pending_decision", broken)
    button = registered_button(bot, "bg:turn:roll")
    view = button.view
    assert view is not None
    interaction = FakeInteraction(ALICE)
    try:
        await button.callback(interaction)  # type: ignore[arg-type]
    except RuntimeError as error:
        await view.on_error(interaction, error, button)  # type: ignore[arg-type]
    sent = interaction.everything_sent
    assert len(sent) == 1 and sent[0]["ephemeral"] is True
    assert sent[0]["content"].startswith("Sorry, something went wrong (error ")
