"""``!show`` and ``!eval``: a pasted position (an XGID or a gnubg ID) drawn, and judged by GNU
Backgammon. Tied to no match, they run in any channel under no channel's lock: the board is
drawn off the event loop and gnubg thinks in its own worker process.
"""

from __future__ import annotations

import asyncio

from bot.gnubg.api import (
    CubeAdvice,
    Engine,
    EngineFailure,
    EngineUnavailable,
    Evaluation,
    PlayOption,
    Probabilities,
    Query,
)
from bot.i18n import gnubg as say
from bot.i18n import reports as words
from bot.i18n.core import Language
from bot.i18n.words import sentence
from bot.render import BoardState
from bot.rules.errors import PositionTextError
from bot.rules.notation import dice_text
from bot.rules.pasted import NAMES, PastedPosition, read_position
from bot.rules.state import MAX_CUBE
from bot.service.matches.presentation import BoardImages, lead_text, typed
from bot.service.models import Reply, reason_of

EVAL_PLIES = 2
TOP_PLAYS = 5


def board_state(pasted: PastedPosition) -> BoardState:
    """What the board image shows of a pasted position (players named X and O, as XG does)."""
    return BoardState(
        position=pasted.position,
        on_roll=pasted.on_roll,
        players=NAMES,
        match_length=pasted.length,
        score=pasted.score,
        crawford=pasted.crawford,
        cube_value=pasted.cube,
        cube_owner=pasted.cube_owner,
        dice=pasted.dice,
        phase=pasted.phase,
        beavers=pasted.beavers and pasted.cube * 4 <= MAX_CUBE,
    )


# -- words ----------------------------------------------------------------------------------------


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _action_text(pasted: PastedPosition, *, language: Language) -> str:
    mover, other = NAMES[pasted.on_roll], NAMES[1 - pasted.on_roll]
    if pasted.doubled:
        return words.POSITION_DOUBLES(language, mover=mover, cube=pasted.cube * 2, other=other)
    if pasted.dice is not None:
        return words.POSITION_TO_PLAY(language, mover=mover, dice=dice_text(pasted.dice))
    return words.POSITION_TO_ROLL(language, mover=mover)


def _match_text(pasted: PastedPosition, *, language: Language) -> str:
    o_score, x_score = pasted.score
    if not pasted.length:
        rules = [
            rule
            for rule, on in (
                ("Jacoby", pasted.jacoby),
                (words.POSITION_BEAVERS(language), pasted.beavers),
            )
            if on
        ]
        text = words.POSITION_MONEY(language) + (f" ({', '.join(rules)})" if rules else "")
        return text + (
            words.POSITION_SESSION(language, x=x_score, o=o_score) if any(pasted.score) else ""
        )
    text = words.POSITION_MATCH(language, pasted.length, x=x_score, o=o_score)
    if pasted.crawford:
        return text + words.POSITION_CRAWFORD(language)
    if pasted.length == 1:
        return text  # no Crawford game, no cube: nothing is "post-Crawford" there
    return text + (
        words.POSITION_POST_CRAWFORD(language) if pasted.length - 1 in pasted.score else ""
    )


def _cube_text(pasted: PastedPosition, *, language: Language) -> str:
    if pasted.crawford:
        return words.POSITION_NO_CUBE(language)
    if pasted.cube_owner is None:
        return words.POSITION_CENTRED(language, cube=pasted.cube)
    return words.POSITION_OWNED(language, cube=pasted.cube, owner=NAMES[pasted.cube_owner])


def summary(pasted: PastedPosition, *, language: Language) -> str:
    """Two lines: who is to do what, the match, the cube and the pips; then both IDs to copy."""
    o_pips, x_pips = pasted.pip_counts()
    pips = words.POSITION_PIPS(
        language,
        x=x_pips,
        o=o_pips,
        lead=lead_text(("O", "X"), (o_pips, x_pips), language=language),
    )
    facts = " · ".join(
        (
            _action_text(pasted, language=language),
            _match_text(pasted, language=language),
            _cube_text(pasted, language=language),
            pips,
        )
    )
    return f"{facts}\ngnubg ID `{pasted.gnubg_id()}` · `{pasted.xgid()}`"


def _chances(
    name: str,
    chances: Probabilities,
    equity: float,
    plies: int,
    dice: tuple[int, int] | None,
    *,
    language: Language,
) -> str:
    """gnubg's chances for the player on roll, from before the roll: with dice set, say so (they
    are not the chances after the best play of those dice)."""
    return words.EVAL_CHANCES(
        language,
        plies=plies,
        name=name,
        when=words.EVAL_BEFORE_THE_ROLL(language, dice=dice_text(dice)) if dice else "",
        win=_percent(chances.win),
        win_gammon=_percent(chances.win_gammon),
        win_backgammon=_percent(chances.win_backgammon),
        lose=_percent(1 - chances.win),
        lose_gammon=_percent(chances.lose_gammon),
        lose_backgammon=_percent(chances.lose_backgammon),
        equity=_signed(equity),
    )


