"""Typed commands (the console, and anything else that has only text) and pressed buttons to
the rooms' handlers, through the command registry."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable
from typing import Any, Protocol

from bot.i18n import play as say
from bot.service.commands.guard import OUT_OF_DATE, Answer
from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import Command, Handler, UserLookup, read_arguments
from bot.service.gnubg.opponent import ENGINE_WORD
from bot.service.keys import Key
from bot.service.matches.presentation import typed
from bot.service.matches.threads import ThreadOpener
from bot.service.models import ENGINE_USER, Decision, Place, Refusal, Reply, User


class Runner(Protocol):
    """What runs a typed command: the service (:class:`bot.service.table.TableService`)."""

    @property
    def prefix(self) -> str: ...

    def handler(self, command: Command) -> Handler: ...

    def unknown_command(self, place: Place, word: str, prefix: str) -> Awaitable[list[Reply]]: ...


async def run_text(
    service: Runner,
    place: Place,
    user: User,
    text: str,
    *,
    users: UserLookup,
    threads: ThreadOpener | None = None,
) -> list[Reply]:
    """Carry out one typed command, e.g. ``!move 13/7 8/7``; ``users`` resolves ``@name``."""
    prefix = service.prefix
    body = typed(text)
    if not body.startswith(prefix):
        return []
    words = body[len(prefix) :].split(maxsplit=1)
    if not words:
        return [Reply(say.TYPE_HELP(prefix=prefix), private=True)]
    name = words[0].lower()
    command = COMMANDS.find(name)
    if command is None:
        return await service.unknown_command(place, name, prefix)
    typed_after = words[1] if len(words) > 1 else ""
    try:
        arguments = read_arguments(command, typed_after, _or_engine(users), prefix)
    except Refusal as refusal:
        return [Reply(refusal.text, private=True)]
    handler = service.handler(command)
    options: dict[str, Any] = {}
    # The console's user is the operator of the bot: a moderator and an organiser.
    if command.moderator:
        options["moderator"] = True
    if command.organiser:
        options["organiser"] = True
    if command.opens_thread and threads is not None:
        options["threads"] = threads
    return await handler(place, user, *arguments, **options)


def _or_engine(users: UserLookup) -> UserLookup:
    """``users``, where the word ``bot`` names GNU Backgammon (`!challenge bot 5`)."""

    def lookup(word: str) -> User | None:
        if word.strip().removeprefix("@").lower() == ENGINE_WORD:
            return ENGINE_USER
        return users(word)

    return lookup


@dataclasses.dataclass(frozen=True, slots=True)
class Pressed:
    """What a press produced; ``closed``: its question is answered or gone (the pressed message
    should lose its buttons)."""

    replies: list[Reply]
    closed: bool


async def run_press(
    service: Runner,
    place: Place,
    user: User,
    action: str,
    key: Key | None,
    *,
    threads: ThreadOpener | None = None,
) -> Pressed:
    """A press by ``user`` of the button ``action`` (its command's name) on the question
    ``key`` (None: a button from before the ids carried one): carried out only if, under
    the channel's lock, the table still asks that very question of them (so an old message
    never answers a newer question)."""
    found = COMMANDS.pressed(action)
    if key is None or found is None or not found[0].buttons:  # a button from an older bot
        return Pressed([Reply(OUT_OF_DATE, private=True, stale=True)], closed=True)
    command, button = found
    answer = Answer(key, user, command)
    if button is not None:  # a review's page or a drill's answer: the button's word says
        if not any(isinstance(key, b.decision.key_kind) for b in command.buttons):
            return Pressed([Reply(OUT_OF_DATE, private=True, stale=True)], closed=True)
        paging = button.decision in (Decision.REVIEW, Decision.ANALYSED)
        handler = service.handler(command)
        replies = await handler(place, user, button.word, answering=answer)
        answered = not paging and not any(reply.private for reply in replies)
        return Pressed(replies, closed=answered)
    options: dict[str, Any] = {"answering": answer}
    if command.opens_thread:
        options["threads"] = threads
    replies = await service.handler(command)(place, user, **options)
    stale = any(reply.stale for reply in replies)
    answered = any(not reply.private and not reply.edits for reply in replies)
    return Pressed(replies, closed=stale or answered)
