"""The requests a gnubg worker process answers (see :mod:`bot.gnubg.pool`): checker plays and
hints, the cube, resignations and the bot's whole turn.

Every public function here is module-level, takes :mod:`bot.gnubg.api` values and returns them,
so it can be sent to a worker by name; each runs on the worker's gnubg through
:func:`bot.gnubg.session.request` (gnubg keeps one global state, the current match, the
evaluation settings and a cache, which is why a worker serves one request at a time).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Any

from bot.gnubg.api import (
    CubeAdvice,
    Evaluation,
    Level,
    PlayOption,
    PlayRating,
    Probabilities,
    Query,
    TurnChoice,
)
from bot.gnubg.capture import Captured, captured_output
from bot.gnubg.session import (
    QueryError,
    Situation,
    command,
    empty_cache,
    evalcontext,
    gnubg_module,
    request,
    state,
    use,
    use_level,
)
from bot.gnubg.steps import plays_matching
from bot.rules.matchid import MatchIdFields, encode_match_id
from bot.rules.position import Play

# "Certain" for resigning: the chances gnubg's bear-off databases and race nets give a lost
# cause are this close to 0 or 1.
CERTAIN = 1e-6


__all__ = ["Captured", "QueryError", "captured_output"]  # the capture is for analysis too


# -- checker play -----------------------------------------------------------------------------


_HINT_LINE = re.compile(
    r"^\s*\*?\s*(\d+)\.\s+(Cubeful|Cubeless)\s+(\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]?\d+\.\d+)"
    r"(?:\s+\(([+-]?\d+\.\d+)\))?"
)
_NUMBER = re.compile(r"[+-]?\d+\.\d+")


def _probabilities(line: str) -> Probabilities:
    numbers = [float(n) for n in _NUMBER.findall(line)]
    if len(numbers) < 6:
        raise QueryError(f"gnubg printed {line.strip()!r} where its chances were expected")
    win, win_g, win_bg, _lose, lose_g, lose_bg = numbers[:6]
    return Probabilities(win, win_g, win_bg, lose_g, lose_bg)


def _hint_options(situation: Situation, count: int) -> list[PlayOption]:
    """``hint count`` for the current position, as our plays (best first, gnubg's order)."""
    dice = situation.rolled()
    situation.set_in_gnubg()
    text = command(f"hint {count}")
    lines = text.splitlines()
    options: list[PlayOption] = []
    best: float | None = None
    for index, line in enumerate(lines):
        found = _HINT_LINE.match(line)
        if found is None or index + 1 >= len(lines):
            continue
        play = situation.position.parse_play(found[4], dice)
        equity = float(found[5])
        best = equity if best is None else best
        options.append(
            PlayOption(
                play.notation,
                equity,
                round(equity - best, 3),
                int(found[3]),
                _probabilities(lines[index + 1]),
            )
        )
    if not options:
        raise QueryError(
            f"gnubg gave no hint for {situation.query.gnubg_id!r}: {text.strip()[:200]!r}"
        )
    return options


@request
def choose_play(query: Query, level: Level) -> str | None:
    """The play gnubg's ``find_best_move`` makes at ``level``, in our notation (a play of
    :meth:`Position.legal_plays`, so ``Match.move`` accepts it); None: no legal play."""
    play = _chosen_play(Situation.of(query), level)
    return play.notation if play.steps else None


def _chosen_play(situation: Situation, level: Level) -> Play:
    """:func:`choose_play`'s play (the empty one when nothing is legal)."""
    dice = situation.rolled()
    plays = situation.position.legal_plays(*dice)
    if len(plays) == 1:
        return plays[0]
    use_level(level)
    context = evalcontext(level.plies, level.noise, level.deterministic, level.prune)
    flat = tuple(
        gnubg_module().find_best_move(
            situation.board, situation.cubeinfo(), context, dice, state.default_filters
        )
    )
    candidates = plays_matching(situation.position, dice, flat, plays)
    if len(candidates) == 1:
        return candidates[0]
    # Cut at a bear-off with several ways to go on (``6/off`` with a 2 left): gnubg's hint, at
    # the same settings and filters, ranks them; its first among them is gnubg's play. (A line
    # printed below the level's plies is the filters' doing: a play left alone is not
    # re-evaluated deeper, in ``find_best_move`` as in ``hint``.)
    gnubg_module().set_eval_hint_filter(state.default_filters)
    ranked = [option.play for option in _hint_options(situation, len(plays))]
    by_name = {play.notation: play for play in candidates}
    chosen = next((by_name[name] for name in ranked if name in by_name), None)
    if chosen is None:
        raise QueryError(f"gnubg's play {flat} is not legal in {situation.query.gnubg_id!r}")
    return chosen


def _gnubgs_hint(situation: Situation, count: int, plies: int) -> list[PlayOption]:
    """The first ``count`` lines of gnubg's own ``hint`` at ``plies``: its default move
    filters, cubeful, pruning as the coach's level does. Its first play is gnubg's; the plays
    the filters kept are scored at ``plies`` (best first), the others at a lower ply."""
    use(plies, prune=True)
    gnubg_module().set_eval_hint_filter(state.default_filters)
    return _hint_options(situation, count)


def _top_filters(plies: int, count: int) -> list[dict[str, Any]]:
    """Keep exactly ``count`` plays at every level below ``plies``: the top ``count`` by the
    0-ply ranking are all scored at the full ply."""
    return [
        {"ply": plies, "level": level, "acceptmoves": count, "extramoves": 0, "threshold": 0.0}
        for level in range(plies)
    ]


def _rescored(situation: Situation, option: PlayOption, plies: int) -> PlayOption:
    """``option`` scored at ``plies`` by itself (:func:`_scored_alone`) when gnubg's filters
    left it at a lower ply; as it is when the play ends the game (exact at any ply)."""
    play = situation.position.parse_play(option.play, situation.rolled())
    if option.plies >= plies or play.result.is_game_over():
        return option
    equity, probabilities = _scored_alone(situation, play, plies)
    return replace(option, equity=equity, plies=plies, probabilities=probabilities)


def _ranked(options: list[PlayOption]) -> list[PlayOption]:
    best = options[0].equity
    return [replace(option, difference=round(option.equity - best, 3)) for option in options]


@request
def hint_plays(query: Query, count: int = 5, plies: int = 2) -> tuple[PlayOption, ...]:
    """The best ``count`` plays at ``plies``, each scored at that ply. The first is gnubg's own
    ``hint``'s first play, always; then, by their equity, the others its filters kept at
    ``plies`` and, where they are fewer than ``count``, the best of the top ``count`` by the
    0-ply ranking (all scored at ``plies`` in a second ``hint``). One of those may score above
    the first (gnubg's filters dropped it at 1-ply): it comes second, its difference positive."""
    if not 1 <= count <= 50:
        raise QueryError(f"ask for 1 to 50 plays, not {count}")
    if not 0 <= plies <= 3:
        raise QueryError(f"plies are 0 to 3, not {plies}")
    situation = Situation.of(query)
    dice = situation.rolled()
    plays = situation.position.legal_plays(*dice)
    if not plays[0].steps:
        return ()
    options = _gnubgs_hint(situation, count, plies)
    if len(plays) == 1:
        return tuple(options)
    first, kept = options[0], [option for option in options[1:] if option.plies >= plies]
    others: list[PlayOption] = []
    missing = min(count, len(plays)) - 1 - len(kept)
    if missing > 0 or first.plies < plies:
        gnubg_module().set_eval_hint_filter(_top_filters(plies, count))
        shown = {first.play, *(option.play for option in kept)}
        scored = [option for option in _hint_options(situation, count) if option.plies >= plies]
        first = next((option for option in scored if option.play == first.play), first)
        others = sorted(
            (option for option in scored if option.play not in shown),
            key=lambda option: -option.equity,
        )[:missing]
    rest = sorted([*kept, *others], key=lambda option: -option.equity)
    return tuple(_ranked([_rescored(situation, first, plies), *rest]))


@request
def rate_play(query: Query, play: str, plies: int = 2) -> PlayRating:
    """``play`` against gnubg's best at ``plies`` (the first play of its ``hint``, as
    :func:`hint_plays` names it), as gnubg's analysis rates a play made: scored at ``plies``,
    by itself when gnubg's filters dropped it at a lower ply (:func:`_scored_alone`)."""
    situation = Situation.of(query)
    dice = situation.rolled()
    chosen = situation.position.parse_play(play, dice)
    if not chosen.steps:
        raise QueryError(f"{play!r}: there is no play to rate with {dice} here")
    options = _gnubgs_hint(situation, 999, plies)
    played = next((o for o in options if o.play == chosen.notation), None)
    if played is None:
        raise QueryError(f"gnubg's hint for {query.gnubg_id!r} does not list {play!r}")
    best = _rescored(situation, options[0], plies)
    if played.play == best.play:
        return PlayRating(played=best, best=best)
    played = _ranked([best, _rescored(situation, played, plies)])[1]
    return PlayRating(played=played, best=best)


_EVAL_LINE = re.compile(r"^\s*(static|\d) ?(?:ply)?:\s+(.*)$")
_EVAL_CUBE_LINE = re.compile(r"^\s*\d\.\s+((?:No )?(?:re)?double(?:, \w+)?)\s+([+-]\d+\.\d+)", re.I)


def _scored_alone(situation: Situation, chosen: Play, plies: int) -> tuple[float, Probabilities]:
    """The equity and chances of ``chosen`` at ``plies``, as gnubg scores a move: the position
    after it, the opponent on roll, evaluated at ``plies`` by ``eval``, turned round. The
    opponent's equity is their best cube action's when they may double (no double, or double
    and our best answer), else ``eval``'s cubeful equity. Equal to the hint's figure for a play
    the filters keep."""
    fields = replace(
        situation.fields,
        dice=(0, 0),
        doubled=False,
        resigned=0,
        on_roll=1 - situation.fields.on_roll,
        turn=1 - situation.fields.on_roll,
    )
    after = f"{chosen.result.position_id()}:{encode_match_id(fields)}"
    situation.set_in_gnubg(after)
    text = command("eval")
    wanted = "static" if plies == 0 else str(plies)
    chances: Probabilities | None = None
    theirs: float | None = None
    cube: dict[str, float] = {}
    for line in text.splitlines():
        if (found := _EVAL_CUBE_LINE.match(line)) is not None:
            action = found[1].lower()
            kind = "no" if action.startswith("no") else "pass" if "pass" in action else "take"
            cube[kind] = float(found[2])
        found = _EVAL_LINE.match(line)
        if found is None or found[1] != wanted or chances is not None:
            continue
        numbers = [float(n) for n in _NUMBER.findall(found[2])]
        if len(numbers) >= 7:
            win, win_g, win_bg, lose_g, lose_bg = numbers[:5]
            # the opponent's chances, turned round: their gammons are the mover's losses
            chances = Probabilities(round(1 - win, 3), lose_g, lose_bg, win_g, win_bg)
            theirs = numbers[6]
    if chances is None or theirs is None:
        raise QueryError(f"gnubg's eval of {after!r} has no {plies}-ply line: {text[:200]!r}")
    if len(cube) == 3:
        theirs = max(cube["no"], min(cube["take"], cube["pass"]))
    return -theirs + 0.0, chances


# -- evaluation and the cube ------------------------------------------------------------------


def _evaluate(
    board: list[list[int]],
    cubeinfo: dict[str, Any],
    plies: int,
    prune: bool = True,
    noise: float = 0.0,
    deterministic: bool = True,
) -> tuple[Probabilities, float]:
    context = evalcontext(plies, noise, deterministic, prune, cubeful=False)
    values = gnubg_module().evaluate(board, cubeinfo, context)
    win, win_g, win_bg, lose_g, lose_bg, equity = (float(v) for v in values)
    return Probabilities(win, win_g, win_bg, lose_g, lose_bg), equity


_CUBE_LINE = re.compile(r"^\s*\d\.\s+(.+?)\s+([+-]\d+\.\d+)")
_PROPER = re.compile(r"Proper cube action:\s*(.+?)\s*(?:\(|$)")
_DOUBLES = ("double", "redouble", "optional double", "optional redouble")


@request
def cube_advice(query: Query, level: Level) -> CubeAdvice:
    """gnubg's cube hint for the player on roll before the roll, at ``level``'s settings."""
    return _cube_advice(Situation.of(query), level)


def _cube_advice(situation: Situation, level: Level) -> CubeAdvice:
    """:func:`cube_advice` of a query already read."""
    query = situation.query
    if not situation.may_double():
        raise QueryError(f"the player on roll can't double in {query.gnubg_id!r}")
    use_level(level)
    situation.set_in_gnubg(situation.before_roll_id())
    text = command("hint")
    lines = text.splitlines()
    equities: dict[str, float] = {}
    probabilities: Probabilities | None = None
    plies = level.plies
    proper: str | None = None
    for index, line in enumerate(lines):
        if "cubeless equity" in line and index + 1 < len(lines):
            plies = int(line.split("-ply")[0].split()[-1])
            probabilities = _probabilities(lines[index + 1])
        elif (found := _CUBE_LINE.match(line)) is not None:
            equities[found[1].lower()] = float(found[2])
        elif (proper_found := _PROPER.search(line)) is not None:
            proper = proper_found[1]
    no_double = next((v for k, v in equities.items() if k.startswith("no ")), None)
    double_take = next((v for k, v in equities.items() if "take" in k or "beaver" in k), None)
    double_pass = next((v for k, v in equities.items() if "pass" in k), None)
    if proper is None or probabilities is None or None in (no_double, double_take, double_pass):
        raise QueryError(
            f"gnubg gave no cube analysis for {query.gnubg_id!r}: {text.strip()[:200]!r}"
        )
    assert no_double is not None and double_take is not None and double_pass is not None
    doubler, _, taker = (part.strip().lower() for part in proper.partition(","))
    beaver = taker.startswith("beaver") and query.beavers
    return CubeAdvice(
        no_double=no_double,
        double_take=double_take,
        double_pass=double_pass,
        proper=proper,
        double=doubler in _DOUBLES,
        take=taker.startswith(("take", "beaver")),
        beaver=beaver,
        plies=plies,
        probabilities=probabilities,
    )


def _doubles(situation: Situation, level: Level) -> bool:
    """Whether the player on roll doubles now at ``level``, decided the way gnubg decides its
    own doubles when it plays (``ComputerTurn`` in its play.c): the cube is analysed only in
    the market window, where a cubeless evaluation one ply shallower than the cube's wins at
    least the dead-cube double point; below it gnubg does not double."""
    use_level(level)
    chances, _ = _evaluate(
        situation.board,
        situation.cubeinfo(),
        max(level.plies - 1, 0),
        level.prune,
        level.noise,
        level.deterministic,
    )
    point = _double_point(chances, situation)
    if point is not None and chances.win < point:
        return False
    return _cube_advice(situation, level).double


def _double_point(chances: Probabilities, situation: Situation) -> float | None:
    """gnubg's ``GetDoublePointDeadCube`` (matchequity.c) for the player on roll: the winning
    chance from which doubling a cube that stays dead gains; None where doubling risks and
    gains nothing (gnubg's formula divides by zero there)."""
    fields, win = situation.fields, chances.win
    if not fields.length:  # money: Rick Janowski's formulas, as gnubg has them
        won = 1.0 + (chances.win_gammon + chances.win_backgammon) / win if win > 0 else 1.0
        lost = 1.0
        if win < 1:
            lost += (chances.lose_gammon + chances.lose_backgammon) / (1.0 - win)
        if fields.cube_owner is None and situation.query.jacoby:
            if situation.query.beavers:
                return (lost - 0.25) / (won + lost - 0.5)
            return (lost - 0.5) / (won + lost - 1.0)
        return lost / (lost + won)
    gammon = backgammon = their_gammon = their_backgammon = 0.0
    if win > 0:  # gnubg's gammon rates here exclude the backgammons
        gammon = (chances.win_gammon - chances.win_backgammon) / win
        backgammon = chances.win_backgammon / win
    if win < 1:
        their_gammon = (chances.lose_gammon - chances.lose_backgammon) / (1.0 - win)
        their_backgammon = chances.lose_backgammon / (1.0 - win)
    wins, losses = _match_equities(fields)
    single, their_single = 1.0 - gammon - backgammon, 1.0 - their_gammon - their_backgammon
    # wins and losses by the cube times 1, 2, 3, 4, 6: doubled, a gammon is 4, a backgammon 6
    double_take_win = single * wins[1] + gammon * wins[3] + backgammon * wins[4]
    no_double_win = single * wins[0] + gammon * wins[1] + backgammon * wins[2]
    double_take_loss = (
        their_single * losses[1] + their_gammon * losses[3] + their_backgammon * losses[4]
    )
    no_double_loss = (
        their_single * losses[0] + their_gammon * losses[1] + their_backgammon * losses[2]
    )
    risk, gain = no_double_loss - double_take_loss, double_take_win - no_double_win
    if risk + gain <= 0:
        return None
    return risk / (risk + gain)


_CUBE_MULTIPLES = (1, 2, 3, 4, 6)


def _match_equities(fields: MatchIdFields) -> tuple[list[float], list[float]]:
    """gnubg's ``getMEMultiple`` for the cube as it is: the match-winning chances of the player
    on roll after winning, then after losing, the cube times each of :data:`_CUBE_MULTIPLES`."""
    pre_crawford, post_crawford = _match_equity_table(fields.length)
    away = (fields.length - fields.score[0] - 1, fields.length - fields.score[1] - 1)
    # The next game is post-Crawford when this one is the Crawford game or someone is 1-away.
    post = fields.crawford or 0 in away

    def first_players(away0: int, away1: int) -> float:
        if away0 < 0:
            return 1.0
        if away1 < 0:
            return 0.0
        if post:
            return 1.0 - post_crawford[1][away1] if away0 == 0 else post_crawford[0][away0]
        return pre_crawford[away0][away1]

    wins: list[float] = []
    losses: list[float] = []
    for multiple in _CUBE_MULTIPLES:
        points = multiple * fields.cube
        first_wins = first_players(away[0] - points, away[1])
        second_wins = first_players(away[0], away[1] - points)
        if fields.on_roll == 0:
            wins.append(first_wins)
            losses.append(second_wins)
        else:
            wins.append(1.0 - second_wins)
            losses.append(1.0 - first_wins)
    return wins, losses


@functools.cache
def _match_equity_table(length: int) -> tuple[list[list[float]], list[list[float]]]:
    """gnubg's match equity table to ``length`` (player 0's chances by the points each player
    still needs, less one): pre-Crawford, and post-Crawford with player 0 trailing, then 1."""
    pre_crawford, post_first, post_second = gnubg_module().met(length)
    return pre_crawford, [post_first, post_second]


@request
def evaluate(query: Query, plies: int = 2) -> Evaluation:
    """The chances of the player on roll (before the roll), the cube advice when they may
    double before rolling, the top five plays when they have rolled."""
    situation = Situation.of(query)
    use(plies, prune=True)
    probabilities, equity = _evaluate(situation.board, situation.cubeinfo(), plies)
    cube = None
    plays: tuple[PlayOption, ...] = ()
    if situation.dice is None:
        if situation.may_double():
            cube = _cube_advice(situation, Level(f"{plies}-ply", plies, 0.0, prune=True))
    else:
        plays = hint_plays(query, 5, plies)
    return Evaluation(probabilities, equity, plies, cube, plays)


# -- resignations -----------------------------------------------------------------------------


def _utility(chances: Probabilities, cubeinfo: dict[str, Any]) -> float:
    """gnubg's cubeless utility (``Utility`` in eval.c) for the player on move in
    ``cubeinfo``: points per cube for money, EMG in match play (exact through the gammon
    prices, which are 0 where gammons don't count). ``gammonprice`` is ((gammon, backgammon)
    of player 0, the same of player 1): checked against ``gnubg.evaluate``'s equity."""
    (gammon, backgammon), (their_gammon, their_backgammon) = cubeinfo["gammonprice"]
    if cubeinfo.get("move", 0) == 1:
        (gammon, backgammon), (their_gammon, their_backgammon) = (
            (their_gammon, their_backgammon),
            (gammon, backgammon),
        )
    return float(
        chances.win * 2.0
        - 1.0
        + chances.win_gammon * gammon
        + chances.win_backgammon * backgammon
        - chances.lose_gammon * their_gammon
        - chances.lose_backgammon * their_backgammon
    )


def _flipped(chances: Probabilities) -> Probabilities:
    return Probabilities(
        1.0 - chances.win,
        chances.lose_gammon,
        chances.lose_backgammon,
        chances.win_gammon,
        chances.win_backgammon,
    )


def _resigned_outcome(level: int) -> Probabilities:
    """What the one accepting a resignation of ``level`` wins, as certain chances."""
    return Probabilities(1.0, float(level >= 2), float(level >= 3), 0.0, 0.0)


def _chances(situation: Situation, play: Play | None, plies: int) -> Probabilities:
    """The cubeless chances of the player on roll at ``plies``: before the roll (``play``
    None), or after ``play`` with the rolled dice."""
    if play is None:
        return _evaluate(situation.board, situation.cubeinfo(), plies)[0]
    after = play.result
    opponent = 1 - situation.fields.on_roll
    board = [list(after.opponent), list(after.mover)]
    return _flipped(_evaluate(board, situation.cubeinfo(opponent), plies)[0])


def _resigner_chances(situation: Situation, level: Level) -> Probabilities:
    """The chances of the player on roll playing on: before the roll, or after their best
    play when they have rolled."""
    noiseless = replace(level, noise=0.0)
    use_level(noiseless)
    best = None if situation.dice is None else _chosen_play(situation, noiseless)
    return _chances(situation, best, level.plies)


@request
def resignation_answer(query: Query, level: Level) -> bool:
    """Accept the resignation offered when it gives at least what playing on is worth to the
    one deciding, by gnubg's cubeless evaluation at ``level``'s plies (without noise)."""
    situation = Situation.of(query)
    offered = situation.fields.resigned
    if not offered:
        raise QueryError(f"no resignation is offered in {query.gnubg_id!r}")
    decider = 1 - situation.fields.on_roll
    playing_on = _flipped(_resigner_chances(situation, level))
    cubeinfo = situation.cubeinfo(decider)
    return _utility(_resigned_outcome(offered), cubeinfo) >= _utility(playing_on, cubeinfo) - 1e-9


def _resignation(situation: Situation, level: Level, play: Play | None) -> int:
    """0, or the level to resign when it's certain: no winning chance left (playing on, by
    ``level``'s evaluation), and the points the opponent would get by playing on settled (a
    gammon is or isn't certain, or doesn't count). ``play``: the one chosen for the rolled
    dice (None before the roll). A 0-ply evaluation after it settles the usual case, a chance
    left, at once (gnubg itself weighs its resignations at 0-ply)."""
    if _chances(situation, play, 0).win > CERTAIN:
        return 0
    chances = _resigner_chances(situation, level)
    if chances.win > CERTAIN:
        return 0
    opponent = situation.cubeinfo(1 - situation.fields.on_roll)
    playing_on = _utility(_flipped(chances), opponent)
    for offered in (1, 2, 3):
        if abs(_utility(_resigned_outcome(offered), opponent) - playing_on) <= CERTAIN * 10:
            return offered
    return 0


# -- the bot's turn ---------------------------------------------------------------------------


@request
def take_turn(
    query: Query, level: Level, may_resign: bool = True, rolled: str | None = None
) -> TurnChoice:
    """What the player on roll does now at ``level`` (see ``Engine.take_turn``): before the
    roll resign, double or roll; after it resign or play, from the one search for the play.
    ``rolled``: before the roll, the gnubg ID after the roll that follows if it rolls, whose
    play then comes back in the same answer (resigning weighed before the roll only)."""
    situation = Situation.of(query)
    if situation.dice is None:
        points = _resignation(situation, level, None) if may_resign else 0
        if points:
            return TurnChoice(resign=points)
        double = situation.may_double() and _doubles(situation, level)
        if double or rolled is None:
            return TurnChoice(double=double)
        # The play's search starts from an empty cache, as a request of its own would (see
        # ``request``): the answer stays the one a fresh worker gives.
        empty_cache()
        return _turn_after_roll(Situation.of(replace(query, gnubg_id=rolled)), level, False)
    return _turn_after_roll(situation, level, may_resign)


def _turn_after_roll(situation: Situation, level: Level, may_resign: bool) -> TurnChoice:
    play = _chosen_play(situation, level)
    points = _resignation(situation, level, play) if may_resign else 0
    if points:
        return TurnChoice(resign=points)
    return TurnChoice(play=play.notation if play.steps else None)
