"""The pages of a match's review: which decisions are shown, how to page through them, and each
page's words. Pure functions of :class:`~bot.gnubg.decisions.ReviewedDecision` values.

A review shows every decision a player made that GNU Backgammon had a say in: each roll played
(not a forced one), each answer to a double, and each cube decision before a roll that was close
or wrong (a roll where doubling was never in question is no decision worth a page). Error
classes are gnubg's own marks, at its thresholds (:data:`bot.gnubg.decisions.THRESHOLDS`):
doubtful (``?!``), error (``?``, gnubg's "bad") and blunder (``??``, "very bad"); an unmarked
decision is no error, even a cube action gnubg wouldn't take (see :mod:`bot.gnubg.decisions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.gnubg.decisions import CLASSES, LISTED, THRESHOLDS, ReviewedDecision
from bot.i18n import reports as words
from bot.i18n import review as say
from bot.i18n.core import Language
from bot.render.state import BoardState
from bot.rules.pasted import from_gnubg_id
from bot.service.gnubg.positions import board_state
from bot.service.models import markdown_safe as md
from bot.service.review.numbering import decision_label

MOVES = ("first", "previous", "next", "mine", "error", "last")  # the buttons' words
ERRORS_PER_PAGE = 8  # lines of ``!review errors`` a page: long names and plays stay under 2,000


def board_before(gnubg_id: str, names: tuple[str, str] | None = None) -> BoardState | None:
    """The board of a stored decision's position (its ``PositionID:MatchID``), with the
    players' ``names`` (X and O without them); None when the ID can't be read."""
    position, _, match_id = gnubg_id.partition(":")
    try:
        state = board_state(from_gnubg_id(gnubg_id, position, match_id))
    except ValueError:
        return None
    return state if names is None else replace(state, players=names)


def shown(decisions: Sequence[ReviewedDecision]) -> tuple[ReviewedDecision, ...]:
    """The decisions the review has a page for, in order."""
    return tuple(d for d in decisions if _worth_a_page(d))


def _worth_a_page(d: ReviewedDecision) -> bool:
    if d.kind == "checker":
        return not d.forced
    if d.kind == "cube":
        return d.wrong or bool(d.skill) or (d.cube is not None and d.cube.close)
    return True  # an answer to a double


def error_class(d: ReviewedDecision, *, language: Language) -> str:
    """``doubtful``, ``error``, ``blunder`` or "": gnubg's mark, in the review's words (the one
    rule: :mod:`bot.gnubg.decisions`)."""
    return words.ERROR_CLASSES[CLASSES[d.skill]](language) if d.skill else ""


def is_error(d: ReviewedDecision) -> bool:
    """Marked doubtful or worse: what ``next error`` stops at and ``!review errors`` lists."""
    return bool(d.skill)


def turn(count: int, at: int, word: str) -> int | None:
    """The page (0-based) of ``count`` that ``first``, ``previous``, ``next`` or ``last``
    leads to from page ``at``: None when there is none that way (or another word)."""
    last = count - 1
    if word == "first":
        return 0
    if word == "last":
        return last
    if word == "previous":
        return at - 1 if at > 0 else None
    if word == "next":
        return at + 1 if at < last else None
    return None


def target(pages: Sequence[ReviewedDecision], at: int, word: str, player: int | None) -> int | None:
    """The page (0-based) a button's ``word`` leads to from page ``at``: None when there is none
    that way (e.g. no error of ``player`` after this one)."""
    if word not in ("mine", "error"):
        return turn(len(pages), at, word)
    wanted = (
        (lambda d: is_error(d))
        if word == "error"
        else (lambda d: is_error(d) and d.player == player)
    )
    return next((i for i in range(at + 1, len(pages)) if wanted(pages[i])), None)


@dataclass(frozen=True, slots=True)
class Money:
    """How losses are said: EMG (and MWC in match play)."""

    match_play: bool

    def loss(self, d: ReviewedDecision) -> str:
        text = f"-{d.loss:.3f} EMG" if self.match_play else f"-{d.loss:.3f}"
        if self.match_play and d.loss_mwc is not None:
            text += f", {-100 * d.loss_mwc:+.2f}% MWC"
        return text


def _equity(value: float) -> str:
    return f"{value:+.3f}"


def verdict(d: ReviewedDecision, match_play: bool, *, language: Language) -> str:
    """What gnubg makes of the decision, after the play or action: its mark and the loss, a
    best play (alone or one of several), or a choice too close to mark."""
    loss = Money(match_play).loss(d)
    if d.skill:
        return f" — **{error_class(d, language=language)}** {d.mark} ({loss})"
    if d.kind == "checker":
        if d.played is None or d.played_candidate is None:
            return ""
        if not d.wrong:
            count = d.best_plays
            return say.AGREES(language) if count == 1 else say.EQUAL_BEST(language, count=count)
        return say.WITHIN_BEST(language, within=f"{THRESHOLDS['doubtful']:.3f}", loss=loss)
    if d.cube is None:
        return ""
    if d.wrong or d.loss:
        return say.WITHIN_ACTION(language, within=f"{THRESHOLDS['doubtful']:.3f}", loss=loss)
    return say.AGREES(language)


def page_text(
    d: ReviewedDecision,
    index: int,
    count: int,
    *,
    names: tuple[str, str],
    title: str,
    match_play: bool,
    language: Language,
) -> str:
    """The words of one page: where it is, what was decided, gnubg's figures, the IDs."""
    who = md(names[d.player])
    head = f"**{title}** · {decision_label(d.game, d.move, index, count, language=language)}"
    lines = [head]
    if d.kind == "checker":
        dice = f"{d.dice[0]}-{d.dice[1]}" if d.dice else ""
        luck = ""
        if d.luck is not None:
            luck = say.LUCK(language, luck=f"{d.luck:+.3f}") + (
                f" ({d.luck_mark})" if d.luck_mark else ""
            )
        lines.append(say.TO_PLAY(language, who=who, dice=dice, luck=luck))
        played = d.played or say.NO_LEGAL_MOVE(language)
        lines.append(
            say.PLAYED(language, played=played, verdict=verdict(d, match_play, language=language))
        )
        if d.best and not d.agrees:
            lines.append(say.BEST(language, best=d.best))
        lines += _candidate_lines(d, match_play, language=language)
    else:
        doubler = names[d.player] if d.kind == "cube" else names[1 - d.player]
        if d.kind == "cube":
            lines.append(say.TO_DOUBLE(language, who=who))
        else:
            lines.append(say.FACING(language, who=who, doubler=md(doubler)))
        lines.append(
            say.PLAYED(language, played=d.played, verdict=verdict(d, match_play, language=language))
        )
        if d.cube is not None:
            cube = d.cube
            figures = say.CUBE_FIGURES(
                language,
                no_double=_equity(cube.no_double),
                take=_equity(cube.double_take),
                drop=_equity(cube.double_pass),
            )
            lines.append(
                say.PROPER(
                    language, proper=words.cube_action(cube.proper, language), plies=cube.plies
                )
            )
            lines.append(figures)
        else:
            lines.append(say.BEAVER_UNANALYSED(language))
    position, _, match_id = d.gnubg_id.partition(":")
    try:
        xgid = from_gnubg_id(d.gnubg_id, position, match_id).xgid()
        lines.append(f"`{xgid}` · gnubg ID `{d.gnubg_id}`")
    except ValueError:
        lines.append(f"gnubg ID `{d.gnubg_id}`")
    return "\n".join(lines)


