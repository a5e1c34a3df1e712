"""The engine service against gnubg called directly in the test process (the oracle)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import gnubg
import pytest

from bot.gnubg.api import LEVELS, Level, Query
from bot.gnubg.capture import captured_output
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.samples import CONTEXTS, EVERY_CONTEXT, Case, Context, cases
from bot.gnubg.session import QueryError, Situation
from bot.rules import Match, Position, ScriptedDice
from tests.gnubg.cases import cubeinfo as gnubg_cubeinfo
from tests.gnubg.cases import gnubg_default_filters

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


def result_of(position: Position, flat: tuple[int, ...]) -> Position | None:
    """The position after gnubg's flat steps; None when the binding cut them at a bear-off."""
    if len(flat) % 2:
        return None
    mover, opponent = list(position.mover), list(position.opponent)
    for source, dest in zip(flat[::2], flat[1::2], strict=True):
        mover[source - 1] -= 1
        if dest:
            mover[dest - 1] += 1
            if opponent[24 - dest] == 1:
                opponent[24 - dest], opponent[24] = 0, opponent[24] + 1
    return Position(tuple(opponent), tuple(mover))


@pytest.mark.parametrize("name", ["expert", "worldclass"])
async def test_choose_play_is_find_best_move(engine: GnubgEngine, name: str) -> None:
    level = LEVELS[name]
    context = gnubg.evalcontext(1, level.plies, 1, int(level.prune), 0.0)
    compared = cut = no_play = 0
    for case in cases(seed=77, count=110):
        assert case.dice is not None
        chosen = await engine.choose_play(case.query(), level)
        plays = case.position.legal_plays(*case.dice)
        if not plays[0].steps:
            assert chosen is None
            no_play += 1
            continue
        assert chosen is not None
        play = case.position.parse_play(chosen, case.dice)
        assert play.notation == chosen  # our own notation, which Match.move accepts
        flat = tuple(gnubg.find_best_move(case.board(), gnubg_cubeinfo(case), context, case.dice))
        expected = result_of(case.position, flat)
        if expected is None:  # the oracle's steps are cut at "off": it did bear off
            assert any(dest == 0 for _, dest in play.steps), (case, chosen, flat)
            cut += 1
            continue
        assert play.result == expected, (case.query(), chosen, flat)
        compared += 1
    assert compared >= 90, (compared, cut, no_play)


async def test_choose_play_resolves_bear_offs_cut_by_the_binding(engine: GnubgEngine) -> None:
    # 2 checkers on the 1-point, one on the 3, three on the 6; 11 to play.
    position = Position.from_points({1: 2, 3: 1, 6: 3}, {1: 5})
    case = Case(position, (1, 1), 0, Context())
    flat = tuple(
        gnubg.find_best_move(
            case.board(), gnubg_cubeinfo(case), gnubg.evalcontext(1, 0, 1, 0, 0.0), (1, 1)
        )
    )
    assert len(flat) % 2  # the binding's pitfall is there
    chosen = await engine.choose_play(case.query(), LEVELS["expert"])
    assert chosen is not None
    play = position.parse_play(chosen, (1, 1))
    # The hint the engine falls back on agrees with the cut tuple's known steps.
    known = result_of(position, flat[:-1])
    assert known is not None
    assert sum(play.result.opponent) < sum(position.mover)  # it bore off
    assert play in position.legal_plays(1, 1)


def oracle_cube(case: Case, plies: int) -> str | None:
    """gnubg's "Proper cube action", with its IDs built by gnubg's own functions."""
    c = case.context
    cubeinfo = gnubg_cubeinfo(case)  # money: gnubg's match_id reads the Jacoby rule from it
    posinfo = gnubg.posinfo(case.on_roll, 0, 0, 1, (0, 0))
    gnubg_id = f"{gnubg.position_id(case.board())}:{gnubg.match_id(cubeinfo, posinfo)}"
    with captured_output() as out:
        gnubg.command("set threads 1")
        gnubg.command(f"set jacoby {'on' if c.jacoby else 'off'}")
        gnubg.command("set beavers 0")
        gnubg.command(f"set evaluation cubedecision evaluation plies {plies}")
        gnubg.command("set evaluation cubedecision evaluation prune on")
        gnubg.command("set cache 65536")
        gnubg.set_gnubg_id(gnubg_id)
        gnubg.command("hint")
    for line in out.text.splitlines():
        if line.startswith("Proper cube action:"):
            return line.removeprefix("Proper cube action:").split("(")[0].strip()
    assert "You cannot double" in out.text, out.text
    return None


