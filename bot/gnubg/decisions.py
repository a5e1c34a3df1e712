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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from bot.rules.matchid import decode_match_id

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
