"""GNU Backgammon as a helper: ``!hint`` (private advice for the decision a player faces) and
the tutor (after a costly move or cube action in a game against the bot, the better choice and
what it cost).

Both read the match under the channel's lock and ask the engine without it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from bot.gnubg.api import (
    BAD_THRESHOLD,
    LEVELS,
    CubeAdvice,
    EngineFailure,
    EngineUnavailable,
    PlayOption,
    Query,
)
from bot.i18n import gnubg as say
from bot.i18n.core import Language
from bot.i18n.words import level_text
from bot.rules.events import Moved
from bot.rules.notation import dice_text
from bot.service.gnubg.opponent import before_double, engine_seat
from bot.service.matches.reading import DamagedMatch, MatchReader
from bot.service.models import Place, Refusal, Reply, Table, User
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.gnubg.api import Engine

COACH_LEVEL = LEVELS["worldclass"]  # hints and the tutor: gnubg's strongest quick setting
COACH_PLIES = COACH_LEVEL.plies
HINT_PLAYS = 5
Locker = Callable[[Place], AbstractAsyncContextManager[None]]
Decided = Literal["roll", "move", "double", "take", "drop", "beaver"]


@dataclass(frozen=True, slots=True)
class Tutored:
    """What a player just did, for the tutor: ``play`` as they typed it for a move."""

    kind: Decided
    play: str | None = None


def labelled(rows: list[tuple[str, float]]) -> str:
    """Signed equities under their labels, the labels padded to one column (3 spaces after the
    longest), one a line."""
    width = max(len(label) for label, _ in rows) + 3
    return "\n".join(f"{label:<{width}}{equity:+.3f}" for label, equity in rows)


def cube_lines(advice: CubeAdvice, *, language: Language) -> str:
    return labelled(
        [
            (say.NO_DOUBLE(language), advice.no_double),
            (say.DOUBLE_TAKE(language), advice.double_take),
            (say.DOUBLE_PASS(language), advice.double_pass),
        ]
    )


def cube_hint(advice: CubeAdvice, *, language: Language) -> str:
    """Advice before the roll, from the side of the player who may double."""
    return say.CUBE_HINT(
        language,
        plies=advice.plies,
        table=cube_lines(advice, language=language),
        proper=advice.proper,
    )


def take_hint(advice: CubeAdvice, *, language: Language) -> str:
    """Advice facing a double; ``advice`` is the doubler's, so equities change sign."""
    answer = "beaver" if advice.beaver else "take" if advice.take else "pass"
    table = labelled(
        [(say.TAKE(language), -advice.double_take), (say.PASS(language), -advice.double_pass)]
    )
    return say.TAKE_HINT(
        language,
        plies=advice.plies,
        table=table,
        answer=say.ANSWER[answer](language),
        proper=advice.proper,
    )


def plays_hint(
    dice: tuple[int, int], options: tuple[PlayOption, ...], *, language: Language
) -> str:
    lines = []
    width = max((len(option.play) for option in options), default=0)
    for rank, option in enumerate(options, start=1):
        behind = f" ({option.difference:+.3f})" if rank > 1 else ""
        lines.append(
            f"{rank}. {option.play:<{width}}  {option.equity:+.3f}{behind}  {option.plies}-ply"
        )
    return say.PLAYS_HINT(language, dice=dice_text(dice), table="\n".join(lines))


def cube_loss(advice: CubeAdvice, kind: Decided) -> float:
    """Equity ``kind`` lost against the best cube action; ``advice`` is the doubler's (or the
    would-be doubler's): a double is worth the lesser of take and pass to them."""
    doubled = min(advice.double_take, advice.double_pass)
    if kind == "roll":
        return max(0.0, doubled - advice.no_double)
    if kind == "double":
        return max(0.0, advice.no_double - doubled)
    if kind in ("take", "beaver"):
        return max(0.0, advice.double_take - advice.double_pass)
    return max(0.0, advice.double_pass - advice.double_take)  # drop


def tutored_in_order(replies: list[Reply], comments: list[Reply]) -> list[Reply]:
    """``replies`` to a decision with the tutor's ``comments`` on it right after the line that
    tells it. The status message's first line is the decision; when more follows in it (the
    bot's forced reply, the next prompt), that line goes first in a message of its own, then
    the comments, then the rest with the board, so the comment never follows the next prompt."""
    status = next((i for i, reply in enumerate(replies) if reply.announces is not None), None)
    if not comments or status is None:
        return replies + comments
    first, _, rest = replies[status].text.partition("\n")
    if rest.count("\n") == 0:  # the decision and the prompt: the comment reads well after
        return [*replies[: status + 1], *comments, *replies[status + 1 :]]
    line = Reply(first, place=replies[status].place)
    after = replace(replies[status], text=rest)
    return [*replies[:status], line, *comments, after, *replies[status + 1 :]]


