"""A match GNU Backgammon plays against itself at one of its levels, on seeded dice: realistic
play (and cube action) for the analysis tests, unlike random players'. Call :func:`gnubg_match`
in a worker process (it imports gnubg)."""

from __future__ import annotations

from bot.gnubg import worker
from bot.gnubg.api import LEVELS, Query
from bot.rules.dice import VerifiableDice
from bot.rules.match import Match


def gnubg_match(seed: int, length: int, level: str, names: tuple[str, str]) -> str:
    """The ``.mat`` text of a ``length``-point match gnubg plays against itself at ``level``
    (no resignations: every game is played out or dropped)."""
    chosen = LEVELS[level]
    match = Match.start(length, dice=VerifiableDice.seeded(seed))
    before_double = Query.of(match)
    while not match.is_over:
        player = match.turn
        assert player is not None
        if match.phase == "roll":
            before_double = Query.of(match)
            choice = worker.take_turn(before_double, chosen, may_resign=False)
            doubles = choice.double and match.can_double(player)
            match = match.double(player) if doubles else match.roll(player)
        elif match.phase == "move":
            choice = worker.take_turn(Query.of(match), chosen, may_resign=False)
            assert choice.play is not None  # a roll with no legal play is passed by itself
            match = match.move(player, choice.play)
        else:
            assert match.phase == "doubled", match.phase
            advice = worker.cube_advice(before_double, chosen)  # the doubler's side: take?
            match = match.take(player) if advice.take else match.drop(player)
    return match.to_mat(names)
