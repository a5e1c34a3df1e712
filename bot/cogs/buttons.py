"""The buttons of every decision; each one names the very question it answers.

They come from the commands of :data:`bot.service.commands.registry.COMMANDS` that answer a
decision: pressing one runs its command.

A button's custom id is ``bg:<action>:<key>``, e.g. ``bg:take:m7.53``: the action, and the key of
the question the message asked (:class:`bot.service.models.Pending`). A press whose key is no
longer the table's is out of date, whatever is asked now. The id holds everything a press needs,
so buttons keep working after a restart.

Presses reach a :class:`KeyButton`: one discord.py dynamic item per kind of key
(:data:`bot.service.keys.KINDS`), whose template has the key's fields as typed groups,
registered once per bot with :func:`register_buttons`. A message's view holds only dynamic
items: discord.py then keeps nothing per message, where a stored per-message view would take the
press and answer nothing (what happened to buttons on replies to slash commands).
"""

from __future__ import annotations

import logging
import re
import types
import weakref
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, cast

import discord

from bot.cogs.errors import report_unexpected, tell_interaction
from bot.i18n.core import ENGLISH, Language, Message, language_of
from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import CommandTable, Tone, label_text
from bot.service.keys import KINDS, Key
from bot.service.models import STORE_TROUBLE, Decision, store_trouble

log = logging.getLogger(__name__)


ACTION = r"bg:(?P<action>[a-z]+):"  # then the key, by its kind's template
# Buttons sent before the ids carried a key (``bg:turn:roll``): answered as out of date.
OLD_TEMPLATE = re.compile(r"bg:(?:challenge|double|resign|turn):[a-z]+")


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    action: str  # in the custom id: the name of the command it runs, unique within its decision
    label: Message | str
    style: discord.ButtonStyle
    decision: Decision
    money_only: bool = False

    def worded(self, language: Language) -> str:
        """Its label in ``language`` (a symbol as it is)."""
        return label_text(self.label, language)


_GREEN, _RED = discord.ButtonStyle.success, discord.ButtonStyle.danger
_BLUE, _GREY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
STYLES = {Tone.YES: _GREEN, Tone.NO: _RED, Tone.GO: _BLUE, Tone.ASIDE: _GREY}


def button_specs(table: CommandTable = COMMANDS) -> tuple[ButtonSpec, ...]:
    """The buttons of the registry's commands, grouped by decision: a press runs its command
    (see :meth:`bot.service.table.TableService.press`)."""
    return tuple(
        ButtonSpec(
            command.name + button.word,
            button.label,
            STYLES[button.tone],
            button.decision,
            button.money_only,
        )
        for command, button in table.buttons()
    )


BUTTON_SPECS = button_specs()


def custom_id(action: str, key: Key) -> str:
    text = f"bg:{action}:{key.format()}"
    if KEY_BUTTONS[type(key)].__discord_ui_compiled_template__.fullmatch(text) is None:
        raise ValueError(f"Not a button id: {text!r}")
    return text


def read_custom_id(text: str) -> tuple[str, Key | None] | None:
    """(action, key) of one of our buttons' custom ids (a key of None: from before the ids
    carried one), or None when it is none of ours."""
    for button in KEY_BUTTONS.values():
        if found := button.__discord_ui_compiled_template__.fullmatch(text):
            return found["action"], button.kind.of(found)
    return ("old", None) if OLD_TEMPLATE.fullmatch(text) else None


def buttons_for(decision: Decision, *, money_game: bool = False) -> list[ButtonSpec]:
    """The buttons a message asking ``decision`` shows (Beaver only in money games)."""
    return [
        spec
        for spec in BUTTON_SPECS
        if spec.decision is decision and (money_game or not spec.money_only)
    ]


class PressHandler(Protocol):
    async def __call__(
        self, interaction: discord.Interaction[Any], action: str, key: Key | None
    ) -> None:
        """Answer a press of the button ``action`` on the question ``key`` (None: an old
        button's, which names none)."""


# Each bot's handler: discord.py builds a new item for every press and hands it only the
# interaction, whose ``client`` leads here.
_handlers: weakref.WeakKeyDictionary[discord.Client, PressHandler] = weakref.WeakKeyDictionary()


