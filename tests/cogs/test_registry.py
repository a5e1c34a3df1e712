"""The command registry drives every front end: the console's text router, the prefix and slash
commands and the buttons reach every command of :data:`COMMANDS` and hand its handler the same
arguments; ``!help`` lists them all; and an entry added to the registry appears in all of them.

Discord is faked only at its HTTP edge (:mod:`tests.cogs.wire`): discord.py's own converters and
command tree read the arguments. The handlers run for real; a spy notes what each was given.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.cogs.buttons import BUTTON_SPECS, STYLES, button_specs
from bot.cogs.hybrid import Ctx, MemberOrMe, Someone, table_command
from bot.cogs.table import TableCog
from bot.discord_bot import BackgammonBot
from bot.i18n.core import Message
from bot.service import table as table_module
from bot.service.commands.help import help_text, suggest
from bot.service.commands.limits import Limiter, Limits
from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import Argument, Button, Command, CommandTable, Kind, Tone
from bot.service.matches.commands import MatchCommands
from bot.service.models import Decision, Place, Rate, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, SEED, Person, Wire

PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
MOD = Person(300000000000000004, "mod", moderator=True)
PEOPLE = {f"@{person.name}": person for person in (ALICE, BOB, MOD)}
# Routing is under test here, not rate limits: nobody is ever silenced.
ROOMY = Rate(10_000, 1.0)
LIMITS = Limits(player=ROOMY, watcher=ROOMY, watchers=ROOMY)

# Added to the registry in a test: one command with a user and text, one with a button.
DARE = Command(
    "dare",
    example="dare @bob 3",
    summary="challenge someone, daringly",
    arguments=(
        Argument(
            "rival",
            Kind.USER,
            "Whom you dare",
            required=True,
            missing=Message("test_whom", "Whom?"),
        ),
        Argument("terms", Kind.TEXT, "The match you propose"),
    ),
    aliases=("defy",),
    handler=MatchCommands.challenge,
)
SHRUG = Command(
    "shrug",
    example="shrug",
    summary="turn a challenge down, casually",
    handler=MatchCommands.decline,
    buttons=(Button(Decision.CHALLENGE, "Shrug", Tone.ASIDE),),
)
EXTENDED = COMMANDS.adding(DARE, SHRUG)

Noted = tuple[str, tuple[str | None, ...], dict[str, Any]]


@pytest.fixture
async def wire(tmp_path: Path, settings: Settings) -> AsyncIterator[Wire]:
    store = await Store.open(tmp_path / "registry.sqlite3")
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    bot = BackgammonBot(service, settings, limiter=Limiter(LIMITS))
    await bot._async_setup_hook()
    await bot.setup_hook()
    wire = Wire(bot)
    wire.join(*PEOPLE.values())
    yield wire
    service.close()
    await store.close()


def spy(service: TableService, table: CommandTable, monkeypatch: pytest.MonkeyPatch) -> list[Noted]:
    """Note the arguments each handler of ``table`` is given (users by name), then run it."""
    noted: list[Noted] = []

    def watching(entry: Command) -> Callable[..., Awaitable[list[Reply]]]:
        method = method_name(entry)
        real = service.handler(entry)

        async def handler(place: Place, user: User, *arguments: Any, **options: Any) -> Any:
            plain = tuple(value.name if isinstance(value, User) else value for value in arguments)
            # The front end's own thread opener (Discord's only) is not an argument typed.
            typed = {name: value for name, value in options.items() if name != "threads"}
            noted.append((method, plain, typed))
            return await real(place, user, *arguments, **options)

        return handler

    for entry in {method_name(entry): entry for entry in table}.values():  # each method once
        monkeypatch.setattr(service.room(entry), method_name(entry), watching(entry))
    return noted


def console_user(word: str) -> User | None:
    person = PEOPLE.get(word)
    return User(str(person.id), person.name) if person is not None else None


def sample(argument: Argument) -> str | Person:
    """A value of ``argument`` to type: several words for the rest of a line."""
    if argument.kind is Kind.USER:
        return BOB
    if argument.kind is Kind.CHOICE:
        return argument.choices[-1]
    if argument.kind is Kind.COMMAND:
        return "move"
    if argument.kind is Kind.PLAY:
        return "13/7  8/7"
    return "5  points please"


def cases(table: CommandTable) -> Iterator[Any]:
    """Each command with every argument given, and with only the required ones."""
    for entry in table:
        given = {argument.name: sample(argument) for argument in entry.arguments}
        yield pytest.param(entry, given, id=f"{entry.name}-all")
        required = {a.name: given[a.name] for a in entry.arguments if a.required}
        if required != given:
            yield pytest.param(entry, required, id=f"{entry.name}-required")


def method_name(entry: Command) -> str:
    """The name of the room's method that carries ``entry`` out."""
    assert entry.handler is not None
    return entry.handler.__name__


