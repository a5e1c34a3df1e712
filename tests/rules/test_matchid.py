"""GNU Backgammon's Match ID: known examples, and gnubg's own encoder on many match states.

(Match IDs of whole imported matches, step by step, are compared in test_mat.py.)
"""

from __future__ import annotations

import gnubg
import pytest

from bot.rules import Match, MatchIdFields, ScriptedDice, decode_match_id, encode_match_id
from bot.rules.randomplay import Policy, random_states

EXAMPLES = {
    # from gnubg: 7-point match, 0-0, player 0 on roll, no dice
    "MAHgAAAAAAAE": MatchIdFields(length=7),
    "MIHlAAAAAAAE": MatchIdFields(length=7, dice=(3, 1)),
    # 5-point match, 4-2, Crawford game, player 1 on roll
    "8AmgAEAAEAAE": MatchIdFields(length=5, score=(4, 2), crawford=True, on_roll=1, turn=1),
    # a 3-point match over on a drop: cube 2 owned by player 0, who doubled; 3-1
    "AQxgADAACAAE": MatchIdFields(
        cube=2, cube_owner=0, game_state=4, turn=1, length=3, score=(3, 1)
    ),
    # money game with Jacoby, player 1 offering to resign a gammon after rolling 6-5
    "cEEXAAAAAAAA": MatchIdFields(on_roll=1, turn=0, resigned=2, dice=(6, 5), jacoby=True),
}


@pytest.mark.parametrize(("match_id", "fields"), EXAMPLES.items())
def test_known_examples(match_id: str, fields: MatchIdFields) -> None:
    assert encode_match_id(fields) == match_id
    assert decode_match_id(match_id) == fields


@pytest.mark.parametrize("bad", ["", "MAHgAAAAAAA", "MAHgAAAAAAA!", "MAHgAAAAAAAEE"])
def test_not_match_ids(bad: str) -> None:
    with pytest.raises(ValueError):
        decode_match_id(bad)


@pytest.mark.parametrize(
    "fields",
    [
        MatchIdFields(cube=3),
        MatchIdFields(resigned=4),
        MatchIdFields(dice=(8, 1)),
        MatchIdFields(length=1 << 15),
    ],
)
def test_values_that_do_not_fit(fields: MatchIdFields) -> None:
    with pytest.raises(ValueError):
        encode_match_id(fields)


def gnubg_match_id(match: Match) -> str:
    """What gnubg's own encoder says for the state, from the Match's public properties."""
    game_state, turn = 1, match.turn
    resigned = match.resignation if match.phase == "resigned" else 0
    if match.is_over:
        last = match.games[-1]
        game_state = {"play": 2, "resignation": 3, "drop": 4}[last.by]
        turn = 1 - match.on_roll if last.by == "drop" else match.on_roll
        if last.by == "resignation":
            resigned = {"single": 1, "gammon": 2, "backgammon": 3}[last.result]
    # gnubg.cubeinfo() refuses a score past the match length, which a finished match has
    cube = gnubg.cubeinfo(
        match.cube_value,
        -1 if match.cube_owner is None else match.cube_owner,
        match.on_roll,
        match.length,
        (0, 0),
        int(match.crawford),
        0,
    )
    cube["score"] = match.score
    cube["jacoby"] = int(match.options.jacoby)
    position = gnubg.posinfo(
        turn, resigned, int(match.phase == "doubled"), game_state, match.dice or (0, 0)
    )
    result: str = gnubg.match_id(cube, position)
    return result


def test_match_ids_agree_with_gnubg_on_every_state_of_random_matches() -> None:
    seen_phases: set[str] = set()
    seen: set[tuple[bool, bool, bool]] = set()
    cases: list[tuple[int, dict[str, object]]] = [
        (5, {}),
        (3, {}),
        (9, {}),
        (0, {"jacoby": True, "beavers": True}),
        (0, {"automatic_doubles": 2}),
    ]
    for seed in range(12):
        length, options = cases[seed % len(cases)]
        policy = Policy(resign=0.03, double=0.15, drop=0.3, beaver=0.3, accept=0.4)
        for match in random_states(seed, length, policy, **options):
            assert match.match_id() == gnubg_match_id(match)
            assert decode_match_id(match.match_id()).score == match.score
            seen_phases.add(match.phase)
            seen.add((match.crawford, match.post_crawford, match.cube_owner is None))
    assert seen_phases == {"roll", "move", "doubled", "resigned", "over"}
    assert (True, False, True) in seen  # a Crawford game was met


def test_state_fields() -> None:
    match = Match.start(5, dice=ScriptedDice.rolls((5, 6)))
    fields = decode_match_id(match.match_id())
    assert fields == MatchIdFields(on_roll=1, turn=1, dice=(6, 5), length=5)
    doubled = match.move(1, "24/13").double(0)
    fields = decode_match_id(doubled.match_id())
    assert (fields.doubled, fields.on_roll, fields.turn, fields.cube) == (True, 0, 1, 1)
