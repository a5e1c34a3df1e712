"""The worker's gnubg (see :mod:`bot.gnubg.worker`, whose requests run on it): importing it in
the worker, its settings sent only when they change, its cache emptied for every request, who
holds its current match, and :class:`Situation`, a query as gnubg is asked it.

gnubg is imported only by :func:`initialise` (the pool's initializer) and looked up from
``sys.modules`` afterwards: importing this module anywhere else is harmless.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from bot.gnubg.api import Level, Query
from bot.gnubg.capture import captured_output
from bot.rules.matchid import GAME_PLAYING, MatchIdFields, decode_match_id, encode_match_id
from bot.rules.position import Position
from bot.rules.state import MAX_CUBE

# Entries of gnubg's evaluation cache; emptied for every request (see request()).
CACHE_ENTRIES = 262_144


class QueryError(ValueError):
    """The query can't be asked: the text quotes it and says why."""


# -- the worker's gnubg -----------------------------------------------------------------------


@dataclass
class WorkerState:
    """gnubg settings this worker last used (sent again only when they change), whether a
    request is being served, and who holds gnubg's current match: None for the requests
    here, else an analysis's key."""

    initialised: bool = False
    context: tuple[Any, ...] | None = None
    serving: bool = False
    holder: str | None = None
    default_filters: list[dict[str, Any]] = field(default_factory=list)
    # gnubg's cache is empty: nothing was evaluated since it was last emptied (by idle())
    emptied: bool = False


state = WorkerState()


def _die_with_parent() -> None:
    """End this worker when the bot's process dies, even by SIGKILL (a worker left behind
    would hold ~100 MB for ever): Linux's parent-death signal, else a thread that waits on
    the parent's sentinel (it never touches gnubg)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if sys.platform == "linux":
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        if not parent.is_alive():  # it died before the signal was armed
            os._exit(0)
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def initialise() -> None:
    """The pool's initializer: tied to the parent's life; gnubg imported here only, one
    thread (``hint`` deadlocks otherwise), a cache of known size, the default filters."""
    _die_with_parent()
    with captured_output():
        gnubg: Any = importlib.import_module("gnubg")

        gnubg.command("set threads 1")
        gnubg.command(f"set cache {CACHE_ENTRIES}")
        state.default_filters = list(gnubg.get_eval_hint_filter())
    state.context = state.holder = None
    state.initialised = state.emptied = True


def hand_over(holder: str) -> None:
    """gnubg's match, settings and cache are now ``holder``'s (an analysis): the next request
    here sets its own settings again and starts from an empty cache."""
    state.context = None
    state.holder = holder
    state.emptied = False


def holds(holder: str) -> bool:
    """Whether gnubg's current match is still ``holder``'s (no request set another since)."""
    return state.holder == holder


def empty_cache() -> None:
    """Empty gnubg's evaluation cache. ``set cache N`` empties it only when N is another size
    than the cache's, hence the two sizes."""
    command("set cache 1", f"set cache {CACHE_ENTRIES}")


F = TypeVar("F", bound=Callable[..., Any])


def request(function: F) -> F:
    """A request a worker serves (a function the bot sends it by name): it starts from an empty
    gnubg cache, so its answer is the one a fresh worker gives. gnubg's cache keys (``EvalKey``
    in its eval.c) leave out what tells some evaluations apart (a money game's key has no score,
    so a centred cube without Jacoby or beavers shares its keys with a match at double match
    point, and a 1-point match's opening 6-2 read the money game's cubeful equities as its own:
    +1.037), and an evaluation made inside a deeper search is read back where gnubg would make
    it otherwise (a 1-ply cube hint off by 0.005 after a 2-ply hint of another position). The
    worker empties the cache after answering (:func:`idle`), while the bot reads the answer; a
    request that finds it used empties it first (~0.3-0.8 ms). Calls inside a request keep its
    cache."""

    @functools.wraps(function)
    def serve(*args: Any, **kwargs: Any) -> Any:
        if state.serving:
            return function(*args, **kwargs)
        state.serving = True
        try:
            if not state.emptied or state.holder is not None:
                empty_cache()
            state.holder = None
            state.emptied = False
            return function(*args, **kwargs)
        finally:
            state.serving = False

    return cast(F, serve)


def idle() -> None:
    """The worker has answered and waits: empty the cache the last request used, so that the
    next one need not (an analysis holding gnubg keeps its cache between its calls)."""
    if state.emptied or state.holder is not None or not state.initialised:
        return
    empty_cache()
    state.emptied = True


def gnubg_module() -> Any:
    if not state.initialised:  # called outside a worker (a script or test, main thread)
        initialise()
    return sys.modules["gnubg"]


def command(*commands: str) -> str:
    gnubg = gnubg_module()
    with captured_output() as out:
        for line in commands:
            gnubg.command(line)
    return out.text


