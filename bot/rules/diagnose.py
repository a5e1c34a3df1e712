"""Why a typed play is not legal: one true, specific reason, and what to do about it.

The first checks hold whatever the position allows, so :mod:`bot.rules.position` asks them before
it matches the play against the legal ones: a move typed backwards, more moves than the roll has
dice (both in :mod:`bot.rules.notation`), a closed point (in :mod:`bot.rules.position`). Once no
legal play matched, :func:`diagnose` looks for the checkers the play
needs, the bar, bearing off, a distance the dice can't make or more dice than the roll has, a way
blocked by closed points, bearing off with a bigger number, a die used twice, and the rule to use
as many dice as possible.
Points are the mover's (25 = bar, 0 = off), as in :mod:`bot.rules.notation`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from bot.i18n import rules as say
from bot.i18n.core import Said, chained
from bot.rules.dice import Dice
from bot.rules.notation import (
    BAR,
    OFF,
    Hop,
    Segment,
    Step,
    all_dice,
    dice_text,
    format_point,
    hops_of,
)


class Position(Protocol):
    """What a reason reads of :class:`bot.rules.position.Position` (which imports this module)."""

    @property
    def mover(self) -> tuple[int, ...]: ...

    def checker_at(self, point: int) -> tuple[int, int]: ...


class Play(Protocol):
    """What a reason reads of :class:`bot.rules.position.Play`."""

    @property
    def steps(self) -> tuple[Step, ...]: ...

    def pips(self) -> int: ...


def _checkers(count: int) -> Said:
    return say.CHECKERS.said(count)


def _hop_text(hop: Hop) -> str:
    return f"{format_point(hop[0])}/{format_point(hop[1])}"


def _dice_options(
    hop: Hop, left: Sequence[int], *, overshoot: bool = True
) -> list[tuple[int, ...]]:
    """The sets of the ``left`` dice that move one checker along ``hop``, fewest dice first.
    Bearing off may overshoot with the last die (unless not ``overshoot``)."""
    source, dest = hop
    distance = source - dest
    options = []
    for size in range(1, len(left) + 1):
        for combo in sorted(set(itertools.combinations(sorted(left), size))):
            total = sum(combo)
            if total == distance or (
                overshoot and dest == OFF and total > distance > total - min(combo)
            ):
                options.append(combo)
    return options


def _assign(hops: Sequence[Hop], left: list[int], *, overshoot: bool = True) -> list[int] | None:
    """Dice for every hop, each die used once, or None when the roll can't make them all."""
    if not hops:
        return []
    for combo in _dice_options(hops[0], left, overshoot=overshoot):
        rest = list(left)
        for die in combo:
            rest.remove(die)
        tail = _assign(hops[1:], rest, overshoot=overshoot)
        if tail is not None:
            return [*combo, *tail]
    return None


# -- reasons once the play matched no legal play --------------------------------------------------


def diagnose(
    position: Position, dice: Dice, plays: Sequence[Play], segments: Sequence[Segment]
) -> Said:
    """The reason a typed play that passed the checks above fits none of ``plays``."""
    return (
        _bar_reason(position, segments)
        or _checker_reason(position, segments)
        or _bear_off_reason(position, segments)
        or _distance_reason(dice, segments)
        or _blocked_reason(position, dice, segments)
        or _overshoot_reason(position, dice, segments)
        or _dice_use_reason(dice, plays, segments)
    )


def _bar_reason(position: Position, segments: Sequence[Segment]) -> Said | None:
    on_bar = position.mover[24]
    entering = sum(s.count for s in segments if s.path[0] == BAR)
    if on_bar and entering < on_bar and any(s.path[0] != BAR for s in segments):
        return say.ENTER_FIRST.said(on_bar)
    return None


def _checker_reason(position: Position, segments: Sequence[Segment]) -> Said | None:
    leaving: Counter[int] = Counter()
    arriving: Counter[int] = Counter()
    for segment in segments:
        leaving[segment.path[0]] += segment.count
        arriving[segment.path[-1]] += segment.count
    for point in sorted(leaving, reverse=True):
        have = position.checker_at(point)[0]
        if have + arriving[point] >= leaving[point]:
            continue
        if arriving[point]:
            return say.TOO_FEW_ARRIVE.said(
                arriving[point],
                checkers=_checkers(leaving[point]),
                point=format_point(point),
                there=say.NONE.said() if have == 0 else str(have),
            )
        if have == 0:
            return (
                say.NO_CHECKER_ON_BAR.said()
                if point == BAR
                else say.NO_CHECKER_ON.said(point=point)
            )
        if point == BAR:
            return say.ONLY_ON_BAR.said(checkers=_checkers(have))
        return say.ONLY_ON.said(checkers=_checkers(have), point=point)
    return None