def _kind(pasted: PastedPosition, *, language: Language) -> str:
    return words.EVAL_CUBEFUL(language) if not pasted.length else "EMG"


def _cube_advice(pasted: PastedPosition, advice: CubeAdvice, *, language: Language) -> str:
    """The proper cube action with the three cubeful equities (for the player on roll), each
    against the proper one; for a double already offered, the taker's answer first."""
    best = max(advice.no_double, min(advice.double_take, advice.double_pass))
    equities = " · ".join(
        f"{label(language)} {_signed(equity)}"
        + ("" if abs(equity - best) < 5e-4 else f" ({_signed(equity - best)})")
        for label, equity in (
            (say.NO_DOUBLE, advice.no_double),
            (say.DOUBLE_TAKE, advice.double_take),
            (say.DOUBLE_PASS, advice.double_pass),
        )
    )
    proper = words.cube_action(advice.proper, language)
    head = words.EVAL_CUBE(language, proper=proper)
    if pasted.doubled:
        answer = "beaver" if advice.beaver else "take" if advice.take else "pass"
        head = words.EVAL_ANSWER(
            language,
            taker=NAMES[1 - pasted.on_roll],
            answer=words.EVAL_ANSWERS[answer](language),
            proper=proper,
        )
    return words.EVAL_EQUITIES(
        language,
        head=head,
        equities=equities,
        kind=_kind(pasted, language=language),
        name=NAMES[pasted.on_roll],
    )


def _plays_table(
    pasted: PastedPosition, plays: tuple[PlayOption, ...], *, language: Language
) -> str:
    assert pasted.dice is not None
    mover = NAMES[pasted.on_roll]
    if not plays:
        return words.EVAL_NO_PLAY(language, mover=mover, dice=dice_text(pasted.dice))
    width = max(len(option.play) for option in plays)
    lines = []
    for rank, option in enumerate(plays[:TOP_PLAYS], start=1):
        difference = "" if rank == 1 else f" ({_signed(option.difference)})"
        lines.append(
            f"{rank}. {option.play:<{width}}  {_signed(option.equity)}{difference}"
            f"  {option.plies}-ply"
        )
    head = words.EVAL_PLAYS(
        language, mover=mover, dice=dice_text(pasted.dice), kind=_kind(pasted, language=language)
    )
    return f"{head}\n```\n" + "\n".join(lines) + "\n```"


def analysis(pasted: PastedPosition, evaluation: Evaluation, *, language: Language) -> str:
    lines = [
        _chances(
            NAMES[pasted.on_roll],
            evaluation.probabilities,
            evaluation.equity,
            evaluation.plies,
            pasted.dice,
            language=language,
        )
    ]
    if evaluation.cube is not None:
        lines.append(_cube_advice(pasted, evaluation.cube, language=language))
    elif pasted.dice is None:
        lines.append(words.EVAL_CANT_DOUBLE(language, name=NAMES[pasted.on_roll]))
    if pasted.dice is not None:
        lines.append(_plays_table(pasted, evaluation.plays, language=language))
    return "\n".join(lines)


def query(pasted: PastedPosition) -> Query:
    """What gnubg is asked: a double offered is judged from the doubler's side before it (the
    advice's take and beaver answer it)."""
    before = pasted.before_double()
    return Query(before.gnubg_id(), jacoby=pasted.jacoby, beavers=pasted.beavers)


# -- the room -------------------------------------------------------------------------------------


class Positions:
    """``!show`` and ``!eval``. Neither reads or writes the store, nor takes a lock."""

    def __init__(self, engine: Engine, images: BoardImages) -> None:
        self._engine = engine
        self._images = images

    @staticmethod
    def read(text: str) -> PastedPosition:
        """The pasted position; raises :class:`PositionTextError` (see :func:`refusal`)."""
        return read_position(typed(text))

    async def show(self, text: str, *, language: Language) -> list[Reply]:
        try:
            pasted = self.read(text)
        except PositionTextError as error:
            return [refusal(error, language=language)]
        image = await self._images.picture(board_state(pasted), pasted.on_roll, language=language)
        return [Reply(summary(pasted, language=language), image=image)]

    async def evaluate(self, text: str, *, language: Language) -> list[Reply]:
        try:
            pasted = self.read(text)
        except PositionTextError as error:
            return [refusal(error, language=language)]
        drawing = asyncio.ensure_future(
            self._images.picture(board_state(pasted), pasted.on_roll, language=language)
        )
        try:
            judged = analysis(
                pasted,
                await self._engine.evaluate(query(pasted), plies=EVAL_PLIES),
                language=language,
            )
        except (EngineUnavailable, EngineFailure) as error:
            judged = sentence(words.EVAL_FAILED(language, why=error.worded(language)), language)
        finally:
            image = await drawing
        return [Reply("\n".join((summary(pasted, language=language), judged)), image=image)]


def refusal(error: PositionTextError, *, language: Language) -> Reply:
    """One private reply: what is wrong with the text, and the forms that are read."""
    return Reply(
        " ".join((sentence(reason_of(error, language), language), say.ACCEPTED(language))),
        private=True,
    )
