"""Every decision of an analysed match as GNU Backgammon judged it, for the review and drills.

:class:`ReviewedDecision` values are read from gnubg's ``export match text``
(:func:`bot.gnubg.review_text.review`) and kept in :attr:`MatchAnalysis.decisions
<bot.gnubg.api.MatchAnalysis.decisions>`, in the order they were made. One gnubg move record
can give two of them: a roll played after a cube decision (not doubling) is a ``"cube"``
decision, then a ``"checker"`` decision, with the same game and move number.

* ``"checker"``: a roll played. ``gnubg_id`` has the dice; ``candidates`` are gnubg's list as
  the export prints it (the best five, and the play made if it ranks lower). A roll with no legal
  play is kept too (``played`` None, no candidates: gnubg still judges its luck).
* ``"cube"``: the player on roll doubles (or redoubles) or doesn't, before the roll.
* ``"take"``: the answer to a double: ``"Take"``, ``"Pass"`` or ``"Beaver"``.

``gnubg_id`` is the position before the decision as ``Match.gnubg_id`` writes it (the Match ID
has the dice of a roll, the double offered to a taker; gnubg's export says "no game" of each
game's first roll: that is "playing" here), so it loads in the engine (``Query``) as it is.

Equities are cubeful, for the player on roll (for a cube or take decision: the doubler), money
equity in a money game and EMG (equity normalised to a money game) in match play; match play also
has the match winning chances (``*_mwc``, 0..1). Losses are positive amounts of equity.

gnubg's marks (its "?!", "?" and "??"): a decision that loses more than its thresholds is
``"doubtful"``, ``"bad"`` or ``"very bad"``. gnubg 1.1.0a16 prints its defaults with
``show analysis`` as 0.030, 0.060 and 0.120 EMG (:data:`THRESHOLDS`, which the tutor uses too;
older gnubg manuals say 0.04/0.08/0.16); the marks here are gnubg's own, read from the export,
never recomputed. gnubg judges a cube decision by the very figure its alert prints: the EMG
difference of its cubeful equities at the analysis' depth (analysis.c: ``Skill(arDouble[no
double] - arDouble[optimal])``, with ``FindCubeDecision`` turning match winning chances into
EMG), a checker play by its EMG difference to the best. So the mark and the loss shown agree,
and the one rule, everywhere a decision is judged (:func:`marked_as`): a mark is its class,
**doubtful** ``?!`` past 0.030, **error** ``?`` past 0.060, **blunder** ``??`` past 0.120 EMG;
an unmarked decision is no error, even a cube action other than gnubg's (:attr:`wrong
<ReviewedDecision.wrong>`: gnubg's statistics count those among their missed and wrong doubles,
takes and passes however little they lose).

Luck: each roll's luck is gnubg's figure (0-ply cubeful, as ``show analysis`` says), equity won
by that roll against the average roll; gnubg marks a roll lucky beyond 0.3 and very lucky beyond
0.6 (unlucky alike). A cube decision gnubg didn't analyse (a beaver and the take of it: "Cannot
analyse beaver nor raccoons!") has ``cube`` None and no loss.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.matchid import decode_match_id, encode_match_id

KINDS = ("checker", "cube", "take")
SKILLS = ("", "doubtful", "bad", "very bad")  # gnubg's marks, least to most severe
MARKS = {"": "", "doubtful": "?!", "bad": "?", "very bad": "??"}
LUCK = ("very unlucky", "unlucky", "", "lucky", "very lucky")
# gnubg 1.1.0a16's defaults (``show analysis``): equity lost for "doubtful", "bad", "very bad"
THRESHOLDS = {"doubtful": 0.03, "bad": 0.06, "very bad": 0.12}
# The players' words for gnubg's marks (eXtreme Gammon's): what the review, its list of errors,
# the analysis and drills call a marked decision.
CLASSES = {"doubtful": "doubtful", "bad": "error", "very bad": "blunder"}
# gnubg's "close" cube decision (its isCloseCubedecision): doubling within this of the best
CLOSE_CUBE = 0.16
# Whether an action (gnubg's words, the decider's half of its verdict) doubles, or takes.
_DOUBLING = {
    **dict.fromkeys(("Double", "Redouble"), True),
    **dict.fromkeys(
        (
            "No double",
            "No redouble",
            "Too good to double",
            "Too good to redouble",
            "Never double",
            "Never redouble",
        ),
        False,
    ),
}
_TAKING = {"Take": True, "Beaver": True, "Pass": False}


def skill_of(loss: float) -> str:
    """gnubg's mark for ``loss`` EMG lost, as its ``Skill()`` gives it (strictly past each
    threshold): ``""``, ``"doubtful"``, ``"bad"`` or ``"very bad"``. For a loss gnubg didn't
    mark itself (a drill's answer, the tutor): a stored decision keeps gnubg's own mark."""
    found = ""
    for name, threshold in THRESHOLDS.items():
        if loss > threshold:
            found = name
    return found


def marked_as(skill: str) -> str:
    """The word for gnubg's mark ``skill`` with its sign (``"error ?"``); "" unmarked."""
    return f"{CLASSES[skill]} {MARKS[skill]}" if skill else ""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play of gnubg's list for a roll. ``rank`` 1 is the best (see
    :func:`in_review_order`); None for the play made at an unknown rank below the rest (gnubg
    printed "??", or an older analysis kept no rank). ``difference`` is to the best play (0 for
    it, else negative; positive for a play read at a lower depth), as gnubg printed it."""

    rank: int | None
    play: str
    plies: int  # the depth this play was evaluated at (the move filters mix depths)
    equity: float
    difference: float
    mwc: float | None = None  # match play: the match winning chance after the play, 0..1
    mwc_difference: float | None = None
    cubeful: bool = True

    @property
    def evaluation(self) -> str:
        """gnubg's words for the evaluation: ``Cubeful 2-ply``."""
        return f"{'Cubeful' if self.cubeful else 'Cubeless'} {self.plies}-ply"

    @property
    def ties_best(self) -> bool:
        """As good as gnubg's best, to the precision gnubg prints (0.001)."""
        return self.difference == 0


