"""``!review``: step through an analysed match one decision at a time, as XG and GNU Backgammon
show it: the board before the decision with the roll, the play made and gnubg's best drawn as
arrows, gnubg's candidates or cube figures, the error class, the luck, and the position's IDs.

A page is a message whose buttons (first, previous, next, next error of mine, next error, last)
carry the match and the page in their key (``v<match>.<page>``), so old messages keep working
after a restart. A press by one of the match's players turns the page in place; anyone else
gets a copy of their own (ephemeral on Discord) to page through. Typed forms: ``!review 5``,
``!review 5 17``, ``!review next`` (the page after the one this user last saw), ``!review
errors`` (one message, paged by its own buttons the same way: ``e<match>.<page>``). Reading
only: no lock, no engine (the analysis is stored).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace

from bot.bounded import Bounded
from bot.gnubg.api import AnalysisDataError, MatchAnalysis
from bot.gnubg.decisions import ReviewedDecision
from bot.i18n import reports as words
from bot.i18n import review as say
from bot.i18n.core import Language
from bot.render.arrows import Arrow, arrows_of
from bot.render.board import render_board
from bot.rules.notation import whole_number, whole_number_in
from bot.rules.text import quote
from bot.service.gnubg.analysis_text import pr_figure
from bot.service.keys import ErrorsKey, ReviewKey
from bot.service.matches.repository import Repository
from bot.service.models import Decision, Place, Refusal, Reply, User
from bot.service.review.pages import (
    MOVES,
    board_before,
    errors_pages,
    page_text,
    shown,
    target,
    turn,
)
from bot.settings import Settings
from bot.store import MatchRow
from bot.store.analyses import Analyses
from bot.store.matches import Matches

SEEN_KEPT = 10_000  # users whose last page is remembered for ``!review next``
REVIEWS_KEPT = 16  # matches whose decoded analysis is kept (a 25-point match's is ~1,300 pages)


@dataclass(frozen=True, slots=True)
class _Reviewed:
    row: MatchRow
    names: tuple[str, str]
    analysis: MatchAnalysis
    pages: tuple[ReviewedDecision, ...]

    def title(self, language: Language) -> str:
        length = self.row.match_length
        kind = words.REVIEW_LENGTH(language, length) if length else words.REVIEW_MONEY(language)
        return words.REVIEW_TITLE(
            language, id=self.row.id, first=self.names[0], second=self.names[1], kind=kind
        )


class Reviews:
    def __init__(
        self,
        matches: Matches,
        analyses: Analyses,
        repository: Repository,
        settings: Settings,
        *,
        draw: bool = True,
    ) -> None:
        self._matches = matches
        self._analyses = analyses
        self._repository = repository
        self._settings = settings
        self._draw = draw
        self._seen: Bounded[tuple[str, str], tuple[int, int]] = Bounded(SEEN_KEPT)
        # Decoded analyses by match, with when each was stored: paging reads one small row.
        self._kept: Bounded[int, tuple[float, _Reviewed]] = Bounded(REVIEWS_KEPT)

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def review(
        self,
        place: Place,
        user: User,
        what: str | None,
        *,
        pressed: ReviewKey | ErrorsKey | None = None,
    ) -> list[Reply]:
        """``what``: typed words, or a button's word when ``pressed`` (the page's key)."""
        language = user.language
        words = (what or "").split()
        if pressed is not None:
            at = pressed.page
            reviewed = await self._reviewed(place, pressed.match_id, language=language)
            word = words[0] if words else "next"
            player = self._seat(reviewed, user)
            if isinstance(pressed, ErrorsKey):
                reply = self._errors(reviewed, at, word, language=language)
                return [replace(reply, private=player is None, edits=player is not None)]
            if word == "open":  # the analysis' Review button: a review of its own
                reply = await self._page(reviewed, 0, user)
                return [replace(reply, private=player is None)]
            page = target(reviewed.pages, at, word, player)
            if page is None:
                raise Refusal(_nothing_that_way(word, language=language))
            reply = await self._page(reviewed, page, user)
            if player is None:  # a watcher's own copy, to page through
                return [replace(reply, private=True)]
            return [replace(reply, edits=True)]
        listing = bool(words) and words[0].lower() == "errors"
        if listing:
            words = words[1:]
        if words and words[0].lower() == "next":
            seen = self._seen.peek((place.server_id, user.id))
            if seen is None:
                raise Refusal(say.START_FIRST(language, prefix=self._prefix))
            reviewed = await self._reviewed(place, seen[0], language=language)
            page = min(seen[1] + 1, len(reviewed.pages) - 1)
            return [await self._page(reviewed, page, user)]
        match_id = await self._match_of(place, words[0] if words else None, language=language)
        reviewed = await self._reviewed(place, match_id, language=language)
        if listing:
            return [self._errors(reviewed, 0, language=language)]
        page = 0
        if len(words) > 1:
            number = whole_number_in(words[1], 1, len(reviewed.pages))
            if number is None:
                raise Refusal(
                    say.DECISIONS_RANGE(
                        language, id=match_id, count=len(reviewed.pages), prefix=self._prefix
                    )
                )
            page = number - 1
        return [await self._page(reviewed, page, user)]

    async def _match_of(self, place: Place, word: str | None, *, language: Language) -> int:
        if word is None:
            found = await self._matches.latest_finished(place.server_id, place.channel_id)
            if found is None:
                raise Refusal(say.NONE_FINISHED(language, prefix=self._prefix))
            return found
        number = whole_number(word.removeprefix("#"))
        if number is None:
            raise Refusal(say.NOT_A_NUMBER(language, quoted=quote(word), prefix=self._prefix))
        return number

    async def _reviewed(self, place: Place, match_id: int, *, language: Language) -> _Reviewed:
        done_at = await self._analyses.done_at(match_id)
        kept = self._kept.get(match_id)
        if kept is not None and done_at == kept[0] and kept[1].row.server_id == place.server_id:
            return kept[1]
        reviewed = await self._read(place, match_id, language=language)
        if done_at is not None:
            self._kept.put(match_id, (done_at, reviewed))
        return reviewed

    async def _read(self, place: Place, match_id: int, *, language: Language) -> _Reviewed:
        row = await self._matches.get(match_id)
        if row is None or row.server_id != place.server_id:
            raise Refusal(say.NO_SUCH_MATCH(language, id=match_id))
        job = await self._analyses.get(match_id)
        if job is None or job.status != "done" or job.result is None:
            waiting = job is not None and job.status in ("queued", "running")
            said = say.BEING_ANALYSED if waiting else say.NOT_ANALYSED
            raise Refusal(said(language, id=match_id, prefix=self._prefix))
        try:
            analysis = MatchAnalysis.from_data(json.loads(job.result))
        except (AnalysisDataError, ValueError):
            raise Refusal(say.UNREADABLE(language, id=match_id)) from None
        pages = shown(analysis.decisions)
        if not pages:
            raise Refusal(say.NOTHING_KEPT(language, id=match_id))
        names = await self._repository.names(place, row.player_ids)
        return _Reviewed(row, names, analysis, pages)

    @staticmethod
    def _seat(reviewed: _Reviewed, user: User) -> int | None:
        ids = reviewed.row.player_ids
        return ids.index(user.id) if user.id in ids else None

    async def _page(self, reviewed: _Reviewed, page: int, user: User) -> Reply:
        language = user.language
        decision = reviewed.pages[page]
        self._remember(user, reviewed.row.server_id, reviewed.row.id, page)
        text = page_text(
            decision,
            page,
            len(reviewed.pages),
            names=reviewed.names,
            title=reviewed.title(language),
            match_play=reviewed.row.match_length > 0,
            language=language,
        )
        image = (
            await asyncio.to_thread(_picture, decision, reviewed.names, language)
            if self._draw
            else None
        )
        return Reply(
            text,
            image=image,
            decision=Decision.REVIEW,
            decision_key=ReviewKey(reviewed.row.id, page),
        )

    def _remember(self, user: User, server_id: str, match_id: int, page: int) -> None:
        key = (server_id, user.id)
        self._seen.put(key, (match_id, page))

    def _errors(
        self, reviewed: _Reviewed, at: int, word: str | None = None, *, language: Language
    ) -> Reply:
        """Page ``at`` of ``!review errors`` (0-based), or the page a button's ``word`` leads
        to from it; one message whose buttons page it."""
        figures = [
            words.REVIEW_FIGURES(
                language,
                name=p.name if p.name not in ("p0", "p1") else reviewed.names[i],
                pr=pr_figure(p, language=language),
                checker_errors=words.ERRORS(language, p.checker_errors),
                checker_blunders=words.BLUNDERS(language, p.checker_blunders),
                cube_errors=words.ERRORS(language, p.cube_errors),
                cube_blunders=words.BLUNDERS(language, p.cube_blunders),
            )
            for i, p in enumerate(reviewed.analysis.players)
        ]
        texts = errors_pages(
            reviewed.pages,
            names=reviewed.names,
            title=reviewed.title(language),
            match_play=reviewed.row.match_length > 0,
            figures=figures,
            language=language,
        )
        last = len(texts) - 1
        if word is not None:
            found = turn(last + 1, min(at, last), word)
            if found is None:
                raise Refusal(
                    say.FIRST_PAGE(language) if word == "previous" else say.LAST_PAGE(language)
                )
            at = found
        at = min(max(at, 0), last)
        return Reply(
            texts[at],
            decision=Decision.REVIEW_ERRORS if last else None,
            decision_key=ErrorsKey(reviewed.row.id, at) if last else None,
        )


def _nothing_that_way(word: str, *, language: Language) -> str:
    said = say.NOTHING_THAT_WAY.get(word)
    return said(language) if said is not None else say.NO_SUCH_PAGE(language)


def _picture(
    decision: ReviewedDecision, names: tuple[str, str], language: Language
) -> bytes | None:
    """The board before ``decision``, from the decider's side, with the play made and gnubg's
    best as arrows (one set when the play made is a best play), its words in ``language``."""
    state = board_before(decision.gnubg_id, names)
    if state is None:
        return None
    arrows: tuple[Arrow, ...] = ()
    if decision.kind == "checker" and decision.played:
        try:
            arrows = arrows_of(decision.played, "played")
            if decision.best and not decision.agrees:  # a best play of several: one set
                arrows += arrows_of(decision.best, "best")
        except ValueError:
            arrows = ()
    try:
        return render_board(state, viewer=decision.player, arrows=arrows, language=language)
    except ValueError:  # an arrow the board can't place: the board alone
        return render_board(state, viewer=decision.player, language=language)


__all__ = ["MOVES", "Reviews"]
