"""What the service says about analyses, and how a result is kept in the store.

Pure functions of :class:`~bot.gnubg.api.MatchAnalysis` values; the stored JSON is
``MatchAnalysis.to_data``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.gnubg.api import MIN_RATED_DECISIONS, MatchAnalysis, Mistake, PlayerAnalysis
from bot.gnubg.decisions import MARKS, ReviewedDecision, skill_of
from bot.i18n import reports as words
from bot.i18n.core import Language
from bot.i18n.numbers import decimal
from bot.rules.notation import dice_text
from bot.service.matches.presentation import match_kind
from bot.service.review.numbering import decision_label
from bot.service.review.pages import shown

# -- the stored form ---------------------------------------------------------------------------


def encode_result(analysis: MatchAnalysis) -> str:
    """The JSON kept in ``analyses.result``."""
    return json.dumps(analysis.to_data(), separators=(",", ":"))


def decode_result(text: str) -> MatchAnalysis:
    """The inverse of :func:`encode_result` (``AnalysisDataError`` if it isn't one)."""
    return MatchAnalysis.from_data(json.loads(text))


# -- progress ----------------------------------------------------------------------------------


def queued_text(match_id: int, names: tuple[str, str], ahead: int, *, language: Language) -> str:
    """``names`` as message text shows them."""
    wait = words.ANALYSIS_NEXT(language) if ahead == 0 else words.ANALYSIS_AHEAD(language, ahead)
    return words.ANALYSIS_QUEUED(language, id=match_id, first=names[0], second=names[1], wait=wait)


def running_text(
    match_id: int, names: tuple[str, str], plies: int, done: int, total: int, *, language: Language
) -> str:
    so_far = (
        words.ANALYSIS_GAMES_DONE(language, done=done, total=total)
        if total
        else words.ANALYSIS_STARTED(language)
    )
    return words.ANALYSIS_RUNNING(
        language, id=match_id, first=names[0], second=names[1], plies=plies, so_far=so_far
    )


def failed_text(match_id: int, error: str, prefix: str, *, language: Language) -> str:
    return words.ANALYSIS_FAILED(language, id=match_id, error=error, prefix=prefix)


# -- the result --------------------------------------------------------------------------------


def result_text(
    match_id: int,
    names: tuple[str, str],
    analysis: MatchAnalysis,
    *,
    prefix: str = "!",
    language: Language,
) -> str:
    """The analysis of a match as a message: each player's figures and worst decisions (each
    with the ``!review`` that shows it, when the analysis kept its decisions); a player with
    too few decisions to rate gets one line for both, and no figures."""
    seconds = ""
    if analysis.seconds >= 0.05:
        seconds = words.ANALYSIS_SECONDS(language, seconds=decimal(analysis.seconds, 1, language))
    lines = [
        words.ANALYSIS_HEAD(
            language,
            id=match_id,
            first=names[0],
            second=names[1],
            kind=match_kind(analysis.length, language=language, alone=True),
            plies=analysis.plies,
            seconds=seconds,
        )
    ]
    short = [seat for seat, player in enumerate(analysis.players) if not player.rated]
    if short:
        lines.append(too_few_line(names, analysis.players, short, language=language))
    reviewed = shown(analysis.decisions)
    for seat, player in enumerate(analysis.players):
        if seat in short:
            continue
        lines += player_lines(names[seat], player, analysis.length, language=language)
        pages = [review_page(reviewed, mistake) for mistake in analysis.worst[seat]]
        lines += mistake_lines(
            analysis.worst[seat], pages, len(reviewed), match_id, prefix, language=language
        )
    return "\n".join(lines)


def too_few_line(
    names: tuple[str, str],
    players: Sequence[PlayerAnalysis],
    short: Sequence[int],
    *,
    language: Language,
) -> str:
    """The one line that says who had too few decisions to rate (and so no chart when
    nobody had enough)."""
    who = ", ".join(f"**{names[seat]}** {players[seat].decisions}" for seat in short)
    chart = words.ANALYSIS_NOTHING_TO_CHART(language) if len(short) == len(players) else ""
    return words.ANALYSIS_TOO_FEW(language, who=who, needed=MIN_RATED_DECISIONS, chart=chart)


def pr_figure(player: PlayerAnalysis, *, language: Language) -> str:
    """``PR 6.5``, or why there is none (for a line of figures elsewhere: ``!review errors``)."""
    if player.rated:
        return f"PR {player.pr:.1f}"
    return words.ANALYSIS_NO_PR(language, decisions=words.DECISIONS(language, player.decisions))


def charted(analysis: MatchAnalysis) -> bool:
    """Whether the analysis has a chart worth sending: someone had decisions enough to rate."""
    return bool(analysis.chart) and any(player.rated for player in analysis.players)


def review_page(pages: Sequence[ReviewedDecision], mistake: Mistake) -> int | None:
    """The page (0-based) of the review's ``pages`` that shows ``mistake``; None without one
    (an analysis stored before the decisions were kept)."""
    checker = mistake.kind == "checker"
    return next(
        (
            page
            for page, d in enumerate(pages)
            if (d.game, d.move, d.player) == (mistake.game, mistake.move, mistake.player)
            and (d.kind == "checker") == checker
        ),
        None,
    )


def player_lines(
    name: str, player: PlayerAnalysis, length: int, *, language: Language
) -> list[str]:
    rating = f" ({player.rating})" if player.rating else ""
    adjusted = luck_adjusted_text(player.luck_adjusted, length, language=language)
    return [
        words.ANALYSIS_PLAYER(
            language,
            name=name,
            pr=f"{player.pr:.1f}",
            rate=f"{player.error_rate:.1f}",
            decisions=words.DECISIONS(language, player.decisions),
            rating=rating,
        ),
        words.ANALYSIS_CHECKER(
            language,
            errors=_errors(
                player.checker_decisions,
                player.checker_errors,
                player.checker_blunders,
                player.checker_error_rate,
                language=language,
            ),
        ),
        words.ANALYSIS_CUBE(
            language,
            errors=_errors(
                player.cube_decisions,
                player.cube_errors,
                player.cube_blunders,
                player.cube_error_rate,
                language=language,
            ),
        ),
        words.ANALYSIS_LUCK(
            language,
            rate=f"{player.luck_rate:+.1f}",
            total=f"{player.luck_total:+.3f}",
            adjusted=f"; {adjusted}" if adjusted else "",
        ),
    ]


def luck_adjusted_chance(figure: float) -> float:
    """gnubg's "Luck adjusted result" of a match (percent) as a match-winning chance, 0..1.

    gnubg's figure is the change from an even match: the actual result (+50% won, -50% lost)
    less the player's own luck plus the opponent's, each roll's luck in match-winning chances
    (``updateStatcontext`` in gnubg's analysis.c). Unlike a chance, it has no bounds: a player
    who won though both the dice and the opponent's blunders ran against them gets more than
    +50% (gnubg printed +100.38% for a 1-point match won). gnubg itself reads 50% plus it as a
    chance only inside 0..100% (its "luck based FIBS rating" is n/a outside), so the chance is
    held there."""
    return min(1.0, max(0.0, 0.5 + figure / 100))


def luck_adjusted_text(figure: float | None, length: int, *, language: Language) -> str:
    """The luck-adjusted result as the message says it ("" when gnubg gave none: the last game
    was not played out). Money: gnubg's points; match play: :func:`luck_adjusted_chance`, with
    gnubg's own figure beside it when that is past the scale."""
    if figure is None:
        return ""
    if length == 0:
        return words.ANALYSIS_LUCK_POINTS(language, figure=f"{figure:+.3f}")
    text = words.ANALYSIS_LUCK_CHANCE(language, chance=f"{100 * luck_adjusted_chance(figure):.1f}%")
    if not -50 <= figure <= 50:
        text += words.ANALYSIS_PAST_SCALE(language, figure=f"{figure:+.2f}")
    return text


def _errors(decisions: int, errors: int, blunders: int, rate: float, *, language: Language) -> str:
    return words.ANALYSIS_ERRORS(
        language,
        decisions=words.DECISIONS(language, decisions),
        errors=words.ERRORS(language, errors),
        blunders=words.BLUNDERS(language, blunders),
        rate=f"{rate:.1f}",
    )


def mistake_lines(
    mistakes: tuple[Mistake, ...],
    pages: Sequence[int | None],
    count: int,
    match_id: int,
    prefix: str = "!",
    *,
    language: Language,
) -> list[str]:
    """``pages``: each mistake's page of the review's ``count`` (None: none), which names it
    (:func:`~bot.service.review.numbering.decision_label`) and the ``!review`` that shows it."""
    if not mistakes:
        return [words.ANALYSIS_NO_COSTLY(language)]
    lines = [words.ANALYSIS_WORST(language)]
    for index, mistake in enumerate(mistakes):
        page = pages[index] if index < len(pages) else None
        dice = f" ({dice_text(mistake.dice)})" if mistake.dice else ""
        review = "" if page is None else f": `{prefix}review {match_id} {page + 1}`"
        # gnubg's mark (?!, ?, ??) is its Skill() of the very loss shown (bot.gnubg.decisions)
        mark = MARKS[skill_of(mistake.cost)]
        lines.append(
            words.ANALYSIS_MISTAKE(
                language,
                label=decision_label(mistake.game, mistake.move, page, count, language=language),
                dice=dice,
                played=mistake.played,
                best=mistake.best,
                cost=f"{mistake.cost:.3f}",
                mark=" " + mark if mark else "",
                review=review,
            )
        )
    return lines


def pr_text(matches: int, decisions: int, pr: float, *, language: Language) -> str:
    """A player's PR over their analysed matches, for ``!stats``."""
    return words.ANALYSIS_PR(
        language,
        pr=f"{pr:.1f}",
        matches=words.ANALYSED_MATCHES(language, matches),
        decisions=words.DECISIONS(language, decisions),
    )
