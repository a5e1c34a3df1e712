"""What the service says: events, prompts and status messages, the score, the end of a match,
the leaderboard and stats, and the data and keys adapters read.

Pure functions of engine values and stored rows, except :func:`status_reply`, which also asks
the board images for the picture (:class:`BoardImages`, which draws and keeps them).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.bounded import Bounded
from bot.gnubg.api import LEVEL_NAMES
from bot.i18n import play as say
from bot.i18n import records as ledger
from bot.i18n import reports as words
from bot.i18n.core import ENGLISH, Language, worded
from bot.i18n.numbers import decimal
from bot.i18n.words import level_text, points_text
from bot.render import BoardState, LastPlay, render_board, warm_up
from bot.rules import Position
from bot.rules.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    GameOver,
    GameStarted,
    MatchOver,
    Moved,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Took,
)
from bot.rules.match import Match
from bot.rules.notation import dice_text, normalise_typed
from bot.rules.state import DEFAULT_AUTOMATIC_DOUBLES, MAX_CUBE
from bot.service.keys import Key, MatchKey, RematchKey
from bot.service.matches.renderer import Renderer
from bot.service.matches.repository import ClockReading, clock_line, clock_reading
from bot.service.models import (
    ENGINE_ID,
    Decision,
    MatchEnded,
    Pending,
    Reply,
    Table,
    clean_name,
    engine_seat_of,
    shown_prefix,
)
from bot.service.models import markdown_safe as md
from bot.store import PlayerRow
from bot.store.players import LevelRecord, MatchCounts

# Board images: drawn in a worker thread, and kept, so a board already drawn costs nothing.
#
# A match's picture depends only on its state (its row's version), the side it is seen from and
# the players' names, so :class:`BoardImages` keeps the PNGs it drew under that key, the least
# recently shown dropped first once they pass a total size.
IMAGE_BYTES_KEPT = 32 * 1024 * 1024  # PNGs kept in memory, in all

# match id, version, viewer, names, the clock as shown (whole seconds), and the language
ImageKey = tuple[int, int, int | None, tuple[str, str], tuple[int, ...], Language]


@dataclass(frozen=True, slots=True)
class RecordedPlay:
    """A play as the record keeps it, enough for the board to mark it."""

    dice: tuple[int, int]
    notation: str
    steps: tuple[tuple[int, int], ...]
    hits: tuple[int, ...]


def last_play(match: Match) -> LastPlay | None:
    """The latest play of the current game, for the board to mark."""
    for event in reversed(match.record):
        if isinstance(event, GameStarted):
            return None
        if isinstance(event, Moved) and event.steps:
            recorded = RecordedPlay(event.dice, event.play, event.steps, event.hits)
            return LastPlay(event.player, recorded)
    return None


def board_state(
    match: Match, names: tuple[str, str], clock: ClockReading | None = None
) -> BoardState:
    """What the board image of ``match`` shows (``clock``: its clock as read now)."""
    winner = match.winner
    last = match.games[-1] if match.phase == "over" and match.games else None
    if last is not None:
        winner = last.winner
    return BoardState(
        position=match.position,
        on_roll=match.on_roll,
        players=(clean_name(names[0]), clean_name(names[1])),
        match_length=match.length,
        score=match.score,
        crawford=match.crawford,
        cube_value=match.cube_value,
        cube_owner=match.cube_owner,
        dice=match.dice,
        phase=match.phase,
        winner=winner,
        last_play=last_play(match),
        resignation=match.resignation if match.phase == "resigned" else 0,
        beavers=match.options.beavers and match.cube_value * 4 <= MAX_CUBE,
        result=None if last is None else "single" if last.jacoby else last.result,
        points=0 if last is None else last.points,
        clock=None if clock is None else clock.banks,
        clock_running=None if clock is None else clock.running,
        clock_delay=0.0 if clock is None else clock.delay_left,
    )


class BoardImages:
    """The board PNGs of matches, drawn one at a time off the event loop (Pillow lets go of
    the GIL while it quantises and compresses), or none at all when ``enabled`` is false."""

    def __init__(self, *, enabled: bool = True, bytes_kept: int = IMAGE_BYTES_KEPT) -> None:
        self.enabled = enabled
        self._kept: Bounded[ImageKey, bytes] = Bounded(bytes_kept, weigh=len)
        self._renderer = Renderer()

    async def warm_up(self) -> None:
        """Draw one board, then every sprite a board may use, so that no player's board waits
        for the renderer's caches."""
        if self.enabled:
            state = BoardState(Position.initial(), on_roll=0, players=("", ""))
            await self._render(state, 0, ENGLISH)
            await self._renderer.run(warm_up)

    def close(self) -> None:
        self._renderer.close()

    async def board(
        self, table: Table, viewer: int | None, now: float | None = None, *, language: Language
    ) -> bytes | None:
        """``table``'s board seen by ``viewer`` (None: from the side on roll), its words in
        ``language``, or None when images are off. A clock is shown as it reads at ``now``
        (None: as the decision under way began)."""
        if not self.enabled:
            return None
        timer = table.timer
        if now is None and timer is not None:
            now = timer.turn_started_at
        clock = None if now is None else clock_reading(timer, table.match, now)
        shown = () if clock is None else (*map(int, clock.banks), math.ceil(clock.delay_left))
        key = (table.row.id, table.row.version, viewer, table.plain, shown, language)
        image = self._kept.get(key)
        if image is not None:
            return image
        image = await self._render(board_state(table.match, table.plain, clock), viewer, language)
        self._kept.put(key, image)
        return image

    async def picture(
        self, state: BoardState, viewer: int | None, *, language: Language
    ) -> bytes | None:
        """Any board state (a pasted position's) seen by ``viewer``, its words in ``language``,
        drawn but not kept; None when images are off."""
        if not self.enabled:
            return None
        return await self._render(state, viewer, language)

    async def _render(self, state: BoardState, viewer: int | None, language: Language) -> bytes:
        draw = functools.partial(render_board, state, viewer=viewer, language=language)
        return await self._renderer.run(draw)