def _candidate_lines(d: ReviewedDecision, match_play: bool, *, language: Language) -> list[str]:
    """gnubg's best plays in the review's order (see :func:`bot.gnubg.decisions.in_review_order`)
    and the play made after them at its rank when it ranks lower."""
    lines = []
    shown = d.candidates[:LISTED] + tuple(c for c in d.candidates[LISTED:] if c.play == d.played)
    evaluations = [words.REVIEW_EVALUATION[c.cubeful](language, plies=c.plies) for c in shown]
    width = max((15, *map(len, evaluations)))  # "Cubeful 2-ply" and a space, in English
    for c, evaluation in zip(shown, evaluations, strict=True):
        rank = f"{c.rank}." if c.rank is not None else "??"
        mark = words.REVIEW_PLAYED_MARK(language) if c.play == d.played else ""
        if c.rank is None:
            mark += words.REVIEW_RANK_NOT_KEPT(language)
        diff = "" if c.difference == 0 else f" ({c.difference:+.3f})"
        mwc = f" {100 * c.mwc:.1f}%" if match_play and c.mwc is not None else ""
        lines.append(
            f"`{rank:>3} {c.play:<22} {evaluation:<{width}} {_equity(c.equity)}{diff}{mwc}`{mark}"
        )
    return lines


def errors_pages(
    pages: Sequence[ReviewedDecision],
    *,
    names: tuple[str, str],
    title: str,
    match_play: bool,
    figures: Sequence[str],
    language: Language,
) -> list[str]:
    """``!review errors``: every decision gnubg marked doubtful or worse, one line each
    (:data:`ERRORS_PER_PAGE` a page), each page headed by the players' figures."""
    money = Money(match_play)
    lines = []
    for index, d in enumerate(pages):
        if not is_error(d):
            continue
        roll = f"{d.dice[0]}-{d.dice[1]} " if d.kind == "checker" and d.dice else ""
        best = words.REVIEW_BEST_OF_LINE(language, best=d.best) if d.best and not d.agrees else ""
        lines.append(
            f"`{index + 1:>3}` {md(names[d.player])} {roll}{d.played or ''}{best} "
            f"{money.loss(d)} **{error_class(d, language=language)}** {d.mark}"
        )
    found = len(lines)
    chunks = [lines[at : at + ERRORS_PER_PAGE] for at in range(0, found, ERRORS_PER_PAGE)] or [
        [words.REVIEW_CLEAN(language)]
    ]
    texts = []
    for number, chunk in enumerate(chunks, start=1):
        where = (
            words.REVIEW_PAGE(language, number=number, pages=len(chunks)) if len(chunks) > 1 else ""
        )
        if found:
            head = words.REVIEW_MARKED(language, found, title=title, where=where)
        else:
            head = words.REVIEW_NONE_MARKED(language, title=title, where=where)
        texts.append("\n".join([head, *figures, *chunk]))
    return texts