def cube_cases() -> Iterator[Case]:
    yield from cases(seed=5, count=40, rolled=False)


@pytest.mark.parametrize("plies", [0, 2])
async def test_cube_advice_is_gnubg_hint(engine: GnubgEngine, plies: int) -> None:
    level = Level("test", plies, 0.0, prune=True)
    seen_contexts: set[Context] = set()
    decisions: set[tuple[bool, bool]] = set()
    for case in cube_cases():
        expected = oracle_cube(case, plies)
        if expected is None:  # Crawford, or the cube is the opponent's
            with pytest.raises(QueryError, match="can't double"):
                await engine.cube_advice(case.query(), level)
            continue
        advice = await engine.cube_advice(case.query(), level)
        assert advice.proper == expected, case
        assert advice.plies == plies
        doubler, _, taker = expected.lower().partition(", ")
        assert advice.double == (doubler in ("double", "redouble"))
        assert advice.take == (taker in ("take", "beaver"))
        assert not advice.beaver  # no beavers in these games
        seen_contexts.add(case.context)
        decisions.add((advice.double, advice.take))
    assert {c for c in CONTEXTS if not c.crawford and c.owner != "them"} <= seen_contexts


@pytest.mark.parametrize("plies", [0, 2])
async def test_the_bots_doubles_are_the_cube_advices(engine: GnubgEngine, plies: int) -> None:
    # The bot's turn analyses the cube only in gnubg's market window, as gnubg's own turn does:
    # over these positions that leaves out no double the full analysis makes.
    level = Level("test", plies, 0.0, prune=True)
    doubles = 0
    for case in cases(seed=12, count=240 if plies == 0 else 80, rolled=False):
        query = case.query()
        if not Situation.of(query).may_double():
            continue
        turn = await engine.take_turn(query, level, may_resign=False)
        advice = await engine.cube_advice(query, level)
        assert turn.double == advice.double, (case, advice)
        doubles += advice.double
    assert doubles >= 10


async def test_cube_advice_for_a_race_far_ahead_is_double_pass(engine: GnubgEngine) -> None:
    # On roll with 20 pips against 80 in a no-contact race: too good? gnubg says double/pass
    # or too good; the take is wrong either way.
    position = Position.from_points({1: 4, 2: 4, 3: 2}, {6: 5, 5: 5, 4: 5})
    case = Case(position, None, 0, Context())
    advice = await engine.cube_advice(case.query(), LEVELS["worldclass"])
    assert not advice.take
    assert advice.double_pass == 1.0
    assert advice.proper == oracle_cube(case, 2)


async def test_cube_advice_answers_a_double_already_offered(engine: GnubgEngine) -> None:
    match = Match.start(7, dice=ScriptedDice((3, 1)))
    match = match.move(match.on_roll, "8/5 6/5")
    doubled = match.double(match.on_roll)
    assert doubled.phase == "doubled"
    before = await engine.cube_advice(Query.of(match), LEVELS["worldclass"])
    answer = await engine.cube_advice(Query.of(doubled), LEVELS["worldclass"])
    assert answer == before
    assert answer.take  # an opening double in a 7-point match is a clear take


def oracle_hint(
    case: Case, count: int, plies: int, filters: list[dict[str, float]] | None = None
) -> list[tuple[str, float, int]]:
    """gnubg's own ``hint`` list (notation, equity, ply) in the test process, the IDs built
    by gnubg's functions; ``filters`` gnubg's move filters (default: the top ``count`` by the
    0-ply ranking all re-scored at ``plies``, by the notes' filters)."""
    c = case.context
    cubeinfo = gnubg_cubeinfo(case)  # money: gnubg's match_id reads the Jacoby rule from it
    posinfo = gnubg.posinfo(case.on_roll, 0, 0, 1, case.dice)
    gnubg_id = f"{gnubg.position_id(case.board())}:{gnubg.match_id(cubeinfo, posinfo)}"
    gnubg.set_eval_hint_filter(
        [
            {"ply": plies, "level": level, "acceptmoves": count, "extramoves": 0, "threshold": 0.0}
            for level in range(plies)
        ]
        if filters is None
        else filters
    )
    with captured_output() as out:
        gnubg.command("set threads 1")
        gnubg.command(f"set jacoby {'on' if c.jacoby else 'off'}")
        gnubg.command(f"set beavers {1 if c.beavers else 0}")
        gnubg.command(f"set evaluation chequerplay evaluation plies {plies}")
        gnubg.command("set evaluation chequerplay evaluation prune on")
        gnubg.command("set cache 65536")
        gnubg.set_gnubg_id(gnubg_id)
        gnubg.command(f"hint {count}")
    found = []
    for line in out.text.splitlines():
        match = re.match(r"^\s*\d+\.\s+Cubeful\s+(\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]\d+\.\d+)", line)
        if match:
            found.append((match[2], float(match[3]), int(match[1])))
    return found