def match_kind(length: int, *, language: Language, alone: bool = False) -> str:
    """``a 5-point match`` or ``a money game``: as a verb's object, or ``alone`` (after a colon
    or a comma), where a language's case may differ (Greek: αγώνα, αγώνας)."""
    if length == 0:
        return say.MONEY_GAME(language)
    return (say.POINT_MATCH_ALONE if alone else say.POINT_MATCH)(language, length)


def options_text(options: dict[str, Any]) -> str:
    """`` (Jacoby, beavers)`` for the money-game options that are on, else nothing."""
    names = [
        label for key, label in (("jacoby", "Jacoby"), ("beavers", "beavers")) if options.get(key)
    ]
    auto = options.get("automatic_doubles")
    if auto:
        most = DEFAULT_AUTOMATIC_DOUBLES if auto is True else int(auto)
        names.append(f"automatic doubles, at most {most} per game")
    return f" ({', '.join(names)})" if names else ""


def score_text(match: Match, names: tuple[str, str], *, language: Language) -> str:
    first, second = names
    a, b = match.score
    if match.length == 0:
        return say.SCORE_MONEY(language, first=first, a=a, second=second, b=b)
    text = say.SCORE_MATCH(language, first=first, a=a, second=second, b=b, length=match.length)
    if match.crawford:
        text += say.SCORE_CRAWFORD(language)
    elif match.post_crawford:
        text += say.SCORE_POST_CRAWFORD(language)
    return text