def in_review_order(
    candidates: Sequence[Candidate],
    played: str | None,
    *,
    every_play: bool,
    shown: int | None = None,
) -> tuple[Candidate, ...]:
    """gnubg's plays for a roll as the review lists them: gnubg's best first, then the others by
    equity, best first, ties in gnubg's order, ranked 1, 2, 3... in that order. (gnubg's own list
    puts the plays it evaluated deeper first, and moves the play made up among them: a blunder
    read at 2-ply sat as "3." above better plays read at 1-ply.) With ``shown``: the first
    ``shown`` of them, and the play made at its rank when it ranks lower.

    ``every_play``: ``candidates`` are gnubg's whole list, so each rank is known. Otherwise they
    are what an older analysis kept (gnubg's first five and the play made): the play made, put
    below them all, has an unknown rank (None) unless gnubg's own still holds."""
    if not candidates:
        return ()
    ordered = [candidates[0], *sorted(candidates[1:], key=lambda c: -c.equity)]
    ranked = []
    for index, c in enumerate(ordered):
        rank: int | None = index + 1
        if c.play == played and not every_play and index == len(ordered) - 1:
            # below every play kept: its rank among all is the one gnubg printed where it didn't
            # move, in a 0-ply list (in equity order already) or in place; else unknown
            flat = all(other.plies == 0 for other in candidates)
            stayed = candidates[index].play == played and (c.rank == index + 1 or flat)
            rank = c.rank if stayed else None
        ranked.append(replace(c, rank=rank))
    if shown is None:
        return tuple(ranked)
    return tuple(ranked[:shown]) + tuple(c for c in ranked[shown:] if c.play == played)