async def test_hint_plays_are_gnubgs_hint_then_the_best_of_the_top_five(
    engine: GnubgEngine,
) -> None:
    """gnubg's own hint (its default filters) gives the first play; the others are those its
    filters keep at the full ply, with its figures, and where they are fewer than five the best
    of the top five by the 0-ply ranking, each with gnubg's figure at the full ply; all of them
    after the first by their equity."""
    count, plies = 5, 2
    checked = filled = 0
    for case in cases(seed=11, count=30, contexts=EVERY_CONTEXT):
        assert case.dice is not None
        options = await engine.hint_plays(case.query(), count=count, plies=plies)
        legal = case.position.legal_plays(*case.dice)
        if not legal[0].steps:
            assert options == ()
            continue
        assert len(options) == min(count, len(legal))
        if len(legal) == 1:
            continue
        own = oracle_hint(case, count, plies, gnubg_default_filters())
        kept = {play: (play, equity, ply) for play, equity, ply in own[1:] if ply == plies}
        top = {play: (play, equity, ply) for play, equity, ply in oracle_hint(case, count, plies)}
        lines = [(o.play, o.equity, o.plies) for o in options]
        assert options[0].play == own[0][0]
        assert set(kept) <= {line[0] for line in lines}
        for line in lines[1:]:
            assert line == kept.get(line[0], top.get(line[0])), (case.query(), lines)
        assert [line[1] for line in lines[1:]] == sorted(
            (line[1] for line in lines[1:]), reverse=True
        )
        assert all(o.plies == plies for o in options), options
        assert [o.difference for o in options] == [
            round(o.equity - options[0].equity, 3) for o in options
        ]
        checked += 1
        filled += len(kept) < len(lines) - 1
    assert checked >= 20 and filled >= 5, (checked, filled)


@pytest.mark.parametrize("plies", [1, 2])
async def test_rate_play_scores_any_play_as_gnubgs_hint_at_the_full_ply(
    engine: GnubgEngine, plies: int
) -> None:
    """A play outside the five gnubg's filters keep is scored at the full ply by itself: its
    equity is the one gnubg's own hint gives it when every play is scored at that ply (at
    1-ply to the thousandth; at 2-ply, whose pruning ranks by what gnubg's cache holds, most
    to the thousandth and all within 0.0035)."""
    rescored, exact = 0, 0
    for case in cases(seed=23, count=24 if plies == 1 else 10):
        assert case.dice is not None
        legal = case.position.legal_plays(*case.dice)
        if len(legal) <= 5 or len(legal) > 60:
            continue
        everything = {play: equity for play, equity, _ in oracle_hint(case, 60, plies)}
        assert len(everything) == len(legal)
        ranked = sorted(everything, key=lambda play: -everything[play])
        for play in ranked[5:][:: max(1, (len(ranked) - 5) // 3)]:  # a few outside the five
            rating = await engine.rate_play(case.query(), play, plies=plies)
            assert rating.played.plies == plies
            gap = abs(rating.played.equity - everything[play])
            assert gap <= (0.0011 if plies == 1 else 0.0035), (case.query(), play, rating)
            assert rating.played.difference == round(rating.played.equity - rating.best.equity, 3)
            chances = rating.played.probabilities
            assert 0 <= chances.win <= 1 and chances.win_gammon <= chances.win + 0.001
            rescored += 1
            exact += gap <= 0.0011
    assert rescored >= 10 and exact >= 0.8 * rescored
