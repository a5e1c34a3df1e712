"""How a puzzle is asked (``!puzzle``, a storm): never its answer."""

from __future__ import annotations

from bot.rules.pasted import NAMES
from bot.rules.puzzles import CHECKER, DOUBLE, Puzzle, Verdict
from bot.service.gnubg.positions import board_state, summary
from bot.service.keys import PuzzleKey, StormKey
from bot.service.matches.presentation import BoardImages, play_form
from bot.service.models import Decision, Reply


def verdict_head(verdict: Verdict) -> str:
    """The verdict's first words: right, or what the answer lost and gnubg's best."""
    said = f"**{verdict.answer.answer}**"
    if verdict.right:
        return f"✅ {said} is gnubg's best."
    return f"❌ {said} loses {verdict.loss:.3f}; gnubg's best: **{verdict.best.answer}**."


def how_to_answer(puzzle: Puzzle, prefix: str) -> str:
    """How the puzzle is answered, never the answer."""
    if puzzle.kind == CHECKER:
        return f"answer with {play_form('puzzle', prefix)}"
    words = ("double", "no double") if puzzle.kind == DOUBLE else ("take", "pass")
    return f"`{prefix}puzzle {words[0]}` or `{prefix}puzzle {words[1]}` (or the buttons)"


def _ask(puzzle: Puzzle, prefix: str) -> str:
    question = {CHECKER: "Your play?", DOUBLE: "Double?"}.get(puzzle.kind, "Take or pass?")
    how = how_to_answer(puzzle, prefix)
    return f"{question} {how[:1].upper()}{how[1:]}."


async def puzzle_reply(
    images: BoardImages, prefix: str, puzzle: Puzzle, head: str, key: PuzzleKey | StormKey
) -> Reply:
    """``puzzle`` asked: ``head``, who decides, the match, score, cube and pips, how to answer,
    and the board from the decider's side; a cube puzzle's buttons carry ``key`` (a rated
    puzzle's showing, or a storm's puzzle)."""
    state = puzzle.state
    text = (
        f"{head} You are {NAMES[puzzle.decider]}.\n"
        f"{summary(state).splitlines()[0]}\n{_ask(puzzle, prefix)}"
    )
    image = await images.picture(board_state(state), puzzle.decider)
    if puzzle.kind == CHECKER:
        return Reply(text, image=image)
    if isinstance(key, StormKey):
        decision = Decision.STORM_DOUBLE if puzzle.kind == DOUBLE else Decision.STORM_TAKE
    else:
        decision = Decision.PUZZLE_DOUBLE if puzzle.kind == DOUBLE else Decision.PUZZLE_TAKE
    return Reply(text, image=image, decision=decision, decision_key=key)
