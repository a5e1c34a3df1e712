"""The contract between the bot and GNU Backgammon: plain values that cross to a worker process
and back (all picklable), the levels, and the :class:`Engine` protocol the service calls.

Nothing here imports gnubg: gnubg is imported only inside worker processes (see
:mod:`bot.gnubg.worker`), because it crashes when called from threads and prints to the C
stdout. The bot's own engine (:mod:`bot.rules`) stays the referee: every answer here is carried
out through the same :class:`~bot.rules.match.Match` actions as a person's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.gnubg.decisions import THRESHOLDS, ReviewedDecision, cube_marks
from bot.gnubg.stored_decisions import decisions_from_data, decisions_to_data
from bot.i18n import gnubg as say
from bot.i18n.core import Language, Said

if TYPE_CHECKING:
    from bot.rules.match import Match
    from bot.rules.puzzles import Puzzle

T = TypeVar("T")

# gnubg's default analysis thresholds (equity lost by one decision), as gnubg 1.1's `show analysis`
# prints them (bot.gnubg.decisions.THRESHOLDS): a decision that loses more than BAD is "bad" (a
# blunder past VERY_BAD).
DOUBTFUL_THRESHOLD = THRESHOLDS["doubtful"]
BAD_THRESHOLD = THRESHOLDS["bad"]
VERY_BAD_THRESHOLD = THRESHOLDS["very bad"]


class _Plain:
    """Pickled as its class and its fields' values, in half the time of a slotted dataclass's
    own way (a request and its answer cross to a worker and back at every bot turn)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        names: tuple[str, ...] = vars(type(self))["__slots__"]  # the dataclass's fields
        return (type(self), tuple(getattr(self, name) for name in names))


class EngineTrouble(Exception):
    """What went wrong with gnubg, as a value (``said``: a catalog entry and its fields) that
    whoever tells a player words in their language (:meth:`worded`); ``str()`` is the English,
    for the logs. ``retry``: asking again may work (a person is told to; the bot's turns retry
    by themselves)."""

    def __init__(self, said: Said, *, retry: bool = False) -> None:
        super().__init__(str(said))
        self.said = said
        self.retry = retry

    def worded(self, language: Language, *, retry: bool = True) -> str:
        """The text in ``language``; ``retry``: with "Try again." where asking again may work."""
        text = self.said.worded(language)
        return f"{text} {say.TRY_AGAIN(language)}" if retry and self.retry else text

    def clause(self, language: Language) -> str:
        """The text inside a sentence of ours (in brackets, after a colon): no "Try again.",
        no full stop."""
        return self.worded(language, retry=False).rstrip(".")


class EngineUnavailable(EngineTrouble):
    """gnubg is not installed here (no wheel for this platform): the text says so in a line."""


class EngineFailure(EngineTrouble):
    """A worker crashed, hung past its timeout or refused the request; it has been replaced."""


# The order in which waiting requests get a play worker (0 first; see bot.gnubg.pool): the bot's
# turns before hints, evaluations and the tutor, so a person's move is answered first. The
# caller says which a request is: ``take_turn`` is always the bot's; ``cube_advice`` and
# ``resignation_answer`` take ``priority=`` (the bot answering a double or a resignation, or the
# coach); the rest are advice.
TURN_PRIORITY = 0
ADVICE_PRIORITY = 1


@dataclass(frozen=True, slots=True)
class Level(_Plain):
    """One of gnubg's playing levels (its own table: plies and noise)."""

    name: str
    plies: int
    noise: float
    deterministic: bool = True  # the same position gets the same noise
    prune: bool = False


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", 0, 0.060),
        Level("casual", 0, 0.050),
        Level("intermediate", 0, 0.040),
        Level("advanced", 0, 0.015),
        Level("expert", 0, 0.0),
        Level("worldclass", 2, 0.0, prune=True),
    )
}
LEVEL_NAMES = tuple(LEVELS)  # weakest first
DEFAULT_LEVEL = "advanced"  # the bot's level unless a challenge or ``BOT_LEVEL`` names one


@dataclass(frozen=True, slots=True)
class Query(_Plain):
    """A match state as gnubg reads it.

    ``gnubg_id`` is ``PositionID:MatchID`` as :meth:`Match.gnubg_id` writes it: the board, the
    cube and its owner, the score, the length, Crawford, the dice and who must decide (a double
    or a resignation offered is in the Match ID). ``jacoby`` and ``beavers`` are the money-game
    rules, which a Match ID doesn't fully carry.
    """

    gnubg_id: str
    jacoby: bool = False
    beavers: bool = False
    # The stored match the state is from (None: a pasted position). The engine sends every
    # request of one match to the same worker.
    match_key: int | None = None

    @classmethod
    def of(cls, match: Match, match_key: int | None = None) -> Query:
        options = match.options
        return cls(
            match.gnubg_id(), jacoby=options.jacoby, beavers=options.beavers, match_key=match_key
        )


