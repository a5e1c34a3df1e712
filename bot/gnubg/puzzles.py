"""The starter pool of puzzles: GNU Backgammon plays itself, and the decisions it meets whose
answer is clear (:func:`bot.rules.puzzles.qualifies`) are kept with gnubg's whole 2-ply ranking.

``python -m bot puzzles build --seed N --count 1000 --out PATH`` runs :func:`main`. Each job is
one self-play match (:data:`CONTEXTS` in turn: money games with and without the Jacoby rule,
matches of 3 to 11 points) on dice seeded by the seed and the job's number, played in a gnubg
worker process (:mod:`bot.gnubg.pool`) at :data:`SELF_PLAY_LEVEL`. There a seeded sample of the
decisions (:data:`SAMPLED`) is asked about: a roll with a choice is ranked at 2-ply, and a cube
decision met in gnubg's doubling window (its "close"
decisions, :attr:`CubeFigures.close <bot.gnubg.decisions.CubeFigures.close>`: an opening's no
double is clear but no puzzle) is asked both ways, double and take. Each evaluation is a worker
request of its own, from an empty cache, so a job's puzzles are the same in any worker and in any
order: the pool is the jobs' puzzles in job order, the first of each position kept, cut at the
count. The same seed and count give the same bytes, whatever ``--workers``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot import event_loop
from bot.gnubg import installed, worker
from bot.gnubg.api import LEVELS, PlayOption, Query
from bot.gnubg.decisions import CubeFigures, ReviewedDecision
from bot.gnubg.pool import WorkerPool
from bot.gnubg.session import Situation, gnubg_module, request, use
from bot.gnubg.worker import _hint_options, _top_filters
from bot.rules.dice import VerifiableDice
from bot.rules.match import Match
from bot.rules.pasted import PastedPosition, from_gnubg_id
from bot.rules.puzzles import (
    CHECKER,
    MIN_GAP,
    PLIES,
    CubeEquities,
    Puzzle,
    Ranked,
    decode_pool,
    encode_pool,
    qualifies,
)

STARTER_POOL = Path(__file__).resolve().parents[1] / "data" / "puzzles.jsonl.gz"
SELF_PLAY_LEVEL = "advanced"  # 0-ply with a little noise: varied games, gnubg-like play
RANKING_LEVEL = LEVELS["worldclass"]  # 2-ply, pruning: the cube's figures
JOB_TIMEOUT_SECONDS = 3600.0
# The share of a match's decisions asked about (seeded by the job): a whole match's would make a
# pool of a few matches' consecutive positions; this spreads it over many games and scores.
SAMPLED = 0.25


@dataclass(frozen=True, slots=True)
class Context:
    length: int = 0
    jacoby: bool = False


CONTEXTS = (
    Context(0),
    Context(7),
    Context(0, jacoby=True),
    Context(5),
    Context(3),
    Context(9),
    Context(11),
)


def starter_pool(path: Path = STARTER_POOL) -> tuple[Puzzle, ...]:
    """The pool shipped in the package (built by ``python -m bot puzzles build``)."""
    return decode_pool(path.read_bytes())


@request
def ranked_plays(query: Query, plies: int = PLIES) -> tuple[PlayOption, ...]:
    """Every legal play for the rolled dice, each scored at ``plies`` (gnubg's ``hint`` with
    filters that keep them all), in gnubg's order: its first, then by equity."""
    situation = Situation.of(query)
    count = len(situation.position.legal_plays(*situation.rolled()))
    use(plies, prune=True)
    gnubg_module().set_eval_hint_filter(_top_filters(plies, count))
    return tuple(_hint_options(situation, count))


def _state(query: Query) -> PastedPosition:
    position_id, _, match_id = query.gnubg_id.partition(":")
    state = from_gnubg_id(query.gnubg_id, position_id, match_id)
    return replace(state, jacoby=query.jacoby, beavers=query.beavers)


def checker_puzzle(query: Query) -> Puzzle | None:
    """A rolled position as a puzzle, or None, in a worker: the hint's two best (cheap) first,
    the whole ranking only when they are :data:`MIN_GAP` apart, and gnubg's best must stay first
    in it. For a server's analysed rolls too (:func:`worth_ranking` says which to ask)."""
    top = worker.hint_plays(query, 2, PLIES)
    if len(top) < 2 or top[0].equity - top[1].equity < MIN_GAP:
        return None
    every = ranked_plays(query)
    if every[0].play != top[0].play or any(o.plies < PLIES for o in every):
        return None
    plays = (every[0], *sorted(every[1:], key=lambda option: -option.equity))
    puzzle = Puzzle(_state(query), tuple(Ranked(o.play, o.equity) for o in plays))
    return puzzle if qualifies(puzzle) else None


def cube_puzzle(state: PastedPosition, figures: CubeFigures) -> Puzzle | None:
    """The cube decision of ``state`` (a double before the roll, or a take of a double
    offered) as a puzzle from gnubg's figures (at 2-ply: the caller's to see), or None: it
    doesn't qualify, or it is a double outside gnubg's doubling window
    (:attr:`CubeFigures.close`)."""
    if not (state.doubled or figures.close):
        return None
    cube = CubeEquities(figures.no_double, figures.double_take, figures.double_pass)
    puzzle = Puzzle(state, cube=cube)
    return puzzle if qualifies(puzzle) else None