def typed(word: str, given: dict[str, str | Person], mention: Callable[[Person], str]) -> str:
    values = [mention(value) if isinstance(value, Person) else value for value in given.values()]
    return " ".join(["!" + word, *values])


def expected(entry: Command, given: dict[str, str | Person]) -> Noted:
    values = []
    for argument in entry.arguments:
        value = given.get(argument.name)
        values.append(value.name if isinstance(value, Person) else value)
    options = {"moderator": True} if entry.moderator else {}
    if entry.organiser:
        options["organiser"] = True  # MOD has Manage Server too
    if entry.manager:
        options["manager"] = True  # MOD has Manage Server
    return method_name(entry), tuple(values), options


async def through_each_front_end(
    wire: Wire, noted: list[Noted], entry: Command, given: dict[str, str | Person], word: str
) -> dict[str, list[Noted]]:
    """What ``entry``'s handler was given when MOD used it from the console, as a prefix
    command and as a slash command."""
    service = wire.bot.service
    seen: dict[str, list[Noted]] = {}
    mod = User(str(MOD.id), MOD.name)
    await service.run(PLACE, mod, typed(word, given, lambda p: f"@{p.name}"), users=console_user)
    seen["console"], noted[:] = noted[:], []
    await wire.type(MOD, typed(word, given, lambda p: f"<@{p.id}>"))
    seen["prefix"], noted[:] = noted[:], []
    await wire.slash(MOD, entry.name, **given)
    seen["slash"], noted[:] = noted[:], []
    return seen


# -- every command, the same from each front end ----------------------------------------------


@pytest.mark.parametrize(("entry", "given"), list(cases(COMMANDS)))
async def test_every_command_gets_the_same_arguments_from_each_front_end(
    wire: Wire, monkeypatch: pytest.MonkeyPatch, entry: Command, given: dict[str, str | Person]
) -> None:
    noted = spy(wire.bot.service, COMMANDS, monkeypatch)
    seen = await through_each_front_end(wire, noted, entry, given, entry.name)
    want = [expected(entry, given)]
    assert seen == {"console": want, "prefix": want, "slash": want}


def test_the_cog_declares_each_argument_as_the_registry_does() -> None:
    hybrid = {command.name: command for command in TableCog.__cog_commands__}
    assert list(hybrid) == [entry.name for entry in COMMANDS]
    for entry in COMMANDS:
        command = hybrid[entry.name]
        assert command.aliases == list(entry.aliases)
        prefix = list(command.clean_params.values())
        app = command.app_command if isinstance(command, commands.HybridCommand) else None
        assert app is not None, entry.name
        slash = app.parameters
        assert (
            [p.name for p in prefix] == [p.name for p in slash] == [a.name for a in entry.arguments]
        )
        for argument, word, option in zip(entry.arguments, prefix, slash, strict=True):
            assert option.description == argument.description
            assert option.required == word.required == argument.required
            assert (word.kind is inspect.Parameter.KEYWORD_ONLY) == argument.rest_of_line
            user = discord.AppCommandOptionType.user
            assert (option.type is user) == (argument.kind is Kind.USER)
            if argument.kind is Kind.USER:
                assert word.converter is MemberOrMe  # a Member, or the word `bot` for me
            assert [c.value for c in option.choices] == list(argument.choices)
            assert option.autocomplete == argument.kind.autocompleted
        assert app.guild_only == entry.guild_only
        anywhere = not entry.guild_only  # a user install's DMs and group DMs too
        installs, contexts = app.allowed_installs, app.allowed_contexts
        assert installs is not None and contexts is not None, entry.name
        assert (installs.guild, installs.user) == (True, anywhere), entry.name
        assert (contexts.guild, contexts.dm_channel, contexts.private_channel) == (
            True,
            anywhere,
            anywhere,
        ), entry.name
        permissions = app.default_permissions
        assert (permissions is not None and permissions.manage_messages) == entry.moderator


