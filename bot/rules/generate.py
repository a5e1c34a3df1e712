"""Every legal play of a roll, found as GNU Backgammon's ``GenerateMoves`` finds them, keyed by
the position each leads to (:func:`generate`; :class:`~bot.rules.position.Position` makes them
plays).

A resulting position is keyed by one int: a byte per slot of the mover's side (index 24 = bar),
then one bit per point where an opponent's blot was hit. Equal keys mean equal positions. The
plays come in the order of a depth-first search over single-die moves, each die's moves from
the bar, then from the highest point down; the dice in the order given, then the other way
round; for doubles each later move starts no higher than the one before. That order is seen
(autocomplete lists, seeded random choices), so it must not change.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.notation import BAR, OFF, Step

SLOT = tuple(1 << (8 * index) for index in range(25))
HIT_SHIFT = 200
BOARD_MASK = (1 << HIT_SHIFT) - 1
_HIT = tuple(1 << (HIT_SHIFT + index) for index in range(24))

# A single-die move: its step and the key after it.
_Move = tuple[Step, int]
Found = dict[int, tuple[Step, ...]]
# By die, then by source index (24 = bar): the step of that die from there (to 0, off, below
# the die) and what it adds to a key, made once rather than at every move tried.
_STEPS = tuple(
    tuple((index + 1, max(index + 1 - die, OFF)) for index in range(25)) for die in range(7)
)
_DELTAS = tuple(
    tuple(SLOT[index - die] - SLOT[index] if index >= die else -SLOT[index] for index in range(25))
    for die in range(7)
)


def side_key(side: Sequence[int]) -> int:
    """The key of a side (25 counts of at most 15, index 24 = bar) before any hit."""
    return int.from_bytes(bytes(side), "little")


def generate(mover: tuple[int, ...], opponent: tuple[int, ...], die1: int, die2: int) -> Found:
    """Resulting-position key -> steps, for every play that uses the most dice (the larger die
    when only one can be played), each position once, its first play in the search's order.
    Empty when nothing is legal."""
    board = list(mover)
    theirs = opponent[23::-1]  # the opponent's checkers by the mover's point index
    if die1 == die2:
        found: Found = {}
        deepest = _doubles(board, die1, theirs, found, 0, 23, side_key(board), (), 0)
        return found if deepest else {}
    return _plain(board, die1, die2, theirs)


def _moves(
    board: list[int], die: int, start: int, key: int, theirs: tuple[int, ...]
) -> list[_Move]:
    """The single moves of ``die`` on ``board`` (whose key is ``key``) from ``start`` down."""
    steps = _STEPS[die]
    deltas = _DELTAS[die]
    if board[24]:
        dest = 24 - die
        held = theirs[dest]
        if held > 1:
            return []
        return [(steps[24], (key + deltas[24]) | (_HIT[dest] if held else 0))]
    found: list[_Move] = []
    for index in range(start, -1, -1):
        if not board[index]:
            continue
        dest = index - die
        if dest >= 0:
            held = theirs[dest]
            if held < 2:
                found.append((steps[index], (key + deltas[index]) | (_HIT[dest] if held else 0)))
        elif any(board[6:24]):
            break  # a checker outside the home board: nothing bears off
        elif dest == -1 or not any(board[index + 1 : 6]):
            found.append((steps[index], key + deltas[index]))
    return found


def _plain(board: list[int], die1: int, die2: int, theirs: tuple[int, ...]) -> Found:
    """A roll of two different dice: both dice in either order, else the larger die alone,
    else the smaller."""
    found: Found = {}
    key = side_key(board)
    firsts: list[list[_Move]] = []
    for first, second in ((die1, die2), (die2, die1)):
        moves = _moves(board, first, 23, key, theirs)
        firsts.append(moves)
        for step, after in moves:
            source, dest = step
            board[source - 1] -= 1
            if dest:
                board[dest - 1] += 1
            for then, final in _moves(board, second, 23, after, theirs):
                if final not in found:
                    found[final] = (step, then)
            board[source - 1] += 1
            if dest:
                board[dest - 1] -= 1
    if found:
        return found
    larger, smaller = firsts if die1 > die2 else firsts[::-1]
    for step, after in larger or smaller:
        found[after] = (step,)  # one die's moves start from different points: no key twice
    return found


def _doubles(
    board: list[int],
    die: int,
    theirs: tuple[int, ...],
    found: Found,
    depth: int,
    start: int,
    key: int,
    steps: tuple[Step, ...],
    deepest: int,
) -> int:
    """The plays of a double from ``board`` after ``steps`` (``depth`` of them), each move from
    ``start`` or lower, into ``found``; ``deepest``: the most moves found so far, returned
    updated (``found`` holds only plays of that many)."""
    moves = _moves(board, die, start, key, theirs)
    if not moves:
        if depth > deepest:
            found.clear()
            deepest = depth
        if depth == deepest and key not in found:
            found[key] = steps
        return deepest
    if depth == 3:
        if deepest < 4:
            found.clear()
        for step, after in moves:
            if after not in found:
                found[after] = (*steps, step)
        return 4
    for step, after in moves:
        source, dest = step
        board[source - 1] -= 1
        if dest:
            board[dest - 1] += 1
        next_start = 23 if source == BAR else source - 1
        deepest = _doubles(
            board, die, theirs, found, depth + 1, next_start, after, (*steps, step), deepest
        )
        board[source - 1] += 1
        if dest:
            board[dest - 1] -= 1
    return deepest