class Coach:
    """Hints and the tutor."""

    def __init__(
        self, engine: Engine, repository: MatchReader, settings: Settings, locked: Locker
    ) -> None:
        self._engine = engine
        self._repository = repository
        self._settings = settings
        self._locked = locked

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    # -- !hint ----------------------------------------------------------------------------------

    async def hint(self, place: Place, user: User) -> list[Reply]:
        """Advice for the decision ``user`` faces, privately; refused with the reason."""
        language = user.language
        try:
            async with self._locked(place):
                table = await self._repository.require(place, user=user, language=language)
            if isinstance(table, DamagedMatch):  # the match can't be read: the channel hears it
                return [table.reply(language)]
            return [Reply(await self._advice(table, user), private=True)]
        except Refusal as refusal:
            return [Reply(refusal.worded(language), private=True)]
        except (EngineFailure, EngineUnavailable) as error:
            return [Reply(say.NO_HINT(language, why=error.worded(language)), private=True)]

    async def _advice(self, table: Table, user: User) -> str:
        language = user.language
        row, match, p = table.row, table.match, self._prefix
        if not (row.hints or engine_seat(table) is not None):
            raise Refusal(say.HINTS_OFF(language, prefix=p))
        seat = table.seat(user)
        if seat is None:
            raise Refusal(say.HINTS_FOR_PLAYERS(language))
        if match.turn != seat:
            raise Refusal(say.NOT_YOUR_DECISION(language))
        if not self._engine.available:
            raise Refusal(say.UNAVAILABLE(language))
        query = Query.of(match, row.id)
        if match.phase == "roll":
            if not match.can_double(seat):
                raise Refusal(say.NO_CUBE_DECISION(language, prefix=p))
            return cube_hint(await self._engine.cube_advice(query, COACH_LEVEL), language=language)
        if match.phase == "move":
            assert match.dice is not None
            options = await self._engine.hint_plays(query, count=HINT_PLAYS, plies=COACH_PLIES)
            return plays_hint(match.dice, options, language=language)
        if match.phase == "doubled":
            return take_hint(
                await self._engine.cube_advice(before_double(match, row.id), COACH_LEVEL),
                language=language,
            )
        accept = await self._engine.resignation_answer(query, COACH_LEVEL)
        offered = level_text(match.resignation, language)
        return (say.ACCEPT_RESIGNATION if accept else say.REJECT_RESIGNATION)(
            language, offered=offered
        )

    # -- the tutor -------------------------------------------------------------------------------

    async def tutor(
        self, place: Place, before: Table, decision: Tutored, *, language: Language
    ) -> list[Reply]:
        """After a player's decision in a tutored match (``before``: the table as it stood),
        a reply when it lost more than :data:`BAD_THRESHOLD`; nothing otherwise, or when the
        decision was refused."""
        after = await self._repository.table(place, repair=False)
        if (
            after is None
            or after.row.id != before.row.id
            or after.match.action_count <= before.match.action_count
        ):
            return []  # refused: nothing was done
        try:
            text = await self._comment(before, decision, language=language)
        except (EngineFailure, EngineUnavailable) as error:
            return [Reply(say.TUTOR_SILENT(language, why=error.clause(language)))]
        return [Reply(text)] if text else []

    async def _comment(self, before: Table, decision: Tutored, *, language: Language) -> str | None:
        match = before.match
        seat = match.turn
        assert seat is not None
        if decision.kind == "move":
            assert decision.play is not None
            moved = [
                event
                for event in match.move(seat, decision.play).events
                if isinstance(event, Moved) and event.player == seat
            ]
            if not moved or moved[0].forced or moved[0].no_legal_move:
                return None
            query = Query.of(match, before.row.id)
            rating = await self._engine.rate_play(query, moved[0].play, plies=COACH_PLIES)
            if rating.loss <= BAD_THRESHOLD:
                return None
            return say.TUTOR_PLAY(
                language,
                play=moved[0].play,
                loss=f"{rating.loss:.3f}",
                best=rating.best.play,
                best_equity=f"{rating.best.equity:+.3f}",
                played_equity=f"{rating.played.equity:+.3f}",
            )
        if decision.kind == "roll" and not match.can_double(seat):
            return None
        key = before.row.id
        query = before_double(match, key) if match.phase == "doubled" else Query.of(match, key)
        advice = await self._engine.cube_advice(query, COACH_LEVEL)
        loss = cube_loss(advice, decision.kind)
        if loss <= BAD_THRESHOLD:
            return None
        return say.TUTOR_CUBE(
            language,
            done=say.CUBE_DONE[decision.kind](language),
            loss=f"{loss:.3f}",
            proper=advice.proper,
            table=cube_lines(advice, language=language),
        )
