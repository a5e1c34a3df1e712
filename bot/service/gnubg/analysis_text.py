"""What the service says about analyses, and how a result is kept in the store.

Pure functions of :class:`~bot.gnubg.api.MatchAnalysis` values; the stored JSON is
``MatchAnalysis.to_data``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.gnubg.api import MatchAnalysis, Mistake, PlayerAnalysis
from bot.gnubg.decisions import ReviewedDecision
from bot.rules.text import dice_text, plural
from bot.service.matches.presentation import match_kind
from bot.service.review.pages import shown

# -- the stored form ---------------------------------------------------------------------------


def encode_result(analysis: MatchAnalysis) -> str:
    """The JSON kept in ``analyses.result``."""
    return json.dumps(analysis.to_data(), separators=(",", ":"))


def decode_result(text: str) -> MatchAnalysis:
    """The inverse of :func:`encode_result` (``AnalysisDataError`` if it isn't one)."""
    return MatchAnalysis.from_data(json.loads(text))


# -- progress ----------------------------------------------------------------------------------


def title(match_id: int, names: tuple[str, str]) -> str:
    """``match #12 (alice vs bob)``; ``names`` as message text shows them."""
    return f"match #{match_id} ({names[0]} vs {names[1]})"


def queued_text(match_id: int, names: tuple[str, str], ahead: int) -> str:
    wait = "next in line" if ahead == 0 else f"{_count(ahead, 'analysis', 'analyses')} ahead"
    return f"GNU Backgammon will analyse {title(match_id, names)}: {wait}."


def running_text(match_id: int, names: tuple[str, str], plies: int, done: int, total: int) -> str:
    so_far = f"game {done} of {total} done" if total else "started"
    return f"GNU Backgammon is analysing {title(match_id, names)} at {plies}-ply: {so_far}…"


def failed_text(match_id: int, error: str, prefix: str) -> str:
    return (
        f"The analysis of match #{match_id} failed: {error} "
        f"Ask again with `{prefix}analysis {match_id}`."
    )


# -- the result --------------------------------------------------------------------------------


def result_text(
    match_id: int, names: tuple[str, str], analysis: MatchAnalysis, *, prefix: str = "!"
) -> str:
    """The analysis of a match as a message: each player's figures and worst decisions (each
    with the ``!review`` that shows it, when the analysis kept its decisions)."""
    seconds = f", {analysis.seconds:.1f} s" if analysis.seconds >= 0.05 else ""
    lines = [
        f"**Analysis of {title(match_id, names)}**: {match_kind(analysis.length)}, GNU "
        f"Backgammon at {analysis.plies}-ply{seconds}."
    ]
    if not any(player.decisions for player in analysis.players):
        lines.append(
            "Nobody made a decision GNU Backgammon judges (no unforced play, no close cube "
            "decision): there is nothing to rate."
        )
        return "\n".join(lines)
    reviewed = shown(analysis.decisions)
    for seat, player in enumerate(analysis.players):
        lines += player_lines(names[seat], player, analysis.length)
        pages = [review_page(reviewed, mistake) for mistake in analysis.worst[seat]]
        reviews = [
            None if page is None else f"{prefix}review {match_id} {page + 1}" for page in pages
        ]
        lines += mistake_lines(analysis.worst[seat], reviews)
    return "\n".join(lines)


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


def player_lines(name: str, player: PlayerAnalysis, length: int) -> list[str]:
    rating = f" ({player.rating})" if player.rating else ""
    if player.luck_adjusted is None:  # the last game was not played out
        adjusted = ""
    elif length == 0:
        adjusted = f"; luck-adjusted result {player.luck_adjusted:+.3f} points"
    else:  # gnubg's figure: the match won or lost (+-50% of MWC from even) less the luck
        adjusted = f"; luck-adjusted result {player.luck_adjusted:+.1f}% in match-winning chances"
    return [
        f"**{name}**: PR {player.pr:.1f}, error rate {player.error_rate:.1f} mEMG over "
        f"{plural(player.decisions, 'decision')}{rating}.",
        "  Checker play: "
        + _errors(
            player.checker_decisions,
            player.checker_errors,
            player.checker_blunders,
            player.checker_error_rate,
        ),
        "  Cube: "
        + _errors(
            player.cube_decisions, player.cube_errors, player.cube_blunders, player.cube_error_rate
        ),
        f"  Luck {player.luck_rate:+.1f} mEMG a move ({player.luck_total:+.3f} EMG in all)"
        f"{adjusted}.",
    ]


def _errors(decisions: int, errors: int, blunders: int, rate: float) -> str:
    return (
        f"{plural(decisions, 'decision')}, {plural(errors, 'error')} "
        f"({plural(blunders, 'blunder')}), {rate:.1f} mEMG a decision."
    )


def mistake_lines(mistakes: tuple[Mistake, ...], reviews: Sequence[str | None] = ()) -> list[str]:
    """``reviews``: the command that shows each mistake's page (None: none)."""
    if not mistakes:
        return ["  No costly decisions."]
    lines = ["  Worst decisions:"]
    for index, mistake in enumerate(mistakes):
        dice = f" ({dice_text(mistake.dice)})" if mistake.dice else ""
        review = reviews[index] if index < len(reviews) else None
        lines.append(
            f"  - game {mistake.game}, move {mistake.move}{dice}: {mistake.played}; better "
            f"{mistake.best} (costs {mistake.cost:.3f})" + (f": `{review}`" if review else "")
        )
    return lines


def pr_text(matches: int, decisions: int, pr: float) -> str:
    """A player's PR over their analysed matches, for ``!stats``."""
    return (
        f"PR {pr:.1f} over {_count(matches, 'analysed match', 'analysed matches')} "
        f"({plural(decisions, 'decision')})."
    )


def _count(count: int, one: str, more: str) -> str:
    return f"{count} {one if count == 1 else more}"