def use(plies: int, noise: float = 0.0, deterministic: bool = True, prune: bool = False) -> None:
    """Make gnubg's hint settings these (each request starts from an empty cache: see
    :func:`request`)."""
    context = (plies, noise, deterministic, prune)
    if state.context == context:
        return
    on = {True: "on", False: "off"}
    commands = []
    for kind in ("chequerplay", "cubedecision"):
        prefix = f"set evaluation {kind} evaluation"
        commands += [
            f"{prefix} plies {plies}",
            f"{prefix} noise {noise:.4f}",
            f"{prefix} deterministic {on[deterministic]}",
            f"{prefix} prune {on[prune]}",
            f"{prefix} cubeful on",
        ]
    command(*commands)
    state.context = context


def use_level(level: Level) -> None:
    use(level.plies, level.noise, level.deterministic, level.prune)


def evalcontext(
    plies: int,
    noise: float = 0.0,
    deterministic: bool = True,
    prune: bool = False,
    *,
    cubeful: bool = True,
) -> Any:
    return gnubg_module().evalcontext(int(cubeful), plies, int(deterministic), int(prune), noise)


# -- the question -----------------------------------------------------------------------------


def may_double(fields: MatchIdFields) -> bool:
    """The rules of :meth:`bot.rules.match.Match.can_double` for the player on roll, read
    from the Match ID."""
    me = fields.on_roll
    return not (
        fields.length == 1
        or fields.crawford
        or (fields.cube_owner is not None and fields.cube_owner != me)
        or (fields.length and fields.score[me] + fields.cube >= fields.length)
        or fields.cube * 2 > MAX_CUBE
    )


@dataclass(frozen=True, slots=True)
class Situation:
    """A :class:`Query` decoded with the project's own ID readers."""

    query: Query
    position: Position  # the player on roll (``fields.on_roll``) is the mover
    fields: MatchIdFields

    @classmethod
    def of(cls, query: Query) -> Situation:
        position_id, colon, match_id = query.gnubg_id.strip().partition(":")
        if not colon:
            raise QueryError(f"{query.gnubg_id!r} is not PositionID:MatchID")
        try:
            position = Position.from_position_id(position_id)
            fields = decode_match_id(match_id)
        except ValueError as error:
            raise QueryError(f"{query.gnubg_id!r} can't be read: {error}") from None
        if fields.game_state != GAME_PLAYING:
            raise QueryError(f"{query.gnubg_id!r} is not a game in play")
        return cls(query, position, fields)

    @property
    def dice(self) -> tuple[int, int] | None:
        return None if self.fields.dice == (0, 0) else self.fields.dice

    @property
    def board(self) -> list[list[int]]:
        """gnubg's board: the side not on roll, then the side on roll."""
        return [list(self.position.opponent), list(self.position.mover)]

    def cubeinfo(self, player: int | None = None) -> dict[str, Any]:
        """gnubg's cubeinfo with ``player`` (default: the one on roll) on move."""
        fields = self.fields
        owner = -1 if fields.cube_owner is None else fields.cube_owner
        move = fields.on_roll if player is None else player
        info: dict[str, Any] = gnubg_module().cubeinfo(
            fields.cube, owner, move, fields.length, fields.score, int(fields.crawford), 0
        )
        if not fields.length:
            # gnubg.cubeinfo() turns Jacoby on; its gammon prices follow from the rule.
            price = 0.0 if self.query.jacoby and fields.cube_owner is None else 1.0
            info = {
                **info,
                "jacoby": int(self.query.jacoby),
                "beavers": int(self.query.beavers),
                "gammonprice": ((price, price), (price, price)),
            }
        return dict(info)

    def before_roll_id(self) -> str:
        """The ID of this position before the roll, nothing offered: gnubg's ``set gnubgid``
        refuses a double offered, and a cube hint wants no dice."""
        fields = replace(
            self.fields, dice=(0, 0), doubled=False, resigned=0, turn=self.fields.on_roll
        )
        return f"{self.position.position_id()}:{encode_match_id(fields)}"

    def may_double(self) -> bool:
        return may_double(self.fields)

    def rolled(self) -> tuple[int, int]:
        if self.dice is None:
            raise QueryError(f"{self.query.gnubg_id!r} has no dice rolled: there is no play")
        return self.dice

    def set_in_gnubg(self, gnubg_id: str | None = None) -> None:
        """Make this gnubg's current match (money rules first: the ID doesn't carry them)."""
        on = {True: "on", False: "off"}
        out = command(
            f"set jacoby {on[self.query.jacoby]}",
            f"set beavers {1 if self.query.beavers else 0}",
        )
        gnubg = gnubg_module()
        with captured_output() as loaded:
            gnubg.set_gnubg_id(gnubg_id or self.query.gnubg_id)
        if "Setting GNUbg ID" not in loaded.text:
            raise QueryError(
                f"gnubg refused {gnubg_id or self.query.gnubg_id!r}: "
                f"{(loaded.text or out).strip()[:200]}"
            )