def test_each_command_is_a_method_written_in_the_cog() -> None:
    source = Path(inspect.getfile(TableCog)).read_text(encoding="utf-8")
    for command in TableCog.__cog_commands__:
        callback = command.callback
        assert not hasattr(callback, "__wrapped__") and "__signature__" not in vars(callback)
        assert callback.__qualname__ == f"TableCog.{callback.__name__}"
        assert f"    async def {callback.__name__}(self, ctx: Ctx" in source, command.name
        assert f'@table_command("{command.name}")' in source


def test_every_handler_takes_the_arguments_of_its_entry() -> None:
    for entry in COMMANDS:
        method = entry.handler
        assert inspect.iscoroutinefunction(method), entry.name
        parameters = list(inspect.signature(method).parameters.values())[3:]  # self, place, user
        positional = [p for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
        keywords = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
        assert len(positional) == len(entry.arguments), entry.name
        for parameter, argument in zip(positional, entry.arguments, strict=True):
            assert (parameter.default is parameter.empty) == argument.required, entry.name
        expected = ["moderator"] if entry.moderator else []
        expected += ["organiser"] if entry.organiser else []  # Manage Server, or the role
        expected += ["answering"] if entry.buttons else []  # a press answers its question
        expected += ["threads"] if entry.opens_thread else []  # the front end's thread opener
        expected += ["manager"] if entry.manager else []  # Manage Server
        assert keywords == expected, entry.name


def test_the_buttons_are_the_registrys() -> None:
    from_registry = [
        (command.name + button.word, button.decision, button.label)
        for command, button in COMMANDS.buttons()
    ]
    assert [(s.action, s.decision, s.label) for s in BUTTON_SPECS] == from_registry
    for spec in BUTTON_SPECS:
        found = COMMANDS.pressed(spec.action)
        assert found is not None, spec.action
        entry = found[0]
        assert entry.buttons  # a press runs the command its action names
        assert not any(argument.required for argument in entry.arguments)
    assert {spec.decision for spec in BUTTON_SPECS} == set(Decision)  # every question answered


def test_help_lists_every_command_and_explains_each(settings: Settings) -> None:
    listed = help_text(settings, COMMANDS, language="en").splitlines()
    for entry in COMMANDS:
        assert sum(line.startswith(f"`!{entry.usage}` - ") for line in listed) == 1
        for word in (entry.name, *entry.aliases):
            assert help_text(settings, COMMANDS, word, language="en").startswith(
                f"**!{entry.usage}**"
            )


# -- a new entry appears everywhere -------------------------------------------------------------


def test_a_new_entry_is_in_help_and_in_the_buttons(settings: Settings) -> None:
    assert "`!dare @user [terms]` - challenge someone, daringly (also `!defy`)" in help_text(
        settings, commands=EXTENDED, language="en"
    )
    assert help_text(settings, EXTENDED, "defy", language="en").startswith(
        "**!dare @user [terms]**"
    )
    assert suggest("dar", EXTENDED) == "dare" and suggest("dar", COMMANDS) is None
    [shrug] = [spec for spec in button_specs(EXTENDED) if spec.action == "shrug"]
    assert shrug.decision is Decision.CHALLENGE and shrug.style is STYLES[Tone.ASIDE]
    assert EXTENDED.by_name[shrug.action].handler is MatchCommands.decline


@pytest.mark.parametrize("word", ["dare", "defy"])
async def test_a_new_entry_is_a_console_prefix_and_slash_command(
    wire: Wire, monkeypatch: pytest.MonkeyPatch, word: str
) -> None:
    class DaringCog(TableCog):
        @table_command("dare", EXTENDED)
        async def dare(self, ctx: Ctx, rival: Someone, *, terms: str | None = None) -> None:
            await self.carry_out(ctx, rival, terms)

    bot = wire.bot
    await bot.remove_cog("Backgammon")
    await bot.add_cog(DaringCog(bot.service, bot.live))
    monkeypatch.setattr(table_module, "COMMANDS", EXTENDED)
    noted = spy(bot.service, EXTENDED, monkeypatch)

    given: dict[str, str | Person] = {"rival": ALICE, "terms": "3"}
    seen = await through_each_front_end(wire, noted, DARE, given, word)
    want: list[Noted] = [("challenge", ("alice", "3"), {})]
    assert seen == {"console": want, "prefix": want, "slash": want}
    assert isinstance(bot.get_command(word), commands.HybridCommand)
    assert bot.get_command("move") is not None  # the others are still there


class Dares:
    """Methods for DARE: one that takes its arguments, and some that don't."""

    async def takes(self, ctx: Ctx, rival: Someone, *, terms: str | None = None) -> None:
        pass

    async def by_text(self, ctx: Ctx, rival: str, *, terms: str | None = None) -> None:
        pass

    async def one_short(self, ctx: Ctx, *, terms: str | None = None) -> None:
        pass

    async def all_required(self, ctx: Ctx, rival: Someone, *, terms: str) -> None:
        pass

    async def one_word(self, ctx: Ctx, rival: Someone, terms: str | None = None) -> None:
        pass


@pytest.mark.parametrize(
    ("method", "refusal"),
    [
        (Dares.by_text, "'rival' is not read as the entry's"),
        (Dares.one_short, "the method takes \\['terms'\\]"),
        (Dares.all_required, "'terms' is not declared as the entry's"),
        (Dares.one_word, "'terms' is not declared as the entry's"),
    ],
)
def test_a_method_that_does_not_take_its_entrys_arguments_is_refused(
    method: Callable[..., Any], refusal: str
) -> None:
    assert isinstance(table_command("dare", EXTENDED)(Dares.takes), commands.HybridCommand)
    with pytest.raises(ValueError, match=refusal):
        table_command("dare", EXTENDED)(method)


def test_an_entry_the_front_ends_could_not_all_read_is_refused() -> None:
    with pytest.raises(ValueError, match="'ctx'"):
        table_command(
            "dare",
            COMMANDS.adding(
                Command(
                    "dare",
                    example="dare",
                    summary="x",
                    arguments=(Argument("ctx", Kind.TEXT, "x"),),
                    handler=MatchCommands.challenge,
                )
            ),
        )
    with pytest.raises(ValueError, match="'Dare'"):
        Command("Dare", example="Dare", summary="x")
    with pytest.raises(ValueError, match="only the last argument"):
        Command(
            "dare",
            example="dare",
            summary="x",
            arguments=(Argument("terms", Kind.TEXT, "x"), Argument("rival", Kind.USER, "x")),
        )
    with pytest.raises(ValueError, match="follows an optional one"):
        Command(
            "dare",
            example="dare",
            summary="x",
            arguments=(
                Argument("rival", Kind.USER, "x"),
                Argument("terms", Kind.TEXT, "x", required=True),
            ),
        )
    with pytest.raises(ValueError, match="a button gives no arguments"):
        Command(
            "dare",
            example="dare",
            summary="x",
            arguments=(Argument("rival", Kind.USER, "x", required=True),),
            buttons=(Button(Decision.TURN, "Dare", Tone.GO),),
        )
    with pytest.raises(ValueError, match="'roll'"):
        COMMANDS.adding(
            Command(
                "spin",
                example="spin",
                summary="x",
                aliases=("roll",),
                handler=MatchCommands.roll,
            )
        )
    with pytest.raises(ValueError, match="spin: no handler"):
        COMMANDS.adding(Command("spin", example="spin", summary="x"))
    with pytest.raises(ValueError, match="'class'"):
        Argument("class", Kind.TEXT, "x")
    with pytest.raises(ValueError, match="'level'"):
        Argument("level", Kind.TEXT, "x", choices=("a", "b"))
    with pytest.raises(ValueError, match="'play'"):
        Argument("play", Kind.TEXT, "x" * 101)


def test_only_a_servers_own_commands_stay_in_servers() -> None:
    """Tournaments, moderation, a server's records and settings need the server; every other
    command is published for user installs too: games, the engine's help and a player's own
    records work in a DM and a group DM."""
    servers_only = {entry.name for entry in COMMANDS if entry.guild_only}
    assert servers_only == {
        "void",
        "tournament",
        "join",
        "leave",
        "leaderboard",
        "dice",
        "settings",
    }