@dataclass(frozen=True, slots=True)
class CubeFigures:
    """gnubg's cube analysis of a position before the roll, from the doubler's side (the player
    on roll): cubeful equities of not doubling, doubling and being taken, doubling and being
    passed. ``proper`` is gnubg's verdict ("No double, take", "Too good to double, pass",
    "Redouble, take", "Double, beaver"...)."""

    no_double: float
    double_take: float
    double_pass: float
    proper: str
    plies: int
    no_double_mwc: float | None = None
    double_take_mwc: float | None = None
    double_pass_mwc: float | None = None

    @property
    def best(self) -> float:
        """The doubler's equity with the best action on both sides."""
        return max(self.no_double, min(self.double_take, self.double_pass))

    @property
    def close(self) -> bool:
        """gnubg's "close" cube decision (its statistics count these and the actual doubles):
        doubling is within :data:`CLOSE_CUBE` of the best (on printed, rounded figures)."""
        return self.best - min(self.double_take, 1.0) < CLOSE_CUBE


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision and gnubg's judgement of it (see the module text for the kinds)."""

    game: int  # 1-based
    move: int  # gnubg's move number in that game (a cube decision shares its roll's)
    player: int  # who decided (0 or 1, as in the .mat: player 0 is its first name)
    kind: str  # "checker", "cube" or "take"
    gnubg_id: str  # the position before the decision, PositionID:MatchID
    played: str | None  # the play (None: no legal play) or the action ("No double", "Take"...)
    best: str | None  # gnubg's best play, or its proper action for this player (None: no
    # analysis). Not comparable with ``played`` ("Too good to double" vs "No double"): use loss.
    loss: float = 0.0  # equity lost against gnubg's best (>= 0)
    loss_mwc: float | None = None  # match winning chance lost (match play), 0..1
    skill: str = ""  # gnubg's mark: "", "doubtful", "bad" or "very bad"
    candidates: tuple[Candidate, ...] = ()  # checker: gnubg's list, best first
    cube: CubeFigures | None = None  # cube and take: gnubg's analysis (None: not analysed)
    luck: float | None = None  # checker: the roll's luck, equity (None: not analysed)
    luck_mwc: float | None = None
    luck_mark: str = ""  # gnubg's: "very lucky", "lucky", "", "unlucky", "very unlucky"
    # checker: how many of gnubg's plays tie its best, when more than the candidates kept show
    # (0: count the candidates; see :attr:`best_plays`)
    equal_best: int = 0

    @property
    def dice(self) -> tuple[int, int] | None:
        """The roll of a checker decision (None for cube decisions)."""
        dice = decode_match_id(self.gnubg_id.partition(":")[2]).dice
        return dice if self.kind == "checker" and dice[0] else None

    @property
    def mark(self) -> str:
        """gnubg's sign for the decision: ``"?!"``, ``"?"``, ``"??"`` or ``""``."""
        return MARKS[self.skill]

    @property
    def error(self) -> bool:
        """Marked bad or very bad (gnubg's ``?`` and ``??``): what the review and the analysis
        count as errors, checker plays and cube actions alike."""
        return self.skill in ("bad", "very bad")

    @property
    def wrong(self) -> bool:
        """Not gnubg's choice. A roll: a play worse than its best (by 0.001 or more, as
        printed). A cube action: one other than gnubg's (not doubling where it doubles, a
        double where it doesn't, a take where it passes, a pass where it takes), however little
        it cost (its ``loss`` may round to 0.000): gnubg's statistics count these as missed and
        wrong doubles, takes and passes, marked or not. Where gnubg's figures tie (equal to
        0.001), its statistics may still count one its verdict doesn't name, or none where it
        does."""
        if self.kind == "checker":
            played = self.played_candidate
            return played is not None and not played.ties_best
        if self.cube is None or self.played is None:
            return False  # gnubg didn't analyse it
        actions = _DOUBLING if self.kind == "cube" else _TAKING
        right = actions.get(self.best or "")
        if right is None:  # "Optional double" (both are right), or words this doesn't know
            return self.loss > 0
        return actions.get(self.played) != right

    @property
    def best_plays(self) -> int:
        """A roll: how many of gnubg's plays are as good as its best, to the 0.001 it prints."""
        return max(self.equal_best, sum(c.ties_best for c in self.candidates))

    @property
    def agrees(self) -> bool:
        """The decision is one gnubg rates best: the play made ties its best (maybe as one of
        several, :attr:`best_plays`), or the cube action is its own. False where gnubg didn't
        judge it (no legal play, a beaver)."""
        if self.kind == "checker":
            return self.played_candidate is not None and not self.wrong
        return self.cube is not None and not self.wrong and self.loss == 0

    @property
    def blunder(self) -> bool:
        """Marked very bad."""
        return self.skill == "very bad"

    @property
    def forced(self) -> bool:
        """A roll with one legal play or none (gnubg leaves these out of its unforced moves)."""
        return self.kind == "checker" and len(self.candidates) <= 1

    @property
    def played_candidate(self) -> Candidate | None:
        """The candidate that was played (checker decisions)."""
        return next((c for c in self.candidates if c.play == self.played), None)


