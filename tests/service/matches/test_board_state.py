"""What the board image's status line says, from a real match: board_state() fills the state."""

from __future__ import annotations

from bot.render import status_text
from bot.rules.dice import ScriptedDice
from bot.rules.match import Match
from bot.service.table import board_state
from tests.rules.matchplay import set_up

NAMES = ("alice", "bob")


def status(match: Match, names: tuple[str, str] = NAMES) -> str:
    return status_text(board_state(match, names))


def doubled(length: int = 0, *, beavers: bool = False) -> Match:
    match = Match.start(length, beavers=beavers, dice=ScriptedDice.rolls((6, 5)))
    return match.move(0, "24/13").double(1)


def test_a_double_in_a_money_game_with_beavers_offers_the_beaver() -> None:
    assert status(doubled(beavers=True)) == "bob doubled to 2 — alice to take, drop or beaver"
    assert status(doubled()) == "bob doubled to 2 — alice to take or drop"
    assert status(doubled(5)) == "bob doubled to 2 — alice to take or drop"


def test_a_resignation_says_its_level_and_points() -> None:
    match = Match.start(5, dice=ScriptedDice.rolls((6, 5))).move(0, "24/13")
    assert status(match.resign(1, "gammon")) == (
        "bob offers to resign a gammon (2 points) — alice to accept or reject"
    )
    beavered = doubled(beavers=True).beaver(0)
    assert status(beavered.resign(1, "backgammon")) == (
        "bob offers to resign a backgammon (12 points) — alice to accept or reject"
    )


def test_a_money_game_is_won_by_points_not_a_match() -> None:
    gammon = Match.start(0, dice=ScriptedDice.rolls((6, 5))).resign(0, "gammon")
    over = gammon.accept_resignation(1)
    assert status(over) == "bob wins a gammon: 2 points"
    assert status(doubled().drop(0)) == "bob wins 1 point"
    assert "match" not in status(over)


def test_the_end_of_a_match_names_the_gammon_and_the_score() -> None:
    def won(length: int, level: str) -> str:
        match = Match.start(length, dice=ScriptedDice.rolls((6, 5)))
        return status(match.resign(0, level).accept_resignation(1))

    assert won(2, "gammon") == "bob wins a gammon and the match 2-0"
    assert won(3, "backgammon") == "bob wins a backgammon and the match 3-0"
    assert won(1, "single") == "bob wins the match 1-0"


def test_a_jacoby_gammon_counts_and_shows_as_single() -> None:
    match = set_up(0, {1: 1}, {12: 15}, rolls=[(6, 5)], jacoby=True)
    over = match.roll(0)
    assert over.games[-1].jacoby
    assert status(over) == "alice wins 1 point"


def test_names_on_the_board_are_cleaned() -> None:
    state = board_state(
        Match.start(0, dice=ScriptedDice.rolls((6, 5))), ("\u202eevil", "bo\u0007b\u200b")
    )
    assert state.players == ("evil", "bob")