def _cube_puzzles(query: Query) -> list[Puzzle]:
    """The double and the take of the cube decision before this roll, those that are puzzles
    (the take only where the double is in gnubg's window too: a double worth asking about)."""
    advice = worker.cube_advice(query, RANKING_LEVEL)
    figures = CubeFigures(
        advice.no_double, advice.double_take, advice.double_pass, advice.proper, advice.plies
    )
    if not figures.close:
        return []
    state = _state(query)
    found = (cube_puzzle(state, figures), cube_puzzle(replace(state, doubled=True), figures))
    return [puzzle for puzzle in found if puzzle is not None]


def worth_ranking(decision: ReviewedDecision, plies: int) -> bool:
    """Whether an analysed roll (of an analysis at ``plies``) may be a puzzle, by the figures
    the analysis has: its two best plays, both at 2-ply, :data:`MIN_GAP` apart. Only those are
    worth :func:`checker_puzzle`'s whole ranking."""
    if decision.kind != CHECKER or plies != PLIES or len(decision.candidates) < 2:
        return False
    best, second = decision.candidates[:2]
    return best.plies == second.plies == PLIES and best.equity - second.equity >= MIN_GAP


def decision_puzzle(
    decision: ReviewedDecision, plies: int, *, jacoby: bool = False, beavers: bool = False
) -> Puzzle | None:
    """An analysed cube decision (the doubler's) or take (the taker's) as a puzzle, from the
    analysis' own figures (no engine call), or None. Rolls: :func:`worth_ranking`."""
    if decision.kind == CHECKER or decision.cube is None or plies != PLIES:
        return None
    state = _state(Query(decision.gnubg_id, jacoby=jacoby, beavers=beavers))
    return cube_puzzle(state, decision.cube)


def match_puzzles(seed: int, job: int) -> list[dict[str, Any]]:
    """Job ``job`` of seed ``seed`` (see the module text), in a worker: its puzzles' data."""
    context = CONTEXTS[job % len(CONTEXTS)]
    level = LEVELS[SELF_PLAY_LEVEL]
    match = Match.start(
        context.length, jacoby=context.jacoby, dice=VerifiableDice.seeded(f"puzzles:{seed}:{job}")
    )
    sample = random.Random(f"puzzles:{seed}:{job}")
    found: list[Puzzle] = []
    before_double = Query.of(match)
    while not match.is_over:
        player = match.turn
        assert player is not None
        asked = sample.random() < SAMPLED
        if match.phase == "roll":
            before_double = Query.of(match)
            if asked and match.can_double(player):
                found += _cube_puzzles(before_double)
            choice = worker.take_turn(before_double, level, may_resign=False)
            doubles = choice.double and match.can_double(player)
            match = match.double(player) if doubles else match.roll(player)
        elif match.phase == "move":
            if (
                asked
                and len(match.legal_plays()) > 1
                and (puzzle := checker_puzzle(Query.of(match)))
            ):
                found.append(puzzle)
            choice = worker.take_turn(Query.of(match), level, may_resign=False)
            assert choice.play is not None  # a roll with no legal play is passed by itself
            match = match.move(player, choice.play)
        else:
            assert match.phase == "doubled", match.phase
            advice = worker.cube_advice(before_double, level)
            match = match.take(player) if advice.take else match.drop(player)
    return [puzzle.to_data() for puzzle in found]


Progress = Callable[[int, int], None]  # (jobs done, puzzles so far)


async def build(
    seed: int, count: int, workers: int = 1, progress: Progress | None = None
) -> list[Puzzle]:
    """The first ``count`` puzzles of seed ``seed``'s jobs, in job order (see the module text),
    ``workers`` jobs at a time."""
    pool = WorkerPool(workers, name="gnubg-puzzles")
    found: dict[str, Puzzle] = {}
    pending: list[asyncio.Task[list[dict[str, Any]]]] = []
    job = 0
    try:
        while len(found) < count:
            while len(pending) < workers:
                pending.append(
                    asyncio.ensure_future(
                        pool.call(match_puzzles, seed, job, timeout=JOB_TIMEOUT_SECONDS)
                    )
                )
                job += 1
            done = pending.pop(0)
            for data in await done:
                puzzle = Puzzle.from_data(data)
                found.setdefault(puzzle.key, puzzle)
            if progress is not None:
                progress(job - len(pending), len(found))
    finally:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await pool.close()
    return list(found.values())[:count]


def main(argv: list[str]) -> int:
    """``python -m bot puzzles build --seed N --count N --out PATH [--workers N]``."""
    parser = argparse.ArgumentParser(prog="python -m bot puzzles")
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("build", help="build a pool of puzzles from gnubg self-play")
    making.add_argument("--seed", type=int, required=True)
    making.add_argument("--count", type=int, default=1000)
    making.add_argument("--out", type=Path, default=STARTER_POOL)
    making.add_argument("--workers", type=int, default=1, help="gnubg processes (default 1)")
    args = parser.parse_args(argv)
    if not installed():
        print("GNU Backgammon (gnubg) is not installed here: puzzles are built with it.")
        return 1
    if args.count < 1 or args.workers < 1:
        parser.error("--count and --workers are 1 or more")
    started = time.monotonic()

    def say(jobs: int, puzzles: int) -> None:
        seconds = time.monotonic() - started
        print(f"{jobs} matches, {puzzles} puzzles, {seconds:.0f} s", file=sys.stderr, flush=True)

    puzzles = event_loop.run(build(args.seed, args.count, args.workers, say))
    data = encode_pool(puzzles)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    kinds = {kind: sum(p.kind == kind for p in puzzles) for kind in ("checker", "double", "take")}
    print(
        f"{len(puzzles)} puzzles ({', '.join(f'{n} {k}' for k, n in kinds.items())}) "
        f"in {time.monotonic() - started:.0f} s: {args.out} ({len(data):,} bytes)"
    )
    return 0