@dataclass(frozen=True, slots=True)
class Probabilities(_Plain):
    """gnubg's five outputs, for the player the question is about (losing = 1 - win)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


@dataclass(frozen=True, slots=True)
class PlayOption(_Plain):
    """One candidate play. ``play`` is gnubg notation that ``Match.move`` accepts for the
    position; ``equity`` is cubeful (money) or EMG (match play), for the player on roll;
    ``difference`` is to the best play (0 for it, negative otherwise)."""

    play: str
    equity: float
    difference: float
    plies: int
    probabilities: Probabilities


@dataclass(frozen=True, slots=True)
class CubeAdvice(_Plain):
    """gnubg's cube analysis of a position before the roll, from the side of the player on
    roll (who may double). Equities are cubeful, money or EMG. ``proper`` is gnubg's own words
    ("No double, take", "Too good to double, pass", "Double, beaver"...). ``double``: the
    player on roll should double now (False when too good or not good enough); ``take``: the
    opponent should take a double; ``beaver``: and beaver it (money game with beavers)."""

    no_double: float
    double_take: float
    double_pass: float
    proper: str
    double: bool
    take: bool
    beaver: bool
    plies: int
    probabilities: Probabilities


@dataclass(frozen=True, slots=True)
class TurnChoice(_Plain):
    """What the player on roll does now, decided in one worker call. ``resign`` > 0: offer to
    resign that many points (1 single, 2 gammon, 3 backgammon) instead of anything else.
    Otherwise before the roll ``double`` says whether to double (else roll), and after it
    ``play`` is the play (None: no legal play)."""

    resign: int = 0
    double: bool = False
    play: str | None = None


@dataclass(frozen=True, slots=True)
class PlayRating:
    """How a play compares with the best (for the tutor): ``loss`` >= 0 in equity."""

    played: PlayOption
    best: PlayOption

    @property
    def loss(self) -> float:
        return max(0.0, self.best.equity - self.played.equity)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """gnubg's view of any position (for ``!eval``): the chances of the player on roll; the
    cube advice when no dice are rolled and that player may double; the top plays when the
    dice are rolled."""

    probabilities: Probabilities
    equity: float  # cubeless, for the player on roll
    plies: int
    cube: CubeAdvice | None = None
    plays: tuple[PlayOption, ...] = ()


# -- match analysis ---------------------------------------------------------------------------


class AnalysisDataError(ValueError):
    """Stored analysis data that :meth:`MatchAnalysis.from_data` can't read (the text says why)."""


# The fewest decisions a player's figures in one match mean something over. One blunder in a
# 1-decision match is "PR 200", none is "PR 0.0 (Supernatural)": both say nothing, and they would
# drag averages and bests. PR's spread over n decisions shrinks only as 1/sqrt(n); 10 is under
# half a played-out 1-point match (gnubg's intermediate level against itself, 12 seeds: 9 to 88
# decisions a player, 24 the median), so nearly every match played out counts and one claimed,
# dropped or lost on time after a move or two doesn't. Below it: no PR, rating word or luck
# shown, nothing counted in a player's PR (``!stats``) or a tournament's report.
MIN_RATED_DECISIONS = 10


@dataclass(frozen=True, slots=True)
class PlayerAnalysis:
    """One player's figures, as gnubg's ``show statistics match`` gives them (plus PR).

    Errors are amounts of equity lost, so positive (gnubg prints them negative); luck is signed
    (positive: lucky)."""

    name: str
    checker_decisions: int  # unforced moves
    checker_errors: int  # bad moves (BAD_THRESHOLD) ...
    checker_blunders: int  # ... of which very bad
    checker_error_rate: float  # mEMG per unforced move (gnubg's figure)
    cube_decisions: int  # close or actual cube decisions
    cube_errors: int  # cube decisions gnubg marked bad or very bad (its "?" and "??") ...
    cube_blunders: int  # ... of which very bad
    cube_error_rate: float
    error_rate: float  # mEMG per decision, all decisions (gnubg's "Error rate mEMG")
    pr: float  # the PR players quote (eXtreme Gammon's): 500 x equity lost / decisions
    luck_rate: float  # mEMG per move
    luck_total: float  # EMG
    # The luck-adjusted result (MWC % in match play, points for money); None when the last game
    # was not played out (a claim, a clock run out): gnubg prints none then.
    luck_adjusted: float | None
    rating: str  # gnubg's word for the overall play: "Expert", "Advanced"...

    @property
    def decisions(self) -> int:
        """The decisions PR is counted over: unforced moves and close or actual cube decisions."""
        return self.checker_decisions + self.cube_decisions

    @property
    def rated(self) -> bool:
        """Decisions enough for a PR, a rating word and luck (:data:`MIN_RATED_DECISIONS`)."""
        return self.decisions >= MIN_RATED_DECISIONS


