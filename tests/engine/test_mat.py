"""``.mat`` export: the exact layout, and GNU Backgammon importing our files.

gnubg is the oracle: it imports each file, and we compare the final score, the final Position
and Match IDs, the Match ID and board at every play and cube decision (by stepping through the
imported match), and the text gnubg writes back when it exports the match again.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gnubg
import pytest

from bot.engine import Match, ScriptedDice
from bot.engine.mat import clean_name, format_play_plain
from tests.engine.matchplay import Policy, random_states

GOLDEN = """\
; [Event "Discord"]
; [EventDate "2026.05.01"]

 3 point match

 Game 1
 alice : 0                      bob : 0
  1) 65:                         Wins 2 points

 Game 2
 alice : 0                      bob : 2
  1)                             65: 24/18 13/8 \n\
  2) 31: 8/5 6/5                 \n\
      Wins 1 point

 Game 3
 alice : 1                      bob : 2
  1) 65: 24/18 13/8              31: 8/5 6/5 \n\
  2)  Doubles => 2                Takes
  3) 42: 8/4 6/4                 \n\
      Wins 2 points

"""


def scripted_match() -> Match:
    dice = ScriptedDice.rolls((6, 5), (5, 6), (3, 1), (6, 5), (3, 1), (4, 2))
    match = Match.start(3, dice=dice)
    match = match.resign(0, "gammon").accept_resignation(1)
    match = match.move(1, "24/18 13/8").roll(0).move(0, "8/5 6/5")
    match = match.resign(1, 1).accept_resignation(0)
    match = match.move(0, "24/18 13/8").roll(1).move(1, "8/5 6/5").double(0).take(1)
    match = match.roll(0).move(0, "8/4 6/4")
    return match.resign(1, "single").accept_resignation(0)


def test_golden_layout() -> None:
    match = scripted_match()
    assert match.to_mat(("alice", "bob"), event="Discord", date=(2026, 5, 1)) == GOLDEN


# -- gnubg as the oracle ------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def _one_thread() -> None:
    gnubg.command("set threads 1")


def gnubg_import(path: Path, match: Match) -> dict[str, Any]:
    if match.length == 0:
        gnubg.command(f"set jacoby {'on' if match.options.jacoby else 'off'}")
        gnubg.command(f"set beavers {3 if match.options.beavers else 0}")
    gnubg.command(f"import mat {path}")
    result: dict[str, Any] = gnubg.match()
    return result


def gnubg_final_score(imported: dict[str, Any]) -> tuple[int, int]:
    info = imported["games"][-1]["info"]
    score = [info["score-X"], info["score-O"]]
    score[0 if info["winner"] == "X" else 1] += info["points-won"]
    return score[0], score[1]


def gnubg_states(imported: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(Match ID, Position ID) at each record of the imported match, as gnubg steps through."""
    gnubg.navigate(game=-1000)
    for index, game in enumerate(imported["games"]):
        if index:
            gnubg.navigate(game=1)
        for _ in game["game"]:
            yield gnubg.match_id(), gnubg.position_id()
            gnubg.navigate(next=1)


def decision_states(states: list[Match]) -> list[tuple[str, str]]:
    """Our states where gnubg has a record: before a play, a double, or an answer to one."""
    found: list[tuple[str, str]] = []
    for state, after in itertools.pairwise(states):
        if state.phase in ("move", "doubled") or (state.phase == "roll"
                                                   and after.actions[-1].kind == "double"):
            item = (state.match_id(), state.position_id())
            if not found or found[-1] != item:
                found.append(item)
    return found


# gnubg itself writes a roll by player 1, resigning right after winning the opening roll, in
# player 0's column ("  1) 65:       Wins 1 point"), then misreads it; we write it in player 1's.
_GNUBG_QUIRK = re.compile(r"^  1\) (\d\d): {7}(Wins \d+ points?)$", re.MULTILINE)


def normalise_quirk(text: str) -> str:
    return _GNUBG_QUIRK.sub(lambda m: f"  1){' ' * 29}{m[1]}: \n      {m[2]}", text)


