"""One numbering for a decision wherever it is named: the analysis' worst decisions, a drill's
question and verdict, and the review's page header all say it with :func:`decision_label`.

The review's page number (``!review 12 8``: the 8th of the match's pages) leads, with the game
and move as GNU Backgammon counts them: game N of the match, and the "Move number" of its
analysis export, which numbers every record of a game in turn (each roll played, each double and
each answer to one counts one; the ``.mat`` numbers its lines instead, two players' records to a
line). A page's cube decision before a roll and the roll after it share their move number.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.gnubg.decisions import ReviewedDecision
from bot.i18n import review as say
from bot.i18n.core import Language


def decision_label(
    game: int, move: int, page: int | None = None, pages: int = 0, *, language: Language
) -> str:
    """``decision 8/40 · game 1, move 7`` (``page`` 0-based, of ``pages``); ``game 1, move 7``
    alone for a decision the review has no page for (an analysis stored before it kept them)."""
    place = say.PLACE(language, game=game, move=move)
    return (
        place if page is None else say.DECISION(language, page=page + 1, pages=pages, place=place)
    )


def page_of(
    pages: Sequence[ReviewedDecision], decisions: Sequence[ReviewedDecision], index: int
) -> tuple[int, int] | None:
    """(page, pages) of ``decisions[index]`` (an analysis' decisions, in order) among the
    review's ``pages`` of them, the page 0-based; None when the review has no page for it."""
    if not 0 <= index < len(decisions):
        return None
    wanted = decisions[index]
    return next(((page, len(pages)) for page, d in enumerate(pages) if d is wanted), None)
