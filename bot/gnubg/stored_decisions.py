"""The stored form of :class:`~bot.gnubg.decisions.ReviewedDecision` values (kept in an
analysis' data: :meth:`bot.gnubg.api.MatchAnalysis.to_data`).

A 25-point match has over a thousand decisions (every roll, and every cube decision before a
roll the player could double on), so the form is terse: one list of decisions per game; a
decision is a dict of short keys, defaults left out. Its kind and player come from its Match
ID (dice rolled: a roll; a double offered: a take; the player is the one who must act), a
checker decision's best play and losses from its candidates. Figures are integers: equities
in thousandths (gnubg prints three decimals), match winning chances in 1/100000 (it prints
0.001%). Candidates are [play, equity, difference], plus [MWC, MWC difference] in match play,
in the review's order (in gnubg's before data version 3); their ranks are 1, 2, 3... but for
the last ("o": its rank, 0 for unknown); their depth is the analysis's but where "y" lists
them; "e": how many plays tie the best, when more than the candidates kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.gnubg.decisions import (
    KINDS,
    LUCK,
    SKILLS,
    Candidate,
    CubeFigures,
    ReviewedDecision,
    checker_decision,
)
from bot.rules.matchid import decode_match_id, encode_match_id

_PROPER = (  # gnubg's cube verdicts (GetCubeRecommendation), stored by index; append only
    "Double, take",
    "Double, pass",
    "No double, take",
    "Too good to double, take",
    "Too good to double, pass",
    "Double, beaver",
    "No double, beaver",
    "Redouble, take",
    "Redouble, pass",
    "No redouble, take",
    "Too good to redouble, take",
    "Too good to redouble, pass",
    "No redouble, beaver",
    "Never double, take",
    "Never redouble, take",
    "Optional double, beaver",
    "Optional double, take",
    "Optional redouble, take",
    "Optional double, pass",
    "Optional redouble, pass",
)


def _equity(value: float) -> int:
    return round(value * 1000)


def _chance(value: float) -> int:
    return round(value * 100_000)


def _from_equity(value: Any) -> float:
    return int(value) / 1000


def _from_chance(value: Any) -> float | None:
    return None if value is None else int(value) / 100_000


def _implied(gnubg_id: str) -> tuple[str, int, bool, bool]:
    """What a decision's Match ID says: its kind, who decides, whether the cube is owned (a
    redouble), whether it is a money game."""
    fields = decode_match_id(gnubg_id.partition(":")[2])
    kind = "checker" if fields.dice[0] else "take" if fields.doubled else "cube"
    return kind, fields.turn, fields.cube_owner is not None, fields.length == 0


def _usual_action(kind: str, owned: bool) -> str:
    if kind == "cube":
        return "No redouble" if owned else "No double"
    return "Take"


def decisions_to_data(decisions: Sequence[ReviewedDecision], plies: int) -> list[Any]:
    """Plain JSON values for a match's decisions analysed at ``plies`` (see above);
    :func:`decisions_from_data` reads them back."""
    games: list[list[dict[str, Any]]] = []
    previous: ReviewedDecision | None = None
    for d in decisions:
        if d.game < len(games):
            raise ValueError(f"decisions out of order: game {d.game} after game {len(games)}")
        if d.game > len(games):
            previous = None
        while len(games) < d.game:
            games.append([])
        games[-1].append(_decision_to_data(d, plies, previous))
        previous = d
    return games


def decisions_from_data(
    data: Sequence[Any], plies: int, *, ordered: bool = True
) -> tuple[ReviewedDecision, ...]:
    """The decisions :func:`decisions_to_data` wrote (KeyError, TypeError, ValueError or
    IndexError if they aren't). ``ordered`` False: data written before the plays were kept in
    the review's order (see :func:`in_review_order`)."""
    decisions: list[ReviewedDecision] = []
    if not isinstance(data, list):
        raise TypeError("decisions are a list of games")
    for game, items in enumerate(data, start=1):
        previous = None
        for item in items:
            if not isinstance(item, Mapping):
                raise TypeError(f"a decision is a dict, not {item!r}")
            previous = _decision_from_data(item, game, plies, previous, ordered)
            decisions.append(previous)
    return tuple(decisions)


def _expected(previous: ReviewedDecision | None) -> tuple[int, str | None]:
    """What usually follows ``previous`` in its game: the next decision's move number, and
    for a roll after a cube decision not to double, the position of both (without the dice)."""
    if previous is None:
        return 1, None
    if previous.kind == "cube" and previous.played in ("No double", "No redouble"):
        return previous.move, previous.gnubg_id
    return previous.move + 1, None


def _with_dice(gnubg_id: str, dice: tuple[int, int]) -> str:
    position, _, match_id = gnubg_id.partition(":")
    fields = replace(decode_match_id(match_id), dice=dice)
    return f"{position}:{encode_match_id(fields)}"


def _decision_to_data(
    d: ReviewedDecision, plies: int, previous: ReviewedDecision | None
) -> dict[str, Any]:
    kind, player, owned, money = _implied(d.gnubg_id)
    move, before_roll = _expected(previous)
    data: dict[str, Any] = {} if d.move == move else {"m": d.move}
    dice = decode_match_id(d.gnubg_id.partition(":")[2]).dice
    if before_roll is not None and d.gnubg_id == _with_dice(before_roll, dice):
        data["d"] = 10 * dice[0] + dice[1]  # the position of the cube decision before it
    else:
        data["id"] = d.gnubg_id
    if kind != d.kind:
        data["k"] = d.kind
    if player != d.player:
        data["p"] = d.player
    if d.skill:
        data["s"] = SKILLS.index(d.skill)
    if d.kind == "checker":
        _checker_to_data(d, plies, money, data)
        return data
    if d.played == ("Redouble" if owned else "Double") and d.kind == "cube":
        data["a"] = 1
    elif d.played != _usual_action(d.kind, owned):
        data["a"] = d.played
    if d.best != d.played:
        data["b"] = d.best
    if d.loss:
        data["l"] = _equity(d.loss)
    if d.loss_mwc != _usual_loss_mwc(money, d.cube):
        data["lm"] = None if d.loss_mwc is None else _chance(d.loss_mwc)
    if d.cube is not None:
        cube = d.cube
        proper = _PROPER.index(cube.proper) if cube.proper in _PROPER else cube.proper
        item: list[Any] = [
            _equity(cube.no_double),
            _equity(cube.double_take),
            _equity(cube.double_pass),
            proper,
            cube.plies,
        ]
        mwc = (cube.no_double_mwc, cube.double_take_mwc, cube.double_pass_mwc)
        if any(value is not None for value in mwc):
            item += [None if value is None else _chance(value) for value in mwc]
        data["u"] = item
    return data


def _usual_loss_mwc(money: bool, cube: CubeFigures | None) -> float | None:
    """A cube decision's MWC loss unless stored: none in a money game or without analysis."""
    return None if money or cube is None else 0.0


def _checker_to_data(d: ReviewedDecision, plies: int, money: bool, data: dict[str, Any]) -> None:
    played = next((i for i, c in enumerate(d.candidates) if c.play == d.played), None)
    if played is not None:
        data["x"] = played
    elif d.played is not None:
        data["a"] = d.played
    items = []
    for index, c in enumerate(d.candidates):
        if (
            index == 0
            and c.difference == 0
            and c.mwc_difference in (0, None)
            and (c.mwc is not None or money)
        ):  # the best: no differences to store
            item: list[Any] = [c.play, _equity(c.equity)]
            if c.mwc is not None:
                item.append(_chance(c.mwc))
        else:
            item = [c.play, _equity(c.equity), _equity(c.difference)]
            if not money:
                item += [
                    None if c.mwc is None else _chance(c.mwc),
                    None if c.mwc_difference is None else _chance(c.mwc_difference),
                ]
        items.append(item)
    if items:
        data["c"] = items
        ranks = [c.rank for c in d.candidates]
        if ranks[:-1] != list(range(1, len(ranks))):
            raise ValueError(f"candidates ranked {ranks}: only the last may be out of order")
        if ranks[-1] != len(ranks):
            data["o"] = ranks[-1] or 0
        if any(c.plies != plies for c in d.candidates):
            data["y"] = [c.plies for c in d.candidates]
        if not all(c.cubeful for c in d.candidates):
            data["q"] = [int(c.cubeful) for c in d.candidates]
    if d.luck is not None and money:
        data["r"] = _equity(d.luck)
    elif d.luck is not None or d.luck_mwc is not None:
        data["r"] = [
            None if d.luck is None else _equity(d.luck),
            None if d.luck_mwc is None else _chance(d.luck_mwc),
        ]
    if d.luck_mark:
        data["rm"] = LUCK.index(d.luck_mark) - 2
    if d.equal_best:
        data["e"] = d.equal_best


def _decision_from_data(
    data: Mapping[str, Any],
    game: int,
    plies: int,
    previous: ReviewedDecision | None,
    ordered: bool = True,
) -> ReviewedDecision:
    move, before_roll = _expected(previous)
    move = int(data.get("m", move))
    if "id" in data:
        gnubg_id = str(data["id"])
    elif before_roll is not None:
        gnubg_id = _with_dice(before_roll, divmod(int(data["d"]), 10))
    else:
        raise ValueError("a decision without its position")
    kind, player, owned, money = _implied(gnubg_id)
    kind = str(data.get("k", kind))
    if kind not in KINDS:
        raise ValueError(f"{kind!r} is not a kind of decision")
    player = int(data.get("p", player))
    skill = SKILLS[int(data.get("s", 0))]
    if kind == "checker":
        items = data.get("c", ())
        ranks: list[int | None] = list(range(1, len(items) + 1))
        if "o" in data:
            ranks[-1] = int(data["o"]) or None
        depths = data.get("y") or [plies] * len(items)
        cubeful = data.get("q") or [1] * len(items)
        candidates = [
            _candidate_from_data(item, rank, int(depth), bool(flag), money)
            for item, rank, depth, flag in zip(items, ranks, depths, cubeful, strict=True)
        ]
        luck = data.get("r")
        if not isinstance(luck, list):
            luck = [luck, None]
        index = data.get("x")
        return checker_decision(
            game,
            move,
            player,
            gnubg_id,
            candidates,
            int(index) if index is not None else _optional_str(data.get("a")),
            skill=skill,
            luck=None if luck[0] is None else _from_equity(luck[0]),
            luck_mwc=_from_chance(luck[1]),
            luck_mark=LUCK[int(data.get("rm", 0)) + 2],
            listed=None if ordered else False,
            equal_best=int(data.get("e", 0)),
        )
    action = data.get("a")
    if action == 1:
        played = "Redouble" if owned else "Double"
    elif action is None:
        played = _usual_action(kind, owned)
    else:
        played = str(action)
    cube = None
    if data.get("u") is not None:
        no_double, take, drop, proper, cube_plies, *mwc = data["u"]
        chances = [_from_chance(value) for value in mwc] or [None, None, None]
        cube = CubeFigures(
            _from_equity(no_double),
            _from_equity(take),
            _from_equity(drop),
            _PROPER[proper] if isinstance(proper, int) else str(proper),
            int(cube_plies),
            *chances,
        )
    loss_mwc = _from_chance(data["lm"]) if "lm" in data else _usual_loss_mwc(money, cube)
    return ReviewedDecision(
        game=game,
        move=move,
        player=player,
        kind=kind,
        gnubg_id=gnubg_id,
        played=played,
        best=_optional_str(data["b"]) if "b" in data else played,
        loss=_from_equity(data.get("l", 0)),
        loss_mwc=loss_mwc,
        skill=skill,
        cube=cube,
    )


def _candidate_from_data(
    item: Sequence[Any], rank: int | None, plies: int, cubeful: bool, money: bool
) -> Candidate:
    best = len(item) == (2 if money else 3)  # the best, stored without its differences
    if money:
        chances: Sequence[Any] = ()
    else:
        chances = (item[2], 0) if best else item[3:5]
    return Candidate(
        rank=rank,
        play=str(item[0]),
        plies=plies,
        equity=_from_equity(item[1]),
        difference=0.0 if best else _from_equity(item[2]),
        mwc=_from_chance(chances[0]) if chances else None,
        mwc_difference=_from_chance(chances[1]) if chances else None,
        cubeful=cubeful,
    )


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)
