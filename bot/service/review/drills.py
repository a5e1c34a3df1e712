"""``!drill``: drill your own mistakes, spaced out in time (SM-2: :mod:`.schedule`).

Every decision of an analysed match that gnubg marked bad or very bad (checker plays, cube and
take decisions) becomes a drill for the person who made it (never for GNU Backgammon's seat):
when the analysis is stored (:func:`drill_rows`, written by :meth:`AnalysisWrites.finish
<bot.store.analyses.AnalysisWrites.finish>`), and for matches analysed before drills existed,
at a player's first ``!drill`` (their last :data:`LAZY_MATCHES` analysed matches, once per
process).

``!drill`` shows the player's most overdue drill in the channel: the board before the decision
(the review's renderer, without arrows) and the roll, never the answer. It then waits for the
answer in the store (``shown_at``), so a restart loses nothing: ``!drill 13/7 8/7`` for a play
(read by the rules' legal plays, rated by ``engine.rate_play`` at the analysis's depth under
the money game's Jacoby rule and beavers, outside any channel lock: a loss under
:data:`RIGHT_BELOW`, gnubg's "doubtful" threshold, is right),
``!drill double`` / ``no double`` / ``take`` / ``pass`` for the cube (right when it is gnubg's
proper action for the decider). A puzzle the player answered wrong (``!puzzle``, a storm) is a
drill too (:func:`puzzle_drill_row`, due at once): it is graded from the puzzle's stored ranking,
no engine call. An answer that can't be read, or is illegal, is refused
privately and changes nothing. ``!drill stats``: due now, learned, missed last time, in all.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from bot.bounded import Bounded
from bot.gnubg.api import (
    AnalysisDataError,
    Engine,
    EngineFailure,
    EngineUnavailable,
    MatchAnalysis,
    Query,
)
from bot.gnubg.decisions import THRESHOLDS, ReviewedDecision, marked_as, skill_of
from bot.i18n import drills as say
from bot.i18n.core import Language, capital
from bot.render.board import render_board
from bot.rules.errors import InvalidMoveError, MoveError
from bot.rules.matchid import decode_match_id
from bot.rules.notation import dice_text
from bot.rules.position import Position
from bot.rules.puzzles import CHECKER, DOUBLE, Puzzle, PuzzleDataError, Verdict
from bot.service.commands.choices import play_choices, position_plays, word_choices
from bot.service.keys import DrillKey
from bot.service.matches.presentation import play_form
from bot.service.matches.reading import DamagedRecord
from bot.service.matches.repository import Repository
from bot.service.models import ENGINE_ID, Decision, Place, Refusal, Reply, User, reason_of
from bot.service.puzzles import pool
from bot.service.review.numbering import decision_label, page_of
from bot.service.review.pages import board_before, shown
from bot.service.review.schedule import LEARNED_DAYS, Schedule, answered, in_days
from bot.settings import Settings
from bot.store import Store
from bot.store.drills import DrillRow

log = logging.getLogger(__name__)

DRILLED = ("bad", "very bad")  # gnubg's marks that make a drill
RIGHT_BELOW = THRESHOLDS["doubtful"]  # a checker answer losing less than this is right
LAZY_MATCHES = 20  # analysed matches read at a player's first ``!drill``
FILLED_KEPT = 10_000  # players whose old matches were looked at, remembered per process

# What an answer to a cube drill says: whether it doubles (cube) or takes (take).
_DOUBLE_WORDS = {"double": True, "redouble": True, "no double": False, "no redouble": False}
_TAKE_WORDS = {"take": True, "beaver": True, "pass": False, "drop": False}
# gnubg's actions (the decider's half of its verdict): doubling, or taking; None: either is right
_PROPER_DOUBLES: dict[str, bool | None] = {
    "Double": True,
    "Redouble": True,
    "No double": False,
    "No redouble": False,
    "Too good to double": False,
    "Too good to redouble": False,
    "Never double": False,
    "Never redouble": False,
    "Optional double": None,
    "Optional redouble": None,
}
_PROPER_TAKES: dict[str, bool | None] = {"take": True, "beaver": True, "pass": False}


def _page_in(result: str, index: int) -> tuple[int, int] | None:
    """(page, pages) of decision ``index`` in the review of the stored analysis ``result``
    (a long match's takes a while to read: off the event loop)."""
    try:
        analysis = MatchAnalysis.from_data(json.loads(result))
    except (AnalysisDataError, ValueError):
        return None
    return page_of(shown(analysis.decisions), analysis.decisions, index)


def _capitalised(error: Exception, language: Language) -> str:
    """A rules error's text in ``language``, made a sentence's start."""
    text = reason_of(error, language)
    return f"{capital(text[:1], language)}{text[1:]}"


def _label(drill: DrillRow, page: tuple[int, int] | None, *, language: Language) -> str:
    """Where the drill was decided, as the review and the analysis name it (``page``: its
    page of the review and the review's pages; None: the review has none)."""
    return decision_label(drill.game, drill.move, *(page or (None, 0)), language=language)


def drill_rows(
    server_id: str,
    match_id: int,
    player_ids: Sequence[str],
    decisions: Sequence[ReviewedDecision],
    plies: int,
    now: float,
) -> list[dict[str, Any]]:
    """The ``drills`` rows of an analysed match: each person's decisions gnubg marked bad or
    very bad (checker plays with a best play; cube and take decisions gnubg analysed)."""
    rows = []
    for index, decision in enumerate(decisions):
        if decision.skill not in DRILLED or not 0 <= decision.player < len(player_ids):
            continue
        user_id = player_ids[decision.player]
        if user_id == ENGINE_ID:
            continue
        if decision.kind == "checker":
            dice = decision.dice
            if dice is None or not decision.played or not decision.best:
                continue
            proper = None
            rolled: int | None = dice[0] * 10 + dice[1]
        else:
            if decision.cube is None:
                continue
            proper, rolled = decision.cube.proper, None
        rows.append(
            {
                "server_id": server_id,
                "user_id": user_id,
                "match_id": match_id,
                "decision": index,
                "game": decision.game,
                "move": decision.move,
                "kind": decision.kind,
                "gnubg_id": decision.gnubg_id,
                "dice": rolled,
                "played": decision.played,
                "best": decision.best,
                "proper": proper,
                "loss": decision.loss,
                "skill": decision.skill,
                "plies": plies,
                **new_schedule(now),
            }
        )
    return rows


def new_schedule(now: float) -> dict[str, Any]:
    """A new drill's schedule: due ``now``, never answered."""
    return {
        "streak": 0,
        "interval_days": 0.0,
        "ease": Schedule().ease,
        "due_at": now,
        "reps": 0,
        "lapses": 0,
        "last_right": None,
        "last_answer_at": None,
        "shown_at": None,
        "created_at": now,
    }


PUZZLE_MATCH = 0  # the match_id of a puzzle's drill (matches are numbered from 1)
_PUZZLE_KINDS = {CHECKER: "checker", DOUBLE: "cube"}  # a take puzzle: a take drill


def puzzle_drill_row(
    server_id: str, user_id: str, puzzle: Puzzle, verdict: Verdict, now: float
) -> dict[str, Any]:
    """The ``drills`` row of a puzzle the player answered wrong (``verdict``), due at once. Its
    decision number is read from the puzzle's key (hexadecimal), so a puzzle is one drill."""
    dice = puzzle.state.dice
    return {
        "server_id": server_id,
        "user_id": user_id,
        "match_id": PUZZLE_MATCH,
        "decision": int(puzzle.key[:7], 16),
        "game": 0,
        "move": 0,
        "kind": _PUZZLE_KINDS.get(puzzle.kind, "take"),
        "gnubg_id": puzzle.gnubg_id,
        "dice": None if dice is None else dice[0] * 10 + dice[1],
        "played": verdict.answer.answer,
        "best": verdict.best.answer,
        "proper": None,
        "loss": verdict.loss,
        "skill": skill_of(verdict.loss) or "doubtful",
        "plies": puzzle.plies,
        **new_schedule(now),
        "puzzle": puzzle.key,
    }


def _words(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split())


def _doubler_action(drill: DrillRow) -> str:
    return (drill.proper or drill.best or "").partition(",")[0].strip()


def _taker_action(drill: DrillRow) -> str:
    """The taker's half of gnubg's proper action: ``take``, ``pass`` or ``beaver``. The stored
    best says it under the match's rules (gnubg says "beaver" whatever they are: where beavers
    are off, the analysis stored it as a take); a row without one reads gnubg's words."""
    if drill.best:
        return drill.best.lower()
    if drill.proper and "," in drill.proper:
        return drill.proper.partition(",")[2].strip().lower()
    return ""


def drill_key(drill: DrillRow) -> DrillKey:
    """A cube drill's question, for its buttons (whose it is, the presser's awaiting drill
    says)."""
    return DrillKey(drill.match_id, drill.decision)


class Drills:
    def __init__(
        self,
        store: Store,
        repository: Repository,
        engine: Engine,
        settings: Settings,
        clock: Callable[[], float],
        *,
        draw: bool = True,
    ) -> None:
        self._store = store
        self._repository = repository
        self._engine = engine
        self._settings = settings
        self._clock = clock
        self._draw = draw
        self._filled: Bounded[tuple[str, str], bool] = Bounded(FILLED_KEPT)  # old matches read

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def drill(
        self, place: Place, user: User, what: str | None, *, pressed: DrillKey | None = None
    ) -> list[Reply]:
        """``what``: typed words, or a cube button's word when ``pressed`` (the drill's key)."""
        language = user.language
        if pressed is not None:
            waiting = await self._store.drills.awaiting(place.server_id, user.id)
            if waiting is None or drill_key(waiting) != pressed:
                raise Refusal(say.NOT_THE_ONE(language, prefix=self._prefix))
        text = (what or "").strip()
        if text.lower() in ("", "next"):
            return [await self._show(place, user)]
        if text.lower() == "stats":
            return [await self._stats(place, user)]
        return [await self._answer(place, user, text)]

    # -- filling from matches analysed before drills ------------------------------------------

    async def _fill_once(self, place: Place, user: User) -> None:
        key = (place.server_id, user.id)
        if key in self._filled:
            return
        if not await self._store.drills.has(*key):
            rows: list[dict[str, Any]] = []
            now = self._clock()
            for match_id, ids, result in await self._store.drills.analysed_matches(
                *key, LAZY_MATCHES
            ):
                try:
                    analysis = MatchAnalysis.from_data(json.loads(result))
                except (AnalysisDataError, ValueError):
                    continue
                made = drill_rows(
                    place.server_id, match_id, ids, analysis.decisions, analysis.plies, now
                )
                rows += [row for row in made if row["user_id"] == user.id]
            async with self._store.transaction() as tx:
                await tx.drills.add(rows)
        self._filled.put(key, True)

    # -- showing --------------------------------------------------------------------------------

    async def _show(self, place: Place, user: User) -> Reply:
        await self._fill_once(place, user)
        now = self._clock()
        async with self._store.transaction() as tx:
            drill = await tx.drills.show_next(place.server_id, user.id, now)
        if drill is None:
            raise Refusal(await self._nothing_due(place, user, now))
        return await self._question(place, user, drill)

    async def _nothing_due(self, place: Place, user: User, now: float) -> str:
        language = user.language
        due = await self._store.drills.next_due_at(place.server_id, user.id)
        if due is None:
            return say.NONE_YET(language, prefix=self._prefix)
        return say.NONE_DUE(language, when=in_days((due - now) / 86_400, language=language))

    async def _question(self, place: Place, user: User, drill: DrillRow) -> Reply:
        language = user.language
        p = self._prefix
        where = (
            say.WHERE_PUZZLE(language)
            if drill.puzzle
            else say.WHERE_MATCH(
                language,
                id=drill.match_id,
                label=_label(drill, await self._page(drill), language=language),
            )
        )
        if drill.kind == "checker":
            dice = divmod(drill.dice or 0, 10)
            ask = say.ASK_PLAY(
                language, dice=dice_text(dice), form=play_form("drill", p, language=language)
            )
        elif drill.kind == "cube":
            ask = say.ASK_DOUBLE(language, prefix=p)
        else:
            ask = say.ASK_TAKE(language, prefix=p)
        head = say.HEAD if drill.puzzle else say.HEAD_MINE
        text = "\n".join((head(language, name=user.name, where=where), ask))
        image = await self._picture(place, drill, language) if self._draw else None
        if drill.kind == "checker":
            return Reply(text, image=image)
        return Reply(  # a cube drill: its answers as buttons too
            text,
            image=image,
            decision=Decision.DRILL_DOUBLE if drill.kind == "cube" else Decision.DRILL_TAKE,
            decision_key=drill_key(drill),
        )

    @staticmethod
    def _decider(drill: DrillRow) -> int:
        return decode_match_id(drill.gnubg_id.partition(":")[2]).turn

    async def _picture(self, place: Place, drill: DrillRow, language: Language) -> bytes | None:
        row = await self._store.matches.get(drill.match_id)
        names = None if row is None else await self._repository.names(place, row.player_ids)
        state = board_before(drill.gnubg_id, names)
        if state is None:
            return None
        try:
            draw = functools.partial(
                render_board, state, viewer=self._decider(drill), language=language
            )
            return await asyncio.to_thread(draw)
        except ValueError:
            return None

    # -- answering ------------------------------------------------------------------------------

    async def _answer(self, place: Place, user: User, text: str) -> Reply:
        language = user.language
        drill = await self._store.drills.awaiting(place.server_id, user.id)
        if drill is None:
            raise Refusal(say.NONE_WAITING(language, prefix=self._prefix))
        if drill.puzzle:
            right, verdict = await self._puzzle_answer(place, drill, text, language=language)
        elif drill.kind == "checker":
            right, verdict = await self._checker_answer(drill, text, language=language)
        else:
            right, verdict = self._cube_answer(drill, text, language=language)
        now = self._clock()
        state = answered(
            Schedule(drill.streak, drill.interval_days, drill.ease, drill.reps, drill.lapses), right
        )
        values = {
            "streak": state.streak,
            "interval_days": state.interval_days,
            "ease": state.ease,
            "reps": state.reps,
            "lapses": state.lapses,
            "due_at": state.due_after(now),
            "last_right": int(right),
            "last_answer_at": now,
        }
        async with self._store.transaction() as tx:
            recorded = await tx.drills.record_answer(drill, values)
        if not recorded:
            raise Refusal(say.ANSWERED_ALREADY(language, prefix=self._prefix))
        mark = say.RIGHT(language) if right else say.WRONG(language)
        when = in_days(state.interval_days, language=language)
        if drill.puzzle:
            return Reply(
                say.PUZZLE_RESULT(
                    language,
                    mark=mark,
                    verdict=verdict,
                    played=drill.played,
                    loss=f"{drill.loss:.3f}",
                    when=when,
                )
            )
        page = await self._page(drill)
        review = "" if page is None else f", `{self._prefix}review {drill.match_id} {page[0] + 1}`"
        return Reply(
            say.MATCH_RESULT(
                language,
                mark=mark,
                verdict=verdict,
                label=_label(drill, page, language=language),
                review=review,
                played=drill.played,
                marked=marked_as(drill.skill),
                loss=f"{drill.loss:.3f}",
                when=when,
            )
        )

    async def _page(self, drill: DrillRow) -> tuple[int, int] | None:
        """The drill's page of its match's review and the review's pages (None: none)."""
        if drill.puzzle:
            return None
        job = await self._store.analyses.get(drill.match_id)
        if job is None or job.result is None:
            return None
        return await asyncio.to_thread(_page_in, job.result, drill.decision)

    async def _puzzle_answer(
        self, place: Place, drill: DrillRow, text: str, *, language: Language
    ) -> tuple[bool, str]:
        """A missed puzzle's drill, graded from the puzzle's stored ranking (no engine)."""
        assert drill.puzzle is not None
        puzzle = await pool.find(self._store.puzzles, place.server_id, drill.puzzle)
        if puzzle is None:
            raise Refusal(say.PUZZLE_UNREADABLE(language))
        try:
            verdict = puzzle.grade(text)
        except (MoveError, InvalidMoveError) as error:
            raise Refusal(
                say.STILL_WAITING(language, error=_capitalised(error, language))
            ) from None
        except PuzzleDataError:
            raise Refusal(say.PUZZLE_UNREADABLE(language)) from None
        said = f"**{verdict.answer.answer}**"
        if verdict.right:
            return True, say.PUZZLE_BEST(language, said=said)
        return False, say.PUZZLE_LOSES(
            language, said=said, loss=f"{verdict.loss:.3f}", best=verdict.best.answer
        )

    async def _checker_answer(
        self, drill: DrillRow, text: str, *, language: Language
    ) -> tuple[bool, str]:
        dice = divmod(drill.dice or 0, 10)
        try:
            position = Position.from_position_id(drill.gnubg_id.partition(":")[0])
            play = position.parse_play(text, dice)
        except MoveError as error:
            raise Refusal(
                say.STILL_WAITING_PLAY(
                    language,
                    error=_capitalised(error, language),
                    dice=dice_text(dice),
                    form=play_form("drill", self._prefix, language=language),
                )
            ) from None
        query = await self._query(drill)
        try:
            rating = await self._engine.rate_play(query, play.notation, plies=drill.plies)
        except (EngineFailure, EngineUnavailable) as error:
            raise Refusal(say.CANT_GRADE(language, error=error.clause(language))) from None
        loss = rating.loss
        right = loss < RIGHT_BELOW
        named = marked_as(skill_of(loss)) or say.UNMARKED(language)
        if rating.best.play == rating.played.play or loss == 0:
            verdict = say.BEST_PLAY(language, play=play.notation)
        else:
            verdict = say.PLAY_LOSES(
                language, play=play.notation, loss=f"{loss:.3f}", named=named, best=rating.best.play
            )
        return right, verdict

    async def _query(self, drill: DrillRow) -> Query:
        """The drill's position as gnubg reads it, under its match's rules: a money game's
        Jacoby rule and beavers are in its options, not in the Match ID (one read of the match;
        a match that can't be read is graded without them)."""
        row = await self._store.matches.get(drill.match_id)
        if row is None or row.match_length:
            return Query(drill.gnubg_id, match_key=drill.match_id)
        try:
            table = await self._repository.table_of(
                row, Place(row.server_id, row.channel_id), repair=False
            )
        except DamagedRecord:
            table = None
        if table is None:
            log.warning("Drill of match %s: graded without its money-game rules", row.id)
            return Query(drill.gnubg_id, match_key=drill.match_id)
        options = table.match.options
        return Query(
            drill.gnubg_id,
            jacoby=options.jacoby,
            beavers=options.beavers,
            match_key=drill.match_id,
        )

    def _cube_answer(self, drill: DrillRow, text: str, *, language: Language) -> tuple[bool, str]:
        said = _words(text).replace("nodouble", "no double")
        if drill.kind == "cube":
            words, question = _DOUBLE_WORDS, say.QUESTION_DOUBLE(language, prefix=self._prefix)
            proper = _PROPER_DOUBLES.get(_doubler_action(drill))
            action = _doubler_action(drill)
        else:
            words, question = _TAKE_WORDS, say.QUESTION_TAKE(language, prefix=self._prefix)
            proper = _PROPER_TAKES.get(_taker_action(drill))
            action = _taker_action(drill).capitalize()
        if said not in words:
            raise Refusal(say.CUBE_ONLY(language, question=question))
        choice = words[said]
        right = proper is None or proper == choice
        verdict = say.YOU_SAID(language, said=said, action=action)
        if drill.proper:
            beaver = drill.proper.lower().endswith("beaver") and action == "Take"
            verdict += f" ({drill.proper}{say.BEAVERS_OFF(language) if beaver else ''})"
        return right, verdict + "."

    # -- stats ----------------------------------------------------------------------------------

    async def _stats(self, place: Place, user: User) -> Reply:
        language = user.language
        await self._fill_once(place, user)
        found = await self._store.drills.counts(
            place.server_id, user.id, self._clock(), LEARNED_DAYS
        )
        return Reply(
            say.STATS(
                language,
                name=user.name,
                due=found.due,
                learned=found.learned,
                days=f"{LEARNED_DAYS:.0f}",
                missed=found.missed,
                total=found.total,
            )
        )

    # -- autocomplete -------------------------------------------------------------------------

    async def answer_choices(self, place: Place, user: User, typed: str = "") -> list[str]:
        """``/drill``'s autocomplete: the answers of the drill awaiting ``user``'s answer that fit
        what they ``typed`` so far (:mod:`bot.service.commands.choices`), at most 25. A checker
        drill: the legal plays of its position and roll, in the order ``/move`` offers them
        (never ranked: that would give the answer away); a cube drill: ``double``, ``no
        double``; a take drill: ``take``, ``pass``; none awaiting: ``stats``. One read of the
        store, no engine, no lock, nothing written (no drill is shown or made here)."""
        drill = await self._store.drills.awaiting(place.server_id, user.id)
        if drill is None:
            return word_choices(("stats",), typed)
        if drill.kind == "checker":
            try:
                position_id, dice = drill.gnubg_id.partition(":")[0], divmod(drill.dice or 0, 10)
                plays = position_plays(position_id, dice)
            except ValueError:  # a damaged drill: its answer says so
                return []
            return play_choices(plays, typed)
        words = ("double", "no double") if drill.kind == "cube" else ("take", "pass")
        return word_choices(words, typed)
