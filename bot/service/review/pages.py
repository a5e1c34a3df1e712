"""The pages of a match's review: which decisions are shown, how to page through them, and each
page's words. Pure functions of :class:`~bot.gnubg.decisions.ReviewedDecision` values.

A review shows every decision a player made that GNU Backgammon had a say in: each roll played
(not a forced one), each answer to a double, and each cube decision before a roll that was close
or wrong (a roll where doubling was never in question is no decision worth a page). Error
classes are gnubg's own marks, at its thresholds (:data:`bot.gnubg.decisions.THRESHOLDS`):
doubtful (``?!``), error (``?``, gnubg's "bad") and blunder (``??``, "very bad").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.gnubg.decisions import ReviewedDecision
from bot.render.state import BoardState
from bot.rules.pasted import from_gnubg_id
from bot.service.gnubg.positions import board_state
from bot.service.records.names import markdown_safe as md
from bot.service.review.numbering import decision_label

CLASSES = {"doubtful": "doubtful", "bad": "error", "very bad": "blunder"}
MOVES = ("first", "previous", "next", "mine", "error", "last")  # the buttons' words


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
        return d.error or bool(d.skill) or (d.cube is not None and d.cube.close)
    return True  # an answer to a double


def error_class(d: ReviewedDecision) -> str:
    """``doubtful``, ``error``, ``blunder`` or "" (gnubg's mark, in the review's words)."""
    if d.skill:
        return CLASSES[d.skill]
    return "error" if d.kind != "checker" and d.error and d.loss >= 0.0005 else ""


def is_error(d: ReviewedDecision) -> bool:
    """Doubtful or worse: what ``next error`` stops at and ``!review errors`` lists."""
    return bool(error_class(d))


def target(pages: Sequence[ReviewedDecision], at: int, word: str, player: int | None) -> int | None:
    """The page (0-based) a button's ``word`` leads to from page ``at``: None when there is none
    that way (e.g. no error of ``player`` after this one)."""
    last = len(pages) - 1
    if word == "first":
        return 0
    if word == "last":
        return last
    if word == "previous":
        return at - 1 if at > 0 else None
    if word == "next":
        return at + 1 if at < last else None
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


def page_text(
    d: ReviewedDecision,
    index: int,
    count: int,
    *,
    names: tuple[str, str],
    title: str,
    match_play: bool,
) -> str:
    """The words of one page: where it is, what was decided, gnubg's figures, the IDs."""
    money = Money(match_play)
    who = md(names[d.player])
    head = f"**{title}** · {decision_label(d.game, d.move, index, count)}"
    lines = [head]
    kind = error_class(d)
    verdict = f" — **{kind}** {d.mark} ({money.loss(d)})" if kind else " — gnubg agrees"
    if d.kind == "checker":
        dice = f"{d.dice[0]}-{d.dice[1]}" if d.dice else ""
        luck = ""
        if d.luck is not None:
            luck = f" · luck {d.luck:+.3f}" + (f" ({d.luck_mark})" if d.luck_mark else "")
        lines.append(f"{who} to play {dice}{luck}")
        lines.append(f"Played: **{d.played or 'no legal move'}**{verdict if d.played else ''}")
        if d.best and d.best != d.played:
            lines.append(f"Best: **{d.best}**")
        for c in d.candidates[:5] + tuple(c for c in d.candidates[5:] if c.play == d.played):
            rank = f"{c.rank}." if c.rank is not None else "??"
            mark = " ← played" if c.play == d.played else ""
            diff = "" if c.difference == 0 else f" ({c.difference:+.3f})"
            mwc = f" {100 * c.mwc:.1f}%" if match_play and c.mwc is not None else ""
            lines.append(
                f"`{rank:>3} {c.play:<22} {c.evaluation:<15} {_equity(c.equity)}{diff}{mwc}`{mark}"
            )
    else:
        doubler = names[d.player] if d.kind == "cube" else names[1 - d.player]
        question = "to double or not" if d.kind == "cube" else f"facing {md(doubler)}'s double"
        lines.append(f"{who}: {question}")
        lines.append(f"Played: **{d.played}**{verdict}")
        if d.cube is not None:
            cube = d.cube
            figures = (
                f"No double {_equity(cube.no_double)} · Double/take {_equity(cube.double_take)} · "
                f"Double/pass {_equity(cube.double_pass)}"
            )
            lines.append(f"Proper action: **{cube.proper}** ({cube.plies}-ply, cubeful)")
            lines.append(figures)
        else:
            lines.append("GNU Backgammon did not analyse this cube decision (a beaver).")
    position, _, match_id = d.gnubg_id.partition(":")
    try:
        xgid = from_gnubg_id(d.gnubg_id, position, match_id).xgid()
        lines.append(f"`{xgid}` · gnubg ID `{d.gnubg_id}`")
    except ValueError:
        lines.append(f"gnubg ID `{d.gnubg_id}`")
    return "\n".join(lines)


def errors_text(
    pages: Sequence[ReviewedDecision],
    *,
    names: tuple[str, str],
    title: str,
    match_play: bool,
    figures: Sequence[str],
    limit: int = 1900,
) -> list[str]:
    """``!review errors``: every decision at doubtful or worse, one line each, after the
    players' figures; in as many messages of at most ``limit`` characters as it takes."""
    money = Money(match_play)
    lines = [f"**{title}**: the decisions GNU Backgammon marked", *figures]
    found = 0
    for index, d in enumerate(pages):
        if not is_error(d):
            continue
        found += 1
        roll = f"{d.dice[0]}-{d.dice[1]} " if d.kind == "checker" and d.dice else ""
        best = f" (best {d.best})" if d.best and d.best != d.played else ""
        lines.append(
            f"`{index + 1:>3}` {md(names[d.player])} {roll}{d.played or ''}{best} "
            f"{money.loss(d)} **{error_class(d)}**"
        )
    if not found:
        lines.append("No decision was marked: a clean match.")
    messages: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + len(line) + 1 > limit:
            messages.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    messages.append(current)
    return messages
