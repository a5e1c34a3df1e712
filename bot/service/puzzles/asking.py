"""How a puzzle is asked (``!puzzle``, a storm): never its answer."""

from __future__ import annotations

from bot.i18n import puzzles as say
from bot.i18n.core import Language, capital
from bot.rules.pasted import NAMES
from bot.rules.puzzles import CHECKER, DOUBLE, Puzzle, Verdict
from bot.service.gnubg.positions import board_state, summary
from bot.service.keys import PuzzleKey, StormKey
from bot.service.matches.presentation import BoardImages, play_form
from bot.service.models import Decision, Reply


def verdict_head(verdict: Verdict, *, language: Language) -> str:
    """The verdict's first words: right, or what the answer lost and gnubg's best."""
    said = f"**{verdict.answer.answer}**"
    if verdict.right:
        return say.RIGHT(language, said=said)
    return say.WRONG(language, said=said, loss=f"{verdict.loss:.3f}", best=verdict.best.answer)


def verdict_text(verdict: Verdict, puzzle: Puzzle, *, language: Language) -> str:
    """The whole verdict of a rated puzzle: its head, gnubg's top three and the XGID."""
    head = verdict_head(verdict, language=language)
    top = " · ".join(
        f"{n}. {ranked.answer} {ranked.equity:+.3f}" for n, ranked in enumerate(verdict.top, 1)
    )
    return f"{head}\ngnubg {puzzle.plies}-ply: {top}\n`{puzzle.xgid}`"


def how_to_answer(puzzle: Puzzle, prefix: str, *, language: Language) -> str:
    """How the puzzle is answered, never the answer."""
    if puzzle.kind == CHECKER:
        return say.ANSWER_WITH_PLAY(language, form=play_form("puzzle", prefix, language=language))
    words = ("double", "no double") if puzzle.kind == DOUBLE else ("take", "pass")
    return say.ANSWER_WITH_WORDS(language, prefix=prefix, yes=words[0], no=words[1])


def _ask(puzzle: Puzzle, prefix: str, *, language: Language) -> str:
    question = {CHECKER: say.YOUR_PLAY, DOUBLE: say.DOUBLE_Q}.get(puzzle.kind, say.TAKE_OR_PASS_Q)
    how = how_to_answer(puzzle, prefix, language=language)
    return say.ASKED(
        language, question=question(language), how=capital(how[:1], language) + how[1:]
    )


async def puzzle_reply(
    images: BoardImages,
    prefix: str,
    puzzle: Puzzle,
    head: str,
    key: PuzzleKey | StormKey,
    *,
    language: Language,
) -> Reply:
    """``puzzle`` asked: ``head``, who decides, the match, score, cube and pips, how to answer,
    and the board from the decider's side; a cube puzzle's buttons carry ``key`` (a rated
    puzzle's showing, or a storm's puzzle)."""
    state = puzzle.state
    text = (
        f"{say.YOU_ARE(language, head=head, side=NAMES[puzzle.decider])}\n"
        f"{summary(state, language=language).splitlines()[0]}\n"
        f"{_ask(puzzle, prefix, language=language)}"
    )
    image = await images.picture(board_state(state), puzzle.decider, language=language)
    if puzzle.kind == CHECKER:
        return Reply(text, image=image)
    if isinstance(key, StormKey):
        decision = Decision.STORM_DOUBLE if puzzle.kind == DOUBLE else Decision.STORM_TAKE
    else:
        decision = Decision.PUZZLE_DOUBLE if puzzle.kind == DOUBLE else Decision.PUZZLE_TAKE
    return Reply(text, image=image, decision=decision, decision_key=key)