def describe(
    event: Event, names: tuple[str, str], *, money: bool = False, language: Language
) -> str | None:
    """One line for an event, or None for events the board and prompt already say.

    ``money``: the event is from a money game, which has no match score to speak of."""
    if isinstance(event, GameStarted):
        if event.game == 1:
            return None
        crawford = say.CRAWFORD_NO_DOUBLING(language) if event.crawford else ""
        return say.GAME_AT(
            language, game=event.game, a=event.score[0], b=event.score[1], crawford=crawford
        )
    if isinstance(event, OpeningRoll):
        first, second = event.dice
        rolls = say.OPENING_ROLLS(language, first=names[0], a=first, second=names[1], b=second)
        if event.winner is None:
            cube = say.CUBE_TURNS(language, cube=event.cube) if event.automatic_double else ""
            return say.OPENING_TIE(language, rolls=rolls, cube=cube)
        high, low = max(event.dice), min(event.dice)
        return say.OPENING_WINNER(
            language, rolls=rolls, winner=names[event.winner], high=high, low=low
        )
    if isinstance(event, Rolled):
        return say.ROLLS(language, who=names[event.player], dice=dice_text(event.dice))
    if isinstance(event, Moved):
        who = names[event.player]
        if event.no_legal_move:
            return say.CANT_MOVE(language, who=who, dice=dice_text(event.dice))
        forced = say.FORCED(language) if event.forced else ""
        return say.PLAYS(
            language, who=who, dice=dice_text(event.dice), play=event.play, forced=forced
        )
    if isinstance(event, Doubled):
        return say.DOUBLES(language, who=names[event.player], cube=event.cube)
    if isinstance(event, Took):
        return say.TAKES(language, who=names[event.player], cube=event.cube)
    if isinstance(event, Beavered):
        return say.BEAVERS(language, who=names[event.player], cube=event.cube)
    if isinstance(event, Dropped):
        return say.DROPS(language, who=names[event.player])
    if isinstance(event, ResignationOffered):
        return say.OFFERS_TO_RESIGN(
            language,
            who=names[event.player],
            level=level_text(event.level, language),
            points=points_text(event.points, language),
        )
    if isinstance(event, ResignationAccepted):
        return say.ACCEPTS_RESIGNATION(language, who=names[event.player])
    if isinstance(event, ResignationRejected):
        return say.REJECTS_RESIGNATION(language, who=names[event.player])
    if isinstance(event, GameOver):
        jacoby = say.JACOBY_NOTE(language) if event.jacoby else ""
        score = (
            ""
            if money
            else say.SCORE_AFTER(
                language, first=names[0], a=event.score[0], second=names[1], b=event.score[1]
            )
        )
        return say.WINS[event.result](
            language,
            winner=names[event.winner],
            points=points_text(event.points, language),
            jacoby=jacoby,
            score=score,
        )
    if isinstance(event, MatchOver):
        return None  # the prompt of the finished match says who won it (prompt_text)
    return None


# -- a match as it stands ----------------------------------------------------------------------


def clock_now(table: Table, now: float | None = None, *, language: Language) -> str | None:
    """The line that shows a clocked match's banks at ``now`` (None: as the decision under way
    began, i.e. just after the last action); None for a match without a clock."""
    timer = table.timer
    if timer is None:
        return None
    reading = clock_reading(timer, table.match, timer.turn_started_at if now is None else now)
    return None if reading is None else clock_line(table.names, reading, language=language)


async def status_reply(
    table: Table,
    events: Iterable[Event],
    prefix: str,
    images: BoardImages,
    *,
    lead: str = "",
    now: float | None = None,
    language: Language,
) -> Reply:
    """The message after a change: what happened, the board, who must do what now (and the
    clock, read at ``now``: None, just after the change)."""
    match, names = table.match, table.names
    lines = [lead] if lead else []
    money = match.length == 0
    lines += [
        text
        for text in (describe(e, names, money=money, language=language) for e in events)
        if text
    ]
    prompt, decision = prompt_text(table, prefix, language=language)
    lines.append(prompt)
    clock = clock_now(table, now, language=language)
    if clock is not None:
        lines.append(clock)
    turn = match.turn
    ids = table.row.player_ids
    viewer = turn if turn is not None else match.winner
    engine = engine_seat_of(ids)
    if engine is not None:  # a game against the bot: always the person's side, never the bot asked
        viewer = 1 - engine
        turn = turn if turn == viewer else None
    asked = ids[turn] if turn is not None and decision else None
    key: Key | None = match_key(table) if decision else None
    if decision is Decision.REMATCH:
        asked, key = rematch_asked(table), RematchKey(table.row.id)
    return Reply(
        "\n".join(lines),
        image=await images.board(table, viewer, now, language=language),
        mention=(ids[turn],) if turn is not None else (),
        decision=decision,
        decision_for=asked,
        decision_key=key,
        money_game=match.length == 0 and match.options.beavers,
        board_viewer=viewer if viewer is not None else match.on_roll,
        announces=(table.row.id, table.row.version),
        ended=MatchEnded(table) if table.row.status == "finished" else None,
    )


def play_form(command: str, prefix: str, *, language: Language) -> str:
    """How a play is typed, never a play itself (the first legal one, often a poor one, reads
    as advice): ``!move <from>/<to> …`` and where the legal plays are listed."""
    return say.PLAY_FORM(language, prefix=prefix, command=command)