def cube_marks(decisions: Iterable[ReviewedDecision]) -> tuple[list[int], list[int]]:
    """Each player's cube decisions gnubg marked bad or very bad (errors), and very bad
    (blunders): what the review's marks add up to."""
    errors, blunders = [0, 0], [0, 0]
    for d in decisions:
        if d.kind != "checker":
            errors[d.player] += d.error
            blunders[d.player] += d.blunder
    return errors, blunders


LISTED = 5  # the plays a review lists (gnubg's best first), beside the play made


def checker_decision(
    game: int,
    move: int,
    player: int,
    gnubg_id: str,
    candidates: Sequence[Candidate],
    played: int | str | None,
    *,
    skill: str = "",
    luck: float | None = None,
    luck_mwc: float | None = None,
    luck_mark: str = "",
    listed: bool | None = None,
    equal_best: int = 0,
) -> ReviewedDecision:
    """A checker decision: ``played`` is the index of the play made in ``candidates`` (or the
    play itself when gnubg didn't list it; None: no legal play). Its best play and losses come
    from the list, so they equal gnubg's own figures.

    ``listed``: ``candidates`` are in gnubg's order, to be put in the review's
    (:func:`in_review_order`), its first :data:`LISTED` and the play made kept: True when they
    are gnubg's whole list, False when only what an older analysis kept. None: they are in the
    review's order already (as stored)."""
    chosen = candidates[played] if isinstance(played, int) else None
    if listed is not None:
        if listed:
            equal_best = sum(c.ties_best for c in candidates)
        candidates = in_review_order(
            candidates, chosen.play if chosen else None, every_play=listed, shown=LISTED
        )
        chosen = next((c for c in candidates if chosen and c.play == chosen.play), None)
    equal_best = equal_best if equal_best > sum(c.ties_best for c in candidates) else 0
    money = decode_match_id(gnubg_id.partition(":")[2]).length == 0
    mwc_loss = None if money else 0.0  # no legal play: nothing lost
    if chosen is not None:
        mwc_loss = None if chosen.mwc_difference is None else -chosen.mwc_difference + 0.0
    return ReviewedDecision(
        game=game,
        move=move,
        player=player,
        kind="checker",
        gnubg_id=gnubg_id,
        played=chosen.play if chosen is not None else played if isinstance(played, str) else None,
        best=candidates[0].play if candidates else None,
        loss=-chosen.difference + 0.0 if chosen is not None else 0.0,
        loss_mwc=mwc_loss,
        skill=skill,
        candidates=tuple(candidates),
        luck=luck,
        luck_mwc=luck_mwc,
        luck_mark=luck_mark,
        equal_best=equal_best,
    )


# -- the stored form -------------------------------------------------------------------------
# A 25-point match has over a thousand decisions (every roll, and every cube decision before a
# roll the player could double on), so the form is terse: one list of decisions per game; a
# decision is a dict of short keys, defaults left out. Its kind and player come from its Match
# ID (dice rolled: a roll; a double offered: a take; the player is the one who must act), a
# checker decision's best play and losses from its candidates. Figures are integers: equities
# in thousandths (gnubg prints three decimals), match winning chances in 1/100000 (it prints
# 0.001%). Candidates are [play, equity, difference], plus [MWC, MWC difference] in match play,
# in the review's order (in gnubg's before data version 3); their ranks are 1, 2, 3... but for
# the last ("o": its rank, 0 for unknown); their depth is the analysis's but where "y" lists
# them; "e": how many plays tie the best, when more than the candidates kept.

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
