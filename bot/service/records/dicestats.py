"""``!dice``: the server's dice statistics, for players who doubt the dice (as FIBS and bgammon
show them): how often each number came up, the doubles, and Pearson's chi-square test of each
against fair dice. The counters are kept by :mod:`bot.service.matches.repository` as matches are
saved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.i18n import records as say
from bot.i18n.core import Language
from bot.i18n.numbers import decimal, percent, whole
from bot.service.models import Reply
from bot.store.dice import DiceCounts

FACES = 6
# Pearson's test holds when every category expects at least 5: 30 dice for the faces (5 each),
# 30 rolls for the doubles (5 doubles expected).
MIN_EXPECTED = 5
MIN_DICE = MIN_EXPECTED * FACES
MIN_ROLLS = MIN_EXPECTED * FACES


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """Pearson's statistic and the chance that fair dice give one at least this large."""

    statistic: float
    degrees: int
    p_value: float


def faces_test(faces: tuple[int, ...]) -> ChiSquare:
    """Each number one time in six: chi-square with 5 degrees of freedom."""
    total = sum(faces)
    if total == 0:
        return ChiSquare(0.0, FACES - 1, 1.0)
    expected = total / FACES
    statistic = sum((count - expected) ** 2 / expected for count in faces)
    return ChiSquare(statistic, FACES - 1, _survival_5(statistic))


def doubles_test(rolls: int, doubles: int) -> ChiSquare:
    """A double one roll in six: chi-square with 1 degree of freedom."""
    if rolls == 0:
        return ChiSquare(0.0, 1, 1.0)
    expected_doubles = rolls / FACES
    expected_others = rolls - expected_doubles
    statistic = (doubles - expected_doubles) ** 2 / expected_doubles + (
        (rolls - doubles) - expected_others
    ) ** 2 / expected_others
    return ChiSquare(statistic, 1, math.erfc(math.sqrt(statistic / 2)))


def _survival_5(x: float) -> float:
    """P(chi-square with 5 degrees of freedom >= x), in closed form (odd degrees)."""
    half = x / 2
    return math.erfc(math.sqrt(half)) + math.sqrt(2 * x / math.pi) * math.exp(-half) * (1 + x / 3)


def _verdict(test: ChiSquare, *, language: Language) -> str:
    if test.p_value < 0.001:
        return say.VERY_UNUSUAL(language)
    if test.p_value < 0.01:
        return say.UNUSUAL(language)
    if test.p_value < 0.05:
        return say.LITTLE_UNUSUAL(language)
    return say.FAIR(language)


def dice_reply(counts: DiceCounts, *, language: Language) -> Reply:
    """The statistics as a message (a code block, so the columns line up). Each chi-square
    test is shown only once there are enough dice for it to mean something."""
    if counts.dice == 0:
        return Reply(say.NO_DICE(language))
    total = counts.dice
    lines = [f"{'':2}{say.COUNT(language):>9} {say.SHARE(language):>7}  {say.EXPECTED(language)}"]
    for face, count in enumerate(counts.faces, start=1):
        lines.append(
            f"{face}:{whole(count, language):>9} {percent(100 * count / total, 2, language):>7}"
        )
    tests: list[ChiSquare] = []
    if total >= MIN_DICE:
        faces = faces_test(counts.faces)
        tests.append(faces)
        lines.append(
            say.CHI_SQUARE(
                language,
                statistic=decimal(faces.statistic, 2, language),
                degrees=faces.degrees,
                p=decimal(faces.p_value, 3, language),
                verdict=_verdict(faces, language=language),
            )
        )
    text = [
        say.DICE_ROLLED(language, total, count=whole(total, language)),
        "```",
        *lines,
        "```",
    ]
    if counts.rolls:
        share = 100 * counts.doubles / counts.rolls
        shares = say.DOUBLES_SHARE(
            language,
            doubles=whole(counts.doubles, language),
            rolls=whole(counts.rolls, language),
            percent=decimal(share, 2, language),
        )
        if counts.rolls >= MIN_ROLLS:
            doubles = doubles_test(counts.rolls, counts.doubles)
            tests.append(doubles)
            text.append(
                say.DOUBLES_TESTED(
                    language,
                    share=shares,
                    statistic=decimal(doubles.statistic, 2, language),
                    p=decimal(doubles.p_value, 3, language),
                    verdict=_verdict(doubles, language=language),
                )
            )
        else:
            text.append(say.DOUBLES(language, share=shares))
    if total < MIN_DICE or counts.rolls < MIN_ROLLS:
        text.append(say.TOO_FEW(language, dice=MIN_DICE, rolls=MIN_ROLLS))
    if tests:
        text.append(say.P_MEANS(language))
    if any(test.p_value < 0.05 for test in tests):
        text.append(say.CHANCE_NOTE(language))
    return Reply("\n".join(text))