def prompt_text(table: Table, prefix: str, *, language: Language) -> tuple[str, Decision | None]:
    """Who must do what now, and the question it asks them (if buttons can answer it)."""
    match, names, p = table.match, table.names, shown_prefix(prefix, table.place)
    if match.phase == "over":
        winner = match.winner
        assert winner is not None
        if match.length == 0:
            won = points_text(match.score[winner], language)
            result = say.WINS_MONEY_GAME(language, winner=names[winner], won=won)
        else:
            result = say.WINS_MATCH(
                language,
                winner=names[winner],
                kind=match_kind(match.length, language=language),
                a=match.score[winner],
                b=match.score[1 - winner],
            )
        return say.EXPORT_HINT(language, result=result, prefix=p), Decision.REMATCH
    turn = match.turn
    assert turn is not None
    who = names[turn]
    if table.row.player_ids[turn] == ENGINE_ID:
        return say.THINKING(language, who=who), None
    if match.phase == "roll":
        return say.ROLL_OR_DOUBLE(language, who=who, prefix=p), Decision.TURN
    if match.phase == "move":
        assert match.dice is not None
        form = play_form("move", p, language=language)
        return say.TO_MOVE(language, who=who, dice=dice_text(match.dice), form=form), None
    if match.phase == "doubled":
        cube = match.offered_cube
        assert cube is not None
        if match.length == 0 and match.options.beavers and cube * 2 <= MAX_CUBE:
            text = say.TAKE_DROP_OR_BEAVER(language, who=who, prefix=p, cube=cube, beaver=cube * 2)
            return text, Decision.DOUBLE
        return say.TAKE_OR_DROP(language, who=who, prefix=p, cube=cube), Decision.DOUBLE
    return say.ACCEPT_OR_REJECT(language, who=who, prefix=p), Decision.RESIGNATION


def ending_text(table: Table, *, language: Language) -> str:
    """How a match that is no longer played ended."""
    names, row = table.names, table.row
    if row.status == "aborted":
        how = words.ENDED_ABORTED.get(row.ending or "", words.ENDED_ABORTED["aborted"])
        return how(language, first=names[0], second=names[1])
    if row.ending == "claimed" and row.winner is not None:
        return words.ENDED_CLAIMED(language, winner=names[row.winner])
    if row.winner is not None and table.match.length == 0:
        won = points_text(table.match.score[row.winner], language)
        return words.ENDED_MONEY(language, winner=names[row.winner], won=won)
    if row.winner is not None:
        return words.ENDED_WON(language, winner=names[row.winner])
    return words.ENDED_OVER(language)


def ended_reply(table: Table, text: str) -> Reply:
    """The message of a match that ended without a last play (a claim, a clock run out):
    ``text``, and the rematch question a played-out match ends with (``table`` as it now
    stands, its winner stored)."""
    return Reply(
        text,
        decision=Decision.REMATCH,
        decision_for=rematch_asked(table),
        decision_key=RematchKey(table.row.id),
        announces=(table.row.id, table.row.version),
        ended=MatchEnded(table) if table.row.status == "finished" else None,
    )


def lead_text(names: tuple[str, str], pips: tuple[int, int], *, language: Language) -> str:
    """Who leads the race: fewer pips is ahead."""
    if pips[0] == pips[1]:
        return say.EVEN(language)
    ahead = 0 if pips[0] < pips[1] else 1
    return say.LEADS_BY(language, name=names[ahead], pips=abs(pips[0] - pips[1]))


def text_board(table: Table, viewer: int, language: Language) -> str:
    """The ASCII board from ``viewer``'s side, with who is who, its lines in ``language``."""
    match, names = table.match, table.plain
    position = match.position if viewer == match.on_roll else match.position.swapped()
    grid, legend = position.text_board()
    lines = [grid, *(f" {worded(line, language)}" for line in legend)]
    lines.append(f" Position ID: {position.position_id()}")
    lines.append(f" X = {names[viewer]}, O = {names[1 - viewer]}")
    return "\n".join(lines)