def _after(position: Position, segments: Sequence[Segment]) -> Counter[int]:
    """The mover's checkers on each point once the typed moves are made."""
    after = Counter({point: position.checker_at(point)[0] for point in range(1, BAR + 1)})
    for segment in segments:
        after[segment.path[0]] -= segment.count
        after[segment.path[-1]] += segment.count
    return after


def _bear_off_reason(position: Position, segments: Sequence[Segment]) -> Said | None:
    if not any(segment.path[-1] == OFF for segment in segments):
        return None
    after = _after(position, segments)
    if any(after[point] for point in range(7, BAR + 1)):
        return say.BEAR_OFF_OUTSIDE.said()
    return None


def _distance_reason(dice: Dice, segments: Sequence[Segment]) -> Said | None:
    """A move no die or dice of the roll make, or moves that need more dice than it has."""
    hops = hops_of(segments)
    available = all_dice(dice)
    for hop in dict.fromkeys(hops):
        if not _dice_options(hop, available):
            distance = hop[0] - hop[1]
            return say.CANT_MAKE_DISTANCE.said(
                hop=_hop_text(hop), pips=say.PIPS.said(distance), dice=dice_text(dice)
            )
    fewest = [len(_dice_options(hop, available)[0]) for hop in hops]
    if sum(fewest) > len(available):
        longest = max(range(len(hops)), key=fewest.__getitem__)
        return say.TOO_MANY_DICE.said(
            dice_count=say.DICE.said(sum(fewest)),
            hop=_hop_text(hops[longest]),
            most=fewest[longest],
            dice=dice_text(dice),
            available=len(available),
        )
    return None


def _blocked_reason(position: Position, dice: Dice, segments: Sequence[Segment]) -> Said | None:
    """A move of one checker by several dice whose every way passes a closed point."""
    for hop in dict.fromkeys(hops_of(segments)):
        options = _dice_options(hop, all_dice(dice))
        if any(len(combo) == 1 for combo in options):
            continue
        first_closed = set()
        for order in {order for combo in options for order in itertools.permutations(combo)}:
            stops = itertools.accumulate(order[:-1], lambda at, die: at - die, initial=hop[0])
            shut = [point for point in list(stops)[1:] if position.checker_at(point)[1] >= 2]
            if not shut:
                break
            first_closed.add(shut[0])
        else:
            points = sorted(first_closed, reverse=True)
            listed = chained(say.AND, map(str, points))
            return say.BLOCKED.said(len(points), hop=_hop_text(hop), listed=listed)
    return None


def _overshoot_reason(position: Position, dice: Dice, segments: Sequence[Segment]) -> Said | None:
    """Bearing off with more than the point needs while a checker is left on a higher point."""
    hops = hops_of(segments)
    if _assign(hops, all_dice(dice), overshoot=False) is not None:
        return None
    after = _after(position, segments)
    for source in sorted({hop[0] for hop in hops if hop[1] == OFF}):
        higher = [point for point in range(source + 1, 7) if after[point] > 0]
        if higher:
            return say.OVERSHOOT.said(source=source, higher=max(higher))
    return None


def _dice_use_reason(dice: Dice, plays: Sequence[Play], segments: Sequence[Segment]) -> Said:
    hops = hops_of(segments)
    used = _assign(hops, all_dice(dice))
    high, low = max(dice), min(dice)
    if used is None:
        return _die_reused(dice, hops)
    most = len(plays[0].steps)
    if high == low:
        if len(used) < most:
            return say.MUST_PLAY_DOUBLES[most].said(die=high)
    elif most == 2 and len(used) < 2:
        return say.BOTH_DICE.said()
    elif (
        most == 1 and used == [low] and all(p.pips() >= high or p.steps[0][1] == OFF for p in plays)
    ):
        return say.MUST_PLAY_HIGH.said(high=high)
    elif most == 1 and len(used) == 2:
        return say.ONLY_ONE_DIE.said(dice=dice_text(dice))
    return say.NOT_LEGAL.said(dice=dice_text(dice))


def _die_reused(dice: Dice, hops: Sequence[Hop]) -> Said:
    """Each move can be made with the roll, but not all together. After :func:`dice_reason`
    that means two moves of a plain roll that can each use only the same die."""
    high, low = max(dice), min(dice)
    typed = " ".join(_hop_text(hop) for hop in hops)
    if high == low or len(hops) != 2:
        return say.CANT_MAKE_ALL.said(dice=dice_text(dice), typed=typed)
    roll = say.ONE_OF_EACH.said(dice=dice_text(dice), high=high, low=low)
    singles = {combo[0] for combo in _dice_options(hops[0], list(dice)) if len(combo) == 1}
    die = max(singles) if singles else high
    if hops[0] == hops[1]:
        return say.ONLY_ONCE.said(roll=roll, hop=_hop_text(hops[0]))
    return say.BOTH_NEED.said(
        roll=roll, first=_hop_text(hops[0]), second=_hop_text(hops[1]), die=die
    )
