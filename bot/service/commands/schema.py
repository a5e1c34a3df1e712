"""What a table command is: its arguments and their kinds, its tone, its buttons, its topic in
``!help``, and the table of them all; :data:`bot.service.commands.registry.COMMANDS` lists them."""

from __future__ import annotations

import keyword
import re
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from bot.i18n import play as say
from bot.i18n.core import Language, Message
from bot.service.models import Decision, Refusal, Reply, User

# A room's method that carries a command out, unbound: (room, place, user, *arguments[,
# moderator=]); the service binds it to its room (TableService.handler).
Handler = Callable[..., Awaitable[list[Reply]]]

UserLookup = Callable[[str], User | None]
_NAME = re.compile(r"[a-z]+")  # a command's name is also a button's action: see bot.cogs.buttons


class RegistryError(ValueError):
    """An entry of the command table that the front ends could not all read."""


class Kind(Enum):
    """What an argument is, which says how each front end reads it."""

    USER = "user"  # one word: a member (a mention in Discord, ``@name`` in the console)
    TEXT = "text"  # the rest of the line, as typed; the handler reads it
    CHOICE = "choice"  # the rest of the line; slash offers the choices, the handler judges it
    COMMAND = "command"  # the rest of the line, the name of a command (slash autocompletes it)
    PLAY = "play"  # the rest of the line, a play (slash autocompletes the roll's legal plays)
    # The rest of the line, as TEXT; slash autocompletes the answers of the user's awaiting drill.
    DRILL_ANSWER = "drill answer"
    # The rest of the line, as TEXT; slash autocompletes the answers of the awaited puzzle.
    PUZZLE_ANSWER = "puzzle answer"
    # The rest of the line, as TEXT; slash autocompletes a tournament's verbs and terms.
    TOURNAMENT = "tournament"

    @property
    def rest_of_line(self) -> bool:
        return self is not Kind.USER

    @property
    def autocompleted(self) -> bool:
        """Whether slash offers choices as it is typed (from the service, not a fixed list)."""
        return self in (
            Kind.COMMAND,
            Kind.PLAY,
            Kind.DRILL_ANSWER,
            Kind.PUZZLE_ANSWER,
            Kind.TOURNAMENT,
        )


class Tone(Enum):
    """How a button looks, in words that know nothing of Discord (the cog picks the colours)."""

    YES = "yes"  # agree (green)
    NO = "no"  # refuse (red)
    GO = "go"  # carry on, the usual next step (blue)
    ASIDE = "aside"  # the other thing one may do (grey)


@dataclass(frozen=True, slots=True)
class Argument:
    name: str  # the slash option's name and the prefix command's parameter
    kind: Kind
    description: str  # the slash option's description (Discord allows 100 characters)
    required: bool = False
    choices: tuple[str, ...] = ()  # CHOICE: the words offered (others still reach the handler)
    placeholder: str = ""  # in the usage line; default: ``@user``, the choices or the name
    missing: Message | None = None  # a required USER typed without one: the question to ask
    bots_refused: Message | None = None  # USER: the refusal when a bot is named (None: fine)

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or keyword.iskeyword(self.name):
            raise RegistryError(f"Not an argument name: {self.name!r}")
        if (self.kind is Kind.CHOICE) != bool(self.choices):
            raise RegistryError(f"Choices go with a CHOICE argument only: {self.name!r}")
        if not 0 < len(self.description) <= 100:
            raise RegistryError(f"Describe {self.name!r} in 1 to 100 characters")

    @property
    def rest_of_line(self) -> bool:
        return self.kind.rest_of_line

    @property
    def usage(self) -> str:
        """``@user``, ``<play>``, ``[single|gammon|backgammon]``."""
        shown = self.placeholder or {
            Kind.USER: "@user",
            Kind.CHOICE: "|".join(self.choices),
        }.get(self.kind, self.name)
        if not self.required:
            return f"[{shown}]"
        return shown if shown.startswith("@") else f"<{shown}>"


class Topic(Enum):
    """The sections of ``!help``, in its order; the value is the heading."""

    MATCH = "Challenges and matches"
    PLAY = "Playing"
    CUBE = "The cube and resigning"
    GNUBG = "GNU Backgammon"
    TOURNAMENT = "Tournaments"
    SERVER = "Records and help"


@dataclass(frozen=True, slots=True)
class Button:
    """A button that answers ``decision`` by running the command it belongs to."""

    decision: Decision
    label: Message | str  # a catalog entry, or a symbol that needs no words (``◀``)
    tone: Tone
    money_only: bool = False  # shown only in money games (beavers)
    # The word a press passes to the command as its argument (a review's ``next``): its action is
    # the command's name and this word, so several buttons of one command can share a message.
    word: str = ""

    def worded(self, language: Language) -> str:
        """Its label in ``language`` (a symbol as it is)."""
        return label_text(self.label, language)