def game_data(table: Table) -> dict[str, Any]:
    match, names, row = table.match, table.plain, table.row
    turn = match.turn
    position = match.position if turn in (None, match.on_roll) else match.position.swapped()
    phase = match.phase
    winner = match.winner
    if row.status == "aborted":
        phase, turn = "over", None
    elif row.status == "finished":
        phase, turn, winner = "over", None, row.winner
    return {
        "players": list(names),
        "match_length": match.length,
        "score": list(match.score),
        "crawford": match.crawford,
        "game_number": match.game_number,
        "phase": phase,
        "turn": names[turn] if turn is not None else None,
        "dice": list(match.dice) if match.dice else None,
        "cube": match.cube_value,
        "cube_owner": names[match.cube_owner] if match.cube_owner is not None else None,
        "position_id": position.position_id(),
        "match_id": match.match_id(),
        "winner": names[winner] if winner is not None else None,
    }


def match_key(table: Table) -> MatchKey:
    """The key of the decision a match waits on (see :class:`Pending`)."""
    return MatchKey(table.row.id, table.match.action_count)


def rematch_asked(table: Table) -> str:
    """Who a finished match's Rematch button asks: the loser (it is their revenge), or the
    person in a game against the bot. Either player may answer it."""
    ids = table.row.player_ids
    engine = engine_seat_of(ids)
    if engine is not None:
        return ids[1 - engine]
    winner = table.row.winner if table.row.winner is not None else table.match.winner
    return ids[1 - winner] if winner is not None else ids[0]


# -- the server --------------------------------------------------------------------------------


def leaderboard_text(
    top: list[PlayerRow],
    asker: str,
    rank: tuple[int, int] | None,
    prefix: str,
    *,
    language: Language,
) -> str:
    """The top of the ladder, and where ``asker`` stands (``rank``: place and of how many)."""
    if not top:
        return ledger.NO_RATED_MATCHES(language, prefix=prefix)
    lines = [ledger.LEADERBOARD(language)]
    for place, player in enumerate(top, start=1):
        lines.append(
            ledger.LEADERBOARD_LINE(
                language,
                place=place,
                name=md(player.name),
                rating=decimal(player.rating, 1, language),
                wins=player.wins,
                losses=player.losses,
            )
        )
    if rank is None:
        lines.append(ledger.NOT_RANKED(language, name=md(asker)))
    else:
        lines.append(ledger.RANKED(language, name=md(asker), place=rank[0], players=rank[1]))
    return "\n".join(lines)


def stats_text(
    player: PlayerRow, rank: tuple[int, int] | None, counts: MatchCounts, *, language: Language
) -> str:
    ranked = (
        ledger.RANK(language, place=rank[0], players=rank[1]) if rank else ledger.UNRANKED(language)
    )
    return ledger.STATS(
        language,
        name=md(player.name),
        rating=decimal(player.rating, 1, language),
        ranked=ranked,
        experience=player.experience,
        wins=player.wins,
        losses=player.losses,
        playing=counts.playing,
        aborted=counts.aborted,
    )


def engine_record_text(records: list[LevelRecord], user_id: str, *, language: Language) -> str:
    """`` Against GNU Backgammon: expert 1-3, ...`` (won-lost, by level), or nothing."""
    if not records:
        return ""
    order = {name: index for index, name in enumerate(LEVEL_NAMES)}
    ranked = sorted(records, key=lambda record: order.get(record.level, len(order)))
    counts = ", ".join(f"{r.level} {r.wins}-{r.losses}" for r in ranked)
    if user_id == ENGINE_ID:
        return ledger.BY_LEVEL(language, counts=counts)
    return ledger.AGAINST_ENGINE(language, counts=counts)


# -- what people type --------------------------------------------------------------------------


def typed(text: str) -> str:
    """What a player typed, as the bot reads it: the engine's :func:`normalise_typed` (full-width
    digits and slashes become ASCII ones), trimmed."""
    return normalise_typed(text).strip()


_DECISIONS = {"roll": Decision.TURN, "doubled": Decision.DOUBLE, "resigned": Decision.RESIGNATION}


def table_pending(table: Table) -> Pending | None:
    """The question the match being played at ``table`` waits on, or None."""
    match = table.match
    turn = match.turn
    if turn is None or match.phase not in _DECISIONS or table.row.player_ids[turn] == ENGINE_ID:
        return None
    ids = table.row.player_ids
    return Pending(_DECISIONS[match.phase], ids[turn], table.names[turn], match_key(table))
