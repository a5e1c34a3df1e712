"""The buttons of every decision, with fixed ``custom_id``s so they outlive the process.

A message gets a :class:`DecisionView` with only its decision's buttons; such a view is layout
only (not dispatchable, so discord.py keeps nothing per message). Presses are dispatched to one
persistent view holding every button, registered at start-up with ``bot.add_view``: it knows no
game, each press reads the table from the store.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot.cogs.errors import report_unexpected, tell_interaction
from bot.service.models import Decision, Place, Reply, User
from bot.service.table import TableService

log = logging.getLogger(__name__)

Action = Callable[[TableService, Place, User], Awaitable[list[Reply]]]
PressHandler = Callable[[discord.Interaction[Any], str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: discord.ButtonStyle
    decision: Decision
    action: Action
    money_only: bool = False


BUTTON_SPECS: tuple[ButtonSpec, ...] = (
    ButtonSpec(
        "bg:challenge:accept",
        "Accept",
        discord.ButtonStyle.success,
        Decision.CHALLENGE,
        TableService.accept,
    ),
    ButtonSpec(
        "bg:challenge:decline",
        "Decline",
        discord.ButtonStyle.danger,
        Decision.CHALLENGE,
        TableService.decline,
    ),
    ButtonSpec(
        "bg:double:take", "Take", discord.ButtonStyle.success, Decision.DOUBLE, TableService.take
    ),
    ButtonSpec(
        "bg:double:drop", "Drop", discord.ButtonStyle.danger, Decision.DOUBLE, TableService.drop
    ),
    ButtonSpec(
        "bg:double:beaver",
        "Beaver",
        discord.ButtonStyle.primary,
        Decision.DOUBLE,
        TableService.beaver,
        money_only=True,
    ),
    ButtonSpec(
        "bg:resign:accept",
        "Accept",
        discord.ButtonStyle.success,
        Decision.RESIGNATION,
        TableService.accept,
    ),
    ButtonSpec(
        "bg:resign:reject",
        "Reject",
        discord.ButtonStyle.danger,
        Decision.RESIGNATION,
        TableService.reject,
    ),
    ButtonSpec(
        "bg:turn:roll", "Roll", discord.ButtonStyle.primary, Decision.TURN, TableService.roll
    ),
    ButtonSpec(
        "bg:turn:double",
        "Double",
        discord.ButtonStyle.secondary,
        Decision.TURN,
        TableService.double,
    ),
)

BUTTONS: dict[str, ButtonSpec] = {spec.custom_id: spec for spec in BUTTON_SPECS}


def buttons_for(decision: Decision, *, money_game: bool = False) -> list[ButtonSpec]:
    """The buttons a message asking ``decision`` shows (Beaver only in money games)."""
    return [
        spec
        for spec in BUTTON_SPECS
        if spec.decision is decision and (money_game or not spec.money_only)
    ]


class DecisionButton(discord.ui.Button["DecisionView"]):
    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(label=spec.label, style=spec.style, custom_id=spec.custom_id)
        self.spec = spec

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = self.view
        if view is not None and view.on_press is not None:
            await view.on_press(interaction, self.spec.custom_id)


class DecisionView(discord.ui.View):
    """Buttons with fixed custom ids and no timeout.

    Without ``on_press`` it is only a layout for one message; with it, the view handles presses
    (register it once with ``bot.add_view``).
    """

    def __init__(self, specs: Iterable[ButtonSpec], on_press: PressHandler | None = None) -> None:
        super().__init__(timeout=None)
        self.on_press = on_press
        for spec in specs:
            self.add_item(DecisionButton(spec))

    @property
    def custom_ids(self) -> list[str]:
        return [item.spec.custom_id for item in self.children if isinstance(item, DecisionButton)]

    def is_dispatchable(self) -> bool:
        # A layout view is not stored per message: the persistent view answers every press.
        return self.on_press is not None and super().is_dispatchable()

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        custom_id = getattr(item, "custom_id", None)
        text = report_unexpected(error, f"button {custom_id}")
        await tell_interaction(interaction, text)


def decision_view(decision: Decision, *, money_game: bool = False) -> DecisionView:
    """The buttons to attach to a message asking ``decision``."""
    return DecisionView(buttons_for(decision, money_game=money_game))


def persistent_view(on_press: PressHandler) -> DecisionView:
    """One view with every button, to register at start-up so old buttons still work."""
    return DecisionView(BUTTON_SPECS, on_press=on_press)
