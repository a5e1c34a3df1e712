"""How a puzzle is asked (``!puzzle``, a storm): never its answer."""

from __future__ import annotations

from bot.rules.pasted import NAMES
from bot.rules.puzzles import CHECKER, DOUBLE, Puzzle
from bot.service.gnubg.positions import board_state, summary
from bot.service.keys import PuzzleKey
from bot.service.matches.images import BoardImages
from bot.service.matches.presentation import play_form
from bot.service.models import Decision, Reply


def how_to_answer(puzzle: Puzzle, prefix: str, buttons: bool = True) -> str:
    """How the puzzle is answered, never the answer (``buttons``: a cube puzzle's, if any)."""
    if puzzle.kind == CHECKER:
        return f"answer with {play_form('puzzle', prefix)}"
    words = ("double", "no double") if puzzle.kind == DOUBLE else ("take", "pass")
    pressed = " (or the buttons)" if buttons else ""
    return f"`{prefix}puzzle {words[0]}` or `{prefix}puzzle {words[1]}`{pressed}"


def _ask(puzzle: Puzzle, prefix: str, buttons: bool) -> str:
    question = {CHECKER: "Your play?", DOUBLE: "Double?"}.get(puzzle.kind, "Take or pass?")
    how = how_to_answer(puzzle, prefix, buttons)
    return f"{question} {how[:1].upper()}{how[1:]}."


async def puzzle_reply(
    images: BoardImages, prefix: str, puzzle: Puzzle, head: str, key: PuzzleKey | None
) -> Reply:
    """``puzzle`` asked: ``head``, who decides, the match, score, cube and pips, how to answer,
    and the board from the decider's side; a cube puzzle's buttons carry ``key`` (None: no
    buttons, the answer is typed)."""
    state = puzzle.state
    text = (
        f"{head} You are {NAMES[puzzle.decider]}.\n"
        f"{summary(state).splitlines()[0]}\n{_ask(puzzle, prefix, key is not None)}"
    )
    image = await images.picture(board_state(state), puzzle.decider)
    if puzzle.kind == CHECKER or key is None:
        return Reply(text, image=image)
    return Reply(
        text,
        image=image,
        decision=Decision.PUZZLE_DOUBLE if puzzle.kind == DOUBLE else Decision.PUZZLE_TAKE,
        decision_key=key,
    )