@dataclass(frozen=True, slots=True)
class Mistake:
    """One costly decision: ``cost`` is the equity (EMG) it lost (> 0)."""

    player: int
    game: int  # 1-based
    move: int  # gnubg's move number in that game
    kind: str  # "checker" or "cube"
    gnubg_id: str  # the position before the decision (PositionID:MatchID)
    dice: tuple[int, int] | None
    played: str  # the play, or the cube action ("No double", "Take"...)
    best: str
    cost: float


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """Player 0's chances (to win the game for money, to win the match in match play) after
    one decision, for the chart; ``blunder`` marks a very bad decision there. ``move`` is gnubg's
    move number in the game (the decisions' :attr:`ReviewedDecision.move`: the chart's marks
    come from those of that move); 0 in an analysis stored before it was kept."""

    game: int
    player: int  # who decided
    chance: float  # 0..1
    blunder: bool = False
    move: int = 0


# 2: with every decision (``decisions``). Version 1 data is still read, with no decisions: a
# review of it needs the match analysed again. 3: each roll's plays in the review's order, the
# play made at its rank among all of gnubg's (version 2 kept gnubg's order and first five: they
# are put in the review's order as read, a rank that can't be known left unknown).
ANALYSIS_DATA_VERSION = 3
_READABLE_VERSIONS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    plies: int
    length: int  # 0: a money game
    players: tuple[PlayerAnalysis, PlayerAnalysis]
    worst: tuple[tuple[Mistake, ...], tuple[Mistake, ...]]  # each player's three worst
    chart: tuple[ChartPoint, ...]
    seconds: float  # how long gnubg took
    # Every decision of the match in order, as gnubg judged it (see bot.gnubg.decisions); empty
    # for an analysis stored before they were kept (data version 1).
    decisions: tuple[ReviewedDecision, ...] = ()

    @property
    def games(self) -> int:
        """How many games the chart covers."""
        return max((point.game for point in self.chart), default=0)

    def to_data(self) -> dict[str, Any]:
        """Plain JSON values for the store (:meth:`from_data` reads them back)."""
        return {
            "version": ANALYSIS_DATA_VERSION,
            "plies": self.plies,
            "length": self.length,
            "seconds": round(self.seconds, 3),
            "players": [asdict(player) for player in self.players],
            "worst": [[asdict(mistake) for mistake in side] for side in self.worst],
            # [game, player, chance, blunder, move]: a match has a few hundred of them
            "chart": [
                [p.game, p.player, round(p.chance, 5), int(p.blunder), p.move] for p in self.chart
            ],
            "decisions": decisions_to_data(self.decisions, self.plies),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchAnalysis:
        """The analysis :meth:`to_data` wrote; :class:`AnalysisDataError` if it isn't one."""
        try:
            if data["version"] not in _READABLE_VERSIONS:
                raise AnalysisDataError(
                    f"analysis data version {data['version']!r} is not {ANALYSIS_DATA_VERSION}"
                )
            first, second = (_player_from_data(item) for item in data["players"])
            worst_first, worst_second = (
                tuple(_mistake_from_data(item) for item in side) for side in data["worst"]
            )
            chart = tuple(_chart_point(*item) for item in data["chart"])
            decisions = decisions_from_data(
                data.get("decisions", []), int(data["plies"]), ordered=data["version"] >= 3
            )
            if decisions and data["version"] < 3:  # cube errors were gnubg's wrong actions
                errors = cube_marks(decisions)[0]
                first = replace(first, cube_errors=errors[0])
                second = replace(second, cube_errors=errors[1])
            return cls(
                int(data["plies"]),
                int(data["length"]),
                (first, second),
                (worst_first, worst_second),
                chart,
                float(data["seconds"]),
                decisions,
            )
        except AnalysisDataError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise AnalysisDataError(f"not analysis data ({error!r})") from None


def _chart_point(game: int, player: int, chance: float, blunder: int, move: int = 0) -> ChartPoint:
    """A stored chart point (its move from version 2 on, when stored)."""
    return ChartPoint(int(game), int(player), float(chance), bool(blunder), int(move))


def _player_from_data(item: Mapping[str, Any]) -> PlayerAnalysis:
    values = {field.name: item[field.name] for field in fields(PlayerAnalysis)}
    for field in fields(PlayerAnalysis):
        optional = str(field.type).endswith(" | None")
        if optional and values[field.name] is None:
            continue
        kind = {"str": str, "int": int, "float": float}[str(field.type).removesuffix(" | None")]
        if not isinstance(values[field.name], (int, float) if kind is float else kind):
            raise AnalysisDataError(f"{field.name} {values[field.name]!r} is not a {kind.__name__}")
    return PlayerAnalysis(**values)


def _mistake_from_data(item: Mapping[str, Any]) -> Mistake:
    dice = item["dice"]
    return Mistake(
        int(item["player"]),
        int(item["game"]),
        int(item["move"]),
        str(item["kind"]),
        str(item["gnubg_id"]),
        None if dice is None else (int(dice[0]), int(dice[1])),
        str(item["played"]),
        str(item["best"]),
        float(item["cost"]),
    )


Progress = Callable[[int, int], Awaitable[None]]  # (games analysed, games in all)


class WorkerPool(Protocol):
    """Worker processes that import gnubg; one request at a time per worker."""

    async def call(
        self,
        function: Callable[..., T],
        *args: Any,
        timeout: float,
        affinity: int | None = None,
        priority: int = TURN_PRIORITY,
    ) -> T:
        """Run ``function(*args)`` in a worker (a module-level function, picklable arguments):
        the calls with one ``affinity`` in the same worker while it keeps up, the others in any
        idle one; waiting calls by ``priority`` (0 first), then in order of arrival. A crash or
        a timeout kills and replaces the worker and raises :class:`EngineFailure`."""
        ...

    async def close(self) -> None: ...


class Engine(Protocol):
    """What the service asks GNU Backgammon. Every method runs in a worker process and never
    blocks the event loop; moves and hints never wait behind a match analysis."""

    @property
    def available(self) -> bool: ...

    async def start(self) -> None:
        """Start the workers (so the first request doesn't pay for it)."""

    async def close(self) -> None: ...

    async def choose_play(self, query: Query, level: Level) -> str | None:
        """The play the player on roll makes at ``level`` (None: no legal play)."""

    async def take_turn(
        self, query: Query, level: Level, *, may_resign: bool = True, rolled: str | None = None
    ) -> TurnChoice:
        """The bot's decision for the player on roll at ``level``, in one worker call: before
        the roll resign, double or roll (the cube analysed only where gnubg itself would
        consider doubling); after it resign or play, from the one search for the play.
        ``may_resign`` False leaves resigning out (offered this game, or weighed before this
        roll). ``rolled``, before the roll: the gnubg ID after the roll that follows (the
        dice are the match's, drawn by the bot): when it rolls, ``play`` is its play for them,
        so a turn is one request, or two at once where two workers are idle (the play searched
        beside the cube decision; the same answer)."""

    async def cube_advice(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> CubeAdvice:
        """The cube decision before the roll, from the side of the player on roll. For a double
        already offered, pass the query of the state before it (or read it from the doubler's
        side): ``take`` and ``beaver`` answer it. ``priority``: :data:`TURN_PRIORITY` when the
        bot decides its own turn."""

    async def resignation_answer(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> bool:
        """A resignation is offered to the player to decide (in the Match ID): accept it?"""

    async def hint_plays(
        self, query: Query, *, count: int = 5, plies: int = 2
    ) -> tuple[PlayOption, ...]:
        """The best ``count`` plays for the rolled dice, best first."""

    async def rate_play(self, query: Query, play: str, *, plies: int = 2) -> PlayRating:
        """``play`` (made by the player on roll with the rolled dice) against the best."""

    async def evaluate(self, query: Query, *, plies: int = 2) -> Evaluation: ...

    async def match_winning_chance(self, query: Query, player: int, *, plies: int = 2) -> float:
        """The chance (0..1) that ``player`` (0 or 1, as in the Match ID) wins the match from
        this state, by gnubg's cubeful evaluation: after the best play when dice are rolled,
        the taker's best answer when a double is offered. Match play only."""

    async def analyse(
        self, mat: str, *, plies: int, jacoby: bool = False, progress: Progress | None = None
    ) -> MatchAnalysis:
        """Analyse a whole match from its ``.mat`` text, as gnubg's ``analyse match``."""

    async def checker_puzzle(self, query: Query) -> Puzzle | None:
        """The rolled position as a checker puzzle, with gnubg's 2-ply ranking of every legal
        play (as the starter pool's builder ranks one:
        :func:`bot.gnubg.puzzles.checker_puzzle`), or None when its best play is not 0.05 ahead
        of the second. In the analysis lane: a server's analysed rolls, after the analysis."""