def label_text(label: Message | str, language: Language) -> str:
    """A button's label in ``language``: a catalog entry worded, a symbol as it is."""
    return label(language) if isinstance(label, Message) else label


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    example: str  # typed after the prefix, e.g. ``move 13/7 8/7``
    summary: str  # one line, no settings in it (it is also the slash command's description)
    # more for ``!help <command>`` (bot/i18n/help_details.py); may name settings, see the module doc
    details: Message | None = None
    arguments: tuple[Argument, ...] = ()
    aliases: tuple[str, ...] = ()  # other words for it, typed (slash lists the name only)
    # The room's method that carries it out, unbound: ``MatchCommands.move``.
    handler: Handler | None = None
    # Only in a server that added the bot (tournaments, a server's records, moderation); the
    # others are published for user installs too, and work in DMs and group DMs.
    guild_only: bool = False
    moderator: bool = False  # the handler takes ``moderator=``: in Discord, Manage Messages
    buttons: tuple[Button, ...] = ()  # the decisions it answers, as buttons
    topic: Topic = Topic.SERVER  # its section of ``!help``
    opens_thread: bool = False  # may start a match: the handler takes the front end's ``threads=``
    # The handler takes ``organiser=``: in Discord, Manage Server or the server's tournament role.
    organiser: bool = False
    manager: bool = False  # the handler takes ``manager=``: in Discord, Manage Server

    def __post_init__(self) -> None:
        for word in (self.name, *self.aliases):
            if _NAME.fullmatch(word) is None:
                raise RegistryError(f"Not a command name: {word!r} (lower-case letters only)")
        names = [argument.name for argument in self.arguments]
        if len(set(names)) != len(names):
            raise RegistryError(f"{self.name}: two arguments share a name: {names}")
        required = [argument.required for argument in self.arguments]
        if required != sorted(required, reverse=True):
            raise RegistryError(f"{self.name}: a required argument follows an optional one")
        if any(argument.rest_of_line for argument in self.arguments[:-1]):
            raise RegistryError(f"{self.name}: only the last argument may take the rest of line")
        if self.buttons and any(argument.required for argument in self.arguments):
            raise RegistryError(f"{self.name}: a button gives no arguments, yet some are required")

    @property
    def usage(self) -> str:
        """``challenge @user [points|money]``: the name and each argument's placeholder."""
        return " ".join([self.name, *(argument.usage for argument in self.arguments)])


class CommandTable:
    """The commands in the order ``!help`` lists them; looked up by name or alias."""

    def __init__(self, commands: Iterable[Command]) -> None:
        self.commands = tuple(commands)
        words: dict[str, Command] = {}
        for command in self.commands:
            if command.handler is None:
                raise RegistryError(f"{command.name}: no handler (`handler=Room.method`)")
            for word in (command.name, *command.aliases):
                if word in words:
                    raise RegistryError(f"Two commands are called {word!r}")
                words[word] = command
        self._words = words
        self.by_name: Mapping[str, Command] = MappingProxyType(
            {command.name: command for command in self.commands}
        )

    def __iter__(self) -> Iterator[Command]:
        return iter(self.commands)

    def __len__(self) -> int:
        return len(self.commands)

    def find(self, word: str) -> Command | None:
        """The command called ``word`` (a name or an alias, any case), or None."""
        return self._words.get(word.strip().lower())

    @property
    def words(self) -> tuple[str, ...]:
        """Every name and alias."""
        return tuple(self._words)

    def pressed(self, action: str) -> tuple[Command, Button | None] | None:
        """The command a button's ``action`` runs, and the button when it passes a word."""
        for command, button in self.buttons():
            if button.word and command.name + button.word == action:
                return command, button
        named = self.find(action)
        return None if named is None else (named, None)

    def buttons(self) -> list[tuple[Command, Button]]:
        """Every button, grouped by decision (in :class:`Decision`'s order), each group in the
        order of the commands."""
        order = list(Decision)
        pairs = [(command, button) for command in self for button in command.buttons]
        return sorted(pairs, key=lambda pair: order.index(pair[1].decision))

    def adding(self, *commands: Command) -> CommandTable:
        """This table with ``commands`` added at the end."""
        return CommandTable((*self.commands, *commands))


def read_arguments(
    command: Command, text: str, users: UserLookup, prefix: str, *, language: Language
) -> tuple[User | str | None, ...]:
    """The arguments of ``command`` from the text typed after its name: a USER is one word
    found through ``users``, any other kind the rest of the line. Raises :class:`Refusal` for a
    user it can't find or a missing one; extra words after the last argument are ignored, as
    discord.py does. A missing required text is ``""``: the handler says what it wants."""
    rest = text.strip()
    values: list[User | str | None] = []
    for argument in command.arguments:
        if argument.rest_of_line:
            values.append(rest or ("" if argument.required else None))
            rest = ""
            continue
        word, *others = rest.split(maxsplit=1) or [""]
        rest = others[0] if others else ""
        if not word:
            if argument.required:
                missing = argument.missing(language) if argument.missing is not None else ""
                raise Refusal(
                    say.ARGUMENT_MISSING(
                        language, missing=missing, prefix=prefix, example=command.example
                    )
                )
            values.append(None)
            continue
        found = users(word)
        if found is None:
            raise Refusal(
                say.UNKNOWN_USER(language, word=repr(word), prefix=prefix, command=command.name)
            )
        values.append(found)
    return tuple(values)