def register_buttons(client: discord.Client, on_press: PressHandler) -> None:
    """Make ``client`` answer every decision button, old messages' too, with ``on_press``."""
    _handlers[client] = on_press
    client.add_dynamic_items(*KEY_BUTTONS.values(), OldButton)


async def dispatch_press(
    interaction: discord.Interaction[Any], action: str, key: Key | None
) -> None:
    """Hand a press to the bot's handler; anything unexpected gets an apology and a log entry
    (discord.py would only log it, and the player would see "This interaction failed")."""
    language = language_of(interaction.locale.value) or ENGLISH
    try:
        handler = _handlers.get(interaction.client)
        if handler is None:
            raise LookupError("no button handler registered for this client")
        await handler(interaction, action, key)
    except STORE_TROUBLE as error:  # nobody's mistake, no traceback: one line
        await tell_interaction(interaction, store_trouble(error, language).text)
    except Exception as error:  # every failure is answered, not only logged
        text = report_unexpected(error, f"button {action}:{key}", language)
        await tell_interaction(interaction, text)


class KeyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A decision's button: what a press of any kind does. discord.py dispatches to a subclass
    per kind of key (:data:`KEY_BUTTONS`), whose template reads that kind's fields; this one
    matches nothing."""

    kind: ClassVar[type[Key]]

    def __init__(
        self,
        action: str,
        key: Key,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = _GREY,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=custom_id(action, key))
        )
        self.action = action
        self.key = key

    @staticmethod
    def of(spec: ButtonSpec, key: Key, language: Language) -> KeyButton:
        label = spec.worded(language)
        return KEY_BUTTONS[type(key)](spec.action, key, label=label, style=spec.style)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> KeyButton:
        return cls(match["action"], cls.kind.of(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch_press(interaction, self.action, self.key)


def _button_of(kind: type[Key]) -> type[KeyButton]:
    """The dynamic item of ``kind``'s buttons: ``bg:<action>:`` and the key's typed groups."""

    name = f"{kind.__name__.removesuffix('Key')}Button"
    made = types.new_class(
        name,
        (KeyButton,),
        {"template": ACTION + kind.template()},
        lambda namespace: namespace.update(kind=kind, __module__=__name__),
    )
    return cast(type[KeyButton], made)


KEY_BUTTONS: dict[type[Key], type[KeyButton]] = {kind: _button_of(kind) for kind in KINDS}


class OldButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OLD_TEMPLATE):
    """A button from before the ids carried a key: it can't say what it answers."""

    def __init__(self, button_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=button_id))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> OldButton:
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch_press(interaction, "old", None)


def lost_press(interaction: discord.Interaction[Any]) -> tuple[str, Key | None] | None:
    """(action, key) of a press on one of our buttons that its message no longer has (a double
    press, a lagging client): discord.py hands such a press to no dynamic item and answers
    nothing, so Discord would show "This interaction failed". None for any other interaction."""
    if interaction.type is not discord.InteractionType.component:
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return None
    message = interaction.message
    if message is not None and custom_id in message_button_ids(message):
        return None  # a dynamic item takes it
    return read_custom_id(custom_id)


def message_button_ids(message: discord.Message) -> set[str]:
    """The custom ids of its buttons, in action rows at the top or inside a layout's
    containers and sections (a table message: :mod:`bot.cogs.layout`)."""
    found: set[str] = set()
    todo: list[Any] = list(message.components)
    while todo:
        component = todo.pop()
        if isinstance(component, discord.Button) and component.custom_id is not None:
            found.add(component.custom_id)
        todo.extend(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            todo.append(accessory)
    return found


def decision_view(
    decision: Decision, key: Key, *, language: Language, money_game: bool = False
) -> discord.ui.View:
    """The buttons to attach to a message asking ``decision`` (the question ``key``), labelled
    in ``language``: the message's (a button is everyone's at the table)."""
    if not isinstance(key, decision.key_kind):
        raise ValueError(f"{decision} is not asked by a {type(key).__name__}: {key}")
    # No timeout: a view that stops can take its dynamic items out of discord.py's registry.
    view = discord.ui.View(timeout=None)
    for spec in buttons_for(decision, money_game=money_game):
        view.add_item(KeyButton.of(spec, key, language))
    return view


def button_ids(view: discord.ui.View) -> list[str]:
    return [item.custom_id for item in view.children if isinstance(item, KeyButton)]
