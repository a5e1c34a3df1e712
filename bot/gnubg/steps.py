"""gnubg's move tuples read against the bot's own legal plays (pure: no gnubg here).

``gnubg.find_best_move`` returns a flat ``(from, to, from, to...)`` tuple of single-die steps,
but the binding cuts it at the first bear-off: ``6/off 4/2`` comes back as ``(6,)``. The cut
tuple still says a lot: the steps before it, then a checker borne off from its last number.
:func:`plays_matching` keeps the legal plays that can start that way, which is usually one.
"""

from __future__ import annotations

from bot.rules.position import Play, Position

BAR = 25
OFF = 0


def _single_move(position: Position, source: int, die: int) -> Position | None:
    """The position after the mover plays one checker from ``source`` with ``die`` (the
    opponent's blot sent to the bar; still the same player on roll), or None when the rules
    forbid it."""
    mover = list(position.mover)
    opponent = list(position.opponent)
    if mover[source - 1] == 0 or (mover[BAR - 1] and source != BAR):
        return None
    dest = source - die
    if dest >= 1:
        if opponent[24 - dest] >= 2:
            return None
        mover[source - 1] -= 1
        mover[dest - 1] += 1
        if opponent[24 - dest] == 1:
            opponent[24 - dest] = 0
            opponent[24] += 1
        return Position(tuple(mover), tuple(opponent))
    if sum(mover[6:]) or (dest < 0 and any(mover[source:6])):
        return None  # not all home, or a checker further back must move first
    mover[source - 1] -= 1
    return Position(tuple(mover), tuple(opponent))


def _reachable(position: Position, dice: tuple[int, ...]) -> set[Position]:
    """Every position the mover can reach with some of ``dice`` in any order (itself too)."""
    found = {position}
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for source in range(1, BAR + 1):
            after = _single_move(position, source, die)
            if after is not None:
                found |= _reachable(after, tuple(rest))
    return found


def _after_steps(
    position: Position, steps: list[tuple[int, int]], dice: tuple[int, ...]
) -> list[tuple[Position, tuple[int, ...]]]:
    """The positions (with the dice left) after playing ``steps`` in order; a bear-off step
    may use any die that allows it, so there can be several."""
    if not steps:
        return [(position, dice)]
    (source, dest), rest = steps[0], steps[1:]
    out: list[tuple[Position, tuple[int, ...]]] = []
    for die in set(dice):
        if source - die != dest and not (dest == OFF and source - die < 0):
            continue
        after = _single_move(position, source, die)
        if after is not None:
            left = list(dice)
            left.remove(die)
            out += _after_steps(after, rest, tuple(left))
    return out


def plays_matching(
    position: Position, dice: tuple[int, int], flat: tuple[int, ...], plays: list[Play]
) -> list[Play]:
    """The ``plays`` (legal, from ``position`` with ``dice``) that can begin with gnubg's
    ``flat`` steps; a tuple of odd length was cut where its last checker was borne off."""
    pairs = [(flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2)]
    if len(flat) % 2:
        pairs.append((flat[-1], OFF))
    all_dice = (dice[0],) * 4 if dice[0] == dice[1] else dice
    reachable: set[Position] = set()
    for after, left in _after_steps(position, pairs, all_dice):
        reachable |= _reachable(after, left)
    # The mover's side first (a few list operations a play), the whole position only for the
    # plays left: building each play's resulting Position costs ten times as much.
    movers = {after.mover for after in reachable}
    return [
        play
        for play in plays
        if _mover_after(position.mover, play.steps) in movers and play.result.swapped() in reachable
    ]


def _mover_after(mover: tuple[int, ...], steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The mover's side after ``steps`` (their checkers only: hits change the other side)."""
    board = list(mover)
    for source, dest in steps:
        board[source - 1] -= 1
        if dest != OFF:
            board[dest - 1] += 1
    return tuple(board)