def check_with_gnubg(states: list[Match], tmp_path: Path) -> None:
    match = states[-1]
    text = match.to_mat(("alice", "bob smith"))
    path = tmp_path / "match.mat"
    path.write_text(text)
    imported = gnubg_import(path, match)
    assert imported["match-info"]["match-length"] == match.length
    assert len(imported["games"]) == match.game_number
    assert gnubg_final_score(imported) == match.score
    assert [game["info"]["points-won"] for game in imported["games"]] == [
        game.points for game in match.games]
    assert (gnubg.position_id(), gnubg.match_id()) == (match.position_id(), match.match_id())
    exported = tmp_path / "again.mat"
    gnubg.command(f"export match mat {exported}")
    again = exported.read_text().split("\n", 1)[1]  # after gnubg's "; [EventDate ...]" line
    assert normalise_quirk(again) == text
    theirs = iter(list(gnubg_states(imported)))
    ours = decision_states(states)
    assert ours
    missing = [item for item in ours if item not in theirs]
    assert not missing, missing[:3]


@pytest.mark.parametrize(("seed", "length", "policy", "options"), [
    (1, 5, Policy(), {}),
    (2, 7, Policy(double=0.15, drop=0.3), {}),
    (3, 3, Policy(resign=0.05, accept=0.7), {}),
    (4, 1, Policy(), {}),
    (5, 11, Policy(double=0.1, drop=0.2), {}),
    (6, 2, Policy(resign=0.1, double=0.3, drop=0.7), {}),
    (7, 0, Policy(double=0.2, beaver=0.3), {"jacoby": True, "beavers": True}),
    (8, 0, Policy(double=0.2, beaver=0.3), {"jacoby": False, "beavers": True}),
    (9, 0, Policy(resign=0.3, accept=0.9), {}),
])
def test_random_matches_import_into_gnubg(seed: int, length: int, policy: Policy,
                                          options: dict[str, object], tmp_path: Path) -> None:
    check_with_gnubg(list(random_states(seed, length, policy, **options)), tmp_path)


def test_many_random_matches_import_into_gnubg(tmp_path: Path) -> None:
    policies = [Policy(resign=0.02, double=0.1), Policy(resign=0.2, accept=0.8),
                Policy(double=0.3, drop=0.6)]
    for seed in range(100, 130):
        states = list(random_states(seed, 1 + seed % 7, policies[seed % 3]))
        check_with_gnubg(states, tmp_path)


def test_played_out_games_score_as_gnubg_scores_them(tmp_path: Path) -> None:
    # No resignations, no drops: every game is played to the end, the cube now and then turned.
    seen: set[tuple[str, int]] = set()
    for seed in range(300, 304):
        states = list(random_states(seed, 64, Policy(resign=0.0, double=0.02, drop=0.0)))
        check_with_gnubg(states, tmp_path)
        seen.update((game.result, game.cube) for game in states[-1].games)
    wanted = {(result, cube) for result in ("single", "gammon", "backgammon") for cube in (1, 2, 4)}
    assert wanted <= seen


def test_scripted_match_imports_into_gnubg(tmp_path: Path) -> None:
    match = scripted_match()
    path = tmp_path / "golden.mat"
    path.write_text(GOLDEN)
    imported = gnubg_import(path, match)
    assert gnubg_final_score(imported) == (3, 2)
    assert [game["info"]["points-won"] for game in imported["games"]] == [2, 1, 2]
    assert gnubg.match_id() == match.match_id()


# -- pieces ------------------------------------------------------------------------------------


def test_plain_plays_are_written_die_by_die_in_canonical_order() -> None:
    assert format_play_plain(((13, 8), (24, 23)), ()) == "24/23 13/8 "
    assert format_play_plain(((6, 4), (4, 3)), (3,)) == "6/4 4/3* "
    assert format_play_plain(((5, 1), (5, 1), (4, 0), (4, 0)), (1,)) == "5/1* 5/1 4/0 4/0"
    assert format_play_plain(((25, 20),), ()) == "25/20 "
    assert format_play_plain((), ()) == ""


def test_names_are_made_safe() -> None:
    assert clean_name("  bob:the\nbuilder ", "x") == "bob the builder"
    assert clean_name("", "Player 1") == "Player 1"
    assert len(clean_name("a" * 40, "x")) == 24
    match = Match.start(1, dice=ScriptedDice.rolls((6, 5)))
    text = match.to_mat(("same", "same"))
    assert " same : 0" in text and "same 2 : 0" in text
    with pytest.raises(ValueError):
        match.to_mat(("only one",))


def test_unfinished_match_shows_the_pending_roll() -> None:
    match = Match.start(5, dice=ScriptedDice.rolls((5, 6)))
    expected = " Game 1\n a : 0" + " " * 26 + "b : 0\n  1)" + " " * 29 + "65: "
    assert match.to_mat(("a", "b")).endswith(expected)
    assert " 0 point match" in Match.start(0, dice=ScriptedDice.rolls((6, 5))).to_mat()
