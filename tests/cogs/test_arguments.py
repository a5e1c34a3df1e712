"""Arguments as discord.py reads them, unknown commands, out-of-date slash commands and ``void``.

Through :mod:`tests.cogs.wire`: the real converters, command tree and error handler. Every
argument a command can't read is refused and changes nothing; an optional argument is never
silently dropped.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord_bot import BackgammonBot
from bot.service.models import Decision, Pending, Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, SEED, Person, Sent, Wire

PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
MOD = Person(300000000000000004, "mod", moderator=True)
PEOPLE = {str(person.id): person for person in (ALICE, BOB, CAROL, MOD)}
OUTDATED = "The bot's commands are being updated: try again in a minute."


@pytest.fixture
async def wire(tmp_path: Path, settings: Settings) -> AsyncIterator[Wire]:
    store = await Store.open(tmp_path / "args.sqlite3")
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    bot = BackgammonBot(service, settings)
    await bot._async_setup_hook()
    await bot.setup_hook()
    wire = Wire(bot)
    wire.join(*PEOPLE.values())
    yield wire
    service.close()
    await store.close()


def one(sent: list[Sent]) -> Sent:
    assert len(sent) == 1, [message.content for message in sent]
    return sent[0]


async def pending(wire: Wire) -> Pending | None:
    return await wire.bot.service.pending_decision(PLACE)


async def at_turn(wire: Wire) -> Person:
    """A 3-point match where someone must roll or double; returns them."""
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    await wire.type(BOB, "!accept")
    service = wire.bot.service
    while (question := await pending(wire)) is None:
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        mover = PEOPLE[table.row.player_ids[table.match.turn]]
        await wire.type(mover, f"!move {table.match.legal_plays()[0].notation}")
    assert question.decision is Decision.TURN
    return PEOPLE[question.user_id]


# -- resign -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "quoted"),
    [
        ("!resign everything", "'everything'"),
        ("!resign gamon", "'gamon'"),  # a typo is no single game
        ("!resign gammon please", "'gammon please'"),  # extra words change nothing silently
        ("!resign 2", "'2'"),
    ],
)
async def test_a_resignation_the_bot_cant_read_is_refused(
    wire: Wire, typed: str, quoted: str
) -> None:
    roller = await at_turn(wire)
    before = await pending(wire)
    refusal = one(await wire.type(roller, typed))
    assert refusal.content.startswith(f"{quoted} is not a resignation: say `single`, `gammon`")
    assert not refusal.custom_ids
    assert await pending(wire) == before  # no resignation offered


@pytest.mark.parametrize("typed", ["!resign", "!resign gammon", "!resign  Backgammon "])
async def test_a_resignation_it_can_read_is_offered(wire: Wire, typed: str) -> None:
    roller = await at_turn(wire)
    offer = one(await wire.type(roller, typed))
    question = await pending(wire)
    assert question is not None and question.decision is Decision.RESIGNATION
    level = typed.split()[1].lower() if len(typed.split()) > 1 else "single"
    assert level in offer.content.lower()


async def test_slash_resign_offers_its_levels_as_choices(wire: Wire) -> None:
    command = wire.bot.tree.get_command("resign")
    assert command is not None
    [level] = command.parameters  # type: ignore[union-attr]
    assert [choice.value for choice in level.choices] == ["single", "gammon", "backgammon"]
    assert not level.required

    roller = await at_turn(wire)
    offer = one(await wire.slash(roller, "resign", level="gammon"))
    assert offer.via == "response" and not offer.ephemeral and "gammon" in offer.content
    question = await pending(wire)
    assert question is not None and question.decision is Decision.RESIGNATION


# -- stats, help, challenge, sync -------------------------------------------------------------


async def test_stats_of_someone_it_cant_find_is_refused(wire: Wire) -> None:
    await at_turn(wire)  # alice has a record
    refusal = one(await wire.type(ALICE, "!stats nobody"))
    assert refusal.content.startswith("I can't find the member 'nobody' here")
    assert "alice" not in refusal.content  # not alice's own record

    own = one(await wire.type(ALICE, "!stats"))
    assert own.content.startswith("alice: rating")
    bob = one(await wire.type(ALICE, f"!stats <@{BOB.id}>"))
    assert bob.content.startswith("bob: rating")


async def test_help_reads_all_its_words(wire: Wire) -> None:
    assert "move <play>" in one(await wire.type(CAROL, "!help move")).content
    refusal = one(await wire.type(CAROL, "!help move please"))
    assert "'move please'" in refusal.content and "`!help` lists them all" in refusal.content


async def test_a_challenge_of_someone_it_cant_find_is_refused(wire: Wire) -> None:
    refusal = one(await wire.type(ALICE, "!challenge nobody 5"))
    assert refusal.content.startswith("I can't find the member 'nobody' here")
    assert await pending(wire) is None
    terms = one(await wire.type(ALICE, f"!challenge <@{BOB.id}> 5 points please"))
    assert terms.content.startswith("'please' is not a match option")
    assert await pending(wire) is None


async def test_sync_with_a_scope_it_cant_read_is_refused(wire: Wire) -> None:
    wire.bot.owner_id = ALICE.id
    refusal = one(await wire.type(ALICE, "!sync everything"))
    assert refusal.content.startswith("'everything' is not one of `global`, `guild`, `clear`")


# -- unknown commands -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant"), [("rol", "roll"), ("mvoe", "move"), ("acept", "accept")]
)
async def test_a_near_miss_gets_a_hint(wire: Wire, typed: str, meant: str) -> None:
    hint = one(await wire.type(ALICE, f"!{typed} 13/7"))
    assert hint.content == (
        f"Unknown command '!{typed}'. Did you mean `!{meant}`? `!help` lists them all."
    )
    assert hint.request["allowed_mentions"] == {"parse": [], "replied_user": False}
    assert "message_reference" in hint.request  # a reply to the typed command


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("!undo", "A play is final once it is sent: there is no undo."),
        ("!takeback", "A play is final once it is sent: there is no undo."),
        ("!cube", "The cube is `!double` here"),
        ("!Pass", "To refuse a double, `!drop`"),
        ("!skip", "Nothing to skip"),
        ("!quit now", "`!resign` gives up the game"),
        ("!forfeit", "`!resign` gives up the game"),
        ("!surrender", "`!resign` gives up the game"),
    ],
)
async def test_words_of_other_clients_point_to_ours(wire: Wire, typed: str, said: str) -> None:
    answer = one(await wire.type(ALICE, typed))
    assert answer.content.startswith(said), answer.content
    assert "\n" not in answer.content and len(answer.content) < 200  # one short line


@pytest.mark.parametrize(
    ("terms", "beaver"), [("3", False), ("money", False), ("money beavers", True)]
)
async def test_cube_names_the_beaver_only_where_the_game_allows_beavers(
    wire: Wire, terms: str, beaver: bool
) -> None:
    assert "`!beaver`" not in one(await wire.type(ALICE, "!cube")).content  # no game here
    await wire.type(ALICE, f"!challenge <@{BOB.id}> {terms}")
    await wire.type(BOB, "!accept")
    answer = one(await wire.type(ALICE, "!cube"))
    assert answer.content.startswith("The cube is `!double` here"), answer.content
    assert ("`!beaver`" in answer.content) == beaver, answer.content


@pytest.mark.parametrize("typed", ["!foo", "!play music", "!8ball", "!!", "!"])
async def test_anything_else_is_left_to_other_bots(wire: Wire, typed: str) -> None:
    assert await wire.type(ALICE, typed) == []


# -- slash commands Discord still shows from before -------------------------------------------


async def test_a_slash_command_that_no_longer_exists(
    wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        answer = one(await wire.slash(ALICE, "forfeit"))
    assert answer.ephemeral and answer.content.startswith(OUTDATED)
    assert "`!sync`" in answer.content
    [record] = [r for r in caplog.records if "out of date" in r.getMessage()]
    assert record.levelno == logging.WARNING and record.exc_info is None


async def test_a_slash_command_whose_options_changed(
    wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        answer = one(await wire.slash(ALICE, "move"))  # the required `play` is missing
    assert answer.ephemeral and answer.content.startswith(OUTDATED)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# -- void -------------------------------------------------------------------------------------


async def test_a_moderator_voids_a_stuck_match(wire: Wire) -> None:
    await at_turn(wire)
    voided = one(await wire.type(MOD, "!void"))
    assert not voided.ephemeral and "voided the match between alice and bob" in voided.content
    assert await wire.bot.service.table(PLACE) is None


async def test_a_moderator_voids_by_slash_command(wire: Wire) -> None:
    await at_turn(wire)
    voided = one(await wire.slash(MOD, "void"))
    assert voided.via == "response" and not voided.ephemeral
    assert await wire.bot.service.table(PLACE) is None


@pytest.mark.parametrize("slash", [False, True])
async def test_anyone_else_is_refused_void(wire: Wire, slash: bool) -> None:
    await at_turn(wire)
    before = await pending(wire)
    for player in (ALICE, CAROL):
        sent = await wire.slash(player, "void") if slash else await wire.type(player, "!void")
        refusal = one(sent)
        assert refusal.content.startswith("Only moderators (Manage Messages in this channel)")
        assert refusal.ephemeral == slash
    assert await pending(wire) == before


def test_void_is_shown_to_moderators_only(wire: Wire) -> None:
    command = wire.bot.tree.get_command("void")
    assert command is not None
    assert command.default_permissions is not None
    assert command.default_permissions.manage_messages
    assert command.guild_only


async def test_a_flood_of_typos_gets_a_few_hints_then_silence(wire: Wire) -> None:
    hints = [message for _ in range(10) for message in await wire.type(CAROL, "!rol")]
    watcher = wire.bot.gate.limiter.limits.watcher.count
    assert 1 <= len(hints) <= watcher
    assert all(hint.content.startswith("Unknown command '!rol'") for hint in hints)
