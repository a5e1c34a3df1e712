"""A tournament's results say the winner's score first, and how a match not played out was
won."""

from __future__ import annotations

import pytest

from bot.i18n.core import ENGLISH
from bot.service.tournaments.state import result_words
from bot.store.tournaments import PairingRow


def decided(winner: int, points: tuple[int, int], reason: str) -> PairingRow:
    return PairingRow(1, 2, 1, 1, 2, 41, "t", None, winner, *points, reason, 100.0, None)


@pytest.mark.parametrize(
    ("winner", "points", "reason", "said"),
    [
        (2, (0, 2), "played", "2-0"),  # the second player won 2-0, not "0-2"
        (1, (3, 1), "played", "3-1"),
        (1, (0, 0), "claimed", "by claim"),  # not "0-0 (claimed)"
        (2, (2, 1), "claimed", "by claim at 1-2"),
        (1, (1, 0), "time", "on time at 1-0"),
        (2, (0, 0), "forfeit, p1 removed", "(forfeit, p1 removed)"),
        (1, (0, 1), "fixed: p2 left", "(fixed: p2 left; at 0-1)"),
    ],
)
def test_the_winners_score_comes_first(
    winner: int, points: tuple[int, int], reason: str, said: str
) -> None:
    assert result_words(decided(winner, points, reason), language=ENGLISH) == said


def test_a_withdrawals_forfeit_is_worded_in_the_readers_language() -> None:
    """The store keeps the reason as a key (``forfeit (withdrawn)``); each reader gets words."""
    withdrawn = decided(1, (0, 0), "forfeit (withdrawn)")
    assert result_words(withdrawn, language=ENGLISH) == "by forfeit (the opponent withdrew)"
    assert result_words(withdrawn, language="de") == "kampflos (der Gegner ist ausgetreten)"
