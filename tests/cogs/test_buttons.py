"""Every button: the right player, the wrong one, a press on an older question, and the views.

Presses through discord.py's own dispatch (every kind of message, a restart) are in
``test_button_dispatch.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import fields

import pytest

from bot.cogs.buttons import (
    BUTTON_SPECS,
    KEY_BUTTONS,
    OLD_TEMPLATE,
    ButtonSpec,
    KeyButton,
    OldButton,
    button_ids,
    custom_id,
    decision_view,
    read_custom_id,
)
from bot.discord_bot import BackgammonBot
from bot.i18n.core import ENGLISH, LANGUAGES, Language, Message
from bot.i18n.play import OUT_OF_DATE, OUT_OF_DATE_CHALLENGE
from bot.service.keys import ChallengeKey, MatchKey
from bot.service.models import Decision, Pending, Place, Reply, User
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, PNG, Person

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
MEMBERS = {str(member.id): member for member in (ALICE, BOB)}

STALE, STALE_CHALLENGE = OUT_OF_DATE(ENGLISH), OUT_OF_DATE_CHALLENGE(ENGLISH)


def user(member: Person) -> User:
    return User(str(member.id), member.name)


def public(replies: list[Reply]) -> list[Reply]:
    assert replies and not any(reply.private for reply in replies), replies
    return replies


async def pending(service: TableService) -> Pending:
    question = await service.pending_decision(PLACE)
    assert question is not None
    return question


async def challenged(service: TableService, length: str = "3") -> Person:
    public(await service.matches.challenge(PLACE, user(ALICE), user(BOB), length))
    return BOB


async def step(service: TableService) -> None:
    """One move of the game: a roll at a turn, else the first legal play."""
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    actor = user(MEMBERS[table.row.player_ids[table.match.turn]])
    if table.match.phase == "roll":
        public(await service.matches.roll(PLACE, actor))
    else:
        assert table.match.phase == "move", table.match.phase
        public(await service.matches.move(PLACE, actor, table.match.legal_plays()[0].notation))


async def until_turn(service: TableService) -> Person:
    """Play on until someone must roll or double; returns them."""
    while (question := await service.pending_decision(PLACE)) is None:
        await step(service)
    assert question.decision is Decision.TURN
    return MEMBERS[question.user_id]


async def at_turn(service: TableService) -> Person:
    """A 3-point match where someone must roll or double; returns them."""
    await challenged(service)
    public(await service.matches.accept(PLACE, user(BOB)))
    return await until_turn(service)


async def doubled(service: TableService) -> Person:
    roller = await at_turn(service)
    public(await service.matches.double(PLACE, user(roller)))
    return await waiting_on(service, Decision.DOUBLE)


async def resigned(service: TableService) -> Person:
    roller = await at_turn(service)
    public(await service.matches.resign(PLACE, user(roller), "gammon"))
    return await waiting_on(service, Decision.RESIGNATION)


async def waiting_on(service: TableService, decision: Decision) -> Person:
    question = await pending(service)
    assert question.decision is decision
    return MEMBERS[question.user_id]


async def finished(service: TableService) -> Person:
    """A 3-point match that ended by a resignation of a backgammon; returns its loser."""
    roller = await at_turn(service)
    public(await service.matches.resign(PLACE, user(roller), "backgammon"))
    public(await service.matches.accept(PLACE, user(other(roller))))
    return await waiting_on(service, Decision.REMATCH)


def other(member: Person) -> Person:
    return ALICE if member == BOB else BOB


Setup = Callable[[TableService], Awaitable[Person]]
SETUPS: dict[Decision, Setup] = {
    Decision.CHALLENGE: challenged,
    Decision.TURN: at_turn,
    Decision.DOUBLE: doubled,
    Decision.RESIGNATION: resigned,
    Decision.REMATCH: finished,
}
# A tournament's sign-up, a review's pages and an analysis' Review button are anyone's to press
# (tests/service/tournaments and tests/service/review test their buttons, as they do a drill's;
# tests/service/puzzles a puzzle's, a storm's and the daily puzzle's).
ANYONES = (
    Decision.SIGNUP,
    Decision.REVIEW,
    Decision.REVIEW_ERRORS,
    Decision.ANALYSED,
    Decision.DRILL_DOUBLE,
    Decision.DRILL_TAKE,
    Decision.PUZZLE_DOUBLE,
    Decision.PUZZLE_TAKE,
    Decision.DAILY_PLAY,
    Decision.DAILY_DOUBLE,
    Decision.DAILY_TAKE,
    Decision.STORM_DOUBLE,
    Decision.STORM_TAKE,
)
SPECS = [
    pytest.param(spec, id=f"{spec.decision.value}:{spec.action}")
    for spec in BUTTON_SPECS
    if spec.decision not in ANYONES
]


# -- the decision, without Discord ------------------------------------------------------------


@pytest.mark.parametrize(
    ("decision", "action", "after"),
    [
        (Decision.CHALLENGE, "accept", "move"),
        (Decision.CHALLENGE, "decline", None),
        (Decision.TURN, "roll", "move"),
        (Decision.TURN, "double", "doubled"),
        (Decision.DOUBLE, "take", "move"),  # the doubler can't redouble: their roll is automatic
        (Decision.DOUBLE, "drop", "move"),  # the next game starts with its opening roll
        (Decision.RESIGNATION, "accept", "move"),
        (Decision.RESIGNATION, "reject", "roll"),
        (Decision.REMATCH, "rematch", None),  # a challenge to the winner
    ],
)
async def test_the_right_player_presses(
    service: TableService, decision: Decision, action: str, after: str | None
) -> None:
    player = await SETUPS[decision](service)
    key = (await pending(service)).key
    result = await service.press(PLACE, user(player), action, key)
    assert result.closed
    public(result.replies)
    table = await service.table(PLACE)
    assert (table.match.phase if table else None) == after
    if after is not None:
        assert result.replies[-1].image is not None and result.replies[-1].image.startswith(PNG)


@pytest.mark.parametrize("spec", SPECS)
async def test_anyone_else_is_told_whose_decision_it_is(
    service: TableService, spec: ButtonSpec
) -> None:
    player = await SETUPS[spec.decision](service)
    before = await pending(service)
    # Either player may answer a rematch: only someone else is refused.
    intruders = (CAROL,) if spec.decision is Decision.REMATCH else (other(player), CAROL)
    for intruder in intruders:
        result = await service.press(PLACE, user(intruder), spec.action, before.key)
        assert [(r.text, r.private) for r in result.replies] == [
            (f"Not your decision: waiting for {player.name}.", True)
        ]
        assert not result.closed
    assert await service.pending_decision(PLACE) == before


@pytest.mark.parametrize("spec", SPECS)
async def test_a_button_of_another_kind_of_question_is_stale(
    service: TableService, spec: ButtonSpec
) -> None:
    # Each button is pressed with the key it would carry when the table waits on another kind
    # of decision: a forged or very old id never acts.
    stale_setup = at_turn if spec.decision is not Decision.TURN else doubled
    player = await stale_setup(service)
    before = await pending(service)
    result = await service.press(PLACE, user(player), spec.action, MatchKey(999, 1))
    assert [(r.text, r.private) for r in result.replies] == [(STALE, True)]
    assert result.closed
    assert await service.pending_decision(PLACE) == before


async def test_accept_on_an_old_challenge_does_not_accept_a_newer_one(
    service: TableService,
) -> None:
    await challenged(service, "3")
    old = (await pending(service)).key
    public(await service.matches.cancel(PLACE, user(ALICE)))
    await challenged(service, "7")  # other terms, same players
    newer = await pending(service)
    assert newer.key != old

    result = await service.press(PLACE, user(BOB), "accept", old)
    assert [(r.text, r.private) for r in result.replies] == [(STALE_CHALLENGE, True)]
    assert result.closed
    assert await service.table(PLACE) is None
    assert await service.pending_decision(PLACE) == newer

    accepted = await service.press(PLACE, user(BOB), "accept", newer.key)
    public(accepted.replies)
    table = await service.table(PLACE)
    assert table is not None and table.match.length == 7


async def test_roll_on_an_old_turn_does_not_roll_a_later_turn(service: TableService) -> None:
    roller = await at_turn(service)
    old = (await pending(service)).key
    public(await service.matches.roll(PLACE, user(roller)))
    while True:  # play on to a later turn of the same player
        await step(service)
        question = await service.pending_decision(PLACE)
        if question is not None and question.user_id == str(roller.id):
            break
        if question is not None:
            public(await service.matches.roll(PLACE, user(MEMBERS[question.user_id])))
    assert question.decision is Decision.TURN and question.key != old

    for action in ("roll", "double"):
        result = await service.press(PLACE, user(roller), action, old)
        assert [r.text for r in result.replies] == [STALE]
        assert await service.pending_decision(PLACE) == question


async def test_take_on_an_old_double_does_not_answer_a_later_double(
    service: TableService,
) -> None:
    taker = await doubled(service)
    old = (await pending(service)).key
    public(await service.matches.drop(PLACE, user(taker)))  # the next game starts
    roller = await until_turn(service)
    public(await service.matches.double(PLACE, user(roller)))
    later = await pending(service)
    assert later.decision is Decision.DOUBLE and later.key != old

    for action in ("take", "drop"):
        result = await service.press(PLACE, user(MEMBERS[later.user_id]), action, old)
        assert [r.text for r in result.replies] == [STALE]
        assert await service.pending_decision(PLACE) == later


async def test_accept_on_an_old_resignation_does_not_accept_a_later_one(
    service: TableService,
) -> None:
    decider = await resigned(service)
    old = (await pending(service)).key
    public(await service.matches.reject(PLACE, user(decider)))
    roller = await until_turn(service)
    public(await service.matches.resign(PLACE, user(roller), "backgammon"))
    later = await pending(service)
    assert later.decision is Decision.RESIGNATION and later.key != old

    result = await service.press(PLACE, user(MEMBERS[later.user_id]), "accept", old)
    assert [r.text for r in result.replies] == [STALE]
    assert await service.pending_decision(PLACE) == later


async def test_a_button_pressed_twice_is_stale_the_second_time(service: TableService) -> None:
    roller = await at_turn(service)
    key = (await pending(service)).key
    public((await service.press(PLACE, user(roller), "roll", key)).replies)
    again = await service.press(PLACE, user(roller), "roll", key)
    assert again.replies[0].text == STALE


async def test_buttons_of_a_finished_challenge_are_stale(service: TableService) -> None:
    await challenged(service)
    key = (await pending(service)).key
    public(await service.matches.cancel(PLACE, user(ALICE)))
    result = await service.press(PLACE, user(BOB), "accept", key)
    assert result.replies[0].text == STALE_CHALLENGE


async def test_beaver_is_refused_where_beavers_are_off(service: TableService) -> None:
    taker = await doubled(service)
    key = (await pending(service)).key
    result = await service.press(PLACE, user(taker), "beaver", key)
    assert result.replies[0].private
    assert "beaver" in result.replies[0].text.lower()
    assert not result.closed  # the double still waits for an answer
    assert (await service.pending_decision(PLACE)) is not None


async def test_an_unknown_action_or_an_old_format_button_is_stale(service: TableService) -> None:
    await challenged(service)
    key = (await pending(service)).key
    assert (await service.press(PLACE, user(BOB), "take", key)).replies[0].text == STALE_CHALLENGE
    assert (await service.press(PLACE, user(BOB), "old", None)).replies[0].text == STALE
    assert await service.table(PLACE) is None


# -- the views --------------------------------------------------------------------------------


def test_each_decision_shows_only_its_buttons_each_naming_the_question() -> None:
    assert button_ids(decision_view(Decision.CHALLENGE, ChallengeKey(12), language="en")) == [
        "bg:accept:c12",
        "bg:decline:c12",
    ]
    assert button_ids(decision_view(Decision.DOUBLE, MatchKey(7, 53), language="en")) == [
        "bg:take:m7.53",
        "bg:drop:m7.53",
    ]
    assert button_ids(
        decision_view(Decision.DOUBLE, MatchKey(7, 53), money_game=True, language="en")
    ) == [
        "bg:take:m7.53",
        "bg:drop:m7.53",
        "bg:beaver:m7.53",
    ]
    assert button_ids(decision_view(Decision.RESIGNATION, MatchKey(7, 54), language="en")) == [
        "bg:accept:m7.54",
        "bg:reject:m7.54",
    ]
    assert button_ids(decision_view(Decision.TURN, MatchKey(7, 55), language="en")) == [
        "bg:roll:m7.55",
        "bg:double:m7.55",
    ]


@pytest.mark.parametrize("decision", list(Decision))
def test_a_view_is_only_dynamic_items_and_never_times_out(decision: Decision) -> None:
    kind = decision.key_kind
    view = decision_view(decision, kind(*[1] * len(fields(kind))), money_game=True, language="de")
    assert view.timeout is None
    assert view.children and all(isinstance(item, KeyButton) for item in view.children)
    labels = [(item.item.label, item.item.style) for item in view.children]  # type: ignore[attr-defined]
    specs = [(s.worded("de"), s.style) for s in BUTTON_SPECS if s.decision is decision]
    assert labels == specs


def test_the_ids_fit_discord_and_the_templates() -> None:
    longest = custom_id("decline", MatchKey(10**18 - 1, 10**18 - 1))
    assert len(longest) <= 100
    for spec in BUTTON_SPECS:
        assert read_custom_id(custom_id(spec.action, ChallengeKey(1))) == (
            spec.action,
            ChallengeKey(1),
        )
        assert not OLD_TEMPLATE.fullmatch(custom_id(spec.action, ChallengeKey(1)))
    assert read_custom_id("bg:turn:roll") == ("old", None)
    with pytest.raises(ValueError, match="bg:Roll:c1"):
        custom_id("Roll", ChallengeKey(1))
    # an action names one button within its decision
    assert len({(spec.decision, spec.action) for spec in BUTTON_SPECS}) == len(BUTTON_SPECS)


async def test_the_bot_registers_both_dynamic_items(
    service: TableService, settings: Settings
) -> None:
    bot = BackgammonBot(service, settings)
    await bot.setup_hook()
    registered = set(bot._connection._view_store._dynamic_items.values())
    assert registered == {*KEY_BUTTONS.values(), OldButton}
    assert bot.persistent_views == []  # nothing fixed: every id names its question


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != ENGLISH])
def test_every_label_is_short_and_in_the_language(language: Language) -> None:
    """Discord allows 80 characters; a table's row holds a few buttons of a word or two. Only
    symbols and Beaver (the word of every language's players) read as in English."""
    for spec in BUTTON_SPECS:
        label = spec.worded(language)
        assert 0 < len(label) <= 20 and len(label.split()) <= 3, label
        same = label == spec.worded(ENGLISH)
        assert same is (not isinstance(spec.label, Message) or label == "Beaver"), label
